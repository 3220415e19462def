import numpy as np

_rng = np.random.default_rng(0)
_x = _rng.standard_normal(8)
_y = _rng.standard_normal(10) + 0.5
_xp = _rng.standard_normal(9)
_yp = _xp + 0.3 * _rng.standard_normal(9) - 0.2
_XY = {"x": "array", "y": "array"}

SPECS = {
    "midranks": (lambda: dict(v=_x), {"v": "array"}),
    "pooled_variance": (lambda: dict(x=_x, y=_y), _XY),
    "two_sample_t": (lambda: dict(x=_x, y=_y, equal_var=True, alternative="two-sided", alpha=0.05),
                     {"x": "array", "y": "array", "equal_var": "bool", "alternative": "choice",
                      "alpha": "probability"}),
    "t_interval": (lambda: dict(x=_x, y=_y, alpha=0.05, equal_var=False),
                   {"x": "array", "y": "array", "alpha": "probability", "equal_var": "bool"}),
    "t_power": (lambda: dict(delta=np.array([0.0, 0.5, 1.0]), sigma=1.0, n=10, m=12, alpha=0.05,
                             alternative="two-sided"),
                {"delta": "array", "sigma": "positive", "n": "count", "m": "count",
                 "alpha": "probability", "alternative": "choice"}),
    "approx_power": (lambda: dict(delta=0.8, sigma=1.0, n=20, alpha=0.05, m=None),
                     {"delta": "array", "sigma": "positive", "n": "count", "alpha": "probability",
                      "m": "count?"}),
    "rank_sum": (lambda: dict(x=_x, y=_y), _XY),
    "mann_whitney_u": (lambda: dict(x=_x, y=_y, alternative="greater", method="auto"),
                       {"x": "array", "y": "array", "alternative": "choice", "method": "choice"}),
    "mw_null_pmf": (lambda: dict(n=4, m=5), {"n": "count", "m": "count"}),
    "hodges_lehmann": (lambda: dict(x=_x, y=_y, alpha=0.05),
                       {"x": "array", "y": "array", "alpha": "probability"}),
    "paired_t": (lambda: dict(x=_xp, y=_yp, alpha=0.05, alternative="two-sided"),
                 {"x": "array", "y": "rows", "alpha": "probability", "alternative": "choice"}),
    "signed_rank": (lambda: dict(d=_xp - _yp, alternative="greater", method="auto"),
                    {"d": "array", "alternative": "choice", "method": "choice"}),
    "signed_rank_null_pmf": (lambda: dict(n=6), {"n": "count"}),
    "bayes_two_sample_posterior": (lambda: dict(x=_x, y=_y, grid=np.linspace(-2, 2, 5)),
                                   {"x": "array", "y": "array", "grid": "array"}),
}
EXEMPT = {}
CASES = {
    "an exact Mann-Whitney null law of n m > 1e5": ("mw_null_pmf", lambda: dict(n=400, m=400), "n"),
    "an exact signed-rank null law of n > 1000": ("signed_rank_null_pmf", lambda: dict(n=5000), "n"),
    "a Hodges-Lehmann interval of n m > 1e5": (
        "hodges_lehmann", lambda: dict(x=np.arange(400.0), y=np.arange(400.0) + 0.5), "x"),
    "method='exact' with n m > 1e5": (
        "mann_whitney_u", lambda: dict(x=np.arange(400.0), y=np.arange(400.0) + 0.5, method="exact"), "x"),
    "method='exact' with ties": (
        "mann_whitney_u", lambda: dict(x=np.array([1.0, 2.0]), y=np.array([2.0, 3.0]), method="exact"), "x"),
    "method='exact' for 2000 differences": (
        "signed_rank", lambda: dict(d=np.arange(1.0, 2001.0), method="exact"), "d"),
    "sample sizes where the non-central t law fails": (
        "t_power", lambda: dict(delta=1.0, sigma=1.0, n=10**30, m=10**30), "n"),
    "all differences zero": ("signed_rank", lambda: dict(d=np.zeros(5)), "d"),
}
