import numpy as np

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((12, 3))
_Y = _X @ np.array([1.0, -2.0, 0.0]) + 0.1 * _rng.standard_normal(12)
_X0 = _rng.standard_normal((4, 3))


def _X_y():
    return dict(X=_X.copy(), y=_Y.copy())


def _rbf(A, B):
    return np.exp(-0.5 * ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=-1))


_KIND_XY = {"X": "array", "y": "array"}
SPECS = {
    "soft_threshold": (lambda: dict(z=np.array([-2.0, 0.5, 3.0]), t=1.0), {"z": "array", "t": "array"}),
    "lasso_cd": (lambda: dict(**_X_y(), lam=0.5, beta0=None, tol=1e-8, max_sweeps=100),
                 {**_KIND_XY, "lam": "nonnegative", "beta0": "array?", "tol": "positive",
                  "max_sweeps": "count"}),
    "lasso_path": (lambda: dict(**_X_y(), lams=None, n_lams=5, eps=1e-2, warm_start=True, tol=1e-8,
                                max_sweeps=100),
                   {**_KIND_XY, "lams": "array?", "n_lams": "count", "eps": "probability",
                    "warm_start": "bool", "tol": "positive", "max_sweeps": "count"}),
    "bayes_linear_posterior": (lambda: dict(**_X_y(), sigma=0.5, tau=2.0),
                               {**_KIND_XY, "sigma": "positive", "tau": "positive"}),
    "gp_posterior": (lambda: dict(**_X_y(), X0=_X0.copy(), sigma=0.1, ell=1.0, tau=1.0, kernel=None,
                                  full_cov=False, noisy=False),
                     {**_KIND_XY, "X0": "array", "sigma": "nonnegative", "ell": "positive",
                      "tau": "positive", "kernel": "callable?", "full_cov": "bool", "noisy": "bool"}),
    "gp_log_marginal_likelihood": (lambda: dict(**_X_y(), sigma=0.1, ell=1.0, tau=1.0, kernel=_rbf),
                                   {**_KIND_XY, "sigma": "nonnegative", "ell": "positive",
                                    "tau": "positive", "kernel": "callable?"}),
}
EXEMPT = {}
