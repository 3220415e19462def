import numpy as np

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((6, 2))
_Y = _rng.standard_normal((4, 2))
_y = _rng.standard_normal(6)
_K = np.exp(-((_X[:, None, :] - _X[None, :, :]) ** 2).sum(axis=2))   # an RBF Gram matrix
_x = np.linspace(0.0, 1.0, 12)
_XY = {"X": "array", "Y": "array?"}

SPECS = {
    "ridge": (lambda: dict(X=_X, y=_y, lam=0.5), {"X": "array", "y": "array", "lam": "positive"}),
    "ridge_dual": (lambda: dict(X=_X, y=_y, lam=0.5), {"X": "array", "y": "array", "lam": "positive"}),
    "ridge_path": (lambda: dict(X=_X, y=_y, lams=np.array([0.1, 1.0])),
                   {"X": "array", "y": "array", "lams": "array"}),
    "linear_kernel": (lambda: dict(X=_X, Y=_Y), _XY),
    "polynomial_kernel": (lambda: dict(X=_X, Y=_Y, degree=2, gamma=0.5, coef0=1.0),
                          {**_XY, "degree": "count", "gamma": "positive?", "coef0": "nonnegative"}),
    "rbf_kernel": (lambda: dict(X=_X, Y=_Y, gamma=0.5), {**_XY, "gamma": "positive?"}),
    "sigmoid_kernel": (lambda: dict(X=_X, Y=_Y, gamma=0.5, coef0=-0.5),
                       {**_XY, "gamma": "positive?", "coef0": "number"}),
    "is_psd": (lambda: dict(K=_K, tol=1e-10), {"K": "array", "tol": "nonnegative?"}),
    "quadratic_feature_map": (lambda: dict(X=_X, c=1.0), {"X": "array", "c": "nonnegative"}),
    # degree=0 is valid here, so the harness's False (a bool as a count) is rejected as a bool
    "exponential_feature_map": (lambda: dict(X=_X, a=0.5, degree=3),
                                {"X": "array", "a": "positive", "degree": "count"}),
    "rbf_feature_map": (lambda: dict(X=_X, gamma=0.5, degree=3),
                        {"X": "array", "gamma": "positive", "degree": "count"}),
    "kernel_ridge": (lambda: dict(K=_K, y=_y, lam=0.5), {"K": "array", "y": "array", "lam": "positive"}),
    "kernel_ridge_predict": (lambda: dict(K_new=_K[:3], alpha=_y), {"K_new": "array", "alpha": "array"}),
    "spline_basis": (lambda: dict(x=_x, knots=np.array([0.3, 0.6]), degree=3),
                     {"x": "array", "knots": "array", "degree": "count"}),
    "spline_fit": (lambda: dict(x=_x, y=np.sin(3 * _x), knots=np.array([0.3, 0.6]), degree=3, lam=0.1),
                   {"x": "array", "y": "array", "knots": "array", "degree": "count", "lam": "nonnegative"}),
}
EXEMPT = {}
