"""k-means, EM and Gaussian mixtures (chapter 18).

Conventions. Data points are the rows of ``X`` (shape ``(n, d)``); there are ``k``
clusters or mixture components, indexed ``0, ..., k-1``. Centres and means are the rows
of a ``(k, d)`` array, covariances a ``(k, d, d)`` array. Logarithms are natural.
Sections 18.5-18.7 add generalised EM (:func:`gem_step`), EM for mixtures of
exponential-family components (:func:`em_exponential_family`, :func:`poisson_mixture_em`)
and MAP estimation of a Gaussian mixture under a conjugate prior (:func:`gmm_map_em`);
:func:`gaussian_missing_em` fits one Gaussian to data with entries missing at random.
"""
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy.special import gammaln, multigammaln, xlogy

from mlnotes import _validate as check

__all__ = [
    "KMeansResult", "kmeans_assign", "kmeans_inertia", "kmeans",
    "GMMResult", "gmm_log_joint", "gmm_e_step", "gmm_m_step", "gmm_log_likelihood", "gmm_em",
    "gem_step", "MixtureEMResult", "EXP_FAMILIES", "em_exponential_family", "poisson_mixture_em",
    "GMMMAPResult", "gmm_map_em", "MissingEMResult", "gaussian_missing_em",
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


def _too_far(name):
    """The message for squared distances from ``X`` to ``name`` that overflow."""
    return f"X is too far from {name}: the squared distances overflow; rescale X and {name}"


def _squared_distances(X, centres, name="centres"):
    """Matrix of squared Euclidean distances, shape (n, k).

    One pass over the data per centre (k is small), which avoids the (n, k, d) array of
    all differences and is about three times faster.
    """
    D = np.empty((X.shape[0], centres.shape[0]))
    with np.errstate(over="ignore", invalid="ignore"):    # overflow is reported below
        for j, c in enumerate(centres):
            diff = X - c
            D[:, j] = np.einsum("ij,ij->i", diff, diff)
    if not np.all(np.isfinite(D)):
        raise ValueError(_too_far(name))
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
        If ``X`` or ``centres`` is not a finite 2-D array, their widths differ, or the squared
        distances overflow (points too far from the centres).
    """
    X = check.matrix(X)
    centres = check.matrix_with_columns(centres, X.shape[1], "centres")
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
        On bad shapes, non-finite values, labels outside ``0, ..., k-1``, or an objective that
        overflows.
    """
    X = check.matrix(X)
    centres = check.matrix_with_columns(centres, X.shape[1], "centres")
    labels = check.labels(labels, X.shape[0], np.arange(centres.shape[0]), "labels")
    with np.errstate(over="ignore"):                       # overflow is reported below
        value = float(((X - centres[labels]) ** 2).sum())
    if not np.isfinite(value):
        raise ValueError(_too_far("centres"))
    return value


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
        If ``X`` or ``init`` is malformed, ``k > n``, ``max_iter`` is not a positive integer, or
        the squared distances overflow.
    """
    X = check.matrix(X)
    centres = check.matrix_with_columns(init, X.shape[1], "init")
    if centres.shape[0] > X.shape[0]:
        raise ValueError(f"init has {centres.shape[0]} centres but X has only {X.shape[0]} points")
    max_iter = check.count(max_iter, "max_iter")
    history, previous, converged = [], None, False
    for n_iter in range(1, max_iter + 1):
        labels = np.argmin(_squared_distances(X, centres, "init"), axis=1)
        history.append(((X - centres[labels]) ** 2).sum())
        centres = _update_centres(X, labels, centres)
        history.append(((X - centres[labels]) ** 2).sum())
        if previous is not None and np.array_equal(labels, previous):
            converged = True
            break
        previous = labels
    if not converged:
        labels = np.argmin(_squared_distances(X, centres, "init"), axis=1)
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


def _mixture(X, means, covs, weights, prefix=""):
    """Validate mixture parameters against the data ``X`` (messages name ``prefix + "means"``, ...)."""
    X = check.matrix(X)
    means = check.matrix_with_columns(means, X.shape[1], prefix + "means")
    (k, d), name = means.shape, prefix + "covs"
    covs = check.finite(covs, name)
    if covs.shape != (k, d, d):
        raise ValueError(f"{name} must have shape ({k}, {d}, {d}), got {covs.shape}")
    if not np.allclose(covs, np.swapaxes(covs, 1, 2), rtol=1e-10, atol=1e-12):
        raise ValueError(f"{name} must hold symmetric matrices")
    if np.any(np.linalg.eigvalsh(covs)[:, 0] <= 0):
        raise ValueError(f"{name} must hold positive definite matrices")
    weights = check.probabilities(weights, prefix + "weights")
    if weights.shape != (k,):
        raise ValueError(f"{prefix}weights must have shape ({k},), got {weights.shape}")
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
        On bad shapes, non-finite values, covariances that are not positive definite,
        weights that are not a probability vector, or Mahalanobis distances that overflow.
    """
    X, means, covs, weights = _mixture(X, means, covs, weights)
    d = X.shape[1]
    diff = X[None, :, :] - means[:, None, :]                      # (k, n, d)
    with np.errstate(over="ignore", invalid="ignore"):    # overflow is reported below
        maha = np.einsum("kni,kij,knj->kn", diff, np.linalg.inv(covs), diff)
    if not np.all(np.isfinite(maha)):
        raise ValueError("X is too far from the means (or a covariance is too close to singular): "
                         "the squared Mahalanobis distances overflow; rescale X and the means")
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
    return _normalise(gmm_log_joint(X, means, covs, weights))


def _components_alive(N, step, advice):
    """``ValueError`` if a component has lost all responsibility before the M-step ``step``."""
    if np.any(N <= 0):
        raise ValueError(f"EM diverged at step {step}: component {int(np.argmin(N))} lost all "
                         f"responsibility (its total N_j is 0); {advice}")


def _covariances_alive(covs, step):
    """``ValueError`` if the M-step ``step`` collapsed a covariance (not positive definite)."""
    low = np.linalg.eigvalsh(covs)[:, 0]
    if np.any(low <= 0):
        raise ValueError(f"EM diverged at step {step}: the covariance of component {int(np.argmin(low))} "
                         "collapsed (it is no longer positive definite); use other initial "
                         "parameters, or gmm_map_em, whose prior keeps covariances positive definite")


def _likelihood_finite(loglik, step):
    """``ValueError`` if the log-likelihood after step ``step`` is NaN or infinite."""
    if not np.isfinite(loglik):
        where = "at the initial parameters" if step == 0 else f"after step {step} (EM diverged)"
        raise ValueError(f"the log-likelihood {where} is {loglik}; use other initial parameters")


def _normalise(log_joint):
    """Responsibilities and total log-likelihood from a (n, k) matrix of log joint probabilities."""
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
        On malformed initial parameters (a zero weight included), ``max_iter``, ``tol``, or if EM diverges: a component
        loses all responsibility, its covariance collapses (stops being positive definite) or
        the log-likelihood stops being finite; the message names the step.
    """
    X, means, covs, weights = _mixture(X, means, covs, weights)
    if np.any(weights == 0):
        raise ValueError(f"weights must be positive: component {int(np.argmin(weights))} has weight 0, "
                         "gets no responsibility, and EM cannot revive it")
    max_iter = check.count(max_iter, "max_iter")
    tol = check.nonnegative(tol, "tol")
    resp, loglik = gmm_e_step(X, means, covs, weights)
    history, converged = [loglik], False
    for n_iter in range(1, max_iter + 1):
        _components_alive(resp.sum(axis=0), n_iter, "use other initial parameters, or gmm_map_em")
        means, covs, weights = gmm_m_step(X, resp)
        _covariances_alive(covs, n_iter)
        resp, loglik = gmm_e_step(X, means, covs, weights)
        _likelihood_finite(loglik, n_iter)
        history.append(loglik)
        if tol > 0 and (history[-1] - history[-2]) / X.shape[0] < tol:
            converged = True
            break
    return GMMResult(means, covs, weights, resp, np.array(history), n_iter, converged)


# ------------------------------------------------------------------- generalised EM

def gem_step(X, means, covs, weights, lr=1.0):
    """One generalised EM step for the means of a Gaussian mixture: a gradient step on Q.

    The E-step gives responsibilities ``rᵢⱼ`` at the current parameters. In each mean,
    ``Q(θ | θ⁽ᵗ⁾) = −½ Σᵢ rᵢⱼ (xᵢ − μⱼ)ᵀ Σⱼ⁻¹ (xᵢ − μⱼ) + const`` is a concave quadratic with
    gradient ``gⱼ = Σⱼ⁻¹ Σᵢ rᵢⱼ (xᵢ − μⱼ)`` (equal to ``∇_μⱼ log p(X | θ)`` by Fisher's
    identity) and Hessian ``−Nⱼ Σⱼ⁻¹``. Instead of maximising, the step moves each mean to
    ``μⱼ + ηⱼ gⱼ`` with ``ηⱼ = lr / (Nⱼ λ_max(Σⱼ⁻¹))``; for ``0 < lr < 2`` this raises ``Q``
    whenever some ``gⱼ ≠ 0``, so the log-likelihood does not decrease. Weights and
    covariances are left as they are.

    Parameters
    ----------
    X : array_like, shape (n, d)
    means, covs, weights
        Current parameters, as in :func:`gmm_log_joint`.
    lr : float
        Step size relative to the curvature of ``Q``, in the open interval (0, 2).

    Returns
    -------
    means : ndarray, shape (k, d)
        The means after the step.
    log_likelihood : float
        ``log p(X | θ)`` at the parameters passed in (computed by the E-step).

    Raises
    ------
    ValueError
        On malformed parameters, or ``lr`` outside (0, 2).
    """
    X, means, covs, weights = _mixture(X, means, covs, weights)
    lr = check.positive(lr, "lr")
    if lr >= 2:
        raise ValueError(f"lr must lie in (0, 2) for the step to raise Q, got {lr!r}")
    resp, loglik = gmm_e_step(X, means, covs, weights)
    N = resp.sum(axis=0)
    grad = np.linalg.solve(covs, (resp.T @ X - N[:, None] * means)[:, :, None])[:, :, 0]
    curvature = N / np.linalg.eigvalsh(covs)[:, 0]               # Nⱼ λ_max(Σⱼ⁻¹)
    step = np.divide(lr, curvature, out=np.zeros_like(N), where=curvature > 0)
    return means + step[:, None] * grad, loglik


# ------------------------------------------------- mixtures of exponential families

@dataclass(frozen=True, repr=False)
class ExpFamily:
    """A one-dimensional exponential family ``p(x | η) = h(x) exp(ηᵀT(x) − A(η))``.

    Parametrised by its mean parameters ``m = E T(x) = ∇A(η)``. Each function acts
    elementwise on arrays: ``stats`` maps x of any shape to ``T(x)`` with a trailing axis of
    length ``n_stats``; ``natural`` maps mean parameters (trailing axis ``n_stats``) to
    natural ones; ``log_partition`` maps those to ``A(η)`` (trailing axis removed);
    ``valid_mean`` says whether mean parameters lie inside the mean space.
    """

    name: str
    n_stats: int
    support: str
    in_support: Callable
    stats: Callable
    log_base: Callable
    natural: Callable
    log_partition: Callable
    valid_mean: Callable

    def __repr__(self):
        return f"ExpFamily({self.name!r}, n_stats={self.n_stats}, support={self.support!r})"


def _normal_natural(m):
    var = m[..., 1] - m[..., 0] ** 2
    return np.stack([m[..., 0] / var, -0.5 / var], axis=-1)


EXP_FAMILIES = {f.name: f for f in [
    ExpFamily("poisson", 1, "non-negative integers", lambda x: (x >= 0) & (x == np.floor(x)),
              lambda x: x[..., None], lambda x: -gammaln(x + 1), np.log,
              lambda eta: np.exp(eta[..., 0]), lambda m: m[..., 0] > 0),
    ExpFamily("bernoulli", 1, "the values 0 and 1", lambda x: (x == 0) | (x == 1),
              lambda x: x[..., None], np.zeros_like, lambda m: np.log(m) - np.log1p(-m),
              lambda eta: np.logaddexp(0.0, eta[..., 0]), lambda m: (m[..., 0] > 0) & (m[..., 0] < 1)),
    ExpFamily("exponential", 1, "positive numbers", lambda x: x > 0,
              lambda x: x[..., None], np.zeros_like, lambda m: -1.0 / m,
              lambda eta: -np.log(-eta[..., 0]), lambda m: m[..., 0] > 0),
    ExpFamily("normal", 2, "real numbers", np.isfinite,
              lambda x: np.stack([x, x**2], axis=-1), lambda x: np.full_like(x, -0.5 * np.log(2 * np.pi)),
              _normal_natural, lambda eta: -eta[..., 0] ** 2 / (4 * eta[..., 1]) - 0.5 * np.log(-2 * eta[..., 1]),
              lambda m: m[..., 1] - m[..., 0] ** 2 > 0),
]}


@dataclass(frozen=True, repr=False)
class MixtureEMResult:
    """Outcome of EM for a mixture whose components come from one exponential family.

    Attributes
    ----------
    family : str
    weights : ndarray, shape (k,)
    params : ndarray
        The final component parameters: rates, shape (k,), for :func:`poisson_mixture_em`;
        mean parameters ``E T(x)`` in the shape of ``init`` for :func:`em_exponential_family`.
    resp : ndarray, shape (n, k)
        Responsibilities under the final parameters.
    log_likelihood : ndarray, shape (n_iter + 1,)
        Total log-likelihood at the initial parameters and after each EM step.
    n_iter : int
    converged : bool
        Whether the gain in mean log-likelihood fell below ``tol``.
    """

    family: str
    weights: np.ndarray
    params: np.ndarray
    resp: np.ndarray
    log_likelihood: np.ndarray
    n_iter: int
    converged: bool

    def __repr__(self):
        return (f"MixtureEMResult(family={self.family!r}, k={self.weights.size}, "
                f"log_likelihood={self.log_likelihood[-1]:.6g}, n_iter={self.n_iter}, "
                f"converged={self.converged})")


def _pair(init, what):
    if not (isinstance(init, (tuple, list)) and len(init) == 2):
        raise ValueError(f"init must be a pair (weights, {what})")
    weights = check.probabilities(check.vector(init[0], None, "init weights"), "init weights")
    return weights, check.finite(init[1], f"init {what}")


def _em_loop(e_step, m_step, params, weights, n, max_iter, tol):
    """Alternate E- and M-steps from (weights, params); the common loop of the mixture EMs."""
    max_iter, tol = check.count(max_iter, "max_iter"), check.nonnegative(tol, "tol")
    resp, loglik = e_step(weights, params)
    _likelihood_finite(loglik, 0)
    history, converged = [loglik], False
    for n_iter in range(1, max_iter + 1):
        N = resp.sum(axis=0)
        _components_alive(N, n_iter, "use other initial parameters")
        weights, params = N / n, m_step(resp, N)
        resp, loglik = e_step(weights, params)
        _likelihood_finite(loglik, n_iter)
        history.append(loglik)
        if tol > 0 and (history[-1] - history[-2]) / n < tol:
            converged = True
            break
    return weights, params, resp, np.array(history), n_iter, converged


def em_exponential_family(x, family, init, max_iter=100, tol=0.0):
    """EM for a mixture whose components are products, over the coordinates, of one exponential family.

    Component ``j`` has density ``Π_c h(x_c) exp(η_jcᵀ T(x_c) − A(η_jc))``. The algorithm
    works with the mean parameters ``m_jc = E_j T(x_c) = ∇A(η_jc)``. The E-step computes the
    responsibilities ``rᵢⱼ``, hence the expected sufficient statistics ``Σᵢ rᵢⱼ`` and
    ``Σᵢ rᵢⱼ T(xᵢ)``; the M-step sets ``πⱼ = Nⱼ / n`` and matches moments,
    ``m_jc = Σᵢ rᵢⱼ T(x_ic) / Nⱼ``, which maximises ``Q`` because ``A`` is convex.

    Parameters
    ----------
    x : array_like, shape (n,) or (n, d)
    family : {"poisson", "bernoulli", "exponential", "normal"}
        See :data:`EXP_FAMILIES`. ``T(x) = x`` for the first three (mean parameter: the rate,
        the probability of 1, the mean); ``T(x) = (x, x²)`` for "normal", whose mean
        parameters are ``(μ, μ² + σ²)``, so that the components have diagonal covariances.
    init : tuple (weights, params)
        Initial weights, shape (k,), and mean parameters, shape (k, d, s) with ``s`` the
        number of statistics; (k, d·s) is accepted when ``d`` or ``s`` is 1, and (k,) when both are.
    max_iter : int
        Maximum number of EM steps (>= 1).
    tol : float
        Stopping threshold on the gain in mean log-likelihood (>= 0; 0 runs all steps).

    Returns
    -------
    MixtureEMResult
        ``params`` in the shape of ``init``.

    Raises
    ------
    ValueError
        On an unknown ``family``, data outside its support, malformed ``init``, or a
        component that reaches the boundary of the mean space (e.g. a variance of 0), loses
        all responsibility, or makes the log-likelihood non-finite.

    Notes
    -----
    For "normal" the mean parameter ``μ² + σ²`` is rounded to about ``ε μ²`` (ε the machine
    epsilon), so the variance ``σ²`` it implies has relative error about ``ε μ² / σ²``: far
    from the origin (``|μ| ≫ σ``) centre ``x`` first, or use :func:`gmm_em`.
    """
    fam = EXP_FAMILIES[check.choice(family, tuple(EXP_FAMILIES), "family")]
    x = check.as_float(x, "x")
    X = check.matrix(x[:, None] if x.ndim == 1 else x, "x")
    if not np.all(fam.in_support(X)):
        raise ValueError(f"x must contain only {fam.support} for the {family} family")
    (n, d), s = X.shape, fam.n_stats
    weights, params = _pair(init, "params")
    k, shape = weights.size, params.shape
    if shape not in {(k, d, s)} | ({(k, d * s)} if min(d, s) == 1 else set()) | ({(k,)} if d * s == 1 else set()):
        raise ValueError(f"init params must have shape ({k}, {d}, {s}), got {shape}")
    params = params.reshape(k, d, s)
    if not np.all(fam.valid_mean(params)):
        raise ValueError(f"init params must be mean parameters of the {family} family")
    T, log_h = fam.stats(X), fam.log_base(X).sum(axis=1)

    def e_step(weights, m):
        eta = fam.natural(m)
        with np.errstate(divide="ignore"):
            log_joint = (np.log(weights) + log_h[:, None] + np.einsum("ncs,kcs->nk", T, eta)
                         - fam.log_partition(eta).sum(axis=1))
        return _normalise(log_joint)

    def m_step(resp, N):
        m = np.einsum("nk,ncs->kcs", resp, T) / N[:, None, None]
        if not np.all(fam.valid_mean(m)):
            raise ValueError(f"a component reached the boundary of the {family} family's mean space")
        return m

    weights, params, resp, history, n_iter, converged = _em_loop(e_step, m_step, params, weights, n, max_iter, tol)
    return MixtureEMResult(family, weights, params.reshape(shape), resp, history, n_iter, converged)


def poisson_mixture_em(x, init, max_iter=100, tol=0.0):
    """EM for a mixture of Poisson distributions, ``p(x) = Σⱼ πⱼ λⱼˣ e^{−λⱼ} / x!``.

    E-step: ``rᵢⱼ ∝ πⱼ λⱼ^{xᵢ} e^{−λⱼ}``. M-step: ``πⱼ = Nⱼ / n`` and
    ``λⱼ = Σᵢ rᵢⱼ xᵢ / Nⱼ``, the responsibility-weighted mean (moment matching for ``T(x) = x``).

    Parameters
    ----------
    x : array_like, shape (n,)
        Counts (non-negative integers).
    init : tuple (weights, rates)
        Initial weights and rates, each of shape (k,); rates > 0.
    max_iter : int
        Maximum number of EM steps (>= 1).
    tol : float
        Stopping threshold on the gain in mean log-likelihood (>= 0; 0 runs all steps).

    Returns
    -------
    MixtureEMResult
        ``params`` holds the rates.

    Raises
    ------
    ValueError
        If ``x`` is not a vector of counts or ``init`` is malformed.

    Notes
    -----
    A component that is responsible only for zero counts gets the rate 0, the point mass at
    0 (Poisson(λ) tends to it as λ → 0). The likelihood stays finite there, so this is a
    legitimate fixed point, and the E-step handles it with ``0 log 0 = 0``.
    """
    x = check.vector(x, None, "x")
    if np.any(x < 0) or np.any(x != np.floor(x)):
        raise ValueError("x must contain non-negative integers (counts)")
    weights, rates = _pair(init, "rates")
    if rates.shape != weights.shape or np.any(rates <= 0):
        raise ValueError(f"init rates must be {weights.size} positive numbers, got {rates!r}")
    log_fact = gammaln(x + 1)

    def e_step(weights, rates):
        # xlogy: x log λ with 0 log 0 = 0, so a rate of 0 (the point mass at 0) is allowed
        with np.errstate(divide="ignore"):
            return _normalise(np.log(weights) + xlogy(x[:, None], rates) - rates - log_fact[:, None])

    def m_step(resp, N):
        return resp.T @ x / N      # 0 for a component responsible only for zero counts

    weights, rates, resp, history, n_iter, converged = _em_loop(e_step, m_step, rates, weights, x.size, max_iter, tol)
    return MixtureEMResult("poisson", weights, rates, resp, history, n_iter, converged)


# -------------------------------------------------------------------------- MAP-EM

@dataclass(frozen=True, repr=False)
class GMMMAPResult(GMMResult):
    """Outcome of MAP-EM for a Gaussian mixture: :class:`GMMResult` plus the log posterior.

    ``log_posterior`` (shape (n_iter + 1,)) is ``log p(X | θ) + log p(θ)`` with the prior's
    normalising constants, at the initial parameters and after each step; ``converged``
    refers to its gain per point.
    """

    log_posterior: np.ndarray

    def __repr__(self):
        k, d = self.means.shape
        return (f"GMMMAPResult(k={k}, d={d}, log_posterior={self.log_posterior[-1]:.6g}, "
                f"n_iter={self.n_iter}, converged={self.converged})")


_PRIOR_KEYS = ("alpha", "mean", "kappa", "nu", "scale")


def _niw_prior(prior, k, d):
    if not isinstance(prior, Mapping) or set(prior) != set(_PRIOR_KEYS):
        raise ValueError(f"prior must be a mapping with exactly the keys {', '.join(_PRIOR_KEYS)}")
    alpha = check.finite(prior["alpha"], "prior['alpha']")
    alpha = np.full(k, float(alpha)) if alpha.ndim == 0 else alpha
    if alpha.shape != (k,) or np.any(alpha < 1):
        raise ValueError(f"prior['alpha'] must be a number or shape ({k},), every entry >= 1")
    mean = check.vector(prior["mean"], d, "prior['mean']")
    kappa = check.positive(prior["kappa"], "prior['kappa']")
    nu = check.number(prior["nu"], "prior['nu']")
    if nu <= d - 1:
        raise ValueError(f"prior['nu'] must exceed d - 1 = {d - 1}, got {nu!r}")
    scale = check.square(prior["scale"], "prior['scale']", symmetric=True)
    if scale.shape != (d, d) or np.linalg.eigvalsh(scale)[0] <= 0:
        raise ValueError(f"prior['scale'] must be a ({d}, {d}) positive definite matrix")
    return alpha, mean, kappa, nu, scale


def _log_prior(means, covs, weights, alpha, m0, kappa, nu, scale):
    """log Dir(π | α) + Σⱼ [log N(μⱼ | m₀, Σⱼ/κ) + log IW(Σⱼ | Ψ, ν)], normalising constants included."""
    d = means.shape[1]
    prec, logdet, dm = np.linalg.inv(covs), np.linalg.slogdet(covs)[1], means - m0
    log_normal = -0.5 * (d * np.log(2 * np.pi / kappa) + logdet + kappa * np.einsum("ki,kij,kj->k", dm, prec, dm))
    log_iw = (0.5 * nu * np.linalg.slogdet(scale)[1] - 0.5 * nu * d * np.log(2) - multigammaln(0.5 * nu, d)
              - 0.5 * (nu + d + 1) * logdet - 0.5 * np.einsum("ij,kji->k", scale, prec))
    log_dir = gammaln(alpha.sum()) - gammaln(alpha).sum() + xlogy(alpha - 1, weights).sum()
    return float(log_dir + log_normal.sum() + log_iw.sum())


def gmm_map_em(X, prior, init, max_iter=100, tol=0.0):
    """MAP estimate of a Gaussian mixture by EM, under a Dirichlet–Normal–Inverse-Wishart prior.

    Prior: ``π ~ Dir(α)``; independently for each component ``Σⱼ ~ IW(Ψ, ν)`` and
    ``μⱼ | Σⱼ ~ N(m₀, Σⱼ / κ)``. EM on ``log p(X | θ) + log p(θ)``: the E-step is
    :func:`gmm_e_step`, and the M-step maximises ``Q(θ | θ⁽ᵗ⁾) + log p(θ)``, with
    ``Nⱼ = Σᵢ rᵢⱼ``:
    ``πⱼ = (Nⱼ + αⱼ − 1) / (n + Σα − k)``, ``μⱼ = (Σᵢ rᵢⱼ xᵢ + κ m₀) / (Nⱼ + κ)`` and
    ``Σⱼ = [Ψ + Σᵢ rᵢⱼ (xᵢ − μⱼ)(xᵢ − μⱼ)ᵀ + κ (μⱼ − m₀)(μⱼ − m₀)ᵀ] / (Nⱼ + ν + d + 2)``.
    The mode is that of the prior densities in the coordinates (π, μ, Σ). scikit-learn's
    ``reg_covar`` is not such a prior: it adds a constant to the diagonal whatever ``Nⱼ``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    prior : mapping
        Keys ``"alpha"`` (a number or shape (k,), entries >= 1), ``"mean"`` (m₀, shape (d,)),
        ``"kappa"`` (> 0), ``"nu"`` (> d − 1) and ``"scale"`` (Ψ, (d, d) positive definite).
    init : tuple (means, covs, weights)
        Initial parameters, as in :func:`gmm_log_joint`.
    max_iter : int
        Maximum number of EM steps (>= 1).
    tol : float
        Stopping threshold on the gain in log posterior per point (>= 0; 0 runs all steps).

    Returns
    -------
    GMMMAPResult

    Raises
    ------
    ValueError
        On malformed data, prior, initial parameters, ``max_iter`` or ``tol``.
    """
    if not (isinstance(init, (tuple, list)) and len(init) == 3):
        raise ValueError("init must be a triple (means, covs, weights)")
    X, means, covs, weights = _mixture(X, *init, prefix="init ")
    (k, d), n = means.shape, X.shape[0]
    hyper = _niw_prior(prior, k, d)
    alpha, m0, kappa, nu, scale = hyper
    max_iter, tol = check.count(max_iter, "max_iter"), check.nonnegative(tol, "tol")
    resp, loglik = gmm_e_step(X, means, covs, weights)
    lls, lps, converged = [loglik], [loglik + _log_prior(means, covs, weights, *hyper)], False
    for n_iter in range(1, max_iter + 1):
        N = resp.sum(axis=0)
        weights = (N + alpha - 1) / (n + alpha.sum() - k)
        means = (resp.T @ X + kappa * m0) / (N + kappa)[:, None]
        diff, dm = X[None, :, :] - means[:, None, :], means - m0
        covs = ((scale + np.einsum("nk,kni,knj->kij", resp, diff, diff) + kappa * dm[:, :, None] * dm[:, None, :])
                / (N + nu + d + 2)[:, None, None])
        resp, loglik = gmm_e_step(X, means, covs, weights)
        _likelihood_finite(loglik, n_iter)
        lls.append(loglik)
        lps.append(loglik + _log_prior(means, covs, weights, *hyper))
        if tol > 0 and (lps[-1] - lps[-2]) / n < tol:
            converged = True
            break
    return GMMMAPResult(means, covs, weights, resp, np.array(lls), n_iter, converged, np.array(lps))


# --------------------------------------------------------- a Gaussian with missing data

@dataclass(frozen=True, repr=False)
class MissingEMResult:
    """Outcome of EM for a Gaussian with missing entries.

    Attributes
    ----------
    mean : ndarray, shape (d,)
    cov : ndarray, shape (d, d)
        The final parameters.
    X_filled : ndarray, shape (n, d)
        The data with each missing entry replaced by its conditional mean
        ``E[x_m | x_o]`` under the final parameters.
    log_likelihood : ndarray, shape (n_iter + 1,)
        Observed-data log-likelihood ``Σᵢ log N(x_{i,o} | μ_o, Σ_oo)`` at the initial
        parameters and after each EM step.
    n_iter : int
        Number of EM steps run.
    converged : bool
        Whether the gain in mean log-likelihood fell below ``tol``.
    """

    mean: np.ndarray
    cov: np.ndarray
    X_filled: np.ndarray
    log_likelihood: np.ndarray
    n_iter: int
    converged: bool

    def __repr__(self):
        return (f"MissingEMResult(d={self.mean.size}, log_likelihood={self.log_likelihood[-1]:.6g}, "
                f"n_iter={self.n_iter}, converged={self.converged})")


def _missing_e_step(X, obs, patterns, which, mean, cov, step):
    """Conditional means (filled ``X``), the summed conditional covariances and the observed
    log-likelihood, one missingness pattern at a time."""
    n, d = X.shape
    X_hat, V, loglik = np.where(obs, X, 0.0), np.zeros((d, d)), 0.0
    for p, o in enumerate(patterns):
        rows, m, n_p = which == p, ~o, int(np.sum(which == p))
        if not o.any():                                       # nothing observed: x̂ = μ, V̂ = Σ
            X_hat[rows] = mean
            V += n_p * cov
            continue
        try:
            L = np.linalg.cholesky(cov[np.ix_(o, o)])
        except np.linalg.LinAlgError:
            raise ValueError(f"EM diverged at step {step}: the covariance of the observed block {np.flatnonzero(o)} "
                             "collapsed (it is no longer positive definite); supply more complete rows") from None
        r = X[np.ix_(rows, o)] - mean[o]                      # (n_p, |o|)
        z = np.linalg.solve(L, r.T)
        loglik -= 0.5 * np.sum(z**2) + n_p * (np.sum(np.log(np.diag(L))) + 0.5 * o.sum() * np.log(2 * np.pi))
        if m.any():
            K = np.linalg.solve(cov[np.ix_(o, o)], cov[np.ix_(o, m)]).T      # Σ_mo Σ_oo⁻¹
            X_hat[np.ix_(rows, m)] = mean[m] + r @ K.T
            V[np.ix_(m, m)] += n_p * (cov[np.ix_(m, m)] - K @ cov[np.ix_(o, m)])
    return X_hat, V, float(loglik)


def gaussian_missing_em(X, mean=None, cov=None, max_iter=500, tol=1e-10):
    """EM for the mean and covariance of a Gaussian from data with entries missing at random.

    ``NaN`` marks a missing entry. E-step, for each row with observed block ``o`` and missing
    block ``m``: ``x̂_m = μ_m + Σ_mo Σ_oo⁻¹ (x_o - μ_o)`` and ``V̂ = Σ_mm - Σ_mo Σ_oo⁻¹ Σ_om``
    (zero outside the ``m, m`` block). M-step: ``μ = mean of x̂ᵢ``,
    ``Σ = (1/n) Σᵢ [(x̂ᵢ - μ)(x̂ᵢ - μ)ᵀ + V̂ᵢ]`` (centred). Rows are grouped by missingness
    pattern. The loop stops when a step raises the mean observed log-likelihood per row
    by less than ``tol``, or after ``max_iter`` steps (then with a ``RuntimeWarning`` and
    ``converged=False``).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data, ``NaN`` where missing; no inf, and every column observed at least twice.
    mean : array_like, shape (d,), optional
        Initial mean (default: the column means of the observed entries).
    cov : array_like, shape (d, d), optional
        Initial covariance, positive definite (default: the diagonal of observed variances).
    max_iter : int
        Maximum number of EM steps (>= 1).
    tol : float
        Stopping threshold on the gain in mean log-likelihood (>= 0; 0 runs all steps).

    Returns
    -------
    MissingEMResult

    Raises
    ------
    ValueError
        If ``X`` is not 2-D, holds inf, or has a column with fewer than two observed entries
        or no spread; if ``mean`` or ``cov`` has the wrong shape, is not finite, or ``cov`` is
        not positive definite; on a bad ``max_iter`` or ``tol``; or if a covariance collapses.
    """
    X = check.as_float(X, "X")
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"X must be a non-empty 2-D array of shape (n, d), got shape {X.shape}")
    if np.any(np.isinf(X)):
        raise ValueError("X must not hold inf (NaN marks a missing entry)")
    obs = ~np.isnan(X)
    n, d = X.shape
    if np.any(obs.sum(axis=0) < 2):
        raise ValueError(f"X: column {int(np.argmin(obs.sum(axis=0)))} has fewer than two observed entries")
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        var = np.nanvar(X, axis=0)
    if not np.all(np.isfinite(var)):
        raise ValueError("X: the variance of the observed entries overflows; rescale X")
    if np.any(var <= 0):
        raise ValueError(f"X: the observed entries of column {int(np.argmin(var))} have no spread "
                         "(all equal, or a variance that underflows)")
    mean = np.nanmean(X, axis=0) if mean is None else check.vector(mean, d, "mean")
    cov = np.diag(var) if cov is None else cov
    cov = check.spd(cov, d, "cov")[0]
    max_iter, tol = check.count(max_iter, "max_iter"), check.nonnegative(tol, "tol")
    patterns, which = np.unique(obs, axis=0, return_inverse=True)
    which = which.ravel()
    X_hat, V, loglik = _missing_e_step(X, obs, patterns, which, mean, cov, 0)
    history, converged = [loglik], False
    for n_iter in range(1, max_iter + 1):
        mean = X_hat.mean(axis=0)                             # M-step, centred
        R = X_hat - mean
        cov = (R.T @ R + V) / n
        eig = np.linalg.eigvalsh(cov)
        if eig[0] <= 1e-12 * eig[-1]:
            raise ValueError(f"EM diverged at step {n_iter}: the covariance collapsed (numerically singular); "
                             "the likelihood of X is unbounded, supply more complete rows")
        X_hat, V, loglik = _missing_e_step(X, obs, patterns, which, mean, cov, n_iter)
        _likelihood_finite(loglik, n_iter)
        history.append(loglik)
        if tol > 0 and (history[-1] - history[-2]) / n < tol:
            converged = True
            break
    if tol > 0 and not converged:
        warnings.warn(f"gaussian_missing_em did not converge in max_iter={max_iter} steps; the result is the "
                      "last iterate (converged=False)", RuntimeWarning, stacklevel=2)
    return MissingEMResult(mean, cov, X_hat, np.array(history), n_iter, converged)
