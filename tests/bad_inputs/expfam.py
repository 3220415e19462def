import numpy as np

from mlnotes import expfam

_rng = np.random.default_rng(0)
_G = _rng.standard_normal((3, 3))
_S = _G @ _G.T + 3 * np.eye(3)
_U = _rng.standard_normal((3, 2))
_x01 = np.array([0.0, 1.0, 1.0, 0.0])
_NW = lambda: dict(m=np.zeros(2), beta=1.0, W=np.eye(2), nu=3.0)  # noqa: E731
_Xnw = _rng.standard_normal((5, 2))

SPECS = {
    "woodbury_inverse": (lambda: dict(A_inv=np.eye(3), U=_U, C=np.eye(2), V=_U.T),
                         {"A_inv": "array", "U": "array", "C": "array", "V": "array"}),
    "gain_identity_sides": (lambda: dict(P=_S, B=_U.T, R=np.eye(2)),
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
                           {"mu": "array", "Sigma": "array", "a": "array", "x_b": "array"}),
    "gaussian_marginal": (lambda: dict(mu=np.zeros(3), Sigma=_S, a=np.array([0, 2])),
                          {"mu": "array", "Sigma": "array", "a": "array"}),
    "linear_gaussian": (lambda: dict(mu=np.zeros(3), Lambda_inv=_S, A=_U.T, b=np.zeros(2), L_inv=np.eye(2)),
                        {"mu": "array", "Lambda_inv": "array", "A": "array", "b": "array", "L_inv": "array"}),
}
EXEMPT = {}
