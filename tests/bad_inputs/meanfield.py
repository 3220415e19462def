import numpy as np

from mlnotes.kernels import rbf_kernel

_rng = np.random.default_rng(0)
_X = np.vstack([_rng.normal(0.0, 1.0, (10, 2)), _rng.normal(4.0, 1.0, (10, 2))])
_RESP = np.tile([0.7, 0.3], (20, 1))
_XG = np.linspace(-2, 2, 12)[:, None]
_YG = np.sin(_XG[:, 0])
_J = np.array([[0.0, 0.5], [0.5, 0.0]])


def _kernel(A, B):
    return rbf_kernel(A, B, gamma=0.5)


_GP = {"X": "array", "y": "rows", "Z": "array", "kernel": "callable", "sigma2": "positive"}

SPECS = {
    "mean_field_gaussian": (lambda: dict(mu=np.zeros(2), Lambda=np.array([[2.0, 0.5], [0.5, 1.0]]), n_iter=3,
                                         m0=np.ones(2)),
                            {"mu": "array", "Lambda": "psd", "n_iter": "count", "m0": "rows?"}),
    "naive_mean_field_ising": (lambda: dict(J=_J, h=np.array([0.1, -0.2]), n_iter=3, damping=0.2),
                               {"J": "array", "h": "rows", "n_iter": "count", "damping": "probability"}),
    "vb_normal_gamma": (lambda: dict(x=np.array([0.3, 1.2, -0.5]), mu0=0.0, lam0=1.0, a0=2.0, b0=1.0, n_iter=3),
                        {"x": "array", "mu0": "number", "lam0": "positive", "a0": "positive", "b0": "positive",
                         "n_iter": "count"}),
    "vb_gmm": (lambda: dict(X=_X, K=2, prior=None, n_iter=3, rng=np.random.default_rng(0)),
               {"X": "array", "K": "count", "prior": "object?", "n_iter": "count", "rng": "rng"}),
    "vb_m_step": (lambda: dict(X=_X, resp=_RESP, prior=None),
                  {"X": "array", "resp": "probabilities", "prior": "object?"}),
    "titsias_bound": (lambda: dict(X=_XG, y=_YG, Z=_XG[::3], kernel=_kernel, sigma2=0.1), _GP),
    "sparse_gp_predict": (lambda: dict(X=_XG, y=_YG, Z=_XG[::3], X_star=_XG[:4], kernel=_kernel, sigma2=0.1),
                          {**_GP, "X_star": "array"}),
}

CASES = {
    "resp with one row too few": ("vb_m_step", lambda: dict(X=_X, resp=_RESP[:-1], prior=None), "resp"),
    "singular data with the default prior": ("vb_gmm", lambda: dict(X=np.ones((6, 2)), K=2, prior=None, n_iter=2,
                                                                    rng=np.random.default_rng(0)), "X"),
    "a sample that overflows": ("vb_normal_gamma", lambda: dict(x=np.array([1e200, -1e200]), mu0=0.0, lam0=1.0,
                                                                 a0=2.0, b0=1.0, n_iter=2), "x"),
    "a target that overflows": ("mean_field_gaussian", lambda: dict(mu=np.full(2, 1e200), Lambda=np.eye(2) * 1e200,
                                                                     n_iter=2), "Lambda"),
    "y that overflows": ("titsias_bound", lambda: dict(X=_XG, y=_YG * 1e200, Z=_XG[::3], kernel=_kernel,
                                                       sigma2=0.1), "y"),
    "Z of the wrong width": ("titsias_bound", lambda: dict(X=_XG, y=_YG, Z=np.ones((3, 2)), kernel=_kernel,
                                                           sigma2=0.1), "Z"),
    "a kernel with a negative diagonal": ("titsias_bound", lambda: dict(X=_XG, y=_YG, Z=_XG[::3],
                                                                        kernel=lambda A, B: _kernel(A, B) - 2.0 * (A @ B.T),
                                                                        sigma2=0.1), "kernel"),
}
