import numpy as np

from mlnotes import clustering

_rng = np.random.default_rng(0)
_X = np.vstack([_rng.normal(0.0, 1.0, (15, 2)), _rng.normal(4.0, 1.0, (15, 2))])
_INIT = np.array([[0.0, 0.0], [4.0, 4.0]])
_COVS = np.array([np.eye(2), np.eye(2)])
_W = np.array([0.5, 0.5])
_RESP = np.tile([0.7, 0.3], (30, 1))
_COUNTS = np.array([0, 1, 2, 3, 5, 8, 9, 10, 12, 1])
_PRIOR = dict(alpha=2.0, mean=np.zeros(2), kappa=0.1, nu=4.0, scale=np.eye(2))
_XNAN = _X.copy()
_XNAN[[1, 4, 17], [0, 1, 1]] = np.nan
_MIX = {"X": "array", "means": "array", "covs": "array", "weights": "probabilities"}


def _mix(**extra):
    return lambda: dict(X=_X, means=_INIT, covs=_COVS, weights=_W, **extra)


SPECS = {
    "kmeans_assign": (lambda: dict(X=_X, centres=_INIT), {"X": "array", "centres": "array"}),
    "kmeans_inertia": (lambda: dict(X=_X, centres=_INIT, labels=np.repeat([0, 1], 15)),
                       {"X": "array", "centres": "array", "labels": "rows"}),
    "kmeans": (lambda: dict(X=_X, init=_INIT, max_iter=10), {"X": "array", "init": "array", "max_iter": "count"}),
    "gmm_log_joint": (_mix(), _MIX),
    "gmm_e_step": (_mix(), _MIX),
    "gmm_log_likelihood": (_mix(), _MIX),
    "gmm_m_step": (lambda: dict(X=_X, resp=_RESP), {"X": "array", "resp": "probabilities"}),
    "gmm_em": (_mix(max_iter=5, tol=1e-6), {**_MIX, "max_iter": "count", "tol": "nonnegative"}),
    "gem_step": (_mix(lr=1.0), {**_MIX, "lr": "positive"}),
    "em_exponential_family": (lambda: dict(x=_COUNTS, family="poisson", init=([0.5, 0.5], [1.0, 8.0]),
                                           max_iter=5, tol=0.0),
                              {"x": "array", "family": "choice", "init": "object", "max_iter": "count",
                               "tol": "nonnegative"}),
    "poisson_mixture_em": (lambda: dict(x=_COUNTS, init=([0.5, 0.5], [1.0, 8.0]), max_iter=5, tol=0.0),
                           {"x": "array", "init": "object", "max_iter": "count", "tol": "nonnegative"}),
    "gmm_map_em": (lambda: dict(X=_X, prior=dict(_PRIOR), init=(_INIT, _COVS, _W), max_iter=5, tol=0.0),
                   {"X": "array", "prior": "object", "init": "object", "max_iter": "count", "tol": "nonnegative"}),
    "gaussian_missing_em": (lambda: dict(X=_XNAN, mean=np.zeros(2), cov=np.eye(2), max_iter=5, tol=0.0),
                            {"X": "array", "mean": "array?", "cov": "psd?", "max_iter": "count",
                             "tol": "nonnegative"}),
}
EXEMPT = {}
CASES = {
    "a component of weight 0 (EM can never revive it)":
        ("gmm_em", lambda: dict(X=_X, means=_INIT, covs=_COVS, weights=np.array([1.0, 0.0]), max_iter=5),
         "weights"),
    "a column with a single observed entry": ("gaussian_missing_em",
                                              lambda: dict(X=np.r_[_XNAN[:, :1].T, [[1.0] + [np.nan] * 29]].T),
                                              "X"),
    "a column whose observed entries are all equal": ("gaussian_missing_em",
                                                      lambda: dict(X=np.c_[_X[:, 0], np.ones(30)]), "X"),
    "entries so large that the variance overflows": ("gaussian_missing_em", lambda: dict(X=_XNAN * 1e200), "X"),
    "too few complete rows: the likelihood is unbounded":
        ("gaussian_missing_em", lambda: dict(X=np.array([[1.0, 2.0], [3.0, np.nan], [np.nan, 4.0]]), max_iter=500),
         "X"),
    "an initial mean of the wrong length": ("gaussian_missing_em", lambda: dict(X=_XNAN, mean=np.zeros(3)), "mean"),
}
