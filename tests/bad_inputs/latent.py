import numpy as np

from mlnotes import latent

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((40, 4)) @ np.array([[2.0, 0.5, 0.0, 0.1], [0.0, 1.0, 0.3, 0.0],
                                                  [0.0, 0.0, 0.7, 0.2], [0.0, 0.0, 0.0, 0.4]])

SPECS = {
    "PCAResult.transform": (lambda: dict(X=_X[:5]), {"X": "array"}, lambda: latent.pca(_X, 2)),
    "CCAResult.transform": (lambda: dict(X=_X[:5, :2], Y=_X[:5, 2:]), {"X": "array", "Y": "array"},
                            lambda: latent.cca(_X[:, :2], _X[:, 2:], k=2)),
    "sample_covariance": (lambda: dict(X=_X), {"X": "array"}),
    "pca": (lambda: dict(X=_X, q=2), {"X": "array", "q": "count"}),
    "gaussian_loglik": (lambda: dict(X=_X, mean=np.zeros(4), C=np.eye(4)),
                        {"X": "array", "mean": "array", "C": "array"}),
    "ppca_ml": (lambda: dict(X=_X, q=2, R=np.eye(2)), {"X": "array", "q": "count", "R": "array?"}),
    "latent_posterior": (lambda: dict(X=_X, W=np.ones((4, 2)), psi=np.ones(4), mean=np.zeros(4)),
                         {"X": "array", "W": "array", "psi": "array", "mean": "array"}),
    "factor_analysis_em": (lambda: dict(X=_X, q=1, tol=1e-6, max_iter=20),
                           {"X": "array", "q": "count", "tol": "positive", "max_iter": "count"}),
    "cca": (lambda: dict(X=_X[:, :2], Y=_X[:, 2:], k=1), {"X": "array", "Y": "array", "k": "count"}),
}
EXEMPT = {}
