"""Kernel embeddings (chapter 10): centring, kernel PCA, maximum mean discrepancy, HSIC,
Hilbert-Schmidt norms, permutation tests and the asymptotic (spectral and gamma) null laws.

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
from scipy.special import gammaincc

from mlnotes import _validate as check

__all__ = [
    "centering_matrix", "center_kernel",
    "KernelPCAResult", "kernel_pca",
    "mmd2_biased", "mmd2_unbiased", "hsic_biased",
    "PermutationTestResult", "permutation_test",
    "mmd2_variance_h1", "mmd2_null_spectral",
    "hs_norm2", "hsic_unbiased", "HSICGammaResult", "hsic_gamma_test",
]

# permutation_test evaluates the statistic on batches of at most this many matrix entries
_BATCH_ENTRIES = 2**21
# centering_matrix refuses to allocate more entries than this (2 GiB of float64)
_MAX_CENTRING_ENTRIES = 2**28
# permutation_test and mmd2_null_spectral refuse work beyond this many matrix entries
_MAX_ENTRIES = 2**40
# null values within this relative distance of the observed statistic count as ties (>=)
TIE_RELATIVE_TOLERANCE = 1e-10


# ------------------------------------------------------------------------ validation
def _gram(K, name):
    """A finite symmetric Gram matrix, or a stack of them of shape (..., N, N). A single
    matrix is also checked to be positive semi-definite; a stack is not (for speed: the
    stacks of :func:`permutation_test` are permutations of one checked matrix)."""
    K = check.as_float(K, name)
    if K.ndim == 2:
        return _no_negative_eigenvalue(check.square(K, name, symmetric=True), name)
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


def _no_negative_eigenvalue(K, name):
    """``K`` (symmetric, or a stack) if no eigenvalue is below ``-1e-10`` times its largest
    entry; the eigenvalues are computed for ``K`` divided by that entry, so that entries near
    the float limit do not make LAPACK fail."""
    scale = np.abs(K).max(axis=(-2, -1), keepdims=True)
    scaled = K / np.where(scale > 0, scale, 1.0)
    if np.linalg.eigvalsh(0.5 * (scaled + np.swapaxes(scaled, -1, -2))).min() < -1e-10:
        raise ValueError(f"{name} must be positive semi-definite (no negative eigenvalue)")
    return K


def _psd_gram(K, name):
    """A finite symmetric positive semi-definite Gram matrix, or a stack of them (each checked)."""
    K = _gram(K, name)
    return K if K.ndim == 2 else _no_negative_eigenvalue(K, name)


def _pair(K, L, min_size):
    """Two Gram matrices (or broadcastable stacks) of the same size n >= ``min_size``."""
    n = K.shape[-1]
    if L.shape[-1] != n:
        raise ValueError(f"L must have the size of K ({n} x {n}), got shape {L.shape}")
    try:
        np.broadcast_shapes(K.shape, L.shape)
    except ValueError:
        raise ValueError(f"L has stack shape {L.shape[:-2]}, which does not broadcast "
                         f"against K's {K.shape[:-2]}") from None
    if n < min_size:
        raise ValueError(f"K must have at least {min_size} rows (sample points), got {n}")
    return n


def _finite(value, names):
    """``value`` if it is finite; otherwise the computation overflowed: ``ValueError``."""
    if not np.all(np.isfinite(value)):
        raise ValueError(f"the result is not finite because the computation overflowed: rescale {names}")
    return value


def _offdiag(K):
    """``K`` with its diagonal set to zero (a copy)."""
    return K * (1.0 - np.eye(K.shape[-1]))


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
        If ``n`` is not an integer >= 1, or ``n²`` exceeds 2**28 entries (2 GiB).
    """
    n = check.count(n, "n")
    if n * n > _MAX_CENTRING_ENTRIES:
        raise ValueError(f"n is too large: H would have n² = {n * n} entries (at most "
                         f"{_MAX_CENTRING_ENTRIES}); center_kernel centres without forming H")
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
        If ``K`` is not a finite, symmetric, square matrix (or stack of them), a single
        ``K`` is not positive semi-definite, or the result overflows.
    """
    return _finite(_center(_gram(K, "K")), "K")


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
        If ``K`` is not a finite symmetric square matrix (or stack), a single ``K`` is not
        positive semi-definite, ``m`` does not leave at least one point in each sample, or
        the result overflows.
    """
    K = _gram(K, "K")
    m = _split(m, K.shape[-1], 1)
    axes = (-2, -1)
    with np.errstate(over="ignore", invalid="ignore"):        # overflow is reported below
        value = (K[..., :m, :m].mean(axis=axes) + K[..., m:, m:].mean(axis=axes)
                 - 2 * K[..., :m, m:].mean(axis=axes))
    return _finite(value, "K")


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
        If ``K`` is not a finite symmetric square matrix (or stack), a single ``K`` is not
        positive semi-definite, either sample has fewer than 2 points, or the result
        overflows.
    """
    K = _gram(K, "K")
    m = _split(m, K.shape[-1], 2)
    n = K.shape[-1] - m
    Kxx, Kyy = K[..., :m, :m], K[..., m:, m:]
    with np.errstate(over="ignore", invalid="ignore"):        # overflow is reported below
        off_xx = Kxx.sum(axis=(-2, -1)) - np.trace(Kxx, axis1=-2, axis2=-1)
        off_yy = Kyy.sum(axis=(-2, -1)) - np.trace(Kyy, axis1=-2, axis2=-1)
        value = (off_xx / (m * (m - 1)) + off_yy / (n * (n - 1))
                 - 2 * K[..., :m, m:].mean(axis=(-2, -1)))
    return _finite(value, "K")


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
        If ``K`` or ``L`` is not a finite symmetric square matrix (or stack), a single
        matrix is not positive semi-definite, their sizes or stack shapes do not match, or
        the result overflows.
    """
    K, L = _gram(K, "K"), _gram(L, "L")
    n = _pair(K, L, 1)
    with np.errstate(over="ignore", invalid="ignore"):        # overflow is reported below
        value = (_center(K) * L).sum(axis=(-2, -1)) / n**2
    return _finite(value, "K and L")


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
        If ``statistic`` is not callable, ``K`` or ``L`` is not a finite symmetric positive
        semi-definite matrix, their sizes differ, ``n_permutations`` is not a positive
        integer or asks for more than 2**40 matrix entries, ``rng`` is not a Generator, or
        ``statistic`` returns the wrong number of values or a value that is not finite.
    """
    statistic = check.function(statistic, "statistic")
    K = check.square(K, "K", symmetric=True)
    K = _no_negative_eigenvalue(K, "K")
    if L is not None:
        L = _no_negative_eigenvalue(check.square(L, "L", symmetric=True), "L")
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
    if B * N * N > _MAX_ENTRIES:
        raise ValueError(f"n_permutations is too large: {B} permuted {N} x {N} matrices exceed "
                         f"{_MAX_ENTRIES} entries")
    batch = max(1, _BATCH_ENTRIES // (N * N))
    null = []
    for s in range(0, B, batch):          # the permutations too are drawn batch by batch
        p = rng.permuted(np.tile(np.arange(N), (min(batch, B - s), 1)), axis=1)
        values = check.returned(stat(A[p[:, :, None], p[:, None, :]]), "statistic")
        if values.shape != (len(p),):
            raise ValueError(f"statistic must return one value per matrix of a stack; for "
                             f"{len(p)} matrices it returned shape {values.shape}")
        null.append(values)
    null = np.concatenate(null)
    tol = TIE_RELATIVE_TOLERANCE * max(abs(observed), float(np.abs(null).max()))
    pvalue = (1 + int(np.sum(null >= observed - tol))) / (1 + B)
    return PermutationTestResult(statistic=observed, pvalue=pvalue, null_distribution=null)


# ------------------------------------------------------- asymptotics of the MMD test
def mmd2_variance_h1(K, m):
    """Estimate of the variance of ``MMD²_u`` under the alternative, ``4 var_P(g)/m + 4 var_Q(g)/n``.

    ``g = μ_P - μ_Q`` is the unnormalised witness; the two terms are the variance of the
    linear part of the U-statistic, which dominates when ``P ≠ Q``. ``g`` is estimated at
    each point with that point left out of its own sample's mean, and the variances with
    ``ddof=1``. The ratio ``MMD²_u / sqrt(variance)`` is the criterion for choosing a kernel.

    Parameters
    ----------
    K : array_like, shape (N, N) or (..., N, N)
        Gram matrix of the pooled sample, first ``m`` rows from ``P`` (see
        :func:`mmd2_biased`); a stack gives one estimate per matrix.
    m : int
        Size of the first sample; both ``m`` and ``n = N - m`` must be at least 3.

    Returns
    -------
    float or ndarray of shape ``K.shape[:-2]``

    Raises
    ------
    ValueError
        If ``K`` is not a finite symmetric square matrix (or stack), a single ``K`` is not
        positive semi-definite, either sample has fewer than 3 points, or the result
        overflows.
    """
    K = _gram(K, "K")
    m = _split(m, K.shape[-1], 3)
    n = K.shape[-1] - m
    Kxx, Kyy, Kxy = K[..., :m, :m], K[..., m:, m:], K[..., :m, m:]
    with np.errstate(over="ignore", invalid="ignore"):        # overflow is reported below
        g_x = _offdiag(Kxx).sum(axis=-1) / (m - 1) - Kxy.mean(axis=-1)     # g(x_i)
        g_y = Kxy.mean(axis=-2) - _offdiag(Kyy).sum(axis=-1) / (n - 1)     # g(y_j)
        value = 4 * g_x.var(axis=-1, ddof=1) / m + 4 * g_y.var(axis=-1, ddof=1) / n
    return _finite(value, "K")


def mmd2_null_spectral(K, m, n_samples=1000, *, rng):
    """Draws from the asymptotic null law of ``MMD²_u``: ``(1/m + 1/n) Σ_l λ_l (u_l² - 1)``.

    The ``λ_l`` are the eigenvalues of the centred kernel's integral operator, estimated by
    those of ``HKH / N`` for the pooled sample (size ``N = m + n``); the ``u_l`` are
    independent standard normals. For ``m = n`` this is ``(1/m) Σ λ_l (z_l² - 2)`` with
    ``z_l ~ N(0, 2)``.

    Parameters
    ----------
    K : array_like, shape (N, N)
        Positive semi-definite Gram matrix of the pooled sample, first ``m`` rows from ``P``.
    m : int
        Size of the first sample, ``1 <= m <= N - 1``.
    n_samples : int
        Number of draws.
    rng : numpy.random.Generator
        Source of the normal variables.

    Returns
    -------
    ndarray, shape (n_samples,)
        Draws of ``MMD²_u`` under ``H₀``.

    Raises
    ------
    ValueError
        If ``K`` is not a finite symmetric positive semi-definite matrix or is constant
        after centring, ``m`` leaves an empty sample, ``n_samples`` is not a positive
        integer (or asks for more than 2**40 normal draws), or ``rng`` is not a Generator.
    """
    K = _no_negative_eigenvalue(check.square(K, "K", symmetric=True), "K")
    N = K.shape[0]
    m = _split(m, N, 1)
    n_samples = check.count(n_samples, "n_samples")
    rng = check.generator(rng)
    lam = np.linalg.eigvalsh(_center(K)) / N
    lam = lam[lam > 1e-12 * max(lam.max(), np.finfo(float).tiny)]
    if lam.size == 0:
        raise ValueError("K is constant after centring (the kernel does not separate the "
                         "points): the null law is degenerate")
    if n_samples * lam.size > _MAX_ENTRIES:
        raise ValueError(f"n_samples is too large: {n_samples} draws of {lam.size} normals each "
                         f"exceed {_MAX_ENTRIES} numbers")
    out = np.empty(n_samples)
    step = max(1, _BATCH_ENTRIES // lam.size)
    for s in range(0, n_samples, step):                  # in batches, to bound the memory
        u2 = rng.standard_normal((min(step, n_samples - s), lam.size)) ** 2
        out[s:s + len(u2)] = (u2 - 1) @ lam
    return _finite((1 / m + 1 / (N - m)) * out, "K")


# --------------------------------------------------- Hilbert-Schmidt norms and HSIC
def hs_norm2(Ka, Kb, weights=None):
    """Squared Hilbert-Schmidt norm of a finite-rank operator ``A = Σ_i w_i a_i ⊗ b_i``: ``wᵀ(Ka ∘ Kb)w``.

    Only inner products are needed: ``‖A‖²_HS = Σ_ij w_i w_j ⟨a_i, a_j⟩⟨b_i, b_j⟩``, with
    ``Ka[i, j] = ⟨a_i, a_j⟩`` and ``Kb[i, j] = ⟨b_i, b_j⟩``. With ``a_i = φ(x_i)``,
    ``b_i = ψ(y_i)`` and the default weights ``1/n`` it is ``‖Ĉ_xy‖²_HS = tr(KL)/n²``, the
    squared norm of the (uncentred) empirical cross-covariance operator.

    Parameters
    ----------
    Ka : array_like, shape (n, n)
        Gram matrix of ``a_1..a_n`` (symmetric positive semi-definite).
    Kb : array_like, shape (n, n)
        Gram matrix of ``b_1..b_n``, paired with ``a_1..a_n``.
    weights : array_like, shape (n,), optional
        The weights ``w_i``; default ``1/n`` each.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``Ka`` or ``Kb`` is not a finite symmetric positive semi-definite matrix, their
        sizes differ, ``weights`` is not a finite vector of length ``n``, or the result
        overflows.
    """
    Ka = _no_negative_eigenvalue(check.square(Ka, "Ka", symmetric=True), "Ka")
    n = Ka.shape[0]
    Kb = _no_negative_eigenvalue(check.square(Kb, "Kb", symmetric=True), "Kb")
    if Kb.shape != Ka.shape:
        raise ValueError(f"Kb must have the shape of Ka {Ka.shape}, got {Kb.shape}")
    w = np.full(n, 1.0 / n) if weights is None else check.vector(weights, n, "weights")
    return float(_finite(w @ (Ka * Kb) @ w, "Ka, Kb and weights"))


def hsic_unbiased(K, L):
    """Unbiased estimate of HSIC (Song et al., 2012), from the Gram matrices with zeroed diagonals.

    With ``K'``, ``L'`` the Gram matrices whose diagonals are set to zero,
    ``[tr(K'L') + (1ᵀK'1)(1ᵀL'1)/((n-1)(n-2)) - 2/(n-2) 1ᵀK'L'1] / (n(n-3))``; it is the
    U-statistic of the population form of HSIC, so its expectation is exactly HSIC, and it
    can be negative.

    Parameters
    ----------
    K : array_like, shape (n, n) or (..., n, n)
        Gram matrix of ``x_1..x_n``; ``n >= 4``.
    L : array_like, shape (n, n) or (..., n, n)
        Gram matrix of the paired ``y_1..y_n``. Stacks of ``K`` and ``L`` are broadcast.

    Returns
    -------
    float or ndarray
        One value per pair of matrices.

    Raises
    ------
    ValueError
        If ``K`` or ``L`` is not a finite symmetric square matrix (or stack), a single
        matrix is not positive semi-definite, their sizes or stack shapes do not match,
        ``n < 4``, or the result overflows.
    """
    K, L = _gram(K, "K"), _gram(L, "L")
    n = _pair(K, L, 4)
    K0, L0 = _offdiag(K), _offdiag(L)
    with np.errstate(over="ignore", invalid="ignore"):        # overflow is reported below
        k1, l1 = K0.sum(axis=-1), L0.sum(axis=-1)             # K'1 and L'1
        tr = (K0 * L0).sum(axis=(-2, -1))
        both = k1.sum(axis=-1) * l1.sum(axis=-1) / ((n - 1) * (n - 2))
        mixed = 2 * (k1 * l1).sum(axis=-1) / (n - 2)
        value = (tr + both - mixed) / (n * (n - 3))
    return _finite(value, "K and L")


@dataclass(frozen=True, repr=False)
class HSICGammaResult:
    """Outcome of the gamma-approximation HSIC test (arrays for a stack of data sets).

    Attributes
    ----------
    statistic : float or ndarray
        ``n·HSIC_b``.
    pvalue : float or ndarray
        Upper tail of the fitted gamma law at ``statistic``.
    shape, scale : float or ndarray
        ``α = E²/V`` and ``β = nV/E`` from the estimated null mean ``E`` and variance ``V``
        of ``HSIC_b``.
    null_mean, null_var : float or ndarray
        The estimates ``E`` and ``V``.
    """

    statistic: object
    pvalue: object
    shape: object
    scale: object
    null_mean: object
    null_var: object

    def __repr__(self):
        size = np.size(self.statistic)
        if size == 1:
            return (f"HSICGammaResult(statistic={float(self.statistic):.4g}, "
                    f"pvalue={float(self.pvalue):.4g})")
        return f"HSICGammaResult(n_tests={size})"


def hsic_gamma_test(K, L):
    """HSIC independence test with the gamma approximation of Gretton et al. (2008).

    Under independence ``n·HSIC_b`` is approximated by a gamma law with the null mean ``nE``
    and variance ``n²V`` of ``n·HSIC_b``: shape ``E²/V`` and scale ``nV/E``. The null mean
    ``E = (n-1)/n² · (k̄_d - k̄_o)(l̄_d - l̄_o)`` (``k̄_d``, ``k̄_o``: means of the diagonal and
    off-diagonal entries of ``K``) is unbiased under independence; the variance is
    ``V = 2(n-4)(n-5)/(n(n-1)(n-2)(n-3))`` times the mean over ``i ≠ j`` of
    ``((HKH)_ij (HLH)_ij)²``.

    Parameters
    ----------
    K : array_like, shape (n, n) or (..., n, n)
        Positive semi-definite Gram matrix of ``x_1..x_n``; ``n >= 6``.
    L : array_like, shape (n, n) or (..., n, n)
        Positive semi-definite Gram matrix of the paired ``y_1..y_n``; stacks are broadcast.

    Returns
    -------
    HSICGammaResult

    Raises
    ------
    ValueError
        If ``K`` or ``L`` is not a finite symmetric positive semi-definite matrix (or
        stack), their sizes do not match, ``n < 6``, a kernel is constant on the sample
        (the null law is then degenerate), or the computation overflows.
    """
    K, L = _psd_gram(K, "K"), _psd_gram(L, "L")
    n = _pair(K, L, 6)
    Kc, Lc = _center(K), _center(L)
    statistic = (Kc * Lc).sum(axis=(-2, -1)) / n

    def spread(A):          # mean of the diagonal minus mean of the off-diagonal entries
        d = np.trace(A, axis1=-2, axis2=-1)
        return d / n - (A.sum(axis=(-2, -1)) - d) / (n * (n - 1))

    sk, sl = spread(K), spread(L)
    for name, A, s in (("K", K, sk), ("L", L, sl)):
        if np.any(s <= 1e-12 * np.abs(A).max(axis=(-2, -1))):
            raise ValueError(f"{name} is (nearly) constant on the sample: the kernel does not "
                             f"separate its points, and the null law is degenerate")
    mean = (n - 1) / n**2 * sk * sl
    var = (2 * (n - 4) * (n - 5) / (n * (n - 1) * (n - 2) * (n - 3))
           * (_offdiag(Kc * Lc) ** 2).sum(axis=(-2, -1)) / (n * (n - 1)))
    with np.errstate(over="ignore", invalid="ignore"):
        shape, scale = mean**2 / var, n * var / mean
    _finite(np.stack(np.broadcast_arrays(statistic, shape, scale)), "K and L")
    pvalue = gammaincc(shape, statistic / scale)
    return HSICGammaResult(statistic=statistic, pvalue=pvalue, shape=shape, scale=scale,
                           null_mean=mean, null_var=var)
