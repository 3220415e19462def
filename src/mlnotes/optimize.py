"""Convex optimisation (chapter 05): gradient descent, projections onto convex sets,
projected gradient descent, and the stochastic first-order methods SGD, momentum,
Adagrad, RMSProp and Adam.

Conventions. Every optimiser minimises. It takes a gradient oracle ``grad(x) -> array``
(the same shape as ``x``; it may be stochastic, e.g. a minibatch gradient from
:func:`minibatch_gradient`), a starting point ``x0`` of shape ``(d,)``, a step size
``step`` and a number of steps, and returns the *path* of iterates, an array of shape
``(n_steps + 1, d)`` whose row ``t`` is ``x_t`` (row 0 is ``x0``), so rates and
trajectories can be read off. ``step`` is a positive number or a schedule ``t -> eta_t``
evaluated at ``t = 1, ..., n_steps``. Squares, square roots and divisions of gradients
(Adagrad, RMSProp, Adam) act coordinate by coordinate. The update rules are

* gradient descent / SGD: ``x_t = x_{t-1} - eta_t g_t``;
* momentum (heavy ball): ``v_t = mu v_{t-1} + g_t``, ``x_t = x_{t-1} - eta_t v_t``;
* Adagrad: ``G_t = G_{t-1} + g_t²``, ``x_t = x_{t-1} - eta_t g_t / (sqrt(G_t) + eps)``;
* RMSProp: ``G_t = beta G_{t-1} + (1 - beta) g_t²``, same step as Adagrad;
* Adam: ``m_t = beta1 m_{t-1} + (1 - beta1) g_t``,
  ``v_t = beta2 v_{t-1} + (1 - beta2) g_t²``, bias-corrected copies
  ``m̂_t = m_t / (1 - beta1^t)``, ``v̂_t = v_t / (1 - beta2^t)`` (the running averages
  themselves are left uncorrected) and
  ``x_t = x_{t-1} - eta_t m̂_t / (sqrt(v̂_t) + eps)``;

with ``g_t = grad(x_{t-1})`` and all accumulators starting at zero. Projections act on a
point of shape ``(d,)`` or on the rows of an array of shape ``(m, d)``.
"""
import numpy as np

from mlnotes import _validate as check

__all__ = [
    "gradient_descent", "project_box", "project_ball", "project_simplex",
    "projected_gradient_descent", "minibatch_gradient",
    "sgd", "momentum", "adagrad", "rmsprop", "adam",
]


# ------------------------------------------------------------------------ validation
def _steps(step, n_steps):
    """Step sizes ``eta_1, ..., eta_T`` from a number or a schedule ``t -> eta_t``."""
    if callable(step):
        etas = check.returned([step(t) for t in range(1, n_steps + 1)], "step", (n_steps,))
        if not np.all(etas > 0):
            raise ValueError("step must return positive finite step sizes "
                             "for t = 1, ..., n_steps")
        return etas
    return np.full(n_steps, check.positive(step, "step"))


def _setup(grad, x0, step, n_steps):
    """Validated ``(grad, x0, etas, path)`` shared by all the optimisers."""
    grad = check.function(grad, "grad")
    x0 = check.vector(x0, None, "x0")
    n_steps = check.count(n_steps, "n_steps")
    path = np.empty((n_steps + 1, x0.size))
    path[0] = x0
    return grad, x0, _steps(step, n_steps), path


def _evaluate(fn, x, name, t):
    """``fn(x)`` as a finite float array of the shape of ``x`` (else: diverged)."""
    with np.errstate(all="ignore"):
        out = check.as_float(fn(x.copy()), f"the value returned by {name}")
    if out.shape == x.shape and not np.all(np.isfinite(out)):
        where = "x0" if t <= 1 else f"step {t}: the iterates diverged (reduce step)"
        raise ValueError(f"{name} returned NaN or inf at {where}")
    return check.returned(out, name, x.shape)


def _diverged(path):
    """``path`` if every iterate is finite; else the updates overflowed."""
    bad = ~np.all(np.isfinite(path), axis=1)
    if np.any(bad):
        raise ValueError(f"the iterates diverged to inf at step {int(np.argmax(bad))}: "
                         "reduce step")
    return path


def _points(x, name="x"):
    """``x`` as a finite 2-D array of rows, and whether the input was a single point."""
    x = check.finite(x, name)
    if x.ndim not in (1, 2) or x.size == 0:
        raise ValueError(f"{name} must be a point of shape (d,) or rows of shape "
                         f"(m, d), got shape {x.shape}")
    return np.atleast_2d(x), x.ndim == 1


# ------------------------------------------------------------------ gradient descent
def gradient_descent(grad, x0, step, n_steps):
    """Gradient descent ``x_t = x_{t-1} - eta_t grad(x_{t-1})``; returns the whole path.

    Parameters
    ----------
    grad : callable
        ``grad(x)`` returns the gradient of the objective at ``x`` (shape ``(d,)``).
    x0 : array_like, shape (d,)
        Starting point.
    step : float or callable
        Step size ``eta > 0`` (``1/L`` for an ``L``-smooth objective), or a schedule
        ``t -> eta_t`` for ``t = 1, ..., n_steps``.
    n_steps : int
        Number of updates.

    Returns
    -------
    path : ndarray, shape (n_steps + 1, d)
        Row ``t`` is ``x_t``; row 0 is ``x0``.

    Raises
    ------
    ValueError
        If ``grad`` is not callable or returns the wrong shape or non-finite values,
        ``x0`` is not a finite vector, ``step`` is not positive or ``n_steps`` is not a
        positive integer.
    """
    grad, x, etas, path = _setup(grad, x0, step, n_steps)
    for t, eta in enumerate(etas, start=1):
        x = x - eta * _evaluate(grad, x, "grad", t)
        path[t] = x
    return _diverged(path)


# ------------------------------------------------------------------------ projections
def project_box(x, lower, upper):
    """Euclidean projection onto the box ``{z : lower <= z <= upper}`` by clipping.

    Parameters
    ----------
    x : array_like, shape (d,) or (m, d)
        A point, or points as rows.
    lower, upper : float or array_like, shape (d,)
        Bounds; ``-inf`` and ``inf`` are allowed, and ``lower <= upper`` is required.

    Returns
    -------
    ndarray, same shape as ``x``

    Raises
    ------
    ValueError
        If ``x`` is not finite, a bound is NaN or has the wrong shape, or
        ``lower > upper`` somewhere.
    """
    X, single = _points(x)
    lo, hi = check.as_float(lower, "lower"), check.as_float(upper, "upper")
    for b, name in ((lo, "lower"), (hi, "upper")):
        if b.shape not in ((), (X.shape[1],)) or np.any(np.isnan(b)):
            raise ValueError(f"{name} must be a number or an array of shape "
                             f"({X.shape[1]},) without NaN")
    if np.any(lo > hi):
        raise ValueError("lower must not exceed upper")
    P = np.clip(X, lo, hi)
    return P[0] if single else P


def project_ball(x, radius=1.0, center=None):
    """Euclidean projection onto the ball ``{z : ||z - center|| <= radius}``.

    A point outside is pulled radially onto the sphere, ``c + r (x - c) / ||x - c||``;
    a point inside stays where it is.

    Parameters
    ----------
    x : array_like, shape (d,) or (m, d)
        A point, or points as rows.
    radius : float
        Radius ``r > 0``.
    center : array_like, shape (d,), optional
        Centre ``c`` (default the origin).

    Returns
    -------
    ndarray, same shape as ``x``

    Raises
    ------
    ValueError
        If ``x`` or ``center`` is not finite or has the wrong shape, or ``radius`` is
        not positive.
    """
    X, single = _points(x)
    r = check.positive(radius, "radius")
    d = X.shape[1]
    c = np.zeros(d) if center is None else check.vector(center, d, "center")
    dist = np.linalg.norm(X - c, axis=1, keepdims=True)
    P = c + (X - c) * np.minimum(1.0, r / np.maximum(dist, np.finfo(float).tiny))
    return P[0] if single else P


def project_simplex(x, total=1.0):
    """Euclidean projection onto the simplex ``{z >= 0, sum(z) = total}`` by sorting.

    The projection is ``max(x - theta, 0)`` with the threshold ``theta`` chosen so that
    the coordinates sum to ``total``; sorting ``x`` in decreasing order finds it in
    ``O(d log d)`` (Held, Wolfe and Crowder 1974; Duchi et al. 2008).

    Parameters
    ----------
    x : array_like, shape (d,) or (m, d)
        A point, or points as rows (each row is projected separately).
    total : float
        Sum of the coordinates, ``total > 0`` (1 gives the probability simplex).

    Returns
    -------
    ndarray, same shape as ``x``

    Raises
    ------
    ValueError
        If ``x`` is not finite or has the wrong shape, or ``total`` is not positive.
    """
    X, single = _points(x)
    total = check.positive(total, "total")
    u = -np.sort(-X, axis=1)                         # each row in decreasing order
    j = np.arange(1, X.shape[1] + 1)
    thresholds = (np.cumsum(u, axis=1) - total) / j  # theta if the top j stay > 0
    rho = np.sum(u > thresholds, axis=1)             # how many stay positive
    theta = thresholds[np.arange(X.shape[0]), rho - 1]
    P = np.maximum(X - theta[:, None], 0.0)
    return P[0] if single else P


def projected_gradient_descent(grad, project, x0, step, n_steps):
    """Projected gradient descent ``x_t = P(x_{t-1} - eta_t grad(x_{t-1}))``; the path.

    Parameters
    ----------
    grad : callable
        ``grad(x)`` returns the gradient of the objective at ``x`` (shape ``(d,)``).
    project : callable
        ``project(y)`` returns the Euclidean projection of ``y`` onto the closed convex
        feasible set, e.g. ``lambda y: project_box(y, 0, 1)``.
    x0 : array_like, shape (d,)
        Starting point (it is projected first, so it may be infeasible).
    step : float or callable
        Step size ``eta > 0`` (``1/L`` for an ``L``-smooth objective), or a schedule
        ``t -> eta_t``.
    n_steps : int
        Number of updates.

    Returns
    -------
    path : ndarray, shape (n_steps + 1, d)
        Row 0 is ``P(x0)``, row ``t`` is ``x_t``; every row is feasible.

    Raises
    ------
    ValueError
        If ``grad`` or ``project`` is not callable or returns the wrong shape or
        non-finite values, or ``x0``, ``step`` or ``n_steps`` is invalid.
    """
    grad, x, etas, path = _setup(grad, x0, step, n_steps)
    project = check.function(project, "project")
    x = path[0] = _evaluate(project, x, "project", 0)
    for t, eta in enumerate(etas, start=1):
        y = x - eta * _evaluate(grad, x, "grad", t)   # gradient step, then
        x = _evaluate(project, y, "project", t)       # back to the feasible set
        path[t] = x
    return _diverged(path)


# ------------------------------------------------------------ stochastic gradients
def minibatch_gradient(batch_grad, n, batch_size, rng):
    """A stochastic gradient oracle: the average gradient over a random minibatch.

    Each call ``oracle(x)`` draws ``batch_size`` of the ``n`` example indices without
    replacement and returns ``batch_grad(x, idx)``, which should be the average of the
    per-example gradients over ``idx``. It is an unbiased estimate of the full average
    gradient ``batch_grad(x, arange(n))``.

    Parameters
    ----------
    batch_grad : callable
        ``batch_grad(x, idx)`` with ``idx`` an integer array of example indices.
    n : int
        Number of examples.
    batch_size : int
        Minibatch size, ``1 <= batch_size <= n``.
    rng : numpy.random.Generator
        Source of the random minibatches.

    Returns
    -------
    callable
        ``oracle(x)``, to be passed as ``grad`` to any optimiser of this module.

    Raises
    ------
    ValueError
        If ``batch_grad`` is not callable, ``n`` or ``batch_size`` is not a positive
        integer, ``batch_size > n``, or ``rng`` is not a Generator.
    """
    batch_grad = check.function(batch_grad, "batch_grad")
    n = check.count(n, "n")
    batch_size = check.count(batch_size, "batch_size")
    if batch_size > n:
        raise ValueError(f"batch_size must be at most n = {n}, got {batch_size}")
    rng = check.generator(rng)

    def oracle(x):
        return batch_grad(x, rng.choice(n, size=batch_size, replace=False))

    return oracle


def sgd(grad, x0, step, n_steps):
    """Stochastic gradient descent: ``x_t = x_{t-1} - eta_t grad(x_{t-1})``, noisy grad.

    The loop of :func:`gradient_descent`; the difference is the oracle: ``grad``
    returns a noisy, unbiased estimate of the gradient (e.g. from
    :func:`minibatch_gradient`), and convergence to the minimiser then needs decreasing
    steps (a schedule ``step(t)``).

    Parameters
    ----------
    grad : callable
        Stochastic gradient oracle ``grad(x)``.
    x0 : array_like, shape (d,)
        Starting point.
    step : float or callable
        Step size ``eta > 0`` or schedule ``t -> eta_t``, ``t = 1, ..., n_steps``.
    n_steps : int
        Number of updates.

    Returns
    -------
    path : ndarray, shape (n_steps + 1, d)

    Raises
    ------
    ValueError
        As :func:`gradient_descent`.
    """
    grad, x, etas, path = _setup(grad, x0, step, n_steps)
    for t, eta in enumerate(etas, start=1):
        x = x - eta * _evaluate(grad, x, "grad", t)
        path[t] = x
    return _diverged(path)


def momentum(grad, x0, step, n_steps, mu=0.9):
    """Heavy-ball momentum: ``v_t = mu v_{t-1} + g_t``, ``x_t = x_{t-1} - eta_t v_t``.

    The velocity ``v`` (starting at 0) is a running sum of past gradients with weights
    ``mu^k``. With a constant step this is the same method as the form
    ``u_t = mu u_{t-1} + eta g_t``, ``x_t = x_{t-1} - u_t`` (``u = eta v``).

    Parameters
    ----------
    grad : callable
        Gradient oracle ``grad(x)`` (exact or stochastic).
    x0 : array_like, shape (d,)
        Starting point.
    step : float or callable
        Step size ``eta > 0`` or schedule ``t -> eta_t``.
    n_steps : int
        Number of updates.
    mu : float
        Momentum coefficient in [0, 1); ``mu = 0`` is plain gradient descent.

    Returns
    -------
    path : ndarray, shape (n_steps + 1, d)

    Raises
    ------
    ValueError
        As :func:`gradient_descent`, or if ``mu`` is outside [0, 1).
    """
    grad, x, etas, path = _setup(grad, x0, step, n_steps)
    mu = check.number_between(mu, "mu", 0, 1, open_high=True)
    v = np.zeros_like(x)
    for t, eta in enumerate(etas, start=1):
        v = mu * v + _evaluate(grad, x, "grad", t)
        x = x - eta * v
        path[t] = x
    return _diverged(path)


def adagrad(grad, x0, step, n_steps, eps=1e-8):
    """Adagrad: per-coordinate steps ``eta / (sqrt(G_t) + eps)``, ``G_t = sum_s g_s²``.

    The update is ``G_t = G_{t-1} + g_t²`` and
    ``x_t = x_{t-1} - eta_t g_t / (sqrt(G_t) + eps)``: each coordinate's step shrinks as
    its squared gradients accumulate (all operations are elementwise).

    Parameters
    ----------
    grad : callable
        Gradient oracle ``grad(x)`` (exact or stochastic).
    x0 : array_like, shape (d,)
        Starting point.
    step : float or callable
        Base step size ``eta > 0`` or schedule ``t -> eta_t``.
    n_steps : int
        Number of updates.
    eps : float
        Small positive constant added to ``sqrt(G_t)`` to avoid division by zero.

    Returns
    -------
    path : ndarray, shape (n_steps + 1, d)

    Raises
    ------
    ValueError
        As :func:`gradient_descent`, or if ``eps`` is not positive.
    """
    grad, x, etas, path = _setup(grad, x0, step, n_steps)
    eps = check.positive(eps, "eps")
    G = np.zeros_like(x)
    for t, eta in enumerate(etas, start=1):
        g = _evaluate(grad, x, "grad", t)
        G = G + g**2
        x = x - eta * g / (np.sqrt(G) + eps)
        path[t] = x
    return _diverged(path)


def rmsprop(grad, x0, step, n_steps, beta=0.9, eps=1e-8):
    """RMSProp: Adagrad with a moving average ``G_t = beta G_{t-1} + (1 - beta) g_t²``.

    The step is Adagrad's, ``x_t = x_{t-1} - eta_t g_t / (sqrt(G_t) + eps)``; because
    old squared gradients are forgotten, the per-coordinate step no longer decays to
    zero (all operations are elementwise).

    Parameters
    ----------
    grad : callable
        Gradient oracle ``grad(x)`` (exact or stochastic).
    x0 : array_like, shape (d,)
        Starting point.
    step : float or callable
        Step size ``eta > 0`` or schedule ``t -> eta_t``.
    n_steps : int
        Number of updates.
    beta : float
        Decay rate of the moving average, in [0, 1).
    eps : float
        Small positive constant added to ``sqrt(G_t)``.

    Returns
    -------
    path : ndarray, shape (n_steps + 1, d)

    Raises
    ------
    ValueError
        As :func:`gradient_descent`, or if ``beta`` is outside [0, 1) or ``eps`` is not
        positive.
    """
    grad, x, etas, path = _setup(grad, x0, step, n_steps)
    beta = check.number_between(beta, "beta", 0, 1, open_high=True)
    eps = check.positive(eps, "eps")
    G = np.zeros_like(x)
    for t, eta in enumerate(etas, start=1):
        g = _evaluate(grad, x, "grad", t)
        G = beta * G + (1 - beta) * g**2
        x = x - eta * g / (np.sqrt(G) + eps)
        path[t] = x
    return _diverged(path)


def adam(grad, x0, step, n_steps, beta1=0.9, beta2=0.999, eps=1e-8):
    """Adam: moving averages of ``g`` and ``g²``, bias-corrected copies, then a step.

    The averages ``m_t = beta1 m_{t-1} + (1 - beta1) g_t`` and
    ``v_t = beta2 v_{t-1} + (1 - beta2) g_t²`` are kept uncorrected; the step uses the
    separate copies ``m̂_t = m_t / (1 - beta1^t)`` and ``v̂_t = v_t / (1 - beta2^t)``:
    ``x_t = x_{t-1} - eta_t m̂_t / (sqrt(v̂_t) + eps)``. At ``t = 1``, ``m̂ = g`` and
    ``v̂ = g²``, so the first step is ``eta g / (|g| + eps)``, about ``eta sign(g)``
    in every coordinate.

    Parameters
    ----------
    grad : callable
        Gradient oracle ``grad(x)`` (exact or stochastic).
    x0 : array_like, shape (d,)
        Starting point.
    step : float or callable
        Step size ``eta > 0`` or schedule ``t -> eta_t``.
    n_steps : int
        Number of updates.
    beta1, beta2 : float
        Decay rates of the first- and second-moment averages, in [0, 1).
    eps : float
        Small positive constant added to ``sqrt(v̂_t)``.

    Returns
    -------
    path : ndarray, shape (n_steps + 1, d)

    Raises
    ------
    ValueError
        As :func:`gradient_descent`, or if ``beta1`` or ``beta2`` is outside [0, 1) or
        ``eps`` is not positive.
    """
    grad, x, etas, path = _setup(grad, x0, step, n_steps)
    beta1 = check.number_between(beta1, "beta1", 0, 1, open_high=True)
    beta2 = check.number_between(beta2, "beta2", 0, 1, open_high=True)
    eps = check.positive(eps, "eps")
    m, v = np.zeros_like(x), np.zeros_like(x)
    for t, eta in enumerate(etas, start=1):
        g = _evaluate(grad, x, "grad", t)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g**2
        m_hat = m / (1 - beta1**t)    # bias-corrected copies;
        v_hat = v / (1 - beta2**t)    # m and v themselves stay uncorrected
        x = x - eta * m_hat / (np.sqrt(v_hat) + eps)
        path[t] = x
    return _diverged(path)
