"""Subgradient and stochastic optimisation (chapter 33): subgradients of the absolute value,
the ℓ1 norm, the hinge loss and a maximum of affine functions, one-sided derivatives, the
projected subgradient method with its best and weighted-average iterates, step-size
schedules and the rate bound, projected stochastic subgradient descent, and Pegasos.

Conventions. Iterates are indexed from 0 as in the notes: ``steps[k]`` is the step
``gamma_k`` that takes ``x_k`` to ``x_{k+1} = P_C(x_k - gamma_k u_k)``, so ``K = len(steps)``
steps give the iterates ``x_0, ..., x_K`` (``x_0`` is projected onto ``C`` first). The
weighted average after step ``k`` is ``x̄_k = (Σ_{i≤k} gamma_i)^{-1} Σ_{i≤k} gamma_i x_i`` and
the bound of the rate theorem at ``k`` is
``(D² + L² Σ_{i≤k} gamma_i²) / (2 Σ_{i≤k} gamma_i)``, for ``k = 0, ..., K - 1``.
Projections are callables ``project(y) -> P_C(y)`` such as those of :mod:`mlnotes.optimize`.
"""
from dataclasses import dataclass

import numpy as np

from mlnotes import _validate as check

__all__ = [
    "subgradient_abs", "subgradient_l1", "subgradient_hinge", "subgradient_max_affine",
    "one_sided_derivatives", "projected_subgradient", "step_sizes",
    "subgradient_rate_bound", "projected_sgd", "pegasos",
]


# ------------------------------------------------------------------------ helpers
def _steps(steps):
    """``steps`` as a 1-D array of positive finite step sizes."""
    g = check.vector(steps, None, "steps")
    if np.any(g <= 0):
        raise ValueError("steps must contain positive step sizes")
    return g


def _call(fn, name, x, *args, shape=None):
    """``fn(x, *args)`` as a finite float array (of ``shape`` when given)."""
    with np.errstate(all="ignore"):
        return check.returned(fn(x.copy(), *args), name, shape)


def _averages(path, gammas):
    """Weighted averages ``x̄_k`` of the rows ``x_0..x_{K-1}`` of ``path`` with weights ``gamma``."""
    return np.cumsum(gammas[:, None] * path[:-1], axis=0) / np.cumsum(gammas)[:, None]


def _start(project, x0):
    """Validated ``project`` and the projected starting point."""
    project = check.function(project, "project")
    x0 = check.vector(x0, None, "x0")
    return project, _call(project, "project", x0, shape=x0.shape)


# ------------------------------------------------------------------------ subgradients
def subgradient_abs(x):
    """The subdifferential ``[f'_-(x), f'_+(x)]`` of ``f = |·|``, coordinate by coordinate.

    It is ``{-1}`` for ``x < 0``, ``[-1, 1]`` at 0 and ``{1}`` for ``x > 0``.

    Parameters
    ----------
    x : array_like
        Points (any shape).

    Returns
    -------
    lower, upper : ndarray
        The ends of the interval at each point, of the shape of ``x``.

    Raises
    ------
    ValueError
        If ``x`` is not finite.
    """
    x = check.finite(x, "x")
    return np.where(x > 0, 1.0, -1.0), np.where(x < 0, -1.0, 1.0)


def subgradient_l1(x, weights=None, at_zero=0.0):
    """A subgradient of ``f(x) = Σ_i w_i |x_i|``: ``w_i sign(x_i)``, and ``w_i at_zero`` where ``x_i = 0``.

    By the separable-sum lemma the subdifferential is the product of the intervals
    ``w_i ∂|·|(x_i)``, so every ``at_zero`` in ``[-1, 1]`` gives a subgradient
    (``at_zero = 0`` the one of least norm).

    Parameters
    ----------
    x : array_like, shape (d,)
        The point.
    weights : array_like, shape (d,), optional
        Non-negative weights ``w`` (default all ones: the ℓ1 norm).
    at_zero : float
        The element of ``[-1, 1]`` used in the coordinates where ``x_i = 0``.

    Returns
    -------
    ndarray, shape (d,)

    Raises
    ------
    ValueError
        If ``x`` or ``weights`` is not a finite vector of the same length, a weight is
        negative, or ``at_zero`` is not in ``[-1, 1]``.
    """
    x = check.vector(x, None, "x")
    w = np.ones_like(x) if weights is None else check.vector(weights, x.size, "weights")
    if np.any(w < 0):
        raise ValueError("weights must be non-negative")
    a = check.number_between(at_zero, "at_zero", -1.0, 1.0)
    return w * np.where(x == 0, a, np.sign(x))


def subgradient_hinge(w, X, y):
    """A subgradient of the mean hinge loss ``(1/n) Σ_i max(0, 1 - y_i wᵀx_i)`` at ``w``.

    It is ``-(1/n) Σ_{i : y_i wᵀx_i < 1} y_i x_i``: each active hinge contributes the gradient
    of its affine piece, and at a kink (margin exactly 1) the element 0 of ``[-y_i x_i, 0]``
    is used.

    Parameters
    ----------
    w : array_like, shape (d,)
        Weights.
    X : array_like, shape (n, d)
        Points as rows.
    y : array_like, shape (n,)
        Labels in {-1, +1}.

    Returns
    -------
    ndarray, shape (d,)

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite or a label is not ±1.
    """
    X = check.matrix(X)
    w = check.vector(w, X.shape[1], "w")
    y = check.labels(y, X.shape[0], (-1, 1)).astype(float)
    active = y * (X @ w) < 1
    return -(y[active] @ X[active]) / X.shape[0]


def subgradient_max_affine(A, b, x):
    """A subgradient of ``f(x) = max_j (a_jᵀx + b_j)``: the row ``a_j`` of a piece attaining the max.

    The subdifferential is the convex hull of the rows of the active pieces; the first
    active row is returned.

    Parameters
    ----------
    A : array_like, shape (m, d)
        Slopes ``a_j`` as rows.
    b : array_like, shape (m,)
        Offsets.
    x : array_like, shape (d,)
        The point.

    Returns
    -------
    ndarray, shape (d,)

    Raises
    ------
    ValueError
        If a shape is wrong or a value is not finite.
    """
    A = check.matrix(A, "A")
    b = check.vector(b, A.shape[0], "b")
    x = check.vector(x, A.shape[1], "x")
    return A[int(np.argmax(A @ x + b))].copy()


def one_sided_derivatives(f, x, h=1e-6):
    """Backward and forward difference quotients ``(f(x) - f(x - h))/h`` and ``(f(x + h) - f(x))/h``.

    For a convex ``f`` on the line they bracket the subdifferential,
    ``(f(x) - f(x-h))/h <= f'_-(x) <= f'_+(x) <= (f(x+h) - f(x))/h``, and tend to the
    one-sided derivatives as ``h -> 0``.

    Parameters
    ----------
    f : callable
        A vectorised function of one variable, ``f(array) -> array`` of the same shape.
    x : array_like
        Points (any shape).
    h : float
        Step (positive).

    Returns
    -------
    left, right : ndarray
        The two quotients, of the shape of ``x``.

    Raises
    ------
    ValueError
        If ``f`` is not callable or returns non-finite values or the wrong shape, ``x`` is not
        finite, or ``h`` is not positive or below the float spacing at some ``x``.
    """
    f = check.function(f, "f")
    x = check.finite(x, "x")
    h = check.positive(h, "h")
    if np.any((x + h == x) | (x - h == x)):
        raise ValueError(f"h = {h:g} is below the float spacing at some x: x ± h == x there")
    fx, fm, fp = (_call(f, "f", z, shape=x.shape) for z in (x, x - h, x + h))
    return (fx - fm) / h, (fp - fx) / h


# ------------------------------------------------------------------------ the method
@dataclass(frozen=True, repr=False)
class SubgradientRun:
    """The history of the projected subgradient method.

    Attributes
    ----------
    iterates : ndarray, shape (K + 1, d)
        ``x_0 = P_C(x0), x_1, ..., x_K``.
    values : ndarray, shape (K + 1,)
        ``f(x_k)``.
    best : ndarray, shape (K + 1,)
        ``f_k = min_{i <= k} f(x_i)``.
    averages : ndarray, shape (K, d)
        Weighted averages ``x̄_k = Σ_{i<=k} gamma_i x_i / Σ_{i<=k} gamma_i``, ``k = 0..K-1``.
    average_values : ndarray, shape (K,)
        ``f(x̄_k)``.
    steps : ndarray, shape (K,)
        The steps ``gamma_0, ..., gamma_{K-1}``.
    """

    iterates: np.ndarray
    values: np.ndarray
    best: np.ndarray
    averages: np.ndarray
    average_values: np.ndarray
    steps: np.ndarray

    def __repr__(self):
        return (f"SubgradientRun(K={self.steps.size}, d={self.iterates.shape[1]}, "
                f"best={self.best[-1]:.6g})")


def projected_subgradient(f, subgrad, project, x0, steps):
    """The projected subgradient method ``x_{k+1} = P_C(x_k - gamma_k u_k)``, ``u_k ∈ ∂f(x_k)``.

    It is not a descent method, so it also records the best value ``f_k`` and the
    weighted averages ``x̄_k`` for which the rate theorem holds.

    Parameters
    ----------
    f : callable
        The objective, ``f(x) -> float``.
    subgrad : callable
        ``subgrad(x)`` returns one subgradient of ``f`` at ``x`` (shape ``(d,)``).
    project : callable
        ``project(y)`` returns the Euclidean projection onto the closed convex set ``C``
        (``lambda y: y`` for ``C = R^d``).
    x0 : array_like, shape (d,)
        Starting point (projected first).
    steps : array_like, shape (K,)
        Positive steps ``gamma_0, ..., gamma_{K-1}`` (see :func:`step_sizes`).

    Returns
    -------
    SubgradientRun

    Raises
    ------
    ValueError
        If a callable is not callable or returns a wrong shape or non-finite values, or
        ``x0`` or ``steps`` is invalid.
    """
    f, subgrad = check.function(f, "f"), check.function(subgrad, "subgrad")
    project, x = _start(project, x0)
    gammas = _steps(steps)
    path = np.empty((gammas.size + 1, x.size))
    path[0] = x
    for k, g in enumerate(gammas):
        x = _call(project, "project", x - g * _call(subgrad, "subgrad", x, shape=x.shape),
                  shape=x.shape)
        path[k + 1] = x
    values = np.array([float(_call(f, "f", p, shape=())) for p in path])
    avg = _averages(path, gammas)
    avg_values = np.array([float(_call(f, "f", p, shape=())) for p in avg])
    return SubgradientRun(path, values, np.minimum.accumulate(values), avg, avg_values, gammas)


def step_sizes(kind, gamma_bar, n_steps, alpha=0.5):
    """Step-size schedules ``gamma_k``, ``k = 0, ..., n_steps - 1``.

    ``"constant"``: ``gamma_bar``; ``"sqrt"``: ``gamma_bar / sqrt(k + 1)``;
    ``"harmonic"``: ``gamma_bar / (k + 1)``; ``"power"``: ``gamma_bar / (k + 1)^alpha``.

    Parameters
    ----------
    kind : {"constant", "sqrt", "harmonic", "power"}
        The schedule.
    gamma_bar : float
        Scale (positive).
    n_steps : int
        Number of steps.
    alpha : float
        Exponent of ``"power"``, in ``(0, 1]`` (the range in which ``Σ gamma_k = ∞`` and
        ``Σ_{i<=k} gamma_i² / Σ_{i<=k} gamma_i -> 0``).

    Returns
    -------
    ndarray, shape (n_steps,)

    Raises
    ------
    ValueError
        If ``kind`` is unknown, ``gamma_bar`` is not positive, ``n_steps`` is not a positive
        integer or ``alpha`` is not in ``(0, 1]``.
    """
    kind = check.choice(kind, ("constant", "sqrt", "harmonic", "power"), "kind")
    gamma_bar = check.positive(gamma_bar, "gamma_bar")
    n = check.count(n_steps, "n_steps")
    alpha = check.number_between(alpha, "alpha", 0.0, 1.0, open_low=True)
    power = {"constant": 0.0, "sqrt": 0.5, "harmonic": 1.0, "power": alpha}[kind]
    return gamma_bar / np.arange(1.0, n + 1) ** power


def subgradient_rate_bound(D, L, steps):
    """The bound ``(D² + L² Σ_{i<=k} gamma_i²) / (2 Σ_{i<=k} gamma_i)`` of the rate theorem, for each k.

    With ``D >= ||x_0 - x||`` and ``||u|| <= L`` it bounds ``max(f_k, f(x̄_k)) - f(x)`` for
    every ``x ∈ C``; with the constant steps ``D / (L sqrt(K))`` it equals ``DL / sqrt(K)``
    at the last step.

    Parameters
    ----------
    D : float
        Distance bound (non-negative).
    L : float
        Bound on the subgradients (non-negative).
    steps : array_like, shape (K,)
        Positive steps.

    Returns
    -------
    ndarray, shape (K,)

    Raises
    ------
    ValueError
        If ``D`` or ``L`` is negative or not finite, or ``steps`` is not a vector of positive
        numbers.
    """
    D, L = check.nonnegative(D, "D"), check.nonnegative(L, "L")
    g = _steps(steps)
    return (D**2 + L**2 * np.cumsum(g**2)) / (2 * np.cumsum(g))


# ------------------------------------------------------------------------ stochastic
@dataclass(frozen=True, repr=False)
class StochasticRun:
    """The history of projected stochastic subgradient descent.

    Attributes
    ----------
    iterates : ndarray, shape (K + 1, d)
        ``x_0 = P_C(x0), ..., x_K``.
    averages : ndarray, shape (K, d)
        Weighted averages ``x̄_k``, ``k = 0..K-1``.
    steps : ndarray, shape (K,)
        The steps.
    """

    iterates: np.ndarray
    averages: np.ndarray
    steps: np.ndarray

    def __repr__(self):
        return f"StochasticRun(K={self.steps.size}, d={self.iterates.shape[1]})"


def projected_sgd(sample_subgrad, project, x0, steps, rng):
    """Projected stochastic subgradient descent ``x_{k+1} = P_C(x_k - gamma_k û_k)``.

    ``û_k = sample_subgrad(x_k, rng)`` draws a fresh sample ``ξ_k`` and returns a subgradient
    of ``F(·, ξ_k)`` at ``x_k``, so that ``E[û_k | x_k] ∈ ∂f(x_k)`` for ``f = E F(·, ξ)``.

    Parameters
    ----------
    sample_subgrad : callable
        ``sample_subgrad(x, rng)`` returns a stochastic subgradient of shape ``(d,)``.
    project : callable
        Projection onto the closed convex set ``C``.
    x0 : array_like, shape (d,)
        Starting point (projected first).
    steps : array_like, shape (K,)
        Positive steps.
    rng : numpy.random.Generator
        Source of the samples.

    Returns
    -------
    StochasticRun

    Raises
    ------
    ValueError
        If a callable is invalid or returns a wrong shape or non-finite values, or ``x0``,
        ``steps`` or ``rng`` is invalid.
    """
    sample_subgrad = check.function(sample_subgrad, "sample_subgrad")
    project, x = _start(project, x0)
    gammas, rng = _steps(steps), check.generator(rng)
    path = np.empty((gammas.size + 1, x.size))
    path[0] = x
    for k, g in enumerate(gammas):
        u = _call(sample_subgrad, "sample_subgrad", x, rng, shape=x.shape)
        x = path[k + 1] = _call(project, "project", x - g * u, shape=x.shape)
    return StochasticRun(path, _averages(path, gammas), gammas)


@dataclass(frozen=True, repr=False)
class PegasosRun:
    """The result of Pegasos.

    Attributes
    ----------
    w : ndarray, shape (d,)
        The last iterate.
    w_average : ndarray, shape (d,)
        The plain average of the iterates ``w_1, ..., w_T``.
    iterates : ndarray, shape (T + 1, d)
        ``w_0 = 0, w_1, ..., w_T``.
    lam : float
        Regularisation parameter.
    """

    w: np.ndarray
    w_average: np.ndarray
    iterates: np.ndarray
    lam: float

    def __repr__(self):
        return f"PegasosRun(T={self.iterates.shape[0] - 1}, d={self.w.size}, lam={self.lam:g})"


def pegasos(X, y, lam, n_steps, rng):
    """Pegasos: stochastic subgradient steps ``1/(lam t)`` on ``(lam/2)||w||² + (1/n) Σ hinge``.

    At step ``t = 1, ..., T`` draw ``i`` uniformly, take the subgradient
    ``lam w - 1[y_i wᵀx_i < 1] y_i x_i`` of the objective with the sampled hinge, step by
    ``1/(lam t)`` and project onto the ball of radius ``1/sqrt(lam)``, which contains the
    minimiser (Shalev-Shwartz et al. 2011). No intercept.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Points as rows.
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    lam : float
        Regularisation parameter (positive).
    n_steps : int
        Number of steps ``T``.
    rng : numpy.random.Generator
        Source of the sampled indices.

    Returns
    -------
    PegasosRun

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, a label is not ±1, ``lam`` is not
        positive, ``n_steps`` is not a positive integer or ``rng`` is not a Generator.
    """
    X = check.matrix(X)
    y = check.labels(y, X.shape[0], (-1, 1)).astype(float)
    lam, T = check.positive(lam, "lam"), check.count(n_steps, "n_steps")
    idx = check.generator(rng).integers(0, X.shape[0], size=T)
    W = np.zeros((T + 1, X.shape[1]))
    radius = 1 / np.sqrt(lam)
    for t, i in enumerate(idx, start=1):
        w = W[t - 1]
        active = y[i] * (X[i] @ w) < 1
        w = (1 - 1 / t) * w + (active * y[i] / (lam * t)) * X[i]
        W[t] = w * min(1.0, radius / max(np.linalg.norm(w), np.finfo(float).tiny))
    return PegasosRun(W[-1].copy(), W[1:].mean(axis=0), W, lam)
