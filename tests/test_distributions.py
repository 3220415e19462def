"""Tests of mlnotes.distributions against scipy.stats, plus the chapter's identities."""
import numpy as np
import pytest
import scipy.integrate
import scipy.special
import scipy.stats

from mlnotes import distributions as dist

KS_999 = 1.95  # sqrt(n) times the 0.999-quantile of the one-sample KS statistic (large n)


def _support(n, m):
    """All count vectors of m non-negative integers summing to n, one per row."""
    grid = np.indices((n + 1,) * (m - 1)).reshape(m - 1, -1).T
    grid = grid[grid.sum(axis=1) <= n]
    return np.column_stack([grid, n - grid.sum(axis=1)])


# ------------------------------------------------------------------- normal distribution
@pytest.mark.parametrize("mu, sigma, seed", [(0.0, 1.0, 0), (2.5, 0.3, 1), (-4.0, 7.0, 2)])
def test_normal_pdf_and_cdf_match_scipy(mu, sigma, seed):
    x = np.random.default_rng(seed).normal(mu, 3 * sigma, size=400)
    ref = scipy.stats.norm(mu, sigma)
    np.testing.assert_allclose(dist.normal_pdf(x, mu, sigma), ref.pdf(x), rtol=1e-12)
    np.testing.assert_allclose(dist.normal_cdf(x, mu, sigma), ref.cdf(x), rtol=1e-12)
    assert isinstance(dist.normal_cdf(mu, mu, sigma), float)
    assert dist.normal_cdf(mu, mu, sigma) == 0.5


def test_normal_cdf_keeps_relative_precision_in_the_lower_tail():
    z = -np.linspace(5, 37, 60)
    np.testing.assert_allclose(dist.normal_cdf(z), scipy.stats.norm.cdf(z), rtol=1e-12)
    naive = 0.5 * (1 + scipy.special.erf(z / np.sqrt(2)))  # the erf form cancels to 0
    assert np.all(naive[z < -9] == 0) and np.all(dist.normal_cdf(z) > 0)


@pytest.mark.parametrize("mu, sigma", [(0.0, 1.0), (1.5, 0.4)])
def test_normal_cdf_is_the_integral_of_the_pdf(mu, sigma):
    for x in (mu - 2.2 * sigma, mu + 0.3 * sigma, mu + 4 * sigma):
        area, _ = scipy.integrate.quad(dist.normal_pdf, -np.inf, x, args=(mu, sigma))
        assert dist.normal_cdf(x, mu, sigma) == pytest.approx(area, abs=1e-10)
    mean, _ = scipy.integrate.quad(lambda v: v * dist.normal_pdf(v, mu, sigma), -np.inf, np.inf)
    var, _ = scipy.integrate.quad(lambda v: (v - mu) ** 2 * dist.normal_pdf(v, mu, sigma), -np.inf, np.inf)
    assert mean == pytest.approx(mu, abs=1e-9)
    assert var == pytest.approx(sigma**2, rel=1e-9)


# --------------------------------------------------------------- multinomial distribution
@pytest.mark.parametrize("m, n, seed", [(2, 5, 0), (3, 8, 1), (5, 30, 2)])
def test_multinomial_pmf_matches_scipy(m, n, seed):
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(m))
    counts = rng.multinomial(n, p, size=50)
    np.testing.assert_allclose(dist.multinomial_pmf(counts, p),
                               scipy.stats.multinomial.pmf(counts, n, p), rtol=1e-10)
    assert dist.multinomial_pmf(counts[0], p) == pytest.approx(
        scipy.stats.multinomial.pmf(counts[0], n, p), rel=1e-10)


def test_multinomial_pmf_with_a_zero_cell_and_large_counts():
    p = np.array([0.5, 0.5, 0.0])
    counts = np.array([[1, 2, 0], [2, 1, 0], [1, 1, 1]])
    np.testing.assert_allclose(dist.multinomial_pmf(counts, p), [0.375, 0.375, 0.0], atol=1e-15)
    p = np.array([0.2, 0.3, 0.5])
    big = np.array([[400, 600, 1000], [350, 650, 1000]])
    np.testing.assert_allclose(dist.multinomial_pmf(big, p),
                               scipy.stats.multinomial.pmf(big, 2000, p), rtol=1e-9)


@pytest.mark.parametrize("m, n, seed", [(2, 6, 0), (3, 9, 1), (4, 7, 2)])
def test_multinomial_marginals_are_binomial_and_covariances_negative(m, n, seed):
    p = np.random.default_rng(seed).dirichlet(np.ones(m))
    X = _support(n, m)
    pmf = dist.multinomial_pmf(X, p)
    assert pmf.sum() == pytest.approx(1.0, abs=1e-12)
    for i in range(m):
        marginal = np.bincount(X[:, i], weights=pmf, minlength=n + 1)
        np.testing.assert_allclose(marginal, scipy.stats.binom.pmf(np.arange(n + 1), n, p[i]), atol=1e-13)
    mean = pmf @ X
    cov = (X - mean).T @ ((X - mean) * pmf[:, None])
    np.testing.assert_allclose(mean, n * p, atol=1e-12)
    np.testing.assert_allclose(cov, dist.multinomial_cov(n, p), atol=1e-11)
    np.testing.assert_allclose(dist.multinomial_cov(n, p), scipy.stats.multinomial(n, p).cov(), atol=1e-12)
    off = ~np.eye(m, dtype=bool)
    assert np.all(dist.multinomial_cov(n, p)[off] < 0)
    # the joint pmf is not the product of its binomial marginals
    product = np.prod(scipy.stats.binom.pmf(X, n, p), axis=1)
    assert np.max(np.abs(pmf - product)) > 1e-3


def test_multinomial_covariance_by_simulation():
    n, p, R = 20, np.array([0.1, 0.3, 0.6]), 40000
    X = np.random.default_rng(3).multinomial(n, p, size=R)
    C = dist.multinomial_cov(n, p)
    dev = X - n * p
    prods = dev[:, :, None] * dev[:, None, :]
    se = prods.std(axis=0) / np.sqrt(R)
    assert np.all(np.abs(prods.mean(axis=0) - C) < 4 * se)


# -------------------------------------------------------------------------- tail bounds
CONTINUOUS = [scipy.stats.expon(), scipy.stats.gamma(3.0, scale=2.0), scipy.stats.uniform(0, 5),
              scipy.stats.lognorm(1.0), scipy.stats.chi2(1)]


@pytest.mark.parametrize("law", CONTINUOUS, ids=lambda law: law.dist.name)
def test_markov_and_chebyshev_hold_for_exact_tails(law):
    mu, var = law.mean(), law.var()
    t = np.geomspace(0.05, 50, 200) * np.sqrt(var)
    assert np.all(law.sf(t) <= dist.markov_bound(mu, t) + 1e-15)
    two_sided = law.sf(mu + t) + law.cdf(mu - t)
    assert np.all(two_sided <= dist.chebyshev_bound(var, t) + 1e-15)


def test_bounds_are_attained_by_two_and_three_point_laws():
    a, q = 4.0, 0.2  # X = a with probability q, else 0: P(X >= a) = q = E[X]/a
    x = np.repeat([0.0, a], [800, 200])
    assert dist.empirical_tail(x, a) == pytest.approx(q)
    assert dist.markov_bound(x.mean(), a) == pytest.approx(q)
    t = 3.0  # X = mu -/+ t with probability q/2 each, else mu
    y = np.repeat([1.0 - t, 1.0, 1.0 + t], [100, 800, 100])
    var = np.mean((y - 1.0) ** 2)
    frac = np.mean(np.abs(y - 1.0) >= t)
    assert frac == pytest.approx(dist.chebyshev_bound(var, t))


def test_bounds_hold_against_simulated_tails():
    R = 100_000
    x = np.random.default_rng(4).exponential(size=R)
    t = np.linspace(0.25, 6, 40)
    tail = dist.empirical_tail(x, t)
    assert np.all(np.abs(tail - np.exp(-t)) < 4 * np.sqrt(np.exp(-t) * (1 - np.exp(-t)) / R) + 1 / R)
    assert np.all(tail <= dist.markov_bound(1.0, t))
    dev_tail = dist.empirical_tail(np.abs(x - 1), t)
    assert np.all(dev_tail <= dist.chebyshev_bound(1.0, t))


@pytest.mark.parametrize("seed", [0, 1])
def test_empirical_tail_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 10, size=300).astype(float)  # many ties
    t = np.arange(-1, 12, 0.5)
    np.testing.assert_allclose(dist.empirical_tail(x, t), (x[:, None] >= t).mean(axis=0))


# ------------------------------------------------------------------- law of large numbers
@pytest.mark.parametrize("shape, axis", [((50,), 0), ((30, 4), 0), ((3, 25), 1), ((5, 6, 7), -1)])
def test_running_mean_matches_brute_force(shape, axis):
    x = np.random.default_rng(0).normal(size=shape)
    xm = np.moveaxis(x, axis, 0)
    brute = np.stack([xm[: k + 1].mean(axis=0) for k in range(xm.shape[0])])
    np.testing.assert_allclose(dist.running_mean(x, axis=axis), np.moveaxis(brute, 0, axis), atol=1e-12)


def test_lln_chebyshev_bound_against_the_exact_law_of_the_mean():
    eps, n = 0.1, np.array([10, 100, 1000, 10000])
    law = scipy.stats.gamma(n, scale=1 / n)  # mean of n Exp(1) draws
    exact = law.sf(1 + eps) + law.cdf(1 - eps)
    assert np.all(exact <= dist.chebyshev_bound(1 / n, eps))
    assert np.all(np.diff(exact) < 0) and exact[-1] < 1e-20


def test_lln_by_simulation():
    R, n_max, eps = 2000, 400, 0.1
    x = np.random.default_rng(5).exponential(size=(n_max, R))
    means = dist.running_mean(x, axis=0)
    n = np.array([10, 50, 100, 400])
    frac = np.mean(np.abs(means[n - 1] - 1) > eps, axis=1)
    law = scipy.stats.gamma(n, scale=1 / n)
    exact = law.sf(1 + eps) + law.cdf(1 - eps)
    assert np.all(np.abs(frac - exact) < 4 * np.sqrt(exact * (1 - exact) / R) + 1 / R)


# ---------------------------------------------------------------- central limit theorem
def test_standardized_sum_matches_the_formula():
    x = np.random.default_rng(6).exponential(2.0, size=(12, 5))
    np.testing.assert_allclose(dist.standardized_sum(x, 2.0, 2.0),
                               (x.sum(axis=0) - 24) / (2 * np.sqrt(12)), atol=1e-12)
    np.testing.assert_allclose(dist.standardized_sum(x.T, 2.0, 2.0, axis=1),
                               dist.standardized_sum(x, 2.0, 2.0), atol=1e-12)


def _exact_clt_distance(n):
    """sup_x |P(Z_n <= x) - Phi(x)| for Z_n the standardised sum of n Exp(1) draws."""
    z = np.linspace(-8, 8, 40001)
    return np.max(np.abs(scipy.stats.gamma.cdf(n + z * np.sqrt(n), n) - dist.normal_cdf(z)))


def test_clt_distance_shrinks_like_one_over_root_n():
    n = np.array([1, 4, 16, 64, 256, 1024])
    d = np.array([_exact_clt_distance(k) for k in n])
    assert np.all(np.diff(d) < 0)
    ratio = d[2:] / d[1:-1]  # Berry-Esseen rate: from n = 4 on, quadrupling n halves the distance
    assert np.all((ratio > 0.45) & (ratio < 0.55))


@pytest.mark.parametrize("n, seed", [(2, 0), (10, 1), (50, 2)])
def test_simulated_ks_distance_matches_the_exact_one(n, seed):
    R = 4000
    z = dist.standardized_sum(np.random.default_rng(seed).exponential(size=(n, R)), 1.0, 1.0)
    d_sim = scipy.stats.kstest(z, "norm").statistic
    assert abs(d_sim - _exact_clt_distance(n)) < KS_999 / np.sqrt(R)


def test_clt_mgf_converges():
    t = np.linspace(-0.9, 0.9, 19)
    gaps = []
    for n in (10, 100, 1000, 10000):
        s = t / np.sqrt(n)  # MGF of the centred Exp(1) draw is exp(-s) / (1 - s)
        mgf = np.exp(n * (-s - np.log1p(-s)))
        gaps.append(np.max(np.abs(mgf - np.exp(t**2 / 2))))
    assert np.all(np.diff(gaps) < 0) and gaps[-1] < 0.01


# ------------------------------------------------------------ sample mean and variance
@pytest.mark.parametrize("shape, axis", [((7,), 0), ((10, 3), 0), ((4, 9), 1), ((3, 5, 6), 1)])
def test_sample_mean_var_matches_numpy(shape, axis):
    x = np.random.default_rng(1).normal(2.0, 3.0, size=shape)
    mean, var = dist.sample_mean_var(x, axis=axis)
    np.testing.assert_allclose(mean, x.mean(axis=axis), atol=1e-12)
    np.testing.assert_allclose(var, x.var(axis=axis, ddof=1), rtol=1e-12)
    d = scipy.stats.describe(x, axis=axis)
    np.testing.assert_allclose(var, d.variance, rtol=1e-12)


def test_sample_variance_is_unbiased_for_non_normal_data():
    n, R = 5, 200_000
    _, s2 = dist.sample_mean_var(np.random.default_rng(7).exponential(size=(n, R)))
    assert abs(s2.mean() - 1.0) < 4 * s2.std() / np.sqrt(R)
    assert abs((n - 1) / n * s2.mean() - 1.0) > 4 * s2.std() / np.sqrt(R)  # ddof=0 is biased


@pytest.mark.parametrize("n, mu0, seed", [(2, 0.0, 0), (8, 0.5, 1), (40, -1.0, 2)])
def test_t_statistic_matches_ttest_1samp(n, mu0, seed):
    x = np.random.default_rng(seed).normal(size=(n, 30))
    np.testing.assert_allclose(dist.t_statistic(x, mu0), scipy.stats.ttest_1samp(x, mu0).statistic, rtol=1e-10)
    np.testing.assert_allclose(dist.t_statistic(x.T, mu0, axis=1), dist.t_statistic(x, mu0), rtol=1e-12)


def test_mean_and_variance_independent_for_normal_not_for_exponential():
    n, R = 5, 40_000
    rng = np.random.default_rng(8)
    m, s2 = dist.sample_mean_var(rng.normal(size=(n, R)))
    assert abs(np.corrcoef(m, s2)[0, 1]) < 4 / np.sqrt(R)
    # a nonlinear check: |X̄| and S² fall below their medians independently (probability 1/4)
    below = (np.abs(m) <= scipy.stats.norm.ppf(0.75) / np.sqrt(n)) & \
            (s2 <= scipy.stats.chi2.ppf(0.5, n - 1) / (n - 1))
    assert abs(below.mean() - 0.25) < 4 * np.sqrt(0.25 * 0.75 / R)
    m, s2 = dist.sample_mean_var(rng.exponential(size=(n, R)))
    prods = (m - 1) * (s2 - 1)  # cov(X̄, S²) = mu_3 / n, and mu_3 = 2 for Exp(1)
    assert abs(prods.mean() - 2 / n) < 4 * prods.std() / np.sqrt(R)
    assert np.corrcoef(m, s2)[0, 1] > 0.5


def test_scaled_sample_variance_and_t_statistic_laws():
    n, R = 6, 20_000
    x = np.random.default_rng(9).normal(3.0, 2.0, size=(n, R))
    _, s2 = dist.sample_mean_var(x)
    u = (n - 1) * s2 / 4.0
    assert scipy.stats.kstest(u, scipy.stats.chi2(n - 1).cdf).pvalue > 1e-3
    assert scipy.stats.kstest(u, scipy.stats.chi2(n).cdf).pvalue < 1e-6
    t = dist.t_statistic(x, 3.0)
    assert scipy.stats.kstest(t, scipy.stats.t(n - 1).cdf).pvalue > 1e-3
    assert scipy.stats.kstest(t, "norm").pvalue < 1e-6


# ------------------------------------------------------- chi-square, t and F densities
DFS = [0.7, 1.0, 2.0, 3.0, 10.5, 80.0]


@pytest.mark.parametrize("df", DFS)
def test_chi2_and_t_pdfs_match_scipy(df):
    x = np.random.default_rng(int(10 * df)).uniform(-5, 4 * df + 10, size=500)
    np.testing.assert_allclose(dist.chi2_pdf(x, df), scipy.stats.chi2.pdf(x, df), rtol=1e-11, atol=1e-300)
    np.testing.assert_allclose(dist.t_pdf(x, df), scipy.stats.t.pdf(x, df), rtol=1e-11)
    assert dist.chi2_pdf(0.0, df) == scipy.stats.chi2.pdf(0.0, df)


@pytest.mark.parametrize("dfn", [1.0, 2.0, 3.5, 12.0])
@pytest.mark.parametrize("dfd", [1.0, 4.0, 30.0])
def test_f_pdf_matches_scipy(dfn, dfd):
    x = np.random.default_rng(int(dfn * dfd)).uniform(-1, 8, size=400)
    np.testing.assert_allclose(dist.f_pdf(x, dfn, dfd), scipy.stats.f.pdf(x, dfn, dfd), rtol=1e-11, atol=1e-300)
    assert dist.f_pdf(0.0, dfn, dfd) == pytest.approx(scipy.stats.f.pdf(0.0, dfn, dfd), rel=1e-12)


@pytest.mark.parametrize("df", [1.0, 3.0, 9.5])
def test_densities_integrate_to_one(df):
    chi2 = scipy.integrate.quad(dist.chi2_pdf, 0, np.inf, args=(df,))[0]
    t = scipy.integrate.quad(dist.t_pdf, -np.inf, np.inf, args=(df,))[0]
    f = scipy.integrate.quad(dist.f_pdf, 0, np.inf, args=(df, 2 * df + 1))[0]
    np.testing.assert_allclose([chi2, t, f], 1.0, atol=1e-8)


@pytest.mark.parametrize("n", [1, 4, 11])
def test_chi2_moments_and_additivity(n):
    mean = scipy.integrate.quad(lambda v: v * dist.chi2_pdf(v, n), 0, np.inf)[0]
    second = scipy.integrate.quad(lambda v: v**2 * dist.chi2_pdf(v, n), 0, np.inf)[0]
    assert mean == pytest.approx(n, rel=1e-8)
    assert second - mean**2 == pytest.approx(2 * n, rel=1e-7)
    m = 3  # density of U + V at w is the convolution of the two densities
    for w in (0.5, 4.0, 15.0):
        conv = scipy.integrate.quad(lambda u: dist.chi2_pdf(u, m) * dist.chi2_pdf(w - u, n), 0, w,
                                    epsabs=0, epsrel=1e-10)[0]
        assert conv == pytest.approx(dist.chi2_pdf(w, m + n), rel=1e-7)


@pytest.mark.parametrize("m, n", [(1, 3), (4, 5), (10, 12)])
def test_f_mean_is_n_over_n_minus_2(m, n):
    mean = scipy.integrate.quad(lambda w: w * dist.f_pdf(w, m, n), 0, np.inf, limit=200)[0]
    assert mean == pytest.approx(n / (n - 2), rel=1e-7)


@pytest.mark.parametrize("n", [1, 3, 8, 25])
def test_square_of_t_is_f_1_n(n):
    w = np.linspace(0.01, 20, 300)
    # density of T² at w: (p_T(√w) + p_T(-√w)) / (2√w) = p_T(√w) / √w by symmetry
    np.testing.assert_allclose(dist.f_pdf(w, 1, n), dist.t_pdf(np.sqrt(w), n) / np.sqrt(w), rtol=1e-12)


def test_t_tends_to_normal():
    x = np.linspace(-6, 6, 601)
    gaps = [np.max(np.abs(dist.t_pdf(x, n) - dist.normal_pdf(x))) for n in (1, 5, 30, 300, 3000)]
    assert np.all(np.diff(gaps) < 0) and gaps[-1] < 1e-4


def test_definitions_by_simulation():
    R, m, n = 20_000, 3, 7
    rng = np.random.default_rng(10)
    z = rng.standard_normal((n + m + 1, R))
    u_n = np.sum(z[:n] ** 2, axis=0)           # chi2_n
    u_m = np.sum(z[n:n + m] ** 2, axis=0)      # chi2_m, independent of u_n
    t = z[-1] / np.sqrt(u_n / n)               # t_n
    w = (u_m / m) / (u_n / n)                  # F_{m,n}
    for sample, law in [(u_n, scipy.stats.chi2(n)), (t, scipy.stats.t(n)),
                        (w, scipy.stats.f(m, n)), (t**2, scipy.stats.f(1, n))]:
        assert scipy.stats.kstest(sample, law.cdf).pvalue > 1e-3


# ------------------------------------------------------------------------- bad inputs
_P = [0.2, 0.3, 0.5]


@pytest.mark.parametrize("call, match", [
    (lambda: dist.normal_pdf([0.0, np.nan]), "x must be finite"),
    (lambda: dist.normal_cdf(0.0, sigma=0.0), "sigma must be a positive finite number"),
    (lambda: dist.normal_cdf(0.0, sigma=-1.0), "sigma must be a positive finite number"),
    (lambda: dist.normal_cdf(0.0, mu=np.inf), "mu must be a finite real number"),
    (lambda: dist.normal_cdf(np.inf), "x must be finite"),
    (lambda: dist.normal_cdf(0.0, sigma="1"), "sigma must be a positive finite number"),
    (lambda: dist.multinomial_pmf([1, 2, 3], [0.2, 0.3, 0.6]), "p must sum to 1"),
    (lambda: dist.multinomial_pmf([1, 2, 3], [-0.2, 0.7, 0.5]), "p must be non-negative"),
    (lambda: dist.multinomial_pmf([1, 2, 3], [[0.2, 0.3, 0.5]]), "p must be a non-empty 1-D"),
    (lambda: dist.multinomial_pmf([1, -2, 3], _P), "counts must contain non-negative integers"),
    (lambda: dist.multinomial_pmf([1, 2.5, 3], _P), "counts must contain non-negative integers"),
    (lambda: dist.multinomial_pmf([1, np.nan, 3], _P), "counts must contain non-negative integers"),
    (lambda: dist.multinomial_pmf([1, 2], _P), r"counts must have shape \(3,\)"),
    (lambda: dist.multinomial_cov(-1, _P), r"n must be an integer >= 0"),
    (lambda: dist.multinomial_cov(2.5, _P), r"n must be an integer >= 0"),
    (lambda: dist.multinomial_cov(True, _P), r"n must be an integer >= 0"),
    (lambda: dist.multinomial_cov(3, [0.5, 0.6]), "p must sum to 1"),
    (lambda: dist.markov_bound(-1.0, 2.0), "mean must be non-negative"),
    (lambda: dist.markov_bound(np.inf, 2.0), "mean must be finite"),
    (lambda: dist.markov_bound(1.0, [1.0, 0.0]), "t must be positive"),
    (lambda: dist.markov_bound(1.0, np.nan), "t must be finite"),
    (lambda: dist.chebyshev_bound(-1.0, 2.0), "variance must be non-negative"),
    (lambda: dist.chebyshev_bound(1.0, -2.0), "t must be positive"),
    (lambda: dist.empirical_tail([], 1.0), "x must be a non-empty 1-D"),
    (lambda: dist.empirical_tail([[1.0, 2.0]], 1.0), "x must be a non-empty 1-D"),
    (lambda: dist.empirical_tail([1.0, np.inf], 1.0), "x must be finite"),
    (lambda: dist.empirical_tail([1.0, 2.0], np.nan), "t must be finite"),
    (lambda: dist.running_mean(np.zeros((3, 0)), axis=1), r"x must have at least 1 value\(s\)"),
    (lambda: dist.running_mean(np.zeros(3), axis=1), "axis must be an integer axis of x"),
    (lambda: dist.running_mean(5.0), "x must be an array"),
    (lambda: dist.running_mean([1.0, np.nan]), "x must be finite"),
    (lambda: dist.standardized_sum(np.ones(4), 0.0, 0.0), "sigma must be a positive finite number"),
    (lambda: dist.standardized_sum(np.ones(4), np.nan, 1.0), "mu must be a finite real number"),
    (lambda: dist.sample_mean_var([1.0]), r"x must have at least 2 value\(s\)"),
    (lambda: dist.sample_mean_var([1.0, np.nan, 2.0]), "x must be finite"),
    (lambda: dist.sample_mean_var(np.ones((3, 2)), axis=2), "axis must be an integer axis"),
    (lambda: dist.sample_mean_var(np.ones((3, 2)), axis=True), "axis must be an integer"),
    (lambda: dist.t_statistic([1.0, 2.0], mu0=np.nan), "mu0 must be a finite real number"),
    (lambda: dist.t_statistic([1.0], 0.0), r"x must have at least 2 value\(s\)"),
    (lambda: dist.chi2_pdf(1.0, 0.0), "df must be a positive finite number"),
    (lambda: dist.chi2_pdf([1.0, np.nan], 2.0), "x must be finite"),
    (lambda: dist.t_pdf(1.0, -3.0), "df must be a positive finite number"),
    (lambda: dist.t_pdf(1.0, np.inf), "df must be a positive finite number"),
    (lambda: dist.f_pdf(1.0, 0.0, 3.0), "dfn must be a positive finite number"),
    (lambda: dist.f_pdf(1.0, 2.0, -1.0), "dfd must be a positive finite number"),
    (lambda: dist.f_pdf(np.nan, 2.0, 3.0), "x must be finite"),
    # strings and ragged lists are rejected by name, not by numpy
    (lambda: dist.normal_pdf("abc"), "x must be numeric"),
    (lambda: dist.normal_pdf([[1.0, 2.0], [3.0]]), "x must be a rectangular array"),
    (lambda: dist.multinomial_pmf("abc", _P), "counts must be numeric"),
    (lambda: dist.multinomial_pmf([1, 2, 3], ["a", "b", "c"]), "p must be numeric"),
    (lambda: dist.markov_bound(1.0, "2"), "t must be numeric"),
    (lambda: dist.running_mean(np.ones(3), axis="0"), "axis must be an integer"),
])
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()
