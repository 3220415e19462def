import numpy as np
import scipy.stats

_X = np.array([0.3, -1.2, 2.5, 0.7, 1.1, -0.4])
_M = np.random.default_rng(0).normal(size=(3, 8))
_T = np.array([0.0, 1.0])
_EXPON = scipy.stats.expon()
_NORM = scipy.stats.norm()

SPECS = {
    "ecdf": (lambda: dict(x=_X), {"x": "array"}),
    "ks_statistic": (lambda: dict(x=_M, cdf=_NORM.cdf), {"x": "array", "cdf": "callable"}),
    "dkw_epsilon": (lambda: dict(n=100, alpha=0.05), {"n": "count", "alpha": "probability"}),
    "survival": (lambda: dict(x=_X, t=_T, convention="n+1"),
                 {"x": "array", "t": "array", "convention": "choice"}),
    "hazard": (lambda: dict(t=_T, pdf=_EXPON.pdf, sf=_EXPON.sf),
               {"t": "array", "pdf": "callable", "sf": "callable"}),
    "quantile": (lambda: dict(x=_M, p=np.array([0.1, 0.5])), {"x": "array", "p": "array"}),
    "qq_points": (lambda: dict(x=_X, y=_M[0]), {"x": "array", "y": "array"}),
    "kde": (lambda: dict(x=_X, grid=_T, h=0.5, kernel="epanechnikov"),
            {"x": "array", "grid": "array", "h": "positive", "kernel": "choice"}),
    "silverman_bandwidth": (lambda: dict(x=_X), {"x": "array"}),
    "median_ci_coverage": (lambda: dict(n=10, k=2), {"n": "count", "k": "count"}),
    "median_ci": (lambda: dict(x=_M, k=2), {"x": "array", "k": "count"}),
    "trimmed_mean": (lambda: dict(x=_M, alpha=0.1), {"x": "array", "alpha": "probability"}),
    "huber_irls_step": (lambda: dict(x=_M, mu=np.zeros(3), c=1.345, scale=np.ones(3)),
                        {"x": "array", "mu": "array", "c": "positive", "scale": "array"}),
    "huber_location": (lambda: dict(x=_M, c=1.345, scale=1.0, tol=1e-10, max_iter=500),
                       {"x": "array", "c": "positive", "scale": "positive?", "tol": "positive",
                        "max_iter": "count"}),
    "iqr": (lambda: dict(x=_M), {"x": "array"}),
    "mad": (lambda: dict(x=_M, normalize=True), {"x": "array", "normalize": "bool"}),
}
EXEMPT = {}
