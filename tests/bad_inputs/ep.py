import numpy as np

from mlnotes import ep, kernels

_X = np.linspace(-2, 2, 5)[:, None]
_K = kernels.rbf_kernel(_X, gamma=0.5)
_y = np.array([1, -1, 1, 1, -1])
_fit = lambda: ep.ep_gp_classification(_K, _y, 3)  # noqa: E731
_x = np.array([1.5, 2.2, -3.0, 2.0])
_T = np.c_[np.linspace(-1, 1, 5), np.linspace(-1, 1, 5) ** 2]
_p = np.array([0.1, 0.2, 0.4, 0.2, 0.1])

SPECS = {
    "gaussian_moment_match": (lambda: dict(log_f=lambda g: -g**2, m=np.array([0.0, 1.0]), v=np.array([1.0, 2.0]), n_quad=20),
                              {"log_f": "callable", "m": "array", "v": "array", "n_quad": "count"}),
    "probit_tilted_moments": (lambda: dict(y=np.array([1, -1]), m=np.array([0.2, 0.5]), v=np.array([1.0, 0.5])),
                              {"y": "array", "m": "array", "v": "array"}),
    "ep_gp_classification": (lambda: dict(K=_K, y=_y, n_sweeps=3, damping=0.2),
                             {"K": "psd", "y": "rows", "n_sweeps": "count", "damping": "probability"}),
    "ep_predict": (lambda: dict(K=_K, k_star=_K[:, :2], k_starstar=np.ones(2), sites=_fit()),
                   {"K": "psd", "k_star": "rows", "k_starstar": "rows", "sites": "object"}),
    "clutter_tilted_moments": (lambda: dict(x=_x, w=0.2, a=10.0, m=0.0, v=1.0),
                               {"x": "array", "w": "probability", "a": "positive", "m": "array", "v": "array"}),
    "clutter_ep": (lambda: dict(x=_x, w=0.2, a=10.0, prior_var=100.0, n_sweeps=3, damping=0.0),
                   {"x": "array", "w": "probability", "a": "positive", "prior_var": "positive",
                    "n_sweeps": "count", "damping": "probability"}),
    "adf": (lambda: dict(x=_x, w=0.2, a=10.0, prior_var=100.0),
            {"x": "array", "w": "probability", "a": "positive", "prior_var": "positive"}),
    "alpha_divergence": (lambda: dict(p=_p, q=_p[::-1] + 0.1, alpha=0.5),
                         {"p": "array", "q": "array", "alpha": "number"}),
    "alpha_projection": (lambda: dict(p=_p, alpha=0.5, family=_T, n_iter=50, tol=1e-8, theta0=None),
                         {"p": "probabilities", "alpha": "positive", "family": "array",
                          "n_iter": "count", "tol": "positive", "theta0": "array?"}),
}
EXEMPT = {}
CASES = {
    "alpha so large that D_alpha overflows": ("alpha_divergence", lambda: dict(p=_p, q=_p[::-1] + 0.1, alpha=-1e6),
                                              "alpha"),
    "a test prior variance below what K and k_star explain": ("ep_predict", lambda: dict(
        K=_K, k_star=_K[:, :2], k_starstar=np.zeros(2), sites=_fit()), "k_starstar"),
    "a prior covariance that overflows": ("ep_gp_classification", lambda: dict(K=_K * 1e300, y=_y, n_sweeps=2), "K"),
    "m and v that do not broadcast": ("gaussian_moment_match", lambda: dict(
        log_f=lambda g: -g**2, m=np.zeros(3), v=np.ones(2)), "v"),
    "labels and cavity means of different lengths": ("probit_tilted_moments", lambda: dict(
        y=np.array([1, -1]), m=np.zeros(3), v=np.ones(3)), "m"),
    "cavity means that do not match x": ("clutter_tilted_moments", lambda: dict(
        x=_x, w=0.2, a=10.0, m=np.zeros(3), v=1.0), "m"),
    "p and q of different lengths": ("alpha_divergence", lambda: dict(p=_p, q=_p[:-1], alpha=0.5), "q"),
}
