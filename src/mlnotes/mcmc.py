"""Markov chains and Monte Carlo: finite chains, rejection and importance sampling, MCMC.

Transition matrices are row-stochastic, ``P[i, j] = p(x_{t+1} = j | x_t = i)``, so a row
vector of state probabilities moves as ``p_{t+1} = P.T @ p_t``. The samplers run many
independent chains at once: the Python loops run over time steps (or Gibbs coordinates),
never over chains.

* :func:`propagate`, :func:`stationary_distribution`, :func:`is_irreducible`,
  :func:`period`, :func:`detailed_balance_residual`, :func:`pagerank`,
  :func:`metropolis_matrix` -- finite-state chains;
* :func:`rejection_sample`, :func:`importance_estimate` -- independent sampling;
* :func:`metropolis_hastings`, :func:`gibbs_gaussian`, :func:`gibbs_ising`,
  :func:`ising_exact` -- Markov chain Monte Carlo and the exact Ising reference;
* :func:`autocorrelation`, :func:`effective_sample_size`, :func:`gelman_rubin` --
  diagnostics.
"""
from typing import NamedTuple

import numpy as np
import scipy.special

from mlnotes import _validate as check

__all__ = ["propagate", "stationary_distribution", "is_irreducible", "period",
           "detailed_balance_residual", "pagerank", "metropolis_matrix", "rejection_sample",
           "RejectionResult", "importance_estimate", "metropolis_hastings", "MHResult",
           "gibbs_gaussian", "gibbs_ising", "ising_exact", "IsingExact", "autocorrelation",
           "effective_sample_size", "gelman_rubin"]


def propagate(P, p0, t):
    """State distributions ``p_0, ..., p_t`` of a chain, by ``p_{s+1} = P.T @ p_s``.

    Parameters
    ----------
    P : array_like, shape (d, d)
        Row-stochastic transition matrix, ``P[i, j] = p(x_{s+1} = j | x_s = i)``.
    p0 : array_like, shape (d,)
        Initial distribution.
    t : int
        Number of steps (>= 0).

    Returns
    -------
    ndarray, shape (t + 1, d)
        Row ``s`` is the distribution of ``x_s``.
    """
    P = check.stochastic_matrix(P)
    p = check.probabilities(check.vector(p0, P.shape[0], "p0"), "p0")
    t = check.count(t, "t", low=0)
    if (t + 1) * P.shape[0] > 10**8:
        raise ValueError(f"t = {t} is too large: the output would have (t + 1) d > 10^8 entries")
    out = np.empty((t + 1, P.shape[0]))
    out[0] = p
    for s in range(t):
        out[s + 1] = P.T @ out[s]
    return out


def stationary_distribution(P):
    """A distribution ``pi`` with ``P.T @ pi = pi`` (unique if ``P`` is irreducible).

    Solves the linear system ``(P.T - I) pi = 0``, ``sum(pi) = 1`` by least squares.

    Parameters
    ----------
    P : array_like, shape (d, d)
        Row-stochastic transition matrix.

    Returns
    -------
    ndarray, shape (d,)
        The stationary distribution (for a reducible chain, one of them).
    """
    P = check.stochastic_matrix(P)
    d = P.shape[0]
    A = np.vstack([P.T - np.eye(d), np.ones((1, d))])
    b = np.zeros(d + 1)
    b[-1] = 1.0
    pi = np.linalg.lstsq(A, b, rcond=None)[0]
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum()


def _reachable(P):
    """Boolean matrix R[i, j]: j can be reached from i in zero or more steps."""
    d = P.shape[0]
    R = (P > 0) | np.eye(d, dtype=bool)
    for _ in range(int(np.ceil(np.log2(max(d, 2)))) + 1):  # repeated squaring of the graph
        R = (R.astype(np.int64) @ R.astype(np.int64)) > 0
    return R


def is_irreducible(P):
    """Whether every state of the chain can be reached from every other state.

    Parameters
    ----------
    P : array_like, shape (d, d)
        Row-stochastic transition matrix.

    Returns
    -------
    bool
    """
    return bool(np.all(_reachable(check.stochastic_matrix(P))))


def period(P, i):
    """The period ``gcd{t >= 1 : (P^t)[i, i] > 0}`` of state ``i`` (0 if it never returns).

    Uses the breadth-first levels ``l`` of the communicating class of ``i``: the period is
    the gcd of ``l(u) + 1 - l(v)`` over the edges ``u -> v`` inside the class.

    Parameters
    ----------
    P : array_like, shape (d, d)
        Row-stochastic transition matrix.
    i : int
        A state, ``0 <= i < d``.

    Returns
    -------
    int
        The period; 1 means that state ``i`` is aperiodic.
    """
    P = check.stochastic_matrix(P)
    d = P.shape[0]
    i = check.count(i, "i", low=0)
    if i >= d:
        raise ValueError(f"i must be a state index below {d}, got {i}")
    R = _reachable(P)
    cls = R[i] & R[:, i]
    A = (P > 0) & cls[:, None] & cls[None, :]
    if not A.any():
        return 0
    level = np.full(d, -1)
    level[i], frontier = 0, np.array([i])
    while frontier.size:
        nxt = np.flatnonzero(A[frontier].any(axis=0) & (level < 0))
        level[nxt] = level[frontier[0]] + 1
        frontier = nxt
    u, v = np.nonzero(A)
    return int(np.gcd.reduce(np.abs(level[u] + 1 - level[v])))


def detailed_balance_residual(P, pi):
    """Largest violation ``max_ij |pi_i P_ij - pi_j P_ji|`` of detailed balance.

    Parameters
    ----------
    P : array_like, shape (d, d)
        Row-stochastic transition matrix.
    pi : array_like, shape (d,)
        A distribution.

    Returns
    -------
    float
        0 exactly when the chain is reversible with respect to ``pi``.
    """
    P = check.stochastic_matrix(P)
    pi = check.probabilities(check.vector(pi, P.shape[0], "pi"), "pi")
    F = pi[:, None] * P  # probability flow i -> j
    return float(np.max(np.abs(F - F.T)))


def pagerank(T, alpha):
    """PageRank: the stationary distribution of ``(1 - alpha) T + alpha / d``.

    Parameters
    ----------
    T : array_like, shape (d, d)
        Row-stochastic random-walk matrix of the link graph.
    alpha : float
        Teleportation probability, ``0 < alpha <= 1``.

    Returns
    -------
    ndarray, shape (d,)
        The PageRank scores (a distribution).
    """
    T = check.stochastic_matrix(T, "T")
    alpha = check.number_between(alpha, "alpha", 0.0, 1.0, open_low=True)
    d = T.shape[0]
    return stationary_distribution((1 - alpha) * T + alpha / d)


def metropolis_matrix(pi, Q):
    """Finite-state Metropolis--Hastings kernel for target ``pi`` and proposal ``Q``.

    ``K[i, j] = Q[i, j] min(1, pi_j Q[j, i] / (pi_i Q[i, j]))`` for ``j != i``, and the
    rejected mass stays on the diagonal.

    Parameters
    ----------
    pi : array_like, shape (d,)
        Target distribution, all entries positive.
    Q : array_like, shape (d, d)
        Row-stochastic proposal matrix.

    Returns
    -------
    ndarray, shape (d, d)
        The row-stochastic MH transition matrix.
    """
    Q = check.stochastic_matrix(Q, "Q")
    pi = check.probabilities(check.vector(pi, Q.shape[0], "pi"), "pi")
    if np.any(pi <= 0):
        raise ValueError("pi must have positive entries")
    flow = pi[:, None] * Q  # pi_i Q_ij
    with np.errstate(divide="ignore", invalid="ignore"):
        A = np.where(flow > 0, np.minimum(1.0, flow.T / np.where(flow > 0, flow, 1.0)), 0.0)
    K = Q * A
    np.fill_diagonal(K, 0.0)
    K[np.diag_indices_from(K)] = 1.0 - K.sum(axis=1)
    return K


class RejectionResult(NamedTuple):
    """Accepted samples and the bookkeeping of a rejection sampler."""

    samples: np.ndarray
    n_proposed: int
    acceptance_rate: float


def rejection_sample(log_p_tilde, sample_q, log_q, log_c, n, rng, max_proposals=10**7):
    """Rejection sampling from ``p ∝ p_tilde`` with the envelope ``c q >= p_tilde``.

    Proposes ``x ~ q``, ``u ~ U(0, 1)`` and accepts when ``u c q(x) <= p_tilde(x)``, in
    vectorised batches, until ``n`` samples are accepted.

    Parameters
    ----------
    log_p_tilde, log_q : callable
        Log of the unnormalised target and of the proposal density, elementwise on arrays.
    sample_q : callable
        ``sample_q(m, rng)`` returns ``m`` draws from ``q`` (an array with first axis ``m``).
    log_c : float
        Log of the envelope constant.
    n : int
        Number of samples wanted.
    rng : numpy.random.Generator
    max_proposals : int
        Give up after this many proposals (a target with no mass under ``q`` would
        otherwise never accept).

    Returns
    -------
    RejectionResult
        ``samples`` (first ``n`` accepted draws), ``n_proposed`` (proposals used up to the
        ``n``-th acceptance) and ``acceptance_rate = n / n_proposed``.

    Raises
    ------
    ValueError
        Bad arguments, a proposal where ``p_tilde > c q`` (the envelope is too low), or
        fewer than ``n`` acceptances in ``max_proposals`` proposals (``p_tilde`` has no,
        or almost no, mass where ``q`` proposes).
    """
    for f, name in ((log_p_tilde, "log_p_tilde"), (sample_q, "sample_q"), (log_q, "log_q")):
        check.function(f, name)
    log_c, n, rng = check.number(log_c, "log_c"), check.count(n, "n"), check.generator(rng)
    max_proposals = check.count(max_proposals, "max_proposals")
    accepted, used, batch, proposed = [], 0, max(64, 2 * n), 0
    while sum(len(a) for a in accepted) < n:
        if proposed >= max_proposals:
            raise ValueError(f"log_p_tilde: only {sum(len(a) for a in accepted)} of the n = {n} samples "
                             f"accepted in max_proposals = {max_proposals} proposals; the target has "
                             f"(almost) no mass where q proposes")
        batch = min(batch, max_proposals - proposed)
        proposed += batch
        x = np.asarray(sample_q(batch, rng))
        lr = check.as_float(log_p_tilde(x), "the value returned by log_p_tilde") - log_c - log_q(x)
        if lr.shape != (batch,) or np.any(np.isnan(lr)):
            raise ValueError("log_p_tilde and log_q must return one finite number per proposal")
        if np.any(lr > 1e-9):
            raise ValueError("log_c is too small: p_tilde exceeds c q at a proposal")
        ok = np.log(rng.random(batch)) <= lr
        need = n - sum(len(a) for a in accepted)
        idx = np.flatnonzero(ok)[:need]
        used += batch if idx.size < need else int(idx[-1]) + 1
        accepted.append(x[idx])
        if idx.size == 0:
            batch = min(2 * batch, 2**20)  # nothing accepted: propose more at once
    samples = np.concatenate(accepted)
    return RejectionResult(samples, used, n / used)


def importance_estimate(f, log_p_tilde, log_q, x, self_normalised=True):
    """Importance-sampling estimate of ``E_p[f(x)]`` from draws ``x`` of ``q``.

    Plain: ``mean(f(x) p(x) / q(x))`` (``log_p_tilde`` must then be the *normalised*
    log density). Self-normalised: ``sum f(x_i) w_i / sum w_j`` with ``w = p_tilde / q``.
    The last axis of ``x`` indexes the ``m`` draws; leading axes are replications.

    Parameters
    ----------
    f, log_p_tilde, log_q : callable
        Elementwise functions of the draws.
    x : array_like, shape (..., m)
        Draws from ``q``.
    self_normalised : bool

    Returns
    -------
    float or ndarray
        One estimate per replication (shape ``x.shape[:-1]``).
    """
    for g, name in ((f, "f"), (log_p_tilde, "log_p_tilde"), (log_q, "log_q")):
        check.function(g, name)
    x = check.finite(x, "x")
    self_normalised = check.flag(self_normalised, "self_normalised")
    if x.ndim == 0 or x.shape[-1] == 0:
        raise ValueError("x must have at least one draw along its last axis")
    fx = check.returned(f(x), "f", x.shape)
    lp, lq = check.as_float(log_p_tilde(x), "log_p_tilde"), check.as_float(log_q(x), "log_q")
    if lp.shape != x.shape or lq.shape != x.shape or np.any(np.isnan(lp)) or np.any(np.isnan(lq)):
        raise ValueError("log_p_tilde and log_q must return one number (not NaN) per draw")
    if np.any(lp == np.inf) or np.any(lq == -np.inf) or np.any(lq == np.inf):
        raise ValueError("log_q must be finite and log_p_tilde below +inf at every draw of x "
                         "(the draws must come from q)")
    logw = lp - lq
    if not self_normalised:
        with np.errstate(over="ignore"):
            est = np.mean(fx * np.exp(logw), axis=-1)
        if not np.all(np.isfinite(est)):
            raise ValueError("log_p_tilde: the weights p/q overflow; plain IS needs the normalised log density")
    else:
        top = np.max(logw, axis=-1, keepdims=True)
        if np.any(top == -np.inf):
            raise ValueError("log_p_tilde is -inf at every draw of a replication: all weights are zero, "
                             "so the self-normalised estimate is undefined")
        w = np.exp(logw - top)
        est = np.sum(fx * w, axis=-1) / np.sum(w, axis=-1)
    return float(est) if np.ndim(est) == 0 else est


class MHResult(NamedTuple):
    """States of Metropolis--Hastings chains and their acceptance rates."""

    samples: np.ndarray
    acceptance_rate: np.ndarray


def metropolis_hastings(log_p, propose, log_q_ratio, x0, n, rng):
    """Metropolis--Hastings for many independent chains at once.

    Parameters
    ----------
    log_p : callable
        ``log_p(x)`` for states ``x`` of shape ``(c, k)``: the unnormalised log target of
        each chain, shape ``(c,)``.
    propose : callable
        ``propose(x, rng)`` returns proposals ``y`` of the shape of ``x``.
    log_q_ratio : callable or None
        ``log_q_ratio(x, y) = log q(x | y) - log q(y | x)``, shape ``(c,)``; ``None`` for a
        symmetric proposal (Metropolis).
    x0 : array_like, shape (c, k) or (k,)
        Starting states of ``c`` chains (or of one chain).
    n : int
        Number of steps.
    rng : numpy.random.Generator

    Returns
    -------
    MHResult
        ``samples`` of shape ``(n, c, k)`` (``(n, k)`` for one chain), ``x0`` excluded, and
        the acceptance rate of each chain.
    """
    check.function(log_p, "log_p")
    check.function(propose, "propose")
    if log_q_ratio is not None:
        check.function(log_q_ratio, "log_q_ratio")
    x = check.finite(x0, "x0")
    if x.ndim not in (1, 2) or x.size == 0:
        raise ValueError(f"x0 must have shape (c, k) or (k,), got {x.shape}")
    single, x = x.ndim == 1, np.atleast_2d(x)
    n, rng = check.count(n, "n"), check.generator(rng)
    lp = check.returned(log_p(x), "log_p", (x.shape[0],))
    out, acc = np.empty((n,) + x.shape), np.zeros(x.shape[0])
    for t in range(n):
        y = np.asarray(propose(x, rng), dtype=float)
        lpy = np.asarray(log_p(y), dtype=float)
        if t == 0 and (y.shape != x.shape or lpy.shape != lp.shape):
            raise ValueError(f"propose must return shape {x.shape} and log_p one value per chain")
        if not np.all(np.isfinite(y)):
            raise ValueError(f"propose returned a NaN or inf state at step {t}")
        if np.any(np.isnan(lpy)) or np.any(lpy == np.inf):
            raise ValueError(f"log_p returned NaN or +inf at a proposal at step {t}")
        log_a = lpy - lp + (0.0 if log_q_ratio is None else log_q_ratio(x, y))
        if np.any(np.isnan(log_a)):
            raise ValueError(f"log_q_ratio returned NaN at step {t}")
        ok = np.log(rng.random(x.shape[0])) < log_a
        x = np.where(ok[:, None], y, x)
        lp, acc = np.where(ok, lpy, lp), acc + ok
        out[t] = x
    return MHResult(out[:, 0] if single else out, acc / n)


def gibbs_gaussian(mu, Sigma, n, rng, x0=None):
    """Systematic-scan Gibbs sampler for ``N(mu, Sigma)``.

    Coordinate ``d`` is drawn from ``N(mu_d - sum_{j != d} L_dj (x_j - mu_j) / L_dd,
    1 / L_dd)`` with ``L = Sigma^{-1}``, using the coordinates already updated in the sweep.

    Parameters
    ----------
    mu : array_like, shape (D,)
    Sigma : array_like, shape (D, D)
        Symmetric positive definite covariance.
    n : int
        Number of sweeps.
    rng : numpy.random.Generator
    x0 : array_like, shape (D,), optional
        Starting point (default ``mu``).

    Returns
    -------
    ndarray, shape (n, D)
        The state after each sweep.
    """
    mu = check.vector(mu, None, "mu")
    D = mu.shape[0]
    Sigma, _ = check.spd(Sigma, D, "Sigma")
    n, rng = check.count(n, "n"), check.generator(rng)
    x = mu.copy() if x0 is None else check.vector(x0, D, "x0").copy()
    L = np.linalg.inv(Sigma)
    coef = -L / np.diag(L)[:, None]
    np.fill_diagonal(coef, 0.0)
    sd, z = 1.0 / np.sqrt(np.diag(L)), rng.standard_normal((n, D))
    out = np.empty((n, D))
    for t in range(n):
        for d in range(D):
            x[d] = mu[d] + coef[d] @ (x - mu) + sd[d] * z[t, d]
        out[t] = x
    return out


def _neighbour_sum(s):
    """Sum of the four lattice neighbours (free boundary) over the last two axes."""
    nb = np.zeros_like(s, dtype=float)
    nb[..., 1:, :] += s[..., :-1, :]
    nb[..., :-1, :] += s[..., 1:, :]
    nb[..., :, 1:] += s[..., :, :-1]
    nb[..., :, :-1] += s[..., :, 1:]
    return nb


def _grid_shape(shape):
    if not isinstance(shape, tuple) or len(shape) != 2:
        raise ValueError(f"shape must be a tuple (rows, cols), got {shape!r}")
    return check.count(shape[0], "shape"), check.count(shape[1], "shape")


def gibbs_ising(J, h, shape, n_sweeps, rng, n_chains=1):
    """Checkerboard Gibbs sampler for the Ising model on a grid (free boundary).

    The model is ``p(s) ∝ exp(J sum_{i~j} s_i s_j + h sum_i s_i)``, ``s_i in {-1, +1}``.
    Sites of one colour of the checkerboard are conditionally independent given the other
    colour, so each half-sweep updates them all at once with
    ``p(s_i = +1 | rest) = 1 / (1 + exp(-2 (J m_i + h)))``, ``m_i`` the neighbour sum.

    Parameters
    ----------
    J, h : float
        Coupling and external field.
    shape : tuple of int
        Grid size ``(rows, cols)``.
    n_sweeps : int
        Number of full sweeps.
    rng : numpy.random.Generator
    n_chains : int
        Independent chains, started from independent uniform spins.

    Returns
    -------
    ndarray of int8, shape (n_sweeps, n_chains, rows, cols)
        The spins after each sweep.
    """
    J, h = check.number(J, "J"), check.number(h, "h")
    r, c = _grid_shape(shape)
    n_sweeps, rng = check.count(n_sweeps, "n_sweeps"), check.generator(rng)
    n_chains = check.count(n_chains, "n_chains")
    s = np.where(rng.random((n_chains, r, c)) < 0.5, -1.0, 1.0)
    colour = (np.add.outer(np.arange(r), np.arange(c)) % 2).astype(bool)
    out = np.empty((n_sweeps, n_chains, r, c), dtype=np.int8)
    for t in range(n_sweeps):
        for mask in (colour, ~colour):
            p_up = 1.0 / (1.0 + np.exp(-2.0 * (J * _neighbour_sum(s) + h)))
            new = np.where(rng.random(s.shape) < p_up, 1.0, -1.0)
            s = np.where(mask, new, s)
        out[t] = s
    return out


class IsingExact(NamedTuple):
    """Exact Ising quantities by enumeration of all ``2^n`` configurations."""

    states: np.ndarray
    probs: np.ndarray
    log_Z: float
    mean: np.ndarray
    corr: np.ndarray


def ising_exact(J, h, shape):
    """Exact Ising distribution on a small grid (at most 16 spins) by enumeration.

    Parameters
    ----------
    J, h : float
        Coupling and field of ``p(s) ∝ exp(J sum_{i~j} s_i s_j + h sum_i s_i)``.
    shape : tuple of int
        Grid size ``(rows, cols)``, ``rows * cols <= 16``.

    Returns
    -------
    IsingExact
        ``states`` (2^n, rows, cols) in {-1, +1}, their ``probs``, ``log_Z``, the site
        means ``E[s_i]`` (rows, cols) and ``corr[i, j] = E[s_i s_j]`` (n, n), sites in
        row-major order.
    """
    J, h = check.number(J, "J"), check.number(h, "h")
    r, c = _grid_shape(shape)
    n = r * c
    if n > 16:
        raise ValueError(f"shape must have at most 16 sites for enumeration, got {n}")
    bits = (np.arange(2**n)[:, None] >> np.arange(n)[::-1]) & 1
    S = (2 * bits - 1).astype(float).reshape(-1, r, c)
    with np.errstate(over="ignore", invalid="ignore"):
        energy = J * (np.sum(S[:, 1:, :] * S[:, :-1, :], axis=(1, 2))
                      + np.sum(S[:, :, 1:] * S[:, :, :-1], axis=(1, 2))) + h * S.sum(axis=(1, 2))
    log_Z = float(scipy.special.logsumexp(energy)) if np.all(np.isfinite(energy)) else np.inf
    if not np.isfinite(log_Z):
        raise ValueError("J and h are too large: the energies overflow")
    p = np.exp(energy - log_Z)
    F = S.reshape(-1, n)
    return IsingExact(S.astype(np.int8), p, log_Z, np.tensordot(p, S, axes=1), F.T @ (p[:, None] * F))


def autocorrelation(x, max_lag):
    """Sample autocorrelations ``rho_0, ..., rho_max_lag`` (demeaned, divisor ``n``), by FFT.

    Parameters
    ----------
    x : array_like, shape (n,)
        A chain (not constant).
    max_lag : int
        Largest lag, ``0 <= max_lag < n``.

    Returns
    -------
    ndarray, shape (max_lag + 1,)
        ``rho_0 = 1``; the values of ``statsmodels.tsa.stattools.acf(x, nlags, fft=True)``.
    """
    x = check.vector(x, None, "x")
    n = x.shape[0]
    max_lag = check.count(max_lag, "max_lag", low=0)
    if max_lag >= n:
        raise ValueError(f"max_lag must be below the length {n} of x, got {max_lag}")
    y = x - x.mean()
    if not np.any(y):
        raise ValueError("x must not be constant")
    m = 1 << int(np.ceil(np.log2(2 * n)))
    F = np.fft.rfft(y, m)
    acov = np.fft.irfft(F * np.conj(F), m)[: max_lag + 1] / n
    return acov / acov[0]


def effective_sample_size(x):
    """Effective sample size ``n / tau`` of a chain, ``tau = 1 + 2 sum_k rho_k``.

    The sum is truncated by Geyer's initial positive sequence: pairs
    ``rho_{2m} + rho_{2m+1}`` are added while they are positive.

    Parameters
    ----------
    x : array_like, shape (n,)
        A chain, ``n >= 4``.

    Returns
    -------
    float
        The effective sample size; ``n (1 - rho) / (1 + rho)`` for a long AR(1) chain.
    """
    x = check.vector(x, None, "x")
    n = x.shape[0]
    if n < 4:
        raise ValueError(f"x must have at least 4 values, got {n}")
    rho = autocorrelation(x, n - 1)
    pairs = rho[: 2 * (n // 2)].reshape(-1, 2).sum(axis=1)
    neg = np.flatnonzero(pairs <= 0)
    k = neg[0] if neg.size else pairs.size
    tau = -1.0 + 2.0 * np.sum(pairs[:k])  # 2 (rho_0 + rho_1 + ...) - rho_0
    return float(n / max(tau, 1.0 / n))


def gelman_rubin(chains):
    """Gelman--Rubin potential scale reduction ``R_hat`` of ``m`` chains of length ``n``.

    ``W`` is the mean within-chain variance, ``B = n`` times the variance of the chain
    means (both with divisor one less than the count), ``V = (n - 1) W / n + B / n`` and
    ``R_hat = sqrt(V / W)``.

    Parameters
    ----------
    chains : array_like, shape (m, n)
        ``m >= 2`` chains of length ``n >= 2``.

    Returns
    -------
    float
        ``R_hat``; close to 1 when the chains agree.
    """
    X = check.matrix(chains, "chains")
    m, n = X.shape
    if m < 2 or n < 2:
        raise ValueError(f"chains must have shape (m, n) with m >= 2 and n >= 2, got {X.shape}")
    W = X.var(axis=1, ddof=1).mean()
    if W == 0:
        raise ValueError("chains must not all be constant")
    B = n * X.mean(axis=1).var(ddof=1)
    return float(np.sqrt(((n - 1) / n * W + B / n) / W))
