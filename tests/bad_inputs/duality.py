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
_CAb = {"c": "rows", "A": "array", "b": "rows"}
_Ab = {"A": "array", "b": "rows"}

SPECS = {
    "lp_dual": (lambda: dict(c=_c.copy(), A=_A.copy(), b=_b.copy()), _CAb),
    "lp_dual_function": (lambda: dict(c=_c.copy(), A=_A.copy(), b=_b.copy(), nu=np.zeros((3, 2))),
                         {"c": "rows", "A": "array", "b": "rows", "nu": "array"}),
    "lagrange_multipliers_from_linprog": (lambda: dict(res=_res()), {"res": "object"}),
    "least_norm_dual": (lambda: dict(A=_A.copy(), b=_b.copy()), _Ab),
    "dual_norm_lemma": (lambda: dict(y=np.array([0.3, -0.2]), ord=1), {"y": "array", "ord": "choice"}),
    "norm_min_dual": (lambda: dict(A=_A.copy(), b=_b.copy(), ord=1), {"A": "array", "b": "rows", "ord": "choice"}),
    "two_way_partition_bound": (lambda: dict(W=_W.copy()), {"W": "array"}),
    "two_way_partition_brute": (lambda: dict(W=_W.copy()), {"W": "array"}),
    "entropy_max_dual": (lambda: dict(A=_A.copy(), b=_A @ np.full(4, 0.25) + 0.1), _Ab),
    "qp_dual": (lambda: dict(P=np.eye(4), A=_A.copy(), b=_b.copy()), {"P": "psd", "A": "array", "b": "rows"}),
    "trust_region_global": (lambda: dict(A=_T.copy(), b=_bt.copy()), _Ab),
    "trust_region_dual_function": (lambda: dict(A=_T.copy(), b=_bt.copy(), lam=np.array([1.5, 2.0])),
                                   {"A": "array", "b": "rows", "lam": "array"}),
    "trust_region_dual": (lambda: dict(A=_T.copy(), b=_bt.copy()), _Ab),
    "norm_approx_dual": (lambda: dict(A=_N.copy(), b=np.arange(6.0), ord=np.inf),
                         {"A": "array", "b": "rows", "ord": "choice"}),
    "box_lp_dual": (lambda: dict(c=_c.copy(), A=_A.copy(), b=0.5 * _b), _CAb),
    "sdp_dual_function": (lambda: dict(c=np.array([-1.0, 0.5]), F=np.array([np.eye(2), np.diag([1.0, -1.0])]),
                                       G=np.eye(2), Z=np.diag([0.25, 0.75])),
                          {"c": "array", "F": "array", "G": "array", "Z": "array"}),
    "lambda_max_sdp_dual": (lambda: dict(A=_W.copy()), {"A": "array"}),
}

CASES = {
    "nu with the wrong number of columns": (
        "lp_dual_function", lambda: dict(c=_c.copy(), A=_A.copy(), b=_b.copy(), nu=np.zeros((3, 3))), "nu"),
    "an infeasible QP (x_1 <= -1, -x_1 <= 0): the dual is unbounded": (
        "qp_dual", lambda: dict(P=np.eye(2), A=np.array([[1.0, 0.0], [-1.0, 0.0]]), b=np.array([-1.0, 0.0])), "b"),
    "b not in the range of A (inconsistent equations)": (
        "least_norm_dual", lambda: dict(A=np.array([[1.0, 0.0], [1.0, 0.0]]), b=np.array([1.0, 2.0])), "b"),
    "Z of another size than the F_i": (
        "sdp_dual_function", lambda: dict(c=np.array([-1.0, 0.5]), F=np.array([np.eye(2), np.diag([1.0, -1.0])]),
                                          G=np.eye(2), Z=np.eye(3)), "Z"),
    "a negative multiplier lam": (
        "trust_region_dual_function", lambda: dict(A=_T.copy(), b=_bt.copy(), lam=np.array([-0.5])), "lam"),
    "W too large to enumerate": ("two_way_partition_brute", lambda: dict(W=np.eye(17)), "W"),
    "no probability vector satisfies A x <= b": (
        "entropy_max_dual", lambda: dict(A=np.array([[1.0, 0.0], [-1.0, 0.0]]), b=np.array([-0.5, -0.5])), "A"),
    "an asymmetric F_i": (
        "sdp_dual_function", lambda: dict(c=np.ones(1), F=np.array([[[1.0, 2.0], [0.0, 1.0]]]), G=np.eye(2),
                                          Z=np.eye(2)), "F"),
}
