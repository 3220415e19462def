"""Tests of mlnotes.convex_functions against scipy.special (logsumexp, entr), scipy.stats
(norm.logcdf), numpy.linalg (slogdet, eigvalsh), scipy.optimize (minimize_scalar) and
numpy.convolve, plus the identities of chapter 43."""
import numpy as np
import pytest
import scipy.optimize
import scipy.spatial
import scipy.special
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from mlnotes import convex_functions as cf

RNG = np.random.default_rng(0)


def test_standard_functions_match_references():
    X = RNG.normal(0, 30, (50, 4))            # large entries: tests the overflow guard
    np.testing.assert_allclose(cf.log_sum_exp(X), scipy.special.logsumexp(X, axis=1), rtol=1e-13)
    P = RNG.dirichlet(np.ones(4), 20)
    P[0, 0] = 0.0
    P[0] /= P[0].sum()
    np.testing.assert_allclose(cf.neg_entropy(P), -scipy.special.entr(P).sum(1), atol=1e-14)
    Xp = RNG.uniform(0.1, 5, (30, 3))
    np.testing.assert_allclose(cf.geometric_mean(Xp), scipy.stats.gmean(Xp, axis=1), rtol=1e-13)
    A = RNG.normal(size=(10, 3, 3))
    S = A @ np.swapaxes(A, 1, 2) + 0.1 * np.eye(3)
    np.testing.assert_allclose(cf.log_det(S), np.linalg.slogdet(S)[1], rtol=1e-12)
    np.testing.assert_allclose(cf.quad_over_lin(Xp, Xp[:, 0]), (Xp ** 2).sum(1) / Xp[:, 0], rtol=1e-14)


def test_hessians_psd_and_nsd():
    # tolerance 1e-6: the O(h^2) truncation and O(eps/h^2) rounding of hessian_fd at h = 1e-4
    for _ in range(30):
        x = RNG.normal(size=4)
        pi = scipy.special.softmax(x)
        H = cf.hessian_fd(lambda Z: scipy.special.logsumexp(Z, axis=1), x)
        np.testing.assert_allclose(H, np.diag(pi) - np.outer(pi, pi), atol=1e-6)
        assert np.linalg.eigvalsh(H).min() >= -1e-6
        g = RNG.uniform(0.5, 3, 3)
        assert np.linalg.eigvalsh(cf.hessian_fd(cf.geometric_mean, g)).max() <= 1e-6
        z = np.append(RNG.normal(size=2), RNG.uniform(0.5, 2))
        assert np.linalg.eigvalsh(cf.hessian_fd(lambda Z: cf.quad_over_lin(Z[:, :2], Z[:, 2]), z)).min() >= -1e-6
    # -log det on symmetric 2x2 matrices, coordinates (a, b, c) of [[a, b], [b, c]]
    mat = lambda Z: np.stack([np.stack([Z[:, 0], Z[:, 1]], -1), np.stack([Z[:, 1], Z[:, 2]], -1)], 1)
    H = cf.hessian_fd(lambda Z: -cf.log_det(mat(Z)), np.array([2.0, 0.3, 1.0]))
    assert np.linalg.eigvalsh(H).min() >= -1e-6


def test_on_line_log_det_closed_form():
    X = np.array([[2.0, 0.3], [0.3, 1.0]])
    V = np.array([[0.5, 1.0], [1.0, -0.2]])
    w, U = np.linalg.eigh(X)
    R = U @ np.diag(w ** -0.5) @ U.T
    lam = np.linalg.eigvalsh(R @ V @ R)
    ts = np.linspace(-0.5, 0.5, 11)
    np.testing.assert_allclose(cf.on_line(cf.log_det, X, V, ts),
                               np.linalg.slogdet(X)[1] + np.log1p(np.outer(ts, lam)).sum(1), atol=1e-12)


def test_first_order_and_jensen():
    f = lambda Z: scipy.special.logsumexp(Z, axis=1)
    grad = lambda Z: scipy.special.softmax(Z, axis=1)
    X, Y = RNG.normal(0, 2, (500, 3)), RNG.normal(0, 2, (500, 3))
    assert cf.first_order_gap(f, grad, X, Y).min() >= -1e-12
    assert cf.first_order_gap(lambda Z: np.sin(Z[:, 0]), np.cos, X[:, :1], Y[:, :1]).min() < 0
    assert cf.jensen_gap(f, X[:5], np.full(5, 0.2)) >= 0
    # Jensen gap of x^2 with weights w is the weighted variance
    xs, w = RNG.normal(size=7), RNG.dirichlet(np.ones(7))
    assert np.isclose(cf.jensen_gap(lambda x: x ** 2, xs, w), w @ xs ** 2 - (w @ xs) ** 2, atol=1e-14)


def test_conjugates_numeric_vs_closed_and_minimize_scalar():
    ys = np.array([0.3, 1.0, 2.5])
    ref = [-scipy.optimize.minimize_scalar(lambda x, y=y: np.exp(x) - y * x).fun for y in ys]
    np.testing.assert_allclose(cf.conj_exp(ys), ref, atol=1e-8)   # Brent's method: ~1e-10
    np.testing.assert_allclose(cf.conjugate_numeric(lambda X: np.exp(X[:, 0]), ys[:, None], np.zeros(1)),
                               cf.conj_exp(ys), atol=1e-7)
    yn = np.array([-2.0, -0.5])
    ref = [-scipy.optimize.minimize_scalar(lambda x, y=y: -np.log(x) - y * x, bounds=(1e-9, 100),
                                           method="bounded", options={"xatol": 1e-10}).fun for y in yn]
    np.testing.assert_allclose(cf.conj_neg_log(yn), ref, atol=1e-8)
    assert np.isinf(cf.conj_neg_log(np.array([0.0, 1.0]))).all()
    assert np.isinf(cf.conjugate_numeric(lambda X: -np.log(X[:, 0]), np.array([0.5]), np.ones(1),
                                         bounds=[(1e-12, None)]))
    Q = np.array([[3.0, 1.0], [1.0, 2.0]])
    Y = RNG.normal(size=(4, 2))
    np.testing.assert_allclose(cf.conj_quadratic(Q)(Y), 0.5 * np.einsum("ki,ij,kj->k", Y, np.linalg.inv(Q), Y),
                               rtol=1e-12)
    D = RNG.dirichlet(np.ones(4), 3)
    np.testing.assert_allclose(cf.conj_log_sum_exp(D), -scipy.special.entr(D).sum(1), atol=1e-14)
    np.testing.assert_allclose(cf.conjugate_numeric(cf.log_sum_exp, D, np.zeros(4)), cf.conj_log_sum_exp(D),
                               atol=1e-7)


@pytest.mark.parametrize("p, q", [(1, np.inf), (2, 2), (np.inf, 1)])
def test_conj_norm_is_dual_ball_indicator(p, q):
    Y = RNG.uniform(-1.5, 1.5, (200, 3))
    inside = np.linalg.norm(Y, ord=q, axis=1) <= 1
    c = cf.conj_norm(p)(Y)
    assert np.all(c[inside] == 0) and np.all(np.isinf(c[~inside]))
    # dual-norm identity: sup_{||x||_p <= 1} y^T x = ||y||_q, checked on many points of the p-sphere
    Xs = RNG.normal(size=(200000, 3))
    Xs /= np.linalg.norm(Xs, ord=p, axis=1, keepdims=True)
    assert np.all((Y @ Xs.T).max(1) <= np.linalg.norm(Y, ord=q, axis=1) + 1e-12)


def test_biconjugate_is_lower_hull():
    grid = np.linspace(-2, 2, 201)
    f = lambda x: np.sin(3 * x) + 0.5 * x ** 2
    env = cf.biconjugate_1d(f, grid, n_slopes=20001)
    hull = scipy.spatial.ConvexHull(np.column_stack([grid, f(grid)]))
    vert = np.unique(np.concatenate([s for s, e in zip(hull.simplices, hull.equations) if e[1] < 0]))
    ref = np.interp(grid, grid[vert], f(grid)[vert])
    spacing = np.ptp(np.diff(f(grid)) / np.diff(grid)) / 20000
    assert np.all(env <= f(grid) + 1e-12)
    np.testing.assert_allclose(env, ref, atol=spacing * 4 / 2 + 1e-12)   # documented bound


def test_fenchel_young_equality_at_gradient():
    X = RNG.normal(size=(50, 3))
    fy = cf.fenchel_young_gap(cf.log_sum_exp, cf.conj_log_sum_exp, X, scipy.special.softmax(X, axis=1))
    np.testing.assert_allclose(fy, 0, atol=1e-12)


def test_quasiconvex_and_log_concavity():
    x, y = RNG.uniform(-3, 3, 500), RNG.uniform(-3, 3, 500)
    assert cf.modified_jensen_holds(np.ceil, x, y, np.linspace(0, 1, 11)).all()
    assert not cf.modified_jensen_holds(lambda z: -z ** 2, np.array([-1.0]), np.array([1.0]), np.array([0.5]))[0, 0]
    grid = np.linspace(-10, 5, 1501)
    d2 = cf.second_log_difference(scipy.special.ndtr, grid)
    ref = np.diff(scipy.stats.norm.logcdf(grid), 2) / 0.01 ** 2
    np.testing.assert_allclose(d2, ref, atol=1e-6)                       # same quantity, two log routes
    assert d2.max() <= 0
    # convolution of two log-concave densities by numpy.convolve: log-concave
    h = 0.01
    t = np.arange(-10, 10 + h / 2, h)
    conv = np.convolve(np.exp(-np.abs(t)), np.where(np.abs(t) <= 1, 1.0, 0.0), mode="same") * h
    inner = np.abs(t) <= 5
    assert cf.second_log_difference(lambda z: np.interp(z, t, conv), t[inner]).max() <= 1e-8


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-5, 5), min_size=3, max_size=3),
       st.lists(st.floats(-5, 5), min_size=3, max_size=3), st.floats(0, 1))
def test_property_convex_functions_satisfy_chord_and_fenchel_young(a, b, theta):
    a, b = np.array(a), np.array(b)
    w = np.array([theta, 1 - theta])
    assert cf.jensen_gap(cf.log_sum_exp, np.stack([a, b]), w) >= -1e-12
    y = scipy.special.softmax(b)
    assert cf.fenchel_young_gap(cf.log_sum_exp, cf.conj_log_sum_exp, a[None], y[None])[0] >= -1e-12
    assert cf.modified_jensen_holds(lambda z: np.max(np.abs(z), axis=1), a[None], b[None],
                                    np.array([theta])).all()


def test_validation_messages():
    with pytest.raises(ValueError, match="Q"):
        cf.conj_quadratic(np.array([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(ValueError, match="X"):
        cf.log_det(np.array([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(ValueError, match="f"):
        cf.second_log_difference(lambda z: -np.ones_like(z), np.linspace(0, 1, 5))
    with pytest.raises(ValueError, match="grid"):
        cf.biconjugate_1d(np.abs, np.array([0.0, 2.0, 1.0]))
    with pytest.raises(ValueError, match="thetas"):
        cf.modified_jensen_holds(np.abs, np.zeros(2), np.ones(2), np.array([1.5]))
    with pytest.raises(ValueError, match="bounds"):
        cf.conjugate_numeric(lambda X: X[:, 0] ** 2, np.ones(1), np.zeros(1), bounds=[(0, 1), (0, 1)])
    with pytest.raises(ValueError, match="weights"):
        cf.jensen_gap(np.abs, np.zeros(3), np.array([0.5, 0.5]))


def test_biconjugate_error_bound_for_convex_functions():
    # a computed slope within Δs/2 of [d_{j-1}, d_j] and chord slopes growing by more than Δs/2
    # give f(x_j) - f**(x_j) <= Δs h / 2 (chapter 43, §43.5)
    grid = np.linspace(-2, 2, 401)
    for fn in (np.exp, lambda x: x ** 2):
        d = np.diff(fn(grid)) / np.diff(grid)
        ds = np.ptp(d) / 4000
        assert np.diff(d).min() > ds / 2
        err = fn(grid) - cf.biconjugate_1d(fn, grid)
        assert err.min() >= -1e-12 and err.max() <= ds * 0.01 / 2 + 1e-12


def test_conjugate_numeric_l2_norm_with_powell():
    Y = np.array([[0.3, -0.4], [0.5, 0.5], [1.0, 0.5], [-0.9, -0.9]])
    c = cf.conjugate_numeric(lambda X: np.linalg.norm(X, axis=1), Y, np.full(2, 0.1), method="Powell")
    inside = np.linalg.norm(Y, axis=1) <= 1
    np.testing.assert_allclose(c[inside], 0, atol=1e-8)
    assert np.isinf(c[~inside]).all()


def test_conjugate_numeric_of_a_kinked_function_with_the_default_method():
    """The l1 norm has a kink at x0 = 0, where L-BFGS-B stops at once with 'ABNORMAL' and the
    old code returned -0.0 for y = (2, 0), whose conjugate is +inf (indicator of the
    l_inf unit ball, conj_norm(1)). Now the search restarts with Powell and finds the edge."""
    f = lambda X: np.abs(X).sum(axis=1)                               # noqa: E731
    Y = np.array([[2.0, 0.0], [0.5, -0.3], [0.9, 1.2]])
    got = np.array([cf.conjugate_numeric(f, y, np.zeros(2)) for y in Y])
    ref = cf.conj_norm(1)(Y)                                           # [inf, 0, inf]
    assert np.array_equal(np.isinf(got), np.isinf(ref))
    np.testing.assert_allclose(got[1], ref[1], atol=1e-9)
