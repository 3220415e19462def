"""Tests of mlnotes.two_sample against scipy.stats and statsmodels, plus the chapter's identities."""
import itertools
import math

import numpy as np
import pytest
import scipy.stats
from statsmodels.stats.power import TTestIndPower

from mlnotes import two_sample as ts

SIZES = [(5, 7, 0), (12, 9, 1), (40, 55, 2)]  # (n, m, seed)
ALTS = ["two-sided", "greater", "less"]


def _samples(n, m, seed, shift=0.4, scale_y=1.0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=n), shift + scale_y * rng.normal(size=m)


# --------------------------------------------------------------------- t methods
@pytest.mark.parametrize("n, m, seed", SIZES)
def test_pooled_variance_is_the_df_weighted_average(n, m, seed):
    x, y = _samples(n, m, seed, scale_y=2.0)
    expected = (np.sum((x - x.mean())**2) + np.sum((y - y.mean())**2)) / (n + m - 2)
    assert ts.pooled_variance(x, y) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("n, m, seed", SIZES)
@pytest.mark.parametrize("equal_var", [True, False])
@pytest.mark.parametrize("alternative", ALTS)
def test_two_sample_t_matches_scipy(n, m, seed, equal_var, alternative):
    x, y = _samples(n, m, seed, scale_y=1.7)
    r = ts.two_sample_t(x, y, equal_var=equal_var, alternative=alternative, alpha=0.1)
    s = scipy.stats.ttest_ind(x, y, equal_var=equal_var, alternative=alternative)
    assert r.statistic == pytest.approx(s.statistic, rel=1e-10)
    assert r.pvalue == pytest.approx(s.pvalue, rel=1e-9, abs=1e-15)
    assert r.df == pytest.approx(s.df, rel=1e-12)
    ci = scipy.stats.ttest_ind(x, y, equal_var=equal_var).confidence_interval(0.9)
    iv = ts.t_interval(x, y, alpha=0.1, equal_var=equal_var)
    np.testing.assert_allclose([iv.low, iv.high], [ci.low, ci.high], rtol=1e-10)
    assert iv.level == pytest.approx(0.9)


@pytest.mark.parametrize("n, m, seed", SIZES)
def test_t_is_the_glrt(n, m, seed):
    """σ̂₀²/σ̂₁² = 1 + t²/(n+m-2): the likelihood ratio is a monotone function of |t|."""
    x, y = _samples(n, m, seed)
    z = np.concatenate([x, y])
    ratio = np.sum((z - z.mean())**2) / (np.sum((x - x.mean())**2) + np.sum((y - y.mean())**2))
    t = ts.two_sample_t(x, y).statistic
    assert ratio == pytest.approx(1 + t**2 / (n + m - 2), rel=1e-12)


@pytest.mark.parametrize("n, m", [(5, 5), (10, 14), (30, 20)])
@pytest.mark.parametrize("alternative", ALTS)
def test_t_power_matches_statsmodels(n, m, alternative):
    delta = np.array([-1.0, 0.0, 0.3, 1.2])
    ours = ts.t_power(delta, 2.0, n, m, alpha=0.05, alternative=alternative)
    sm_alt = {"two-sided": "two-sided", "greater": "larger", "less": "smaller"}[alternative]
    ref = [TTestIndPower().power(effect_size=d / 2.0, nobs1=n, ratio=m / n, alpha=0.05,
                                 alternative=sm_alt) for d in delta]
    np.testing.assert_allclose(ours, ref, rtol=1e-6, atol=1e-9)
    if alternative == "two-sided":
        assert ts.t_power(0.0, 1.0, n, m) == pytest.approx(0.05, abs=1e-12)


def test_t_power_by_simulation():
    """4 standard errors of a proportion from 20000 replications."""
    rng = np.random.default_rng(5)
    n, m, delta, reps = 6, 9, 1.0, 20000
    x = rng.normal(delta, 1.0, (reps, n))
    y = rng.normal(0.0, 1.0, (reps, m))
    sp = np.sqrt(((n - 1) * x.var(1, ddof=1) + (m - 1) * y.var(1, ddof=1)) / (n + m - 2))
    t = (x.mean(1) - y.mean(1)) / (sp * np.sqrt(1 / n + 1 / m))
    hit = np.mean(np.abs(t) > scipy.stats.t.ppf(0.975, n + m - 2))
    p = ts.t_power(delta, 1.0, n, m)
    assert abs(hit - p) < 4 * np.sqrt(p * (1 - p) / reps)


def test_approx_power_is_the_z_test_power_and_close_for_large_n():
    z = scipy.stats.norm.ppf(0.975)
    shift = 0.5 / (1.0 * np.sqrt(2 / 30))
    expected = scipy.stats.norm.sf(z - shift) + scipy.stats.norm.cdf(-z - shift)
    assert ts.approx_power(0.5, 1.0, 30) == pytest.approx(expected, rel=1e-12)
    assert ts.approx_power(0.5, 1.0, 30, m=30) == pytest.approx(expected, rel=1e-12)
    assert ts.approx_power(0.0, 1.0, 30) == pytest.approx(0.05, rel=1e-12)
    d = np.linspace(0, 1.5, 7)
    assert np.max(np.abs(ts.approx_power(d, 1.0, 50) - ts.t_power(d, 1.0, 50, 50))) < 0.01
    assert np.max(np.abs(ts.approx_power(d, 1.0, 5) - ts.t_power(d, 1.0, 5, 5))) > 0.1


# ------------------------------------------------------------------ Mann–Whitney
@pytest.mark.parametrize("n, m", [(1, 1), (2, 3), (4, 4), (3, 6)])
def test_mw_pmf_and_rank_sum_moments_by_enumeration(n, m):
    N = n + m
    us = []
    for ys in itertools.combinations(range(1, N + 1), m):     # ranks of the Y's
        us.append(sum(ys) - m * (m + 1) // 2)
    counts = np.bincount(us, minlength=n * m + 1)
    np.testing.assert_allclose(ts.mw_null_pmf(n, m), counts / math.comb(N, m), atol=1e-14)
    T = np.array(us) + m * (m + 1) / 2
    assert T.mean() == pytest.approx(m * (N + 1) / 2)
    assert T.var() == pytest.approx(m * n * (N + 1) / 12)


@pytest.mark.parametrize("n, m", [(5, 8), (12, 7), (20, 20)])
def test_mw_pmf_symmetric_and_normalised(n, m):
    p = ts.mw_null_pmf(n, m)
    assert p.sum() == pytest.approx(1, abs=1e-12)
    np.testing.assert_allclose(p, p[::-1], atol=1e-15)
    u = np.arange(p.size)
    assert np.sum(u * p) == pytest.approx(n * m / 2)
    assert np.sum((u - n * m / 2)**2 * p) == pytest.approx(n * m * (n + m + 1) / 12)


@pytest.mark.parametrize("n, m, seed", SIZES)
@pytest.mark.parametrize("alternative", ALTS)
def test_mann_whitney_matches_scipy(n, m, seed, alternative):
    x, y = _samples(n, m, seed)
    r = ts.mann_whitney_u(x, y, alternative=alternative, method="exact")
    s = scipy.stats.mannwhitneyu(y, x, alternative=alternative, method="exact")
    assert r.statistic == s.statistic
    assert r.pvalue == pytest.approx(s.pvalue, rel=1e-8, abs=1e-14)
    assert ts.rank_sum(x, y) == pytest.approx(r.statistic + m * (m + 1) / 2)
    assert r.statistic == np.sum(x[:, None] < y[None, :])
    # with ties: the normal approximation with tie and continuity corrections
    xr, yr = np.round(x * 2) / 2, np.round(y * 2) / 2
    r = ts.mann_whitney_u(xr, yr, alternative=alternative)
    s = scipy.stats.mannwhitneyu(yr, xr, alternative=alternative, method="asymptotic")
    assert r.method == "normal"
    assert r.statistic == s.statistic
    assert r.pvalue == pytest.approx(s.pvalue, rel=1e-9)
    assert ts.rank_sum(xr, yr) == pytest.approx(r.statistic + m * (m + 1) / 2)


def test_ranksum_z_uses_the_same_moments():
    x, y = _samples(30, 25, 7)
    T, n, m = ts.rank_sum(x, y), 30, 25
    z = (T - m * (n + m + 1) / 2) / np.sqrt(n * m * (n + m + 1) / 12)
    assert z == pytest.approx(scipy.stats.ranksums(y, x).statistic, rel=1e-12)


def test_exact_mann_whitney_rejects_ties():
    with pytest.raises(ValueError, match="tied"):
        ts.mann_whitney_u([1.0, 2.0], [2.0, 3.0], method="exact")


@pytest.mark.parametrize("n, m, seed", [(6, 7, 0), (15, 10, 3)])
def test_hodges_lehmann_inverts_the_test(n, m, seed):
    x, y = _samples(n, m, seed, shift=1.0)
    hl = ts.hodges_lehmann(x, y, alpha=0.05)
    D = np.sort((y[None, :] - x[:, None]).ravel())
    assert hl.estimate == pytest.approx(np.median(D))
    cdf = np.cumsum(ts.mw_null_pmf(n, m))
    k = np.searchsorted(D, hl.low) + 1
    assert cdf[k - 1] <= 0.025 < cdf[k]
    assert hl.level == pytest.approx(1 - 2 * cdf[k - 1])
    grid = np.linspace(D[0] - 1, D[-1] + 1, 4001)
    U = np.sum(D[None, :] > grid[:, None], axis=1)       # U_Y(Δ) = #(Y_j - X_i > Δ)
    accept = grid[(U >= k) & (U <= n * m - k)]
    step = grid[1] - grid[0]
    assert accept.min() == pytest.approx(hl.low, abs=step)
    assert accept.max() == pytest.approx(hl.high, abs=step)


def test_hodges_lehmann_too_small():
    with pytest.raises(ValueError, match="too small"):
        ts.hodges_lehmann([0.0, 1.0], [2.0, 3.0], alpha=0.05)


# ------------------------------------------------------------------ paired samples
@pytest.mark.parametrize("n, seed", [(5, 0), (20, 1), (200, 2)])
@pytest.mark.parametrize("alternative", ALTS)
def test_paired_t_matches_scipy(n, seed, alternative):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    y = 0.8 * x + 0.6 * rng.normal(size=n) - 0.2
    r = ts.paired_t(x, y, alpha=0.1, alternative=alternative)
    s = scipy.stats.ttest_rel(x, y, alternative=alternative)
    assert r.statistic == pytest.approx(s.statistic, rel=1e-10)
    assert r.pvalue == pytest.approx(s.pvalue, rel=1e-9, abs=1e-15)
    ci = scipy.stats.ttest_rel(x, y).confidence_interval(0.9)
    np.testing.assert_allclose([r.low, r.high], [ci.low, ci.high], rtol=1e-10)


def test_paired_t_needs_equal_lengths():
    with pytest.raises(ValueError, match="y"):
        ts.paired_t([1.0, 2.0, 3.0], [1.0, 2.0])


@pytest.mark.parametrize("n", [1, 2, 5, 10])
def test_signed_rank_pmf_by_enumeration(n):
    signs = np.array(list(itertools.product([0, 1], repeat=n)))
    w = signs @ np.arange(1, n + 1)
    counts = np.bincount(w, minlength=n * (n + 1) // 2 + 1)
    p = ts.signed_rank_null_pmf(n)
    np.testing.assert_allclose(p, counts / 2**n, atol=1e-15)
    k = np.arange(p.size)
    assert np.sum(k * p) == pytest.approx(n * (n + 1) / 4)
    assert np.sum((k - n * (n + 1) / 4)**2 * p) == pytest.approx(n * (n + 1) * (2 * n + 1) / 24)


@pytest.mark.parametrize("n, seed", [(6, 0), (15, 1), (40, 2)])
@pytest.mark.parametrize("alternative", ALTS)
def test_signed_rank_matches_scipy(n, seed, alternative):
    d = np.random.default_rng(seed).normal(0.3, 1.0, n)
    r = ts.signed_rank(d, alternative=alternative, method="exact")
    s = scipy.stats.wilcoxon(d, alternative=alternative, method="exact")
    assert r.pvalue == pytest.approx(s.pvalue, rel=1e-9, abs=1e-15)
    ranks = scipy.stats.rankdata(np.abs(d))
    assert r.statistic == ranks[d > 0].sum()
    if alternative != "two-sided":                   # scipy's two-sided statistic is min(W+, W-)
        assert r.statistic == s.statistic
    else:
        assert s.statistic == min(r.statistic, n * (n + 1) / 2 - r.statistic)
    # zeros and ties: normal approximation as in scipy (zeros dropped, no continuity correction)
    dr = np.round(d * 2) / 2
    r = ts.signed_rank(dr, alternative=alternative)
    s = scipy.stats.wilcoxon(dr, alternative=alternative, method="asymptotic", zero_method="wilcox")
    assert r.method == "normal"
    assert r.pvalue == pytest.approx(s.pvalue, rel=1e-9)


def test_signed_rank_all_zero():
    with pytest.raises(ValueError, match="non-zero"):
        ts.signed_rank(np.zeros(5))


# ---------------------------------------------------------------------- Bayesian
@pytest.mark.parametrize("n, m, seed", SIZES)
def test_bayes_posterior_is_a_scaled_t(n, m, seed):
    x, y = _samples(n, m, seed)
    se = np.sqrt(ts.pooled_variance(x, y) * (1 / n + 1 / m))
    grid = np.linspace(-3, 3, 61)
    ref = scipy.stats.t.pdf(grid, n + m - 2, loc=x.mean() - y.mean(), scale=se)
    np.testing.assert_allclose(ts.bayes_two_sample_posterior(x, y, grid), ref, rtol=1e-10, atol=1e-300)


def test_bayes_posterior_by_numerical_integration():
    """Marginalise the joint posterior (corrected exponent) over μ_Y and ξ on a grid."""
    x, y = _samples(6, 8, 11)
    n, m = 6, 8
    ssx, ssy = np.sum((x - x.mean())**2), np.sum((y - y.mean())**2)
    delta = np.linspace(-4, 3, 141)
    mu_y = np.linspace(y.mean() - 4, y.mean() + 4, 201)
    xi = np.linspace(1e-3, 6, 400)
    D, M, XI = np.meshgrid(delta, mu_y, xi, indexing="ij")
    ss = ssx + n * (D + M - x.mean())**2 + ssy + m * (M - y.mean())**2
    log_post = ((n + m) / 2 - 1) * np.log(XI) - XI / 2 * ss
    dens = np.exp(log_post - log_post.max()).sum(axis=(1, 2))
    dens /= dens.sum() * (delta[1] - delta[0])
    np.testing.assert_allclose(dens, ts.bayes_two_sample_posterior(x, y, delta), atol=5e-3)


def test_t_power_has_no_nan_far_in_the_tails():
    """scipy's nct.cdf is NaN at df=98, nc=10; t_power must not inherit that."""
    p = ts.t_power(np.linspace(-3, 3, 13), 1.0, 50, 50)
    assert np.all(np.isfinite(p)) and p[0] == pytest.approx(1) and p[-1] == pytest.approx(1)


def test_auto_method_switches_to_normal_for_large_samples():
    x, y = _samples(120, 100, 4)
    r = ts.mann_whitney_u(x, y)
    assert r.method == "normal"
    s = scipy.stats.mannwhitneyu(y, x, method="asymptotic")
    assert r.pvalue == pytest.approx(s.pvalue, rel=1e-9)
    assert ts.mann_whitney_u(x[:50], y[:50]).method == "exact"


@pytest.mark.parametrize("seed", range(3))
def test_midranks_match_scipy_rankdata(seed):
    rng = np.random.default_rng(seed)
    v = rng.integers(0, 6, size=25).astype(float)      # many ties
    ranks, counts = ts.midranks(v)
    np.testing.assert_allclose(ranks, scipy.stats.rankdata(v), atol=1e-12)
    _, ref_counts = np.unique(v, return_counts=True)
    np.testing.assert_array_equal(counts, ref_counts)
    assert ranks.sum() == pytest.approx(v.size * (v.size + 1) / 2)


def test_mann_whitney_u_from_ranks_counts_pairs_with_ties():
    # U_Y = T_Y - m(m+1)/2 with midranks equals #{X < Y} + #{X = Y}/2, without an n x m table
    rng = np.random.default_rng(9)
    x, y = rng.integers(0, 6, 40).astype(float), rng.integers(1, 7, 55).astype(float)
    u = ts.mann_whitney_u(x, y, method="normal").statistic
    assert u == np.sum(x[:, None] < y[None, :]) + 0.5 * np.sum(x[:, None] == y[None, :])
    assert u == scipy.stats.mannwhitneyu(y, x).statistic


def test_exact_laws_refuse_sizes_that_would_take_minutes():
    with pytest.raises(ValueError, match="n and m are too large"):
        ts.mw_null_pmf(400, 400)
    with pytest.raises(ValueError, match="n must be at most 1000"):
        ts.signed_rank_null_pmf(5000)
    with pytest.raises(ValueError, match="x and y are too large"):
        ts.hodges_lehmann(np.arange(400.0), np.arange(400.0) + 0.5)
    with pytest.raises(ValueError, match="n=1e\\+30"):
        ts.t_power(1.0, 1.0, 10**30, 10**30)
    with pytest.raises(ValueError, match="overflowed: rescale x and y"):
        ts.two_sample_t(np.array([1e300, -1e300]), np.array([1.0, 2.0]))
