"""Embeddings for visualisation (chapter 20): SNE affinities calibrated by perplexity,
t-distributed stochastic neighbour embedding (t-SNE) and locally linear embedding (LLE).

Conventions. Data points are the rows of ``X`` (shape ``(n, d)``); an embedding ``Y`` has
shape ``(n, m)`` with ``m`` small (usually 2). Entropies and perplexities use base 2, so
``perplexity = 2 ** H``.
"""
from dataclasses import dataclass

import numpy as np
import scipy.linalg
from scipy.spatial.distance import pdist, squareform

from mlnotes import _validate as check
from mlnotes.information import kl_divergence  # KL(P || Q) of two joint distributions (chapter 4)

__all__ = ["squared_distances", "conditional_p", "joint_p", "joint_q", "kl_divergence",
           "tsne_gradient", "TSNEResult", "tsne", "lle_weights", "lle"]


def squared_distances(X):
    """Matrix of squared Euclidean distances ``D[i, j] = ||x_i - x_j||^2`` between rows.

    Computed from the differences ``x_i - x_j`` (``scipy.spatial.distance.pdist``), not
    from ``||x_i||² + ||x_j||² - 2 x_i·x_j``, whose cancellation loses the distances of
    data far from the origin: ``D`` is invariant under a translation of ``X`` and scales
    as ``c²`` under ``X -> c X``, to rounding.

    Parameters
    ----------
    X : array_like, shape (n, d)

    Returns
    -------
    ndarray, shape (n, n)
        Symmetric, non-negative, with a zero diagonal.

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array.
    """
    X = check.matrix(X)
    return squareform(pdist(X, "sqeuclidean")) if X.shape[0] > 1 else np.zeros((1, 1))


def _row_entropy(D, beta):
    """Conditional rows ``p_{j|i}`` for precisions ``beta`` (diagonal excluded) and their entropies in bits."""
    shifted = D - np.min(D, axis=1, keepdims=True)     # D has +inf on the diagonal
    E = np.exp(-beta[:, None] * shifted)
    Z = E.sum(axis=1)
    P = E / Z[:, None]
    H = np.log(Z) + beta * np.sum(P * np.where(np.isfinite(shifted), shifted, 0.0), axis=1)
    return P, H / np.log(2)


def conditional_p(X, perplexity, tol=1e-10, max_steps=200):
    """SNE's conditional probabilities ``p_{j|i}``, each row calibrated to the given perplexity.

    Row ``i`` is a Gaussian kernel of precision ``beta_i = 1 / (2 sigma_i^2)`` around ``x_i``,
    normalised over ``j != i``; ``beta_i`` is found by bisection on ``log beta_i`` (all rows
    at once) so that the row's perplexity ``2 ** H(P_i)`` equals ``perplexity``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    perplexity : float
        Target perplexity, strictly between 1 and ``n - 1``.
    tol : float
        Stop when every row's entropy is within ``tol`` bits of ``log2(perplexity)``.
    max_steps : int
        Maximum number of bisection steps.

    Returns
    -------
    P : ndarray, shape (n, n)
        Row-stochastic, zero diagonal: ``P[i, j] = p_{j|i}``.
    beta : ndarray, shape (n,)
        The calibrated precisions ``1 / (2 sigma_i^2)``.

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array with at least 3 rows, or ``perplexity`` is
        outside ``(1, n - 1)``.
    """
    D = squared_distances(X)
    n = D.shape[0]
    if n < 3:
        raise ValueError(f"X must have at least 3 rows (points), got {n}")
    perplexity = check.positive(perplexity, "perplexity")
    if not 1 < perplexity < n - 1:
        raise ValueError(f"perplexity must lie strictly between 1 and n - 1 = {n - 1}, got {perplexity!r}")
    tol, max_steps = check.positive(tol, "tol"), check.count(max_steps, "max_steps")
    np.fill_diagonal(D, np.inf)
    gaps = D - D.min(axis=1, keepdims=True)
    scale = np.mean(np.where(np.isfinite(gaps), gaps, 0.0), axis=1) + 1e-300
    lo, hi = np.full(n, -60.0), np.full(n, 60.0)          # log(beta_i * scale_i)
    target = np.log2(perplexity)
    for _ in range(max_steps):
        mid = (lo + hi) / 2
        P, H = _row_entropy(D, np.exp(mid) / scale)
        too_flat = H > target                          # entropy decreases as beta grows
        lo, hi = np.where(too_flat, mid, lo), np.where(too_flat, hi, mid)
        if np.all(np.abs(H - target) < tol):
            break
    return P, np.exp(mid) / scale


def joint_p(X, perplexity):
    """t-SNE's symmetrised joint probabilities ``p_ij = (p_{j|i} + p_{i|j}) / (2n)``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    perplexity : float
        As in :func:`conditional_p`.

    Returns
    -------
    ndarray, shape (n, n)
        Symmetric, zero diagonal, summing to 1.

    Raises
    ------
    ValueError
        As :func:`conditional_p`.
    """
    P, _ = conditional_p(X, perplexity)
    return (P + P.T) / (2 * P.shape[0])


def joint_q(Y):
    """Student-t (one degree of freedom) joint probabilities of an embedding and the kernel.

    ``q_ij = w_ij / sum_{k != l} w_kl`` with ``w_ij = (1 + ||y_i - y_j||^2)^{-1}`` and
    ``w_ii = 0``.

    Parameters
    ----------
    Y : array_like, shape (n, m)

    Returns
    -------
    Q : ndarray, shape (n, n)
        Symmetric, zero diagonal, summing to 1.
    W : ndarray, shape (n, n)
        The unnormalised kernel ``w_ij`` (zero diagonal).

    Raises
    ------
    ValueError
        If ``Y`` is not a finite 2-D array with at least 2 rows, or all its distances overflow.
    """
    Y = check.matrix(Y, "Y")
    if Y.shape[0] < 2:
        raise ValueError(f"Y must have at least 2 rows, got {Y.shape[0]}")
    with np.errstate(over="ignore"):
        W = 1.0 / (1.0 + squared_distances(Y))
    np.fill_diagonal(W, 0.0)
    if not W.sum() > 0:
        raise ValueError("Y's points are too far apart: every squared distance overflows, so Q is undefined")
    return W / W.sum(), W


def tsne_gradient(P, Y):
    """Gradient of ``KL(P || Q(Y))`` for t-SNE: ``4 sum_j (p_ij - q_ij) w_ij (y_i - y_j)``.

    Parameters
    ----------
    P : array_like, shape (n, n)
        Symmetric joint probabilities with zero diagonal (e.g. from :func:`joint_p`).
    Y : array_like, shape (n, m)
        The embedding.

    Returns
    -------
    ndarray, shape (n, m)
        Invariant under a translation of ``Y``; computed from the centred ``Y``, so a
        large offset does not cancel away the gradient.

    Raises
    ------
    ValueError
        If ``P`` is not a symmetric probability matrix matching ``Y``.
    """
    Y = check.matrix(Y, "Y")
    P = check.square(P, "P", symmetric=True)
    check.probabilities(P.ravel(), "P")
    if P.shape[0] != Y.shape[0]:
        raise ValueError(f"P must have shape ({Y.shape[0]}, {Y.shape[0]}) to match Y, got {P.shape}")
    return _gradient(P, Y - Y.mean(axis=0))[0]    # the gradient is translation-invariant: centre first


def _gradient(P, Y):
    """Unchecked t-SNE gradient for any non-negative ``P`` (also exaggerated), and ``Q``."""
    Q, W = joint_q(Y)
    G = 4 * (P - Q) * W
    return G.sum(axis=1)[:, None] * Y - G @ Y, Q


@dataclass(repr=False)
class TSNEResult:
    """A t-SNE embedding and the KL divergence ``KL(P || Q)`` after every iteration.

    Attributes
    ----------
    Y : ndarray, shape (n, m)
    kl : ndarray, shape (n_iter,)
        ``kl[t]`` is the divergence, with the true (not exaggerated) ``P``, at the
        iterate before step ``t``.
    """

    Y: np.ndarray
    kl: np.ndarray

    def __repr__(self):
        return f"TSNEResult(n={self.Y.shape[0]}, m={self.Y.shape[1]}, final KL={self.kl[-1]:.4f})"


def tsne(X, perplexity=30.0, n_iter=1000, rng=None, n_components=2, learning_rate=None,
         exaggeration=12.0, n_exaggeration=250):
    """Exact t-SNE by gradient descent with momentum, adaptive gains and early exaggeration.

    Starts from ``N(0, 1e-4 I)``; for the first ``n_exaggeration`` iterations ``P`` is
    multiplied by ``exaggeration`` and the momentum is 0.5, then 0.8 (van der Maaten &
    Hinton, 2008). The default learning rate is ``max(n / exaggeration / 4, 50)``. Each
    coordinate's gain grows by 0.2 where the gradient and the last update have opposite
    signs and shrinks by the factor 0.8 elsewhere (also where either is zero, as at the
    first step), never below 0.01: the rule of scikit-learn's ``_gradient_descent``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    perplexity : float
    n_iter : int
        Number of gradient steps.
    rng : numpy.random.Generator
        Source of the random initial embedding.
    n_components : int
        Dimension ``m`` of the embedding.
    learning_rate : float or None
    exaggeration : float
        Factor (>= 1) applied to ``P`` during the first ``n_exaggeration`` iterations.
    n_exaggeration : int
        Length of the early-exaggeration phase (>= 0).

    Returns
    -------
    TSNEResult

    Raises
    ------
    ValueError
        On invalid ``X``, ``perplexity``, counts, rates or ``rng`` (each named), or if the
        iterates diverge (reduce ``learning_rate``).
    """
    n_iter, m = check.count(n_iter, "n_iter"), check.count(n_components, "n_components")
    rng = check.generator(rng)
    n_exaggeration = check.count(n_exaggeration, "n_exaggeration", low=0)
    if check.positive(exaggeration, "exaggeration") < 1:
        raise ValueError(f"exaggeration must be >= 1, got {exaggeration!r}")
    learning_rate = None if learning_rate is None else check.positive(learning_rate, "learning_rate")
    P = joint_p(X, perplexity)
    n = P.shape[0]
    eta = max(n / exaggeration / 4, 50.0) if learning_rate is None else learning_rate
    Y = 1e-2 * rng.standard_normal((n, m))
    support = P > 0
    update, gains, kl = np.zeros_like(Y), np.ones_like(Y), np.empty(n_iter)
    for t in range(n_iter):
        early = t < n_exaggeration
        grad, Q = _gradient(P * exaggeration if early else P, Y)
        agree = grad * update < 0                       # -grad points the way the last step went
        gains = np.maximum(np.where(agree, gains + 0.2, gains * 0.8), 0.01)
        update = (0.5 if early else 0.8) * update - eta * gains * grad
        kl[t] = np.sum(P[support] * np.log(P[support] / Q[support]))   # KL at Y before the step
        Y = Y + update
        if not np.all(np.abs(Y) < 1e150):                # beyond, the squared distances overflow
            raise ValueError(f"t-SNE diverged at iteration {t}: the embedding's coordinates exceed 1e150 "
                             f"(or are not finite); reduce learning_rate (it is {eta:g})")
    return TSNEResult(Y=Y, kl=kl)


def lle_weights(X, n_neighbors, reg=1e-3):
    """LLE reconstruction weights: row ``i`` best rebuilds ``x_i`` from its k nearest neighbours.

    Minimises ``||x_i - sum_j w_ij x_j||^2`` subject to ``sum_j w_ij = 1`` and ``w_ij = 0``
    outside the neighbours: ``w_i`` is proportional to ``G_i^{-1} 1`` with the local Gram
    matrix ``G_i[a, b] = (x_a - x_i) . (x_b - x_i)``, regularised by adding
    ``reg * trace(G_i)`` to its diagonal (scikit-learn's convention).

    Parameters
    ----------
    X : array_like, shape (n, d)
    n_neighbors : int
        Number ``k`` of neighbours, ``1 <= k < n``.
    reg : float
        Regulariser (>= 0), relative to the trace of each local Gram matrix.

    Returns
    -------
    ndarray, shape (n, n)
        Weight matrix whose rows sum to 1.

    Raises
    ------
    ValueError
        On invalid ``X``, ``n_neighbors`` or ``reg``, or a singular local Gram matrix.
    """
    D = squared_distances(X)
    X = np.asarray(X, dtype=float)
    n = X.shape[0]
    k = check.count(n_neighbors, "n_neighbors")
    if k >= n:
        raise ValueError(f"n_neighbors must be smaller than n = {n}, got {k}")
    reg = check.nonnegative(reg, "reg")
    np.fill_diagonal(D, np.inf)
    idx = np.argsort(D, axis=1, kind="stable")[:, :k]            # (n, k)
    C = X[idx] - X[:, None, :]                                    # (n, k, d)
    G = C @ C.transpose(0, 2, 1)                                  # local Gram matrices
    trace = np.trace(G, axis1=1, axis2=2)
    G = G + np.where(trace > 0, reg * trace, reg)[:, None, None] * np.eye(k)
    try:
        w = np.linalg.solve(G, np.ones((n, k, 1)))[..., 0]
    except np.linalg.LinAlgError:
        raise ValueError("reg must be positive: a local Gram matrix is singular") from None
    W = np.zeros((n, n))
    W[np.arange(n)[:, None], idx] = w / w.sum(axis=1, keepdims=True)
    return W


def lle(X, n_components=2, n_neighbors=10, reg=1e-3):
    """Locally linear embedding: bottom eigenvectors of ``M = (I - W)^T (I - W)``.

    Skips the constant eigenvector (eigenvalue 0), takes the next ``n_components``, and
    scales them by ``sqrt(n)`` so that the embedding is centred with unit covariance
    ``Y^T Y / n = I``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    n_components : int
        Dimension ``m`` of the embedding, ``m < n``.
    n_neighbors, reg
        As in :func:`lle_weights`.

    Returns
    -------
    ndarray, shape (n, m)

    Raises
    ------
    ValueError
        As :func:`lle_weights`, or if ``n_components`` is not below ``n``.
    """
    W = lle_weights(X, n_neighbors, reg)
    n = W.shape[0]
    m = check.count(n_components, "n_components")
    if m >= n:
        raise ValueError(f"n_components must be smaller than n = {n}, got {m}")
    I_W = np.eye(n) - W
    _, V = scipy.linalg.eigh(I_W.T @ I_W, subset_by_index=(0, m))   # the m + 1 smallest
    return np.sqrt(n) * V[:, 1:]
