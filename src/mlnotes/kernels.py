"""Ridge regression and kernels (chapter 07): primal and dual ridge, kernel functions and
their explicit feature maps, positive semi-definiteness, kernel ridge regression and
regression splines.

Conventions. Data points are the rows of ``X`` (shape ``(n, d)``), as in scikit-learn.
A kernel function ``k(X, Y)`` returns the Gram matrix ``K`` of shape ``(n, m)`` with
``K[i, j] = k(x_i, y_j)``; ``Y=None`` means ``Y = X``. The kernels use scikit-learn's
parameter names and defaults (``sklearn.metrics.pairwise``): ``gamma=None`` means
``1 / d``. The Gaussian (RBF) kernel is ``exp(-gamma ||x - y||^2)``; a length-scale
``ell`` corresponds to ``gamma = 1 / (2 ell^2)``. The ridge penalty is ``lam ||beta||^2``
on the plain residual sum of squares, as in ``sklearn.linear_model.Ridge(alpha=lam)``.
"""
import math

import numpy as np

from mlnotes import _validate as check

__all__ = [
    "ridge", "ridge_dual", "ridge_path",
    "linear_kernel", "polynomial_kernel", "rbf_kernel", "sigmoid_kernel", "is_psd",
    "quadratic_feature_map", "exponential_feature_map", "rbf_feature_map",
    "kernel_ridge", "kernel_ridge_predict",
    "spline_basis", "spline_fit",
]


# ------------------------------------------------------------------------ helpers
def _gamma(gamma, d):
    """scikit-learn's default ``gamma = 1 / d``, otherwise a positive number."""
    return 1.0 / d if gamma is None else check.positive(gamma, "gamma")


def _symmetric(K):
    """Whether the square matrix ``K`` is symmetric up to rounding."""
    return np.allclose(K, K.T, rtol=1e-10, atol=1e-12 * max(1.0, np.abs(K).max()))


# ------------------------------------------------------------------ ridge regression
def ridge(X, y, lam):
    """Ridge coefficients ``beta = (XᵀX + lam I_d)⁻¹ Xᵀy`` (the primal solution).

    Minimises ``||y - X beta||^2 + lam ||beta||^2``; no intercept is added (put a column
    of ones in ``X``, or centre the data, yourself).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data points as rows.
    y : array_like, shape (n,)
        Responses.
    lam : float
        Penalty, positive (``alpha`` of ``sklearn.linear_model.Ridge``).

    Returns
    -------
    beta : ndarray, shape (d,)

    Raises
    ------
    ValueError
        If ``X`` or ``y`` has the wrong shape or non-finite values, or ``lam <= 0``.
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    lam = check.positive(lam, "lam")
    d = X.shape[1]
    # (XᵀX + lam I)⁻¹Xᵀ = V diag(s / (s² + lam)) Uᵀ with the thin SVD X = U diag(s) Vᵀ:
    # the same solution without forming XᵀX, which would square the condition number of X
    U, s, Vt = np.linalg.svd(X, full_matrices=False)
    return Vt.T @ (s / (s**2 + lam) * (U.T @ y))


def ridge_dual(X, y, lam):
    """Dual ridge coefficients ``alpha = (XXᵀ + lam I_n)⁻¹ y``, so that ``beta = Xᵀ alpha``.

    The fitted function is ``f(x) = sum_i alpha_i x_iᵀx``: it needs only inner products
    between data points, an ``n x n`` system instead of a ``d x d`` one.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data points as rows.
    y : array_like, shape (n,)
        Responses.
    lam : float
        Penalty, positive.

    Returns
    -------
    alpha : ndarray, shape (n,)

    Raises
    ------
    ValueError
        If ``X`` or ``y`` has the wrong shape or non-finite values, or ``lam <= 0``.
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    lam = check.positive(lam, "lam")
    n = X.shape[0]
    return np.linalg.solve(X @ X.T + lam * np.eye(n), y)


def ridge_path(X, y, lams):
    """Ridge coefficients for many penalties at once, from one SVD ``X = U S Vᵀ``.

    ``beta(lam) = sum_j s_j / (s_j^2 + lam) (u_jᵀy) v_j``: each singular direction is
    shrunk by its own factor ``s_j^2 / (s_j^2 + lam)`` relative to least squares.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data points as rows.
    y : array_like, shape (n,)
        Responses.
    lams : array_like, shape (k,)
        Positive penalties.

    Returns
    -------
    B : ndarray, shape (k, d)
        Row ``i`` is ``ridge(X, y, lams[i])``.

    Raises
    ------
    ValueError
        If an input has the wrong shape or non-finite values, or a penalty is not positive.
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    lams = check.positive_entries(check.vector(lams, None, "lams"), "lams")
    U, s, Vt = np.linalg.svd(X, full_matrices=False)
    shrink = s / (s**2 + lams[:, None])          # shape (k, r)
    return (shrink * (U.T @ y)) @ Vt


# ------------------------------------------------------------------------- kernels
def linear_kernel(X, Y=None):
    """Linear kernel ``k(x, y) = xᵀy``: the Gram matrix ``X Yᵀ``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    Y : array_like, shape (m, d), optional
        Defaults to ``X``.

    Returns
    -------
    K : ndarray, shape (n, m)

    Raises
    ------
    ValueError
        If ``X`` or ``Y`` is not a finite 2-D array, or their widths differ.
    """
    X, Y = check.point_sets(X, Y)
    return X @ Y.T


def polynomial_kernel(X, Y=None, degree=3, gamma=None, coef0=1.0):
    """Polynomial kernel ``k(x, y) = (gamma xᵀy + coef0)^degree``.

    Same parameters and defaults as ``sklearn.metrics.pairwise.polynomial_kernel``,
    except that ``degree`` must be a positive integer and ``coef0`` non-negative, the
    conditions under which the kernel is positive semi-definite.

    Parameters
    ----------
    X : array_like, shape (n, d)
    Y : array_like, shape (m, d), optional
        Defaults to ``X``.
    degree : int
        Positive integer.
    gamma : float, optional
        Positive scale of the inner product; ``None`` means ``1 / d``.
    coef0 : float
        Non-negative constant.

    Returns
    -------
    K : ndarray, shape (n, m)

    Raises
    ------
    ValueError
        If an input is invalid (shapes, NaN, ``degree < 1``, ``gamma <= 0``, ``coef0 < 0``),
        or the kernel values overflow.
    """
    X, Y = check.point_sets(X, Y)
    degree = check.count(degree, "degree")
    gamma = _gamma(gamma, X.shape[1])
    coef0 = check.nonnegative(coef0, "coef0")
    with np.errstate(over="ignore"):
        K = (gamma * (X @ Y.T) + coef0) ** degree
    if not np.all(np.isfinite(K)):
        raise ValueError(f"the kernel overflows with degree={degree} and gamma={gamma:g} "
                         "for these data: lower degree or gamma, or rescale X")
    return K


def rbf_kernel(X, Y=None, gamma=None):
    """Gaussian (RBF) kernel ``k(x, y) = exp(-gamma ||x - y||^2)``.

    Same parameters and default as ``sklearn.metrics.pairwise.rbf_kernel``. For a
    length-scale ``ell`` (the form ``exp(-||x - y||^2 / (2 ell^2))``) use
    ``gamma = 1 / (2 ell^2)``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    Y : array_like, shape (m, d), optional
        Defaults to ``X``; then ``K`` is exactly symmetric with a unit diagonal.
    gamma : float, optional
        Positive inverse squared width; ``None`` means ``1 / d``.

    Returns
    -------
    K : ndarray, shape (n, m)

    Raises
    ------
    ValueError
        If an input is invalid (shapes, NaN, ``gamma <= 0``).

    Notes
    -----
    The squared distances use the Gram form ``||x||^2 + ||y||^2 - 2 xᵀy`` after both
    point sets are centred on their common mean, which leaves the distances unchanged
    and keeps the cancellation small for data far from the origin.
    """
    same = Y is None
    X, Y = check.point_sets(X, Y)
    gamma = _gamma(gamma, X.shape[1])
    centre = np.vstack([X, Y]).mean(axis=0)    # a common shift leaves the distances as they
    X, Y = X - centre, Y - centre              # are, and near 0 the Gram form cancels little
    sq = (X**2).sum(axis=1)[:, None] + (Y**2).sum(axis=1)[None, :] - 2 * X @ Y.T
    sq = np.maximum(sq, 0.0)                   # rounding can make it slightly negative
    if same:
        sq = (sq + sq.T) / 2
        np.fill_diagonal(sq, 0.0)
    return np.exp(-gamma * sq)


def sigmoid_kernel(X, Y=None, gamma=None, coef0=1.0):
    """Sigmoid "kernel" ``k(x, y) = tanh(gamma xᵀy + coef0)``, which is *not* PSD in general.

    Same parameters and defaults as ``sklearn.metrics.pairwise.sigmoid_kernel``. It is
    symmetric, but for many data sets its Gram matrix has negative eigenvalues, so it
    is not a kernel in the sense of an inner product of features.

    Parameters
    ----------
    X : array_like, shape (n, d)
    Y : array_like, shape (m, d), optional
        Defaults to ``X``.
    gamma : float, optional
        Positive slope; ``None`` means ``1 / d``.
    coef0 : float
        Offset (any real number).

    Returns
    -------
    K : ndarray, shape (n, m)

    Raises
    ------
    ValueError
        If an input is invalid (shapes, NaN, ``gamma <= 0``, non-finite ``coef0``).
    """
    X, Y = check.point_sets(X, Y)
    gamma = _gamma(gamma, X.shape[1])
    coef0 = check.number(coef0, "coef0")
    return np.tanh(gamma * (X @ Y.T) + coef0)


def is_psd(K, tol=None):
    """Whether ``K`` is symmetric positive semi-definite: smallest eigenvalue ``>= -tol``.

    Parameters
    ----------
    K : array_like, shape (n, n)
        A square matrix, e.g. a Gram matrix. A matrix that is not symmetric (up to
        rounding) is reported as not PSD, since a Gram matrix of a kernel is symmetric.
    tol : float, optional
        Non-negative allowance for rounding error; by default
        ``n * eps * max(1, max |eigenvalue|)``.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If ``K`` is not a finite square matrix or ``tol < 0``.
    """
    K = check.square(K, "K")
    tol = None if tol is None else check.nonnegative(tol, "tol")
    if not _symmetric(K):
        return False
    eig = np.linalg.eigvalsh((K + K.T) / 2)
    if tol is None:
        tol = K.shape[0] * np.finfo(float).eps * max(1.0, np.abs(eig).max())
    return bool(eig[0] >= -tol)


# -------------------------------------------------------------- explicit feature maps
def quadratic_feature_map(X, c=0.0):
    """Features ``phi(x)`` with ``phi(x)ᵀphi(z) = (xᵀz + c)^2``, with sqrt(2) weights.

    ``phi(x) = (x_i^2 (all i), sqrt(2) x_i x_j (i < j), sqrt(2c) x_i (all i), c)``, which
    has ``(d + 1)(d + 2) / 2`` entries.

    Parameters
    ----------
    X : array_like, shape (n, d)
    c : float
        Non-negative constant of the kernel.

    Returns
    -------
    Phi : ndarray, shape (n, (d + 1)(d + 2) / 2)

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array or ``c < 0``.
    """
    X = check.matrix(X)
    c = check.nonnegative(c, "c")
    i, j = np.triu_indices(X.shape[1], k=1)
    ones = np.ones((X.shape[0], 1))
    return np.hstack([X**2, np.sqrt(2) * X[:, i] * X[:, j], np.sqrt(2 * c) * X, c * ones])


_MAX_FEATURES = 10**6


def _multi_indices(d, degree):
    """All multi-indices ``m`` in N^d with ``|m| = m_1 + ... + m_d <= degree``, in
    lexicographic order (that of ``itertools.product`` restricted to ``|m| <= degree``)."""
    n_features = math.comb(d + degree, d)
    if n_features > _MAX_FEATURES:
        raise ValueError(f"degree={degree} with {d} columns of X gives {n_features} features "
                         f"(more than {_MAX_FEATURES}): lower degree or use fewer columns")
    indices = [()]
    for _ in range(d):
        indices = [m + (k,) for m in indices for k in range(degree + 1 - sum(m))]
    return np.array(indices, dtype=int).reshape(-1, d)


def exponential_feature_map(X, a, degree):
    """Truncated Taylor features of ``exp(a xᵀz)``: ``sqrt(a^|m| / m!) x^m`` for ``|m| <= degree``.

    ``phi(x)ᵀphi(z) = sum_{k <= degree} (a xᵀz)^k / k!``, the Taylor polynomial of
    ``exp(a xᵀz)``; in one dimension ``phi(x) = (sqrt(a^k / k!) x^k)_{k=0..degree}``.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data points as rows (keep ``d`` small: there are ``C(d + degree, d)`` features).
    a : float
        Positive scale.
    degree : int
        Highest total degree kept, ``>= 0``.

    Returns
    -------
    Phi : ndarray, shape (n, C(d + degree, d))

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array, ``a <= 0``, ``degree`` is not an integer >= 0,
        or there would be more than a million features.
    """
    X = check.matrix(X)
    a = check.positive(a, "a")
    degree = check.count(degree, "degree", low=0)
    m = _multi_indices(X.shape[1], degree)                       # shape (F, d)
    factorial = np.concatenate([[1.0], np.cumprod(np.arange(1.0, degree + 1))])
    weight = np.sqrt(a ** m.sum(axis=1) / factorial[m].prod(axis=1))
    return weight * np.prod(X[:, None, :] ** m[None, :, :], axis=2)


def rbf_feature_map(X, gamma, degree):
    """Truncated features of the Gaussian kernel: ``exp(-gamma ||x||^2)`` times those of ``exp(2 gamma xᵀz)``.

    Uses ``exp(-gamma ||x - z||^2) = exp(-gamma ||x||^2) exp(-gamma ||z||^2) exp(2 gamma xᵀz)``;
    as ``degree`` grows, ``phi(x)ᵀphi(z)`` converges to ``rbf_kernel(x, z, gamma)``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    gamma : float
        Positive inverse squared width.
    degree : int
        Highest total degree of the Taylor expansion kept, ``>= 0``.

    Returns
    -------
    Phi : ndarray, shape (n, C(d + degree, d))

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array, ``gamma <= 0`` or ``degree`` is invalid.
    """
    X = check.matrix(X)
    gamma = check.positive(gamma, "gamma")
    scale = np.exp(-gamma * (X**2).sum(axis=1))
    return scale[:, None] * exponential_feature_map(X, 2 * gamma, degree)


# ------------------------------------------------------------ kernel ridge regression
def kernel_ridge(K, y, lam):
    """Kernel ridge coefficients ``alpha = (K + lam I)⁻¹ y`` for a PSD Gram matrix ``K``.

    The fitted function is ``f(x) = sum_i alpha_i k(x_i, x)``; see
    :func:`kernel_ridge_predict`.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix ``K[i, j] = k(x_i, x_j)`` of the training points; symmetric PSD.
    y : array_like, shape (n,)
        Responses.
    lam : float
        Penalty, positive (``alpha`` of ``sklearn.kernel_ridge.KernelRidge``).

    Returns
    -------
    alpha : ndarray, shape (n,)

    Raises
    ------
    ValueError
        If ``K`` is not a finite symmetric PSD matrix, ``y`` has the wrong shape or
        non-finite values, or ``lam <= 0``.
    """
    K = check.square(K, "K", symmetric=True)
    y = check.vector(y, K.shape[0], "y")
    lam = check.positive(lam, "lam")
    if not is_psd(K):
        raise ValueError("K must be positive semi-definite (a Gram matrix of a kernel)")
    return np.linalg.solve(K + lam * np.eye(K.shape[0]), y)


def kernel_ridge_predict(K_new, alpha):
    """Predictions ``f(x) = sum_i alpha_i k(x_i, x)`` at new points: ``K_new @ alpha``.

    Parameters
    ----------
    K_new : array_like, shape (m, n)
        ``K_new[j, i] = k(x_new_j, x_i)`` between new points (rows) and training points.
    alpha : array_like, shape (n,)
        Coefficients from :func:`kernel_ridge`.

    Returns
    -------
    ndarray, shape (m,)

    Raises
    ------
    ValueError
        If ``K_new`` is not a finite 2-D array or ``alpha`` does not have one entry per
        column of ``K_new``.
    """
    K_new = check.matrix(K_new, "K_new")
    alpha = check.vector(alpha, K_new.shape[1], "alpha")
    return K_new @ alpha


# ------------------------------------------------------------------------ splines
def spline_basis(x, knots, degree=3):
    """Truncated-power basis ``1, x, ..., x^p, (x - k_1)_+^p, ..., (x - k_K)_+^p``.

    Its span is the space of splines of degree ``p`` with the given knots: piecewise
    polynomials with ``p - 1`` continuous derivatives at the knots.

    Parameters
    ----------
    x : array_like, shape (n,)
        Inputs.
    knots : array_like, shape (K,)
        Strictly increasing knots.
    degree : int
        Degree ``p >= 1`` (1: linear spline, 3: cubic spline).

    Returns
    -------
    Z : ndarray, shape (n, p + 1 + K)

    Raises
    ------
    ValueError
        If ``x`` or ``knots`` is not a finite 1-D array, the knots are not strictly
        increasing, ``degree`` is not an integer >= 1, or the powers overflow.
    """
    x = check.vector(x, None, "x")
    knots = check.vector(knots, None, "knots")
    degree = check.count(degree, "degree")
    if np.any(np.diff(knots) <= 0):
        raise ValueError("knots must be strictly increasing")
    with np.errstate(over="ignore"):
        Z = np.hstack([x[:, None] ** np.arange(degree + 1),
                       np.maximum(x[:, None] - knots[None, :], 0.0) ** degree])
    if not np.all(np.isfinite(Z)):
        raise ValueError(f"the basis overflows with degree={degree} for these x: lower degree "
                         "or rescale x")
    return Z


def spline_fit(x, y, knots, degree=3, lam=0.0):
    """Penalised least squares in the truncated-power basis: ``min ||y - Z c||^2 + lam ||D c||^2``.

    ``Z = spline_basis(x, knots, degree)`` and ``D`` selects the knot coefficients, so
    the polynomial part is not penalised; ``lam = 0`` is plain least squares. Solved as
    the stacked least-squares problem ``[Z; sqrt(lam) D] c ≈ [y; 0]``, which avoids
    squaring the (poor) condition number of the basis.

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Inputs and responses.
    knots : array_like, shape (K,)
        Strictly increasing knots.
    degree : int
        Spline degree ``p >= 1``.
    lam : float
        Non-negative penalty on the ``K`` knot coefficients.

    Returns
    -------
    coef : ndarray, shape (p + 1 + K,)
        Predict with ``spline_basis(x_new, knots, degree) @ coef``.

    Raises
    ------
    ValueError
        If an input is invalid, or the problem has no unique solution (too few distinct
        ``x`` between the knots for ``lam = 0``).
    """
    Z = spline_basis(x, knots, degree)
    y = check.vector(y, Z.shape[0], "y")
    lam = check.nonnegative(lam, "lam")
    n_knots = Z.shape[1] - (degree + 1)
    D = np.eye(Z.shape[1])[degree + 1:]                # rows picking the knot coefficients
    A = np.vstack([Z, np.sqrt(lam) * D])
    b = np.concatenate([y, np.zeros(n_knots)])
    coef, _, rank, _ = np.linalg.lstsq(A, b, rcond=None)
    if rank < Z.shape[1]:
        raise ValueError(f"x and knots give a rank-deficient basis (rank {rank} < "
                         f"{Z.shape[1]}): use fewer knots, more distinct x, or lam > 0")
    return coef
