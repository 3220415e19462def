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
    "center_kernel": (lambda: dict(K=_K.copy()), {"K": "psd"}),
    "kernel_pca": (lambda: dict(K=_K.copy(), n_components=2), {"K": "psd", "n_components": "count"}),
    "mmd2_biased": (lambda: dict(K=_K.copy(), m=5), {"K": "psd", "m": "count"}),
    "mmd2_unbiased": (lambda: dict(K=_K.copy(), m=5), {"K": "psd", "m": "count"}),
    "hsic_biased": (lambda: dict(K=_K.copy(), L=_L.copy()), {"K": "psd", "L": "psd"}),
    "permutation_test": (lambda: dict(statistic=_mmd, K=_K.copy(), L=None, n_permutations=19,
                                      rng=np.random.default_rng(1)),
                         {"statistic": "callable", "K": "psd", "L": "psd?", "n_permutations": "count",
                          "rng": "rng"}),
    "mmd2_variance_h1": (lambda: dict(K=_K.copy(), m=5), {"K": "psd", "m": "count"}),
    "mmd2_null_spectral": (lambda: dict(K=_K.copy(), m=5, n_samples=50, rng=np.random.default_rng(2)),
                           {"K": "psd", "m": "count", "n_samples": "count", "rng": "rng"}),
    "hs_norm2": (lambda: dict(Ka=_K.copy(), Kb=_L.copy(), weights=np.full(10, 0.1)),
                 {"Ka": "psd", "Kb": "psd", "weights": "rows?"}),
    "hsic_unbiased": (lambda: dict(K=_K.copy(), L=_L.copy()), {"K": "psd", "L": "psd"}),
    "hsic_gamma_test": (lambda: dict(K=_K.copy(), L=_L.copy()), {"K": "psd", "L": "psd"}),
}
EXEMPT = {}
CASES = {
    "H with more entries than memory allows": ("centering_matrix", lambda: dict(n=10**6), "n"),
    "an overflowing statistic": ("mmd2_biased", lambda: dict(K=np.full((10, 10), 1e308), m=5), "K"),
    "L of another size than K": ("hsic_unbiased", lambda: dict(K=_K.copy(), L=_L[:9, :9].copy()), "L"),
    "L of another size than K (gamma test)": ("hsic_gamma_test",
                                              lambda: dict(K=_K.copy(), L=_L[:9, :9].copy()), "L"),
    "a constant kernel on y: degenerate null law": ("hsic_gamma_test",
                                                    lambda: dict(K=_K.copy(), L=np.ones((10, 10))), "L"),
    "too few points for the gamma test": ("hsic_gamma_test",
                                          lambda: dict(K=_K[:5, :5].copy(), L=_L[:5, :5].copy()), "K"),
    "a sample of 2 points for the variance": ("mmd2_variance_h1", lambda: dict(K=_K.copy(), m=2), "m"),
    "a constant kernel: degenerate spectral law": (
        "mmd2_null_spectral", lambda: dict(K=np.ones((10, 10)), m=5, n_samples=10,
                                           rng=np.random.default_rng(0)), "K"),
    "more normal draws than the work limit": (
        "mmd2_null_spectral", lambda: dict(K=_K.copy(), m=5, n_samples=10**12,
                                           rng=np.random.default_rng(0)), "n_samples"),
    "more permutations than the work limit": (
        "permutation_test", lambda: dict(statistic=_mmd, K=_K.copy(), n_permutations=10**12,
                                         rng=np.random.default_rng(0)), "n_permutations"),
    "Kb of another size than Ka": ("hs_norm2", lambda: dict(Ka=_K.copy(), Kb=_L[:9, :9].copy()), "Kb"),
}
