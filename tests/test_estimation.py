"""Tests of mlnotes.estimation against scipy.stats and the closed forms of chapter 23."""
import numpy as np
import pytest
import scipy.stats as st
from scipy import special

from mlnotes import estimation as E

SIZES = [5, 40, 500]


@pytest.mark.parametrize("n", SIZES)
def test_sample_moments_match_scipy_moment_about_zero(n):
    x = np.random.default_rng(n).normal(0.5, 2.0, n)
    m = E.sample_moments(x, 4)
    for j in range(1, 5):
        assert m[j - 1] == pytest.approx(st.moment(x, j, center=0), rel=1e-12)
    X = np.random.default_rng(1).normal(size=(7, n))
    np.testing.assert_allclose(E.sample_moments(X, 2)[3], E.sample_moments(X[3], 2), rtol=1e-13)


@pytest.mark.parametrize("n", SIZES)
def test_normal_estimates_match_scipy_norm_fit(n):
    x = np.random.default_rng(n).normal(-3.0, 0.7, n)
    mu, sd = st.norm.fit(x)                          # sd has ddof 0
    np.testing.assert_allclose(E.mle_normal(x), [mu, sd ** 2], rtol=1e-10)
    np.testing.assert_allclose(E.mom_normal(x), [mu, sd ** 2], rtol=1e-8)


@pytest.mark.parametrize("n", SIZES)
def test_gamma_mom_matches_scipy_method_of_moments(n):
    x = np.random.default_rng(n).gamma(2.5, 1 / 1.5, n)
    a, loc, scale = st.gamma.fit(x, floc=0, method="MM")
    np.testing.assert_allclose(E.mom_gamma(x), [a, 1 / scale], rtol=1e-9)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("alpha", [0.3, 1.0, 7.0])
def test_gamma_mle_matches_scipy_fit(n, alpha):
    # scipy's optimiser stops at about 1e-7 relative; the Newton root is exact to 1e-10
    x = np.random.default_rng(n + int(10 * alpha)).gamma(alpha, 0.5, n)
    a, loc, scale = st.gamma.fit(x, floc=0)
    np.testing.assert_allclose(E.mle_gamma(x), [a, 1 / scale], rtol=1e-6)


def test_gamma_mle_solves_the_score_equations_row_by_row():
    X = np.random.default_rng(3).gamma(0.8, 2.0, size=(300, 25))
    est = E.mle_gamma(X)
    a, lam = est[:, 0], est[:, 1]
    n = X.shape[1]
    d_alpha = n * np.log(lam) + np.log(X).sum(1) - n * special.digamma(a)
    d_lam = n * a / lam - X.sum(1)
    np.testing.assert_allclose(d_alpha / n, 0, atol=1e-9)
    np.testing.assert_allclose(d_lam / n, 0, atol=1e-9)


def test_mle_gamma_rejects_a_constant_sample():
    with pytest.raises(ValueError, match="constant"):
        E.mle_gamma(np.full(5, 2.0))
    with pytest.raises(ValueError, match="constant"):
        E.mom_gamma(np.full(5, 2.0))


def test_poisson_estimators_are_the_mean_and_reject_non_counts():
    x = np.random.default_rng(0).poisson(2.0, 50)
    assert E.mom_poisson(x) == E.mle_poisson(x) == pytest.approx(x.mean())
    for bad in ([1.5, 2.0], [-1, 2]):
        with pytest.raises(ValueError, match="x"):
            E.mle_poisson(bad)


@pytest.mark.parametrize("m", [2, 5])
def test_multinomial_mle_maximises_the_scipy_likelihood(m):
    rng = np.random.default_rng(m)
    counts = rng.multinomial(60, np.ones(m) / m)
    p_hat = E.mle_multinomial(counts)
    best = st.multinomial.logpmf(counts, 60, p_hat)
    others = st.multinomial.logpmf(counts, 60, rng.dirichlet(np.ones(m), size=500))
    assert np.all(others < best)
    assert p_hat.sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="counts"):
        E.mle_multinomial([0, 0, 0])
    with pytest.raises(ValueError, match="counts"):
        E.mle_multinomial([1.0, 2.0])


@pytest.mark.parametrize("n", SIZES)
def test_log_likelihoods_match_scipy_logpdf(n):
    rng = np.random.default_rng(n)
    x = rng.gamma(1.7, 1 / 0.8, n)
    assert E.gamma_log_likelihood(x, 1.7, 0.8) == pytest.approx(st.gamma.logpdf(x, 1.7, scale=1 / 0.8).sum(), rel=1e-12)
    y = rng.normal(1.0, 2.0, n)
    assert E.normal_log_likelihood(y, 1.0, 4.0) == pytest.approx(st.norm.logpdf(y, 1.0, 2.0).sum(), rel=1e-12)


def test_gamma_fisher_information_is_minus_the_expected_hessian():
    # central second differences of scipy.stats.gamma.logpdf (error about h**2)
    a, lam = 2.3, 0.6
    I = E.gamma_fisher_information(a, lam)
    h = 1e-4
    def logp(t):
        return st.gamma.logpdf(1.3, t[0], scale=1 / t[1])
    t0 = np.array([a, lam])
    H = np.empty((2, 2))
    for i in range(2):
        for j in range(2):
            ei, ej = np.eye(2)[i] * h, np.eye(2)[j] * h
            H[i, j] = (logp(t0 + ei + ej) - logp(t0 + ei - ej) - logp(t0 - ei + ej) + logp(t0 - ei - ej)) / (4 * h * h)
    np.testing.assert_allclose(-H, I, rtol=1e-5)


def test_fisher_information_two_forms_agree_for_the_poisson_by_simulation():
    lam, n = 2.5, 200_000
    x = np.random.default_rng(0).poisson(lam, n)
    i_score, i_hess = E.fisher_information(lambda t, x: x / t - 1, lambda t, x: -x / t ** 2, lam, x)
    # standard errors: var(U^2) and var(X)/lam^4, both about 1/sqrt(n) relative
    assert i_score == pytest.approx(1 / lam, rel=0.02)
    assert i_hess == pytest.approx(1 / lam, rel=0.01)


def test_fisher_information_matrix_form_for_the_gamma():
    a, lam, n = 1.5, 2.0, 200_000
    x = np.random.default_rng(1).gamma(a, 1 / lam, n)

    def score(t, x):
        return np.column_stack([np.log(t[1]) + np.log(x) - special.digamma(t[0]), t[0] / t[1] - x])

    def hess(t, x):
        H = np.array([[-special.polygamma(1, t[0]), 1 / t[1]], [1 / t[1], -t[0] / t[1] ** 2]])
        return np.broadcast_to(H, (x.size, 2, 2))

    i_score, i_hess = E.fisher_information(score, hess, np.array([a, lam]), x)
    I = E.gamma_fisher_information(a, lam)
    np.testing.assert_allclose(i_hess, I, rtol=1e-10)   # a mean of n equal matrices
    np.testing.assert_allclose(i_score, I, rtol=0.03)


def test_crlb_scalar_and_matrix():
    assert E.crlb(0.5, 10) == pytest.approx(0.2)
    I = E.gamma_fisher_information(2.0, 1.0)
    np.testing.assert_allclose(E.crlb(I, 10) @ (10 * I), np.eye(2), atol=1e-12)
    with pytest.raises(ValueError, match="info"):
        E.crlb(np.array([[1.0, 2.0], [2.0, 1.0]]), 5)


@pytest.mark.parametrize("n", [2, 10, 300])
def test_normal_intervals_match_scipy(n):
    x = np.random.default_rng(n).normal(2.0, 3.0, n)
    lo, hi = E.normal_mean_ci(x, 0.1)
    ref = st.t.interval(0.9, n - 1, loc=x.mean(), scale=x.std(ddof=1) / np.sqrt(n))
    np.testing.assert_allclose([lo, hi], ref, rtol=1e-12)
    lo, hi = E.normal_var_ci(x, 0.1)
    ss = n * x.var()
    np.testing.assert_allclose([lo, hi], [ss / st.chi2.ppf(0.95, n - 1), ss / st.chi2.ppf(0.05, n - 1)], rtol=1e-12)


def test_wald_ci_matches_scipy_norm_interval():
    th, info = np.array([1.0, 3.0]), np.array([2.0, 0.25])
    lo, hi = E.wald_ci(th, info, 50, 0.01)
    ref = st.norm.interval(0.99, loc=th, scale=1 / np.sqrt(50 * info))
    np.testing.assert_allclose([lo, hi], ref, rtol=1e-12)


def test_exact_interval_coverage_by_simulation():
    R, n = 20000, 8
    X = np.random.default_rng(5).normal(1.0, 2.0, (R, n))
    lo, hi = E.normal_mean_ci(X, 0.05)
    cover = np.mean((lo <= 1.0) & (1.0 <= hi))
    lo, hi = E.normal_var_ci(X, 0.05)
    cover_v = np.mean((lo <= 4.0) & (4.0 <= hi))
    se = np.sqrt(0.95 * 0.05 / R)
    assert abs(cover - 0.95) < 4 * se and abs(cover_v - 0.95) < 4 * se


def test_parametric_bootstrap_shapes_and_standard_error():
    rng = np.random.default_rng(2)
    est = E.parametric_bootstrap(E.mle_poisson, lambda r, B: r.poisson(4.0, (B, 100)), 4000, rng)
    assert est.shape == (4000,)
    # sd of the bootstrap estimates ≈ sqrt(lam/n) = 0.2; its relative se is sqrt(1/(2B))
    assert est.std(ddof=1) == pytest.approx(0.2, rel=4 / np.sqrt(2 * 4000))
    est2 = E.parametric_bootstrap(E.mle_gamma, lambda r, B: r.gamma(2.0, 1.0, (B, 30)), 10, rng)
    assert est2.shape == (10, 2)
    with pytest.raises(ValueError, match="sampler"):
        E.parametric_bootstrap(E.mle_poisson, lambda r, B: r.poisson(4.0, (B + 1, 3)), 5, rng)


def test_rao_blackwell_is_the_exact_conditional_expectation():
    # brute force over all samples of size 3 with counts < 12: E[1{X1=0} | S=s]
    n, lam = 3, 1.3
    grid = np.array(np.meshgrid(*[np.arange(12)] * n, indexing="ij")).reshape(n, -1).T
    w = st.poisson.pmf(grid, lam).prod(axis=1)
    S = grid.sum(1)
    for s in range(8):
        m = S == s
        cond = np.sum(w[m] * (grid[m, 0] == 0)) / np.sum(w[m])
        assert E.rao_blackwell_poisson_zero(grid[m][0]) == pytest.approx(cond, rel=1e-12)


def test_rao_blackwell_is_unbiased_exactly():
    lam, n = 0.8, 6
    s = np.arange(200)
    mean = np.sum(st.poisson.pmf(s, n * lam) * (1 - 1 / n) ** s)
    assert mean == pytest.approx(np.exp(-lam), rel=1e-12)


def test_fisher_information_reports_a_failing_callable_by_name():
    x = np.arange(5.0)
    with pytest.raises(ValueError, match="score.*theta"):
        E.fisher_information(lambda t, x: x / t, lambda t, x: -x, np.array([1.0, 2.0]), x)
    with pytest.raises(ValueError, match="hessian must return"):
        E.fisher_information(lambda t, x: x / t - 1, lambda t, x: np.ones(3), 2.0, x)


def test_mom_normal_far_from_origin_matches_numpy():
    # regression: mean(x**2) - mean(x)**2 returned 6 instead of ~1 for N(1e8, 1) data
    x = np.random.default_rng(0).normal(1e8, 1.0, 1000)
    mu, sd = st.norm.fit(x)
    np.testing.assert_allclose(E.mom_normal(x), [x.mean(), np.var(x)], rtol=1e-9)
    np.testing.assert_allclose(E.mom_normal(x), [mu, sd**2], rtol=1e-9)
    X = x.reshape(10, 100)
    np.testing.assert_allclose(E.mom_normal(X)[:, 1], X.var(axis=1), rtol=1e-9)
    # the gamma MoM uses the same variance
    np.testing.assert_allclose(E.mom_gamma(x)[0], x.mean() ** 2 / np.var(x), rtol=1e-9)


def _log_mean_minus_mean_log_exact(x):
    from decimal import Decimal, getcontext
    getcontext().prec = 60
    d = [Decimal(float(v)) for v in x]
    return float((sum(d) / len(d)).ln() - sum(v.ln() for v in d) / len(d))


@pytest.mark.parametrize("offset", [1e4, 1e6, 1e8])
def test_mle_gamma_far_from_origin(offset):
    # regression: log(mean x) - mean(log x) cancelled; at offset 1e6 alpha was off by 0.4 %,
    # at 1e8 the sample was rejected as constant. For large alpha the likelihood equation
    # log(a) - digamma(a) = s gives a = 1/(2s) + 1/6 + O(s); s is computed in 60 digits.
    x = np.random.default_rng(1).normal(offset, 1.0, 200)
    s = _log_mean_minus_mean_log_exact(x)
    a, lam = E.mle_gamma(x)
    assert a == pytest.approx(1 / (2 * s) + 1 / 6, rel=1e-9)
    assert lam == pytest.approx(a / x.mean(), rel=1e-12)


def test_mle_gamma_reports_non_convergence():
    x = np.random.default_rng(2).gamma(0.5, 1.0, 50)
    with pytest.raises(ValueError, match="max_iter"):
        E.mle_gamma(x, tol=1e-12, max_iter=1)


def test_bad_calls_found_by_hardening():
    with pytest.raises(ValueError, match="info must be a number or have the shape"):
        E.wald_ci(np.array([1.0, 2.0]), np.array([1.0]), 10)
    # counts near 2**62 made the int64 total wrap to a negative number
    np.testing.assert_allclose(E.mle_multinomial(np.array([2**62, 2**62, 2**62])), np.full(3, 1 / 3))
    for f in (E.mom_normal, E.mle_normal, E.mom_gamma, lambda x: E.sample_moments(x, 2)):
        with pytest.raises(ValueError, match="overflowed: rescale x"):
            f(np.array([1e200, 3e200, 2e200]))
    with pytest.raises(ValueError, match="rescale x, mu and sigma2"):
        E.normal_log_likelihood(np.array([1e200, -1e200]), 0.0, 1e-300)
