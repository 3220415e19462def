"""Tests of mlnotes.hypothesis_tests against scipy.stats, brute force and the chapter's identities."""
import numpy as np
import pytest
import scipy.optimize
import scipy.stats

from mlnotes import hypothesis_tests as ht

SIZES = [(10, 0), (57, 1), (400, 2)]  # (n, seed)


# ------------------------------------------------------------------ Neyman-Pearson
@pytest.mark.parametrize("n, seed", SIZES)
def test_likelihood_ratio_matches_the_product_of_densities(n, seed):
    x = np.random.default_rng(seed).normal(0.2, 1.0, n)
    lr = ht.likelihood_ratio(scipy.stats.norm.logpdf, lambda v: scipy.stats.norm.logpdf(v, 0.4, 1.0), x)
    ref = np.exp(np.sum(scipy.stats.norm.logpdf(x)) - np.sum(scipy.stats.norm.logpdf(x, 0.4, 1.0)))
    assert lr == pytest.approx(ref, rel=1e-10)
    # for two normals the ratio is a function of the mean only (closed form)
    closed = np.exp(-(np.sum(x**2) - np.sum((x - 0.4) ** 2)) / 2)
    assert lr == pytest.approx(closed, rel=1e-9)


def test_likelihood_ratio_batches_and_allows_zero_densities():
    x = np.random.default_rng(3).uniform(0, 1, (4, 8))
    lr = ht.likelihood_ratio(lambda v: scipy.stats.uniform.logpdf(v, 0, 2),
                             lambda v: scipy.stats.uniform.logpdf(v, 0, 1), x)
    assert lr.shape == (4,) and np.allclose(lr, 0.5**8)
    assert ht.likelihood_ratio(lambda v: scipy.stats.uniform.logpdf(v, 0, 0.5),
                               lambda v: scipy.stats.uniform.logpdf(v, 0, 1), [0.2, 0.7]) == 0.0
    with pytest.raises(ValueError, match="both"):
        ht.likelihood_ratio(lambda v: np.full(v.shape, -np.inf), lambda v: np.full(v.shape, -np.inf), [1.0])
    with pytest.raises(ValueError, match="logpdf1"):
        ht.likelihood_ratio(scipy.stats.norm.logpdf, lambda v: np.zeros(3), [1.0, 2.0])


@pytest.mark.parametrize("n, p0, p1, alpha", [(6, 0.5, 0.7, 0.1), (10, 0.3, 0.2, 0.05), (15, 0.5, 0.8, 0.01)])
def test_neyman_pearson_test_solves_the_linear_programme(n, p0, p1, alpha):
    k = np.arange(n + 1)
    f0, f1 = scipy.stats.binom.pmf(k, n, p0), scipy.stats.binom.pmf(k, n, p1)
    phi = ht.neyman_pearson_test(f0, f1, alpha)
    assert phi @ f0 == pytest.approx(alpha, abs=1e-12)          # exact size
    assert np.sum((phi > 0) & (phi < 1)) <= 1                   # one randomised point
    lp = scipy.optimize.linprog(-f1, A_ub=f0[None], b_ub=[alpha], bounds=[(0, 1)] * (n + 1))
    assert phi @ f1 == pytest.approx(-lp.fun, abs=1e-9)


def test_neyman_pearson_test_handles_ties_and_impossible_outcomes():
    phi = ht.neyman_pearson_test([0.25, 0.25, 0.5, 0.0], [0.4, 0.4, 0.1, 0.1], 0.25)
    assert np.allclose(phi, [0.5, 0.5, 0.0, 1.0])   # tied outcomes share the randomisation
    assert np.allclose(ht.neyman_pearson_test([0.5, 0.5], [0.5, 0.5], 0.3), [0.3, 0.3])


@pytest.mark.parametrize("n, seed", SIZES)
def test_np_test_normal_mean_matches_scipy(n, seed):
    x = np.random.default_rng(seed).normal(0.1, 2.0, (50, n))
    for mu1 in (0.5, -0.5):
        res = ht.np_test_normal_mean(x, 0.0, mu1, 2.0, 0.05)
        z = np.sqrt(n) * x.mean(axis=1) / 2.0
        p = scipy.stats.norm.sf(z) if mu1 > 0 else scipy.stats.norm.cdf(z)
        assert np.allclose(res.z, z) and np.allclose(res.pvalue, p, atol=1e-14)
        crit = scipy.stats.norm.isf(0.05) * 2.0 / np.sqrt(n) * np.sign(mu1)
        assert res.critical_value == pytest.approx(crit)
        assert np.array_equal(res.reject, (x.mean(axis=1) > crit) if mu1 > 0 else (x.mean(axis=1) < crit))
    with pytest.raises(ValueError, match="mu1"):
        ht.np_test_normal_mean(x[0], 1.0, 1.0, 1.0, 0.05)


def test_power_normal_mean_closed_form_and_simulation():
    mu = np.linspace(-1, 1, 9)
    one = ht.power_normal_mean(mu, 0.0, 1.5, 16, 0.05)
    assert np.allclose(one, scipy.stats.norm.sf(scipy.stats.norm.isf(0.05) - 4 * mu / 1.5))
    two = ht.power_normal_mean(mu, 0.0, 1.5, 16, 0.05, two_sided=True)
    z = scipy.stats.norm.isf(0.025)
    assert np.allclose(two, scipy.stats.norm.sf(z - 4 * mu / 1.5) + scipy.stats.norm.cdf(-z - 4 * mu / 1.5))
    assert ht.power_normal_mean(0.0, 0.0, 1.5, 16, 0.05, True) == pytest.approx(0.05)
    assert np.allclose(two, two[::-1])                         # symmetric in mu - mu0
    reps = 20000
    x = np.random.default_rng(5).normal(0.6, 1.5, (reps, 16))
    sim = ht.np_test_normal_mean(x, 0.0, 1.0, 1.5, 0.05).reject.mean()
    exact = ht.power_normal_mean(0.6, 0.0, 1.5, 16, 0.05)
    assert abs(sim - exact) < 4 * np.sqrt(exact * (1 - exact) / reps)


# --------------------------------------------------------------- GLRT and Wilks
@pytest.mark.parametrize("n, seed", SIZES)
def test_glrt_normal_mean_is_z_squared(n, seed):
    x = np.random.default_rng(seed).normal(0.3, 0.7, n)
    res = ht.glrt_normal_mean(x, 0.0, 0.7)
    z = np.sqrt(n) * x.mean() / 0.7
    assert res.statistic == pytest.approx(z**2, rel=1e-9) and res.dof == 1
    assert res.pvalue == pytest.approx(2 * scipy.stats.norm.sf(abs(z)), rel=1e-9)
    l0 = scipy.stats.norm.logpdf(x, 0.0, 0.7).sum()
    l1 = scipy.stats.norm.logpdf(x, x.mean(), 0.7).sum()
    assert res.statistic == pytest.approx(2 * (l1 - l0), rel=1e-8)


@pytest.mark.parametrize("K, seed", [(2, 0), (5, 1), (12, 2)])
def test_g_and_pearson_match_scipy_power_divergence(K, seed):
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(K))
    O = rng.multinomial(200, p).astype(float)
    E = 200 * p
    ref_g = scipy.stats.power_divergence(O, E, lambda_="log-likelihood")
    ref_x = scipy.stats.chisquare(O, E)
    assert ht.g_statistic(O, E) == pytest.approx(ref_g.statistic, rel=1e-10)
    assert ht.pearson_chi2(O, E) == pytest.approx(ref_x.statistic, rel=1e-10)
    for k in range(0, K - 1):
        g = ht.gof_test(O, E, n_estimated=k, statistic="g")
        ref = scipy.stats.power_divergence(O, E, ddof=k, lambda_="log-likelihood")
        assert g.pvalue == pytest.approx(ref.pvalue, rel=1e-8) and g.dof == K - 1 - k
        x2 = ht.gof_test(O, E, n_estimated=k)
        assert x2.pvalue == pytest.approx(scipy.stats.chisquare(O, E, ddof=k).pvalue, rel=1e-8)


def test_g_statistic_zero_cells_and_batches():
    O = np.array([[0.0, 5.0, 5.0], [3.0, 3.0, 4.0]])
    E = np.array([[3.0, 3.0, 4.0], [3.0, 3.0, 4.0]])
    g = ht.g_statistic(O, E)
    assert g.shape == (2,) and g[1] == 0.0
    assert g[0] == pytest.approx(2 * (5 * np.log(5 / 3) + 5 * np.log(5 / 4)))
    with pytest.raises(ValueError, match="total"):
        ht.g_statistic([1.0, 2.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="expected"):
        ht.pearson_chi2([1.0, 2.0], [0.0, 3.0])
    with pytest.raises(ValueError, match="n_estimated"):
        ht.gof_test([1.0, 2.0, 3.0], [2.0, 2.0, 2.0], n_estimated=2)


def test_g_and_x2_agree_asymptotically():
    """X² - G = O_p(n^{-1/2}) under H0: the mean |difference| shrinks roughly like 1/sqrt(n)."""
    rng = np.random.default_rng(7)
    p = np.array([0.1, 0.2, 0.3, 0.4])
    gaps = []
    for n in (100, 10000):
        O = rng.multinomial(n, p, size=2000).astype(float)
        E = np.broadcast_to(n * p, O.shape)
        gaps.append(np.mean(np.abs(ht.g_statistic(O, E) - ht.pearson_chi2(O, E))))
    assert gaps[1] < gaps[0] / 5        # ratio sqrt(100) = 10 in theory


@pytest.mark.parametrize("n, seed", SIZES)
def test_poisson_dispersion_test(n, seed):
    x = np.random.default_rng(seed).poisson(4.0, n).astype(float)
    res = ht.poisson_dispersion_test(x)
    ref = scipy.stats.power_divergence(x, np.full(n, x.mean()), lambda_="log-likelihood")
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-10) and res.dof == n - 1
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-8)
    pe = ht.poisson_dispersion_test(x, statistic="pearson")
    assert pe.statistic == pytest.approx(n * x.var() / x.mean(), rel=1e-10)
    with pytest.raises(ValueError, match="x"):
        ht.poisson_dispersion_test(np.zeros(5))


def test_poisson_dispersion_null_law_is_chi2():
    rng = np.random.default_rng(11)
    x = rng.poisson(10.0, (4000, 15)).astype(float)
    stat = ht.poisson_dispersion_test(x).statistic
    assert scipy.stats.kstest(stat, scipy.stats.chi2(14).cdf).statistic < scipy.stats.kstwo.ppf(0.99, 4000)


def test_hanging_rootogram_pieces():
    O, E = np.array([4.0, 9.0, 16.0, 0.0]), np.array([9.0, 9.0, 9.0, 2.0])
    r = ht.hanging_rootogram(O, E)
    assert np.allclose(r.top, [3, 3, 3, np.sqrt(2)]) and np.allclose(r.bottom, r.top - np.sqrt(O))
    assert np.allclose(r.root_residual, -r.bottom)
    assert np.sum(r.chi_residual**2) == pytest.approx(np.sum((O - E) ** 2 / E))


# --------------------------------------------------------------- probability plots
def test_plotting_positions_are_uniform_order_statistic_means():
    n = 9
    assert np.allclose(ht.plotting_positions(n), scipy.stats.beta(np.arange(1, n + 1), n - np.arange(n)).mean())


@pytest.mark.parametrize("n, seed", [(50, 0), (200, 1)])
def test_probability_plot_fit_close_to_probplot(n, seed):
    x = np.random.default_rng(seed).normal(3.0, 2.0, n)
    q = scipy.stats.norm.ppf(ht.plotting_positions(n))
    slope, intercept = np.polyfit(q, np.sort(x), 1)
    (_, _), (s_ref, i_ref, _) = scipy.stats.probplot(x, dist="norm")
    # Filliben's positions differ from i/(n+1) by O(1/n) in the tails: slopes agree to a few percent
    assert abs(slope - s_ref) < 0.05 * s_ref and abs(intercept - i_ref) < 1e-2 * 2.0


# ------------------------------------------------------------------------ normality
@pytest.mark.parametrize("n, seed", SIZES)
def test_moments_match_scipy(n, seed):
    x = np.random.default_rng(seed).gamma(3.0, 2.0, (3, n))
    assert np.allclose(ht.skewness(x), scipy.stats.skew(x, axis=1, bias=True), rtol=1e-10)
    assert np.allclose(ht.kurtosis(x), scipy.stats.kurtosis(x, axis=1, fisher=False, bias=True), rtol=1e-10)
    jb = ht.jarque_bera(x[0])
    ref = scipy.stats.jarque_bera(x[0])
    assert jb.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert jb.pvalue == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-300)


def test_moments_are_location_scale_invariant():
    x = np.random.default_rng(4).exponential(1.0, 300)
    y = 1e6 + 250.0 * x
    assert ht.skewness(y) == pytest.approx(ht.skewness(x), rel=1e-6)
    assert ht.kurtosis(y) == pytest.approx(ht.kurtosis(x), rel=1e-6)
    assert ht.skewness(-x) == pytest.approx(-ht.skewness(x), rel=1e-12)
    with pytest.raises(ValueError, match="constant"):
        ht.kurtosis(np.ones(5))


def test_b1_b2_null_moments():
    n, reps = 100, 4000
    x = np.random.default_rng(9).standard_normal((reps, n))
    b1, b2 = ht.skewness(x), ht.kurtosis(x)
    var_b1 = 6 * (n - 2) / ((n + 1) * (n + 3))
    mean_b2 = 3 * (n - 1) / (n + 1)
    var_b2 = 24 * n * (n - 2) * (n - 3) / ((n + 1) ** 2 * (n + 3) * (n + 5))
    assert abs(b1.mean()) < 4 * np.sqrt(var_b1 / reps)
    assert abs(b2.mean() - mean_b2) < 4 * np.sqrt(var_b2 / reps)
    # relative SE of a sample variance is sqrt((kappa - 1)/reps); b1 has kurtosis kappa < 4 here
    assert abs(b1.var() / var_b1 - 1) < 4 * np.sqrt(3 / reps)


# ------------------------------------------------------------------------- duality
def test_ci_by_inverting_recovers_the_z_interval():
    x = np.random.default_rng(2).normal(1.0, 1.0, 40)
    grid = np.linspace(0, 2, 2001)
    s = ht.ci_by_inverting(lambda d, t: ht.glrt_normal_mean(d, t, 1.0).pvalue, grid, x, 0.05)
    half = scipy.stats.norm.isf(0.025) / np.sqrt(40)
    assert abs(s.low - (x.mean() - half)) <= 1e-3 and abs(s.high - (x.mean() + half)) <= 1e-3
    assert np.array_equal(s.accepted, np.abs(grid - x.mean()) < half)
    empty = ht.ci_by_inverting(lambda d, t: 0.0, grid[:5], x, 0.05)
    assert np.isnan(empty.low) and not empty.accepted.any()
    with pytest.raises(ValueError, match="test"):
        ht.ci_by_inverting(lambda d, t: 2.0, grid[:5], x, 0.05)


def test_results_have_stable_reprs_for_one_or_many_samples():
    from mlnotes.categorical import HypothesisTestResult
    x = np.random.default_rng(6).poisson(3.0, (4, 12)).astype(float)
    many, one = ht.poisson_dispersion_test(x), ht.poisson_dispersion_test(x[0])
    assert isinstance(many, HypothesisTestResult) and many.statistic.shape == (4,)
    assert repr(many) == ("SampleTestResult(method='Poisson dispersion test (lr)', "
                          "statistic=<array of shape (4,)>, pvalue=<array of shape (4,)>, dof=11)")
    assert repr(one).startswith("SampleTestResult(method='Poisson dispersion test (lr)', statistic=")
    assert "0x" not in repr(ht.jarque_bera(x[0])) + repr(ht.plotting_positions(3))


@pytest.mark.parametrize("offset, gap", [(0.0, 1e-5), (1e8, 1e-3), (1e8, 1e-5)])
def test_glrt_normal_mean_against_exact_arithmetic(offset, gap):
    # -2 log Lambda = sum (x - mu0)^2 - sum (x - xbar)^2 (sigma = 1), computed in 80 digits.
    # The float difference of the two sums has an absolute error of a few n*eps, immaterial
    # for a chi-square statistic; far from 0, x - mu0 is exact (Sterbenz), so it stays small.
    from decimal import Decimal, getcontext
    getcontext().prec = 80
    x = np.random.default_rng(3).normal(offset, 1.0, 1000)
    mu0 = x.mean() + gap
    d, m0 = [Decimal(float(v)) for v in x], Decimal(mu0)
    m = sum(d) / len(d)
    exact = float(sum((v - m0) ** 2 for v in d) - sum((v - m) ** 2 for v in d))
    stat = ht.glrt_normal_mean(x, mu0, 1.0).statistic
    assert stat == pytest.approx(exact, rel=1e-6, abs=1e3 * x.size * np.finfo(float).eps)


def test_bad_calls_found_by_hardening():
    assert ht.power_normal_mean(1.0, 0.0, 1.0, 10**30, 0.05) == 1.0     # a huge int n is fine
    for f in (ht.skewness, ht.kurtosis, ht.jarque_bera, lambda x: ht.glrt_normal_mean(x, 0.0, 1.0)):
        with pytest.raises(ValueError, match="overflowed: rescale x"):
            f(np.array([1e200, -1e200, 0.0]))
