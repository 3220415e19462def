"""Convex functions, conjugates and log-concavity (chapter 43).

Conventions. A function handed to these helpers is *vectorised*: it maps an array of points
with shape ``(k, ...)`` (one point per leading index, ``(k, n)`` for points of ``R^n`` and
``(k,)`` for points of ``R``) to an array of values of shape ``(k,)``. Values outside the
domain are ``+inf`` (the extended-value extension). The standard functions take their
argument along the last axis (the last two for ``log_det``).
"""
import numpy as np
import scipy.optimize

from mlnotes import _validate as check

__all__ = ["on_line", "hessian_fd", "first_order_gap", "jensen_gap",
           "log_sum_exp", "geometric_mean", "quad_over_lin", "log_det", "neg_entropy",
           "conjugate_numeric", "conj_quadratic", "conj_exp", "conj_neg_log",
           "conj_log_sum_exp", "conj_norm", "biconjugate_1d", "fenchel_young_gap",
           "modified_jensen_holds", "second_log_difference"]


def _values(f, points, name="f"):
    """``f(points)`` as a float array of shape ``(len(points),)`` (``+inf`` allowed, NaN not)."""
    out = check.as_float(f(points), f"the value returned by {name}")
    if out.shape != (len(points),) or np.any(np.isnan(out)) or np.any(out == -np.inf):
        raise ValueError(f"{name} must map {len(points)} points to {len(points)} values in "
                         f"(-inf, inf], got shape {out.shape}")
    return out


def on_line(f, x, v, ts):
    """The restriction ``g(t) = f(x + t v)`` of ``f`` to a line.

    Parameters
    ----------
    f : callable
        Vectorised function: points of shape ``(k,) + x.shape`` to values ``(k,)``.
    x, v : array_like, same shape
        A point of the domain and a direction (vectors, or matrices for ``log_det``).
    ts : array_like, shape (k,)
        Values of ``t``.

    Returns
    -------
    ndarray, shape (k,)
        ``g(ts)``.
    """
    f = check.function(f, "f")
    x, v = check.nonempty(x, "x"), check.nonempty(v, "v")
    if v.shape != x.shape:
        raise ValueError(f"v must have the shape of x {x.shape}, got {v.shape}")
    ts = check.nonempty(ts, "ts", ndim=1)
    return _values(f, x[None] + ts.reshape((-1,) + (1,) * x.ndim) * v[None])


def hessian_fd(f, x, h=1e-4):
    """Hessian of ``f`` at ``x`` by central differences, error ``O(h^2)``.

    Parameters
    ----------
    f : callable
        Vectorised function of points of ``R^n``: ``(k, n) -> (k,)``.
    x : array_like, shape (n,)
        Point at which the Hessian is taken (inside the domain, at distance > ``2h``).
    h : float
        Step.

    Returns
    -------
    ndarray, shape (n, n)
        ``H[i, j] = (f(x+he_i+he_j) - f(x+he_i-he_j) - f(x-he_i+he_j) + f(x-he_i-he_j)) / (4h^2)``.
    """
    f = check.function(f, "f")
    x = check.nonempty(x, "x", ndim=1)
    h = check.positive(h, "h")
    n, E = x.size, h * np.eye(x.size)
    s = np.array([(1, 1), (1, -1), (-1, 1), (-1, -1)], dtype=float)
    P = x + s[:, 0, None, None, None] * E[None, :, None] + s[:, 1, None, None, None] * E[None, None, :]
    F = _values(f, P.reshape(-1, n)).reshape(4, n, n)
    if not np.all(np.isfinite(F)):
        raise ValueError("x must lie at distance > 2h inside the domain of f (f returned inf)")
    H = (F[0] - F[1] - F[2] + F[3]) / (4 * h * h)
    return (H + H.T) / 2


def first_order_gap(f, grad, x, y):
    """The gap ``f(y) - f(x) - grad f(x)^T (y - x)`` of the first-order condition.

    Parameters
    ----------
    f, grad : callable
        Vectorised ``f: (k, n) -> (k,)`` and its gradient ``(k, n) -> (k, n)``.
    x, y : array_like, shape (k, n)
        Pairs of points, one pair per row.

    Returns
    -------
    ndarray, shape (k,)
        Non-negative for all pairs if and only if a differentiable ``f`` is convex.
    """
    f, grad = check.function(f, "f"), check.function(grad, "grad")
    x, y = check.matrix(x, "x"), check.matrix(y, "y")
    if y.shape != x.shape:
        raise ValueError(f"y must have the shape of x {x.shape}, got {y.shape}")
    g = check.returned(grad(x), "grad", shape=x.shape)
    return _values(f, y) - _values(f, x) - np.sum(g * (y - x), axis=1)


def jensen_gap(f, xs, weights):
    """Jensen gap ``sum_i w_i f(x_i) - f(sum_i w_i x_i)`` (>= 0 for convex ``f``).

    Parameters
    ----------
    f : callable
        Vectorised function: ``(k,) + point shape -> (k,)``.
    xs : array_like, shape (m,) + point shape
        The points ``x_i`` (scalars, vectors or matrices).
    weights : array_like, shape (m,)
        Probabilities ``w_i``.

    Returns
    -------
    float
    """
    f = check.function(f, "f")
    xs = check.nonempty(xs, "xs")
    w = check.probabilities(weights, "weights")
    if w.shape != (len(xs),):
        raise ValueError(f"weights must have shape ({len(xs)},) to match xs, got {w.shape}")
    mean = np.tensordot(w, xs, axes=1)
    return float(w @ _values(f, xs) - _values(f, mean[None])[0])


def log_sum_exp(x):
    """``log sum_j exp(x_j)`` along the last axis, computed without overflow.

    Parameters
    ----------
    x : array_like, shape (..., n)

    Returns
    -------
    ndarray, shape (...)
    """
    x = check.nonempty(x, "x")
    m = x.max(axis=-1, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(axis=-1, keepdims=True)))[..., 0]


def geometric_mean(x):
    """``(prod_j x_j)^(1/n)`` along the last axis, on the positive orthant (concave).

    Parameters
    ----------
    x : array_like, shape (..., n), entries > 0

    Returns
    -------
    ndarray, shape (...)
    """
    x = check.positive_entries(check.nonempty(x, "x"), "x")
    return np.exp(np.log(x).mean(axis=-1))


def quad_over_lin(x, y):
    """Quadratic over linear, ``x^T x / y`` for ``y > 0`` (jointly convex in ``(x, y)``).

    Parameters
    ----------
    x : array_like, shape (..., n)
    y : array_like, shape (...), entries > 0

    Returns
    -------
    ndarray, shape (...)
    """
    x = check.nonempty(x, "x")
    y = check.positive_entries(y, "y")
    if y.shape != x.shape[:-1]:
        raise ValueError(f"y must have shape {x.shape[:-1]} (x without its last axis), got {y.shape}")
    return np.sum(x * x, axis=-1) / y


def log_det(X):
    """``log det X`` of symmetric positive definite matrices (concave).

    Parameters
    ----------
    X : array_like, shape (..., n, n), symmetric positive definite

    Returns
    -------
    ndarray, shape (...)
    """
    X = check.square_stack(X, "X")
    if not np.allclose(X, np.swapaxes(X, -1, -2), rtol=1e-10, atol=1e-12 * max(1.0, np.abs(X).max())):
        raise ValueError("X must be symmetric")
    sign, logabs = np.linalg.slogdet(X)
    if np.any(sign <= 0) or np.any(np.linalg.eigvalsh(X)[..., 0] <= 0):
        raise ValueError("X must be positive definite")
    return logabs


def neg_entropy(x):
    """Negative entropy ``sum_j x_j log x_j`` along the last axis (``0 log 0 = 0``).

    Parameters
    ----------
    x : array_like, shape (..., n), entries >= 0

    Returns
    -------
    ndarray, shape (...)
    """
    x = check.nonempty(x, "x")
    if np.any(x < 0):
        raise ValueError("x must have non-negative entries")
    safe = np.where(x > 0, x, 1.0)
    return np.sum(x * np.log(safe), axis=-1)


def conjugate_numeric(f, y, x0, bounds=None, radius=100.0, method="L-BFGS-B"):
    """Convex conjugate ``f*(y) = sup_x (y^T x - f(x))`` by ``scipy.optimize.minimize``.

    Minimises ``f(x) - y^T x`` with ``method`` from ``x0`` over the box
    ``|x_i - x0_i| <= radius`` (intersected with ``bounds``). A minimiser on a face of that
    box (and not on one of ``bounds``) means the supremum is not attained nearby: ``y`` is
    taken to lie outside ``dom f*`` and the value returned is ``inf``.

    Parameters
    ----------
    f : callable
        Vectorised ``f: (k, n) -> (k,)``, finite on the search box.
    y : array_like, shape (n,) or (k, n)
        Point(s) at which to evaluate the conjugate.
    x0 : array_like, shape (n,)
        Starting point in the domain of ``f``.
    bounds : sequence of (low, high) pairs, optional
        Box constraints of the domain (e.g. ``[(1e-12, None)]`` for ``x > 0``).
    radius : float
        Half-width of the search box around ``x0``.
    method : {"L-BFGS-B", "Powell"}
        ``minimize`` method: L-BFGS-B for smooth ``f``, the derivative-free Powell method
        for non-smooth ``f`` such as polyhedral norms.

    Returns
    -------
    float or ndarray, shape (k,)
        ``f*(y)`` (``inf`` where the supremum is not attained in the box).

    Raises
    ------
    ValueError
        If the minimiser reports failure: L-BFGS-B failures (at a kink of ``f``) are retried
        once with Powell from the point reached, and a second failure raises.
    """
    f = check.function(f, "f")
    x0 = check.nonempty(x0, "x0", ndim=1)
    y = check.finite(y, "y")
    Y = np.atleast_2d(y)
    if Y.ndim != 2 or Y.shape[1] != x0.size or y.ndim > 2:
        raise ValueError(f"y must have shape ({x0.size},) or (k, {x0.size}) to match x0, got {y.shape}")
    if bounds is None:
        bounds = [(None, None)] * x0.size
    if not isinstance(bounds, (list, tuple)) or len(bounds) != x0.size or not all(
            isinstance(b, (list, tuple)) and len(b) == 2 for b in bounds):
        raise ValueError(f"bounds must be a list of {x0.size} (low, high) pairs or None, got {bounds!r}")
    radius = check.positive(radius, "radius")
    method = check.choice(method, ("L-BFGS-B", "Powell"), "method")
    lo = np.array([-np.inf if b[0] is None else b[0] for b in bounds], dtype=float)
    hi = np.array([np.inf if b[1] is None else b[1] for b in bounds], dtype=float)
    box_lo, box_hi = np.maximum(lo, x0 - radius), np.minimum(hi, x0 + radius)
    out = np.empty(len(Y))
    for k, yk in enumerate(Y):
        phi = lambda x, yk=yk: float(_values(f, x[None])[0] - yk @ x)  # noqa: E731
        opts = {"ftol": 1e-15, "gtol": 1e-10} if method == "L-BFGS-B" else {"xtol": 1e-10, "ftol": 1e-14}
        res = scipy.optimize.minimize(phi, x0, method=method, bounds=list(zip(box_lo, box_hi)),
                                      options={**opts, "maxiter": 20000})
        if not res.success and method == "L-BFGS-B":      # e.g. a kink: restart derivative-free
            res = scipy.optimize.minimize(phi, res.x, method="Powell", bounds=list(zip(box_lo, box_hi)),
                                          options={"xtol": 1e-10, "ftol": 1e-14, "maxiter": 20000})
        if not res.success:
            raise ValueError(f"the supremum defining f*(y) was not found with method={method!r} "
                             f"(scipy: {res.message}); is f finite and continuous on the box around x0?")
        on_face = np.any((np.abs(res.x - (x0 - radius)) < 1e-6 * radius) & (box_lo > lo)) or np.any(
            (np.abs(res.x - (x0 + radius)) < 1e-6 * radius) & (box_hi < hi))
        out[k] = np.inf if on_face else -res.fun
    return float(out[0]) if y.ndim == 1 else out


def conj_quadratic(Q):
    """Conjugate of ``f(x) = x^T Q x / 2`` with ``Q`` positive definite: ``y -> y^T Q^{-1} y / 2``.

    Parameters
    ----------
    Q : array_like, shape (n, n), symmetric positive definite

    Returns
    -------
    callable
        ``conj(y)`` for ``y`` of shape ``(..., n)``, returning shape ``(...)``.
    """
    Q = check.square(Q, "Q", symmetric=True)
    Q, L = check.spd(Q, Q.shape[0], "Q")

    def conj(y):
        y = check.finite(y, "y")
        if y.shape[-1:] != (Q.shape[0],):
            raise ValueError(f"y must have shape (..., {Q.shape[0]}), got {y.shape}")
        z = np.linalg.solve(L, y.reshape(-1, Q.shape[0]).T)       # L z = y, |z|^2 = y^T Q^{-1} y
        return 0.5 * np.sum(z * z, axis=0).reshape(y.shape[:-1])
    return conj


def conj_exp(y):
    """Conjugate of ``exp``: ``y log y - y`` for ``y >= 0`` (0 at 0), ``+inf`` for ``y < 0``.

    Parameters
    ----------
    y : array_like

    Returns
    -------
    ndarray, shape of ``y``
    """
    y = check.finite(y, "y")
    safe = np.where(y > 0, y, 1.0)
    return np.where(y < 0, np.inf, np.where(y > 0, y * np.log(safe) - y, 0.0))


def conj_neg_log(y):
    """Conjugate of ``-log x`` (``x > 0``): ``-1 - log(-y)`` for ``y < 0``, ``+inf`` otherwise.

    Parameters
    ----------
    y : array_like

    Returns
    -------
    ndarray, shape of ``y``
    """
    y = check.finite(y, "y")
    return np.where(y < 0, -1.0 - np.log(np.where(y < 0, -y, 1.0)), np.inf)


def conj_log_sum_exp(y):
    """Conjugate of log-sum-exp: ``sum_j y_j log y_j`` on the probability simplex, else ``+inf``.

    Parameters
    ----------
    y : array_like, shape (..., n)

    Returns
    -------
    ndarray, shape (...)
        Entries within ``1e-9`` of the simplex count as on it.
    """
    y = check.nonempty(y, "y")
    on_simplex = np.all(y >= 0, axis=-1) & (np.abs(y.sum(axis=-1) - 1) <= 1e-9)
    safe = np.where(y > 0, y, 1.0)
    return np.where(on_simplex, np.sum(np.where(y > 0, y * np.log(safe), 0.0), axis=-1), np.inf)


def conj_norm(ord=2):
    """Conjugate of the norm ``||x||_p`` (p = 1, 2, inf): the indicator of the dual-norm unit ball.

    Parameters
    ----------
    ord : {1, 2, np.inf}
        The norm; the dual norms are ``inf``, ``2`` and ``1``.

    Returns
    -------
    callable
        ``conj(y)`` for ``y`` of shape ``(..., n)``: 0 where ``||y||_q <= 1`` (to rounding
        ``1e-12``), ``+inf`` elsewhere.
    """
    ord = check.choice(ord, (1, 2, np.inf), "ord")
    q = {1: np.inf, 2: 2}.get(ord, 1)

    def conj(y):
        y = check.nonempty(y, "y")
        return np.where(np.linalg.norm(y, ord=q, axis=-1) <= 1 + 1e-12, 0.0, np.inf)
    return conj


def biconjugate_1d(f, grid, n_slopes=4001):
    """Biconjugate ``f**`` on a grid by two discrete Legendre transforms (the convex envelope).

    ``f*(s) = max_i (s x_i - f(x_i))`` on ``n_slopes`` equally spaced slopes between the
    smallest and largest slope of consecutive grid points, then
    ``f**(x_j) = max_s (x_j s - f*(s))``. The result is a convex minorant of ``f`` on the
    grid; it falls short of the lower convex hull of the points by at most
    ``(slope spacing) x (grid width) / 2``.

    Parameters
    ----------
    f : callable
        Vectorised function of one variable, ``(G,) -> (G,)``.
    grid : array_like, shape (G,)
        Strictly increasing points, ``G >= 3``.
    n_slopes : int
        Number of slopes, at least 2.

    Returns
    -------
    ndarray, shape (G,)
        ``f**`` at the grid points.
    """
    f = check.function(f, "f")
    x = check.increasing_grid(grid)
    n_slopes = check.count(n_slopes, "n_slopes", low=2)
    F = check.returned(f(x), "f", shape=x.shape)
    d = np.diff(F) / np.diff(x)
    s = np.linspace(d.min(), d.max(), n_slopes) if d.max() > d.min() else d[:1]
    f_star = np.max(s[:, None] * x[None, :] - F[None, :], axis=1)
    return np.max(x[:, None] * s[None, :] - f_star[None, :], axis=1)


def fenchel_young_gap(f, f_conj, x, y):
    """Fenchel-Young gap ``f(x) + f*(y) - x^T y`` (>= 0, zero iff ``y`` is a subgradient at ``x``).

    Parameters
    ----------
    f, f_conj : callable
        Vectorised ``f`` and its conjugate, ``(k, n) -> (k,)``.
    x, y : array_like, shape (k, n)

    Returns
    -------
    ndarray, shape (k,)
    """
    f, f_conj = check.function(f, "f"), check.function(f_conj, "f_conj")
    x, y = check.matrix(x, "x"), check.matrix(y, "y")
    if y.shape != x.shape:
        raise ValueError(f"y must have the shape of x {x.shape}, got {y.shape}")
    return _values(f, x) + _values(f_conj, y, "f_conj") - np.sum(x * y, axis=1)


def modified_jensen_holds(f, x, y, thetas):
    """Whether ``f(t x + (1 - t) y) <= max(f(x), f(y))`` for each pair and each ``t``.

    Parameters
    ----------
    f : callable
        Vectorised ``(k,) + point shape -> (k,)``.
    x, y : array_like, shape (k,) + point shape
        Pairs of points (``(k,)`` for functions of one variable).
    thetas : array_like, shape (m,)
        Values in ``[0, 1]``.

    Returns
    -------
    ndarray of bool, shape (k, m)
        True where the inequality holds (with a rounding slack ``1e-12 (1 + |max|)``).
    """
    f = check.function(f, "f")
    x, y = check.nonempty(x, "x"), check.nonempty(y, "y")
    if y.shape != x.shape:
        raise ValueError(f"y must have the shape of x {x.shape}, got {y.shape}")
    t = check.nonempty(thetas, "thetas", ndim=1)
    if np.any((t < 0) | (t > 1)):
        raise ValueError("thetas must lie in [0, 1]")
    k, m, tail = len(x), t.size, x.shape[1:]
    T = t.reshape((1, m) + (1,) * len(tail))
    Z = (T * x[:, None] + (1 - T) * y[:, None]).reshape((k * m,) + tail)
    top = np.maximum(_values(f, x), _values(f, y))[:, None]
    return _values(f, Z).reshape(k, m) <= top + 1e-12 * (1 + np.abs(top))


def second_log_difference(f, grid):
    """Second divided difference of ``log f`` on a grid, an estimate of ``(log f)''``.

    A positive function is log-concave on an interval iff these are ``<= 0`` for every grid.

    Parameters
    ----------
    f : callable
        Vectorised positive function of one variable, ``(G,) -> (G,)``.
    grid : array_like, shape (G,)
        Strictly increasing points, ``G >= 3``.

    Returns
    -------
    ndarray, shape (G - 2,)
        ``2 ([x_i, x_{i+1}] - [x_{i-1}, x_i]) / (x_{i+1} - x_{i-1})`` of ``log f`` at the
        interior points, ``[a, b]`` the slope of ``log f`` between ``a`` and ``b``.
    """
    f = check.function(f, "f")
    x = check.increasing_grid(grid)
    F = check.returned(f(x), "f", shape=x.shape)
    if np.any(F <= 0):
        raise ValueError("f must be positive on the grid (log f must be finite)")
    slope = np.diff(np.log(F)) / np.diff(x)
    return 2 * np.diff(slope) / (x[2:] - x[:-2])
