import numpy as np

from mlnotes import mdp

_P, _R = mdp.random_mdp(4, 2, np.random.default_rng(0))                     # P (2, 4, 4), R (2, 4)
_R3 = np.random.default_rng(1).standard_normal((2, 4, 4))                    # transition rewards
_PI = np.array([0, 1, 1, 0])                                                 # deterministic policy
_PI_STO = np.random.default_rng(2).dirichlet(np.ones(2), size=4)             # stochastic policy (4, 2)
_V = np.linspace(-1.0, 1.0, 4)

_MDP = {"P": "probabilities", "R": "array", "gamma": "probability"}  # gamma in [0, 1)

SPECS = {
    "validate_mdp": (lambda: dict(P=_P, R=_R3, gamma=0.9), _MDP),
    "expected_reward": (lambda: dict(P=_P, R=_R3), {"P": "probabilities", "R": "array"}),
    "policy_model": (lambda: dict(P=_P, r=_R, policy=_PI),
                     {"P": "probabilities", "r": "array", "policy": "array"}),
    "policy_evaluation": (lambda: dict(P=_P, R=_R, gamma=0.9, policy=_PI_STO, method="iterate", tol=1e-8,
                                       max_iter=10_000),
                          _MDP | {"policy": "probabilities", "method": "choice", "tol": "positive",
                                  "max_iter": "count"}),
    "q_values": (lambda: dict(P=_P, r=_R, gamma=0.9, v=_V),
                 {"P": "probabilities", "r": "array", "gamma": "probability", "v": "array"}),
    "bellman_operator": (lambda: dict(P=_P, R=_R, gamma=0.9, v=np.stack([_V, 2 * _V])),
                         _MDP | {"v": "array"}),
    "greedy_policy": (lambda: dict(P=_P, R=_R, gamma=0.9, v=_V), _MDP | {"v": "array"}),
    "value_iteration": (lambda: dict(P=_P, R=_R, gamma=0.9, epsilon=1e-6, v0=_V, max_iter=10_000),
                        _MDP | {"epsilon": "positive", "v0": "array?", "max_iter": "count"}),
    "policy_iteration": (lambda: dict(P=_P, R=_R3, gamma=0.9, policy0=_PI, max_iter=100),
                         _MDP | {"policy0": "array?", "max_iter": "count"}),
    "all_policies": (lambda: dict(A=2, S=3), {"A": "count", "S": "count"}),
    "brute_force": (lambda: dict(P=_P, R=_R, gamma=0.5), _MDP),
    "random_mdp": (lambda: dict(S=3, A=2, rng=np.random.default_rng(0), reward_shape="ASS"),
                   {"S": "count", "A": "count", "rng": "rng", "reward_shape": "choice"}),
    "gridworld": (lambda: dict(n=4, goal=(0, 3), trap=(1, 3), slip=0.2, step_reward=-0.04),
                  {"n": "count", "goal": "array", "trap": "array", "slip": "probability",
                   "step_reward": "number"}),
}
EXEMPT = {}
