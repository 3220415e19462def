"""Tikhonov regularisation, algorithmic stability and early stopping (chapter 32).

Tikhonov regularisation in the normalisation of the course notes: the estimator minimises
``(1/n) sum_i l(f(x_i), y_i) + lam ||f||^2``, so that for the square loss the primal
solution is ``(XᵀX + n lam I)⁻¹ Xᵀ y`` and the kernel solution has dual coefficients
``(K + n lam I)⁻¹ y``. Uniform stability is measured by refitting on training sets with
one point replaced; gradient descent on the empirical risk in the RKHS gives the
early-stopping path. Labels for classification are in {-1, +1}.
"""
from typing import NamedTuple

import numpy as np
from scipy.special import expit

from mlnotes import _validate as check
from mlnotes import kernels

__all__ = ["tikhonov_least_squares", "tikhonov_kernel", "tikhonov_kernel_logistic",
           "replace_one", "empirical_stability", "stability_bound_tikhonov",
           "mcdiarmid_bound", "gd_kernel_path", "stability_bound_gd", "EarlyStoppingCurve",
           "early_stopping_curve", "covering_number_ball"]


# ------------------------------------------------------------------ Tikhonov solutions

def _gram(K, name="K"):
    """``K`` as a stack (..., n, n) of symmetric positive semi-definite Gram matrices."""
    K = check.square_stack(K, name)
    scale = max(float(np.abs(K).max()), np.finfo(float).tiny)
    if not np.allclose(K, np.swapaxes(K, -1, -2), rtol=1e-10, atol=1e-12 * scale):
        raise ValueError(f"{name} must be symmetric (a Gram matrix)")
    try:                      # Cholesky of K + 1e-10 max|K| I: fails iff an eigenvalue is below -1e-10 max|K|
        np.linalg.cholesky(0.5 * (K + np.swapaxes(K, -1, -2)) + 1e-10 * scale * np.eye(K.shape[-1]))
    except np.linalg.LinAlgError:
        raise ValueError(f"{name} must be positive semi-definite (a Gram matrix has no negative eigenvalue)") from None
    return K

def tikhonov_least_squares(X, y, lam):
    """Tikhonov least squares ``w = (XᵀX + n lam I)⁻¹ Xᵀ y``, the minimiser of
    ``(1/n) ||y - X w||^2 + lam ||w||^2`` (no intercept).

    Computed as the least-squares solution of the stacked system ``[X; sqrt(n lam) I] w ≈ [y; 0]``
    (``numpy.linalg.lstsq``), whose normal equations are the ones above; forming ``XᵀX`` would
    lose digits when the columns of ``X`` are far from the origin.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    lam : float
        Positive penalty; ``sklearn.linear_model.Ridge(alpha=n * lam)`` is the same fit.

    Returns
    -------
    w : ndarray, shape (d,)

    Raises
    ------
    ValueError
        If ``X`` or ``y`` is not finite or of the wrong shape, or ``lam <= 0``.
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    lam = check.positive(lam, "lam")
    n, d = X.shape
    A = np.vstack([X, np.sqrt(n * lam) * np.eye(d)])
    return np.linalg.lstsq(A, np.r_[y, np.zeros(d)], rcond=None)[0]


def tikhonov_kernel(K, y, lam):
    """Kernel Tikhonov (kernel ridge) coefficients ``alpha = (K + n lam I)⁻¹ y``.

    ``f = sum_i alpha_i k(x_i, .)`` minimises ``(1/n) sum_i (y_i - f(x_i))^2 + lam ||f||_H^2``
    (representer theorem); ``KernelRidge(alpha=n * lam, kernel="precomputed")`` is the same.

    Parameters
    ----------
    K : array_like, shape (n, n) or (B, n, n)
        Symmetric positive semi-definite Gram matrix of the training points (or a batch of
        them, solved together).
    y : array_like, shape (n,) or (B, n)
    lam : float
        Positive penalty.

    Returns
    -------
    alpha : ndarray, shape (n,) or (B, n)

    Raises
    ------
    ValueError
        If ``K`` is not a finite symmetric PSD matrix, ``y`` has the wrong shape, or ``lam <= 0``.
    """
    K = check.as_float(K, "K")
    if K.ndim == 2:
        K = check.square(K, "K", symmetric=True)
        return kernels.kernel_ridge(K, y, K.shape[0] * check.positive(lam, "lam"))
    K, y = _gram(K), check.finite(y, "y")                       # a batch of problems, shape (B, n, n)
    if y.shape != K.shape[:-1]:
        raise ValueError(f"y must have shape {K.shape[:-1]}, got {y.shape}")
    n = K.shape[-1]
    return np.linalg.solve(K + n * check.positive(lam, "lam") * np.eye(n), y[..., None])[..., 0]


def tikhonov_kernel_logistic(K, y, lam, tol=1e-10, max_iter=50):
    """Kernel logistic regression with the Tikhonov penalty, by Newton's method.

    Minimises ``J(alpha) = (1/n) sum_i log(1 + exp(-y_i f_i)) + lam alphaᵀ K alpha`` with
    ``f = K alpha``. With ``g_i = -y_i sigmoid(-y_i f_i)`` and ``W = diag(sigmoid'(f))`` the
    Newton step solves ``(W K / n + 2 lam I) delta = g / n + 2 lam alpha`` (the common
    factor ``K`` of gradient and Hessian cancels).

    Parameters
    ----------
    K : array_like, shape (n, n) or (B, n, n)
        Gram matrix (or a batch of them, fitted together).
    y : array_like, shape (n,) or (B, n)
        Labels in {-1, +1}.
    lam : float
        Positive penalty.
    tol : float
        Stop when ``max |delta| <= tol``.
    max_iter : int
        Maximum number of Newton steps.

    Returns
    -------
    alpha : ndarray, shape (n,) or (B, n)

    Raises
    ------
    ValueError
        If an input is invalid or Newton's method does not converge in ``max_iter`` steps.
    """
    K = _gram(K)
    n = K.shape[-1]
    y = check.finite(y, "y")
    if y.shape != K.shape[:-1] or not np.all(np.isin(y, (-1, 1))):
        raise ValueError(f"y must have shape {K.shape[:-1]} with labels in {{-1, +1}}")
    lam, tol = check.positive(lam, "lam"), check.positive(tol, "tol")
    max_iter = check.count(max_iter, "max_iter")
    alpha, eye = np.zeros(y.shape), np.eye(n)
    for _ in range(max_iter):
        f = np.einsum("...ij,...j->...i", K, alpha)
        g, w = -y * expit(-y * f), expit(f) * expit(-f)
        delta = np.linalg.solve(w[..., :, None] * K / n + 2 * lam * eye,
                                (g / n + 2 * lam * alpha)[..., None])[..., 0]
        alpha = alpha - delta
        if np.max(np.abs(delta)) <= tol:
            return alpha
    raise ValueError(f"Newton's method did not converge in max_iter={max_iter} steps")


# ------------------------------------------------------------------------- stability
def replace_one(S, i, z):
    """The modified training set ``S^{i,z}``: ``S`` with its ``i``-th point replaced by ``z``.

    Parameters
    ----------
    S : tuple (X, y)
        Training set, ``X`` of shape (n, d) and ``y`` of shape (n,).
    i : int
        Index in ``0, ..., n - 1`` of the point to replace.
    z : tuple (x, y_z)
        The new point: ``x`` of shape (d,) and a scalar response or label ``y_z``.

    Returns
    -------
    (X_new, y_new) : tuple of ndarray
        Copies; ``S`` is not modified.

    Raises
    ------
    ValueError
        If ``S`` or ``z`` is malformed or ``i`` is out of range.
    """
    X, y = check.dataset(S)
    i = check.count(i, "i", low=0)
    if i >= X.shape[0]:
        raise ValueError(f"i must be an index < n = {X.shape[0]}, got {i}")
    if not isinstance(z, (tuple, list)) or len(z) != 2:
        raise ValueError(f"z must be a pair (x, y) of a (d,) array and a number, got {type(z).__name__}")
    x_new = check.vector(z[0], X.shape[1], "z[0] (x)")
    X_new, y_new = X.copy(), y.copy()
    X_new[i], y_new[i] = x_new, check.number(z[1], "z[1] (y)")
    return X_new, y_new


def empirical_stability(fit, loss, S, z_pool, rng=None, n_pairs=None):
    """Measured uniform stability: the largest loss change ``|l(f_S, z̄) - l(f_{S^{i,z}}, z̄)|``.

    The maximum runs over the replacement pairs ``(i, z)`` (all ``n m`` of them, or
    ``n_pairs`` drawn at random with ``rng``) and over the evaluation points ``z̄`` of the
    pool together with the training points. It is a lower estimate of the stability
    ``beta(n)`` of the algorithm ``fit``, so any valid bound on ``beta(n)`` must exceed it.
    All modified training sets are fitted in one batched call.

    Parameters
    ----------
    fit : callable
        ``fit(X, y, X_eval)`` with ``X`` of shape (B, n, d) and ``y`` of shape (B, n) returns
        the predictions at ``X_eval`` (shape (m_eval, d)) of the B fits, shape (B, m_eval).
    loss : callable
        ``loss(predictions, y)``, vectorised (broadcasting), returns the losses.
    S : tuple (X, y)
        Training set.
    z_pool : tuple (X_pool, y_pool)
        Replacement and evaluation points.
    rng : numpy.random.Generator, optional
        Needed when ``n_pairs`` is given.
    n_pairs : int, optional
        Number of random pairs ``(i, z)``; ``None`` uses every pair.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If an input is invalid or ``fit``/``loss`` return arrays of the wrong shape or
        non-finite values.
    """
    fit, loss = check.function(fit, "fit"), check.function(loss, "loss")
    X, y = check.dataset(S)
    Xp, yp = check.dataset(z_pool, "z_pool")
    if Xp.shape[1] != X.shape[1]:
        raise ValueError(f"z_pool must have d = {X.shape[1]} columns, got {Xp.shape[1]}")
    (n, d), m = X.shape, Xp.shape[0]
    if n_pairs is None:
        i, j = (a.ravel() for a in np.meshgrid(np.arange(n), np.arange(m), indexing="ij"))
    else:
        rng, n_pairs = check.generator(rng), check.count(n_pairs, "n_pairs")
        i, j = rng.integers(0, n, n_pairs), rng.integers(0, m, n_pairs)
    B = len(i)
    Xb, yb = np.repeat(X[None], B + 1, axis=0), np.repeat(y[None], B + 1, axis=0)
    Xb[np.arange(1, B + 1), i], yb[np.arange(1, B + 1), i] = Xp[j], yp[j]   # row 0 is S itself
    X_eval, y_eval = np.vstack([Xp, X]), np.concatenate([yp, y])
    pred = check.returned(fit(Xb, yb, X_eval), "fit", (B + 1, len(y_eval)))
    losses = check.returned(loss(pred, y_eval), "loss", (B + 1, len(y_eval)))
    return float(np.max(np.abs(losses[1:] - losses[0])))


def stability_bound_tikhonov(L, kappa, n, lam, sharp=False):
    """Uniform stability bound ``2 L^2 kappa^2 / (n lam)`` of Tikhonov regularisation (the
    notes' constant); ``sharp=True`` gives ``L^2 kappa^2 / (n lam)``.

    The factor 2 comes from the quadratic-growth constant ``lam / 2`` used by the notes;
    growth ``lam ||f - g||^2``, which also holds, halves it.

    Parameters
    ----------
    L : float
        Lipschitz constant of the loss in its first argument.
    kappa : float
        ``kappa^2 = sup_x k(x, x)``.
    n : int
        Training-set size.
    lam : float
        Penalty of ``(1/n) sum l + lam ||f||^2``.
    sharp : bool
        Return the sharp constant ``L^2 kappa^2 / (n lam)`` instead.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a constant is not positive or ``n`` is not a positive integer.
    """
    L, kappa = check.positive(L, "L"), check.positive(kappa, "kappa")
    n, lam = check.count(n, "n"), check.positive(lam, "lam")
    return (1 if check.flag(sharp, "sharp") else 2) * L**2 * kappa**2 / (n * lam)


def mcdiarmid_bound(c, eps):
    """McDiarmid's tail bound ``2 exp(-2 eps^2 / sum_i c_i^2)`` (values above 1 are vacuous).

    Parameters
    ----------
    c : array_like, shape (n,)
        Bounded differences ``c_i > 0``.
    eps : float
        Deviation, positive.

    Returns
    -------
    float
        The bound on ``P(|F(S) - E F| >= eps)``.

    Raises
    ------
    ValueError
        If ``c`` is not a finite 1-D array of positive numbers or ``eps <= 0``.
    """
    c = check.vector(c, None, "c")
    if np.any(c <= 0):
        raise ValueError("c must contain positive bounded differences")
    eps = check.positive(eps, "eps")
    return float(2 * np.exp(-2 * eps**2 / np.sum(c**2)))


# ------------------------------------------------------------- gradient descent paths
def gd_kernel_path(K, y, step, T, loss="square"):
    """Coefficients of gradient descent on the empirical risk in the RKHS, from ``f_0 = 0``.

    With ``f_t = sum_j alpha_t[j] k(x_j, .)`` the step ``f_{t+1} = f_t - step * grad E_S(f_t)``
    is ``alpha_{t+1} = alpha_t - (step / n) l'(K alpha_t, y)``: for the square loss
    ``l'(u, y) = 2 (u - y)``, for the logistic loss ``l'(u, y) = -y sigmoid(-y u)``.
    ``K`` and ``y`` may carry leading batch dimensions (one path per data set).

    Parameters
    ----------
    K : array_like, shape (..., n, n)
        Gram matrices.
    y : array_like, shape (..., n)
        Responses (labels in {-1, +1} for the logistic loss).
    step : float
        Positive step size ``gamma``.
    T : int
        Number of steps.
    loss : {"square", "logistic"}

    Returns
    -------
    alphas : ndarray, shape (..., T + 1, n)
        ``alphas[..., t, :]`` are the coefficients of ``f_t``; ``alphas[..., 0, :] = 0``.

    Raises
    ------
    ValueError
        If an input is invalid, the shapes of ``K`` and ``y`` do not match, ``K`` is not a
        symmetric positive semi-definite Gram matrix, or the iteration diverges (``step`` too
        large).
    """
    K = _gram(K)
    y = check.finite(y, "y")
    if y.shape != K.shape[:-1]:
        raise ValueError(f"y must have shape {K.shape[:-1]}, got {y.shape}")
    step, T = check.positive(step, "step"), check.count(T, "T")
    loss = check.choice(loss, ("square", "logistic"), "loss")
    n = K.shape[-1]
    alphas = np.zeros(y.shape[:-1] + (T + 1, n))
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(T):
            f = np.einsum("...ij,...j->...i", K, alphas[..., t, :])
            dl = 2 * (f - y) if loss == "square" else -y * expit(-y * f)
            alphas[..., t + 1, :] = alphas[..., t, :] - step / n * dl
    if not np.all(np.isfinite(alphas)):
        raise ValueError(f"step = {step:g} is too large: gradient descent diverged (non-finite coefficients)")
    return alphas


def stability_bound_gd(L, kappa, M, n, T, step=None):
    """Stability bound ``2 step L^2 kappa^2 T / n`` of ``T`` gradient steps (``step = 1/M``:
    ``2 L^2 kappa^2 T / (M n)``).

    ``L`` and ``M`` are the Lipschitz and smoothness constants of the loss in its first
    (scalar) argument, so in the RKHS the loss is ``L kappa``-Lipschitz and ``M kappa^2``-smooth
    and the gradient step is non-expansive only for ``step <= 2 / (M kappa^2)``.

    Parameters
    ----------
    L, kappa, M : float
        Positive constants (``kappa^2 = sup_x k(x, x)``).
    n, T : int
        Training-set size and number of steps.
    step : float, optional
        Step size; ``None`` means ``1 / M``.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a constant is invalid or ``step > 2 / (M kappa^2)`` (the bound does not apply).
    """
    L, kappa, M = check.positive(L, "L"), check.positive(kappa, "kappa"), check.positive(M, "M")
    n, T = check.count(n, "n"), check.count(T, "T")
    step = 1 / M if step is None else check.positive(step, "step")
    if step > 2 / (M * kappa**2) * (1 + 1e-12):
        raise ValueError(f"step = {step:g} exceeds 2 / (M kappa^2) = {2 / (M * kappa**2):g}: "
                         "the gradient step is not non-expansive and the bound does not apply")
    return 2 * step * L**2 * kappa**2 * T / n


class EarlyStoppingCurve(NamedTuple):
    """Training and test mean squared error after ``t = 0, ..., T`` gradient steps."""

    t: np.ndarray
    train_risk: np.ndarray
    test_risk: np.ndarray


def early_stopping_curve(K, y, K_test, y_test, step, T):
    """Training and test risk (mean squared error) along the gradient path of the square loss.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix of the training points.
    y : array_like, shape (n,)
    K_test : array_like, shape (m, n)
        ``K_test[j, i] = k(x_test_j, x_i)``.
    y_test : array_like, shape (m,)
    step : float
        Step size of :func:`gd_kernel_path`.
    T : int
        Number of steps.

    Returns
    -------
    EarlyStoppingCurve
        Arrays of length ``T + 1``.

    Raises
    ------
    ValueError
        If an input is invalid or the shapes do not match.
    """
    K = check.square(K, "K", symmetric=True)
    y = check.vector(y, K.shape[0], "y")
    K_test = check.matrix(K_test, "K_test")
    if K_test.shape[1] != K.shape[0]:
        raise ValueError(f"K_test must have n = {K.shape[0]} columns, got {K_test.shape[1]}")
    y_test = check.vector(y_test, K_test.shape[0], "y_test")
    alphas = gd_kernel_path(K, y, step, T)
    train = np.mean((alphas @ K - y) ** 2, axis=1)        # K symmetric: (K alpha_t)ᵀ = alpha_tᵀ K
    test = np.mean((alphas @ K_test.T - y_test) ** 2, axis=1)
    return EarlyStoppingCurve(np.arange(T + 1), train, test)


# ------------------------------------------------------------------ covering numbers
def covering_number_ball(gamma, eta, d):
    """Upper bound on the covering number ``N(B_gamma, eta)`` of a Euclidean ball in ``R^d``.

    Returns 1 when ``eta >= gamma`` (the centre covers the ball) and otherwise the volume
    bound ``(1 + 2 gamma / eta)^d`` of a maximal ``eta``-packing, which is at most the
    ``(4 gamma / eta)^d`` of the notes whenever ``eta <= 2 gamma``.

    Parameters
    ----------
    gamma : float
        Radius, positive.
    eta : float
        Covering radius, positive.
    d : int
        Dimension.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``gamma`` or ``eta`` is not positive or ``d`` is not a positive integer.
    """
    gamma, eta = check.positive(gamma, "gamma"), check.positive(eta, "eta")
    d = check.count(d, "d")
    return 1.0 if eta >= gamma else float((1 + 2 * gamma / eta) ** d)
