"""Tests for mlnotes.variational (chapter 21)."""
import numpy as np
import pytest
import scipy.integrate
import scipy.optimize
import scipy.special
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from mlnotes import variational as v

X_OBS, SIGMA = 1.5, 0.8


def log_joint(z):
    """log N(x | z, σ²) + log N(z | 0, 1), for z of shape (..., 1)."""
    z = z[..., 0]
    return scipy.stats.norm.logpdf(X_OBS, z, SIGMA) + scipy.stats.norm.logpdf(z)


def grad_log_joint(z):
    return (X_OBS - z) / SIGMA**2 - z


def exact_elbo(m, s):
    e_loglik = -0.5 * np.log(2 * np.pi * SIGMA**2) - ((X_OBS - m) ** 2 + s**2) / (2 * SIGMA**2)
    e_prior = -0.5 * np.log(2 * np.pi) - (m**2 + s**2) / 2
    return e_loglik + e_prior + 0.5 * np.log(2 * np.pi * np.e * s**2)


def exact_gradient(m, s):
    return np.array([(X_OBS - m) / SIGMA**2 - m, -s / SIGMA**2 - s + 1 / s])


LOG_EVIDENCE = scipy.stats.norm.logpdf(X_OBS, 0, np.sqrt(1 + SIGMA**2))


def numerical_jacobian(f, z, h=1e-6):
    d = z.shape[0]
    cols = [(f(z + h * e) - f(z - h * e)) / (2 * h) for e in np.eye(d)]
    return np.stack(cols, axis=1)


@pytest.mark.parametrize("m, s", [(0.0, 1.0), (0.7, 0.4), (-1.0, 2.0)])
def test_elbo_matches_closed_form_and_decomposition(m, s):
    rng = np.random.default_rng(0)
    est = v.elbo(log_joint, m, s, rng.standard_normal((100_000, 1)))
    vals = log_joint(m + s * rng.standard_normal((100_000, 1)))
    assert abs(est - exact_elbo(m, s)) < 4 * vals.std() / np.sqrt(vals.size)
    post_var = SIGMA**2 / (1 + SIGMA**2)
    post_mean = X_OBS / (1 + SIGMA**2)
    kl = np.log(np.sqrt(post_var) / s) + (s**2 + (m - post_mean) ** 2) / (2 * post_var) - 0.5
    assert exact_elbo(m, s) + kl == pytest.approx(LOG_EVIDENCE, abs=1e-12)


@pytest.mark.parametrize("m, s", [(0.0, 1.0), (0.7, 0.4)])
@pytest.mark.parametrize("estimator", ["score", "reparam"])
def test_gradient_estimators_unbiased(m, s, estimator):
    eps = np.random.default_rng(1).standard_normal((100_000, 1, 1))
    if estimator == "score":
        G = v.score_gradient(log_joint, m, s, eps)[:, :, 0]
    else:
        G = v.reparam_gradient(grad_log_joint, m, s, eps)[:, :, 0]
    se = G.std(axis=0) / np.sqrt(G.shape[0])
    assert np.all(np.abs(G.mean(axis=0) - exact_gradient(m, s)) <= 4 * se)


def test_reparam_variance_lower():
    eps = np.random.default_rng(2).standard_normal((20_000, 4, 1))
    var_score = v.score_gradient(log_joint, 0.0, 1.0, eps)[:, :, 0].var(axis=0)
    var_rep = v.reparam_gradient(grad_log_joint, 0.0, 1.0, eps)[:, :, 0].var(axis=0)
    assert np.all(var_rep < var_score / 3)


def test_multivariate_shapes():
    eps = np.random.default_rng(3).standard_normal((7, 5, 3))
    lj = lambda z: -0.5 * np.sum(z**2, axis=-1)
    assert v.score_gradient(lj, np.zeros(3), np.ones(3), eps).shape == (7, 2, 3)
    assert v.reparam_gradient(lambda z: -z, np.zeros(3), np.ones(3), eps).shape == (7, 2, 3)
    assert v.elbo(lj, np.zeros(3), np.ones(3), eps).shape == (7,)


def test_iwae_matches_logsumexp_and_increases_to_evidence():
    rng = np.random.default_rng(4)
    lw = rng.normal(size=(6, 9))
    np.testing.assert_allclose(v.iwae_bound(lw), scipy.special.logsumexp(lw, axis=1) - np.log(9), atol=1e-12)
    eps = rng.standard_normal((2**18, 1))
    bounds, ses = [], []
    for K in (1, 4, 64, 1024):
        est = v.iwae_bound(v.log_weights(log_joint, 0.0, 1.0, eps.reshape(-1, K, 1)))
        bounds.append(est.mean())
        ses.append(est.std() / np.sqrt(est.size))
    assert np.all(np.diff(bounds) > 0)
    assert abs(bounds[0] - exact_elbo(0.0, 1.0)) < 4 * ses[0]
    assert np.all(np.array(bounds) <= LOG_EVIDENCE + 4 * np.array(ses))
    assert LOG_EVIDENCE - bounds[-1] < 0.01


@pytest.mark.parametrize("d", [1, 2, 5])
def test_planar_log_det_and_invertibility(d):
    rng = np.random.default_rng(d)
    u, w, b = rng.normal(size=d) * 3, rng.normal(size=d), 0.3
    u = u - (w @ u + 4) * w / (w @ w)  # force wᵀu = -4 < -1 before the correction
    for z in rng.normal(size=(5, d)):
        _, ld = v.planar_flow(z, u, w, b)
        J = numerical_jacobian(lambda t: v.planar_flow(t, u, w, b)[0], z)
        sign, logabs = np.linalg.slogdet(J)
        assert sign > 0 and ld == pytest.approx(logabs, abs=1e-6)
    grid = np.linspace(-6, 6, 2001)
    line = grid[:, None] * w / np.linalg.norm(w)
    proj = v.planar_flow(line, u, w, b)[0] @ w
    assert np.all(np.diff(proj) > 0)  # f is monotone along w, hence invertible


@pytest.mark.parametrize("d", [1, 2, 4])
@pytest.mark.parametrize("beta", [-3.0, 0.5, 2.0])
def test_radial_log_det(d, beta):
    rng = np.random.default_rng(10 + d)
    z0 = rng.normal(size=d)
    for z in rng.normal(size=(5, d)) * 2:
        _, ld = v.radial_flow(z, z0, 0.7, beta)
        J = numerical_jacobian(lambda t: v.radial_flow(t, z0, 0.7, beta)[0], z)
        sign, logabs = np.linalg.slogdet(J)
        assert sign > 0 and ld == pytest.approx(logabs, abs=1e-6)


def test_radial_moves_along_z_minus_z0():
    z0, z = np.array([1.0, -1.0]), np.array([[2.0, 1.0]])
    fz, _ = v.radial_flow(z, z0, 1.0, 1.0)
    cross = (fz - z0)[0, 0] * (z - z0)[0, 1] - (fz - z0)[0, 1] * (z - z0)[0, 0]
    assert cross == pytest.approx(0.0, abs=1e-12)


def test_bbvi_reaches_posterior():
    m, s = v.bbvi_gaussian(grad_log_joint, 0.0, 1.0, 1500, 10, np.random.default_rng(5), lr=0.1)
    assert m[-200:].mean() == pytest.approx(X_OBS / (1 + SIGMA**2), abs=0.02)
    assert s[-200:].mean() == pytest.approx(SIGMA / np.sqrt(1 + SIGMA**2), abs=0.02)
    assert m.shape == (1501, 1)


def test_gaussian_entropy():
    assert v.gaussian_entropy([0.5, 2.0]) == pytest.approx(
        scipy.stats.norm(0, 0.5).entropy() + scipy.stats.norm(0, 2.0).entropy())


def test_bad_inputs():
    eps = np.zeros((4, 1))
    with pytest.raises(ValueError, match="s must have positive entries"):
        v.elbo(log_joint, 0.0, -1.0, eps)
    with pytest.raises(ValueError, match="m must"):
        v.elbo(log_joint, np.nan, 1.0, eps)
    with pytest.raises(ValueError, match="eps"):
        v.score_gradient(log_joint, 0.0, 1.0, np.zeros((4, 2)))
    with pytest.raises(ValueError, match="eps"):
        v.reparam_gradient(grad_log_joint, 0.0, 1.0, np.array([np.inf, 0.0])[:, None])
    with pytest.raises(ValueError, match="log_joint"):
        v.elbo(lambda z: z, 0.0, 1.0, eps)
    with pytest.raises(ValueError, match="log_joint"):
        v.score_gradient(3.0, 0.0, 1.0, eps)
    with pytest.raises(ValueError, match="grad_log_joint"):
        v.reparam_gradient(lambda z: z[..., 0], 0.0, 1.0, eps)
    with pytest.raises(ValueError, match="log_w"):
        v.iwae_bound(np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="log_w"):
        v.iwae_bound(np.zeros((3, 0)))
    with pytest.raises(ValueError, match="w must be non-zero"):
        v.planar_flow(np.zeros((3, 2)), np.ones(2), np.zeros(2), 0.0)
    with pytest.raises(ValueError, match="u must"):
        v.planar_flow(np.zeros((3, 2)), np.ones(3), np.ones(2), 0.0)
    with pytest.raises(ValueError, match="b must"):
        v.planar_flow(np.zeros((3, 2)), np.ones(2), np.ones(2), np.nan)
    with pytest.raises(ValueError, match="alpha"):
        v.radial_flow(np.zeros((3, 2)), np.zeros(2), 0.0, 1.0)
    with pytest.raises(ValueError, match="z0"):
        v.radial_flow(np.zeros((3, 2)), np.zeros(3), 1.0, 1.0)
    with pytest.raises(ValueError, match="z must"):
        v.radial_flow(np.array([np.nan, 0.0]), np.zeros(2), 1.0, 1.0)
    with pytest.raises(ValueError, match="n_iter"):
        v.bbvi_gaussian(grad_log_joint, 0.0, 1.0, 0, 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="rng"):
        v.bbvi_gaussian(grad_log_joint, 0.0, 1.0, 5, 10, 0)
    with pytest.raises(ValueError, match="lr"):
        v.bbvi_gaussian(grad_log_joint, 0.0, 1.0, 5, 10, np.random.default_rng(0), lr=-1.0)


# ------------------------------------------------------------------ Gaussian KL
def _spd(rng, d):
    A = rng.standard_normal((d, d))
    return A @ A.T + 0.5 * np.eye(d)


@pytest.mark.parametrize("d, seed", [(1, 0), (3, 1), (6, 2)])
def test_gaussian_kl_matches_an_independent_formula_and_monte_carlo(d, seed):
    rng = np.random.default_rng(seed)
    m1, m2, S1, S2 = rng.standard_normal(d), rng.standard_normal(d), _spd(rng, d), _spd(rng, d)
    P2 = np.linalg.inv(S2)
    ref = 0.5 * (np.trace(P2 @ S1) + (m2 - m1) @ P2 @ (m2 - m1) - d
                 + np.linalg.slogdet(S2)[1] - np.linalg.slogdet(S1)[1])
    assert v.gaussian_kl(m1, S1, m2, S2) == pytest.approx(ref, rel=1e-10)
    # Monte Carlo E_p[log p - log q] with scipy's densities, within 4 standard errors
    p, q = scipy.stats.multivariate_normal(m1, S1), scipy.stats.multivariate_normal(m2, S2)
    z = p.rvs(100_000, random_state=seed).reshape(-1, d)
    terms = p.logpdf(z) - q.logpdf(z)
    assert abs(terms.mean() - ref) < 4 * terms.std() / np.sqrt(terms.size)
    assert v.gaussian_kl(m1, S1, m1, S1) == pytest.approx(0.0, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(0, 2**31 - 1))
def test_gaussian_kl_is_non_negative_and_zero_only_at_equality(d, seed):
    rng = np.random.default_rng(seed)
    m1, m2, S1, S2 = rng.standard_normal(d), rng.standard_normal(d), _spd(rng, d), _spd(rng, d)
    assert v.gaussian_kl(m1, S1, m2, S2) > 0
    assert abs(v.gaussian_kl(m2, S2, m2, S2)) < 1e-10


# ------------------------------------------------------------------ mean-field CAVI
def _regression(seed, N=25, d=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((N, d))
    return X, X @ rng.standard_normal(d) + 0.6 * rng.standard_normal(N)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_linear_regression_elbo_matches_monte_carlo(seed):
    X, y = _regression(seed)
    lam, a, b = 0.5, 2.0, 1.5
    rng = np.random.default_rng(seed)
    mu, S, shape, rate = rng.standard_normal(3), _spd(rng, 3) / 4, 3.0, 2.0
    W = scipy.stats.multivariate_normal(mu, S).rvs(200_000, random_state=seed)
    alpha = scipy.stats.gamma(shape, scale=1 / rate).rvs(200_000, random_state=seed + 1)
    log_joint = (scipy.stats.norm.logpdf(y, W @ X.T, 1 / np.sqrt(alpha)[:, None]).sum(axis=1)
                 + scipy.stats.multivariate_normal(np.zeros(3), np.eye(3) / lam).logpdf(W)
                 + scipy.stats.gamma(a, scale=1 / b).logpdf(alpha))
    log_q = scipy.stats.multivariate_normal(mu, S).logpdf(W) + scipy.stats.gamma(shape, scale=1 / rate).logpdf(alpha)
    terms = log_joint - log_q
    est = v.linear_regression_elbo(X, y, lam, a, b, mu, S, shape, rate)
    assert abs(terms.mean() - est) < 4 * terms.std() / np.sqrt(terms.size)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cavi_reaches_the_fixed_point_and_stays_below_the_evidence(seed):
    X, y = _regression(seed)
    (N, d), lam, a, b = X.shape, 1.0, 2.0, 1.0
    mu, Sigma, shape, rate, F = v.cavi_linear_regression(X, y, lam, a, b, n_iter=40)
    assert F.shape == (80,) and np.all(np.diff(F) >= -1e-12)        # CAVI never lowers the ELBO

    def gap(e):
        Sig = np.linalg.inv(lam * np.eye(d) + e * X.T @ X)
        r = y - X @ (e * Sig @ X.T @ y)
        return e - (a + N / 2) / (b + 0.5 * (r @ r + np.trace(X @ Sig @ X.T)))

    e = scipy.optimize.brentq(gap, 1e-4, 1e4)
    Sig = np.linalg.inv(lam * np.eye(d) + e * X.T @ X)
    np.testing.assert_allclose(shape / rate, e, rtol=1e-9)
    np.testing.assert_allclose(mu, e * Sig @ X.T @ y, atol=1e-9)
    np.testing.assert_allclose(Sigma, Sig, atol=1e-9)
    assert F[-1] == pytest.approx(v.linear_regression_elbo(X, y, lam, a, b, mu, Sigma, shape, rate), abs=1e-10)
    # log p(y) by quadrature over α: the mean-field ELBO is a strict lower bound
    def integrand(al):
        C = np.eye(N) / al + X @ X.T / lam
        return np.exp(scipy.stats.multivariate_normal(np.zeros(N), C).logpdf(y) - F[-1]
                      + scipy.stats.gamma(a, scale=1 / b).logpdf(al))
    log_py = np.log(scipy.integrate.quad(integrand, 0, np.inf)[0]) + F[-1]
    assert 0 < log_py - F[-1] < 1.0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1), st.floats(0.1, 5.0), st.floats(0.5, 5.0), st.floats(0.1, 5.0))
def test_cavi_elbo_is_monotone_on_random_problems(seed, lam, a, b):
    X, y = _regression(seed, N=12, d=2)
    F = v.cavi_linear_regression(X, y, lam, a, b, n_iter=10)[-1]
    assert np.all(np.diff(F) >= -1e-9 * max(1.0, np.abs(F).max()))


# ------------------------------------------------------------------ sleep phase
W_GEN, MU_GEN, SIG_GEN = np.array([[1.0, 0.8], [0.9, 1.0], [0.5, 0.6]]), np.array([0.5, -1.0, 0.2]), 0.8


def test_sleep_gradient_matches_central_differences():
    rng = np.random.default_rng(0)
    V, c, ls = rng.standard_normal((2, 3)), rng.standard_normal(2), 0.3 * rng.standard_normal(2)
    X, Z = rng.standard_normal((50, 3)), rng.standard_normal((50, 2))
    _, dV, dc, dls = v.sleep_gradient(V, c, ls, X, Z)
    f = lambda t: v.sleep_gradient(t[:6].reshape(2, 3), t[6:8], t[8:], X, Z)[0]  # noqa: E731
    t0 = np.r_[V.ravel(), c, ls]
    num = np.array([(f(t0 + 1e-6 * e) - f(t0 - 1e-6 * e)) / 2e-6 for e in np.eye(10)])
    np.testing.assert_allclose(np.r_[dV.ravel(), dc, dls], num, atol=1e-7)
    # the value is the mean log-density of scipy's diagonal Gaussian
    ref = np.mean([scipy.stats.multivariate_normal(V @ x + c, np.diag(np.exp(2 * ls))).logpdf(z) for x, z in zip(X, Z)])
    assert v.sleep_gradient(V, c, ls, X, Z)[0] == pytest.approx(ref, rel=1e-12)


def test_sleep_phase_converges_to_moment_matching():
    S_post = np.linalg.inv(np.eye(2) + W_GEN.T @ W_GEN / SIG_GEN**2)
    A = S_post @ W_GEN.T / SIG_GEN**2
    Vp, cp, sp = v.sleep_phase(W_GEN, MU_GEN, SIG_GEN, np.zeros((2, 3)), np.zeros(2), np.ones(2),
                               2000, 100, np.random.default_rng(1))
    assert Vp.shape == (2001, 2, 3) and cp.shape == sp.shape == (2001, 2)
    np.testing.assert_allclose(Vp[-500:].mean(axis=0), A, atol=0.02)      # SGD noise: a few 1e-3
    np.testing.assert_allclose(cp[-500:].mean(axis=0), -A @ MU_GEN, atol=0.02)
    np.testing.assert_allclose(sp[-500:].mean(axis=0), np.sqrt(np.diag(S_post)), atol=0.02)


# ------------------------------------------------------------------ linear VAE
def _vae_params(rng, D, k):
    L = np.tril(rng.standard_normal((k, k)), -1) + np.diag(rng.uniform(0.5, 1.5, k))
    return (rng.standard_normal((D, k)), rng.standard_normal(D), float(rng.uniform(0.3, 2.0)),
            rng.standard_normal((k, D)), rng.standard_normal(k), L)


@pytest.mark.parametrize("n, D, k, seed", [(20, 3, 1, 0), (40, 5, 2, 1), (30, 4, 3, 2)])
def test_linear_vae_elbo_equals_the_linear_gaussian_elbo_and_has_the_right_gradient(n, D, k, seed):
    from mlnotes import generative
    from mlnotes.nn import gradient_check
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, D))
    W, b, psi, V, c, L = _vae_params(rng, D, k)
    F, grads = v.linear_vae_elbo(X, W, b, psi, V, c, L)
    ref = np.mean([generative.elbo_linear_gaussian(x, W, b, np.sqrt(psi), V @ x + c, L @ L.T) for x in X])
    assert F == pytest.approx(ref, rel=1e-12)
    params = [W, b, np.array([psi]), V, c, L]
    for j in range(6):
        def f(val, j=j):
            p = [*params[:j], val, *params[j + 1:]]
            return v.linear_vae_elbo(X, p[0], p[1], float(p[2][0]), p[3], p[4], np.tril(p[5]))[0]
        g = np.array([grads[j]]) if j == 2 else grads[j]
        assert gradient_check(f, params[j].astype(float).copy(), g) < 1e-6


def test_linear_vae_elbo_is_the_ppca_log_likelihood_at_the_ppca_solution():
    from mlnotes import latent
    rng = np.random.default_rng(3)
    X = rng.standard_normal((200, 2)) @ rng.standard_normal((4, 2)).T + 0.5 * rng.standard_normal((200, 4))
    res = latent.ppca_ml(X, 2)
    cov = np.linalg.inv(np.eye(2) + res.W.T @ res.W / res.sigma2)       # exact posterior of PPCA
    V = cov @ res.W.T / res.sigma2
    F, grads = v.linear_vae_elbo(X, res.W, res.mean, res.sigma2, V, -V @ res.mean, np.linalg.cholesky(cov))
    assert F == pytest.approx(res.loglik, abs=1e-10)
    assert max(np.abs(g).max() for g in grads) < 1e-8                    # a stationary point


# ------------------------------------------------------------------ regressions on fantasies
def test_fantasy_regression_matches_sklearn_polynomial_least_squares():
    from sklearn.linear_model import LinearRegression
    from sklearn.preprocessing import PolynomialFeatures
    rng = np.random.default_rng(4)
    Xs, Ts, Xn = rng.standard_normal((300, 3)), rng.standard_normal((300, 2)), rng.standard_normal((7, 3))
    poly = PolynomialFeatures(2)
    ref = LinearRegression(fit_intercept=False).fit(poly.fit_transform(Xs), Ts).predict(poly.transform(Xn))
    np.testing.assert_allclose(v.fantasy_regression(Xs, Ts, Xn), ref, atol=1e-10)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3), st.integers(0, 2**31 - 1))
def test_fantasy_regression_is_exact_for_quadratic_targets(D, seed):
    rng = np.random.default_rng(seed)
    Xs, Xn = rng.standard_normal((40, D)), rng.standard_normal((5, D))
    Q, w, c0 = rng.standard_normal((D, D)), rng.standard_normal(D), rng.standard_normal()
    target = lambda X: (np.einsum("ni,ij,nj->n", X, Q, X) + X @ w + c0)[:, None]  # noqa: E731
    np.testing.assert_allclose(v.fantasy_regression(Xs, target(Xs), Xn), target(Xn), atol=1e-8)


# ------------------------------------------------------------------ bad inputs of the new functions
_I2, _X = np.eye(2), np.zeros((30, 3))
BAD_INPUTS = [
    (lambda: v.gaussian_kl([0.0, 0.0], _I2, [0.0], _I2), "m2"),
    (lambda: v.gaussian_kl([0.0, 0.0], -_I2, [0.0, 0.0], _I2), "S1"),
    (lambda: v.gaussian_kl([0.0, 0.0], _I2, [0.0, 0.0], [[1.0, 2.0], [0.0, 1.0]]), "S2"),
    (lambda: v.gaussian_kl([np.nan, 0.0], _I2, [0.0, 0.0], _I2), "m1"),
    (lambda: v.linear_regression_elbo(np.ones((5, 2)), np.ones(4), 1.0, 1.0, 1.0, np.zeros(2), _I2, 1.0, 1.0), "y"),
    (lambda: v.linear_regression_elbo(np.ones((5, 2)), np.ones(5), 0.0, 1.0, 1.0, np.zeros(2), _I2, 1.0, 1.0), "lam"),
    (lambda: v.linear_regression_elbo(np.ones((5, 2)), np.ones(5), 1.0, 1.0, 1.0, np.zeros(2), -_I2, 1.0, 1.0), "Sigma"),
    (lambda: v.linear_regression_elbo(np.ones((5, 2)), np.ones(5), 1.0, 1.0, 1.0, np.zeros(3), _I2, 1.0, 1.0), "mu"),
    (lambda: v.linear_regression_elbo(np.ones((5, 2)), np.ones(5), 1.0, 1.0, 1.0, np.zeros(2), _I2, -1.0, 1.0), "shape"),
    (lambda: v.cavi_linear_regression(np.ones((5, 2)), np.ones(5), 1.0, -2.0, 1.0), "a"),
    (lambda: v.cavi_linear_regression(np.ones((5, 2)), np.ones(5), 1.0, 2.0, 1.0, n_iter=0), "n_iter"),
    (lambda: v.sleep_gradient(np.zeros((2, 3)), np.zeros(2), np.zeros(3), _X, np.zeros((30, 2))), "log_s"),
    (lambda: v.sleep_gradient(np.zeros((2, 3)), np.zeros(2), np.zeros(2), _X, np.zeros((29, 2))), "Z"),
    (lambda: v.sleep_gradient(np.zeros((2, 3)), np.zeros(3), np.zeros(2), _X, np.zeros((30, 2))), "c"),
    (lambda: v.sleep_phase(W_GEN, MU_GEN, 0.0, np.zeros((2, 3)), np.zeros(2), np.ones(2), 5, 5,
                           np.random.default_rng(0)), "sigma"),
    (lambda: v.sleep_phase(W_GEN, MU_GEN, 1.0, np.zeros((3, 2)), np.zeros(3), np.ones(3), 5, 5,
                           np.random.default_rng(0)), "V"),
    (lambda: v.sleep_phase(W_GEN, MU_GEN, 1.0, np.zeros((2, 3)), np.zeros(2), -np.ones(2), 5, 5,
                           np.random.default_rng(0)), "s must have positive entries"),
    (lambda: v.sleep_phase(W_GEN, MU_GEN, 1.0, np.zeros((2, 3)), np.zeros(2), np.ones(2), 5, 0,
                           np.random.default_rng(0)), "batch"),
    (lambda: v.sleep_phase(W_GEN, MU_GEN, 1.0, np.zeros((2, 3)), np.zeros(2), np.ones(2), 5, 5, 0), "rng"),
    (lambda: v.linear_vae_elbo(_X, np.zeros((2, 2)), np.zeros(3), 1.0, np.zeros((2, 3)), np.zeros(2), _I2), "W"),
    (lambda: v.linear_vae_elbo(_X, np.zeros((3, 2)), np.zeros(3), 0.0, np.zeros((2, 3)), np.zeros(2), _I2), "psi"),
    (lambda: v.linear_vae_elbo(_X, np.zeros((3, 2)), np.zeros(3), 1.0, np.zeros((2, 3)), np.zeros(2),
                               np.ones((2, 2))), "L must be lower triangular"),
    (lambda: v.linear_vae_elbo(_X, np.zeros((3, 2)), np.zeros(3), 1.0, np.zeros((2, 2)), np.zeros(2), _I2), "V"),
    (lambda: v.linear_vae_elbo(_X, np.zeros((3, 2)), np.zeros(2), 1.0, np.zeros((2, 3)), np.zeros(2), _I2), "b"),
    (lambda: v.fantasy_regression(np.ones((5, 3)), np.ones((5, 1)), np.ones((2, 3))), "X_s must have at least"),
    (lambda: v.fantasy_regression(np.ones((30, 3)), np.ones((29, 1)), np.ones((2, 3))), "T_s"),
    (lambda: v.fantasy_regression(np.ones((30, 3)), np.ones((30, 1)), np.ones((2, 2))), "X_new"),
    (lambda: v.fantasy_regression(np.ones((30, 3)), np.ones((30, 1)), np.ones((2, 3))), "linearly dependent"),
]


@pytest.mark.parametrize("call, match", BAD_INPUTS, ids=[m for _, m in BAD_INPUTS])
def test_bad_inputs_of_the_new_functions(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([np.nan, np.inf, -np.inf]), st.integers(0, 3))
def test_non_finite_values_always_raise_naming_the_argument(bad, where):
    V, c, ls, X, Z = np.zeros((2, 3)), np.zeros(2), np.zeros(2), np.ones((10, 3)), np.ones((10, 2))
    args = [V, c, ls, X, Z]
    names = ["V", "c", "log_s", "X"]
    args[where] = args[where].copy()
    args[where].flat[0] = bad
    with pytest.raises(ValueError, match=names[where]):
        v.sleep_gradient(*args)


# ------------------------------------------------ names, user callables, divergence, overflow
@pytest.mark.parametrize("bad", ["abc", [[0.0], [1.0, 2.0]], None, object()])
def test_non_numeric_m_and_s_are_rejected_by_name(bad):
    eps = np.zeros((4, 1))
    for call, name in [(lambda: v.elbo(log_joint, bad, 1.0, eps), "m"), (lambda: v.elbo(log_joint, 0.0, bad, eps), "s"),
                       (lambda: v.gaussian_entropy(bad), "s"),
                       (lambda: v.bbvi_gaussian(grad_log_joint, bad, 1.0, 2, 2, np.random.default_rng(0)), "m0"),
                       (lambda: v.bbvi_gaussian(grad_log_joint, 0.0, bad, 2, 2, np.random.default_rng(0)), "s0")]:
        with pytest.raises(ValueError, match=f"^{name} must"):
            call()


def test_bbvi_names_its_own_arguments():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="s0 must have positive entries"):
        v.bbvi_gaussian(grad_log_joint, 0.0, -1.0, 2, 2, rng)
    with pytest.raises(ValueError, match="grad_log_joint must be callable"):
        v.bbvi_gaussian("f", 0.0, 1.0, 2, 2, rng)


@pytest.mark.parametrize("returns, match", [
    (lambda z: "abc", "the value returned by log_joint must be numeric"),
    (lambda z: None, "the value returned by log_joint must be numeric"),
    (lambda z: np.full(z.shape[:-1], np.nan), "the value returned by log_joint must be finite"),
    (lambda z: z, r"log_joint must return an array of shape \(4,\)"),
])
def test_what_log_joint_returns_is_checked(returns, match):
    for fn in [v.elbo, v.score_gradient, v.log_weights]:
        with pytest.raises(ValueError, match=match):
            fn(returns, 0.0, 1.0, np.zeros((4, 1)))


def test_a_log_joint_returning_a_list_is_accepted():
    assert float(v.elbo(lambda z: log_joint(z).tolist(), 0.3, 0.7, np.zeros((4, 1)))) == pytest.approx(
        float(v.elbo(log_joint, 0.3, 0.7, np.zeros((4, 1)))))


def test_bbvi_reports_divergence_instead_of_returning_nan():
    # a quartic log density: with lr = 1 the first steps overshoot, m explodes and s underflows
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="diverged.*use a smaller lr"):
        v.bbvi_gaussian(lambda z: -100 * z**3, 3.0, 1.0, 50, 5, np.random.default_rng(0), lr=1.0)
    m, s = v.bbvi_gaussian(lambda z: -100 * z**3, 3.0, 1.0, 50, 5, np.random.default_rng(0), lr=1e-4)
    assert np.all(np.isfinite(m)) and np.all(s > 0)


def test_sleep_phase_reports_divergence_instead_of_returning_inf():
    args = (W_GEN, MU_GEN, 0.5, np.zeros((2, 3)), np.zeros(2), np.ones(2), 50, 4, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"diverged at step 2 \(s is no longer finite and positive\): use a smaller lr"):
        v.sleep_phase(*args, lr=5.0)
    V, c, s = v.sleep_phase(*args, lr=0.05)
    assert np.all(np.isfinite(V)) and np.all(np.isfinite(s)) and np.all(s > 0)


@pytest.mark.parametrize("call", [
    lambda: v.radial_flow(np.full((3, 2), 1e200), np.zeros(2), 1.0, 0.5),
    lambda: v.fantasy_regression(np.vstack([np.random.default_rng(0).standard_normal((19, 2)), [1e200, 1.0]]),
                                 np.ones((20, 1)), np.ones((2, 2))),
    lambda: v.cavi_linear_regression(np.array([[1e200, 1.0], [1.0, 1e200], [1.0, 2.0]]), np.ones(3), 1.0, 1.0, 1.0),
    lambda: v.linear_vae_elbo(np.ones((5, 3)), np.full((3, 2), 1e200), np.zeros(3), 1.0, np.zeros((2, 3)),
                              np.zeros(2), np.eye(2)),
])
def test_overflow_raises_instead_of_returning_nan(call):
    with np.errstate(all="ignore"), pytest.raises(ValueError, match="the result is (NaN|not finite) because the computation "
                                                                    "overflowed"):
        call()


# ------------------------------------------------- models V2 and V3: EM and VI
def _v_data(N, d, seed, offset=0.0):
    rng = np.random.default_rng(seed)
    X = offset + rng.standard_normal((N, d))
    return X, X @ rng.standard_normal(d) + 0.5 * rng.standard_normal(N)


def _t_logpdf(v, a, b):   # log ∫ N(v | 0, I/τ) Gamma(τ | a, b) dτ = multivariate t_{2a}(0, (b/a) I)
    return scipy.stats.multivariate_t(np.zeros(v.size), b / a * np.eye(v.size), df=2 * a).logpdf(v)


@pytest.mark.parametrize("N,d,seed", [(15, 2, 0), (40, 3, 1), (8, 4, 2)])
def test_em_v2_and_v3_objectives_monotone_and_fixed_points_against_bfgs(N, d, seed):
    X, y = _v_data(N, d, seed)
    a, b, lam, e, f = 2.0, 1.0, 0.7, 1.5, 2.0
    w0 = np.full(d, 3.0)
    obj = {"v2": lambda w: _t_logpdf(y - X @ w, a, b) + scipy.stats.norm(0, lam**-0.5).logpdf(w).sum(),
           "v3": lambda w: _t_logpdf(y - X @ w, a, b) + _t_logpdf(w, e, f)}
    res = {"v2": v.em_regression_v2(X, y, lam, a, b, w0=w0), "v3": v.em_regression_v3(X, y, a, b, e, f, w0=w0)}
    for key, r in res.items():
        assert r.converged
        assert np.all(np.diff(r.objective) >= -1e-10)
        assert r.objective[0] == pytest.approx(obj[key](w0), rel=1e-12)
        assert r.objective[-1] == pytest.approx(obj[key](r.w), rel=1e-12)
        opt = scipy.optimize.minimize(lambda w: -obj[key](w), np.zeros(d), method="BFGS", options={"gtol": 1e-10})
        np.testing.assert_allclose(r.w, opt.x, atol=1e-6)


def test_em_v2_e_step_is_the_gamma_posterior():
    X, y = _v_data(12, 2, 3)
    r = v.em_regression_v2(X, y, 1.0, 2.0, 1.5, max_iter=1, tol=0.0)
    w_prev = np.zeros(2)
    # one M-step from w = 0: E[α] of Gamma(a + N/2, b + ‖y‖²/2), then ridge; compare with sklearn Ridge
    from sklearn.linear_model import Ridge
    e_alpha = (2.0 + 6) / (1.5 + np.sum((y - X @ w_prev) ** 2) / 2)
    ridge = Ridge(alpha=1.0 / e_alpha, fit_intercept=False).fit(X, y)
    np.testing.assert_allclose(r.w, ridge.coef_, atol=1e-10)


def test_em_regression_is_accurate_far_from_the_origin():
    X, y = _v_data(30, 2, 4, offset=1e5)
    r = v.em_regression_v2(X, y, 1e-6, 2.0, 1.0, max_iter=200, tol=1e-12)
    obj = lambda w: _t_logpdf(y - X @ w, 2.0, 1.0) - 0.5e-6 * (w @ w)  # noqa: E731
    opt = scipy.optimize.minimize(lambda w: -obj(w), r.w, method="Nelder-Mead",
                                  options={"xatol": 1e-12, "fatol": 1e-14, "maxiter": 5000})
    assert obj(r.w) >= obj(opt.x) - 1e-9


def test_em_regression_warns_when_unconverged():
    X, y = _v_data(20, 2, 5)
    with pytest.warns(RuntimeWarning, match="did not converge"):
        r = v.em_regression_v3(X, y, 2.0, 1.0, 2.0, 1.0, w0=np.full(2, 5.0), max_iter=1)
    assert not r.converged and "converged=False" in repr(r)


@pytest.mark.parametrize("N,d,seed", [(20, 2, 0), (50, 3, 1)])
def test_v3_elbo_against_monte_carlo_and_cavi_monotone(N, d, seed):
    X, y = _v_data(N, d, seed)
    a, b, e, f = 2.0, 1.0, 2.0, 1.0
    mu, Sigma, qa, ql, F = v.cavi_regression_v3(X, y, a, b, e, f, n_iter=30)
    assert np.all(np.diff(F) >= -1e-10)
    rng = np.random.default_rng(seed)
    S = 200_000
    w = rng.multivariate_normal(mu, Sigma, S)
    al = rng.gamma(qa[0], 1 / qa[1], S)
    la = rng.gamma(ql[0], 1 / ql[1], S)
    r = y - w @ X.T
    log_p = (N / 2 * np.log(al / (2 * np.pi)) - al / 2 * np.sum(r**2, axis=1)
             + d / 2 * np.log(la / (2 * np.pi)) - la / 2 * np.sum(w**2, axis=1)
             + scipy.stats.gamma(a, scale=1 / b).logpdf(al) + scipy.stats.gamma(e, scale=1 / f).logpdf(la))
    log_q = (scipy.stats.multivariate_normal(mu, Sigma).logpdf(w) + scipy.stats.gamma(qa[0], scale=1 / qa[1]).logpdf(al)
             + scipy.stats.gamma(ql[0], scale=1 / ql[1]).logpdf(la))
    vals = log_p - log_q
    assert abs(vals.mean() - F[-1]) <= 4 * vals.std() / np.sqrt(S)
    assert v.regression_v3_elbo(X, y, a, b, e, f, mu, Sigma, qa, ql) == pytest.approx(F[-1], rel=1e-12)


def test_cavi_v3_fixed_point_against_direct_maximisation():
    X, y = _v_data(20, 2, 6)
    a, b, e, f = 2.0, 1.0, 2.0, 1.0
    mu, Sigma, qa, ql, F = v.cavi_regression_v3(X, y, a, b, e, f, n_iter=200)

    def neg(p):
        L = np.array([[np.exp(p[2]), 0.0], [p[3], np.exp(p[4])]])
        return -v.regression_v3_elbo(X, y, a, b, e, f, p[:2], L @ L.T, np.exp(p[5:7]), np.exp(p[7:9]))

    opt = scipy.optimize.minimize(neg, np.zeros(9), method="BFGS", options={"gtol": 1e-9})
    assert -opt.fun <= F[-1] + 1e-7
    L = np.array([[np.exp(opt.x[2]), 0.0], [opt.x[3], np.exp(opt.x[4])]])
    np.testing.assert_allclose(np.r_[opt.x[:2], (L @ L.T).ravel(), np.exp(opt.x[5:])],
                               np.r_[mu, Sigma.ravel(), qa, ql], rtol=1e-4, atol=1e-5)


def test_fantasy_regression_is_accurate_far_from_the_origin():
    # quadratic features of points near 1e3 make ΦᵀΦ ill-conditioned (cond ~ 1e20): no normal equations
    from sklearn.linear_model import LinearRegression
    from sklearn.preprocessing import PolynomialFeatures

    rng = np.random.default_rng(7)
    Xs = 1e3 + rng.standard_normal((60, 2))
    Ts = np.c_[np.sin(Xs[:, 0]) + Xs[:, 1] ** 2 / 1e3, Xs[:, 0] * Xs[:, 1] / 1e3]
    Xn = 1e3 + rng.standard_normal((5, 2))
    poly = PolynomialFeatures(2)
    ref = LinearRegression().fit(poly.fit_transform(Xs - 1e3), Ts).predict(poly.transform(Xn - 1e3))
    np.testing.assert_allclose(v.fantasy_regression(Xs, Ts, Xn), ref, atol=1e-6)
