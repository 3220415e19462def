"""Loopy belief propagation, the Bethe free energy and convex duality (chapter 41).

Conventions. A pairwise Markov random field on ``n`` discrete variables with values
``0..K-1`` is given by *log-potentials* (natural parameters): ``unary[i, k] = log f_i(k)``
and ``pairwise[e, k, l] = log f_ij(k, l)`` for the edge ``edges[e] = (i, j)``, so that
``p(x) = exp(sum_i unary[i, x_i] + sum_e pairwise[e, x_i, x_j] - log Z)``. Messages live on
directed edges: row ``2e`` is the message ``i -> j`` (a function of ``x_j``), row ``2e + 1``
the message ``j -> i`` (a function of ``x_i``); messages and beliefs are normalised to sum 1.
Free energies follow the physics sign: the average energy is ``E(b) = -E_b[log f]`` and
``F_Bethe = E - H_Bethe``, so ``log Z_Bethe = -F_Bethe = H_Bethe - E``.

Non-convergence. :func:`loopy_bp`, :func:`naive_mean_field` and :func:`gaussian_bp` return
their last iterate with ``converged=False`` and issue a ``RuntimeWarning`` (the beliefs of an
oscillating BP are still worth looking at); :func:`trw_bp` raises instead, because the value
at unconverged messages is not an upper bound on ``log Z``.
"""
import warnings
from itertools import combinations
from math import comb
from typing import NamedTuple

import numpy as np
import scipy.special

from mlnotes import _validate as check

__all__ = ["PairwiseMRF", "LoopyBPResult", "BetheResult", "MeanFieldResult", "TRWResult",
           "GaussianBPResult", "exact_log_partition", "exact_marginals", "loopy_bp",
           "bethe_free_energy", "naive_mean_field", "trw_bp", "edge_appearance_uniform",
           "gaussian_bp", "walk_summability", "bernoulli_log_partition",
           "bernoulli_neg_entropy", "numeric_conjugate"]

_MAX_STATES = 2 ** 20      # largest joint table that exact enumeration builds


class PairwiseMRF:
    """A pairwise Markov random field with log-potentials on nodes and edges.

    Parameters
    ----------
    unary : array_like, shape (n, K)
        ``unary[i, k] = log f_i(k)``.
    pairwise : array_like, shape (m, K, K)
        ``pairwise[e, k, l] = log f_ij(k, l)`` for ``edges[e] = (i, j)``.
    edges : array_like of int, shape (m, 2)
        Distinct undirected edges ``(i, j)``, ``i != j``.

    Attributes
    ----------
    n_nodes, n_states, n_edges : int
    unary, pairwise, edges : ndarray
    incidence : ndarray, shape (n, 2m)
        ``incidence[t, a] = 1`` if directed edge ``a`` points into node ``t``.
    """

    def __init__(self, unary, pairwise, edges):
        unary = check.matrix(unary, "unary")
        n, K = unary.shape
        edges = check.edge_list(edges, n)
        pairwise = check.finite(pairwise, "pairwise")
        if pairwise.shape != (len(edges), K, K):
            raise ValueError(f"pairwise must have shape ({len(edges)}, {K}, {K}) to match unary "
                             f"and edges, got {pairwise.shape}")
        with np.errstate(over="ignore"):
            largest = (np.abs(unary).max(axis=1).sum()
                       + np.abs(pairwise).reshape(len(edges), K * K).max(axis=1, initial=0).sum())
        if not np.isfinite(largest):
            raise ValueError("unary and pairwise are too large: the log-potential of a configuration "
                             "overflows a float")
        self.unary, self.pairwise, self.edges = unary, pairwise, edges
        self.n_nodes, self.n_states, self.n_edges = n, K, len(edges)
        self.source = np.column_stack([edges[:, 0], edges[:, 1]]).reshape(-1)   # row 2e: i -> j
        self.target = np.column_stack([edges[:, 1], edges[:, 0]]).reshape(-1)
        self.incidence = np.zeros((n, 2 * len(edges)))
        self.incidence[self.target, np.arange(2 * len(edges))] = 1.0

    def __repr__(self):
        return (f"PairwiseMRF(n_nodes={self.n_nodes}, n_states={self.n_states}, "
                f"n_edges={self.n_edges})")

    def _oriented(self):
        """Pairwise log-potentials per directed edge, ``[a, x_source, x_target]``."""
        P = np.empty((2 * self.n_edges, self.n_states, self.n_states))
        P[0::2], P[1::2] = self.pairwise, np.transpose(self.pairwise, (0, 2, 1))
        return P


class LoopyBPResult(NamedTuple):
    """Beliefs and messages of loopy belief propagation on a :class:`PairwiseMRF`."""
    node_beliefs: np.ndarray   # (n, K)
    edge_beliefs: np.ndarray   # (m, K, K)
    messages: np.ndarray       # (2m, K), row 2e: i -> j, row 2e + 1: j -> i
    converged: bool
    n_iter: int
    residuals: np.ndarray      # max change of a message in each iteration


class BetheResult(NamedTuple):
    """Average energy, Bethe entropy, Bethe free energy and ``log Z_Bethe = H - E``."""
    energy: float
    entropy: float
    free_energy: float
    log_z: float


class MeanFieldResult(NamedTuple):
    """Naive mean-field marginals and the lower bound (the ELBO) on ``log Z``."""
    marginals: np.ndarray
    log_z_lower: float
    converged: bool
    n_iter: int


class TRWResult(NamedTuple):
    """Tree-reweighted BP: pseudo-marginals and the upper bound on ``log Z``."""
    node_beliefs: np.ndarray
    edge_beliefs: np.ndarray
    log_z_upper: float
    converged: bool
    n_iter: int


class GaussianBPResult(NamedTuple):
    """Means and variances of Gaussian loopy BP, with the residual of each iteration."""
    means: np.ndarray
    variances: np.ndarray
    converged: bool
    n_iter: int
    residuals: np.ndarray      # max change of a message parameter in each iteration


def _mrf(mrf):
    return check.instance_of(mrf, PairwiseMRF, "mrf", made_by="PairwiseMRF(...)")


def _configurations(mrf):
    """All ``K**n`` configurations (rows) and their unnormalised log-probabilities."""
    n, K = mrf.n_nodes, mrf.n_states
    if float(K) ** n > _MAX_STATES:
        raise ValueError(f"mrf has {K}**{n} configurations; exact enumeration allows at most 2**20")
    X = np.indices((K,) * n).reshape(n, -1).T
    score = mrf.unary[np.arange(n), X].sum(axis=1)
    if mrf.n_edges:
        i, j = mrf.edges.T
        score = score + mrf.pairwise[np.arange(mrf.n_edges), X[:, i], X[:, j]].sum(axis=1)
    return X, score


def exact_log_partition(mrf):
    """``log Z`` of a pairwise MRF by enumerating all configurations.

    Parameters
    ----------
    mrf : PairwiseMRF
        At most ``2**20`` configurations.

    Returns
    -------
    float
        ``log sum_x exp(sum_i unary[i, x_i] + sum_e pairwise[e, x_i, x_j])``.
    """
    _, score = _configurations(_mrf(mrf))
    return float(scipy.special.logsumexp(score, axis=0))


def exact_marginals(mrf):
    """Exact node and edge marginals of a pairwise MRF by enumeration.

    Parameters
    ----------
    mrf : PairwiseMRF
        At most ``2**20`` configurations.

    Returns
    -------
    node : ndarray, shape (n, K)
        ``node[i, k] = P(x_i = k)``.
    edge : ndarray, shape (m, K, K)
        ``edge[e, k, l] = P(x_i = k, x_j = l)`` for ``edges[e] = (i, j)``.
    """
    mrf = _mrf(mrf)
    X, score = _configurations(mrf)
    p = np.exp(score - scipy.special.logsumexp(score, axis=0))
    n, K, m = mrf.n_nodes, mrf.n_states, mrf.n_edges
    node = np.zeros((n, K))
    np.add.at(node, (np.broadcast_to(np.arange(n), X.shape), X), np.broadcast_to(p[:, None], X.shape))
    edge = np.zeros((m, K, K))
    if m:
        i, j = mrf.edges.T
        shape = (len(p), m)
        np.add.at(edge, (np.broadcast_to(np.arange(m), shape), X[:, i], X[:, j]),
                  np.broadcast_to(p[:, None], shape))
    return node, edge


def _cavities(mrf, log_m, rho_dir):
    """Cavity log-fields on the source side of every directed edge: the log node potential
    times the incoming messages (each to the power rho) except the one from the target."""
    pre = mrf.unary + mrf.incidence @ (rho_dir[:, None] * log_m)
    reverse = np.arange(len(log_m)) ^ 1
    return pre[mrf.source] - log_m[reverse], pre


def _update(P, cavity):
    """New normalised log-messages ``logsumexp_{x_s}(P[a, x_s, x_t] + cavity[a, x_s])``."""
    new = scipy.special.logsumexp(P + cavity[:, :, None], axis=1)
    return new - scipy.special.logsumexp(new, axis=1)[:, None]


def _damp(new, old, damping):
    return np.log(damping * np.exp(old) + (1.0 - damping) * np.exp(new))


def _sweep(mrf, P, log_m, rho_dir, schedule, damping):
    """One iteration of message passing; returns the new log-messages."""
    if schedule == "parallel":
        cavity, _ = _cavities(mrf, log_m, rho_dir)
        return _damp(_update(P, cavity), log_m, damping)
    log_m = log_m.copy()
    for a in range(len(log_m)):
        s = mrf.source[a]
        cav = mrf.unary[s] + mrf.incidence[s] @ (rho_dir[:, None] * log_m) - log_m[a ^ 1]
        log_m[a] = _damp(_update(P[a:a + 1], cav[None]), log_m[a:a + 1], damping)[0]
    return log_m


def _beliefs(mrf, P, log_m, rho_dir):
    cavity, pre = _cavities(mrf, log_m, rho_dir)
    node = np.exp(pre - scipy.special.logsumexp(pre, axis=1)[:, None])
    logb = P[0::2] + cavity[0::2, :, None] + cavity[1::2, None, :]
    flat = logb.reshape(len(logb), -1)
    edge = np.exp(flat - scipy.special.logsumexp(flat, axis=1)[:, None]).reshape(logb.shape)
    return node, edge


def _message_passing(mrf, rho, schedule, damping, max_iter, tol, log_m=None):
    """Shared loop of :func:`loopy_bp` (``rho = 1``) and :func:`trw_bp`."""
    K, m = mrf.n_states, mrf.n_edges
    rho_dir = np.repeat(rho, 2)
    P = mrf._oriented() / rho_dir[:, None, None] if m else np.zeros((0, K, K))
    if log_m is None:
        log_m = np.full((2 * m, K), -np.log(K))
    residuals, converged, it = [], m == 0, 0
    for it in range(1, max_iter + 1):
        if m == 0:
            break
        new = _sweep(mrf, P, log_m, rho_dir, schedule, damping)
        residuals.append(float(np.max(np.abs(np.exp(new) - np.exp(log_m)))))
        log_m = new
        if residuals[-1] < tol:
            converged = True
            break
    node, edge = _beliefs(mrf, P, log_m, rho_dir)
    return node, edge, np.exp(log_m), converged, it, np.array(residuals)


def _iteration_args(schedule, damping, max_iter, tol):
    check.choice(schedule, ("parallel", "sequential"), "schedule")
    damping = check.number_between(damping, "damping", 0.0, 1.0, open_high=True)
    return damping, check.count(max_iter, "max_iter"), check.positive(tol, "tol")


def _initial_messages(init, mrf):
    """``init`` (positive, shape (2m, K)) as normalised log-messages."""
    init = check.finite(init, "init")
    shape = (2 * mrf.n_edges, mrf.n_states)
    if init.shape != shape:
        raise ValueError(f"init must have shape {shape} (one message per directed edge), got {init.shape}")
    if np.any(init <= 0):
        raise ValueError("init must hold positive messages")
    return np.log(init) - np.log(init.sum(axis=1, keepdims=True))


def _warn_unconverged(what, max_iter):
    warnings.warn(f"{what} did not converge in max_iter={max_iter} iterations; the result is the "
                  "last iterate (converged=False)", RuntimeWarning, stacklevel=3)


def loopy_bp(mrf, schedule="parallel", damping=0.5, max_iter=500, tol=1e-10, init=None):
    """Sum-product (loopy) belief propagation on a pairwise MRF.

    Parameters
    ----------
    mrf : PairwiseMRF
    schedule : {"parallel", "sequential"}
        Update all messages at once from the old ones, or one directed edge after another
        (each update uses the newest messages).
    damping : float in [0, 1)
        ``M <- damping * M_old + (1 - damping) * M_update``; 0 is undamped BP.
    max_iter : int
        Maximum number of iterations (sweeps over all directed edges).
    tol : float
        Stop when no message changes by more than ``tol`` in an iteration.
    init : array_like, shape (2m, K), optional
        Positive initial messages (row ``2e``: ``i -> j``, row ``2e + 1``: ``j -> i``);
        default uniform.

    Returns
    -------
    LoopyBPResult
        Node beliefs ``(n, K)``, edge beliefs ``(m, K, K)``, messages ``(2m, K)``,
        ``converged``, the number of iterations and the residual of each iteration.

    Warns
    -----
    RuntimeWarning
        If the messages have not converged after ``max_iter`` iterations (the result is the
        last iterate, marked ``converged=False``).
    """
    mrf = _mrf(mrf)
    damping, max_iter, tol = _iteration_args(schedule, damping, max_iter, tol)
    log_m = None if init is None else _initial_messages(init, mrf)
    out = LoopyBPResult(*_message_passing(mrf, np.ones(mrf.n_edges), schedule, damping, max_iter, tol, log_m))
    if not out.converged:
        _warn_unconverged("loopy_bp", max_iter)
    return out


def _beliefs_args(mrf, b_node, b_edge):
    n, K, m = mrf.n_nodes, mrf.n_states, mrf.n_edges
    b_node = check.probabilities(b_node, "b_node", axis=-1, atol=1e-8)
    if b_node.shape != (n, K):
        raise ValueError(f"b_node must have shape ({n}, {K}), got {b_node.shape}")
    b_edge = check.finite(b_edge, "b_edge")
    if b_edge.shape != (m, K, K):
        raise ValueError(f"b_edge must have shape ({m}, {K}, {K}), got {b_edge.shape}")
    if np.any(b_edge < 0) or not np.allclose(b_edge.sum(axis=(1, 2)), 1.0, rtol=0, atol=1e-8):
        raise ValueError("b_edge must hold non-negative tables that each sum to 1")
    return b_node, b_edge


def _xlogx(p):
    return np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)


def _entropies(mrf, b_node, b_edge):
    """Node entropies ``H(b_i)`` and edge mutual informations ``I(b_ij)`` (from ``b_node``)."""
    h_node = -_xlogx(b_node).sum(axis=1)
    i, j = mrf.edges.T if mrf.n_edges else (np.zeros(0, int),) * 2
    prod = b_node[i][:, :, None] * b_node[j][:, None, :]
    ratio = np.where(b_edge > 0, b_edge / np.where(prod > 0, prod, 1.0), 1.0)
    mi = np.sum(np.where(b_edge > 0, b_edge * np.log(ratio), 0.0), axis=(1, 2))
    return h_node, mi


def _expected_log_potential(mrf, b_node, b_edge):
    return float(np.sum(b_node * mrf.unary) + np.sum(b_edge * mrf.pairwise))


def bethe_free_energy(mrf, b_node, b_edge):
    """Average energy, Bethe entropy and Bethe free energy of pseudo-marginals.

    Parameters
    ----------
    mrf : PairwiseMRF
    b_node : array_like, shape (n, K)
        Node beliefs (rows sum to 1).
    b_edge : array_like, shape (m, K, K)
        Edge beliefs (each table sums to 1); for the formula to be the Bethe free energy
        they should be locally consistent with ``b_node``.

    Returns
    -------
    BetheResult
        ``energy = -sum b_i log f_i - sum b_ij log f_ij``,
        ``entropy = sum_i H(b_i) - sum_ij I(b_ij)``, ``free_energy = energy - entropy`` and
        ``log_z = entropy - energy``.
    """
    mrf = _mrf(mrf)
    b_node, b_edge = _beliefs_args(mrf, b_node, b_edge)
    h_node, mi = _entropies(mrf, b_node, b_edge)
    energy = -_expected_log_potential(mrf, b_node, b_edge)
    entropy = float(h_node.sum() - mi.sum())
    return BetheResult(energy, entropy, energy - entropy, entropy - energy)


def _mean_field_field(mrf, q, i):
    """``unary_i + sum_j E_{q_j}[pairwise_ij]`` as a function of ``x_i``."""
    field = mrf.unary[i].copy()
    for e in np.flatnonzero(mrf.edges[:, 0] == i):
        field += mrf.pairwise[e] @ q[mrf.edges[e, 1]]
    for e in np.flatnonzero(mrf.edges[:, 1] == i):
        field += mrf.pairwise[e].T @ q[mrf.edges[e, 0]]
    return field


def naive_mean_field(mrf, max_iter=500, tol=1e-10):
    """Naive mean field by coordinate ascent on a fully factorised ``q``.

    Parameters
    ----------
    mrf : PairwiseMRF
    max_iter : int
        Maximum number of sweeps over the nodes.
    tol : float
        Stop when no marginal changes by more than ``tol`` in a sweep.

    Returns
    -------
    MeanFieldResult
        Marginals ``q`` of shape (n, K), the lower bound
        ``E_q[log f] + sum_i H(q_i) <= log Z``, ``converged`` and the number of sweeps.

    Warns
    -----
    RuntimeWarning
        If the marginals have not converged after ``max_iter`` sweeps (the bound still holds
        for the returned ``q``, which is marked ``converged=False``).
    """
    mrf = _mrf(mrf)
    max_iter, tol = check.count(max_iter, "max_iter"), check.positive(tol, "tol")
    q = np.exp(mrf.unary - scipy.special.logsumexp(mrf.unary, axis=1)[:, None])
    converged, it = False, 0
    for it in range(1, max_iter + 1):
        old = q.copy()
        for i in range(mrf.n_nodes):
            f = _mean_field_field(mrf, q, i)
            q[i] = np.exp(f - scipy.special.logsumexp(f, axis=0))
        if np.max(np.abs(q - old)) < tol:
            converged = True
            break
    i, j = mrf.edges.T if mrf.n_edges else (np.zeros(0, int),) * 2
    q_edge = q[i][:, :, None] * q[j][:, None, :]
    bound = _expected_log_potential(mrf, q, q_edge) - float(_xlogx(q).sum())
    if not converged:
        _warn_unconverged("naive_mean_field", max_iter)
    return MeanFieldResult(q, bound, converged, it)


def trw_bp(mrf, rho, damping=0.5, max_iter=2000, tol=1e-10):
    """Tree-reweighted belief propagation and its upper bound on ``log Z``.

    Parameters
    ----------
    mrf : PairwiseMRF
    rho : array_like, shape (m,)
        Edge-appearance probabilities in (0, 1] of a distribution over spanning trees
        (e.g. from :func:`edge_appearance_uniform`); ``rho = 1`` gives ordinary BP.
    damping : float in [0, 1)
        As in :func:`loopy_bp`.
    max_iter : int
    tol : float

    Returns
    -------
    TRWResult
        Pseudo-marginals and ``log_z_upper = sum b theta + sum_i H(b_i) - sum rho_ij I(b_ij)``
        at the fixed point: the maximum of this concave function over the local polytope,
        an upper bound on ``log Z`` when ``rho`` comes from spanning trees.

    Raises
    ------
    ValueError
        On bad input, or if the messages have not converged after ``max_iter`` iterations:
        the objective at unconverged messages is not the maximum, hence not a bound
        (increase ``max_iter`` or ``damping``).
    """
    mrf = _mrf(mrf)
    rho = check.vector(rho, mrf.n_edges, "rho") if mrf.n_edges else np.zeros(0)
    if np.any((rho <= 0) | (rho > 1)):
        raise ValueError("rho must lie in (0, 1]")
    damping, max_iter, tol = _iteration_args("parallel", damping, max_iter, tol)
    node, edge, _, converged, it, res = _message_passing(mrf, rho, "parallel", damping, max_iter, tol)
    if not converged:
        raise ValueError(f"trw_bp did not converge in max_iter={max_iter} iterations (last message "
                         f"change {res[-1]:.1e} > tol={tol:g}); the value at unconverged messages is "
                         "not an upper bound on log Z: increase max_iter or damping")
    h_node, mi = _entropies(mrf, node, edge)
    bound = _expected_log_potential(mrf, node, edge) + float(h_node.sum() - rho @ mi)
    return TRWResult(node, edge, bound, converged, it)


def edge_appearance_uniform(edges, n_nodes):
    """Edge-appearance probabilities of the uniform distribution on spanning trees.

    Enumerates every set of ``n_nodes - 1`` edges and keeps those whose reduced graph
    Laplacian is non-singular (exactly the spanning trees).

    Parameters
    ----------
    edges : array_like of int, shape (m, 2)
    n_nodes : int
        At least 2; the graph must be connected and ``C(m, n_nodes - 1) <= 200000``.

    Returns
    -------
    ndarray, shape (m,)
        ``rho[e]`` = fraction of spanning trees that contain edge ``e``.
    """
    n = check.count(n_nodes, "n_nodes", low=2)
    edges = check.edge_list(edges, n)
    m = len(edges)
    if m < n - 1 or comb(m, n - 1) > 200_000:
        raise ValueError(f"edges must hold between {n - 1} edges and a number small enough "
                         f"to enumerate (C(m, n-1) <= 200000), got m={m}")
    subsets = np.array(list(combinations(range(m), n - 1)))
    S = len(subsets)
    L = np.zeros((S, n, n))
    rows = np.repeat(np.arange(S), n - 1)
    i, j = edges[subsets.ravel()].T
    for a, b, sign in ((i, i, 1.0), (j, j, 1.0), (i, j, -1.0), (j, i, -1.0)):
        np.add.at(L, (rows, a, b), sign)
    trees = np.abs(np.linalg.det(L[:, 1:, 1:])) > 0.5
    if not trees.any():
        raise ValueError("edges must form a connected graph on n_nodes nodes")
    counts = np.bincount(subsets[trees].ravel(), minlength=m)
    return counts / trees.sum()


def _precision(J, h):
    J, _ = check.spd(J, check.square(J, "J").shape[0], "J")
    return J, check.vector(h, J.shape[0], "h")


def walk_summability(J):
    """Spectral radius ``rho(|R|)`` of the partial-correlation matrix of a Gaussian model.

    With ``D = diag(J)`` and ``R = I - D^(-1/2) J D^(-1/2)`` (the partial correlations, up to
    sign, on the off-diagonal), the model is walk-summable when ``rho(|R|) < 1``
    (Malioutov, Johnson and Willsky 2006); then Gaussian loopy BP converges.

    Parameters
    ----------
    J : array_like, shape (n, n)
        Symmetric positive definite precision matrix.

    Returns
    -------
    float
        ``rho(|R|)``, the largest eigenvalue of the non-negative symmetric matrix ``|R|``.
    """
    J = check.spd(J, check.square(J, "J").shape[0], "J")[0]
    d = 1.0 / np.sqrt(np.diag(J))
    R = -(d[:, None] * J * d[None, :])
    np.fill_diagonal(R, 0.0)
    return float(np.max(np.abs(np.linalg.eigvalsh(np.abs(R)))))


def gaussian_bp(J, h, damping=0.0, max_iter=1000, tol=1e-10):
    """Loopy belief propagation for the Gaussian ``p(x) ∝ exp(-x^T J x / 2 + h^T x)``.

    The graph has an edge ``(i, j)`` wherever ``J[i, j] != 0``. The message ``i -> j`` is
    ``exp(-dJ x_j^2 / 2 + dh x_j)`` with ``dJ = -J_ij^2 / Jc`` and ``dh = -J_ij hc / Jc``,
    where ``Jc = J_ii + sum_{k in ne(i) minus j} dJ_{k->i}`` and ``hc`` likewise are the cavity
    parameters at ``i``; all messages are updated in parallel from zero. The beliefs are
    ``N(h_i' / J_i', 1 / J_i')`` with ``J_i' = J_ii + sum_k dJ_{k->i}`` (and ``h_i'``).

    Parameters
    ----------
    J : array_like, shape (n, n)
        Symmetric positive definite precision matrix.
    h : array_like, shape (n,)
        Potential vector (the mean is ``J^-1 h``).
    damping : float in [0, 1)
        ``message <- damping * old + (1 - damping) * update`` for both parameters.
    max_iter : int
    tol : float
        Stop when no message parameter changes by more than ``tol`` in an iteration.

    Returns
    -------
    GaussianBPResult
        ``means`` and ``variances`` (n,) of the beliefs, ``converged``, the number of
        iterations and the residual of each iteration.

    Warns
    -----
    RuntimeWarning
        If the messages have not converged after ``max_iter`` iterations, or became
        non-finite (a cavity precision hit zero); the result is the last finite iterate,
        marked ``converged=False``. (Its variances may be negative: a message with a
        non-positive cavity precision is not a Gaussian.)
    """
    J, h = _precision(J, h)
    damping = check.number_between(damping, "damping", 0.0, 1.0, open_high=True)
    max_iter, tol = check.count(max_iter, "max_iter"), check.positive(tol, "tol")
    n = len(h)
    i, j = np.nonzero(np.triu(J, 1))
    src, dst = np.r_[i, j], np.r_[j, i]                       # a and a + m are reverse edges
    rev = np.r_[np.arange(len(i), 2 * len(i)), np.arange(len(i))]
    Jsd, dJ, dh = J[src, dst], np.zeros(len(src)), np.zeros(len(src))
    residuals, converged, it, finite = [], len(src) == 0, 0, True
    while not converged and it < max_iter:
        it += 1
        tJ = np.diag(J) + np.bincount(dst, dJ, minlength=n)
        th = h + np.bincount(dst, dh, minlength=n)
        cJ, ch = tJ[src] - dJ[rev], th[src] - dh[rev]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            new_J = damping * dJ + (1 - damping) * (-Jsd ** 2 / cJ)
            new_h = damping * dh + (1 - damping) * (-Jsd * ch / cJ)
        finite = bool(np.all(np.isfinite(new_J)) and np.all(np.isfinite(new_h)))
        if not finite:
            break
        residuals.append(float(max(np.abs(new_J - dJ).max(), np.abs(new_h - dh).max())))
        dJ, dh = new_J, new_h
        converged = residuals[-1] < tol
    tJ = np.diag(J) + np.bincount(dst, dJ, minlength=n)
    th = h + np.bincount(dst, dh, minlength=n)
    if not finite:
        warnings.warn(f"gaussian_bp stopped at iteration {it}: a message became infinite (a cavity "
                      "precision was zero); the result is the last finite iterate (converged=False)",
                      RuntimeWarning, stacklevel=2)
    elif not converged:
        _warn_unconverged("gaussian_bp", max_iter)
    with np.errstate(divide="ignore"):
        return GaussianBPResult(th / tJ, 1.0 / tJ, bool(converged), it, np.array(residuals))


def bernoulli_log_partition(theta):
    """Log-partition ``Phi(theta) = log(1 + exp(theta))`` of the Bernoulli family.

    Parameters
    ----------
    theta : array_like
        Natural parameters (log-odds).

    Returns
    -------
    ndarray or float
        ``Phi(theta)``, computed without overflow.
    """
    theta = check.finite(theta, "theta")
    out = np.logaddexp(0.0, theta)
    return float(out) if out.ndim == 0 else out


def bernoulli_neg_entropy(mu):
    """Negative entropy ``Psi(mu) = mu log mu + (1 - mu) log(1 - mu)`` of a Bernoulli mean.

    Parameters
    ----------
    mu : array_like
        Mean parameters in [0, 1] (``0 log 0 = 0``).

    Returns
    -------
    ndarray or float
        ``Psi(mu)``, the convex conjugate of :func:`bernoulli_log_partition`.
    """
    mu = check.finite(mu, "mu")
    if np.any((mu < 0) | (mu > 1)):
        raise ValueError("mu must lie in [0, 1]")
    out = _xlogx(mu) + _xlogx(1.0 - mu)
    return float(out) if out.ndim == 0 else out


def numeric_conjugate(f, y, grid):
    """Convex conjugate ``f*(y) = sup_x (y^T x - f(x))`` approximated by a maximum over a grid.

    Parameters
    ----------
    f : callable
        ``f(grid)`` returns the values of ``f`` at the grid points, shape ``(G,)``.
    y : array_like, shape (k,) or (k, d)
        Points at which to evaluate the conjugate (``(k,)`` when ``d = 1``).
    grid : array_like, shape (G,) or (G, d)
        Points ``x`` over which the supremum is taken (the domain of ``f``).

    Returns
    -------
    ndarray, shape (k,)
        ``max_g (y^T x_g - f(x_g))``, a lower bound on ``f*(y)`` that is exact when the
        maximiser is a grid point.
    """
    f = check.function(f, "f")
    grid = check.finite(grid, "grid")
    if grid.ndim not in (1, 2) or grid.shape[0] == 0:
        raise ValueError(f"grid must have shape (G,) or (G, d), got {grid.shape}")
    G = grid.reshape(len(grid), -1)
    y = check.finite(y, "y")
    Y = y.reshape(-1, 1) if G.shape[1] == 1 and y.ndim <= 1 else np.atleast_2d(y)
    if Y.shape[1] != G.shape[1]:
        raise ValueError(f"y must have {G.shape[1]} columns to match grid, got shape {y.shape}")
    values = check.returned(f(grid), "f", shape=(len(grid),))
    return np.max(Y @ G.T - values[None, :], axis=1)
