import numpy as np

_P = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
_Q = _P + 3.0

SPECS = {
    "convex_combination": (lambda: dict(points=_P.copy(), weights=np.full(4, 0.25)),
                           {"points": "array", "weights": "probabilities"}),
    "in_convex_hull": (lambda: dict(points=_P.copy(), x=np.array([0.5, 0.5])),
                       {"points": "array", "x": "array"}),
    "convex_hull_2d": (lambda: dict(points=_P.copy()), {"points": "array"}),
    "polygon_halfspaces": (lambda: dict(vertices=_P[[0, 1, 3, 2]].copy()), {"vertices": "array"}),
    "in_ellipsoid": (lambda: dict(x=np.array([0.1, 0.2]), xc=np.zeros(2), P=np.eye(2)),
                     {"x": "array", "xc": "array", "P": "psd"}),
    "in_norm_cone": (lambda: dict(x=np.array([0.3, 0.4]), t=1.0, ord=2),
                     {"x": "array", "t": "array"}),
    "dual_norm": (lambda: dict(y=np.array([0.3, -0.4]), ord=1), {"y": "array"}),
    "perspective_image": (lambda: dict(points=np.array([[1.0, 2.0, 1.0]])), {"points": "array"}),
    "linear_fractional": (lambda: dict(A=np.eye(2), b=np.zeros(2), c=np.array([0.1, 0.1]), d=1.0,
                                       x=np.array([0.5, 0.5])),
                          {"A": "array", "b": "rows", "c": "rows", "d": "number", "x": "array"}),
    "separating_hyperplane": (lambda: dict(C_points=_P.copy(), D_points=_Q.copy(), tol=1e-9),
                              {"C_points": "array", "D_points": "array", "tol": "positive"}),
    "supporting_hyperplane_ball": (lambda: dict(center=np.zeros(2), radius=1.0, x0=np.array([0.6, 0.8])),
                                   {"center": "array", "radius": "positive", "x0": "rows"}),
    "in_dual_cone": (lambda: dict(y=np.array([1.0, 1.0]), generators=np.eye(2)),
                     {"y": "array", "generators": "array"}),
    "pareto_minimal": (lambda: dict(points=_P.copy()), {"points": "array"}),
    "minimum_element": (lambda: dict(points=_P.copy()), {"points": "array"}),
    "scalarise": (lambda: dict(points=_P.copy(), lam=np.array([1.0, 2.0])),
                  {"points": "array", "lam": "rows"}),
}

CASES = {
    "weights of another length than points": (
        "convex_combination", lambda: dict(points=_P.copy(), weights=np.full(5, 0.2)), "weights"),
    "a query point of another dimension": ("in_convex_hull", lambda: dict(points=_P.copy(), x=np.zeros(3)), "x"),
    "t of another length than the stack of x": (
        "in_norm_cone", lambda: dict(x=np.ones((3, 2)), t=np.ones(2), ord=2), "t"),
    "a singular P (the notes' semi-definite ellipsoid)": (
        "in_ellipsoid", lambda: dict(x=np.zeros(2), xc=np.zeros(2), P=np.diag([1.0, 0.0])), "P"),
    "x0 off the sphere": (
        "supporting_hyperplane_ball", lambda: dict(center=np.zeros(2), radius=1.0, x0=np.array([0.5, 0.5])), "x0"),
    "a point outside the domain c^T x + d > 0": (
        "linear_fractional", lambda: dict(A=np.eye(2), b=np.zeros(2), c=np.array([1.0, 0.0]), d=1.0,
                                          x=np.array([-2.0, 0.0])), "x"),
    "lam = 0 (every point minimises)": ("scalarise", lambda: dict(points=_P.copy(), lam=np.zeros(2)), "lam"),
    "vertices in clockwise order": (
        "polygon_halfspaces", lambda: dict(vertices=_P[[0, 2, 3, 1]].copy()), "vertices"),
}
