"""Tests of mlnotes.mdp: brute force over all deterministic policies, the Bellman identities, bad inputs."""
import itertools

import numpy as np
import pytest

from mlnotes import mdp

CASES = [(2, 2, 0.5, 0), (4, 2, 0.9, 1), (5, 3, 0.9, 2), (5, 3, 0.99, 3), (6, 2, 0.7, 4), (3, 4, 0.0, 5)]


def _mdp(S, A, seed, shape="AS"):
    return mdp.random_mdp(S, A, np.random.default_rng(seed), reward_shape=shape)


def _loop_values(P, r, gamma, pi):
    """Reference: the Bellman expectation equations written out state by state."""
    S = P.shape[1]
    M = np.array([[float(s == t) - gamma * P[pi[s], s, t] for t in range(S)] for s in range(S)])
    return np.linalg.solve(M, np.array([r[pi[s], s] for s in range(S)]))


@pytest.mark.parametrize("S, A, gamma, seed", CASES)
def test_brute_force_matches_loop(S, A, gamma, seed):
    P, R = _mdp(S, A, seed)
    pols, V = mdp.brute_force(P, R, gamma)
    assert pols.shape == (A ** S, S)
    assert {tuple(p) for p in pols} == set(itertools.product(range(A), repeat=S))
    for k in range(0, len(pols), max(1, len(pols) // 17)):
        np.testing.assert_allclose(V[k], _loop_values(P, R, gamma, pols[k]), atol=1e-10)


@pytest.mark.parametrize("shape", ["AS", "ASS"])
@pytest.mark.parametrize("S, A, gamma, seed", CASES)
def test_value_and_policy_iteration_match_brute_force(S, A, gamma, seed, shape):
    P, R = _mdp(S, A, seed, shape)
    pols, V = mdp.brute_force(P, R, gamma)
    v_star = V.max(axis=0)
    # one policy attains the maximum in every state simultaneously
    assert np.any(np.all(V >= v_star - 1e-10, axis=1))
    vi = mdp.value_iteration(P, R, gamma, epsilon=1e-9)
    pi = mdp.policy_iteration(P, R, gamma)
    np.testing.assert_allclose(vi.v, v_star, atol=1e-9)
    np.testing.assert_allclose(pi.v, v_star, atol=1e-10)
    # the policies returned are optimal (equal to the brute-force argmax up to ties)
    for pol in (vi.policy, pi.policy):
        np.testing.assert_allclose(mdp.policy_evaluation(P, R, gamma, pol), v_star, atol=1e-8)
    best = pols[np.argmax(V.sum(axis=1))]
    np.testing.assert_allclose(V[np.argmax(V.sum(axis=1))], v_star, atol=1e-10)
    assert np.array_equal(pi.policy, best) or np.allclose(
        mdp.policy_evaluation(P, R, gamma, best), pi.v, atol=1e-10)


@pytest.mark.parametrize("S, A, gamma, seed", CASES)
def test_policy_evaluation_methods_agree(S, A, gamma, seed):
    P, R = _mdp(S, A, seed)
    rng = np.random.default_rng(seed + 100)
    pol = rng.integers(0, A, size=S)
    v_solve = mdp.policy_evaluation(P, R, gamma, pol, method="solve")
    v_iter = mdp.policy_evaluation(P, R, gamma, pol, method="iterate", tol=1e-10)
    np.testing.assert_allclose(v_iter, v_solve, atol=1e-10)
    # a one-hot stochastic policy is the deterministic one
    np.testing.assert_allclose(mdp.policy_evaluation(P, R, gamma, np.eye(A)[pol]), v_solve, atol=1e-12)
    # a genuinely stochastic policy: Bellman expectation equation
    pi = rng.dirichlet(np.ones(A), size=S)
    v = mdp.policy_evaluation(P, R, gamma, pi)
    q = mdp.q_values(P, R, gamma, v)
    np.testing.assert_allclose(v, np.einsum("sa,as->s", pi, q), atol=1e-10)


@pytest.mark.parametrize("S, A, gamma, seed", CASES)
def test_bellman_operator_is_a_contraction(S, A, gamma, seed):
    P, R = _mdp(S, A, seed)
    rng = np.random.default_rng(seed)
    v, w = 10 * rng.standard_normal((2, 200, S))
    Tv, Tw = mdp.bellman_operator(P, R, gamma, v), mdp.bellman_operator(P, R, gamma, w)
    assert np.all(np.abs(Tv - Tw).max(axis=1) <= gamma * np.abs(v - w).max(axis=1) + 1e-12)
    np.testing.assert_allclose(Tv[3], mdp.bellman_operator(P, R, gamma, v[3]), atol=1e-12)


@pytest.mark.parametrize("S, A, gamma, seed", CASES)
def test_value_iteration_error_bounds(S, A, gamma, seed):
    P, R = _mdp(S, A, seed)
    v_star = mdp.brute_force(P, R, gamma)[1].max(axis=0)
    eps = 1e-3
    vi = mdp.value_iteration(P, R, gamma, epsilon=eps)
    err = np.abs(vi.history - v_star).max(axis=1)
    assert np.all(err[1:] <= gamma * err[:-1] + 1e-12)
    assert err[-1] < eps / 2
    assert np.all(v_star - mdp.policy_evaluation(P, R, gamma, vi.policy) < eps)


@pytest.mark.parametrize("S, A, gamma, seed", CASES)
def test_policy_iteration_improves_monotonically(S, A, gamma, seed):
    P, R = _mdp(S, A, seed)
    pi = mdp.policy_iteration(P, R, gamma)
    assert np.all(np.diff(pi.history, axis=0) >= -1e-10)
    assert pi.n_iter <= A ** S


def test_gridworld_structure_and_policy():
    P, R, terminal = mdp.gridworld(n=4, slip=0.2)
    assert P.shape == R.shape == (4, 16, 16)
    np.testing.assert_allclose(P.sum(axis=2), 1.0)
    # action "right" from cell (3, 0): 0.8 to (3, 1), 0.1 up to (2, 0), 0.1 stays (wall below)
    assert P[1, 12, 13] == pytest.approx(0.8) and P[1, 12, 8] == pytest.approx(0.1)
    assert P[1, 12, 12] == pytest.approx(0.1)
    sol = mdp.policy_iteration(P, R, 0.95)
    vi = mdp.value_iteration(P, R, 0.95, epsilon=1e-10)
    np.testing.assert_allclose(vi.v, sol.v, atol=1e-9)
    assert np.all(np.abs(sol.v[terminal]) < 1e-12)
    assert sol.policy[2] == 1  # next to the goal: move right
    assert repr(sol).startswith("MDPSolution(S=16")


def test_gamma_zero_is_myopic():
    P, R = _mdp(4, 3, 9)
    vi = mdp.value_iteration(P, R, 0.0)
    np.testing.assert_allclose(vi.v, R.max(axis=0))
    assert vi.n_iter == 1


def test_bad_inputs():
    P, R = _mdp(3, 2, 0)
    bad = P.copy()
    bad[0, 0] *= 1.1
    with pytest.raises(ValueError, match="P must sum to 1"):
        mdp.value_iteration(bad, R, 0.9)
    neg = P.copy()
    neg[1, 2, :2] = [-0.1, 1.1 - neg[1, 2, 2]]
    with pytest.raises(ValueError, match="P must be non-negative"):
        mdp.policy_iteration(neg, R, 0.9)
    with pytest.raises(ValueError, match="P must have shape"):
        mdp.value_iteration(P[:, :, :2], R, 0.9)
    with pytest.raises(ValueError, match="R must have shape"):
        mdp.value_iteration(P, R.T, 0.9)
    with pytest.raises(ValueError, match="R must be finite"):
        mdp.value_iteration(P, np.full_like(R, np.nan), 0.9)
    for g in (1.0, -0.1, 1.5):
        with pytest.raises(ValueError, match="gamma"):
            mdp.policy_evaluation(P, R, g, np.zeros(3, dtype=int))
    with pytest.raises(ValueError, match="gamma"):
        mdp.value_iteration(P, R, "0.9")
    with pytest.raises(ValueError, match="method"):
        mdp.policy_evaluation(P, R, 0.9, np.zeros(3, dtype=int), method="lu")
    with pytest.raises(ValueError, match="policy"):
        mdp.policy_evaluation(P, R, 0.9, np.array([0, 1, 2]))
    with pytest.raises(ValueError, match="policy"):
        mdp.policy_evaluation(P, R, 0.9, np.zeros(3))
    with pytest.raises(ValueError, match="policy must sum to 1"):
        mdp.policy_evaluation(P, R, 0.9, np.full((3, 2), 0.4))
    with pytest.raises(ValueError, match="policy0"):
        mdp.policy_iteration(P, R, 0.9, policy0=np.full((3, 2), 0.5))
    with pytest.raises(ValueError, match="epsilon"):
        mdp.value_iteration(P, R, 0.9, epsilon=0)
    with pytest.raises(ValueError, match="v0"):
        mdp.value_iteration(P, R, 0.9, v0=np.zeros(4))
    with pytest.raises(ValueError, match="v must have shape"):
        mdp.bellman_operator(P, R, 0.9, np.zeros(5))
    with pytest.raises(ValueError, match="slip"):
        mdp.gridworld(slip=1.5)
    with pytest.raises(ValueError, match="goal"):
        mdp.gridworld(goal=(4, 0))
    with pytest.raises(ValueError, match="rng"):
        mdp.random_mdp(3, 2, 0)


def test_helpers_validate_their_inputs():
    """policy_model, q_values and expected_reward check P, r, gamma and v themselves."""
    P, R = _mdp(3, 2, 0)
    nan_P = P.copy()
    nan_P[0, 0] = np.nan
    v, pi = np.zeros(3), np.zeros(3, dtype=int)
    for call in (lambda: mdp.policy_model(nan_P, R, pi), lambda: mdp.q_values(nan_P, R, 0.9, v),
                 lambda: mdp.expected_reward(nan_P, R)):
        with pytest.raises(ValueError, match="P must be finite"):
            call()
    for g in (1.0, 1.5, -0.1, np.nan, True, "0.9"):
        with pytest.raises(ValueError, match="gamma"):
            mdp.q_values(P, R, g, v)
    with pytest.raises(ValueError, match="r must have shape"):
        mdp.q_values(P, R.T, 0.9, v)
    with pytest.raises(ValueError, match="r must be finite"):
        mdp.policy_model(P, np.full_like(R, np.inf), pi)
    with pytest.raises(ValueError, match="v must have shape"):
        mdp.q_values(P, R, 0.9, np.zeros(4))
    with pytest.raises(ValueError, match="P must be a rectangular"):
        mdp.expected_reward([[[0.5, 0.5], [1.0]]], R)
    with pytest.raises(ValueError, match="policy must be a rectangular"):
        mdp.policy_model(P, R, [[0.5, 0.5], [1.0], [0.5, 0.5]])
    with pytest.raises(ValueError, match="policy must contain integer"):
        mdp.policy_model(P, R, np.array([True, False, True]))
    with pytest.raises(ValueError, match="policy0 must contain indices in 0"):
        mdp.policy_iteration(P, R, 0.9, policy0=[0, 5, 0])
    # valid calls are unchanged: q_values of the validated pieces
    P_, r, g = mdp.validate_mdp(P, R, 0.9)
    np.testing.assert_allclose(mdp.q_values(P_, r, g, v + 1), r + 0.9)


def test_gridworld_cells_and_policy_count_are_checked():
    for cell in ("ab", (0.5, 3), (True, 3), (0, 3, 1), None, object()):
        with pytest.raises(ValueError, match="goal"):
            mdp.gridworld(goal=cell)
    with pytest.raises(ValueError, match="trap"):
        mdp.gridworld(trap=(1, 4))
    with pytest.raises(ValueError, match="slip"):
        mdp.gridworld(slip="0.2")
    with pytest.raises(ValueError, match="too many to enumerate"):
        mdp.all_policies(10, 20)
    assert mdp.all_policies(2, 3).shape == (8, 3)
