"""Tests of mlnotes.convex_sets against scipy.spatial.ConvexHull / HalfspaceIntersection,
scipy.optimize.linprog, numpy.linalg.eigvalsh and numpy.linalg.norm."""
import numpy as np
import pytest
import scipy.optimize
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import ConvexHull, HalfspaceIntersection

from mlnotes import convex_sets as cs


@pytest.mark.parametrize("seed", range(4))
def test_hull_2d_matches_scipy(seed):
    P = np.random.default_rng(seed).normal(size=(60, 2))
    h = ConvexHull(P)
    v = cs.convex_hull_2d(P)
    # same vertex set, both counter-clockwise: equal up to a cyclic shift
    k = list(h.vertices).index(v[0])
    np.testing.assert_array_equal(np.roll(h.vertices, -k), v)
    A, b = cs.polygon_halfspaces(P[v])
    eq = h.equations                    # rows [a, -b] with a^T x <= b, a unit
    ours = {tuple(np.round(np.r_[a, -bi], 9)) for a, bi in zip(A, b)}
    theirs = {tuple(np.round(r, 9)) for r in eq}
    assert ours == theirs               # rounding to 1e-9: both are unit normals of the same edges


def test_halfspace_intersection_recovers_vertices():
    P = np.random.default_rng(7).normal(size=(40, 2))
    v = cs.convex_hull_2d(P)
    A, b = cs.polygon_halfspaces(P[v])
    hs = HalfspaceIntersection(np.column_stack([A, -b]), P[v].mean(axis=0))
    got = {tuple(np.round(x, 8)) for x in hs.intersections}
    assert got == {tuple(np.round(x, 8)) for x in P[v]}   # 1e-8: vertices from a 2x2 solve


@pytest.mark.parametrize("seed, n", [(0, 2), (1, 3), (2, 4)])
def test_lp_hull_membership_matches_equations(seed, n):
    rng = np.random.default_rng(seed)
    P = rng.normal(size=(25, n))
    Q = 1.5 * rng.normal(size=(80, n))
    eq = ConvexHull(P).equations
    slack = Q @ eq[:, :-1].T + eq[:, -1]
    clear = np.abs(slack).min(axis=1) > 1e-6         # skip points within 1e-6 of a facet (LP tolerance)
    np.testing.assert_array_equal(cs.in_convex_hull(P, Q)[clear], np.all(slack <= 0, axis=1)[clear])
    W = rng.dirichlet(np.ones(25), size=10)
    assert np.all(cs.in_convex_hull(P, cs.convex_combination(P, W)))
    assert cs.in_convex_hull(P, P[0]) is True


def test_ellipsoid_and_psd():
    rng = np.random.default_rng(3)
    B = rng.normal(size=(3, 3))
    P = B @ B.T + 0.1 * np.eye(3)
    assert np.linalg.eigvalsh(P).min() > 0
    X = rng.normal(size=(200, 3))
    q = np.einsum("ij,jk,ik->i", X, np.linalg.inv(P), X)
    np.testing.assert_array_equal(cs.in_ellipsoid(X, np.zeros(3), P), q <= 1)
    with pytest.raises(ValueError, match="P"):
        cs.in_ellipsoid(X, np.zeros(3), np.diag([1.0, 1.0, 0.0]))


@pytest.mark.parametrize("p", [1, 1.5, 2, 3, np.inf])
def test_dual_norm_matches_numpy(p):
    Y = np.random.default_rng(4).normal(size=(50, 4))
    q = np.inf if p == 1 else (1 if p == np.inf else p / (p - 1))
    np.testing.assert_allclose(cs.dual_norm(Y, p), np.linalg.norm(Y, ord=q, axis=1), rtol=1e-12)
    T = np.linalg.norm(Y, ord=p, axis=1)
    np.testing.assert_array_equal(cs.in_norm_cone(Y, T * 1.01, p), True)
    np.testing.assert_array_equal(cs.in_norm_cone(Y, T * 0.99, p), False)


def test_dual_norm_is_lp_value():
    y = np.array([0.3, -1.2, 0.5])
    # sup y^T x over the l_inf ball: linprog with box bounds
    res = scipy.optimize.linprog(-y, bounds=[(-1, 1)] * 3, method="highs")
    assert np.isclose(-res.fun, cs.dual_norm(y, np.inf), atol=1e-9)


def test_order_validation():
    for bad in (0.5, -1, "2", True, np.nan):
        with pytest.raises(ValueError, match="ord"):
            cs.dual_norm(np.ones(2), bad)
        with pytest.raises(ValueError, match="ord"):
            cs.in_norm_cone(np.ones(2), 1.0, bad)


def test_perspective_and_linear_fractional():
    rng = np.random.default_rng(5)
    A, b, c, d = rng.normal(size=(2, 2)), rng.normal(size=2), np.array([0.2, -0.1]), 2.0
    X = rng.uniform(-1, 1, (30, 2))
    F = cs.linear_fractional(A, b, c, d, X)
    Z = np.column_stack([X @ A.T + b, X @ c + d])
    np.testing.assert_allclose(F, cs.perspective_image(Z), rtol=1e-13)
    with pytest.raises(ValueError, match="x"):
        cs.linear_fractional(A, b, c, -5.0, X)
    with pytest.raises(ValueError, match="points"):
        cs.perspective_image(np.array([[1.0, -1.0]]))


def test_separating_hyperplane():
    rng = np.random.default_rng(6)
    C = rng.normal(size=(30, 3))
    D = rng.normal(size=(30, 3)) + np.array([5.0, 0, 0])
    a, b = cs.separating_hyperplane(C, D)
    assert np.isclose(np.linalg.norm(a), 1)
    assert np.all(C @ a < b) and np.all(D @ a > b)
    # LP margin = half the l1 distance between the hulls (linprog on the distance LP)
    s = (D @ a).min() - b
    kC, kD = len(C), len(D)
    n = 3     # variables theta (kC), mu (kD), u (n) with |C^T theta - D^T mu| <= u
    cost = np.r_[np.zeros(kC + kD), np.ones(n)]
    Aub = np.block([[C.T, -D.T, -np.eye(n)], [-C.T, D.T, -np.eye(n)]])
    Aeq = np.block([[np.ones((1, kC)), np.zeros((1, kD + n))], [np.zeros((1, kC)), np.ones((1, kD)), np.zeros((1, n))]])
    res = scipy.optimize.linprog(cost, A_ub=Aub, b_ub=np.zeros(2 * n), A_eq=Aeq, b_eq=[1, 1],
                                 bounds=(0, None), method="highs")
    a_inf = a / np.abs(a).max()
    assert np.isclose((D @ a_inf).min() - (C @ a_inf).max(), res.fun, rtol=1e-7)   # LP accuracy
    assert s > 0
    assert cs.separating_hyperplane(C, np.vstack([D, C.mean(axis=0)])) is None


def test_supporting_and_dual_cone():
    a, b = cs.supporting_hyperplane_ball(np.array([1.0, 2.0]), 2.0, np.array([1.0, 4.0]))
    np.testing.assert_allclose(a, [0, 1])
    assert np.isclose(b, 4.0)
    with pytest.raises(ValueError, match="x0"):
        cs.supporting_hyperplane_ball(np.zeros(2), 1.0, np.array([0.5, 0.0]))
    rng = np.random.default_rng(8)
    Y = rng.normal(size=(500, 3))
    # l1 cone in R^3 generated by (+-e_i, 1); its dual is the l_inf cone
    G = np.array([[1, 0, 1], [-1, 0, 1], [0, 1, 1], [0, -1, 1]], float)
    np.testing.assert_array_equal(cs.in_dual_cone(Y, G), np.abs(Y[:, :2]).max(axis=1) <= Y[:, 2])
    np.testing.assert_array_equal(cs.in_dual_cone(Y, np.eye(3)), np.all(Y >= 0, axis=1))


def _brute_pareto(X):
    m = len(X)
    return np.array([not any(np.all(X[j] <= X[i]) and np.any(X[j] < X[i]) for j in range(m))
                     for i in range(m)])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 25))
def test_pareto_and_scalarisation_property(seed, m):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 5, (m, 2)).astype(float)      # integer grid: ties and duplicates happen
    mask = cs.pareto_minimal(X)
    np.testing.assert_array_equal(mask, _brute_pareto(X))
    lam = rng.uniform(0.01, 1, 2)
    assert np.all(mask[cs.scalarise(X, lam)])         # lambda > 0: minimisers are minimal
    i = cs.minimum_element(X)
    if i is None:
        assert not np.any(np.all(X[:, None] <= X[None], axis=2).all(axis=1))
    else:
        assert np.all(X[i] <= X)


def test_scalarise_boundary_lambda_and_validation():
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, -1.0]])
    assert list(cs.scalarise(X, [1.0, 0.0])) == [0, 1]
    assert not cs.pareto_minimal(X)[1]
    with pytest.raises(ValueError, match="lam"):
        cs.scalarise(X, [0.0, 0.0])
    with pytest.raises(ValueError, match="lam"):
        cs.scalarise(X, [1.0, -1.0])


def test_psd_cone_self_dual():
    rng = np.random.default_rng(9)
    A, B = rng.normal(size=(2, 50, 4, 4))
    X, Y = A @ A.transpose(0, 2, 1), B @ B.transpose(0, 2, 1)
    assert np.linalg.eigvalsh(X).min() >= -1e-12
    assert np.einsum("kij,kji->k", X, Y).min() >= 0
