"""Lagrange duality in practice (chapter 45): duals of LPs, least-norm and norm-approximation
problems, two-way partitioning, entropy maximisation, the box-constrained LP, the
largest-eigenvalue SDP, and the non-convex trust-region problem, solved globally.

Conventions. A Lagrangian is ``f0(x) + lam @ f(x) + nu @ h(x)`` with ``lam >= 0`` for the
inequalities ``f(x) <= 0`` and free ``nu`` for the equalities ``h(x) = 0``; the dual problem
*maximises* ``g(lam, nu)``. The LP solvers are ``scipy.optimize.linprog(method="highs")``
(this chapter is about calling solvers); the trust-region problem is solved with numpy
alone (eigendecomposition and the secular equation).
"""
from dataclasses import dataclass

import numpy as np
import scipy.optimize

from mlnotes import _validate as check
from mlnotes.convex_sets import dual_norm

__all__ = [
    "LPDual", "lp_dual", "lp_dual_function", "Multipliers", "lagrange_multipliers_from_linprog",
    "least_norm_dual", "dual_norm_lemma", "norm_min_dual",
    "two_way_partition_bound", "two_way_partition_brute",
    "EntropyDual", "entropy_max_dual", "QPDual", "qp_dual",
    "TrustRegion", "trust_region_global", "trust_region_dual_function", "trust_region_dual",
    "norm_approx_dual", "box_lp_dual", "sdp_dual_function", "lambda_max_sdp_dual",
]

# ------------------------------------------------------------------------ validation
def _system(A, b, name_A="A", name_b="b"):
    A = check.matrix(A, name_A)
    return A, check.vector(b, A.shape[0], name_b)


def _ord(ord):
    """A norm order among 1, 2 and inf, returned as the int 1, 2 or the float np.inf."""
    ord = check.choice(ord, (1, 2, np.inf), "ord")
    return 1 if ord == 1 else (2 if ord == 2 else np.inf)


def _linprog(*args, **kwargs):
    return scipy.optimize.linprog(*args, method="highs", **kwargs)


# ------------------------------------------------------------------------------- LPs
@dataclass
class LPDual:
    """The dual of a standard-form LP: optimal value ``d*``, multipliers ``nu`` of ``Ax = b``
    and ``lam = c + A^T nu`` of ``x >= 0``; ``status`` as ``linprog`` (0 solved, 2 dual
    infeasible, 3 dual unbounded)."""
    value: float
    nu: np.ndarray
    lam: np.ndarray
    status: int


def lp_dual(c, A, b):
    """Build and solve the dual of the standard-form LP ``min c^T x s.t. Ax = b, x >= 0``.

    The dual function is ``g(lam, nu) = -b^T nu`` on ``A^T nu - lam + c = 0`` (and ``-inf``
    elsewhere), so the dual is ``max -b^T nu s.t. A^T nu + c >= 0``, solved by HiGHS.

    Parameters
    ----------
    c : array_like, shape (n,)
        Cost vector.
    A : array_like, shape (m, n)
        Equality constraint matrix.
    b : array_like, shape (m,)
        Right-hand side.

    Returns
    -------
    LPDual
        ``value`` is ``d*`` (``-inf`` if the dual is infeasible, ``+inf`` if unbounded).
    """
    A, b = _system(A, b)
    c = check.vector(c, A.shape[1], "c")
    res = _linprog(b, A_ub=-A.T, b_ub=c, bounds=[(None, None)] * A.shape[0])
    if res.status == 2:
        return LPDual(-np.inf, np.full(A.shape[0], np.nan), np.full(A.shape[1], np.nan), 2)
    if res.status == 3:
        return LPDual(np.inf, np.full(A.shape[0], np.nan), np.full(A.shape[1], np.nan), 3)
    nu = res.x
    return LPDual(float(-b @ nu), nu, c + A.T @ nu, int(res.status))


def lp_dual_function(c, A, b, nu):
    """The dual function of the standard-form LP ``min c^T x s.t. Ax = b, x >= 0``, with ``lam``
    eliminated: ``g(nu) = -b^T nu`` where ``lam = c + A^T nu >= 0`` and ``-inf`` elsewhere.

    ``lam >= 0`` is tested to a relative rounding slack ``1e-9 (|c_j| + sum_i |nu_i A_ij|)``,
    so that a dual optimum, where some ``lam_j`` vanish, counts as dual feasible.

    Parameters
    ----------
    c : array_like, shape (n,)
    A : array_like, shape (m, n)
    b : array_like, shape (m,)
    nu : array_like, shape (m,) or (k, m)
        One multiplier vector or a stack of ``k`` of them.

    Returns
    -------
    float or ndarray, shape (k,)
    """
    A, b = _system(A, b)
    c = check.vector(c, A.shape[1], "c")
    nu = check.finite(nu, "nu")
    if nu.ndim not in (1, 2) or nu.shape[-1] != A.shape[0]:
        raise ValueError(f"nu must have shape ({A.shape[0]},) or (k, {A.shape[0]}), got {nu.shape}")
    lam = c + nu @ A
    # lam_j >= 0 to rounding: the sum c_j + sum_i nu_i A_ij is computed with an error of about
    # eps times the sum of the absolute terms, so a dual optimum from a solver, where some
    # lam_j is exactly 0, is feasible and not -inf
    slack = 1e-9 * (np.abs(c) + np.abs(nu) @ np.abs(A))
    value = np.where(np.all(lam >= -slack, axis=-1), -nu @ b, -np.inf)
    return float(value) if nu.ndim == 1 else value


@dataclass
class Multipliers:
    """Lagrange multipliers of ``min c^T x s.t. A_ub x <= b_ub, A_eq x = b_eq, l <= x <= u``:
    ``lam`` (inequalities), ``nu`` (equalities), ``lower`` and ``upper`` (of ``l - x <= 0``
    and ``x - u <= 0``), all ``>= 0`` except ``nu``."""
    lam: np.ndarray
    nu: np.ndarray
    lower: np.ndarray
    upper: np.ndarray


def lagrange_multipliers_from_linprog(res):
    """The multipliers of the Lagrangian ``c^T x + lam^T(A_ub x - b_ub) + nu^T(A_eq x - b_eq)``
    from a solved HiGHS ``linprog`` result.

    HiGHS reports marginals as sensitivities ``dp*/db``, which are minus the multipliers of
    the Lagrangian above: ``lam = -ineqlin.marginals``, ``nu = -eqlin.marginals``,
    ``lower = lower.marginals`` and ``upper = -upper.marginals``.

    Parameters
    ----------
    res : scipy.optimize.OptimizeResult
        Returned by ``linprog(..., method="highs")`` with ``status == 0``.

    Returns
    -------
    Multipliers
    """
    check.instance_of(res, scipy.optimize.OptimizeResult, "res", "scipy.optimize.linprog(method='highs')")
    if res.get("status") != 0 or any(res.get(k) is None for k in ("ineqlin", "eqlin", "lower", "upper")):
        raise ValueError("res must be a solved (status 0) linprog result of method 'highs' with marginals")
    def get(key):
        return np.asarray(res[key].marginals, dtype=float)
    return Multipliers(-get("ineqlin"), -get("eqlin"), get("lower"), -get("upper"))


# --------------------------------------------------------------- least norm and norms
def least_norm_dual(A, b):
    """Dual optimum of the least-norm problem ``min x^T x s.t. Ax = b``.

    ``g(nu) = -nu^T A A^T nu / 4 - b^T nu`` is maximised where ``A A^T nu = -2b``; we take
    the minimum-norm solution ``nu* = -2 (A A^T)^+ b``, so ``d* = b^T (A A^T)^+ b`` and the
    primal solution is ``x* = -A^T nu* / 2``. ``A`` need not have full row rank.

    Parameters
    ----------
    A : array_like, shape (m, n)
    b : array_like, shape (m,)
        Must lie in the range of ``A`` (otherwise ``p* = d* = +inf``).

    Returns
    -------
    nu : ndarray, shape (m,)
    d : float
        The dual optimum ``g(nu*)``.
    x : ndarray, shape (n,)
        The primal solution recovered from the dual.
    """
    A, b = _system(A, b)
    nu = -2 * np.linalg.lstsq(A @ A.T, b, rcond=None)[0]
    x = -0.5 * A.T @ nu
    if not np.allclose(A @ x, b, atol=1e-9 * max(1.0, np.abs(b).max())):
        raise ValueError("b must lie in the range of A: Ax = b has no solution (p* = d* = +inf)")
    return nu, float(-0.25 * nu @ (A @ (A.T @ nu)) - b @ nu), x


def dual_norm_lemma(y, ord):
    """``inf_x (||x|| - y^T x)``: 0 if ``||y||_* <= 1`` and ``-inf`` otherwise.

    Parameters
    ----------
    y : array_like, shape (n,)
    ord : {1, 2, np.inf}
        The norm ``||x||``.

    Returns
    -------
    value : float
        0.0 or ``-inf``.
    u : ndarray, shape (n,)
        A maximiser of ``u^T y`` over the unit ball, so ``u^T y = ||y||_*``; along ``x = t u``
        the objective is ``t (||u|| - ||y||_*)``.
    """
    y, ord = check.vector(y, None, "y"), _ord(ord)
    if ord == 2:
        u = y / max(np.linalg.norm(y), np.finfo(float).tiny)
    elif ord == np.inf:
        u = np.sign(y)
    else:
        u = np.zeros_like(y)
        k = np.argmax(np.abs(y))
        u[k] = np.sign(y[k])
    return (0.0 if dual_norm(y, ord) <= 1 else -np.inf), u


def norm_min_dual(A, b, ord):
    """Solve the dual ``max b^T nu s.t. ||A^T nu||_* <= 1`` of ``min ||x|| s.t. Ax = b``.

    For ``ord = 2`` the maximiser is ``nu = (A A^T)^+ b / sqrt(b^T (A A^T)^+ b)``; for
    ``ord = 1`` (``||A^T nu||_inf <= 1``) and ``ord = inf`` (``||A^T nu||_1 <= 1``, through
    ``-s <= A^T nu <= s``, ``1^T s <= 1``) the dual is an LP solved by HiGHS.

    Parameters
    ----------
    A : array_like, shape (m, n)
    b : array_like, shape (m,)
    ord : {1, 2, np.inf}
        The norm minimised in the primal.

    Returns
    -------
    value : float
        The dual optimum ``d*`` (``+inf`` if ``Ax = b`` has no solution).
    nu : ndarray, shape (m,)
        A dual optimal point (NaN if ``d* = +inf``).
    """
    A, b = _system(A, b)
    ord = _ord(ord)
    m, n = A.shape
    if ord == 2:
        w = np.linalg.lstsq(A @ A.T, b, rcond=None)[0]
        if not np.allclose(A @ (A.T @ w), b, atol=1e-9 * max(1.0, np.abs(b).max())):
            return np.inf, np.full(m, np.nan)
        q = float(b @ w)
        return (np.sqrt(q), w / np.sqrt(q)) if q > 0 else (0.0, np.zeros(m))
    if ord == 1:
        res = _linprog(-b, A_ub=np.vstack([A.T, -A.T]), b_ub=np.ones(2 * n), bounds=[(None, None)] * m)
    else:
        I = np.eye(n)
        res = _linprog(np.r_[-b, np.zeros(n)],
                       A_ub=np.block([[A.T, -I], [-A.T, -I], [np.zeros((1, m)), np.ones((1, n))]]),
                       b_ub=np.r_[np.zeros(2 * n), 1.0], bounds=[(None, None)] * m + [(0, None)] * n)
    if res.status == 3:
        return np.inf, np.full(m, np.nan)
    return float(-res.fun), res.x[:m]


# ------------------------------------------------------------------ two-way partitioning
def _symmetric(W, name="W"):
    return check.square(W, name, symmetric=True)


def two_way_partition_bound(W):
    """The dual lower bound ``n lambda_min(W)`` on ``min x^T W x s.t. x_i^2 = 1``.

    It is ``g(nu) = -1^T nu`` at the dual-feasible point ``nu = -lambda_min(W) 1``
    (``W + diag(nu) >= 0``).

    Parameters
    ----------
    W : array_like, shape (n, n), symmetric

    Returns
    -------
    float
    """
    W = _symmetric(W)
    return float(W.shape[0] * np.linalg.eigvalsh(W)[0])


def two_way_partition_brute(W):
    """Solve ``min x^T W x s.t. x in {-1, +1}^n`` by enumeration (``n <= 16``).

    By the symmetry ``x -> -x`` only the ``2^(n-1)`` vectors with ``x_0 = 1`` are scored.

    Parameters
    ----------
    W : array_like, shape (n, n), symmetric, n <= 16

    Returns
    -------
    p : float
        The optimal value ``p*``.
    x : ndarray, shape (n,)
        A minimiser.
    """
    W = _symmetric(W)
    n = W.shape[0]
    if n > 16:
        raise ValueError(f"W must be at most 16 x 16 for enumeration, got n = {n}")
    bits = (np.arange(2 ** (n - 1))[:, None] >> np.arange(n - 1)) & 1
    X = np.column_stack([np.ones(len(bits)), 1 - 2 * bits])
    values = np.einsum("ki,ij,kj->k", X, W, X)
    k = int(np.argmin(values))
    return float(values[k]), X[k]


# ------------------------------------------------------------------ entropy maximisation
@dataclass
class EntropyDual:
    """Dual of ``min sum x log x s.t. Ax <= b, 1^T x = 1``: multipliers ``lam`` and ``nu``,
    the optimum ``value`` of ``g`` and the primal point ``x`` recovered from them."""
    lam: np.ndarray
    nu: float
    value: float
    x: np.ndarray


def entropy_max_dual(A, b):
    """Solve the dual of ``min sum_i x_i log x_i s.t. Ax <= b, 1^T x = 1``.

    With the conjugate ``f0*(y) = sum exp(y_i - 1)``, ``g(lam, nu) = -b^T lam - nu
    - exp(-nu - 1) sum_i exp(-a_i^T lam)`` (``a_i`` the columns of ``A``). Maximising over
    ``nu`` in closed form leaves ``max_{lam >= 0} -b^T lam - log sum_i exp(-a_i^T lam)``,
    solved with L-BFGS-B; then ``x = softmax(-A^T lam)``.

    Parameters
    ----------
    A : array_like, shape (m, n)
    b : array_like, shape (m,)

    Returns
    -------
    EntropyDual

    Raises
    ------
    ValueError
        If no probability vector satisfies ``A x <= b`` (an LP says so): then the dual is
        unbounded. (A feasible set with empty relative interior is accepted; L-BFGS-B then
        approaches a supremum that is not attained.)
    """
    A, b = _system(A, b)
    feasible = _linprog(np.zeros(A.shape[1]), A_ub=A, b_ub=b, A_eq=np.ones((1, A.shape[1])), b_eq=[1.0],
                        bounds=[(0, None)] * A.shape[1])
    if feasible.status == 2:
        raise ValueError("A x <= b must hold for some probability vector x: it does not, so p* = +inf "
                         "and the dual is unbounded")

    def neg_g(lam):
        z = -A.T @ lam
        zmax = z.max()
        w = np.exp(z - zmax)
        return b @ lam + zmax + np.log(w.sum()), b - A @ (w / w.sum())

    res = scipy.optimize.minimize(neg_g, np.zeros(A.shape[0]), jac=True, method="L-BFGS-B",
                                  bounds=[(0, None)] * A.shape[0],
                                  options={"ftol": 1e-15, "gtol": 1e-11, "maxiter": 2000})
    lam = res.x
    grad = neg_g(lam)[1]
    projected = np.where(lam > 0, grad, np.minimum(grad, 0.0))             # KKT of the bound constraints
    if not res.success and np.abs(projected).max() > 1e-6 * max(1.0, np.abs(b).max()):
        raise ValueError(f"the dual of the entropy maximisation given by A and b was not solved by L-BFGS-B "
                         f"(projected gradient {np.abs(projected).max():.2g}): {res.message}")
    z = -A.T @ lam
    log_sum = z.max() + np.log(np.exp(z - z.max()).sum())
    return EntropyDual(lam, float(log_sum - 1), float(-res.fun), np.exp(z - log_sum))


@dataclass
class QPDual:
    """Dual of ``min x^T P x s.t. Ax <= b`` (``P`` positive definite): multipliers ``lam``,
    the dual optimum ``value`` and the primal point ``x = -P^{-1} A^T lam / 2``."""
    lam: np.ndarray
    value: float
    x: np.ndarray


def qp_dual(P, A, b):
    """Solve the dual ``max_{lam >= 0} -lam^T A P^{-1} A^T lam / 4 - b^T lam`` of the QP
    ``min x^T P x s.t. Ax <= b`` with ``P`` positive definite.

    The bound-constrained concave quadratic is maximised with L-BFGS-B; then the multipliers
    of the constraints found active are re-solved exactly from ``(A_S P^{-1} A_S^T) lam_S = -2 b_S``
    and kept if they satisfy the KKT conditions of the dual (``lam >= 0``, the
    gradient of ``g`` zero on the support and ``<= 0`` off it, to a relative 1e-9).

    Parameters
    ----------
    P : array_like, shape (n, n), symmetric positive definite
    A : array_like, shape (m, n)
    b : array_like, shape (m,)

    Returns
    -------
    QPDual

    Raises
    ------
    ValueError
        If ``A x <= b`` is infeasible (an LP says so): then ``d* = p* = +inf``.
    """
    A, b = _system(A, b)
    P = check.spd(P, A.shape[1], "P")[0]
    if _linprog(np.zeros(A.shape[1]), A_ub=A, b_ub=b, bounds=[(None, None)] * A.shape[1]).status == 2:
        raise ValueError("A x <= b must be feasible: it is not, so p* = +inf and the dual is unbounded")
    M = A @ np.linalg.solve(P, A.T)
    g = lambda lam: float(-0.25 * lam @ M @ lam - b @ lam)                  # noqa: E731
    res = scipy.optimize.minimize(lambda lam: (-g(lam), 0.5 * M @ lam + b), np.zeros(len(b)), jac=True,
                                  method="L-BFGS-B", bounds=[(0, None)] * len(b),
                                  options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 5000})
    lam = res.x
    S = lam > 1e-9 * max(1.0, lam.max())
    if S.any():                                                             # polish on the support
        polished = np.zeros_like(lam)
        polished[S] = np.linalg.lstsq(M[np.ix_(S, S)], -2 * b[S], rcond=None)[0]
        grad = 0.5 * M @ polished + b                                       # gradient of -g
        scale = 1e-9 * max(1.0, np.abs(b).max(), np.abs(M).max() * np.abs(polished).max())
        if np.all(polished >= 0) and np.all(np.abs(grad[S]) <= scale) and np.all(grad[~S] >= -scale):
            lam = polished                                                  # KKT of the dual: optimal
        elif not res.success:
            raise ValueError(f"the dual of the QP given by P, A, b was not solved by L-BFGS-B: {res.message}")
    return QPDual(lam, g(lam), -0.5 * np.linalg.solve(P, A.T @ lam))


# ------------------------------------------------------------------ trust-region problem
@dataclass
class TrustRegion:
    """Global solution of ``min x^T A x + 2 b^T x s.t. x^T x <= 1``: minimiser ``x``,
    multiplier ``lam``, optimal ``value`` and whether the *hard case* occurred."""
    x: np.ndarray
    lam: float
    value: float
    hard_case: bool


def _trust_region_input(A, b):
    A = _symmetric(A, "A")
    return A, check.vector(b, A.shape[0], "b")


def trust_region_global(A, b):
    """Globally solve ``min x^T A x + 2 b^T x s.t. ||x|| <= 1`` for any symmetric ``A``.

    The optimum satisfies ``(A + lam I) x = -b`` with ``lam >= 0``, ``A + lam I >= 0`` and
    ``lam (1 - ||x||^2) = 0``. In the eigenbasis ``A = Q diag(d) Q^T``, ``beta = Q^T b``, the
    norm ``phi(lam) = sum beta_i^2 / (d_i + lam)^2`` decreases on ``lam > lam_lo =
    max(0, -d_min)``; the secular equation ``phi(lam) = 1`` is solved by bisection. In the hard
    case (``beta`` vanishes on the eigenspace of ``d_min`` and ``phi(lam_lo) <= 1``)
    ``lam = lam_lo`` and an eigenvector of ``d_min`` is added to reach the boundary.

    Parameters
    ----------
    A : array_like, shape (n, n), symmetric
    b : array_like, shape (n,)

    Returns
    -------
    TrustRegion
    """
    A, b = _trust_region_input(A, b)
    d, Q = np.linalg.eigh(A)
    beta = Q.T @ b
    scale = max(1.0, np.abs(d).max(), np.linalg.norm(b))
    lam_lo = -d[0] if -d[0] > 1e-12 * scale else 0.0           # max(0, -d_min), rounding off
    singular = d + lam_lo <= 1e-12 * scale                       # eigenvalues hit at lam_lo
    phi = lambda lam: np.sum(beta[~singular] ** 2 / (d[~singular] + lam) ** 2)
    hard = bool(np.all(np.abs(beta[singular]) <= 1e-10 * scale)) and phi(lam_lo) <= 1
    if hard:
        lam = lam_lo
        y = np.zeros_like(b)
        y[~singular] = -beta[~singular] / (d[~singular] + lam)
        if lam > 0:                                             # go to the boundary along q_min
            y[np.flatnonzero(singular)[0]] = np.sqrt(max(0.0, 1 - y @ y))
        hard = bool(lam > 0)
    else:
        lo, hi = lam_lo, lam_lo + np.linalg.norm(b)            # phi(hi) <= 1
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if np.sum(beta ** 2 / (d + mid) ** 2) > 1 else (lo, mid)
        lam = hi
        y = -beta / (d + lam)
    x = Q @ y
    return TrustRegion(x, float(lam), float(x @ A @ x + 2 * b @ x), hard)


def trust_region_dual_function(A, b, lam):
    """The dual function ``g(lam) = -b^T (A + lam I)^+ b - lam`` of the trust-region problem,
    ``-inf`` where ``A + lam I`` is not PSD or ``b`` is not in its range.

    Parameters
    ----------
    A : array_like, shape (n, n), symmetric
    b : array_like, shape (n,)
    lam : array_like
        Points ``lam >= 0`` (any shape).

    Returns
    -------
    ndarray
        ``g(lam)``, same shape as ``lam``.
    """
    A, b = _trust_region_input(A, b)
    lam = check.finite(lam, "lam")
    if np.any(lam < 0):
        raise ValueError("lam must be non-negative (the multiplier of x^T x <= 1)")
    d, Q = np.linalg.eigh(A)
    beta = Q.T @ b
    scale = max(1.0, np.abs(d).max(), np.linalg.norm(b))
    shifted = d + lam[..., None]
    zero = np.abs(shifted) <= 1e-12 * scale                     # A + lam I singular there
    terms = np.where(zero, 0.0, beta ** 2 / np.where(zero, 1.0, shifted))
    bad = np.any(shifted < -1e-12 * scale, axis=-1) | np.any(zero & (np.abs(beta) > 1e-10 * scale), axis=-1)
    return np.where(bad, -np.inf, -terms.sum(-1) - lam)


def trust_region_dual(A, b):
    """Solve the dual ``max_{lam >= lam_lo} -b^T (A + lam I)^+ b - lam`` of the trust-region
    problem, a concave maximisation in one variable, with bounded Brent (``fminbound``)
    and a comparison with the end point ``lam_lo = max(0, -lambda_min(A))``.

    Parameters
    ----------
    A : array_like, shape (n, n), symmetric
    b : array_like, shape (n,)

    Returns
    -------
    lam : float
        The dual optimum ``lam*``.
    d : float
        The dual optimal value ``g(lam*)``.
    """
    A, b = _trust_region_input(A, b)
    d = np.linalg.eigvalsh(A)
    lam_lo = max(0.0, -d[0])
    hi = lam_lo + np.linalg.norm(b) + 1.0
    neg_g = lambda t: -trust_region_dual_function(A, b, np.array([max(t, lam_lo)]))[0]
    safe = lambda t: min(neg_g(t), 1e300)
    lam = scipy.optimize.fminbound(safe, lam_lo, hi, xtol=1e-13, maxfun=2000)
    if neg_g(lam_lo) <= neg_g(lam):                           # the maximum sits on the end point
        lam = lam_lo                                          # (interior or hard case)
    return float(lam), float(-neg_g(lam))


# ---------------------------------------------------------- reformulations that change the dual
def norm_approx_dual(A, b, ord):
    """Solve the dual ``max b^T nu s.t. A^T nu = 0, ||nu||_* <= 1`` of ``min ||Ax - b||``.

    For ``ord = 2`` the maximiser is the normalised residual projection
    ``nu = P b / ||P b||`` with ``P = I - A A^+``; for ``ord = 1`` (``||nu||_inf <= 1``) and
    ``ord = inf`` (``||nu||_1 <= 1``, with ``nu = nu+ - nu-``) the dual is an LP solved by HiGHS.

    Parameters
    ----------
    A : array_like, shape (m, n)
    b : array_like, shape (m,)
    ord : {1, 2, np.inf}

    Returns
    -------
    value : float
        The dual optimum ``d*``.
    nu : ndarray, shape (m,)
        A dual optimal point.
    """
    A, b = _system(A, b)
    ord = _ord(ord)
    m = A.shape[0]
    if ord == 2:
        r = b - A @ np.linalg.lstsq(A, b, rcond=None)[0]
        nr = np.linalg.norm(r)
        nu = r / nr if nr > 0 else np.zeros(m)
        return float(b @ nu), nu
    if ord == 1:
        res = _linprog(-b, A_eq=A.T, b_eq=np.zeros(A.shape[1]), bounds=[(-1, 1)] * m)
        return float(-res.fun), res.x
    res = _linprog(np.r_[-b, b], A_ub=np.ones((1, 2 * m)), b_ub=[1.0],
                   A_eq=np.hstack([A.T, -A.T]), b_eq=np.zeros(A.shape[1]), bounds=[(0, None)] * (2 * m))
    return float(-res.fun), res.x[:m] - res.x[m:]


def box_lp_dual(c, A, b):
    """Solve the dual ``max_nu -b^T nu - ||A^T nu + c||_1`` of the box-constrained LP
    ``min c^T x s.t. Ax = b, -1 <= x <= 1`` (box made an implicit constraint).

    The piecewise-linear concave objective is maximised as the LP
    ``max -b^T nu - 1^T s s.t. -s <= A^T nu + c <= s`` in ``(nu, s)``.

    Parameters
    ----------
    c : array_like, shape (n,)
    A : array_like, shape (m, n)
    b : array_like, shape (m,)

    Returns
    -------
    value : float
        The dual optimum (``+inf`` if the primal is infeasible and the dual unbounded).
    nu : ndarray, shape (m,)
    """
    A, b = _system(A, b)
    c = check.vector(c, A.shape[1], "c")
    m, n = A.shape
    I = np.eye(n)
    res = _linprog(np.r_[b, np.ones(n)], A_ub=np.block([[A.T, -I], [-A.T, -I]]), b_ub=np.r_[-c, c],
                   bounds=[(None, None)] * m + [(0, None)] * n)
    if res.status == 3:
        return np.inf, np.full(m, np.nan)
    return float(-res.fun), res.x[:m]


def sdp_dual_function(c, F, G, Z):
    """The dual function of the SDP ``min c^T x s.t. x_1 F_1 + ... + x_n F_n <= G``:
    ``g(Z) = -tr(G Z)`` if ``tr(F_i Z) + c_i = 0`` for every ``i`` (to a relative 1e-9) and
    ``-inf`` otherwise. (Weak duality needs ``Z >= 0``, the dual constraint, on top.)

    Parameters
    ----------
    c : array_like, shape (n,)
    F : array_like, shape (n, k, k)
        Symmetric coefficient matrices.
    G : array_like, shape (k, k), symmetric
    Z : array_like, shape (k, k), symmetric
        The multiplier of the matrix inequality.

    Returns
    -------
    float
    """
    F = check.square_stack(F, "F")
    if F.ndim != 3:
        raise ValueError(f"F must have shape (n, k, k), got {F.shape}")
    if not np.allclose(F, np.swapaxes(F, 1, 2), rtol=1e-10, atol=1e-12 * max(1.0, np.abs(F).max())):
        raise ValueError("F must hold symmetric matrices F_i")
    c = check.vector(c, F.shape[0], "c")
    G = check.square(G, "G", symmetric=True)
    Z = check.square(Z, "Z", symmetric=True)
    if G.shape[0] != F.shape[1] or Z.shape != G.shape:
        raise ValueError(f"G and Z must be {F.shape[1]} x {F.shape[1]} like F_i, got {G.shape} and {Z.shape}")
    r = np.einsum("ijk,kj->i", F, Z) + c
    scale = max(1.0, np.abs(c).max(), np.abs(F).max() * np.abs(Z).sum())
    return float(-np.sum(G * Z)) if np.all(np.abs(r) <= 1e-9 * scale) else -np.inf


def lambda_max_sdp_dual(A):
    """The SDP pair for the largest eigenvalue: ``min t s.t. A <= t I`` and its dual
    ``max tr(AZ) s.t. tr Z = 1, Z >= 0``, solved by ``Z = v v^T`` (``v`` a unit top eigenvector).

    Parameters
    ----------
    A : array_like, shape (n, n), symmetric

    Returns
    -------
    value : float
        ``lambda_max(A) = tr(A Z*)``.
    Z : ndarray, shape (n, n)
        A dual optimal matrix (rank one).
    """
    A = _symmetric(A, "A")
    d, Q = np.linalg.eigh(A)
    v = Q[:, -1]
    return float(d[-1]), np.outer(v, v)
