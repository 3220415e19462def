"""Tests of mlnotes.graphical against brute force on the full joint table (np.einsum),
numeric conditional-independence tests, scipy's minimum spanning tree and logsumexp.

Tolerances: every marginal is a ratio of sums of at most 3**8 positive terms, so BP, the
junction-tree algorithms and brute force agree to rounding (1e-12); conditional
independence on a joint table of random CPTs is exact up to rounding (1e-12), and
dependence for generic (continuous random) CPTs shows as a gap far above 1e-6.
"""
import itertools

import numpy as np
import pytest
import scipy.sparse.csgraph
import scipy.special

from mlnotes import graphical as g


def _joint(factors, n):
    args = [x for f in factors for x in (f.table, list(f.vars))]
    return np.einsum(*args, list(range(n)))


def _random_tree(n, rng, kmax=3):
    cards = rng.integers(2, kmax + 1, n)
    fs = []
    for v in range(1, n):
        u = int(rng.integers(0, v))
        fs.append(g.Factor((u, v), rng.random((cards[u], cards[v])) + 0.05))
    for v in range(n):
        if rng.random() < 0.5:
            fs.append(g.Factor((v,), rng.random(cards[v]) + 0.1))
    if n >= 3:                                  # a three-way factor on a new leaf variable
        fs.append(g.Factor((0, 1, n), rng.random((cards[0], cards[1], 2))))
        # (0, 1, n) closes a cycle if 0 - 1 is an edge; rebuild without the (0, 1) factor
        fs = [f for f in fs if f.vars != (0, 1)]
    return g.FactorGraph(fs)


def _random_dag(n, rng, p=0.4):
    return [[u for u in range(v) if rng.random() < p] for v in range(n)]


def _cpts(pa, cards, rng):
    return [g.Factor((v, *pa[v]), _normalise(rng.random([cards[v]] + [cards[u] for u in pa[v]])))
            for v in range(len(pa))]


def _normalise(t):
    return t / t.sum(axis=0, keepdims=True)


@pytest.mark.parametrize("n, seed", [(2, 0), (4, 1), (7, 2), (10, 3)])
def test_sum_product_matches_brute_force(n, seed):
    rng = np.random.default_rng(seed)
    fg = _random_tree(n, rng)
    assert fg.is_tree
    P = _joint(fg.factors, fg.n_vars)
    every = list(range(fg.n_vars))
    for root in (None, fg.n_vars - 1):
        bp = g.sum_product(fg, root=root)
        for v in every:
            np.testing.assert_allclose(bp.nodes[v], np.einsum(P, every, [v]) / P.sum(), atol=1e-12)
        for f, t in zip(fg.factors, bp.factors):
            np.testing.assert_allclose(t, np.einsum(P, every, list(f.vars)) / P.sum(), atol=1e-12)
        assert abs(bp.log_Z - scipy.special.logsumexp(np.log(P))) < 1e-12
        assert len(bp.schedule) == 2 * sum(len(f.vars) for f in fg.factors)
    bf = g.brute_force_marginals(fg)
    assert abs(bf.log_Z - np.log(P.sum())) < 1e-12


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pairwise_marginal(seed):
    rng = np.random.default_rng(seed)
    fg = _random_tree(6, rng)
    P = _joint(fg.factors, fg.n_vars)
    P = P / P.sum()
    every = list(range(fg.n_vars))
    for i, j in [(0, 1), (0, 5), (5, 2), (3, 4)]:
        np.testing.assert_allclose(g.pairwise_marginal(fg, i, j), np.einsum(P, every, [i, j]), atol=1e-12)


def test_factor_operations():
    rng = np.random.default_rng(0)
    a, b = g.Factor((2, 0), rng.random((3, 2))), g.Factor((0, 1), rng.random((2, 4)))
    ab = a.product(b)
    assert ab.vars == (0, 1, 2) and repr(ab) == "Factor(vars=(0, 1, 2), shape=(2, 4, 3))"
    np.testing.assert_allclose(ab.table, a.table.T[:, None, :] * b.table[:, :, None])
    np.testing.assert_allclose(ab.marginalise([1]).table, ab.table.sum(axis=1))
    np.testing.assert_allclose(ab.reduce({1: 3, 7: 0}).table, ab.table[:, 3, :])
    abc = g.product([a, b, g.Factor((3,), np.arange(1.0, 3.0))])
    np.testing.assert_allclose(abc.table, ab.table[..., None] * np.arange(1.0, 3.0))
    np.testing.assert_allclose(g.marginalise(ab, [0, 2]).table, ab.table.sum(axis=(0, 2)))
    np.testing.assert_allclose(g.reduce(ab, {0: 1}).table, ab.table[1])
    with pytest.raises(ValueError, match="other"):
        a.product(g.Factor((0,), np.ones(5)))
    assert repr(g.FactorGraph([a, b])) == "FactorGraph(n_vars=3, n_factors=2, cards=(2, 4, 3))"


def test_not_a_tree_is_rejected():
    fs = [g.Factor((0, 1), np.ones((2, 2))), g.Factor((1, 2), np.ones((2, 2))), g.Factor((0, 2), np.ones((2, 2)))]
    with pytest.raises(ValueError, match="fg"):
        g.sum_product(g.FactorGraph(fs))


def _ci_gap(P, X, Y, Z):
    """max |p(x, y, z) p(z) - p(x, z) p(y, z)| over the joint table P."""
    n = P.ndim
    every = list(range(n))
    xyz = np.einsum(P, every, X + Y + Z)
    xz = np.einsum(P, every, X + Z)
    yz = np.einsum(P, every, Y + Z)
    z = np.einsum(P, every, Z)
    lhs = np.einsum(xyz, X + Y + Z, z, Z, X + Y + Z)
    rhs = np.einsum(xz, X + Z, yz, Y + Z, X + Y + Z)
    return np.abs(lhs - rhs).max()


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_d_separation_matches_numeric_independence(seed):
    rng = np.random.default_rng(seed)
    n = 6
    pa = _random_dag(n, rng)
    P = _joint(_cpts(pa, [2] * n, rng), n)
    assert abs(P.sum() - 1) < 1e-12
    for x, y in itertools.combinations(range(n), 2):
        rest = [v for v in range(n) if v not in (x, y)]
        for k in range(3):
            for Z in itertools.combinations(rest, k):
                gap = _ci_gap(P, [x], [y], list(Z))
                if g.d_separated(pa, [x], [y], list(Z)):
                    assert gap < 1e-12
                else:
                    assert gap > 1e-6


def test_markov_blanket_makes_the_rest_independent():
    rng = np.random.default_rng(5)
    pa = [[], [0], [0], [1, 2], [3], [2, 4]]
    P = _joint(_cpts(pa, [2] * 6, rng), 6)
    assert g.markov_blanket(pa, 3) == (1, 2, 4)
    for v in range(6):
        mb = list(g.markov_blanket(pa, v))
        rest = [u for u in range(6) if u != v and u not in mb]
        if rest:
            assert _ci_gap(P, [v], rest, mb) < 1e-12
            assert g.d_separated(pa, [v], rest, mb)


def test_explaining_away():
    pa = [[], [], [0, 1]]                        # rain, sprinkler -> grass
    assert g.d_separated(pa, [0], [1], [])
    assert not g.d_separated(pa, [0], [1], [2])
    assert g.moralise(pa)[0, 1]


def _chordal_brute(A):
    """No induced cycle of length >= 4 (checked over all node subsets)."""
    n = A.shape[0]
    for k in range(4, n + 1):
        for S in itertools.combinations(range(n), k):
            sub = A[np.ix_(S, S)]
            if np.all(sub.sum(axis=1) == 2):
                reach = np.zeros(k, bool)
                reach[0] = True
                for _ in range(k):
                    reach = reach | sub[reach].any(axis=0)
                if reach.all():
                    return False
    return True


def _cliques_brute(A):
    n = A.shape[0]
    cl = [set(S) for k in range(1, n + 1) for S in itertools.combinations(range(n), k)
          if np.all(A[np.ix_(S, S)] | np.eye(k, dtype=bool))]
    return sorted(tuple(sorted(c)) for c in cl if not any(c < d for d in cl))


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_elimination_triangulates_and_junction_tree(seed):
    rng = np.random.default_rng(seed)
    n = 8
    A = np.triu(rng.random((n, n)) < 0.35, 1)
    A = A | A.T
    for order in (g.min_fill_order(A), tuple(rng.permutation(n).tolist())):
        el = g.eliminate(A, order)
        T = el.triangulated
        assert _chordal_brute(T)
        assert {tuple(e) for e in zip(*np.nonzero(np.triu(T & ~A)))} == set(el.fill_in)
        assert sorted(el.cliques) == _cliques_brute(T)
        jt = g.junction_tree(el.cliques)
        assert g.running_intersection(list(jt.edges), el.cliques)
        m = len(el.cliques)
        W = np.array([[len(set(a) & set(b)) for b in el.cliques] for a in el.cliques], float)
        mst = scipy.sparse.csgraph.minimum_spanning_tree(-np.triu(W, 1) - np.triu(np.ones((m, m)), 1) * 1e-9)
        assert abs(-mst.sum() - sum(len(s) for s in jt.separators)) < 1e-6


def test_running_intersection_fails_on_a_bad_tree():
    cl = [(0, 1), (1, 2), (2, 3)]
    assert g.running_intersection([(0, 1), (1, 2)], cl)
    assert g.running_intersection([(0, 2), (1, 2)], [(0, 1), (5, 6), (1, 2)])
    assert not g.running_intersection([(0, 2), (2, 1)], [(0, 1), (1, 2), (5, 6)])
    assert not g.running_intersection([(0, 1), (1, 2)], [(0, 1), (2, 3), (1, 2)])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_shafer_shenoy_and_hugin_match_brute_force(seed):
    rng = np.random.default_rng(seed)
    pa = [[], [0], [0], [1], [2], [3, 4], [5]]
    cards = rng.integers(2, 4, 7)
    fs = _cpts(pa, cards, rng)
    fs.append(g.Factor((6,), np.array([0.0, 1.0] + [0.5] * (cards[6] - 2))))   # evidence-like
    P = _joint(fs, 7)
    jt = g.junction_tree(g.eliminate(g.moralise(pa), g.min_fill_order(g.moralise(pa))).cliques)
    every = list(range(7))
    for alg in (g.shafer_shenoy, g.hugin):
        res = alg(jt, fs)
        for c in res.cliques + res.separators:
            np.testing.assert_allclose(c.table, np.einsum(P, every, list(c.vars)) / P.sum(), atol=1e-12)
        assert abs(res.log_Z - np.log(P.sum())) < 1e-12


def _chain_factors(rng):
    return [g.Factor((0, 1), rng.random((2, 3)) + 0.1), g.Factor((1, 2), rng.random((3, 2)) + 0.1),
            g.Factor((2, 3), rng.random((2, 2)) + 0.1)]


@pytest.mark.parametrize("label, jt", [
    ("a cycle, not a tree", g.JunctionTree(((0, 1), (1, 2), (2, 3)), ((0, 1), (1, 2), (0, 2)), ((1,), (2,), ()))),
    ("a forest, not spanning", g.JunctionTree(((0, 1), (1, 2), (2, 3)), ((0, 1),), ((1,),))),
    ("an edge to a clique that does not exist", g.JunctionTree(((0, 1), (1, 2), (2, 3)), ((0, 1), (1, 7)), ((1,), ()))),
    ("no running intersection", g.JunctionTree(((0, 1), (2, 3), (1, 2)), ((0, 1), (1, 2)), ((), (2,)))),
    ("wrong separators", g.JunctionTree(((0, 1), (1, 2), (2, 3)), ((0, 1), (1, 2)), ((0,), (2,)))),
])
def test_junction_tree_algorithms_reject_an_invalid_tree(label, jt):
    """A 'junction tree' that is not a spanning tree, names a missing clique, lacks running
    intersection or has wrong separators gives a ValueError naming jt (the old code returned
    wrong marginals or raised KeyError)."""
    fs = _chain_factors(np.random.default_rng(0))
    for alg in (g.shafer_shenoy, g.hugin):
        with pytest.raises(ValueError, match="jt"):
            alg(jt, fs)
    good = g.junction_tree([(0, 1), (1, 2), (2, 3)])
    P = _joint(fs, 4)
    for alg in (g.shafer_shenoy, g.hugin):
        assert abs(alg(good, fs).log_Z - np.log(P.sum())) < 1e-12


def test_running_intersection_rejects_a_non_tree_by_name():
    with pytest.raises(ValueError, match="tree names clique 3"):
        g.running_intersection([(0, 3)], [(0,), (1,)])
    with pytest.raises(ValueError, match="tree must be a spanning tree"):
        g.running_intersection([(0, 0)], [(0,), (1,)])
    with pytest.raises(ValueError, match="factors\\[1\\] with scope \\(0, 2\\) fits in no clique"):
        g.hugin(g.junction_tree([(0, 1), (1, 2)]),
                [g.Factor((0, 1), np.ones((2, 2))), g.Factor((0, 2), np.ones((2, 2)))])


@pytest.mark.parametrize("scale", [1e300, 1e-300])
def test_huge_and_tiny_factor_tables(scale):
    """Tables near the ends of the float range: log Z equals scipy's logsumexp of the log joint
    and the marginals are those of the rescaled tables (the old code overflowed to inf or
    underflowed to 'Z = 0')."""
    rng = np.random.default_rng(4)
    fs = _chain_factors(rng)
    big = [g.Factor(f.vars, f.table * scale) for f in fs]
    logs = [np.log(f.table) + np.log(scale) for f in fs]
    log_joint = logs[0][:, :, None, None] + logs[1][None, :, :, None] + logs[2][None, None, :, :]
    ref = scipy.special.logsumexp(log_joint)
    fg, fg1 = g.FactorGraph(big), g.FactorGraph(fs)
    jt = g.junction_tree([(0, 1), (1, 2), (2, 3)])
    for res, res1 in [(g.brute_force_marginals(fg), g.brute_force_marginals(fg1)),
                      (g.sum_product(fg), g.sum_product(fg1))]:
        assert res.log_Z == pytest.approx(ref, rel=1e-13)
        for a, b in zip(res.nodes, res1.nodes):
            np.testing.assert_allclose(a, b, atol=1e-12)
    for alg in (g.shafer_shenoy, g.hugin):
        res, res1 = alg(jt, big), alg(jt, fs)
        assert res.log_Z == pytest.approx(ref, rel=1e-13)
        for a, b in zip(res.cliques, res1.cliques):
            np.testing.assert_allclose(a.table, b.table, atol=1e-12)


def test_a_table_too_large_is_refused_by_name():
    with pytest.raises(ValueError, match="factors would need a table of more than 2\\*\\*26"):
        g.product([g.Factor((i,), np.ones(50)) for i in range(8)])
    with pytest.raises(ValueError, match="fg has normaliser Z = 0"):
        g.sum_product(g.FactorGraph([g.Factor((0, 1), np.zeros((2, 2)))]))
