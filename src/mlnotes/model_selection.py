"""Bias, variance and model selection (chapter 11): the bias-variance decomposition by
simulation, hold-out, k-fold and leave-one-out cross-validation (with the hat-matrix
shortcut for linear smoothers), forward and backward feature selection, filter selection
by mutual information, and the finite-class generalisation bound.

Conventions. Data points are the rows of ``X``. Models are linear in the columns of a
design matrix; a *fit* is a function ``fit(X, y) -> beta`` (least squares by default) and
the prediction at new rows ``X0`` is ``X0 @ beta``. Errors are mean squared errors.
"""
from dataclasses import dataclass, field

import numpy as np

from mlnotes import _validate as check
from mlnotes.information import empirical_joint, mutual_information

__all__ = [
    "polynomial_features", "BiasVariance", "bias_variance",
    "holdout_indices", "kfold_indices", "least_squares_fit", "cross_validate", "loocv_linear",
    "SelectionPath", "forward_selection", "backward_selection",
    "mi_scores", "mi_filter", "finite_class_bound",
]


# ----------------------------------------------------------------------- helpers
def polynomial_features(x, degree, low=0.0, high=1.0):
    """Design matrix ``[1, t, t², …, t^degree]`` with ``t = 2 (x - low)/(high - low) - 1``.

    The inputs are mapped from ``[low, high]`` to ``[-1, 1]`` first, which keeps the
    columns well scaled; the fitted polynomial in ``x`` is the same.

    Parameters
    ----------
    x : array_like, shape (...,)
        Inputs (any shape; a leading batch of training sets is allowed).
    degree : int
        Degree, at least 0.
    low, high : float
        The input range, ``low < high``.

    Returns
    -------
    ndarray, shape (..., degree + 1)

    Raises
    ------
    ValueError
        If ``x`` is not finite, ``degree`` is not an integer >= 0 or ``low >= high``.
    """
    x = check.finite(x, "x")
    degree = check.count(degree, "degree", low=0)
    low, high = check.interval_bounds(low, high)
    t = 2 * (x - low) / (high - low) - 1
    return t[..., None] ** np.arange(degree + 1)


def least_squares_fit(X, y):
    """Least-squares coefficients by a QR factorisation, for one or a stack of problems.

    Parameters
    ----------
    X : ndarray, shape (..., n, p)
        Design matrices of full column rank.
    y : ndarray, shape (..., n)
        Responses.

    Returns
    -------
    ndarray, shape (..., p)

    Raises
    ------
    ValueError
        If the shapes do not match, a value is not finite, or a design matrix does not
        have full column rank (a diagonal entry of ``R`` below ``max(n, p) eps`` times the
        largest).
    """
    X, y = check.finite(X, "X"), check.finite(y, "y")
    if X.ndim < 2 or y.shape != X.shape[:-1] or X.shape[-2] < X.shape[-1] or X.shape[-1] == 0:
        raise ValueError(f"X must have shape (..., n, p) with n >= p >= 1 and y shape (..., n); "
                         f"got {X.shape} and {y.shape}")
    Q, R = np.linalg.qr(X)
    r = np.abs(np.diagonal(R, axis1=-2, axis2=-1))
    if np.any(r <= max(X.shape[-2:]) * np.finfo(float).eps * r.max(axis=-1, keepdims=True)):
        raise ValueError("X must have full column rank (its columns are linearly dependent)")
    return np.linalg.solve(R, np.einsum("...np,...n->...p", Q, y)[..., None])[..., 0]


# ----------------------------------------------------------------- bias and variance
@dataclass(frozen=True)
class BiasVariance:
    """Result of :func:`bias_variance`: averages over the test inputs.

    ``bias2``, ``variance`` and ``noise`` are the three terms of the decomposition,
    ``error`` the simulated expected test error; ``predictions`` (one row per training set)
    and ``y_test`` (fresh test responses, same shape) are kept for further checks.
    """
    bias2: float
    variance: float
    noise: float
    error: float
    predictions: np.ndarray = field(repr=False)
    y_test: np.ndarray = field(repr=False)


def bias_variance(f, x_test, degree, n_train=20, sigma=0.3, n_sets=500, rng=None,
                  low=0.0, high=1.0):
    """Bias², variance and noise of polynomial least squares, by simulating training sets.

    Draws ``n_sets`` training sets of ``n_train`` points, ``x ~ U(low, high)`` and
    ``y = f(x) + sigma ε``, fits a polynomial of the given degree to each, and returns
    the averages over ``x_test`` of (f - mean prediction)², the variance of the
    predictions across training sets, σ², and the squared error on fresh test responses.

    Parameters
    ----------
    f : callable
        The true regression function, vectorised over numpy arrays: ``f(x)`` must return
        finite values of the shape of ``x``.
    x_test : array_like, shape (m,)
        Test inputs.
    degree : int
        Polynomial degree (>= 0, and < n_train).
    n_train, n_sets : int
        Training-set size and number of simulated training sets.
    sigma : float
        Noise standard deviation (>= 0).
    rng : numpy.random.Generator
        Source of randomness (``np.random.default_rng(seed)``).
    low, high : float
        Range of the training inputs.

    Returns
    -------
    BiasVariance

    Raises
    ------
    ValueError
        If an argument is invalid (wrong shape, non-finite, a bad count, ``degree >= n_train``,
        ``low >= high``), or ``f`` is not callable or returns values of the wrong shape or
        non-finite values.
    """
    f = check.function(f, "f")
    x_test = check.vector(x_test, None, "x_test")
    degree = check.count(degree, "degree", low=0)
    n_train = check.count(n_train, "n_train", low=degree + 1)
    n_sets = check.count(n_sets, "n_sets", low=2)
    sigma = check.nonnegative(sigma, "sigma")
    rng = check.generator(rng)
    low, high = check.interval_bounds(low, high)
    x = rng.uniform(low, high, size=(n_sets, n_train))
    y = check.returned(f(x), "f", x.shape) + sigma * rng.standard_normal(x.shape)
    beta = least_squares_fit(polynomial_features(x, degree, low, high), y)   # (n_sets, p)
    pred = beta @ polynomial_features(x_test, degree, low, high).T          # (n_sets, m)
    f_test = check.returned(f(x_test), "f", x_test.shape)
    y_test = f_test + sigma * rng.standard_normal(pred.shape)
    mean = pred.mean(axis=0)
    return BiasVariance(bias2=float(np.mean((f_test - mean) ** 2)),
                        variance=float(np.mean(pred.var(axis=0))), noise=sigma ** 2,
                        error=float(np.mean((y_test - pred) ** 2)), predictions=pred, y_test=y_test)


# -------------------------------------------------------------------- cross-validation
def holdout_indices(n, test_fraction=0.3, rng=None):
    """A random hold-out split: ``round(test_fraction n)`` validation points, the rest for training.

    Parameters
    ----------
    n : int
        Number of points (at least 2).
    test_fraction : float
        Fraction held out, in (0, 1); at least one point goes to each side.
    rng : numpy.random.Generator

    Returns
    -------
    train, test : ndarray of int
        Disjoint sorted index arrays whose union is ``0, …, n-1``.

    Raises
    ------
    ValueError
        If ``n`` or ``test_fraction`` is invalid, or ``rng`` is not a Generator.
    """
    n = check.count(n, "n", low=2)
    test_fraction = check.number(test_fraction, "test_fraction")
    if not 0 < test_fraction < 1:
        raise ValueError(f"test_fraction must lie in (0, 1), got {test_fraction}")
    rng = check.generator(rng)
    n_test = min(max(int(round(test_fraction * n)), 1), n - 1)
    perm = rng.permutation(n)
    return np.sort(perm[n_test:]), np.sort(perm[:n_test])


def kfold_indices(n, k, shuffle=False, rng=None):
    """The ``k`` (train, test) index pairs of k-fold cross-validation.

    The folds are consecutive blocks of ``0, …, n-1`` (of a random permutation of it if
    ``shuffle``); the first ``n % k`` folds have ``n // k + 1`` points, the others
    ``n // k``, as in ``sklearn.model_selection.KFold``. ``k = n`` is leave-one-out.

    Parameters
    ----------
    n : int
        Number of points.
    k : int
        Number of folds, ``2 <= k <= n``.
    shuffle : bool
        Permute the points first with ``rng.permutation(n)``; each fold's test indices
        are then the sorted entries of its block (scikit-learn's shuffled folds use a
        different random stream, so they differ).
    rng : numpy.random.Generator, optional
        Required when ``shuffle`` is true.

    Returns
    -------
    list of (train, test) pairs of sorted int arrays

    Raises
    ------
    ValueError
        If ``k`` is not in ``[2, n]``, ``shuffle`` is not a bool, or ``rng`` is not a
        Generator (it may be None only when ``shuffle`` is false).
    """
    n = check.count(n, "n", low=2)
    k = check.count(k, "k", low=2)
    if k > n:
        raise ValueError(f"k must be at most n = {n}, got {k}")
    rng = check.generator(rng) if check.flag(shuffle, "shuffle") or rng is not None else None
    order = rng.permutation(n) if shuffle else np.arange(n)
    sizes = np.full(k, n // k) + (np.arange(k) < n % k)
    fold = np.repeat(np.arange(k), sizes)[np.argsort(order)]   # fold of point i
    return [(np.flatnonzero(fold != j), np.flatnonzero(fold == j)) for j in range(k)]


def _folds(folds, n):
    if not isinstance(folds, (list, tuple)) or len(folds) < 1:
        raise ValueError("folds must be a non-empty list of (train, test) index pairs")
    out = []
    for pair in folds:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValueError(f"folds must hold (train, test) pairs of index arrays, got {type(pair).__name__}")
        try:
            train, test = np.asarray(pair[0]), np.asarray(pair[1])
        except ValueError as err:
            raise ValueError(f"folds must hold rectangular index arrays: {err}") from None
        if (train.dtype.kind not in "iu" or test.dtype.kind not in "iu" or test.size == 0
                or train.size == 0 or np.any(np.concatenate([train, test]) < 0)
                or np.any(np.concatenate([train, test]) >= n)):
            raise ValueError(f"folds must hold non-empty integer index arrays in [0, {n})")
        out.append((train, test))
    return out


def cross_validate(X, y, folds, fit=least_squares_fit):
    """Mean squared validation error of a linear model on each fold.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix.
    y : array_like, shape (n,)
        Responses.
    folds : list of (train, test) index pairs
        E.g. from :func:`kfold_indices` or :func:`holdout_indices`.
    fit : callable
        ``fit(X_train, y_train) -> beta``, finite of shape ``(p,)``; least squares by default.

    Returns
    -------
    ndarray, shape (len(folds),)
        ``mean((y_test - X_test beta)²)`` for each fold; their mean is the CV estimate.

    Raises
    ------
    ValueError
        If ``X``, ``y`` or ``folds`` are invalid, ``fit`` is not callable, or it returns
        something other than finite coefficients of shape ``(p,)``.
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    folds = _folds(folds, X.shape[0])
    fit = check.function(fit, "fit")
    return np.array([np.mean((y[te] - X[te] @ check.returned(fit(X[tr], y[tr]), "fit", X.shape[1:])) ** 2)
                     for tr, te in folds])


def loocv_linear(X, y, lam=0.0):
    """Leave-one-out error of least squares or ridge from one fit: mean(((y - ŷ)/(1 - H_ii))²).

    ``H = X (XᵀX + lam I)⁻¹ Xᵀ`` is the hat matrix of the fit ``ŷ = H y``; the intercept
    column, if any, is penalised like the other columns (as in :func:`mlnotes.kernels.ridge`).

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix (full column rank when ``lam = 0``).
    y : array_like, shape (n,)
        Responses.
    lam : float
        Ridge penalty, >= 0 (0 is least squares).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``X`` or ``y`` is invalid, ``lam < 0``, or some ``H_ii = 1`` (a point that the
        fit interpolates whatever its response: its leave-one-out fit is undefined).
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    lam = check.nonnegative(lam, "lam")
    A = X.T @ X + lam * np.eye(X.shape[1])
    try:
        H = X @ np.linalg.solve(A, X.T)
    except np.linalg.LinAlgError:
        raise ValueError("X must have full column rank when lam = 0 (XᵀX is singular)") from None
    h = np.diag(H)
    if np.any(h > 1 - 1e-10):
        raise ValueError("X has a point of leverage H_ii = 1; its leave-one-out fit is undefined")
    return float(np.mean(((y - H @ y) / (1 - h)) ** 2))


# ------------------------------------------------------------------ feature selection
@dataclass(frozen=True)
class SelectionPath:
    """Result of a sequential feature search.

    ``features[i]`` is the feature added (forward) or removed (backward) at step ``i``;
    ``cv_error[i]`` is the mean CV error of the subset *before* step ``i``, and the last
    entry that of the final subset ``selected``.
    """
    features: list
    cv_error: np.ndarray
    selected: list


def _subset_error(X, y, subset, folds):
    Z = np.column_stack([np.ones(X.shape[0]), X[:, sorted(subset)]])   # always an intercept
    return float(np.mean(cross_validate(Z, y, folds)))


def _sequential(X, y, k, folds, forward):
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    d = X.shape[1]
    k = check.count(k, "k", low=0 if not forward else 1)
    if k > d or (not forward and k == d):
        raise ValueError(f"k must be {'at most' if forward else 'smaller than'} the number of features {d}, got {k}")
    folds = _folds(folds, X.shape[0])
    current = set() if forward else set(range(d))
    steps, errors = [], [_subset_error(X, y, current, folds)]
    while len(current) != k:
        candidates = sorted(set(range(d)) - current) if forward else sorted(current)
        scores = [_subset_error(X, y, current ^ {j}, folds) for j in candidates]
        best = candidates[int(np.argmin(scores))]          # first minimiser on ties
        current ^= {best}
        steps.append(best)
        errors.append(min(scores))
    return SelectionPath(features=steps, cv_error=np.array(errors), selected=sorted(current))


def forward_selection(X, y, k, folds):
    """Forward search: add, k times, the feature that most lowers the mean CV error.

    Every model has an intercept; the criterion of a subset is the mean over ``folds``
    of the validation MSE of least squares on ``[1, X[:, subset]]`` (the criterion of
    ``SequentialFeatureSelector(LinearRegression(), scoring="neg_mean_squared_error")``).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Features (no column of ones).
    y : array_like, shape (n,)
        Responses.
    k : int
        Number of features to select, ``1 <= k <= d``.
    folds : list of (train, test) index pairs

    Returns
    -------
    SelectionPath
        ``cv_error[0]`` is the intercept-only model; ``cv_error[i]`` has ``i`` features.

    Raises
    ------
    ValueError
        If an argument is invalid.
    """
    return _sequential(X, y, k, folds, forward=True)


def backward_selection(X, y, k, folds):
    """Backward search: from all features, remove one at a time the feature whose removal
    gives the lowest mean CV error, until ``k`` remain.

    Same models and criterion as :func:`forward_selection`.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    k : int
        Number of features to keep, ``0 <= k < d``.
    folds : list of (train, test) index pairs

    Returns
    -------
    SelectionPath
        ``features`` in the order removed; ``cv_error[0]`` is the full model.

    Raises
    ------
    ValueError
        If an argument is invalid.
    """
    return _sequential(X, y, k, folds, forward=False)


def mi_scores(X, y):
    """Empirical mutual information (nats) between each discrete feature and the label.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Discrete features (e.g. 0/1).
    y : array_like, shape (n,)
        Discrete labels.

    Returns
    -------
    ndarray, shape (d,)
        ``I(p̂(x_j, y))`` for each column ``j``.

    Raises
    ------
    ValueError
        If ``X`` or ``y`` has the wrong shape or non-finite values.
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    return np.array([mutual_information(empirical_joint(X[:, j], y)) for j in range(X.shape[1])])


def mi_filter(X, y, k):
    """Filter selection: the ``k`` features of largest empirical mutual information with ``y``.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Discrete features.
    y : array_like, shape (n,)
        Discrete labels.
    k : int
        Number of features to keep, ``1 <= k <= d``.

    Returns
    -------
    ndarray of int, shape (k,)
        Feature indices by decreasing score (ties: smaller index first).

    Raises
    ------
    ValueError
        If an argument is invalid.
    """
    scores = mi_scores(X, y)
    k = check.count(k, "k")
    if k > scores.size:
        raise ValueError(f"k must be at most the number of features {scores.size}, got {k}")
    return np.argsort(-scores, kind="stable")[:k]


# ---------------------------------------------------------------- learning theory
def finite_class_bound(m, k, delta):
    """Uniform-convergence radius ``γ = sqrt(log(2k/δ) / (2m))`` for a finite class of ``k`` classifiers.

    With probability at least ``1 - δ`` over ``m`` i.i.d. examples, every one of the ``k``
    hypotheses has ``|training error - generalisation error| <= γ``.

    Parameters
    ----------
    m : int
        Number of training examples (>= 1).
    k : int
        Number of hypotheses (>= 1).
    delta : float
        Failure probability, in (0, 1).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If an argument is invalid.
    """
    m, k = check.count(m, "m"), check.count(k, "k")
    if check.positive(delta, "delta") >= 1:
        raise ValueError(f"delta must lie in (0, 1), got {delta}")
    return float(np.sqrt(np.log(2 * k / delta) / (2 * m)))
