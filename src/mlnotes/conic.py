"""Convex problem classes: LP, QP, SOCP, GP and SDP, by calling solvers (chapter 44).

Conventions. A polyhedron is ``{x : A x <= b}`` (rows of ``A`` are the normals ``a_i``) and
variables are *free* unless a constraint says otherwise (``scipy.optimize.linprog`` by
default imposes ``x >= 0``; ``solve_lp`` does not). Linear programs go to HiGHS through
``linprog``; smooth nonlinear programs (QP, SOCP written as ``a^T x + ||P^T x|| <= b``, GP in
log variables) go to SLSQP through ``scipy.optimize.minimize``. Semidefinite statements are
checked through eigenvalues (``numpy.linalg.eigvalsh``): ``M >= 0`` iff ``lambda_min(M) >= 0``.
"""
from typing import NamedTuple

import numpy as np
import scipy.optimize
import scipy.special

from mlnotes import _validate as check

__all__ = ["LPResult", "BisectionResult", "solve_lp", "solve_qp", "chebyshev_center",
           "piecewise_linear_min", "linear_fractional_lp", "bisection", "robust_lp_ellipsoid",
           "chance_constrained_lp", "posynomial", "solve_gp_log", "perron_frobenius",
           "min_lambda_max", "schur_block", "schur_psd", "mean_variance_frontier"]

_SLSQP = dict(method="SLSQP", options=dict(ftol=1e-12, maxiter=500))


class LPResult(NamedTuple):
    """Solution of a linear program: ``x`` (NaN if none), optimal value ``value`` (``inf`` if
    infeasible, ``-inf`` if unbounded) and ``status`` ("optimal", "infeasible", "unbounded")."""
    x: np.ndarray
    value: float
    status: str


class BisectionResult(NamedTuple):
    """Final bracket ``lo <= p* <= hi``, the number of feasibility calls and every bracket."""
    lo: float
    hi: float
    n_iter: int
    intervals: np.ndarray   # (n_iter + 1, 2): the bracket before each step and at the end


def _rows(M, v, n, names):
    """(M, v) as an (m, n) matrix and an (m,) vector, or two empty arrays when both are None."""
    if M is None and v is None:
        return np.zeros((0, n)), np.zeros(0)
    if M is None or v is None:
        raise ValueError(f"{names[0]} and {names[1]} must be given together (or both None)")
    M = check.matrix_with_columns(M, n, names[0])
    return M, check.vector(v, M.shape[0], names[1])


def solve_lp(c, A_ub=None, b_ub=None, A_eq=None, b_eq=None):
    """Minimise ``c^T x`` subject to ``A_ub x <= b_ub`` and ``A_eq x = b_eq``, ``x`` free (HiGHS).

    Parameters
    ----------
    c : array_like, shape (n,)
    A_ub, b_ub : array_like, shapes (m, n) and (m,), or None
    A_eq, b_eq : array_like, shapes (p, n) and (p,), or None

    Returns
    -------
    LPResult
    """
    c = check.vector(c, None, "c")
    A_ub, b_ub = _rows(A_ub, b_ub, c.size, ("A_ub", "b_ub"))
    A_eq, b_eq = _rows(A_eq, b_eq, c.size, ("A_eq", "b_eq"))
    res = scipy.optimize.linprog(c, A_ub=A_ub if len(b_ub) else None, b_ub=b_ub if len(b_ub) else None,
                                 A_eq=A_eq if len(b_eq) else None, b_eq=b_eq if len(b_eq) else None,
                                 bounds=(None, None), method="highs")
    if res.status == 0:
        return LPResult(res.x, float(res.fun), "optimal")
    status = {2: "infeasible", 3: "unbounded"}.get(res.status)
    if status is None:
        raise RuntimeError(f"HiGHS failed: {res.message}")
    return LPResult(np.full(c.size, np.nan), np.inf if status == "infeasible" else -np.inf, status)


def solve_qp(P, q, G=None, h=None, A=None, b=None, x0=None):
    """Minimise ``x^T P x / 2 + q^T x`` subject to ``G x <= h``, ``A x = b`` (SLSQP).

    Before SLSQP runs, two LPs (HiGHS) decide whether the problem has an optimum: the
    constraints must be feasible, and no recession direction ``d`` (``P d = 0``, ``G d <= 0``,
    ``A d = 0``) may have ``q^T d < 0``, which would make the objective unbounded below.
    SLSQP's point is then polished by solving the KKT system of the active constraints.

    Parameters
    ----------
    P : array_like, shape (n, n), symmetric positive semi-definite
    q : array_like, shape (n,)
    G, h, A, b : array_like or None
        Inequality and equality constraints, as in :func:`solve_lp`.
    x0 : array_like, shape (n,), optional
        Starting point (zeros by default).

    Returns
    -------
    x : ndarray, shape (n,)
    value : float

    Raises
    ------
    ValueError
        If ``P`` is not PSD, if the constraints are infeasible (the message names ``G, h, A,
        b``), if the objective is unbounded below on the feasible set (it names ``q`` and
        ``P``), or if SLSQP fails.
    """
    P = check.psd(P, None, "P")
    n = P.shape[0]
    q = check.vector(q, n, "q")
    G, h = _rows(G, h, n, ("G", "h"))
    A, b = _rows(A, b, n, ("A", "b"))
    x0 = np.zeros(n) if x0 is None else check.vector(x0, n, "x0")
    _qp_has_optimum(P, q, G, h, A, b)
    cons = [dict(type="ineq", fun=lambda x: h - G @ x, jac=lambda x: -G)] if len(h) else []
    cons += [dict(type="eq", fun=lambda x: A @ x - b, jac=lambda x: A)] if len(b) else []
    f = lambda x: 0.5 * x @ P @ x + q @ x                                 # noqa: E731
    res = scipy.optimize.minimize(f, x0, jac=lambda x: P @ x + q, constraints=cons, **_SLSQP)
    x = res.x
    # polish: solve the KKT system with the constraints active at SLSQP's point as equalities,
    # and keep the result if it is feasible, has multipliers >= 0 and is no worse
    act = h - G @ x <= 1e-7 * (1 + np.abs(h))
    Aa, ba = np.vstack([A, G[act]]), np.r_[b, h[act]]
    K = np.block([[P, Aa.T], [Aa, np.zeros((len(ba), len(ba)))]])
    sol = np.linalg.lstsq(K, np.r_[-q, ba], rcond=None)[0]
    xp, lam = sol[:n], sol[n + len(b):]
    ok = (np.allclose(K @ sol, np.r_[-q, ba], atol=1e-10) and np.all(G @ xp <= h + 1e-10)
          and np.all(lam >= -1e-10) and f(xp) <= f(x) + 1e-12)
    x = xp if ok else x
    if not ok and not res.success:
        raise ValueError(f"the QP given by P, q, G, h, A, b was not solved by SLSQP from x0: {res.message}")
    return x, float(f(x))


def _qp_has_optimum(P, q, G, h, A, b):
    """``ValueError`` if ``{G x <= h, A x = b}`` is empty or ``x^T P x / 2 + q^T x`` is unbounded
    below on it (a direction ``d = N z`` in the null space ``N`` of ``P`` with ``G d <= 0``,
    ``A d = 0`` and ``q^T d < 0``, found by an LP over the box ``|z| <= 1``)."""
    n = P.shape[0]
    feas = solve_lp(np.zeros(n), G if len(h) else None, h if len(h) else None,
                    A if len(b) else None, b if len(b) else None)
    if feas.status != "optimal":
        raise ValueError("the QP is infeasible: no x satisfies G x <= h and A x = b")
    w, V = np.linalg.eigh(P)
    N = V[:, w <= 1e-10 * max(1.0, np.abs(w).max())]               # null space of P
    if N.shape[1] == 0:
        return                                                      # strictly convex: bounded
    rec = scipy.optimize.linprog(N.T @ q, A_ub=G @ N if len(h) else None, b_ub=np.zeros(len(h)) if len(h) else None,
                                 A_eq=A @ N if len(b) else None, b_eq=np.zeros(len(b)) if len(b) else None,
                                 bounds=(-1, 1), method="highs")
    if rec.status == 0 and rec.fun < -1e-9 * max(1.0, np.abs(q).max()):
        raise ValueError("the QP is unbounded below: q has a descent direction d with P d = 0 that the "
                         "constraints G x <= h, A x = b allow (q^T d < 0)")


def chebyshev_center(A, b):
    """Centre and radius of the largest Euclidean ball inside ``{x : A x <= b}`` (an LP).

    Parameters
    ----------
    A : array_like, shape (m, n)
    b : array_like, shape (m,)

    Returns
    -------
    x_c : ndarray, shape (n,)
    r : float
    """
    A = check.matrix(A, "A")
    b = check.vector(b, A.shape[0], "b")
    m, n = A.shape
    # variables (x_c, r): maximise r s.t. a_i^T x_c + r ||a_i|| <= b_i and r >= 0
    A_ub = np.vstack([np.column_stack([A, np.linalg.norm(A, axis=1)]), -np.eye(1, n + 1, n)])
    res = solve_lp(-np.eye(1, n + 1, n)[0], A_ub, np.append(b, 0.0))
    if res.status != "optimal":
        raise ValueError(f"the polyhedron A x <= b must be non-empty and bounded ({res.status} LP)")
    return res.x[:n], float(res.x[n])


def piecewise_linear_min(A, b):
    """Minimise ``max_i (a_i^T x + b_i)`` through its epigraph LP ``min t s.t. A x + b <= t 1``.

    Parameters
    ----------
    A : array_like, shape (m, n)
    b : array_like, shape (m,)

    Returns
    -------
    x : ndarray, shape (n,)
    t : float
        The minimal value.
    """
    A = check.matrix(A, "A")
    b = check.vector(b, A.shape[0], "b")
    m, n = A.shape
    res = solve_lp(np.eye(1, n + 1, n)[0], np.column_stack([A, -np.ones(m)]), -b)
    if res.status != "optimal":
        raise ValueError(f"max_i (a_i^T x + b_i) must be bounded below ({res.status} LP)")
    return res.x[:n], float(res.x[n])


def linear_fractional_lp(c, d, e, f, G, h, A=None, b=None):
    """Minimise ``(c^T x + d) / (e^T x + f)`` on ``{G x <= h, A x = b, e^T x + f > 0}`` by the
    Charnes-Cooper LP in ``(y, z) = (x, 1) / (e^T x + f)``.

    Parameters
    ----------
    c, e : array_like, shape (n,)
    d, f : float
    G, h : array_like, shapes (m, n) and (m,)
    A, b : array_like, shapes (p, n) and (p,), or None

    Returns
    -------
    x : ndarray, shape (n,)
        ``y / z`` at the LP optimum.
    value : float
        The optimal ratio, ``c^T y + d z``.
    """
    c = check.vector(c, None, "c")
    n = c.size
    e, d, f = check.vector(e, n, "e"), check.number(d, "d"), check.number(f, "f")
    G, h = _rows(G, h, n, ("G", "h"))
    A, b = _rows(A, b, n, ("A", "b"))
    # Charnes-Cooper: min c^T y + d z  s.t.  G y <= h z,  A y = b z,  e^T y + f z = 1,  z >= 0
    A_ub = np.vstack([np.column_stack([G, -h]), -np.eye(1, n + 1, n)])
    A_eq = np.vstack([np.column_stack([A, -b]), np.append(e, f)])
    res = solve_lp(np.append(c, d), A_ub, np.zeros(len(h) + 1), A_eq, np.eye(1, len(b) + 1, len(b))[0])
    if res.status != "optimal" or res.x[n] <= 1e-12:
        raise ValueError(f"the fractional program given by c, d, e, f, G, h, A, b must have a finite "
                         f"optimum attained at e^T x + f > 0 (Charnes-Cooper LP status {res.status})")
    y, z = res.x[:n], res.x[n]
    return y / z, res.value


def bisection(feasible, lo, hi, tol):
    """Bisection for a quasi-convex problem: ``feasible(t)`` says whether ``p* <= t``.

    Parameters
    ----------
    feasible : callable
        ``feasible(t) -> bool``, the convex feasibility problem for the level ``t``.
    lo, hi : float
        An initial bracket ``lo <= p* <= hi``.
    tol : float
        Stop when ``hi - lo <= tol``; this takes ``ceil(log2((hi - lo) / tol))`` calls.

    Returns
    -------
    BisectionResult

    Raises
    ------
    ValueError
        If ``tol`` is below 4 float spacings at the scale of ``lo`` and ``hi`` (the bracket
        could stop shrinking, and the loop would never end).
    """
    feasible = check.function(feasible, "feasible")
    lo, hi = check.interval_bounds(lo, hi, ("lo", "hi"))
    tol = check.positive(tol, "tol")
    spacing = np.spacing(max(abs(lo), abs(hi)))
    if tol < 4 * spacing:                     # the bracket could stop shrinking before hi - lo <= tol
        raise ValueError(f"tol must be at least 4 float spacings at the scale of lo and hi "
                         f"({4 * spacing:.3g}), got {tol!r}")
    intervals = [(lo, hi)]
    while hi - lo > tol:
        t = 0.5 * lo + 0.5 * hi               # the midpoint of the current bracket (no overflow)
        if check.flag(feasible(t), "the value returned by feasible"):
            hi = t
        else:
            lo = t
        intervals.append((lo, hi))
    return BisectionResult(lo, hi, len(intervals) - 1, np.array(intervals))


def _norm_constraints(a_bar, P, b, x0, c, names):
    """SLSQP for ``min c^T x`` s.t. ``a_i^T x + ||P_i^T x|| <= b_i`` (a second-order cone program);
    ``names`` lists the arguments of the caller that define the constraints (for the error)."""
    def g(x):
        return b - a_bar @ x - np.linalg.norm(np.einsum("ikj,k->ij", P, x), axis=1)

    def jac(x):
        u = np.einsum("ikj,k->ij", P, x)                        # row i: P_i^T x
        s = np.maximum(np.linalg.norm(u, axis=1), 1e-12)
        return -a_bar - np.einsum("ikj,ij->ik", P, u) / s[:, None]

    res = scipy.optimize.minimize(lambda x: c @ x, x0, jac=lambda x: c,
                                  constraints=[dict(type="ineq", fun=g, jac=jac)], **_SLSQP)
    if not res.success or g(res.x).min() < -1e-7:
        raise ValueError(f"the second-order cone program was not solved (are the constraints given by "
                         f"{names} feasible, and is c^T x bounded below?): {res.message}")
    return res.x, float(c @ res.x)


def robust_lp_ellipsoid(c, a_bar, P, b, x0=None):
    """Robust LP: minimise ``c^T x`` s.t. ``a^T x <= b_i`` for every ``a`` in the ellipsoid
    ``{a_bar_i + P_i u : ||u|| <= 1}``, i.e. ``a_bar_i^T x + ||P_i^T x||_2 <= b_i`` (SLSQP).

    Parameters
    ----------
    c : array_like, shape (n,)
    a_bar : array_like, shape (m, n)
        Ellipsoid centres (the nominal constraint normals).
    P : array_like, shape (m, n, n)
        Ellipsoid shape matrices.
    b : array_like, shape (m,)
    x0 : array_like, shape (n,), optional
        Starting point (zeros by default).

    Returns
    -------
    x : ndarray, shape (n,)
    value : float
    """
    c = check.vector(c, None, "c")
    a_bar = check.matrix_with_columns(a_bar, c.size, "a_bar")
    m, n = a_bar.shape
    P = check.finite(P, "P")
    if P.shape != (m, n, n):
        raise ValueError(f"P must have shape ({m}, {n}, {n}), got {P.shape}")
    b = check.vector(b, m, "b")
    x0 = np.zeros(n) if x0 is None else check.vector(x0, n, "x0")
    return _norm_constraints(a_bar, P, b, x0, c, "a_bar, P, b")


def chance_constrained_lp(c, a_bar, Sigma, b, eta):
    """Minimise ``c^T x`` s.t. ``Prob(a_i^T x <= b_i) >= eta`` for ``a_i ~ N(a_bar_i, Sigma_i)``,
    i.e. the SOCP ``a_bar_i^T x + Phi^{-1}(eta) ||Sigma_i^{1/2} x|| <= b_i`` (needs eta >= 1/2).

    Parameters
    ----------
    c : array_like, shape (n,)
    a_bar : array_like, shape (m, n)
    Sigma : array_like, shape (m, n, n)
        Positive definite covariance matrices.
    b : array_like, shape (m,)
    eta : float in [1/2, 1)

    Returns
    -------
    x : ndarray, shape (n,)
    value : float
    """
    c = check.vector(c, None, "c")
    a_bar = check.matrix_with_columns(a_bar, c.size, "a_bar")
    m, n = a_bar.shape
    Sigma = check.finite(Sigma, "Sigma")
    if Sigma.shape != (m, n, n):
        raise ValueError(f"Sigma must have shape ({m}, {n}, {n}), got {Sigma.shape}")
    L = np.array([check.spd(S, n, "Sigma[i]")[1] for S in Sigma])   # Sigma_i = L_i L_i^T
    eta = check.number_between(eta, "eta", 0.5, 1.0, open_high=True)
    b = check.vector(b, m, "b")
    return _norm_constraints(a_bar, scipy.special.ndtri(eta) * L, b, np.zeros(n), c, "a_bar, Sigma, b, eta")


def posynomial(c, A, x):
    """``f(x) = sum_k c_k prod_j x_j^{A[k, j]}`` with ``c_k > 0`` and ``x > 0``.

    Parameters
    ----------
    c : array_like, shape (K,)
        Positive coefficients (``K = 1`` gives a monomial).
    A : array_like, shape (K, n)
        Real exponents.
    x : array_like, shape (n,) or (N, n)
        One positive point or N points as rows.

    Returns
    -------
    float or ndarray, shape (N,)
    """
    c = check.positive_entries(check.vector(c, None, "c"), "c")
    A = check.matrix(A, "A")
    if A.shape[0] != c.size:
        raise ValueError(f"A must have one row per coefficient ({c.size}), got shape {A.shape}")
    x = check.positive_entries(x, "x")
    if x.ndim not in (1, 2) or x.shape[-1] != A.shape[1]:
        raise ValueError(f"x must have shape ({A.shape[1]},) or (N, {A.shape[1]}), got {x.shape}")
    return np.exp(scipy.special.logsumexp(np.log(x) @ A.T + np.log(c), axis=-1))


def _posy(term, name):
    """A posynomial given as ``(c, A)``: the log-coefficients ``log c`` and the exponents ``A``."""
    if not isinstance(term, (tuple, list)) or len(term) != 2:
        raise ValueError(f"{name} must be a pair (c, A) of coefficients and exponents")
    c = check.positive_entries(check.vector(term[0], None, f"{name}[0] (c)"), f"{name}[0] (c)")
    A = check.matrix(term[1], f"{name}[1] (A)")
    if A.shape[0] != c.size:
        raise ValueError(f"{name}[1] (A) must have {c.size} rows, got shape {A.shape}")
    return np.log(c), A


def solve_gp_log(objective, constraints, y0):
    """Geometric program ``min f_0(x)`` s.t. ``f_i(x) <= 1`` (posynomials), solved in the log
    variables ``y = log x`` as ``min lse(A_0 y + log c_0)`` s.t. ``lse(A_i y + log c_i) <= 0``.

    Parameters
    ----------
    objective : tuple (c, A)
        The posynomial ``f_0`` (see :func:`posynomial`).
    constraints : list of tuples (c, A)
        The posynomials ``f_i``, each constrained to be at most 1.
    y0 : array_like, shape (n,)
        Starting point in log variables.

    Returns
    -------
    x : ndarray, shape (n,)
        ``exp(y*)``.
    value : float
        ``f_0(x*)``.
    """
    b0, A0 = _posy(objective, "objective")
    if not isinstance(constraints, (list, tuple)):
        raise ValueError("constraints must be a list of pairs (c, A)")
    cons = [_posy(t, f"constraints[{i}]") for i, t in enumerate(constraints)]
    y0 = check.vector(y0, A0.shape[1], "y0")
    if any(A.shape[1] != y0.size for _, A in cons):
        raise ValueError(f"every constraint's exponents must have {y0.size} columns")

    def lse(bA, y):                           # value and gradient of log f(exp(y))
        b, A = bA
        z = A @ y + b
        return scipy.special.logsumexp(z), A.T @ scipy.special.softmax(z)

    sl = [dict(type="ineq", fun=lambda y, t=t: -lse(t, y)[0], jac=lambda y, t=t: -lse(t, y)[1]) for t in cons]
    res = scipy.optimize.minimize(lambda y: lse((b0, A0), y), y0, jac=True, constraints=sl, **_SLSQP)
    if not res.success:
        raise ValueError(f"the geometric program given by objective and constraints was not solved "
                         f"from y0 (are the constraints feasible?): {res.message}")
    return np.exp(res.x), float(np.exp(res.fun))


def perron_frobenius(A, tol=1e-12, max_iter=100_000):
    """Perron-Frobenius eigenvalue and eigenvector of an element-wise positive matrix (power
    iteration, stopped by the Collatz-Wielandt bracket ``min_i (Av)_i/v_i <= lambda <= max_i``).

    Parameters
    ----------
    A : array_like, shape (n, n)
        Element-wise positive.
    tol : float
        Relative width of the bracket at which to stop.
    max_iter : int

    Returns
    -------
    lam : float
    v : ndarray, shape (n,)
        Positive eigenvector with ``sum(v) = 1``.

    Raises
    ------
    ValueError
        If the bracket is not narrower than ``tol`` after ``max_iter`` steps (naming both), for
        example when ``tol`` is below the float resolution.
    """
    A = check.positive_entries(check.square(A, "A"), "A")
    tol = check.positive(tol, "tol")
    max_iter = check.count(max_iter, "max_iter")
    v = np.full(A.shape[0], 1.0 / A.shape[0])
    for _ in range(max_iter):
        w = A @ v
        ratio = w / v
        if ratio.max() - ratio.min() <= tol * ratio.max():
            return float(w.sum() / v.sum()), v
        v = w / w.sum()
    raise ValueError(f"power iteration did not converge in max_iter = {max_iter} steps: the Collatz-Wielandt "
                     f"bracket has relative width {(ratio.max() - ratio.min()) / ratio.max():.3g} > tol = {tol:.3g} "
                     f"(increase max_iter or tol)")


def min_lambda_max(A0, As, x0=None):
    """Minimise ``lambda_max(A0 + sum_i x_i A_i)`` as the SDP ``min t s.t. t I - A(x) >= 0``,
    with the LMI written as ``lambda_j(t I - A(x)) >= 0`` for all ``j`` (SLSQP).

    Parameters
    ----------
    A0 : array_like, shape (k, k), symmetric
    As : array_like, shape (n, k, k), symmetric matrices ``A_1, ..., A_n``
    x0 : array_like, shape (n,), optional

    Returns
    -------
    x : ndarray, shape (n,)
    t : float
        The minimal largest eigenvalue.
    """
    A0 = check.square(A0, "A0", symmetric=True)
    k = A0.shape[0]
    As = check.finite(As, "As")
    if As.ndim != 3 or As.shape[1:] != (k, k) or As.shape[0] == 0:
        raise ValueError(f"As must have shape (n, {k}, {k}), got {As.shape}")
    if not np.allclose(As, np.transpose(As, (0, 2, 1)), atol=1e-12):
        raise ValueError("As must hold symmetric matrices")
    n = As.shape[0]
    x0 = np.zeros(n) if x0 is None else check.vector(x0, n, "x0")

    def lmi(z):                               # eigenvalues of t I - A(x), and their gradients
        lam, U = np.linalg.eigh(z[n] * np.eye(k) - A0 - np.tensordot(z[:n], As, 1))
        return lam, np.column_stack([-np.einsum("aj,iab,bj->ji", U, As, U), np.ones(k)])

    z0 = np.append(x0, np.linalg.eigvalsh(A0 + np.tensordot(x0, As, 1))[-1] + 1.0)
    res = scipy.optimize.minimize(lambda z: z[n], z0, jac=lambda z: np.eye(1, n + 1, n)[0],
                                  constraints=[dict(type="ineq", fun=lambda z: lmi(z)[0],
                                                    jac=lambda z: lmi(z)[1])], **_SLSQP)
    if not res.success:
        raise ValueError(f"min lambda_max(A0 + sum_i x_i As[i]) was not solved from x0 "
                         f"(is it bounded below?): {res.message}")
    x = res.x[:n]
    return x, float(np.linalg.eigvalsh(A0 + np.tensordot(x, As, 1))[-1])


def schur_block(A, t):
    """The block matrix ``[[t I, A], [A^T, t I]]`` of the Schur-complement LMI for ``||A||_2 <= t``.

    Parameters
    ----------
    A : array_like, shape (p, q)
    t : float

    Returns
    -------
    ndarray, shape (p + q, p + q)
    """
    A = check.matrix(A, "A")
    t = check.number(t, "t")
    p, q = A.shape
    return np.block([[t * np.eye(p), A], [A.T, t * np.eye(q)]])


def schur_psd(A, t, tol=1e-10):
    """Whether ``[[t I, A], [A^T, t I]]`` is positive semi-definite (``lambda_min >= -tol``).

    Parameters
    ----------
    A : array_like, shape (p, q)
    t : float
    tol : float

    Returns
    -------
    bool
    """
    tol = check.nonnegative(tol, "tol")
    return bool(np.linalg.eigvalsh(schur_block(A, t))[0] >= -tol)


def mean_variance_frontier(mu, Sigma, gammas):
    """Long-only portfolios ``argmin_x -mu^T x + gamma x^T Sigma x`` s.t. ``1^T x = 1``, ``x >= 0``:
    the scalarisations ``lambda = (1, gamma)`` of (maximise return, minimise variance).

    Parameters
    ----------
    mu : array_like, shape (n,)
        Expected returns.
    Sigma : array_like, shape (n, n)
        Positive definite covariance of the returns.
    gammas : array_like, shape (G,)
        Positive risk-aversion parameters.

    Returns
    -------
    X : ndarray, shape (G, n)
        One portfolio per gamma.
    means, variances : ndarray, shape (G,)
        ``mu^T x`` and ``x^T Sigma x``.
    """
    mu = check.vector(mu, None, "mu")
    n = mu.size
    Sigma, _ = check.spd(Sigma, n, "Sigma")
    gammas = check.positive_entries(check.vector(gammas, None, "gammas"), "gammas")
    X, x = np.empty((gammas.size, n)), np.full(n, 1.0 / n)
    for g, gamma in enumerate(gammas):
        x, _ = solve_qp(2 * gamma * Sigma, -mu, -np.eye(n), np.zeros(n), np.ones((1, n)), np.ones(1), x)
        X[g] = np.maximum(x, 0) / np.maximum(x, 0).sum()        # clip SLSQP's 1e-12 round-off
    return X, X @ mu, np.einsum("gi,ij,gj->g", X, Sigma, X)
