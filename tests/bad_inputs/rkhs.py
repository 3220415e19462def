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
    "polynomial_feature_map": (lambda: dict(X=_X.copy(), degree=2, c=1.0),
                            {"X": "array", "degree": "count", "c": "nonnegative"}),
    "periodic_kernel": (lambda: dict(x=np.array([0.0, 1.0]), y=np.array([0.5]), k_hat=_khat.copy()),
                        {"x": "array", "y": "array", "k_hat": "array"}),
    "fourier_coefficients": (lambda: dict(values=np.cos(np.linspace(-np.pi, np.pi, 9, endpoint=False))),
                             {"values": "array"}),
    "fourier_rkhs_inner": (lambda: dict(f_hat=_fhat.copy(), g_hat=_fhat.copy(), k_hat=_khat.copy()),
                           {"f_hat": "rows", "g_hat": "rows", "k_hat": "array"}),
    "gaussian_mercer": (lambda: dict(a=0.25, b=0.5, n_terms=4),
                        {"a": "positive", "b": "positive", "n_terms": "count"}),
    "nystrom_eigenfunctions": (lambda: dict(kernel=_kern, X_sample=_X.copy(), n_terms=2),
                               {"kernel": "callable", "X_sample": "array", "n_terms": "count"}),
    "rkhs_norm": (lambda: dict(alpha=np.array([1.0, -0.5, 0.2]), K=_kern(_X, _X)),
                  {"alpha": "rows", "K": "psd"}),
    "rkhs_evaluate": (lambda: dict(alpha=np.array([1.0, -0.5, 0.2]), X=_X.copy(), kernel=_kern,
                                   x=np.array([[0.3, 0.3]])),
                      {"alpha": "rows", "X": "array", "kernel": "callable", "x": "array"}),
}
EXEMPT = {}
_asym = lambda A, B: _kern(A, B) + 0.3 * np.triu(np.ones((len(A), len(B))), 1)  # noqa: E731
CASES = {
    "Y with another number of columns": ("exponentiated_quadratic",
                                         lambda: dict(X=_X.copy(), Y=np.ones((2, 3)), ell=1.0), "Y"),
    "a Taylor series that overflows": ("taylor_series_kernel",
                                       lambda: dict(X=1e100 * _X, Y=None, coeffs=np.ones(10)), "coeffs"),
    "polynomial features that overflow": ("polynomial_feature_map",
                                          lambda: dict(X=1e200 * _X, degree=3, c=1.0), "X"),
    "more than 10^6 polynomial features": ("polynomial_feature_map",
                                           lambda: dict(X=_X.copy(), degree=2000, c=1.0), "degree"),
    "an even number of kernel coefficients": ("periodic_kernel",
                                              lambda: dict(x=np.zeros(2), y=np.zeros(1), k_hat=np.ones(4)), "k_hat"),
    "kernel coefficients not symmetric in l": ("periodic_kernel",
                                               lambda: dict(x=np.zeros(2), y=np.zeros(1), k_hat=np.arange(1.0, 6.0)),
                                               "k_hat"),
    "a negative kernel coefficient": ("periodic_kernel",
                                      lambda: dict(x=np.zeros(2), y=np.zeros(1), k_hat=-_khat), "k_hat"),
    "an even number of grid values": ("fourier_coefficients", lambda: dict(values=np.ones(8)), "values"),
    "a zero kernel coefficient in the RKHS norm": ("fourier_rkhs_inner",
                                                   lambda: dict(f_hat=_fhat.copy(), g_hat=_fhat.copy(),
                                                                k_hat=np.array([0.0, 0.5, 1.0, 0.5, 0.0])), "k_hat"),
    "an RKHS norm that overflows": ("fourier_rkhs_inner",
                                    lambda: dict(f_hat=np.full(5, 1e200), g_hat=np.full(5, 1e200),
                                                 k_hat=np.array([1e-200, 0.5, 1.0, 0.5, 1e-200])), "k_hat"),
    "a kernel with an asymmetric Gram matrix": ("nystrom_eigenfunctions",
                                                lambda: dict(kernel=_asym, X_sample=_X.copy(), n_terms=2), "kernel"),
    "an indefinite kernel": ("nystrom_eigenfunctions",
                             lambda: dict(kernel=lambda A, B: _kern(A, B) - 2.0 * (A @ B.T), X_sample=_X.copy(),
                                          n_terms=1), "kernel"),
    "more eigenpairs than the numerical rank": ("nystrom_eigenfunctions",
                                                lambda: dict(kernel=lambda A, B: A @ B.T, X_sample=_X.copy(),
                                                             n_terms=3), "n_terms"),
    "a kernel returning the wrong shape": ("rkhs_evaluate",
                                           lambda: dict(alpha=np.ones(3), X=_X.copy(), kernel=lambda A, B: A @ A.T,
                                                        x=np.ones((2, 2))), "kernel"),
    "evaluation points with another number of columns": ("rkhs_evaluate",
                                                         lambda: dict(alpha=np.ones(3), X=_X.copy(), kernel=_kern,
                                                                      x=np.ones((2, 3))), "x"),
}
