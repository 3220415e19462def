"""Mean-field variational inference and variational Bayes (chapter 39).

Coordinate-ascent mean field for a Gaussian target and for the Ising model, variational
Bayes for the normal model with unknown mean and precision and for the Gaussian mixture
(Bishop 2006, §10.1–10.2), and the collapsed variational bound of the sparse Gaussian
process (Titsias 2009) with its optimal inducing-point posterior.
"""

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
import scipy.linalg
from scipy.special import digamma, gammaln, multigammaln, xlogy

from mlnotes import _validate as check
from mlnotes.clustering import kmeans_assign

__all__ = [
    "mean_field_gaussian",
    "naive_mean_field_ising",
    "vb_normal_gamma",
    "vb_gmm",
    "vb_m_step",
    "titsias_bound",
    "sparse_gp_predict",
]

_LOG2PI = np.log(2 * np.pi)


# ------------------------------------------------------------------ Gaussian target
class MeanFieldGaussian(NamedTuple):
    """Mean-field fit ``q(z) = Π N(z_i; means_i, variances_i)`` and the ELBO after each update."""

    means: np.ndarray
    variances: np.ndarray
    elbo: np.ndarray


def _gaussian_elbo(m, mu, Lambda, log_det_Lambda):
    """``−KL(q ‖ p)`` for ``q = Π N(m_i, 1/Λ_ii)`` and ``p = N(mu, Λ⁻¹)``."""
    dm = m - mu
    return -0.5 * (dm @ Lambda @ dm - log_det_Lambda + np.sum(np.log(np.diag(Lambda))))


def mean_field_gaussian(mu, Lambda, n_iter, m0=None):
    """Coordinate-ascent mean field for the Gaussian target ``N(mu, Λ⁻¹)``.

    The optimal factor for coordinate ``i`` is ``N(m_i, 1/Λ_ii)`` with
    ``m_i = mu_i − Σ_{j≠i} Λ_ij (m_j − mu_j) / Λ_ii``; the variances are fixed, the means
    are updated one coordinate at a time (Gauss–Seidel sweeps).

    Parameters
    ----------
    mu : array_like, shape (d,)
        Mean of the target.
    Lambda : array_like, shape (d, d)
        Precision matrix of the target (symmetric positive definite).
    n_iter : int
        Number of sweeps over the coordinates (>= 1).
    m0 : array_like, shape (d,), optional
        Initial means (default zeros).

    Returns
    -------
    MeanFieldGaussian
        ``means`` (d,), ``variances`` = ``1/diag(Λ)`` and ``elbo`` of shape
        ``(n_iter * d + 1,)``: ``−KL(q ‖ p)`` at the start and after every coordinate update.

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``Lambda`` is not positive definite or
        ``n_iter`` is not a positive integer.
    """
    mu = check.vector(mu, None, "mu")
    Lambda, L = check.spd(Lambda, mu.size, "Lambda")
    n_iter = check.count(n_iter, "n_iter")
    m = np.zeros(mu.size) if m0 is None else check.vector(m0, mu.size, "m0").copy()
    log_det = 2 * np.sum(np.log(np.diag(L)))
    diag = np.diag(Lambda)
    elbo = [_gaussian_elbo(m, mu, Lambda, log_det)]
    for _ in range(n_iter):
        for i in range(mu.size):
            m[i] = mu[i] - (Lambda[i] @ (m - mu) - diag[i] * (m[i] - mu[i])) / diag[i]
            elbo.append(_gaussian_elbo(m, mu, Lambda, log_det))
    elbo = check.no_nan_result(np.array(elbo), "mu and Lambda")
    return MeanFieldGaussian(check.no_nan_result(m, "mu and Lambda"), 1 / diag, elbo)


# ---------------------------------------------------------------------- Ising model
class MeanFieldIsing(NamedTuple):
    """Naive mean-field magnetisations ``m_i = E_q[s_i]`` and the ELBO after each update."""

    magnetisation: np.ndarray
    elbo: np.ndarray


def _binary_entropy(m):
    p, q = (1 + m) / 2, (1 - m) / 2
    return -(xlogy(p, p) + xlogy(q, q))


def _ising_elbo(m, J, h):
    return float(h @ m + 0.5 * m @ J @ m + np.sum(_binary_entropy(m)))


def naive_mean_field_ising(J, h, n_iter, damping=0.0):
    """Naive mean field for the Ising model ``p(s) ∝ exp(½ sᵀJs + hᵀs)``, ``s ∈ {−1, +1}^d``.

    With ``q(s) = Π q_i(s_i)`` and ``m_i = E_q s_i``, the optimal factor has
    ``m_i = tanh(h_i + Σ_j J_ij m_j)``. The sites are updated one at a time; with
    ``damping`` ``δ`` the new value is ``(1 − δ) tanh(...) + δ m_i``, still an ascent step
    because the ELBO is concave in each ``m_i`` alone.

    Parameters
    ----------
    J : array_like, shape (d, d)
        Symmetric couplings with zero diagonal.
    h : array_like, shape (d,)
        External fields.
    n_iter : int
        Number of sweeps (>= 1).
    damping : float
        In [0, 1).

    Returns
    -------
    MeanFieldIsing
        ``magnetisation`` (d,) and ``elbo`` of shape ``(n_iter * d + 1,)``: the lower bound
        ``hᵀm + ½ mᵀJm + Σ H(q_i)`` on ``log Z`` at the start (m = 0) and after every update.

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``J`` is not symmetric with zero
        diagonal, ``n_iter`` is not a positive integer or ``damping`` is outside [0, 1).
    """
    J = check.square(J, "J", symmetric=True)
    if np.any(np.diag(J) != 0):
        raise ValueError("J must have a zero diagonal")
    h = check.vector(h, J.shape[0], "h")
    n_iter = check.count(n_iter, "n_iter")
    damping = check.number_between(damping, "damping", 0.0, 1.0, open_high=True)
    m = np.zeros(h.size)
    elbo = [_ising_elbo(m, J, h)]
    for _ in range(n_iter):
        for i in range(h.size):
            m[i] = (1 - damping) * np.tanh(h[i] + J[i] @ m) + damping * m[i]
            elbo.append(_ising_elbo(m, J, h))
    return MeanFieldIsing(m, np.array(elbo))


# --------------------------------------------------------------- VB normal-gamma
class VBNormalGamma(NamedTuple):
    """VB posterior ``q(μ) = N(mean, 1/precision)``, ``q(τ) = Gamma(shape, rate)`` and ELBO trace."""

    mean: float
    precision: float
    shape: float
    rate: float
    elbo: np.ndarray


def _ng_elbo(x, mu0, lam0, a0, b0, mN, lN, aN, bN):
    """ELBO of ``q(μ)q(τ)`` for the normal model with a Normal–Gamma prior (Bishop §10.1.3)."""
    n, Et, Elt = x.size, aN / bN, digamma(aN) - np.log(bN)
    sq = np.sum((x - mN) ** 2) + n / lN + lam0 * ((mN - mu0) ** 2 + 1 / lN)
    e_log_joint = ((n + 1) / 2 * (Elt - _LOG2PI) + 0.5 * np.log(lam0) - 0.5 * Et * sq
                   + a0 * np.log(b0) - gammaln(a0) + (a0 - 1) * Elt - b0 * Et)
    h_mu = 0.5 * (1 + _LOG2PI - np.log(lN))
    h_tau = aN - np.log(bN) + gammaln(aN) + (1 - aN) * digamma(aN)
    return float(e_log_joint + h_mu + h_tau)


def vb_normal_gamma(x, mu0, lam0, a0, b0, n_iter):
    """Variational Bayes ``q(μ)q(τ)`` for ``x_i ~ N(μ, 1/τ)`` with a Normal–Gamma prior.

    Prior ``τ ~ Gamma(a0, b0)`` (rate ``b0``) and ``μ | τ ~ N(mu0, 1/(lam0 τ))``. Starting
    from ``q(τ)`` = the prior, each iteration updates ``q(μ) = N(m_N, 1/λ_N)`` with
    ``m_N = (lam0 mu0 + n x̄)/(lam0 + n)``, ``λ_N = (lam0 + n) E[τ]``, then
    ``q(τ) = Gamma(a_N, b_N)`` with ``a_N = a0 + (n + 1)/2`` and
    ``b_N = b0 + ½ E_μ[Σ(x_i − μ)² + lam0 (μ − mu0)²]``.

    Parameters
    ----------
    x : array_like, shape (n,)
        The sample.
    mu0, lam0, a0, b0 : float
        Prior mean, prior precision factor (> 0), Gamma shape (> 0) and rate (> 0).
    n_iter : int
        Number of iterations (>= 1).

    Returns
    -------
    VBNormalGamma
        The final factors and ``elbo`` of shape ``(2 n_iter,)``: after each update of
        ``q(μ)`` and of ``q(τ)`` in turn.

    Raises
    ------
    ValueError
        On a malformed sample or hyperparameter, or a bad ``n_iter``.
    """
    x = check.sample(x, "x")
    mu0, n_iter = check.number(mu0, "mu0"), check.count(n_iter, "n_iter")
    lam0, a0, b0 = (check.positive(v, k) for v, k in ((lam0, "lam0"), (a0, "a0"), (b0, "b0")))
    n = x.size
    mN, aN, bN = (lam0 * mu0 + x.sum()) / (lam0 + n), a0, b0   # q(τ) starts at the prior
    elbo = []
    for _ in range(n_iter):
        lN = (lam0 + n) * aN / bN
        elbo.append(_ng_elbo(x, mu0, lam0, a0, b0, mN, lN, aN, bN))
        aN = a0 + (n + 1) / 2
        bN = b0 + 0.5 * (np.sum((x - mN) ** 2) + n / lN + lam0 * ((mN - mu0) ** 2 + 1 / lN))
        elbo.append(_ng_elbo(x, mu0, lam0, a0, b0, mN, lN, aN, bN))
    if not (np.isfinite(bN) and lN > 0 and np.all(np.isfinite(elbo))):
        raise ValueError("the result overflowed: rescale x (and mu0)")
    return VBNormalGamma(float(mN), float(lN), float(aN), float(bN), np.array(elbo))


# ------------------------------------------------------------------------ VB-GMM
class VBGMMParams(NamedTuple):
    """Dirichlet ``alpha`` (K,) and Normal–Wishart ``beta`` (K,), ``means`` (K, d), ``nu`` (K,),
    ``W_inv`` (K, d, d) parameters of ``q(π) Π_k q(μ_k, Λ_k)``."""

    alpha: np.ndarray
    beta: np.ndarray
    means: np.ndarray
    nu: np.ndarray
    W_inv: np.ndarray


class VBGMMResult(NamedTuple):
    """Outcome of :func:`vb_gmm`: responsibilities, the final :class:`VBGMMParams` and the ELBO."""

    resp: np.ndarray
    params: VBGMMParams
    elbo: np.ndarray


_VB_KEYS = ("alpha0", "beta0", "m0", "nu0", "W0_inv")


def _vb_prior(prior, X, K):
    """The prior as a tuple; ``None`` gives scikit-learn's defaults for ``X``."""
    n, d = X.shape
    if prior is None:
        if n < 2:
            raise ValueError("X must have at least 2 rows for the default prior (W0_inv = cov(X)); pass a prior")
        cov = np.atleast_2d(np.cov(X.T))
        if np.linalg.eigvalsh(cov).min() <= 1e-12 * max(np.trace(cov), np.finfo(float).tiny):
            raise ValueError("X has a singular sample covariance, so the default prior (W0_inv = cov(X)) "
                             "is not positive definite; pass a prior with a positive definite W0_inv")
        return 1.0 / K, 1.0, X.mean(axis=0), float(d), cov
    if not isinstance(prior, Mapping) or set(prior) != set(_VB_KEYS):
        raise ValueError(f"prior must be None or a mapping with exactly the keys {', '.join(_VB_KEYS)}")
    alpha0, beta0 = check.positive(prior["alpha0"], "prior['alpha0']"), check.positive(prior["beta0"], "prior['beta0']")
    m0 = check.vector(prior["m0"], d, "prior['m0']")
    nu0 = check.number(prior["nu0"], "prior['nu0']")
    if nu0 <= d - 1:
        raise ValueError(f"prior['nu0'] must exceed d - 1 = {d - 1}, got {nu0!r}")
    return alpha0, beta0, m0, nu0, check.spd(prior["W0_inv"], d, "prior['W0_inv']")[0]


def _resp(resp, n):
    resp = check.probabilities(resp, "resp", axis=1)
    if resp.ndim != 2 or resp.shape[0] != n:
        raise ValueError(f"resp must have shape ({n}, K), got {resp.shape}")
    return resp


def vb_m_step(X, resp, prior=None):
    """VB M-step for the Gaussian mixture: ``q(π)`` and ``q(μ_k, Λ_k)`` given ``q(Z) = resp``.

    With ``N_k = Σ_n r_nk + 10ε`` (as scikit-learn), ``x̄_k`` and ``S_k`` the weighted means
    and covariances: ``α_k = α₀ + N_k``, ``β_k = β₀ + N_k``, ``m_k = (β₀m₀ + N_k x̄_k)/β_k``,
    ``ν_k = ν₀ + N_k`` and ``W_k⁻¹ = W₀⁻¹ + N_k S_k + β₀N_k/(β₀ + N_k) (x̄_k − m₀)(x̄_k − m₀)ᵀ``
    (Bishop 2006, eqs 10.58–10.63).

    Parameters
    ----------
    X : array_like, shape (n, d)
    resp : array_like, shape (n, K)
        Responsibilities; rows sum to 1.
    prior : mapping or None
        Keys ``alpha0``, ``beta0`` (> 0), ``m0`` (d,), ``nu0`` (> d − 1), ``W0_inv``
        ((d, d) positive definite). ``None``: scikit-learn's defaults ``α₀ = 1/K``,
        ``β₀ = 1``, ``m₀ = x̄``, ``ν₀ = d``, ``W₀⁻¹ = np.cov(X.T)``.

    Returns
    -------
    VBGMMParams

    Raises
    ------
    ValueError
        On malformed data, responsibilities or prior.
    """
    X = check.matrix(X)
    resp = _resp(resp, X.shape[0])
    return _m_step(X, resp, _vb_prior(prior, X, resp.shape[1]))


def _m_step(X, resp, hyper):
    alpha0, beta0, m0, nu0, W0_inv = hyper
    N = resp.sum(axis=0) + 10 * np.finfo(float).eps
    xbar = resp.T @ X / N[:, None]
    diff = X[None] - xbar[:, None]                                   # (K, n, d)
    S = np.einsum("nk,kni,knj->kij", resp, diff, diff) / N[:, None, None]
    beta = beta0 + N
    dm = xbar - m0
    W_inv = (W0_inv + N[:, None, None] * S
             + (beta0 * N / beta)[:, None, None] * np.einsum("ki,kj->kij", dm, dm))
    return VBGMMParams(alpha0 + N, beta, (beta0 * m0 + N[:, None] * xbar) / beta[:, None], nu0 + N, W_inv)


def _expectations(params, d):
    """``E log π_k``, ``E log|Λ_k|`` and the Cholesky factors of ``W_k⁻¹``."""
    L = np.linalg.cholesky(params.W_inv)
    log_det_W = -2 * np.sum(np.log(np.diagonal(L, axis1=1, axis2=2)), axis=1)
    e_log_lam = digamma(0.5 * (params.nu[:, None] - np.arange(d))).sum(axis=1) + d * np.log(2) + log_det_W
    return digamma(params.alpha) - digamma(params.alpha.sum()), e_log_lam, L, log_det_W


def _log_rho(X, params):
    d = X.shape[1]
    e_log_pi, e_log_lam, L, _ = _expectations(params, d)
    diff = X[None] - params.means[:, None]                            # (K, n, d)
    Linv = np.linalg.inv(L)                                           # (K, d, d), lower triangular
    maha = np.sum(np.einsum("kij,knj->kni", Linv, diff) ** 2, axis=2).T   # (n, K)
    return e_log_pi + 0.5 * e_log_lam - 0.5 * d / params.beta - 0.5 * params.nu * maha - 0.5 * d * _LOG2PI


def _log_wishart_norm(log_det_W, nu, d):
    """``log B(W, ν)`` of the Wishart density (Bishop B.79)."""
    return -0.5 * nu * log_det_W - 0.5 * nu * d * np.log(2) - multigammaln(0.5 * nu, d)


def _vb_gmm_elbo(X, resp, params, hyper, log_rho):
    """``Σ r (log ρ − log r) − KL(q(π) ‖ p(π)) − Σ_k KL(q(μ_k, Λ_k) ‖ p(μ_k, Λ_k))``, ``log ρ = _log_rho(X, params)``."""
    alpha0, beta0, m0, nu0, W0_inv = hyper
    d, K = X.shape[1], resp.shape[1]
    e_log_pi, e_log_lam, L, log_det_W = _expectations(params, d)
    data = np.sum(resp * log_rho) - np.sum(xlogy(resp, resp))
    a = params.alpha
    kl_pi = (gammaln(a.sum()) - gammaln(a).sum() - gammaln(K * alpha0) + K * gammaln(alpha0)
             + np.sum((a - alpha0) * e_log_pi))
    W = np.linalg.inv(params.W_inv)
    log_det_W0 = -np.linalg.slogdet(W0_inv)[1]
    kl_wish = (_log_wishart_norm(log_det_W, params.nu, d) - _log_wishart_norm(log_det_W0, nu0, d)
               + 0.5 * (params.nu - nu0) * e_log_lam
               - 0.5 * params.nu * d + 0.5 * params.nu * np.einsum("ij,kji->k", W0_inv, W))
    dm = params.means - m0
    kl_gauss = 0.5 * (d * beta0 / params.beta - d + d * np.log(params.beta / beta0)
                      + beta0 * params.nu * np.einsum("ki,kij,kj->k", dm, W, dm))
    return float(data - kl_pi - np.sum(kl_wish + kl_gauss))


def _normalise_rows(log_rho):
    log_rho = log_rho - log_rho.max(axis=1, keepdims=True)
    r = np.exp(log_rho)
    return r / r.sum(axis=1, keepdims=True)


def vb_gmm(X, K, prior, n_iter, rng):
    """Variational Bayes for the Gaussian mixture (Bishop 2006, §10.2).

    ``q(Z) q(π) Π_k q(μ_k, Λ_k)`` with a Dirichlet and Normal–Wishart posterior. The
    responsibilities start as a hard assignment of every point to the nearest of ``K``
    distinct data points drawn by ``rng``; each iteration is a VB M-step
    (:func:`vb_m_step`) followed by a VB E-step
    ``r_nk ∝ exp(E log π_k + ½E log|Λ_k| − d/(2β_k) − ½ν_k (x_n − m_k)ᵀW_k(x_n − m_k))``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    K : int
        Number of components (1 <= K <= n).
    prior : mapping or None
        As in :func:`vb_m_step`.
    n_iter : int
        Number of iterations (>= 1).
    rng : numpy.random.Generator

    Returns
    -------
    VBGMMResult
        ``resp`` (n, K), ``params`` (after the last M-step) and ``elbo`` of shape
        ``(2 n_iter,)``: the ELBO after each M-step and each E-step in turn.

    Raises
    ------
    ValueError
        On malformed data or prior, a bad ``K`` or ``n_iter``, or ``rng`` not a Generator.
    """
    X = check.matrix(X)
    n = X.shape[0]
    K = check.count(K, "K")
    if K > n:
        raise ValueError(f"K must be at most n = {n}, got {K}")
    hyper = _vb_prior(prior, X, K)
    n_iter, rng = check.count(n_iter, "n_iter"), check.generator(rng)
    labels = kmeans_assign(X, X[rng.choice(n, K, replace=False)])
    resp, elbo = np.eye(K)[labels], []
    for _ in range(n_iter):
        params = _m_step(X, resp, hyper)
        log_rho = _log_rho(X, params)
        elbo.append(_vb_gmm_elbo(X, resp, params, hyper, log_rho))
        resp = _normalise_rows(log_rho)
        elbo.append(_vb_gmm_elbo(X, resp, params, hyper, log_rho))
    return VBGMMResult(resp, params, np.array(elbo))


# -------------------------------------------------------------------- sparse GPs
def _sparse_setup(X, y, Z, kernel, sigma2):
    X, Z = check.matrix(X), check.matrix(Z, "Z")
    if Z.shape[1] != X.shape[1]:
        raise ValueError(f"Z must have {X.shape[1]} columns like X, got {Z.shape[1]}")
    y = check.vector(y, X.shape[0], "y")
    kernel, sigma2 = check.function(kernel, "kernel"), check.positive(sigma2, "sigma2")
    Kzz = check.square(check.returned(kernel(Z, Z), "kernel(Z, Z)", (Z.shape[0],) * 2), "kernel(Z, Z)", symmetric=True)
    Kzx = check.returned(kernel(Z, X), "kernel(Z, X)", (Z.shape[0], X.shape[0]))
    L = None
    for jitter in (0.0, 1e-10 * np.mean(np.diag(Kzz))):       # jitter only if K_ZZ is numerically singular
        try:
            L = np.linalg.cholesky(Kzz + jitter * np.eye(Z.shape[0]))
            break
        except np.linalg.LinAlgError:
            pass
    if L is None:
        raise ValueError("kernel(Z, Z) must be positive definite (distinct inducing inputs)")
    A = scipy.linalg.solve_triangular(L, Kzx, lower=True) / np.sqrt(sigma2)       # (m, n)
    LB = np.linalg.cholesky(np.eye(Z.shape[0]) + A @ A.T)
    c = scipy.linalg.solve_triangular(LB, A @ y, lower=True) / np.sqrt(sigma2)
    return X, y, Z, kernel, sigma2, L, A, LB, c


def _kernel_diag(kernel, X, block=512):
    """``diag(kernel(X, X))`` from ``block x block`` Gram matrices: ``O(n block)`` time and
    memory instead of the ``n x n`` matrix."""
    parts = []
    for s in range(0, X.shape[0], block):
        Xb = X[s:s + block]
        Kb = check.returned(kernel(Xb, Xb), "kernel(X, X)", (Xb.shape[0],) * 2)
        parts.append(np.diag(Kb))
    diag = np.concatenate(parts)
    if np.any(diag < 0):
        raise ValueError("kernel(X, X) must have a non-negative diagonal (a positive semi-definite kernel)")
    return diag


def titsias_bound(X, y, Z, kernel, sigma2):
    """Collapsed variational lower bound of the sparse GP (Titsias 2009).

    ``F = log N(y; 0, Q + σ²I) − tr(K_XX − Q)/(2σ²)`` with ``Q = K_XZ K_ZZ⁻¹ K_ZX``,
    computed in ``O(n m²)`` time and ``O(n m)`` memory, never forming an ``n × n`` matrix:
    with ``A = L⁻¹K_ZX/σ`` (``L Lᵀ = K_ZZ``) and ``B = I + AAᵀ`` (m × m), the determinant
    lemma gives ``log|Q + σ²I| = n log σ² + log|B|``, Woodbury gives
    ``yᵀ(Q + σ²I)⁻¹y = (yᵀy − |L_B⁻¹Ay|²)/σ²`` (``L_B L_Bᵀ = B``) and ``tr Q = σ² Σ A²``; the diagonal
    of ``K_XX`` is evaluated in blocks of 512 points. If the Cholesky factorisation of
    ``K_ZZ`` fails, a relative jitter of 1e-10 is added to its diagonal (the result is then
    the bound for inducing variables observed with that tiny noise, still a lower bound).

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    Z : array_like, shape (m, d)
        Inducing inputs.
    kernel : callable
        ``kernel(A, B)`` returning the Gram matrix.
    sigma2 : float
        Noise variance (> 0).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On a bad shape or value, a non-callable kernel, a bad Gram matrix or a singular
        ``K_ZZ``.
    """
    X, y, Z, kernel, sigma2, L, A, LB, c = _sparse_setup(X, y, Z, kernel, sigma2)
    n = y.size
    log_det = n * np.log(sigma2) + 2 * np.sum(np.log(np.diag(LB)))
    quad = y @ y / sigma2 - c @ c
    k_diag = _kernel_diag(kernel, X)
    trace = (np.sum(k_diag) - sigma2 * np.sum(A**2)) / (2 * sigma2)
    return float(check.no_nan_result(-0.5 * (n * _LOG2PI + log_det + quad) - trace, "y and sigma2"))


class SparseGPPrediction(NamedTuple):
    """Predictive mean and variance of ``f(x*)`` and the optimal ``q(U) = N(q_mean, q_cov)``."""

    mean: np.ndarray
    var: np.ndarray
    q_mean: np.ndarray
    q_cov: np.ndarray


def sparse_gp_predict(X, y, Z, X_star, kernel, sigma2):
    """Predictions of the sparse GP under the optimal inducing-point posterior ``q*(U)``.

    ``q*(U) = N(σ⁻² K_ZZ Σ K_ZX y, K_ZZ Σ K_ZZ)`` with ``Σ = (K_ZZ + σ⁻² K_ZX K_XZ)⁻¹``,
    and ``f(x*) ~ N(σ⁻² K_*Z Σ K_ZX y, k_** − K_*Z K_ZZ⁻¹ K_Z* + K_*Z Σ K_Z*)``.

    Parameters
    ----------
    X, y, Z, kernel, sigma2
        As in :func:`titsias_bound`.
    X_star : array_like, shape (s, d)
        Test inputs.

    Returns
    -------
    SparseGPPrediction
        ``mean`` (s,), ``var`` (s,) of the noise-free ``f(x*)``, ``q_mean`` (m,) and
        ``q_cov`` (m, m).

    Raises
    ------
    ValueError
        As :func:`titsias_bound`, or if ``X_star`` has the wrong width.
    """
    X, y, Z, kernel, sigma2, L, A, LB, c = _sparse_setup(X, y, Z, kernel, sigma2)
    X_star = check.matrix_with_columns(X_star, X.shape[1], "X_star")
    W = scipy.linalg.solve_triangular(L, kernel(Z, X_star), lower=True)           # L⁻¹ K_Z*
    V = scipy.linalg.solve_triangular(LB, W, lower=True)
    k_star = _kernel_diag(kernel, X_star)
    var = np.maximum(k_star - np.sum(W**2, axis=0) + np.sum(V**2, axis=0), 0.0)
    LLB = L @ scipy.linalg.inv(LB).T                                               # L L_B⁻ᵀ
    return SparseGPPrediction(V.T @ c, var, LLB @ c, LLB @ LLB.T)
