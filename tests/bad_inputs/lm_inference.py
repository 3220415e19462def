import numpy as np

from mlnotes import lm_inference as lm

_rng = np.random.default_rng(0)
_X = np.column_stack([np.ones(20), _rng.standard_normal((20, 2))])
_y = _X @ np.array([0.5, 1.0, -2.0]) + 0.3 * _rng.standard_normal(20)
_w = _rng.uniform(0.5, 2.0, 20)
_fit = lambda: lm.ols_fit(_X, _y)  # noqa: E731
_F = {"fit": "object", "alpha": "probability"}

SPECS = {
    "ols_fit": (lambda: dict(X=_X, y=_y), {"X": "array", "y": "array"}),
    "hat_matrix": (lambda: dict(X=_X), {"X": "array"}),
    "ci_beta": (lambda: dict(fit=_fit(), alpha=0.05), _F),
    "ci_linear_combination": (lambda: dict(fit=_fit(), c=np.array([0.0, 1.0, 1.0]), alpha=0.05),
                              {**_F, "c": "array"}),
    "prediction_interval": (lambda: dict(fit=_fit(), x0=_X[:3], alpha=0.05), {**_F, "x0": "array"}),
    "confidence_band": (lambda: dict(fit=_fit(), x0=_X[:3], alpha=0.05, simultaneous=True),
                        {**_F, "x0": "array", "simultaneous": "bool"}),
    "f_test_nested": (lambda: dict(X_small=_X[:, :1], X_big=_X, y=_y),
                      {"X_small": "array", "X_big": "array", "y": "array"}),
    "general_linear_hypothesis": (lambda: dict(fit=_fit(), R=np.eye(3)[1:], r=np.zeros(2)),
                                  {"fit": "object", "R": "array", "r": "array?"}),
    "wls": (lambda: dict(X=_X, y=_y, w=_w), {"X": "array", "y": "array", "w": "array"}),
    "r_squared": (lambda: dict(fit=_fit(), y=_y), {"fit": "object", "y": "array"}),
    "anova_regression_table": (lambda: dict(X=_X, y=_y), {"X": "array", "y": "array"}),
    "pairs_bootstrap_se": (lambda: dict(X=_X, y=_y, B=50, rng=np.random.default_rng(1)),
                           {"X": "array", "y": "array", "B": "count", "rng": "rng"}),
}
EXEMPT = {}
