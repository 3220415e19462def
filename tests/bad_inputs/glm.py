import numpy as np

from mlnotes import glm

_rng = np.random.default_rng(0)
_n = 30
_X = np.column_stack([np.ones(_n), _rng.standard_normal(_n)])
_y = _rng.poisson(np.exp(0.3 + 0.5 * _X[:, 1])).astype(float)
_mu = np.full(_n, _y.mean())
_x = np.sort(_rng.uniform(0, 1, _n))
_knots = np.linspace(0, 1, 5)
_B = glm.bspline_basis(_x, _knots)
_S = glm.second_derivative_penalty(_knots)
_yb = (_rng.random(_n) < 0.5).astype(int)
_p = np.clip(_rng.uniform(0.2, 0.8, _n), 0.01, 0.99)
_ys = np.arange(_n) % 3
_fit = lambda: glm.glm_irls(_X, _y, glm.poisson())                     # noqa: E731
_small = lambda: glm.glm_irls(_X[:, :1], _y, glm.poisson())            # noqa: E731
_PAIR = {"y": "array", "mu": "rows", "family": "object", "weights": "rows?"}

SPECS = {
    "glm_irls": (lambda: dict(X=_X, y=_y, family=glm.poisson(), link=glm.log_link(), weights=np.ones(_n),
                              offset=np.zeros(_n), tol=1e-8, max_iter=50),
                 {"X": "array", "y": "rows", "family": "object", "link": "object?",
                  "weights": "rows?", "offset": "rows?", "tol": "positive", "max_iter": "count"}),
    "deviance": (lambda: dict(y=_y, mu=_mu, family=glm.poisson(), weights=None), _PAIR),
    "pearson_residuals": (lambda: dict(y=_y, mu=_mu, family=glm.poisson(), weights=None), _PAIR),
    "deviance_residuals": (lambda: dict(y=_y, mu=_mu, family=glm.poisson(), weights=None), _PAIR),
    "GLMFit.conf_int": (lambda: dict(alpha=0.05), {"alpha": "probability"}, _fit),
    "lr_test": (lambda: dict(fit_small=_small(), fit_big=_fit()),
                {"fit_small": "object", "fit_big": "object"}),
    "hosmer_lemeshow": (lambda: dict(y=_yb, p=_p, g=5), {"y": "rows", "p": "array", "g": "count"}),
    "loglinear_independence": (lambda: dict(table=np.array([[5.0, 7.0], [3.0, 9.0]])),
                               {"table": "array"}),
    "softmax_regression": (lambda: dict(X=_X, y=_ys, lam=0.1, max_iter=20, tol=1e-8),
                           {"X": "array", "y": "rows", "lam": "nonnegative", "max_iter": "count",
                            "tol": "positive"}),
    "bspline_basis": (lambda: dict(x=_x, knots=_knots, degree=3, deriv=1),
                      {"x": "array", "knots": "array", "degree": "count", "deriv": "count"}),
    "second_derivative_penalty": (lambda: dict(knots=_knots, degree=3),
                                  {"knots": "array", "degree": "count"}),
    "penalised_irls": (lambda: dict(B=_B, y=_y, family=glm.poisson(), S=_S, lam=0.1, link=None,
                                    weights=None, tol=1e-8, max_iter=50),
                       {"B": "array", "y": "rows", "family": "object", "S": "psd",
                        "lam": "nonnegative", "link": "object?", "weights": "rows?",
                        "tol": "positive", "max_iter": "count"}),
    "gcv_score": (lambda: dict(B=_B, y=_y, family=glm.poisson(), S=_S, lam=0.1, link=None, weights=None),
                  {"B": "array", "y": "rows", "family": "object", "S": "psd",
                   "lam": "nonnegative", "link": "object?", "weights": "rows?"}),
}
_NOARG = "takes no argument: it returns a fixed {} record"
EXEMPT = {**{name: _NOARG.format("ExpFamily") for name in ("gaussian", "binomial", "poisson", "gamma")},
          **{name: _NOARG.format("Link") for name in ("logit_link", "probit_link", "cloglog_link", "log_link", "identity_link",
                                                     "inverse_link")}}
_Xsep = np.column_stack([np.ones(6), np.arange(6.0)])
CASES = {
    "complete separation (no finite MLE)": (
        "glm_irls", lambda: dict(X=_Xsep, y=np.array([0, 0, 0, 1, 1, 1.0]), family=glm.binomial()), "y"),
    "separable classes without a penalty": (
        "softmax_regression", lambda: dict(X=_Xsep, y=np.array([0, 0, 0, 1, 1, 1]), lam=0.0, max_iter=30), "lam"),
}
