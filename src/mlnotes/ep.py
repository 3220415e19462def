"""Expectation propagation (chapter 40): Gaussian moment matching, EP for Gaussian-process
classification with a probit likelihood, Minka's clutter problem, assumed density
filtering and alpha-divergences.

Conventions. A Gaussian site is stored by its natural parameters: the site precision
``tau`` and the site natural mean ``nu``, so that the site is
``t(g) ∝ exp(nu g − tau g² / 2)`` (a site of precision 0 is the constant 1). Class labels
are in {−1, +1} and the probit likelihood is ``P(y | g) = Φ(y g)``. The GP prior has mean
zero and covariance ``K``. Tilted moments are returned as ``(log_Z, mean, var)`` of
``f(g) N(g; m, v)``, with ``log_Z`` the log of its integral.
"""
import warnings
from typing import NamedTuple

import numpy as np
import scipy.special

from mlnotes import _validate as check

__all__ = [
    "TiltedMoments", "EPResult", "ADFResult", "EPPrediction", "AlphaFit",
    "gaussian_moment_match", "probit_tilted_moments", "ep_gp_classification", "ep_predict",
    "clutter_tilted_moments", "clutter_ep", "adf", "alpha_divergence", "alpha_projection",
]


class TiltedMoments(NamedTuple):
    """Normaliser (log), mean and variance of a tilted distribution ``f(g) N(g; m, v) / Z``."""
    log_Z: np.ndarray
    mean: np.ndarray
    var: np.ndarray


class EPResult(NamedTuple):
    """The EP approximation ``q = N(mean, cov)``, its evidence estimate ``log_Z`` and the
    site parameters ``tau`` (precisions) and ``nu`` (natural means); ``change`` is the
    largest change of a site parameter in the last sweep."""
    mean: np.ndarray
    cov: np.ndarray
    log_Z: float
    tau: np.ndarray
    nu: np.ndarray
    change: float


class ADFResult(NamedTuple):
    """Assumed-density-filtering posterior ``N(mean, var)`` and its evidence estimate."""
    mean: float
    var: float
    log_Z: float


class EPPrediction(NamedTuple):
    """Latent predictive ``N(mean, var)`` at the test points and ``prob = P(y* = +1)``."""
    mean: np.ndarray
    var: np.ndarray
    prob: np.ndarray


class AlphaFit(NamedTuple):
    """The alpha-projection ``scale * q`` (``q`` normalised, ``q ∝ exp(T theta)``) and whether
    the fixed-point iteration converged."""
    q: np.ndarray
    theta: np.ndarray
    scale: float
    iterations: int
    converged: bool


# ------------------------------------------------------------------------ helpers
def _phi(nu, tau):
    """Log-normaliser of ``exp(nu g − tau g²/2)`` without the constant ½ log 2π."""
    return nu**2 / (2 * tau) - 0.5 * np.log(tau)


def _probit(y, m, v):
    """Closed-form tilted moments of ``Φ(y g) N(g; m, v)`` (no input checks)."""
    s = np.sqrt(1 + v)
    z = y * m / s
    log_Z = scipy.special.log_ndtr(z)
    r = np.exp(-0.5 * z**2 - 0.5 * np.log(2 * np.pi) - log_Z)       # N(z) / Φ(z)
    mean = m + y * v * r / s
    var = v - v**2 * r * (z + r) / (1 + v)
    return log_Z, mean, var


def _clutter(x, w, a, m, v):
    """Closed-form tilted moments of ``[(1−w)N(x; θ, 1) + w N(x; 0, a)] N(θ; m, v)``."""
    log_in = np.log1p(-w) - 0.5 * np.log(2 * np.pi * (v + 1)) - (x - m)**2 / (2 * (v + 1))
    log_out = np.log(w) - 0.5 * np.log(2 * np.pi * a) - x**2 / (2 * a)
    log_Z = np.logaddexp(log_in, log_out)
    r = np.exp(log_in - log_Z)                                     # P(inlier | x)
    d = (x - m) / (v + 1)
    mean = m + r * v * d
    var = v - r * v**2 / (v + 1) + r * (1 - r) * v**2 * d**2
    return log_Z, mean, var


def _clutter_args(x, w, a, prior_var):
    x = check.as_float(x, "x")
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x must be a non-empty 1-D array, got shape {x.shape}")
    x = check.finite(x, "x")
    w = check.number_between(w, "w", 0.0, 1.0, open_low=True, open_high=True)
    return x, w, check.positive(a, "a"), check.positive(prior_var, "prior_var")


def _posterior(K, tau, nu):
    """``Σ = (K⁻¹ + diag τ)⁻¹`` and ``μ = Σν`` via ``B = I + S K S``, ``S = diag √τ``."""
    s = np.sqrt(tau)
    B = np.eye(len(tau)) + s[:, None] * K * s[None, :]
    L = np.linalg.cholesky(B)
    V = np.linalg.solve(L, s[:, None] * K)
    Sigma = K - V.T @ V
    return Sigma, Sigma @ nu, L


def _broadcast(arrays, names):
    """``np.broadcast_arrays(*arrays)``; ``ValueError`` naming the arguments if they do not broadcast."""
    try:
        return np.broadcast_arrays(*arrays)
    except ValueError:
        shapes = ", ".join(str(np.shape(a)) for a in arrays)
        raise ValueError(f"{names} must have shapes that broadcast together, got {shapes}") from None


# ------------------------------------------------------------------ moment matching
def gaussian_moment_match(log_f, m, v, n_quad=100):
    """Moments of the tilted distribution ``f(g) N(g; m, v) / Z`` by Gauss–Hermite quadrature.

    With the probabilists' Gauss–Hermite nodes ``x_k`` and weights ``w_k`` (weight
    ``exp(−x²/2)``), ``Z ≈ Σ_k w_k f(m + √v x_k) / √(2π)``; the mean and variance are the
    weighted moments of the nodes ``m + √v x_k``. The sum is done in log space.

    Parameters
    ----------
    log_f : callable
        ``log f`` of a site, vectorised over arrays of ``g``.
    m, v : array_like
        Mean and variance (positive) of the Gaussian, broadcast together.
    n_quad : int
        Number of quadrature nodes.

    Returns
    -------
    TiltedMoments
        ``log_Z``, ``mean``, ``var`` with the broadcast shape of ``m`` and ``v``.

    Raises
    ------
    ValueError
        If ``log_f`` is not callable or returns non-finite values, ``m`` or ``v`` is not
        finite, ``v`` is not positive or ``n_quad`` is not a positive count.
    """
    log_f = check.function(log_f, "log_f")
    m, v = _broadcast((check.finite(m, "m"), check.finite(v, "v")), "m and v")
    if np.any(v <= 0):
        raise ValueError("v must be positive")
    x, w = np.polynomial.hermite_e.hermegauss(check.count(n_quad, "n_quad"))
    g = m[..., None] + np.sqrt(v)[..., None] * x
    lw = np.log(w) - 0.5 * np.log(2 * np.pi) + check.returned(log_f(g), "log_f", g.shape)
    log_Z = scipy.special.logsumexp(lw, axis=-1)
    p = np.exp(lw - log_Z[..., None])
    mean = np.sum(p * g, axis=-1)
    return TiltedMoments(log_Z, mean, np.sum(p * (g - mean[..., None])**2, axis=-1))


def probit_tilted_moments(y, m, v):
    """Closed-form moments of the probit tilted distribution ``Φ(y g) N(g; m, v) / Z``.

    With ``z = y m / √(1 + v)``: ``Z = Φ(z)``, mean ``m + y v N(z) / (Φ(z)√(1 + v))`` and
    variance ``v − v² r (z + r) / (1 + v)`` with ``r = N(z) / Φ(z)``, computed from
    ``log_ndtr`` so that it stays finite far in the tail.

    Parameters
    ----------
    y : array_like
        Labels in {−1, +1}.
    m, v : array_like
        Cavity mean and (positive) variance, broadcast with ``y``.

    Returns
    -------
    TiltedMoments

    Raises
    ------
    ValueError
        If a label is not ±1, a value is not finite or ``v`` is not positive.
    """
    y = check.finite(y, "y")
    if not np.all(np.isin(y, (-1, 1))):
        raise ValueError("y must contain only the labels -1, 1")
    m, v = check.finite(m, "m"), check.finite(v, "v")
    if np.any(v <= 0):
        raise ValueError("v must be positive")
    return TiltedMoments(*_probit(*_broadcast((y, m, v), "y, m and v")))


def clutter_tilted_moments(x, w, a, m, v):
    """Closed-form tilted moments of one clutter site ``[(1−w)N(x; θ, 1) + w N(x; 0, a)]``
    times the cavity ``N(θ; m, v)``.

    With ``r`` the posterior probability that ``x`` is an inlier, the mean is
    ``m + r v (x − m) / (v + 1)`` and the variance
    ``v − r v² / (v + 1) + r (1 − r) v² (x − m)² / (v + 1)²``.

    Parameters
    ----------
    x : array_like
        Observations (1-D).
    w : float
        Clutter fraction in (0, 1).
    a : float
        Clutter variance (positive).
    m, v : array_like
        Cavity mean and (positive) variance, broadcast with ``x``.

    Returns
    -------
    TiltedMoments

    Raises
    ------
    ValueError
        If ``x`` is not a non-empty finite 1-D array, ``w`` is not in (0, 1), ``a`` is not
        positive, ``m`` is not finite or ``v`` is not positive.
    """
    x, w, a, _ = _clutter_args(x, w, a, 1.0)
    m, v = check.finite(m, "m"), check.finite(v, "v")
    if np.any(v <= 0):
        raise ValueError("v must be positive")
    x, m, v = _broadcast((x, m, v), "x, m and v")
    return TiltedMoments(*_clutter(x, w, a, m, v))


# ----------------------------------------------------------------- EP for GP classification
def _gp_log_Z(K, y, tau, nu):
    """log Z_EP = Φ(θ) − Φ(θ₀) + Σ_i [log Z_i + φ(cavity_i) − φ(marginal_i)]."""
    Sigma, mu, L = _posterior(K, tau, nu)
    d = np.diag(Sigma)
    tau_c, nu_c = 1 / d - tau, mu / d - nu
    log_Zi = _probit(y, nu_c / tau_c, 1 / tau_c)[0]
    sites = np.sum(log_Zi + _phi(nu_c, tau_c) - _phi(mu / d, 1 / d))
    return 0.5 * nu @ mu - np.sum(np.log(np.diag(L))) + sites


def ep_gp_classification(K, y, n_sweeps, damping=0.0):
    """Sequential EP for GP classification with the probit likelihood ``Φ(y_i g_i)``.

    Each step forms the cavity ``q_¬i(g_i)`` (natural parameters ``1/Σ_ii − τ̃_i`` and
    ``μ_i/Σ_ii − ν̃_i``), matches the moments of ``Φ(y_i g_i) q_¬i(g_i)`` in closed form,
    sets the site to the ratio of the new marginal and the cavity (optionally damped:
    ``(1 − damping)·new + damping·old`` in natural parameters) and updates ``Σ`` by a rank-one
    formula. ``Σ`` is recomputed from ``B = I + S̃^½KS̃^½`` after every sweep.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Prior covariance of the latent values (symmetric positive definite).
    y : array_like, shape (n,)
        Labels in {−1, +1}.
    n_sweeps : int
        Number of passes over the sites.
    damping : float
        Damping in [0, 1).

    Returns
    -------
    EPResult
        ``mean``, ``cov`` of ``q``; ``log_Z`` (log Z_EP); sites ``tau``, ``nu``; ``change``.

    Raises
    ------
    ValueError
        If ``K`` is not symmetric positive definite, ``y`` has a wrong shape or label,
        ``n_sweeps`` is not a positive count or ``damping`` is not in [0, 1).
    """
    K = check.square(K, "K", symmetric=True)
    n = K.shape[0]
    K = check.spd(K, n, "K")[0]
    y = check.labels(y, n, (-1, 1), "y").astype(float)
    n_sweeps = check.count(n_sweeps, "n_sweeps")
    damping = check.number_between(damping, "damping", 0.0, 1.0, open_high=True)
    tau, nu, Sigma, mu = np.zeros(n), np.zeros(n), K.copy(), np.zeros(n)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):   # overflow is reported below
        for _ in range(n_sweeps):
            old = np.r_[tau, nu]
            for i in range(n):
                tau_c, nu_c = 1 / Sigma[i, i] - tau[i], mu[i] / Sigma[i, i] - nu[i]
                _, m_h, v_h = _probit(y[i], nu_c / tau_c, 1 / tau_c)
                t_new = (1 - damping) * max(1 / v_h - tau_c, 0.0) + damping * tau[i]
                nu[i] = (1 - damping) * (m_h / v_h - nu_c) + damping * nu[i]
                dt, s = t_new - tau[i], Sigma[:, i].copy()
                Sigma -= dt / (1 + dt * s[i]) * np.outer(s, s)
                tau[i] = t_new
                mu = Sigma @ nu
            Sigma, mu, _ = _posterior(K, tau, nu)
            change = float(np.max(np.abs(np.r_[tau, nu] - old)))
        log_Z = float(_gp_log_Z(K, y, tau, nu))
    if not (np.isfinite(log_Z) and np.all(np.isfinite(mu)) and np.all(np.isfinite(Sigma))):
        raise ValueError("EP overflowed (a non-finite site or posterior): rescale K")
    return EPResult(mu, (Sigma + Sigma.T) / 2, log_Z, tau.copy(), nu.copy(), change)


def ep_predict(K, k_star, k_starstar, sites):
    """Predictive distribution of EP GP classification at test points.

    The latent ``g*`` is ``N(k*ᵀ(K + S̃⁻¹)⁻¹S̃⁻¹ν̃, k** − k*ᵀ(K + S̃⁻¹)⁻¹k*)`` with
    ``S̃ = diag τ̃`` (computed through ``B = I + S̃^½KS̃^½``, so zero site precisions are
    allowed), and ``P(y* = +1) = Φ(mean / √(1 + var))``.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Training prior covariance.
    k_star : array_like, shape (n, m)
        Prior covariances between training and test latents.
    k_starstar : array_like, shape (m,)
        Prior variances of the test latents.
    sites : EPResult
        The result of :func:`ep_gp_classification` (its ``tau`` and ``nu`` are used).

    Returns
    -------
    EPPrediction

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``sites`` is not an EPResult, or a
        predictive variance is negative (``k_starstar`` inconsistent with ``K`` and ``k_star``).
    """
    K = check.psd(K, None, "K")
    n = K.shape[0]
    sites = check.instance_of(sites, EPResult, "sites", made_by="ep_gp_classification")
    k_star = check.matrix(k_star, "k_star")
    if k_star.shape[0] != n:
        raise ValueError(f"k_star must have {n} rows, got {k_star.shape[0]}")
    kss = check.vector(k_starstar, k_star.shape[1], "k_starstar")
    tau, nu = check.vector(sites.tau, n, "sites.tau"), check.vector(sites.nu, n, "sites.nu")
    s = np.sqrt(tau)
    L = np.linalg.cholesky(np.eye(n) + s[:, None] * K * s[None, :])
    z = s * np.linalg.solve(L.T, np.linalg.solve(L, s * (K @ nu)))
    mean = k_star.T @ (nu - z)
    V = np.linalg.solve(L, s[:, None] * k_star)
    var = kss - np.sum(V**2, axis=0)
    if np.any(var < -1e-8 * (1.0 + np.abs(kss))):
        raise ValueError("k_starstar is too small for K and k_star: the joint prior covariance of "
                         "training and test latents is not positive semi-definite")
    var = np.maximum(var, 0.0)
    return EPPrediction(mean, var, scipy.special.ndtr(mean / np.sqrt(1 + var)))


# ----------------------------------------------------------------- the clutter problem
def clutter_ep(x, w, a, prior_var, n_sweeps, damping=0.0):
    """EP for Minka's clutter problem: θ ~ N(0, prior_var) and each ``x_i`` is drawn from
    ``(1 − w) N(θ, 1) + w N(0, a)``.

    Sites are updated in the order of ``x``; an update whose cavity has non-positive
    precision is skipped (Minka's rule). ``log_Z`` is the EP evidence estimate
    ``φ(θ) − φ(θ₀) + Σ_i [log Z_i + φ(cavity_i) − φ(θ)]`` (requires all cavities proper,
    else NaN).

    Parameters
    ----------
    x : array_like, shape (n,)
        Observations.
    w : float
        Clutter fraction in (0, 1).
    a : float
        Clutter variance (positive).
    prior_var : float
        Prior variance of θ (positive).
    n_sweeps : int
        Number of passes over the sites.
    damping : float
        Damping in [0, 1).

    Returns
    -------
    EPResult
        ``mean`` and ``cov`` (the variance) are floats.

    Raises
    ------
    ValueError
        If ``x`` is not a non-empty finite 1-D array, ``w`` is not in (0, 1), ``a`` or
        ``prior_var`` is not positive, ``n_sweeps`` is not a positive count or ``damping``
        is not in [0, 1).
    """
    x, w, a, prior_var = _clutter_args(x, w, a, prior_var)
    n_sweeps = check.count(n_sweeps, "n_sweeps")
    damping = check.number_between(damping, "damping", 0.0, 1.0, open_high=True)
    tau, nu = np.zeros(x.size), np.zeros(x.size)
    T, N = 1 / prior_var + 0.0, 0.0                 # natural parameters of q
    for _ in range(n_sweeps):
        old = np.r_[tau, nu]
        for i in range(x.size):
            tau_c, nu_c = T - tau[i], N - nu[i]
            if tau_c <= 0:
                continue
            _, m_h, v_h = _clutter(x[i], w, a, nu_c / tau_c, 1 / tau_c)
            tau[i] = (1 - damping) * (1 / v_h - tau_c) + damping * tau[i]
            nu[i] = (1 - damping) * (m_h / v_h - nu_c) + damping * nu[i]
            T, N = tau_c + tau[i], nu_c + nu[i]
        change = float(np.max(np.abs(np.r_[tau, nu] - old)))
    tau_c, nu_c = T - tau, N - nu
    if np.all(tau_c > 0):
        log_Zi = _clutter(x, w, a, nu_c / tau_c, 1 / tau_c)[0]
        log_Z = _phi(N, T) - _phi(0.0, 1 / prior_var) + np.sum(
            log_Zi + _phi(nu_c, tau_c) - _phi(N, T))
    else:
        log_Z = np.nan
    return EPResult(N / T, 1 / T, float(log_Z), tau, nu, change)


def adf(x, w, a, prior_var):
    """Assumed density filtering for the clutter problem: one pass over ``x`` in order,
    replacing the running posterior by the Gaussian with the moments of
    ``N(θ; m, v) p(x_i | θ)`` after each observation. The evidence estimate is
    ``Σ_i log Z_i``.

    Parameters
    ----------
    x : array_like, shape (n,)
        Observations, processed in this order.
    w : float
        Clutter fraction in (0, 1).
    a : float
        Clutter variance (positive).
    prior_var : float
        Prior variance of θ (positive).

    Returns
    -------
    ADFResult

    Raises
    ------
    ValueError
        If ``x`` is not a non-empty finite 1-D array, ``w`` is not in (0, 1), or ``a`` or
        ``prior_var`` is not positive.
    """
    x, w, a, prior_var = _clutter_args(x, w, a, prior_var)
    m, v, log_Z = 0.0, prior_var, 0.0
    for xi in x:
        lz, m, v = _clutter(xi, w, a, m, v)
        log_Z += lz
    return ADFResult(float(m), float(v), float(log_Z))


# -------------------------------------------------------------------- alpha-divergences
def _measures(p, q):
    p, q = check.finite(p, "p"), check.finite(q, "q")
    if p.shape != q.shape or p.size == 0:
        raise ValueError(f"p and q must be non-empty arrays of the same shape, got {p.shape} "
                         f"and {q.shape}")
    for arr, name in ((p, "p"), (q, "q")):
        if np.any(arr < 0):
            raise ValueError(f"{name} must be non-negative")
    return p, q


def alpha_divergence(p, q, alpha):
    """Amari's alpha-divergence of two non-negative measures on a finite set,

    ``D_α[p‖q] = Σ [α p + (1 − α) q − p^α q^(1−α)] / (α(1 − α))``,

    with its limits ``KL[q‖p]`` at α = 0 and ``KL[p‖q]`` at α = 1 (the unnormalised KL,
    ``Σ p log(p/q) − p + q``). It is ``+inf`` where a support condition fails (α > 1 and
    ``q = 0 < p`` somewhere, or α < 0 and ``p = 0 < q``). The sum is written with ``expm1``
    around the nearer of α = 0 and α = 1, so that it keeps full accuracy as α approaches them.

    Parameters
    ----------
    p, q : array_like
        Non-negative arrays of the same shape (need not sum to 1).
    alpha : float
        Any real number.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``p`` or ``q`` is not a non-negative finite array, the shapes differ,
        ``alpha`` is not a finite number, or the value overflows (``|alpha|`` huge).
    """
    p, q = _measures(p, q)
    alpha = check.number(alpha, "alpha")
    if alpha == 1:
        return float(np.sum(scipy.special.rel_entr(p, q) - p + q))
    if alpha == 0:
        return float(np.sum(scipy.special.rel_entr(q, p) - q + p))
    if np.any(((alpha > 1) & (q == 0) & (p > 0)) | ((alpha < 0) & (p == 0) & (q > 0))):
        return np.inf                                     # p^α q^(1−α) = ∞ on a set of positive mass
    # α p + (1 − α) q − p^α q^(1−α), written around the nearer limit so that it does not
    # cancel for α near 0 or 1: = α(p − q) − q expm1(α log(p/q)) = (1 − α)(q − p) − p expm1((1 − α) log(q/p))
    both = (p > 0) & (q > 0)
    ps, qs = np.where(both, p, 1.0), np.where(both, q, 1.0)
    with np.errstate(over="ignore", invalid="ignore"):
        if alpha < 0.5:
            term = alpha * (ps - qs) - qs * np.expm1(alpha * np.log(ps / qs))
        else:
            term = (1 - alpha) * (qs - ps) - ps * np.expm1((1 - alpha) * np.log(qs / ps))
        term = np.where(both, term, alpha * p + (1 - alpha) * q)    # p^α q^(1−α) = 0 off the common support
        value = float(np.sum(term) / (alpha * (1 - alpha)))
    if not np.isfinite(value):
        raise ValueError(f"alpha = {alpha!r} is too far from [0, 1] for these p and q: D_alpha overflows")
    return value


def _lse(a):
    """``log Σ exp(a)`` of a 1-D array (numpy; faster than scipy's for small arrays)."""
    m = np.max(a)
    return m + np.log(np.sum(np.exp(a - m)))


def _moment_match(T, target, theta):
    """Newton's method with backtracking for ``E_q[T] = target``, ``q ∝ exp(T θ)``."""
    def dual(th):
        return _lse(T @ th) - target @ th
    for _ in range(100):
        q = np.exp(T @ theta - _lse(T @ theta))
        mean = q @ T
        grad = mean - target
        if np.max(np.abs(grad)) < 1e-13:
            break
        H = (T - mean).T @ (q[:, None] * (T - mean))
        step = np.linalg.lstsq(H, grad, rcond=None)[0]
        t, f0 = 1.0, dual(theta)
        while dual(theta - t * step) > f0 - 0.25 * t * grad @ step and t > 1e-10:
            t /= 2
        theta = theta - t * step
        if t * np.max(np.abs(step)) < 1e-14 * (1 + np.max(np.abs(theta))):
            break
    return theta


def alpha_projection(p, alpha, family, n_iter=5000, tol=1e-10, theta0=None):
    """Minimise ``D_α[p‖q]`` over the unnormalised exponential family ``q = s exp(T θ)`` on
    a finite set, by Minka's fixed point ``q ← proj[p^α q^(1−α)]``.

    ``proj`` matches the expected sufficient statistics (Newton's method on the dual);
    α = 1 is plain moment matching (one step). The scale is ``s^α = Σ p^α q^(1−α)``.

    Parameters
    ----------
    p : array_like, shape (n,)
        A distribution on n points.
    alpha : float
        Positive; convergence is slow (rate about 1 − α) for small α.
    family : array_like, shape (n, k)
        Sufficient statistics ``T`` evaluated at the n points.
    n_iter : int
        Maximum number of fixed-point steps.
    tol : float
        Stop when the sup-norm change of ``q`` is below ``tol``.
    theta0 : array_like, shape (k,), optional
        Starting natural parameters; by default the moment match of ``p`` (the α = 1
        solution). ``D_α`` can have several local minima for α < 1, and the fixed point
        finds the one whose basin contains the start.

    Returns
    -------
    AlphaFit
        ``q`` (normalised), ``theta``, ``scale``, the number of iterations used and
        ``converged``.

    Warns
    -----
    RuntimeWarning
        If ``q`` still changes by ``tol`` or more after ``n_iter`` steps (the result is the
        last iterate, marked ``converged=False``).

    Raises
    ------
    ValueError
        If ``p`` is not a distribution, ``alpha`` is not positive, ``family`` is not a
        finite matrix with n rows, ``n_iter`` / ``tol`` is invalid or ``theta0`` has a
        wrong shape.
    """
    p = check.probabilities(p, "p")
    if p.ndim != 1:
        raise ValueError(f"p must be 1-D, got shape {p.shape}")
    alpha = check.positive(alpha, "alpha")
    T = check.matrix(family, "family")
    if T.shape[0] != p.size:
        raise ValueError(f"family must have {p.size} rows, got {T.shape[0]}")
    n_iter, tol = check.count(n_iter, "n_iter"), check.positive(tol, "tol")
    if theta0 is None:
        theta = _moment_match(T, p @ T, np.zeros(T.shape[1]))
    else:
        theta = check.vector(theta0, T.shape[1], "theta0")
    q = np.exp(T @ theta - _lse(T @ theta))
    with np.errstate(divide="ignore"):
        log_p = np.log(p)
    for it in range(1, n_iter + 1):
        log_r = alpha * log_p + (1 - alpha) * np.log(q)
        r = np.exp(log_r - _lse(log_r))
        theta = _moment_match(T, r @ T, theta)
        q_new = np.exp(T @ theta - _lse(T @ theta))
        done = np.max(np.abs(q_new - q)) < tol
        q = q_new
        if done:
            break
    if not done:
        warnings.warn(f"alpha_projection did not converge in n_iter={n_iter} steps; the result is the "
                      "last iterate (converged=False)", RuntimeWarning, stacklevel=2)
    log_s = _lse(alpha * log_p + (1 - alpha) * np.log(q)) / alpha
    return AlphaFit(q, theta, float(np.exp(log_s)), it, bool(done))
