"""Convex sets, cones and separation (chapter 42).

Conventions. Points are the rows of an array ``points`` of shape ``(m, n)``; a single point
is a vector of shape ``(n,)``. A polyhedron is ``{x : A x <= b}`` (componentwise). Cones are
given by their generators (the rows of ``generators``), so ``K = {G^T theta : theta >= 0}``
and ``K* = {y : G y >= 0}``. The order on ``R^n`` used by :func:`pareto_minimal`,
:func:`minimum_element` and :func:`scalarise` is the componentwise order, the generalised
inequality of the cone ``R^n_+``. Membership tests return a bool for one point and a bool
array for a stack of points. ``scipy.optimize.linprog`` (HiGHS) is used where the chapter is
about linear-programming membership and separation.
"""
import numpy as np
import scipy.optimize

from mlnotes import _validate as check

__all__ = ["convex_combination", "in_convex_hull", "convex_hull_2d", "polygon_halfspaces",
           "in_ellipsoid", "in_norm_cone", "dual_norm", "perspective_image", "linear_fractional",
           "separating_hyperplane", "supporting_hyperplane_ball", "in_dual_cone",
           "pareto_minimal", "minimum_element", "scalarise"]


def _lp_norm(X, p):
    """Row-wise l_p norm of X, 1 <= p <= inf."""
    A = np.abs(X)
    if p == np.inf:
        return A.max(axis=1)
    if p == 1:
        return A.sum(axis=1)
    scale = A.max(axis=1, keepdims=True)
    scale[scale == 0] = 1.0
    return scale[:, 0] * np.sum((A / scale) ** p, axis=1) ** (1 / p)


def _out(mask, single):
    return bool(mask[0]) if single else mask


def convex_combination(points, weights):
    """Convex combinations ``sum_i theta_i x_i`` of the rows of ``points``.

    Parameters
    ----------
    points : array_like, shape (k, n)
        The points ``x_1, ..., x_k`` as rows.
    weights : array_like, shape (k,) or (m, k)
        Non-negative weights summing to 1 (each row, for a stack of m combinations).

    Returns
    -------
    ndarray, shape (n,) or (m, n)
        ``weights @ points``.
    """
    points = check.matrix(points, "points")
    theta = check.probabilities(weights, "weights", axis=-1)
    if theta.ndim > 2 or theta.shape[-1] != points.shape[0]:
        raise ValueError(f"weights must have shape ({points.shape[0]},) or (m, {points.shape[0]}), "
                         f"got {theta.shape}")
    return theta @ points


def in_convex_hull(points, x):
    """Whether ``x`` lies in the convex hull of the rows of ``points``, by LP feasibility.

    Solves ``find theta >= 0 with points^T theta = x, 1^T theta = 1`` with HiGHS; the answer
    is exact up to the solver's feasibility tolerance (about 1e-7 relative). A stack of ``m``
    query points costs ``m`` small LPs, one per point, solved in a loop: an infeasible LP
    says nothing about which of several stacked queries failed, so the LPs are kept apart
    (for many queries against a fixed 2-D or 3-D hull, the halfspace form of
    :func:`polygon_halfspaces` or ``scipy.spatial.ConvexHull.equations`` is a vectorised test).

    Parameters
    ----------
    points : array_like, shape (k, n)
    x : array_like, shape (n,) or (m, n)

    Returns
    -------
    bool or ndarray of bool, shape (m,)
    """
    points = check.matrix(points, "points")
    X, single = check.points(x, points.shape[1], "x")
    k = points.shape[0]
    A_eq = np.vstack([points.T, np.ones((1, k))])
    inside = np.empty(len(X), dtype=bool)
    for i, xi in enumerate(X):           # one small LP per query point
        res = scipy.optimize.linprog(np.zeros(k), A_eq=A_eq, b_eq=np.r_[xi, 1.0],
                                     bounds=(0, None), method="highs")
        inside[i] = res.status == 0
    return _out(inside, single)


def convex_hull_2d(points):
    """Vertices of the convex hull of points in the plane (Andrew's monotone chain).

    Parameters
    ----------
    points : array_like, shape (m, 2)

    Returns
    -------
    ndarray of int
        Indices of the hull vertices in counter-clockwise order, starting from the
        lexicographically smallest point; collinear boundary points are not vertices.
    """
    P = check.matrix_with_columns(points, 2, "points")
    order = np.lexsort((P[:, 1], P[:, 0]))
    if len(order) < 3:
        return np.unique(order)

    def cross(o, a, b):
        return (P[a, 0] - P[o, 0]) * (P[b, 1] - P[o, 1]) - (P[a, 1] - P[o, 1]) * (P[b, 0] - P[o, 0])

    def chain(idx):
        h = []
        for i in idx:                    # keep only left turns
            while len(h) >= 2 and cross(h[-2], h[-1], i) <= 0:
                h.pop()
            h.append(i)
        return h
    lower, upper = chain(order), chain(order[::-1])
    return np.array(lower[:-1] + upper[:-1], dtype=int)


def polygon_halfspaces(vertices):
    """Halfspace form ``{x : A x <= b}`` of a convex polygon given by its vertices.

    Parameters
    ----------
    vertices : array_like, shape (k, 2)
        k >= 3 vertices in counter-clockwise order (as :func:`convex_hull_2d` returns them).

    Returns
    -------
    A : ndarray, shape (k, 2)
        Unit outward normals, row ``i`` for the edge from vertex ``i`` to vertex ``i + 1``.
    b : ndarray, shape (k,)
        Offsets, ``b_i = a_i^T v_i``.
    """
    V = check.matrix_with_columns(vertices, 2, "vertices")
    if len(V) < 3:
        raise ValueError(f"vertices must hold at least 3 points, got {len(V)}")
    E = np.roll(V, -1, axis=0) - V
    A = np.column_stack([E[:, 1], -E[:, 0]])      # rotate the edge clockwise: outward for CCW
    length = np.linalg.norm(A, axis=1)
    F = np.roll(E, -1, axis=0)
    if np.any(length == 0) or np.any(E[:, 0] * F[:, 1] - E[:, 1] * F[:, 0] <= 0):
        raise ValueError("vertices must be distinct and in counter-clockwise order (a strictly convex polygon)")
    A = A / length[:, None]
    return A, np.sum(A * V, axis=1)


def in_ellipsoid(x, xc, P):
    """Whether ``x`` lies in the ellipsoid ``{x : (x - xc)^T P^{-1} (x - xc) <= 1}``.

    Parameters
    ----------
    x : array_like, shape (n,) or (m, n)
    xc : array_like, shape (n,)
        Centre.
    P : array_like, shape (n, n)
        Symmetric positive definite (a singular ``P`` has no inverse and is rejected).

    Returns
    -------
    bool or ndarray of bool, shape (m,)
    """
    xc = check.vector(xc, None, "xc")
    X, single = check.points(x, xc.size, "x")
    P, L = check.spd(P, xc.size, "P")
    Z = np.linalg.solve(L, (X - xc).T)            # L^{-1}(x - xc): squared norm = quadratic form
    return _out(np.sum(Z ** 2, axis=0) <= 1.0 + 1e-12, single)


def in_norm_cone(x, t, ord=2):
    """Whether ``(x, t)`` lies in the norm cone ``{(x, t) : ||x||_ord <= t}``.

    Parameters
    ----------
    x : array_like, shape (n,) or (m, n)
    t : float or array_like, shape (m,)
    ord : float
        Order ``p`` of the norm, ``1 <= p <= inf`` (``np.inf`` for the max norm).

    Returns
    -------
    bool or ndarray of bool, shape (m,)
    """
    X, single = check.points(x, None, "x")
    t = check.finite(t, "t")
    if t.ndim > 1 or (t.ndim == 1 and t.shape != (len(X),)):
        raise ValueError(f"t must be a number or have shape ({len(X)},), got {t.shape}")
    p = check.norm_order(ord)
    norms = _lp_norm(X, p)
    return _out(norms <= t * (1 + 1e-12) + 1e-300, single)


def dual_norm(y, ord=2):
    """The dual norm ``||y||_* = sup{y^T x : ||x||_ord <= 1}`` of the l_p norm ``p = ord``.

    By Hölder's inequality it is the l_q norm with ``1/p + 1/q = 1`` (``q = inf`` for
    ``p = 1`` and ``q = 1`` for ``p = inf``).

    Parameters
    ----------
    y : array_like, shape (n,) or (m, n)
    ord : float
        ``1 <= p <= inf``.

    Returns
    -------
    float or ndarray, shape (m,)
    """
    Y, single = check.points(y, None, "y")
    p = check.norm_order(ord)
    q = np.inf if p == 1 else (1.0 if p == np.inf else p / (p - 1))
    out = _lp_norm(Y, q)
    return float(out[0]) if single else out


def perspective_image(points):
    """The perspective function ``P(z, t) = z / t`` applied to each row ``(z, t)``, ``t > 0``.

    Parameters
    ----------
    points : array_like, shape (m, n + 1)
        Rows ``(z, t)``; the last coordinate must be positive (the domain of P).

    Returns
    -------
    ndarray, shape (m, n)
    """
    X = check.matrix(points, "points")
    if X.shape[1] < 2:
        raise ValueError(f"points must have at least 2 columns (z and t), got shape {X.shape}")
    if np.any(X[:, -1] <= 0):
        raise ValueError("points must have a positive last coordinate t (dom P = {t > 0})")
    return X[:, :-1] / X[:, -1:]


def linear_fractional(A, b, c, d, x):
    """The linear-fractional map ``f(x) = (A x + b) / (c^T x + d)`` on ``{c^T x + d > 0}``.

    Parameters
    ----------
    A : array_like, shape (k, n)
    b : array_like, shape (k,)
    c : array_like, shape (n,)
    d : float
    x : array_like, shape (n,) or (m, n)
        Points in the domain.

    Returns
    -------
    ndarray, shape (k,) or (m, k)
    """
    A = check.matrix(A, "A")
    b = check.vector(b, A.shape[0], "b")
    c = check.vector(c, A.shape[1], "c")
    d = check.number(d, "d")
    X, single = check.points(x, A.shape[1], "x")
    den = X @ c + d
    if np.any(den <= 0):
        raise ValueError("x must lie in the domain {x : c^T x + d > 0}")
    F = (X @ A.T + b) / den[:, None]
    return F[0] if single else F


def separating_hyperplane(C_points, D_points, tol=1e-9):
    """A hyperplane ``a^T x = b`` strictly separating the convex hulls of two point sets.

    Solves the LP ``max s`` subject to ``a^T c_i <= b - s``, ``a^T d_j >= b + s`` and
    ``-1 <= a <= 1`` (HiGHS), then rescales to ``||a||_2 = 1``. The optimal ``s`` is half the
    l_1 distance between the hulls, so the plane lies midway in that sense.

    Parameters
    ----------
    C_points : array_like, shape (k, n)
    D_points : array_like, shape (l, n)
    tol : float
        The hulls count as intersecting when the optimal ``s`` is at most
        ``tol * (1 + max |coordinate|)``.

    Returns
    -------
    (a, b) or None
        ``a`` of shape (n,) with unit norm and ``b`` a float, with ``a^T x < b`` on C and
        ``a^T x > b`` on D; ``None`` if the hulls intersect.
    """
    C = check.matrix(C_points, "C_points")
    D = check.matrix_with_columns(D_points, C.shape[1], "D_points")
    tol = check.positive(tol, "tol")
    n = C.shape[1]
    # variables (a, b, s); constraints in the form G v <= 0
    G = np.vstack([np.column_stack([C, -np.ones(len(C)), np.ones(len(C))]),
                   np.column_stack([-D, np.ones(len(D)), np.ones(len(D))])])
    cost = np.r_[np.zeros(n + 1), -1.0]
    bounds = [(-1, 1)] * n + [(None, None), (None, None)]      # s is bounded because a is
    res = scipy.optimize.linprog(cost, A_ub=G, b_ub=np.zeros(len(G)), bounds=bounds, method="highs")
    a, b, s = res.x[:n], res.x[n], res.x[n + 1]
    if s <= tol * (1 + np.abs(np.vstack([C, D])).max()):
        return None
    scale = np.linalg.norm(a)
    return a / scale, float(b / scale)


def supporting_hyperplane_ball(center, radius, x0):
    """The supporting hyperplane ``a^T x = a^T x0`` of the ball ``B(center, radius)`` at ``x0``.

    Parameters
    ----------
    center : array_like, shape (n,)
    radius : float
        Positive.
    x0 : array_like, shape (n,)
        A boundary point, ``||x0 - center||_2 = radius`` (to relative accuracy 1e-9).

    Returns
    -------
    a : ndarray, shape (n,)
        The outward unit normal ``(x0 - center) / radius``.
    b : float
        ``a^T x0``, so that ``a^T x <= b`` on the ball with equality only at ``x0``.
    """
    center = check.vector(center, None, "center")
    radius = check.positive(radius, "radius")
    x0 = check.vector(x0, center.size, "x0")
    dist = np.linalg.norm(x0 - center)
    if abs(dist - radius) > 1e-9 * radius:
        raise ValueError(f"x0 must lie on the boundary of the ball (distance {radius:g} from center), "
                         f"got distance {dist:.6g}")
    a = (x0 - center) / dist
    return a, float(a @ x0)


def in_dual_cone(y, generators):
    """Whether ``y`` lies in the dual cone ``K* = {y : y^T x >= 0 for all x in K}`` of the
    cone ``K`` generated by the rows of ``generators``.

    For a finitely generated cone it suffices to test the generators: ``y in K*`` iff
    ``G y >= 0``.

    Parameters
    ----------
    y : array_like, shape (n,) or (m, n)
    generators : array_like, shape (k, n)

    Returns
    -------
    bool or ndarray of bool, shape (m,)
    """
    G = check.matrix(generators, "generators")
    Y, single = check.points(y, G.shape[1], "y")
    slack = Y @ G.T
    scale = np.linalg.norm(Y, axis=1)[:, None] * np.linalg.norm(G, axis=1)[None, :]
    return _out(np.all(slack >= -1e-12 * scale, axis=1), single)


def pareto_minimal(points):
    """Minimal elements of a finite set for the componentwise order (the Pareto front).

    ``x_i`` is minimal if no other point ``x_j`` satisfies ``x_j <= x_i`` componentwise
    with ``x_j != x_i``. Cost O(m^2 n) (all pairs are compared at once).

    Parameters
    ----------
    points : array_like, shape (m, n)

    Returns
    -------
    ndarray of bool, shape (m,)
    """
    X = check.matrix(points, "points")
    le = np.all(X[:, None, :] <= X[None, :, :], axis=2)       # le[j, i]: x_j <= x_i
    lt = np.any(X[:, None, :] < X[None, :, :], axis=2)        # and differs somewhere
    return ~np.any(le & lt, axis=0)


def minimum_element(points):
    """The minimum element of a finite set for the componentwise order, if there is one.

    Parameters
    ----------
    points : array_like, shape (m, n)

    Returns
    -------
    int or None
        An index ``i`` with ``x_i <= x_j`` componentwise for every ``j``, else ``None``.
    """
    X = check.matrix(points, "points")
    low = X.min(axis=0)                                       # the only candidate
    hit = np.flatnonzero(np.all(X == low, axis=1))
    return int(hit[0]) if hit.size else None


def scalarise(points, lam):
    """All minimisers of the scalarisation ``lam^T x`` over the rows of ``points``.

    Parameters
    ----------
    points : array_like, shape (m, n)
    lam : array_like, shape (n,)
        Weights, ``lam >= 0`` and not all zero (a point of the dual cone of ``R^n_+``).

    Returns
    -------
    ndarray of int
        Sorted indices ``i`` with ``lam^T x_i = min_j lam^T x_j`` (ties within 1e-12 relative).
    """
    X = check.matrix(points, "points")
    lam = check.vector(lam, X.shape[1], "lam")
    if np.any(lam < 0) or not np.any(lam > 0):
        raise ValueError("lam must be non-negative and not all zero")
    v = X @ lam
    tol = 1e-12 * (1 + np.abs(v).max())
    return np.flatnonzero(v <= v.min() + tol)
