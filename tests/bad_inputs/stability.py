import numpy as np

from mlnotes import kernels
from mlnotes import stability as st

_rng = np.random.default_rng(0)
_X = _rng.uniform(-1, 1, (8, 2))
_y = np.where(_X[:, 0] > 0, 1.0, -1.0)
_K = kernels.rbf_kernel(_X)
_Kt = kernels.rbf_kernel(_rng.uniform(-1, 1, (5, 2)), _X)
_pool = (_rng.uniform(-1, 1, (3, 2)), np.array([1.0, -1.0, 1.0]))


def _fit(X, y, X_eval):
    alpha = st.tikhonov_kernel(np.exp(-((X[..., :, None, :] - X[..., None, :, :]) ** 2).sum(-1)), y, 0.1)
    return np.einsum("bmn,bn->bm", np.exp(-((X_eval[None, :, None, :] - X[:, None, :, :]) ** 2).sum(-1)), alpha)


def _loss(p, y):
    return (p - y) ** 2


SPECS = {
    "tikhonov_least_squares": (lambda: dict(X=_X, y=_y, lam=0.1),
                               {"X": "array", "y": "rows", "lam": "positive"}),
    "tikhonov_kernel": (lambda: dict(K=_K, y=_y, lam=0.1), {"K": "psd", "y": "rows", "lam": "positive"}),
    "tikhonov_kernel_logistic": (lambda: dict(K=_K, y=_y, lam=0.1, tol=1e-10, max_iter=50),
                                 {"K": "psd", "y": "rows", "lam": "positive", "tol": "positive",
                                  "max_iter": "count"}),
    "replace_one": (lambda: dict(S=(_X, _y), i=2, z=(np.zeros(2), 1.0)),
                    {"S": "object", "i": "index", "z": "object"}),
    "empirical_stability": (lambda: dict(fit=_fit, loss=_loss, S=(_X, _y), z_pool=_pool,
                                         rng=np.random.default_rng(1), n_pairs=5),
                            {"fit": "callable", "loss": "callable", "S": "object", "z_pool": "object",
                             "rng": "rng", "n_pairs": "count?"}),
    "stability_bound_tikhonov": (lambda: dict(L=1.0, kappa=1.0, n=10, lam=0.1, sharp=False),
                                 {"L": "positive", "kappa": "positive", "n": "count", "lam": "positive",
                                  "sharp": "bool"}),
    "mcdiarmid_bound": (lambda: dict(c=np.full(10, 0.1), eps=0.2), {"c": "array", "eps": "positive"}),
    "gd_kernel_path": (lambda: dict(K=_K, y=_y, step=0.5, T=5, loss="logistic"),
                       {"K": "psd", "y": "rows", "step": "positive", "T": "count", "loss": "choice"}),
    "stability_bound_gd": (lambda: dict(L=1.0, kappa=1.0, M=0.25, n=10, T=5, step=None),
                           {"L": "positive", "kappa": "positive", "M": "positive", "n": "count",
                            "T": "count", "step": "positive?"}),
    "early_stopping_curve": (lambda: dict(K=_K, y=_y, K_test=_Kt, y_test=np.zeros(5), step=0.5, T=5),
                             {"K": "psd", "y": "rows", "K_test": "array", "y_test": "rows",
                              "step": "positive", "T": "count"}),
    "covering_number_ball": (lambda: dict(gamma=1.0, eta=0.3, d=2),
                             {"gamma": "positive", "eta": "positive", "d": "count"}),
}
EXEMPT = {}
CASES = {
    "a step that makes gradient descent diverge": (
        "gd_kernel_path", lambda: dict(K=1e3 * np.eye(3), y=np.ones(3), step=1e3, T=200, loss="square"), "step"),
    "an indefinite batch of Gram matrices": (
        "tikhonov_kernel", lambda: dict(K=np.stack([_K, _K - 2 * np.eye(8)]), y=np.stack([_y, _y]), lam=0.1), "K"),
}
