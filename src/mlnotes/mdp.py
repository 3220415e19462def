"""Markov decision processes (chapter 22): policy evaluation, value iteration, policy
iteration, a brute-force oracle over deterministic policies, and a small gridworld.

Conventions. A finite MDP has states ``0..S-1`` and actions ``0..A-1``.

* Transitions ``P`` have shape ``(A, S, S)``: ``P[a, s, t]`` is the probability of moving
  to state ``t`` after taking action ``a`` in state ``s``; every row ``P[a, s]`` sums to 1.
* Rewards ``R`` have shape ``(A, S)`` (``R[a, s]`` is the expected reward of action ``a``
  in state ``s``) or ``(A, S, S)`` (``R[a, s, t]`` is the reward of the transition
  ``s -> t`` under ``a``); the latter is reduced to ``r[a, s] = sum_t P[a, s, t] R[a, s, t]``.
* A deterministic policy is an integer array of shape ``(S,)`` (``policy[s]`` is the
  action in state ``s``); a stochastic one is an ``(S, A)`` array whose rows are
  probability vectors.
* The discount factor satisfies ``0 <= gamma < 1``.
"""
from dataclasses import dataclass

import numpy as np

from mlnotes import _validate as check

__all__ = ["validate_mdp", "expected_reward", "policy_model", "policy_evaluation",
           "q_values", "bellman_operator", "greedy_policy", "value_iteration",
           "policy_iteration", "all_policies", "brute_force", "random_mdp", "gridworld",
           "GRID_MOVES", "GRID_ARROWS", "MDPSolution"]


@dataclass(repr=False)
class MDPSolution:
    """Result of value or policy iteration: values, greedy policy, iterations, history."""

    v: np.ndarray
    policy: np.ndarray
    n_iter: int
    history: np.ndarray  # (n_iter + 1, S): v_0, v_1, ... (values of the iterates)

    def __repr__(self):
        return (f"MDPSolution(S={self.v.size}, n_iter={self.n_iter}, "
                f"policy={self.policy.tolist()})")


def _transitions(P):
    """``P`` as a float array of shape (A, S, S) whose rows ``P[a, s]`` are probability vectors."""
    P = check.as_float(P, "P")
    if P.ndim != 3 or P.shape[1] != P.shape[2] or P.size == 0:
        raise ValueError(f"P must have shape (A, S, S), got {P.shape}")
    return check.probabilities(P, "P", axis=-1)


def _rewards(r, P, name="r"):
    """Expected rewards ``r`` as a finite float array of shape (A, S) matching ``P``."""
    r = check.finite(r, name)
    if r.shape != P.shape[:2]:
        raise ValueError(f"{name} must have shape (A, S) = {P.shape[:2]}, got {r.shape}")
    return r


def _discount(gamma):
    return check.number_between(gamma, "gamma", 0, 1, open_high=True)


def validate_mdp(P, R, gamma):
    """Check an MDP and return ``(P, r, gamma)`` with the expected rewards ``r`` of shape (A, S).

    Parameters
    ----------
    P : array_like, shape (A, S, S)
        Transition probabilities, ``P[a, s, t] = Pr(s_{k+1} = t | s_k = s, a_k = a)``.
    R : array_like, shape (A, S) or (A, S, S)
        Rewards per state-action pair or per transition.
    gamma : float
        Discount factor in [0, 1).

    Returns
    -------
    P : ndarray (A, S, S)
    r : ndarray (A, S)
    gamma : float

    Raises
    ------
    ValueError
        If ``P`` is not (A, S, S), has a negative entry or a row not summing to 1, if ``R``
        has another shape or is not finite, or if ``gamma`` is outside [0, 1).
    """
    P = _transitions(P)
    return P, _expected_reward(P, R), _discount(gamma)


def expected_reward(P, R):
    """Expected one-step rewards ``r[a, s] = sum_t P[a, s, t] R[a, s, t]`` (or ``R`` if (A, S)).

    Parameters
    ----------
    P : array_like, shape (A, S, S)
        Transition probabilities.
    R : array_like, shape (A, S) or (A, S, S)
        Rewards.

    Returns
    -------
    r : ndarray, shape (A, S)

    Raises
    ------
    ValueError
        If ``P`` is not a transition array (see :func:`validate_mdp`), or ``R`` has neither
        shape or holds NaN or inf.
    """
    return _expected_reward(_transitions(P), R)


def _expected_reward(P, R):
    """:func:`expected_reward` for a validated ``P``."""
    R = check.finite(R, "R")
    if R.shape == P.shape[:2]:
        return R
    if R.shape == P.shape:
        return np.einsum("ast,ast->as", P, R)
    raise ValueError(f"R must have shape {P.shape[:2]} or {P.shape}, got {R.shape}")


def _policy(policy, A, S, name="policy"):
    """A deterministic (S,) policy as ints, or a stochastic (S, A) policy as floats."""
    shape = check.as_float(policy, name).shape
    if shape == (S,):
        return check.index_array(policy, S, A, name)
    if shape == (S, A):
        return check.probabilities(policy, name, axis=1)
    raise ValueError(f"{name} must have shape ({S},) or ({S}, {A}), got {shape}")


def policy_model(P, r, policy):
    """The Markov chain of a policy: ``P_pi`` (S, S) and ``r_pi`` (S,).

    Deterministic: ``P_pi[s] = P[pi(s), s]``; stochastic: ``P_pi = sum_a pi(a|s) P[a, s]``.

    Parameters
    ----------
    P : array_like, shape (A, S, S)
        Transition probabilities.
    r : array_like, shape (A, S)
        Expected rewards.
    policy : array_like, shape (S,) of ints or (S, A) of probabilities

    Returns
    -------
    P_pi : ndarray (S, S)
    r_pi : ndarray (S,)

    Raises
    ------
    ValueError
        If ``P``, ``r`` or ``policy`` is not valid or their shapes disagree.
    """
    P = _transitions(P)
    r = _rewards(r, P)
    A, S = r.shape
    pol = _policy(policy, A, S)
    if pol.ndim == 1:
        return P[pol, np.arange(S)], r[pol, np.arange(S)]
    return np.einsum("sa,ast->st", pol, P), np.einsum("sa,as->s", pol, r)


def policy_evaluation(P, R, gamma, policy, method="solve", tol=1e-10, max_iter=100_000):
    """Value ``v_pi`` of a policy: solve ``(I - gamma P_pi) v = r_pi``, or iterate ``v <- r_pi + gamma P_pi v``.

    Parameters
    ----------
    P, R, gamma : see :func:`validate_mdp`.
    policy : array_like, shape (S,) of ints or (S, A) of probabilities
    method : {"solve", "iterate"}
        Direct linear solve, or fixed-point iteration from ``v = 0``, stopped when
        ``gamma / (1 - gamma) * ||v_{k+1} - v_k||_inf <= tol`` (so ``||v - v_pi||_inf <= tol``).
    tol : float
        Accuracy of the iteration (positive).
    max_iter : int
        Most iterations.

    Returns
    -------
    v : ndarray, shape (S,)

    Raises
    ------
    ValueError
        For an invalid MDP or policy, an unknown method, or a non-positive ``tol``.
    """
    P, r, gamma = validate_mdp(P, R, gamma)
    method = check.choice(method, ("solve", "iterate"), "method")
    tol, max_iter = check.positive(tol, "tol"), check.count(max_iter, "max_iter")
    P_pi, r_pi = policy_model(P, r, policy)
    if method == "solve":
        return np.linalg.solve(np.eye(r_pi.size) - gamma * P_pi, r_pi)
    v = np.zeros_like(r_pi)
    for _ in range(max_iter):
        v_new = r_pi + gamma * P_pi @ v
        done = gamma * np.max(np.abs(v_new - v)) <= tol * (1 - gamma)
        v = v_new
        if done:
            break
    return v


def q_values(P, r, gamma, v):
    """Action values ``q[a, s] = r[a, s] + gamma * sum_t P[a, s, t] v[t]``, shape (A, S).

    Parameters
    ----------
    P : array_like, shape (A, S, S)
        Transition probabilities.
    r : array_like, shape (A, S)
        Expected rewards.
    gamma : float
        Discount factor in [0, 1).
    v : array_like, shape (S,)
        Values of the next states.

    Returns
    -------
    q : ndarray, shape (A, S)

    Raises
    ------
    ValueError
        If an argument is not valid or the shapes disagree.
    """
    P = _transitions(P)
    r = _rewards(r, P)
    return _q_values(P, r, _discount(gamma), check.vector(v, P.shape[1], "v"))


def _q_values(P, r, gamma, v):
    """:func:`q_values` of validated arguments."""
    return r + gamma * np.einsum("ast,t->as", P, v)


def bellman_operator(P, R, gamma, v):
    """Bellman optimality operator ``(T v)(s) = max_a [r(s, a) + gamma sum_t P(t|s, a) v(t)]``.

    Parameters
    ----------
    P, R, gamma : see :func:`validate_mdp`.
    v : array_like, shape (S,) or (m, S)
        One value vector or a batch of them (rows).

    Returns
    -------
    Tv : ndarray, same shape as ``v``

    Raises
    ------
    ValueError
        For an invalid MDP or a ``v`` of the wrong shape.
    """
    P, r, gamma = validate_mdp(P, R, gamma)
    v = check.finite(v, "v")
    if v.ndim not in (1, 2) or v.shape[-1] != r.shape[1]:
        raise ValueError(f"v must have shape ({r.shape[1]},) or (m, {r.shape[1]}), got {v.shape}")
    if v.ndim == 1:
        return np.max(_q_values(P, r, gamma, v), axis=0)
    return np.max(r[:, None, :] + gamma * np.einsum("ast,mt->ams", P, v), axis=0)


def greedy_policy(P, R, gamma, v):
    """A deterministic policy greedy with respect to ``v``: ``argmax_a q[a, s]`` (lowest index on ties)."""
    P, r, gamma = validate_mdp(P, R, gamma)
    v = check.vector(v, r.shape[1], "v")
    return np.argmax(_q_values(P, r, gamma, v), axis=0)


def value_iteration(P, R, gamma, epsilon=1e-8, v0=None, max_iter=100_000):
    """Value iteration ``v_{k+1} = T v_k`` until ``||v_{k+1} - v_k||_inf < epsilon (1 - gamma) / (2 gamma)``.

    The greedy policy of the last iterate is then epsilon-optimal and the last iterate is
    within epsilon / 2 of ``v*``.

    Parameters
    ----------
    P, R, gamma : see :func:`validate_mdp`.
    epsilon : float
        Target accuracy (positive).
    v0 : array_like, shape (S,), optional
        Starting values (zeros by default).
    max_iter : int
        Most iterations.

    Returns
    -------
    MDPSolution
        ``v`` (last iterate), ``policy`` (greedy w.r.t. it), ``n_iter``, ``history``.

    Raises
    ------
    ValueError
        For an invalid MDP, ``epsilon <= 0`` or a ``v0`` of the wrong shape.
    """
    P, r, gamma = validate_mdp(P, R, gamma)
    epsilon, max_iter = check.positive(epsilon, "epsilon"), check.count(max_iter, "max_iter")
    v = np.zeros(r.shape[1]) if v0 is None else check.vector(v0, r.shape[1], "v0")
    threshold = np.inf if gamma == 0 else epsilon * (1 - gamma) / (2 * gamma)
    history = [v]
    for _ in range(max_iter):
        v = np.max(_q_values(P, r, gamma, history[-1]), axis=0)
        history.append(v)
        if np.max(np.abs(v - history[-2])) < threshold:
            break
    policy = np.argmax(_q_values(P, r, gamma, v), axis=0)
    return MDPSolution(v, policy, len(history) - 1, np.array(history))


def policy_iteration(P, R, gamma, policy0=None, max_iter=10_000):
    """Howard's policy iteration: evaluate the policy exactly, improve greedily, until stable.

    An action is changed only if another one is strictly better (beyond rounding), which
    guarantees termination after finitely many steps.

    Parameters
    ----------
    P, R, gamma : see :func:`validate_mdp`.
    policy0 : array_like of int, shape (S,), optional
        Starting deterministic policy (action 0 everywhere by default).
    max_iter : int
        Most improvement steps.

    Returns
    -------
    MDPSolution
        ``v = v_pi`` of the final policy, ``policy``, ``n_iter`` (number of evaluations),
        ``history`` (the values ``v_{pi_0}, v_{pi_1}, ...``).

    Raises
    ------
    ValueError
        For an invalid MDP or starting policy.
    """
    P, r, gamma = validate_mdp(P, R, gamma)
    max_iter = check.count(max_iter, "max_iter")
    A, S = r.shape
    pi = np.zeros(S, dtype=int) if policy0 is None else _policy(policy0, A, S, "policy0")
    if pi.ndim != 1:
        raise ValueError(f"policy0 must be a deterministic policy of shape ({S},)")
    history = []
    for _ in range(max_iter):
        P_pi, r_pi = policy_model(P, r, pi)
        v = np.linalg.solve(np.eye(S) - gamma * P_pi, r_pi)
        history.append(v)
        q = _q_values(P, r, gamma, v)
        best = np.argmax(q, axis=0)
        tol = 1e-12 * max(1.0, np.max(np.abs(q)))
        improve = q[best, np.arange(S)] > q[pi, np.arange(S)] + tol
        if not improve.any():
            break
        pi = np.where(improve, best, pi)
    return MDPSolution(v, pi, len(history), np.array(history))


#: Most deterministic policies that :func:`all_policies` and :func:`brute_force` enumerate.
MAX_POLICIES = 10 ** 7


def all_policies(A, S):
    """All ``A**S`` deterministic policies as the rows of an (A**S, S) integer array."""
    A, S = check.count(A, "A"), check.count(S, "S")
    if A ** S > MAX_POLICIES:
        raise ValueError(f"A**S = {A}**{S} deterministic policies are too many to enumerate "
                         f"(at most {MAX_POLICIES:.0e}); use value or policy iteration")
    return np.indices((A,) * S).reshape(S, -1).T


def brute_force(P, R, gamma):
    """Values of every deterministic policy by a batched linear solve: (policies, values).

    Returns ``policies`` of shape (A**S, S) and ``values`` of shape (A**S, S); the optimal
    value function is ``values.max(axis=0)``.
    """
    P, r, gamma = validate_mdp(P, R, gamma)
    A, S = r.shape
    pols = all_policies(A, S)
    P_pi, r_pi = P[pols, np.arange(S)], r[pols, np.arange(S)]  # (N, S, S), (N, S)
    values = np.linalg.solve(np.eye(S) - gamma * P_pi, r_pi[..., None])[..., 0]
    return pols, values


def random_mdp(S, A, rng, reward_shape="AS"):
    """A random MDP: Dirichlet(1) transition rows and standard normal rewards.

    Parameters
    ----------
    S, A : int
        Numbers of states and actions.
    rng : numpy.random.Generator
    reward_shape : {"AS", "ASS"}
        Rewards of shape (A, S) or (A, S, S).

    Returns
    -------
    P : ndarray (A, S, S)
    R : ndarray (A, S) or (A, S, S)
    """
    S, A = check.count(S, "S"), check.count(A, "A")
    rng = check.generator(rng)
    reward_shape = check.choice(reward_shape, ("AS", "ASS"), "reward_shape")
    P = rng.dirichlet(np.ones(S), size=(A, S))
    R = rng.standard_normal((A, S) if reward_shape == "AS" else (A, S, S))
    return P, R


#: Moves of the gridworld actions 0..3 as (row, column) steps.
GRID_MOVES = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]])
GRID_ARROWS = ("\u2191", "\u2192", "\u2193", "\u2190")


def gridworld(n=4, goal=(0, 3), trap=(1, 3), slip=0.2, step_reward=-0.04):
    """An n-by-n gridworld with an absorbing goal (+1) and trap (-1) and slippery moves.

    States are cells in row-major order (``s = n * row + col``); actions 0..3 are up, right,
    down, left. The intended move happens with probability ``1 - slip``; each of the two
    perpendicular moves with probability ``slip / 2``; a move into the border leaves the
    agent in place. Entering the goal pays +1, entering the trap -1, any other move from a
    non-terminal cell pays ``step_reward``; goal and trap are absorbing with reward 0.

    Returns
    -------
    P : ndarray (4, S, S)
    R : ndarray (4, S, S)
        Transition rewards.
    terminal : ndarray of int
        The goal and trap states.

    Raises
    ------
    ValueError
        If ``n < 2``, a cell lies off the grid, goal equals trap, or slip is outside [0, 1].
    """
    n = check.count(n, "n", low=2)
    slip, step_reward = check.number_between(slip, "slip", 0, 1), check.number(step_reward, "step_reward")
    cells = {}
    for name, cell in (("goal", goal), ("trap", trap)):
        row, col = check.index_array(cell, 2, n, f"{name} (a cell (row, col) of the {n}x{n} grid)")
        cells[name] = n * int(row) + int(col)
    if cells["goal"] == cells["trap"]:
        raise ValueError("goal and trap must be different cells")
    S = n * n
    rc = np.stack(np.divmod(np.arange(S), n), axis=1)                     # (S, 2)
    dest = np.clip(rc[None] + GRID_MOVES[:, None], 0, n - 1) @ [n, 1]     # (4, S)
    P = np.zeros((4, S, S))
    for a in range(4):
        for d, p in ((a, 1 - slip), ((a + 1) % 4, slip / 2), ((a + 3) % 4, slip / 2)):
            np.add.at(P[a], (np.arange(S), dest[d]), p)
    terminal = np.array([cells["goal"], cells["trap"]])
    P[:, terminal] = 0.0
    P[:, terminal, terminal] = 1.0
    R = np.full((4, S, S), step_reward)
    R[:, :, cells["goal"]], R[:, :, cells["trap"]] = 1.0, -1.0
    R[:, terminal] = 0.0
    return P, R, terminal
