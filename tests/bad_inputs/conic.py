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
                 {"c": "array", "A_ub": "array?", "b_ub": "rows?", "A_eq": "array?", "b_eq": "rows?"}),
    "solve_qp": (lambda: dict(P=np.eye(2), q=_c.copy(), G=_A.copy(), h=_b.copy(), A=np.ones((1, 2)),
                              b=np.zeros(1), x0=np.zeros(2)),
                 {"P": "psd", "q": "rows", "G": "array?", "h": "rows?", "A": "array?", "b": "rows?",
                  "x0": "rows?"}),
    "chebyshev_center": (lambda: dict(A=_A.copy(), b=_b.copy()), {"A": "array", "b": "rows"}),
    "piecewise_linear_min": (lambda: dict(A=_A.copy(), b=_b.copy()), {"A": "array", "b": "rows"}),
    "linear_fractional_lp": (lambda: dict(c=_c.copy(), d=0.1, e=np.array([0.1, 0.1]), f=2.0, G=_A.copy(),
                                          h=_b.copy(), A=None, b=None),
                             {"c": "array", "d": "number", "e": "rows", "f": "number", "G": "array",
                              "h": "rows"}),
    "bisection": (lambda: dict(feasible=lambda t: t >= 0.3, lo=0.0, hi=1.0, tol=1e-3),
                  {"feasible": "callable", "lo": "number", "hi": "number", "tol": "positive"}),
    "robust_lp_ellipsoid": (lambda: dict(c=_c.copy(), a_bar=_A.copy(), P=_P.copy(), b=_b.copy(), x0=None),
                            {"c": "array", "a_bar": "array", "P": "array", "b": "rows", "x0": "rows?"}),
    "chance_constrained_lp": (lambda: dict(c=_c.copy(), a_bar=_A.copy(), Sigma=_S.copy(), b=_b.copy(), eta=0.9),
                              {"c": "array", "a_bar": "array", "Sigma": "array", "b": "rows",
                               "eta": "probability"}),
    "posynomial": (lambda: dict(c=np.array([1.0, 2.0]), A=np.eye(2), x=np.array([1.0, 2.0])),
                   {"c": "array", "A": "array", "x": "array"}),
    "solve_gp_log": (lambda: dict(objective=_box, constraints=list(_cons), y0=np.zeros(2)),
                     {"objective": "object", "constraints": "object", "y0": "array"}),
    "perron_frobenius": (lambda: dict(A=np.array([[1.0, 2.0], [3.0, 4.0]]), tol=1e-10, max_iter=1000),
                         {"A": "array", "tol": "positive", "max_iter": "count"}),
    "min_lambda_max": (lambda: dict(A0=np.diag([1.0, 2.0]), As=_As.copy(), x0=None),
                       {"A0": "array", "As": "array", "x0": "rows?"}),
    "schur_block": (lambda: dict(A=_A.copy(), t=2.0), {"A": "array", "t": "number"}),
    "schur_psd": (lambda: dict(A=_A.copy(), t=2.0, tol=1e-10), {"A": "array", "t": "number", "tol": "nonnegative"}),
    "mean_variance_frontier": (lambda: dict(mu=np.array([0.1, 0.2]), Sigma=_Sig.copy(), gammas=np.array([1.0, 10.0])),
                               {"mu": "array", "Sigma": "psd", "gammas": "array"}),
}

CASES = {
    "an infeasible QP: x_1 <= -1 and -x_1 <= 0": (
        "solve_qp", lambda: dict(P=np.eye(2), q=np.ones(2), G=np.array([[1.0, 0.0], [-1.0, 0.0]]),
                                 h=np.array([-1.0, 0.0])), "h"),
    "an unbounded QP: P singular and q a descent direction in its null space": (
        "solve_qp", lambda: dict(P=np.diag([1.0, 0.0]), q=np.array([0.0, -1.0])), "q"),
    "a bisection tolerance below the float spacing at lo = 1e6": (
        "bisection", lambda: dict(feasible=lambda t: t >= 1e6 + 0.3, lo=1e6, hi=1e6 + 1.0, tol=1e-12), "tol"),
    "power iteration stopped by max_iter before the bracket closes": (
        "perron_frobenius", lambda: dict(A=np.array([[1.0, 1e-3], [1e-3, 1.0001]]), tol=1e-12, max_iter=5),
        "max_iter"),
    "an empty polyhedron for the Chebyshev centre": (
        "chebyshev_center", lambda: dict(A=np.array([[1.0, 0.0], [-1.0, 0.0]]), b=np.array([-1.0, 0.0])), "A"),
    "Sigma stack with one indefinite matrix": (
        "chance_constrained_lp", lambda: dict(c=_c.copy(), a_bar=_A.copy(), Sigma=np.array([_S[0], -_S[1], _S[2]]),
                                              b=_b.copy(), eta=0.9), "Sigma"),
}
