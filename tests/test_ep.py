"""Tests for mlnotes.ep (chapter 40): tilted moments against scipy quad, EP evidence against
the exact probit evidence (scipy multivariate_normal.cdf), the predictive against direct
inversion, the clutter problem against grid quadrature, and alpha-divergences."""
import numpy as np
import pytest
import scipy.integrate
import scipy.optimize
import scipy.special
import scipy.stats

from mlnotes import ep, information, kernels


def _gp_data(n, seed, sig2=1.0):
    rng = np.random.default_rng(seed)
    X = np.sort(rng.uniform(-3, 3, n))[:, None]
    y = np.where(np.sin(X[:, 0]) + 0.3 * rng.standard_normal(n) > 0, 1, -1)
    return X, y, sig2 * kernels.rbf_kernel(X, gamma=0.5)


@pytest.mark.parametrize("y, m, v", [(1, 0.3, 1.0), (-1, 2.0, 0.5), (1, -4.0, 3.0)])
def test_probit_moments_match_quad(y, m, v):
    # quad is accurate to ~1e-12 here; the closed form is exact
    f = lambda g, k: g**k * scipy.special.ndtr(y * g) * scipy.stats.norm.pdf(g, m, np.sqrt(v))
    Z, M1, M2 = (scipy.integrate.quad(f, -np.inf, np.inf, args=(k,), epsabs=1e-14)[0] for k in range(3))
    r = ep.probit_tilted_moments(y, m, v)
    np.testing.assert_allclose([np.exp(r.log_Z), r.mean, r.var], [Z, M1 / Z, M2 / Z - (M1 / Z)**2],
                               rtol=1e-7, atol=1e-9)


def test_probit_far_tail_is_finite():
    r = ep.probit_tilted_moments(1, -40.0, 1.0)
    assert np.all(np.isfinite([r.log_Z, r.mean, r.var])) and r.var > 0


def test_gauss_hermite_matches_closed_form():
    m, v = np.linspace(-3, 3, 7), np.linspace(0.2, 4, 7)
    a = ep.gaussian_moment_match(scipy.special.log_ndtr, m, v, n_quad=300)
    b = ep.probit_tilted_moments(1, m, v)
    np.testing.assert_allclose(np.r_[a], np.r_[b], atol=1e-8)


@pytest.mark.parametrize("n, seed", [(2, 0), (4, 1), (6, 2), (8, 3), (10, 4)])
def test_log_z_ep_close_to_exact(n, seed):
    X, y, K = _gp_data(n, seed)
    fit = ep.ep_gp_classification(K, y, 40)
    D = np.diag(y)
    Z = scipy.stats.multivariate_normal.cdf(np.zeros(n), np.zeros(n), D @ (K + np.eye(n)) @ D,
                                            rng=np.random.default_rng(0), abseps=1e-6, releps=1e-6)
    # QMC error ~1e-4 relative (checked in the chapter); EP error below 1e-2 on these data
    assert abs(fit.log_Z - np.log(Z)) < 1e-2


def test_one_site_gp_is_exact():
    fit = ep.ep_gp_classification(np.array([[2.0]]), np.array([1]), 3)
    r = ep.probit_tilted_moments(1, 0.0, 2.0)
    np.testing.assert_allclose([fit.mean[0], fit.cov[0, 0], fit.log_Z], [r.mean, r.var, np.log(0.5)],
                               atol=1e-12)


@pytest.mark.parametrize("n", [3, 7, 12])
def test_fixed_point_moments_and_damping(n):
    X, y, K = _gp_data(n, n)
    fit = ep.ep_gp_classification(K, y, 40)
    d = np.diag(fit.cov)
    tc, nc = 1 / d - fit.tau, fit.mean / d - fit.nu
    r = ep.probit_tilted_moments(y, nc / tc, 1 / tc)
    np.testing.assert_allclose(np.r_[r.mean, r.var], np.r_[fit.mean, d], atol=1e-9)
    fd = ep.ep_gp_classification(K, y, 120, damping=0.6)
    np.testing.assert_allclose(fd.log_Z, fit.log_Z, atol=1e-9)


def test_predict_matches_direct_inversion():
    X, y, K = _gp_data(8, 5)
    fit = ep.ep_gp_classification(K, y, 40)
    Xt = np.array([[-2.5], [0.1], [1.7]])
    ks = kernels.rbf_kernel(X, Xt, gamma=0.5)
    p = ep.ep_predict(K, ks, np.ones(3), fit)
    Ka = kernels.rbf_kernel(np.r_[X, Xt], gamma=0.5) + 1e-10 * np.eye(11)
    C = np.linalg.inv(np.linalg.inv(Ka) + np.diag(np.r_[fit.tau, 0, 0, 0]))
    mu = C @ np.r_[fit.nu, 0, 0, 0]
    np.testing.assert_allclose(np.r_[p.mean, p.var], np.r_[mu[8:], np.diag(C)[8:]], atol=1e-6)
    np.testing.assert_allclose(p.prob, scipy.special.ndtr(p.mean / np.sqrt(1 + p.var)))


def test_gradient_of_log_z_at_fixed_point():
    X, y, K = _gp_data(7, 6)
    lz = lambda c: ep.ep_gp_classification(np.exp(c) * K, y, 60).log_Z
    fd = (lz(1e-5) - lz(-1e-5)) / 2e-5
    fit = ep.ep_gp_classification(K, y, 60)
    Ki = np.linalg.inv(K)
    formula = 0.5 * np.trace(Ki @ (fit.cov + np.outer(fit.mean, fit.mean))) - 0.5 * 7
    assert abs(fd - formula) < 1e-6


def _clutter_exact(x, w, a, s2):
    th = np.linspace(-100, 100, 400001)          # ±10 prior sd
    lp = (np.sum(np.log((1 - w) * scipy.stats.norm.pdf(x[:, None], th, 1)
                        + w * scipy.stats.norm.pdf(x[:, None], 0, np.sqrt(a))), axis=0)
          + scipy.stats.norm.logpdf(th, 0, np.sqrt(s2)))
    p = np.exp(lp - lp.max())
    Z = np.trapezoid(p, th)
    m = np.trapezoid(th * p, th) / Z
    return m, np.trapezoid((th - m)**2 * p, th) / Z, np.log(Z) + lp.max()


@pytest.mark.parametrize("n, seed", [(1, 0), (10, 1), (30, 2)])
def test_clutter_ep_close_to_exact_and_order_free(n, seed):
    rng = np.random.default_rng(seed)
    x = np.where(rng.random(n) < 0.7, rng.normal(2, 1, n), rng.normal(0, np.sqrt(10), n))
    r = ep.clutter_ep(x, 0.3, 10.0, 100.0, 50)
    m, v, lz = _clutter_exact(x, 0.3, 10.0, 100.0)
    tol = 1e-6 if n == 1 else 0.1            # one site: exact up to the grid's accuracy
    assert abs(r.mean - m) < tol and abs(r.log_Z - lz) < tol
    r2 = ep.clutter_ep(x[::-1], 0.3, 10.0, 100.0, 50)
    np.testing.assert_allclose([r2.mean, r2.cov, r2.log_Z], [r.mean, r.cov, r.log_Z], atol=1e-8)
    a = ep.adf(x, 0.3, 10.0, 100.0)
    s = ep.clutter_ep(x, 0.3, 10.0, 100.0, 1)
    np.testing.assert_allclose([a.mean, a.var], [s.mean, s.cov], atol=1e-12)


def test_clutter_tilted_moments_match_quad():
    x, w, a, m, v = 1.3, 0.2, 5.0, 0.4, 2.0
    f = lambda t, k: t**k * ((1 - w) * scipy.stats.norm.pdf(x, t, 1) + w * scipy.stats.norm.pdf(x, 0, np.sqrt(a))) \
        * scipy.stats.norm.pdf(t, m, np.sqrt(v))
    Z, M1, M2 = (scipy.integrate.quad(f, -np.inf, np.inf, args=(k,), epsabs=1e-14)[0] for k in range(3))
    r = ep.clutter_tilted_moments(np.array([x]), w, a, m, v)
    np.testing.assert_allclose(np.r_[np.exp(r.log_Z), r.mean, r.var], [Z, M1 / Z, M2 / Z - (M1 / Z)**2], rtol=1e-8)


def test_alpha_divergence_limits_and_cases():
    rng = np.random.default_rng(7)
    p, q = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5))
    assert abs(ep.alpha_divergence(p, q, 1.0) - information.kl_divergence(p, q)) < 1e-14
    assert abs(ep.alpha_divergence(p, q, 0.0) - information.kl_divergence(q, p)) < 1e-14
    assert abs(ep.alpha_divergence(p, q, 1 - 1e-7) - information.kl_divergence(p, q)) < 1e-6
    assert abs(ep.alpha_divergence(p, q, 1e-7) - information.kl_divergence(q, p)) < 1e-6
    assert abs(ep.alpha_divergence(p, q, 2.0) - 0.5 * np.sum((p - q)**2 / q)) < 1e-13
    assert ep.alpha_divergence(p, p, 0.3) == pytest.approx(0.0, abs=1e-15)
    assert ep.alpha_divergence(np.array([0.5, 0.5]), np.array([1.0, 0.0]), 2.0) == np.inf


@pytest.mark.parametrize("alpha", [0.3, 0.5, 0.8])
def test_alpha_projection_matches_direct_minimisation(alpha):
    x = np.linspace(-2, 2, 401)
    p = 0.6 * np.exp(-(x + 0.5)**2 / 0.1) + 0.4 * np.exp(-(x - 0.6)**2 / 0.2)
    p /= p.sum()
    T = np.c_[x, x**2]
    fit = ep.alpha_projection(p, alpha, T)
    obj = lambda par: ep.alpha_divergence(p, np.exp(par[0] + T @ par[1:]), alpha)
    c0 = np.log(fit.scale) - scipy.special.logsumexp(T @ fit.theta)
    res = scipy.optimize.minimize(obj, np.r_[c0, fit.theta] + 0.1, method="BFGS", options=dict(gtol=1e-11))
    np.testing.assert_allclose(fit.scale * fit.q, np.exp(res.x[0] + T @ res.x[1:]), atol=1e-6)


def test_alpha_one_projection_is_moment_match_categorical():
    p = np.array([0.1, 0.2, 0.3, 0.4])
    T = np.eye(4)[:, 1:]                     # full categorical family: the projection is p itself
    fit = ep.alpha_projection(p, 1.0, T)
    np.testing.assert_allclose(fit.q, p, atol=1e-10)
    assert fit.iterations == 1


def test_alpha_divergence_near_the_limits_keeps_accuracy():
    """Regression: the direct formula cancelled as alpha -> 0 (at alpha = 1e-300 it returned 0,
    not KL[q||p]); the expm1 form keeps full accuracy. Reference: information.kl_divergence."""
    rng = np.random.default_rng(3)
    p, q = rng.dirichlet(np.ones(6)), rng.dirichlet(np.ones(6))
    for a in (1e-300, 1e-12):
        assert ep.alpha_divergence(p, q, a) == pytest.approx(information.kl_divergence(q, p), rel=1e-10)
        assert ep.alpha_divergence(p, q, 1 - a if a > 1e-16 else 1 - 1e-15) == pytest.approx(
            information.kl_divergence(p, q), rel=1e-9)


@pytest.mark.parametrize("alpha", [-3.0, -1.0, -0.4, 1.5, 2.0, 4.0])
def test_alpha_divergence_outside_zero_one_against_quad(alpha):
    """D_alpha >= 0 for alpha < 0 and alpha > 1 as well (unnormalised densities on R, scipy quad;
    equal component variances keep p^alpha q^(1 - alpha) integrable for every alpha)."""
    p = lambda x: 1.3 * (0.7 * scipy.stats.norm.pdf(x, -1, 1) + 0.3 * scipy.stats.norm.pdf(x, 1.5, 1))
    q = lambda x: 0.8 * scipy.stats.norm.pdf(x, 0.2, 1)
    f = lambda x: (alpha * p(x) + (1 - alpha) * q(x) - p(x)**alpha * q(x)**(1 - alpha)) / (alpha * (1 - alpha))
    D = scipy.integrate.quad(f, -12, 12, epsabs=1e-12, limit=200)[0]
    x = np.linspace(-12, 12, 48001)
    assert D > 0.01
    assert ep.alpha_divergence(p(x), q(x), alpha) * (x[1] - x[0]) == pytest.approx(D, rel=1e-6)
    assert ep.alpha_divergence(p(x), p(x), alpha) == pytest.approx(0.0, abs=1e-12)


def test_alpha_divergence_zero_where_both_vanish_and_overflow():
    """p = q = 0 on a point contributes 0 for every alpha (was NaN for alpha > 1 or < 0)."""
    p, q = np.array([0.0, 0.5, 0.5]), np.array([0.0, 0.3, 0.7])
    for a in (-1.0, 2.0, 0.5):
        assert ep.alpha_divergence(p, q, a) == pytest.approx(ep.alpha_divergence(p[1:], q[1:], a), rel=1e-14)
    with pytest.raises(ValueError, match="alpha"):
        ep.alpha_divergence(np.array([0.2, 0.8]), np.array([0.5, 0.5]), 1e6)


def test_alpha_projection_marks_an_unconverged_fit():
    x = np.linspace(-2, 2, 41)
    p = np.exp(-(x + 0.5)**2 / 0.1) + np.exp(-(x - 0.6)**2 / 0.2)
    p /= p.sum()
    with pytest.warns(RuntimeWarning, match="n_iter=1"):
        fit = ep.alpha_projection(p, 0.3, np.c_[x, x**2], n_iter=1)
    assert not fit.converged and ep.alpha_projection(p, 0.3, np.c_[x, x**2]).converged


def test_ep_predict_rejects_inconsistent_prior_variance_and_ep_rejects_overflow():
    X, y, K = _gp_data(8, 0)
    fit = ep.ep_gp_classification(K, y, 5)
    with pytest.raises(ValueError, match="k_starstar"):
        ep.ep_predict(K, K[:, :2], np.zeros(2), fit)
    with pytest.raises(ValueError, match="K"):
        ep.ep_gp_classification(K * 1e300, y, 2)
