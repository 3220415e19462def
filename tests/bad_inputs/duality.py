import numpy as np
import scipy.optimize

from mlnotes import duality

_rng = np.random.default_rng(0)
_A = _rng.standard_normal((2, 4))
_b = _A @ np.full(4, 0.5)
_c = np.ones(4)
_W = np.array([[0.0, 1.0, -0.5], [1.0, 0.0, 0.3], [-0.5, 0.3, 0.0]])
_T = np.array([[-1.0, 0.2], [0.2, 0.5]])
_bt = np.array([0.3, -0.2])
_N = _rng.standard_normal((6, 2))
_res = lambda: scipy.optimize.linprog(_c, A_eq=_A, b_eq=_b, method="highs")  # noqa: E731
_CAb = {"c": "array", "A": "array", "b": "array"}
_Ab = {"A": "array", "b": "array"}

SPECS = {
    "lp_dual": (lambda: dict(c=_c.copy(), A=_A.copy(), b=_b.copy()), _CAb),
    "lp_dual_function": (lambda: dict(c=_c.copy(), A=_A.copy(), b=_b.copy(), nu=np.zeros((3, 2))),
                         {"c": "array", "A": "array", "b": "array", "nu": "array"}),
    "lagrange_multipliers_from_linprog": (lambda: dict(res=_res()), {"res": "object"}),
    "least_norm_dual": (lambda: dict(A=_A.copy(), b=_b.copy()), _Ab),
    "dual_norm": (lambda: dict(y=np.array([0.3, -2.0]), ord=2), {"y": "array", "ord": "choice"}),
    "dual_norm_lemma": (lambda: dict(y=np.array([0.3, -0.2]), ord=1), {"y": "array", "ord": "choice"}),
    "norm_min_dual": (lambda: dict(A=_A.copy(), b=_b.copy(), ord=1), {"A": "array", "b": "array", "ord": "choice"}),
    "two_way_partition_bound": (lambda: dict(W=_W.copy()), {"W": "array"}),
    "two_way_partition_brute": (lambda: dict(W=_W.copy()), {"W": "array"}),
    "entropy_max_dual": (lambda: dict(A=_A.copy(), b=_A @ np.full(4, 0.25) + 0.1), _Ab),
    "qp_dual": (lambda: dict(P=np.eye(4), A=_A.copy(), b=_b.copy()), {"P": "array", "A": "array", "b": "array"}),
    "trust_region_global": (lambda: dict(A=_T.copy(), b=_bt.copy()), _Ab),
    "trust_region_dual_function": (lambda: dict(A=_T.copy(), b=_bt.copy(), lam=np.array([1.5, 2.0])),
                                   {"A": "array", "b": "array", "lam": "array"}),
    "trust_region_dual": (lambda: dict(A=_T.copy(), b=_bt.copy()), _Ab),
    "norm_approx_dual": (lambda: dict(A=_N.copy(), b=np.arange(6.0), ord=np.inf),
                         {"A": "array", "b": "array", "ord": "choice"}),
    "box_lp_dual": (lambda: dict(c=_c.copy(), A=_A.copy(), b=0.5 * _b), _CAb),
    "sdp_dual_function": (lambda: dict(c=np.array([-1.0, 0.5]), F=np.array([np.eye(2), np.diag([1.0, -1.0])]),
                                       G=np.eye(2), Z=np.diag([0.25, 0.75])),
                          {"c": "array", "F": "array", "G": "array", "Z": "array"}),
    "lambda_max_sdp_dual": (lambda: dict(A=_W.copy()), {"A": "array"}),
}
