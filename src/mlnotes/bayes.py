"""Sparsity, Bayesian linear regression and Gaussian processes (chapter 09).

Conventions. Data points are the rows of ``X``, and no function adds an intercept
(centre ``X`` and ``y`` first). The lasso minimises ``½‖y − Xβ‖² + λ‖β‖₁``;
scikit-learn's ``Lasso`` and ``lasso_path`` minimise ``(1/2n)‖y − Xβ‖² + α‖β‖₁``,
so ``α = λ / n``. ``sigma`` is the standard deviation of the noise and ``tau``
that of the prior, so the variances in the formulas are ``sigma**2`` and
``tau**2``. The Gaussian-process functions use the squared-exponential
covariance ``k(x, x') = tau² exp(−‖x − x'‖² / (2 ell²))`` unless a callable
``kernel(A, B)`` is given: it must return the Gram matrix ``[k(a_i, b_j)]`` of
the rows of ``A`` and ``B``, and then ``ell`` and ``tau`` are not used.
"""
from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.spatial.distance

from mlnotes import _validate as check

__all__ = [
    "soft_threshold", "LassoFit", "lasso_cd", "LassoPath", "lasso_path",
    "bayes_linear_posterior", "gp_posterior", "gp_log_marginal_likelihood",
]


# ----------------------------------------------------------------------- lasso
def soft_threshold(z, t):
    """Soft thresholding ``S(z, t) = sign(z) max(|z| − t, 0)``, elementwise.

    ``S(z, t)`` is the minimiser over ``b`` of ``½(b − z)² + t|b|``: it sets
    ``z`` to zero when ``|z| ≤ t`` and otherwise moves it ``t`` towards zero.

    Parameters
    ----------
    z : array_like
        Values to threshold (finite).
    t : float or array_like
        Thresholds, non-negative, broadcastable against ``z``.

    Returns
    -------
    ndarray or float
        Same shape as ``z`` broadcast against ``t``.

    Raises
    ------
    ValueError
        If ``z`` or ``t`` is not finite, some ``t`` is negative, or ``t`` does not
        broadcast against ``z``.
    """
    z = check.finite(z, "z")
    t = check.finite(t, "t")
    if np.any(t < 0):
        raise ValueError("t must be non-negative")
    try:
        np.broadcast_shapes(z.shape, t.shape)
    except ValueError:
        raise ValueError(f"t of shape {t.shape} does not broadcast against z of shape {z.shape}") from None
    return np.sign(z) * np.maximum(np.abs(z) - t, 0.0)


@dataclass(frozen=True, repr=False)
class LassoFit:
    """A lasso solution from :func:`lasso_cd`.

    Attributes
    ----------
    beta : ndarray, shape (p,)
        The coefficients.
    lam : float
        The penalty ``λ``.
    n_sweeps : int
        Number of passes through the ``p`` coordinates.
    converged : bool
        Whether the last sweep moved no coefficient by more than the tolerance.
    """

    beta: np.ndarray
    lam: float
    n_sweeps: int
    converged: bool

    def __repr__(self):
        nonzero = np.count_nonzero(self.beta)
        return (f"LassoFit(lam={self.lam:.4g}, nonzero={nonzero}, "
                f"n_sweeps={self.n_sweeps}, converged={self.converged})")


def lasso_cd(X, y, lam, beta0=None, tol=1e-10, max_sweeps=10_000):
    """Lasso ``min ½‖y − Xβ‖² + λ‖β‖₁`` by cyclic coordinate descent.

    Each update minimises exactly over one coordinate: with the partial
    residual ``r_j = y − Σ_{k≠j} x_k β_k``, it sets
    ``β_j = S(x_jᵀr_j, λ) / ‖x_j‖²``, the threshold ``λ`` being divided by the
    norm of column ``j`` itself. The residual ``r = y − Xβ`` is kept up to date,
    so an update costs O(n). Sweeps repeat until nothing moves (see ``tol``).

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix (no intercept is added). A zero column gets ``β_j = 0``.
    y : array_like, shape (n,)
        Responses.
    lam : float
        Penalty ``λ ≥ 0`` (``λ = 0`` is least squares).
    beta0 : array_like, shape (p,), optional
        Starting point (a warm start); default zero.
    tol : float
        Stop after a sweep in which every change satisfies
        ``‖x_j‖ |Δβ_j| ≤ tol ‖y‖`` (the change of the fit, relative to y).
    max_sweeps : int
        Limit on the number of sweeps.

    Returns
    -------
    LassoFit

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``lam`` is negative, or
        ``tol`` or ``max_sweeps`` is not positive.
    """
    X = check.matrix(X)
    n, p = X.shape
    y = check.vector(y, n, "y")
    lam = check.nonnegative(lam, "lam")
    beta = np.zeros(p) if beta0 is None else check.vector(beta0, p, "beta0").copy()
    tol = check.positive(tol, "tol")
    max_sweeps = check.count(max_sweeps, "max_sweeps")
    cols = np.ascontiguousarray(X.T)            # column j of X is cols[j]
    sq = np.einsum("ij,ij->i", cols, cols)      # ‖x_j‖²
    active = np.flatnonzero(sq > 0)
    beta[sq == 0] = 0.0
    r = y - X @ beta                            # full residual y − Xβ
    stop = tol * np.linalg.norm(y)
    for sweep in range(1, max_sweeps + 1):
        largest = 0.0
        for j in active:
            rho = cols[j] @ r + sq[j] * beta[j]   # x_jᵀr_j, partial residual
            new = np.sign(rho) * max(abs(rho) - lam, 0.0) / sq[j]
            if new != beta[j]:
                r -= (new - beta[j]) * cols[j]
                largest = max(largest, abs(new - beta[j]) * np.sqrt(sq[j]))
                beta[j] = new
        if largest <= stop:
            return LassoFit(beta, lam, sweep, True)
    return LassoFit(beta, lam, max_sweeps, False)


@dataclass(frozen=True, repr=False)
class LassoPath:
    """Lasso solutions along a grid of penalties, from :func:`lasso_path`.

    Attributes
    ----------
    lams : ndarray, shape (k,)
        The penalties, in decreasing order.
    coefs : ndarray, shape (p, k)
        ``coefs[:, i]`` solves the lasso for ``lams[i]`` (the layout of
        ``sklearn.linear_model.lasso_path``).
    n_sweeps : ndarray of int, shape (k,)
        Coordinate-descent sweeps used at each penalty.
    converged : bool
        Whether every fit on the path converged.
    """

    lams: np.ndarray
    coefs: np.ndarray
    n_sweeps: np.ndarray
    converged: bool

    def __repr__(self):
        return (f"LassoPath(n_lams={self.lams.size}, p={self.coefs.shape[0]}, "
                f"total_sweeps={int(self.n_sweeps.sum())}, "
                f"converged={self.converged})")


def lasso_path(X, y, lams=None, n_lams=50, eps=1e-3, warm_start=True, tol=1e-10,
               max_sweeps=10_000):
    """Lasso solutions along a decreasing grid of ``λ``, each warm-started.

    The default grid has ``n_lams`` values spaced evenly on a log scale from
    ``λ_max = max_j |x_jᵀy|``, the smallest penalty whose solution is ``β = 0``,
    down to ``eps · λ_max``. Neighbouring solutions are close, so starting
    coordinate descent at the previous solution needs few sweeps.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix.
    y : array_like, shape (n,)
        Responses.
    lams : array_like, shape (k,), optional
        Penalties (non-negative); they are sorted into decreasing order.
    n_lams : int
        Size of the default grid.
    eps : float
        Ratio of the smallest to the largest penalty of the default grid, in (0, 1).
    warm_start : bool
        Start each fit at the previous solution (true) or at zero (false).
    tol, max_sweeps
        Passed to :func:`lasso_cd`.

    Returns
    -------
    LassoPath

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, some penalty is negative,
        ``eps`` is not in (0, 1), ``n_lams`` is not a positive integer,
        ``warm_start`` is not a bool, or the default grid is asked for although
        ``Xᵀy = 0``.
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    warm_start = check.flag(warm_start, "warm_start")
    if lams is None:
        n_lams = check.count(n_lams, "n_lams")
        if not 0 < check.number(eps, "eps") < 1:
            raise ValueError(f"eps must lie in (0, 1), got {eps!r}")
        lam_max = np.max(np.abs(X.T @ y))
        if lam_max == 0:
            raise ValueError("X and y give Xᵀy = 0, so β = 0 for every λ; "
                             "pass lams explicitly")
        lams = lam_max * np.geomspace(1.0, eps, n_lams)
    else:
        lams = check.vector(lams, None, "lams")
        if np.any(lams < 0):
            raise ValueError("lams must be non-negative")
        lams = np.sort(lams)[::-1]
    coefs = np.empty((X.shape[1], lams.size))
    sweeps, ok, beta = np.empty(lams.size, int), True, None
    for i, lam in enumerate(lams):
        fit = lasso_cd(X, y, lam, beta if warm_start else None, tol, max_sweeps)
        beta = coefs[:, i] = fit.beta
        sweeps[i], ok = fit.n_sweeps, ok and fit.converged
    return LassoPath(lams, coefs, sweeps, ok)


# -------------------------------------------------- Bayesian linear regression
def bayes_linear_posterior(X, y, sigma, tau):
    """Posterior ``N(m, S)`` of ``β`` when ``y = Xβ + ε``, ``β ~ N(0, τ²I)``.

    The noise is ``ε ~ N(0, σ²I)``, independent of ``β``. Then
    ``S = (XᵀX/σ² + I/τ²)⁻¹ = σ² A⁻¹`` and ``m = S Xᵀy/σ² = A⁻¹Xᵀy`` with
    ``A = XᵀX + (σ²/τ²) I``, solved through a Cholesky factor of ``A``. The
    mean ``m`` is also the MAP estimate: ridge regression with ``λ = σ²/τ²``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix.
    y : array_like, shape (n,)
        Responses.
    sigma : float
        Noise standard deviation (positive).
    tau : float
        Prior standard deviation of each coefficient (positive).

    Returns
    -------
    mean : ndarray, shape (p,)
    cov : ndarray, shape (p, p)

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, or ``sigma`` or ``tau`` is not
        positive.
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    sigma, tau = check.positive(sigma, "sigma"), check.positive(tau, "tau")
    A = X.T @ X + (sigma / tau) ** 2 * np.eye(X.shape[1])
    factor = scipy.linalg.cho_factor(A, lower=True)
    mean = scipy.linalg.cho_solve(factor, X.T @ y)
    cov = sigma**2 * scipy.linalg.cho_solve(factor, np.eye(X.shape[1]))
    return mean, (cov + cov.T) / 2


# ---------------------------------------------------------- Gaussian processes
def _se_kernel(A, B, ell, tau):
    """Squared-exponential Gram matrix ``tau² exp(−‖a_i − b_j‖²/(2 ell²))``.

    The squared distances are sums of squared differences (``scipy``'s ``cdist``), not
    ``‖a‖² + ‖b‖² − 2aᵀb``, which loses all accuracy for points far from the origin: the
    Gram matrix, and so every GP result, is unchanged when the inputs are shifted.
    """
    return tau**2 * np.exp(-0.5 * scipy.spatial.distance.cdist(A / ell, B / ell, "sqeuclidean"))


def _gram(kernel, A, B, ell, tau):
    """Gram matrix of the rows of ``A`` and ``B`` (``kernel``, or the SE kernel)."""
    if kernel is None:
        return _se_kernel(A, B, ell, tau)
    return check.returned(kernel(A, B), "kernel(A, B)", (A.shape[0], B.shape[0]))


def _gp_setup(X, y, sigma, ell, tau, kernel):
    """Validated inputs and the lower Cholesky factor of ``K + sigma² I``."""
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    sigma = check.nonnegative(sigma, "sigma")
    ell, tau = check.positive(ell, "ell"), check.positive(tau, "tau")
    kernel = None if kernel is None else check.function(kernel, "kernel")
    K = check.square(_gram(kernel, X, X, ell, tau), "kernel(X, X)", symmetric=True)
    try:
        L = np.linalg.cholesky(K + sigma**2 * np.eye(X.shape[0]))
    except np.linalg.LinAlgError:
        raise ValueError("K + sigma² I must be positive definite (repeated inputs "
                         "with sigma = 0, or a kernel that is not positive "
                         "semi-definite)") from None
    return X, y, sigma, ell, tau, L


def gp_posterior(X, y, X0, sigma, ell=1.0, tau=1.0, kernel=None, full_cov=False,
                 noisy=False):
    """Posterior mean and variance of ``f(x0)`` under a Gaussian-process prior.

    With ``K = k(X, X)``, ``K0 = k(X0, X)`` and the Cholesky factor
    ``L Lᵀ = K + σ²I``: mean ``K0 (K + σ²I)⁻¹ y = K0 α`` and covariance
    ``k(X0, X0) − K0 (K + σ²I)⁻¹ K0ᵀ = k(X0, X0) − VᵀV`` with
    ``V = L⁻¹K0ᵀ``; no inverse is formed.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Training inputs.
    y : array_like, shape (n,)
        Training outputs (the prior mean is zero).
    X0 : array_like, shape (m, d)
        Test inputs.
    sigma : float
        Noise standard deviation (non-negative; 0 means noise-free data).
    ell, tau : float
        Length-scale and prior standard deviation of the squared-exponential kernel.
    kernel : callable, optional
        ``kernel(A, B)`` returning a Gram matrix; replaces the squared exponential.
    full_cov : bool
        Return the ``(m, m)`` posterior covariance instead of the ``m`` variances.
    noisy : bool
        Describe a new noisy observation ``y0 = f(x0) + ε`` (adds ``σ²``)
        rather than the noise-free ``f(x0)``.

    Returns
    -------
    mean : ndarray, shape (m,)
    var : ndarray, shape (m,), or cov : ndarray, shape (m, m)
        Variances are clipped at zero against rounding.

    Raises
    ------
    ValueError
        If a shape is wrong (``X0`` must have as many columns as ``X``), a
        value is not finite, ``sigma`` is negative, ``ell`` or ``tau`` is not
        positive, ``kernel`` is not callable or returns a bad Gram matrix,
        ``full_cov`` or ``noisy`` is not a bool, or ``K + σ²I`` is singular.
    """
    full_cov, noisy = check.flag(full_cov, "full_cov"), check.flag(noisy, "noisy")
    X, y, sigma, ell, tau, L = _gp_setup(X, y, sigma, ell, tau, kernel)
    X0 = check.matrix(X0, "X0")
    if X0.shape[1] != X.shape[1]:
        raise ValueError(f"X0 must have {X.shape[1]} columns like X, "
                         f"got {X0.shape[1]}")
    K0 = _gram(kernel, X0, X, ell, tau)                      # (m, n)
    alpha = scipy.linalg.cho_solve((L, True), y)             # (K + σ²I)⁻¹ y
    V = scipy.linalg.solve_triangular(L, K0.T, lower=True)   # L⁻¹ K0ᵀ, (n, m)
    noise = sigma**2 if noisy else 0.0
    if full_cov:
        cov = _gram(kernel, X0, X0, ell, tau) - V.T @ V
        return K0 @ alpha, (cov + cov.T) / 2 + noise * np.eye(X0.shape[0])
    if kernel is None:
        k00 = np.full(X0.shape[0], tau**2)                   # k(x, x) = τ²
    else:
        k00 = np.diag(_gram(kernel, X0, X0, ell, tau))
    return K0 @ alpha, np.maximum(k00 - np.sum(V**2, axis=0), 0.0) + noise


def gp_log_marginal_likelihood(X, y, sigma, ell=1.0, tau=1.0, kernel=None):
    """Log marginal likelihood ``log N(y; 0, K + σ²I)`` of a Gaussian process.

    ``−½ yᵀ(K + σ²I)⁻¹y − ½ log|K + σ²I| − (n/2) log 2π``, computed from the
    Cholesky factor ``L`` of ``K + σ²I``: the quadratic form is ``‖L⁻¹y‖²``
    and the log determinant is ``2 Σ log L_ii``.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Training inputs.
    y : array_like, shape (n,)
        Training outputs.
    sigma : float
        Noise standard deviation (non-negative).
    ell, tau : float
        Length-scale and prior standard deviation of the squared-exponential kernel.
    kernel : callable, optional
        ``kernel(A, B)`` returning a Gram matrix; replaces the squared exponential.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As :func:`gp_posterior`.
    """
    X, y, sigma, ell, tau, L = _gp_setup(X, y, sigma, ell, tau, kernel)
    z = scipy.linalg.solve_triangular(L, y, lower=True)      # L⁻¹ y
    log_det = 2 * np.sum(np.log(np.diag(L)))                 # log |K + σ²I|
    return float(-0.5 * z @ z - 0.5 * log_det - 0.5 * y.size * np.log(2 * np.pi))
