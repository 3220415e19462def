import numpy as np

from mlnotes import conic

_A = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
_b = np.array([1.0, 1.0, 1.0])
_c = np.array([1.0, 2.0])
_P = np.tile(0.1 * np.eye(2), (3, 1, 1))
_S = np.tile(0.01 * np.eye(2), (3, 1, 1))
_box = (np.ones(1), -np.ones((1, 2)))
_cons = [(np.array([0.5, 0.5]), np.eye(2))]
_As = np.array([[[1.0, 0.0], [0.0, -1.0]]])
_Sig = np.array([[0.04, 0.01], [0.01, 0.09]])

SPECS = {
    "solve_lp": (lambda: dict(c=_c.copy(), A_ub=_A.copy(), b_ub=_b.copy(), A_eq=np.ones((1, 2)), b_eq=np.zeros(1)),
                 {"c": "array", "A_ub": "array?", "b_ub": "array?", "A_eq": "array?", "b_eq": "array?"}),
    "solve_qp": (lambda: dict(P=np.eye(2), q=_c.copy(), G=_A.copy(), h=_b.copy(), A=np.ones((1, 2)),
                              b=np.zeros(1), x0=np.zeros(2)),
                 {"P": "array", "q": "array", "G": "array?", "h": "array?", "A": "array?", "b": "array?",
                  "x0": "array?"}),
    "chebyshev_center": (lambda: dict(A=_A.copy(), b=_b.copy()), {"A": "array", "b": "array"}),
    "piecewise_linear_min": (lambda: dict(A=_A.copy(), b=_b.copy()), {"A": "array", "b": "array"}),
    "linear_fractional_lp": (lambda: dict(c=_c.copy(), d=0.1, e=np.array([0.1, 0.1]), f=2.0, G=_A.copy(),
                                          h=_b.copy(), A=None, b=None),
                             {"c": "array", "d": "number", "e": "array", "f": "number", "G": "array",
                              "h": "array"}),
    "bisection": (lambda: dict(feasible=lambda t: t >= 0.3, lo=0.0, hi=1.0, tol=1e-3),
                  {"feasible": "callable", "lo": "number", "hi": "number", "tol": "positive"}),
    "robust_lp_ellipsoid": (lambda: dict(c=_c.copy(), a_bar=_A.copy(), P=_P.copy(), b=_b.copy(), x0=None),
                            {"c": "array", "a_bar": "array", "P": "array", "b": "array", "x0": "array?"}),
    "chance_constrained_lp": (lambda: dict(c=_c.copy(), a_bar=_A.copy(), Sigma=_S.copy(), b=_b.copy(), eta=0.9),
                              {"c": "array", "a_bar": "array", "Sigma": "array", "b": "array",
                               "eta": "probability"}),
    "posynomial": (lambda: dict(c=np.array([1.0, 2.0]), A=np.eye(2), x=np.array([1.0, 2.0])),
                   {"c": "array", "A": "array", "x": "array"}),
    "solve_gp_log": (lambda: dict(objective=_box, constraints=list(_cons), y0=np.zeros(2)),
                     {"objective": "object", "constraints": "object", "y0": "array"}),
    "perron_frobenius": (lambda: dict(A=np.array([[1.0, 2.0], [3.0, 4.0]]), tol=1e-10, max_iter=1000),
                         {"A": "array", "tol": "positive", "max_iter": "count"}),
    "min_lambda_max": (lambda: dict(A0=np.diag([1.0, 2.0]), As=_As.copy(), x0=None),
                       {"A0": "array", "As": "array", "x0": "array?"}),
    "schur_block": (lambda: dict(A=_A.copy(), t=2.0), {"A": "array", "t": "number"}),
    "schur_psd": (lambda: dict(A=_A.copy(), t=2.0, tol=1e-10), {"A": "array", "t": "number", "tol": "nonnegative"}),
    "mean_variance_frontier": (lambda: dict(mu=np.array([0.1, 0.2]), Sigma=_Sig.copy(), gammas=np.array([1.0, 10.0])),
                               {"mu": "array", "Sigma": "array", "gammas": "array"}),
}
