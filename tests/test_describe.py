"""Tests of mlnotes.describe against scipy (and scikit-learn), plus the chapter's identities."""
import math

import numpy as np
import pytest
import scipy.optimize
import scipy.special
import scipy.stats
from sklearn.neighbors import KernelDensity

from mlnotes import describe

SIZES = [(7, 0), (50, 1), (501, 2)]  # (n, seed)


def _sample(n, seed, kind="normal"):
    rng = np.random.default_rng(seed)
    if kind == "normal":
        return rng.normal(1.0, 2.0, n)
    if kind == "exponential":
        return rng.exponential(1.5, n)
    if kind == "ties":  # rounded data: many tied values
        return np.round(rng.normal(0.0, 1.0, n), 1)
    raise AssertionError(kind)


# ------------------------------------------------------------------ ECDF and KS
@pytest.mark.parametrize("n, seed", SIZES)
@pytest.mark.parametrize("kind", ["normal", "ties"])
def test_ecdf_matches_scipy(n, seed, kind):
    x = _sample(n, seed, kind)
    t = np.concatenate([x, np.linspace(x.min() - 1, x.max() + 1, 97)])  # jumps and between
    Fn = describe.ecdf(x)
    np.testing.assert_allclose(Fn(t), scipy.stats.ecdf(x).cdf.evaluate(t), atol=1e-15)
    assert Fn(x.min() - 1) == 0 and Fn(x.max()) == 1


def test_ecdf_binomial_law_by_simulation():
    n, reps = 30, 40000
    X = np.random.default_rng(3).exponential(size=(reps, n))
    for F in (0.2, 0.5, 0.9):
        t = -np.log1p(-F)
        counts = np.sum(X <= t, axis=1)  # n F_n(t) for each sample
        pmf = np.bincount(counts, minlength=n + 1) / reps
        ref = scipy.stats.binom.pmf(np.arange(n + 1), n, F)
        assert np.all(np.abs(pmf - ref) <= 4 * np.sqrt(ref * (1 - ref) / reps) + 1e-12)
        dev2 = (counts / n - F) ** 2
        assert abs(dev2.mean() - F * (1 - F) / n) <= 4 * dev2.std() / np.sqrt(reps)


@pytest.mark.parametrize("n, seed", SIZES)
@pytest.mark.parametrize("dist", [scipy.stats.norm(1.0, 2.0), scipy.stats.expon(scale=1.5)])
def test_ks_statistic_matches_kstest(n, seed, dist):
    x = _sample(n, seed, "normal" if dist.dist.name == "norm" else "exponential")
    assert describe.ks_statistic(x, dist.cdf) == pytest.approx(
        scipy.stats.kstest(x, dist.cdf).statistic, abs=1e-14)
    X = np.random.default_rng(seed).normal(size=(4, n))  # rows are samples
    np.testing.assert_allclose(describe.ks_statistic(X, scipy.stats.norm.cdf),
                               [scipy.stats.kstest(r, "norm").statistic for r in X], atol=1e-14)


def test_ks_statistic_is_distribution_free():
    n, reps = 15, 20000
    rng = np.random.default_rng(4)
    d_norm = describe.ks_statistic(rng.normal(size=(reps, n)), scipy.stats.norm.cdf)
    d_exp = describe.ks_statistic(rng.exponential(size=(reps, n)), scipy.stats.expon.cdf)
    eps = describe.dkw_epsilon(reps, 1e-4)  # tolerance from the DKW inequality itself
    grid = np.linspace(0, 1, 2001)  # kstwo's CDF is slow: tabulate and interpolate it
    table = scipy.stats.kstwo(n).cdf(grid)
    probe = np.linspace(0.03, 0.7, 97)
    np.testing.assert_allclose(np.interp(probe, grid, table), scipy.stats.kstwo(n).cdf(probe), atol=1e-5)
    for d in (d_norm, d_exp):
        assert describe.ks_statistic(d, lambda v: np.interp(v, grid, table)) <= eps


@pytest.mark.parametrize("n", [1, 5, 20, 100, 1000])
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.2])
def test_dkw_bound_holds_for_the_exact_law(n, alpha):
    eps = describe.dkw_epsilon(n, alpha)
    assert eps == pytest.approx(math.sqrt(math.log(2 / alpha) / (2 * n)))
    assert scipy.stats.kstwo(n).sf(eps) <= alpha


def test_dkw_band_coverage_by_simulation():
    n, reps, alpha = 40, 20000, 0.1
    D = describe.ks_statistic(np.random.default_rng(5).uniform(size=(reps, n)), lambda u: u)
    miss = np.mean(D > describe.dkw_epsilon(n, alpha))
    assert miss <= alpha + 4 * np.sqrt(alpha * (1 - alpha) / reps)


# ------------------------------------------------------------- survival and hazard
@pytest.mark.parametrize("n, seed", SIZES)
def test_survival_conventions(n, seed):
    x = _sample(n, seed, "exponential")
    t = np.linspace(0, x.max() + 1, 50)
    np.testing.assert_allclose(describe.survival(x, t), scipy.stats.ecdf(x).sf.evaluate(t), atol=1e-15)
    xs = np.sort(x)
    np.testing.assert_allclose(describe.survival(x, xs, "n+1"), 1 - np.arange(1, n + 1) / (n + 1))
    assert np.all(describe.survival(x, t, "n+1") > 0)


@pytest.mark.parametrize("k", [0.5, 1.0, 2.0, 3.5])
def test_hazard_of_weibull(k):
    lam = 1.7
    dist = scipy.stats.weibull_min(k, scale=lam)
    t = np.linspace(0.05, 4, 60)
    h = describe.hazard(t, dist.pdf, dist.sf)
    np.testing.assert_allclose(h, (k / lam) * (t / lam) ** (k - 1), rtol=1e-10)
    step = 1e-5  # h = -d/dt log S
    np.testing.assert_allclose(h, -(dist.logsf(t + step) - dist.logsf(t - step)) / (2 * step), rtol=1e-6)


def test_exponential_hazard_is_constant():
    dist = scipy.stats.expon(scale=0.25)
    h = describe.hazard(np.linspace(0, 3, 31), dist.pdf, dist.sf)
    np.testing.assert_allclose(h, 4.0, rtol=1e-12)


def test_delta_method_for_log_survival():
    n, reps = 400, 20000
    X = np.random.default_rng(6).exponential(size=(reps, n))
    for F in (0.5, 0.8):
        t = -np.log1p(-F)
        logS = np.log(1 - np.mean(X <= t, axis=1))
        assert np.var(logS) == pytest.approx(F / (n * (1 - F)), rel=0.1)


# ------------------------------------------------------------- quantiles and Q-Q
@pytest.mark.parametrize("n, seed", SIZES)
def test_quantile_matches_numpy(n, seed):
    x = _sample(n, seed)
    p = np.linspace(0, 1, 41)
    np.testing.assert_allclose(describe.quantile(x, p), np.quantile(x, p), atol=1e-12)
    assert describe.quantile(x, 0.5) == pytest.approx(np.median(x), abs=1e-12)
    X = np.random.default_rng(seed).normal(size=(3, n))
    np.testing.assert_allclose(describe.quantile(X, p), np.quantile(X, p, axis=1).T, atol=1e-12)


def test_qq_points():
    rng = np.random.default_rng(7)
    x, y = rng.normal(size=40), rng.normal(size=40)
    qx, qy = describe.qq_points(x, y)  # equal sizes: the order statistics
    np.testing.assert_array_equal(qx, np.sort(x))
    np.testing.assert_array_equal(qy, np.sort(y))
    z = rng.normal(size=97)
    qx, qz = describe.qq_points(x, z)  # unequal sizes: quantiles at the smaller grid
    np.testing.assert_allclose(qz, np.quantile(z, np.linspace(0, 1, 40)), atol=1e-12)
    qx, qs = describe.qq_points(x, 3.0 + x)  # additive effect: exactly y = x + 3
    np.testing.assert_allclose(qs, qx + 3.0, atol=1e-12)
    qx, qm = describe.qq_points(x, 2.5 * x)  # multiplicative: exactly y = 2.5 x
    np.testing.assert_allclose(qm, 2.5 * qx, atol=1e-12)


# --------------------------------------------------------------- kernel density
@pytest.mark.parametrize("n, seed", SIZES)
@pytest.mark.parametrize("h", [0.1, 0.7, 3.0])
def test_kde_matches_gaussian_kde(n, seed, h):
    x = _sample(n, seed)
    grid = np.linspace(x.min() - 3, x.max() + 3, 77)
    ref = scipy.stats.gaussian_kde(x, bw_method=h / x.std(ddof=1))  # bw_method scales the sd
    np.testing.assert_allclose(describe.kde(x, grid, h), ref(grid), rtol=1e-10, atol=1e-15)


@pytest.mark.parametrize("kernel", ["gaussian", "epanechnikov"])
def test_kde_matches_sklearn_and_integrates_to_one(kernel):
    x = _sample(60, 8)
    grid = np.linspace(x.min() - 6, x.max() + 6, 4001)
    f = describe.kde(x, grid, 0.8, kernel=kernel)
    ref = KernelDensity(kernel=kernel, bandwidth=0.8).fit(x[:, None])
    np.testing.assert_allclose(f, np.exp(ref.score_samples(grid[:, None])), rtol=1e-9, atol=1e-12)
    assert np.trapezoid(f, grid) == pytest.approx(1.0, abs=1e-4)
    assert np.all(f >= 0)


@pytest.mark.parametrize("n, seed", SIZES)
def test_silverman_bandwidth_matches_scipy(n, seed):
    x = _sample(n, seed)
    ref = scipy.stats.gaussian_kde(x, bw_method="silverman")
    assert describe.silverman_bandwidth(x) == pytest.approx(ref.factor * x.std(ddof=1), rel=1e-12)


def test_kde_mean_is_the_smoothed_density():
    n, reps, h = 20, 20000, 0.5
    X = np.random.default_rng(9).standard_normal((reps, n))
    grid = np.array([-1.5, 0.0, 0.7, 2.0])
    u = (grid[:, None, None] - X) / h  # f_h at the grid for every sample, vectorised
    fh = np.exp(-0.5 * u**2).mean(axis=2) / (h * np.sqrt(2 * np.pi))
    np.testing.assert_allclose(fh[:, 0], describe.kde(X[0], grid, h), atol=1e-14)
    target = scipy.stats.norm(0, np.sqrt(1 + h**2)).pdf(grid)
    assert np.all(np.abs(fh.mean(axis=1) - target) <= 4 * fh.std(axis=1) / np.sqrt(reps))


# -------------------------------------------------------------------- location
@pytest.mark.parametrize("n", [2, 3, 15, 40, 101])
def test_median_ci_coverage_matches_binomial(n):
    for k in range(1, n // 2 + 1):
        assert describe.median_ci_coverage(n, k) == pytest.approx(
            1 - 2 * scipy.stats.binom.cdf(k - 1, n, 0.5), abs=1e-12)


def test_median_ci_coverage_by_simulation():
    n, k, reps = 15, 4, 40000
    rng = np.random.default_rng(10)
    expected = describe.median_ci_coverage(n, k)
    for X, eta in ((rng.exponential(size=(reps, n)), np.log(2)), (rng.standard_cauchy((reps, n)), 0.0)):
        ci = describe.median_ci(X, k)
        covered = np.mean((ci.lower <= eta) & (eta <= ci.upper))
        assert abs(covered - expected) <= 4 * np.sqrt(expected * (1 - expected) / reps)


def test_median_ci_end_points_are_order_statistics():
    x = _sample(20, 11)
    ci = describe.median_ci(x, 6)
    xs = np.sort(x)
    assert (ci.lower, ci.upper) == (xs[5], xs[14])
    assert ci.coverage == describe.median_ci_coverage(20, 6)


@pytest.mark.parametrize("n, seed", SIZES)
@pytest.mark.parametrize("alpha", [0.0, 0.1, 0.2, 0.25, 0.45])
def test_trimmed_mean_matches_scipy(n, seed, alpha):
    x = _sample(n, seed, "exponential")
    assert describe.trimmed_mean(x, alpha) == pytest.approx(scipy.stats.trim_mean(x, alpha), abs=1e-12)
    X = np.random.default_rng(seed).exponential(size=(3, n))
    np.testing.assert_allclose(describe.trimmed_mean(X, alpha), scipy.stats.trim_mean(X, alpha, axis=1),
                               atol=1e-12)


def _huber_objective(x, mu, c, s):
    return scipy.special.huber(c, (x - mu) / s).sum()


@pytest.mark.parametrize("n, seed", SIZES)
@pytest.mark.parametrize("c", [0.5, 1.345, 3.0])
def test_huber_location_minimises_the_objective(n, seed, c):
    x = _sample(n, seed, "exponential")  # skewed, so mean, median and Huber differ
    s = describe.mad(x, normalize=True)
    mu = describe.huber_location(x, c)
    ref = scipy.optimize.minimize_scalar(lambda m: _huber_objective(x, m, c, s),
                                         bounds=(x.min(), x.max()), method="bounded",
                                         options={"xatol": 1e-12})
    assert _huber_objective(x, mu, c, s) <= ref.fun + 1e-12
    assert mu == pytest.approx(ref.x, abs=1e-6 * s)
    assert np.sum(np.clip((x - mu) / s, -c, c)) == pytest.approx(0.0, abs=1e-7)  # Σψ = 0


def test_huber_location_limits_and_rows():
    x = _sample(51, 12, "exponential")
    assert describe.huber_location(x, c=1e8) == pytest.approx(x.mean(), abs=1e-12)
    assert describe.huber_location(x, c=1e-4) == pytest.approx(np.median(x), abs=1e-9)
    X = np.random.default_rng(12).standard_t(2, size=(5, 30))
    np.testing.assert_allclose(describe.huber_location(X), [describe.huber_location(r) for r in X],
                               atol=1e-9)
    assert describe.huber_location(x, scale=2.0) == pytest.approx(
        describe.huber_location(x / 2.0, scale=1.0) * 2.0, abs=1e-9)


def test_huber_irls_step_never_increases_the_objective():
    x = _sample(40, 13, "exponential")
    c, s = 1.0, describe.mad(x, normalize=True)
    mu, values = float(x.max()), []  # a poor start
    for _ in range(30):
        values.append(_huber_objective(x, mu, c, s))
        mu = describe.huber_irls_step(x, mu, c, s)
    assert np.all(np.diff(values) <= 1e-12)
    assert mu == pytest.approx(describe.huber_location(x, c), abs=1e-3 * s)


def test_huber_location_reports_non_convergence():
    with pytest.raises(RuntimeError, match="did not converge"):
        describe.huber_location(_sample(50, 14, "exponential"), max_iter=1)


# ------------------------------------------------------------------ dispersion
@pytest.mark.parametrize("n, seed", SIZES)
def test_iqr_and_mad_match_scipy(n, seed):
    x = _sample(n, seed, "exponential")
    assert describe.iqr(x) == pytest.approx(scipy.stats.iqr(x), abs=1e-12)
    assert describe.mad(x) == pytest.approx(scipy.stats.median_abs_deviation(x), abs=1e-12)
    assert describe.mad(x, normalize=True) == pytest.approx(
        scipy.stats.median_abs_deviation(x, scale="normal"), abs=1e-12)
    X = np.random.default_rng(seed).normal(size=(3, n))
    np.testing.assert_allclose(describe.iqr(X), scipy.stats.iqr(X, axis=1), atol=1e-12)
    np.testing.assert_allclose(describe.mad(X), scipy.stats.median_abs_deviation(X, axis=1), atol=1e-12)


def test_robust_estimates_resist_contamination():
    x = np.random.default_rng(15).standard_normal(50)
    bad = x.copy()
    bad[:5] = 1e6  # 10% of the points replaced by a gross error
    assert abs(bad.mean()) > 1e4
    for est in (np.median(bad), describe.trimmed_mean(bad, 0.1), describe.huber_location(bad)):
        assert x.min() <= est <= x.max()
    assert describe.mad(bad, normalize=True) < 2 and describe.iqr(bad) < 3 and bad.std() > 1e5
    bad[:6] = 1e6  # one more than [n alpha] = 5: the 10% trimmed mean breaks down
    assert describe.trimmed_mean(bad, 0.1) > 1e4


# ------------------------------------------------------------------ bad inputs
_x = np.array([0.3, -1.2, 2.5, 0.7, 1.1, -0.4])
_t = np.array([0.0, 1.0])
_expon = scipy.stats.expon()


@pytest.mark.parametrize("call, match", [
    (lambda: describe.ecdf([]), "x must be an array of shape"),
    (lambda: describe.ecdf(np.ones((2, 3))), "x must be an array of shape"),
    (lambda: describe.ecdf([1.0, np.nan]), "x must be finite"),
    (lambda: describe.ecdf(_x)([np.inf]), "t must be finite"),
    (lambda: describe.ks_statistic(np.ones((2, 2, 2)), _expon.cdf), "x must be an array of shape"),
    (lambda: describe.ks_statistic([1.0, np.inf], _expon.cdf), "x must be finite"),
    (lambda: describe.ks_statistic(_x, "norm"), "cdf must be callable"),
    (lambda: describe.ks_statistic(_x, lambda u: 2 * u), "cdf must return values in"),
    (lambda: describe.ks_statistic(_x, lambda u: u[:2]), r"cdf must return an array of shape \(6,\)"),
    (lambda: describe.ks_statistic(_x, lambda u: np.nan * u), "the value returned by cdf must be finite"),
    (lambda: describe.ks_statistic(_x, lambda u: "abc"), "the value returned by cdf must be numeric"),
    (lambda: describe.dkw_epsilon(0), "n must be an integer"),
    (lambda: describe.dkw_epsilon(10.0), "n must be an integer"),
    (lambda: describe.dkw_epsilon(10, 1.5), "alpha must be a number in"),
    (lambda: describe.survival(_x, [np.nan]), "t must be finite"),
    (lambda: describe.survival(_x, _t, convention="n-1"), "convention must be"),
    (lambda: describe.survival(_x[:, None], _t), "x must be an array of shape"),
    (lambda: describe.hazard(_t, _expon.pdf, 3.0), "sf must be callable"),
    (lambda: describe.hazard(_t, lambda t: -t, _expon.sf), "pdf must be non-negative"),
    (lambda: describe.hazard(_t, _expon.pdf, lambda t: 0 * t), "sf must lie in"),
    (lambda: describe.hazard([np.inf], _expon.pdf, _expon.sf), "t must be finite"),
    (lambda: describe.hazard(_t, lambda t: np.ones(5), _expon.sf), r"pdf must return an array of shape"),
    (lambda: describe.quantile(_x, 1.2), "p must be"),
    (lambda: describe.quantile(_x, [[0.5]]), "p must be"),
    (lambda: describe.quantile(_x, np.nan), "p must be finite"),
    (lambda: describe.qq_points(_x, [1.0]), "y must be an array of shape"),
    (lambda: describe.qq_points(np.ones((2, 3)), _x), "x must be an array of shape"),
    (lambda: describe.kde(_x, _t, 0.0), "h must be a positive"),
    (lambda: describe.kde(_x, _t, "scott"), "h must be a positive"),
    (lambda: describe.kde(_x, _t, 1.0, kernel="box"), "kernel must be one of"),
    (lambda: describe.kde(_x, [np.nan], 1.0), "grid must be finite"),
    (lambda: describe.silverman_bandwidth([1.0]), "x must be an array of shape"),
    (lambda: describe.silverman_bandwidth([2.0, 2.0, 2.0]), "x must contain at least two distinct"),
    (lambda: describe.median_ci_coverage(1, 1), "n must be an integer"),
    (lambda: describe.median_ci_coverage(10, 6), "k must be an integer"),
    (lambda: describe.median_ci_coverage(10, 0), "k must be an integer"),
    (lambda: describe.median_ci(_x, 4), "k must be an integer"),
    (lambda: describe.median_ci(_x, 2.0), "k must be an integer"),
    (lambda: describe.median_ci([1.0], 1), "x must be an array of shape"),
    (lambda: describe.trimmed_mean(_x, 0.5), "alpha must be a number in"),
    (lambda: describe.trimmed_mean(_x, -0.1), "alpha must be a number in"),
    (lambda: describe.trimmed_mean([np.nan, 1.0], 0.1), "x must be finite"),
    (lambda: describe.huber_location(_x, c=0.0), "c must be a positive"),
    (lambda: describe.huber_location(_x, scale=-1.0), "scale must be a positive"),
    (lambda: describe.huber_location(_x, tol=0.0), "tol must be a positive"),
    (lambda: describe.huber_location(_x, max_iter=0), "max_iter must be an integer"),
    (lambda: describe.huber_location([1.0, 1.0, 1.0, 5.0]), "scale must be positive: the MAD"),
    (lambda: describe.huber_irls_step(_x, [0.0, 1.0], 1.0, 1.0), "mu must be a number or have shape"),
    (lambda: describe.huber_irls_step(_x, 0.0, 1.0, 0.0), "scale must be positive"),
    (lambda: describe.huber_irls_step(_x, np.nan, 1.0, 1.0), "mu must be finite"),
    (lambda: describe.iqr(np.ones((2, 0))), "x must be an array of shape"),
    (lambda: describe.mad(_x, normalize="yes"), "normalize must be True or False"),
    (lambda: describe.mad([np.inf]), "x must be finite"),
    # strings, ragged lists, bools as counts and strings as flags are rejected by name
    (lambda: describe.ecdf("abc"), "x must be numeric"),
    (lambda: describe.ecdf([[1.0, 2.0], [3.0]]), "x must be a rectangular array"),
    (lambda: describe.dkw_epsilon(True), "n must be an integer"),
    (lambda: describe.dkw_epsilon(10, "0.05"), "alpha must be a finite real number"),
    (lambda: describe.median_ci_coverage(10, True), "k must be an integer"),
    (lambda: describe.trimmed_mean(_x, "0.1"), "alpha must be a finite real number"),
    (lambda: describe.huber_location(_x, max_iter=True), "max_iter must be an integer"),
    (lambda: describe.mad(_x, normalize="no"), "normalize must be True or False"),
    (lambda: describe.quantile(_x, ["a"]), "p must be numeric"),
])
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_reprs_have_no_addresses():
    for obj in (describe.ecdf(_x), describe.median_ci(_x, 2)):
        assert "0x" not in repr(obj) and "array" not in repr(obj)
    assert repr(describe.ecdf(_x)) == "ECDF(n=6)"
