"""Tests for mlnotes.variational (chapter 21)."""
import numpy as np
import pytest
import scipy.special
import scipy.stats

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
    with pytest.raises(ValueError, match="s must be positive"):
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
