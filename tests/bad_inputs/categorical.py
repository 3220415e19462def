import numpy as np

_T22 = np.array([[12, 5], [7, 15]])
_T23 = np.array([[10, 7, 4], [5, 9, 12]])
_PAIRS = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 1], [0, 0]])


def _mean(s):
    return s.mean(axis=1)


SPECS = {
    "fisher_null_distribution": (lambda: dict(table=_T22), {"table": "array"}),
    "fisher_exact": (lambda: dict(table=_T22, alternative="less"), {"table": "array", "alternative": "choice"}),
    "expected_counts": (lambda: dict(table=_T23), {"table": "array"}),
    "chi2_statistic": (lambda: dict(table=_T22, correction=True), {"table": "array", "correction": "bool"}),
    "chi2_homogeneity": (lambda: dict(table=_T22, correction=True), {"table": "array", "correction": "bool"}),
    "chi2_independence": (lambda: dict(table=_T23, correction=False), {"table": "array", "correction": "bool"}),
    "mcnemar": (lambda: dict(table=_T22, exact=True), {"table": "array", "exact": "bool"}),
    "odds_ratio": (lambda: dict(table=_T22), {"table": "array"}),
    "log_odds_ratio": (lambda: dict(table=_T22), {"table": "array"}),
    "relative_risk": (lambda: dict(table=_T22), {"table": "array"}),
    "table_from_pairs": (lambda: dict(pairs=_PAIRS), {"pairs": "array"}),
    "bootstrap_ci": (lambda: dict(stat=_mean, data=np.arange(8.0), n_resamples=50, level=0.9,
                                  method="basic", seed=3),
                     {"stat": "callable", "data": "array", "n_resamples": "count", "level": "probability",
                      "method": "choice", "seed": "seed?"}),
}
EXEMPT = {}
