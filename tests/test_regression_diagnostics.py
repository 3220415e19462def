"""Tests of mlnotes.regression_diagnostics against statsmodels, scipy and scikit-learn, plus
the chapter's identities."""
import itertools
import warnings

import numpy as np
import pytest
import scipy.integrate
import scipy.spatial.distance
import scipy.stats
import statsmodels.api as sm
from sklearn.feature_selection import SequentialFeatureSelector
from sklearn.linear_model import LinearRegression, QuantileRegressor
from statsmodels.stats.outliers_influence import variance_inflation_factor

from mlnotes import linear, model_selection
from mlnotes import regression_diagnostics as rd

SIZES = [(12, 2, 0), (40, 4, 1), (300, 6, 2)]       # (n, p, seed); p counts the intercept


def _data(n, p, seed, heavy=True):
    """A design with an intercept and correlated covariates, and t₃ (or normal) noise."""
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((n, p - 1))
    if p > 2:
        Z[:, 1] += 0.8 * Z[:, 0]
    X = np.column_stack([np.ones(n), Z])
    noise = rng.standard_t(3, n) if heavy else rng.standard_normal(n)
    return X, X @ rng.uniform(-2, 2, p) + noise


def _contaminated(n, seed):
    X, y = _data(n, 3, seed, heavy=False)
    y = y.copy()
    y[: n // 10] += 15.0                              # 10 % vertical outliers
    return X, y


# ------------------------------------------------------------------ diagnostics
@pytest.mark.parametrize("n, p, seed", SIZES)
def test_influence_measures_match_statsmodels(n, p, seed):
    # statsmodels computes the same closed forms from a pinv-based fit: rounding only.
    X, y = _data(n, p, seed)
    infl = sm.OLS(y, X).fit().get_influence()
    np.testing.assert_allclose(rd.leverage(X), infl.hat_matrix_diag, atol=1e-12)
    np.testing.assert_allclose(rd.studentized_residuals(X, y), infl.resid_studentized_internal, atol=1e-12)
    np.testing.assert_allclose(rd.studentized_residuals(X, y, kind="external"),
                               infl.resid_studentized_external, atol=1e-12)
    np.testing.assert_allclose(rd.cooks_distance(X, y), infl.cooks_distance[0], atol=1e-12)


@pytest.mark.parametrize("n, p, seed", SIZES)
def test_leverage_identities(n, p, seed):
    X, _ = _data(n, p, seed)
    h = rd.leverage(X)
    np.testing.assert_allclose(h, np.diag(linear.hat_matrix(X)), atol=1e-12)
    assert h.sum() == pytest.approx(p, abs=1e-10)
    assert np.all(h >= 1 / n - 1e-12) and np.all(h <= 1 + 1e-12)
    md = rd.mahalanobis_leverage_identity(X)
    np.testing.assert_allclose(md.md2, md.rhs, atol=1e-10 * n)
    Z = X[:, 1:]                                       # MD² by scipy's Mahalanobis distance
    VI = np.linalg.inv(np.cov(Z, rowvar=False).reshape(p - 1, p - 1))
    ref = [scipy.spatial.distance.mahalanobis(z, Z.mean(axis=0), VI) ** 2 for z in Z]
    np.testing.assert_allclose(md.md2, ref, rtol=1e-10)


@pytest.mark.parametrize("n, p, seed", SIZES)
def test_cooks_distance_by_refitting(n, p, seed):
    X, y = _data(n, p, seed)
    beta = linear.least_squares(X, y)
    s2 = np.sum((y - X @ beta) ** 2) / (n - p)
    D = []
    for i in range(n):
        keep = np.arange(n) != i
        d = beta - linear.least_squares(X[keep], y[keep])
        D.append(d @ X.T @ X @ d / (p * s2))
    np.testing.assert_allclose(rd.cooks_distance(X, y), D, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("n, p, seed", SIZES)
def test_external_residual_is_the_deleted_residual(n, p, seed):
    X, y = _data(n, p, seed)
    t = rd.studentized_residuals(X, y, kind="external")
    i = int(np.argmax(np.abs(t)))
    keep = np.arange(n) != i
    b = linear.least_squares(X[keep], y[keep])
    s2 = np.sum((y[keep] - X[keep] @ b) ** 2) / (n - 1 - p)
    pred_var = s2 * (1 + X[i] @ np.linalg.solve(X[keep].T @ X[keep], X[i]))
    assert t[i] == pytest.approx((y[i] - X[i] @ b) / np.sqrt(pred_var), rel=1e-10)


@pytest.mark.parametrize("n, p, seed", [(40, 3, 1), (300, 6, 2)])
def test_vif_matches_statsmodels_and_inverse_correlation(n, p, seed):
    X, _ = _data(n, p, seed)
    v = rd.vif(X)
    np.testing.assert_allclose(v, [variance_inflation_factor(X, j) for j in range(1, p)], rtol=1e-10)
    np.testing.assert_allclose(v, np.diag(np.linalg.inv(np.corrcoef(X[:, 1:], rowvar=False))), rtol=1e-10)
    assert np.all(v >= 1 - 1e-12)


def test_diagnostics_reject_bad_designs():
    X, y = _data(20, 3, 0)
    with pytest.raises(ValueError, match="column of ones"):
        rd.vif(X[:, 1:])
    with pytest.raises(ValueError, match="rank"):
        rd.leverage(np.column_stack([X, X[:, 1]]))
    with pytest.raises(ValueError, match="more rows"):
        rd.leverage(X[:3])
    Xd = np.column_stack([X, np.eye(20)[:, 0]])
    with pytest.raises(ValueError, match="leverage"):
        rd.studentized_residuals(Xd, y)
    with pytest.raises(ValueError, match="exactly"):
        rd.cooks_distance(X, X @ np.ones(3))
    with pytest.raises(ValueError, match="kind"):
        rd.studentized_residuals(X, y, kind="deleted")


# ------------------------------------------------------------------ M-estimators
@pytest.mark.parametrize("n, p, seed", SIZES[1:])
@pytest.mark.parametrize("which", ["huber", "bisquare"])
def test_irls_matches_statsmodels_rlm(n, p, seed, which):
    # Same iteration (OLS start, MAD about 0 re-estimated each step) run to tol 1e-12.
    X, y = _contaminated(n, seed) if p == 3 else _data(n, p, seed)
    weights, c, norm = {"huber": (rd.huber_weights, 1.345, sm.robust.norms.HuberT(t=1.345)),
                        "bisquare": (rd.bisquare_weights, 4.685, sm.robust.norms.TukeyBiweight(c=4.685))}[which]
    fit = rd.irls_m_estimator(X, y, weights, c)
    ref = sm.RLM(y, X, M=norm).fit(scale_est="mad", tol=1e-12, maxiter=500)
    assert fit.converged
    np.testing.assert_allclose(fit.beta, ref.params, atol=1e-6)
    assert fit.scale == pytest.approx(ref.scale, rel=1e-6)
    np.testing.assert_allclose(fit.weights, norm.weights(ref.resid / ref.scale), atol=1e-6)


def test_irls_is_a_fixed_point_of_the_estimating_equations():
    X, y = _contaminated(200, 3)
    for w, c in [(rd.huber_weights, 1.345), (rd.bisquare_weights, 4.685)]:
        fit = rd.irls_m_estimator(X, y, w, c)
        u = (y - X @ fit.beta) / fit.scale
        np.testing.assert_allclose(X.T @ (w(u, c) * u), 0, atol=1e-8)


def test_weights_and_psi():
    u = np.linspace(-8, 8, 161)
    np.testing.assert_allclose(u * rd.huber_weights(u, 1.345), np.clip(u, -1.345, 1.345), atol=1e-14)
    np.testing.assert_allclose(rd.huber_weights(u), sm.robust.norms.HuberT(t=1.345).weights(u), atol=1e-14)
    np.testing.assert_allclose(rd.bisquare_weights(u), sm.robust.norms.TukeyBiweight(c=4.685).weights(u),
                               atol=1e-14)
    assert rd.huber_weights(0.0) == 1.0 and rd.bisquare_weights(5.0) == 0.0


def test_efficiency_at_normal():
    huber = lambda c: (lambda u: np.clip(u, -c, c), lambda u: (np.abs(u) <= c).astype(float))  # noqa: E731
    bis = lambda c: (lambda u: u * rd.bisquare_weights(u, c),                                # noqa: E731
                     lambda u: np.where(np.abs(u) <= c, (1 - (u / c) ** 2) * (1 - 5 * (u / c) ** 2), 0.0))
    for c in [0.5, 1.345, 3.0]:                         # Huber: closed form
        a = 2 * scipy.stats.norm.cdf(c) - 1
        b = a - 2 * c * scipy.stats.norm.pdf(c) + 2 * c**2 * scipy.stats.norm.sf(c)
        # ψ' jumps at ±c: Simpson's rule is then only O(h), h = 1.2e-4 on the default grid,
        # an error of at most about 2·h·φ(c)/a in the efficiency.
        assert rd.efficiency_at_normal(*huber(c)) == pytest.approx(a**2 / b, abs=3e-4)
        assert rd.efficiency_at_normal(*huber(c), n_grid=2_000_001) == pytest.approx(a**2 / b, abs=3e-5)
    for c in [3.0, 4.685]:                              # bisquare: adaptive quadrature
        psi, dpsi = bis(c)
        e1 = scipy.integrate.quad(lambda t: dpsi(t) * scipy.stats.norm.pdf(t), -c, c)[0]
        e2 = scipy.integrate.quad(lambda t: psi(t) ** 2 * scipy.stats.norm.pdf(t), -c, c)[0]
        assert rd.efficiency_at_normal(psi, dpsi) == pytest.approx(e1**2 / e2, abs=1e-7)
    assert round(rd.efficiency_at_normal(*bis(4.685)), 3) == 0.950
    assert round(rd.efficiency_at_normal(*bis(4.658)), 3) == 0.949
    assert rd.efficiency_at_normal(lambda u: u, np.ones_like) == pytest.approx(1.0, abs=1e-9)
    with pytest.raises(ValueError, match="n_grid"):
        rd.efficiency_at_normal(lambda u: u, np.ones_like, n_grid=1000)


# ------------------------------------------------------------------ LAD
@pytest.mark.parametrize("n, p, seed", SIZES)
def test_lad_matches_quantile_regressor(n, p, seed):
    X, y = _data(n, p, seed)
    beta = rd.lad_regression(X, y)
    ref = QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs", fit_intercept=False).fit(X, y).coef_
    # The LAD minimiser need not be unique; the optimal values must agree.
    assert np.abs(y - X @ beta).sum() == pytest.approx(np.abs(y - X @ ref).sum(), rel=1e-9)
    assert np.sum(np.abs(y - X @ beta) < 1e-9) >= p          # a vertex interpolates p points


def test_lad_of_the_intercept_is_the_median():
    y = np.random.default_rng(5).standard_normal(31)
    assert rd.lad_regression(np.ones((31, 1)), y)[0] == pytest.approx(np.median(y), abs=1e-12)


# ------------------------------------------------------------------ selection
def test_criteria_match_statsmodels_up_to_a_constant():
    for n, p, seed in SIZES:
        X, y = _data(n, p, seed)
        fit = sm.OLS(y, X).fit()
        const = n * (1 + np.log(2 * np.pi))
        assert fit.aic == pytest.approx(rd.aic_gaussian(fit.ssr, n, p) + const, rel=1e-12)
        assert fit.bic == pytest.approx(rd.bic_gaussian(fit.ssr, n, p) + const, rel=1e-12)
        assert rd.mallows_cp(fit.ssr, n, p, fit.ssr / (n - p)) == pytest.approx(p, abs=1e-10)
    v = rd.aic_gaussian(np.array([1.0, 2.0]), 10, np.array([1, 2]))
    assert v.shape == (2,)
    with pytest.raises(ValueError, match="p must be at most"):
        rd.aic_gaussian(1.0, 3, 4)


@pytest.mark.parametrize("criterion", ["aic", "bic", "cp", "adjr2"])
@pytest.mark.parametrize("n, p, seed", SIZES[1:])
def test_best_subset_matches_exhaustive_statsmodels(criterion, n, p, seed):
    X, y = _data(n, p, seed)
    full = sm.OLS(y, X).fit()
    scores = {}
    for k in range(p):
        for s in itertools.combinations(range(1, p), k):
            f = sm.OLS(y, X[:, [0, *s]]).fit()
            scores[s] = {"aic": f.aic, "bic": f.bic, "adjr2": -f.rsquared_adj,
                         "cp": f.ssr / full.scale - n + 2 * (k + 1)}[criterion]
    res = rd.best_subset(X, y, criterion)
    assert res.selected == min(scores, key=scores.get)
    assert len(res.subsets) == 2 ** (p - 1)


def test_adjusted_r2_maximal_where_sigma2_minimal():
    X, y = _data(60, 5, 7)
    res = rd.best_subset(X, y, "adjr2")
    s2 = res.rss / (60 - res.n_params)
    assert res.subsets[int(np.argmin(s2))] == res.selected


@pytest.mark.parametrize("n, p, seed", SIZES[1:])
def test_backward_elimination_drops_the_smallest_rss_increase(n, p, seed):
    # The least significant variable is the one whose removal raises the RSS least, so the
    # path is that of SequentialFeatureSelector(direction="backward") scored in-sample.
    X, y = _data(n, p, seed)
    path = rd.backward_elimination(X, y, alpha=0.05)
    idx = np.arange(n)
    for k in range(1, p - 1):
        sfs = SequentialFeatureSelector(LinearRegression(), n_features_to_select=k, direction="backward",
                                        scoring="neg_mean_squared_error", cv=[(idx, idx)]).fit(X[:, 1:], y)
        kept = set(range(1, p)) - set(path.removed[: p - 1 - k])
        assert set(np.flatnonzero(sfs.get_support()) + 1) == kept
    pv = sm.OLS(y, X[:, [0, *path.selected]]).fit().pvalues[1:] if path.selected else np.array([])
    assert np.all(pv <= 0.05)


def test_backward_and_best_subset_can_disagree():
    rng = np.random.default_rng(3)
    n = 30
    x1, x2 = rng.standard_normal((2, n))
    x3 = x1 + x2 + 0.3 * rng.standard_normal(n)
    y = x1 + x2 + rng.standard_normal(n)
    X = np.column_stack([np.ones(n), x1, x2, x3])
    assert rd.backward_elimination(X, y, 0.05).selected == (1, 2)
    assert rd.best_subset(X, y, "aic").selected == (3,)
    idx = np.arange(n)
    forward = model_selection.forward_selection(X[:, 1:], y, 1, [(idx, idx)])
    assert forward.selected == [2]                       # x3 first, unlike backward's x1 or x2


def test_selection_rejects_bad_input():
    X, y = _data(30, 3, 0)
    with pytest.raises(ValueError, match="criterion"):
        rd.best_subset(X, y, "cv")
    with pytest.raises(ValueError, match="alpha"):
        rd.backward_elimination(X, y, alpha=1.0)
    with pytest.raises(ValueError, match="exactly"):
        rd.best_subset(X, X @ np.ones(3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rd.best_subset(X, y, "bic")


def test_backward_elimination_pvalues_with_a_covariate_far_from_the_origin():
    # the t-test p-values come from the QR factor, not from inv(XᵀX): with a covariate at 1e5
    # they still equal statsmodels' (which uses a pseudo-inverse of X)
    rng = np.random.default_rng(3)
    n = 60
    Z = np.column_stack([rng.standard_normal(n), 1e5 + rng.standard_normal(n), rng.standard_normal(n)])
    X = np.column_stack([np.ones(n), Z])
    y = 1 + Z[:, 0] + 0.3 * (Z[:, 1] - 1e5) + rng.standard_normal(n)
    path = rd.backward_elimination(X, y, alpha=0.05)
    first = sm.OLS(y, X).fit().pvalues[1:]
    assert path.removed[0] == 1 + int(np.argmax(first))
    assert path.pvalues[0] == pytest.approx(first.max(), rel=1e-10)    # inv(XᵀX) gave 1.2e-8


def test_irls_warns_when_it_stops_at_max_iter_and_rejects_negative_weights():
    rng = np.random.default_rng(4)
    X = np.column_stack([np.ones(30), rng.uniform(0, 10, 30)])
    y = X @ np.array([1.0, 2.0]) + rng.standard_t(2, 30)
    with pytest.warns(RuntimeWarning, match="did not converge"):
        assert not rd.irls_m_estimator(X, y, rd.bisquare_weights, 4.685, max_iter=1).converged
    with pytest.raises(ValueError, match="non-negative"):
        rd.irls_m_estimator(X, y, lambda u, c: -np.ones_like(u), 1.0)
