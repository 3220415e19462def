import numpy as np

from mlnotes import anova

_rng = np.random.default_rng(0)
_groups = [_rng.standard_normal(n) + m for n, m in [(5, 0.0), (6, 1.0), (4, 0.5)]]
_Y3 = _rng.standard_normal((2, 3, 2))
_Y2 = _rng.standard_normal((3, 4))
_a = np.array([0, 0, 1, 1, 0, 1])
_b = np.array([0, 1, 0, 1, 1, 0])
_G = {"groups": "object"}          # a list of 1-D arrays of different lengths

SPECS = {
    "one_way_anova": (lambda: dict(groups=list(_groups)), _G),
    "expected_mean_squares": (lambda: dict(alpha=np.array([0.5, 0.0, -0.5]), sigma=1.0, J=4),
                              {"alpha": "array", "sigma": "positive", "J": "count"}),
    "tukey_intervals": (lambda: dict(groups=list(_groups), alpha=0.05),
                        {"groups": "object", "alpha": "probability"}),
    "bonferroni_intervals": (lambda: dict(groups=list(_groups), alpha=0.05),
                             {"groups": "object", "alpha": "probability"}),
    "kruskal_wallis": (lambda: dict(groups=list(_groups)), _G),
    "two_way_anova": (lambda: dict(Y=_Y3.copy()), {"Y": "array"}),
    "friedman": (lambda: dict(Y=_Y2.copy()), {"Y": "array"}),
    "anova_design_matrix": (lambda: dict(levels_a=_a.copy(), levels_b=_b.copy(), coding="sum",
                                         interaction=True),
                            {"levels_a": "array", "levels_b": "rows?", "coding": "choice",
                             "interaction": "bool"}),
}
CASES = {
    "a level code far beyond the number of observations": (
        "anova_design_matrix", lambda: dict(levels_a=np.array([0, 10**12])), "levels_a"),
    "an unused level": ("anova_design_matrix", lambda: dict(levels_a=np.array([0, 2, 0, 2])), "levels_a"),
    "group sizes of another length than alpha": (
        "expected_mean_squares", lambda: dict(alpha=np.array([0.5, -0.5]), sigma=1.0, J=np.array([3, 4, 5])), "J"),
    "interaction without a second factor": (
        "anova_design_matrix", lambda: dict(levels_a=_a.copy(), interaction=True), "interaction"),
    "groups whose batch shapes differ": (
        "one_way_anova", lambda: dict(groups=[np.zeros((2, 3)) + np.arange(3), np.zeros((3, 3)) + np.arange(3)]),
        "groups"),
}
