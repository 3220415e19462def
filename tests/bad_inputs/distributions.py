import numpy as np

_X = np.array([0.3, -1.2, 2.5, 0.7, 1.1, -0.4])
_S = np.random.default_rng(0).normal(size=(5, 3))
_P = np.array([0.2, 0.3, 0.5])

SPECS = {
    "normal_pdf": (lambda: dict(x=_X, mu=0.5, sigma=2.0), {"x": "array", "mu": "number", "sigma": "positive"}),
    "normal_cdf": (lambda: dict(x=_X, mu=0.5, sigma=2.0), {"x": "array", "mu": "number", "sigma": "positive"}),
    "multinomial_pmf": (lambda: dict(counts=np.array([[1, 2, 3], [0, 0, 4]]), p=_P),
                        {"counts": "array", "p": "probabilities"}),
    "multinomial_cov": (lambda: dict(n=10, p=_P), {"n": "count", "p": "probabilities"}),
    "markov_bound": (lambda: dict(mean=np.array([1.0, 2.0]), t=np.array([3.0, 4.0])),
                     {"mean": "array", "t": "array"}),
    "chebyshev_bound": (lambda: dict(variance=np.array([1.0, 2.0]), t=np.array([3.0, 4.0])),
                        {"variance": "array", "t": "array"}),
    "empirical_tail": (lambda: dict(x=_X, t=np.array([0.0, 1.0])), {"x": "array", "t": "array"}),
    "running_mean": (lambda: dict(x=_S, axis=1), {"x": "array", "axis": "index"}),
    "standardized_sum": (lambda: dict(x=_S, mu=0.0, sigma=1.0, axis=0),
                         {"x": "array", "mu": "number", "sigma": "positive", "axis": "index"}),
    "sample_mean_var": (lambda: dict(x=_S, axis=0), {"x": "array", "axis": "index"}),
    "t_statistic": (lambda: dict(x=_S, mu0=0.1, axis=0), {"x": "array", "mu0": "number", "axis": "index"}),
    "chi2_pdf": (lambda: dict(x=np.abs(_X), df=3.0), {"x": "array", "df": "positive"}),
    "t_pdf": (lambda: dict(x=_X, df=3.0), {"x": "array", "df": "positive"}),
    "f_pdf": (lambda: dict(x=np.abs(_X), dfn=3.0, dfd=5.0), {"x": "array", "dfn": "positive", "dfd": "positive"}),
}
EXEMPT = {}
