"""Tests of mlnotes.bayes against scikit-learn and scipy, plus the chapter's identities."""
import numpy as np
import pytest
import scipy.integrate
import scipy.optimize
import scipy.stats
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import Lasso, Ridge
from sklearn.linear_model import lasso_path as sk_lasso_path

from mlnotes import bayes

LASSO_SIZES = [(15, 3, 0), (60, 8, 1), (200, 20, 2), (25, 40, 3)]  # (n, p, seed); the last has p > n
GP_SIZES = [(8, 1, 0), (40, 2, 1), (100, 3, 2)]                     # (n, d, seed)


def _sparse_regression(n, p, seed, rho=0.5):
    """Correlated Gaussian features (corr rho^|i-j|), three non-zero coefficients, unit noise."""
    rng = np.random.default_rng(seed)
    C = rho ** np.abs(np.subtract.outer(np.arange(p), np.arange(p)))
    X = rng.standard_normal((n, p)) @ np.linalg.cholesky(C).T
    beta = np.zeros(p)
    beta[: min(3, p)] = [3.0, -2.0, 1.5][: min(3, p)]
    return X, X @ beta + rng.standard_normal(n)


def _kkt_violation(X, y, B, lams):
    """Largest violation of the lasso optimality conditions, one column of B per lambda."""
    G = X.T @ (y[:, None] - X @ B)                                   # x_jᵀ(y − Xβ)
    return np.max(np.where(B != 0, np.abs(G - lams * np.sign(B)), np.maximum(np.abs(G) - lams, 0.0)))


def _gp_data(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, (n, d))
    y = np.sin(2 * X).sum(axis=1) + 0.3 * rng.standard_normal(n)
    return X, y, rng.uniform(-2.5, 2.5, (30, d))


# --------------------------------------------------------------------- soft threshold
def test_soft_threshold_is_the_brute_force_minimiser():
    z = np.linspace(-3, 3, 121)[:, None]
    b = np.linspace(-4, 4, 16001)[None, :]                           # grid spacing 5e-4
    for t in (0.0, 0.4, 1.7):
        brute = b[0, np.argmin(0.5 * (b - z) ** 2 + t * np.abs(b), axis=1)]
        np.testing.assert_allclose(bayes.soft_threshold(z[:, 0], t), brute, atol=2.5e-4)


def test_soft_threshold_cases_and_broadcasting():
    assert bayes.soft_threshold(2.5, 1.0) == 1.5
    assert bayes.soft_threshold(-2.5, 1.0) == -1.5
    assert bayes.soft_threshold(0.7, 1.0) == 0.0
    np.testing.assert_array_equal(bayes.soft_threshold([3.0, -3.0, 0.5], [1.0, 2.0, 0.1]), [2.0, -1.0, 0.4])


def test_soft_threshold_rejects_bad_input():
    with pytest.raises(ValueError, match="t must be non-negative"):
        bayes.soft_threshold(1.0, -0.1)
    with pytest.raises(ValueError, match="z must be finite"):
        bayes.soft_threshold([1.0, np.nan], 0.5)
    with pytest.raises(ValueError, match="t must be finite"):
        bayes.soft_threshold(1.0, np.inf)


# ------------------------------------------------------------------------------ lasso
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_one_dimensional_lasso_is_soft_thresholding(seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((30, 1))
    y = 0.8 * x[:, 0] + rng.standard_normal(30)
    for lam in (0.0, 0.5 * abs(x[:, 0] @ y), 2 * abs(x[:, 0] @ y)):
        fit = bayes.lasso_cd(x, y, lam)
        expected = bayes.soft_threshold(x[:, 0] @ y, lam) / (x[:, 0] @ x[:, 0])
        assert fit.beta[0] == pytest.approx(expected, abs=1e-12)
        assert fit.n_sweeps <= 2 and fit.converged


@pytest.mark.parametrize("n, p", [(20, 4), (50, 10)])
def test_orthonormal_design_soft_thresholds_least_squares(n, p):
    rng = np.random.default_rng(n)
    Q, _ = np.linalg.qr(rng.standard_normal((n, p)))                 # QᵀQ = I
    y = Q @ rng.standard_normal(p) * 2 + rng.standard_normal(n)
    lam = 0.8
    fit = bayes.lasso_cd(Q, y, lam)
    np.testing.assert_allclose(fit.beta, bayes.soft_threshold(Q.T @ y, lam), atol=1e-12)
    assert fit.n_sweeps <= 2                                         # one sweep is exact, one confirms


@pytest.mark.parametrize("n, p, seed", LASSO_SIZES)
def test_lasso_cd_matches_sklearn_lasso(n, p, seed):
    X, y = _sparse_regression(n, p, seed)
    lam_max = np.max(np.abs(X.T @ y))
    for frac in (0.5, 0.1, 0.02):
        lam = frac * lam_max
        fit = bayes.lasso_cd(X, y, lam)
        ref = Lasso(alpha=lam / n, fit_intercept=False, tol=1e-14, max_iter=200_000).fit(X, y)
        assert fit.converged
        np.testing.assert_allclose(fit.beta, ref.coef_, atol=1e-7 * (1 + np.abs(ref.coef_).max()))
        assert _kkt_violation(X, y, fit.beta[:, None], np.array([lam])) <= 1e-7 * lam_max


@pytest.mark.parametrize("n, p, seed", LASSO_SIZES)
def test_lasso_path_matches_sklearn_and_satisfies_kkt(n, p, seed):
    X, y = _sparse_regression(n, p, seed)
    path = bayes.lasso_path(X, y, n_lams=30, eps=1e-2)
    assert path.converged and np.all(np.diff(path.lams) < 0)
    alphas, coefs, _ = sk_lasso_path(X, y, alphas=path.lams / n, tol=1e-14, max_iter=200_000)
    np.testing.assert_allclose(alphas * n, path.lams, rtol=1e-12)
    np.testing.assert_allclose(path.coefs, coefs, atol=1e-7 * (1 + np.abs(coefs).max()))
    lam_max = np.max(np.abs(X.T @ y))
    assert _kkt_violation(X, y, path.coefs, path.lams) <= 1e-7 * lam_max


@pytest.mark.parametrize("n, p, seed", LASSO_SIZES[:3])
def test_lambda_max_is_the_smallest_penalty_with_a_zero_solution(n, p, seed):
    X, y = _sparse_regression(n, p, seed)
    lam_max = np.max(np.abs(X.T @ y))
    path = bayes.lasso_path(X, y, n_lams=5)
    assert path.lams[0] == pytest.approx(lam_max)
    assert np.all(path.coefs[:, 0] == 0)
    assert np.count_nonzero(bayes.lasso_cd(X, y, 0.999 * lam_max).beta) == 1


def test_warm_starts_save_sweeps_and_give_the_same_path():
    X, y = _sparse_regression(100, 15, 5, rho=0.8)
    warm = bayes.lasso_path(X, y, n_lams=40, eps=1e-3)
    cold = bayes.lasso_path(X, y, n_lams=40, eps=1e-3, warm_start=False)
    np.testing.assert_allclose(warm.coefs, cold.coefs, atol=1e-8)
    assert warm.n_sweeps.sum() < cold.n_sweeps.sum()


def test_lasso_path_sorts_given_penalties():
    X, y = _sparse_regression(40, 6, 7)
    lams = np.array([1.0, 30.0, 5.0])
    path = bayes.lasso_path(X, y, lams=lams)
    np.testing.assert_array_equal(path.lams, [30.0, 5.0, 1.0])
    np.testing.assert_allclose(path.coefs[:, 1], bayes.lasso_cd(X, y, 5.0).beta, atol=1e-8)


def test_global_norm_threshold_of_the_notes_violates_kkt():
    """The update of the notes (threshold λ/‖X‖² with the norm of the whole matrix) fails KKT."""
    X, y = _sparse_regression(60, 8, 1)
    X = X * np.linspace(0.5, 3.0, 8)                                 # columns of unequal norm
    lam = 0.2 * np.max(np.abs(X.T @ y))
    beta, sq, big = np.zeros(8), np.sum(X**2, axis=0), np.sum(X**2)
    for _ in range(2000):
        for j in range(8):
            r_j = y - X @ beta + X[:, j] * beta[j]
            gamma = X[:, j] @ r_j / sq[j]
            beta[j] = np.sign(gamma) * max(abs(gamma) - lam / big, 0.0)
    assert _kkt_violation(X, y, beta[:, None], np.array([lam])) > 0.1 * lam
    good = bayes.lasso_cd(X, y, lam).beta
    assert _kkt_violation(X, y, good[:, None], np.array([lam])) < 1e-8 * lam


@pytest.mark.parametrize("n, p, seed", [(30, 4, 0), (50, 6, 1)])
def test_penalised_solution_solves_the_constrained_problem(n, p, seed):
    X, y = _sparse_regression(n, p, seed)
    lam = 0.2 * np.max(np.abs(X.T @ y))
    beta = bayes.lasso_cd(X, y, lam).beta
    t = np.abs(beta).sum()

    def rss(w):                                                      # w = (β⁺, β⁻) ≥ 0
        r = y - X @ (w[:p] - w[p:])
        return 0.5 * r @ r, np.concatenate([-X.T @ r, X.T @ r])

    res = scipy.optimize.minimize(rss, np.full(2 * p, t / (4 * p)), jac=True, method="SLSQP",
                                  bounds=[(0, None)] * (2 * p),
                                  constraints=[{"type": "ineq", "fun": lambda w: t - w.sum(),
                                                "jac": lambda w: -np.ones(2 * p)}],
                                  options={"ftol": 1e-10, "maxiter": 1000})
    assert res.success
    np.testing.assert_allclose(res.x[:p] - res.x[p:], beta, atol=1e-6)
    assert res.multipliers[0] == pytest.approx(lam, rel=1e-6)    # the multiplier of ‖β‖₁ ≤ t is λ


def test_lasso_zero_columns_and_repr():
    X, y = _sparse_regression(30, 4, 2)
    X[:, 2] = 0.0
    fit = bayes.lasso_cd(X, y, 1.0, beta0=np.ones(4))
    assert fit.beta[2] == 0.0
    assert "0x" not in repr(fit) and repr(fit).startswith("LassoFit(")
    path = bayes.lasso_path(X, y, n_lams=3)
    assert "0x" not in repr(path) and repr(path).startswith("LassoPath(n_lams=3, p=4")


def test_lasso_rejects_bad_input():
    X, y = _sparse_regression(20, 3, 0)
    with pytest.raises(ValueError, match="lam must be non-negative"):
        bayes.lasso_cd(X, y, -1.0)
    with pytest.raises(ValueError, match="y must have shape"):
        bayes.lasso_cd(X, y[:-1], 1.0)
    with pytest.raises(ValueError, match="X must be finite"):
        bayes.lasso_cd(np.where(X > 1, np.nan, X), y, 1.0)
    with pytest.raises(ValueError, match="beta0 must have shape"):
        bayes.lasso_cd(X, y, 1.0, beta0=np.zeros(4))
    with pytest.raises(ValueError, match="tol must be a positive"):
        bayes.lasso_cd(X, y, 1.0, tol=0.0)
    with pytest.raises(ValueError, match="max_sweeps must be an integer"):
        bayes.lasso_cd(X, y, 1.0, max_sweeps=2.5)
    with pytest.raises(ValueError, match="lams must be non-negative"):
        bayes.lasso_path(X, y, lams=[1.0, -2.0])
    with pytest.raises(ValueError, match="lams must have shape"):
        bayes.lasso_path(X, y, lams=np.ones((2, 2)))
    with pytest.raises(ValueError, match="eps must lie in"):
        bayes.lasso_path(X, y, eps=1.5)
    with pytest.raises(ValueError, match="n_lams must be an integer"):
        bayes.lasso_path(X, y, n_lams=0)
    with pytest.raises(ValueError, match="Xᵀy = 0"):
        bayes.lasso_path(X, np.zeros(20))


# --------------------------------------------------------- Bayesian linear regression
@pytest.mark.parametrize("n, p, seed", [(10, 2, 0), (50, 5, 1), (20, 40, 2)])
def test_posterior_weight_space_equals_data_space_form(n, p, seed):
    """(XᵀX/σ² + I/τ²)⁻¹ form against eq. (3) of the notes, which inverts an n×n matrix."""
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((n, p)), rng.standard_normal(n)
    sigma, tau = 0.7, 1.5
    mean, cov = bayes.bayes_linear_posterior(X, y, sigma, tau)
    M = tau**2 * X @ X.T + sigma**2 * np.eye(n)
    np.testing.assert_allclose(mean, tau**2 * X.T @ np.linalg.solve(M, y), atol=1e-10)
    np.testing.assert_allclose(cov, tau**2 * np.eye(p) - tau**4 * X.T @ np.linalg.solve(M, X), atol=1e-10)
    # the mean lies in the row space of X (representer theorem)
    P = np.linalg.pinv(X) @ X
    np.testing.assert_allclose(P @ mean, mean, atol=1e-9)


@pytest.mark.parametrize("n, p, seed", [(10, 2, 0), (50, 5, 1), (20, 40, 2)])
def test_map_is_ridge_with_lambda_sigma2_over_tau2(n, p, seed):
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((n, p)), rng.standard_normal(n)
    sigma, tau = 0.5, 0.8
    mean, _ = bayes.bayes_linear_posterior(X, y, sigma, tau)
    lam = sigma**2 / tau**2
    np.testing.assert_allclose(mean, np.linalg.solve(X.T @ X + lam * np.eye(p), X.T @ y), atol=1e-10)
    np.testing.assert_allclose(mean, Ridge(alpha=lam, fit_intercept=False, solver="cholesky").fit(X, y).coef_,
                               atol=1e-9)


def test_posterior_by_numerical_integration_in_one_dimension():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((12, 1))
    y = 0.6 * x[:, 0] + 0.5 * rng.standard_normal(12)
    sigma, tau = 0.5, 1.0
    mean, cov = bayes.bayes_linear_posterior(x, y, sigma, tau)

    def log_unnorm(b):                                              # log prior + log likelihood
        return scipy.stats.norm.logpdf(b, 0, tau) + scipy.stats.norm.logpdf(y, b * x[:, 0], sigma).sum()

    c = log_unnorm(mean[0])
    dens = [lambda b, k=k: b**k * np.exp(log_unnorm(b) - c) for k in range(3)]
    Z, m1, m2 = (scipy.integrate.quad(f, -5, 5, epsabs=1e-13, points=[mean[0]])[0] for f in dens)
    assert m1 / Z == pytest.approx(mean[0], abs=1e-9)
    assert m2 / Z - (m1 / Z) ** 2 == pytest.approx(cov[0, 0], abs=1e-9)


def test_joint_covariance_of_y_and_beta_by_simulation():
    rng = np.random.default_rng(4)
    n, p, sigma, tau, reps = 4, 2, 0.5, 1.2, 200_000
    X = rng.standard_normal((n, p))
    beta = tau * rng.standard_normal((reps, p))
    Y = beta @ X.T + sigma * rng.standard_normal((reps, n))
    cross = Y.T @ beta / reps                                        # Cov(Y, β), the means are 0
    se = np.sqrt((np.diag(tau**2 * X @ X.T + sigma**2)[:, None] * tau**2 + (tau**2 * X) ** 2) / reps)
    assert np.all(np.abs(cross - tau**2 * X) < 4 * se)


def test_linear_kernel_gp_equals_bayesian_linear_regression():
    rng = np.random.default_rng(5)
    X, X0 = rng.standard_normal((15, 3)), rng.standard_normal((6, 3))
    y = X @ [1.0, -0.5, 0.2] + 0.4 * rng.standard_normal(15)
    sigma, tau = 0.4, 0.9
    mean, cov = bayes.bayes_linear_posterior(X, y, sigma, tau)
    m, c = bayes.gp_posterior(X, y, X0, sigma, kernel=lambda A, B: tau**2 * A @ B.T, full_cov=True)
    np.testing.assert_allclose(m, X0 @ mean, atol=1e-10)
    np.testing.assert_allclose(c, X0 @ cov @ X0.T, atol=1e-10)
    m, v = bayes.gp_posterior(X, y, X0, sigma, kernel=lambda A, B: tau**2 * A @ B.T, noisy=True)
    np.testing.assert_allclose(v, np.diag(X0 @ cov @ X0.T) + sigma**2, atol=1e-10)


def test_bayes_linear_rejects_bad_input():
    X, y = np.ones((5, 2)), np.ones(5)
    with pytest.raises(ValueError, match="sigma must be a positive"):
        bayes.bayes_linear_posterior(X, y, 0.0, 1.0)
    with pytest.raises(ValueError, match="tau must be a positive"):
        bayes.bayes_linear_posterior(X, y, 1.0, -1.0)
    with pytest.raises(ValueError, match="y must have shape"):
        bayes.bayes_linear_posterior(X, np.ones(4), 1.0, 1.0)
    with pytest.raises(ValueError, match="X must be a non-empty 2-D"):
        bayes.bayes_linear_posterior(np.ones(5), y, 1.0, 1.0)


# ------------------------------------------------------------------ Gaussian processes
@pytest.mark.parametrize("n, d, seed", GP_SIZES)
def test_gp_posterior_matches_sklearn(n, d, seed):
    X, y, X0 = _gp_data(n, d, seed)
    sigma, ell, tau = 0.3, 0.8, 1.4
    gpr = GaussianProcessRegressor(kernel=ConstantKernel(tau**2) * RBF(ell), alpha=sigma**2,
                                   optimizer=None).fit(X, y)
    mean_sk, std_sk = gpr.predict(X0, return_std=True)
    _, cov_sk = gpr.predict(X0, return_cov=True)
    mean, var = bayes.gp_posterior(X, y, X0, sigma, ell, tau)
    np.testing.assert_allclose(mean, mean_sk, atol=1e-10)
    np.testing.assert_allclose(np.sqrt(var), std_sk, atol=1e-7)
    mean2, cov = bayes.gp_posterior(X, y, X0, sigma, ell, tau, full_cov=True)
    np.testing.assert_allclose(mean2, mean, atol=1e-12)
    np.testing.assert_allclose(cov, cov_sk, atol=1e-10)
    np.testing.assert_allclose(np.diag(cov), var, atol=1e-10)


@pytest.mark.parametrize("n, d, seed", GP_SIZES)
def test_gp_noisy_prediction_matches_sklearn_white_kernel(n, d, seed):
    X, y, X0 = _gp_data(n, d, seed)
    sigma, ell, tau = 0.3, 0.8, 1.4
    kernel = ConstantKernel(tau**2) * RBF(ell) + WhiteKernel(sigma**2)
    gpr = GaussianProcessRegressor(kernel=kernel, alpha=0.0, optimizer=None).fit(X, y)
    mean_sk, std_sk = gpr.predict(X0, return_std=True)
    mean, var = bayes.gp_posterior(X, y, X0, sigma, ell, tau, noisy=True)
    np.testing.assert_allclose(mean, mean_sk, atol=1e-10)
    np.testing.assert_allclose(np.sqrt(var), std_sk, atol=1e-9)
    _, var_f = bayes.gp_posterior(X, y, X0, sigma, ell, tau)
    np.testing.assert_allclose(var - var_f, sigma**2, atol=1e-12)
    _, cov_sk = gpr.predict(X0, return_cov=True)
    _, cov = bayes.gp_posterior(X, y, X0, sigma, ell, tau, full_cov=True, noisy=True)
    np.testing.assert_allclose(cov, cov_sk, atol=1e-10)


@pytest.mark.parametrize("n, d, seed", GP_SIZES)
def test_gp_log_marginal_likelihood_matches_sklearn_and_scipy(n, d, seed):
    X, y, _ = _gp_data(n, d, seed)
    sigma, tau = 0.3, 1.4
    for ell in (0.2, 0.8, 3.0):
        gpr = GaussianProcessRegressor(kernel=ConstantKernel(tau**2) * RBF(ell), alpha=sigma**2,
                                       optimizer=None).fit(X, y)
        lml = bayes.gp_log_marginal_likelihood(X, y, sigma, ell, tau)
        assert lml == pytest.approx(gpr.log_marginal_likelihood_value_, abs=1e-9)
        assert lml == pytest.approx(gpr.log_marginal_likelihood(np.log([tau**2, ell])), abs=1e-9)
        cov = gpr.kernel_(X) + sigma**2 * np.eye(n)
        assert lml == pytest.approx(scipy.stats.multivariate_normal(np.zeros(n), cov).logpdf(y), abs=1e-8)


def test_gp_mean_is_kernel_ridge_with_lambda_sigma2():
    X, y, X0 = _gp_data(30, 2, 6)
    sigma, ell, tau = 0.25, 0.6, 1.1
    k = ConstantKernel(tau**2) * RBF(ell)
    krr = KernelRidge(alpha=sigma**2, kernel="precomputed").fit(k(X), y)
    mean, _ = bayes.gp_posterior(X, y, X0, sigma, ell, tau)
    np.testing.assert_allclose(mean, krr.predict(k(X0, X)), atol=1e-9)


def test_gp_maximum_marginal_likelihood_length_scale_matches_sklearn():
    X, y, _ = _gp_data(25, 1, 7)
    sigma, tau = 0.3, 1.0
    res = scipy.optimize.minimize_scalar(
        lambda s: -bayes.gp_log_marginal_likelihood(X, y, sigma, np.exp(s), tau),
        bounds=(np.log(0.05), np.log(5.0)), method="bounded", options={"xatol": 1e-9})
    kernel = ConstantKernel(tau**2, constant_value_bounds="fixed") * RBF(1.0, length_scale_bounds=(0.05, 5.0))
    gpr = GaussianProcessRegressor(kernel=kernel, alpha=sigma**2, n_restarts_optimizer=3,
                                   random_state=0).fit(X, y)
    assert np.exp(res.x) == pytest.approx(gpr.kernel_.k2.length_scale, rel=1e-4)


def test_gp_noise_free_interpolates():
    X, y, _ = _gp_data(8, 1, 8)
    mean, var = bayes.gp_posterior(X, y, X, 0.0, ell=0.5)
    np.testing.assert_allclose(mean, y, atol=1e-6)
    np.testing.assert_allclose(var, 0.0, atol=1e-6)


def test_gp_rejects_bad_input():
    X, y, X0 = _gp_data(10, 2, 0)
    with pytest.raises(ValueError, match="sigma must be non-negative"):
        bayes.gp_posterior(X, y, X0, -0.1)
    with pytest.raises(ValueError, match="ell must be a positive"):
        bayes.gp_posterior(X, y, X0, 0.1, ell=0.0)
    with pytest.raises(ValueError, match="tau must be a positive"):
        bayes.gp_log_marginal_likelihood(X, y, 0.1, tau=np.nan)
    with pytest.raises(ValueError, match="X0 must have 2 columns"):
        bayes.gp_posterior(X, y, X0[:, :1], 0.1)
    with pytest.raises(ValueError, match="y must have shape"):
        bayes.gp_log_marginal_likelihood(X, y[:3], 0.1)
    with pytest.raises(ValueError, match="kernel must be callable"):
        bayes.gp_posterior(X, y, X0, 0.1, kernel="rbf")
    with pytest.raises(ValueError, match=r"kernel\(A, B\) must return"):
        bayes.gp_posterior(X, y, X0, 0.1, kernel=lambda A, B: np.ones((2, 2)))
    with pytest.raises(ValueError, match=r"kernel\(X, X\) must be symmetric"):
        bayes.gp_log_marginal_likelihood(X, y, 0.1, kernel=lambda A, B: A @ B.T + A[:, :1])
    with pytest.raises(ValueError, match="K \\+ sigma² I must be positive definite"):
        bayes.gp_log_marginal_likelihood(np.vstack([X, X[:1]]), np.append(y, 0.0), 0.0)
    with pytest.raises(ValueError, match="K \\+ sigma² I must be positive definite"):
        bayes.gp_log_marginal_likelihood(X, y, 0.1, kernel=lambda A, B: -(A @ B.T))


# ------------------------------------------------- invariances (issue #16, numerics)
def _gp_results(X, y, X0, ell):
    mean, var = bayes.gp_posterior(X, y, X0, 0.2, ell=ell, tau=1.3)
    _, cov = bayes.gp_posterior(X, y, X0, 0.2, ell=ell, tau=1.3, full_cov=True, noisy=True)
    return mean, var, cov, bayes.gp_log_marginal_likelihood(X, y, 0.2, ell=ell, tau=1.3)


def _assert_same(new, ref, rtol=1e-8):
    for a, b in zip(new, ref):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * np.max(np.abs(b)))


@pytest.mark.parametrize("shift", [1e5, -1e5])
@pytest.mark.parametrize("d", [1, 3])
def test_gp_is_unchanged_by_a_translation_of_the_inputs(shift, d):
    # the SE kernel depends on x - x' only; with ‖x‖² + ‖x'‖² − 2xᵀx' the mean moved by 4e-4
    X, y, X0 = _gp_data(25, d, 4)
    _assert_same(_gp_results(X + shift, y, X0 + shift, 0.6), _gp_results(X, y, X0, 0.6))


@pytest.mark.parametrize("scale", [1e4, 1e-4])
def test_gp_is_unchanged_when_inputs_and_length_scale_are_scaled_together(scale):
    X, y, X0 = _gp_data(25, 2, 5)
    _assert_same(_gp_results(X * scale, y, X0 * scale, 0.6 * scale), _gp_results(X, y, X0, 0.6))


def test_se_kernel_is_exactly_symmetric_with_unit_diagonal_far_from_the_origin():
    X = _gp_data(20, 3, 6)[0] + 1e5
    K = bayes._se_kernel(X, X, 0.5, 1.0)
    assert np.array_equal(K, K.T) and np.all(np.diag(K) == 1.0)


def test_gp_checks_flags_callables_and_what_the_kernel_returns():
    X, y, X0 = _gp_data(10, 2, 0)
    for flag in ("full_cov", "noisy"):
        with pytest.raises(ValueError, match=f"{flag} must be True or False"):
            bayes.gp_posterior(X, y, X0, 0.1, **{flag: "no"})
    with pytest.raises(ValueError, match="kernel must be callable"):
        bayes.gp_log_marginal_likelihood(X, y, 0.1, kernel=np.eye(10))
    with pytest.raises(ValueError, match=r"kernel\(A, B\) must be finite"):
        bayes.gp_log_marginal_likelihood(X, y, 0.1, kernel=lambda A, B: np.full((len(A), len(B)), np.nan))
    with pytest.raises(ValueError, match=r"kernel\(A, B\) must be numeric"):
        bayes.gp_log_marginal_likelihood(X, y, 0.1, kernel=lambda A, B: "K")


def test_lasso_path_and_soft_threshold_reject_bad_flags_and_shapes():
    X, y = _sparse_regression(20, 4, 0)
    with pytest.raises(ValueError, match="warm_start must be True or False"):
        bayes.lasso_path(X, y, warm_start="no")
    with pytest.raises(ValueError, match="t of shape"):
        bayes.soft_threshold(np.ones(3), np.ones(2))
    with pytest.raises(ValueError, match="z must be"):
        bayes.soft_threshold("abc", 1.0)
