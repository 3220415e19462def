import numpy as np

from mlnotes import regression_diagnostics as rd

_rng = np.random.default_rng(0)
_X = np.column_stack([np.ones(25), _rng.standard_normal((25, 2))])
_y = _X @ np.array([1.0, 2.0, -1.0]) + _rng.standard_normal(25)
_u = np.array([-6.0, -1.0, 0.0, 0.5, 2.0])
_XY = {"X": "array", "y": "rows"}
_CRIT = {"rss": "array", "n": "count", "p": "count"}

SPECS = {
    "leverage": (lambda: dict(X=_X), {"X": "array"}),
    "studentized_residuals": (lambda: dict(X=_X, y=_y, kind="external"),
                              {**_XY, "kind": "choice"}),
    "cooks_distance": (lambda: dict(X=_X, y=_y), _XY),
    "mahalanobis_leverage_identity": (lambda: dict(X=_X), {"X": "array"}),
    "vif": (lambda: dict(X=_X), {"X": "array"}),
    "huber_weights": (lambda: dict(u=_u, c=1.345), {"u": "array", "c": "positive"}),
    "bisquare_weights": (lambda: dict(u=_u, c=4.685), {"u": "array", "c": "positive"}),
    "irls_m_estimator": (lambda: dict(X=_X, y=_y, weights=rd.huber_weights, c=1.345, max_iter=50, tol=1e-8),
                         {**_XY, "weights": "callable", "c": "positive", "max_iter": "count",
                          "tol": "positive"}),
    "efficiency_at_normal": (lambda: dict(psi=lambda u: np.clip(u, -1, 1),
                                          dpsi=lambda u: (np.abs(u) <= 1).astype(float),
                                          half_width=10.0, n_grid=2001),
                             {"psi": "callable", "dpsi": "callable", "half_width": "positive",
                              "n_grid": "count"}),
    "lad_regression": (lambda: dict(X=_X, y=_y), _XY),
    "aic_gaussian": (lambda: dict(rss=20.0, n=25, p=3), _CRIT),
    "bic_gaussian": (lambda: dict(rss=20.0, n=25, p=3), _CRIT),
    "mallows_cp": (lambda: dict(rss=20.0, n=25, p=3, sigma2=0.9), {**_CRIT, "sigma2": "positive"}),
    "best_subset": (lambda: dict(X=_X, y=_y, criterion="bic"), {**_XY, "criterion": "choice"}),
    "backward_elimination": (lambda: dict(X=_X, y=_y, alpha=0.05), {**_XY, "alpha": "probability"}),
}
EXEMPT = {}
CASES = {
    "negative robustness weights": (
        "irls_m_estimator", lambda: dict(X=_X, y=_y, weights=lambda u, c: -np.ones_like(u), c=1.0), "weights"),
}
