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
    "periodic_kernel": (lambda: dict(x=_x.copy(), y=_x[:3].copy(), k_hat=np.array([1.0, 0.5, 0.25])),
                        {"x": "array", "y": "array", "k_hat": "array"}),
    "mmd2_fourier_periodic": (lambda: dict(phi_p=_phi.copy(), phi_q=np.array([1.0, 0.0, 0.2]),
                                           k_hat=np.array([1.0, 0.5, 0.25])),
                              {"phi_p": "array", "phi_q": "array", "k_hat": "array"}),
    "mmd2_random_features": (lambda: dict(X=_X2.copy(), Y=_X2[::-1] + 1.0, n_features=20, gamma=0.5,
                                          rng=np.random.default_rng(0)),
                             {"X": "array", "Y": "array", "n_features": "count", "gamma": "positive",
                              "rng": "rng"}),
    "non_characteristic_demo": (lambda: dict(a=0.8, rho=0.5, L=10),
                                {"a": "number", "rho": "probability", "L": "count"}),
    "coco": (lambda: dict(K=_K.copy(), L=_L.copy(), eps=1e-9), {"K": "array", "L": "array", "eps": "positive"}),
    "coco_closed_form": (lambda: dict(K=_K.copy(), L=_L.copy()), {"K": "array", "L": "array"}),
    "coco_witness": (lambda: dict(K=_K.copy(), L=_L.copy(), K_eval=_K[:2].copy(), L_eval=None),
                     {"K": "array", "L": "array", "K_eval": "array?", "L_eval": "array?"}),
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
