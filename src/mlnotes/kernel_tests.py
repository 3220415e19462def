"""Characteristic kernels, the constrained covariance (COCO) and the kernel Stein discrepancy.

Chapter 47. Conventions: on the circle ``[-pi, pi)`` a translation-invariant kernel is
``k(x - y) = sum_l k_hat[l] exp(i l (x - y))`` with ``k_hat[-l] = k_hat[l] >= 0``, and a
distribution ``P`` is described by its characteristic function at the integers,
``phi_P(l) = E_P exp(i l x)``; arrays of Fourier coefficients hold ``l = 0, 1, ..., L``.
The kernel itself is ``mlnotes.rkhs.periodic_kernel(x, y, k_hat)`` of chapter 46, which takes
the two-sided array ``l = -L..L`` (``np.r_[c[:0:-1], c]`` from ``c_0..c_L``).
On ``R^d`` the characteristic function is ``phi_P(w) = E_P exp(i wᵀx)``. The Stein
kernels use the RBF kernel with a length-scale, ``k(x, y) = exp(-||x - y||² / (2 ell²))``.
"""
from dataclasses import dataclass

import numpy as np

from mlnotes import _validate as check

__all__ = [
    "empirical_characteristic_function", "mmd2_fourier_periodic",
    "mmd2_random_features", "NonCharacteristicDemo", "non_characteristic_demo",
    "coco", "coco_closed_form", "CocoWitness", "coco_witness",
    "stein_kernel_rbf", "ksd_u", "ksd_v", "WildBootstrapResult", "ksd_wild_bootstrap",
    "SteinIdentityResult", "stein_identity", "stein_witness",
]


# ------------------------------------------------------------------ private checks
def _fourier_coefficients(c, name, real=False):
    """A non-empty finite 1-D array of Fourier coefficients ``c_0..c_L`` (complex allowed)."""
    if isinstance(c, (str, bytes)) or c is None:
        raise ValueError(f"{name} must be a 1-D array of numbers, got {type(c).__name__}")
    try:
        arr = np.asarray(c, dtype=float if real else complex)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{name} must be a 1-D array of numbers: {err}") from None
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must have shape (L + 1,) with L >= 0, got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    return arr


def _pair_of_grams(K, L):
    K, L = check.psd(K, None, "K"), check.psd(L, None, "L")
    if L.shape != K.shape:
        raise ValueError(f"L must have the shape of K {K.shape}, got {L.shape}")
    return K, L


def _center(K):
    """``HKH`` for a matrix or a stack of them (no validation)."""
    return (K - K.mean(axis=-1, keepdims=True) - K.mean(axis=-2, keepdims=True)
            + K.mean(axis=(-2, -1), keepdims=True))


def _psd_sqrt(S, inverse=False, name=None):
    """Symmetric square root (or pseudo-inverse square root) of PSD matrices (..., n, n);
    with ``name``, an eigenvalue below rounding level gives a ``ValueError`` naming it."""
    s, U = np.linalg.eigh(S)
    if name is not None and s.min() < -1e-10 * max(float(np.abs(S).max()), 1e-300):
        raise ValueError(f"{name} must be positive semi-definite (its centred Gram matrix has "
                         f"the eigenvalue {s.min():.3g})")
    s = np.clip(s, 0.0, None)
    if inverse:
        keep = s > 1e-10 * s.max(axis=-1, keepdims=True)
        s = np.where(keep, 1 / np.sqrt(np.where(keep, s, 1.0)), 0.0)
    else:
        s = np.sqrt(s)
    return (U * s[..., None, :]) @ np.swapaxes(U, -1, -2)


def _sample(X, name="X", min_size=1):
    """A finite sample as shape (n, d): 1-D input is read as n points in one dimension."""
    X = check.as_float(X, name)
    if X.ndim == 1:
        X = X[:, None]
    X = check.matrix(X, name)
    if X.shape[0] < min_size:
        raise ValueError(f"{name} must hold at least {min_size} points, got {X.shape[0]}")
    return X


def _score_values(score, X):
    return check.returned(score(X), "score", shape=X.shape)


# ------------------------------------------------------ characteristic functions, MMD
def empirical_characteristic_function(X, omegas):
    """Empirical characteristic function ``phi_hat(w) = (1/n) sum_i exp(i wᵀx_i)``.

    Parameters
    ----------
    X : array_like, shape (n, d) or (n,)
        Sample; a 1-D array is ``n`` points on the line.
    omegas : array_like, shape (m, d) or (m,)
        Frequencies (for ``d = 1`` a 1-D array, e.g. the integers ``0..L`` on the circle).

    Returns
    -------
    ndarray of complex, shape (m,)
    """
    X = _sample(X)
    W = _sample(omegas, "omegas")
    if W.shape[1] != X.shape[1]:
        raise ValueError(f"omegas must have {X.shape[1]} columns like X, got {W.shape[1]}")
    return np.exp(1j * (X @ W.T)).mean(axis=0)


def mmd2_fourier_periodic(phi_p, phi_q, k_hat):
    """MMD² on the circle in Fourier terms, ``sum_l k_hat_l |phi_P(l) - phi_Q(l)|²``.

    For real distributions ``phi(-l) = conj(phi(l))`` and ``k_hat`` is symmetric, so the
    sum over ``l = -L..L`` is ``k_hat_0 |Δ_0|² + 2 sum_{l>=1} k_hat_l |Δ_l|²``.

    Parameters
    ----------
    phi_p, phi_q : array_like of complex, shape (L + 1,)
        ``E exp(i l x)`` for ``l = 0..L`` (population or empirical).
    k_hat : array_like, shape (L + 1,)
        Non-negative kernel coefficients for ``l = 0..L``.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If the shapes differ, ``k_hat`` has a negative entry, or ``phi_p``/``phi_q`` is not a
        characteristic function (``phi(0) = 1``, ``|phi| <= 1``).
    """
    phi_p = _fourier_coefficients(phi_p, "phi_p")
    phi_q = _fourier_coefficients(phi_q, "phi_q")
    k_hat = _fourier_coefficients(k_hat, "k_hat", real=True)
    if phi_q.shape != phi_p.shape or k_hat.shape != phi_p.shape:
        raise ValueError(f"phi_q and k_hat must have the shape of phi_p {phi_p.shape}, "
                         f"got {phi_q.shape} and {k_hat.shape}")
    if np.any(k_hat < 0):
        raise ValueError("k_hat must be non-negative (a kernel has k_hat_l >= 0)")
    for phi, name in ((phi_p, "phi_p"), (phi_q, "phi_q")):
        # a characteristic function has phi(0) = 1 and |phi| <= 1; density coefficients
        # p_hat_l = conj(phi(l)) / (2 pi) (the notes' convention) are caught here
        if abs(phi[0] - 1) > 1e-9 or np.any(np.abs(phi) > 1 + 1e-9):
            raise ValueError(f"{name} must be a characteristic function E exp(i l x) at l = 0..L "
                             f"(phi(0) = 1, |phi| <= 1), got phi(0) = {phi[0]:.4g}")
    weights = np.r_[1.0, np.full(k_hat.size - 1, 2.0)] * k_hat
    return float(weights @ np.abs(phi_p - phi_q) ** 2)


def mmd2_random_features(X, Y, n_features, gamma, rng):
    """MMD² for ``exp(-gamma ||x - y||²)`` with random Fourier features (Bochner).

    ``w_j ~ N(0, 2 gamma I)`` (the spectral measure), ``b_j ~ U[0, 2 pi)``,
    ``z(x) = sqrt(2/D) cos(Wᵀx + b)`` as in ``sklearn``'s ``RBFSampler``; returns
    ``||mean z(X) - mean z(Y)||²``, an unbiased estimate (over the features) of the biased
    sample MMD².

    Parameters
    ----------
    X : array_like, shape (m, d) or (m,)
    Y : array_like, shape (n, d) or (n,)
    n_features : int
        Number ``D`` of random features.
    gamma : float
        Positive kernel parameter.
    rng : numpy.random.Generator

    Returns
    -------
    float
    """
    X, Y = _sample(X), _sample(Y, "Y")
    if Y.shape[1] != X.shape[1]:
        raise ValueError(f"Y must have {X.shape[1]} columns like X, got {Y.shape[1]}")
    D = check.count(n_features, "n_features")
    gamma = check.positive(gamma, "gamma")
    rng = check.generator(rng)
    W = np.sqrt(2 * gamma) * rng.standard_normal((X.shape[1], D))
    b = rng.uniform(0, 2 * np.pi, D)
    z_bar = lambda S: np.sqrt(2 / D) * np.cos(S @ W + b).mean(axis=0)  # noqa: E731
    return float(np.sum((z_bar(X) - z_bar(Y)) ** 2))


@dataclass(frozen=True, repr=False)
class NonCharacteristicDemo:
    """Two kernels and two distributions on the circle (see :func:`non_characteristic_demo`).

    Attributes
    ----------
    k_hat_blind, k_hat_zero_mean : ndarray, shape (L + 1,)
        ``rho^l`` with ``l = 1`` removed, and ``rho^l`` with ``l = 0`` removed.
    phi_p, phi_q : ndarray of complex, shape (L + 1,)
        Characteristic functions of ``P`` (uniform) and ``Q`` (density ``(1 + a cos x)/(2 pi)``).
    mmd2_blind, mmd2_zero_mean : float
        The population MMD² of ``P`` and ``Q`` under the two kernels.
    """

    k_hat_blind: np.ndarray
    k_hat_zero_mean: np.ndarray
    phi_p: np.ndarray
    phi_q: np.ndarray
    mmd2_blind: float
    mmd2_zero_mean: float

    def __repr__(self):
        return (f"NonCharacteristicDemo(L={self.phi_p.size - 1}, mmd2_blind={self.mmd2_blind:.4g}, "
                f"mmd2_zero_mean={self.mmd2_zero_mean:.4g})")


def non_characteristic_demo(a=0.8, rho=0.5, L=40):
    """A kernel with ``k_hat_1 = 0`` cannot tell two laws apart that differ only at ``l = 1``.

    ``P`` is uniform on the circle, ``Q`` has density ``(1 + a cos x) / (2 pi)``, so
    ``phi_Q(1) = a / 2`` and ``phi_Q(l) = phi_P(l)`` for every ``l != ±1``. The kernel
    ``k_hat_l = rho^|l|`` with ``k_hat_1`` set to 0 gives MMD² = 0; the one with
    ``k_hat_0`` set to 0 (all others positive) gives ``2 rho (a/2)² > 0``.

    Parameters
    ----------
    a : float
        Amplitude in ``[-1, 1]`` (so that the density of ``Q`` is non-negative).
    rho : float
        Decay of the kernel coefficients, ``0 < rho < 1``.
    L : int
        Highest frequency kept, ``L >= 1``.

    Returns
    -------
    NonCharacteristicDemo
    """
    a = check.number_between(a, "a", -1.0, 1.0)
    rho = check.number_between(rho, "rho", 0.0, 1.0, open_low=True, open_high=True)
    L = check.count(L, "L", low=1)
    base = rho ** np.arange(L + 1)
    blind, zero_mean = base.copy(), base.copy()
    blind[1], zero_mean[0] = 0.0, 0.0
    phi_p = np.zeros(L + 1, complex)
    phi_p[0] = 1.0
    phi_q = phi_p.copy()
    phi_q[1] = a / 2
    return NonCharacteristicDemo(blind, zero_mean, phi_p, phi_q,
                                 mmd2_fourier_periodic(phi_p, phi_q, blind),
                                 mmd2_fourier_periodic(phi_p, phi_q, zero_mean))


# ------------------------------------------------------------------------- COCO
def coco(K, L, eps=1e-9):
    """Empirical COCO as the largest generalised eigenvalue (corrected, symmetric form).

    Solves ``[[0, K̃L̃/n], [L̃K̃/n, 0]] v = gamma blockdiag(K̃ + eps I, L̃ + eps I) v`` with
    ``K̃ = HKH``, ``L̃ = HLH``, by a Cholesky reduction to a symmetric eigenproblem. The
    ridge ``eps`` (relative to the largest eigenvalue of each block) makes the right-hand
    matrix invertible (``K̃ 1 = 0``); the value is exact as ``eps -> 0``.

    Parameters
    ----------
    K, L : array_like, shape (n, n)
        Symmetric Gram matrices of the paired samples ``x_i`` and ``y_i``.
    eps : float
        Relative ridge, at least the float spacing ``2.2e-16``.

    Returns
    -------
    float
        ``gamma_max``.

    Raises
    ------
    ValueError
        If ``K`` or ``L`` is not symmetric positive semi-definite, their shapes differ, or
        ``eps`` is too small for the Cholesky factorisation.
    """
    K, L = _pair_of_grams(K, L)
    eps = check.positive(eps, "eps")
    if eps < np.finfo(float).eps:
        raise ValueError(f"eps = {eps:.3g} is below the float spacing 2.2e-16: the ridge would be "
                         "lost to rounding and the right-hand matrix left singular")
    n = K.shape[0]
    Kc, Lc = _center(K), _center(L)
    try:
        RK = np.linalg.cholesky(Kc + eps * max(np.abs(Kc).max(), 1e-300) * np.eye(n))
        RL = np.linalg.cholesky(Lc + eps * max(np.abs(Lc).max(), 1e-300) * np.eye(n))
    except np.linalg.LinAlgError:
        raise ValueError(f"eps = {eps:.3g} is below the rounding level of the centred Gram "
                         "matrices (singular along 1); use eps >= 1e-12") from None
    A = np.zeros((2 * n, 2 * n))
    A[:n, n:] = Kc @ Lc / n
    A[n:, :n] = Lc @ Kc / n
    R_inv = np.linalg.inv(np.block([[RK, np.zeros((n, n))], [np.zeros((n, n)), RL]]))
    C = R_inv @ A @ R_inv.T
    return float(np.linalg.eigvalsh((C + C.T) / 2)[-1])


def coco_closed_form(K, L):
    """Empirical COCO in closed form, ``(1/n) ||K̃^{1/2} L̃^{1/2}||_2 = (1/n) sqrt(λ_max(K̃L̃))``.

    Accepts stacks, so it can be passed to :func:`mlnotes.kernel_embeddings.permutation_test`.

    Parameters
    ----------
    K, L : array_like, shape (n, n) or (..., n, n)
        Gram matrices (stacks broadcast against each other).

    Returns
    -------
    float or ndarray of shape ``broadcast(K, L).shape[:-2]``

    Raises
    ------
    ValueError
        If a matrix is not symmetric positive semi-definite or the sizes differ.
    """
    K, L = check.square_stack(K, "K"), check.square_stack(L, "L")
    if L.shape[-1] != K.shape[-1]:
        raise ValueError(f"L must have the size of K ({K.shape[-1]}), got shape {L.shape}")
    n = K.shape[-1]
    for G, name in ((K, "K"), (L, "L")):
        scale = max(float(np.abs(G).max()), np.finfo(float).tiny)
        if not np.allclose(G, np.swapaxes(G, -1, -2), rtol=1e-10, atol=1e-12 * scale):
            raise ValueError(f"{name} must be symmetric (a Gram matrix or a stack of them)")
    S = _psd_sqrt(_center(K), name="K")
    M = S @ _center(L) @ S                      # K̃^{1/2} L̃ K̃^{1/2}: same spectrum as K̃L̃
    if np.linalg.eigvalsh(_center(L)).min() < -1e-10 * max(float(np.abs(L).max()), 1e-300):
        raise ValueError("L must be positive semi-definite (its centred Gram matrix has a negative eigenvalue)")
    lam = np.linalg.eigvalsh((M + np.swapaxes(M, -1, -2)) / 2)[..., -1]
    out = np.sqrt(np.clip(lam, 0.0, None)) / n
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True, repr=False)
class CocoWitness:
    """The COCO witness pair (see :func:`coco_witness`).

    Attributes
    ----------
    value : float
        Empirical COCO.
    alpha, beta : ndarray, shape (n,)
        Coefficients with ``alphaᵀK̃alpha = betaᵀL̃beta = 1``.
    f, g : ndarray
        The witnesses at the evaluation points (the sample when none are given).
    """

    value: float
    alpha: np.ndarray
    beta: np.ndarray
    f: np.ndarray
    g: np.ndarray

    def __repr__(self):
        return f"CocoWitness(value={self.value:.4g}, n={self.alpha.size})"


def coco_witness(K, L, K_eval=None, L_eval=None):
    """Witness functions ``f = sum_i alpha_i (k(x_i, .) - mean_j k(x_j, .))`` and ``g`` of COCO.

    From the top singular pair ``(u, v)`` of ``K̃^{1/2} L̃^{1/2}``: ``alpha = K̃^{+1/2} u``,
    ``beta = L̃^{+1/2} v`` (pseudo-inverse square roots), so both have unit RKHS norm and
    ``(1/n) sum_i f(x_i) g(y_i)`` over the centred values is COCO.

    Parameters
    ----------
    K, L : array_like, shape (n, n)
        Gram matrices of the sample.
    K_eval : array_like, shape (m, n), optional
        ``k(t_a, x_i)`` at evaluation points ``t_a``; ``None`` evaluates at the sample.
    L_eval : array_like, shape (m', n), optional
        ``l(s_b, y_i)``, likewise.

    Returns
    -------
    CocoWitness
    """
    K, L = _pair_of_grams(K, L)
    n = K.shape[0]
    evals = []
    for M, G, name in ((K_eval, K, "K_eval"), (L_eval, L, "L_eval")):
        M = G if M is None else check.matrix(M, name)
        if M.shape[1] != n:
            raise ValueError(f"{name} must have {n} columns (one per sample point), got {M.shape[1]}")
        evals.append(M)
    Kc, Lc = _center(K), _center(L)
    U, s, Vt = np.linalg.svd(_psd_sqrt(Kc) @ _psd_sqrt(Lc))
    alpha, beta = _psd_sqrt(Kc, inverse=True) @ U[:, 0], _psd_sqrt(Lc, inverse=True) @ Vt[0]
    alpha, beta = alpha - alpha.mean(), beta - beta.mean()     # remove rounding along 1
    # alpha lies in the range of K̃, orthogonal to 1, so sum_i alpha_i = 0 and the centring
    # term -(sum_i alpha_i) mean_j k(x_j, t) of f(t) vanishes: f(t) = sum_i alpha_i k(t, x_i)
    f, g = evals[0] @ alpha, evals[1] @ beta
    return CocoWitness(float(s[0] / n), alpha, beta, f, g)


# ----------------------------------------------------------- Stein discrepancy
def stein_kernel_rbf(X, score, ell):
    """Gram matrix of the Stein kernel ``h_p`` for the RBF kernel with length-scale ``ell``.

    ``h_p(x, y) = k(x, y) [s(x)ᵀs(y) + (s(x) - s(y))ᵀ(x - y)/ell² + d/ell² - ||x - y||²/ell⁴]``
    with ``s = ∇ log p`` and ``k(x, y) = exp(-||x - y||² / (2 ell²))``.

    Parameters
    ----------
    X : array_like, shape (n, d) or (n,)
        Sample from ``q``.
    score : callable
        ``score(X)`` returns ``∇ log p`` at the rows of ``X``, shape (n, d).
    ell : float
        Positive length-scale.

    Returns
    -------
    H : ndarray, shape (n, n)

    Raises
    ------
    ValueError
        For invalid input, a score of the wrong shape, or values that overflow (naming ``X``).
    """
    X = _sample(X)
    score = check.function(score, "score")
    ell = check.positive(ell, "ell")
    S = _score_values(score, X)
    diff = X[:, None, :] - X[None, :, :]
    with np.errstate(over="ignore", invalid="ignore"):
        r2 = np.sum(diff ** 2, axis=-1)
        k = np.exp(-r2 / (2 * ell ** 2))
        cross = np.einsum("ijk,ijk->ij", S[:, None, :] - S[None, :, :], diff)
        H = k * (S @ S.T + cross / ell ** 2 + X.shape[1] / ell ** 2 - r2 / ell ** 4)
    if not np.all(np.isfinite(H)):
        raise ValueError("the Stein kernel overflows: the entries of X (or the score at X) are "
                         "too large for floating point")
    return H


def ksd_u(X, score, ell):
    """U-statistic ``(1/(n(n-1))) sum_{i≠j} h_p(z_i, z_j)``, unbiased for KSD².

    Parameters
    ----------
    X : array_like, shape (n, d) or (n,)
        Sample from ``q``, ``n >= 2``.
    score : callable
        ``∇ log p`` (see :func:`stein_kernel_rbf`).
    ell : float
        Positive length-scale.

    Returns
    -------
    float
    """
    X = _sample(X, min_size=2)
    H = stein_kernel_rbf(X, score, ell)
    n = H.shape[0]
    return float((H.sum() - np.trace(H)) / (n * (n - 1)))


def ksd_v(X, score, ell):
    """V-statistic ``(1/n²) sum_{i,j} h_p(z_i, z_j) = ||(1/n) sum_i xi_{z_i}||²`` (never negative).

    Parameters
    ----------
    X : array_like, shape (n, d) or (n,)
    score : callable
    ell : float

    Returns
    -------
    float
    """
    return float(stein_kernel_rbf(X, score, ell).mean())


@dataclass(frozen=True, repr=False)
class WildBootstrapResult:
    """Outcome of the KSD wild-bootstrap test.

    Attributes
    ----------
    statistic : float
        The U-statistic :func:`ksd_u`.
    pvalue : float
        ``(1 + #{b : T_b >= T}) / (1 + B)``.
    null_distribution : ndarray, shape (B,)
        ``(1/(n(n-1))) sum_{i≠j} sigma_i sigma_j h_p(z_i, z_j)`` for Rademacher ``sigma``.
    """

    statistic: float
    pvalue: float
    null_distribution: np.ndarray

    def __repr__(self):
        return (f"WildBootstrapResult(statistic={self.statistic:.4g}, pvalue={self.pvalue:.4g}, "
                f"B={self.null_distribution.size})")


def ksd_wild_bootstrap(X, score, ell, B, rng):
    """Wild-bootstrap test of ``H0: q = p`` with the KSD U-statistic.

    Under ``H0`` the U-statistic is degenerate; multiplying ``h_p(z_i, z_j)`` by
    ``sigma_i sigma_j`` with i.i.d. Rademacher ``sigma`` imitates its null distribution.
    All ``B`` bootstrap statistics are one matrix product.

    Parameters
    ----------
    X : array_like, shape (n, d) or (n,)
        Sample, ``n >= 2``.
    score : callable
        ``∇ log p``.
    ell : float
        Positive length-scale.
    B : int
        Number of bootstrap draws.
    rng : numpy.random.Generator

    Returns
    -------
    WildBootstrapResult
    """
    X = _sample(X, min_size=2)
    H = stein_kernel_rbf(X, score, ell)
    B = check.count(B, "B")
    rng = check.generator(rng)
    n = H.shape[0]
    H0 = H - np.diag(np.diag(H))
    T = H0.sum() / (n * (n - 1))
    sigma = rng.choice([-1.0, 1.0], size=(B, n))
    null = np.einsum("bi,ij,bj->b", sigma, H0, sigma) / (n * (n - 1))
    tol = 1e-10 * max(abs(T), float(np.abs(null).max()))
    return WildBootstrapResult(float(T), (1 + int(np.sum(null >= T - tol))) / (1 + B), null)


@dataclass(frozen=True)
class SteinIdentityResult:
    """Monte Carlo estimate of ``E_P[T_P f]``: ``mean`` and its standard error ``stderr``."""

    mean: float
    stderr: float


def stein_identity(score, f, df, samples):
    """Monte Carlo mean of the Stein operator ``(T_P f)(x) = f'(x) + f(x) (log p)'(x)``.

    Parameters
    ----------
    score : callable
        ``(log p)'`` evaluated elementwise on a 1-D array.
    f, df : callable
        The test function and its derivative, elementwise.
    samples : array_like, shape (n,)
        Draws from ``p``, ``n >= 2``.

    Returns
    -------
    SteinIdentityResult
        ``mean`` of ``T_P f`` over the samples and its standard error.
    """
    score, f, df = (check.function(g, name) for g, name in ((score, "score"), (f, "f"), (df, "df")))
    x = check.vector(samples, None, "samples")
    if x.size < 2:
        raise ValueError(f"samples must hold at least 2 draws, got {x.size}")
    t = (check.returned(df(x), "df", shape=x.shape)
         + check.returned(f(x), "f", shape=x.shape) * check.returned(score(x), "score", shape=x.shape))
    return SteinIdentityResult(float(t.mean()), float(t.std(ddof=1) / np.sqrt(x.size)))


def stein_witness(t, X, score, ell):
    """Empirical Stein witness ``(1/n) sum_i xi_{z_i}(t) = (1/n) sum_i [k(t, z_i) s(z_i) + ∂_z k(t, z_i)]``.

    One-dimensional (``d = 1``); its RKHS norm squared is :func:`ksd_v`.

    Parameters
    ----------
    t : array_like, shape (m,)
        Evaluation points.
    X : array_like, shape (n,)
        Sample from ``q``.
    score : callable
        ``(log p)'``, elementwise.
    ell : float
        Positive length-scale.

    Returns
    -------
    ndarray, shape (m,)
    """
    t = check.vector(t, None, "t")
    z = check.vector(X, None, "X")
    score = check.function(score, "score")
    ell = check.positive(ell, "ell")
    s = check.returned(score(z), "score", shape=z.shape)
    diff = t[:, None] - z[None, :]
    with np.errstate(over="ignore", invalid="ignore"):
        k = np.exp(-diff ** 2 / (2 * ell ** 2))
        w = (k * (s[None, :] + diff / ell ** 2)).mean(axis=1)
    if not np.all(np.isfinite(w)):
        raise ValueError("the Stein witness overflows: the entries of t or X (or the score) are too large")
    return w
