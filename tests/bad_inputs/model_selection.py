import numpy as np

from mlnotes import model_selection as ms

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((12, 3))
_Y = 0.5 + _X @ np.array([1.0, -1.0, 0.0]) + 0.1 * _rng.standard_normal(12)
_XB = _rng.integers(0, 2, (12, 3)).astype(float)
_YB = _rng.integers(0, 2, 12)


def _folds():
    return ms.kfold_indices(12, 3)


def _X_y():
    return dict(X=_X.copy(), y=_Y.copy())


_KIND_XY = {"X": "array", "y": "array"}
SPECS = {
    "polynomial_features": (lambda: dict(x=np.linspace(0, 1, 5), degree=2, low=0.0, high=1.0),
                            {"x": "array", "degree": "count", "low": "number", "high": "number"}),
    "bias_variance": (lambda: dict(f=np.sin, x_test=np.linspace(0.1, 0.9, 4), degree=1, n_train=5, sigma=0.3,
                                   n_sets=10, rng=np.random.default_rng(0), low=0.0, high=1.0),
                      {"f": "callable", "x_test": "array", "degree": "count", "n_train": "count",
                       "sigma": "nonnegative", "n_sets": "count", "rng": "rng", "low": "number",
                       "high": "number"}),
    "holdout_indices": (lambda: dict(n=10, test_fraction=0.3, rng=np.random.default_rng(0)),
                        {"n": "count", "test_fraction": "probability", "rng": "rng"}),
    "kfold_indices": (lambda: dict(n=10, k=3, shuffle=True, rng=np.random.default_rng(0)),
                      {"n": "count", "k": "count", "shuffle": "bool", "rng": "rng"}),
    "least_squares_fit": (_X_y, _KIND_XY),
    "cross_validate": (lambda: dict(**_X_y(), folds=_folds(), fit=ms.least_squares_fit),
                       {**_KIND_XY, "folds": "object", "fit": "callable"}),
    "loocv_linear": (lambda: dict(**_X_y(), lam=0.5), {**_KIND_XY, "lam": "nonnegative"}),
    "forward_selection": (lambda: dict(**_X_y(), k=2, folds=_folds()),
                          {**_KIND_XY, "k": "count", "folds": "object"}),
    "backward_selection": (lambda: dict(**_X_y(), k=1, folds=_folds()),
                           {**_KIND_XY, "k": "count", "folds": "object"}),
    "mi_scores": (lambda: dict(X=_XB.copy(), y=_YB.copy()), _KIND_XY),
    "mi_filter": (lambda: dict(X=_XB.copy(), y=_YB.copy(), k=2), {**_KIND_XY, "k": "count"}),
    "finite_class_bound": (lambda: dict(m=100, k=10, delta=0.05),
                           {"m": "count", "k": "count", "delta": "probability"}),
}
EXEMPT = {}
