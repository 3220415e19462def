import numpy as np

from mlnotes import svm

_rng = np.random.default_rng(0)
_X = np.vstack([_rng.standard_normal((6, 2)) + 1.5, _rng.standard_normal((6, 2)) - 1.5])
_Y = np.array([1] * 6 + [-1] * 6)
_K = _X @ _X.T
_A = np.full(12, 0.05)
_W = np.array([1.0, 1.0])


def _X_y():
    return dict(X=_X.copy(), y=_Y.copy())


def _K_y():
    return dict(K=_K.copy(), y=_Y.copy())


def _fit():
    return svm.svm_dual(_K, _Y, C=1.0)


_KIND_XY = {"X": "array", "y": "array"}
_KIND_KY = {"K": "array", "y": "array"}
# C is not declared: the bad values of the kind "positive" include np.inf, which is a valid C
# (the hard margin); C is rejected by name when negative, zero, NaN, -inf, a string or a bool.
SPECS = {
    "geometric_margin": (lambda: dict(**_X_y(), w=_W.copy(), b=0.1),
                         {**_KIND_XY, "w": "array", "b": "number"}),
    "project_onto_hyperplane": (lambda: dict(X=_X.copy(), w=_W.copy(), b=0.1),
                                {"X": "array", "w": "array", "b": "number"}),
    "svm_dual": (lambda: dict(**_K_y(), C=1.0, tol=1e-8, max_iter=None),
                 {**_KIND_KY, "tol": "positive", "max_iter": "count?"}),
    "svm_decision_function": (lambda: dict(result=_fit(), K_new=_K[:3].copy()),
                              {"result": "object", "K_new": "array"}),
    "svm_predict": (lambda: dict(result=_fit(), K_new=_K[:3].copy()),
                    {"result": "object", "K_new": "array"}),
    "dual_objective": (lambda: dict(**_K_y(), alpha=_A.copy()), {**_KIND_KY, "alpha": "array"}),
    "primal_objective": (lambda: dict(**_K_y(), alpha=_A.copy(), b=0.0, C=1.0),
                         {**_KIND_KY, "alpha": "array", "b": "number"}),
    "kkt_violations": (lambda: dict(**_K_y(), alpha=_A.copy(), b=0.0, C=1.0),
                       {**_KIND_KY, "alpha": "array", "b": "number"}),
    "hinge_objective": (lambda: dict(**_X_y(), w=_W.copy(), b=0.0, lam=0.1),
                        {**_KIND_XY, "w": "array", "b": "number", "lam": "positive"}),
    "hinge_subgradient_descent": (lambda: dict(**_X_y(), lam=0.1, n_iter=20, step=1.0, fit_intercept=True),
                                  {**_KIND_XY, "lam": "positive", "n_iter": "count", "step": "positive",
                                   "fit_intercept": "bool"}),
    "nu_svm_dual": (lambda: dict(**_K_y(), nu=0.5, fit_intercept=True, tol=1e-8, max_iter=None),
                    {**_KIND_KY, "nu": "positive", "fit_intercept": "bool", "tol": "positive",
                     "max_iter": "count?"}),
    "nu_property": (lambda: dict(alpha=np.full(12, 0.5 / 12), margins=np.ones(12), rho=1.0, tol=1e-8),
                    {"alpha": "array", "margins": "array", "rho": "positive", "tol": "positive"}),
}
EXEMPT = {}
