"""Regression diagnostics, robust regression and variable selection (chapter 28).

Leverage, studentised residuals, Cook's distance, the Mahalanobis identity and variance
inflation factors; M-estimators of regression by iteratively reweighted least squares
(IRLS) with Huber and bisquare weights and a MAD scale, their efficiency at the normal
model, and least absolute deviations as a linear program; best-subset selection with
AIC, BIC, Mallows' C_p or adjusted R², and backward elimination by t-test p-values.

Conventions. ``X`` is a design matrix of shape ``(n, p)`` of full column rank whose first
column is the column of ones (the intercept), as in statsmodels; ``p`` counts the
intercept. In the selection functions the intercept is in every model and the candidate
variables are the columns ``1, ..., p - 1`` of ``X``.
"""
import itertools
import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import scipy.optimize
import scipy.stats

from mlnotes import _validate as check

__all__ = [
    "leverage", "studentized_residuals", "cooks_distance", "mahalanobis_leverage_identity",
    "MahalanobisLeverage", "vif",
    "huber_weights", "bisquare_weights", "irls_m_estimator", "MFit", "efficiency_at_normal",
    "lad_regression",
    "aic_gaussian", "bic_gaussian", "mallows_cp", "best_subset", "SubsetSearch",
    "backward_elimination", "BackwardPath",
]

_Z75 = float(scipy.stats.norm.ppf(0.75))          # 0.6745: MAD / 0.6745 estimates σ


# --------------------------------------------------------------------------- checks


def _ols(X, y):
    """Least squares by QR: coefficients, residuals and leverages."""
    Q, R = np.linalg.qr(X)
    beta = np.linalg.solve(R, Q.T @ y)
    return beta, y - X @ beta, np.sum(Q**2, axis=1)


def _below_one(h):
    if np.any(h > 1 - 1e-10):
        raise ValueError("X has a point of leverage h_ii = 1: its residual is 0 whatever y is, "
                         "so it cannot be studentised")
    return h


# ------------------------------------------------------------------- diagnostics
def leverage(X):
    """Leverages ``h_ii``, the diagonal of the hat matrix ``H = X (XᵀX)⁻¹ Xᵀ``.

    Computed from the thin QR factorisation ``X = QR`` as the squared row norms of ``Q``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank (any columns; a column of ones is not required).

    Returns
    -------
    h : ndarray, shape (n,)
        Each in ``[0, 1]`` (in ``[1/n, 1]`` with an intercept), summing to ``p``.

    Raises
    ------
    ValueError
        If ``X`` is not finite, has ``n <= p`` or is rank-deficient.
    """
    X = check.design(X)
    return np.sum(np.linalg.qr(X)[0] ** 2, axis=1)


def studentized_residuals(X, y, kind="internal"):
    """Residuals of least squares divided by their estimated standard deviations.

    ``internal``: ``r_i = e_i / (s sqrt(1 - h_ii))`` with ``s² = RSS/(n - p)``;
    ``external``: ``t_i = e_i / (s_(i) sqrt(1 - h_ii))``, where ``s_(i)`` is the ``s`` of
    the fit without point ``i``, from ``(n - p - 1) s_(i)² = (n - p) s² - e_i²/(1 - h_ii)``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank, ``n > p + 1``.
    y : array_like, shape (n,)
        Responses.
    kind : {"internal", "external"}
        Internally or externally studentised.

    Returns
    -------
    ndarray, shape (n,)

    Raises
    ------
    ValueError
        If an argument is invalid, some ``h_ii = 1``, or the fit is exact (``s = 0``).
    """
    X = check.design(X)
    y = check.vector(y, X.shape[0], "y")
    kind = check.choice(kind, ("internal", "external"), "kind")
    n, p = X.shape
    if n < p + 2:
        raise ValueError(f"X must have at least p + 2 = {p + 2} rows, got {n}")
    _, e, h = _ols(X, y)
    h = _below_one(h)
    s2 = e @ e / (n - p)
    if s2 <= 1e-28 * max(1.0, y @ y):
        raise ValueError("y is fitted exactly (RSS = 0): the residuals cannot be studentised")
    if kind == "internal":
        return e / np.sqrt(s2 * (1 - h))
    s2_del = np.maximum((n - p) * s2 - e**2 / (1 - h), 0.0) / (n - p - 1)
    return e / np.sqrt(s2_del * (1 - h))


def cooks_distance(X, y):
    """Cook's distances ``D_i = r_i² h_ii / (p (1 - h_ii))``, from one fit.

    ``D_i = (β̂ - β̂_(i))ᵀ XᵀX (β̂ - β̂_(i)) / (p s²)`` measures how far the fitted values
    move when point ``i`` is left out; ``r_i`` is the internally studentised residual.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank, ``n > p + 1``.
    y : array_like, shape (n,)
        Responses.

    Returns
    -------
    ndarray, shape (n,)

    Raises
    ------
    ValueError
        As :func:`studentized_residuals`.
    """
    r = studentized_residuals(X, y, kind="internal")
    X = np.asarray(X, dtype=float)
    h = leverage(X)
    return r**2 * h / (X.shape[1] * (1 - h))


class MahalanobisLeverage(NamedTuple):
    """Both sides of ``MD_i² = (n - 1)(h_ii - 1/n)``."""
    md2: np.ndarray
    rhs: np.ndarray


def mahalanobis_leverage_identity(X):
    """Squared Mahalanobis distances of the rows of the covariates, and ``(n - 1)(h_ii - 1/n)``.

    ``MD_i² = (x_i - x̄)ᵀ S⁻¹ (x_i - x̄)`` with the sample mean ``x̄`` and covariance ``S``
    (divisor ``n - 1``) of the covariates ``X[:, 1:]``; ``h_ii`` are the leverages of ``X``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix whose first column is the column of ones, ``p >= 2``.

    Returns
    -------
    MahalanobisLeverage
        ``md2`` and ``rhs``, both of shape (n,); they are equal.

    Raises
    ------
    ValueError
        If ``X`` is invalid, lacks the column of ones or has no covariate.
    """
    X = check.design(X, intercept=True)
    n, p = X.shape
    if p < 2:
        raise ValueError("X must have at least one covariate besides the column of ones")
    Z = X[:, 1:] - X[:, 1:].mean(axis=0)
    S = Z.T @ Z / (n - 1)
    md2 = np.einsum("ij,ij->i", Z, np.linalg.solve(S, Z.T).T)
    return MahalanobisLeverage(md2, (n - 1) * (leverage(X) - 1 / n))


def vif(X):
    """Variance inflation factors ``1/(1 - R_j²)`` of the covariates ``X[:, 1:]``.

    ``R_j²`` is the R² of the regression of column ``j`` on the other columns of ``X``
    (intercept included); the VIFs are the diagonal of the inverse correlation matrix.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix whose first column is the column of ones, ``p >= 2``.

    Returns
    -------
    ndarray, shape (p - 1,)
        ``VIF_j`` for ``j = 1, ..., p - 1`` (each ``>= 1``).

    Raises
    ------
    ValueError
        If ``X`` is invalid, lacks the column of ones or has no covariate.
    """
    X = check.design(X, intercept=True)
    if X.shape[1] < 2:
        raise ValueError("X must have at least one covariate besides the column of ones")
    Z = X[:, 1:] - X[:, 1:].mean(axis=0)
    Z = Z / np.linalg.norm(Z, axis=0)
    return np.diag(np.linalg.inv(Z.T @ Z))


# ------------------------------------------------------------------ M-estimators
def huber_weights(u, c=1.345):
    """Huber weights ``w(u) = ψ(u)/u = min(1, c/|u|)``.

    ``ψ(u) = max(-c, min(u, c))`` is the derivative of Huber's ``ρ(u) = u²/2`` for
    ``|u| <= c`` and ``c|u| - c²/2`` beyond.

    Parameters
    ----------
    u : array_like
        Scaled residuals.
    c : float
        Tuning constant (positive); 1.345 gives 95% efficiency at the normal model.

    Returns
    -------
    ndarray, shape of ``u``

    Raises
    ------
    ValueError
        If ``u`` is not finite or ``c`` is not positive.
    """
    u = check.finite(u, "u")
    c = check.positive(c, "c")
    return np.minimum(1.0, c / np.maximum(np.abs(u), 1e-300))


def bisquare_weights(u, c=4.685):
    """Tukey's bisquare weights ``w(u) = (1 - (u/c)²)²`` for ``|u| <= c``, 0 beyond.

    ``ψ(u) = u w(u)`` is the derivative of ``ρ(u) = (c²/6)(1 - (1 - (u/c)²)³)`` (capped at
    ``c²/6``); it is 0 for ``|u| > c``, so gross outliers get weight 0.

    Parameters
    ----------
    u : array_like
        Scaled residuals.
    c : float
        Tuning constant (positive); 4.685 gives 95% efficiency at the normal model.

    Returns
    -------
    ndarray, shape of ``u``

    Raises
    ------
    ValueError
        If ``u`` is not finite or ``c`` is not positive.
    """
    u = check.finite(u, "u")
    c = check.positive(c, "c")
    return np.where(np.abs(u) <= c, (1 - (u / c) ** 2) ** 2, 0.0)


@dataclass(frozen=True)
class MFit:
    """Result of :func:`irls_m_estimator`: coefficients, final MAD scale, robustness
    weights, number of IRLS steps, and whether the stopping rule was met."""
    beta: np.ndarray
    scale: float
    weights: np.ndarray
    n_iter: int
    converged: bool


def _mad0(r):
    """The MAD scale of residuals about 0: ``median |r| / Φ⁻¹(3/4)``."""
    return float(np.median(np.abs(r)) / _Z75)


def irls_m_estimator(X, y, weights, c, max_iter=500, tol=1e-12):
    """M-estimate of regression by iteratively reweighted least squares (IRLS).

    Starts from least squares. Each step sets ``s = median|r|/0.6745`` from the current
    residuals ``r``, the weights ``w_i = weights(r_i/s, c)``, and solves the weighted
    least-squares problem ``XᵀWX β = XᵀWy``; this is the iteration of statsmodels'
    ``RLM(...).fit(scale_est="mad")``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank.
    y : array_like, shape (n,)
        Responses.
    weights : callable
        ``weights(u, c)``, e.g. :func:`huber_weights` or :func:`bisquare_weights`.
    c : float
        Tuning constant passed to ``weights`` (positive).
    max_iter : int
        Iteration limit.
    tol : float
        Stop when no coefficient moves by more than ``tol * (1 + max |beta|)``.

    Returns
    -------
    MFit

    Warns
    -----
    RuntimeWarning
        If the iteration stops at ``max_iter`` without meeting the stopping rule (the result
        then has ``converged=False``).

    Raises
    ------
    ValueError
        If an argument is invalid, ``weights`` returns a bad array (non-finite, negative or
        of the wrong shape), the scale is 0, or the weighted problem becomes singular.
    """
    X = check.design(X)
    y = check.vector(y, X.shape[0], "y")
    weights, c = check.function(weights, "weights"), check.positive(c, "c")
    max_iter, tol = check.count(max_iter, "max_iter"), check.positive(tol, "tol")
    beta, r, _ = _ols(X, y)
    for it in range(1, max_iter + 1):
        s = _mad0(r)
        if s <= 1e-14 * max(1.0, np.abs(y).max()):
            raise ValueError("the MAD scale of the residuals is 0: more than half of the points are fitted exactly")
        w = check.returned(weights(r / s, c), "weights", y.shape)
        if np.any(w < 0):
            raise ValueError("weights must return non-negative weights")
        sw = np.sqrt(w)
        if np.linalg.matrix_rank(sw[:, None] * X) < X.shape[1]:
            raise ValueError("the weighted design matrix is rank-deficient: too many zero weights")
        new = np.linalg.lstsq(sw[:, None] * X, sw * y, rcond=None)[0]
        done = np.max(np.abs(new - beta)) <= tol * (1 + np.max(np.abs(new)))
        beta, r = new, y - X @ new
        if done:
            break
    if not done:
        warnings.warn(f"irls_m_estimator did not converge in max_iter = {max_iter} steps; the result is "
                      "marked converged=False", RuntimeWarning, stacklevel=2)
    s = _mad0(r)
    return MFit(beta, s, weights(r / s, c), it, bool(done))


def efficiency_at_normal(psi, dpsi, half_width=12.0, n_grid=200001):
    """Asymptotic efficiency ``(E ψ'(Z))² / E ψ(Z)²``, ``Z ~ N(0, 1)``, of an M-estimator
    relative to least squares at normal errors (scale known).

    The two expectations are computed by the composite Simpson rule on
    ``[-half_width, half_width]``: its error is ``O(h⁴)`` where ``ψ`` is smooth, but only
    ``O(h)``, with ``h = 2 half_width/(n_grid - 1)``, where ``ψ'`` jumps (Huber at ``±c``).

    Parameters
    ----------
    psi, dpsi : callable
        ``ψ`` and its derivative ``ψ'``, vectorised (array in, array out).
    half_width : float
        Half-width of the integration interval (positive).
    n_grid : int
        Number of grid points (odd, at least 101).

    Returns
    -------
    float
        In ``(0, 1]``; 1 for ``ψ(u) = u``.

    Raises
    ------
    ValueError
        If an argument is invalid, a callable returns a bad array, or ``E ψ² = 0``.
    """
    psi, dpsi = check.function(psi, "psi"), check.function(dpsi, "dpsi")
    half_width = check.positive(half_width, "half_width")
    n_grid = check.count(n_grid, "n_grid", low=101)
    if n_grid % 2 == 0:
        raise ValueError(f"n_grid must be odd (Simpson's rule), got {n_grid}")
    u = np.linspace(-half_width, half_width, n_grid)
    simpson = np.ones(n_grid)
    simpson[1:-1:2], simpson[2:-1:2] = 4.0, 2.0
    phi = simpson * (u[1] - u[0]) / 3 * np.exp(-u**2 / 2) / np.sqrt(2 * np.pi)
    e_dpsi = phi @ check.returned(dpsi(u), "dpsi", u.shape)
    e_psi2 = phi @ check.returned(psi(u), "psi", u.shape) ** 2
    if e_psi2 <= 0:
        raise ValueError("psi must not vanish on the whole grid (E ψ(Z)² = 0)")
    return float(e_dpsi**2 / e_psi2)


def lad_regression(X, y):
    """Least absolute deviations: minimise ``sum_i |y_i - x_iᵀβ|`` as a linear program.

    Variables ``(β, u⁺, u⁻)`` with ``u± >= 0``; minimise ``1ᵀu⁺ + 1ᵀu⁻`` subject to
    ``Xβ + u⁺ - u⁻ = y``; solved by ``scipy.optimize.linprog`` (HiGHS).

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank.
    y : array_like, shape (n,)
        Responses.

    Returns
    -------
    beta : ndarray, shape (p,)
        A minimiser (a vertex of the LP: at least ``p`` residuals are 0).

    Raises
    ------
    ValueError
        If ``X`` or ``y`` is invalid.
    RuntimeError
        If the solver fails.
    """
    X = check.design(X)
    y = check.vector(y, X.shape[0], "y")
    n, p = X.shape
    cost = np.r_[np.zeros(p), np.ones(2 * n)]
    A_eq = np.hstack([X, np.eye(n), -np.eye(n)])
    bounds = [(None, None)] * p + [(0, None)] * (2 * n)
    res = scipy.optimize.linprog(cost, A_eq=A_eq, b_eq=y, bounds=bounds, method="highs")
    if res.status != 0:
        raise RuntimeError(f"linprog failed: {res.message}")
    return res.x[:p]


# ---------------------------------------------------------------- model selection
def _criterion_args(rss, n, p):
    rss = check.positive_entries(rss, "rss")
    n = check.count(n, "n")
    p = check.integer_entries(p, "p", low=1)
    if np.any(p > n):
        raise ValueError(f"p must be at most n = {n}")
    return rss, n, p


def _out(v):
    return float(v) if np.ndim(v) == 0 else v


def aic_gaussian(rss, n, p):
    """AIC of a Gaussian linear model with the variance profiled out: ``n log(RSS/n) + 2p``.

    statsmodels' ``OLS(...).fit().aic`` is this plus the constant ``n(1 + log 2π)``.

    Parameters
    ----------
    rss : float or array_like
        Residual sums of squares (positive).
    n : int
        Number of observations.
    p : int or array_like of int
        Number of regression coefficients, intercept included (``1 <= p <= n``).

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If an argument is invalid.
    """
    rss, n, p = _criterion_args(rss, n, p)
    return _out(n * np.log(rss / n) + 2 * p)


def bic_gaussian(rss, n, p):
    """BIC of a Gaussian linear model: ``n log(RSS/n) + p log n``.

    statsmodels' ``OLS(...).fit().bic`` is this plus ``n(1 + log 2π)``.

    Parameters
    ----------
    rss : float or array_like
        Residual sums of squares (positive).
    n : int
        Number of observations.
    p : int or array_like of int
        Number of regression coefficients, intercept included (``1 <= p <= n``).

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If an argument is invalid.
    """
    rss, n, p = _criterion_args(rss, n, p)
    return _out(n * np.log(rss / n) + p * np.log(n))


def mallows_cp(rss, n, p, sigma2):
    """Mallows' ``C_p = RSS/σ̂² - n + 2p``, with ``σ̂²`` usually ``RSS/(n - p)`` of the full model.

    Parameters
    ----------
    rss : float or array_like
        Residual sums of squares (positive).
    n : int
        Number of observations.
    p : int or array_like of int
        Number of regression coefficients, intercept included (``1 <= p <= n``).
    sigma2 : float
        Estimate of the error variance (positive).

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If an argument is invalid.
    """
    rss, n, p = _criterion_args(rss, n, p)
    sigma2 = check.positive(sigma2, "sigma2")
    return _out(rss / sigma2 - n + 2 * p)


@dataclass(frozen=True)
class SubsetSearch:
    """Result of :func:`best_subset`: the chosen columns of ``X`` (intercept excluded) and
    its score; every subset searched with its RSS, number of coefficients and score."""
    selected: tuple
    score: float
    subsets: list
    rss: np.ndarray
    n_params: np.ndarray
    scores: np.ndarray


def _subset_rss(X, y, subsets):
    return np.array([np.sum(_ols(X[:, [0, *s]], y)[1] ** 2) for s in subsets])


def best_subset(X, y, criterion="aic"):
    """Best-subset selection: fit all ``2^m`` models and pick the best by a criterion.

    Every model keeps the intercept (column 0 of ``X``); the candidates are the
    ``m = p - 1`` other columns. ``criterion`` is minimised (``"aic"``, ``"bic"``, ``"cp"``
    with ``σ̂² = RSS_full/(n - p)``) or maximised (``"adjr2"``, adjusted R²).

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix with a first column of ones, full column rank, ``p <= 16``.
    y : array_like, shape (n,)
        Responses.
    criterion : {"aic", "bic", "cp", "adjr2"}

    Returns
    -------
    SubsetSearch
        Ties go to the first subset in the order of ``subsets`` (by size, then lexicographic).

    Raises
    ------
    ValueError
        If an argument is invalid or the full model fits exactly.
    """
    X = check.design(X, intercept=True)
    y = check.vector(y, X.shape[0], "y")
    criterion = check.choice(criterion, ("aic", "bic", "cp", "adjr2"), "criterion")
    n, p = X.shape
    if p > 16:
        raise ValueError(f"X must have at most 15 candidate columns for an exhaustive search, got {p - 1}")
    subsets = [s for k in range(p) for s in itertools.combinations(range(1, p), k)]
    rss, k = _subset_rss(X, y, subsets), np.array([len(s) + 1 for s in subsets])
    if rss[-1] <= 1e-28 * max(1.0, y @ y):
        raise ValueError("y is fitted exactly by the full model (RSS = 0)")
    if criterion == "adjr2":
        scores = 1 - (rss / (n - k)) / (np.sum((y - y.mean()) ** 2) / (n - 1))
        best = int(np.argmax(scores))
    else:
        scores = {"aic": lambda: aic_gaussian(rss, n, k), "bic": lambda: bic_gaussian(rss, n, k),
                  "cp": lambda: mallows_cp(rss, n, k, float(rss[-1] / (n - p)))}[criterion]()
        best = int(np.argmin(scores))
    return SubsetSearch(subsets[best], float(scores[best]), subsets, rss, k, scores)


@dataclass(frozen=True)
class BackwardPath:
    """Result of :func:`backward_elimination`: columns in the order removed down to the
    intercept-only model, the p-value of each when removed, and the model where the rule
    stops (``selected``, intercept excluded)."""
    removed: list
    pvalues: np.ndarray
    selected: tuple


def _t_pvalues(X, y):
    n, p = X.shape
    beta, e, _ = _ols(X, y)
    s2 = e @ e / (n - p)
    R_inv = np.linalg.inv(np.linalg.qr(X, mode="r"))     # diag((XᵀX)⁻¹) = row norms² of R⁻¹,
    se = np.sqrt(s2 * np.sum(R_inv**2, axis=1))          # without forming XᵀX
    return 2 * scipy.stats.t.sf(np.abs(beta / se), n - p)


def backward_elimination(X, y, alpha=0.05):
    """Backward elimination by t-tests: drop the least significant variable while its
    two-sided p-value exceeds ``alpha``.

    The path is continued to the intercept-only model, removing at each step the
    variable with the largest p-value (equivalently, whose removal raises the RSS least);
    ``selected`` is the model before the first step whose largest p-value is ``<= alpha``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix with a first column of ones, full column rank, ``p >= 2``.
    y : array_like, shape (n,)
        Responses.
    alpha : float
        Significance threshold in ``(0, 1)``.

    Returns
    -------
    BackwardPath

    Raises
    ------
    ValueError
        If an argument is invalid or the full model fits exactly.
    """
    X = check.design(X, intercept=True)
    y = check.vector(y, X.shape[0], "y")
    alpha = check.level(alpha)
    if X.shape[1] < 2:
        raise ValueError("X must have at least one covariate besides the column of ones")
    if np.sum(_ols(X, y)[1] ** 2) <= 1e-28 * max(1.0, y @ y):
        raise ValueError("y is fitted exactly by the full model (RSS = 0)")
    current, removed, pvals, selected = list(range(1, X.shape[1])), [], [], None
    while current:
        pv = _t_pvalues(X[:, [0, *current]], y)[1:]
        j = int(np.argmax(pv))
        if selected is None and pv[j] <= alpha:
            selected = tuple(current)
        removed.append(current.pop(j))
        pvals.append(float(pv[j]))
    return BackwardPath(removed, np.array(pvals), () if selected is None else selected)
