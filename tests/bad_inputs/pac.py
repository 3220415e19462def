import numpy as np

from mlnotes import pac

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((12, 2))
_y = np.where(_X[:, 0] + 0.3 * _X[:, 1] > 0, 1, -1)
_eta = np.array([0.1, 0.5, 0.8, 0.3])
_px = np.array([0.25, 0.25, 0.25, 0.25])
_H = [lambda X: np.where(X[:, 0] > t, 1, -1) for t in (-0.5, 0.0, 0.5)]


def _memoriser(x, y, c):
    P = -np.ones((len(x), c), dtype=int)
    np.put_along_axis(P, x, y, axis=1)
    return P


SPECS = {
    "bayes_classifier": (lambda: dict(eta=_eta), {"eta": "array"}),
    "bayes_risk": (lambda: dict(eta=_eta, px=_px), {"eta": "rows", "px": "probabilities"}),
    "one_nn_asymptotic_error": (lambda: dict(eta=_eta, px=_px), {"eta": "rows", "px": "probabilities"}),
    "knn_predict": (lambda: dict(X_train=_X, y_train=_y, X=_X[:4], k=3, chunk=2),
                    {"X_train": "array", "y_train": "rows", "X": "array", "k": "count", "chunk": "count"}),
    "erm_finite": (lambda: dict(hypotheses=list(_H), X=_X, y=_y),
                   {"hypotheses": "object", "X": "array", "y": "rows"}),
    "pac_sample_size": (lambda: dict(n_hypotheses=10, eps=0.1, delta=0.05),
                        {"n_hypotheses": "count", "eps": "probability", "delta": "probability"}),
    "uc_sample_size": (lambda: dict(n_hypotheses=10, eps=0.1, delta=0.05),
                       {"n_hypotheses": "count", "eps": "probability", "delta": "probability"}),
    "linearly_separable": (lambda: dict(X=_X, y=_y, bias=True), {"X": "array", "y": "rows", "bias": "bool"}),
    "is_shattered": (lambda: dict(points=np.eye(2), separable=pac.linearly_separable),
                     {"points": "array", "separable": "callable"}),
    "vc_dimension_lower_bound": (lambda: dict(points_candidates=[np.eye(2), np.eye(3)[:, :2]],
                                              separable=pac.linearly_separable),
                                 {"points_candidates": "object", "separable": "callable"}),
    "radon_partition": (lambda: dict(points=_X[:4]), {"points": "array"}),
    "nfl_average_error": (lambda: dict(learner=_memoriser, domain_size=4, m=2),
                          {"learner": "callable", "domain_size": "count", "m": "count"}),
    "nn_distance_vs_dimension": (lambda: dict(n=20, dims=np.array([1, 3]), rng=np.random.default_rng(1)),
                                 {"n": "count", "dims": "array", "rng": "rng"}),
}
EXEMPT = {}
CASES = {
    "a PAC sample size beyond 2^62": ("pac_sample_size", lambda: dict(n_hypotheses=10, eps=1e-300, delta=0.05), "eps"),
    "eps**2 underflows to 0": ("uc_sample_size", lambda: dict(n_hypotheses=10, eps=1e-300, delta=0.05), "eps"),
    "px for more points than eta": ("bayes_risk", lambda: dict(eta=_eta, px=np.full(5, 0.2)), "eta"),
}
