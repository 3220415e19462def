"""Tests of mlnotes.lm_inference against statsmodels and scipy, the identities of chapter 27,
and the function-specific bad inputs.

Tolerances: the implementation solves by QR, statsmodels uses a pseudo-inverse (SVD); on
these well-conditioned designs (condition number < 20) both are accurate to ~1e-13
relative, so 1e-9 leaves a wide margin and still catches any formula error (a wrong degree
of freedom changes the results in the second or third digit). The tests with a covariate
near 1e5 (condition number ~1e7) check that the fits never go through the normal equations,
which square the condition number and lose ~6 digits there.
"""
import numpy as np
import pytest
import scipy.stats
import statsmodels.api as sm

from mlnotes import lm_inference as lm
from mlnotes.linear import hat_matrix

SIZES = [(12, 2), (30, 3), (200, 5)]


def _data(n, p, seed, hetero=False):
    rng = np.random.default_rng(seed)
    X = np.column_stack([np.ones(n), rng.standard_normal((n, p - 1))])
    sd = np.exp(X[:, 1]) if hetero else np.ones(n)
    y = X @ np.linspace(1, -1, p) + sd * rng.standard_normal(n)
    return X, y, sd


@pytest.mark.parametrize("n, p", SIZES)
def test_ols_fit_matches_statsmodels(n, p):
    X, y, _ = _data(n, p, n)
    fit, ref = lm.ols_fit(X, y), sm.OLS(y, X).fit()
    for mine, theirs in [(fit.beta, ref.params), (fit.se, ref.bse), (fit.t, ref.tvalues),
                         (fit.p, ref.pvalues), (fit.cov, ref.cov_params()),
                         (fit.fitted, ref.fittedvalues)]:
        np.testing.assert_allclose(mine, theirs, rtol=1e-9, atol=1e-12)
    assert fit.df == ref.df_resid
    assert fit.s2 == pytest.approx(ref.scale, rel=1e-9)
    np.testing.assert_allclose(lm.ci_beta(fit, 0.1), ref.conf_int(0.1), rtol=1e-9)
    assert lm.r_squared(fit, y) == pytest.approx(ref.rsquared, rel=1e-9)
    assert repr(fit) == f"OLSFit(n={n}, p={p}, df={n - p}, s2={fit.s2:.4g})"


def test_simple_regression_matches_linregress():
    X, y, _ = _data(25, 2, 3)
    fit, ref = lm.ols_fit(X, y), scipy.stats.linregress(X[:, 1], y)
    np.testing.assert_allclose(fit.beta, [ref.intercept, ref.slope], rtol=1e-10)
    np.testing.assert_allclose(fit.se, [ref.intercept_stderr, ref.stderr], rtol=1e-9)
    assert lm.r_squared(fit, y) == pytest.approx(ref.rvalue**2, rel=1e-10)


@pytest.mark.parametrize("n, p", SIZES)
def test_intervals_match_get_prediction(n, p):
    X, y, _ = _data(n, p, n + 1)
    fit, ref = lm.ols_fit(X, y), sm.OLS(y, X).fit()
    x0 = np.column_stack([np.ones(4), np.random.default_rng(0).standard_normal((4, p - 1))])
    frame = ref.get_prediction(x0).summary_frame(alpha=0.1)
    band, pred = lm.confidence_band(fit, x0, 0.1), lm.prediction_interval(fit, x0, 0.1)
    np.testing.assert_allclose(band.low, frame["mean_ci_lower"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(band.high, frame["mean_ci_upper"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(pred.low, frame["obs_ci_lower"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(pred.high, frame["obs_ci_upper"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(band.se, frame["mean_se"], rtol=1e-9)
    c = np.linspace(0.5, -0.5, p)
    comb, tt = lm.ci_linear_combination(fit, c, 0.1), ref.t_test(c)
    assert comb.estimate == pytest.approx(float(tt.effect[0]), rel=1e-9)
    assert comb.se == pytest.approx(float(tt.sd[0, 0]), rel=1e-9)
    np.testing.assert_allclose([comb.low, comb.high], tt.conf_int(alpha=0.1)[0], rtol=1e-9)
    # one row as a vector gives floats equal to the row entries of the batch
    single = lm.prediction_interval(fit, x0[0], 0.1)
    assert isinstance(single.low, float) and single.low == pytest.approx(pred.low[0])


def test_simultaneous_band_is_wider_by_the_scheffe_factor():
    X, y, _ = _data(20, 2, 5)
    fit = lm.ols_fit(X, y)
    point, simul = lm.confidence_band(fit, X, 0.05), lm.confidence_band(fit, X, 0.05, True)
    ratio = np.sqrt(2 * scipy.stats.f.ppf(0.95, 2, 18)) / scipy.stats.t.ppf(0.975, 18)
    np.testing.assert_allclose((simul.high - simul.low) / (point.high - point.low), ratio, rtol=1e-12)


@pytest.mark.parametrize("n, p", SIZES)
def test_f_tests_match_statsmodels(n, p):
    X, y, _ = _data(n, p, n + 2)
    ref, small = sm.OLS(y, X).fit(), sm.OLS(y, X[:, :1]).fit()
    F, pval, df = ref.compare_f_test(small)
    nested = lm.f_test_nested(X[:, :1], X, y)
    assert nested.statistic == pytest.approx(F, rel=1e-9)
    assert nested.pvalue == pytest.approx(pval, rel=1e-8, abs=1e-300)
    assert (nested.df_num, nested.df_den) == (df, n - p)
    R = np.eye(p)[1:]
    glh, reff = lm.general_linear_hypothesis(lm.ols_fit(X, y), R), ref.f_test(R)
    assert glh.statistic == pytest.approx(float(reff.fvalue), rel=1e-9)
    assert glh.pvalue == pytest.approx(float(reff.pvalue), rel=1e-8, abs=1e-300)
    table = lm.anova_regression_table(X, y)
    assert table.statistic == pytest.approx(ref.fvalue, rel=1e-9)
    assert table.ss_reg == pytest.approx(ref.ess, rel=1e-9)
    assert table.ss_res == pytest.approx(ref.ssr, rel=1e-9)
    assert table.ss_tot == pytest.approx(ref.centered_tss, rel=1e-9)
    assert table.ss_reg + table.ss_res == pytest.approx(table.ss_tot, rel=1e-12)
    assert (table.df_reg, table.df_res, table.df_tot) == (p - 1, n - p, n - 1)


def test_one_restriction_f_is_t_squared():
    X, y, _ = _data(30, 3, 8)
    fit = lm.ols_fit(X, y)
    F = lm.general_linear_hypothesis(fit, np.array([0.0, 0.0, 1.0]), np.array([0.3]))
    assert F.statistic == pytest.approx(((fit.beta[2] - 0.3) / fit.se[2]) ** 2, rel=1e-10)
    nested = lm.f_test_nested(X[:, :2], X, y)
    assert nested.statistic == pytest.approx(fit.t[2] ** 2, rel=1e-10)
    # a reparametrised small model (a column space inside col X) is accepted
    Z = X[:, :2] @ np.array([[2.0, 1.0], [0.0, 3.0]])
    assert lm.f_test_nested(Z, X, y).statistic == pytest.approx(nested.statistic, rel=1e-9)


@pytest.mark.parametrize("n, p", SIZES)
def test_wls_matches_statsmodels(n, p):
    X, y, sd = _data(n, p, n + 3, hetero=True)
    w = 1 / sd**2
    fit, ref = lm.wls(X, y, w), sm.WLS(y, X, weights=w).fit()
    np.testing.assert_allclose(fit.beta, ref.params, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fit.se, ref.bse, rtol=1e-9)
    assert fit.s2 == pytest.approx(ref.scale, rel=1e-9)
    # WLS is OLS on the rows scaled by sqrt(w); weights are scale-invariant
    scaled = lm.ols_fit(np.sqrt(w)[:, None] * X, np.sqrt(w) * y)
    np.testing.assert_allclose(fit.beta, scaled.beta, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(lm.wls(X, y, 7 * w).beta, fit.beta, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(lm.wls(X, y, np.ones(n)).se, lm.ols_fit(X, y).se, rtol=1e-9)


def test_hat_matrix_identities():
    X, y, _ = _data(30, 3, 9)
    H = lm.hat_matrix(X)
    np.testing.assert_allclose(H, hat_matrix(X), atol=1e-14)
    np.testing.assert_allclose(H @ H, H, atol=1e-12)
    assert np.trace(H) == pytest.approx(3)
    e = y - lm.ols_fit(X, y).fitted
    assert abs(e @ (H @ y)) < 1e-10


def test_pairs_bootstrap_matches_a_loop_and_the_formula():
    X, y, _ = _data(40, 2, 10)
    se = lm.pairs_bootstrap_se(X, y, 300, np.random.default_rng(4))
    idx = np.random.default_rng(4).integers(0, 40, size=(300, 40))
    loop = np.array([np.linalg.lstsq(X[i], y[i], rcond=None)[0] for i in idx])
    np.testing.assert_allclose(se, loop.std(axis=0, ddof=1), rtol=1e-9)
    # homoscedastic normal errors: the bootstrap SE is close to the formula (within 25 %)
    big = lm.pairs_bootstrap_se(X, y, 2000, np.random.default_rng(5))
    np.testing.assert_allclose(big, lm.ols_fit(X, y).se, rtol=0.25)


def test_f_test_has_size_alpha_under_h0():
    rng = np.random.default_rng(11)
    n, reps = 15, 2000
    X = np.column_stack([np.ones(n), rng.standard_normal((n, 2))])
    pvals = np.array([lm.f_test_nested(X[:, :1], X, 1.0 + rng.standard_normal(n)).pvalue
                      for _ in range(reps)])
    assert abs(np.mean(pvals < 0.05) - 0.05) < 4 * np.sqrt(0.05 * 0.95 / reps)


def test_bad_inputs():
    X, y, _ = _data(10, 3, 12)
    fit = lm.ols_fit(X, y)
    with pytest.raises(ValueError, match="X must have full column rank"):
        lm.ols_fit(np.column_stack([X, X[:, 1]]), y)
    with pytest.raises(ValueError, match="more rows than columns"):
        lm.ols_fit(X[:3], y[:3])
    with pytest.raises(ValueError, match="y must have shape"):
        lm.ols_fit(X, y[:-1])
    with pytest.raises(ValueError, match="w must contain only positive"):
        lm.wls(X, y, np.r_[0.0, np.ones(9)])
    with pytest.raises(ValueError, match="alpha"):
        lm.ci_beta(fit, 1.0)
    with pytest.raises(ValueError, match="c must have shape"):
        lm.ci_linear_combination(fit, np.ones(2))
    with pytest.raises(ValueError, match="x0 must have 3 columns"):
        lm.confidence_band(fit, np.ones((2, 2)))
    with pytest.raises(ValueError, match="not nested"):
        lm.f_test_nested(np.column_stack([np.ones(10), np.arange(10.0) ** 3]), X, y)
    with pytest.raises(ValueError, match="X_small must have 10 rows and fewer than 3"):
        lm.f_test_nested(X, X, y)
    with pytest.raises(ValueError, match="R must have full row rank"):
        lm.general_linear_hypothesis(fit, np.array([[0, 1.0, 0], [0, 2.0, 0]]))
    with pytest.raises(ValueError, match="r must have shape"):
        lm.general_linear_hypothesis(fit, np.eye(3)[1:], np.zeros(3))
    with pytest.raises(ValueError, match="y must not be constant"):
        lm.r_squared(fit, np.ones(10))
    with pytest.raises(ValueError, match="intercept"):
        lm.anova_regression_table(X[:, 1:], y)
    with pytest.raises(ValueError, match="fit must be an OLSFit"):
        lm.ci_beta(sm.OLS(y, X).fit())
    with pytest.raises(ValueError, match="B must"):
        lm.pairs_bootstrap_se(X, y, 1, np.random.default_rng(0))


def test_pairs_bootstrap_handles_rank_deficient_resamples():
    # a dummy column with a single 1: about a third of the resamples miss that row and
    # have a rank-deficient design; they get the minimum-norm solution, as lstsq gives
    rng = np.random.default_rng(13)
    X = np.column_stack([np.ones(6), np.r_[1.0, np.zeros(5)], rng.standard_normal(6)])
    y = rng.standard_normal(6)
    se = lm.pairs_bootstrap_se(X, y, 400, np.random.default_rng(3))
    idx = np.random.default_rng(3).integers(0, 6, size=(400, 6))
    assert np.mean([np.linalg.matrix_rank(X[i]) < 3 for i in idx]) > 0.2
    loop = np.array([np.linalg.lstsq(X[i], y[i], rcond=None)[0] for i in idx])
    np.testing.assert_allclose(se, loop.std(axis=0, ddof=1), rtol=1e-7)


def _far_design(n=60, seed=21, offset=1e5):
    """A design whose second column sits at ``offset`` (condition number ~ offset² / n)."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([np.ones(n), offset + rng.standard_normal(n), rng.standard_normal(n)])
    y = X @ np.array([1.0, 2.0, -1.0]) + rng.standard_normal(n)
    return X, y, rng.uniform(0.5, 2.0, n)


def test_ols_and_wls_with_a_covariate_at_1e5_match_statsmodels():
    # regression: the normal equations lost ~6 digits of the slopes and ~5 % of the
    # standard errors here; QR keeps them to ~1e-11
    X, y, w = _far_design()
    for fit, ref in [(lm.ols_fit(X, y), sm.OLS(y, X).fit()),
                     (lm.wls(X, y, w), sm.WLS(y, X, weights=w).fit())]:
        np.testing.assert_allclose(fit.beta[1:], ref.params[1:], rtol=1e-9)
        np.testing.assert_allclose(fit.beta[0], ref.params[0], rtol=1e-7)   # |β₀| is 2e5 times smaller
        np.testing.assert_allclose(fit.se, ref.bse, rtol=1e-9)
        np.testing.assert_allclose(fit.cov, ref.cov_params(), rtol=1e-8)
        np.testing.assert_allclose(fit.t, ref.tvalues, rtol=1e-8)


def test_hat_matrix_f_tests_and_anova_with_a_covariate_at_1e5():
    X, y, _ = _far_design(seed=22)
    ref, small = sm.OLS(y, X).fit(), sm.OLS(y, X[:, :2]).fit()
    P = lm.hat_matrix(X)
    np.testing.assert_allclose(P, X @ np.linalg.pinv(X), atol=1e-10)
    np.testing.assert_allclose(P @ y, ref.fittedvalues, rtol=1e-10)
    assert np.trace(P) == pytest.approx(3, rel=1e-10)
    F, pval, _ = ref.compare_f_test(small)
    nested = lm.f_test_nested(X[:, :2], X, y)
    assert nested.statistic == pytest.approx(F, rel=1e-8)
    assert nested.pvalue == pytest.approx(pval, rel=1e-6)
    table = lm.anova_regression_table(X, y)
    assert table.ss_reg == pytest.approx(ref.ess, rel=1e-9)
    assert table.statistic == pytest.approx(ref.fvalue, rel=1e-9)
    glh = lm.general_linear_hypothesis(lm.ols_fit(X, y), np.eye(3)[1:])
    assert glh.statistic == pytest.approx(float(ref.f_test(np.eye(3)[1:]).fvalue), rel=1e-8)


def test_pairs_bootstrap_with_a_covariate_at_1e5_matches_lstsq():
    X, y, _ = _far_design(n=30, seed=23)
    se = lm.pairs_bootstrap_se(X, y, 200, np.random.default_rng(6))
    idx = np.random.default_rng(6).integers(0, 30, size=(200, 30))
    loop = np.array([np.linalg.lstsq(X[i], y[i], rcond=None)[0] for i in idx])
    np.testing.assert_allclose(se, loop.std(axis=0, ddof=1), rtol=1e-7)



def test_bad_calls_found_by_hardening():
    X, y, _ = _data(20, 3, 25)
    with pytest.raises(ValueError, match="X_small must have 20 rows"):
        lm.f_test_nested(X[:-1, :1], X, y)
    with pytest.raises(ValueError, match="overflowed: rescale X and y"):
        lm.ols_fit(X, y * 1e300)
    # a design scaled by 1e300 is fine for QR: same fitted values and s2
    assert lm.ols_fit(X * 1e300, y).s2 == pytest.approx(lm.ols_fit(X, y).s2, rel=1e-10)
