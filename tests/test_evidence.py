"""Tests of mlnotes.evidence against scipy, statsmodels and scikit-learn, plus identities."""
import warnings

import numpy as np
import pytest
import scipy.integrate
import scipy.special
import scipy.stats
import statsmodels.api as sm
from sklearn.linear_model import ARDRegression, BayesianRidge

from mlnotes import evidence as ev
from mlnotes.model_selection import polynomial_features

SIZES = [(20, 3, 0), (60, 6, 1), (150, 10, 2)]   # (n, p, seed)


def _data(n, p, seed, n_relevant=3, noise=0.5):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    w = np.zeros(p)
    w[:n_relevant] = rng.uniform(1, 3, n_relevant) * rng.choice([-1, 1], n_relevant)
    return X, X @ w + noise * rng.standard_normal(n), rng


@pytest.mark.parametrize("k, n, a, b", [(0, 0, 1.0, 1.0), (3, 10, 1.0, 1.0), (7, 20, 2.5, 0.7),
                                        (40, 100, 3.0, 3.0)])
def test_beta_bernoulli_matches_quadrature(k, n, a, b):
    # quad on a smooth integrand on [0, 1]: relative accuracy ~1e-10
    f = lambda t: t**k * (1 - t) ** (n - k) * scipy.stats.beta(a, b).pdf(t)
    val = scipy.integrate.quad(f, 0, 1, epsabs=0, epsrel=1e-12)[0]
    assert ev.log_evidence_beta_bernoulli(k, n, a, b) == pytest.approx(np.log(val), abs=1e-8)


def test_beta_bernoulli_broadcasts_and_sums_to_one():
    # the probabilities of all sequences of length n sum to 1: Σ_k C(n,k) p(k ones)
    n = 12
    k = np.arange(n + 1)
    lp = ev.log_evidence_beta_bernoulli(k, n, 2.0, 3.0)
    assert lp.shape == (n + 1,)
    assert np.sum(scipy.special.comb(n, k) * np.exp(lp)) == pytest.approx(1.0, abs=1e-12)


def test_bayes_factor():
    assert ev.bayes_factor(-3.0, -5.0) == pytest.approx(np.exp(2.0), rel=1e-14)
    assert ev.bayes_factor(1000.0, 0.0) == np.inf


@pytest.mark.parametrize("d, seed", [(1, 0), (2, 1), (4, 2)])
def test_laplace_is_exact_for_gaussian_integrands(d, seed):
    # log p(D, θ) quadratic => the Laplace approximation is exact (2π)^{d/2}|A|^{-1/2}
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((d, d))
    A = M @ M.T + d * np.eye(d)
    mu, c = rng.standard_normal(d), -3.7
    log_joint = lambda t: c - 0.5 * (t - mu) @ A @ (t - mu)
    exact = c + 0.5 * d * np.log(2 * np.pi) - 0.5 * np.linalg.slogdet(A)[1]
    assert ev.laplace_log_evidence(log_joint, mu, A) == pytest.approx(exact, abs=1e-12)


def test_laplace_2d_against_dblquad():
    A = np.array([[2.0, 0.6], [0.6, 1.0]])
    f = lambda v, u: np.exp(-0.5 * np.array([u, v]) @ A @ np.array([u, v]))
    val = scipy.integrate.dblquad(f, -12, 12, -12, 12, epsabs=1e-12)[0]
    lj = lambda t: -0.5 * t @ A @ t
    assert ev.laplace_log_evidence(lj, np.zeros(2), A) == pytest.approx(np.log(val), abs=1e-8)


@pytest.mark.parametrize("n", [50, 500, 5000])
def test_laplace_beta_bernoulli_error_is_order_one_over_n(n):
    k, a, b = int(0.3 * n), 2.0, 3.0
    t = (k + a - 1) / (n + a + b - 2)
    A = (k + a - 1) / t**2 + (n - k + b - 1) / (1 - t) ** 2
    lj = lambda s: (k + a - 1) * np.log(s) + (n - k + b - 1) * np.log(1 - s) - scipy.special.betaln(a, b)
    err = ev.laplace_log_evidence(lj, t, A) - ev.log_evidence_beta_bernoulli(k, n, a, b)
    assert 0.05 / n < abs(err) < 1.0 / n          # the leading term is about 0.2/n here


@pytest.mark.parametrize("n, p, seed", SIZES)
def test_bic_matches_statsmodels(n, p, seed):
    X, y, _ = _data(n, p, seed)
    res = sm.OLS(y, X).fit()
    assert ev.bic(res.llf, p, n) == pytest.approx(res.bic, rel=1e-12)


@pytest.mark.parametrize("n, p, seed", SIZES)
def test_linreg_log_evidence_matches_scipy(n, p, seed):
    X, y, rng = _data(n, p, seed)
    M = rng.standard_normal((p, p))
    C = M @ M.T / p + 0.1 * np.eye(p)
    ref = scipy.stats.multivariate_normal(np.zeros(n), X @ C @ X.T + 0.3 * np.eye(n)).logpdf(y)
    assert ev.linreg_log_evidence(X, y, C, 0.3) == pytest.approx(ref, abs=1e-8)


@pytest.mark.parametrize("n, p, seed", SIZES)
def test_gradients_match_central_differences(n, p, seed):
    X, y, rng = _data(n, p, seed)
    C, s2, h = np.diag(rng.uniform(0.5, 2.0, p)), 0.4, 1e-5
    G, g_s2 = ev.linreg_evidence_grads(X, y, C, s2)
    f = lambda C_, s2_: ev.linreg_log_evidence(X, y, C_, s2_)
    num_s2 = (f(C, s2 + h) - f(C, s2 - h)) / (2 * h)
    # central differences: error O(h²·f''') ≈ 1e-8 relative, far below the factor 2 of l.140
    assert g_s2 == pytest.approx(num_s2, rel=1e-5, abs=1e-6)
    for _ in range(3):
        D = rng.standard_normal((p, p))
        D = (D + D.T) / 2
        num = (f(C + h * D, s2) - f(C - h * D, s2)) / (2 * h)
        assert np.sum(G * D) == pytest.approx(num, rel=1e-5, abs=1e-6)


@pytest.mark.parametrize("n, p, seed", SIZES)
def test_mackay_ard_matches_sklearn(n, p, seed):
    X, y, _ = _data(n, p, seed)
    fit = ev.mackay_ard(X, y, max_iter=5000, tol=1e-10)
    ref = ARDRegression(fit_intercept=False, alpha_1=0, alpha_2=0, lambda_1=0, lambda_2=0,
                        threshold_lambda=1e12, tol=1e-10, max_iter=5000).fit(X, y)
    assert fit.converged
    np.testing.assert_allclose(fit.coef, ref.coef_, atol=1e-7)
    kept = fit.alpha < 1e6                       # precisions of pruned inputs are just "huge"
    np.testing.assert_allclose(fit.alpha[kept], ref.lambda_[kept], rtol=1e-5)
    assert 1 / fit.sigma2 == pytest.approx(ref.alpha_, rel=1e-7)
    # the iteration never decreases the evidence; irrelevant inputs are (nearly) pruned
    assert np.all(np.diff(fit.log_evidence) > -1e-8)
    assert np.all(fit.alpha[:3] < 10) and np.all(fit.alpha[3:] > 10)


def test_mackay_fixed_point_zeroes_the_gradient():
    X, y, _ = _data(80, 5, 4, n_relevant=5)
    fit = ev.mackay_ard(X, y, max_iter=5000, tol=1e-12)
    G, g_s2 = ev.linreg_evidence_grads(X, y, np.diag(1 / fit.alpha), fit.sigma2)
    # ∂/∂α_i = −G_ii/α_i²; both vanish at the fixed point
    assert np.max(np.abs(np.diag(G) / fit.alpha**2)) < 1e-6
    assert abs(g_s2) < 1e-6


@pytest.mark.parametrize("n, p, seed", SIZES)
def test_bayesian_ridge_scores(n, p, seed):
    X, y, _ = _data(n, p, seed)
    ref = BayesianRidge(fit_intercept=False, alpha_1=0, alpha_2=0, lambda_1=0, lambda_2=0,
                        compute_score=True, tol=1e-12, max_iter=3000).fit(X, y)
    lev = ev.bayesian_ridge_evidence(X, y, ref.lambda_, ref.alpha_)
    assert lev == pytest.approx(ref.scores_[-1], abs=1e-7)
    direct = scipy.stats.multivariate_normal(np.zeros(n), X @ X.T / 2.0 + np.eye(n) / 3.0).logpdf(y)
    assert ev.bayesian_ridge_evidence(X, y, 2.0, 3.0) == pytest.approx(direct, abs=1e-8)
    grid = ev.bayesian_ridge_evidence(X, y, np.array([[1.0], [2.0]]), np.array([3.0, 4.0]))
    assert grid.shape == (2, 2) and grid[1, 0] == pytest.approx(direct, abs=1e-8)


def test_bayesian_ridge_evidence_p_greater_than_n():
    X, y, _ = _data(8, 12, 5)
    direct = scipy.stats.multivariate_normal(np.zeros(8), X @ X.T / 0.5 + np.eye(8) / 2.0).logpdf(y)
    assert ev.bayesian_ridge_evidence(X, y, 0.5, 2.0) == pytest.approx(direct, abs=1e-8)


@pytest.mark.parametrize("n, seed", [(15, 0), (30, 1)])
def test_polynomial_evidence_matches_bayesian_ridge(n, seed):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0, 1, n))
    Y = np.sin(2 * np.pi * x)[:, None] + 0.2 * rng.standard_normal((n, 3))
    res = ev.polynomial_evidence(x, Y, [1, 3, 5])
    for j, deg in enumerate([1, 3, 5]):
        for s in range(3):
            ref = BayesianRidge(fit_intercept=False, alpha_1=0, alpha_2=0, lambda_1=0,
                                lambda_2=0, compute_score=True, tol=1e-12,
                                max_iter=3000).fit(polynomial_features(x, deg), Y[:, s])
            assert res.log_evidence[j, s] == pytest.approx(ref.scores_[-1], abs=1e-6)
            assert res.alpha[j, s] == pytest.approx(ref.lambda_, rel=1e-5)
    one = ev.polynomial_evidence(x, Y[:, 0], [1, 3, 5])
    np.testing.assert_allclose(one.log_evidence, res.log_evidence[:, 0], atol=1e-10)
    # training error decreases with the degree, the evidence does not
    assert np.all(np.diff(res.train_rss, axis=0) <= 1e-12)


@pytest.mark.parametrize("call, match", [
    (lambda: ev.log_evidence_beta_bernoulli(5, 3, 1.0, 1.0), "k must not exceed n"),
    (lambda: ev.log_evidence_beta_bernoulli(1.5, 3, 1.0, 1.0), "k"),
    (lambda: ev.laplace_log_evidence(lambda t: 0.0, np.zeros(2), -np.eye(2)), "neg_hessian"),
    (lambda: ev.linreg_log_evidence(np.ones((4, 2)), np.ones(4), np.eye(3), 1.0), "C"),
    (lambda: ev.bayesian_ridge_evidence(np.ones((4, 2)), np.ones(4), -1.0, 1.0), "alpha"),
    (lambda: ev.polynomial_evidence(np.linspace(0, 1, 5), np.ones(5), [5]), "degrees"),
    (lambda: ev.polynomial_evidence(np.linspace(0, 1, 5), np.ones(4), [1]), "y"),
])
def test_bad_inputs(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ------------------------------------------------------------ faults fixed after review
def test_polynomial_rss_far_from_the_origin_matches_lstsq():
    # the residual was Σy² − Σ(Uᵀy)², which cancels catastrophically at an offset of 1e8
    rng = np.random.default_rng(21)
    x = np.linspace(0, 1, 20)
    y = np.sin(3 * x) + 0.1 * rng.standard_normal(20)
    far = ev.polynomial_evidence(x, 1e8 + y, [0, 1, 3])
    ref = [np.sum((y - polynomial_features(x, d) @ np.linalg.lstsq(polynomial_features(x, d), y, rcond=None)[0]) ** 2)
           for d in (0, 1, 3)]
    np.testing.assert_allclose(far.train_rss, ref, rtol=1e-6)


def test_polynomial_evidence_refuses_an_exact_fit():
    # the evidence is unbounded in beta; the old code returned NaN (constant y) or a value set by rounding
    x = np.linspace(0, 1, 20)
    with pytest.raises(ValueError, match="fitted exactly"):
        ev.polynomial_evidence(x, np.ones(20), [0, 1])
    with pytest.raises(ValueError, match="fitted exactly"):
        ev.polynomial_evidence(x, 1 + 2 * x, [1, 2])


def test_ard_prunes_a_zero_column_and_warns_when_unconverged():
    rng = np.random.default_rng(22)
    X = rng.standard_normal((40, 3))
    y = X @ np.array([1.0, -2.0, 0.5]) + 0.3 * rng.standard_normal(40)
    ref = ev.mackay_ard(X, y)
    res = ev.mackay_ard(np.c_[X, np.zeros(40)], y)         # used to fail with "C must be finite"
    assert res.coef[3] == 0 and res.alpha[3] > 1e12
    np.testing.assert_allclose(res.coef[:3], ref.coef, atol=1e-10)
    np.testing.assert_allclose(res.sigma2, ref.sigma2, rtol=1e-10)
    with pytest.warns(RuntimeWarning, match="did not converge"):
        out = ev.mackay_ard(X, y, max_iter=2)
    assert not out.converged


def test_evidence_gradients_refuse_overflow():
    rng = np.random.default_rng(23)
    X = rng.standard_normal((10, 2))
    with pytest.raises(ValueError, match="sigma2"):             # used to return inf
        ev.linreg_evidence_grads(X, rng.standard_normal(10), np.eye(2), 1e-300)


def test_evidence_gradients_with_a_covariate_far_from_zero_match_exact_arithmetic():
    # the posterior was solved from the normal equations XᵀX/σ² + C⁻¹ (1e-6 relative error at a
    # covariate of 1e5); now by QR. Reference: the same formulas in exact rational arithmetic.
    from fractions import Fraction as Fr
    rng = np.random.default_rng(24)
    n, s2, c = 40, 0.01, 1e6
    x = rng.standard_normal(n)
    X = np.c_[np.ones(n), 1e5 + x]
    y = 1 + 2 * x + 0.1 * rng.standard_normal(n)
    G, g = ev.linreg_evidence_grads(X, y, c * np.eye(2), s2)
    Xf = [[Fr(v) for v in row] for row in X.tolist()]
    yf, s2f, cf = [Fr(v) for v in y.tolist()], Fr(s2), Fr(c)
    P = [[sum(Xf[k][i] * Xf[k][j] for k in range(n)) / s2f + (1 / cf if i == j else 0) for j in range(2)]
         for i in range(2)]
    det = P[0][0] * P[1][1] - P[0][1] * P[1][0]
    S = [[P[1][1] / det, -P[0][1] / det], [-P[1][0] / det, P[0][0] / det]]         # Σ_w
    b = [sum(Xf[k][i] * yf[k] for k in range(n)) / s2f for i in range(2)]
    w = [S[i][0] * b[0] + S[i][1] * b[1] for i in range(2)]                      # w̄
    G_ref = [[(S[i][j] + w[i] * w[j] - (cf if i == j else 0)) / (2 * cf * cf) for j in range(2)] for i in range(2)]
    rss = sum((yf[k] - Xf[k][0] * w[0] - Xf[k][1] * w[1]) ** 2 for k in range(n))
    gamma = 2 - (S[0][0] + S[1][1]) / cf
    g_ref = (-n + gamma + rss / s2f) / (2 * s2f)
    np.testing.assert_allclose(G, np.array(G_ref, dtype=float), rtol=1e-9)
    np.testing.assert_allclose(g, float(g_ref), rtol=1e-9)
