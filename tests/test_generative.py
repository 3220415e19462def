"""Tests of mlnotes.generative against numpy/scipy references and the chapter's identities."""
import numpy as np
import pytest
import scipy.integrate
import scipy.linalg
import scipy.spatial.distance
import scipy.stats

from mlnotes import generative as gen
from mlnotes.information import linear_gaussian_posterior
from mlnotes.nn import gradient_check

SEEDS = [0, 1, 2]


def _pq(m, seed):
    rng = np.random.default_rng(seed)
    p, q = rng.dirichlet(np.ones(m)), rng.dirichlet(np.ones(m))
    return p, q


def _model(D, k, seed):
    rng = np.random.default_rng(seed)
    W, mu = rng.standard_normal((D, k)), rng.standard_normal(D)
    sigma = 0.5 + rng.random()
    x = W @ rng.standard_normal(k) + mu + sigma * rng.standard_normal(D)
    A = rng.standard_normal((k, k))
    m, S = rng.standard_normal(k), A @ A.T / k + 0.2 * np.eye(k)
    return x, W, mu, sigma, m, S


def _gauss_kl(m1, S1, m2, S2):
    k = m1.size
    S2inv = np.linalg.inv(S2)
    d = m2 - m1
    return 0.5 * (np.trace(S2inv @ S1) + d @ S2inv @ d - k
                  + np.linalg.slogdet(S2)[1] - np.linalg.slogdet(S1)[1])


# ------------------------------------------------------------------ autoencoder
@pytest.mark.parametrize("n, d, k, seed", [(100, 4, 1, 0), (200, 5, 2, 1), (300, 6, 3, 2)])
def test_linear_autoencoder_spans_principal_subspace(n, d, k, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) @ np.diag(np.linspace(3, 0.4, d)) + 5
    A, B, losses = gen.linear_autoencoder(X, k, n_iter=4000, lr=0.03, rng=np.random.default_rng(seed))
    Vt = np.linalg.svd(X - X.mean(0), full_matrices=False)[2]
    assert np.max(scipy.linalg.subspace_angles(B, Vt[:k].T)) < 1e-5
    eig = np.sort(np.linalg.eigvalsh(np.cov(X.T, bias=True)))[::-1]
    assert losses[-1] == pytest.approx(eig[k:].sum(), rel=1e-8)
    assert np.all(np.diff(losses) <= 1e-12)


# ------------------------------------------------------------------ GAN identities
@pytest.mark.parametrize("m, seed", [(2, 0), (7, 1), (50, 2)])
def test_jsd_matches_scipy(m, seed):
    p, q = _pq(m, seed)
    assert gen.jsd(p, q) == pytest.approx(scipy.spatial.distance.jensenshannon(p, q) ** 2, abs=1e-12)
    assert gen.jsd(p, p) == pytest.approx(0, abs=1e-15)
    assert gen.jsd(np.eye(m)[0], np.eye(m)[1]) == pytest.approx(np.log(2), abs=1e-15)


@pytest.mark.parametrize("m, seed", [(2, 0), (7, 1), (50, 2)])
def test_optimal_discriminator_and_value_identity(m, seed):
    p, q = _pq(m, seed)
    D = gen.optimal_discriminator(p, q)
    v = gen.gan_value(D, p, q)
    assert v == pytest.approx(2 * gen.jsd(p, q) - np.log(4), abs=1e-12)
    rng = np.random.default_rng(seed)
    for _ in range(20):  # D* maximises V: every perturbation lowers it
        D2 = np.clip(D + 0.05 * rng.standard_normal(m), 1e-6, 1 - 1e-6)
        assert gen.gan_value(D2, p, q) <= v + 1e-15


@pytest.mark.parametrize("mu, sd", [(0.0, 1.0), (1.5, 0.5), (-2.0, 2.0)])
def test_value_identity_for_densities_by_quadrature(mu, sd):
    pd, pg = scipy.stats.norm(0, 1).pdf, scipy.stats.norm(mu, sd).pdf

    def integrand(x):
        d, one_minus_d = gen.optimal_discriminator(pd(x), pg(x)), gen.optimal_discriminator(pg(x), pd(x))
        return pd(x) * np.log(d) + pg(x) * np.log(one_minus_d)

    v = scipy.integrate.quad(integrand, -15, 15, limit=200)[0]
    assert v == pytest.approx(2 * gen.jsd_normal(0, 1, mu, sd) - np.log(4), abs=1e-7)


def test_jsd_normal_matches_quad():
    p, q = scipy.stats.norm(0, 1), scipy.stats.norm(1, 0.5)
    m = lambda x: (p.pdf(x) + q.pdf(x)) / 2  # noqa: E731
    ref = 0.5 * scipy.integrate.quad(lambda x: p.pdf(x) * np.log(p.pdf(x) / m(x)), -12, 12)[0] \
        + 0.5 * scipy.integrate.quad(lambda x: q.pdf(x) * np.log(q.pdf(x) / m(x)), -12, 12)[0]
    assert gen.jsd_normal(0, 1, 1, 0.5) == pytest.approx(ref, abs=1e-8)
    assert gen.jsd_normal(0, 1, 0, 1) == pytest.approx(0, abs=1e-12)


# ------------------------------------------------------------------ 1-D GAN
@pytest.mark.parametrize("seed", SEEDS)
def test_gan_gradients_pass_gradient_check(seed):
    rng = np.random.default_rng(seed)
    w, g = rng.standard_normal(3) * 0.5, np.array([0.8, 0.3]) + 0.2 * rng.standard_normal(2)
    x, z = rng.normal(1, 0.5, 40), rng.standard_normal(30)
    grad_w, grad_g = gen.gan_gradients(w, g, x, z)
    assert gradient_check(lambda v: gen.gan_minibatch_value(v, g, x, z), w.copy(), grad_w) < 1e-6
    assert gradient_check(lambda v: gen.generator_loss(w, v, z), g.copy(), grad_g) < 1e-6


def test_discriminator_represents_the_gaussian_optimum():
    # log D*/(1 - D*) = log N(x; 0, 1) - log N(x; 1, 0.5²) is quadratic in x
    x = np.linspace(-3, 3, 13)
    w = np.array([2.0 + np.log(0.5), -4.0, 1.5])
    d_star = gen.optimal_discriminator(scipy.stats.norm.pdf(x), scipy.stats.norm.pdf(x, 1, 0.5))
    np.testing.assert_allclose(gen.discriminator(w, x), d_star, rtol=1e-12)


def test_train_gan_1d_moves_towards_data():
    x = np.random.default_rng(0).normal(2.0, 0.6, 2000)
    G, W = gen.train_gan_1d(x, 800, np.random.default_rng(1))
    assert G.shape == (801, 2) and W.shape == (801, 3)
    start = gen.jsd_normal(G[0, 1], abs(G[0, 0]), 2.0, 0.6)
    end = gen.jsd_normal(G[-1, 1], abs(G[-1, 0]), 2.0, 0.6)
    assert end < 0.05 * start
    assert abs(G[-1, 1] - 2.0) < 0.15 and abs(abs(G[-1, 0]) - 0.6) < 0.15


# ------------------------------------------------------------------ ELBO
@pytest.mark.parametrize("D, k, seed", [(2, 1, 0), (4, 2, 1), (8, 3, 2)])
def test_elbo_bound_gap_and_equality(D, k, seed):
    x, W, mu, sigma, m, S = _model(D, k, seed)
    log_px = scipy.stats.multivariate_normal(mu, W @ W.T + sigma**2 * np.eye(D)).logpdf(x)
    M, S_post = linear_gaussian_posterior(W, sigma, (x - mu)[None])
    elbo = gen.elbo_linear_gaussian(x, W, mu, sigma, m, S)
    assert elbo <= log_px
    assert log_px - elbo == pytest.approx(_gauss_kl(m, S, M[0], S_post), abs=1e-9)
    assert gen.elbo_linear_gaussian(x, W, mu, sigma, M[0], S_post) == pytest.approx(log_px, abs=1e-9)


@pytest.mark.parametrize("D, k, seed", [(2, 1, 0), (4, 2, 1), (8, 3, 2)])
def test_elbo_monte_carlo_agrees(D, k, seed):
    x, W, mu, sigma, m, S = _model(D, k, seed)
    est, se = gen.elbo_monte_carlo(x, W, mu, sigma, m, S, 20000, np.random.default_rng(seed))
    assert abs(est - gen.elbo_linear_gaussian(x, W, mu, sigma, m, S)) < 4 * se
    # at the exact posterior every term equals log p(x): zero variance
    M, S_post = linear_gaussian_posterior(W, sigma, (x - mu)[None])
    est, se = gen.elbo_monte_carlo(x, W, mu, sigma, M[0], S_post, 10, np.random.default_rng(0))
    assert se < 1e-9


# ------------------------------------------------------------------ bad inputs
def test_bad_inputs():
    p, q = _pq(3, 0)
    with pytest.raises(ValueError, match="p must sum to 1"):
        gen.jsd([0.5, 0.6, 0.1], q)
    with pytest.raises(ValueError, match="q must be non-negative"):
        gen.jsd(p, [1.5, -0.5, 0.0])
    with pytest.raises(ValueError, match="same shape"):
        gen.jsd(p, [0.5, 0.5])
    with pytest.raises(ValueError, match="p_data"):
        gen.gan_value(np.full(3, 0.5), [0.2, 0.2, 0.2], q)
    with pytest.raises(ValueError, match="D must lie"):
        gen.gan_value([0.5, 1.2, 0.5], p, q)
    with pytest.raises(ValueError, match="D must have shape"):
        gen.gan_value([0.5, 0.5], p, q)
    with pytest.raises(ValueError, match="p_g must be finite"):
        gen.optimal_discriminator(p, [0.1, np.nan, 0.2])
    with pytest.raises(ValueError, match="both be zero"):
        gen.optimal_discriminator([0.0, 1.0], [0.0, 1.0])
    with pytest.raises(ValueError, match="non-negative"):
        gen.optimal_discriminator([-0.1, 1.0], [0.0, 1.0])
    with pytest.raises(ValueError, match="sd2"):
        gen.jsd_normal(0, 1, 0, 0.0)
    with pytest.raises(ValueError, match="w must have shape"):
        gen.discriminator([1.0, 2.0], [0.0])
    with pytest.raises(ValueError, match="g must have shape"):
        gen.generator_loss(np.zeros(3), [1.0], [0.0])
    with pytest.raises(ValueError, match="rng"):
        gen.train_gan_1d([0.0, 1.0], 5, rng=0)
    with pytest.raises(ValueError, match="lr_d"):
        gen.train_gan_1d([0.0, 1.0], 5, np.random.default_rng(0), lr_d=-1.0)
    with pytest.raises(ValueError, match="k must be at most"):
        gen.linear_autoencoder(np.ones((5, 2)), 3, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="X must be finite"):
        gen.linear_autoencoder([[1.0, np.inf]], 1, rng=np.random.default_rng(0))
    x, W, mu, sigma, m, S = _model(3, 2, 0)
    with pytest.raises(ValueError, match="sigma"):
        gen.elbo_linear_gaussian(x, W, mu, 0.0, m, S)
    with pytest.raises(ValueError, match="S must be positive definite"):
        gen.elbo_linear_gaussian(x, W, mu, sigma, m, np.diag([1.0, -1.0]))
    with pytest.raises(ValueError, match="S must be symmetric"):
        gen.elbo_linear_gaussian(x, W, mu, sigma, m, np.array([[1.0, 0.5], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="x must have shape"):
        gen.elbo_linear_gaussian(x[:2], W, mu, sigma, m, S)
    with pytest.raises(ValueError, match="m must have shape"):
        gen.elbo_linear_gaussian(x, W, mu, sigma, np.zeros(3), S)
    with pytest.raises(ValueError, match="n_samples"):
        gen.elbo_monte_carlo(x, W, mu, sigma, m, S, 1, np.random.default_rng(0))


# ------------------------------------------------------------------ jsd_normal on hard cases
def _jsd_normal_by_quad(mu1, sd1, mu2, sd2):
    """Reference: adaptive quadrature (QUADPACK) in x, on pieces one sd (or half an sd of the
    other component) long over each component's ±14 sd window."""
    def kl_to_mixture(ma, sa, mb, sb):
        def f(x):
            la, lb = scipy.stats.norm.logpdf(x, ma, sa), scipy.stats.norm.logpdf(x, mb, sb)
            return np.exp(la) * (la - np.logaddexp(la, lb) + np.log(2))
        lo, hi = ma - 14 * sa, ma + 14 * sa
        cuts = {ma + k * sa for k in range(-14, 15)} | {mb + k * sb for k in np.arange(-14, 14.5, 0.5)}
        cuts = sorted(c for c in cuts if lo <= c <= hi)
        return sum(scipy.integrate.quad(f, a, b, epsabs=1e-15, epsrel=1e-13, limit=200)[0]
                   for a, b in zip(cuts[:-1], cuts[1:]))
    return 0.5 * (kl_to_mixture(mu1, sd1, mu2, sd2) + kl_to_mixture(mu2, sd2, mu1, sd1))


HARD_NORMALS = [(0, 1e-3, 0, 1), (0, 1, 0, 1e-3), (0, 1e-6, 0, 1), (0, 1e-3, 0.01, 1), (0, 1, 5, 1e-2),
                (0, 1e-2, 0.3, 1), (3, 1e-4, -2, 10), (0, 1, 0.5, 1.2), (0, 1, 1e-3, 1), (0, 1, 30, 1)]


@pytest.mark.parametrize("mu1, sd1, mu2, sd2", HARD_NORMALS)
def test_jsd_normal_resolves_a_narrow_component(mu1, sd1, mu2, sd2):
    j = gen.jsd_normal(mu1, sd1, mu2, sd2)
    assert 0 <= j <= np.log(2)
    assert j == pytest.approx(_jsd_normal_by_quad(mu1, sd1, mu2, sd2), abs=1e-12)
    assert gen.jsd_normal(mu2, sd2, mu1, sd1) == pytest.approx(j, abs=1e-15)       # symmetric
    assert gen.jsd_normal(mu1, sd1, mu2, sd2, n_grid=16000) == pytest.approx(j, abs=1e-15)


def test_jsd_normal_bounds_and_invariance_on_extreme_scales():
    rng = np.random.default_rng(0)
    for _ in range(200):
        mu1, mu2 = rng.normal(0, 10 ** rng.uniform(-8, 3), 2)
        sd1, sd2 = 10 ** rng.uniform(-12, 12, 2)
        j = gen.jsd_normal(mu1, sd1, mu2, sd2)
        assert 0 <= j <= np.log(2)
        # JSD is invariant under x -> a x (and x + b), which the quadrature never forms
        assert gen.jsd_normal(7 * mu1, 7 * sd1, 7 * mu2, 7 * sd2) == pytest.approx(j, abs=1e-14)
        if min(sd1, sd2) > 1e-3:          # (mu + 1) - (mu' + 1) is exact to 1e-16 only
            assert gen.jsd_normal(mu1 + 1, sd1, mu2 + 1, sd2) == pytest.approx(j, abs=1e-12)
    assert gen.jsd_normal(0, 1e-3, 0, 1) < np.log(2)          # it was 1.167 on a uniform grid
    assert gen.jsd_normal(1.0, 1e-20, 1.0, 1.0) == pytest.approx(np.log(2), abs=1e-15)   # sd1 -> 0
    assert gen.jsd_normal(0, 1, 1e-6, 1) == pytest.approx(1e-12 / 8, rel=1e-6)   # ~ d²/8 for close means


# ------------------------------------------------------------------ divergence and list input
def test_divergence_is_an_error_not_nan():
    X = np.random.default_rng(0).standard_normal((50, 3)) * [3.0, 1.0, 0.5]
    with pytest.raises(ValueError, match="diverged.*reduce lr"):
        gen.linear_autoencoder(X, 1, n_iter=200, lr=10.0, rng=np.random.default_rng(0))
    x = np.random.default_rng(0).normal(2.0, 0.6, 200)
    with pytest.raises(ValueError, match="diverged.*lr_d or lr_g"):
        gen.train_gan_1d(x, 50, np.random.default_rng(1), lr_d=1e6, lr_g=1e6)


def test_lists_are_accepted_like_arrays():
    w, g, x, z = [0.1, -0.2, 0.05], [1.0, 0.5], [0.5, 1.0, 1.5], [0.0, -1.0]
    a = np.asarray
    assert gen.gan_minibatch_value(w, g, x, z) == gen.gan_minibatch_value(a(w), a(g), a(x), a(z))
    assert gen.generator_loss(w, g, z) == gen.generator_loss(a(w), a(g), a(z))
    np.testing.assert_array_equal(gen.discriminator(w, x), gen.discriminator(a(w), a(x)))
    with pytest.raises(ValueError, match="p_g must be non-negative"):
        gen.optimal_discriminator([0.5, 0.5], [1.5, -0.5])
