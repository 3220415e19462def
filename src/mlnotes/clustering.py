"""k-means, EM and Gaussian mixtures (chapter 18).

Conventions. Data points are the rows of ``X`` (shape ``(n, d)``); there are ``k``
clusters or mixture components, indexed ``0, ..., k-1``. Centres and means are the rows
of a ``(k, d)`` array, covariances a ``(k, d, d)`` array. Logarithms are natural.
"""
from dataclasses import dataclass

import numpy as np

from mlnotes import _validate as check

__all__ = [
    "KMeansResult", "kmeans_assign", "kmeans_inertia", "kmeans",
    "GMMResult", "gmm_log_joint", "gmm_e_step", "gmm_m_step", "gmm_log_likelihood", "gmm_em",
]


# ------------------------------------------------------------------------------ k-means

@dataclass(frozen=True, repr=False)
class KMeansResult:
    """Outcome of Lloyd's algorithm.

    Attributes
    ----------
    labels : ndarray of int, shape (n,)
        Index of the nearest final centre of each point.
    centres : ndarray, shape (k, d)
        The final centres.
    inertia : float
        Sum of squared distances of the points to their nearest centre.
    n_iter : int
        Number of (assignment, update) rounds that were run.
    converged : bool
        Whether an assignment repeated the previous one before ``max_iter`` rounds.
    history : ndarray
        The objective after every half-step: ``J(c¹, μ⁰), J(c¹, μ¹), J(c², μ¹), ...``.
    """

    labels: np.ndarray
    centres: np.ndarray
    inertia: float
    n_iter: int
    converged: bool
    history: np.ndarray

    def __repr__(self):
        k, d = self.centres.shape
        return (f"KMeansResult(k={k}, d={d}, inertia={self.inertia:.6g}, "
                f"n_iter={self.n_iter}, converged={self.converged})")


def _squared_distances(X, centres):
    """Matrix of squared Euclidean distances, shape (n, k).

    One pass over the data per centre (k is small), which avoids the (n, k, d) array of
    all differences and is about three times faster.
    """
    D = np.empty((X.shape[0], centres.shape[0]))
    for j, c in enumerate(centres):
        diff = X - c
        D[:, j] = np.einsum("ij,ij->i", diff, diff)
    return D


def kmeans_assign(X, centres):
    """Assignment step: the index of the nearest centre of every point (ties to the lowest index).

    Parameters
    ----------
    X : array_like, shape (n, d)
    centres : array_like, shape (k, d)

    Returns
    -------
    ndarray of int, shape (n,)

    Raises
    ------
    ValueError
        If ``X`` or ``centres`` is not a finite 2-D array, or their widths differ.
    """
    X = check.matrix(X)
    centres = _centres(centres, X.shape[1], "centres")
    return np.argmin(_squared_distances(X, centres), axis=1)


def kmeans_inertia(X, centres, labels):
    """The k-means objective ``J(c, μ) = Σᵢ ‖xᵢ − μ_{cᵢ}‖²`` for any assignment ``labels``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    centres : array_like, shape (k, d)
    labels : array_like of int, shape (n,)
        Values in ``0, ..., k-1``.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On bad shapes, non-finite values, or labels outside ``0, ..., k-1``.
    """
    X = check.matrix(X)
    centres = _centres(centres, X.shape[1], "centres")
    labels = check.labels(labels, X.shape[0], np.arange(centres.shape[0]), "labels")
    return float(((X - centres[labels]) ** 2).sum())


def _centres(centres, d, name):
    centres = check.matrix(centres, name)
    if centres.shape[1] != d:
        raise ValueError(f"{name} must have {d} columns (one per feature), got {centres.shape[1]}")
    return centres


def _update_centres(X, labels, centres):
    """Update step: each centre moves to the mean of its points (an empty cluster keeps its centre)."""
    k = centres.shape[0]
    onehot = labels[:, None] == np.arange(k)[None, :]
    counts = onehot.sum(axis=0)
    sums = onehot.T.astype(float) @ X
    return np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None], centres)


def kmeans(X, init, max_iter=300):
    """Lloyd's algorithm: coordinate descent on ``J(c, μ) = Σᵢ ‖xᵢ − μ_{cᵢ}‖²`` from the centres ``init``.

    Each round assigns every point to its nearest centre, then moves every centre to the
    mean of its points. It stops when an assignment repeats the previous one (then the
    centres no longer move) or after ``max_iter`` rounds; in the latter case the labels are
    recomputed from the final centres. This is scikit-learn's ``KMeans(algorithm="lloyd",
    n_init=1, tol=0)`` except for empty clusters, which here keep their centre.

    Parameters
    ----------
    X : array_like, shape (n, d)
    init : array_like, shape (k, d)
        Initial centres.
    max_iter : int
        Maximum number of rounds (>= 1).

    Returns
    -------
    KMeansResult

    Raises
    ------
    ValueError
        If ``X`` or ``init`` is malformed, ``k > n``, or ``max_iter`` is not a positive integer.
    """
    X = check.matrix(X)
    centres = _centres(init, X.shape[1], "init")
    if centres.shape[0] > X.shape[0]:
        raise ValueError(f"init has {centres.shape[0]} centres but X has only {X.shape[0]} points")
    max_iter = check.count(max_iter, "max_iter")
    history, previous, converged = [], None, False
    for n_iter in range(1, max_iter + 1):
        labels = np.argmin(_squared_distances(X, centres), axis=1)
        history.append(((X - centres[labels]) ** 2).sum())
        centres = _update_centres(X, labels, centres)
        history.append(((X - centres[labels]) ** 2).sum())
        if previous is not None and np.array_equal(labels, previous):
            converged = True
            break
        previous = labels
    if not converged:
        labels = np.argmin(_squared_distances(X, centres), axis=1)
    inertia = float(((X - centres[labels]) ** 2).sum())
    return KMeansResult(labels, centres, inertia, n_iter, converged, np.array(history))


# --------------------------------------------------------------------- Gaussian mixtures

@dataclass(frozen=True, repr=False)
class GMMResult:
    """Outcome of EM for a Gaussian mixture.

    Attributes
    ----------
    means : ndarray, shape (k, d)
    covs : ndarray, shape (k, d, d)
    weights : ndarray, shape (k,)
        The final parameters.
    resp : ndarray, shape (n, k)
        Responsibilities ``p(zᵢ = j | xᵢ)`` under the final parameters.
    log_likelihood : ndarray, shape (n_iter + 1,)
        Total log-likelihood ``Σᵢ log p(xᵢ)`` at the initial parameters and after each EM step.
    n_iter : int
        Number of EM steps run.
    converged : bool
        Whether the gain in mean log-likelihood fell below ``tol``.
    """

    means: np.ndarray
    covs: np.ndarray
    weights: np.ndarray
    resp: np.ndarray
    log_likelihood: np.ndarray
    n_iter: int
    converged: bool

    def __repr__(self):
        k, d = self.means.shape
        return (f"GMMResult(k={k}, d={d}, log_likelihood={self.log_likelihood[-1]:.6g}, "
                f"n_iter={self.n_iter}, converged={self.converged})")


def _mixture(X, means, covs, weights):
    """Validate mixture parameters against the data ``X``."""
    X = check.matrix(X)
    means = _centres(means, X.shape[1], "means")
    k, d = means.shape
    covs = check.finite(covs, "covs")
    if covs.shape != (k, d, d):
        raise ValueError(f"covs must have shape ({k}, {d}, {d}), got {covs.shape}")
    if not np.allclose(covs, np.swapaxes(covs, 1, 2), rtol=1e-10, atol=1e-12):
        raise ValueError("covs must hold symmetric matrices")
    if np.any(np.linalg.eigvalsh(covs)[:, 0] <= 0):
        raise ValueError("covs must hold positive definite matrices")
    weights = check.probabilities(weights, "weights")
    if weights.shape != (k,):
        raise ValueError(f"weights must have shape ({k},), got {weights.shape}")
    return X, means, covs, weights


def gmm_log_joint(X, means, covs, weights):
    """The matrix ``log πⱼ + log N(xᵢ | μⱼ, Σⱼ)`` of log joint probabilities, shape (n, k).

    Parameters
    ----------
    X : array_like, shape (n, d)
    means : array_like, shape (k, d)
    covs : array_like, shape (k, d, d)
        Symmetric positive definite.
    weights : array_like, shape (k,)
        Mixing weights: non-negative, summing to 1.

    Returns
    -------
    ndarray, shape (n, k)

    Raises
    ------
    ValueError
        On bad shapes, non-finite values, covariances that are not positive definite, or
        weights that are not a probability vector.
    """
    X, means, covs, weights = _mixture(X, means, covs, weights)
    d = X.shape[1]
    diff = X[None, :, :] - means[:, None, :]                      # (k, n, d)
    maha = np.einsum("kni,kij,knj->kn", diff, np.linalg.inv(covs), diff)
    logdet = np.linalg.slogdet(covs)[1]
    log_normal = -0.5 * (maha + logdet[:, None] + d * np.log(2 * np.pi))
    with np.errstate(divide="ignore"):
        return (np.log(weights)[:, None] + log_normal).T


def gmm_e_step(X, means, covs, weights):
    """E-step: responsibilities ``p(zᵢ = j | xᵢ)`` by log-sum-exp, and the total log-likelihood.

    Parameters
    ----------
    X, means, covs, weights
        As in :func:`gmm_log_joint`.

    Returns
    -------
    resp : ndarray, shape (n, k)
        Rows sum to 1.
    log_likelihood : float
        ``Σᵢ log Σⱼ πⱼ N(xᵢ | μⱼ, Σⱼ)``.

    Raises
    ------
    ValueError
        As :func:`gmm_log_joint`.
    """
    log_joint = gmm_log_joint(X, means, covs, weights)
    top = log_joint.max(axis=1, keepdims=True)
    log_px = top[:, 0] + np.log(np.exp(log_joint - top).sum(axis=1))
    return np.exp(log_joint - log_px[:, None]), float(log_px.sum())


def gmm_log_likelihood(X, means, covs, weights):
    """Total log-likelihood ``Σᵢ log Σⱼ πⱼ N(xᵢ | μⱼ, Σⱼ)`` of a Gaussian mixture (arguments as :func:`gmm_log_joint`)."""
    return gmm_e_step(X, means, covs, weights)[1]


def gmm_m_step(X, resp):
    """M-step: weighted proportions, means and covariances from responsibilities.

    ``Nⱼ = Σᵢ rᵢⱼ``, ``πⱼ = Nⱼ / n``, ``μⱼ = Σᵢ rᵢⱼ xᵢ / Nⱼ`` and
    ``Σⱼ = Σᵢ rᵢⱼ (xᵢ − μⱼ)(xᵢ − μⱼ)ᵀ / Nⱼ``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    resp : array_like, shape (n, k)
        Non-negative rows summing to 1, every column with a positive sum.

    Returns
    -------
    means : ndarray, shape (k, d)
    covs : ndarray, shape (k, d, d)
    weights : ndarray, shape (k,)

    Raises
    ------
    ValueError
        On bad shapes or values of ``X`` or ``resp``.
    """
    X = check.matrix(X)
    resp = check.probabilities(check.matrix(resp, "resp"), "resp", axis=1)
    if resp.shape[0] != X.shape[0]:
        raise ValueError(f"resp must have {X.shape[0]} rows (one per point), got {resp.shape[0]}")
    N = resp.sum(axis=0)
    if np.any(N <= 0):
        raise ValueError("resp must give every component a positive total responsibility")
    means = resp.T @ X / N[:, None]
    diff = X[None, :, :] - means[:, None, :]                      # (k, n, d)
    covs = np.einsum("nk,kni,knj->kij", resp, diff, diff) / N[:, None, None]
    return means, covs, N / X.shape[0]


def gmm_em(X, means, covs, weights, max_iter=100, tol=0.0):
    """EM for a Gaussian mixture with full covariances, from the given initial parameters.

    One EM step is an E-step (responsibilities under the current parameters) followed by an
    M-step (:func:`gmm_m_step`). The loop stops after ``max_iter`` steps, or earlier when
    ``tol > 0`` and a step raises the mean log-likelihood per point by less than ``tol``.
    There is no covariance regularisation (scikit-learn's ``reg_covar=0``).

    Parameters
    ----------
    X : array_like, shape (n, d)
    means, covs, weights
        Initial parameters, as in :func:`gmm_log_joint`.
    max_iter : int
        Maximum number of EM steps (>= 1).
    tol : float
        Stopping threshold on the gain in mean log-likelihood (>= 0; 0 runs all steps).

    Returns
    -------
    GMMResult

    Raises
    ------
    ValueError
        On malformed initial parameters, ``max_iter``, ``tol``, or if a component collapses
        (a covariance stops being positive definite).
    """
    X, means, covs, weights = _mixture(X, means, covs, weights)
    max_iter = check.count(max_iter, "max_iter")
    tol = check.nonnegative(tol, "tol")
    resp, loglik = gmm_e_step(X, means, covs, weights)
    history, converged = [loglik], False
    for n_iter in range(1, max_iter + 1):
        means, covs, weights = gmm_m_step(X, resp)
        resp, loglik = gmm_e_step(X, means, covs, weights)
        history.append(loglik)
        if tol > 0 and (history[-1] - history[-2]) / X.shape[0] < tol:
            converged = True
            break
    return GMMResult(means, covs, weights, resp, np.array(history), n_iter, converged)
