import numpy as np

from mlnotes import online

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((20, 2))
_Y = np.where(_X @ np.array([1.0, -0.5]) > 0, 1, -1)          # labels -1/+1, separable
_B = (_rng.random((16, 4)) < 0.5).astype(int)                  # Boolean points
_BY = _B[:, 0] | _B[:, 2]                                      # a monotone disjunction, labels 0/1
_OUT = _BY.copy()                                              # binary outcomes
_ADVICE = np.column_stack([_OUT, 1 - _OUT, np.ones(16, dtype=int)])  # expert 0 is perfect
_L = _rng.random((10, 3))                                      # Hedge losses in [0, 1]
_P01 = _rng.random((12, 3))                                    # expert predictions in [0, 1]
_Y01 = _rng.random(12)                                         # outcomes in [0, 1]


def _winnow_learner(X, y):
    return online.winnow(X, y).predict


SPECS = {
    "online_perceptron": (lambda: dict(X=_X, y=_Y, n_epochs=2),
                          {"X": "array", "y": "rows", "n_epochs": "count"}),
    "halving": (lambda: dict(predictions=_ADVICE, y=_OUT), {"predictions": "array", "y": "rows"}),
    # beta lies in (0, 1): the bad values of "probability" (and 0, 1, in test_online.py)
    "weighted_majority": (lambda: dict(predictions=_ADVICE, y=_OUT, beta=0.5),
                          {"predictions": "array", "y": "rows", "beta": "probability"}),
    "weighted_majority_bound": (lambda: dict(expert_mistakes=np.array([0.0, 3.0]), n=3, beta=0.5),
                                {"expert_mistakes": "array", "n": "count", "beta": "probability"}),
    "weighted_average": (lambda: dict(predictions=_P01, y=_Y01, eta=0.5, loss="square"),
                         {"predictions": "array", "y": "rows", "eta": "positive", "loss": "choice"}),
    # eta lies in (0, 1] (entropic) or (0, 1/2] (square): beyond that the bound fails (CASES)
    "weighted_average_bound": (lambda: dict(n_experts=3, eta=0.5, loss="entropic"),
                               {"n_experts": "count", "eta": "positive", "loss": "choice"}),
    # for a table, n_rounds / n_experts must be None or its shape
    "hedge": (lambda: dict(losses=_L, eta=0.5, n_rounds=10, n_experts=3),
              {"losses": "array", "eta": "positive", "n_rounds": "count?", "n_experts": "count?"}),
    "hedge_eta": (lambda: dict(n_rounds=100, n_experts=3), {"n_rounds": "count", "n_experts": "count"}),
    "hedge_bound": (lambda: dict(t=np.arange(1.0, 11.0), n_experts=3, eta=0.5),
                    {"t": "array", "n_experts": "count", "eta": "positive"}),
    "proximal_hinge_step": (lambda: dict(w=np.array([0.5, -0.2]), x=np.array([1.0, 2.0]), y=1, lam=0.5),
                            {"w": "array", "x": "array", "y": "number", "lam": "positive"}),
    "online_gradient_descent": (lambda: dict(X=_X, y=_Y, eta=0.1, conservative=True),
                                {"X": "array", "y": "rows", "eta": "positive", "conservative": "bool"}),
    "WinnowRun.predict": (lambda: dict(X=_B[:5]), {"X": "array"}, lambda: online.winnow(_B, _BY)),
    "winnow": (lambda: dict(X=_B, y=_BY, threshold=2.0),
               {"X": "array", "y": "rows", "threshold": "positive?"}),
    "perceptron_disjunction": (lambda: dict(X=_B, y=_BY), {"X": "array", "y": "rows"}),
    "anova_kernel": (lambda: dict(X=_X, Y=_X[:3]), {"X": "array", "Y": "array?"}),
    "kernel_perceptron": (lambda: dict(K=online.anova_kernel(_X), y=_Y), {"K": "psd", "y": "rows"}),
    "online_to_batch": (lambda: dict(algorithm=_winnow_learner, X=_B, y=_BY, rng=np.random.default_rng(0)),
                        {"algorithm": "callable", "X": "array", "y": "rows", "rng": "rng"}),
}
EXEMPT = {}
CASES = {
    "weighted average: every expert's log loss infinite": (
        "weighted_average", lambda: dict(predictions=np.zeros((2, 3)), y=np.ones(2), eta=1.0), "predictions"),
    "weighted average: adaptive outcome outside [0, 1]": (
        "weighted_average", lambda: dict(predictions=_P01, y=lambda t, y_hat: 1.5, eta=1.0), "y"),
    "weighted average: prediction outside [0, 1]": (
        "weighted_average", lambda: dict(predictions=_P01 + 1.0, y=_Y01, eta=1.0), "predictions"),
    "perceptron whose scores overflow": (
        "online_perceptron", lambda: dict(X=np.array([[1e308, 1e308], [1e308, -1e308]]), y=np.array([1, -1]),
                                          n_epochs=3), "X"),
    "online gradient descent whose weights overflow": (
        "online_gradient_descent", lambda: dict(X=np.full((2, 2), 1e308), y=np.array([1, -1]), eta=1e10), "eta"),
    "proximal step whose margin overflows": ("proximal_hinge_step",
                                             lambda: dict(w=np.array([1e308, 0.0]), x=np.array([1e308, 0.0]), y=-1,
                                                          lam=0.5), "x"),
    "all-subsets kernel that overflows": ("anova_kernel", lambda: dict(X=np.full((2, 3000), 2.0)), "X"),
    "square-loss bound with eta beyond exp-concavity": (
        "weighted_average_bound", lambda: dict(n_experts=3, eta=0.6, loss="square"), "eta"),
}
