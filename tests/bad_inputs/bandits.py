import numpy as np

_L = np.random.default_rng(0).random((20, 3))
_MEANS = np.array([0.2, 0.5, 0.7])

SPECS = {
    "switching_losses": (lambda: dict(m=20, n=3, switch=0.3),
                         {"m": "count", "n": "count", "switch": "probability"}),
    # loss is a loss vector of the shape of p (a scalar loss is not valid), arm one index
    "importance_weighted_estimate": (lambda: dict(loss=np.array([0.5, 0.2, 0.9]), p=np.array([0.2, 0.3, 0.5]),
                                                  arm=1),
                                     {"loss": "array", "p": "probabilities", "arm": "index"}),
    "exp3_learning_rate": (lambda: dict(m=100, n=3), {"m": "count", "n": "count"}),
    "exp3_bound": (lambda: dict(m=100, n=3), {"m": "count", "n": "count"}),
    # rng=None is the signature's default but not valid (exp3 needs a Generator): kind "rng"
    "exp3": (lambda: dict(losses=_L, eta=0.1, n_runs=2, rng=np.random.default_rng(1)),
             {"losses": "array", "eta": "positive?", "n_runs": "count?", "rng": "rng"}),
    "ucb1": (lambda: dict(losses=_L), {"losses": "array"}),
    "ucb1_bound": (lambda: dict(means=_MEANS, m=100), {"means": "array", "m": "count"}),
    "regret": (lambda: dict(losses=_L, arms=np.zeros(20, dtype=int)), {"losses": "array", "arms": "array"}),
    "pseudo_regret": (lambda: dict(means=_MEANS, arms=np.zeros(20, dtype=int)),
                      {"means": "array", "arms": "array"}),
}
EXEMPT = {}
