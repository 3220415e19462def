"""Tests of mlnotes.concentration against exact binomial tails (scipy.stats), brute force and
simulation, plus the identities of chapter 30."""
import numpy as np
import pytest
import scipy.special
import scipy.stats

from mlnotes import concentration as conc
from mlnotes import distributions, model_selection


def _tails(n, p, eps):
    k_hi = np.ceil(n * (p + eps) - 1e-9)
    k_lo = np.floor(n * (p - eps) + 1e-9)
    return scipy.stats.binom.sf(k_hi - 1, n, p), scipy.stats.binom.cdf(k_lo, n, p)


def test_markov_and_chebyshev_delegate_to_chapter_1():
    # one implementation: the names of this module are chapter 1's functions
    assert conc.markov_bound is distributions.markov_bound
    assert conc.chebyshev_bound is distributions.chebyshev_bound
    mean, var, t = np.array([0.5, 2.0]), np.array([1.0, 0.1]), np.array([1.0, 4.0])
    assert np.array_equal(conc.markov_bound(mean, t), distributions.markov_bound(mean, t))
    assert np.array_equal(conc.chebyshev_bound(var, t), distributions.chebyshev_bound(var, t))
    # Markov bounds the exact exponential tail, Chebyshev the exact two-sided normal tail
    assert np.all(scipy.stats.expon.sf(t) <= conc.markov_bound(1.0, t))
    assert np.all(2 * scipy.stats.norm.sf(t) <= conc.chebyshev_bound(1.0, t))


@pytest.mark.parametrize("n", [1, 7, 50, 400, 3000])
@pytest.mark.parametrize("p", [0.01, 0.2, 0.5, 0.93])
def test_hoeffding_bounds_exact_binomial_tails(n, p):
    eps = np.linspace(0.005, 0.8, 120)
    up, lo = _tails(n, p, eps)
    one = conc.hoeffding_bound(n, eps, 0.0, 1.0, two_sided=False)
    assert np.all(up <= one) and np.all(lo <= one)
    assert np.all(up + lo <= conc.hoeffding_bound(n, eps))


def test_hoeffding_bound_formula_and_scaling():
    # exact formula, and invariance under an affine change of the range
    eps = np.array([0.1, 0.25])
    assert np.allclose(conc.hoeffding_bound(20, eps, -1.0, 3.0), 2 * np.exp(-2 * 20 * eps**2 / 16), rtol=1e-14)
    assert np.allclose(conc.hoeffding_bound(20, 4 * eps, -1.0, 3.0), conc.hoeffding_bound(20, eps), rtol=1e-14)
    assert isinstance(conc.hoeffding_bound(5, 0.3), float)


def test_hoeffding_lemma_gap_against_logsumexp_and_nonnegative():
    rng = np.random.default_rng(0)
    s = np.linspace(-10, 10, 81)
    for _ in range(200):
        k = int(rng.integers(2, 9))
        v, w = rng.normal(size=k) * 3, rng.dirichlet(np.ones(k) * 0.5)
        gap = conc.hoeffding_lemma_gap(v, w, s)
        ref = s**2 * np.ptp(v) ** 2 / 8 - scipy.special.logsumexp(s[:, None] * (v - w @ v), b=w, axis=1)
        assert np.allclose(gap, ref, atol=1e-9)
        assert np.all(gap >= -1e-10)


def test_hoeffding_lemma_gap_zero_probabilities_and_two_point():
    gap = conc.hoeffding_lemma_gap([0.0, 0.5, 1.0], [0.5, 0.0, 0.5], 2.0)
    assert np.isclose(gap, 4 / 8 - np.log(np.cosh(1.0)), atol=1e-14)
    assert conc.hoeffding_lemma_gap([1.0, 2.0], [0.3, 0.7], 0.0) == 0.0


def test_popoviciu_attained_and_respected():
    rng = np.random.default_rng(1)
    assert conc.popoviciu_bound(-2.0, 4.0) == 9.0
    assert np.isclose(np.var([-2.0, 4.0]), conc.popoviciu_bound(-2.0, 4.0))
    x = rng.uniform(-2, 4, size=(500, 30))
    assert np.all(np.var(x, axis=1) <= 9.0)


@pytest.mark.parametrize("k,n,delta", [(1, 1, 1.0), (20, 100, 0.05), (2000, 5000, 1e-6)])
def test_finite_class_bound_matches_chapter_11_and_solves_for_delta(k, n, delta):
    r = conc.finite_class_uniform_bound(k, n, delta, M=0.5)
    if delta < 1:
        assert np.isclose(r, model_selection.finite_class_bound(n, k, delta), rtol=1e-14)
    # plugging the radius into 2|H| exp(-n r² / (2M²)) gives back delta (M = 3)
    r3 = conc.finite_class_uniform_bound(k, n, delta, M=3.0)
    assert np.isclose(2 * k * np.exp(-n * r3**2 / (2 * 9.0)), delta, rtol=1e-12)


@pytest.mark.parametrize("k,eps,delta,M", [(1, 0.5, 1.0, 1.0), (200, 0.05, 0.05, 0.5), (10**6, 0.01, 1e-3, 2.0)])
def test_sample_complexity_is_the_least_sufficient_n(k, eps, delta, M):
    n = conc.sample_complexity_finite(k, eps, delta, M)
    assert conc.finite_class_uniform_bound(k, n, delta, M) <= eps * (1 + 1e-12)
    if n > 1:
        assert conc.finite_class_uniform_bound(k, n - 1, delta, M) > eps


def test_threshold_grid():
    for p in range(4):
        g = conc.threshold_grid(p)
        assert g.size == 2 * 10**p and g[-1] == 1.0 and g[0] > -1
        assert np.allclose(np.diff(g), 10.0**-p)
    assert np.isin(np.rint(conc.threshold_grid(1) * 100), np.rint(conc.threshold_grid(2) * 100)).all()


@pytest.mark.parametrize("n,m,seed", [(1, 5, 0), (37, 20, 1), (500, 200, 2)])
def test_erm_thresholds_against_brute_force(n, m, seed):
    rng = np.random.default_rng(seed)
    x = np.round(rng.uniform(-1, 1, n), 2)               # ties among x and with thresholds
    y = rng.choice([-1, 1], n)
    a = np.sort(rng.choice(np.linspace(-1, 1, 201), m, replace=False))
    fit = conc.erm_thresholds(x, y, a)
    brute = np.mean(np.where(x[:, None] >= a, 1, -1) != y[:, None], axis=0)
    assert np.allclose(fit.risks, brute, atol=1e-15)
    assert fit.index == int(np.argmin(brute)) and fit.threshold == a[fit.index]
    assert np.isclose(fit.empirical_risk, brute.min())


def test_erm_thresholds_recovers_a_noise_free_threshold():
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, 2000)
    y = np.where(x >= 0.3, 1, -1)
    fit = conc.erm_thresholds(x, y, conc.threshold_grid(2))
    assert fit.empirical_risk == 0.0 and abs(fit.threshold - 0.3) <= 0.011


def test_uniform_deviation_shapes_and_values():
    rng = np.random.default_rng(4)
    L = rng.random((3, 10, 4))
    risks = np.array([0.5, 0.4, 0.6, 0.5])
    d = conc.uniform_deviation(L, risks)
    assert d.shape == (3,)
    assert np.allclose(d, np.abs(L.mean(axis=1) - risks).max(axis=1))
    assert np.isclose(conc.uniform_deviation(L[0], risks), d[0])


def test_union_bound_failure_rate_by_simulation():
    # 20 thresholds, noisy labels: the uniform deviation exceeds the radius with frequency <= delta
    rng = np.random.default_rng(5)
    q, a_star, delta, n = 0.2, 1 / np.pi, 0.2, 60
    H = conc.threshold_grid(1)
    x = rng.uniform(-1, 1, (3000, n))
    y = np.where(x >= a_star, 1, -1) * np.where(rng.random((3000, n)) < q, -1, 1)
    dev = conc.uniform_deviation((x[..., None] >= H) != (y[..., None] > 0), q + (1 - 2 * q) * np.abs(H - a_star) / 2)
    r = conc.finite_class_uniform_bound(H.size, n, delta, M=0.5)
    assert np.mean(dev > r) <= delta


def test_memoriser():
    rng = np.random.default_rng(6)
    x, y = rng.random(50), rng.normal(size=50)
    f = conc.memoriser(x, y)
    assert np.array_equal(f(x), y)
    assert np.all(f(rng.random(1000) + 2.0) == 0.0)
    assert np.array_equal(f(np.array([x[3], -1.0, x[7]])), np.array([y[3], 0.0, y[7]]))
    assert repr(f) == "memoriser(n=50)"
    with pytest.raises(ValueError, match="x_train"):
        conc.memoriser([0.1, 0.1], [1.0, 2.0])


def test_covering_number_interval():
    assert conc.covering_number_interval(1.0, 1.0) == 1
    assert conc.covering_number_interval(1.0, 5.0) == 1
    assert conc.covering_number_interval(0.3, 0.1) == 3         # no rounding up to 4
    assert conc.covering_number_interval(0.7, 0.1) == 7
    assert conc.covering_number_interval(1.0, 0.3) == 4
    eta = np.array([0.01, 0.2, 2.0])
    assert np.array_equal(conc.covering_number_interval(2.0, eta), [200, 10, 1])


@pytest.mark.parametrize("call,arg", [
    (lambda: conc.hoeffding_bound(10, 0.1, 1.0, 1.0), "a"),
    (lambda: conc.hoeffding_bound(10, [0.1, -0.1]), "eps"),
    (lambda: conc.hoeffding_lemma_gap([0.0, 1.0], [0.5, 0.3, 0.2], 1.0), "probs"),
    (lambda: conc.finite_class_uniform_bound(10, 10, 0.0), "delta"),
    (lambda: conc.finite_class_uniform_bound(10, 10, 1.5), "delta"),
    (lambda: conc.threshold_grid(7), "p"),
    (lambda: conc.erm_thresholds([0.1, 0.2], [1, 0], [0.0, 0.5]), "y"),
    (lambda: conc.erm_thresholds([0.1, 0.2], [1, -1], [0.5, 0.0]), "thresholds"),
    (lambda: conc.uniform_deviation(np.ones((3, 2)), [0.5, 0.5, 0.5]), "risks"),
    (lambda: conc.uniform_deviation(np.ones(3), [0.5]), "losses"),
    (lambda: conc.memoriser([0.1, 0.2], [1.0]), "y_train"),
    (lambda: conc.covering_number_interval(1.0, 0.0), "eta"),
])
def test_specific_bad_inputs(call, arg):
    with pytest.raises(ValueError, match=arg):
        call()
