import numpy as np

from mlnotes import expfam

_rng = np.random.default_rng(0)
_G = _rng.standard_normal((3, 3))
_S = _G @ _G.T + 3 * np.eye(3)
_U = _rng.standard_normal((3, 2))
# C-ordered: the harness puts its inf entry through a reshape(-1) view, which a transposed
# (Fortran-ordered) array would silently copy, leaving the valid value unchanged
_Ut = np.ascontiguousarray(_U.T)
_x01 = np.array([0.0, 1.0, 1.0, 0.0])
_NW = lambda: dict(m=np.zeros(2), beta=1.0, W=np.eye(2), nu=3.0)  # noqa: E731
_Xnw = _rng.standard_normal((5, 2))

SPECS = {
    "woodbury_inverse": (lambda: dict(A_inv=np.eye(3), U=_U, C=np.eye(2), V=_Ut),
                         {"A_inv": "array", "U": "array", "C": "array", "V": "array"}),
    "gain_identity_sides": (lambda: dict(P=_S, B=_Ut, R=np.eye(2)),
                            {"P": "array", "B": "array", "R": "array"}),
    "partitioned_inverse": (lambda: dict(A=_S[:2, :2], B=_S[:2, 2:], C=_S[2:, :2], D=_S[2:, 2:]),
                            {"A": "array", "B": "array", "C": "array", "D": "array"}),
    "numeric_matrix_derivative": (lambda: dict(f=lambda M: np.trace(M), A=_S, h=1e-5),
                                  {"f": "callable", "A": "array", "h": "positive"}),
    "log_partition": (lambda: dict(theta=np.array([0.3, -0.5]), family="normal"),
                      {"theta": "array", "family": "choice"}),
    "mean_parameters": (lambda: dict(theta=np.array([0.3, -0.5]), family="normal"),
                        {"theta": "array", "family": "choice"}),
    "natural_parameters": (lambda: dict(mu=np.array([0.3, 1.0]), family="normal"),
                           {"mu": "array", "family": "choice"}),
    "sufficient_statistics": (lambda: dict(x=_x01, family="bernoulli"),
                              {"x": "array", "family": "choice"}),
    "conjugate_posterior": (lambda: dict(family="normal-wishart", prior=_NW(), x=_Xnw),
                            {"family": "choice", "prior": "object", "x": "array"}),
    "log_marginal_likelihood": (lambda: dict(family="beta-bernoulli", prior=dict(a=1.0, b=2.0), x=_x01),
                                {"family": "choice", "prior": "object", "x": "array"}),
    "posterior_predictive": (lambda: dict(family="normal-wishart", post=_NW()),
                             {"family": "choice", "post": "object"}),
    "gaussian_condition": (lambda: dict(mu=np.zeros(3), Sigma=_S, a=np.array([0]), x_b=np.ones(2)),
                           {"mu": "array", "Sigma": "psd", "a": "array", "x_b": "rows"}),
    "gaussian_marginal": (lambda: dict(mu=np.zeros(3), Sigma=_S, a=np.array([0, 2])),
                          {"mu": "array", "Sigma": "psd", "a": "array"}),
    "linear_gaussian": (lambda: dict(mu=np.zeros(3), Lambda_inv=_S, A=_Ut, b=np.zeros(2), L_inv=np.eye(2)),
                        {"mu": "array", "Lambda_inv": "psd", "A": "array", "b": "rows", "L_inv": "psd"}),
}
EXEMPT = {}

_NN = lambda: dict(m=0.0, v=1.0, sigma2=1.0)  # noqa: E731
CASES = {
    "gain identity whose products overflow": ("gain_identity_sides",
                                              lambda: dict(P=1e300 * np.eye(2), B=1e300 * np.eye(2), R=np.eye(2)), "P"),
    "finite-difference step below the float spacing": ("numeric_matrix_derivative",
                                                       lambda: dict(f=np.trace, A=_S, h=1e-300), "h"),
    "Poisson log-partition that overflows": ("log_partition", lambda: dict(theta=1000.0, family="poisson"), "theta"),
    "Poisson mean that overflows": ("mean_parameters", lambda: dict(theta=1000.0, family="poisson"), "theta"),
    "beta mean too close to the boundary (Newton unconverged)": (
        "natural_parameters", lambda: dict(mu=np.array([-1e-12, -40.0]), family="beta"), "mu"),
    "normal observations whose squares overflow": ("sufficient_statistics",
                                                   lambda: dict(x=np.array([1e200, 0.0]), family="normal"), "x"),
    "Normal–Wishart data with the wrong dimension": (
        "conjugate_posterior", lambda: dict(family="normal-wishart", prior=_NW(), x=np.ones((4, 3))), "x"),
    "Normal–Wishart scale matrix not positive definite": (
        "conjugate_posterior",
        lambda: dict(family="normal-wishart", prior=dict(_NW(), W=np.array([[1.0, 2.0], [2.0, 1.0]])), x=_Xnw),
        "prior"),
    "linear Gaussian whose covariance overflows": (
        "linear_gaussian", lambda: dict(mu=np.zeros(3), Lambda_inv=1e300 * _S, A=1e10 * _Ut, b=np.zeros(2),
                                        L_inv=np.eye(2)), "Lambda_inv"),
    "conditioning on every coordinate": ("gaussian_condition",
                                         lambda: dict(mu=np.zeros(3), Sigma=_S, a=np.arange(3), x_b=np.ones(1)), "a"),
}
