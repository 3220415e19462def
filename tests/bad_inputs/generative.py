import numpy as np

_R = np.random.default_rng(0)
_X = _R.standard_normal((20, 3))
_P, _Q = np.array([0.2, 0.3, 0.5]), np.array([0.5, 0.25, 0.25])
_W3, _G2 = np.array([0.1, -0.2, 0.05]), np.array([1.0, 0.5])
_XR, _ZZ = _R.normal(1.0, 0.5, 8), _R.standard_normal(6)


def _elbo():
    return dict(x=np.array([0.5, -1.0, 0.2]), W=np.array([[1.0, 0.0], [0.5, 1.0], [0.0, -1.0]]),
                mu=np.zeros(3), sigma=0.7, m=np.array([0.1, -0.3]), S=np.array([[0.5, 0.1], [0.1, 0.4]]))


_ELBO_KINDS = {"x": "array", "W": "array", "mu": "array", "sigma": "positive", "m": "array", "S": "array"}

SPECS = {
    "linear_autoencoder": (lambda: dict(X=_X, k=1, n_iter=5, lr=0.05, rng=np.random.default_rng(0)),
                           {"X": "array", "k": "count", "n_iter": "count", "lr": "positive", "rng": "rng"}),
    "optimal_discriminator": (lambda: dict(p_data=_P, p_g=_Q), {"p_data": "array", "p_g": "array"}),
    "gan_value": (lambda: dict(D=np.array([0.3, 0.5, 0.6]), p_data=_P, p_g=_Q),
                  {"D": "array", "p_data": "probabilities", "p_g": "probabilities"}),
    "jsd": (lambda: dict(p=_P, q=_Q), {"p": "probabilities", "q": "probabilities"}),
    "jsd_normal": (lambda: dict(mu1=0.0, sd1=1.0, mu2=0.5, sd2=2.0, n_grid=64),
                   {"mu1": "number", "sd1": "positive", "mu2": "number", "sd2": "positive", "n_grid": "count"}),
    "discriminator": (lambda: dict(w=_W3, x=_XR), {"w": "array", "x": "array"}),
    "gan_minibatch_value": (lambda: dict(w=_W3, g=_G2, x_real=_XR, z=_ZZ),
                            {"w": "array", "g": "array", "x_real": "array", "z": "array"}),
    "generator_loss": (lambda: dict(w=_W3, g=_G2, z=_ZZ), {"w": "array", "g": "array", "z": "array"}),
    "gan_gradients": (lambda: dict(w=_W3, g=_G2, x_real=_XR, z=_ZZ),
                      {"w": "array", "g": "array", "x_real": "array", "z": "array"}),
    "train_gan_1d": (lambda: dict(x_data=_XR, n_steps=2, rng=np.random.default_rng(0), g0=(1.0, 0.0), lr_d=0.1,
                                  lr_g=0.01, d_steps=2, batch=4),
                     {"x_data": "array", "n_steps": "count", "rng": "rng", "g0": "array", "lr_d": "positive",
                      "lr_g": "positive", "d_steps": "count", "batch": "count"}),
    "elbo_linear_gaussian": (_elbo, _ELBO_KINDS),
    "elbo_monte_carlo": (lambda: dict(_elbo(), n_samples=10, rng=np.random.default_rng(0)),
                         dict(_ELBO_KINDS, n_samples="count", rng="rng")),
}
EXEMPT = {}
