"""Latent variable models: PCA, probabilistic PCA, factor analysis and canonical correlation.

Chapter 19 of the book. Data points are the rows of ``X`` (shape ``(n, d)``); every
sample covariance here uses the divisor ``n`` (the maximum-likelihood convention), while
scikit-learn's ``PCA.explained_variance_`` uses ``n - 1``.
"""
from dataclasses import dataclass

import numpy as np

from mlnotes import _validate as check

__all__ = ["PCAResult", "PPCAResult", "FAResult", "CCAResult", "sample_covariance", "pca",
           "gaussian_loglik", "ppca_ml", "latent_posterior", "factor_analysis_em", "cca"]


def _n_components(q, d, name="q"):
    q = check.count(q, name)
    if q > d:
        raise ValueError(f"{name} must be at most the dimension {d}, got {q}")
    return q


def sample_covariance(X):
    """Mean and covariance ``S = (1/n) Σ (x_i - x̄)(x_i - x̄)ᵀ`` of the rows of ``X``.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data, one point per row.

    Returns
    -------
    mean : ndarray, shape (d,)
    S : ndarray, shape (d, d)
        Sample covariance with divisor ``n``.

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array, or so large that ``S`` overflows.
    """
    X = check.matrix(X)
    mean = X.mean(axis=0)
    Xc = X - mean
    with np.errstate(over="ignore", invalid="ignore"):    # overflow is reported below
        S = Xc.T @ Xc / X.shape[0]
    if not (np.all(np.isfinite(mean)) and np.all(np.isfinite(S))):
        raise ValueError("X is too large: its sample covariance overflows; rescale X")
    return mean, S


def _eigh_descending(S):
    lam, U = np.linalg.eigh(S)
    return lam[::-1], U[:, ::-1]


@dataclass(frozen=True, repr=False)
class PCAResult:
    """Principal directions (rows of ``components``), their variances and the data mean."""

    components: np.ndarray
    explained_variance: np.ndarray
    eigenvalues: np.ndarray
    mean: np.ndarray

    def transform(self, X):
        """Coordinates ``z_ij = u_jᵀ(x_i - x̄)`` of the rows of ``X`` (shape (n, d), d as in the fit)."""
        return (check.matrix_with_columns(X, self.mean.size) - self.mean) @ self.components.T

    def __repr__(self):
        d = self.mean.size
        return f"PCAResult(q={self.components.shape[0]}, d={d})"


def pca(X, q):
    """Principal component analysis: the top-``q`` eigenvectors of the sample covariance.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data, one point per row.
    q : int
        Number of components, ``1 <= q <= d``.

    Returns
    -------
    PCAResult
        ``components`` (q, d) orthonormal rows ``u_1, ..., u_q`` in order of decreasing
        variance, ``explained_variance`` their eigenvalues ``λ_j`` (divisor n),
        ``eigenvalues`` all d eigenvalues and ``mean`` the sample mean.

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array or ``q`` is not an integer in [1, d].
    """
    mean, S = sample_covariance(X)
    q = _n_components(q, S.shape[0])
    lam, U = _eigh_descending(S)
    U = U * np.where(U[np.abs(U).argmax(axis=0), np.arange(U.shape[1])] < 0, -1.0, 1.0)
    return PCAResult(components=U[:, :q].T, explained_variance=lam[:q],
                     eigenvalues=lam, mean=mean)


def gaussian_loglik(X, mean, C):
    """Average log-density ``(1/n) Σ log N(x_i | mean, C)`` of the rows of ``X``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    mean : array_like, shape (d,)
    C : array_like, shape (d, d)
        Symmetric positive definite covariance.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On bad shapes, non-finite values, or a ``C`` that is not positive definite.
    """
    X = check.matrix(X)
    mean = check.vector(mean, X.shape[1], "mean")
    C, L = check.spd(C, X.shape[1], "C")
    R = np.linalg.solve(L, (X - mean).T)            # whitened residuals, shape (d, n)
    logdet = 2.0 * np.log(np.diag(L)).sum()
    d = X.shape[1]
    return float(-0.5 * (d * np.log(2 * np.pi) + logdet + np.mean(np.sum(R**2, axis=0))))


@dataclass(frozen=True, repr=False)
class PPCAResult:
    """Maximum-likelihood probabilistic PCA: ``x ~ N(mean, W Wᵀ + sigma2 I)``."""

    W: np.ndarray
    sigma2: float
    mean: np.ndarray
    loglik: float

    @property
    def covariance(self):
        """The model covariance ``C = W Wᵀ + σ² I``."""
        return self.W @ self.W.T + self.sigma2 * np.eye(self.W.shape[0])

    def __repr__(self):
        d, q = self.W.shape
        return f"PPCAResult(q={q}, d={d}, sigma2={self.sigma2:.4g})"


def ppca_ml(X, q, R=None):
    """Closed-form maximum-likelihood probabilistic PCA (Tipping and Bishop).

    ``W = U_q (Λ_q - σ² I)^{1/2} R`` and ``σ² = (1/(d-q)) Σ_{j>q} λ_j``, where
    ``λ_1 >= ... >= λ_d`` are the eigenvalues of the sample covariance (divisor n).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data, one point per row.
    q : int
        Latent dimension, ``1 <= q < d``.
    R : array_like, shape (q, q), optional
        Orthogonal matrix (any choice gives the same likelihood); default the identity.

    Returns
    -------
    PPCAResult
        ``W`` (d, q), ``sigma2``, ``mean`` and ``loglik``, the average log-likelihood
        ``(1/n) Σ log N(x_i | mean, W Wᵀ + σ² I)``.

    Raises
    ------
    ValueError
        If ``X`` is not finite 2-D, ``q`` is not in [1, d-1], ``R`` is not orthogonal,
        or the discarded eigenvalues are all zero up to rounding (then ``σ² = 0``), as for
        data of rank at most ``q``. The computed zero eigenvalues of a singular ``S`` are
        rounding noise of either sign, of order ``ε·λ_1`` (ε the machine epsilon), so a
        ``σ² <= max(d, √n)·ε·λ_1`` counts as zero: ``d·ε·λ_1`` is numpy's ``matrix_rank``
        tolerance for the eigensolver, ``√n·ε·λ_1`` the typical rounding error of ``S``,
        a sum over the n points.
    """
    X = check.matrix(X)
    mean, S = sample_covariance(X)
    n, d = X.shape
    q = _n_components(q, d - 1)
    R = np.eye(q) if R is None else check.square(R, "R")
    if R.shape != (q, q) or not np.allclose(R.T @ R, np.eye(q), atol=1e-10):
        raise ValueError(f"R must be an orthogonal matrix of shape ({q}, {q})")
    lam, U = _eigh_descending(S)
    sigma2 = float(lam[q:].mean())
    # zero up to rounding (see Raises), not just an exact zero
    if sigma2 <= max(d, np.sqrt(n)) * np.finfo(float).eps * max(lam[0], np.finfo(float).tiny):
        raise ValueError("X: the discarded eigenvalues are zero up to rounding, so sigma2 = 0; "
                         "choose a smaller q")
    W = U[:, :q] * np.sqrt(np.maximum(lam[:q] - sigma2, 0.0)) @ R
    loglik = gaussian_loglik(X, mean, W @ W.T + sigma2 * np.eye(d))
    return PPCAResult(W=W, sigma2=sigma2, mean=mean, loglik=loglik)


def latent_posterior(X, W, psi, mean):
    """Posterior ``p(z | x) = N(M⁻¹ Wᵀ Ψ⁻¹ (x - μ), M⁻¹)`` with ``M = I + Wᵀ Ψ⁻¹ W``.

    Covers PPCA (``psi`` constant) and factor analysis (``psi`` the diagonal of Ψ).

    Parameters
    ----------
    X : array_like, shape (n, d)
    W : array_like, shape (d, q)
        Loadings.
    psi : array_like, shape (d,)
        Positive noise variances (the diagonal of Ψ).
    mean : array_like, shape (d,)

    Returns
    -------
    Ez : ndarray, shape (n, q)
        Posterior means, one row per data point.
    cov : ndarray, shape (q, q)
        Posterior covariance (the same for every point).

    Raises
    ------
    ValueError
        On bad shapes, non-finite values, non-positive ``psi``, or a result that overflows to NaN.
    """
    X = check.matrix(X)
    d = X.shape[1]
    W = check.matrix(W, "W")
    if W.shape[0] != d:
        raise ValueError(f"W must have {d} rows, got shape {W.shape}")
    psi = check.positive_entries(check.vector(psi, d, "psi"), "psi")
    mean = check.vector(mean, d, "mean")
    Wp = W / psi[:, None]                                # Ψ⁻¹ W
    with np.errstate(all="ignore"):                      # overflow is reported below
        cov = np.linalg.inv(np.eye(W.shape[1]) + W.T @ Wp)   # M⁻¹
        Ez = (X - mean) @ Wp @ cov
    return check.no_nan_result(Ez, "X, W and psi"), check.no_nan_result(cov, "W and psi")


def _loglik_from_S(S, C, t):
    """Average Gaussian log-likelihood -½[d log 2π + log|C| + tr(C⁻¹ S)] at the sample mean
    (``t``: the EM iteration, for the message if ``C`` is no longer positive definite)."""
    try:
        L = np.linalg.cholesky(C)
    except np.linalg.LinAlgError:
        raise ValueError(f"factor analysis EM diverged at iteration {t}: the model covariance is no "
                         "longer positive definite; choose a smaller q or rescale X") from None
    Li = np.linalg.solve(L, np.eye(C.shape[0]))
    return float(-0.5 * (C.shape[0] * np.log(2 * np.pi) + 2 * np.log(np.diag(L)).sum()
                         + np.sum((Li @ S) * Li)))


@dataclass(frozen=True, repr=False)
class FAResult:
    """Factor-analysis fit ``x ~ N(mean, W Wᵀ + diag(psi))`` and its EM trace."""

    W: np.ndarray
    psi: np.ndarray
    mean: np.ndarray
    history: np.ndarray
    n_iter: int
    converged: bool

    @property
    def covariance(self):
        """The model covariance ``W Wᵀ + diag(ψ)``."""
        return self.W @ self.W.T + np.diag(self.psi)

    def __repr__(self):
        d, q = self.W.shape
        return (f"FAResult(q={q}, d={d}, n_iter={self.n_iter}, converged={self.converged}, "
                f"loglik={self.history[-1]:.4f})")


def factor_analysis_em(X, q, tol=1e-8, max_iter=1000):
    """Maximum-likelihood factor analysis by the EM algorithm of Rubin and Thayer.

    With ``C = W Wᵀ + Ψ``, ``β = Wᵀ C⁻¹`` and ``G = I - βW + β S βᵀ`` (the average of
    ``E[z zᵀ | x_i]``), one iteration is ``W ← S βᵀ G⁻¹`` and ``Ψ ← diag(S - W β S)``.
    Starts from the PCA loadings ``U_q Λ_q^{1/2}`` and ``Ψ = diag(S)``.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data, one point per row.
    q : int
        Number of factors, ``1 <= q < d``.
    tol : float
        Stop when the average log-likelihood rises by less than ``tol``.
    max_iter : int
        Iteration limit.

    Returns
    -------
    FAResult
        ``W``, ``psi``, ``mean``; ``history`` the average log-likelihood of every
        iterate, starting at the initial value.

    Raises
    ------
    ValueError
        If ``X`` is not finite 2-D, a feature is constant (its variance is zero up to
        rounding: at most ``(n·ε·max_i |x_ij|)²``, the size the rounding error of the mean
        of n equal numbers gives it), ``q`` is not in [1, d-1], ``tol`` is not positive or
        ``max_iter`` is not a positive integer; or if the iterates diverge (non-finite
        log-likelihood).
    """
    X = check.matrix(X)
    mean, S = sample_covariance(X)
    n, d = X.shape
    q = _n_components(q, d - 1)
    tol, max_iter = check.positive(tol, "tol"), check.count(max_iter, "max_iter")
    # a constant column's variance is (rounded x̄ - x)², up to (n·ε·|x|)², not exactly zero
    if np.any(np.diag(S) <= (n * np.finfo(float).eps) ** 2 * np.max(X**2, axis=0)):
        raise ValueError("X must have no constant feature (a column with zero variance)")
    lam, U = _eigh_descending(S)
    W, psi = U[:, :q] * np.sqrt(lam[:q]), np.diag(S).copy()
    history = [_loglik_from_S(S, W @ W.T + np.diag(psi), 0)]
    converged = False
    for _ in range(max_iter):
        beta = np.linalg.solve(W @ W.T + np.diag(psi), W).T          # Wᵀ C⁻¹, (q, d)
        G = np.eye(q) - beta @ W + beta @ S @ beta.T                 # (1/n) Σ E[z zᵀ | x_i]
        W = np.linalg.solve(G, beta @ S).T                           # S βᵀ G⁻¹
        psi = np.maximum(np.diag(S) - np.sum(W * (S @ beta.T), axis=1), 1e-12)
        history.append(_loglik_from_S(S, W @ W.T + np.diag(psi), len(history)))
        if not np.isfinite(history[-1]):
            raise ValueError(f"factor analysis EM diverged at iteration {len(history) - 1}: the "
                             "log-likelihood is not finite; choose a smaller q or rescale X")
        if history[-1] - history[-2] < tol:
            converged = True
            break
    return FAResult(W=W, psi=psi, mean=mean, history=np.array(history),
                    n_iter=len(history) - 1, converged=converged)


@dataclass(frozen=True, repr=False)
class CCAResult:
    """Canonical correlations and the canonical directions ``a_j`` (columns of A), ``b_j`` (of B)."""

    correlations: np.ndarray
    A: np.ndarray
    B: np.ndarray
    mean_x: np.ndarray
    mean_y: np.ndarray

    def transform(self, X, Y):
        """Canonical variates ``(X - x̄) A`` and ``(Y - ȳ) B`` (``X`` (n, p), ``Y`` (m, r), p and r as in the fit)."""
        X, Y = check.matrix_with_columns(X, self.mean_x.size), check.matrix_with_columns(Y, self.mean_y.size, "Y")
        return (X - self.mean_x) @ self.A, (Y - self.mean_y) @ self.B

    def __repr__(self):
        return f"CCAResult(k={self.correlations.size}, rho_1={self.correlations[0]:.4f})"


def _inv_sqrt(S, name):
    lam, U = np.linalg.eigh(S)
    if lam[0] <= 1e-12 * max(lam[-1], 1.0):
        raise ValueError(f"{name} must have a non-singular sample covariance")
    return (U / np.sqrt(lam)) @ U.T


def cca(X, Y, k=1):
    """Canonical correlation analysis via the SVD of ``S_xx^{-1/2} S_xy S_yy^{-1/2}``.

    Parameters
    ----------
    X : array_like, shape (n, p)
    Y : array_like, shape (n, r)
        Two views of the same n points.
    k : int
        Number of canonical pairs, ``1 <= k <= min(p, r)``.

    Returns
    -------
    CCAResult
        ``correlations`` ρ_1 >= ... >= ρ_k, and directions ``A`` (p, k), ``B`` (r, k)
        scaled so that every canonical variate has unit sample variance.

    Raises
    ------
    ValueError
        On bad shapes, non-finite values, a singular covariance of ``X`` or ``Y``,
        or ``k`` out of range.
    """
    X, Y = check.matrix(X), check.matrix(Y, "Y")
    if Y.shape[0] != X.shape[0]:
        raise ValueError(f"Y must have {X.shape[0]} rows like X, got {Y.shape[0]}")
    p = X.shape[1]
    k = _n_components(k, min(p, Y.shape[1]), "k")
    try:
        mean, S = sample_covariance(np.hstack([X, Y]))
    except ValueError:
        raise ValueError("X and Y are too large: their sample covariance overflows; rescale X and Y") from None
    Kx, Ky = _inv_sqrt(S[:p, :p], "X"), _inv_sqrt(S[p:, p:], "Y")
    P, rho, Qt = np.linalg.svd(Kx @ S[:p, p:] @ Ky)
    return CCAResult(correlations=rho[:k], A=Kx @ P[:, :k], B=Ky @ Qt[:k].T,
                     mean_x=mean[:p], mean_y=mean[p:])
