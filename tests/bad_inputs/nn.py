import numpy as np

from mlnotes import nn

_R = np.random.default_rng(0)
_X = _R.standard_normal((6, 2))
_Y = nn.one_hot(np.array([0, 1, 0, 1, 1, 0]), 2)
_Z = _R.standard_normal((6, 2))
_A, _W, _B = _R.standard_normal((6, 3)), _R.standard_normal((3, 2)), _R.standard_normal(2)


def _mlp():
    return nn.MLP((2, 3, 2), "tanh", "softmax", "xavier", np.random.default_rng(1))


def _quadratic(v):
    return float(np.sum(v ** 2))


SPECS = {
    "numerical_gradient": (lambda: dict(f=_quadratic, x=np.array([1.0, -2.0]), h=1e-6),
                           {"f": "callable", "x": "array", "h": "positive"}),
    "gradient_check": (lambda: dict(f=_quadratic, x=np.array([1.0, -2.0]), analytic=np.array([2.0, -4.0]), h=1e-6),
                       {"f": "callable", "x": "array", "analytic": "array", "h": "positive"}),
    "activation": (lambda: dict(z=_Z, name="tanh"), {"z": "array", "name": "choice"}),
    "softmax": (lambda: dict(Z=_Z), {"Z": "array"}),
    "output_loss": (lambda: dict(Z=_Z, Y=_Y, output="softmax"), {"Z": "array", "Y": "array", "output": "choice"}),
    "dense_forward": (lambda: dict(A=_A, W=_W, b=_B), {"A": "array", "W": "array", "b": "array"}),
    "dense_backward": (lambda: dict(A=_A, W=_W, dZ=_Z), {"A": "array", "W": "array", "dZ": "array"}),
    "init_weights": (lambda: dict(sizes=[2, 3, 2], scheme="he", rng=np.random.default_rng(0)),
                     {"sizes": "array", "scheme": "choice", "rng": "rng"}),
    "MLP.forward": (lambda: dict(X=_X), {"X": "array"}, _mlp),
    "MLP.predict": (lambda: dict(X=_X), {"X": "array"}, _mlp),
    "MLP.backward": (lambda: dict(cache=_mlp().forward(_X), Y=_Y), {"cache": "object", "Y": "array"}, _mlp),
    "MLP.loss_and_grad": (lambda: dict(X=_X, Y=_Y, weight_decay=0.1),
                          {"X": "array", "Y": "array", "weight_decay": "nonnegative"}, _mlp),
    "MLP.set_params": (lambda: dict(theta=np.zeros(17)), {"theta": "array"}, _mlp),
    "train": (lambda: dict(model=_mlp(), X=_X, Y=_Y, step=0.01, n_steps=3, batch_size=3, rng=np.random.default_rng(2),
                           weight_decay=0.1),
              {"model": "object", "X": "array", "Y": "array", "step": "positive", "n_steps": "count",
               "batch_size": "count?", "rng": "rng?", "weight_decay": "nonnegative"}),
    "one_hot": (lambda: dict(y=np.array([0, 2, 1]), k=3), {"y": "array", "k": "count"}),
    "two_moons": (lambda: dict(n=10, noise=0.1, rng=np.random.default_rng(0)),
                  {"n": "count", "noise": "nonnegative", "rng": "rng"}),
}
EXEMPT = {"MLP.get_params": "takes no argument: it returns the model's own parameters as one vector"}
