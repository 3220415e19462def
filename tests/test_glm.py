"""Tests of mlnotes.glm against statsmodels, scipy and scikit-learn, plus the chapter's identities."""
import warnings

import numpy as np
import pytest
import scipy.interpolate
import scipy.stats
import statsmodels.api as sm
from statsmodels.gam.api import BSplines, GLMGam
from sklearn.linear_model import LogisticRegression, PoissonRegressor

from mlnotes import glm, linear

L = sm.families.links
SIZES = [(40, 0), (120, 1), (600, 2)]   # (n, seed)
LINKS = {"logit": L.Logit(), "probit": L.Probit(), "cloglog": L.CLogLog(), "log": L.Log(),
         "identity": L.Identity(), "inverse": L.InversePower()}
PAIRS = [("gaussian", "identity"), ("gaussian", "log"), ("poisson", "log"),
         ("poisson", "identity"), ("gamma", "log"), ("gamma", "inverse"),
         ("binomial", "logit"), ("binomial", "probit"), ("binomial", "cloglog")]


def _data(family, link, n, seed, grouped=True):
    """Responses drawn from the family with the given link (well inside the domain)."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([np.ones(n), rng.standard_normal(n), rng.uniform(-1, 1, n)])
    eta = X @ np.array([0.3, 0.4, -0.5])
    mu = {"identity": 2 + eta, "log": np.exp(eta), "inverse": 1 / (3 + eta),
          "logit": 1 / (1 + np.exp(-eta)), "probit": scipy.stats.norm.cdf(eta),
          "cloglog": 1 - np.exp(-np.exp(eta))}[link]
    w = None
    if family == "gaussian":
        y = mu + 0.3 * rng.standard_normal(n)
    elif family == "poisson":
        y = rng.poisson(3 * mu).astype(float)
    elif family == "gamma":
        y = rng.gamma(3.0, mu / 3.0)
    else:
        w = rng.integers(1, 15, n).astype(float) if grouped else np.ones(n)
        y = rng.binomial(w.astype(int), mu) / w
    return X, y, w


def _statsmodels(family, link, X, y, w):
    fam = {"gaussian": sm.families.Gaussian, "poisson": sm.families.Poisson,
           "gamma": sm.families.Gamma, "binomial": sm.families.Binomial}[family](LINKS[link])
    endog = y if w is None else np.column_stack([y * w, w - y * w])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sm.GLM(endog, X, family=fam).fit(tol=1e-14, maxiter=500)


@pytest.mark.parametrize("n, seed", SIZES)
@pytest.mark.parametrize("family, link", PAIRS)
def test_irls_matches_statsmodels(family, link, n, seed):
    # Fisher scoring and statsmodels' IRLS solve the same score equations; 1e-8 leaves room
    # for statsmodels' own stopping rule (deviance change) on the slowly converging
    # non-canonical links.
    X, y, w = _data(family, link, n, seed)
    fit = glm.glm_irls(X, y, getattr(glm, family)(), getattr(glm, link + "_link")(), weights=w, tol=1e-11,
                       max_iter=500)
    r = _statsmodels(family, link, X, y, w)
    assert fit.converged
    np.testing.assert_allclose(fit.beta, r.params, atol=1e-8)
    np.testing.assert_allclose(np.sqrt(np.diag(fit.cov)), r.bse, atol=1e-8)
    np.testing.assert_allclose([fit.deviance, fit.pearson_chi2, fit.phi, fit.llf],
                               [r.deviance, r.pearson_chi2, r.scale, r.llf], rtol=1e-8, atol=1e-8)
    fam = getattr(glm, family)()
    np.testing.assert_allclose(glm.pearson_residuals(y, fit.mu, fam, w), r.resid_pearson, atol=1e-7)
    np.testing.assert_allclose(glm.deviance_residuals(y, fit.mu, fam, w), r.resid_deviance, atol=1e-7)
    np.testing.assert_allclose(fit.conf_int(0.1), r.conf_int(0.1), atol=1e-7)


@pytest.mark.parametrize("family, link", PAIRS)
def test_score_equations_vanish(family, link):
    X, y, w = _data(family, link, 150, 7)
    fam, lk = getattr(glm, family)(), getattr(glm, link + "_link")()
    fit = glm.glm_irls(X, y, fam, lk, weights=w, tol=1e-11, max_iter=500)
    w = np.ones(len(y)) if w is None else w
    U = X.T @ (w * (y - fit.mu) / fam.variance(fit.mu) * lk.mu_eta(fit.eta))
    assert np.max(np.abs(U)) < 1e-7 * (1 + np.abs(X).sum())


def test_gaussian_deviance_is_rss_and_scaled_deviance():
    X, y, _ = _data("gaussian", "identity", 60, 3)
    fit = glm.glm_irls(X, y, glm.gaussian())
    rss = np.sum((y - X @ np.linalg.lstsq(X, y, rcond=None)[0]) ** 2)
    assert fit.deviance == pytest.approx(rss, rel=1e-12)
    assert fit.deviance / fit.phi == pytest.approx(60 - 3, rel=1e-12)


@pytest.mark.parametrize("family", ["gaussian", "poisson", "binomial", "gamma"])
def test_deviance_is_twice_phi_loglik_difference(family):
    rng = np.random.default_rng(4)
    n, phi = 30, 0.7
    if family == "gaussian":
        y, mu = rng.normal(size=n), rng.normal(size=n)
        ll = lambda m: scipy.stats.norm.logpdf(y, m, np.sqrt(phi)).sum()  # noqa: E731
    elif family == "poisson":
        y, mu, phi = rng.poisson(2, n).astype(float), rng.uniform(0.5, 4, n), 1.0
        ll = lambda m: scipy.stats.poisson.logpmf(y, m).sum()  # noqa: E731
    elif family == "binomial":
        k, phi = rng.integers(1, 9, n), 1.0
        y, mu = rng.binomial(k, 0.4) / k, rng.uniform(0.1, 0.9, n)
        ll = lambda m: scipy.stats.binom.logpmf(np.round(y * k), k, m).sum()  # noqa: E731
    else:
        y, mu = rng.gamma(2, 1, n), rng.uniform(0.5, 3, n)
        ll = lambda m: scipy.stats.gamma.logpdf(y, 1 / phi, scale=m * phi).sum()  # noqa: E731
    w = k if family == "binomial" else None
    D = glm.deviance(y, mu, getattr(glm, family)(), weights=w)
    assert D == pytest.approx(2 * phi * (ll(y) - ll(mu)), rel=1e-10)
    fam = getattr(glm, family)()
    wl = np.ones(n) if w is None else w
    assert np.sum(fam.loglik(y, mu, phi, wl)) == pytest.approx(ll(mu), rel=1e-10)


@pytest.mark.parametrize("name", ["gaussian", "poisson", "binomial", "gamma"])
def test_family_mean_and_variance_from_b(name):
    fam = getattr(glm, name)()
    mu = np.array([0.2, 0.5, 0.7])
    theta = fam.theta(mu)
    h = 1e-5
    np.testing.assert_allclose(fam.b1(theta), mu, atol=1e-12)
    np.testing.assert_allclose((fam.b(theta + h) - fam.b(theta - h)) / (2 * h), mu, rtol=1e-8)
    np.testing.assert_allclose(fam.b2(theta), fam.variance(mu), rtol=1e-12)
    np.testing.assert_allclose(fam.link.g(mu), theta if name != "gamma" else -theta, rtol=1e-12)


@pytest.mark.parametrize("name", ["logit", "probit", "cloglog", "log", "identity", "inverse"])
def test_links_inverse_and_derivative(name):
    lk = getattr(glm, name + "_link")()
    mu = np.array([0.1, 0.35, 0.8])
    eta = lk.g(mu)
    np.testing.assert_allclose(lk.inverse(eta), mu, rtol=1e-12)
    h = 1e-6
    np.testing.assert_allclose(lk.mu_eta(eta), (lk.inverse(eta + h) - lk.inverse(eta - h)) / (2 * h),
                               rtol=1e-6)
    np.testing.assert_allclose(lk.g(mu), LINKS[name](mu), rtol=1e-12)


def test_reprs_have_no_addresses():
    assert repr(glm.poisson()) == "ExpFamily('poisson')" and repr(glm.logit_link()) == "Link('logit')"
    X, y, _ = _data("poisson", "log", 30, 0)
    assert "0x" not in repr(glm.glm_irls(X, y, glm.poisson()))


def test_batch_fit_equals_separate_fits():
    X, _, _ = _data("poisson", "log", 50, 1)
    rng = np.random.default_rng(5)
    Y = rng.poisson(np.exp(X @ np.array([0.5, 0.3, -0.2]))[:, None], size=(50, 4)).astype(float)
    batch = glm.glm_irls(X, Y, glm.poisson())
    for r in range(4):
        one = glm.glm_irls(X, Y[:, r], glm.poisson())
        np.testing.assert_allclose(batch.beta[:, r], one.beta, atol=1e-10)
        np.testing.assert_allclose(batch.deviance[r], one.deviance, atol=1e-10)


def test_offset_matches_statsmodels_and_sklearn_poisson():
    rng = np.random.default_rng(8)
    n = 200
    X = np.column_stack([np.ones(n), rng.standard_normal(n)])
    expo = rng.uniform(1, 5, n)
    y = rng.poisson(expo * np.exp(0.2 + 0.5 * X[:, 1])).astype(float)
    fit = glm.glm_irls(X, y, glm.poisson(), offset=np.log(expo), tol=1e-12)
    r = sm.GLM(y, X, family=sm.families.Poisson(), offset=np.log(expo)).fit(tol=1e-14)
    np.testing.assert_allclose(fit.beta, r.params, atol=1e-9)
    fit0 = glm.glm_irls(X, y, glm.poisson(), tol=1e-12)
    pr = PoissonRegressor(alpha=0, tol=1e-12, max_iter=1000).fit(X[:, 1:], y)
    np.testing.assert_allclose(fit0.beta, np.r_[pr.intercept_, pr.coef_], atol=1e-6)


def test_binary_logit_equals_chapter6_and_sklearn():
    X, y, _ = _data("binomial", "logit", 300, 9, grouped=False)
    fit = glm.glm_irls(X, y, glm.binomial())
    np.testing.assert_allclose(fit.beta, linear.logistic_regression(X, y.astype(int)).beta, atol=1e-9)
    lr = LogisticRegression(C=np.inf, tol=1e-12, max_iter=10000).fit(X[:, 1:], y)
    np.testing.assert_allclose(fit.beta, np.r_[lr.intercept_, lr.coef_[0]], atol=1e-5)


def test_lr_test_matches_statsmodels():
    X, y, _ = _data("poisson", "log", 120, 3)
    big, small = glm.glm_irls(X, y, glm.poisson()), glm.glm_irls(X[:, :1], y, glm.poisson())
    t = glm.lr_test(small, big)
    rb = sm.GLM(y, X, family=sm.families.Poisson()).fit()
    rs = sm.GLM(y, X[:, :1], family=sm.families.Poisson()).fit()
    assert t.statistic == pytest.approx(2 * (rb.llf - rs.llf), rel=1e-9)
    assert t.pvalue == pytest.approx(scipy.stats.chi2.sf(2 * (rb.llf - rs.llf), 2), rel=1e-8)
    Xg, yg, _ = _data("gaussian", "identity", 80, 4)
    t = glm.lr_test(glm.glm_irls(Xg[:, :2], yg, glm.gaussian()), glm.glm_irls(Xg, yg, glm.gaussian()))
    F, p, df = sm.OLS(yg, Xg).fit().compare_f_test(sm.OLS(yg, Xg[:, :2]).fit())
    assert (t.statistic, t.pvalue, t.df) == (pytest.approx(F, rel=1e-10), pytest.approx(p, rel=1e-8), (1, 77))
    with pytest.raises(ValueError, match="fit_small"):
        glm.lr_test(big, small)


def test_hosmer_lemeshow_by_explicit_table():
    rng = np.random.default_rng(11)
    n, g = 203, 10
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.random(n) < p).astype(int)
    t = glm.hosmer_lemeshow(y, p, g)
    order = np.argsort(p, kind="stable")
    x2 = 0.0
    for idx in np.array_split(order, g):          # the 2 × g table, one group at a time
        o = np.array([y[idx].sum(), len(idx) - y[idx].sum()])
        e = np.array([p[idx].sum(), len(idx) - p[idx].sum()])
        x2 += np.sum((o - e) ** 2 / e)
    assert t.statistic == pytest.approx(x2, rel=1e-12) and t.df == (8,)


@pytest.mark.parametrize("shape, seed", [((2, 2), 0), ((3, 4), 1), ((5, 3), 2)])
def test_loglinear_independence_matches_scipy(shape, seed):
    t = np.random.default_rng(seed).integers(3, 40, shape).astype(float)
    fit = glm.loglinear_independence(t)
    r = scipy.stats.chi2_contingency(t, correction=False, lambda_="log-likelihood")
    np.testing.assert_allclose(fit.fitted, np.outer(t.sum(1), t.sum(0)) / t.sum(), rtol=1e-10)
    assert fit.G2 == pytest.approx(r.statistic, rel=1e-9) and fit.df == r.dof
    assert fit.X2 == pytest.approx(scipy.stats.chi2_contingency(t, correction=False).statistic, rel=1e-9)


@pytest.mark.parametrize("n, seed", SIZES)
def test_softmax_matches_mnlogit_and_logistic(n, seed):
    rng = np.random.default_rng(seed)
    X = linear.add_intercept(rng.standard_normal((n, 2)))
    y = rng.integers(0, 3, n)
    X[y == 1, 1] += 1.0
    X[y == 2, 2] += 1.0
    fit = glm.softmax_regression(X, y)
    mn = sm.MNLogit(y, X).fit(disp=0, tol=1e-12, maxiter=200)
    P = np.exp(X @ fit.W.T)
    np.testing.assert_allclose(P / P.sum(1, keepdims=True), mn.predict(X), atol=1e-8)
    assert fit.loglik == pytest.approx(mn.llf, rel=1e-10)
    y2 = (y == 1).astype(int)
    np.testing.assert_allclose(glm.softmax_regression(X, 1 - y2).W[0],
                               linear.logistic_regression(X, y2).beta, atol=1e-8)
    ridge = glm.softmax_regression(X, y, lam=2.0)
    from mlnotes import information
    _, grad = information.softmax_log_likelihood(ridge.W, X, y)
    assert ridge.converged and np.max(np.abs((grad - 2.0 * ridge.W)[:-1])) < 1e-9


@pytest.mark.parametrize("degree, m", [(1, 4), (2, 6), (3, 9), (4, 5)])
def test_bspline_basis_and_penalty_match_scipy(degree, m):
    knots = np.sort(np.r_[0.0, np.random.default_rng(m).uniform(0, 1, m - 2), 1.0])
    x = np.linspace(0, 1, 57)
    t = np.r_[[0.0] * degree, knots, [1.0] * degree]
    q = m + degree - 1
    np.testing.assert_allclose(glm.bspline_basis(x, knots, degree),
                               scipy.interpolate.BSpline.design_matrix(x, t, degree).toarray(), atol=1e-12)
    if degree >= 2:
        u, wq = np.polynomial.legendre.leggauss(degree + 3)
        pts = ((knots[:-1, None] + knots[1:, None]) / 2 + np.diff(knots)[:, None] / 2 * u).ravel()
        wts = (np.diff(knots)[:, None] / 2 * wq).ravel()
        D = np.column_stack([scipy.interpolate.BSpline(t, np.eye(q)[i], degree).derivative(2)(pts)
                             for i in range(q)])
        S = glm.second_derivative_penalty(knots, degree)
        np.testing.assert_allclose(S, D.T @ (wts[:, None] * D), atol=1e-9 * np.abs(S).max())
        greville = np.array([t[i + 1:i + degree + 1].mean() for i in range(q)])
        assert abs(greville @ S @ greville) < 1e-8 * np.abs(S).max()


def test_statsmodels_cov_der2_is_the_exact_integral():
    x = np.random.default_rng(3).uniform(0, 2, 200)
    smoother = BSplines(x[:, None], df=[9], degree=[3]).smoothers[0]
    S = glm.second_derivative_penalty(np.unique(smoother.knots), 3)[1:, 1:]
    np.testing.assert_allclose(S, smoother.cov_der2, rtol=1e-9, atol=1e-9 * np.abs(S).max())


@pytest.mark.parametrize("a", [0.01, 1.0, 30.0])
def test_penalised_irls_is_glmgam_with_lam_twice_alpha(a):
    rng = np.random.default_rng(5)
    n = 150
    x = rng.uniform(0, 1, n)
    y = np.sin(2 * np.pi * x) + 0.3 * rng.standard_normal(n)
    bs = BSplines(x[:, None], df=[10], degree=[3])
    res = GLMGam(y, exog=np.ones((n, 1)), smoother=bs, alpha=[a]).fit()
    B = np.column_stack([np.ones(n), bs.basis])
    S = np.zeros((B.shape[1],) * 2)
    S[1:, 1:] = bs.smoothers[0].cov_der2
    fit = glm.penalised_irls(B, y, glm.gaussian(), S, 2 * a)
    np.testing.assert_allclose(fit.beta, res.params, atol=1e-8)
    assert fit.edf == pytest.approx(res.edf.sum(), rel=1e-8)
    assert fit.phi == pytest.approx(res.scale, rel=1e-8)
    gcv = glm.gcv_score(B, y, glm.gaussian(), S, 2 * a)
    assert gcv * n / (n - fit.edf) == pytest.approx(res.gcv, rel=1e-8)   # statsmodels' gcv


def test_penalised_limits():
    rng = np.random.default_rng(6)
    n = 80
    x = np.sort(rng.uniform(0, 1, n))
    y = rng.poisson(np.exp(1 + np.sin(3 * x))).astype(float)
    knots = np.linspace(0, 1, 7)
    B = glm.bspline_basis(x, knots)
    S = glm.second_derivative_penalty(knots)
    free = glm.glm_irls(B, y, glm.poisson(), tol=1e-12)
    np.testing.assert_allclose(glm.penalised_irls(B, y, glm.poisson(), S, 1e-11).beta, free.beta, atol=1e-6)
    line = glm.glm_irls(np.column_stack([np.ones(n), x]), y, glm.poisson(), tol=1e-12)
    # (with the normal equations (BᵀWB + lam S) beta = BᵀWz the steps stalled at ~1e-9 by
    # rounding and this fit never met tol = 1e-10; the QR form converges)
    stiff = glm.penalised_irls(B, y, glm.poisson(), S, 1e6)    # bias O(1/lam)
    assert stiff.converged
    with pytest.warns(RuntimeWarning, match="did not converge"):
        assert not glm.penalised_irls(B, y, glm.poisson(), S, 1e6, max_iter=2).converged
    np.testing.assert_allclose(np.log(stiff.mu), line.eta, atol=1e-5)


@pytest.mark.parametrize("call, match", [
    (lambda: glm.glm_irls(np.ones((5, 2)), np.ones(5), glm.poisson()), "full column rank"),
    (lambda: glm.glm_irls(np.eye(3), [0.5, 2.0, 0.1], glm.binomial()), "support"),
    (lambda: glm.glm_irls(np.eye(3), [1.0, 2.0, -1.0], glm.poisson()), "support"),
    (lambda: glm.glm_irls(np.eye(3), [1.0, 2.0], glm.poisson()), "shape"),
    (lambda: glm.glm_irls(np.eye(3), [1.0, 2.0, 3.0], "poisson"), "family"),
    (lambda: glm.glm_irls(np.eye(3), [1.0, 2.0, 3.0], glm.poisson(), link="log"), "link"),
    (lambda: glm.glm_irls(np.eye(3), [1.0, 2.0, 3.0], glm.poisson(), weights=[1, 0, 1]), "weights"),
    (lambda: glm.hosmer_lemeshow([0, 1, 1], [0.2, 0.5, 1.0], 3), "open interval"),
    (lambda: glm.hosmer_lemeshow([0, 1, 1], [0.2, 0.5, 0.6], 4), "at most"),
    (lambda: glm.loglinear_independence([[1, 2], [0, 0]]), "margins"),
    (lambda: glm.softmax_regression(np.eye(3), [0, 2, 2]), "all present"),
    (lambda: glm.bspline_basis([0.5, 2.0], [0, 1]), "range"),
    (lambda: glm.bspline_basis([0.5], [0, 0.5, 0.4]), "increasing"),
    (lambda: glm.bspline_basis([0.5], [0, 1], degree=2, deriv=3), "deriv"),
    (lambda: glm.second_derivative_penalty([0, 1], degree=1), "degree"),
    (lambda: glm.penalised_irls(np.ones((4, 2)), np.ones(4), glm.gaussian(), np.zeros((2, 2)), 1.0), "invertible"),
    (lambda: glm.penalised_irls(np.eye(2), np.ones(2), glm.gaussian(), np.eye(3), 1.0), "shape"),
    (lambda: glm.deviance([1.0, 2.0], [1.0], glm.poisson()), "mu"),
])
def test_bad_inputs(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("family, link", [("poisson", "log"), ("binomial", "logit"), ("gamma", "inverse"),
                                          ("gamma", "log"), ("gaussian", "log"), ("gaussian", "identity")])
def test_llf_is_the_log_likelihood_at_the_documented_dispersion(family, link):
    # GLMFit.llf is the log-likelihood (scipy.stats densities) at phi = 1 (binomial, Poisson),
    # at phi = X²/(n - p) (gamma, Gaussian with a non-identity link), and at the ML D/n for the
    # Gaussian family with the identity link, as statsmodels' GLMResults.llf.
    X, y, w = _data(family, link, 120, 3)
    fit = glm.glm_irls(X, y, getattr(glm, family)(), getattr(glm, link + "_link")(), weights=w, tol=1e-12,
                       max_iter=500)
    mu, n, p = fit.mu, len(y), X.shape[1]
    x2phi = fit.pearson_chi2 / (n - p)
    if family == "poisson":
        ref = scipy.stats.poisson.logpmf(y, mu).sum()
    elif family == "binomial":
        ref = scipy.stats.binom.logpmf(np.round(y * w), w.astype(int), mu).sum()
    elif family == "gamma":
        ref = scipy.stats.gamma.logpdf(y, a=1 / x2phi, scale=mu * x2phi).sum()
    else:
        s2 = fit.deviance / n if link == "identity" else x2phi
        ref = scipy.stats.norm.logpdf(y, mu, np.sqrt(s2)).sum()
    assert fit.phi == pytest.approx(1.0 if family in ("poisson", "binomial") else x2phi, rel=1e-12)
    assert fit.llf == pytest.approx(ref, rel=1e-10)
    # statsmodels: .llf with the default scale is the same number; with scale="X2" it is too for
    # the gamma and Gaussian families and the binomial (whose log-likelihood has no scale), but for
    # the Poisson family it is llf / (X²/(n - p)), a quasi-likelihood that GLMFit does not report.
    fam = {"gaussian": sm.families.Gaussian, "poisson": sm.families.Poisson,
           "gamma": sm.families.Gamma, "binomial": sm.families.Binomial}[family](LINKS[link])
    endog = y if w is None else np.column_stack([y * w, w - y * w])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = sm.GLM(endog, X, family=fam).fit(tol=1e-14, maxiter=500)
        r2 = sm.GLM(endog, X, family=fam).fit(tol=1e-14, maxiter=500, scale="X2")
    assert fit.llf == pytest.approx(r.llf, rel=1e-8)
    expected_x2 = fit.llf / x2phi if family == "poisson" else fit.llf
    assert r2.llf == pytest.approx(expected_x2, rel=1e-8)


def test_conf_int_matches_statsmodels_and_needs_one_response():
    X, y, _ = _data("poisson", "log", 200, 4)
    fit = glm.glm_irls(X, y, glm.poisson(), tol=1e-12)
    r = sm.GLM(y, X, family=sm.families.Poisson()).fit(tol=1e-14)
    for alpha in (0.01, 0.05, 0.3):
        np.testing.assert_allclose(fit.conf_int(alpha), r.conf_int(alpha), atol=1e-7)
    both = glm.glm_irls(X, np.column_stack([y, y]), glm.poisson())
    with pytest.raises(ValueError, match="single response"):
        both.conf_int(0.05)


def test_no_finite_mle_is_an_error_not_a_linalg_error():
    # complete separation: the binomial MLE is at infinity; numpy's LinAlgError used to escape
    X = np.column_stack([np.ones(6), np.arange(6.0)])
    with pytest.raises(ValueError, match="y has no finite maximum-likelihood fit"):
        glm.glm_irls(X, np.array([0, 0, 0, 1, 1, 1.0]), glm.binomial())
    with pytest.raises(ValueError, match="lam = 0"):      # softmax: converged to a huge W before
        glm.softmax_regression(X, np.array([0, 0, 0, 1, 1, 1]), 0.0, max_iter=30)
    ok = glm.softmax_regression(X, np.array([0, 0, 0, 1, 1, 1]), 0.1, max_iter=30)
    assert ok.converged


@pytest.mark.parametrize("offset", [1e3, 1e5])
def test_irls_with_a_covariate_far_from_the_origin(offset):
    # the IRLS steps solve the weighted least-squares problem by QR; the normal equations
    # XᵀWX beta = XᵀWz squared the condition number, never met tol = 1e-12 and were off by 2e-6
    rng = np.random.default_rng(0)
    n = 200
    x = offset + rng.standard_normal(n)
    X = np.column_stack([np.ones(n), x])
    y = rng.poisson(np.exp(0.5 + 0.3 * (x - offset))).astype(float)
    r = sm.GLM(y, X, family=sm.families.Poisson()).fit(tol=1e-14, maxiter=500)
    fit = glm.glm_irls(X, y, glm.poisson(), tol=1e-12, max_iter=500)
    assert fit.converged
    np.testing.assert_allclose(fit.beta, r.params, rtol=1e-9)
    np.testing.assert_allclose(np.sqrt(np.diag(fit.cov)), r.bse, rtol=1e-9)
