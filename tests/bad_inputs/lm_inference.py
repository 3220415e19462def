import numpy as np

from mlnotes import lm_inference as lm

_rng = np.random.default_rng(0)
_X = np.column_stack([np.ones(20), _rng.standard_normal((20, 2))])
_y = _X @ np.array([0.5, 1.0, -2.0]) + 0.3 * _rng.standard_normal(20)
_w = _rng.uniform(0.5, 2.0, 20)
_fit = lambda: lm.ols_fit(_X, _y)  # noqa: E731
_F = {"fit": "object", "alpha": "probability"}

SPECS = {
    "ols_fit": (lambda: dict(X=_X, y=_y), {"X": "array", "y": "rows"}),
    "hat_matrix": (lambda: dict(X=_X), {"X": "array"}),
    "ci_beta": (lambda: dict(fit=_fit(), alpha=0.05), _F),
    "ci_linear_combination": (lambda: dict(fit=_fit(), c=np.array([0.0, 1.0, 1.0]), alpha=0.05),
                              {**_F, "c": "rows"}),
    "prediction_interval": (lambda: dict(fit=_fit(), x0=_X[:3], alpha=0.05), {**_F, "x0": "array"}),
    "confidence_band": (lambda: dict(fit=_fit(), x0=_X[:3], alpha=0.05, simultaneous=True),
                        {**_F, "x0": "array", "simultaneous": "bool"}),
    "f_test_nested": (lambda: dict(X_small=_X[:, :1], X_big=_X, y=_y),
                      {"X_small": "rows", "X_big": "array", "y": "rows"}),
    "general_linear_hypothesis": (lambda: dict(fit=_fit(), R=np.eye(3)[1:], r=np.zeros(2)),
                                  {"fit": "object", "R": "array", "r": "rows?"}),
    "wls": (lambda: dict(X=_X, y=_y, w=_w), {"X": "array", "y": "rows", "w": "rows"}),
    "r_squared": (lambda: dict(fit=_fit(), y=_y), {"fit": "object", "y": "rows"}),
    "anova_regression_table": (lambda: dict(X=_X, y=_y), {"X": "array", "y": "rows"}),
    "pairs_bootstrap_se": (lambda: dict(X=_X, y=_y, B=50, rng=np.random.default_rng(1)),
                           {"X": "array", "y": "rows", "B": "count", "rng": "rng"}),
}
EXEMPT = {}
CASES = {
    "a rank-deficient design": (
        "ols_fit", lambda: dict(X=np.column_stack([_X, _X[:, 1] + _X[:, 2]]), y=_y), "X"),
    "no more rows than columns": ("ols_fit", lambda: dict(X=_X[:3], y=_y[:3]), "X"),
    "models that are not nested": (
        "f_test_nested", lambda: dict(X_small=np.column_stack([_X[:, 0], _X[:, 1] ** 2]), X_big=_X, y=_y),
        "X_small"),
    "X_small with one row too few": ("f_test_nested", lambda: dict(X_small=_X[:-1, :1], X_big=_X, y=_y),
                                     "X_small"),
    "restrictions that are not of full row rank": (
        "general_linear_hypothesis", lambda: dict(fit=_fit(), R=np.ones((2, 3))), "R"),
    "a zero weight": ("wls", lambda: dict(X=_X, y=_y, w=np.r_[0.0, _w[1:]]), "w"),
    "a design without intercept in the ANOVA table": (
        "anova_regression_table", lambda: dict(X=_X[:, 1:], y=_y), "X"),
    "x0 with a column too few": ("prediction_interval", lambda: dict(fit=_fit(), x0=_X[:3, :2]), "x0"),
}
