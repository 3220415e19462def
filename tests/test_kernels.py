"""Tests of mlnotes.kernels against numpy, scipy and scikit-learn, plus the chapter's identities."""
from math import factorial

import numpy as np
import pytest
import scipy.interpolate
import scipy.optimize
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import Ridge
from sklearn.metrics import pairwise

from mlnotes import datasets, kernels

# (n, d, seed): fewer points than features, and more
SIZES = [(8, 20, 0), (30, 5, 1), (200, 12, 2)]


def _data(n, d, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, d)), rng.standard_normal(n)


def _min_eig(K):
    return np.linalg.eigvalsh(K).min()


# ------------------------------------------------------------------ ridge regression
@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("lam", [1e-3, 0.7, 50.0])
def test_ridge_matches_sklearn(n, d, seed, lam):
    X, y = _data(n, d, seed)
    ref = Ridge(alpha=lam, fit_intercept=False, solver="svd").fit(X, y).coef_
    np.testing.assert_allclose(kernels.ridge(X, y, lam), ref, atol=1e-8, rtol=1e-8)


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_primal_equals_dual(n, d, seed):
    X, y = _data(n, d, seed)
    lam = 0.3
    beta, alpha = kernels.ridge(X, y, lam), kernels.ridge_dual(X, y, lam)
    np.testing.assert_allclose(X.T @ alpha, beta, atol=1e-9)
    np.testing.assert_allclose(alpha, (y - X @ beta) / lam, atol=1e-8)     # residual form
    # push-through identity as matrices
    np.testing.assert_allclose(np.linalg.solve(X.T @ X + lam * np.eye(d), X.T),
                               X.T @ np.linalg.inv(X @ X.T + lam * np.eye(n)), atol=1e-9)


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_ridge_minimises_the_objective(n, d, seed):
    X, y = _data(n, d, seed)
    lam = 0.5
    J = lambda b: np.sum((y - X @ b) ** 2) + lam * b @ b
    beta = kernels.ridge(X, y, lam)
    rng = np.random.default_rng(seed + 100)
    for _ in range(5):
        assert J(beta) < J(beta + 1e-3 * rng.standard_normal(d))
    A = X.T @ X + lam * np.eye(d)
    assert J(beta) == pytest.approx(y @ y - y @ X @ np.linalg.solve(A, X.T @ y), abs=1e-9)


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_ridge_path_matches_ridge_and_shrinks(n, d, seed):
    X, y = _data(n, d, seed)
    lams = np.logspace(-2, 3, 11)
    B = kernels.ridge_path(X, y, lams)
    assert B.shape == (11, d)
    np.testing.assert_allclose(B, [kernels.ridge(X, y, lam) for lam in lams], atol=1e-9)
    assert np.all(np.diff(np.linalg.norm(B, axis=1)) < 0)
    np.testing.assert_allclose(kernels.ridge_path(X, y, np.array([1e-10]))[0],
                               np.linalg.pinv(X) @ y, atol=1e-6)


# ------------------------------------------------------------------------- kernels
@pytest.mark.parametrize("n, d, seed", SIZES)
def test_kernels_match_sklearn(n, d, seed):
    X, _ = _data(n, d, seed)
    Y = np.random.default_rng(seed + 1).standard_normal((7, d))
    for Z in (None, Y):
        np.testing.assert_allclose(kernels.linear_kernel(X, Z), pairwise.linear_kernel(X, Z), atol=1e-12)
        np.testing.assert_allclose(kernels.polynomial_kernel(X, Z), pairwise.polynomial_kernel(X, Z),
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(kernels.polynomial_kernel(X, Z, degree=2, gamma=0.3, coef0=0.0),
                                   pairwise.polynomial_kernel(X, Z, degree=2, gamma=0.3, coef0=0.0),
                                   rtol=1e-12, atol=1e-12)
        for gamma in (None, 0.01, 0.5, 3.0):
            np.testing.assert_allclose(kernels.rbf_kernel(X, Z, gamma=gamma),
                                       pairwise.rbf_kernel(X, Z, gamma=gamma), atol=1e-12)
            np.testing.assert_allclose(kernels.sigmoid_kernel(X, Z, gamma=gamma, coef0=-0.5),
                                       pairwise.sigmoid_kernel(X, Z, gamma=gamma, coef0=-0.5), atol=1e-12)


def test_rbf_length_scale_and_exact_diagonal():
    X, _ = _data(25, 3, 3)
    ell = 0.7
    sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    K = kernels.rbf_kernel(X, gamma=1 / (2 * ell**2))
    np.testing.assert_allclose(K, np.exp(-sq / (2 * ell**2)), atol=1e-13)
    assert np.array_equal(K, K.T) and np.all(np.diag(K) == 1.0)


# ------------------------------------------- translation and scale (far from the origin)
SHIFTS = [1e5, -1e5]
SCALES = [1e4, 1e-4]


def _pairs(seed, n=30, m=20, d=3):
    """Point sets ``X`` and ``Y`` near the origin: ``(X, None)`` and ``(X, Y)``."""
    rng = np.random.default_rng(seed)
    X, Y = rng.standard_normal((n, d)), rng.standard_normal((m, d))
    return [(X, None), (X, Y)]


def _moved(Y, f):
    return None if Y is None else f(Y)


@pytest.mark.parametrize("shift", SHIFTS)
@pytest.mark.parametrize("seed", [0, 1])
def test_rbf_kernel_is_translation_invariant_far_from_the_origin(shift, seed):
    for X, Y in _pairs(seed):
        for gamma in (0.05, 0.5, 2.0):
            K = kernels.rbf_kernel(X, Y, gamma=gamma)
            K_moved = kernels.rbf_kernel(X + shift, _moved(Y, lambda Z: Z + shift), gamma=gamma)
            np.testing.assert_allclose(K_moved, K, rtol=1e-8, atol=0)
        if Y is None:                                   # still exactly symmetric, unit diagonal
            assert np.array_equal(K_moved, K_moved.T) and np.all(np.diag(K_moved) == 1.0)
    # the plain Gram form ||x||^2 + ||y||^2 - 2 xᵀy loses ~1e-6 here: the test can fail
    Xs, Ys = X + shift, Y + shift
    naive = (Xs**2).sum(1)[:, None] + (Ys**2).sum(1)[None, :] - 2 * Xs @ Ys.T
    exact = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2)
    assert np.max(np.abs(naive - exact) / exact) > 1e-8


@pytest.mark.parametrize("c", SCALES)
def test_rbf_kernel_with_the_length_scale_scaled_along(c):
    # exp(-gamma ||x - y||^2) is unchanged by x -> c x, y -> c y, gamma -> gamma / c^2
    # (the length-scale ell = 1 / sqrt(2 gamma) scales by c)
    for X, Y in _pairs(2):
        for gamma in (0.05, 0.5, 2.0):
            np.testing.assert_allclose(kernels.rbf_kernel(c * X, _moved(Y, lambda Z: c * Z), gamma=gamma / c**2),
                                       kernels.rbf_kernel(X, Y, gamma=gamma), rtol=1e-8, atol=0)


@pytest.mark.parametrize("c", SCALES)
def test_inner_product_kernels_under_scaling(c):
    for X, Y in _pairs(3):
        Yc = _moved(Y, lambda Z: c * Z)
        K = kernels.linear_kernel(X, Y)
        tiny = 1e-12 * np.abs(K).max()                  # entries that cancel to ~0
        np.testing.assert_allclose(kernels.linear_kernel(c * X, Yc), c**2 * K, rtol=1e-8, atol=c**2 * tiny)
        for degree, coef0 in ((2, 1.0), (3, 0.0), (5, 0.5)):      # (gamma xᵀy + coef0)^degree
            K = kernels.polynomial_kernel(X, Y, degree=degree, gamma=0.3, coef0=coef0)
            np.testing.assert_allclose(kernels.polynomial_kernel(c * X, Yc, degree=degree, gamma=0.3 / c**2,
                                                                 coef0=coef0),
                                       K, rtol=1e-8, atol=1e-12 * np.abs(K).max())
        K = kernels.sigmoid_kernel(X, Y, gamma=0.3, coef0=-0.5)
        np.testing.assert_allclose(kernels.sigmoid_kernel(c * X, Yc, gamma=0.3 / c**2, coef0=-0.5),
                                   K, rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("c", SCALES)
def test_feature_maps_under_scaling(c):
    # exp(a xᵀz) and exp(-gamma ||x - z||^2) depend on a xᵀz and gamma ||x||^2: unchanged by
    # x -> c x with a -> a / c^2; the quadratic map scales by c^2 when its constant does
    X = np.random.default_rng(4).uniform(-1, 1, (9, 2))
    for degree in (0, 3, 8):
        np.testing.assert_allclose(kernels.exponential_feature_map(c * X, 0.8 / c**2, degree),
                                   kernels.exponential_feature_map(X, 0.8, degree), rtol=1e-8, atol=0)
        np.testing.assert_allclose(kernels.rbf_feature_map(c * X, 0.7 / c**2, degree),
                                   kernels.rbf_feature_map(X, 0.7, degree), rtol=1e-8, atol=0)
    np.testing.assert_allclose(kernels.quadratic_feature_map(c * X, 0.4 * c**2),
                               c**2 * kernels.quadratic_feature_map(X, 0.4), rtol=1e-8, atol=0)


@pytest.mark.parametrize("d, seed", [(1, 0), (3, 1), (6, 2)])
def test_quadratic_feature_map_reproduces_the_kernel(d, seed):
    rng = np.random.default_rng(seed)
    X, Z = rng.standard_normal((9, d)), rng.standard_normal((5, d))
    for c in (0.0, 0.4, 2.0):
        Phi_x, Phi_z = kernels.quadratic_feature_map(X, c), kernels.quadratic_feature_map(Z, c)
        assert Phi_x.shape == (9, (d + 1) * (d + 2) // 2)
        np.testing.assert_allclose(Phi_x @ Phi_z.T, (X @ Z.T + c) ** 2, atol=1e-11)


def test_unweighted_monomials_do_not_reproduce_the_quadratic_kernel():
    X = np.random.default_rng(4).standard_normal((6, 3))
    i, j = np.triu_indices(3)
    F = X[:, i] * X[:, j]
    assert np.abs(F @ F.T - (X @ X.T) ** 2).max() > 0.1


def test_exponential_feature_map_one_dimension():
    a, x = 0.8, np.linspace(-2, 2, 7)
    Phi = kernels.exponential_feature_map(x[:, None], a, 5)
    expected = np.array([[np.sqrt(a**i / factorial(i)) * xi**i for i in range(6)] for xi in x])
    np.testing.assert_allclose(Phi, expected, atol=1e-13)


@pytest.mark.parametrize("d, seed", [(1, 5), (2, 6), (3, 7)])
def test_exponential_feature_map_is_the_taylor_polynomial(d, seed):
    rng = np.random.default_rng(seed)
    X, Z = rng.uniform(-1, 1, (8, d)), rng.uniform(-1, 1, (6, d))
    a = 1.3
    t = a * X @ Z.T
    for M in range(9):
        Phi_x = kernels.exponential_feature_map(X, a, M)
        assert Phi_x.shape[1] == factorial(d + M) // (factorial(d) * factorial(M))
        taylor = sum(t**i / factorial(i) for i in range(M + 1))
        np.testing.assert_allclose(Phi_x @ kernels.exponential_feature_map(Z, a, M).T, taylor, atol=1e-12)
        bound = np.abs(t) ** (M + 1) * np.exp(np.abs(t)) / factorial(M + 1)
        assert np.all(np.abs(taylor - np.exp(t)) <= bound + 1e-13)


def test_rbf_feature_map_converges_to_the_gaussian_kernel():
    rng = np.random.default_rng(8)
    X, Z = rng.uniform(-1, 1, (10, 2)), rng.uniform(-1, 1, (12, 2))
    K = pairwise.rbf_kernel(X, Z, gamma=0.7)
    errors = [np.abs(kernels.rbf_feature_map(X, 0.7, M) @ kernels.rbf_feature_map(Z, 0.7, M).T - K).max()
              for M in (2, 6, 12, 20)]
    assert errors == sorted(errors, reverse=True) and errors[-1] < 1e-11


# ------------------------------------------------------------------------- is_psd
@pytest.mark.parametrize("n, d, seed", SIZES)
def test_is_psd_on_valid_kernels_and_their_combinations(n, d, seed):
    X, _ = _data(n, d, seed)
    K1 = kernels.rbf_kernel(X, gamma=0.3)
    K2 = kernels.polynomial_kernel(X, degree=3, gamma=0.2, coef0=1.0)
    K3 = kernels.linear_kernel(X)
    R = np.random.default_rng(seed).standard_normal((d, 2))
    anova = np.prod(1 + X[:, None, :] * X[None, :, :], axis=2)
    for K in (K1, K2, K3, 3.0 * K1, K1 + K2, K1 * K2, K1 * K3, X @ R @ R.T @ X.T,
              np.exp(0.1 * K3), anova / anova.max()):
        assert kernels.is_psd(K)


def test_schur_product_of_psd_matrices():
    rng = np.random.default_rng(9)
    for r1, r2 in [(2, 3), (10, 1), (40, 40)]:
        P, Q = rng.standard_normal((40, r1)), rng.standard_normal((40, r2))
        A, B = P @ P.T, Q @ Q.T
        assert kernels.is_psd(A * B)
        assert _min_eig(A * B) > -1e-9


def test_is_psd_rejects_non_psd_matrices():
    assert not kernels.is_psd(np.array([[1.0, 2.0], [2.0, 1.0]]))          # eigenvalues 3, -1
    assert not kernels.is_psd(np.array([[1.0, 0.5], [0.0, 1.0]]))          # not symmetric
    assert not kernels.is_psd(kernels.sigmoid_kernel(np.array([[2.0], [3.0]]), gamma=1.0, coef0=0.0))
    X = np.random.default_rng(7).standard_normal((60, 2))
    assert not kernels.is_psd(kernels.sigmoid_kernel(X, gamma=0.5, coef0=1.0))
    x = np.sort(np.random.default_rng(10).uniform(size=20))
    assert not kernels.is_psd(np.abs(x[:, None] - x[None, :]))           # zero trace, nonzero


def test_is_psd_agrees_with_eigvalsh_and_tol():
    rng = np.random.default_rng(11)
    for _ in range(20):
        A = rng.standard_normal((6, 6))
        S = (A + A.T) / 2
        eig = np.linalg.eigvalsh(S)
        tol = 6 * np.finfo(float).eps * max(1.0, np.abs(eig).max())
        assert kernels.is_psd(S) == (eig.min() >= -tol)
    M = np.diag([1.0, -1e-3])
    assert not kernels.is_psd(M) and kernels.is_psd(M, tol=1e-2)


# ------------------------------------------------------------ kernel ridge regression
@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("lam", [1e-2, 1.0])
def test_kernel_ridge_matches_sklearn(n, d, seed, lam):
    X, y = _data(n, d, seed)
    X_new = np.random.default_rng(seed + 1).standard_normal((9, d))
    gamma = 1.0 / d
    alpha = kernels.kernel_ridge(kernels.rbf_kernel(X, gamma=gamma), y, lam)
    pred = kernels.kernel_ridge_predict(kernels.rbf_kernel(X_new, X, gamma=gamma), alpha)
    ref = KernelRidge(alpha=lam, kernel="rbf", gamma=gamma).fit(X, y)
    np.testing.assert_allclose(alpha, ref.dual_coef_, atol=1e-7, rtol=1e-7)
    np.testing.assert_allclose(pred, ref.predict(X_new), atol=1e-8)
    K = kernels.polynomial_kernel(X, degree=2, gamma=0.5, coef0=1.0)
    pre = KernelRidge(alpha=lam, kernel="precomputed").fit(K, y)
    np.testing.assert_allclose(kernels.kernel_ridge(K, y, lam), pre.dual_coef_, atol=1e-7, rtol=1e-7)


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_representer_kernel_ridge_equals_primal_ridge_on_features(n, d, seed):
    X, y = _data(n, d, seed)
    X_new = np.random.default_rng(seed + 2).standard_normal((6, d))
    lam, c = 0.8, 1.0
    Phi, Phi_new = kernels.quadratic_feature_map(X, c), kernels.quadratic_feature_map(X_new, c)
    w = kernels.ridge(Phi, y, lam)
    K = kernels.polynomial_kernel(X, degree=2, gamma=1.0, coef0=c)
    alpha = kernels.kernel_ridge(K, y, lam)
    pred = kernels.kernel_ridge_predict(kernels.polynomial_kernel(X_new, X, degree=2, gamma=1.0, coef0=c), alpha)
    np.testing.assert_allclose(pred, Phi_new @ w, atol=1e-7, rtol=1e-7)
    np.testing.assert_allclose(Phi.T @ alpha, w, atol=1e-7, rtol=1e-7)
    assert alpha @ K @ alpha == pytest.approx(w @ w, rel=1e-7)
    np.testing.assert_allclose(kernels.kernel_ridge(kernels.linear_kernel(X), y, lam),
                               kernels.ridge_dual(X, y, lam), atol=1e-10)


def test_representer_with_the_logistic_loss():
    X, y = datasets.two_gaussians(n=30, labels="pm1", seed=12)
    Phi = kernels.quadratic_feature_map(X, 1.0)
    K = kernels.polynomial_kernel(X, degree=2, gamma=1.0, coef0=1.0)
    lam = 0.3
    sig = lambda t: 1 / (1 + np.exp(-t))

    def primal(w):
        f = Phi @ w
        return np.logaddexp(0, -y * f).sum() + lam * w @ w, -Phi.T @ (y * sig(-y * f)) + 2 * lam * w

    def dual(a):
        f = K @ a
        return np.logaddexp(0, -y * f).sum() + lam * a @ K @ a, -K @ (y * sig(-y * f)) + 2 * lam * K @ a

    opts = dict(jac=True, method="BFGS", options={"gtol": 1e-10})
    w = scipy.optimize.minimize(primal, np.zeros(Phi.shape[1]), **opts).x
    a = scipy.optimize.minimize(dual, np.zeros(len(y)), **opts).x
    np.testing.assert_allclose(K @ a, Phi @ w, atol=1e-6)
    alpha = y * sig(-y * (Phi @ w)) / (2 * lam)          # α_i = −L′(y_i, f_i)/(2λ)
    np.testing.assert_allclose(Phi.T @ alpha, w, atol=1e-6)


def test_kernel_ridge_with_singular_gram_matrix_has_unique_predictions():
    X, y = _data(20, 3, 13)
    K, lam = kernels.linear_kernel(X), 0.1
    alpha = kernels.kernel_ridge(K, y, lam)
    v = np.linalg.svd(X)[0][:, -1]
    loss = lambda c: np.sum((y - K @ c) ** 2) + lam * c @ K @ c
    assert loss(alpha + 3 * v) == pytest.approx(loss(alpha), abs=1e-9)
    X_new = np.random.default_rng(14).standard_normal((4, 3))
    K_new = kernels.linear_kernel(X_new, X)
    np.testing.assert_allclose(kernels.kernel_ridge_predict(K_new, alpha + 3 * v),
                               kernels.kernel_ridge_predict(K_new, alpha), atol=1e-9)


# ------------------------------------------------------------------------ splines
def test_spline_basis_values_and_smoothness():
    x, knots = np.array([0.0, 0.5, 1.0, 2.0]), np.array([0.4, 1.5])
    Z = kernels.spline_basis(x, knots, degree=2)
    expected = np.array([[1, 0, 0, 0, 0], [1, 0.5, 0.25, 0.01, 0], [1, 1, 1, 0.36, 0],
                         [1, 2, 4, 2.56, 0.25]])
    np.testing.assert_allclose(Z, expected, atol=1e-14)
    # a cubic spline is C² at a knot: one-sided second differences agree
    h, k = 1e-4, 0.4
    f = lambda t: kernels.spline_basis(np.atleast_1d(t), knots, degree=3)[:, 4]
    left = (f(k) - 2 * f(k - h) + f(k - 2 * h)) / h**2
    right = (f(k + 2 * h) - 2 * f(k + h) + f(k)) / h**2
    assert abs(left[0] - right[0]) < 1e-2


@pytest.mark.parametrize("degree", [1, 2, 3])
@pytest.mark.parametrize("n, seed", [(40, 0), (120, 1)])
def test_least_squares_spline_matches_make_lsq_spline(degree, n, seed):
    x, y = datasets.sine_1d(n=n, sigma=0.2, high=2.0, seed=seed)
    knots = np.linspace(0.3, 1.7, 6)
    coef = kernels.spline_fit(x, y, knots, degree=degree)
    Z = kernels.spline_basis(x, knots, degree)
    np.testing.assert_allclose(coef, np.linalg.lstsq(Z, y, rcond=None)[0], atol=1e-6)
    t = np.r_[[0.0] * (degree + 1), knots, [2.0] * (degree + 1)]
    spl = scipy.interpolate.make_lsq_spline(x, y, t, k=degree)
    np.testing.assert_allclose(Z @ coef, spl(x), atol=1e-9)


@pytest.mark.parametrize("lam", [1e-4, 0.1, 10.0])
def test_penalised_spline_solves_the_penalised_normal_equations(lam):
    x, y = datasets.sine_1d(n=60, sigma=0.2, high=2.0, seed=3)
    knots = np.linspace(0.25, 1.75, 7)
    Z = kernels.spline_basis(x, knots, 3)
    D = np.diag(np.r_[np.zeros(4), np.ones(7)])
    np.testing.assert_allclose(kernels.spline_fit(x, y, knots, 3, lam=lam),
                               np.linalg.solve(Z.T @ Z + lam * D, Z.T @ y), rtol=1e-6, atol=1e-8)
    # a huge penalty leaves the least-squares polynomial of degree 3
    big = Z @ kernels.spline_fit(x, y, knots, 3, lam=1e9)
    np.testing.assert_allclose(big, np.polynomial.polynomial.polyval(
        x, np.polynomial.polynomial.polyfit(x, y, 3)), atol=1e-6)


def test_linear_spline_with_free_intercept_equals_sklearn_ridge():
    x, y = datasets.sine_1d(n=40, sigma=0.2, seed=13)
    knots = np.linspace(0.1, 0.9, 9)
    Xt = np.maximum(x[:, None] - knots, 0)
    Z = np.column_stack([np.ones_like(x), Xt])
    D = np.diag(np.r_[0.0, np.ones(9)])
    coef = np.linalg.solve(Z.T @ Z + 0.1 * D, Z.T @ y)
    ref = Ridge(alpha=0.1, fit_intercept=True).fit(Xt, y)
    np.testing.assert_allclose(coef, np.r_[ref.intercept_, ref.coef_], atol=1e-10)


# ---------------------------------------------------------------------- bad input
X_OK, Y_OK = np.ones((4, 2)) + np.eye(4, 2), np.arange(4.0)


@pytest.mark.parametrize("call, match", [
    (lambda: kernels.ridge(np.ones(4), Y_OK, 1.0), "X"),
    (lambda: kernels.ridge(np.full((4, 2), np.nan), Y_OK, 1.0), "X"),
    (lambda: kernels.ridge(X_OK, np.ones(3), 1.0), "y"),
    (lambda: kernels.ridge(X_OK, [1, 2, np.inf, 4], 1.0), "y"),
    (lambda: kernels.ridge(X_OK, Y_OK, 0.0), "lam"),
    (lambda: kernels.ridge(X_OK, Y_OK, -1.0), "lam"),
    (lambda: kernels.ridge_dual(X_OK, Y_OK, np.nan), "lam"),
    (lambda: kernels.ridge_dual(X_OK, np.ones(5), 1.0), "y"),
    (lambda: kernels.ridge_path(X_OK, Y_OK, [1.0, 0.0]), "lams"),
    (lambda: kernels.ridge_path(X_OK, Y_OK, [[1.0]]), "lams"),
    (lambda: kernels.linear_kernel(X_OK, np.ones((3, 3))), "Y"),
    (lambda: kernels.linear_kernel(np.ones((0, 2))), "X"),
    (lambda: kernels.polynomial_kernel(X_OK, degree=2.5), "degree"),
    (lambda: kernels.polynomial_kernel(X_OK, degree=0), "degree"),
    (lambda: kernels.polynomial_kernel(X_OK, gamma=0.0), "gamma"),
    (lambda: kernels.polynomial_kernel(X_OK, coef0=-1.0), "coef0"),
    (lambda: kernels.rbf_kernel(X_OK, gamma=-1.0), "gamma"),
    (lambda: kernels.rbf_kernel(X_OK, [[np.nan, 1.0]]), "Y"),
    (lambda: kernels.sigmoid_kernel(X_OK, coef0=np.inf), "coef0"),
    (lambda: kernels.sigmoid_kernel(X_OK, gamma="auto"), "gamma"),
    (lambda: kernels.is_psd(np.ones((2, 3))), "K"),
    (lambda: kernels.is_psd([[1.0, np.nan], [np.nan, 1.0]]), "K"),
    (lambda: kernels.is_psd(np.eye(2), tol=-1.0), "tol"),
    (lambda: kernels.quadratic_feature_map(X_OK, c=-0.5), "c"),
    (lambda: kernels.exponential_feature_map(X_OK, a=0.0, degree=2), "a"),
    (lambda: kernels.exponential_feature_map(X_OK, a=1.0, degree=-1), "degree"),
    (lambda: kernels.rbf_feature_map(X_OK, gamma=0.0, degree=2), "gamma"),
    (lambda: kernels.kernel_ridge(np.ones((3, 4)), np.ones(3), 1.0), "K"),
    (lambda: kernels.kernel_ridge(np.array([[1.0, 0.5], [0.0, 1.0]]), np.ones(2), 1.0), "K"),
    (lambda: kernels.kernel_ridge(np.array([[1.0, 2.0], [2.0, 1.0]]), np.ones(2), 1.0),
     "K must be positive semi-definite"),
    (lambda: kernels.kernel_ridge(np.eye(3), np.ones(2), 1.0), "y"),
    (lambda: kernels.kernel_ridge(np.eye(3), np.ones(3), 0.0), "lam"),
    (lambda: kernels.kernel_ridge_predict(np.ones((2, 3)), np.ones(2)), "alpha"),
    (lambda: kernels.kernel_ridge_predict(np.ones(3), np.ones(3)), "K_new"),
    (lambda: kernels.spline_basis(np.ones((2, 2)), [0.5]), "x"),
    (lambda: kernels.spline_basis([0.1, 0.2], [0.5, 0.5]), "knots"),
    (lambda: kernels.spline_basis([0.1, 0.2], [np.nan]), "knots"),
    (lambda: kernels.spline_basis([0.1, 0.2], [0.5], degree=0), "degree"),
    (lambda: kernels.spline_fit([0.1, 0.2, 0.3], [1.0, 2.0], [0.5]), "y"),
    (lambda: kernels.spline_fit([0.1, 0.2, 0.3], [1.0, 2.0, 3.0], [0.5], lam=-1.0), "lam"),
    (lambda: kernels.spline_fit(np.linspace(0, 1, 10), np.ones(10), [1.2, 1.5], degree=3), "knots"),
    (lambda: kernels.rbf_kernel("abc"), "X must be numeric"),
    (lambda: kernels.linear_kernel(X_OK, [[1.0, 2.0], [3.0]]), "Y must be a rectangular array"),
    (lambda: kernels.is_psd(np.array([[1.0, 0.5], [0.0, 1.0]]), tol="0"), "tol"),  # checked first
    (lambda: kernels.polynomial_kernel(1e3 * X_OK, degree=400), "overflows with degree=400"),
    (lambda: kernels.exponential_feature_map(X_OK, a=1.0, degree=10**6), "degree=1000000 .* features"),
    (lambda: kernels.spline_basis([10.0, 20.0], [15.0], degree=400), "overflows with degree=400"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_rank_deficient_spline_is_fine_with_a_penalty():
    # two knots with no data between or after them: least squares is not unique, ridge is
    x = np.linspace(0, 1, 10)
    coef = kernels.spline_fit(x, np.sin(x), [1.2, 1.5], degree=3, lam=1.0)
    np.testing.assert_allclose(coef[4:], 0.0, atol=1e-12)


def test_ridge_keeps_its_digits_with_a_column_far_from_zero():
    """A column near 1e5: forming XᵀX would lose about six digits; the stacked QR keeps them."""
    from sklearn.linear_model import Ridge
    rng = np.random.default_rng(4)
    X = np.column_stack([np.ones(40), rng.normal(size=40), 1e5 + rng.normal(size=40)])
    y = X @ np.array([1.0, -1.0, 0.5]) + rng.normal(size=40)
    for lam in (1e-3, 0.3):
        ref = Ridge(alpha=lam, fit_intercept=False, solver="svd").fit(X, y).coef_
        np.testing.assert_allclose(kernels.ridge(X, y, lam), ref, rtol=1e-8)
        normal_equations = np.linalg.solve(X.T @ X + lam * np.eye(3), X.T @ y)
        assert np.max(np.abs(normal_equations / ref - 1)) > 1e-7      # the fault this guards against
