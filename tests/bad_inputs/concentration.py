import numpy as np

_V = np.array([-1.0, 0.5, 2.0])
_P = np.array([0.2, 0.3, 0.5])
_X = np.array([-0.5, 0.1, 0.4, 0.8])
_Y = np.array([-1, 1, -1, 1])
_A = np.array([-0.5, 0.0, 0.5, 1.0])
_L = np.random.default_rng(0).random((2, 5, 3))

SPECS = {
    "markov_bound": (lambda: dict(mean=np.array([1.0, 2.0]), t=np.array([3.0, 4.0])),
                     {"mean": "array", "t": "array"}),
    "chebyshev_bound": (lambda: dict(variance=np.array([1.0, 2.0]), t=np.array([3.0, 4.0])),
                        {"variance": "array", "t": "array"}),
    "hoeffding_bound": (lambda: dict(n=10, eps=np.array([0.1, 0.2]), a=0.0, b=1.0, two_sided=True),
                        {"n": "count", "eps": "array", "a": "number", "b": "number", "two_sided": "bool"}),
    "hoeffding_lemma_gap": (lambda: dict(values=_V, probs=_P, s=np.array([-1.0, 2.0])),
                            {"values": "rows", "probs": "probabilities", "s": "array"}),
    "popoviciu_bound": (lambda: dict(a=-1.0, b=2.0), {"a": "number", "b": "number"}),
    "finite_class_uniform_bound": (lambda: dict(n_hypotheses=20, n=100, delta=0.05, M=0.5),
                                   {"n_hypotheses": "count", "n": "count", "delta": "probability",
                                    "M": "positive"}),
    "sample_complexity_finite": (lambda: dict(n_hypotheses=20, eps=0.1, delta=0.05, M=0.5),
                                 {"n_hypotheses": "count", "eps": "positive", "delta": "probability",
                                  "M": "positive"}),
    "threshold_grid": (lambda: dict(p=1), {"p": "count"}),
    "erm_thresholds": (lambda: dict(x=_X, y=_Y, thresholds=_A),
                       {"x": "array", "y": "rows", "thresholds": "array"}),
    "uniform_deviation": (lambda: dict(losses=_L, risks=np.array([0.5, 0.4, 0.6])),
                          {"losses": "array", "risks": "rows"}),
    "memoriser": (lambda: dict(x_train=_X, y_train=_Y.astype(float)),
                  {"x_train": "array", "y_train": "rows"}),
    "covering_number_interval": (lambda: dict(gamma=1.0, eta=np.array([0.1, 0.5])),
                                 {"gamma": "positive", "eta": "array"}),
}
EXEMPT = {}
CASES = {
    "a sample size beyond 2^62 (eps**2 underflows)": (
        "sample_complexity_finite", lambda: dict(n_hypotheses=10, eps=1e-300, delta=0.05, M=1.0), "eps"),
    "a covering number beyond int64": (
        "covering_number_interval", lambda: dict(gamma=1e300, eta=np.array([1e-300])), "eta"),
    "probabilities for fewer values": (
        "hoeffding_lemma_gap", lambda: dict(values=_V, probs=np.array([0.5, 0.5]), s=np.array([1.0])), "values"),
}
