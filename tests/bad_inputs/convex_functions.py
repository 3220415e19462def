import numpy as np

from mlnotes import convex_functions as cf

_sq = lambda X: np.sum(X * X, axis=1)  # noqa: E731
_sq1 = lambda x: x ** 2  # noqa: E731
_grad = lambda X: 2 * X  # noqa: E731
_P = np.array([[0.1, 0.2], [1.0, -0.5], [0.3, 0.3]])
_Q = np.array([[0.4, -0.2], [0.0, 0.5], [-1.0, 1.0]])

SPECS = {
    "on_line": (lambda: dict(f=_sq, x=np.array([1.0, 2.0]), v=np.array([0.5, -1.0]), ts=np.linspace(-1, 1, 5)),
                {"f": "callable", "x": "array", "v": "array", "ts": "array"}),
    "hessian_fd": (lambda: dict(f=_sq, x=np.array([1.0, 2.0]), h=1e-4),
                   {"f": "callable", "x": "array", "h": "positive"}),
    "first_order_gap": (lambda: dict(f=_sq, grad=_grad, x=_P.copy(), y=_Q.copy()),
                        {"f": "callable", "grad": "callable", "x": "array", "y": "rows"}),
    "jensen_gap": (lambda: dict(f=_sq, xs=_P.copy(), weights=np.array([0.2, 0.3, 0.5])),
                   {"f": "callable", "xs": "array", "weights": "probabilities"}),
    "log_sum_exp": (lambda: dict(x=_P.copy()), {"x": "array"}),
    "geometric_mean": (lambda: dict(x=np.array([[1.0, 2.0], [0.5, 4.0]])), {"x": "array"}),
    "quad_over_lin": (lambda: dict(x=_P.copy(), y=np.array([1.0, 2.0, 0.5])), {"x": "array", "y": "rows"}),
    "log_det": (lambda: dict(X=np.array([[2.0, 0.5], [0.5, 1.0]])), {"X": "psd"}),
    "neg_entropy": (lambda: dict(x=np.array([0.0, 0.3, 0.7])), {"x": "array"}),
    "conjugate_numeric": (lambda: dict(f=_sq, y=np.array([0.5, -1.0]), x0=np.zeros(2), bounds=None,
                                       radius=10.0, method="L-BFGS-B"),
                          {"f": "callable", "y": "array", "x0": "array", "radius": "positive",
                           "method": "choice"}),
    "conj_quadratic": (lambda: dict(Q=np.array([[2.0, 0.5], [0.5, 1.0]])), {"Q": "psd"}),
    "conj_exp": (lambda: dict(y=np.array([-1.0, 0.0, 2.0])), {"y": "array"}),
    "conj_neg_log": (lambda: dict(y=np.array([-1.0, 0.0, 2.0])), {"y": "array"}),
    "conj_log_sum_exp": (lambda: dict(y=np.array([0.2, 0.3, 0.5])), {"y": "array"}),
    "conj_norm": (lambda: dict(ord=2), {"ord": "choice"}),
    "biconjugate_1d": (lambda: dict(f=_sq1, grid=np.linspace(-1, 1, 11), n_slopes=101),
                       {"f": "callable", "grid": "array", "n_slopes": "count"}),
    "fenchel_young_gap": (lambda: dict(f=_sq, f_conj=lambda Y: np.sum(Y * Y, axis=1) / 4, x=_P.copy(), y=_Q.copy()),
                          {"f": "callable", "f_conj": "callable", "x": "array", "y": "rows"}),
    "modified_jensen_holds": (lambda: dict(f=_sq1, x=np.array([0.0, 1.0]), y=np.array([2.0, -1.0]),
                                           thetas=np.array([0.0, 0.5, 1.0])),
                              {"f": "callable", "x": "array", "y": "rows", "thetas": "array"}),
    "second_log_difference": (lambda: dict(f=lambda x: np.exp(-x ** 2), grid=np.linspace(-1, 1, 11)),
                              {"f": "callable", "grid": "array"}),
}

CASES = {
    "weights of another length than xs": (
        "jensen_gap", lambda: dict(f=_sq, xs=_P.copy(), weights=np.array([0.5, 0.5])), "weights"),
    "v of another shape than x": (
        "on_line", lambda: dict(f=_sq, x=np.array([1.0, 2.0]), v=np.ones(3), ts=np.linspace(-1, 1, 5)), "v"),
    "f returning one value too few": (
        "hessian_fd", lambda: dict(f=lambda X: np.sum(X * X, axis=1)[:-1], x=np.array([1.0, 2.0]), h=1e-4), "f"),
    "f returning NaN": (
        "jensen_gap", lambda: dict(f=lambda X: np.full(len(X), np.nan), xs=_P.copy(), weights=np.full(3, 1 / 3)), "f"),
    "y of another dimension than x0": (
        "conjugate_numeric", lambda: dict(f=_sq, y=np.ones(3), x0=np.zeros(2)), "y"),
    "a grid that is not increasing": (
        "biconjugate_1d", lambda: dict(f=_sq1, grid=np.array([0.0, 1.0, 0.5, 2.0]), n_slopes=11), "grid"),
    "f non-positive on the grid (log f undefined)": (
        "second_log_difference", lambda: dict(f=lambda x: x, grid=np.linspace(-1, 1, 5)), "f"),
    "thetas outside [0, 1]": (
        "modified_jensen_holds", lambda: dict(f=_sq1, x=np.array([0.0, 1.0]), y=np.array([2.0, -1.0]),
                                              thetas=np.array([0.5, 1.5])), "thetas"),
}
