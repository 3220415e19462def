"""Tests of mlnotes.bethe against enumeration with scipy.special.logsumexp, scipy.optimize
(trust-constr on the local polytope) and the chapter's identities."""
import warnings

import numpy as np
import pytest
import scipy.optimize
import scipy.special

from mlnotes import bethe


def _grid(r, c):
    return np.array([(a * c + b, a * c + b + 1) for a in range(r) for b in range(c - 1)]
                    + [(a * c + b, a * c + b + c) for a in range(r - 1) for b in range(c)])


def _random(edges, n, seed, K=2, scale=1.0, attractive=False):
    rng = np.random.default_rng(seed)
    U = rng.normal(0, 0.5, (n, K))
    if attractive:
        P = np.zeros((len(edges), K, K))
        P[:, np.arange(K), np.arange(K)] = rng.uniform(0, scale, (len(edges), 1))
    else:
        P = rng.normal(0, scale, (len(edges), K, K))
    return bethe.PairwiseMRF(U, P, edges)


def _brute(mrf):
    """Joint table by einsum over the exponentiated potentials."""
    n, K = mrf.n_nodes, mrf.n_states
    letters = "abcdefghijklmnop"[:n]
    ops = [np.exp(u) for u in mrf.unary] + [np.exp(p) for p in mrf.pairwise]
    subs = list(letters) + [letters[i] + letters[j] for i, j in mrf.edges]
    return np.einsum(",".join(subs) + "->" + letters, *ops)


TREE = np.array([(0, 1), (1, 2), (1, 3), (3, 4), (0, 5)])
CASES = [(TREE, 6, 0, 2), (TREE, 6, 1, 3), (_grid(2, 3), 6, 2, 2), (_grid(3, 3), 9, 3, 2)]


@pytest.mark.parametrize("edges, n, seed, K", CASES)
def test_exact_matches_logsumexp_and_einsum(edges, n, seed, K):
    mrf = _random(edges, n, seed, K)
    T = _brute(mrf)
    assert np.isclose(bethe.exact_log_partition(mrf), np.log(T.sum()), atol=1e-10)
    X = np.indices((K,) * n).reshape(n, -1).T
    score = mrf.unary[np.arange(n), X].sum(1) + sum(mrf.pairwise[e, X[:, i], X[:, j]]
                                                     for e, (i, j) in enumerate(mrf.edges))
    assert np.isclose(bethe.exact_log_partition(mrf), scipy.special.logsumexp(score), atol=1e-10)
    node, edge = bethe.exact_marginals(mrf)
    P = T / T.sum()
    for i in range(n):
        np.testing.assert_allclose(node[i], P.sum(axis=tuple(a for a in range(n) if a != i)), atol=1e-12)
    for e, (i, j) in enumerate(mrf.edges):
        M = P.sum(axis=tuple(a for a in range(n) if a not in (i, j)))
        np.testing.assert_allclose(edge[e], M if i < j else M.T, atol=1e-12)


@pytest.mark.parametrize("seed, K", [(0, 2), (1, 3), (2, 4)])
@pytest.mark.parametrize("schedule", ["parallel", "sequential"])
def test_bp_exact_on_trees(seed, K, schedule):
    mrf = _random(TREE, 6, seed, K)
    r = bethe.loopy_bp(mrf, schedule=schedule, damping=0.0)
    node, edge = bethe.exact_marginals(mrf)
    assert r.converged
    np.testing.assert_allclose(r.node_beliefs, node, atol=1e-9)
    np.testing.assert_allclose(r.edge_beliefs, edge, atol=1e-9)
    b = bethe.bethe_free_energy(mrf, r.node_beliefs, r.edge_beliefs)
    assert np.isclose(b.log_z, bethe.exact_log_partition(mrf), atol=1e-8)
    assert np.isclose(b.free_energy, -b.log_z) and np.isclose(b.log_z, b.entropy - b.energy)


@pytest.mark.parametrize("seed", range(5))
def test_bound_ordering_on_attractive_grids(seed):
    edges = _grid(3, 3)
    mrf = _random(edges, 9, seed, attractive=True)
    logz = bethe.exact_log_partition(mrf)
    r = bethe.loopy_bp(mrf)
    bz = bethe.bethe_free_energy(mrf, r.node_beliefs, r.edge_beliefs).log_z
    mf = bethe.naive_mean_field(mrf)
    trw = bethe.trw_bp(mrf, bethe.edge_appearance_uniform(edges, 9))
    assert r.converged and mf.converged and trw.converged
    assert mf.log_z_lower <= bz + 1e-9 <= logz + 2e-9 <= trw.log_z_upper + 3e-9


def test_trw_bound_against_trust_constr_and_jensen():
    """TRW value = max of the concave objective (checked by trust-constr) <= Jensen bound."""
    edges = np.array([(0, 1), (1, 2), (0, 2)])
    mrf = _random(edges, 3, 5)
    rho = bethe.edge_appearance_uniform(edges, 3)
    np.testing.assert_allclose(rho, 2 / 3)
    trw = bethe.trw_bp(mrf, rho)
    # Jensen: theta = sum_T beta(T) theta_T with theta_T = theta on the tree edges scaled by 1/rho
    trees = [[0, 1], [1, 2], [0, 2]]
    jensen = np.mean([bethe.exact_log_partition(bethe.PairwiseMRF(mrf.unary, mrf.pairwise[t] * 1.5,
                                                                  edges[t])) for t in trees])
    assert bethe.exact_log_partition(mrf) <= trw.log_z_upper <= jensen + 1e-9
    I, J = edges.T

    def neg(v):
        bn = np.column_stack([1 - v[:3], v[:3]])
        mu, mij = v[:3], v[3:]
        be = np.stack([np.column_stack([1 - mu[I] - mu[J] + mij, mu[J] - mij]),
                       np.column_stack([mu[I] - mij, mij])], axis=1)
        xl = lambda p: p * np.log(np.maximum(p, 1e-300))  # noqa: E731
        ent = -xl(bn).sum() - sum(rho[e] * (xl(be[e]).sum() - xl(bn[I[e]]).sum() - xl(bn[J[e]]).sum())
                                  for e in range(3))
        return -(np.sum(bn * mrf.unary) + np.sum(be * mrf.pairwise) + ent)
    C = []
    for e, (i, j) in enumerate(edges):
        r = np.zeros(6); r[3 + e] = 1; C.append(r)
        r = np.zeros(6); r[i] = 1; r[3 + e] = -1; C.append(r)
        r = np.zeros(6); r[j] = 1; r[3 + e] = -1; C.append(r)
        r = np.zeros(6); r[i] = r[j] = -1; r[3 + e] = 1; C.append(r)
    lo = np.tile([0.0, 0.0, 0.0, -1.0], 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = scipy.optimize.minimize(neg, np.r_[np.full(3, 0.5), np.full(3, 0.25)], method="trust-constr",
                                      constraints=[scipy.optimize.LinearConstraint(np.array(C), lo, np.inf)],
                                      options=dict(gtol=1e-10, xtol=1e-12, maxiter=2000))
    assert np.isclose(-res.fun, trw.log_z_upper, atol=1e-6)


def test_trw_with_rho_one_is_bp():
    mrf = _random(_grid(2, 3), 6, 7)
    a = bethe.trw_bp(mrf, np.ones(mrf.n_edges))
    b = bethe.loopy_bp(mrf)
    np.testing.assert_allclose(a.node_beliefs, b.node_beliefs, atol=1e-8)
    assert np.isclose(a.log_z_upper, bethe.bethe_free_energy(mrf, b.node_beliefs, b.edge_beliefs).log_z)


@pytest.mark.parametrize("r, c", [(2, 2), (2, 3), (3, 3)])
def test_edge_appearance_is_effective_resistance(r, c):
    edges = _grid(r, c)
    n = r * c
    rho = bethe.edge_appearance_uniform(edges, n)
    L = np.zeros((n, n))
    for i, j in edges:
        L[[i, j], [i, j]] += 1
        L[i, j] -= 1
        L[j, i] -= 1
    Lp = np.linalg.pinv(L)
    R = np.array([Lp[i, i] + Lp[j, j] - 2 * Lp[i, j] for i, j in edges])
    np.testing.assert_allclose(rho, R, atol=1e-10)
    assert np.isclose(rho.sum(), n - 1)


def test_mean_field_is_a_lower_bound_and_a_fixed_point():
    mrf = _random(_grid(3, 3), 9, 11)
    mf = bethe.naive_mean_field(mrf)
    assert mf.log_z_lower <= bethe.exact_log_partition(mrf)
    np.testing.assert_allclose(mf.marginals.sum(1), 1)


def test_conjugates():
    theta = np.linspace(-4, 4, 9)
    np.testing.assert_allclose(bethe.bernoulli_log_partition(theta), np.log1p(np.exp(theta)), atol=1e-12)
    grid = np.linspace(0, 1, 20001)
    np.testing.assert_allclose(bethe.numeric_conjugate(bethe.bernoulli_neg_entropy, theta, grid),
                               np.log1p(np.exp(theta)), atol=1e-7)
    mu = np.array([0.1, 0.5, 0.8])
    tg = np.linspace(-10, 10, 40001)
    np.testing.assert_allclose(bethe.numeric_conjugate(bethe.bernoulli_log_partition, mu, tg),
                               bethe.bernoulli_neg_entropy(mu), atol=1e-7)
    assert bethe.bernoulli_neg_entropy(0.0) == 0.0 and bethe.bernoulli_log_partition(800.0) == 800.0


def test_damping_on_frustrated_triangle():
    edges = np.array([(0, 1), (1, 2), (2, 0)])
    h = np.array([0.3, -0.2, 0.1])
    mrf = bethe.PairwiseMRF(np.column_stack([-h, h]), np.tile([[-5.0, 5.0], [5.0, -5.0]], (3, 1, 1)), edges)
    with pytest.warns(RuntimeWarning, match="max_iter=400"):
        assert not bethe.loopy_bp(mrf, damping=0.0, max_iter=400).converged
    assert bethe.loopy_bp(mrf, damping=0.5, max_iter=300).converged


def test_result_class_is_loopy_bp_result():
    """bethe's result class is LoopyBPResult, not a second class named like graphical.BPResult."""
    mrf = _random(TREE, 6, 0)
    assert isinstance(bethe.loopy_bp(mrf), bethe.LoopyBPResult)
    assert not hasattr(bethe, "BPResult") and "BPResult" not in bethe.__all__


def test_loopy_bp_from_random_messages_matches_an_ep_step_and_the_same_fixed_point():
    """One parallel step from random messages equals the EP update with factorised sites (cavity,
    tilted pair, marginal projection written out here), and the iteration reaches the same fixed
    point as from uniform messages."""
    edges = np.array([(0, 1), (1, 2), (0, 2), (2, 3), (1, 3)])
    mrf = _random(edges, 4, 3, K=3)
    rng = np.random.default_rng(1)
    M0 = rng.uniform(0.1, 1.0, (10, 3))
    M0 /= M0.sum(1, keepdims=True)
    f_node, f_edge = np.exp(mrf.unary), np.exp(mrf.pairwise)
    expected = []
    for e, (i, j) in enumerate(edges):
        into = lambda t, skip: np.prod([M0[2 * d + (t == a)] for d, (a, b) in enumerate(edges)  # noqa: E731
                                        if t in (a, b) and skip not in (a, b)], axis=0)
        c_i, c_j = f_node[i] * into(i, j), f_node[j] * into(j, i)
        tilted = f_edge[e] * np.outer(c_i, c_j)
        m_ij, m_ji = tilted.sum(0) / c_j, tilted.sum(1) / c_i
        expected += [m_ij / m_ij.sum(), m_ji / m_ji.sum()]
    with pytest.warns(RuntimeWarning, match="loopy_bp"):
        one = bethe.loopy_bp(mrf, damping=0.0, max_iter=1, init=M0 * 5.0)
    np.testing.assert_allclose(one.messages, np.array(expected), atol=1e-12)
    a, b = bethe.loopy_bp(mrf, init=M0), bethe.loopy_bp(mrf)
    np.testing.assert_allclose(a.node_beliefs, b.node_beliefs, atol=1e-8)
    with pytest.raises(ValueError, match="init"):
        bethe.loopy_bp(mrf, init=M0[:-1])
    with pytest.raises(ValueError, match="init"):
        bethe.loopy_bp(mrf, init=-M0)


def test_trw_refuses_an_unconverged_bound():
    """Regression: trw_bp returned log_z_upper from unconverged messages. After one undamped
    iteration on this strongly coupled grid that value is far *below* log Z, so it is no bound."""
    edges = _grid(3, 3)
    rng = np.random.default_rng(0)
    mrf = bethe.PairwiseMRF(rng.normal(0, 1, (9, 2)), rng.normal(0, 4, (12, 2, 2)), edges)
    rho = bethe.edge_appearance_uniform(edges, 9)
    logz = bethe.exact_log_partition(mrf)
    node, edge, _, converged, _, _ = bethe._message_passing(mrf, rho, "parallel", 0.0, 1, 1e-10)
    h_node, mi = bethe._entropies(mrf, node, edge)
    unconverged_value = bethe._expected_log_potential(mrf, node, edge) + h_node.sum() - rho @ mi
    assert not converged and unconverged_value < logz - 1.0          # what the old code returned
    with pytest.raises(ValueError, match="max_iter"):
        bethe.trw_bp(mrf, rho, damping=0.0, max_iter=1)
    trw = bethe.trw_bp(mrf, rho, damping=0.5, max_iter=5000)
    assert trw.converged and trw.log_z_upper >= logz


def test_naive_mean_field_warns_when_unconverged():
    mrf = _random(_grid(3, 3), 9, 11, scale=3.0)
    with pytest.warns(RuntimeWarning, match="naive_mean_field"):
        assert not bethe.naive_mean_field(mrf, max_iter=1).converged


def _chain_precision(n, seed, r=0.3):
    rng = np.random.default_rng(seed)
    J = np.eye(n)
    for i, j in _grid(3, 3) if n == 9 else [(k, k + 1) for k in range(n - 1)]:
        J[i, j] = J[j, i] = rng.uniform(-r, r)
    return J, rng.normal(size=n)


@pytest.mark.parametrize("seed", range(3))
def test_gaussian_bp_walk_summable_grid_exact_means(seed):
    """Walk-summable loopy model: BP converges, means = J^-1 h (numpy solve), variances are
    close to but not equal to diag(J^-1) (Weiss and Freeman 2001)."""
    J, h = _chain_precision(9, seed)
    assert bethe.walk_summability(J) < 1
    r = bethe.gaussian_bp(J, h)
    assert r.converged
    np.testing.assert_allclose(r.means, np.linalg.solve(J, h), atol=1e-9)
    var = np.diag(np.linalg.inv(J))
    assert 1e-6 < np.abs(r.variances - var).max() < 0.1


def test_gaussian_bp_on_a_tree_is_exact():
    J, h = _chain_precision(7, 4, r=0.45)
    r = bethe.gaussian_bp(J, h)
    np.testing.assert_allclose(r.means, np.linalg.solve(J, h), atol=1e-10)
    np.testing.assert_allclose(r.variances, np.diag(np.linalg.inv(J)), atol=1e-10)


def test_gaussian_bp_diverges_when_not_walk_summable():
    """K4 with all partial correlations -0.6: J is positive definite (eigenvalues 0.4, 2.8) but
    rho(|R|) = 1.8; the variance messages a <- -r^2/(1 + 2a) have no real fixed point."""
    J = np.eye(4) + 0.6 * (np.ones((4, 4)) - np.eye(4))
    assert np.linalg.eigvalsh(J).min() > 0.3
    assert np.isclose(bethe.walk_summability(J), 1.8)
    with pytest.warns(RuntimeWarning, match="gaussian_bp"):
        r = bethe.gaussian_bp(J, np.ones(4), max_iter=300)
    assert not r.converged and np.min(r.residuals[-50:]) > 1.0


def test_walk_summability_against_nonsymmetric_form_and_diagonal_dominance():
    rng = np.random.default_rng(5)
    A = rng.normal(size=(6, 6))
    J = A @ A.T + 6 * np.eye(6)
    off = np.abs(J - np.diag(np.diag(J)))
    rho = np.max(np.abs(np.linalg.eigvals(off / np.diag(J)[:, None])))   # D^-1 |J_off|, similar to |R|
    assert np.isclose(bethe.walk_summability(J), rho, atol=1e-12)
    B = rng.normal(size=(6, 6))
    B = (B + B.T) / 2
    np.fill_diagonal(B, 0.0)
    dd = B + np.diag(np.abs(B).sum(1) + 0.01)              # strictly diagonally dominant, mixed signs
    assert 0.9 < bethe.walk_summability(dd) < 1
    with pytest.raises(ValueError, match="J"):
        bethe.gaussian_bp(np.array([[1.0, 2.0], [2.0, 1.0]]), np.zeros(2))


def test_constructor_checks_and_repr():
    U, P, E = np.zeros((3, 2)), np.zeros((2, 2, 2)), np.array([(0, 1), (1, 2)])
    assert repr(bethe.PairwiseMRF(U, P, E)) == "PairwiseMRF(n_nodes=3, n_states=2, n_edges=2)"
    with pytest.raises(ValueError, match="pairwise"):
        bethe.PairwiseMRF(U, np.zeros((3, 2, 2)), E)
    with pytest.raises(ValueError, match="edges"):
        bethe.PairwiseMRF(U, P, np.array([(0, 1), (1, 0)]))
    with pytest.raises(ValueError, match="edges"):
        bethe.PairwiseMRF(U, P, np.array([(0, 0), (1, 2)]))
    with pytest.raises(ValueError, match="unary"):
        bethe.PairwiseMRF("x", P, E)
    with pytest.raises(ValueError, match="overflows"):         # log Z would be inf
        bethe.PairwiseMRF(np.full((3, 2), 1e308), P, E)
    with pytest.raises(ValueError, match="mrf"):
        bethe.exact_log_partition(bethe.PairwiseMRF(np.zeros((21, 2)), np.zeros((0, 2, 2)), []))
