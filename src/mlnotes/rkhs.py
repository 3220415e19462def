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
    "taylor_series_kernel", "exponentiated_quadratic", "polynomial_features",
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


def _hermite_functions(u, n_terms):
    """``H_k(u) / sqrt(2^k k!)`` for ``k < n_terms`` by the stable three-term recurrence."""
    h = np.empty(u.shape + (n_terms,))
    h[..., 0] = 1.0
    if n_terms > 1:
        h[..., 1] = np.sqrt(2.0) * u
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
    """
    X, Y = check.point_sets(X, Y)
    a = check.vector(coeffs, None, "coeffs")
    if np.any(a < 0):
        raise ValueError("coeffs must be non-negative (a_n >= 0 makes the kernel PSD)")
    G = X @ Y.T
    K = np.full_like(G, a[-1])
    for a_n in a[-2::-1]:                  # Horner's rule
        K = K * G + a_n
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
    """
    X, Y = check.point_sets(X, Y)
    ell = check.positive(ell, "ell")
    sq = (X**2).sum(1)[:, None] + (Y**2).sum(1)[None, :] - 2 * X @ Y.T
    return np.exp(-np.maximum(sq, 0.0) / (2 * ell**2))


def polynomial_features(X, degree, c=1.0):
    """Explicit features of ``(c + <x, y>)^degree`` with multinomial weights.

    ``phi_m(x) = sqrt(degree! / (m! (degree - |m|)!) c^(degree - |m|)) x^m`` for every
    multi-index ``|m| <= degree`` (only ``|m| = degree`` when ``c = 0``), so that
    ``phi(x)ᵀphi(y) = (c + xᵀy)^degree`` exactly.

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
    """
    X = check.matrix(X, "X")
    degree = check.count(degree, "degree", low=1)
    c = check.nonnegative(c, "c")
    m = _multi_indices(X.shape[1], degree)
    if c == 0:
        m = m[m.sum(1) == degree]
    fact = np.array([math.factorial(j) for j in range(degree + 1)], dtype=float)
    rest = degree - m.sum(1)
    weight = np.sqrt(fact[degree] / (fact[m].prod(1) * fact[rest]) * c**rest)
    return weight * np.prod(X[:, None, :] ** m[None, :, :], axis=2)


# ---------------------------------------------------------------- periodic (Fourier) case
def periodic_kernel(k_hat, x, y):
    """Translation-invariant periodic kernel ``k(x, y) = sum_l k_hat[l] exp(i l (x - y))``.

    Parameters
    ----------
    k_hat : array_like, shape (2L + 1,)
        Non-negative coefficients for ``l = -L..L``, symmetric in ``l`` (so ``k`` is real).
    x : array_like, shape (n,)
    y : array_like, shape (m,)

    Returns
    -------
    K : ndarray, shape (n, m)
        ``k_hat[0] + 2 sum_{l >= 1} k_hat[l] cos(l (x_i - y_j))`` (real).
    """
    k_hat = _kernel_spectrum(k_hat)
    x, y = check.vector(x, None, "x"), check.vector(y, None, "y")
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
    """
    k_hat = _kernel_spectrum(k_hat, positive=True)
    f_hat = _centred_coefficients(f_hat, "f_hat")
    g_hat = _centred_coefficients(g_hat, "g_hat")
    if f_hat.shape != k_hat.shape or g_hat.shape != k_hat.shape:
        raise ValueError(f"f_hat and g_hat must have the shape of k_hat {k_hat.shape}, "
                         f"got {f_hat.shape} and {g_hat.shape}")
    return complex(np.sum(f_hat * np.conj(g_hat) / k_hat))


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
        h = _hermite_functions(np.sqrt(2 * c) * x, n_terms)
        return (c / a) ** 0.25 * np.exp(-(c - a) * x**2)[:, None] * h

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
    """
    check.function(kernel, "kernel")
    X_sample = check.matrix(X_sample, "X_sample")
    n = X_sample.shape[0]
    n_terms = check.count(n_terms, "n_terms")
    if n_terms > n:
        raise ValueError(f"n_terms must be at most the sample size {n}, got {n_terms}")
    K = check.returned(kernel(X_sample, X_sample), "kernel", shape=(n, n))
    mu, V = np.linalg.eigh((K + K.T) / 2)
    mu, V = mu[::-1][:n_terms], V[:, ::-1][:, :n_terms]
    if np.any(mu <= 0):
        raise ValueError("kernel Gram matrix has fewer than n_terms positive eigenvalues")

    def eigenfunctions(X):
        X = check.matrix_with_columns(X, X_sample.shape[1], "X")
        return kernel(X, X_sample) @ V * (np.sqrt(n) / mu)

    return mu / n, eigenfunctions


# ------------------------------------------------------ functions in the RKHS
def rkhs_norm(alpha, K):
    """RKHS norm ``||f||_H = sqrt(alphaᵀ K alpha)`` of ``f = sum_i alpha_i k(x_i, .)``.

    Parameters
    ----------
    alpha : array_like, shape (n,)
        Coefficients.
    K : array_like, shape (n, n)
        Symmetric Gram matrix ``k(x_i, x_j)``.

    Returns
    -------
    float
    """
    K = check.square(K, "K", symmetric=True)
    alpha = check.vector(alpha, K.shape[0], "alpha")
    q = float(alpha @ K @ alpha)
    if q < -1e-10 * max(1.0, np.abs(K).max()) * (alpha @ alpha):
        raise ValueError("K must be positive semi-definite: alphaᵀ K alpha < 0")
    return float(np.sqrt(max(q, 0.0)))


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
