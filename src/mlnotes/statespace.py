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


def _row_scales(B, name="B"):
    """The largest entry of each row of ``B``; ``ValueError`` if a row is all zero."""
    scale = B.max(axis=1)
    if np.any(scale <= 0):
        t = int(np.flatnonzero(scale <= 0)[0])
        raise ValueError(f"{name} gives the observation at t={t} probability zero under every state")
    return scale


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
        What ``emission_sampler`` returned.

    Raises
    ------
    ValueError
        If ``pi`` or ``Phi`` is not a probability vector / row-stochastic matrix of matching
        size, ``T`` is not a positive integer, ``rng`` is not a Generator, or
        ``emission_sampler`` is not callable or returns anything but a finite numeric array
        with ``T`` rows.
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
    if X.shape[:1] != (T,) or X.dtype.kind not in "biuf" or not np.all(np.isfinite(X)):
        raise ValueError(f"emission_sampler must return a finite numeric array with first axis {T}, "
                         f"got shape {X.shape} and dtype {X.dtype}")
    return states, X


def hmm_forward(pi, Phi, B):
    """Scaled forward recursion of a hidden Markov model.

    ``alpha[t] ∝ B[t] * (alpha[t-1] @ Phi)``, i.e.
    ``alpha_{t+1}(i) ∝ [Σ_j alpha_t(j) Phi[j, i]] B[t+1, i]``, normalised at each step by
    ``c[t] = p(x_t | x_{1:t-1})``. Each row of ``B`` is divided by its largest entry before
    the recursion and the logarithms of those factors are added back to ``loglik``, so
    likelihoods far below (or above) the floating-point range still give an exact ``loglik``.

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
        ``loglik = Σ_t log c[t] = log p(x_{1:T})`` (``c`` itself underflows when the rows of
        ``B`` are below about 1e-308; :func:`hmm_posteriors` rescales them first).

    Raises
    ------
    ValueError
        If ``pi``, ``Phi`` or ``B`` has the wrong shape or invalid values (negative, NaN,
        inf), or if the observations have probability zero under the model.
    """
    pi, Phi = _hmm_params(pi, Phi)
    B = _likelihoods(B, pi.size)
    scale = _row_scales(B)
    Bs = B / scale[:, None]
    alpha = np.empty_like(B)
    c = np.empty(B.shape[0])
    a = pi * Bs[0]
    for t in range(B.shape[0]):
        if t > 0:
            a = (alpha[t - 1] @ Phi) * Bs[t]
        c[t] = a.sum()
        if not c[t] > 0:
            raise ValueError(f"B gives the observation at t={t} probability zero under the model")
        alpha[t] = a / c[t]
    return HMMForward(alpha, c * scale, float(np.log(c).sum() + np.log(scale).sum()))


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

    Raises
    ------
    ValueError
        If ``Phi`` is not row-stochastic, ``B`` has the wrong number of columns or invalid
        values, ``c`` does not have one positive finite entry per row of ``B``, or the future
        observations have probability zero from every state.
    """
    Phi = check.probabilities(check.square(Phi, "Phi"), "Phi", axis=1)
    B = _likelihoods(B, Phi.shape[0])
    c = check.vector(c, B.shape[0], "c")
    if np.any(c <= 0):
        raise ValueError("c must be positive (scale factors from hmm_forward)")
    beta = np.ones_like(B)
    for t in range(B.shape[0] - 2, -1, -1):
        beta[t] = Phi @ (B[t + 1] * beta[t + 1]) / c[t + 1]
    if not (np.all(np.isfinite(beta)) and np.all(beta.sum(axis=1) > 0)):
        raise ValueError("B and c give the future observations probability zero (or an overflow) "
                         "from every state: c must be the scale factors of hmm_forward for this B")
    return beta


def hmm_posteriors(pi, Phi, B):
    """Smoothed state and pair posteriors by the forward-backward algorithm.

    The rows of ``B`` are rescaled to a largest entry of 1 first (``gamma`` and ``xi`` do
    not change; the scale is added back to ``loglik``).

    Parameters
    ----------
    pi, Phi, B : as in :func:`hmm_forward`

    Returns
    -------
    HMMPosteriors
        ``gamma`` (T, K), ``xi`` (T-1, K, K) with
        ``xi[t, i, j] = alpha[t, i] Phi[i, j] B[t+1, j] beta[t+1, j] / c[t+1]``, and ``loglik``.

    Raises
    ------
    ValueError
        As :func:`hmm_forward`.
    """
    pi, Phi = _hmm_params(pi, Phi)
    B = _likelihoods(B, pi.size)
    scale = _row_scales(B)
    Bs = B / scale[:, None]
    fw = hmm_forward(pi, Phi, Bs)
    beta = hmm_backward(Phi, Bs, fw.c)
    gamma = fw.alpha * beta
    xi = (fw.alpha[:-1, :, None] * Phi[None] * (Bs[1:] * beta[1:])[:, None, :]
          / fw.c[1:, None, None])
    return HMMPosteriors(gamma, xi, fw.loglik + float(np.log(scale).sum()))


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

    Raises
    ------
    ValueError
        If ``pi`` or ``Phi`` is invalid, ``log_B`` has the wrong shape or holds NaN or
        ``+inf``, or every state path has probability zero.
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
    if delta[path[-1]] == -np.inf:
        raise ValueError("every state path has probability zero under pi, Phi and log_B")
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
            if out[-1].shape[1] != M:
                raise ValueError(f"sequences must all have {M} columns, the dimension of init['means'], "
                                 f"got one with shape {out[-1].shape}")
    return out


def _bw_emission(init, K, emission):
    keys = ("E",) if emission == "categorical" else ("means", "covs")
    if set(keys) - set(init):
        raise ValueError(f"init must hold {' and '.join(map(repr, keys))} for {emission} emissions")
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


def _bw_m_step(X, gamma, trans, den, Phi, em, emission, it):
    """Baum-Welch M-step; a state with no expected visits keeps its old parameters."""
    Phi = np.where(den[:, None] > 0, trans / np.where(den > 0, den, 1.0)[:, None], Phi)
    N = gamma.sum(axis=0)
    live, Nd = N > 0, np.where(N > 0, N, 1.0)
    if emission == "categorical":
        counts = np.stack([gamma[X == k].sum(axis=0) for k in range(em.shape[1])], axis=1)
        return Phi, np.where(live[:, None], counts / Nd[:, None], em)
    means = np.where(live[:, None], gamma.T @ X / Nd[:, None], em[0])
    diff = X[None, :, :] - means[:, None, :]                        # centred, two-pass
    covs = np.einsum("tk,kti,ktj->kij", gamma, diff, diff) / Nd[:, None, None]
    covs = np.where(live[:, None, None], covs, em[1])
    for i, S in enumerate(covs):
        try:
            np.linalg.cholesky(S)
        except np.linalg.LinAlgError:
            raise ValueError(f"the covariance of state {i} became singular in iteration {it + 1}: the state "
                             "collapsed onto too few points; use fewer states K or another init") from None
    return Phi, (means, covs)


def baum_welch(sequences, K, init, n_iter=50, emission="categorical"):
    """Fit an HMM to one or more sequences by EM (Baum-Welch).

    M-step: ``pi = mean_l gamma_1^(l)``; ``Phi[i, j] = Σ_l Σ_{t<T_l} xi_t(i, j) /
    Σ_l Σ_{t<T_l} gamma_t(i)`` (the denominator stops at ``T_l - 1``); categorical
    ``E[i, k] = Σ gamma_t(i) [x_t = k] / Σ gamma_t(i)`` or Gaussian weighted means and
    covariances. A state with no expected visits keeps its previous parameters (any value
    maximises the expected log-likelihood).

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

    Raises
    ------
    ValueError
        If an argument has the wrong type, shape or values; if ``init`` gives some
        observation probability zero; or if a Gaussian state's covariance becomes singular
        (the state has collapsed onto too few points).
    """
    K = check.count(K, "K")
    emission = check.choice(emission, ("categorical", "gaussian"), "emission")
    n_iter = check.count(n_iter, "n_iter", low=0)
    if not isinstance(init, dict) or not {"pi", "Phi"} <= set(init):
        raise ValueError("init must be a dict with keys 'pi', 'Phi' and the emission parameters")
    pi, Phi = _hmm_params(init["pi"], init["Phi"], K)
    em = _bw_emission(init, K, emission)
    seqs = _bw_sequences(sequences, emission, em.shape[1] if emission == "categorical" else em[0].shape[1])
    X = np.concatenate(seqs)
    starts = np.cumsum([0] + [len(s) for s in seqs])
    logliks = []
    for it in range(n_iter + 1):
        with np.errstate(divide="ignore"):
            logB = np.log(em.T[X]) if emission == "categorical" else _gauss_logpdf(X, *em)
        top = logB.max(axis=1)
        if np.any(top == -np.inf):
            raise ValueError("init gives an observation in sequences probability zero under every state")
        Ball = np.exp(logB - top[:, None])                          # rows rescaled to max 1
        try:
            posts = [hmm_posteriors(pi, Phi, Ball[a:b]) for a, b in zip(starts[:-1], starts[1:])]
        except ValueError as err:
            raise ValueError(f"init gives sequences probability zero ({err})") from None
        logliks.append(sum(p.loglik for p in posts) + top.sum())
        if it == n_iter:
            break
        gamma = np.concatenate([p.gamma for p in posts])
        pi = np.mean([p.gamma[0] for p in posts], axis=0)
        trans = sum(p.xi.sum(axis=0) for p in posts)
        Phi, em = _bw_m_step(X, gamma, trans, sum(p.gamma[:-1].sum(axis=0) for p in posts),
                             Phi, em, emission, it)
    return BaumWelchResult(pi, Phi, em, np.array(logliks))


# ----------------------------------------------------------------------------- Kalman
def _lgssm(X, A, C, Q, R, mu0, V0):
    X = check.matrix(X)
    A = check.square(A, "A")
    k, p = A.shape[0], X.shape[1]
    C = check.matrix(C, "C")
    if C.shape != (p, k):
        raise ValueError(f"C must have shape ({p}, {k}): one row per observed coordinate (column of X) "
                         f"and one column per state dimension (the size of A), got {C.shape}")
    Q = check.psd(Q, k, "Q")
    R = check.spd(R, p, "R")[0]
    mu0 = check.vector(mu0, k, "mu0")
    V0 = check.psd(V0, k, "V0")
    return X, A, C, Q, R, mu0, V0


def _sym(M):
    return 0.5 * (M + M.T)


def _update(x, m, P, Cm, Cz, R):
    """Measurement update of N(m, P) by x ~ N(Cm + Cz (z - m), R); returns mean, cov, log p(x).

    The covariance is updated in Joseph's form ``(I - K C) P (I - K C)ᵀ + K R Kᵀ``, a sum of
    two positive semi-definite terms, so rounding cannot make it indefinite."""
    S = _sym(Cz @ P @ Cz.T + R)
    L = np.linalg.cholesky(S)
    K = np.linalg.solve(S, Cz @ P).T                                # gain P Cᵀ S⁻¹
    e = x - Cm
    u = np.linalg.solve(L, e)
    ll = -0.5 * u @ u - np.log(np.diag(L)).sum() - 0.5 * x.size * np.log(2 * np.pi)
    I_KC = np.eye(m.size) - K @ Cz
    return m + K @ e, _sym(I_KC @ P @ I_KC.T + K @ R @ K.T), ll


def _filter(X, f, F, g, G, Q, R, mu0, V0):
    """Predict/update loop of the Kalman filter and the EKF: step t predicts with ``f(·, t-1)``
    and its Jacobian ``F(·, t-1)`` at the last filtered mean, then updates with ``g(·, t)``
    linearised by ``G(·, t)`` at the predicted mean."""
    T, k = X.shape[0], mu0.size
    means, covs = np.empty((T, k)), np.empty((T, k, k))
    pm, pc = np.empty((T, k)), np.empty((T, k, k))
    m, P, ll = mu0, V0, 0.0
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(T):
            if t > 0:
                Ft = F(means[t - 1], t - 1)
                m, P = f(means[t - 1], t - 1), _sym(Ft @ covs[t - 1] @ Ft.T + Q)
            pm[t], pc[t] = m, P
            try:
                if not (np.all(np.isfinite(P)) and np.all(np.isfinite(m))):
                    raise np.linalg.LinAlgError
                means[t], covs[t], llt = _update(X[t], m, P, g(m, t), G(m, t), R)
            except np.linalg.LinAlgError:
                raise ValueError(f"the filter overflowed at t={t}: the transition (A, or f and F in the "
                                 "EKF) is explosive over the length of X; rescale X or the model") from None
            ll += llt
    if not (np.all(np.isfinite(means)) and np.all(np.isfinite(covs)) and np.isfinite(ll)):
        raise ValueError("the filter overflowed: rescale X or the model (A, C, Q, R)")
    return KalmanResult(means, covs, pm, pc, float(ll))


def kalman_filter(X, A, C, Q, R, mu0, V0):
    """Kalman filter of a linear-Gaussian state-space model.

    Predict ``z^{t-1}_t = A z^{t-1}_{t-1}``, ``P_t = A V^{t-1}_{t-1} Aᵀ + Q`` (``mu0, V0`` at
    t = 1); update with the gain ``K_t = P_t Cᵀ (C P_t Cᵀ + R)⁻¹`` (covariance in Joseph's form).

    Parameters
    ----------
    X : array_like, shape (T, p)
    A : array_like, shape (k, k)
    C : array_like, shape (p, k)
    Q : array_like, shape (k, k)
        State noise covariance: positive *semi*-definite (a zero or singular ``Q`` is a state
        that evolves deterministically, or partly so).
    R : array_like, shape (p, p)
        Observation noise covariance, positive definite (so every ``C P_t Cᵀ + R`` is).
    mu0 : array_like, shape (k,)
    V0 : array_like, shape (k, k)
        Prior mean and covariance of ``z_1``; ``V0`` positive semi-definite (zero: a known
        initial state).

    Returns
    -------
    KalmanResult

    Raises
    ------
    ValueError
        If a shape does not match (``C`` must be ``(p, k)``: one row per column of ``X``, one
        column per state dimension), an entry is NaN or inf, ``Q`` or ``V0`` is not symmetric
        positive semi-definite, ``R`` is not positive definite, or the recursion overflows.
    """
    X, A, C, Q, R, mu0, V0 = _lgssm(X, A, C, Q, R, mu0, V0)
    return _filter(X, lambda z, t: A @ z, lambda z, t: A, lambda z, t: C @ z, lambda z, t: C,
                   Q, R, mu0, V0)


def _psd_solve(P, B):
    """``P⁻¹ B`` for a positive semi-definite ``P``: by Cholesky when ``P`` is positive definite,
    otherwise the minimum-norm least-squares solution ``P⁺ B``."""
    try:
        np.linalg.cholesky(P)
    except np.linalg.LinAlgError:
        return np.linalg.lstsq(P, B, rcond=None)[0]
    return np.linalg.solve(P, B)


def rts_smoother(filter_result, A, Q):
    """Rauch-Tung-Striebel smoother from a Kalman filter pass.

    ``J_t = V^t_t Aᵀ (P_{t+1})⁻¹``, ``z^T_t = z^t_t + J_t (z^T_{t+1} - A z^t_t)``,
    ``V^T_t = V^t_t + J_t (V^T_{t+1} - P_{t+1}) J_tᵀ`` and the lag-one covariance
    ``Cov(z_{t+1}, z_t | x_{1:T}) = V^T_{t+1} J_tᵀ``. When ``Q`` is singular, ``P_{t+1}`` may
    be too, and the pseudo-inverse takes the place of the inverse (Gaussian conditioning on
    a degenerate variable).

    Parameters
    ----------
    filter_result : KalmanResult
        Output of :func:`kalman_filter`.
    A : array_like, shape (k, k)
    Q : array_like, shape (k, k)
        Positive semi-definite, as in :func:`kalman_filter`.

    Returns
    -------
    SmootherResult

    Raises
    ------
    ValueError
        If ``filter_result`` is not a ``KalmanResult`` with finite means (T, k) and covariances
        (T, k, k), or ``A``, ``Q`` do not match it or are invalid.
    """
    check.instance_of(filter_result, KalmanResult, "filter_result", "kalman_filter")
    m = check.matrix(filter_result.means, "filter_result.means")
    T, k = m.shape
    V = check.finite(filter_result.covs, "filter_result.covs")
    if V.shape != (T, k, k):
        raise ValueError(f"filter_result.covs must have shape ({T}, {k}, {k}) to match its means, got {V.shape}")
    A = check.square(A, "A")
    if A.shape[0] != k:
        raise ValueError(f"A must have shape ({k}, {k}) to match filter_result, got {A.shape}")
    Q = check.psd(Q, k, "Q")
    ms, Vs, lag = m.copy(), V.copy(), np.empty((max(T - 1, 0), k, k))
    for t in range(T - 2, -1, -1):
        P = _sym(A @ V[t] @ A.T + Q)
        J = _psd_solve(P, A @ V[t]).T                               # V Aᵀ P⁻¹ (P⁺ if P is singular)
        ms[t] = m[t] + J @ (ms[t + 1] - A @ m[t])
        Vs[t] = _sym(V[t] + J @ (Vs[t + 1] - P) @ J.T)
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

    Raises
    ------
    ValueError
        As :func:`kalman_filter`.
    """
    return kalman_filter(X, A, C, Q, R, mu0, V0).loglik


def _regress(D, Y, S):
    """``W`` minimising ``Σ_t E||y_t - W d_t||²`` and the summed expected outer product of the
    residual, for rows with means ``D``, ``Y`` and summed joint covariance ``S`` of ``(d_t, y_t)``:
    least squares on ``[D Y]`` stacked on a square root of ``S`` (no normal equations)."""
    w, U = np.linalg.eigh(S)
    Z = np.vstack([np.hstack([D, Y]), (U * np.sqrt(np.clip(w, 0.0, None))).T])   # ZᵀZ = Σ E[(d,y)(d,y)ᵀ]
    k = D.shape[1]
    W = np.linalg.lstsq(Z[:, :k], Z[:, k:], rcond=None)[0].T
    res = Z[:, k:] - Z[:, :k] @ W.T
    return W, res.T @ res


def _lgssm_m_step(X, sm):
    """Closed-form M-step from smoothed moments (all six parameters).

    ``C = (Σ x_t<z_t>ᵀ)(Σ<z_tz_tᵀ>)⁻¹`` and ``A = (Σ<z_{t+1}z_tᵀ>)(Σ<z_tz_tᵀ>)⁻¹`` as least-squares
    problems; ``R`` and ``Q`` as the expected residual outer products, positive semi-definite
    by construction (no cancellation between ``Σ x_tx_tᵀ`` and ``C Σ<z_t>x_tᵀ``)."""
    m, V, lag = sm.means, sm.covs, sm.lag_covs
    T, k, p = X.shape[0], m.shape[1], X.shape[1]
    S_zx = np.zeros((k + p, k + p))
    S_zx[:k, :k] = V.sum(axis=0)                                    # x_t is observed
    C, R = _regress(m, X, S_zx)
    L = lag.sum(axis=0)                                             # Σ Cov(z_{t+1}, z_t)
    A, Q = _regress(m[:-1], m[1:], np.block([[V[:-1].sum(axis=0), L.T], [L, V[1:].sum(axis=0)]]))
    return A, C, _sym(Q) / (T - 1), _sym(R) / T, m[0].copy(), _sym(V[0])


def lgssm_em(X, k, init, n_iter=50):
    """Maximum-likelihood fit of a linear-Gaussian state-space model by EM.

    E-step: Kalman filter and RTS smoother. M-step: ``C = (Σ x_t <z_t>ᵀ)(Σ <z_t z_tᵀ>)⁻¹``,
    ``R = (1/T) Σ (x_t x_tᵀ - C <z_t> x_tᵀ)``, ``A = (Σ_{t<T} <z_{t+1} z_tᵀ>)(Σ_{t<T} <z_t z_tᵀ>)⁻¹``,
    ``Q = (1/(T-1)) Σ_{t>1} (<z_t z_tᵀ> - A <z_{t-1} z_tᵀ>)``, ``mu0 = <z_1>``, ``V0 = Cov(z_1 | x)``
    (computed as least-squares problems and expected residual outer products).

    Parameters
    ----------
    X : array_like, shape (T, p)
        At least two time points.
    k : int
        State dimension.
    init : dict
        Starting values with keys ``A, C, Q, R, mu0, V0`` (``Q`` and ``V0`` positive
        semi-definite, ``R`` positive definite, as in :func:`kalman_filter`).
    n_iter : int

    Returns
    -------
    LGSSMParams
        ``logliks`` has length ``n_iter + 1``; entry m belongs to the parameters after m updates.

    Raises
    ------
    ValueError
        If an argument is invalid (as in :func:`kalman_filter`), ``init['A']`` is not
        ``(k, k)``, or an M-step makes ``R`` singular (a coordinate of ``X`` fitted exactly,
        e.g. a constant column).
    """
    X = check.matrix(X)
    k = check.count(k, "k")
    n_iter = check.count(n_iter, "n_iter", low=0)
    keys = ("A", "C", "Q", "R", "mu0", "V0")
    if not isinstance(init, dict) or set(keys) - set(init):
        raise ValueError(f"init must be a dict with keys {', '.join(keys)}")
    if X.shape[0] < 2:
        raise ValueError("X must have at least 2 rows (time points)")
    if check.as_float(init["A"], "init").shape != (k, k):
        raise ValueError(f"init['A'] must have shape ({k}, {k}) for k={k}")
    theta = _lgssm(X, *(init[key] for key in keys))[1:]
    logliks = []
    for it in range(n_iter + 1):
        A, C, Q, R, mu0, V0 = theta
        kf = _filter(X, lambda z, t: A @ z, lambda z, t: A, lambda z, t: C @ z, lambda z, t: C, Q, R, mu0, V0)
        logliks.append(kf.loglik)
        if it == n_iter:
            break
        theta = _lgssm_m_step(X, rts_smoother(kf, A, Q))
        try:
            np.linalg.cholesky(theta[3])
        except np.linalg.LinAlgError:
            raise ValueError(f"EM step {it + 1} made R singular: a coordinate of X (or a combination) is "
                             "fitted exactly, e.g. a constant column; remove it from X") from None
    return LGSSMParams(*theta, np.array(logliks))


def extended_kalman_filter(X, f, F, g, G, Q, R, mu0, V0, U=None):
    """Extended Kalman filter for ``z_{t+1} = f(z_t, u_t) + w_t``, ``x_t = g(z_t, u_t) + v_t``.

    Each step linearises ``f`` at the filtered mean (Jacobian ``F``) and ``g`` at the
    predicted mean (Jacobian ``G``) and runs the Kalman predict/update on that linear model,
    whose offsets ``f(ẑ, u) - Fẑ`` and ``g(ẑ, u) - Gẑ`` carry the inputs; on a linear model it
    is the Kalman filter. Without inputs (``U=None``) the four maps take the state only.

    Parameters
    ----------
    X : array_like, shape (T, p)
    f, g : callable
        Transition ``f(z, u) -> (k,)`` and emission ``g(z, u) -> (p,)`` mean functions
        (``f(z)`` and ``g(z)`` when ``U`` is None).
    F, G : callable
        Their Jacobians in ``z``, ``F(z, u) -> (k, k)`` and ``G(z, u) -> (p, k)``.
    Q, R, mu0, V0 : as in :func:`kalman_filter`
        ``Q`` and ``V0`` positive semi-definite, ``R`` positive definite.
    U : array_like, shape (T, m) or (T,), optional
        Known inputs: row ``t`` is ``u_t``, used by the emission at time ``t`` and by the
        transition from ``t`` to ``t + 1`` (the last row by the emission only).

    Returns
    -------
    KalmanResult
        With ``loglik`` the log-likelihood of the linearised model.

    Raises
    ------
    ValueError
        If ``X``, ``Q``, ``R``, ``mu0``, ``V0`` or ``U`` is invalid or of the wrong shape, one of
        ``f, F, g, G`` is not callable or returns a non-finite value or an array of the wrong
        shape, or the recursion overflows.
    """
    X = check.matrix(X)
    for fun, name in ((f, "f"), (F, "F"), (g, "g"), (G, "G")):
        check.function(fun, name)
    mu0 = check.vector(mu0, None, "mu0")
    k, p = mu0.size, X.shape[1]
    V0 = check.psd(V0, k, "V0")
    Q = check.psd(Q, k, "Q")
    R = check.spd(R, p, "R")[0]
    if U is not None:
        U = check.as_float(U, "U")
        U = check.matrix(U[:, None] if U.ndim == 1 else U, "U")
        if U.shape[0] != X.shape[0]:
            raise ValueError(f"U must have {X.shape[0]} rows (one input u_t per row of X), got {U.shape[0]}")
    shapes = {"f": (k,), "F": (k, k), "g": (p,), "G": (p, k)}

    def wrap(h, name):                                 # h(z) or h(z, u_t), its value checked
        return lambda z, t: check.returned(h(z) if U is None else h(z, U[t]), name, shapes[name])

    return _filter(X, wrap(f, "f"), wrap(F, "F"), wrap(g, "g"), wrap(G, "G"), Q, R, mu0, V0)
