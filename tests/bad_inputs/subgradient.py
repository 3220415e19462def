import numpy as np

_F = lambda x: float(np.sum(np.abs(x)))  # noqa: E731
_U = lambda x: np.sign(x)  # noqa: E731
_P = lambda y: np.clip(y, -1, 1)  # noqa: E731
_S = lambda x, rng: np.sign(x) + rng.standard_normal(x.size)  # noqa: E731
_rng = np.random.default_rng(0)
_X = np.vstack([_rng.standard_normal((5, 2)) + 1.5, _rng.standard_normal((5, 2)) - 1.5])
_Y = np.array([1] * 5 + [-1] * 5)

SPECS = {
    "subgradient_abs": (lambda: dict(x=np.array([-1.0, 0.0, 2.0])), {"x": "array"}),
    "subgradient_l1": (lambda: dict(x=np.array([1.0, 0.0]), weights=np.array([1.0, 2.0]), at_zero=0.5),
                       {"x": "array", "weights": "rows?", "at_zero": "number"}),
    "subgradient_hinge": (lambda: dict(w=np.array([0.1, 0.2]), X=_X.copy(), y=_Y.copy()),
                          {"w": "array", "X": "array", "y": "rows"}),
    "subgradient_max_affine": (lambda: dict(A=np.eye(2), b=np.zeros(2), x=np.array([1.0, 2.0])),
                               {"A": "array", "b": "rows", "x": "array"}),
    "one_sided_derivatives": (lambda: dict(f=np.abs, x=np.array([0.0, 1.0]), h=1e-3),
                              {"f": "callable", "x": "array", "h": "positive"}),
    "projected_subgradient": (lambda: dict(f=_F, subgrad=_U, project=_P, x0=np.array([0.5, -0.3]),
                                           steps=np.array([0.1, 0.05])),
                              {"f": "callable", "subgrad": "callable", "project": "callable",
                               "x0": "array", "steps": "array"}),
    "step_sizes": (lambda: dict(kind="power", gamma_bar=1.0, n_steps=5, alpha=0.75),
                   {"kind": "choice", "gamma_bar": "positive", "n_steps": "count", "alpha": "probability"}),
    "subgradient_rate_bound": (lambda: dict(D=1.0, L=2.0, steps=np.array([0.1, 0.1])),
                               {"D": "nonnegative", "L": "nonnegative", "steps": "array"}),
    "projected_sgd": (lambda: dict(sample_subgrad=_S, project=_P, x0=np.array([0.5, -0.3]),
                                   steps=np.array([0.1, 0.05]), rng=np.random.default_rng(1)),
                      {"sample_subgrad": "callable", "project": "callable", "x0": "array",
                       "steps": "array", "rng": "rng"}),
    "pegasos": (lambda: dict(X=_X.copy(), y=_Y.copy(), lam=0.1, n_steps=5, rng=np.random.default_rng(2)),
                {"X": "array", "y": "rows", "lam": "positive", "n_steps": "count", "rng": "rng"}),
}
EXEMPT = {}
CASES = {
    "h below the float spacing at x": (
        "one_sided_derivatives", lambda: dict(f=np.abs, x=np.array([1e8]), h=1e-300), "h"),
}
