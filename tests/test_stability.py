"""Tests of mlnotes.stability against scikit-learn and scipy, plus the chapter's identities."""
import numpy as np
import pytest
import scipy.optimize
import scipy.special
import scipy.stats
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import Ridge

from mlnotes import kernels, linear
from mlnotes import stability as st

SIZES = [(10, 2, 0), (40, 3, 1), (150, 5, 2)]  # (n, d, seed)


def _data(n, d, seed, labels=False):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    score = X @ rng.standard_normal(d) + 0.5 * rng.standard_normal(n)
    return X, (np.where(score > 0, 1.0, -1.0) if labels else score)


# ------------------------------------------------------------------ Tikhonov solutions
@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("lam", [1e-3, 0.1, 2.0])
def test_tikhonov_least_squares_matches_sklearn_ridge(n, d, seed, lam):
    X, y = _data(n, d, seed)
    ref = Ridge(alpha=n * lam, fit_intercept=False, solver="cholesky").fit(X, y).coef_
    # both solve the same well-conditioned d x d system: agreement to rounding
    np.testing.assert_allclose(st.tikhonov_least_squares(X, y, lam), ref, atol=1e-9, rtol=1e-9)


@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("lam", [1e-3, 0.1])
def test_tikhonov_kernel_matches_sklearn_kernel_ridge(n, d, seed, lam):
    X, y = _data(n, d, seed)
    K = kernels.rbf_kernel(X, gamma=0.5)
    ref = KernelRidge(alpha=n * lam, kernel="precomputed").fit(K, y).dual_coef_
    # condition number of K + n lam I is at most (n + n lam) / (n lam) <= 1001
    np.testing.assert_allclose(st.tikhonov_kernel(K, y, lam), ref, atol=1e-8, rtol=1e-8)


def test_tikhonov_kernel_batch_equals_single_problems():
    rng = np.random.default_rng(3)
    Xs = rng.standard_normal((4, 12, 2))
    ys = rng.standard_normal((4, 12))
    K = np.array([kernels.rbf_kernel(X) for X in Xs])
    batch = st.tikhonov_kernel(K, ys, 0.05)
    for b in range(4):
        np.testing.assert_allclose(batch[b], st.tikhonov_kernel(K[b], ys[b], 0.05), atol=1e-12)


def test_tikhonov_kernel_linear_kernel_gives_primal_fit():
    X, y = _data(30, 4, 5)
    w = st.tikhonov_least_squares(X, y, 0.2)
    K = X @ X.T
    np.testing.assert_allclose(X.T @ st.tikhonov_kernel(K, y, 0.2), w, atol=1e-10)


@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("lam", [0.01, 0.3])
def test_kernel_logistic_matches_scipy_minimize(n, d, seed, lam):
    X, y = _data(n, d, seed, labels=True)
    K = kernels.rbf_kernel(X, gamma=0.5)
    alpha = st.tikhonov_kernel_logistic(K, y, lam)

    def objective(a):
        return np.mean(linear.logistic_loss(y * (K @ a))) + lam * a @ K @ a

    def gradient(a):
        return K @ (-y * scipy.special.expit(-y * (K @ a)) / n + 2 * lam * a)

    ref = scipy.optimize.minimize(objective, np.zeros(n), jac=gradient, method="L-BFGS-B",
                                  options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 5000})
    # the objective is (2 lam)-strongly convex in f, so f-values agree to ~sqrt(optimality gap)
    assert objective(alpha) <= ref.fun + 1e-12
    np.testing.assert_allclose(K @ alpha, K @ ref.x, atol=1e-4)


def test_kernel_logistic_batch_and_first_order_condition():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((3, 20, 2))
    y = np.where(X[..., 0] + 0.3 * rng.standard_normal((3, 20)) > 0, 1.0, -1.0)
    K = np.array([kernels.rbf_kernel(x) for x in X])
    alpha = st.tikhonov_kernel_logistic(K, y, 0.1)
    for b in range(3):
        f = K[b] @ alpha[b]
        # stationarity in function space: (1/n) l'(f) + 2 lam alpha = 0
        np.testing.assert_allclose(-y[b] * scipy.special.expit(-y[b] * f) / 20 + 0.2 * alpha[b], 0, atol=1e-10)


# ------------------------------------------------------------------------- stability
def test_replace_one_copies_and_replaces():
    X, y = _data(5, 2, 0)
    X2, y2 = st.replace_one((X, y), 3, (np.array([9.0, 8.0]), 7.0))
    np.testing.assert_array_equal(X2[3], [9.0, 8.0])
    assert y2[3] == 7.0
    np.testing.assert_array_equal(np.delete(X2, 3, 0), np.delete(X, 3, 0))
    assert not np.shares_memory(X2, X) and X[3, 0] != 9.0


def test_replace_one_rejects_out_of_range_index():
    X, y = _data(5, 2, 0)
    with pytest.raises(ValueError, match="i must"):
        st.replace_one((X, y), 5, (np.zeros(2), 0.0))
    with pytest.raises(ValueError, match="z\\[0\\]"):
        st.replace_one((X, y), 1, (np.zeros(3), 0.0))


def _ridge_fit(lam):
    def fit(X, y, X_eval):
        sq = lambda A, B: ((A[..., :, None, :] - B[..., None, :, :]) ** 2).sum(-1)  # noqa: E731
        alpha = st.tikhonov_kernel(np.exp(-sq(X, X)), y, lam)
        return np.einsum("bmn,bn->bm", np.exp(-sq(X_eval[None], X)), alpha)
    return fit


def test_empirical_stability_matches_brute_force_refits():
    rng = np.random.default_rng(6)
    X, y = rng.uniform(-1, 1, (8, 1)), rng.uniform(-1, 1, 8)
    Xp, yp = rng.uniform(-1, 1, (4, 1)), rng.uniform(-1, 1, 4)
    loss = lambda p, t: (p - t) ** 2  # noqa: E731
    got = st.empirical_stability(_ridge_fit(0.1), loss, (X, y), (Xp, yp))
    X_eval, y_eval = np.vstack([Xp, X]), np.r_[yp, y]

    def predict(Xs, ys):
        a = kernels.kernel_ridge(kernels.rbf_kernel(Xs, gamma=1.0), ys, 8 * 0.1)
        return kernels.rbf_kernel(X_eval, Xs, gamma=1.0) @ a

    base = loss(predict(X, y), y_eval)
    brute = max(np.max(np.abs(loss(predict(*st.replace_one((X, y), i, (Xp[j], yp[j]))), y_eval) - base))
                for i in range(8) for j in range(4))
    assert got == pytest.approx(brute, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("n, lam", [(10, 0.1), (30, 0.03), (60, 0.3)])
def test_tikhonov_stability_below_sharp_bound(n, lam):
    # logistic loss: L = 1; Gaussian kernel: kappa = 1
    rng = np.random.default_rng(n)
    X = rng.uniform(-1, 1, (n, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    Xp = rng.uniform(-1, 1, (15, 2))
    yp = -np.where(Xp[:, 0] > 0, 1.0, -1.0)

    def fit(Xb, yb, X_eval):
        sq = lambda A, B: ((A[..., :, None, :] - B[..., None, :, :]) ** 2).sum(-1)  # noqa: E731
        alpha = st.tikhonov_kernel_logistic(np.exp(-sq(Xb, Xb)), yb, lam)
        return np.einsum("bmn,bn->bm", np.exp(-sq(X_eval[None], Xb)), alpha)

    beta = st.empirical_stability(fit, lambda p, t: linear.logistic_loss(t * p), (X, y), (Xp, yp),
                                  rng=np.random.default_rng(0), n_pairs=30)
    assert 0 < beta <= st.stability_bound_tikhonov(1.0, 1.0, n, lam, sharp=True)


def test_stability_bounds_formulas():
    assert st.stability_bound_tikhonov(2.0, 0.5, 10, 0.1) == pytest.approx(2 * 4 * 0.25 / 1.0)
    assert st.stability_bound_tikhonov(2.0, 0.5, 10, 0.1, sharp=True) == pytest.approx(1.0)
    assert st.stability_bound_gd(1.0, 1.0, 0.25, 40, 10) == pytest.approx(2 * 10 / (0.25 * 40))
    assert st.stability_bound_gd(1.0, 2.0, 1.0, 10, 3, step=0.5) == pytest.approx(2 * 0.5 * 4 * 3 / 10)
    with pytest.raises(ValueError, match="non-expansive"):
        st.stability_bound_gd(1.0, 2.0, 1.0, 10, 3)          # step 1/M > 2/(M kappa^2)


def test_mcdiarmid_is_hoeffding_for_means_and_dominates_binomial_tail():
    n, p = 40, 0.25
    k = np.arange(n + 1)
    pmf = scipy.stats.binom.pmf(k, n, p)
    for eps in [0.05, 0.1, 0.2, 0.3]:
        bound = st.mcdiarmid_bound(np.full(n, 1 / n), eps)
        assert bound == pytest.approx(2 * np.exp(-2 * n * eps**2))
        assert pmf[np.abs(k / n - p) >= eps - 1e-12].sum() <= bound
    with pytest.raises(ValueError, match="c must"):
        st.mcdiarmid_bound(np.array([1.0, 0.0]), 0.1)


# ------------------------------------------------------------- gradient descent paths
@pytest.mark.parametrize("n, d, seed", SIZES)
def test_gd_path_square_loss_matches_spectral_formula_and_tends_to_ridge_free_fit(n, d, seed):
    X, y = _data(n, d, seed)
    K = kernels.rbf_kernel(X, gamma=0.5) + 0.5 * np.eye(n)     # well conditioned
    mu, U = np.linalg.eigh(K)
    step = 0.5 * n / mu[-1]
    alphas = st.gd_kernel_path(K, y, step, 50)
    for t in [0, 1, 7, 50]:
        expected = U @ ((U.T @ y) / mu * (1 - (1 - 2 * step * mu / n) ** t))
        np.testing.assert_allclose(alphas[t], expected, atol=1e-9)


def test_gd_path_logistic_step_and_batch():
    X, y = _data(15, 2, 7, labels=True)
    K = kernels.rbf_kernel(X)
    a = st.gd_kernel_path(K, y, 2.0, 5, loss="logistic")
    grad = -y * scipy.special.expit(-y * (K @ a[2]))
    np.testing.assert_allclose(a[3], a[2] - 2.0 / 15 * grad, atol=1e-14)
    batch = st.gd_kernel_path(np.stack([K, K]), np.stack([y, -y]), 2.0, 5, loss="logistic")
    np.testing.assert_allclose(batch[0], a, atol=1e-14)
    np.testing.assert_allclose(batch[1], -a, atol=1e-14)       # symmetric in the labels


def test_gd_stability_below_bound_for_logistic_loss():
    rng = np.random.default_rng(8)
    n, T, B = 20, 40, 25
    X = rng.uniform(-1, 1, (n, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    i = rng.integers(0, n, B)
    Xb, yb = np.repeat(X[None], B + 1, 0), np.repeat(y[None], B + 1, 0)
    Xb[np.arange(1, B + 1), i] = rng.uniform(-1, 1, (B, 2))
    yb[np.arange(1, B + 1), i] = rng.choice([-1.0, 1.0], B)
    sq = lambda A, C: ((A[..., :, None, :] - C[..., None, :, :]) ** 2).sum(-1)  # noqa: E731
    paths = st.gd_kernel_path(np.exp(-sq(Xb, Xb)), yb, 4.0, T, loss="logistic")
    X_eval = rng.uniform(-1, 1, (50, 2))
    F = np.einsum("bmn,btn->btm", np.exp(-sq(X_eval[None], Xb)), paths)
    for label in (-1.0, 1.0):
        change = np.abs(linear.logistic_loss(label * F[1:]) - linear.logistic_loss(label * F[:1])).max(axis=(0, 2))
        for t in range(1, T + 1):
            assert change[t] <= st.stability_bound_gd(1.0, 1.0, 0.25, n, t)


def test_early_stopping_curve_matches_direct_computation():
    rng = np.random.default_rng(9)
    x = rng.uniform(0, 1, (25, 1))
    y = np.sin(6 * x[:, 0]) + 0.3 * rng.standard_normal(25)
    xt = np.linspace(0, 1, 50)[:, None]
    K, Kt = kernels.rbf_kernel(x, gamma=20.0), kernels.rbf_kernel(xt, x, gamma=20.0)
    curve = st.early_stopping_curve(K, y, Kt, np.sin(6 * xt[:, 0]), 0.3, 30)
    alphas = st.gd_kernel_path(K, y, 0.3, 30)
    np.testing.assert_array_equal(curve.t, np.arange(31))
    np.testing.assert_allclose(curve.train_risk[12], np.mean((K @ alphas[12] - y) ** 2), atol=1e-12)
    np.testing.assert_allclose(curve.test_risk[30], np.mean((Kt @ alphas[30] - np.sin(6 * xt[:, 0])) ** 2),
                               atol=1e-12)
    assert curve.test_risk[0] == pytest.approx(np.mean(np.sin(6 * xt[:, 0]) ** 2))
    with pytest.raises(ValueError, match="K_test"):
        st.early_stopping_curve(K, y, Kt[:, :5], np.zeros(50), 0.3, 3)


# ------------------------------------------------------------------ covering numbers
def test_covering_number_ball_values_and_notes_form():
    assert st.covering_number_ball(1.0, 1.0, 3) == 1.0
    assert st.covering_number_ball(2.0, 0.5, 2) == pytest.approx(81.0)
    for eta in [0.01, 0.3, 1.0, 2.0]:                    # <= (4 gamma / eta)^d for eta <= 2 gamma
        assert st.covering_number_ball(1.0, eta, 4) <= (4 / eta) ** 4


def test_covering_number_ball_one_dimension_exact():
    # in 1-D the covering number of [-g, g] by intervals of radius eta is ceil(g / eta)
    for g, eta in [(1.0, 0.3), (2.0, 0.25), (1.0, 0.9)]:
        assert np.ceil(g / eta) <= st.covering_number_ball(g, eta, 1)


def test_shift_invariance_of_tikhonov_kernel_with_rbf():
    # the Gaussian Gram matrix, and so the fit, is unchanged by a shift far from the origin
    X, y = _data(20, 2, 11)
    a0 = st.tikhonov_kernel(kernels.rbf_kernel(X), y, 0.1)
    a1 = st.tikhonov_kernel(kernels.rbf_kernel(X + 1e6), y, 0.1)
    np.testing.assert_allclose(a0, a1, atol=1e-6)


def test_tikhonov_least_squares_far_from_the_origin():
    # columns at 1e5: the normal equations (XᵀX + nλI) w = Xᵀy lose ~6 digits (they gave a
    # relative error 3e-6); the stacked least-squares system keeps them
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((50, 3)) + 1e5, rng.standard_normal(50)
    ref = Ridge(alpha=50 * 0.1, fit_intercept=False, solver="svd").fit(X, y).coef_
    np.testing.assert_allclose(st.tikhonov_least_squares(X, y, 0.1), ref, rtol=1e-8)


def test_gram_matrices_are_checked_and_divergence_is_an_error():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((6, 2))
    K, y = X @ X.T, np.where(X[:, 0] > 0, 1.0, -1.0)
    for bad, match in [(K - 2 * np.abs(np.linalg.eigvalsh(K)).max() * np.eye(6), "positive semi-definite"),
                       (K + np.triu(np.ones((6, 6)), 1), "symmetric")]:
        for call in (lambda: st.tikhonov_kernel_logistic(bad, y, 0.1),
                     lambda: st.gd_kernel_path(bad, y, 0.1, 3),
                     lambda: st.tikhonov_kernel(np.stack([bad, K]), np.stack([y, y]), 0.1)):
            with pytest.raises(ValueError, match=f"K must be {match}"):
                call()
    with pytest.raises(ValueError, match="step .* is too large"):
        st.gd_kernel_path(1e3 * np.eye(3), np.ones(3), 1e3, 200, "square")
