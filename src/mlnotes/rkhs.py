"""Reproducing kernel Hilbert spaces (chapter 46): kernels built from feature maps, explicit
polynomial features, Fourier (periodic) and Mercer (eigen-expansion) descriptions of an RKHS,
and functions written as combinations of kernel sections.

Conventions. Data points are the rows of ``X`` (shape ``(n, d)``); a kernel function
``kernel(X, Y)`` returns the Gram matrix of shape ``(n, m)``, as in ``mlnotes.kernels``.
The exponentiated quadratic kernel is ``exp(-||x - y||^2 / (2 ell^2))``, i.e. scikit-learn's
``rbf_kernel`` with ``gamma = 1 / (2 ell^2)``. Periodic functions live on ``[-pi, pi)``; their
Fourier coefficients ``f_hat[l] = (1 / 2pi) int f(x) exp(-i l x) dx`` are stored for
``l = -L, ..., L`` (an array of odd length ``2L + 1``, index ``L`` is ``l = 0``).
"""
import math

import numpy as np

from mlnotes import _validate as check

__all__ = [
    "taylor_series_kernel", "exponentiated_quadratic", "polynomial_feature_map",
    "periodic_kernel", "fourier_coefficients", "fourier_rkhs_inner",
    "gaussian_mercer", "nystrom_eigenfunctions", "rkhs_norm", "rkhs_evaluate",
]

_MAX_FEATURES = 10**6


# ------------------------------------------------------------------------ helpers
def _centred_coefficients(c, name):
    """``c`` as a finite complex 1-D array of odd length (coefficients ``l = -L..L``)."""
    if isinstance(c, (str, bytes)) or c is None:
        raise ValueError(f"{name} must be a numeric 1-D array, got {type(c).__name__}")
    try:
        c = np.asarray(c, dtype=complex)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{name} must be a numeric 1-D array: {err}") from None
    if c.ndim != 1 or c.size % 2 == 0:
        raise ValueError(f"{name} must be a 1-D array of odd length 2L + 1 "
                         f"(coefficients l = -L..L), got shape {c.shape}")
    if not np.all(np.isfinite(c)):
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    return c


def _kernel_spectrum(k_hat, positive=False):
    """``k_hat`` as a real, non-negative (or positive), symmetric array of odd length."""
    k_hat = check.vector(k_hat, None, "k_hat")
    if k_hat.size % 2 == 0:
        raise ValueError(f"k_hat must have odd length 2L + 1 (l = -L..L), got {k_hat.size}")
    if np.any(k_hat < 0) or (positive and np.any(k_hat <= 0)):
        raise ValueError(f"k_hat must be {'positive' if positive else 'non-negative'}")
    if not np.allclose(k_hat, k_hat[::-1], rtol=1e-12, atol=0):
        raise ValueError("k_hat must be symmetric, k_hat[-l] = k_hat[l] (a real kernel)")
    return k_hat


def _multi_indices(d, degree):
    """Multi-indices ``m`` in N^d with ``|m| <= degree``."""
    if math.comb(d + degree, d) > _MAX_FEATURES:
        raise ValueError(f"degree={degree} with {d} columns gives more than {_MAX_FEATURES} features")
    idx = [()]
    for _ in range(d):
        idx = [m + (j,) for m in idx for j in range(degree + 1 - sum(m))]
    return np.array(idx, dtype=int).reshape(-1, d)


def _hermite_functions(u, n_terms, weight):
    """``weight * H_k(u) / sqrt(2^k k!)`` for ``k < n_terms`` by the three-term recurrence.

    The weight enters at ``k = 0`` (the recurrence is linear), so where it underflows to 0 the
    values are 0 instead of ``0 * inf = nan`` from a polynomial that overflows.
    """
    h = np.empty(u.shape + (n_terms,))
    h[..., 0] = weight
    if n_terms > 1:
        h[..., 1] = np.sqrt(2.0) * u * weight
    for k in range(1, n_terms - 1):
        h[..., k + 1] = np.sqrt(2.0 / (k + 1)) * u * h[..., k] - np.sqrt(k / (k + 1)) * h[..., k - 1]
    return h


# ------------------------------------------------------------------- building kernels
def taylor_series_kernel(X, Y, coeffs):
    """Taylor-series kernel ``k(x, y) = sum_n a_n <x, y>^n`` with coefficients ``a_n >= 0``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    Y : array_like, shape (m, d), or None (then ``Y = X``)
    coeffs : array_like, shape (N,)
        Non-negative coefficients ``a_0, ..., a_{N-1}`` (a truncated power series).

    Returns
    -------
    K : ndarray, shape (n, m)

    Raises
    ------
    ValueError
        For invalid input, a negative coefficient, or a sum that overflows (naming ``coeffs``).
    """
    X, Y = check.point_sets(X, Y)
    a = check.vector(coeffs, None, "coeffs")
    if np.any(a < 0):
        raise ValueError("coeffs must be non-negative (a_n >= 0 makes the kernel PSD)")
    G = X @ Y.T
    K = np.full_like(G, a[-1])
    with np.errstate(over="ignore", invalid="ignore"):
        for a_n in a[-2::-1]:              # Horner's rule
            K = K * G + a_n
    if not np.all(np.isfinite(K)):
        raise ValueError("the series sum_n a_n <x, y>^n overflows for these X, Y and coeffs "
                         "(|<x, y>| too large for the number of terms)")
    return K


def exponentiated_quadratic(X, Y, ell):
    """Exponentiated quadratic kernel ``exp(-||x - y||^2 / (2 ell^2))``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    Y : array_like, shape (m, d), or None (then ``Y = X``)
    ell : float
        Positive length-scale.

    Returns
    -------
    K : ndarray, shape (n, m)

    Notes
    -----
    The squared distances use ``||x||^2 + ||y||^2 - 2 xᵀy`` after both point sets are centred
    on their common mean (as ``mlnotes.kernels.rbf_kernel``): a common shift leaves the
    distances unchanged and keeps the cancellation small for data far from the origin.
    """
    same = Y is None
    X, Y = check.point_sets(X, Y)
    ell = check.positive(ell, "ell")
    centre = np.vstack([X, Y]).mean(axis=0)
    X, Y = X - centre, Y - centre
    sq = np.maximum((X**2).sum(1)[:, None] + (Y**2).sum(1)[None, :] - 2 * X @ Y.T, 0.0)
    if same:
        sq = (sq + sq.T) / 2
        np.fill_diagonal(sq, 0.0)
    return np.exp(-sq / (2 * ell**2))


def polynomial_feature_map(X, degree, c=1.0):
    """Explicit features of ``(c + <x, y>)^degree`` with multinomial weights.

    ``phi_m(x) = sqrt(degree! / (m! (degree - |m|)!) c^(degree - |m|)) x^m`` for every
    multi-index ``|m| <= degree`` (only ``|m| = degree`` when ``c = 0``), so that
    ``phi(x)ᵀphi(y) = (c + xᵀy)^degree`` exactly. (Not to be confused with
    ``mlnotes.model_selection.polynomial_features``, the one-dimensional design matrix of
    chapter 11.)

    Parameters
    ----------
    X : array_like, shape (n, d)
    degree : int
        Degree ``>= 1``.
    c : float
        Non-negative offset.

    Returns
    -------
    Phi : ndarray, shape (n, F)
        ``F = C(d + degree, d)`` features (``C(d + degree - 1, d - 1)`` if ``c = 0``).

    Raises
    ------
    ValueError
        For invalid input, more than 10^6 features, or features that overflow (naming ``X``).
    """
    X = check.matrix(X, "X")
    degree = check.count(degree, "degree", low=1)
    c = check.nonnegative(c, "c")
    m = _multi_indices(X.shape[1], degree)
    if c == 0:
        m = m[m.sum(1) == degree]
    log_fact = np.array([math.lgamma(j + 1) for j in range(degree + 1)])   # no overflow
    rest = degree - m.sum(1)
    log_c = np.where(rest > 0, rest * np.log(c if c > 0 else 1.0), 0.0)
    weight = np.exp(0.5 * (log_fact[degree] - log_fact[m].sum(1) - log_fact[rest] + log_c))
    with np.errstate(over="ignore", invalid="ignore"):
        Phi = weight * np.prod(X[:, None, :] ** m[None, :, :], axis=2)
    if not np.all(np.isfinite(Phi)):
        raise ValueError(f"the degree-{degree} features of X overflow (entries of X too large)")
    return Phi


# ---------------------------------------------------------------- periodic (Fourier) case
def periodic_kernel(x, y, k_hat):
    """Translation-invariant periodic kernel ``k(x, y) = sum_l k_hat[l] exp(i l (x - y))``.

    The one implementation of the book (chapter 47 uses it too, with the two-sided array
    ``np.r_[c[:0:-1], c]`` built from coefficients ``c_0..c_L``).

    Parameters
    ----------
    x : array_like, shape (n,)
    y : array_like, shape (m,)
    k_hat : array_like, shape (2L + 1,)
        Non-negative coefficients for ``l = -L..L``, symmetric in ``l`` (so ``k`` is real).

    Returns
    -------
    K : ndarray, shape (n, m)
        ``k_hat[0] + 2 sum_{l >= 1} k_hat[l] cos(l (x_i - y_j))`` (real).
    """
    x, y = check.vector(x, None, "x"), check.vector(y, None, "y")
    k_hat = _kernel_spectrum(k_hat)
    L = k_hat.size // 2
    t = x[:, None] - y[None, :]
    l = np.arange(1, L + 1)
    return k_hat[L] + 2 * np.cos(t[..., None] * l) @ k_hat[L + 1:]


def fourier_coefficients(values):
    """Fourier coefficients ``f_hat[l] = (1 / 2pi) int_{-pi}^{pi} f(x) exp(-i l x) dx`` by FFT.

    The integral is the rectangle rule on the grid ``x_j = -pi + 2 pi j / N``, exact for
    trigonometric polynomials of degree ``< N / 2``.

    Parameters
    ----------
    values : array_like, shape (N,)
        ``f(x_j)`` on that grid; ``N = 2L + 1`` must be odd.

    Returns
    -------
    f_hat : ndarray of complex, shape (N,)
        Coefficients for ``l = -L..L``.
    """
    f = _centred_coefficients(values, "values")
    N = f.size
    L = N // 2
    l = np.arange(-L, L + 1)
    # x_j = -pi + 2 pi j / N, so exp(-i l x_j) = (-1)^l exp(-2 pi i l j / N)
    return (-1.0) ** np.abs(l) * np.fft.fftshift(np.fft.fft(f)) / N


def fourier_rkhs_inner(f_hat, g_hat, k_hat):
    """RKHS inner product ``<f, g>_H = sum_l f_hat[l] conj(g_hat[l]) / k_hat[l]``.

    Parameters
    ----------
    f_hat, g_hat : array_like, shape (2L + 1,)
        Fourier coefficients (``l = -L..L``) of two periodic functions.
    k_hat : array_like, shape (2L + 1,)
        Positive, symmetric Fourier coefficients of the kernel.

    Returns
    -------
    complex
        The inner product (real when ``f`` and ``g`` are real functions).

    Raises
    ------
    ValueError
        For shapes that differ, a ``k_hat`` that is not positive and symmetric, or a sum that
        overflows (naming ``k_hat``).
    """
    k_hat = _kernel_spectrum(k_hat, positive=True)
    f_hat = _centred_coefficients(f_hat, "f_hat")
    g_hat = _centred_coefficients(g_hat, "g_hat")
    if f_hat.shape != k_hat.shape or g_hat.shape != k_hat.shape:
        raise ValueError(f"f_hat and g_hat must have the shape of k_hat {k_hat.shape}, "
                         f"got {f_hat.shape} and {g_hat.shape}")
    with np.errstate(over="ignore", invalid="ignore"):
        value = complex(np.sum(f_hat * np.conj(g_hat) / k_hat))
    if not np.isfinite(value):
        raise ValueError("the sum f_hat conj(g_hat) / k_hat overflows: k_hat is too small where "
                         "f_hat and g_hat are not (the functions are not in this RKHS numerically)")
    return value


# ---------------------------------------------------------------- eigen-expansion (Mercer)
def gaussian_mercer(a, b, n_terms):
    """Mercer eigenvalues and orthonormal eigenfunctions of ``exp(-b (x - x')^2)`` under
    the density ``p = N(0, 1 / (4a))`` (Rasmussen & Williams, section 4.3.1).

    With ``c = sqrt(a^2 + 2ab)``, ``A = a + b + c`` and ``B = b / A``:
    ``lambda_k = sqrt(2a / A) B^k`` and
    ``e_k(x) = (c / a)^(1/4) exp(-(c - a) x^2) H_k(sqrt(2c) x) / sqrt(2^k k!)``,
    normalised so that ``int e_j e_k p = [j = k]``.

    Parameters
    ----------
    a : float
        Positive precision parameter of the density (``a = 1/4`` is the standard normal).
    b : float
        Positive kernel parameter (``b = 1 / (2 ell^2)``).
    n_terms : int
        Number of eigenpairs ``k = 0..n_terms-1``.

    Returns
    -------
    lam : ndarray, shape (n_terms,)
        Eigenvalues, decreasing.
    eigenfunctions : callable
        ``eigenfunctions(x)`` maps points of shape ``(n,)`` to an array ``(n, n_terms)``.
    """
    a, b = check.positive(a, "a"), check.positive(b, "b")
    n_terms = check.count(n_terms, "n_terms")
    c = np.sqrt(a**2 + 2 * a * b)
    A = a + b + c
    lam = np.sqrt(2 * a / A) * (b / A) ** np.arange(n_terms)

    def eigenfunctions(x):
        x = check.vector(x, None, "x")
        return _hermite_functions(np.sqrt(2 * c) * x, n_terms, (c / a) ** 0.25 * np.exp(-(c - a) * x**2))

    return lam, eigenfunctions


def nystrom_eigenfunctions(kernel, X_sample, n_terms):
    """Nyström estimates of the Mercer eigenpairs of ``kernel`` under the law of ``X_sample``.

    With ``K v_i = mu_i v_i`` (``||v_i|| = 1``) on ``n`` sample points:
    ``lambda_i ~ mu_i / n`` and ``e_i(x) ~ (sqrt(n) / mu_i) sum_j k(x, x_j) v_ij``, which
    equals ``sqrt(n) v_ij`` at the sample points, so ``(1/n) sum_j e_i(x_j)^2 = 1``.

    Parameters
    ----------
    kernel : callable
        ``kernel(X, Y)`` returns the Gram matrix of shape ``(len(X), len(Y))``.
    X_sample : array_like, shape (n, d)
        Points drawn from the measure ``p``.
    n_terms : int
        Number of eigenpairs, ``1 <= n_terms <= n``.

    Returns
    -------
    lam : ndarray, shape (n_terms,)
        Estimated eigenvalues, decreasing.
    eigenfunctions : callable
        ``eigenfunctions(X)`` maps points of shape ``(m, d)`` to an array ``(m, n_terms)``.

    Raises
    ------
    ValueError
        If the Gram matrix is not symmetric positive semi-definite, or has fewer than
        ``n_terms`` eigenvalues above rounding level (``n eps mu_max``, numpy's rank
        tolerance): the eigenfunctions of rounding noise would be meaningless.
    """
    check.function(kernel, "kernel")
    X_sample = check.matrix(X_sample, "X_sample")
    n = X_sample.shape[0]
    n_terms = check.count(n_terms, "n_terms")
    if n_terms > n:
        raise ValueError(f"n_terms must be at most the sample size {n}, got {n_terms}")
    K = check.returned(kernel(X_sample, X_sample), "kernel", shape=(n, n))
    scale = max(np.abs(K).max(), np.finfo(float).tiny)
    if not np.allclose(K, K.T, rtol=1e-10, atol=1e-12 * scale):
        raise ValueError("kernel must return a symmetric Gram matrix on X_sample")
    mu, V = np.linalg.eigh((K + K.T) / 2)
    if mu[0] < -1e-10 * scale:
        raise ValueError(f"kernel is not positive semi-definite: its Gram matrix on X_sample has "
                         f"the eigenvalue {mu[0]:.3g}")
    mu, V = mu[::-1][:n_terms], V[:, ::-1][:, :n_terms]
    if mu[-1] <= n * np.finfo(float).eps * max(mu[0], scale):     # numpy's rank tolerance
        raise ValueError(f"the kernel Gram matrix has fewer than n_terms = {n_terms} eigenvalues "
                         "above rounding level; lower n_terms")

    def eigenfunctions(X):
        X = check.matrix_with_columns(X, X_sample.shape[1], "X")
        K_x = check.returned(kernel(X, X_sample), "kernel", shape=(X.shape[0], n))
        return K_x @ V * (np.sqrt(n) / mu)

    return mu / n, eigenfunctions


# ------------------------------------------------------ functions in the RKHS
def rkhs_norm(alpha, K):
    """RKHS norm ``||f||_H = sqrt(alphaᵀ K alpha)`` of ``f = sum_i alpha_i k(x_i, .)``.

    Parameters
    ----------
    alpha : array_like, shape (n,)
        Coefficients.
    K : array_like, shape (n, n)
        Symmetric positive semi-definite Gram matrix ``k(x_i, x_j)``.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``K`` is not symmetric positive semi-definite or ``alpha`` has the wrong length.
    """
    K = check.psd(K, None, "K")
    alpha = check.vector(alpha, K.shape[0], "alpha")
    return float(np.sqrt(max(float(alpha @ K @ alpha), 0.0)))     # >= -rounding for PSD K


def rkhs_evaluate(alpha, X, kernel, x):
    """Evaluate ``f(x) = sum_i alpha_i k(x_i, x)`` at the rows of ``x``.

    Parameters
    ----------
    alpha : array_like, shape (n,)
        Coefficients.
    X : array_like, shape (n, d)
        The points ``x_i`` of the kernel sections.
    kernel : callable
        ``kernel(A, B)`` returns the Gram matrix of shape ``(len(A), len(B))``.
    x : array_like, shape (m, d)
        Evaluation points.

    Returns
    -------
    ndarray, shape (m,)
    """
    X = check.matrix(X, "X")
    alpha = check.vector(alpha, X.shape[0], "alpha")
    check.function(kernel, "kernel")
    x = check.matrix_with_columns(x, X.shape[1], "x")
    K = check.returned(kernel(x, X), "kernel", shape=(x.shape[0], X.shape[0]))
    return K @ alpha
