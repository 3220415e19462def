import numpy as np

from mlnotes import rkhs

_X = np.array([[0.0, 1.0], [1.0, 0.5], [-0.5, 0.2]])
_kern = lambda A, B: rkhs.exponentiated_quadratic(A, B, 1.0)  # noqa: E731
_khat = np.array([0.1, 0.5, 1.0, 0.5, 0.1])
_fhat = np.array([0.0, 0.2, 1.0, 0.2, 0.0])

SPECS = {
    "taylor_series_kernel": (lambda: dict(X=_X.copy(), Y=_X.copy(), coeffs=np.array([1.0, 0.5, 0.25])),
                             {"X": "array", "Y": "array?", "coeffs": "array"}),
    "exponentiated_quadratic": (lambda: dict(X=_X.copy(), Y=None, ell=0.7),
                                {"X": "array", "Y": "array?", "ell": "positive"}),
    "polynomial_features": (lambda: dict(X=_X.copy(), degree=2, c=1.0),
                            {"X": "array", "degree": "count", "c": "nonnegative"}),
    "periodic_kernel": (lambda: dict(k_hat=_khat.copy(), x=np.array([0.0, 1.0]), y=np.array([0.5])),
                        {"k_hat": "array", "x": "array", "y": "array"}),
    "fourier_coefficients": (lambda: dict(values=np.cos(np.linspace(-np.pi, np.pi, 9, endpoint=False))),
                             {"values": "array"}),
    "fourier_rkhs_inner": (lambda: dict(f_hat=_fhat.copy(), g_hat=_fhat.copy(), k_hat=_khat.copy()),
                           {"f_hat": "array", "g_hat": "array", "k_hat": "array"}),
    "gaussian_mercer": (lambda: dict(a=0.25, b=0.5, n_terms=4),
                        {"a": "positive", "b": "positive", "n_terms": "count"}),
    "nystrom_eigenfunctions": (lambda: dict(kernel=_kern, X_sample=_X.copy(), n_terms=2),
                               {"kernel": "callable", "X_sample": "array", "n_terms": "count"}),
    "rkhs_norm": (lambda: dict(alpha=np.array([1.0, -0.5, 0.2]), K=_kern(_X, _X)),
                  {"alpha": "array", "K": "array"}),
    "rkhs_evaluate": (lambda: dict(alpha=np.array([1.0, -0.5, 0.2]), X=_X.copy(), kernel=_kern,
                                   x=np.array([[0.3, 0.3]])),
                      {"alpha": "array", "X": "array", "kernel": "callable", "x": "array"}),
}
EXEMPT = {}
