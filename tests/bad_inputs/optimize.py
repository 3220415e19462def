import numpy as np

_G = lambda x: 2 * x  # noqa: E731  gradient of ||x||²
_BG = lambda x, idx: 2 * x  # noqa: E731
_P = lambda y: np.clip(y, 0, 1)  # noqa: E731
_RUN = {"grad": "callable", "x0": "array", "step": "positive", "n_steps": "count"}

SPECS = {
    "gradient_descent": (lambda: dict(grad=_G, x0=np.ones(2), step=0.1, n_steps=3), _RUN),
    "sgd": (lambda: dict(grad=_G, x0=np.ones(2), step=0.1, n_steps=3), _RUN),
    "momentum": (lambda: dict(grad=_G, x0=np.ones(2), step=0.1, n_steps=3, mu=0.5),
                 {**_RUN, "mu": "probability"}),
    "adagrad": (lambda: dict(grad=_G, x0=np.ones(2), step=0.1, n_steps=3, eps=1e-8),
                {**_RUN, "eps": "positive"}),
    "rmsprop": (lambda: dict(grad=_G, x0=np.ones(2), step=0.1, n_steps=3, beta=0.9, eps=1e-8),
                {**_RUN, "beta": "probability", "eps": "positive"}),
    "adam": (lambda: dict(grad=_G, x0=np.ones(2), step=0.1, n_steps=3, beta1=0.9, beta2=0.999, eps=1e-8),
             {**_RUN, "beta1": "probability", "beta2": "probability", "eps": "positive"}),
    "projected_gradient_descent": (lambda: dict(grad=_G, project=_P, x0=np.ones(2), step=0.1, n_steps=3),
                                   {**_RUN, "project": "callable"}),
    "project_box": (lambda: dict(x=np.array([[0.5, 2.0], [-1.0, 0.3]]), lower=0.0, upper=np.array([1.0, 1.0])),
                    {"x": "array", "lower": "extended", "upper": "extended"}),
    "project_ball": (lambda: dict(x=np.array([3.0, 4.0]), radius=2.0, center=np.zeros(2)),
                     {"x": "array", "radius": "positive", "center": "array?"}),
    "project_simplex": (lambda: dict(x=np.array([0.2, 1.5, -0.3]), total=1.0),
                        {"x": "array", "total": "positive"}),
    "minibatch_gradient": (lambda: dict(batch_grad=_BG, n=10, batch_size=3, rng=np.random.default_rng(0)),
                           {"batch_grad": "callable", "n": "count", "batch_size": "count", "rng": "rng"}),
}
EXEMPT = {}
