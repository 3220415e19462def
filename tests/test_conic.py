"""Tests of mlnotes.conic against scipy.optimize (linprog/HiGHS with its own bounds, trust-constr
with LinearConstraint/NonlinearConstraint, lsq_linear), numpy.linalg (eigvals, eigvalsh,
norm(A, 2)), scipy.stats.norm.ppf, brute-force enumeration and closed forms.

Tolerances: HiGHS solves small LPs to ~1e-9 (we use 1e-8); SLSQP with ftol=1e-12 reaches
~1e-7 in x on these well-conditioned problems, trust-constr (gtol 1e-10) ~1e-6, so
comparisons between the two use 1e-5; eigenvalue identities hold to rounding (1e-10)."""
import itertools
import math

import numpy as np
import pytest
import scipy.optimize
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from mlnotes import conic


def _polygon(seed, m=7):
    rng = np.random.default_rng(seed)
    ang = np.linspace(0, 2 * np.pi, m, endpoint=False) + rng.uniform(-0.3, 0.3, m)
    return np.column_stack([np.cos(ang), np.sin(ang)]), 1 + 0.4 * rng.uniform(size=m)


def _vertices(A, b):
    V = []
    for i, j in itertools.combinations(range(len(b)), 2):
        if abs(np.linalg.det(A[[i, j]])) > 1e-12:
            v = np.linalg.solve(A[[i, j]], b[[i, j]])
            if np.all(A @ v <= b + 1e-9):
                V.append(v)
    return np.array(V)


@pytest.mark.parametrize("seed", range(4))
def test_solve_lp_matches_linprog_with_shifted_variables(seed):
    rng = np.random.default_rng(seed)
    A = np.vstack([np.eye(3), -np.eye(3), rng.normal(size=(4, 3))])
    b = np.r_[np.ones(6), rng.uniform(0.5, 1, 4)]
    c, Aeq, beq = rng.normal(size=3), rng.normal(size=(1, 3)), np.array([0.1])
    res = conic.solve_lp(c, A, b, Aeq, beq)
    # reference: x = w - 1 with w >= 0 (linprog's default bounds), a different formulation
    ref = scipy.optimize.linprog(c, A_ub=A, b_ub=b + A @ np.ones(3), A_eq=Aeq, b_eq=beq + Aeq @ np.ones(3),
                                 method="highs")
    assert res.status == "optimal"
    assert np.isclose(res.value, ref.fun - c @ np.ones(3), atol=1e-8)
    np.testing.assert_allclose(res.x, ref.x - 1, atol=1e-7)


def test_solve_lp_reports_infeasible_and_unbounded():
    inf = conic.solve_lp(np.ones(1), np.array([[1.0], [-1.0]]), np.array([-1.0, -1.0]))
    assert inf.status == "infeasible" and inf.value == np.inf and np.isnan(inf.x).all()
    unb = conic.solve_lp(np.ones(1), np.array([[1.0]]), np.array([1.0]))
    assert unb.status == "unbounded" and unb.value == -np.inf
    free = conic.solve_lp(np.array([1.0]), np.array([[-1.0]]), np.array([3.0]))     # x >= -3, x free
    assert np.isclose(free.value, -3.0)


def test_solve_qp_matches_lsq_linear_and_trust_constr():
    rng = np.random.default_rng(1)
    F, g = rng.normal(size=(10, 4)), rng.normal(size=10)
    G, h = np.vstack([np.eye(4), -np.eye(4)]), np.r_[np.full(4, 0.5), np.full(4, 0.5)]
    x, val = conic.solve_qp(2 * F.T @ F, -2 * F.T @ g, G, h)
    ref = scipy.optimize.lsq_linear(F, g, bounds=(-0.5, 0.5), tol=1e-12)
    np.testing.assert_allclose(x, ref.x, atol=1e-6)
    assert np.isclose(val + g @ g, np.sum((F @ x - g) ** 2), atol=1e-10)
    Aeq = np.ones((1, 4))
    x2, _ = conic.solve_qp(2 * F.T @ F, -2 * F.T @ g, G, h, Aeq, np.array([0.2]))
    tc = scipy.optimize.minimize(lambda z: np.sum((F @ z - g) ** 2), np.zeros(4), method="trust-constr",
                                 jac=lambda z: 2 * F.T @ (F @ z - g),
                                 constraints=[scipy.optimize.LinearConstraint(G, -np.inf, h),
                                              scipy.optimize.LinearConstraint(Aeq, 0.2, 0.2)],
                                 options=dict(gtol=1e-10, xtol=1e-12, maxiter=5000))
    np.testing.assert_allclose(x2, tc.x, atol=1e-5)


def test_solve_qp_rejects_nonconvex_P():
    with pytest.raises(ValueError, match="P must be positive semi-definite"):
        conic.solve_qp(np.diag([1.0, -1.0]), np.zeros(2))
    with pytest.raises(ValueError, match="G and h"):
        conic.solve_qp(np.eye(2), np.zeros(2), G=np.eye(2))


def test_chebyshev_center_of_box_and_polygon():
    A = np.vstack([np.eye(2), -np.eye(2)])
    xc, r = conic.chebyshev_center(A, np.array([3.0, 1.0, 1.0, 1.0]))      # box [-1, 3] x [-1, 1]
    assert np.isclose(r, 1.0) and np.isclose(xc[1], 0.0) and -1e-9 <= xc[0] - 0.0 <= 2 + 1e-9
    A, b = _polygon(3)
    xc, r = conic.chebyshev_center(A, b)
    depth = lambda x: np.min((b - A @ x) / np.linalg.norm(A, axis=1))
    nm = scipy.optimize.minimize(lambda x: -depth(x), np.zeros(2), method="Nelder-Mead",
                                 options=dict(xatol=1e-11, fatol=1e-13))
    assert np.isclose(r, -nm.fun, atol=1e-8)
    with pytest.raises(ValueError, match="bounded"):
        conic.chebyshev_center(np.array([[1.0, 0.0]]), np.array([1.0]))


@pytest.mark.parametrize("seed", range(3))
def test_piecewise_linear_min_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    A, b = rng.normal(size=(8, 2)), rng.normal(size=8)
    x, t = conic.piecewise_linear_min(A, b)
    best = np.inf
    for tri in itertools.combinations(range(8), 3):
        M = np.column_stack([A[list(tri)], -np.ones(3)])
        if abs(np.linalg.det(M)) > 1e-12:
            z = np.linalg.solve(M, -b[list(tri)])
            best = min(best, np.max(A @ z[:2] + b))
    assert np.isclose(t, best, atol=1e-8) and np.isclose(np.max(A @ x + b), t, atol=1e-8)


@pytest.mark.parametrize("seed", range(3))
def test_linear_fractional_lp_matches_vertices_and_bisection(seed):
    A, b = _polygon(seed)
    rng = np.random.default_rng(seed + 10)
    c, d, e, f = rng.normal(size=2), 0.3, 0.2 * rng.normal(size=2), 2.0
    x, val = conic.linear_fractional_lp(c, d, e, f, A, b)
    V = _vertices(A, b)
    assert np.isclose(val, np.min((V @ c + d) / (V @ e + f)), atol=1e-8)
    feas = lambda t: conic.solve_lp(np.zeros(2), np.vstack([A, c - t * e]), np.r_[b, t * f - d]).status == "optimal"
    res = conic.bisection(feas, -10.0, 10.0, 1e-7)
    assert res.lo - 1e-9 <= val <= res.hi + 1e-9


@settings(max_examples=60, deadline=None)
@given(lo=st.floats(-100, 100), width=st.floats(1e-3, 100), frac=st.floats(0, 1), tol=st.floats(1e-6, 1))
def test_bisection_step_count_and_bracket(lo, width, frac, tol):
    hi = lo + width
    p = lo + frac * width
    res = conic.bisection(lambda t: t >= p, lo, hi, tol)
    assert res.lo - 1e-9 <= p <= res.hi + 1e-9
    assert res.hi - res.lo <= tol
    k = math.log2((hi - lo) / tol)
    if abs(k - round(k)) > 1e-9:                  # away from ties, the count is exactly ceil(k)
        assert res.n_iter == max(0, math.ceil(k))
    widths = np.diff(res.intervals, axis=1).ravel()
    # each width is a difference of two endpoints, exact up to rounding of the endpoints
    np.testing.assert_allclose(widths, (hi - lo) / 2.0 ** np.arange(res.n_iter + 1), rtol=1e-9,
                               atol=1e-14 * (abs(lo) + abs(hi) + 1))


def test_robust_lp_matches_trust_constr():
    A, b = _polygon(5)
    rng = np.random.default_rng(5)
    P = 0.1 * rng.normal(size=(7, 2, 2))
    c = np.array([-1.0, -0.6])
    x, val = conic.robust_lp_ellipsoid(c, A, P, b)
    g = lambda z: A @ z + np.linalg.norm(np.einsum("ikj,k->ij", P, z), axis=1)
    tc = scipy.optimize.minimize(lambda z: c @ z, np.zeros(2), jac=lambda z: c, hess=lambda z: np.zeros((2, 2)),
                                 method="trust-constr",
                                 constraints=[scipy.optimize.NonlinearConstraint(g, -np.inf, b)],
                                 options=dict(gtol=1e-10, xtol=1e-12, maxiter=5000))
    assert np.isclose(val, c @ tc.x, atol=1e-5)
    assert np.all(g(x) <= b + 1e-7)


def test_chance_constrained_is_robust_with_ppf_scaled_ellipsoids():
    A, b = _polygon(6)
    Sigma = np.array([np.diag([0.02, 0.03])] * 7)
    c = np.array([0.5, -1.0])
    x, val = conic.chance_constrained_lp(c, A, Sigma, b, 0.95)
    P = scipy.stats.norm.ppf(0.95) * np.sqrt(Sigma)                       # diagonal: sqrt is the factor
    x2, val2 = conic.robust_lp_ellipsoid(c, A, P, b)
    assert np.isclose(val, val2, atol=1e-7)
    prob = scipy.stats.norm.cdf((b - A @ x) / np.sqrt(np.einsum("j,ijk,k->i", x, Sigma, x)))
    assert np.all(prob >= 0.95 - 1e-6)
    x_half, _ = conic.chance_constrained_lp(c, A, Sigma, b, 0.5)          # eta = 1/2: the nominal LP
    assert np.isclose(c @ x_half, conic.solve_lp(c, A, b).value, atol=1e-6)
    with pytest.raises(ValueError, match="eta"):
        conic.chance_constrained_lp(c, A, Sigma, b, 0.3)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_posynomial_literal_and_log_affine_monomial(seed):
    rng = np.random.default_rng(seed)
    c, A, x = rng.uniform(0.1, 3, 3), rng.normal(size=(3, 2)), rng.uniform(0.2, 3, (5, 2))
    literal = np.array([sum(c[k] * np.prod(xi ** A[k]) for k in range(3)) for xi in x])
    np.testing.assert_allclose(conic.posynomial(c, A, x), literal, rtol=1e-12)
    np.testing.assert_allclose(np.log(conic.posynomial(c[:1], A[:1], x)), np.log(x) @ A[0] + np.log(c[0]),
                               atol=1e-12)


def test_gp_box_closed_form():
    for A_wall, A_flr in [(20.0, 4.0), (10.0, 9.0)]:
        x, inv = conic.solve_gp_log((np.ones(1), -np.ones((1, 3))),
                                    [(np.full(2, 2 / A_wall), np.array([[1.0, 1, 0], [1, 0, 1]])),
                                     (np.array([1 / A_flr]), np.array([[0.0, 1, 1]]))], np.zeros(3))
        assert np.isclose(1 / inv, A_wall * np.sqrt(A_flr) / 4, rtol=1e-7)
    with pytest.raises(ValueError, match="objective"):
        conic.solve_gp_log((np.ones(2), np.ones((1, 2))), [], np.zeros(2))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 6))
def test_perron_frobenius_is_spectral_radius(seed, n):
    A = np.random.default_rng(seed).uniform(0.05, 2.0, (n, n))
    lam, v = conic.perron_frobenius(A)
    assert np.isclose(lam, np.max(np.abs(np.linalg.eigvals(A))), rtol=1e-9)
    assert np.all(v > 0) and np.isclose(v.sum(), 1.0)
    np.testing.assert_allclose(A @ v, lam * v, rtol=1e-8, atol=1e-12)


def test_perron_frobenius_rejects_nonpositive():
    with pytest.raises(ValueError, match="A must have positive entries"):
        conic.perron_frobenius(np.array([[1.0, 0.0], [1.0, 1.0]]))


def test_min_lambda_max_matches_nelder_mead_and_diagonal_case():
    rng = np.random.default_rng(7)
    sym = lambda M: (M + M.T) / 2
    A0, As = sym(rng.normal(size=(3, 3))), np.array([sym(rng.normal(size=(3, 3)))])
    x, t = conic.min_lambda_max(A0, As)
    f = lambda z: np.linalg.eigvalsh(A0 + z[0] * As[0])[-1]
    grid = np.linspace(-5, 5, 2001)
    z0 = grid[np.argmin([f([g]) for g in grid])]
    ref = scipy.optimize.minimize_scalar(lambda z: f([z]), bracket=(z0 - 0.01, z0, z0 + 0.01), tol=1e-12)
    assert np.isclose(t, ref.fun, atol=1e-7)
    assert np.isclose(t, np.linalg.eigvalsh(A0 + x[0] * As[0])[-1], atol=1e-12)
    # diag(1, -1) + x diag(-1, 1): lambda_max = max(1 - x, x - 1) is minimised at x = 1 with value 0
    x, t = conic.min_lambda_max(np.diag([1.0, -1.0]), np.array([np.diag([-1.0, 1.0])]))
    assert np.isclose(x[0], 1.0, atol=1e-6) and abs(t) <= 1e-6


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 10_000), t=st.floats(0, 5))
def test_schur_psd_iff_spectral_norm(seed, t):
    A = np.random.default_rng(seed).normal(size=(3, 2))
    nrm = np.linalg.norm(A, 2)
    if abs(nrm - t) > 1e-8:
        assert conic.schur_psd(A, t) == (nrm <= t)
    assert np.isclose(np.linalg.eigvalsh(conic.schur_block(A, t))[0], t - nrm, atol=1e-10)


def _long_only_by_supports(mu, Sigma, gamma):
    """Exact long-only optimum by enumerating supports S: on S the KKT system
    2 gamma Sigma_SS x_S - mu_S + nu 1 = 0, 1^T x_S = 1 is linear; keep x_S >= 0, take the best."""
    n, best = len(mu), (np.inf, None)
    for r in range(1, n + 1):
        for S in itertools.combinations(range(n), r):
            S = list(S)
            K = np.block([[2 * gamma * Sigma[np.ix_(S, S)], np.ones((r, 1))], [np.ones((1, r)), np.zeros((1, 1))]])
            xs = np.linalg.solve(K, np.r_[mu[S], 1.0])[:r]
            if np.all(xs >= -1e-12):
                x = np.zeros(n)
                x[S] = xs
                val = -mu @ x + gamma * x @ Sigma @ x
                best = min(best, (val, tuple(x)))
    return np.array(best[1])


def test_mean_variance_frontier_matches_support_enumeration_and_trust_constr():
    rng = np.random.default_rng(2)
    mu = np.array([0.05, 0.08, 0.12, 0.10])
    L = 0.1 * rng.normal(size=(4, 4))
    Sigma = L @ L.T + 0.01 * np.eye(4)
    gammas = np.array([0.5, 2.0, 20.0])
    X, means, variances = conic.mean_variance_frontier(mu, Sigma, gammas)
    for x, gamma in zip(X, gammas):
        np.testing.assert_allclose(x, _long_only_by_supports(mu, Sigma, gamma), atol=1e-7)
        tc = scipy.optimize.minimize(lambda z: -mu @ z + gamma * z @ Sigma @ z, np.full(4, 0.25),
                                     jac=lambda z: -mu + 2 * gamma * Sigma @ z, method="trust-constr",
                                     constraints=[scipy.optimize.LinearConstraint(np.ones((1, 4)), 1, 1)],
                                     bounds=scipy.optimize.Bounds(0, np.inf),
                                     options=dict(gtol=1e-10, xtol=1e-12, maxiter=5000))
        # trust-constr (interior point) stops ~1e-4 inside x >= 0: compare objective values to 1e-5
        obj = lambda z: -mu @ z + gamma * z @ Sigma @ z
        assert obj(x) <= obj(tc.x) + 1e-9 and obj(tc.x) - obj(x) <= 1e-5
    np.testing.assert_allclose(X.sum(1), 1.0, atol=1e-12)
    np.testing.assert_allclose(means, X @ mu)
    assert np.all(np.diff(variances) <= 1e-10)


def test_solver_failures_raise_value_errors_naming_the_inputs():
    # lambda_max(x I) = x is unbounded below
    with pytest.raises(ValueError, match="A0 .* As"):
        conic.min_lambda_max(np.zeros((2, 2)), np.array([np.eye(2)]))
    # x_1 <= -1 and -x_1 <= -1 are inconsistent
    with pytest.raises(ValueError, match="a_bar, P, b"):
        conic.robust_lp_ellipsoid(np.array([1.0, 0.0]), np.array([[1.0, 0.0], [-1.0, 0.0]]),
                                  np.zeros((2, 2, 2)), np.array([-1.0, -1.0]))
    # the ratio x / 1 is unbounded below on x <= 0
    with pytest.raises(ValueError, match="c, d, e, f, G, h"):
        conic.linear_fractional_lp(np.ones(1), 0.0, np.zeros(1), 1.0, np.ones((1, 1)), np.zeros(1))


def test_solve_qp_raises_for_an_infeasible_problem_like_linprog():
    """x_1 <= -1 and -x_1 <= 0 (and an equality-constrained variant): linprog (HiGHS) reports
    status 2, and solve_qp raises instead of returning SLSQP's infeasible point."""
    G, h = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([-1.0, 0.0])
    assert scipy.optimize.linprog(np.zeros(2), A_ub=G, b_ub=h, bounds=(None, None), method="highs").status == 2
    with pytest.raises(ValueError, match="infeasible"):
        conic.solve_qp(np.eye(2), np.ones(2), G, h)
    A, b = np.array([[1.0, 1.0], [1.0, 1.0]]), np.array([0.0, 1.0])
    assert scipy.optimize.linprog(np.zeros(2), A_eq=A, b_eq=b, bounds=(None, None), method="highs").status == 2
    with pytest.raises(ValueError, match="infeasible"):
        conic.solve_qp(np.eye(2), np.ones(2), A=A, b=b)


def test_solve_qp_raises_for_an_unbounded_problem_like_linprog():
    """P = 0 makes the QP an LP: min x_1 + x_2 s.t. x_1 >= 0 is unbounded (linprog status 3),
    and so is min x^T diag(1, 0) x / 2 - x_2 without constraints (SLSQP returned NaN or 1e15);
    solve_qp raises. Bounded singular cases still solve: with x >= 0 the optimum is 0."""
    G, h, q = -np.eye(2)[:1], np.zeros(1), np.array([1.0, 1.0])
    assert scipy.optimize.linprog(q, A_ub=G, b_ub=h, bounds=(None, None), method="highs").status == 3
    with pytest.raises(ValueError, match="unbounded"):
        conic.solve_qp(np.zeros((2, 2)), q, G, h)
    with pytest.raises(ValueError, match="unbounded"):
        conic.solve_qp(np.diag([1.0, 0.0]), np.array([0.0, -1.0]))
    ref = scipy.optimize.linprog(q, A_ub=-np.eye(2), b_ub=np.zeros(2), bounds=(None, None), method="highs")
    x, value = conic.solve_qp(np.zeros((2, 2)), q, -np.eye(2), np.zeros(2))
    assert ref.status == 0 and np.isclose(value, ref.fun, atol=1e-9)
    x, value = conic.solve_qp(np.diag([1.0, 0.0]), np.array([-1.0, 1.0]), -np.eye(2), np.zeros(2))
    assert np.isclose(value, -0.5, atol=1e-9)                 # x = (1, 0): closed form


def test_bisection_rejects_a_tolerance_below_the_float_spacing():
    """At lo = 1e6 the float spacing is 1.2e-10: a tol of 1e-12 would leave the bracket stuck at
    two adjacent floats and the loop would never end; it is rejected by name."""
    with pytest.raises(ValueError, match="tol"):
        conic.bisection(lambda t: t >= 1e6 + 0.3, 1e6, 1e6 + 1.0, 1e-12)
    r = conic.bisection(lambda t: t >= 1e6 + 0.3, 1e6, 1e6 + 1.0, 1e-9)
    assert r.hi - r.lo <= 1e-9 and r.lo <= 1e6 + 0.3 <= r.hi


def test_perron_frobenius_raises_when_max_iter_is_reached():
    """Power iteration on a positive matrix with |lambda_2 / lambda_1| close to 1 needs many
    steps; with max_iter = 5 it has not converged and raises (it used to return the iterate)."""
    A = np.array([[1.0, 1e-3], [1e-3, 1.0 + 1e-4]])
    with pytest.raises(ValueError, match="max_iter"):
        conic.perron_frobenius(A, tol=1e-12, max_iter=5)
    lam, v = conic.perron_frobenius(A, tol=1e-12, max_iter=100_000)
    assert np.isclose(lam, np.abs(np.linalg.eigvals(A)).max(), rtol=1e-10)
