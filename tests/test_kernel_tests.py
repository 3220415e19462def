"""Tests of mlnotes.kernel_tests against sklearn's RBFSampler, chapter 10's MMD and HSIC,
scipy.linalg.eigh (generalised eigenproblem), scipy.integrate.dblquad / quad and scipy.stats."""
import numpy as np
import pytest
import scipy.integrate
import scipy.linalg
import scipy.special
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.kernel_approximation import RBFSampler

from mlnotes import kernel_embeddings as ke
from mlnotes import kernel_tests as kt
from mlnotes import kernels, rkhs


def two_sided(c):
    """Coefficients c_0..c_L as the array l = -L..L that rkhs.periodic_kernel takes."""
    return np.r_[c[:0:-1], c]


def poisson(t, rho):
    return (1 - rho**2) / (1 - 2 * rho * np.cos(t) + rho**2)


def rbf_pair(n, seed, dependent=True):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 1))
    y = (x**2 if dependent else 0) + 0.5 * rng.normal(size=(n, 1))
    return kernels.rbf_kernel(x, gamma=0.5), kernels.rbf_kernel(y, gamma=0.5)


# ------------------------------------------------------------- Fourier / MMD
def test_ecf_of_two_points_is_a_cosine():
    a, b = 0.3, -1.1
    w = np.linspace(-5, 5, 11)
    expected = np.exp(1j * w * (a + b) / 2) * np.cos(w * (a - b) / 2)
    np.testing.assert_allclose(kt.empirical_characteristic_function([a, b], w), expected, atol=1e-14)


def test_ecf_converges_to_the_normal_characteristic_function():
    x = np.random.default_rng(0).normal(size=(200000, 2))
    W = np.array([[0.5, 0.0], [1.0, -1.0]])
    # 1/sqrt(n) Monte Carlo error is about 0.002 here; 0.01 is five standard errors
    np.testing.assert_allclose(kt.empirical_characteristic_function(x, W),
                               np.exp(-0.5 * np.sum(W**2, axis=1)), atol=0.01)


def test_periodic_kernel_equals_the_poisson_closed_form_and_is_psd():
    x = np.random.default_rng(1).uniform(-np.pi, np.pi, 30)
    K = rkhs.periodic_kernel(x, x, two_sided(0.5 ** np.arange(80)))
    np.testing.assert_allclose(K, poisson(x[:, None] - x[None, :], 0.5), atol=1e-12)   # 0.5^80 truncation
    assert np.linalg.eigvalsh(K).min() > -1e-10


def test_fourier_mmd_equals_the_gram_mmd_on_samples():
    rng = np.random.default_rng(2)
    x, y = rng.vonmises(0, 2, 50), rng.vonmises(1, 1, 40)
    z = np.r_[x, y]
    l = np.arange(70)
    fourier = kt.mmd2_fourier_periodic(kt.empirical_characteristic_function(x, l),
                                       kt.empirical_characteristic_function(y, l), 0.5 ** l)
    # an exact identity up to the 0.5^70 truncation and rounding
    assert fourier == pytest.approx(ke.mmd2_biased(poisson(z[:, None] - z[None, :], 0.5), 50), abs=1e-12)


def test_random_features_and_rbfsampler_estimate_the_kernel_mmd():
    rng = np.random.default_rng(3)
    X, Y = rng.normal(size=(40, 2)), 1.5 * rng.normal(size=(30, 2))
    gamma, D = 0.5, 20000
    exact = ke.mmd2_biased(kernels.rbf_kernel(np.vstack([X, Y]), gamma=gamma), 40)
    sampler = RBFSampler(gamma=gamma, n_components=D, random_state=0).fit(X)
    ref = np.sum((sampler.transform(X).mean(0) - sampler.transform(Y).mean(0)) ** 2)
    ours = [kt.mmd2_random_features(X, Y, D, gamma, np.random.default_rng(s)) for s in range(20)]
    # spread over feature draws (20 seeds) gives the standard error of a single estimate
    se = np.std(ours, ddof=1)
    assert abs(ref - exact) < 4 * se
    assert abs(np.mean(ours) - exact) < 4 * se / np.sqrt(20)


def test_rbfsampler_features_reproduce_the_kernel_bochner():
    X = np.random.default_rng(4).normal(size=(5, 3))
    Z = RBFSampler(gamma=0.3, n_components=200000, random_state=1).fit_transform(X)
    # Monte Carlo error of a 200000-feature average is about 0.003
    np.testing.assert_allclose(Z @ Z.T, kernels.rbf_kernel(X, gamma=0.3), atol=0.015)


def test_non_characteristic_demo_population_and_samples():
    d = kt.non_characteristic_demo(a=0.8, rho=0.5, L=30)
    assert d.mmd2_blind == 0.0
    assert d.mmd2_zero_mean == pytest.approx(2 * 0.5 * 0.16, abs=1e-14)
    assert "mmd2_blind" in repr(d)
    # samples from Q by rejection; the blind kernel's unbiased MMD has mean 0, the other's > 0
    rng = np.random.default_rng(5)
    stats_blind, stats_zero = [], []
    for _ in range(60):
        prop = rng.uniform(-np.pi, np.pi, 600)
        xq = prop[rng.uniform(0, 1.8, 600) < 1 + 0.8 * np.cos(prop)][:60]
        z = np.r_[rng.uniform(-np.pi, np.pi, 60), xq]
        stats_blind.append(ke.mmd2_unbiased(rkhs.periodic_kernel(z, z, two_sided(d.k_hat_blind)), 60))
        stats_zero.append(ke.mmd2_unbiased(rkhs.periodic_kernel(z, z, two_sided(d.k_hat_zero_mean)), 60))
    se = np.std(stats_blind, ddof=1) / np.sqrt(60)
    assert abs(np.mean(stats_blind)) < 4 * se
    assert abs(np.mean(stats_zero) - d.mmd2_zero_mean) < 4 * np.std(stats_zero, ddof=1) / np.sqrt(60)


def test_population_fourier_mmd_agrees_with_a_double_integral():
    rho = 0.5
    pdf = lambda t, mu, k: scipy.stats.vonmises.pdf(t, k, loc=mu)  # noqa: E731
    l = np.arange(60)
    phi = lambda mu, k: np.exp(1j * l * mu) * scipy.special.ive(l, k) / scipy.special.ive(0, k)  # noqa: E731
    fourier = kt.mmd2_fourier_periodic(phi(0.0, 2.0), phi(0.7, 1.0), rho ** l)
    e = lambda m1, k1, m2, k2: scipy.integrate.dblquad(  # noqa: E731
        lambda y, x: poisson(x - y, rho) * pdf(x, m1, k1) * pdf(y, m2, k2), -np.pi, np.pi, -np.pi, np.pi)[0]
    direct = e(0, 2, 0, 2) + e(0.7, 1, 0.7, 1) - 2 * e(0, 2, 0.7, 1)
    assert fourier == pytest.approx(direct, abs=1e-6)       # dblquad's default tolerance is 1.5e-8


# ----------------------------------------------------------------------- COCO
def test_coco_matches_scipy_generalised_eigh_and_the_closed_form():
    K, L = rbf_pair(40, 6)
    n = 40
    H = np.eye(n) - 1 / n
    Kt, Lt = H @ K @ H, H @ L @ H
    A = np.block([[np.zeros((n, n)), Kt @ Lt / n], [Lt @ Kt / n, np.zeros((n, n))]])
    B = scipy.linalg.block_diag(Kt + 1e-10 * np.eye(n), Lt + 1e-10 * np.eye(n))
    ref = scipy.linalg.eigh(A, B, eigvals_only=True)[-1]
    closed = kt.coco_closed_form(K, L)
    # the ridge perturbs the eigenvalue by O(eps / smallest relevant eigenvalue): ~1e-9 relative
    assert kt.coco(K, L) == pytest.approx(ref, rel=1e-6)
    assert closed == pytest.approx(ref, rel=1e-6)
    assert closed == pytest.approx(np.sqrt(np.max(np.linalg.eigvals(Kt @ Lt).real)) / n, rel=1e-8)


def test_coco_closed_form_on_stacks_and_with_the_permutation_test():
    K, L = rbf_pair(30, 7)
    perms = np.array([np.random.default_rng(s).permutation(30) for s in range(5)])
    Ls = L[perms[:, :, None], perms[:, None, :]]
    np.testing.assert_allclose(kt.coco_closed_form(K, Ls), [kt.coco_closed_form(K, M) for M in Ls], rtol=1e-12)
    res = ke.permutation_test(kt.coco_closed_form, K, L, n_permutations=99, rng=np.random.default_rng(0))
    assert res.pvalue <= 0.05


def test_linear_coco_is_the_top_singular_value_of_the_cross_covariance():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(50, 3))
    Y = X @ rng.normal(size=(3, 2)) + rng.normal(size=(50, 2))
    C = np.cov(X.T, Y.T, bias=True)[:3, 3:]
    assert kt.coco_closed_form(X @ X.T, Y @ Y.T) == pytest.approx(np.linalg.svd(C, compute_uv=False)[0], rel=1e-9)


def test_coco_witness_has_unit_norms_and_attains_coco():
    K, L = rbf_pair(35, 9)
    w = kt.coco_witness(K, L)
    Kt, Lt = ke.center_kernel(K), ke.center_kernel(L)
    assert w.alpha @ Kt @ w.alpha == pytest.approx(1, abs=1e-8)
    assert w.beta @ Lt @ w.beta == pytest.approx(1, abs=1e-8)
    assert np.cov(w.f, w.g, bias=True)[0, 1] == pytest.approx(kt.coco_closed_form(K, L), rel=1e-7)
    w2 = kt.coco_witness(K, L, K_eval=K[:5], L_eval=L[:3])
    np.testing.assert_allclose(w2.f, w.f[:5], atol=1e-12)
    assert w2.g.shape == (3,) and "CocoWitness" in repr(w2)


def test_coco_is_small_under_independence():
    dep = kt.coco_closed_form(*rbf_pair(100, 10, dependent=True))
    ind = kt.coco_closed_form(*rbf_pair(100, 10, dependent=False))
    assert 0 < ind < dep


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 12), seed=st.integers(0, 10**6))
def test_coco_hsic_sandwich_and_symmetry(n, seed):
    rng = np.random.default_rng(seed)
    x, y = rng.normal(size=(n, 1)), rng.normal(size=(n, 1))
    K, L = kernels.rbf_kernel(x, gamma=0.7), kernels.rbf_kernel(y + x, gamma=0.7)
    c = kt.coco_closed_form(K, L)
    h = ke.hsic_biased(K, L)
    # tr(K~L~) lies between its largest eigenvalue and n times it
    assert c**2 <= h * (1 + 1e-8) + 1e-14
    assert h <= n * c**2 * (1 + 1e-8) + 1e-14
    assert kt.coco_closed_form(L, K) == pytest.approx(c, rel=1e-7, abs=1e-12)
    p = rng.permutation(n)
    assert kt.coco_closed_form(K[np.ix_(p, p)], L[np.ix_(p, p)]) == pytest.approx(c, rel=1e-7, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(L=st.integers(1, 10), seed=st.integers(0, 10**6))
def test_fourier_mmd_is_nonnegative_and_zero_for_equal_laws(L, seed):
    rng = np.random.default_rng(seed)
    l = np.arange(L + 1)
    phi = kt.empirical_characteristic_function(rng.uniform(-np.pi, np.pi, 5), l)
    psi = kt.empirical_characteristic_function(rng.normal(size=4), l)
    k_hat = rng.uniform(0, 1, L + 1)
    assert kt.mmd2_fourier_periodic(phi, phi, k_hat) == 0.0
    assert kt.mmd2_fourier_periodic(phi, psi, k_hat) >= 0.0


# ---------------------------------------------------------------------- Stein
def _h_by_finite_differences(x, y, s, ell, eps=1e-4):
    """The four-term Stein kernel with the RBF derivatives taken numerically (1-D)."""
    k = lambda a, b: np.exp(-(a - b) ** 2 / (2 * ell**2))  # noqa: E731
    dkx = (k(x + eps, y) - k(x - eps, y)) / (2 * eps)
    dky = (k(x, y + eps) - k(x, y - eps)) / (2 * eps)
    dkxy = (k(x + eps, y + eps) - k(x + eps, y - eps) - k(x - eps, y + eps) + k(x - eps, y - eps)) / (4 * eps**2)
    return s(x) * s(y) * k(x, y) + s(y) * dkx + s(x) * dky + dkxy


def test_stein_kernel_matches_the_four_term_formula():
    z = np.random.default_rng(11).normal(size=25)
    s = lambda v: -v / (1 + v**2) * 3  # noqa: E731 -- any smooth score
    H = kt.stein_kernel_rbf(z, s, 0.9)
    ref = _h_by_finite_differences(z[:, None], z[None, :], s, 0.9)
    np.testing.assert_allclose(H, ref, atol=1e-6)          # central differences: O(eps^2) = 1e-8 error


def test_stein_kernel_in_two_dimensions_is_a_sum_over_coordinates():
    rng = np.random.default_rng(12)
    X = rng.normal(size=(15, 2))
    score = lambda M: -M  # noqa: E731
    H = kt.stein_kernel_rbf(X, score, 1.3)
    # for a product RBF kernel and a factorised score, h = k [s.s + sum_c (term_c)] by coordinates
    diff, ell = X[:, None, :] - X[None, :, :], 1.3
    k = np.exp(-np.sum(diff**2, -1) / (2 * ell**2))
    ref = k * (X @ X.T + np.sum(-diff**2, -1) / ell**2 + 2 / ell**2 - np.sum(diff**2, -1) / ell**4)
    np.testing.assert_allclose(H, ref, atol=1e-12)
    assert np.linalg.eigvalsh(H).min() > -1e-10               # h_p is a kernel


def test_ksd_u_is_unbiased_against_dblquad():
    mu, sd, ell = 0.5, 1.2, 1.0
    score = lambda v: -v  # noqa: E731
    q = lambda v: scipy.stats.norm.pdf(v, mu, sd)  # noqa: E731
    h = lambda y, x: float(_h_exact(x, y, ell)) * q(x) * q(y)  # noqa: E731
    lo, hi = mu - 8 * sd, mu + 8 * sd
    pop = scipy.integrate.dblquad(h, lo, hi, lo, hi)[0]
    rng = np.random.default_rng(13)
    U = np.array([kt.ksd_u(rng.normal(mu, sd, 25), score, ell) for _ in range(600)])
    V = np.array([kt.ksd_v(rng.normal(mu, sd, 25), score, ell) for _ in range(600)])
    assert abs(U.mean() - pop) < 4 * U.std(ddof=1) / np.sqrt(600)
    assert V.mean() > pop                                     # the V-statistic is biased upward


def _h_exact(x, y, ell):
    k = np.exp(-(x - y) ** 2 / (2 * ell**2))
    return k * (x * y - (x - y) ** 2 / ell**2 + 1 / ell**2 - (x - y) ** 2 / ell**4)


def test_u_and_v_statistics_differ_by_the_diagonal():
    z = np.random.default_rng(14).standard_t(4, 30)
    score = lambda v: -5 * v / (4 + v**2)  # noqa: E731   (t_4 score)
    H = kt.stein_kernel_rbf(z, score, 1.0)
    assert 900 * kt.ksd_v(z, score, 1.0) == pytest.approx(870 * kt.ksd_u(z, score, 1.0) + np.trace(H), rel=1e-12)
    assert kt.ksd_v(z, score, 1.0) >= 0


def test_wild_bootstrap_size_and_power():
    score = lambda v: -v  # noqa: E731
    rng = np.random.default_rng(15)
    null_p = np.array([kt.ksd_wild_bootstrap(rng.standard_normal(40), score, 1.0, 99, rng).pvalue
                       for _ in range(300)])
    # rejection rate at 0.05 over 300 data sets: binomial sd 0.0126, so [0.01, 0.10] is > 3.5 sd
    assert 0.01 <= np.mean(null_p <= 0.05) <= 0.10
    alt = kt.ksd_wild_bootstrap(rng.normal(1.0, 1.0, 100), score, 1.0, 199, rng)
    assert alt.pvalue <= 0.01 and "WildBootstrapResult" in repr(alt)


def test_wild_bootstrap_statistic_is_the_u_statistic_and_reproducible():
    z = np.random.default_rng(16).normal(size=30)
    score = lambda v: -v  # noqa: E731
    a = kt.ksd_wild_bootstrap(z, score, 1.0, 50, np.random.default_rng(1))
    b = kt.ksd_wild_bootstrap(z, score, 1.0, 50, np.random.default_rng(1))
    assert a.statistic == pytest.approx(kt.ksd_u(z, score, 1.0), rel=1e-12)
    np.testing.assert_array_equal(a.null_distribution, b.null_distribution)
    assert 0 < a.pvalue <= 1


@pytest.mark.parametrize("dist, score, f, df, expected", [
    (scipy.stats.norm(), lambda v: -v, np.sin, np.cos, 0.0),
    (scipy.stats.t(6), lambda v: -7 * v / (6 + v**2), np.tanh, lambda v: 1 - np.tanh(v) ** 2, 0.0),
    (scipy.stats.cauchy(), lambda v: -2 * v / (1 + v**2), lambda v: v * np.abs(v), lambda v: 2 * np.abs(v), 2 / np.pi),
])
def test_stein_identity_against_scipy_stats(dist, score, f, df, expected):
    x = dist.rvs(size=40000, random_state=np.random.default_rng(17))
    r = kt.stein_identity(score, f, df, x)
    assert abs(r.mean - expected) < 4 * r.stderr
    with np.errstate(over="ignore"):          # quad probes huge |v|, where v**2 overflows to inf harmlessly
        integral = scipy.integrate.quad(lambda v: (df(v) + f(v) * score(v)) * dist.pdf(v), -np.inf, np.inf)[0]
    assert integral == pytest.approx(expected, abs=1e-7)


def test_stein_witness_norm_is_the_v_statistic():
    z = np.random.default_rng(18).normal(0.5, 1.2, 60)
    score = lambda v: -v  # noqa: E731
    w = kt.stein_witness(z, z, score, 0.8)
    h = 1e-5
    dw = (kt.stein_witness(z + h, z, score, 0.8) - kt.stein_witness(z - h, z, score, 0.8)) / (2 * h)
    assert np.mean(dw + w * score(z)) == pytest.approx(kt.ksd_v(z, score, 0.8), rel=1e-6)


def test_stein_witness_converges_to_the_population_witness_by_quad():
    # w(t) = E_{z ~ q}[k(t, z) s_p(z) + d_z k(t, z)] for q = N(0.5, 1.2^2), p = N(0, 1), ell = 0.8
    ell, t = 0.8, np.array([-1.5, 0.0, 1.0, 2.5])
    q = scipy.stats.norm(0.5, 1.2)
    pop = [scipy.integrate.quad(lambda v: np.exp(-(s - v)**2 / (2 * ell**2)) * (-v + (s - v) / ell**2) * q.pdf(v),
                                -np.inf, np.inf)[0] for s in t]
    z = q.rvs(size=200000, random_state=np.random.default_rng(20))
    # the Monte Carlo s.e. of each value is at most 0.0021 here, so abs=0.01 is about 5 s.e.
    assert kt.stein_witness(t, z, lambda v: -v, ell) == pytest.approx(pop, abs=0.01)


# ------------------------------------------------------------------ validation
def test_bad_inputs_raise_value_errors_naming_the_argument():
    K, L = rbf_pair(6, 19)
    with pytest.raises(ValueError, match="L must have the shape"):
        kt.coco(K, L[:5, :5])
    with pytest.raises(ValueError, match="K must be symmetric"):
        kt.coco(K + np.triu(np.ones((6, 6)), 1), L)
    with pytest.raises(ValueError, match="k_hat must be non-negative"):
        kt.mmd2_fourier_periodic([1, 0], [1, 0.5], [1, -0.5])
    with pytest.raises(ValueError, match="phi_q and k_hat"):
        kt.mmd2_fourier_periodic([1, 0], [1, 0.5, 0.1], [1, 0.5])
    with pytest.raises(ValueError, match="score must return"):
        kt.stein_kernel_rbf(np.ones((4, 2)), lambda X: X[:, 0], 1.0)
    with pytest.raises(ValueError, match="X must hold at least 2"):
        kt.ksd_u([0.3], lambda v: -v, 1.0)
    with pytest.raises(ValueError, match="omegas must have"):
        kt.empirical_characteristic_function(np.ones((3, 2)), np.ones((2, 3)))
    with pytest.raises(ValueError, match="K_eval must have"):
        kt.coco_witness(K, L, K_eval=np.ones((2, 5)))
    with pytest.raises(ValueError, match="a must lie in"):
        kt.non_characteristic_demo(a=1.5)


# ------------------------------------------------- regressions (referee pass, chapter 47)
def test_indefinite_or_asymmetric_grams_and_tiny_ridges_are_rejected():
    K, L = rbf_pair(6, 19)
    bad = K - 2.0 * np.eye(6)                                   # symmetric, indefinite
    with pytest.raises(ValueError, match="K must be positive semi-definite"):
        kt.coco(bad, L)                                         # was numpy's LinAlgError
    with pytest.raises(ValueError, match="eps"):
        kt.coco(K, L, eps=1e-300)                               # was numpy's LinAlgError
    with pytest.raises(ValueError, match="K must be positive semi-definite"):
        kt.coco_closed_form(bad, L)                             # was a silent value
    with pytest.raises(ValueError, match="L must be symmetric"):
        kt.coco_closed_form(K, L + np.triu(np.ones((6, 6)), 1))
    with pytest.raises(ValueError, match="L must be positive semi-definite"):
        kt.coco_witness(K, L - 2.0 * np.eye(6))


def test_density_coefficients_are_not_taken_for_characteristic_functions():
    # the notes' p_hat_l = conj(phi(l)) / (2 pi) would give an MMD^2 smaller by 4 pi^2
    l = np.arange(5)
    phi = kt.empirical_characteristic_function(np.array([0.3, 1.0, -2.0]), l)
    with pytest.raises(ValueError, match="phi_p must be a characteristic function"):
        kt.mmd2_fourier_periodic(np.conj(phi) / (2 * np.pi), phi, 0.5 ** l)


def test_stein_kernel_overflow_is_an_error_not_nan():
    with pytest.raises(ValueError, match="X"):
        kt.stein_kernel_rbf(np.array([1e200, -1e200, 0.0]), lambda v: -v, 1.0)
    with pytest.raises(ValueError, match="X"):
        kt.ksd_u(np.array([1e200, -1e200, 0.0]), lambda v: -v, 1.0)
