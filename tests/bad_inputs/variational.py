import numpy as np

_rng = np.random.default_rng(0)
_EPS = _rng.standard_normal((8, 2))
_X = _rng.standard_normal((12, 2))
_Y = _X @ np.array([1.0, -0.5]) + 0.1 * _rng.standard_normal(12)
_XS = _rng.standard_normal((20, 2))


def _log_joint(z):
    return -0.5 * np.sum(z**2, axis=-1)


def _grad_log_joint(z):
    return -z


_Q = {"m": "array", "s": "array", "eps": "array"}


def _q(fn_name, fn):
    return lambda: {fn_name: fn, "m": np.zeros(2), "s": np.ones(2), "eps": _EPS}


SPECS = {
    "gaussian_entropy": (lambda: dict(s=np.array([0.5, 2.0])), {"s": "array"}),
    "gaussian_kl": (lambda: dict(m1=np.zeros(2), S1=np.eye(2), m2=np.ones(2), S2=2 * np.eye(2)),
                    {"m1": "array", "S1": "array", "m2": "array", "S2": "array"}),
    "elbo": (_q("log_joint", _log_joint), {"log_joint": "callable", **_Q}),
    "score_gradient": (_q("log_joint", _log_joint), {"log_joint": "callable", **_Q}),
    "log_weights": (_q("log_joint", _log_joint), {"log_joint": "callable", **_Q}),
    "reparam_gradient": (_q("grad_log_joint", _grad_log_joint), {"grad_log_joint": "callable", **_Q}),
    "linear_regression_elbo": (lambda: dict(X=_X, y=_Y, lam=1.0, a=1.0, b=1.0, mu=np.zeros(2), Sigma=np.eye(2),
                                            shape=2.0, rate=1.0),
                               {"X": "array", "y": "array", "lam": "positive", "a": "positive", "b": "positive",
                                "mu": "array", "Sigma": "array", "shape": "positive", "rate": "positive"}),
    "cavi_linear_regression": (lambda: dict(X=_X, y=_Y, lam=1.0, a=1.0, b=1.0, n_iter=3),
                               {"X": "array", "y": "array", "lam": "positive", "a": "positive", "b": "positive",
                                "n_iter": "count"}),
    "iwae_bound": (lambda: dict(log_w=_rng.standard_normal((3, 5))), {"log_w": "array"}),
    "bbvi_gaussian": (lambda: dict(grad_log_joint=_grad_log_joint, m0=np.ones(2), s0=np.ones(2), n_iter=3,
                                   n_samples=4, rng=np.random.default_rng(1), lr=0.1),
                      {"grad_log_joint": "callable", "m0": "array", "s0": "array", "n_iter": "count",
                       "n_samples": "count", "rng": "rng", "lr": "positive"}),
    "sleep_gradient": (lambda: dict(V=np.zeros((2, 3)), c=np.zeros(2), log_s=np.zeros(2), X=np.ones((10, 3)),
                                    Z=np.ones((10, 2))),
                       {"V": "array", "c": "array", "log_s": "array", "X": "array", "Z": "array"}),
    "sleep_phase": (lambda: dict(W=np.ones((3, 2)), mu=np.zeros(3), sigma=0.5, V=np.zeros((2, 3)), c=np.zeros(2),
                                 s=np.ones(2), n_steps=3, batch=4, rng=np.random.default_rng(1), lr=0.05),
                    {"W": "array", "mu": "array", "sigma": "positive", "V": "array", "c": "array", "s": "array",
                     "n_steps": "count", "batch": "count", "rng": "rng", "lr": "positive"}),
    "linear_vae_elbo": (lambda: dict(X=_rng.standard_normal((10, 3)), W=np.ones((3, 2)), b=np.zeros(3), psi=1.0,
                                     V=np.zeros((2, 3)), c=np.zeros(2), L=np.eye(2)),
                        {"X": "array", "W": "array", "b": "array", "psi": "positive", "V": "array", "c": "array",
                         "L": "array"}),
    "planar_flow": (lambda: dict(z=_EPS, u=np.ones(2), w=np.array([1.0, -0.5]), b=0.1),
                    {"z": "array", "u": "array", "w": "array", "b": "number"}),
    "radial_flow": (lambda: dict(z=_EPS, z0=np.zeros(2), alpha=1.0, beta=0.5),
                    {"z": "array", "z0": "array", "alpha": "positive", "beta": "number"}),
    "fantasy_regression": (lambda: dict(X_s=_XS, T_s=_XS[:, :1] ** 2, X_new=_X[:3]),
                           {"X_s": "array", "T_s": "array", "X_new": "array"}),
    "em_regression_v2": (lambda: dict(X=_X, y=_Y, lam=1.0, a=2.0, b=1.0, w0=np.ones(2), max_iter=5, tol=0.0),
                         {"X": "array", "y": "rows", "lam": "positive", "a": "positive", "b": "positive",
                          "w0": "array?", "max_iter": "count", "tol": "nonnegative"}),
    "em_regression_v3": (lambda: dict(X=_X, y=_Y, a=2.0, b=1.0, e=2.0, f=1.0, w0=np.ones(2), max_iter=5, tol=0.0),
                         {"X": "array", "y": "rows", "a": "positive", "b": "positive", "e": "positive",
                          "f": "positive", "w0": "array?", "max_iter": "count", "tol": "nonnegative"}),
    "regression_v3_elbo": (lambda: dict(X=_X, y=_Y, a=2.0, b=1.0, e=2.0, f=1.0, mu=np.zeros(2), Sigma=np.eye(2),
                                        q_alpha=np.array([3.0, 1.0]), q_lambda=np.array([2.0, 1.0])),
                           {"X": "array", "y": "rows", "a": "positive", "b": "positive", "e": "positive",
                            "f": "positive", "mu": "array", "Sigma": "psd", "q_alpha": "array", "q_lambda": "array"}),
    "cavi_regression_v3": (lambda: dict(X=_X, y=_Y, a=2.0, b=1.0, e=2.0, f=1.0, n_iter=3),
                           {"X": "array", "y": "rows", "a": "positive", "b": "positive", "e": "positive",
                            "f": "positive", "n_iter": "count"}),
}
EXEMPT = {}
CASES = {
    "a negative Gamma rate in q(α)": ("regression_v3_elbo",
                                      lambda: dict(X=_X, y=_Y, a=2.0, b=1.0, e=2.0, f=1.0, mu=np.zeros(2),
                                                   Sigma=np.eye(2), q_alpha=np.array([3.0, -1.0]),
                                                   q_lambda=np.array([2.0, 1.0])), "q_alpha"),
    "a starting point of the wrong length": ("em_regression_v3",
                                             lambda: dict(X=_X, y=_Y, a=2.0, b=1.0, e=2.0, f=1.0, w0=np.ones(3)),
                                             "w0"),
    "CAVI on data so large that X'X overflows": ("cavi_regression_v3",
                                                  lambda: dict(X=_X * 1e200, y=_Y, a=2.0, b=1.0, e=2.0, f=1.0), "X"),
    "data so large that the objective overflows": ("em_regression_v2",
                                                   lambda: dict(X=_X * 1e200, y=_Y * 1e200, lam=1.0, a=2.0, b=1.0),
                                                   "X"),
}
