"""Tests for mlnotes.meanfield (chapter 39)."""
import itertools
import warnings

import numpy as np
import pytest
import scipy.stats
from scipy.special import gammaln

from mlnotes import meanfield as mf
from mlnotes.bayes import gp_log_marginal_likelihood, gp_posterior
from mlnotes.kernels import rbf_kernel
from mlnotes.variational import gaussian_kl


def _spd(d, seed):
    A = np.random.default_rng(seed).standard_normal((d, d))
    return A @ A.T + 0.5 * np.eye(d)


# ------------------------------------------------------------------ Gaussian target
@pytest.mark.parametrize("d, seed", [(2, 0), (4, 1), (7, 2)])
def test_mean_field_gaussian_exact_means_and_variances(d, seed):
    Lam, mu = _spd(d, seed), np.arange(d, dtype=float)
    r = mf.mean_field_gaussian(mu, Lam, 3000)
    # Gauss–Seidel converges geometrically; 3000 sweeps reach rounding for these sizes
    np.testing.assert_allclose(r.means, mu, atol=1e-8)
    np.testing.assert_allclose(r.variances, 1 / np.diag(Lam), rtol=1e-14)
    assert np.all(r.variances <= np.diag(np.linalg.inv(Lam)) + 1e-15)
    assert r.elbo.shape == (3000 * d + 1,)
    assert np.all(np.diff(r.elbo) >= -1e-11)
    # the recorded ELBO is −KL(q ‖ p), computed independently by gaussian_kl
    assert np.isclose(r.elbo[-1], -gaussian_kl(r.means, np.diag(r.variances), mu, np.linalg.inv(Lam)), atol=1e-9)


def test_mean_field_gaussian_start():
    r = mf.mean_field_gaussian([0.0, 0.0], np.eye(2), 1, m0=[3.0, -1.0])
    np.testing.assert_allclose(r.means, 0.0)                 # diagonal Λ: one sweep is exact
    assert np.isclose(r.elbo[0], -gaussian_kl(np.array([3.0, -1.0]), np.eye(2), np.zeros(2), np.eye(2)))


# ---------------------------------------------------------------------- Ising model
def _enumerate(J, h):
    d = h.size
    S = np.array(list(itertools.product([-1, 1], repeat=d)), dtype=float)
    log_w = 0.5 * np.einsum("si,ij,sj->s", S, J, S) + S @ h
    return S, log_w, np.logaddexp.reduce(log_w)


@pytest.mark.parametrize("d, seed, damping", [(4, 0, 0.0), (8, 1, 0.3), (10, 2, 0.7)])
def test_ising_bound_monotone_and_fixed_point(d, seed, damping):
    rng = np.random.default_rng(seed)
    J = np.triu(rng.normal(0, 0.3, (d, d)), 1)
    J, h = J + J.T, rng.normal(0, 0.3, d)
    r = mf.naive_mean_field_ising(J, h, 400, damping)
    S, log_w, log_Z = _enumerate(J, h)
    assert np.all(np.diff(r.elbo) >= -1e-12)
    assert r.elbo[-1] <= log_Z
    np.testing.assert_allclose(r.magnetisation, np.tanh(h + J @ r.magnetisation), atol=1e-8)
    # ELBO = E_q[log p̃] + H[q] by enumeration over the product distribution q
    q = np.prod((1 + S * r.magnetisation) / 2, axis=1)
    direct = q @ log_w - np.sum(q[q > 0] * np.log(q[q > 0]))
    assert np.isclose(r.elbo[-1], direct, atol=1e-10)


def test_ising_independent_spins_exact():
    h = np.array([0.3, -1.2, 2.0])
    r = mf.naive_mean_field_ising(np.zeros((3, 3)), h, 2)
    np.testing.assert_allclose(r.magnetisation, np.tanh(h), atol=1e-15)
    assert np.isclose(r.elbo[-1], _enumerate(np.zeros((3, 3)), h)[2], atol=1e-12)   # exact when J = 0


def test_ising_rejects_diagonal():
    with pytest.raises(ValueError, match="J"):
        mf.naive_mean_field_ising(np.eye(2), np.zeros(2), 3)


# --------------------------------------------------------------- VB normal-gamma
def _exact_ng(x, mu0, lam0, a0, b0):
    n, xbar = x.size, x.mean()
    kn, mun, an = lam0 + n, (lam0 * mu0 + n * xbar) / (lam0 + n), a0 + n / 2
    bn = b0 + 0.5 * np.sum((x - xbar) ** 2) + lam0 * n * (xbar - mu0) ** 2 / (2 * kn)
    log_ev = gammaln(an) - gammaln(a0) + a0 * np.log(b0) - an * np.log(bn) + 0.5 * np.log(lam0 / kn) - n / 2 * np.log(2 * np.pi)
    return kn, mun, an, bn, log_ev


@pytest.mark.parametrize("n, seed", [(3, 0), (10, 1), (100, 2)])
def test_vb_normal_gamma_against_exact(n, seed):
    x = np.random.default_rng(seed).normal(0.5, 1.5, n)
    args = (0.2, 2.0, 1.5, 1.0)
    r = mf.vb_normal_gamma(x, *args, 200)
    kn, mun, an, bn, log_ev = _exact_ng(x, *args)
    assert np.isclose(r.mean, mun, atol=1e-12)
    assert 1 / r.precision < bn / ((an - 1) * kn)                  # under-estimated spread of μ
    assert r.shape / r.rate**2 < an / bn**2                          # and of τ
    assert np.all(np.diff(r.elbo) >= -1e-12)
    assert r.elbo[-1] < log_ev
    # fixed point of the two updates
    lN = kn * r.shape / r.rate
    assert np.isclose(r.precision, lN, rtol=1e-10)
    bN = 1.0 + 0.5 * (np.sum((x - mun) ** 2) + n / lN + 2.0 * ((mun - 0.2) ** 2 + 1 / lN))
    assert np.isclose(r.rate, bN, rtol=1e-10)


def test_vb_normal_gamma_elbo_monte_carlo():
    x = np.random.default_rng(3).normal(1.0, 2.0, 6)
    mu0, lam0, a0, b0 = 0.0, 1.0, 2.0, 2.0
    r = mf.vb_normal_gamma(x, mu0, lam0, a0, b0, 50)
    rng = np.random.default_rng(4)
    S = 200_000
    mu = rng.normal(r.mean, 1 / np.sqrt(r.precision), S)
    tau = rng.gamma(r.shape, 1 / r.rate, S)
    log_p = (scipy.stats.gamma.logpdf(tau, a0, scale=1 / b0) + scipy.stats.norm.logpdf(mu, mu0, 1 / np.sqrt(lam0 * tau))
             + scipy.stats.norm.logpdf(x[:, None], mu, 1 / np.sqrt(tau)).sum(axis=0))
    log_q = scipy.stats.norm.logpdf(mu, r.mean, 1 / np.sqrt(r.precision)) + scipy.stats.gamma.logpdf(tau, r.shape, scale=1 / r.rate)
    w = log_p - log_q
    assert abs(w.mean() - r.elbo[-1]) < 4 * w.std() / np.sqrt(S)     # 4 Monte Carlo standard errors


# ------------------------------------------------------------------------ VB-GMM
def _blobs(n_per, d, seed, k=3):
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 4, (k, d))
    return np.vstack([rng.multivariate_normal(c, np.eye(d), n_per) for c in centres])


def _sklearn_fit(X, K, seed):
    from sklearn.mixture import BayesianGaussianMixture
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return BayesianGaussianMixture(n_components=K, weight_concentration_prior_type="dirichlet_distribution",
                                       covariance_type="full", reg_covar=0.0, tol=1e-12, max_iter=2000,
                                       random_state=seed).fit(X)


def _sklearn_params(bgm):
    return (bgm.weight_concentration_, bgm.mean_precision_, bgm.means_, bgm.degrees_of_freedom_, bgm.covariances_)


def _compare(p, ref, tol):
    for a, b in zip((p.alpha, p.beta, p.means, p.nu, p.W_inv / p.nu[:, None, None]), ref):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


@pytest.mark.parametrize("n_per, d, K, seed", [(60, 2, 3, 0), (80, 3, 4, 1), (40, 2, 5, 2)])
def test_vb_m_step_reproduces_sklearn_step(n_per, d, K, seed):
    """One sklearn iteration (warm start, max_iter=1) is an E-step at the current parameters,
    whose responsibilities are predict_proba(X), followed by the M-step: reproduced to 1e-10."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.mixture import BayesianGaussianMixture
    X = _blobs(n_per, d, seed)
    bgm = BayesianGaussianMixture(n_components=K, weight_concentration_prior_type="dirichlet_distribution",
                                  covariance_type="full", reg_covar=0.0, max_iter=1, warm_start=True,
                                  random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for _ in range(5):
            bgm.fit(X)
            resp = bgm.predict_proba(X)
            bgm.fit(X)
            _compare(mf.vb_m_step(X, resp, None), _sklearn_params(bgm), 1e-10)


@pytest.mark.parametrize("n_per, d, K, seed", [(80, 3, 4, 1)])
def test_vb_m_step_sklearn_at_convergence(n_per, d, K, seed):
    """At convergence (tol=1e-12 on the lower bound), sklearn's stored parameters come from the
    previous E-step, not from predict_proba: they agree to about 1e-6, not 1e-10."""
    X = _blobs(n_per, d, seed)
    bgm = _sklearn_fit(X, K, seed)
    assert bgm.converged_
    _compare(mf.vb_m_step(X, bgm.predict_proba(X), None), _sklearn_params(bgm), 1e-5)


def test_sklearn_default_priors():
    X = _blobs(30, 3, 5)
    bgm = _sklearn_fit(X, 4, 0)
    assert bgm.weight_concentration_prior_ == 1 / 4 and bgm.mean_precision_prior_ == 1.0
    assert bgm.degrees_of_freedom_prior_ == 3
    np.testing.assert_allclose(bgm.mean_prior_, X.mean(axis=0))
    np.testing.assert_allclose(bgm.covariance_prior_, np.cov(X.T))


def test_vb_e_step_reproduces_sklearn():
    X = _blobs(50, 2, 3)
    bgm = _sklearn_fit(X, 3, 3)
    params = mf.VBGMMParams(bgm.weight_concentration_, bgm.mean_precision_, bgm.means_, bgm.degrees_of_freedom_,
                            bgm.covariances_ * bgm.degrees_of_freedom_[:, None, None])
    np.testing.assert_allclose(mf._normalise_rows(mf._log_rho(X, params)), bgm.predict_proba(X), atol=1e-10)


def test_vb_m_step_explicit_prior():
    X = _blobs(20, 2, 4)
    resp = np.random.default_rng(0).dirichlet(np.ones(3), X.shape[0])
    prior = dict(alpha0=0.5, beta0=2.0, m0=np.zeros(2), nu0=3.0, W0_inv=np.eye(2))
    p = mf.vb_m_step(X, resp, prior)
    N = resp.sum(0) + 10 * np.finfo(float).eps
    for k in range(3):
        xb = resp[:, k] @ X / N[k]
        S = (resp[:, k, None] * (X - xb)).T @ (X - xb) / N[k]
        assert np.isclose(p.alpha[k], 0.5 + N[k]) and np.isclose(p.nu[k], 3.0 + N[k])
        np.testing.assert_allclose(p.means[k], N[k] * xb / (2.0 + N[k]))
        np.testing.assert_allclose(p.W_inv[k], np.eye(2) + N[k] * S + 2.0 * N[k] / (2.0 + N[k]) * np.outer(xb, xb))


@pytest.mark.parametrize("n_per, K, seed", [(30, 2, 0), (50, 6, 1), (15, 3, 2), (40, 5, 3)])
def test_vb_gmm_monotone_and_pruning(n_per, K, seed):
    X = _blobs(n_per, 2, seed)
    r = mf.vb_gmm(X, K, None, 300, np.random.default_rng(seed))
    assert r.elbo.shape == (600,)
    assert np.all(np.diff(r.elbo) >= -1e-8 * np.abs(r.elbo).max())
    np.testing.assert_allclose(r.resp.sum(axis=1), 1.0)
    if K > 3:
        dead = r.resp.sum(axis=0) < 1e-3
        assert dead.sum() >= 1
        np.testing.assert_allclose(r.params.alpha[dead], 1 / K, rtol=1e-2)


def _wishart_logpdf(L, W, nu):
    return scipy.stats.wishart(df=nu, scale=W).logpdf(L)


def test_vb_gmm_elbo_monte_carlo():
    X = _blobs(15, 2, 7)
    K, n = 3, X.shape[0]
    hyper = mf._vb_prior(None, X, K)
    alpha0, beta0, m0, nu0, W0_inv = hyper
    resp = np.random.default_rng(1).dirichlet(np.ones(K), n)
    p_opt = mf.vb_m_step(X, resp, None)
    F_opt = mf._vb_gmm_elbo(X, resp, p_opt, hyper, mf._log_rho(X, p_opt))
    # a q(θ) that is not the VB-M optimum, so that the Monte Carlo estimate has variance
    p = mf.VBGMMParams(p_opt.alpha + 0.7, 1.3 * p_opt.beta, p_opt.means + 0.2, p_opt.nu + 1.5, 1.2 * p_opt.W_inv)
    F = mf._vb_gmm_elbo(X, resp, p, hyper, mf._log_rho(X, p))
    assert F < F_opt
    rng, S = np.random.default_rng(2), 1000
    W0 = np.linalg.inv(W0_inv)
    vals = np.empty(S)
    pis = rng.dirichlet(p.alpha, S)
    lams = [scipy.stats.wishart(df=p.nu[k], scale=np.linalg.inv(p.W_inv[k])).rvs(S, random_state=rng) for k in range(K)]
    for s in range(S):
        v = scipy.stats.dirichlet.logpdf(pis[s], np.full(K, alpha0)) - scipy.stats.dirichlet.logpdf(pis[s], p.alpha)
        ll = np.log(pis[s])[None, :].repeat(n, 0)
        for k in range(K):
            Lk = lams[k][s]
            Ck = np.linalg.inv(Lk)
            mu = rng.multivariate_normal(p.means[k], Ck / p.beta[k])
            v += (_wishart_logpdf(Lk, W0, nu0) - _wishart_logpdf(Lk, np.linalg.inv(p.W_inv[k]), p.nu[k])
                  + scipy.stats.multivariate_normal.logpdf(mu, m0, Ck / beta0)
                  - scipy.stats.multivariate_normal.logpdf(mu, p.means[k], Ck / p.beta[k]))
            ll[:, k] += scipy.stats.multivariate_normal.logpdf(X, mu, Ck)
        vals[s] = v + np.sum(resp * ll) - np.sum(resp * np.log(resp))
    assert vals.std() > 0.1
    assert abs(vals.mean() - F) < 4 * vals.std() / np.sqrt(S)       # 4 Monte Carlo standard errors


def test_vb_gmm_elbo_constant_at_vb_m_optimum():
    """At q(θ) = VB-M(resp), log p(X, Z, θ) − log q averaged over q(Z) is constant in θ:
    one draw of θ gives the ELBO exactly."""
    X = _blobs(10, 2, 8)
    K, n = 2, X.shape[0]
    hyper = mf._vb_prior(None, X, K)
    alpha0, beta0, m0, nu0, W0_inv = hyper
    resp = np.random.default_rng(3).dirichlet(np.ones(K), n)
    p = mf.vb_m_step(X, resp, None)
    F = mf._vb_gmm_elbo(X, resp, p, hyper, mf._log_rho(X, p))
    rng = np.random.default_rng(4)
    for _ in range(3):
        pi = rng.dirichlet(p.alpha)
        v = scipy.stats.dirichlet.logpdf(pi, np.full(K, alpha0)) - scipy.stats.dirichlet.logpdf(pi, p.alpha)
        ll = np.tile(np.log(pi), (n, 1))
        for k in range(K):
            Wk = np.linalg.inv(p.W_inv[k])
            Lk = scipy.stats.wishart(df=p.nu[k], scale=Wk).rvs(random_state=rng)
            Ck = np.linalg.inv(Lk)
            mu = rng.multivariate_normal(p.means[k], Ck / p.beta[k])
            v += (_wishart_logpdf(Lk, np.linalg.inv(W0_inv), nu0) - _wishart_logpdf(Lk, Wk, p.nu[k])
                  + scipy.stats.multivariate_normal.logpdf(mu, m0, Ck / beta0)
                  - scipy.stats.multivariate_normal.logpdf(mu, p.means[k], Ck / p.beta[k]))
            ll[:, k] += scipy.stats.multivariate_normal.logpdf(X, mu, Ck)
        assert np.isclose(v + np.sum(resp * ll) - np.sum(resp * np.log(resp)), F, atol=1e-8)


def test_vb_gmm_bad_K():
    with pytest.raises(ValueError, match="K"):
        mf.vb_gmm(np.zeros((3, 2)) + np.arange(3)[:, None], 4, None, 2, np.random.default_rng(0))


# -------------------------------------------------------------------- sparse GPs
def _gp_data(n, seed):
    rng = np.random.default_rng(seed)
    X = np.sort(rng.uniform(-3, 3, n))[:, None]
    return X, np.sin(2 * X[:, 0]) + 0.2 * rng.standard_normal(n)


def _sklearn_lml(X, y, c, ell, sigma2):
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel
    k = ConstantKernel(c) * RBF(ell) + WhiteKernel(sigma2)
    return GaussianProcessRegressor(kernel=k, optimizer=None, alpha=0.0).fit(X, y).log_marginal_likelihood_value_


@pytest.mark.parametrize("n, seed, ell", [(30, 0, 1.0), (60, 1, 0.5), (100, 2, 0.8)])
def test_titsias_bound_below_exact_and_increasing(n, seed, ell):
    X, y = _gp_data(n, seed)
    c, sigma2 = 1.3, 0.05
    kern = lambda A, B: c * rbf_kernel(A, B, gamma=1 / (2 * ell**2))
    exact = _sklearn_lml(X, y, c, ell, sigma2)
    assert np.isclose(exact, gp_log_marginal_likelihood(X, y, np.sqrt(sigma2), kernel=kern), atol=1e-8)
    order = np.random.default_rng(seed).permutation(n)
    bounds = [mf.titsias_bound(X, y, X[order[:m]], kern, sigma2) for m in (1, 3, 5, 10, n // 2, n)]
    assert np.all(np.array(bounds[:-1]) < exact + 1e-9)
    assert np.all(np.diff(bounds) >= -1e-6)
    assert np.isclose(bounds[-1], exact, atol=1e-4)          # Z = X (a 1e-10 jitter may be added)


def _titsias_dense(X, y, Z, kern, s2):
    """Titsias' bound from the n x n matrices: log N(y; 0, Q + s2 I) - tr(K - Q) / (2 s2)."""
    Kzz, Kzx = kern(Z, Z), kern(Z, X)
    Q = Kzx.T @ np.linalg.solve(Kzz, Kzx)
    n = len(y)
    return (scipy.stats.multivariate_normal(np.zeros(n), Q + s2 * np.eye(n)).logpdf(y)
            - np.trace(kern(X, X) - Q) / (2 * s2))


def test_titsias_bound_dense_formula():
    X, y = _gp_data(40, 3)
    kern = lambda A, B: 2.0 * rbf_kernel(A, B, gamma=0.7)
    Z = np.linspace(-3, 3, 7)[:, None]
    assert np.isclose(mf.titsias_bound(X, y, Z, kern, 0.1), _titsias_dense(X, y, Z, kern, 0.1), atol=1e-9)


def _refusing_large_grams(kern, limit=2_000_000):
    """``kern`` that fails the test if asked for a Gram matrix with more than ``limit`` entries."""
    def k(A, B):
        assert A.shape[0] * B.shape[0] <= limit, f"kernel asked for a {A.shape[0]} x {B.shape[0]} Gram matrix"
        return kern(A, B)
    return k


def test_titsias_bound_never_builds_n_by_n():
    """Regression: titsias_bound evaluated kernel(X, X) (n x n) for its diagonal only. At
    n = 40000 that matrix would take 12.8 GB. Reference: the rank-3 kernel (1 + ab)^2, for which
    3 inducing inputs give Q = K exactly, so the bound is log N(y; 0, Phi Phi^T + s2 I), computed
    in feature space (3 x 3) and, on a subset, by scipy.stats.multivariate_normal."""
    rng = np.random.default_rng(0)
    n, s2 = 40_000, 0.3
    x = rng.uniform(-2, 2, n)
    phi = np.column_stack([np.ones(n), np.sqrt(2) * x, x**2])          # (1 + ab)^2 = phi(a).phi(b)
    y = phi @ rng.normal(size=3) + np.sqrt(s2) * rng.standard_normal(n)
    poly = lambda A, B: (1.0 + A @ B.T) ** 2
    Z = np.array([[-1.5], [0.2], [1.7]])
    F = mf.titsias_bound(x[:, None], y, Z, _refusing_large_grams(poly), s2)
    G = np.eye(3) + phi.T @ phi / s2
    logdet = n * np.log(s2) + np.linalg.slogdet(G)[1]
    quad = y @ y / s2 - (phi.T @ y / s2) @ np.linalg.solve(G, phi.T @ y / s2)
    assert np.isclose(F, -0.5 * (n * np.log(2 * np.pi) + logdet + quad), rtol=1e-10, atol=1e-6)
    k = 500
    sub = scipy.stats.multivariate_normal(np.zeros(k), poly(x[:k, None], x[:k, None]) + s2 * np.eye(k)).logpdf(y[:k])
    assert np.isclose(mf.titsias_bound(x[:k, None], y[:k], Z, poly, s2), sub, atol=1e-6)
    pred = mf.sparse_gp_predict(x[:, None], y, Z, x[:, None], _refusing_large_grams(poly), s2)
    assert pred.var.shape == (n,)


def test_titsias_bound_blocks_match_dense_formula_across_a_block_edge():
    """n = 1300 spans three blocks of 512: the blockwise diagonal gives the dense formula."""
    X, y = _gp_data(1300, 7)
    kern = lambda A, B: 0.8 * rbf_kernel(A, B, gamma=2.0)
    Z = np.linspace(-3, 3, 15)[:, None]
    dense = _titsias_dense(X, y, Z, kern, 0.05)
    assert np.isclose(mf.titsias_bound(X, y, Z, _refusing_large_grams(kern), 0.05), dense, rtol=1e-9)


@pytest.mark.parametrize("n, m, seed", [(25, 25, 0), (50, 8, 1)])
def test_sparse_gp_predict(n, m, seed):
    X, y = _gp_data(n, seed)
    kern = lambda A, B: 1.5 * rbf_kernel(A, B, gamma=0.5)
    Xs = np.linspace(-4, 4, 17)[:, None]
    Z = X if m == n else np.linspace(-3, 3, m)[:, None]
    r = mf.sparse_gp_predict(X, y, Z, Xs, kern, 0.04)
    if m == n:                                  # exact GP; the dense Σ below is ill-conditioned at Z = X
        mean, var = gp_posterior(X, y, Xs, 0.2, kernel=kern)
        np.testing.assert_allclose(r.mean, mean, atol=1e-6)
        np.testing.assert_allclose(r.var, var, atol=1e-6)
        f_mean = kern(X, X) @ np.linalg.solve(kern(X, X) + 0.04 * np.eye(n), y)
        np.testing.assert_allclose(r.q_mean, f_mean, atol=1e-6)   # q*(u) = p(f(X) | y)
        return
    # dense formulas of the optimal q(u) and the predictive
    Kzz, Kzx, Ksz = kern(Z, Z), kern(Z, X), kern(Xs, Z)
    Sig = np.linalg.inv(Kzz + Kzx @ Kzx.T / 0.04)
    np.testing.assert_allclose(r.q_mean, Kzz @ Sig @ Kzx @ y / 0.04, atol=1e-5)
    np.testing.assert_allclose(r.q_cov, Kzz @ Sig @ Kzz, atol=1e-5)
    np.testing.assert_allclose(r.mean, Ksz @ Sig @ Kzx @ y / 0.04, atol=1e-5)
    var = np.diag(kern(Xs, Xs) - Ksz @ np.linalg.solve(Kzz, Ksz.T) + Ksz @ Sig @ Ksz.T)
    np.testing.assert_allclose(r.var, var, atol=1e-8)


def test_sparse_gp_repeated_inducing_inputs_and_bad_kernel():
    X, y = _gp_data(10, 0)
    kern = lambda A, B: rbf_kernel(A, B, gamma=0.5)
    # a repeated inducing input adds nothing (K_ZZ singular: the jitter path)
    one = mf.titsias_bound(X, y, np.zeros((1, 1)), kern, 0.1)
    assert np.isclose(mf.titsias_bound(X, y, np.zeros((3, 1)), kern, 0.1), one, atol=1e-4)
    with pytest.raises(ValueError, match="kernel\\(Z, Z\\)"):
        mf.titsias_bound(X, y, np.zeros((2, 1)), lambda A, B: -rbf_kernel(A, B, gamma=0.5), 0.1)


def test_vb_is_unchanged_by_a_shift_far_from_the_origin():
    """Centred sums: shifting the data and the prior mean by 1e8 changes no VB scale parameter."""
    rng = np.random.default_rng(4)
    x = rng.normal(0.0, 2.0, 12)
    a = mf.vb_normal_gamma(x, 0.5, 1.0, 2.0, 2.0, 20)
    b = mf.vb_normal_gamma(x + 1e8, 0.5 + 1e8, 1.0, 2.0, 2.0, 20)
    assert b.mean - 1e8 == pytest.approx(a.mean, abs=1e-7)
    np.testing.assert_allclose([b.precision, b.rate], [a.precision, a.rate], rtol=1e-7)
    X = rng.normal(size=(30, 2))
    resp = rng.dirichlet(np.ones(3), 30)
    pa, pb = mf.vb_m_step(X, resp), mf.vb_m_step(X + 1e8, resp)
    np.testing.assert_allclose(pb.W_inv, pa.W_inv, rtol=1e-6)
    np.testing.assert_allclose(pb.means - 1e8, pa.means, atol=1e-6)
