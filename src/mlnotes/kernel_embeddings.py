"""Kernel embeddings (chapter 10): centring, kernel PCA, maximum mean discrepancy, HSIC
and permutation tests.

Conventions. Data points are the rows of ``X``. Every function takes precomputed Gram
matrices, ``K[i, j] = k(x_i, x_j)``, so any positive semi-definite kernel can be used.
A two-sample statistic takes the Gram matrix of the *pooled* sample
``(x_1, ..., x_m, y_1, ..., y_n)``, whose first ``m`` rows and columns belong to the
first sample. The statistics accept a stack of Gram matrices of shape ``(..., N, N)``
and return one value per matrix, which lets :func:`permutation_test` evaluate a whole
batch of permutations in one call.
"""
from dataclasses import dataclass

import numpy as np

from mlnotes import _validate as check

__all__ = [
    "centering_matrix", "center_kernel",
    "KernelPCAResult", "kernel_pca",
    "mmd2_biased", "mmd2_unbiased", "hsic_biased",
    "PermutationTestResult", "permutation_test",
]

# permutation_test evaluates the statistic on batches of at most this many matrix entries
_BATCH_ENTRIES = 2**21
# null values within this relative distance of the observed statistic count as ties (>=)
TIE_RELATIVE_TOLERANCE = 1e-10


# ------------------------------------------------------------------------ validation
def _gram(K, name):
    """A finite symmetric Gram matrix, or a stack of them of shape (..., N, N)."""
    K = check.as_float(K, name)
    if K.ndim == 2:
        return check.square(K, name, symmetric=True)
    if K.ndim < 2 or K.shape[-1] != K.shape[-2] or K.size == 0:
        raise ValueError(f"{name} must be a non-empty square matrix or a stack of them, "
                         f"shape (..., N, N); got shape {K.shape}")
    K = check.finite(K, name)
    Kt = np.swapaxes(K, -1, -2)
    if not np.array_equal(K, Kt):  # exact equality is the fast, common case
        scale = max(1.0, float(np.abs(K).max()))
        if np.abs(K - Kt).max() > 1e-10 * scale:
            raise ValueError(f"{name} must be symmetric")
    return K


def _split(m, N, minimum):
    """Check the size ``m`` of the first sample of a pooled sample of size ``N``."""
    m = check.count(m, "m", low=minimum)
    if N - m < minimum:
        raise ValueError(f"m must leave at least {minimum} point(s) for the second sample: "
                         f"got m = {m} with {N} rows in K")
    return m


def _center(K):
    """``HKH`` for a Gram matrix or a stack of them (no validation)."""
    return (K - K.mean(axis=-1, keepdims=True) - K.mean(axis=-2, keepdims=True)
            + K.mean(axis=(-2, -1), keepdims=True))


# -------------------------------------------------------------------------- centring
def centering_matrix(n):
    """The centring matrix ``H = I - (1/n) 1 1ᵀ`` of size ``n``.

    ``H`` is symmetric and idempotent; ``H @ X`` subtracts the column means of ``X``.

    Parameters
    ----------
    n : int
        Number of points, at least 1.

    Returns
    -------
    H : ndarray, shape (n, n)

    Raises
    ------
    ValueError
        If ``n`` is not an integer >= 1.
    """
    n = check.count(n, "n")
    return np.eye(n) - np.full((n, n), 1.0 / n)


def center_kernel(K):
    """Centre a Gram matrix in feature space: ``HKH``, the Gram matrix of ``φ(x_i) - φ̄``.

    Computed without forming ``H``: subtract the row means and the column means of ``K``
    and add back the grand mean (the four-term expansion of ``HKH``).

    Parameters
    ----------
    K : array_like, shape (N, N) or (..., N, N)
        Symmetric Gram matrix, or a stack of them (each is centred).

    Returns
    -------
    ndarray, same shape as ``K``

    Raises
    ------
    ValueError
        If ``K`` is not a finite, symmetric, square matrix (or stack of them).
    """
    return _center(_gram(K, "K"))


# ------------------------------------------------------------------------ kernel PCA
@dataclass(frozen=True, repr=False)
class KernelPCAResult:
    """Kernel principal components of a sample.

    Attributes
    ----------
    eigenvalues : ndarray, shape (n_components,)
        Variances ``λ_l`` of the data along the principal directions ``f_l``: the
        eigenvalues of the empirical covariance operator, i.e. those of ``HKH`` divided
        by ``n``, in decreasing order.
    alphas : ndarray, shape (n, n_components)
        Column ``l`` holds the coefficients of ``f_l = Σ_i alphas[i, l] (φ(x_i) - φ̄)``,
        scaled so that ``‖f_l‖ = 1`` in feature space.
    scores : ndarray, shape (n, n_components)
        Projections ``⟨φ(x_i) - φ̄, f_l⟩`` of the training points, ``HKH @ alphas``.
    """

    eigenvalues: np.ndarray
    alphas: np.ndarray
    scores: np.ndarray

    def __repr__(self):
        n, k = self.alphas.shape
        return f"KernelPCAResult(n={n}, n_components={k})"


def kernel_pca(K, n_components=2):
    """Kernel PCA: eigenvectors of the centred Gram matrix ``HKH``, scaled to unit-norm directions.

    With ``HKH u_l = μ_l u_l`` (``μ_1 ≥ μ_2 ≥ ...``), the coefficients ``α_l = u_l / √μ_l``
    give directions ``f_l`` of unit norm, the projections of the training points are
    ``HKH α_l = √μ_l u_l``, and their variance is ``λ_l = μ_l / n``. Each ``u_l`` is given
    the sign that makes its largest entry in absolute value positive.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Symmetric positive semi-definite Gram matrix of the training points.
    n_components : int
        Number of components, at most the number of positive eigenvalues of ``HKH``.

    Returns
    -------
    KernelPCAResult

    Raises
    ------
    ValueError
        If ``K`` is not a finite symmetric square matrix, is not positive semi-definite,
        or has fewer than ``n_components`` positive eigenvalues after centring.
    """
    K = check.square(K, "K", symmetric=True)
    n = K.shape[0]
    n_components = check.count(n_components, "n_components")
    mu, U = np.linalg.eigh(_center(K))
    mu, U = mu[::-1], U[:, ::-1]                       # decreasing order
    scale = max(abs(mu[0]), abs(mu[-1]), np.finfo(float).tiny)
    if mu[-1] < -1e-8 * scale:
        raise ValueError("K must be positive semi-definite (HKH has a negative eigenvalue)")
    n_positive = int(np.sum(mu > n * np.finfo(float).eps * scale))
    if n_components > n_positive:
        raise ValueError(f"n_components must be at most {n_positive}, the number of positive "
                         f"eigenvalues of the centred K; got {n_components}")
    mu, U = mu[:n_components], U[:, :n_components]
    cols = np.arange(n_components)
    U = U * np.where(U[np.abs(U).argmax(axis=0), cols] < 0, -1.0, 1.0)
    return KernelPCAResult(eigenvalues=mu / n, alphas=U / np.sqrt(mu), scores=U * np.sqrt(mu))


# ---------------------------------------------------------------------------- MMD
def mmd2_biased(K, m):
    """Biased (V-statistic) estimate of MMD²: mean(Kxx) + mean(Kyy) - 2 mean(Kxy).

    It is ``‖μ̂_P - μ̂_Q‖²``, the squared distance between the empirical mean embeddings,
    so it is never negative.

    Parameters
    ----------
    K : array_like, shape (N, N) or (..., N, N)
        Gram matrix of the pooled sample: rows ``0..m-1`` are ``x_1..x_m`` (from ``P``),
        rows ``m..N-1`` are ``y_1..y_n`` (from ``Q``), ``n = N - m``. A stack gives one
        estimate per matrix.
    m : int
        Size of the first sample, ``1 <= m <= N - 1``.

    Returns
    -------
    float or ndarray of shape ``K.shape[:-2]``

    Raises
    ------
    ValueError
        If ``K`` is not a finite symmetric square matrix (or stack), or ``m`` does not
        leave at least one point in each sample.
    """
    K = _gram(K, "K")
    m = _split(m, K.shape[-1], 1)
    axes = (-2, -1)
    return (K[..., :m, :m].mean(axis=axes) + K[..., m:, m:].mean(axis=axes)
            - 2 * K[..., :m, m:].mean(axis=axes))


def mmd2_unbiased(K, m):
    """Unbiased (U-statistic) estimate of MMD²: the within-sample means leave out ``i = j``.

    ``Σ_{i≠j} k(x_i, x_j) / (m(m-1)) + Σ_{i≠j} k(y_i, y_j) / (n(n-1)) - 2 Σ_{i,j} k(x_i, y_j) / (mn)``;
    its expectation is exactly MMD², and it can be negative.

    Parameters
    ----------
    K : array_like, shape (N, N) or (..., N, N)
        Gram matrix of the pooled sample, first ``m`` rows from ``P`` (see
        :func:`mmd2_biased`).
    m : int
        Size of the first sample; both ``m`` and ``n = N - m`` must be at least 2.

    Returns
    -------
    float or ndarray of shape ``K.shape[:-2]``

    Raises
    ------
    ValueError
        If ``K`` is not a finite symmetric square matrix (or stack), or either sample has
        fewer than 2 points.
    """
    K = _gram(K, "K")
    m = _split(m, K.shape[-1], 2)
    n = K.shape[-1] - m
    Kxx, Kyy = K[..., :m, :m], K[..., m:, m:]
    off_xx = Kxx.sum(axis=(-2, -1)) - np.trace(Kxx, axis1=-2, axis2=-1)
    off_yy = Kyy.sum(axis=(-2, -1)) - np.trace(Kyy, axis1=-2, axis2=-1)
    return (off_xx / (m * (m - 1)) + off_yy / (n * (n - 1))
            - 2 * K[..., :m, m:].mean(axis=(-2, -1)))


# ---------------------------------------------------------------------------- HSIC
def hsic_biased(K, L):
    """Biased estimate of HSIC: ``tr(KHLH) / n²`` (normalised by ``n²``, not ``(n-1)²``).

    Computed as ``Σ_ij (HKH)_ij L_ij / n²``, which equals the trace because ``H`` is
    symmetric and idempotent. It is the squared Hilbert-Schmidt norm of the empirical
    cross-covariance operator of the centred features.

    Parameters
    ----------
    K : array_like, shape (n, n) or (..., n, n)
        Gram matrix of ``x_1..x_n`` (kernel ``k``).
    L : array_like, shape (n, n) or (..., n, n)
        Gram matrix of the paired ``y_1..y_n`` (kernel ``l``), row ``i`` paired with row
        ``i`` of ``K``. Stacks of ``K`` and ``L`` are broadcast against each other.

    Returns
    -------
    float or ndarray
        One value per pair of matrices.

    Raises
    ------
    ValueError
        If ``K`` or ``L`` is not a finite symmetric square matrix (or stack), or their
        sizes or stack shapes do not match.
    """
    K, L = _gram(K, "K"), _gram(L, "L")
    n = K.shape[-1]
    if L.shape[-1] != n:
        raise ValueError(f"L must have the size of K ({n} x {n}), got shape {L.shape}")
    try:
        np.broadcast_shapes(K.shape, L.shape)
    except ValueError:
        raise ValueError(f"L has stack shape {L.shape[:-2]}, which does not broadcast "
                         f"against K's {K.shape[:-2]}") from None
    return (_center(K) * L).sum(axis=(-2, -1)) / n**2


# ---------------------------------------------------------------- permutation test
@dataclass(frozen=True, repr=False)
class PermutationTestResult:
    """Outcome of a permutation test.

    Attributes
    ----------
    statistic : float
        The statistic ``T`` of the observed data.
    pvalue : float
        ``(1 + #{b : T_b >= T}) / (1 + B)``.
    null_distribution : ndarray, shape (B,)
        The statistics ``T_1, ..., T_B`` of the permuted data.
    """

    statistic: float
    pvalue: float
    null_distribution: np.ndarray

    def __repr__(self):
        return (f"PermutationTestResult(statistic={self.statistic:.4g}, "
                f"pvalue={self.pvalue:.4g}, n_permutations={self.null_distribution.size})")


def permutation_test(statistic, K, L=None, *, n_permutations=199, rng):
    """Permutation test of a kernel statistic; large values are evidence against H₀.

    Two-sample test (``L`` is None): each permutation relabels the pooled sample, so the
    rows and columns of ``K`` are permuted together and ``statistic(K_perm)`` is computed.
    Independence test (``L`` given): each permutation re-pairs the ``y``'s with the
    ``x``'s, so the rows and columns of ``L`` are permuted and ``statistic(K, L_perm)`` is
    computed. Permuted matrices are built with index arrays, a batch at a time, and the
    statistic is called once per batch on a stack of shape ``(b, N, N)``. The p-value is
    ``(1 + #{T_b >= T}) / (1 + B)``.

    Parameters
    ----------
    statistic : callable
        ``statistic(K)`` (two-sample) or ``statistic(K, L)`` (independence); it must
        accept a stack of permuted matrices of shape ``(b, N, N)`` and return ``b``
        values, e.g. ``lambda K: mmd2_biased(K, m)`` or :func:`hsic_biased`.
    K : array_like, shape (N, N)
        Symmetric Gram matrix of the pooled sample (two-sample) or of the ``x``'s.
    L : array_like, shape (N, N), optional
        Symmetric Gram matrix of the paired ``y``'s (independence test).
    n_permutations : int
        Number ``B`` of random permutations, at least 1.
    rng : numpy.random.Generator
        Source of the permutations.

    Returns
    -------
    PermutationTestResult

    Raises
    ------
    ValueError
        If ``statistic`` is not callable, ``K`` or ``L`` is not a finite symmetric square
        matrix, their sizes differ, ``n_permutations`` is not a positive integer, ``rng``
        is not a Generator, or ``statistic`` returns the wrong number of values or a
        value that is not finite.
    """
    statistic = check.function(statistic, "statistic")
    K = check.square(K, "K", symmetric=True)
    if L is not None:
        L = check.square(L, "L", symmetric=True)
        if L.shape != K.shape:
            raise ValueError(f"L must have the shape of K {K.shape}, got {L.shape}")
    B = check.count(n_permutations, "n_permutations")
    rng = check.generator(rng)
    A, stat = (K, statistic) if L is None else (L, lambda M: statistic(K, M))
    N = A.shape[0]
    observed = check.returned(stat(A), "statistic")
    if observed.size != 1:
        raise ValueError(f"statistic must return one value for one matrix, got shape {observed.shape}")
    observed = float(observed.reshape(()))
    perms = rng.permuted(np.tile(np.arange(N), (B, 1)), axis=1)
    batch = max(1, _BATCH_ENTRIES // (N * N))
    null = []
    for p in (perms[s:s + batch] for s in range(0, B, batch)):
        values = check.returned(stat(A[p[:, :, None], p[:, None, :]]), "statistic")
        if values.shape != (len(p),):
            raise ValueError(f"statistic must return one value per matrix of a stack; for "
                             f"{len(p)} matrices it returned shape {values.shape}")
        null.append(values)
    null = np.concatenate(null)
    tol = TIE_RELATIVE_TOLERANCE * max(abs(observed), float(np.abs(null).max()))
    pvalue = (1 + int(np.sum(null >= observed - tol))) / (1 + B)
    return PermutationTestResult(statistic=observed, pvalue=pvalue, null_distribution=null)
