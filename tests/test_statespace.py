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


def test_deterministic_state_accepts_zero_Q_and_V0():
    """Q = 0 and V0 = 0 (a known initial state evolving deterministically) are legitimate:
    the filtered and smoothed means are A^t mu0 with zero covariance, and the likelihood is
    that of independent N(C A^t mu0, R) observations (the old code required Q, V0 positive
    definite)."""
    rng = np.random.default_rng(8)
    th = 0.3
    A = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
    C, R, mu0 = np.array([[1.0, 0.5]]), np.array([[0.4]]), np.array([1.0, -2.0])
    T = 25
    z = np.stack([np.linalg.matrix_power(A, t) @ mu0 for t in range(T)])
    X = z @ C.T + np.sqrt(R[0, 0]) * rng.standard_normal((T, 1))
    kf = ss.kalman_filter(X, A, C, np.zeros((2, 2)), R, mu0, np.zeros((2, 2)))
    np.testing.assert_allclose(kf.means, z, atol=1e-12)
    np.testing.assert_allclose(kf.covs, 0.0, atol=1e-12)
    assert kf.loglik == pytest.approx(scipy.stats.norm.logpdf(X[:, 0], z @ C[0], np.sqrt(R[0, 0])).sum(), abs=1e-10)
    smo = ss.rts_smoother(kf, A, np.zeros((2, 2)))
    np.testing.assert_allclose(smo.means, z, atol=1e-12)
    np.testing.assert_allclose(smo.covs, 0.0, atol=1e-12)


def test_singular_Q_against_statsmodels():
    """A rank-one state noise (only the velocity is perturbed) against statsmodels' MLEModel."""
    rng = np.random.default_rng(9)
    A, C = np.array([[1.0, 1.0], [0.0, 0.95]]), np.array([[1.0, 0.0], [0.3, 1.0]])
    Q, R, mu0, V0 = np.diag([0.0, 0.2]), np.diag([0.5, 0.3]), np.array([0.0, 1.0]), np.diag([1.0, 0.0])
    X = _simulate(A, C, Q, R, mu0, V0, 40, rng)
    kf = ss.kalman_filter(X, A, C, Q, R, mu0, V0)
    smo = ss.rts_smoother(kf, A, Q)
    mod = sm.tsa.statespace.MLEModel(X, k_states=2)
    mod["design"], mod["transition"], mod["selection"] = C, A, np.eye(2)
    mod["state_cov"], mod["obs_cov"] = Q, R
    mod.initialize_known(mu0, V0)
    res = mod.smooth([])
    np.testing.assert_allclose(kf.means, res.filtered_state.T, atol=1e-8)
    np.testing.assert_allclose(smo.means, res.smoothed_state.T, atol=1e-8)
    np.testing.assert_allclose(smo.covs, np.moveaxis(res.smoothed_state_cov, 2, 0), atol=1e-8)
    assert kf.loglik == pytest.approx(res.llf, abs=1e-8)


def test_ekf_with_control_equals_statsmodels_kalman_with_intercepts():
    """On a linear model with inputs, z_{t+1} = A z_t + B u_t + w_t and x_t = C z_t + D u_t + v_t,
    the EKF with U equals statsmodels' Kalman filter with the time-varying intercepts
    c_t = B u_t (state) and d_t = D u_t (observation); the old EKF had no input at all."""
    rng = np.random.default_rng(10)
    A, C, Q, R, mu0, V0 = _random_lgssm(2, 2, rng)
    Bu, Du = rng.standard_normal((2, 1)), rng.standard_normal((2, 1))
    T = 50
    U = np.sin(np.arange(T) / 4.0)[:, None] * 3.0
    z = np.empty((T, 2))
    z[0] = rng.multivariate_normal(mu0, V0)
    for t in range(1, T):
        z[t] = A @ z[t - 1] + Bu @ U[t - 1] + rng.multivariate_normal(np.zeros(2), Q)
    X = z @ C.T + U @ Du.T + rng.multivariate_normal(np.zeros(2), R, size=T)
    ek = ss.extended_kalman_filter(X, lambda z, u: A @ z + Bu @ u, lambda z, u: A,
                                   lambda z, u: C @ z + Du @ u, lambda z, u: C, Q, R, mu0, V0, U=U)
    mod = sm.tsa.statespace.MLEModel(X, k_states=2)
    mod["design"], mod["transition"], mod["selection"] = C, A, np.eye(2)
    mod["state_cov"], mod["obs_cov"] = Q, R
    mod["state_intercept"] = (U @ Bu.T).T                           # c_t drives z_{t+1}
    mod["obs_intercept"] = (U @ Du.T).T
    mod.initialize_known(mu0, V0)
    res = mod.filter([])
    np.testing.assert_allclose(ek.means, res.filtered_state.T, atol=1e-8)
    np.testing.assert_allclose(ek.covs, np.moveaxis(res.filtered_state_cov, 2, 0), atol=1e-8)
    assert ek.loglik == pytest.approx(res.llf, abs=1e-8)
    with pytest.raises(ValueError, match="U must have 50 rows"):
        ss.extended_kalman_filter(X, lambda z, u: A @ z, lambda z, u: A, lambda z, u: C @ z,
                                  lambda z, u: C, Q, R, mu0, V0, U=U[:-1])


def _log_forward(pi, Phi, log_B):
    la = np.log(pi) + log_B[0]
    for t in range(1, log_B.shape[0]):
        la = scipy.special.logsumexp(la[:, None] + np.log(Phi), axis=0) + log_B[t]
    return scipy.special.logsumexp(la)


@pytest.mark.parametrize("power", [-1060, 1000])
def test_hmm_likelihoods_at_the_ends_of_the_float_range(power):
    """Emission likelihoods scaled by 2**-1060 (subnormal) or 2**1000: the log-likelihood
    equals a log-space forward pass (scipy logsumexp) on the same values, and the posteriors
    equal those of the same values scaled back by a power of two (exact)."""
    rng = np.random.default_rng(11)
    pi, Phi, E = _random_hmm(3, 4, rng)
    _, x = ss.hmm_sample(pi, Phi, _sample_cat(E), 30, rng)
    Bs = np.ldexp(E[:, x].T, power)
    ref = _log_forward(pi, Phi, np.log(Bs))
    assert ss.hmm_forward(pi, Phi, Bs).loglik == pytest.approx(ref, rel=1e-12)
    post = ss.hmm_posteriors(pi, Phi, Bs)
    assert post.loglik == pytest.approx(ref, rel=1e-12)
    np.testing.assert_allclose(post.gamma, ss.hmm_posteriors(pi, Phi, np.ldexp(Bs, -power)).gamma, atol=1e-12)


def test_baum_welch_gaussian_far_from_the_initial_means():
    """Observations some 40 standard deviations from every initial mean: exp(log-density)
    underflows to 0, yet the first log-likelihood equals a log-space forward pass (the old
    code reported the observations as impossible)."""
    rng = np.random.default_rng(12)
    x = 40.0 + rng.standard_normal(60)
    init = dict(pi=[0.5, 0.5], Phi=[[0.9, 0.1], [0.2, 0.8]], means=[[-1.0], [1.0]], covs=[np.eye(1), np.eye(1)])
    fit = ss.baum_welch([x], 2, init, n_iter=5, emission="gaussian")
    log_B = scipy.stats.norm.logpdf(x[:, None], np.array([-1.0, 1.0])[None], 1.0)
    assert fit.logliks[0] == pytest.approx(_log_forward(np.array([0.5, 0.5]), np.array(init["Phi"]), log_B), rel=1e-12)
    assert np.all(np.diff(fit.logliks) > -1e-9)


def test_baum_welch_state_never_visited_keeps_its_parameters():
    """pi = (1, 0) and Phi[0, 1] = 0: state 1 is never visited, its M-step is 0/0 and any row
    maximises; it keeps its row, and state 0's emissions are the symbol frequencies (the old
    code produced NaN and stopped with an error about Phi)."""
    x = np.array([0, 1, 1, 2, 0, 1, 1, 1])
    init = dict(pi=[1.0, 0.0], Phi=[[1.0, 0.0], [0.3, 0.7]], E=[[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]])
    fit = ss.baum_welch([x], 2, init, n_iter=3)
    np.testing.assert_allclose(fit.Phi, init["Phi"], atol=0)
    np.testing.assert_allclose(fit.emission[0], np.bincount(x, minlength=3) / x.size, atol=1e-12)
    np.testing.assert_allclose(fit.emission[1], init["E"][1], atol=0)


def test_lgssm_m_step_far_from_the_origin():
    """Data at an offset of 1e8: the M-step for C and R (a regression without intercept)
    equals exact rational arithmetic on the same smoothed moments; the old one-pass
    R = (Σ x xᵀ − C Σ<z> xᵀ)/T cancelled 16 digits and made R indefinite."""
    from fractions import Fraction
    rng = np.random.default_rng(13)
    A, C, Q, R, mu0, V0 = _random_lgssm(2, 2, rng)
    X = _simulate(A, C, Q, R, mu0, V0, 30, rng) + 1e8
    smo = ss.rts_smoother(ss.kalman_filter(X, A, C, Q, R, mu0, V0), A, Q)
    C_new, R_new = ss._lgssm_m_step(X, smo)[1], ss._lgssm_m_step(X, smo)[3]
    F = np.vectorize(Fraction)
    m, V, Xf = F(smo.means), F(smo.covs), F(X)
    T = X.shape[0]
    Szz = sum(V[t] + np.outer(m[t], m[t]) for t in range(T))
    Sxz = sum(np.outer(Xf[t], m[t]) for t in range(T))
    det = Szz[0, 0] * Szz[1, 1] - Szz[0, 1] * Szz[1, 0]
    inv = np.array([[Szz[1, 1], -Szz[0, 1]], [-Szz[1, 0], Szz[0, 0]]], dtype=object) / det
    Cx = Sxz.dot(inv)
    Rx = sum(np.outer(Xf[t] - Cx.dot(m[t]), Xf[t] - Cx.dot(m[t])) + Cx.dot(V[t]).dot(Cx.T) for t in range(T)) / T
    C_ex, R_ex = Cx.astype(float), Rx.astype(float)
    np.testing.assert_allclose(C_new, C_ex, rtol=1e-8)
    np.testing.assert_allclose(R_new, R_ex, rtol=1e-12)
    # R has eigenvalues of about 0.55 and 2e14: a float matrix of that scale fixes the small one
    # only to about 2e14 × 1e-16 × a few, hence the tolerance 0.1 (the old formula gave -1.08)
    ev_new, ev_ex = np.linalg.eigvalsh(R_new), np.linalg.eigvalsh(R_ex)
    assert ev_ex[0] > 0.5 and abs(ev_new[0] - ev_ex[0]) < 0.1


def test_more_bad_inputs_messages():
    A, C = np.eye(2), np.eye(2)
    with pytest.raises(ValueError, match="C must have shape \\(2, 3\\).*one column per state dimension"):
        ss.kalman_filter(np.ones((5, 2)), np.eye(3), np.ones((2, 2)), np.eye(3), np.eye(2), np.zeros(3), np.eye(3))
    with pytest.raises(ValueError, match="the filter overflowed at t=.*A"):
        ss.kalman_filter(np.ones((400, 1)), 1e3 * np.eye(2), np.array([[1.0, 0.0]]), np.eye(2), np.eye(1),
                         np.zeros(2), np.eye(2))
    with pytest.raises(ValueError, match="EM step 1 made R singular.*X"):
        ss.lgssm_em(np.zeros((8, 2)), 2, dict(A=A, C=C, Q=np.eye(2), R=np.eye(2), mu0=np.zeros(2), V0=np.eye(2)))
    with pytest.raises(ValueError, match="log_B"):
        ss.viterbi([0.5, 0.5], [[0.5, 0.5], [0.5, 0.5]], np.full((3, 2), -np.inf))
    with pytest.raises(ValueError, match="emission_sampler"):
        ss.hmm_sample([0.5, 0.5], [[0.5, 0.5], [0.5, 0.5]], lambda s, r: np.full(s.size, np.nan), 4,
                      np.random.default_rng(0))
    with pytest.raises(ValueError, match="B and c"):
        ss.hmm_backward([[0.5, 0.5], [0.5, 0.5]], np.zeros((3, 2)), np.ones(3))
    kf = ss.kalman_filter(np.ones((4, 2)), A, C, np.eye(2), np.eye(2), np.zeros(2), np.eye(2))
    with pytest.raises(ValueError, match="filter_result.covs"):
        ss.rts_smoother(kf._replace(covs=kf.covs[:, :1]), A, np.eye(2))
    with pytest.raises(ValueError, match="Q must be positive semi-definite"):
        ss.kalman_filter(np.ones((4, 2)), A, C, -np.eye(2), np.eye(2), np.zeros(2), np.eye(2))
