"""Tests of mlnotes.duality against scipy.optimize.linprog (HiGHS) on the primal problems,
numpy.linalg.pinv / eigvalsh / lstsq, SLSQP and multistart trust-constr, and enumeration."""
import itertools
import warnings

import numpy as np
import pytest
import scipy.optimize
from hypothesis import given, settings, strategies as st

from mlnotes import duality
from mlnotes.convex_sets import dual_norm


def _lp(seed, m=3, n=7):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((m, n))
    b = A @ rng.uniform(0.2, 1.0, n)                       # feasible
    c = rng.uniform(0.1, 1.0, n) + np.abs(rng.standard_normal(n))   # bounded below on x >= 0
    return c, A, b


def _tr(seed, d, hard=False):
    rng = np.random.default_rng(seed)
    Q = np.linalg.qr(rng.standard_normal((len(d), len(d))))[0]
    A = Q @ np.diag(d) @ Q.T
    b = 0.3 * rng.standard_normal(len(d))
    if hard:
        b -= Q[:, 0] * (Q[:, 0] @ b)
    return (A + A.T) / 2, b


@pytest.mark.parametrize("seed", range(5))
def test_lp_dual_equals_primal_and_multipliers(seed):
    c, A, b = _lp(seed)
    primal = scipy.optimize.linprog(c, A_eq=A, b_eq=b, method="highs")
    dual = duality.lp_dual(c, A, b)
    # both HiGHS optima are exact to ~1e-9 (its default feasibility/optimality tolerances 1e-7 scaled)
    assert dual.status == 0 and np.isclose(dual.value, primal.fun, atol=1e-8)
    mult = duality.lagrange_multipliers_from_linprog(primal)
    np.testing.assert_allclose(mult.nu, dual.nu, atol=1e-8)
    np.testing.assert_allclose(mult.lower, dual.lam, atol=1e-8)
    assert np.all(dual.lam >= -1e-9)
    np.testing.assert_allclose(dual.lam * primal.x, 0, atol=1e-8)          # complementary slackness


def test_lp_dual_infeasible_and_unbounded():
    A = np.array([[1.0, 1.0]])
    unbounded = duality.lp_dual(np.array([-1.0, 0.0]), np.array([[1.0, -1.0]]), np.array([1.0]))
    assert unbounded.value == -np.inf and unbounded.status == 2            # x1 = 1 + x2, c^T x -> -inf
    assert duality.lp_dual(np.array([1.0, 1.0]), A, np.array([-1.0])).value == np.inf   # primal infeasible


def test_multipliers_signs_by_finite_differences():
    rng = np.random.default_rng(3)
    A, C = rng.standard_normal((4, 5)), rng.standard_normal((2, 5))
    x0 = rng.uniform(0.5, 1.0, 5)
    b, d, c = A @ x0 + rng.uniform(0.1, 1, 4), C @ x0, rng.standard_normal(5) + 2
    solve = lambda bb, dd: scipy.optimize.linprog(c, A_ub=A, b_ub=bb, A_eq=C, b_eq=dd,  # noqa: E731
                                                  bounds=[(0, 3)] * 5, method="highs")
    res = solve(b, d)
    m = duality.lagrange_multipliers_from_linprog(res)
    np.testing.assert_allclose(c + A.T @ m.lam + C.T @ m.nu - m.lower + m.upper, 0, atol=1e-9)
    h = 1e-6
    for i in range(4):   # dp*/db_i = -lam_i (an LP's value is piecewise linear: one-sided step is exact)
        assert np.isclose((solve(b + h * np.eye(4)[i], d).fun - res.fun) / h, -m.lam[i], atol=1e-4)
    for j in range(2):
        assert np.isclose((solve(b, d + h * np.eye(2)[j]).fun - res.fun) / h, -m.nu[j], atol=1e-4)
    with pytest.raises(ValueError, match="res"):
        duality.lagrange_multipliers_from_linprog(scipy.optimize.minimize(lambda x: x @ x, np.ones(2)))


@pytest.mark.parametrize("rank_deficient", [False, True])
def test_least_norm_dual_vs_pinv(rank_deficient):
    rng = np.random.default_rng(1)
    A = rng.standard_normal((4, 7))
    if rank_deficient:
        A[3] = A[0] - 2 * A[1]
    b = A @ rng.standard_normal(7)
    nu, d, x = duality.least_norm_dual(A, b)
    xp = np.linalg.pinv(A) @ b
    assert np.isclose(d, xp @ xp, atol=1e-10)
    np.testing.assert_allclose(x, xp, atol=1e-10)
    with pytest.raises(ValueError, match="range of A"):
        duality.least_norm_dual(np.array([[1.0, 0], [1.0, 0]]), np.array([1.0, 2.0]))


@pytest.mark.parametrize("ord", [1, 2, np.inf])
def test_dual_norm_lemma(ord):
    rng = np.random.default_rng(2)
    X = rng.standard_normal((5000, 4)) * rng.exponential(3, (5000, 1))
    for scale in (0.5, 0.99, 1.5):
        y = rng.standard_normal(4)
        y *= scale / dual_norm(y, ord)
        value, u = duality.dual_norm_lemma(y, ord)
        assert np.isclose(u @ y, dual_norm(y, ord)) and np.linalg.norm(u, ord) <= 1 + 1e-12
        f = np.linalg.norm(X, ord, axis=1) - X @ y
        if scale < 1:
            assert value == 0.0 and f.min() >= -1e-12
        else:
            assert value == -np.inf and np.linalg.norm(100 * u, ord) - 100 * u @ y < -40
    # the dual norm is sup over the unit ball: compare with the vertices / sampled sphere
    y = rng.standard_normal(3)
    assert np.isclose(dual_norm(y, 1), np.abs(y).max())
    V = np.array(list(itertools.product([-1, 1], repeat=3)), dtype=float)
    assert np.isclose(dual_norm(y, np.inf), (V @ y).max())


def test_two_way_partition_brute_and_bound():
    rng = np.random.default_rng(4)
    for n in (3, 6, 9):
        W = rng.standard_normal((n, n)); W = (W + W.T) / 2
        X = np.array(list(itertools.product([-1, 1], repeat=n)), dtype=float)
        p_ref = np.einsum("ki,ij,kj->k", X, W, X).min()
        p, x = duality.two_way_partition_brute(W)
        assert np.isclose(p, p_ref, atol=1e-12) and np.isclose(x @ W @ x, p)
        assert duality.two_way_partition_bound(W) <= p + 1e-12
    # tight when the eigenvector of lambda_min is a sign vector: W = -s s^T + I
    s = np.array([1.0, -1, 1, 1, -1])
    W = np.eye(5) - np.outer(s, s)
    assert np.isclose(duality.two_way_partition_bound(W), duality.two_way_partition_brute(W)[0])
    with pytest.raises(ValueError, match="16"):
        duality.two_way_partition_brute(np.eye(17))


def test_entropy_max_dual_vs_slsqp():
    rng = np.random.default_rng(5)
    A = rng.standard_normal((3, 6))
    b = A @ np.full(6, 1 / 6) + np.array([-0.1, 0.05, -0.02])
    e = duality.entropy_max_dual(A, b)
    cons = [{"type": "ineq", "fun": lambda x: b - A @ x}, {"type": "eq", "fun": lambda x: x.sum() - 1}]
    ref = scipy.optimize.minimize(lambda x: np.sum(x * np.log(x)), np.full(6, 1 / 6), method="SLSQP",
                                  bounds=[(1e-12, 1)] * 6, constraints=cons, options={"ftol": 1e-14})
    # SLSQP stops at ftol 1e-14 on a smooth strictly convex problem: values agree to 1e-9
    assert np.isclose(e.value, ref.fun, atol=1e-9)
    np.testing.assert_allclose(e.x, ref.x, atol=1e-5)
    assert np.isclose(e.x.sum(), 1) and np.all(A @ e.x <= b + 1e-8) and np.all(e.lam >= 0)
    np.testing.assert_allclose(e.lam * (A @ e.x - b), 0, atol=1e-8)


def _multistart(A, b, n_starts, seed):
    """Best trust-constr value from random starts and the final barrier parameter of that run."""
    rng = np.random.default_rng(seed)
    con = scipy.optimize.NonlinearConstraint(lambda x: x @ x, -np.inf, 1.0, jac=lambda x: 2 * x[None],
                                             hess=lambda x, v: 2 * v[0] * np.eye(len(x)))
    best, mu = np.inf, np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(n_starts):
            x0 = rng.standard_normal(len(b)); x0 /= 1.5 * np.linalg.norm(x0)
            r = scipy.optimize.minimize(lambda x: x @ A @ x + 2 * b @ x, x0, jac=lambda x: 2 * A @ x + 2 * b,
                                        hess=lambda x: 2 * A, method="trust-constr", constraints=[con],
                                        options={"gtol": 1e-10, "xtol": 1e-12})
            if r.fun < best:
                best, mu = r.fun, r.barrier_parameter
    return best, mu


def _qep_multiplier(A, b):
    """Largest real root of det((A + lam I)^2 - b b^T): minus the smallest real eigenvalue of
    [[A, -I], [-b b^T, A]] (the multiplier of a boundary solution, also in the hard case)."""
    n = len(b)
    mu = np.linalg.eigvals(np.block([[A, -np.eye(n)], [-np.outer(b, b), A]]))
    return -mu.real[np.abs(mu.imag) <= 1e-6].min()


@pytest.mark.parametrize("case", ["indefinite", "hard", "interior", "psd-singular"])
def test_trust_region_primal_dual_and_multistart(case):
    d = {"indefinite": [-2.0, -0.5, 0.3, 1, 2], "hard": [-2.0, -0.5, 0.3, 1, 2],
         "interior": [1.0, 2, 3, 4, 5], "psd-singular": [0.0, 0.5, 1, 2, 3]}[case]
    A, b = _tr(7, np.array(d), hard=case in ("hard", "psd-singular"))
    t = duality.trust_region_global(A, b)
    lam, dv = duality.trust_region_dual(A, b)
    assert t.x @ t.x <= 1 + 1e-12 and np.isclose(t.value, t.x @ A @ t.x + 2 * b @ t.x)
    assert np.isclose(t.value, dv, atol=1e-10)                       # zero duality gap
    assert t.hard_case == (case == "hard")
    # trust-constr is an interior-point method: for one constraint its final point lies on the central
    # path, y (1 - |x|^2) = mu, and its value exceeds p* by at most its final barrier parameter mu
    best, mu = _multistart(A, b, 6, 0)
    assert t.value - 1e-12 <= best <= t.value + 1.01 * mu + 1e-12
    if t.lam > 0:   # boundary solution: lam* is the largest real root of det((A + lam I)^2 - b b^T)
        # a simple eigenvalue in the regular case; a defective double one (error ~ sqrt(eps)) in the hard case
        assert np.isclose(t.lam, _qep_multiplier(A, b), rtol=0, atol=1e-7 if t.hard_case else 1e-10)
    # KKT: (A + lam I) x = -b, lam >= 0, A + lam I PSD, lam (1 - |x|^2) = 0
    np.testing.assert_allclose((A + t.lam * np.eye(5)) @ t.x, -b, atol=1e-9)
    assert t.lam >= 0 and np.linalg.eigvalsh(A + t.lam * np.eye(5))[0] >= -1e-10
    assert abs(t.lam * (1 - t.x @ t.x)) < 1e-9


def test_trust_region_dual_function_domain_and_lmi():
    A, b = _tr(8, np.array([-1.0, 0.5, 2.0]))
    g = duality.trust_region_dual_function(A, b, np.array([0.0, 0.5, 0.99]))
    assert np.all(g == -np.inf)                                       # A + lam I not PSD
    lam = np.array([1.5, 3.0])
    ref = np.array([-b @ np.linalg.pinv(A + l * np.eye(3)) @ b - l for l in lam])
    np.testing.assert_allclose(duality.trust_region_dual_function(A, b, lam), ref, atol=1e-12)
    # g(lam) = max{-t - lam : [[A + lam I, b], [b^T, t]] PSD}: PSD exactly at t = b^T (A + lam I)^+ b
    t = -ref[0] - lam[0]
    M = np.block([[A + lam[0] * np.eye(3), b[:, None]], [b[None], np.array([[t]])]])
    assert np.linalg.eigvalsh(M)[0] >= -1e-10
    M[-1, -1] -= 1e-3
    assert np.linalg.eigvalsh(M)[0] < 0
    with pytest.raises(ValueError, match="lam"):
        duality.trust_region_dual_function(A, b, np.array([-1.0]))


def test_trust_region_dual_needs_the_sign_constraint():
    # convex instance A = I, |b| = 0.3: p* = -|b|^2 at x = -b; without lam >= 0 the "dual" would reach 1 - 2|b|
    b = np.array([0.3, 0.0, 0.0])
    lam, d = duality.trust_region_dual(np.eye(3), b)
    assert lam == 0.0 and np.isclose(d, -0.09, rtol=0, atol=1e-12)
    t = duality.trust_region_global(np.eye(3), b)
    assert t.lam == 0.0 and not t.hard_case and np.allclose(t.x, -b, atol=1e-12)


@given(st.integers(0, 10_000), st.floats(0.0, 20.0))
@settings(max_examples=40, deadline=None)
def test_property_weak_duality_trust_region(seed, lam):
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((4, 4))
    A, b = (M + M.T) / 2, rng.standard_normal(4)
    t = duality.trust_region_global(A, b)
    g = duality.trust_region_dual_function(A, b, np.array([lam]))[0]
    assert g <= t.value + 1e-9                                         # weak duality
    x = rng.standard_normal((200, 4)); x /= np.maximum(1, np.linalg.norm(x, axis=1))[:, None]
    assert np.all(np.einsum("ki,ij,kj->k", x, A, x) + 2 * x @ b >= t.value - 1e-9)   # global


@given(st.integers(0, 10_000), st.integers(2, 8))
@settings(max_examples=30, deadline=None)
def test_property_partition_bound_below_optimum(seed, n):
    rng = np.random.default_rng(seed)
    W = rng.standard_normal((n, n)); W = (W + W.T) / 2
    assert duality.two_way_partition_bound(W) <= duality.two_way_partition_brute(W)[0] + 1e-10


def _norm_primal_lp(A, b, ord):
    """min ||Ax - b|| for ord 1 or inf as the epigraph LP in (x, t) (the primal, not the dual)."""
    m, n = A.shape
    if ord == 1:
        I = np.eye(m)
        res = scipy.optimize.linprog(np.r_[np.zeros(n), np.ones(m)], A_ub=np.block([[A, -I], [-A, -I]]),
                                     b_ub=np.r_[b, -b], bounds=[(None, None)] * n + [(0, None)] * m,
                                     method="highs")
    else:
        one = np.ones((m, 1))
        res = scipy.optimize.linprog(np.r_[np.zeros(n), 1.0], A_ub=np.block([[A, -one], [-A, -one]]),
                                     b_ub=np.r_[b, -b], bounds=[(None, None)] * (n + 1), method="highs")
    return res.fun


@pytest.mark.parametrize("ord", [1, 2, np.inf])
def test_norm_approx_dual_equals_primal(ord):
    rng = np.random.default_rng(9)
    A, b = rng.standard_normal((15, 4)), rng.standard_normal(15)
    d, nu = duality.norm_approx_dual(A, b, ord)
    p = (np.linalg.norm(b - A @ np.linalg.lstsq(A, b, rcond=None)[0]) if ord == 2
         else _norm_primal_lp(A, b, ord))
    assert np.isclose(d, p, atol=1e-8)
    np.testing.assert_allclose(A.T @ nu, 0, atol=1e-9)
    assert dual_norm(nu, ord) <= 1 + 1e-9 and np.isclose(b @ nu, d)


def test_box_lp_dual_vs_explicit():
    rng = np.random.default_rng(10)
    A = rng.standard_normal((3, 8))
    b, c = A @ rng.uniform(-0.7, 0.7, 8), rng.standard_normal(8)
    d, nu = duality.box_lp_dual(c, A, b)
    p = scipy.optimize.linprog(c, A_eq=A, b_eq=b, bounds=[(-1, 1)] * 8, method="highs").fun
    assert np.isclose(d, p, atol=1e-8)
    assert np.isclose(-b @ nu - np.abs(A.T @ nu + c).sum(), d, atol=1e-8)
    # infeasible box: b far outside A[-1, 1]^n
    assert duality.box_lp_dual(c, A, 100 * np.abs(b) + 100)[0] == np.inf


def test_lambda_max_sdp_dual():
    rng = np.random.default_rng(11)
    M = rng.standard_normal((6, 6)); A = (M + M.T) / 2
    value, Z = duality.lambda_max_sdp_dual(A)
    assert np.isclose(value, np.linalg.eigvalsh(A)[-1]) and np.isclose(np.trace(A @ Z), value)
    assert np.isclose(np.trace(Z), 1) and np.linalg.eigvalsh(Z)[0] >= -1e-12
    G = rng.standard_normal((500, 6, 6)); Zs = G @ G.transpose(0, 2, 1)
    Zs /= np.trace(Zs, axis1=1, axis2=2)[:, None, None]
    assert np.all(np.einsum("ij,kji->k", A, Zs) <= value + 1e-12)      # weak duality


def test_validation_messages():
    with pytest.raises(ValueError, match="ord"):
        duality.dual_norm_lemma(np.ones(2), 3)
    with pytest.raises(ValueError, match="W must be symmetric"):
        duality.two_way_partition_bound(np.array([[0.0, 1.0], [0.0, 0.0]]))
    with pytest.raises(ValueError, match="c must have shape"):
        duality.lp_dual(np.ones(3), np.ones((2, 4)), np.ones(2))


def test_lp_dual_function_weak_duality_and_domain():
    c, A, b = _lp(12)
    p = scipy.optimize.linprog(c, A_eq=A, b_eq=b, method="highs").fun
    rng = np.random.default_rng(12)
    nus = 0.5 * rng.standard_normal((4000, 3))
    g = duality.lp_dual_function(c, A, b, nus)
    feasible = np.all(c + nus @ A >= 0, axis=1)
    assert feasible.sum() > 100 and np.all(g[~feasible] == -np.inf)
    assert np.all(g[feasible] <= p + 1e-10)
    np.testing.assert_allclose(g[feasible], -nus[feasible] @ b)
    assert duality.lp_dual_function(c, A, b, duality.lp_dual(c, A, b).nu) == pytest.approx(p, abs=1e-8)
    with pytest.raises(ValueError, match="nu must have shape"):
        duality.lp_dual_function(c, A, b, np.zeros(4))


def _norm_min_primal(A, b, ord):
    """min ||x|| s.t. Ax = b by pinv (ord 2) or an LP in (x, t) (ord 1, inf)."""
    m, n = A.shape
    if ord == 2:
        return np.linalg.norm(np.linalg.pinv(A) @ b)
    if ord == 1:
        return scipy.optimize.linprog(np.ones(2 * n), A_eq=np.hstack([A, -A]), b_eq=b, method="highs").fun
    I, one = np.eye(n), np.ones((n, 1))
    return scipy.optimize.linprog(np.r_[np.zeros(n), 1.0], A_ub=np.block([[I, -one], [-I, -one]]),
                                  b_ub=np.zeros(2 * n), A_eq=np.hstack([A, np.zeros((m, 1))]), b_eq=b,
                                  bounds=[(None, None)] * (n + 1), method="highs").fun


@pytest.mark.parametrize("ord", [1, 2, np.inf])
def test_norm_min_dual_equals_primal(ord):
    rng = np.random.default_rng(13)
    A, b = rng.standard_normal((3, 7)), rng.standard_normal(3)
    d, nu = duality.norm_min_dual(A, b, ord)
    assert np.isclose(d, _norm_min_primal(A, b, ord), atol=1e-8)
    assert dual_norm(A.T @ nu, ord) <= 1 + 1e-9 and np.isclose(b @ nu, d)
    # inconsistent Ax = b: p* = d* = +inf
    A2 = np.array([[1.0, 0, 0], [2.0, 0, 0]])
    assert duality.norm_min_dual(A2, np.array([1.0, 0.0]), ord)[0] == np.inf


def test_qp_dual_vs_slsqp():
    rng = np.random.default_rng(14)
    M = rng.standard_normal((4, 4)); P = M @ M.T + np.eye(4)
    A, b = rng.standard_normal((6, 4)), rng.standard_normal(6) - 0.5
    q = duality.qp_dual(P, A, b)
    cons = [{"type": "ineq", "fun": lambda x: b - A @ x, "jac": lambda x: -A}]
    ref = scipy.optimize.minimize(lambda x: x @ P @ x, np.zeros(4), jac=lambda x: 2 * P @ x, method="SLSQP",
                                  constraints=cons, options={"ftol": 1e-15, "maxiter": 500})
    assert np.isclose(q.value, ref.fun, atol=1e-8) and np.isclose(q.x @ P @ q.x, q.value, atol=1e-9)
    assert np.all(q.lam >= 0) and np.all(A @ q.x <= b + 1e-9)
    np.testing.assert_allclose(q.lam * (A @ q.x - b), 0, atol=1e-9)
    with pytest.raises(ValueError, match="P must be positive definite"):
        duality.qp_dual(-np.eye(4), A, b)


def test_sdp_dual_function_weak_duality():
    rng = np.random.default_rng(15)
    F = rng.standard_normal((2, 3, 3)); F = (F + F.transpose(0, 2, 1)) / 2
    G = 2 * np.eye(3)
    L = rng.standard_normal((3, 3)); Z0 = L @ L.T
    c = -np.einsum("ijk,kj->i", F, Z0)
    g = duality.sdp_dual_function(c, F, G, Z0)
    assert np.isclose(g, -np.trace(G @ Z0))
    assert duality.sdp_dual_function(c + 0.1, F, G, Z0) == -np.inf
    xs = rng.uniform(-2, 2, (3000, 2))
    feas = np.linalg.eigvalsh(G - np.einsum("si,ijk->sjk", xs, F))[:, 0] >= 0
    assert feas.sum() > 50 and np.all(xs[feas] @ c >= g - 1e-10)
    with pytest.raises(ValueError, match="G and Z"):
        duality.sdp_dual_function(c, F, np.eye(2), np.eye(2))


def test_duality_uses_the_one_dual_norm_of_convex_sets():
    """``dual_norm`` has one implementation (convex_sets, any p >= 1); duality does not export
    a second one with another signature."""
    assert "dual_norm" not in duality.__all__
    y = np.array([0.3, -1.2, 0.5])
    for p, q in [(1, np.inf), (2, 2), (np.inf, 1), (3.0, 1.5)]:
        assert np.isclose(dual_norm(y, p), np.linalg.norm(y, q))


def test_lp_dual_function_is_finite_at_the_dual_optimum_from_highs():
    """At the dual optimum some lam_j = c_j + a_j^T nu* vanish and are computed as -1e-16:
    g(nu*) must be p* (the old exact test lam >= 0 returned -inf for 40 of 50 instances)."""
    for seed in range(30):
        c, A, b = _lp(100 + seed, m=4, n=9)
        res = scipy.optimize.linprog(c, A_eq=A, b_eq=b, method="highs")
        nu = -res.eqlin.marginals                          # HiGHS marginals are dp*/db = -nu
        assert np.isclose(duality.lp_dual_function(c, A, b, nu), res.fun, atol=1e-9)
        a0 = A[:, 0]
        outside = -(c[0] + 1e-6) * a0 / (a0 @ a0)            # lam_0 = c_0 + a_0^T nu = -1e-6 < 0
        stack = duality.lp_dual_function(c, A, b, np.vstack([nu, outside]))
        assert np.isclose(stack[0], res.fun, atol=1e-9) and stack[1] == -np.inf


def test_qp_dual_rejects_an_infeasible_primal():
    """Ax <= b empty (x_1 <= -1 and -x_1 <= 0): linprog says infeasible, and qp_dual raises
    instead of returning the point where L-BFGS-B stopped on the unbounded dual."""
    A, b = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([-1.0, 0.0])
    assert scipy.optimize.linprog(np.zeros(2), A_ub=A, b_ub=b, bounds=(None, None), method="highs").status == 2
    with pytest.raises(ValueError, match="feasible"):
        duality.qp_dual(np.eye(2), A, b)


def test_entropy_max_dual_rejects_an_empty_feasible_set():
    """x_1 <= -0.5 has no solution on the simplex (linprog: infeasible); the dual is unbounded,
    and L-BFGS-B used to stop at lam ~ 1e28 and return it as the optimum."""
    A, b = np.array([[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]]), np.array([-0.5, -0.5])
    ref = scipy.optimize.linprog(np.zeros(3), A_ub=A, b_ub=b, A_eq=np.ones((1, 3)), b_eq=[1.0], method="highs")
    assert ref.status == 2
    with pytest.raises(ValueError, match="probability vector"):
        duality.entropy_max_dual(A, b)


def test_sdp_dual_function_rejects_asymmetric_F():
    with pytest.raises(ValueError, match="F must hold symmetric"):
        duality.sdp_dual_function(np.ones(1), np.array([[[1.0, 2.0], [0.0, 1.0]]]), np.eye(2), np.eye(2))
