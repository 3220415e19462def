import numpy as np

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((15, 3))
_Y = _X @ np.array([1.0, -2.0, 0.0]) + 0.3 * _rng.standard_normal(15)
_XP = np.linspace(0, 1, 12)
_YP = np.sin(3 * _XP) + 0.1 * _rng.standard_normal(12)


def _X_y():
    return dict(X=_X.copy(), y=_Y.copy())


_KIND_XY = {"X": "array", "y": "rows"}
SPECS = {
    "log_evidence_beta_bernoulli": (lambda: dict(k=3, n=10, a=1.0, b=2.0),
                                    {"k": "array", "n": "array", "a": "positive", "b": "positive"}),
    "bayes_factor": (lambda: dict(log_ev_1=-3.0, log_ev_2=-4.5),
                     {"log_ev_1": "number", "log_ev_2": "number"}),
    "laplace_log_evidence": (lambda: dict(log_joint=lambda t: -0.5 * float(np.sum(t**2)),
                                          theta_map=np.zeros(2), neg_hessian=np.eye(2)),
                             {"log_joint": "callable", "theta_map": "array",
                              "neg_hessian": "psd"}),
    "bic": (lambda: dict(max_loglik=-12.0, d=2, n=30),
            {"max_loglik": "number", "d": "count", "n": "count"}),
    "linreg_log_evidence": (lambda: dict(**_X_y(), C=np.eye(3), sigma2=0.2),
                            {**_KIND_XY, "C": "psd", "sigma2": "positive"}),
    "linreg_evidence_grads": (lambda: dict(**_X_y(), C=np.eye(3), sigma2=0.2),
                              {**_KIND_XY, "C": "psd", "sigma2": "positive"}),
    "mackay_ard": (lambda: dict(**_X_y(), max_iter=50, tol=1e-8, alpha_max=1e10),
                   {**_KIND_XY, "max_iter": "count", "tol": "positive", "alpha_max": "positive"}),
    "bayesian_ridge_evidence": (lambda: dict(**_X_y(), alpha=1.0, beta=np.array([1.0, 5.0])),
                                {**_KIND_XY, "alpha": "array", "beta": "array"}),
    "polynomial_evidence": (lambda: dict(x=_XP.copy(), y=_YP.copy(), degrees=[0, 1, 3]),
                            {"x": "array", "y": "rows", "degrees": "array"}),
}
EXEMPT = {}
_XE = np.linspace(0, 1, 12)
CASES = {
    "polynomial fitted exactly (unbounded evidence)": ("polynomial_evidence",
                                                       lambda: dict(x=_XE, y=1 + 2 * _XE, degrees=[1]), "y"),
    "polynomial degrees given as booleans": ("polynomial_evidence",
                                             lambda: dict(x=_XP.copy(), y=_YP.copy(), degrees=[True]), "degrees"),
    "evidence gradients that overflow": ("linreg_evidence_grads", lambda: dict(**_X_y(), C=np.eye(3), sigma2=1e-300),
                                         "sigma2"),
    "ARD on a y with no dependence on X": ("mackay_ard", lambda: dict(X=_X.copy(), y=np.zeros(15)), "y"),
}
