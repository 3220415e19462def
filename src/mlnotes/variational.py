"""Variational methods (chapter 21): the ELBO, score-function and reparameterisation
gradients, black-box VI, the importance-weighted bound and normalising flows.

Conventions. The variational family is a diagonal Gaussian ``q = N(m, diag(s²))`` on
``R^d``; a draw is ``z = m + s ε`` with ``ε ~ N(0, I)``, and the functions take the
standard normal draws ``eps`` (shape ``(..., S, d)``: any leading batch axes, then ``S``
samples) so that several estimators can share the same random numbers. ``log_joint``
maps an array ``z`` of shape ``(..., d)`` to ``log p(x, z)`` of shape ``(...)``.
Logarithms are natural.
"""
import numpy as np

from mlnotes import _validate as check

__all__ = [
    "gaussian_entropy", "elbo", "score_gradient", "reparam_gradient", "log_weights",
    "iwae_bound", "bbvi_gaussian", "planar_flow", "radial_flow",
]


def _gaussian(m, s, eps):
    """Validate ``m``, ``s`` (shape (d,), scalars allowed) and ``eps`` (shape (..., S, d))."""
    m = check.vector(np.atleast_1d(np.asarray(m, dtype=float)), None, "m")
    s = check.vector(np.atleast_1d(np.asarray(s, dtype=float)), m.shape[0], "s")
    if np.any(s <= 0):
        raise ValueError("s must be positive")
    eps = check.finite(eps, "eps")
    if eps.ndim < 2 or eps.shape[-1] != m.shape[0] or eps.shape[-2] == 0:
        raise ValueError(f"eps must have shape (..., S, {m.shape[0]}) with S >= 1, got {eps.shape}")
    return m, s, eps


def _call(fn, z, name):
    """Evaluate a user function on ``z`` and check that it returns finite values of shape ``z.shape[:-1]``."""
    if not callable(fn):
        raise ValueError(f"{name} must be callable")
    out = np.asarray(fn(z), dtype=float)
    if out.shape != z.shape[:-1] or not np.all(np.isfinite(out)):
        raise ValueError(f"{name} must return finite values of shape {z.shape[:-1]}, got {out.shape}")
    return out


def _call_grad(fn, z, name):
    """Evaluate a gradient function on ``z``; it must return finite values of the shape of ``z``."""
    if not callable(fn):
        raise ValueError(f"{name} must be callable")
    out = np.asarray(fn(z), dtype=float)
    if out.shape != z.shape or not np.all(np.isfinite(out)):
        raise ValueError(f"{name} must return finite values of shape {z.shape}, got {out.shape}")
    return out


def gaussian_entropy(s):
    """Entropy ``Σ_j ½ log(2πe s_j²)`` of ``N(m, diag(s²))`` in nats.

    Parameters
    ----------
    s : float or array_like, shape (d,)
        Standard deviations (positive).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``s`` is not finite and positive.
    """
    s = check.vector(np.atleast_1d(np.asarray(s, dtype=float)), None, "s")
    if np.any(s <= 0):
        raise ValueError("s must be positive")
    return float(np.sum(0.5 * np.log(2 * np.pi * np.e * s**2)))


def elbo(log_joint, m, s, eps):
    """Monte Carlo ELBO ``mean_s log p(x, m + s ε_s) + H[q]`` for ``q = N(m, diag(s²))``.

    The entropy of the Gaussian is used in closed form; only ``E_q log p(x, z)`` is sampled.

    Parameters
    ----------
    log_joint : callable
        ``z`` of shape (..., d) ↦ ``log p(x, z)`` of shape (...).
    m, s : float or array_like, shape (d,)
        Mean and standard deviations (positive) of ``q``.
    eps : array_like, shape (..., S, d)
        Standard normal draws.

    Returns
    -------
    ndarray, shape (...)
        One estimate per leading index (a 0-d array when ``eps`` is (S, d)).

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``s`` is not positive, or
        ``log_joint`` does not return finite values of shape (..., S).
    """
    m, s, eps = _gaussian(m, s, eps)
    return _call(log_joint, m + s * eps, "log_joint").mean(axis=-1) + gaussian_entropy(s)


def score_gradient(log_joint, m, s, eps):
    """Score-function estimate of ``∇_{m,s} ELBO``: ``mean_s ∇ log q(z_s) [log p(x, z_s) - log q(z_s)]``.

    For ``q = N(m, diag(s²))`` the scores are ``∇_m log q = ε/s`` and
    ``∇_s log q = (ε² - 1)/s``. Only values of ``log p`` are needed.

    Parameters
    ----------
    log_joint : callable
        ``z`` of shape (..., d) ↦ ``log p(x, z)`` of shape (...).
    m, s : float or array_like, shape (d,)
        Mean and standard deviations (positive) of ``q``.
    eps : array_like, shape (..., S, d)
        Standard normal draws; ``z = m + s ε``.

    Returns
    -------
    ndarray, shape (..., 2, d)
        ``[..., 0, :]`` estimates ``∇_m``, ``[..., 1, :]`` estimates ``∇_s``.

    Raises
    ------
    ValueError
        As :func:`elbo`.
    """
    m, s, eps = _gaussian(m, s, eps)
    z = m + s * eps
    log_q = np.sum(-0.5 * eps**2 - np.log(s) - 0.5 * np.log(2 * np.pi), axis=-1)
    weight = (_call(log_joint, z, "log_joint") - log_q)[..., None]
    grad_m = np.mean(eps / s * weight, axis=-2)
    grad_s = np.mean((eps**2 - 1) / s * weight, axis=-2)
    return np.stack([grad_m, grad_s], axis=-2)


def reparam_gradient(grad_log_joint, m, s, eps):
    """Reparameterisation estimate of ``∇_{m,s} ELBO`` through ``z = m + s ε``.

    ``∇_m = mean_s g(z_s)`` and ``∇_s = mean_s ε_s g(z_s) + 1/s``, where
    ``g = ∇_z log p(x, z)`` and ``1/s`` is the exact gradient of the entropy.

    Parameters
    ----------
    grad_log_joint : callable
        ``z`` of shape (..., d) ↦ ``∇_z log p(x, z)`` of the same shape.
    m, s : float or array_like, shape (d,)
        Mean and standard deviations (positive) of ``q``.
    eps : array_like, shape (..., S, d)
        Standard normal draws.

    Returns
    -------
    ndarray, shape (..., 2, d)
        ``[..., 0, :]`` estimates ``∇_m``, ``[..., 1, :]`` estimates ``∇_s``.

    Raises
    ------
    ValueError
        As :func:`elbo`, with ``grad_log_joint`` returning the shape of ``z``.
    """
    m, s, eps = _gaussian(m, s, eps)
    g = _call_grad(grad_log_joint, m + s * eps, "grad_log_joint")
    return np.stack([g.mean(axis=-2), (eps * g).mean(axis=-2) + 1 / s], axis=-2)


def log_weights(log_joint, m, s, eps):
    """Log importance weights ``log p(x, z) - log q(z)`` at ``z = m + s ε`` (shape ``eps.shape[:-1]``).

    Parameters
    ----------
    log_joint : callable
        ``z`` of shape (..., d) ↦ ``log p(x, z)`` of shape (...).
    m, s : float or array_like, shape (d,)
        Mean and standard deviations (positive) of ``q``.
    eps : array_like, shape (..., K, d)
        Standard normal draws.

    Returns
    -------
    ndarray, shape (..., K)

    Raises
    ------
    ValueError
        As :func:`elbo`.
    """
    m, s, eps = _gaussian(m, s, eps)
    log_q = np.sum(-0.5 * eps**2 - np.log(s) - 0.5 * np.log(2 * np.pi), axis=-1)
    return _call(log_joint, m + s * eps, "log_joint") - log_q


def iwae_bound(log_w):
    """Importance-weighted estimate ``log (1/K) Σ_k w_k`` along the last axis (log-sum-exp).

    Its expectation over ``K`` independent draws from ``q`` is the IWAE bound ``L_K``;
    ``L_1`` is the ELBO and ``L_K ≤ L_{2K} ≤ log p(x)``. Average the rows for a Monte
    Carlo estimate of ``L_K``.

    Parameters
    ----------
    log_w : array_like, shape (..., K)
        Log importance weights (see :func:`log_weights`).

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        If ``log_w`` is not finite or has no samples along the last axis.
    """
    log_w = check.finite(log_w, "log_w")
    if log_w.ndim == 0 or log_w.shape[-1] == 0:
        raise ValueError(f"log_w must have at least one sample along its last axis, got {log_w.shape}")
    top = log_w.max(axis=-1, keepdims=True)
    return np.log(np.mean(np.exp(log_w - top), axis=-1)) + top[..., 0]


def bbvi_gaussian(grad_log_joint, m0, s0, n_iter, n_samples, rng, lr=0.1):
    """Black-box VI: stochastic gradient ascent on the ELBO for ``q = N(m, diag(s²))``.

    Each step draws ``n_samples`` values of ``ε``, forms :func:`reparam_gradient`, and
    updates ``m`` and ``log s`` with the Robbins–Monro step ``lr / (1 + t)^0.6``
    (``Σ η_t = ∞``, ``Σ η_t² < ∞``); the gradient in ``log s`` is ``s ∇_s``.

    Parameters
    ----------
    grad_log_joint : callable
        ``z`` of shape (..., d) ↦ ``∇_z log p(x, z)``.
    m0, s0 : float or array_like, shape (d,)
        Starting mean and standard deviations (positive).
    n_iter, n_samples : int
        Number of steps and Monte Carlo samples per step (at least 1).
    rng : numpy.random.Generator
        Source of the draws.
    lr : float, optional
        Initial step size (positive).

    Returns
    -------
    m_path, s_path : ndarray, shape (n_iter + 1, d)
        The iterates, starting with ``m0`` and ``s0``.

    Raises
    ------
    ValueError
        If an argument is invalid.
    """
    m, s, _ = _gaussian(m0, s0, np.zeros((1, np.atleast_1d(m0).shape[0])))
    n_iter, n_samples = check.count(n_iter, "n_iter"), check.count(n_samples, "n_samples")
    rng, lr = check.generator(rng), check.positive(lr, "lr")
    m_path, s_path = [m], [s]
    for t in range(n_iter):
        g = reparam_gradient(grad_log_joint, m, s, rng.standard_normal((n_samples, m.shape[0])))
        step = lr / (1 + t) ** 0.6
        m = m + step * g[0]
        s = s * np.exp(step * s * g[1])
        m_path.append(m)
        s_path.append(s)
    return np.array(m_path), np.array(s_path)


def _points(z, d=None):
    """``z`` as a finite array of shape (..., d) with d >= 1."""
    z = check.finite(z, "z")
    if z.ndim == 0 or z.shape[-1] == 0 or (d is not None and z.shape[-1] != d):
        raise ValueError(f"z must have shape (..., {d if d is not None else 'd'}), got {z.shape}")
    return z


def _softplus(a):
    return np.logaddexp(0.0, a)


def planar_flow(z, u, w, b):
    """Planar flow ``f(z) = z + û tanh(wᵀz + b)`` and ``log|det ∂f/∂z| = log|1 + ûᵀψ(z)|``.

    ``ψ(z) = (1 - tanh²(wᵀz + b)) w``. To keep ``f`` invertible, ``u`` is replaced by
    ``û = u + (-1 + softplus(wᵀu) - wᵀu) w / ‖w‖²``, so that ``wᵀû = -1 + softplus(wᵀu) > -1``
    (Rezende and Mohamed, 2015, appendix A).

    Parameters
    ----------
    z : array_like, shape (..., d)
        Points.
    u, w : array_like, shape (d,)
        Flow parameters (``w`` non-zero).
    b : float
        Offset.

    Returns
    -------
    fz : ndarray, shape (..., d)
    log_det : ndarray, shape (...)

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite or ``w`` is zero.
    """
    z = _points(z)
    u, w = check.vector(u, z.shape[-1], "u"), check.vector(w, z.shape[-1], "w")
    b = check.number(b, "b")
    if not np.any(w):
        raise ValueError("w must be non-zero")
    wu = w @ u
    u_hat = u + (-1 + _softplus(wu) - wu) * w / (w @ w)
    a = np.tanh(z @ w + b)
    log_det = np.log(np.abs(1 + (1 - a**2) * (w @ u_hat)))
    return z + a[..., None] * u_hat, log_det


def radial_flow(z, z0, alpha, beta):
    """Radial flow ``f(z) = z + β̂ h(r) (z - z0)``, ``h = 1/(α + r)``, ``r = ‖z - z0‖``, with its log-determinant.

    ``log det ∂f/∂z = (d - 1) log(1 + β̂h) + log(1 + β̂h + β̂h'(r) r)``, ``h' = -1/(α + r)²``.
    To keep ``f`` invertible, ``β`` is replaced by ``β̂ = -α + softplus(β) > -α``
    (Rezende and Mohamed, 2015, appendix A).

    Parameters
    ----------
    z : array_like, shape (..., d)
        Points.
    z0 : array_like, shape (d,)
        Centre.
    alpha : float
        Positive scale.
    beta : float
        Unconstrained strength (positive ``β̂`` pushes points out, negative pulls in).

    Returns
    -------
    fz : ndarray, shape (..., d)
    log_det : ndarray, shape (...)

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite or ``alpha`` is not positive.
    """
    z = _points(z)
    z0 = check.vector(z0, z.shape[-1], "z0")
    alpha, beta = check.positive(alpha, "alpha"), check.number(beta, "beta")
    beta_hat = -alpha + _softplus(beta)
    diff = z - z0
    r = np.linalg.norm(diff, axis=-1)
    h = 1 / (alpha + r)
    bh = beta_hat * h
    log_det = (z.shape[-1] - 1) * np.log1p(bh) + np.log1p(bh - beta_hat * h**2 * r)
    return z + bh[..., None] * diff, log_det
