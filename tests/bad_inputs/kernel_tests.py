import numpy as np

_x = np.array([0.1, -0.4, 1.2, 0.7, -1.5, 0.3])
_X2 = np.array([[0.1, 0.2], [-0.4, 1.0], [1.2, -0.3], [0.7, 0.5], [-1.5, 0.1], [0.3, -0.8]])
_K = np.exp(-0.5 * (_x[:, None] - _x[None, :]) ** 2)
_L = np.exp(-0.5 * (_x[:, None] ** 2 - _x[None, :] ** 2) ** 2)
_score = lambda X: -X  # noqa: E731
_phi = np.array([1.0, 0.3, 0.1])

SPECS = {
    "empirical_characteristic_function": (lambda: dict(X=_X2.copy(), omegas=_X2[:3].copy()),
                                          {"X": "array", "omegas": "array"}),
    "mmd2_fourier_periodic": (lambda: dict(phi_p=_phi.copy(), phi_q=np.array([1.0, 0.0, 0.2]),
                                           k_hat=np.array([1.0, 0.5, 0.25])),
                              {"phi_p": "array", "phi_q": "rows", "k_hat": "rows"}),
    "mmd2_random_features": (lambda: dict(X=_X2.copy(), Y=_X2[::-1] + 1.0, n_features=20, gamma=0.5,
                                          rng=np.random.default_rng(0)),
                             {"X": "array", "Y": "array", "n_features": "count", "gamma": "positive",
                              "rng": "rng"}),
    "non_characteristic_demo": (lambda: dict(a=0.8, rho=0.5, L=10),
                                {"a": "number", "rho": "probability", "L": "count"}),
    "coco": (lambda: dict(K=_K.copy(), L=_L.copy(), eps=1e-9), {"K": "psd", "L": "psd", "eps": "positive"}),
    "coco_closed_form": (lambda: dict(K=_K.copy(), L=_L.copy()), {"K": "psd", "L": "psd"}),
    "coco_witness": (lambda: dict(K=_K.copy(), L=_L.copy(), K_eval=_K[:2].copy(), L_eval=None),
                     {"K": "psd", "L": "psd", "K_eval": "array?", "L_eval": "array?"}),
    "stein_kernel_rbf": (lambda: dict(X=_X2.copy(), score=_score, ell=1.0),
                         {"X": "array", "score": "callable", "ell": "positive"}),
    "ksd_u": (lambda: dict(X=_x.copy(), score=_score, ell=1.0),
              {"X": "array", "score": "callable", "ell": "positive"}),
    "ksd_v": (lambda: dict(X=_x.copy(), score=_score, ell=1.0),
              {"X": "array", "score": "callable", "ell": "positive"}),
    "ksd_wild_bootstrap": (lambda: dict(X=_x.copy(), score=_score, ell=1.0, B=19, rng=np.random.default_rng(0)),
                           {"X": "array", "score": "callable", "ell": "positive", "B": "count", "rng": "rng"}),
    "stein_identity": (lambda: dict(score=_score, f=np.sin, df=np.cos, samples=_x.copy()),
                       {"score": "callable", "f": "callable", "df": "callable", "samples": "array"}),
    "stein_witness": (lambda: dict(t=np.linspace(-1, 1, 5), X=_x.copy(), score=_score, ell=1.0),
                      {"t": "array", "X": "array", "score": "callable", "ell": "positive"}),
}
_huge = np.array([1e200, -1e200, 0.0])
CASES = {
    "frequencies with another number of columns": ("empirical_characteristic_function",
                                                   lambda: dict(X=_X2.copy(), omegas=np.ones((2, 3))), "omegas"),
    "density coefficients instead of a characteristic function": (
        "mmd2_fourier_periodic", lambda: dict(phi_p=_phi / (2 * np.pi), phi_q=_phi.copy(),
                                              k_hat=np.array([1.0, 0.5, 0.25])), "phi_p"),
    "Y with another number of columns": ("mmd2_random_features",
                                         lambda: dict(X=_X2.copy(), Y=np.ones((4, 3)), n_features=5, gamma=1.0,
                                                      rng=np.random.default_rng(0)), "Y"),
    "L of another size": ("coco", lambda: dict(K=_K.copy(), L=_L[:5, :5].copy(), eps=1e-9), "L"),
    "a ridge below rounding level": ("coco", lambda: dict(K=_K.copy(), L=_L.copy(), eps=1e-300), "eps"),
    "L of another size (closed form)": ("coco_closed_form", lambda: dict(K=_K.copy(), L=_L[:5, :5].copy()), "L"),
    "K_eval with a column per missing point": ("coco_witness",
                                               lambda: dict(K=_K.copy(), L=_L.copy(), K_eval=np.ones((2, 5)),
                                                            L_eval=None), "K_eval"),
    "a Stein kernel that overflows": ("stein_kernel_rbf", lambda: dict(X=_huge.copy(), score=_score, ell=1.0), "X"),
    "a score of the wrong shape": ("stein_kernel_rbf",
                                   lambda: dict(X=_X2.copy(), score=lambda X: X[:, 0], ell=1.0), "score"),
    "a U-statistic that overflows": ("ksd_u", lambda: dict(X=_huge.copy(), score=_score, ell=1.0), "X"),
    "one point only": ("ksd_u", lambda: dict(X=np.array([0.3]), score=_score, ell=1.0), "X"),
    "a test function of the wrong shape": ("stein_identity",
                                           lambda: dict(score=_score, f=lambda v: v[:2], df=np.cos,
                                                        samples=_x.copy()), "f"),
}
