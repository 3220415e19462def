import numpy as np

_P = np.array([0.2, 0.3, 0.5])
_Q = np.array([0.4, 0.4, 0.2])
_COND_P = np.array([[0.5, 0.5], [0.9, 0.1], [0.2, 0.8]])
_COND_Q = np.array([[0.6, 0.4], [0.5, 0.5], [0.3, 0.7]])
_JOINT = np.array([[0.1, 0.2], [0.3, 0.4]])
_W = np.array([[0.1, -0.2], [0.3, 0.0], [-0.1, 0.2]])
_X = np.random.default_rng(0).normal(size=(5, 2))
_PHI = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])


def _grad(x):
    return -x


SPECS = {
    "entropy": (lambda: dict(p=_P, base=2), {"p": "probabilities", "base": "positive?"}),
    "cross_entropy": (lambda: dict(p=_P, q=_Q, base=2.0),
                      {"p": "probabilities", "q": "probabilities", "base": "positive?"}),
    "kl_divergence": (lambda: dict(p=_P, q=_Q, base=2.0),
                      {"p": "probabilities", "q": "probabilities", "base": "positive?"}),
    "conditional_kl": (lambda: dict(p_x=_P, p_cond=_COND_P, q_cond=_COND_Q, base=2.0),
                       {"p_x": "probabilities", "p_cond": "probabilities", "q_cond": "probabilities",
                        "base": "positive?"}),
    "mutual_information": (lambda: dict(joint=_JOINT, base=2.0), {"joint": "probabilities", "base": "positive?"}),
    "empirical_joint": (lambda: dict(x=np.array([0, 1, 1, 2]), y=np.array([5, 7, 5, 5])),
                        {"x": "array", "y": "array"}),
    "huffman_code_lengths": (lambda: dict(p=_P), {"p": "probabilities"}),
    "categorical_map": (lambda: dict(counts=np.array([3.0, 0.0, 5.0]), alpha=2.0),
                        {"counts": "array", "alpha": "positive"}),
    "softmax_log_likelihood": (lambda: dict(W=_W, X=_X, y=np.array([0, 1, 2, 1, 0])),
                               {"W": "array", "X": "array", "y": "array"}),
    "descriptive_log_likelihood": (lambda: dict(theta=np.array([0.5, -0.5]), phi=_PHI, x=np.array([0, 3, 3, 1])),
                                   {"theta": "array", "phi": "array", "x": "array"}),
    "linear_gaussian_posterior": (lambda: dict(W=_W, sigma=0.5, X=np.ones((4, 3))),
                                  {"W": "array", "sigma": "positive", "X": "array"}),
    "linear_gaussian_log_likelihood": (lambda: dict(W=_W, sigma=0.5, X=np.ones((4, 3))),
                                       {"W": "array", "sigma": "positive", "X": "array"}),
    "brownian_paths": (lambda: dict(n_paths=3, n_steps=10, dt=0.1, rng=np.random.default_rng(0), sigma=2.0, x0=1.0),
                       {"n_paths": "count", "n_steps": "count", "dt": "positive", "rng": "rng",
                        "sigma": "positive", "x0": "number"}),
    "langevin": (lambda: dict(grad_log_p=_grad, x0=np.zeros((4, 2)), step=0.1, n_steps=5,
                              rng=np.random.default_rng(0), return_path=True),
                 {"grad_log_p": "callable", "x0": "array", "step": "positive", "n_steps": "count",
                  "rng": "rng", "return_path": "bool"}),
}
EXEMPT = {}
