"""Tests of mlnotes.linear against numpy, scipy and scikit-learn, plus the chapter's identities."""
import warnings

import numpy as np
import pytest
import scipy.linalg
import scipy.optimize
import scipy.special
import scipy.stats
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression, Perceptron
from sklearn.naive_bayes import BernoulliNB
import statsmodels.api as sm
from hypothesis import given, settings, strategies as st

from mlnotes import datasets, linear

SIZES = [(20, 1, 0), (60, 3, 1), (500, 5, 2)]  # (n, p, seed)


def _overlapping(n, seed, d=2):
    """Two overlapping Gaussian classes (labels 0/1) and their design matrix."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((d, d))
    cov = A @ A.T / d + 0.5 * np.eye(d)
    X, y = datasets.two_gaussians(n=n, mean_pos=np.full(d, 0.8), mean_neg=np.zeros(d),
                                  cov_pos=cov, cov_neg=cov, frac_pos=0.4, seed=seed)
    return X, y, linear.add_intercept(X)


def _binary_features(n, d, seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    theta = rng.uniform(0.05, 0.7, size=(2, d))
    X = (rng.random((n, d)) < theta[y]).astype(int)
    return X, y


# ------------------------------------------------------------------ least squares
@pytest.mark.parametrize("n, p, seed", SIZES)
def test_least_squares_matches_lstsq(n, p, seed):
    X, y, _ = datasets.linear_regression(n=n, p=p, seed=seed)
    beta = linear.least_squares(X, y)
    np.testing.assert_allclose(beta, np.linalg.lstsq(X, y, rcond=None)[0], atol=1e-10)
    Y = np.column_stack([y, 2 * y + 1])  # several right-hand sides at once
    np.testing.assert_allclose(linear.least_squares(X, Y), np.linalg.lstsq(X, Y, rcond=None)[0], atol=1e-10)


@pytest.mark.parametrize("n, p, seed", SIZES)
def test_projection_identities(n, p, seed):
    X, y, _ = datasets.linear_regression(n=n, p=p, seed=seed)
    beta = linear.least_squares(X, y)
    H = linear.hat_matrix(X)
    np.testing.assert_allclose(X.T @ (y - X @ beta), 0, atol=1e-9)  # residual ⟂ columns
    np.testing.assert_allclose(H, H.T, atol=1e-12)
    np.testing.assert_allclose(H @ H, H, atol=1e-10)
    assert np.trace(H) == pytest.approx(p + 1, abs=1e-9)
    np.testing.assert_allclose(H @ y, X @ beta, atol=1e-9)


@pytest.mark.parametrize("n, p, seed", SIZES)
def test_ols_covariance_matches_qr(n, p, seed):
    X, _, _ = datasets.linear_regression(n=n, p=p, seed=seed)
    R = np.linalg.qr(X, mode="r")
    Rinv = scipy.linalg.solve_triangular(R, np.eye(p + 1))
    np.testing.assert_allclose(linear.ols_covariance(X, 0.7), 0.49 * Rinv @ Rinv.T, rtol=1e-9, atol=1e-12)


def test_ols_sampling_distribution_by_simulation():
    X, _, beta = datasets.linear_regression(n=30, p=2, seed=3)
    sigma, reps = 0.5, 20000
    eps = sigma * np.random.default_rng(4).standard_normal((30, reps))
    B = linear.least_squares(X, (X @ beta)[:, None] + eps)  # shape (3, reps)
    cov = linear.ols_covariance(X, sigma)
    se = np.sqrt(np.diag(cov) / reps)
    assert np.all(np.abs(B.mean(axis=1) - beta) < 4 * se)
    L = np.linalg.cholesky(cov)
    Z = np.linalg.solve(L, B - beta[:, None])  # whitened: should be N(0, I)
    np.testing.assert_allclose(np.cov(Z), np.eye(3), atol=4 * np.sqrt(2 / reps))


# --------------------------------------------------------------- logistic regression
def test_sigmoid_and_logit_match_scipy():
    z = np.linspace(-800, 800, 4001)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(linear.sigmoid(z), scipy.special.expit(z), rtol=1e-12, atol=1e-300)
        p = np.linspace(0, 1, 101)
        np.testing.assert_array_equal(linear.logit(p[[0, -1]]), [-np.inf, np.inf])
    np.testing.assert_allclose(linear.logit(p[1:-1]), scipy.special.logit(p[1:-1]), rtol=1e-10)
    np.testing.assert_allclose(linear.sigmoid(linear.logit(p[1:-1])), p[1:-1], atol=1e-12)


@pytest.mark.parametrize("n, seed", [(30, 0), (200, 1)])
def test_log_likelihood_and_its_gradient(n, seed):
    _, y, D = _overlapping(n, seed)
    beta = np.random.default_rng(seed + 10).standard_normal(D.shape[1])
    p = scipy.special.expit(D @ beta)
    expected = scipy.stats.bernoulli.logpmf(y, p).sum()
    assert linear.log_likelihood(D, y, beta) == pytest.approx(expected, rel=1e-12)
    numeric = scipy.optimize.approx_fprime(beta, lambda b: linear.log_likelihood(D, y, b), 1e-7)
    np.testing.assert_allclose(D.T @ (y - p), numeric, atol=1e-4 * n)


@pytest.mark.parametrize("method", ["newton", "gradient"])
@pytest.mark.parametrize("n, d, seed", [(50, 1, 0), (200, 2, 1), (400, 4, 2)])
def test_logistic_regression_matches_sklearn(method, n, d, seed):
    _, y, D = _overlapping(n, seed, d=d)
    fit = linear.logistic_regression(D, y, method=method)
    ref = LogisticRegression(C=np.inf, fit_intercept=False, tol=1e-10, max_iter=10000).fit(D, y)
    assert fit.converged
    np.testing.assert_allclose(fit.beta, ref.coef_[0], atol=1e-6)
    assert fit.history[-1] == pytest.approx(linear.log_likelihood(D, y, fit.beta))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_logistic_iterations_increase_likelihood(seed):
    _, y, D = _overlapping(150, seed)
    ga = linear.logistic_regression(D, y, method="gradient")
    newton = linear.logistic_regression(D, y, method="newton")
    assert np.all(np.diff(ga.history) >= -1e-10)
    assert np.all(np.diff(newton.history) >= -1e-10)
    assert newton.n_iter < 10 < ga.n_iter


def test_logistic_regression_reports_separable_data():
    X, y, _ = datasets.separable(n=60, d=2, margin=0.2, seed=0)
    D = linear.add_intercept(X)
    for method in ("newton", "gradient"):
        fit = linear.logistic_regression(D, (y + 1) // 2, method=method, max_iter=200)
        assert not fit.converged


@pytest.mark.parametrize("n, seed", [(25, 0), (300, 1)])
def test_margin_form_of_the_likelihood(n, seed):
    _, y, D = _overlapping(n, seed)
    beta = np.random.default_rng(seed).standard_normal(D.shape[1])
    eta, s = D @ beta, 2 * y - 1
    loss = linear.logistic_loss(s * eta).sum()
    assert -linear.log_likelihood(D, y, beta) == pytest.approx(loss, rel=1e-12)
    p = scipy.special.expit(eta)
    np.testing.assert_allclose(p**y * (1 - p) ** (1 - y), scipy.special.expit(s * eta), rtol=1e-12)


# ---------------------------------------------------------------------- losses
@pytest.mark.parametrize("delta", [0.3, 1.0, 2.5])
def test_huber_loss_matches_scipy(delta):
    r = np.random.default_rng(0).normal(scale=3, size=500)
    np.testing.assert_allclose(linear.huber_loss(r, delta), scipy.special.huber(delta, r), rtol=1e-14)


def test_margin_and_residual_losses():
    m = np.linspace(-30, 30, 601)
    np.testing.assert_allclose(linear.logistic_loss(m), np.log1p(np.exp(-m)), rtol=1e-12)
    np.testing.assert_allclose(linear.exponential_loss(m), np.exp(-m), rtol=1e-14)
    np.testing.assert_array_equal(linear.hinge_loss(m), np.where(m < 1, 1 - m, 0))
    np.testing.assert_array_equal(linear.zero_one_loss(m), (m < 0).astype(float))
    np.testing.assert_array_equal(linear.squared_loss(m), m * m)
    np.testing.assert_array_equal(linear.absolute_loss(-m), np.abs(m))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert linear.logistic_loss(-1000.0) == pytest.approx(1000.0)
        assert linear.logistic_loss(1000.0) == 0.0
    zero_one = linear.zero_one_loss(m)
    for bound in (linear.hinge_loss(m), linear.exponential_loss(m), linear.logistic_loss(m) / np.log(2)):
        assert np.all(bound >= zero_one)


@pytest.mark.parametrize("n, seed", [(40, 0), (200, 1)])
def test_huber_regression_matches_minimize(n, seed):
    X, y, _ = datasets.linear_regression(n=n, p=2, sigma=0.5, seed=seed)
    y = y.copy()
    y[: n // 10] += 15.0  # outliers
    fit = linear.huber_regression(X, y, delta=1.0)
    ref = scipy.optimize.minimize(lambda b: scipy.special.huber(1.0, y - X @ b).sum(),
                                  np.zeros(3), method="BFGS", options={"gtol": 1e-10})
    assert fit.converged
    np.testing.assert_allclose(fit.beta, ref.x, atol=1e-5)
    assert np.all(np.diff(fit.history) <= 1e-10)
    big = linear.huber_regression(X, y, delta=1e3)  # every residual in the quadratic part
    np.testing.assert_allclose(big.beta, linear.least_squares(X, y), atol=1e-10)


# -------------------------------------------------------- locally weighted regression
def _lwr_data(n, p, seed):
    rng = np.random.default_rng(seed)
    F = rng.uniform(-1, 1, (n, p))
    y = np.sin(3 * F[:, 0]) + F.sum(axis=1) ** 2 / p + 0.2 * rng.standard_normal(n)
    Q = rng.uniform(-1.2, 1.2, (15, p))                 # queries, some outside the data
    return linear.add_intercept(F), y, linear.add_intercept(Q)


@pytest.mark.parametrize("n, p, seed", [(30, 1, 0), (80, 2, 1), (200, 3, 2)])
@pytest.mark.parametrize("tau", [0.15, 0.5, 3.0])
def test_lwr_matches_statsmodels_wls(n, p, seed, tau):
    # statsmodels solves each weighted problem by a pseudo-inverse of the whitened design;
    # the condition numbers of √W X stay below ~1e3 here, so 1e-9 leaves a wide margin
    X, y, Q = _lwr_data(n, p, seed)
    pred = linear.locally_weighted_regression(X, y, Q, tau)
    ref = [sm.WLS(y, X, weights=np.exp(-np.sum((X - x0) ** 2, axis=1) / (2 * tau**2)))
           .fit().predict(x0[None, :])[0] for x0 in Q]
    np.testing.assert_allclose(pred, ref, rtol=1e-9, atol=1e-9)


def test_lwr_limits_of_the_bandwidth():
    X, y, Q = _lwr_data(60, 2, 3)
    ols = linear.least_squares(X, y)
    np.testing.assert_allclose(linear.locally_weighted_regression(X, y, Q, 1e4), Q @ ols, atol=1e-7)
    x = np.linspace(0, 1, 25)                           # evenly spaced: small tau is usable
    y1 = np.cos(4 * x) + 0.3 * np.random.default_rng(4).standard_normal(25)
    D = linear.add_intercept(x[:, None])
    fit = linear.locally_weighted_regression(D, y1, D, 0.2 * (x[1] - x[0]))
    np.testing.assert_allclose(fit, y1, atol=1e-2)      # nearly interpolates
    with pytest.raises(ValueError, match="tau = .* is too small"):
        linear.locally_weighted_regression(D, y1, D, 0.01 * (x[1] - x[0]))


def test_lwr_weights_are_invariant_to_a_common_scale():
    # the prediction at a query does not change when every weight is multiplied by c > 0,
    # so shifting all points and queries together changes nothing
    X, y, Q = _lwr_data(50, 2, 5)
    shift = np.r_[0.0, 100.0, -50.0]
    np.testing.assert_allclose(linear.locally_weighted_regression(X + shift, y, Q + shift, 0.4),
                               linear.locally_weighted_regression(X, y, Q, 0.4), atol=1e-9)


def _shift_features(D, shift):
    """The design ``D`` with every feature (all but the column of ones) shifted."""
    return np.column_stack([D[:, :1], D[:, 1:] + shift])


@pytest.mark.parametrize("n, p, seed", [(40, 1, 7), (80, 2, 8), (120, 3, 9)])
@pytest.mark.parametrize("shift", [1e5, -1e5])
def test_lwr_is_translation_invariant_far_from_the_origin(n, p, seed, shift):
    # the Gaussian weights depend on differences only, and with an intercept a common shift
    # of the features changes no fitted value; 1e5 would make the intercept column nearly
    # collinear with the features (cond(√W X) > 1e10: "tau too small") without the
    # orthonormal basis of the columns
    X, y, Q = _lwr_data(n, p, seed)
    base = linear.locally_weighted_regression(X, y, Q, 0.5)
    moved = linear.locally_weighted_regression(_shift_features(X, shift), y,
                                               _shift_features(Q, shift), 0.5)
    np.testing.assert_allclose(moved, base, rtol=1e-8)


@pytest.mark.parametrize("c", [1e4, 1e-4])
def test_lwr_is_scale_invariant_with_the_bandwidth_scaled_along(c):
    X, y, Q = _lwr_data(80, 2, 10)
    base = linear.locally_weighted_regression(X, y, Q, 0.5)
    scale = np.r_[1.0, c, c]                            # the column of ones stays
    np.testing.assert_allclose(linear.locally_weighted_regression(X * scale, y, Q * scale, 0.5 * c),
                               base, rtol=1e-8)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(5, 40), p=st.integers(1, 3),
       tau=st.floats(1.0, 50.0))
def test_lwr_reproduces_linear_functions(seed, n, p, tau):
    # weighted least squares is exact on data that lie on a hyperplane, whatever the weights
    # (tau >= 1 on [-1, 1]^p keeps every weight above e^-6, so no query is near-singular)
    rng = np.random.default_rng(seed)
    X = linear.add_intercept(rng.uniform(-1, 1, (n, p)))
    beta = rng.standard_normal(p + 1)
    Q = linear.add_intercept(rng.uniform(-1, 1, (7, p)))
    if np.linalg.matrix_rank(X) < p + 1:
        return
    np.testing.assert_allclose(linear.locally_weighted_regression(X, X @ beta, Q, tau), Q @ beta,
                               atol=1e-8 * (1 + np.abs(beta).sum()))


@settings(max_examples=30, deadline=None)
@given(tau=st.one_of(st.floats(max_value=0.0), st.just(np.nan), st.just(np.inf),
                     st.just(-np.inf), st.booleans(), st.text(max_size=3)))
def test_lwr_bad_bandwidths_name_tau(tau):
    X, y, Q = _lwr_data(10, 1, 6)
    with pytest.raises(ValueError, match="tau"):
        linear.locally_weighted_regression(X, y, Q, tau)


# ---------------------------------------------------------------------- perceptron
@pytest.mark.parametrize("n, d, seed", [(30, 2, 0), (200, 2, 1), (300, 5, 2)])
def test_perceptron_separates_and_matches_sklearn(n, d, seed):
    X, y, w = datasets.separable(n=n, d=d, margin=0.1, seed=seed)
    D = linear.add_intercept(X)
    fit = linear.perceptron(D, y, max_epochs=1000)
    assert fit.converged
    assert np.all(np.sign(D @ fit.beta) == y)
    R = np.linalg.norm(D, axis=1).max()
    gamma = np.min(y * (X @ w))  # margin of the unit vector (0, w)
    assert fit.history.sum() <= (R / gamma) ** 2  # Novikoff's bound
    ref = Perceptron(fit_intercept=False, shuffle=False, eta0=1.0, alpha=0.0, tol=None,
                     max_iter=fit.n_iter).fit(D, y)
    np.testing.assert_allclose(fit.beta, ref.coef_[0], atol=1e-12)


def test_perceptron_does_not_converge_without_separation():
    _, y, D = _overlapping(100, 0)
    fit = linear.perceptron(D, 2 * y - 1, max_epochs=20)
    assert not fit.converged and fit.n_iter == 20


# ------------------------------------------------------------ Fisher's discriminant
def _parallel(a, b):
    return abs(a @ b) / (np.linalg.norm(a) * np.linalg.norm(b))


@pytest.mark.parametrize("n, d, seed", [(40, 2, 0), (300, 3, 1), (600, 6, 2)])
def test_lda_direction_matches_eigh_and_sklearn(n, d, seed):
    X, y, _ = _overlapping(n, seed, d=d)
    beta = linear.lda_direction(X, y)
    S_B, S_W = linear.scatter_matrices(X, y)
    vals, vecs = scipy.linalg.eigh(S_B, S_W)
    assert _parallel(beta, vecs[:, -1]) == pytest.approx(1, abs=1e-10)
    for solver in ("svd", "eigen"):
        ref = LinearDiscriminantAnalysis(solver=solver).fit(X, y)
        assert _parallel(beta, ref.coef_[0]) == pytest.approx(1, abs=1e-10)
    delta = X[y == 1].mean(axis=0) - X[y == 0].mean(axis=0)
    assert linear.fisher_ratio(X, y, beta) == pytest.approx(vals[-1], rel=1e-9)
    assert vals[-1] == pytest.approx(delta @ np.linalg.solve(S_W, delta), rel=1e-9)
    assert beta @ delta > 0
    others = np.random.default_rng(seed).standard_normal((d, 500))
    assert np.all(linear.fisher_ratio(X, y, others) <= vals[-1] * (1 + 1e-12))
    np.testing.assert_allclose(linear.lda_direction(X, 2 * y - 1), beta, atol=1e-12)


def test_fisher_ratio_from_projections():
    X, y, _ = _overlapping(120, 5, d=3)
    beta = np.array([1.0, -2.0, 0.5])
    z = X @ beta
    between = (z[y == 1].mean() - z[y == 0].mean()) ** 2
    within = (y == 1).sum() * z[y == 1].var() + (y == 0).sum() * z[y == 0].var()
    assert linear.fisher_ratio(X, y, beta) == pytest.approx(between / within, rel=1e-10)
    assert linear.fisher_ratio(X, y, -3 * beta) == pytest.approx(between / within, rel=1e-10)


# ------------------------------------------------------ Gaussian discriminant analysis
@pytest.mark.parametrize("n, d, seed", [(50, 2, 0), (400, 3, 1)])
def test_gda_matches_sklearn_and_bayes_rule(n, d, seed):
    X, y, _ = _overlapping(n, seed, d=d)
    fit = linear.gda_fit(X, y)
    ref = LinearDiscriminantAnalysis(solver="lsqr", store_covariance=True).fit(X, y)
    np.testing.assert_allclose(fit.Sigma, ref.covariance_, atol=1e-12)
    np.testing.assert_allclose([fit.mu0, fit.mu1], ref.means_, atol=1e-12)
    assert fit.phi == pytest.approx(ref.priors_[1])
    prob = linear.gda_predict_proba(fit, X)
    np.testing.assert_allclose(prob, ref.predict_proba(X)[:, 1], atol=1e-12)
    joint1 = fit.phi * scipy.stats.multivariate_normal(fit.mu1, fit.Sigma).pdf(X)
    joint0 = (1 - fit.phi) * scipy.stats.multivariate_normal(fit.mu0, fit.Sigma).pdf(X)
    np.testing.assert_allclose(prob, joint1 / (joint0 + joint1), atol=1e-12)
    w = linear.gda_coefficients(fit)[1:]
    assert _parallel(w, linear.lda_direction(X, y)) == pytest.approx(1, abs=1e-12)


# --------------------------------------------------------------------- naive Bayes
@pytest.mark.parametrize("n, d, seed", [(40, 5, 0), (500, 30, 1)])
@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_naive_bayes_matches_sklearn(n, d, seed, alpha):
    X, y = _binary_features(n, d, seed)
    fit = linear.naive_bayes_fit(X, y, alpha=alpha)
    ref = BernoulliNB(alpha=alpha, class_prior=[1 - fit.phi_y, fit.phi_y]).fit(X, y)
    np.testing.assert_allclose(fit.phi, np.exp(ref.feature_log_prob_), rtol=1e-12)
    assert fit.phi_y == pytest.approx((y.sum() + alpha) / (n + 2 * alpha))
    Xt, _ = _binary_features(50, d, seed + 100)
    np.testing.assert_allclose(linear.naive_bayes_predict_proba(fit, Xt), ref.predict_proba(Xt)[:, 1], atol=1e-12)


# ---------------------------------------------------------------------- bad inputs
_X = np.random.default_rng(0).standard_normal((10, 2))
_D = linear.add_intercept(_X)
_y01 = np.array([0, 1] * 5)
_ypm = 2 * _y01 - 1
_Xnan = _D.copy()
_Xnan[3, 1] = np.nan
_Xrank = np.column_stack([_D, _D[:, 1]])


@pytest.mark.parametrize("call, match", [
    (lambda: linear.least_squares(_D[:, 0], _y01), "X must be a non-empty 2-D"),
    (lambda: linear.least_squares(_Xnan, _y01), "X must be finite"),
    (lambda: linear.least_squares(_D, _y01[:-1]), "y must have shape"),
    (lambda: linear.least_squares(_D, np.where(_y01, np.inf, 0)), "y must be finite"),
    (lambda: linear.least_squares(_Xrank, _y01), "X must have full column rank"),
    (lambda: linear.hat_matrix(_Xrank), "X must have full column rank"),
    (lambda: linear.ols_covariance(_D, 0.0), "sigma must be a positive"),
    (lambda: linear.add_intercept([1.0, 2.0]), "X must be a non-empty 2-D"),
    (lambda: linear.sigmoid([0.0, np.nan]), "z must not contain NaN"),
    (lambda: linear.logit([0.5, 1.2]), "p must lie in"),
    (lambda: linear.log_likelihood(_D, _ypm, np.zeros(3)), "y must contain only the labels"),
    (lambda: linear.log_likelihood(_D, _y01, np.zeros(2)), "beta must have shape"),
    (lambda: linear.logistic_regression(_D, _ypm), "y must contain only the labels"),
    (lambda: linear.logistic_regression(_D, _y01, method="bfgs"), "method must be"),
    (lambda: linear.logistic_regression(_D, _y01, method="gradient", step=-1.0), "step must be"),
    (lambda: linear.logistic_regression(_D, _y01, method="gradient", step="big"), "step must be"),
    (lambda: linear.logistic_regression(_D, _y01, tol=0.0), "tol must be"),
    (lambda: linear.logistic_regression(_D, _y01, max_iter=0), "max_iter must be"),
    (lambda: linear.logistic_regression(_Xrank, _y01), "X must have full column rank"),
    (lambda: linear.perceptron(_D, _y01), "y must contain only the labels"),
    (lambda: linear.perceptron(_D, _ypm, max_epochs=2.5), "max_epochs must be"),
    (lambda: linear.huber_loss([1.0, np.inf]), "r must be finite"),
    (lambda: linear.huber_loss([1.0], delta=0.0), "delta must be"),
    (lambda: linear.logistic_loss([np.nan]), "m must be finite"),
    (lambda: linear.hinge_loss([np.inf]), "m must be finite"),
    (lambda: linear.huber_regression(_D, _y01, delta=-1.0), "delta must be"),
    (lambda: linear.huber_regression(_D, _y01[:5]), "y must have shape"),
    (lambda: linear.locally_weighted_regression(_D, _y01[:5], _D, 1.0), "y must have shape"),
    (lambda: linear.locally_weighted_regression(_D, _y01, _D[:, :2], 1.0), "X_query must have 3 columns"),
    (lambda: linear.locally_weighted_regression(_D, _y01, _Xnan, 1.0), "X_query must be finite"),
    (lambda: linear.locally_weighted_regression(_D, _y01, _D[0], 1.0), "X_query must be a non-empty 2-D"),
    (lambda: linear.locally_weighted_regression(_Xnan, _y01, _D, 1.0), "X must be finite"),
    (lambda: linear.locally_weighted_regression(_Xrank, _y01, _Xrank, 1.0), "X must have full column rank"),
    (lambda: linear.locally_weighted_regression(_D, _y01, _D, 0.0), "tau must be a positive"),
    (lambda: linear.locally_weighted_regression(_D, _y01, _D, 1e-3), "tau = 0.001 is too small"),
    (lambda: linear.lda_direction(_X, np.array([0, 1, 2] * 3 + [0])), "y must contain labels in"),
    (lambda: linear.lda_direction(_X, np.zeros(10)), "y must contain both classes"),
    (lambda: linear.lda_direction(_X[:3], _y01[:3]), "S_W"),
    (lambda: linear.fisher_ratio(_X, _y01, np.zeros(2)), "beta must be non-zero"),
    (lambda: linear.fisher_ratio(_X, _y01, np.ones(3)), "beta must be finite with shape"),
    (lambda: linear.gda_fit(_X, _ypm), "y must contain only the labels"),
    (lambda: linear.gda_predict_proba("fit", _X), "fit must be a GDAFit"),
    (lambda: linear.gda_predict_proba(linear.gda_fit(_X, _y01), _D), "X must have 2 columns"),
    (lambda: linear.naive_bayes_fit(_X, _y01), "X must contain only the values 0 and 1"),
    (lambda: linear.naive_bayes_fit((_X > 0).astype(int), _y01, alpha=0.0), "alpha must be"),
    (lambda: linear.naive_bayes_predict_proba(linear.gda_fit(_X, _y01), _X), "fit must be a NaiveBayesFit"),
    # strings, ragged tables and objects are rejected by name, not inside numpy
    (lambda: linear.sigmoid("abc"), "z must be numeric"),
    (lambda: linear.logit([[0.5, 0.5], [0.5]]), "p must be a rectangular array"),
    (lambda: linear.hinge_loss("abc"), "m must be numeric"),
    (lambda: linear.least_squares(_D, "abc"), "y must be numeric"),
    (lambda: linear.log_likelihood(_D, ["a"] * 10, np.zeros(3)), "y must contain only the labels"),
    (lambda: linear.scatter_matrices(_X, [[0, 1], [1]]), "y must be a rectangular array"),
    (lambda: linear.lda_direction(_X, np.full(10, np.nan)), "y must contain labels in"),
    (lambda: linear.fisher_ratio(_X, _y01, "abc"), "beta must be numeric"),
    (lambda: linear.logistic_regression(_D, _y01, method=None), "method must be one of"),
    (lambda: linear.gda_coefficients(object()), "fit must be a GDAFit returned by gda_fit"),
])
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_reprs_have_no_addresses():
    fit = linear.logistic_regression(_D, _y01)
    for obj in (fit, linear.gda_fit(_X, _y01), linear.naive_bayes_fit((_X > 0).astype(int), _y01)):
        assert "0x" not in repr(obj) and "array" not in repr(obj)


def test_least_squares_keeps_its_digits_with_a_covariate_far_from_zero():
    """With a covariate near 1e5 the normal equations lose about ten digits; QR keeps them."""
    import statsmodels.api as sm
    rng = np.random.default_rng(3)
    X = np.column_stack([np.ones(50), rng.normal(size=50), 1e5 + rng.normal(size=50)])
    y = X @ np.array([2.0, -1.0, 0.5]) + rng.normal(size=50)
    ref = sm.OLS(y, X).fit()
    np.testing.assert_allclose(linear.least_squares(X, y), ref.params, rtol=1e-9)
    np.testing.assert_allclose(linear.ols_covariance(X, 1.0) * ref.scale, ref.cov_params(), rtol=1e-8)
    np.testing.assert_allclose(np.diag(linear.hat_matrix(X)), ref.get_influence().hat_matrix_diag, rtol=1e-9, atol=1e-12)
    with_normal_equations = np.linalg.solve(X.T @ X, X.T @ y)
    assert np.max(np.abs(with_normal_equations / ref.params - 1)) > 1e-8   # the fault this guards against
