"""Tests of mlnotes.statespace against brute-force enumeration, joint-Gaussian conditioning and
statsmodels (MarkovRegression for the HMM forward-backward, MLEModel for the Kalman filter
and RTS smoother)."""
import itertools

import numpy as np
import pytest
import scipy.special
import scipy.stats
import statsmodels.api as sm

from mlnotes import statespace as ss


def _random_hmm(K, M, rng):
    pi = rng.dirichlet(np.ones(K))
    Phi = rng.dirichlet(np.ones(K), size=K)
    E = rng.dirichlet(np.ones(M), size=K)
    return pi, Phi, E


def _sample_cat(E):
    return lambda st, r: (r.random(st.size)[:, None] > np.cumsum(E[st], axis=1)).sum(axis=1)


def _brute(pi, Phi, B):
    T, K = B.shape
    paths = np.array(list(itertools.product(range(K), repeat=T)))
    lj = (np.log(pi[paths[:, 0]]) + np.log(Phi[paths[:, :-1], paths[:, 1:]]).sum(1)
          + np.log(B[np.arange(T), paths]).sum(1))
    return paths, lj


@pytest.mark.parametrize("K, T, seed", [(2, 1, 0), (2, 6, 1), (3, 5, 2), (4, 4, 3)])
def test_hmm_against_enumeration(K, T, seed):
    rng = np.random.default_rng(seed)
    pi, Phi, E = _random_hmm(K, 3, rng)
    _, x = ss.hmm_sample(pi, Phi, _sample_cat(E), T, rng)
    B = E[:, x].T
    paths, lj = _brute(pi, Phi, B)
    post = ss.hmm_posteriors(pi, Phi, B)
    # tolerance: sums of at most K^T positive terms in double precision
    assert post.loglik == pytest.approx(scipy.special.logsumexp(lj), abs=1e-12)
    w = np.exp(lj - scipy.special.logsumexp(lj))
    gamma = np.stack([(w[:, None] * (paths == i)).sum(0) for i in range(K)], axis=1)
    np.testing.assert_allclose(post.gamma, gamma, atol=1e-12)
    for t in range(T - 1):
        xi = np.array([[w[(paths[:, t] == i) & (paths[:, t + 1] == j)].sum() for j in range(K)]
                       for i in range(K)])
        np.testing.assert_allclose(post.xi[t], xi, atol=1e-12)
    np.testing.assert_allclose(post.xi.sum(axis=2), post.gamma[:-1], atol=1e-12)
    vit = ss.viterbi(pi, Phi, np.log(B))
    np.testing.assert_array_equal(vit.path, paths[np.argmax(lj)])
    assert vit.log_prob == pytest.approx(lj.max(), abs=1e-12)


def test_backward_unscaled_identity():
    rng = np.random.default_rng(5)
    pi, Phi, E = _random_hmm(3, 4, rng)
    _, x = ss.hmm_sample(pi, Phi, _sample_cat(E), 7, rng)
    B = E[:, x].T
    fw = ss.hmm_forward(pi, Phi, B)
    beta = ss.hmm_backward(Phi, B, fw.c)
    alpha_u = fw.alpha * np.cumprod(fw.c)[:, None]
    beta_u = beta * np.r_[np.cumprod(fw.c[::-1])[::-1][1:], 1.0][:, None]
    np.testing.assert_allclose((alpha_u * beta_u).sum(1), np.exp(fw.loglik), rtol=1e-12)


def test_markov_regression_statsmodels():
    """statsmodels' MarkovRegression with its default (stationary) initialisation equals our
    forward-backward with pi = the stationary distribution of Phi (tolerance 1e-8)."""
    rng = np.random.default_rng(0)
    p00, p10, mu, s2 = 0.9, 0.2, np.array([-1.0, 1.5]), 0.8
    Phi = np.array([[p00, 1 - p00], [p10, 1 - p10]])
    w, v = np.linalg.eig(Phi.T)
    pi = np.real(v[:, np.argmin(np.abs(w - 1))])
    pi /= pi.sum()
    s, y = ss.hmm_sample(pi, Phi, lambda st, r: mu[st] + np.sqrt(s2) * r.standard_normal(st.size), 200, rng)
    mod = sm.tsa.MarkovRegression(y, k_regimes=2)
    res = mod.smooth(np.array([p00, p10, mu[0], mu[1], s2]))
    B = scipy.stats.norm.pdf(y[:, None], mu[None], np.sqrt(s2))
    post = ss.hmm_posteriors(pi, Phi, B)
    fw = ss.hmm_forward(pi, Phi, B)
    np.testing.assert_allclose(np.asarray(res.filtered_marginal_probabilities), fw.alpha, atol=1e-8)
    np.testing.assert_allclose(np.asarray(res.smoothed_marginal_probabilities), post.gamma, atol=1e-8)
    assert res.llf == pytest.approx(post.loglik, abs=1e-8)


def _simulate(A, C, Q, R, mu0, V0, T, rng):
    z = np.empty((T, A.shape[0]))
    z[0] = rng.multivariate_normal(mu0, V0)
    for t in range(1, T):
        z[t] = A @ z[t - 1] + rng.multivariate_normal(np.zeros(A.shape[0]), Q)
    return z @ C.T + rng.multivariate_normal(np.zeros(C.shape[0]), R, size=T)


def _random_lgssm(k, p, rng):
    A = 0.9 * np.linalg.qr(rng.standard_normal((k, k)))[0]
    C = rng.standard_normal((p, k))
    L = rng.standard_normal((k, k))
    Q = 0.3 * L @ L.T + 0.1 * np.eye(k)
    R = np.diag(rng.uniform(0.2, 1.0, p))
    return A, C, Q, R, rng.standard_normal(k), np.eye(k)


@pytest.mark.parametrize("k, p, T, seed", [(1, 1, 30, 0), (2, 3, 50, 1), (3, 2, 80, 2)])
def test_kalman_rts_statsmodels(k, p, T, seed):
    """Filtered/smoothed means, smoothed covariances and llf equal statsmodels' MLEModel
    (tolerance 1e-7: both are exact recursions; differences are rounding)."""
    rng = np.random.default_rng(seed)
    A, C, Q, R, mu0, V0 = _random_lgssm(k, p, rng)
    X = _simulate(A, C, Q, R, mu0, V0, T, rng)
    kf = ss.kalman_filter(X, A, C, Q, R, mu0, V0)
    smo = ss.rts_smoother(kf, A, Q)
    mod = sm.tsa.statespace.MLEModel(X, k_states=k)
    mod["design"], mod["transition"], mod["selection"] = C, A, np.eye(k)
    mod["state_cov"], mod["obs_cov"] = Q, R
    mod.initialize_known(mu0, V0)
    res = mod.smooth([])
    np.testing.assert_allclose(kf.means, res.filtered_state.T, atol=1e-7)
    np.testing.assert_allclose(smo.means, res.smoothed_state.T, atol=1e-7)
    np.testing.assert_allclose(smo.covs, np.moveaxis(res.smoothed_state_cov, 2, 0), atol=1e-7)
    assert kf.loglik == pytest.approx(res.llf, abs=1e-7)
    assert ss.lgssm_loglik(X, A, C, Q, R, mu0, V0) == kf.loglik


def test_gain_identity():
    rng = np.random.default_rng(1)
    for k, p in [(5, 5), (2, 3), (4, 1)]:
        C, V, R = rng.standard_normal((p, k)), rng.standard_normal((k, k)), rng.standard_normal((p, p))
        K = V @ C.T @ np.linalg.inv(R + C @ V @ C.T)
        lhs = V @ C.T @ np.linalg.inv(R) - K @ C @ V @ C.T @ np.linalg.inv(R)
        np.testing.assert_allclose(lhs, K, atol=1e-10 * np.abs(K).max())


def test_lgssm_em_monotone_and_invariant():
    rng = np.random.default_rng(3)
    A, C, Q, R, mu0, V0 = _random_lgssm(2, 3, rng)
    X = _simulate(A, C, Q, R, mu0, V0, 100, rng)
    init = dict(A=0.8 * A, C=C + 0.3 * rng.standard_normal((3, 2)), Q=np.eye(2), R=np.eye(3),
                mu0=np.zeros(2), V0=np.eye(2))
    fit = ss.lgssm_em(X, 2, init, n_iter=60)
    assert np.all(np.diff(fit.logliks) > -1e-8)
    assert fit.logliks[-1] == pytest.approx(
        ss.lgssm_loglik(X, fit.A, fit.C, fit.Q, fit.R, fit.mu0, fit.V0), abs=1e-9)
    assert fit.logliks[-1] > ss.lgssm_loglik(X, A, C, Q, R, mu0, V0)


def test_baum_welch_monotone_rows_and_gaussian():
    rng = np.random.default_rng(4)
    pi, Phi, E = _random_hmm(3, 4, rng)
    seqs = [ss.hmm_sample(pi, Phi, _sample_cat(E), T, rng)[1] for T in (30, 50, 40)]
    init = dict(pi=np.full(3, 1 / 3), Phi=rng.dirichlet(np.ones(3), 3), E=rng.dirichlet(np.ones(4), 3))
    fit = ss.baum_welch(seqs, 3, init, n_iter=30)
    assert np.all(np.diff(fit.logliks) > -1e-9)
    np.testing.assert_allclose(fit.Phi.sum(1), 1, atol=1e-12)
    np.testing.assert_allclose(fit.emission.sum(1), 1, atol=1e-12)
    mu = np.array([[-3.0, 0.0], [3.0, 1.0]])
    _, Xg = ss.hmm_sample([0.5, 0.5], [[0.9, 0.1], [0.2, 0.8]],
                          lambda st, r: mu[st] + r.standard_normal((st.size, 2)), 400, rng)
    g = ss.baum_welch([Xg], 2, dict(pi=[0.5, 0.5], Phi=[[0.5, 0.5], [0.5, 0.5]], means=[[-1, 0], [1, 0]],
                                    covs=[np.eye(2), np.eye(2)]), n_iter=30, emission="gaussian")
    assert np.all(np.diff(g.logliks) > -1e-9)
    # means recovered to within 4 standard errors (about 0.1 with ~200 points per state)
    np.testing.assert_allclose(g.emission[0], mu, atol=0.3)


def test_ekf_equals_kf_on_linear_model():
    rng = np.random.default_rng(6)
    A, C, Q, R, mu0, V0 = _random_lgssm(2, 2, rng)
    X = _simulate(A, C, Q, R, mu0, V0, 40, rng)
    kf = ss.kalman_filter(X, A, C, Q, R, mu0, V0)
    ek = ss.extended_kalman_filter(X, lambda z: A @ z, lambda z: A, lambda z: C @ z, lambda z: C, Q, R, mu0, V0)
    np.testing.assert_allclose(ek.means, kf.means, atol=1e-12)
    np.testing.assert_allclose(ek.covs, kf.covs, atol=1e-12)


def test_bad_inputs_messages():
    with pytest.raises(ValueError, match="Phi"):
        ss.hmm_forward([0.5, 0.5], [[0.5, 0.6], [0.5, 0.5]], np.ones((3, 2)))
    with pytest.raises(ValueError, match="B"):
        ss.hmm_forward([0.5, 0.5], [[0.5, 0.5], [0.5, 0.5]], np.ones((3, 3)))
    with pytest.raises(ValueError, match="C"):
        ss.kalman_filter(np.ones((5, 2)), np.eye(2), np.eye(3), np.eye(2), np.eye(2), np.zeros(2), np.eye(2))
    with pytest.raises(ValueError, match="sequences"):
        ss.baum_welch([np.array([0, 5])], 2, dict(pi=[0.5, 0.5], Phi=np.full((2, 2), 0.5), E=np.full((2, 2), 0.5)))
