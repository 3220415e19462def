import numpy as np

from mlnotes import kernel_embeddings as ke

_rng = np.random.default_rng(0)
_Z = np.vstack([_rng.standard_normal((5, 2)), _rng.standard_normal((5, 2)) + 1.0])
_K = np.exp(-0.5 * ((_Z[:, None, :] - _Z[None, :, :]) ** 2).sum(axis=-1))
_L = np.exp(-0.5 * (_Z[:, :1] - _Z[:, :1].T) ** 2)


def _mmd(K):
    return ke.mmd2_biased(K, 5)


SPECS = {
    "centering_matrix": (lambda: dict(n=4), {"n": "count"}),
    "center_kernel": (lambda: dict(K=_K.copy()), {"K": "array"}),
    "kernel_pca": (lambda: dict(K=_K.copy(), n_components=2), {"K": "array", "n_components": "count"}),
    "mmd2_biased": (lambda: dict(K=_K.copy(), m=5), {"K": "array", "m": "count"}),
    "mmd2_unbiased": (lambda: dict(K=_K.copy(), m=5), {"K": "array", "m": "count"}),
    "hsic_biased": (lambda: dict(K=_K.copy(), L=_L.copy()), {"K": "array", "L": "array"}),
    "permutation_test": (lambda: dict(statistic=_mmd, K=_K.copy(), L=None, n_permutations=19,
                                      rng=np.random.default_rng(1)),
                         {"statistic": "callable", "K": "array", "L": "array?", "n_permutations": "count",
                          "rng": "rng"}),
}
EXEMPT = {}
