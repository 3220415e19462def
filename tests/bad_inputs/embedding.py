import numpy as np

from mlnotes import embedding

_X = np.random.default_rng(0).standard_normal((15, 3))
_Y = np.random.default_rng(1).standard_normal((15, 2))
_P = embedding.joint_p(_X, 4.0)
_Q = embedding.joint_q(_Y)[0]

SPECS = {
    "squared_distances": (lambda: dict(X=_X), {"X": "array"}),
    "conditional_p": (lambda: dict(X=_X, perplexity=4.0, tol=1e-8, max_steps=100),
                      {"X": "array", "perplexity": "positive", "tol": "positive", "max_steps": "count"}),
    "joint_p": (lambda: dict(X=_X, perplexity=4.0), {"X": "array", "perplexity": "positive"}),
    "joint_q": (lambda: dict(Y=_Y), {"Y": "array"}),
    "kl_divergence": (lambda: dict(p=_P, q=_Q), {"p": "probabilities", "q": "probabilities"}),
    "tsne_gradient": (lambda: dict(P=_P, Y=_Y), {"P": "probabilities", "Y": "array"}),
    "tsne": (lambda: dict(X=_X, perplexity=4.0, n_iter=5, rng=np.random.default_rng(0), n_components=2,
                          learning_rate=None, exaggeration=12.0, n_exaggeration=2),
             {"X": "array", "perplexity": "positive", "n_iter": "count", "rng": "rng", "n_components": "count",
              "learning_rate": "positive?", "exaggeration": "positive", "n_exaggeration": "count"}),
    "lle_weights": (lambda: dict(X=_X, n_neighbors=4, reg=1e-3),
                    {"X": "array", "n_neighbors": "count", "reg": "nonnegative"}),
    "lle": (lambda: dict(X=_X, n_components=2, n_neighbors=4, reg=1e-3),
            {"X": "array", "n_components": "count", "n_neighbors": "count", "reg": "nonnegative"}),
}
EXEMPT = {}
