import numpy as np

from mlnotes import bethe

_E = np.array([(0, 1), (1, 2), (0, 2)])
_U = np.array([[0.0, 0.3], [0.0, -0.2], [0.0, 0.1]])
_P = np.tile(np.array([[0.5, 0.0], [0.0, 0.5]]), (3, 1, 1))
_mrf = lambda: bethe.PairwiseMRF(_U, _P, _E)  # noqa: E731
_bn = np.full((3, 2), 0.5)
_be = np.full((3, 2, 2), 0.25)
_M = {"mrf": "object"}
_J = np.array([[2.0, 0.5, 0.0], [0.5, 2.0, 0.5], [0.0, 0.5, 2.0]])
_rng = np.random.default_rng(0)
_STRONG = (_rng.normal(0, 1, (3, 2)), _rng.normal(0, 4, (3, 2, 2)))

SPECS = {
    "exact_log_partition": (lambda: dict(mrf=_mrf()), _M),
    "exact_marginals": (lambda: dict(mrf=_mrf()), _M),
    "loopy_bp": (lambda: dict(mrf=_mrf(), schedule="parallel", damping=0.5, max_iter=50, tol=1e-8,
                              init=np.full((6, 2), 0.5)),
                 {"mrf": "object", "schedule": "choice", "damping": "probability",
                  "max_iter": "count", "tol": "positive", "init": "rows?"}),
    "bethe_free_energy": (lambda: dict(mrf=_mrf(), b_node=_bn.copy(), b_edge=_be.copy()),
                          {"mrf": "object", "b_node": "probabilities", "b_edge": "probabilities"}),
    "naive_mean_field": (lambda: dict(mrf=_mrf(), max_iter=50, tol=1e-8),
                         {"mrf": "object", "max_iter": "count", "tol": "positive"}),
    "trw_bp": (lambda: dict(mrf=_mrf(), rho=np.full(3, 2 / 3), damping=0.5, max_iter=50, tol=1e-8),
               {"mrf": "object", "rho": "rows", "damping": "probability", "max_iter": "count",
                "tol": "positive"}),
    "edge_appearance_uniform": (lambda: dict(edges=_E.copy(), n_nodes=3),
                                {"edges": "array", "n_nodes": "count"}),
    "gaussian_bp": (lambda: dict(J=_J.copy(), h=np.array([1.0, 0.0, -1.0]), damping=0.0, max_iter=100, tol=1e-10),
                    {"J": "psd", "h": "rows", "damping": "probability", "max_iter": "count", "tol": "positive"}),
    "walk_summability": (lambda: dict(J=_J.copy()), {"J": "psd"}),
    "bernoulli_log_partition": (lambda: dict(theta=np.array([-2.0, 0.0, 3.0])), {"theta": "array"}),
    "bernoulli_neg_entropy": (lambda: dict(mu=np.array([0.0, 0.3, 1.0])), {"mu": "array"}),
    "numeric_conjugate": (lambda: dict(f=lambda x: x ** 2, y=np.array([0.5, 1.0]),
                                       grid=np.linspace(-2, 2, 41)),
                          {"f": "callable", "y": "array", "grid": "array"}),
}

CASES = {
    # trw_bp used to return log_z_upper from unconverged messages, which is not a bound
    "trw_bp without convergence": ("trw_bp", lambda: dict(mrf=bethe.PairwiseMRF(*_STRONG, _E), rho=np.full(3, 2 / 3),
                                                          damping=0.0, max_iter=1, tol=1e-10), "max_iter"),
    "messages not positive": ("loopy_bp", lambda: dict(mrf=_mrf(), init=np.zeros((6, 2))), "init"),
    "h of the wrong length for J": ("gaussian_bp", lambda: dict(J=_J.copy(), h=np.ones(2)), "h"),
}
