"""Hidden Markov models and linear-Gaussian state-space models (chapter 38).

Time series are arrays shaped ``(T, p)``. An HMM has ``K`` states, an initial distribution
``pi`` and a row-stochastic transition matrix ``Phi[i, j] = p(s_{t+1} = j | s_t = i)``;
``B[t, i] = p(x_t | s_t = i)`` holds the emission likelihoods. The linear-Gaussian model is
``z_1 ~ N(mu0, V0)``, ``z_t = A z_{t-1} + w_t`` with ``w_t ~ N(0, Q)`` and
``x_t = C z_t + v_t`` with ``v_t ~ N(0, R)``.
"""
from typing import NamedTuple

import numpy as np

from mlnotes import _validate as check
from mlnotes.clustering import gmm_m_step

__all__ = ["hmm_sample", "hmm_forward", "hmm_backward", "hmm_posteriors", "viterbi",
           "baum_welch", "kalman_filter", "rts_smoother", "lgssm_loglik", "lgssm_em",
           "extended_kalman_filter", "HMMForward", "HMMPosteriors", "ViterbiPath",
           "BaumWelchResult", "KalmanResult", "SmootherResult", "LGSSMParams"]


class HMMForward(NamedTuple):
    """Scaled forward pass: ``alpha[t] = p(s_t | x_{1:t})``, ``c[t] = p(x_t | x_{1:t-1})``."""
    alpha: np.ndarray
    c: np.ndarray
    loglik: float


class HMMPosteriors(NamedTuple):
    """``gamma[t, i] = p(s_t = i | x_{1:T})`` and ``xi[t, i, j] = p(s_t = i, s_{t+1} = j | x_{1:T})``."""
    gamma: np.ndarray
    xi: np.ndarray
    loglik: float


class ViterbiPath(NamedTuple):
    """Most probable state path and its log joint probability ``log p(s_{1:T}, x_{1:T})``."""
    path: np.ndarray
    log_prob: float


class BaumWelchResult(NamedTuple):
    """Fitted HMM; ``emission`` is ``E`` (categorical) or ``(means, covs)`` (Gaussian)."""
    pi: np.ndarray
    Phi: np.ndarray
    emission: object
    logliks: np.ndarray


class KalmanResult(NamedTuple):
    """Filtered and one-step predicted moments of the state, and ``log p(x_{1:T})``."""
    means: np.ndarray
    covs: np.ndarray
    pred_means: np.ndarray
    pred_covs: np.ndarray
    loglik: float


class SmootherResult(NamedTuple):
    """Smoothed moments; ``lag_covs[t] = Cov(z_{t+1}, z_t | x_{1:T})``."""
    means: np.ndarray
    covs: np.ndarray
    lag_covs: np.ndarray


class LGSSMParams(NamedTuple):
    """Parameters of a linear-Gaussian state-space model and the EM log-likelihood trace."""
    A: np.ndarray
    C: np.ndarray
    Q: np.ndarray
    R: np.ndarray
    mu0: np.ndarray
    V0: np.ndarray
    logliks: np.ndarray


# ----------------------------------------------------------------------------- HMM checks
def _hmm_params(pi, Phi, K=None):
    pi = check.probabilities(check.vector(pi, K, "pi"), "pi")
    Phi = check.probabilities(check.square(Phi, "Phi"), "Phi", axis=1)
    if Phi.shape[0] != pi.size:
        raise ValueError(f"Phi must have shape ({pi.size}, {pi.size}) to match pi, got {Phi.shape}")
    return pi, Phi


def _likelihoods(B, K, name="B", log=False):
    B = check.matrix(B, name)
    if B.shape[1] != K:
        raise ValueError(f"{name} must have {K} columns (one per state), got {B.shape[1]}")
    if not log and np.any(B < 0):
        raise ValueError(f"{name} must be non-negative (likelihoods)")
    return B


def hmm_sample(pi, Phi, emission_sampler, T, rng):
    """Simulate states and observations of a hidden Markov model.

    Parameters
    ----------
    pi : array_like, shape (K,)
        Initial distribution ``p(s_1 = i)``.
    Phi : array_like, shape (K, K)
        Row-stochastic transition matrix ``Phi[i, j] = p(s_{t+1} = j | s_t = i)``.
    emission_sampler : callable
        ``emission_sampler(states, rng)`` returns one observation per state (an array
        whose first axis has length ``T``).
    T : int
        Length of the sequence.
    rng : numpy.random.Generator

    Returns
    -------
    states : ndarray of int, shape (T,)
    X : ndarray, shape (T, ...)
    """
    pi, Phi = _hmm_params(pi, Phi)
    emission_sampler = check.function(emission_sampler, "emission_sampler")
    T = check.count(T, "T")
    rng = check.generator(rng)
    u = rng.random(T)
    cum = np.cumsum(Phi, axis=1)
    states = np.empty(T, dtype=int)
    states[0] = min(np.searchsorted(np.cumsum(pi), u[0], side="right"), pi.size - 1)
    for t in range(1, T):
        states[t] = min(np.searchsorted(cum[states[t - 1]], u[t], side="right"), pi.size - 1)
    X = np.asarray(emission_sampler(states, rng))
    if X.shape[:1] != (T,):
        raise ValueError(f"emission_sampler must return an array with first axis {T}, got {X.shape}")
    return states, X


def hmm_forward(pi, Phi, B):
    """Scaled forward recursion of a hidden Markov model.

    ``alpha[t] ∝ B[t] * (alpha[t-1] @ Phi)``, i.e.
    ``alpha_{t+1}(i) ∝ [Σ_j alpha_t(j) Phi[j, i]] B[t+1, i]``, normalised at each step by
    ``c[t] = p(x_t | x_{1:t-1})``.

    Parameters
    ----------
    pi : array_like, shape (K,)
    Phi : array_like, shape (K, K)
        Row-stochastic transitions.
    B : array_like, shape (T, K)
        Emission likelihoods ``B[t, i] = p(x_t | s_t = i)``.

    Returns
    -------
    HMMForward
        ``alpha`` (T, K) filtered probabilities, ``c`` (T,) scale factors and
        ``loglik = Σ_t log c[t] = log p(x_{1:T})``.
    """
    pi, Phi = _hmm_params(pi, Phi)
    B = _likelihoods(B, pi.size)
    alpha = np.empty_like(B)
    c = np.empty(B.shape[0])
    a = pi * B[0]
    for t in range(B.shape[0]):
        if t > 0:
            a = (alpha[t - 1] @ Phi) * B[t]
        c[t] = a.sum()
        if not c[t] > 0:
            raise ValueError(f"B gives the observation at t={t} probability zero under the model")
        alpha[t] = a / c[t]
    return HMMForward(alpha, c, float(np.log(c).sum()))


def hmm_backward(Phi, B, c):
    """Scaled backward recursion ``beta_t = Phi @ (B[t+1] * beta_{t+1}) / c[t+1]``, ``beta_T = 1``.

    With the scale factors ``c`` of :func:`hmm_forward`, ``beta[t, i] =
    p(x_{t+1:T} | s_t = i) / p(x_{t+1:T} | x_{1:t})``.

    Parameters
    ----------
    Phi : array_like, shape (K, K)
    B : array_like, shape (T, K)
    c : array_like, shape (T,)
        Positive scale factors from :func:`hmm_forward`.

    Returns
    -------
    beta : ndarray, shape (T, K)
    """
    Phi = check.probabilities(check.square(Phi, "Phi"), "Phi", axis=1)
    B = _likelihoods(B, Phi.shape[0])
    c = check.vector(c, B.shape[0], "c")
    if np.any(c <= 0):
        raise ValueError("c must be positive (scale factors from hmm_forward)")
    beta = np.ones_like(B)
    for t in range(B.shape[0] - 2, -1, -1):
        beta[t] = Phi @ (B[t + 1] * beta[t + 1]) / c[t + 1]
    return beta


def hmm_posteriors(pi, Phi, B):
    """Smoothed state and pair posteriors by the forward-backward algorithm.

    Parameters
    ----------
    pi, Phi, B : as in :func:`hmm_forward`

    Returns
    -------
    HMMPosteriors
        ``gamma`` (T, K), ``xi`` (T-1, K, K) with
        ``xi[t, i, j] = alpha[t, i] Phi[i, j] B[t+1, j] beta[t+1, j] / c[t+1]``, and ``loglik``.
    """
    fw = hmm_forward(pi, Phi, B)
    Phi, B = np.asarray(Phi, float), np.asarray(B, float)
    beta = hmm_backward(Phi, B, fw.c)
    gamma = fw.alpha * beta
    xi = (fw.alpha[:-1, :, None] * Phi[None] * (B[1:] * beta[1:])[:, None, :]
          / fw.c[1:, None, None])
    return HMMPosteriors(gamma, xi, fw.loglik)


def viterbi(pi, Phi, log_B):
    """Most probable state path ``argmax_s p(s_{1:T} | x_{1:T})`` by dynamic programming in logs.

    ``delta_1 = log pi + log_B[0]``; ``delta_t(j) = max_i [delta_{t-1}(i) + log Phi[i, j]] +
    log_B[t, j]``; back-pointers ``psi_t(j)`` recover the path.

    Parameters
    ----------
    pi : array_like, shape (K,)
    Phi : array_like, shape (K, K)
    log_B : array_like, shape (T, K)
        Log emission likelihoods (``-inf`` allowed).

    Returns
    -------
    ViterbiPath
    """
    pi, Phi = _hmm_params(pi, Phi)
    log_B = check.as_float(log_B, "log_B")
    if log_B.ndim != 2 or log_B.shape[0] == 0 or log_B.shape[1] != pi.size:
        raise ValueError(f"log_B must have shape (T, {pi.size}), got {log_B.shape}")
    if np.any(np.isnan(log_B)) or np.any(log_B == np.inf):
        raise ValueError("log_B must not contain NaN or +inf")
    with np.errstate(divide="ignore"):
        lpi, lPhi = np.log(pi), np.log(Phi)
    T = log_B.shape[0]
    delta = lpi + log_B[0]
    psi = np.zeros((T, pi.size), dtype=int)
    for t in range(1, T):
        scores = delta[:, None] + lPhi
        psi[t] = np.argmax(scores, axis=0)
        delta = scores[psi[t], np.arange(pi.size)] + log_B[t]
    path = np.empty(T, dtype=int)
    path[-1] = int(np.argmax(delta))
    for t in range(T - 1, 0, -1):
        path[t - 1] = psi[t, path[t]]
    return ViterbiPath(path, float(delta[path[-1]]))


# ----------------------------------------------------------------------------- Baum-Welch
def _gauss_logpdf(X, means, covs):
    """``log N(X[t] | means[i], covs[i])`` for every t and state i, shape (T, K)."""
    L = np.linalg.cholesky(covs)                                    # (K, p, p)
    diff = X[None, :, :] - means[:, None, :]                        # (K, T, p)
    sol = np.linalg.solve(L, np.swapaxes(diff, 1, 2))               # (K, p, T)
    logdet = 2 * np.log(np.diagonal(L, axis1=1, axis2=2)).sum(axis=1)
    p = X.shape[1]
    return (-0.5 * (sol ** 2).sum(axis=1) - 0.5 * logdet[:, None] - 0.5 * p * np.log(2 * np.pi)).T


def _bw_sequences(sequences, emission, M):
    if not isinstance(sequences, (list, tuple)) or len(sequences) == 0:
        raise ValueError("sequences must be a non-empty list of arrays")
    out = []
    for x in sequences:
        if emission == "categorical":
            out.append(check.index_array(x, None, M, "sequences"))
        else:
            x = check.as_float(x, "sequences")
            out.append(check.matrix(x[:, None] if x.ndim == 1 else x, "sequences"))
    return out


def _bw_emission(init, K, emission):
    if emission == "categorical":
        E = check.probabilities(check.matrix(init["E"], "init"), "init", axis=1)
        if E.shape[0] != K:
            raise ValueError(f"init['E'] must have {K} rows, got {E.shape[0]}")
        return E
    means = check.matrix(init["means"], "init")
    covs = check.as_float(init["covs"], "init")
    if means.shape[0] != K or covs.shape != (K, means.shape[1], means.shape[1]):
        raise ValueError(f"init['means'] must be ({K}, p) and init['covs'] ({K}, p, p)")
    for S in covs:
        check.spd(S, means.shape[1], "init")
    return means, covs


def baum_welch(sequences, K, init, n_iter=50, emission="categorical"):
    """Fit an HMM to one or more sequences by EM (Baum-Welch).

    M-step: ``pi = mean_l gamma_1^(l)``; ``Phi[i, j] = Σ_l Σ_{t<T_l} xi_t(i, j) /
    Σ_l Σ_{t<T_l} gamma_t(i)`` (the denominator stops at ``T_l - 1``); categorical
    ``E[i, k] = Σ gamma_t(i) [x_t = k] / Σ gamma_t(i)`` or Gaussian weighted means and covariances.

    Parameters
    ----------
    sequences : list of array_like
        Integer sequences in ``0..M-1`` (categorical) or arrays (T, p) or (T,) (Gaussian).
    K : int
        Number of hidden states.
    init : dict
        ``pi``, ``Phi`` and either ``E`` (K, M) or ``means`` (K, p) and ``covs`` (K, p, p).
    n_iter : int
    emission : {"categorical", "gaussian"}

    Returns
    -------
    BaumWelchResult
        ``logliks[m]`` is the log-likelihood of the parameters before update ``m``
        (length ``n_iter + 1``; the last entry belongs to the returned parameters).
    """
    K = check.count(K, "K")
    emission = check.choice(emission, ("categorical", "gaussian"), "emission")
    n_iter = check.count(n_iter, "n_iter", low=0)
    if not isinstance(init, dict) or not {"pi", "Phi"} <= set(init):
        raise ValueError("init must be a dict with keys 'pi', 'Phi' and the emission parameters")
    pi, Phi = _hmm_params(init["pi"], init["Phi"], K)
    em = _bw_emission(init, K, emission)
    seqs = _bw_sequences(sequences, emission, em.shape[1] if emission == "categorical" else 0)
    X = np.concatenate(seqs)
    logliks = []
    for it in range(n_iter + 1):
        logB = np.log(em.T[X]) if emission == "categorical" else _gauss_logpdf(X, *em)
        Ball = np.exp(logB)
        starts = np.cumsum([0] + [len(s) for s in seqs])
        posts = [hmm_posteriors(pi, Phi, Ball[a:b]) for a, b in zip(starts[:-1], starts[1:])]
        logliks.append(sum(p.loglik for p in posts))
        if it == n_iter:
            break
        gamma = np.concatenate([p.gamma for p in posts])
        pi = np.mean([p.gamma[0] for p in posts], axis=0)
        trans = sum(p.xi.sum(axis=0) for p in posts)
        Phi = trans / sum(p.gamma[:-1].sum(axis=0) for p in posts)[:, None]
        if emission == "categorical":
            em = np.stack([gamma[X == k].sum(axis=0) for k in range(em.shape[1])], axis=1)
            em = em / gamma.sum(axis=0)[:, None]
        else:
            em = gmm_m_step(X, gamma)[:2]
    return BaumWelchResult(pi, Phi, em, np.array(logliks))


# ----------------------------------------------------------------------------- Kalman
def _lgssm(X, A, C, Q, R, mu0, V0):
    X = check.matrix(X)
    A = check.square(A, "A")
    k = A.shape[0]
    C = check.matrix_with_columns(check.matrix(C, "C"), k, "C")
    if C.shape[0] != X.shape[1]:
        raise ValueError(f"C must have {X.shape[1]} rows (one per observed coordinate), got {C.shape[0]}")
    Q = check.spd(Q, k, "Q")[0]
    R = check.spd(R, X.shape[1], "R")[0]
    mu0 = check.vector(mu0, k, "mu0")
    V0 = check.spd(V0, k, "V0")[0]
    return X, A, C, Q, R, mu0, V0


def _update(x, m, P, Cm, Cz, R):
    """Measurement update of N(m, P) by x ~ N(Cm + Cz (z - m), R); returns mean, cov, log p(x)."""
    S = Cz @ P @ Cz.T + R
    K = np.linalg.solve(S, Cz @ P).T                                # gain P Cᵀ S⁻¹
    e = x - Cm
    L = np.linalg.cholesky(S)
    u = np.linalg.solve(L, e)
    ll = -0.5 * u @ u - np.log(np.diag(L)).sum() - 0.5 * x.size * np.log(2 * np.pi)
    V = P - K @ Cz @ P
    return m + K @ e, 0.5 * (V + V.T), ll


def kalman_filter(X, A, C, Q, R, mu0, V0):
    """Kalman filter of a linear-Gaussian state-space model.

    Predict ``z^{t-1}_t = A z^{t-1}_{t-1}``, ``P_t = A V^{t-1}_{t-1} Aᵀ + Q`` (``mu0, V0`` at
    t = 1); update with the gain ``K_t = P_t Cᵀ (C P_t Cᵀ + R)⁻¹``.

    Parameters
    ----------
    X : array_like, shape (T, p)
    A : array_like, shape (k, k)
    C : array_like, shape (p, k)
    Q : array_like, shape (k, k)
    R : array_like, shape (p, p)
    mu0 : array_like, shape (k,)
    V0 : array_like, shape (k, k)
        Prior mean and covariance of ``z_1``.

    Returns
    -------
    KalmanResult
    """
    X, A, C, Q, R, mu0, V0 = _lgssm(X, A, C, Q, R, mu0, V0)
    return _filter(X, lambda z: A @ z, lambda z: A, lambda z: C @ z, lambda z: C, Q, R, mu0, V0)


def _filter(X, f, F, g, G, Q, R, mu0, V0):
    T, k = X.shape[0], mu0.size
    means, covs = np.empty((T, k)), np.empty((T, k, k))
    pm, pc = np.empty((T, k)), np.empty((T, k, k))
    m, P, ll = mu0, V0, 0.0
    for t in range(T):
        if t > 0:
            Ft = F(means[t - 1])
            m, P = f(means[t - 1]), Ft @ covs[t - 1] @ Ft.T + Q
        pm[t], pc[t] = m, P
        means[t], covs[t], llt = _update(X[t], m, P, g(m), G(m), R)
        ll += llt
    return KalmanResult(means, covs, pm, pc, float(ll))


def rts_smoother(filter_result, A, Q):
    """Rauch-Tung-Striebel smoother from a Kalman filter pass.

    ``J_t = V^t_t Aᵀ (P_{t+1})⁻¹``, ``z^T_t = z^t_t + J_t (z^T_{t+1} - A z^t_t)``,
    ``V^T_t = V^t_t + J_t (V^T_{t+1} - P_{t+1}) J_tᵀ`` and the lag-one covariance
    ``Cov(z_{t+1}, z_t | x_{1:T}) = V^T_{t+1} J_tᵀ``.

    Parameters
    ----------
    filter_result : KalmanResult
        Output of :func:`kalman_filter`.
    A : array_like, shape (k, k)
    Q : array_like, shape (k, k)

    Returns
    -------
    SmootherResult
    """
    check.instance_of(filter_result, KalmanResult, "filter_result", "kalman_filter")
    m, V = filter_result.means, filter_result.covs
    A = check.square(A, "A")
    if A.shape[0] != m.shape[1]:
        raise ValueError(f"A must have shape ({m.shape[1]}, {m.shape[1]}), got {A.shape}")
    Q = check.spd(Q, A.shape[0], "Q")[0]
    T = m.shape[0]
    ms, Vs, lag = m.copy(), V.copy(), np.empty((max(T - 1, 0),) + V.shape[1:])
    for t in range(T - 2, -1, -1):
        P = A @ V[t] @ A.T + Q
        J = np.linalg.solve(P, A @ V[t]).T                          # V Aᵀ P⁻¹
        ms[t] = m[t] + J @ (ms[t + 1] - A @ m[t])
        Vt = V[t] + J @ (Vs[t + 1] - P) @ J.T
        Vs[t] = 0.5 * (Vt + Vt.T)
        lag[t] = Vs[t + 1] @ J.T
    return SmootherResult(ms, Vs, lag)


def lgssm_loglik(X, A, C, Q, R, mu0, V0):
    """Log-likelihood ``log p(x_{1:T}) = Σ_t log N(x_t | C z^{t-1}_t, C P_t Cᵀ + R)``.

    Parameters
    ----------
    X, A, C, Q, R, mu0, V0 : as in :func:`kalman_filter`

    Returns
    -------
    float
    """
    return kalman_filter(X, A, C, Q, R, mu0, V0).loglik


def _lgssm_m_step(X, sm):
    """Closed-form M-step from smoothed moments (all six parameters)."""
    m, V, lag = sm.means, sm.covs, sm.lag_covs
    T = X.shape[0]
    P = V + m[:, :, None] * m[:, None, :]                           # E[z_t z_tᵀ]
    P10 = lag + m[1:, :, None] * m[:-1, None, :]                    # E[z_{t+1} z_tᵀ]
    C = np.linalg.solve(P.sum(0), (X.T @ m).T).T
    R = (X.T @ X - C @ (m.T @ X)) / T
    S00, S10 = P[:-1].sum(0), P10.sum(0)
    A = np.linalg.solve(S00, S10.T).T
    Q = (P[1:].sum(0) - A @ S10.T) / (T - 1)
    sym = lambda M: 0.5 * (M + M.T)  # noqa: E731
    return A, C, sym(Q), sym(R), m[0].copy(), sym(V[0])


def lgssm_em(X, k, init, n_iter=50):
    """Maximum-likelihood fit of a linear-Gaussian state-space model by EM.

    E-step: Kalman filter and RTS smoother. M-step: ``C = (Σ x_t <z_t>ᵀ)(Σ <z_t z_tᵀ>)⁻¹``,
    ``R = (1/T) Σ (x_t x_tᵀ - C <z_t> x_tᵀ)``, ``A = (Σ_{t<T} <z_{t+1} z_tᵀ>)(Σ_{t<T} <z_t z_tᵀ>)⁻¹``,
    ``Q = (1/(T-1)) Σ_{t>1} (<z_t z_tᵀ> - A <z_{t-1} z_tᵀ>)``, ``mu0 = <z_1>``, ``V0 = Cov(z_1 | x)``.

    Parameters
    ----------
    X : array_like, shape (T, p)
    k : int
        State dimension.
    init : dict
        Starting values with keys ``A, C, Q, R, mu0, V0``.
    n_iter : int

    Returns
    -------
    LGSSMParams
        ``logliks`` has length ``n_iter + 1``; entry m belongs to the parameters after m updates.
    """
    X = check.matrix(X)
    k = check.count(k, "k")
    n_iter = check.count(n_iter, "n_iter", low=0)
    keys = ("A", "C", "Q", "R", "mu0", "V0")
    if not isinstance(init, dict) or set(keys) - set(init):
        raise ValueError(f"init must be a dict with keys {', '.join(keys)}")
    if X.shape[0] < 2:
        raise ValueError("X must have at least 2 rows (time points)")
    theta = _lgssm(X, *(init[key] for key in keys))[1:]
    if theta[0].shape[0] != k:
        raise ValueError(f"init['A'] must have shape ({k}, {k}) for k={k}")
    logliks = []
    for it in range(n_iter + 1):
        kf = _filter(X, lambda z, A=theta[0]: A @ z, lambda z, A=theta[0]: A,
                     lambda z, C=theta[1]: C @ z, lambda z, C=theta[1]: C, theta[2], theta[3], theta[4], theta[5])
        logliks.append(kf.loglik)
        if it == n_iter:
            break
        theta = _lgssm_m_step(X, rts_smoother(kf, theta[0], theta[2]))
    return LGSSMParams(*theta, np.array(logliks))


def extended_kalman_filter(X, f, F, g, G, Q, R, mu0, V0):
    """Extended Kalman filter for ``z_{t+1} = f(z_t) + w_t``, ``x_t = g(z_t) + v_t``.

    Each step linearises ``f`` at the filtered mean (Jacobian ``F``) and ``g`` at the
    predicted mean (Jacobian ``G``) and runs the Kalman predict/update on that linear model;
    on a linear model it is the Kalman filter.

    Parameters
    ----------
    X : array_like, shape (T, p)
    f, g : callable
        Transition ``f(z) -> (k,)`` and emission ``g(z) -> (p,)`` mean functions.
    F, G : callable
        Their Jacobians, ``F(z) -> (k, k)`` and ``G(z) -> (p, k)``.
    Q, R, mu0, V0 : as in :func:`kalman_filter`

    Returns
    -------
    KalmanResult
        With ``loglik`` the log-likelihood of the linearised model.
    """
    X = check.matrix(X)
    for fun, name in ((f, "f"), (F, "F"), (g, "g"), (G, "G")):
        check.function(fun, name)
    mu0 = check.vector(mu0, None, "mu0")
    k, p = mu0.size, X.shape[1]
    V0 = check.spd(V0, k, "V0")[0]
    Q = check.spd(Q, k, "Q")[0]
    R = check.spd(R, p, "R")[0]
    shapes = {"f": (k,), "F": (k, k), "g": (p,), "G": (p, k)}
    wrap = {n: (lambda z, h=h, n=n: check.returned(h(z), n, shapes[n]))
            for h, n in ((f, "f"), (F, "F"), (g, "g"), (G, "G"))}
    return _filter(X, wrap["f"], wrap["F"], wrap["g"], wrap["G"], Q, R, mu0, V0)
