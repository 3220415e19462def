"""Bayesian model comparison: the evidence, its approximations and its maximisation.

Chapter 35. The evidence (marginal likelihood) ``p(D | m) = ∫ p(D | θ, m) p(θ | m) dθ``
in closed form for the Beta–Bernoulli model and for Bayesian linear regression, the
Laplace approximation and the Bayesian information criterion, the gradients of the
linear-regression evidence, MacKay's fixed-point updates for automatic relevance
determination, and the evidence of polynomial models with optimised precisions.

Conventions: data points are the rows of ``X`` (shape ``(n, p)``); the weight prior is
``w ~ N(0, C)`` and the noise ``ε ~ N(0, σ²I)``, so ``y ~ N(0, X C Xᵀ + σ²I)``.
For a single prior precision ``alpha`` (``C = I/alpha``) and a noise precision
``beta = 1/σ²`` the letters are Bishop's; scikit-learn's ``BayesianRidge`` calls
them ``lambda_`` and ``alpha_``.
"""

import warnings
from typing import NamedTuple

import numpy as np
import scipy.linalg
import scipy.special

from mlnotes import _validate as check
from mlnotes.model_selection import polynomial_features

__all__ = [
    "log_evidence_beta_bernoulli",
    "bayes_factor",
    "laplace_log_evidence",
    "bic",
    "linreg_log_evidence",
    "linreg_evidence_grads",
    "ArdResult",
    "mackay_ard",
    "bayesian_ridge_evidence",
    "PolynomialEvidence",
    "polynomial_evidence",
]


# ------------------------------------------------------------- closed forms
def log_evidence_beta_bernoulli(k, n, a, b):
    """Log evidence of a Bernoulli sequence with ``k`` ones in ``n`` under a Beta prior.

    ``log p(x_1, …, x_n) = log B(k + a, n − k + b) − log B(a, b)``: the probability of
    one particular sequence (no binomial coefficient), the ratio of the normalisers of
    the posterior ``Beta(k + a, n − k + b)`` and of the prior ``Beta(a, b)``.

    Parameters
    ----------
    k : array_like of int
        Numbers of ones, ``0 <= k <= n``.
    n : array_like of int
        Sequence lengths, ``n >= 0`` (broadcast with ``k``).
    a, b : float
        Prior parameters (positive).

    Returns
    -------
    float or ndarray
        Broadcast shape of ``k`` and ``n``.

    Raises
    ------
    ValueError
        If ``k`` or ``n`` is not a non-negative integer, ``k > n``, or ``a`` or ``b``
        is not positive.
    """
    k, n = check.finite(k, "k"), check.finite(n, "n")
    if np.any(k < 0) or np.any(k != np.round(k)):
        raise ValueError("k must hold non-negative integers")
    if np.any(n < 0) or np.any(n != np.round(n)):
        raise ValueError("n must hold non-negative integers")
    if np.any(k > n):
        raise ValueError("k must not exceed n")
    a, b = check.positive(a, "a"), check.positive(b, "b")
    out = scipy.special.betaln(k + a, n - k + b) - scipy.special.betaln(a, b)
    return float(out) if np.ndim(out) == 0 else out


def bayes_factor(log_ev_1, log_ev_2):
    """Bayes factor ``p(D | m₁)/p(D | m₂) = exp(log_ev_1 − log_ev_2)``.

    Parameters
    ----------
    log_ev_1, log_ev_2 : float
        Log evidences of the two models (finite).

    Returns
    -------
    float
        The ratio; with equal prior probabilities of the models it is the posterior
        odds ``p(m₁ | D)/p(m₂ | D)``. Overflows to ``inf`` beyond ``e⁷⁰⁹``.

    Raises
    ------
    ValueError
        If an argument is not a finite number.
    """
    l1, l2 = check.number(log_ev_1, "log_ev_1"), check.number(log_ev_2, "log_ev_2")
    with np.errstate(over="ignore"):
        return float(np.exp(l1 - l2))


# ---------------------------------------------------------- approximations
def laplace_log_evidence(log_joint, theta_map, neg_hessian):
    """Laplace approximation of the log evidence around the posterior mode.

    ``log p(D) ≈ log p(D, θ*) + (d/2) log 2π − ½ log|A|`` with
    ``A = −∇² log p(D, θ)`` at the mode ``θ*``: the integral of the Gaussian
    ``exp(−½ δᵀAδ)`` is ``(2π)^{d/2} |A|^{−1/2}``.

    Parameters
    ----------
    log_joint : callable
        ``log_joint(theta)`` returns ``log p(D | θ) + log p(θ)`` (a finite number).
    theta_map : array_like, shape (d,) or scalar
        The posterior mode ``θ*``.
    neg_hessian : array_like, shape (d, d) or scalar
        ``A``, the negative Hessian of ``log_joint`` at ``θ*`` (symmetric positive
        definite).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``log_joint`` is not callable or returns a non-finite value, or ``A`` is not
        a symmetric positive-definite ``(d, d)`` matrix.
    """
    log_joint = check.function(log_joint, "log_joint")
    theta = check.finite(theta_map, "theta_map")
    d = theta.size
    A = np.atleast_2d(check.finite(neg_hessian, "neg_hessian"))
    A, L = check.spd(A, d, "neg_hessian")
    value = float(check.returned(log_joint(theta if theta.ndim else float(theta)),
                                 "log_joint", shape=()))
    log_det = 2 * np.sum(np.log(np.diag(L)))
    return float(value + 0.5 * d * np.log(2 * np.pi) - 0.5 * log_det)


def bic(max_loglik, d, n):
    """Bayesian information criterion ``−2 log p(D | θ̂) + d log n`` (smaller is better).

    ``−BIC/2 = log p(D | θ̂) − (d/2) log n`` keeps the terms of the Laplace log evidence
    that grow with ``n``; it is the convention of statsmodels' ``.bic``.

    Parameters
    ----------
    max_loglik : float
        The maximised log-likelihood.
    d : int
        Number of free parameters (``>= 0``).
    n : int
        Number of data points (``>= 1``).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``max_loglik`` is not finite, ``d`` is not a non-negative integer or ``n``
        not a positive integer.
    """
    ll = check.number(max_loglik, "max_loglik")
    d, n = check.count(d, "d", low=0), check.count(n, "n", low=1)
    return float(-2 * ll + d * np.log(n))


# -------------------------------------------------- linear-regression evidence
def _linreg_inputs(X, y, C, sigma2):
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    C, _ = check.spd(C, X.shape[1], "C")
    return X, y, C, check.positive(sigma2, "sigma2")


def linreg_log_evidence(X, y, C, sigma2):
    """Log evidence ``log N(y; 0, X C Xᵀ + σ²I)`` of Bayesian linear regression.

    The weights ``w ~ N(0, C)`` are integrated out of ``y = Xw + ε``,
    ``ε ~ N(0, σ²I)``. Computed from the Cholesky factor ``L`` of the ``(n, n)``
    covariance ``K``: ``−½‖L⁻¹y‖² − Σ log L_ii − (n/2) log 2π``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix (rows are data points).
    y : array_like, shape (n,)
        Responses.
    C : array_like, shape (p, p)
        Prior covariance of the weights (symmetric positive definite).
    sigma2 : float
        Noise variance (positive).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``C`` is not symmetric positive
        definite or ``sigma2`` is not positive.
    """
    X, y, C, sigma2 = _linreg_inputs(X, y, C, sigma2)
    K = X @ C @ X.T + sigma2 * np.eye(X.shape[0])
    L = np.linalg.cholesky((K + K.T) / 2)
    z = scipy.linalg.solve_triangular(L, y, lower=True)
    return float(-0.5 * z @ z - np.sum(np.log(np.diag(L))) - 0.5 * y.size * np.log(2 * np.pi))


def _posterior(X, y, Cinv, sigma2):
    """Posterior covariance ``Σ_w = (XᵀX/σ² + C⁻¹)⁻¹`` and mean ``Σ_w Xᵀy/σ²``.

    By the QR factorisation ``[X/σ; R_C] = QR`` (``R_CᵀR_C = C⁻¹``), the least-squares
    problem whose normal equations these are: forming ``XᵀX`` would square the
    condition number (a covariate far from 0 loses half the digits)."""
    R_C = np.linalg.cholesky((Cinv + Cinv.T) / 2).T
    s = np.sqrt(sigma2)
    Q, R = np.linalg.qr(np.vstack([X / s, R_C]))
    R_inv = scipy.linalg.solve_triangular(R, np.eye(R.shape[0]))
    Sigma = R_inv @ R_inv.T
    w = R_inv @ (Q[:X.shape[0]].T @ (y / s))
    return (Sigma + Sigma.T) / 2, w


def linreg_evidence_grads(X, y, C, sigma2):
    """Gradients of the linear-regression log evidence with respect to ``C`` and ``σ²``.

    With the posterior ``N(w̄, Σ_w)``, ``Σ_w = (XᵀX/σ² + C⁻¹)⁻¹``, ``w̄ = Σ_w Xᵀy/σ²``:
    ``∂ log E/∂C = ½ C⁻¹(Σ_w + w̄w̄ᵀ − C)C⁻¹`` (so that the derivative along a
    symmetric direction ``D`` is ``tr(G D)``) and
    ``∂ log E/∂σ² = (−n + tr(I − Σ_w C⁻¹) + ‖y − Xw̄‖²/σ²)/(2σ²)``.

    Parameters
    ----------
    X, y, C, sigma2
        As in :func:`linreg_log_evidence`.

    Returns
    -------
    grad_C : ndarray, shape (p, p)
    grad_sigma2 : float

    Raises
    ------
    ValueError
        As :func:`linreg_log_evidence`.
    """
    X, y, C, sigma2 = _linreg_inputs(X, y, C, sigma2)
    Cinv = np.linalg.inv(C)
    Sigma, w = _posterior(X, y, (Cinv + Cinv.T) / 2, sigma2)
    with np.errstate(over="ignore", invalid="ignore"):
        G = 0.5 * Cinv @ (Sigma + np.outer(w, w) - C) @ Cinv
        r = y - X @ w
        gamma = X.shape[1] - np.trace(Sigma @ Cinv)            # tr(I − Σ_w C⁻¹)
        g_s2 = (-y.size + gamma + r @ r / sigma2) / (2 * sigma2)
    if not (np.all(np.isfinite(G)) and np.isfinite(g_s2)):
        raise ValueError("the gradients overflowed: rescale X, y, C or sigma2")
    return (G + G.T) / 2, float(g_s2)


class ArdResult(NamedTuple):
    """Result of :func:`mackay_ard`.

    ``coef`` is the posterior mean ``w̄`` (pruned inputs are 0), ``alpha`` the prior
    precisions ``α_i`` (pruned ones are frozen above ``alpha_max``), ``sigma2`` the noise
    variance, ``gamma`` the numbers ``γ_i = 1 − α_i[Σ_w]_ii`` of well-determined
    parameters, ``alpha_path`` the precisions after each iteration (row 0 = start),
    ``log_evidence`` the log evidence after each iteration.
    """

    coef: np.ndarray
    alpha: np.ndarray
    sigma2: float
    gamma: np.ndarray
    alpha_path: np.ndarray
    log_evidence: np.ndarray
    n_iter: int
    converged: bool

    def __repr__(self):
        return (f"ArdResult(p={self.coef.size}, kept={int(np.sum(self.coef != 0))}, "
                f"n_iter={self.n_iter}, converged={self.converged})")


def _ard_log_evidence(X, y, alpha, sigma2, keep):
    return linreg_log_evidence(X[:, keep], y, np.diag(1 / alpha[keep]), sigma2)


def mackay_ard(X, y, max_iter=1000, tol=1e-10, alpha_max=1e12):
    """Automatic relevance determination by MacKay's fixed-point updates.

    With ``C = diag(1/α)`` and the posterior ``N(w̄, Σ_w)`` of the kept inputs, repeat
    ``γ_i = 1 − α_i[Σ_w]_ii``, ``α_i ← γ_i/w̄_i²``, ``σ² ← ‖y − Xw̄‖²/(n − Σγ_i)``;
    an input whose ``α_i`` exceeds ``alpha_max`` is pruned (its weight is 0). Starts
    from ``α = 1``, ``σ² = var(y)`` like scikit-learn's ``ARDRegression``; stops when
    ``Σ|Δw̄_i| < tol``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix.
    y : array_like, shape (n,)
        Responses.
    max_iter : int
        Maximum number of updates.
    tol : float
        Tolerance on the change of the weights (positive).
    alpha_max : float
        Pruning threshold for the precisions (positive).

    Returns
    -------
    ArdResult

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, or an option is out of range.
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    max_iter = check.count(max_iter, "max_iter")
    tol, alpha_max = check.positive(tol, "tol"), check.positive(alpha_max, "alpha_max")
    n, p = X.shape
    alpha, sigma2 = np.ones(p), float(np.var(y)) + 1e-12
    keep, w = np.ones(p, dtype=bool), np.zeros(p)
    path, logev, converged, it = [alpha.copy()], [], False, 0
    for it in range(1, max_iter + 1):
        Sigma, wk = _posterior(X[:, keep], y, np.diag(alpha[keep]), sigma2)
        w_old, w = w, np.zeros(p)
        w[keep] = wk
        gamma = 1 - alpha[keep] * np.diag(Sigma)
        # γ_i <= 0 (an input the data do not determine at all, e.g. a zero column): prune it
        alpha[keep] = np.where(gamma > 0, gamma / np.maximum(wk**2, 1e-300), np.inf)
        r = y - X @ w
        if n - gamma.sum() <= 0:
            raise ValueError("X: the well-determined parameters use up all n data points "
                             "(n − Σγ_i <= 0), so the noise variance cannot be estimated")
        sigma2 = float(r @ r / (n - gamma.sum()))
        keep = keep & (alpha < alpha_max)
        if not keep.any():
            raise ValueError("y: every input was pruned (alpha_i > alpha_max), so y shows no "
                             "dependence on X that the evidence can detect")
        w[~keep] = 0.0
        path.append(alpha.copy())
        logev.append(_ard_log_evidence(X, y, alpha, sigma2, keep))
        if np.sum(np.abs(w - w_old)) < tol:
            converged = True
            break
    if not converged:
        warnings.warn(f"mackay_ard did not converge in max_iter = {max_iter} updates "
                      f"(result marked converged=False)", RuntimeWarning, stacklevel=2)
    Sigma, wk = _posterior(X[:, keep], y, np.diag(alpha[keep]), sigma2)
    g = np.zeros(p)
    g[keep] = 1 - alpha[keep] * np.diag(Sigma)
    return ArdResult(w, alpha, sigma2, g, np.array(path), np.array(logev), it, converged)


# --------------------------------------------------- one prior precision
def _svd_parts(X, y):
    """Singular values of ``X``, projections ``Uᵀy`` and the residual ``‖y − UUᵀy‖²``."""
    U, s, _ = np.linalg.svd(X, full_matrices=False)
    keep = s > s[0] * 1e-12 if s.size else s > 0
    U, s = U[:, keep], s[keep]
    z = U.T @ y                                       # (r,) or (r, S)
    resid = np.sum((y - U @ z) ** 2, axis=0)          # two-pass: no cancellation far from 0
    return s**2, z, resid


def _log_ev_svd(lam, z, resid, n, alpha, beta):
    """``log N(y; 0, XXᵀ/α + I/β)`` from the SVD parts, broadcasting ``alpha``, ``beta``."""
    alpha, beta = np.asarray(alpha)[..., None], np.asarray(beta)[..., None]
    v = lam / alpha + 1 / beta                        # eigenvalues of the covariance
    log_det = np.sum(np.log(v), axis=-1) - (n - lam.size) * np.log(beta[..., 0])
    quad = np.sum(z**2 / v, axis=-1) + beta[..., 0] * resid
    return -0.5 * (quad + log_det + n * np.log(2 * np.pi))


def bayesian_ridge_evidence(X, y, alpha, beta):
    """Log evidence ``log N(y; 0, XXᵀ/α + I/β)`` for a grid of precisions.

    The weights have the prior ``N(0, I/α)`` and the noise the precision ``β``. One
    SVD ``X = U S Vᵀ`` serves every ``(α, β)``: the covariance has eigenvalues
    ``s_j²/α + 1/β`` on the columns of ``U`` and ``1/β`` on their complement.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix.
    y : array_like, shape (n,)
        Responses.
    alpha : array_like
        Prior precisions of the weights (positive).
    beta : array_like
        Noise precisions (positive), broadcast with ``alpha``.

    Returns
    -------
    float or ndarray
        Broadcast shape of ``alpha`` and ``beta``.

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite or a precision is not positive.
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    alpha, beta = check.positive_entries(alpha, "alpha"), check.positive_entries(beta, "beta")
    try:
        alpha, beta = np.broadcast_arrays(alpha, beta)
    except ValueError:
        raise ValueError("alpha and beta must broadcast to one shape") from None
    lam, z, resid = _svd_parts(X, y)
    out = _log_ev_svd(lam, z, resid, X.shape[0], alpha, beta)
    return float(out) if out.ndim == 0 else out


class PolynomialEvidence(NamedTuple):
    """Result of :func:`polynomial_evidence`: one row per degree.

    ``log_evidence``, ``alpha`` (prior precision) and ``beta`` (noise precision) at the
    maximum of the evidence over ``(α, β)``, and ``train_rss``, the residual sum of
    squares of the least-squares fit. Columns are data sets when ``y`` is 2-D.
    """

    degrees: np.ndarray
    log_evidence: np.ndarray
    alpha: np.ndarray
    beta: np.ndarray
    train_rss: np.ndarray

    def __repr__(self):
        return f"PolynomialEvidence(degrees={self.degrees.tolist()})"


def _optimise_precisions(lam, z, resid, n, n_iter=500):
    """MacKay's updates for one ``α`` and one ``β``, vectorised over data sets.

    Returns the precisions after ``n_iter`` updates and after ``n_iter - 1``."""
    S = z.shape[1:]
    alpha, beta = np.ones(S), 1 / (np.mean(resid) / n + 1e-12) * np.ones(S)
    z2 = z**2                                          # (r, ...) projections squared
    for _ in range(n_iter):
        previous = alpha, beta
        d = beta * lam[:, None] + alpha if z.ndim == 2 else beta * lam + alpha
        lam_b = lam[:, None] if z.ndim == 2 else lam
        gamma = np.sum(beta * lam_b / d, axis=0)
        m2 = np.sum(beta**2 * lam_b * z2 / d**2, axis=0)          # ‖w̄‖²
        rss = np.sum(z2 * (alpha / d) ** 2, axis=0) + resid       # ‖y − Xw̄‖²
        alpha = gamma / np.maximum(m2, 1e-300)
        beta = (n - gamma) / np.maximum(rss, 1e-300)
    return alpha, beta, previous


def polynomial_evidence(x, y, degrees):
    """Maximised log evidence of polynomial regression models of several degrees.

    For each degree the features are ``polynomial_features(x, degree)`` (Chapter 11,
    inputs mapped to ``[−1, 1]``), the weights have the prior ``N(0, I/α)`` and the
    noise the precision ``β``; ``(α, β)`` are set by 500 of MacKay's fixed-point updates
    (type-II maximum likelihood), vectorised over the columns of ``y``.

    Parameters
    ----------
    x : array_like, shape (n,)
        Inputs in ``[0, 1]``.
    y : array_like, shape (n,) or (n, S)
        Responses; the columns of a 2-D ``y`` are data sets sharing the inputs.
    degrees : array_like of int
        Degrees to compare (non-negative, fewer than ``n``).

    Returns
    -------
    PolynomialEvidence

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, or a degree is invalid.
    """
    x = check.finite(x, "x")
    if x.ndim != 1 or x.size < 2:
        raise ValueError("x must be a 1-D array of at least 2 points")
    y = check.finite(y, "y")
    if y.ndim not in (1, 2) or y.shape[0] != x.size:
        raise ValueError(f"y must have shape ({x.size},) or ({x.size}, S)")
    degrees_in = degrees
    degrees = check.finite(degrees, "degrees").ravel()
    if np.asarray(degrees_in).dtype == bool:
        raise ValueError("degrees must be integers, not booleans")
    if degrees.size == 0 or np.any(degrees != np.round(degrees)) or np.any(degrees < 0) \
            or np.any(degrees >= x.size):
        raise ValueError(f"degrees must be integers in [0, {x.size - 1}]")
    degrees = degrees.astype(int)
    out = np.zeros((4, degrees.size) + y.shape[1:])
    for j, deg in enumerate(degrees):
        lam, z, resid = _svd_parts(polynomial_features(x, deg), y)
        if lam.size < x.size and np.any(resid <= 1e-20 * np.sum(y**2, axis=0)):
            raise ValueError(f"y is fitted exactly (to rounding) by degree {deg}: the evidence grows "
                             f"without bound as the noise precision beta -> inf")
        alpha, beta, (alpha_0, beta_0) = _optimise_precisions(lam, z, resid, x.size)
        zz = z.T if z.ndim == 2 else z
        log_ev = _log_ev_svd(lam, zz, resid, x.size, alpha, beta)
        if np.any(np.abs(log_ev - _log_ev_svd(lam, zz, resid, x.size, alpha_0, beta_0))
                  > 1e-8 * (1 + np.abs(log_ev))):
            raise ValueError(f"degrees: the evidence maximisation for degree {deg} did not converge "
                             f"in 500 updates")
        out[:, j] = [log_ev, alpha, beta, resid]
    return PolynomialEvidence(degrees, *out)
