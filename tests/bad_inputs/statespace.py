import numpy as np

from mlnotes import statespace as ss

_pi = np.array([0.6, 0.4])
_Phi = np.array([[0.7, 0.3], [0.1, 0.9]])
_E = np.array([[0.6, 0.3, 0.1], [0.1, 0.3, 0.6]])
_x = np.array([0, 0, 2, 1, 2, 1])
_B = _E[:, _x].T
_c = ss.hmm_forward(_pi, _Phi, _B).c
_A = np.array([[0.9, 0.1], [0.0, 0.8]])
_C = np.array([[1.0, 0.0], [0.5, 1.0]])
_Q, _R = 0.1 * np.eye(2), 0.2 * np.eye(2)
_mu0, _V0 = np.zeros(2), np.eye(2)
_X = np.random.default_rng(0).standard_normal((8, 2))
_U = np.linspace(-1.0, 1.0, 8)[:, None] * np.ones((1, 2))
_emit = lambda st, r: st + r.standard_normal(st.size)  # noqa: E731
_init_hmm = lambda: dict(pi=_pi.copy(), Phi=_Phi.copy(), E=_E.copy())  # noqa: E731
_init_ss = lambda: dict(A=_A.copy(), C=_C.copy(), Q=_Q.copy(), R=_R.copy(), mu0=_mu0.copy(), V0=_V0.copy())  # noqa: E731
_lgssm = {"X": "array", "A": "array", "C": "array", "Q": "psd", "R": "psd", "mu0": "array", "V0": "psd"}
_kf = lambda: ss.kalman_filter(_X, _A, _C, _Q, _R, _mu0, _V0)  # noqa: E731

SPECS = {
    "hmm_sample": (lambda: dict(pi=_pi, Phi=_Phi, emission_sampler=_emit, T=5, rng=np.random.default_rng(0)),
                   {"pi": "probabilities", "Phi": "probabilities", "emission_sampler": "callable",
                    "T": "count", "rng": "rng"}),
    "hmm_forward": (lambda: dict(pi=_pi, Phi=_Phi, B=_B),
                    {"pi": "probabilities", "Phi": "probabilities", "B": "array"}),
    "hmm_backward": (lambda: dict(Phi=_Phi, B=_B, c=_c), {"Phi": "probabilities", "B": "array", "c": "rows"}),
    "hmm_posteriors": (lambda: dict(pi=_pi, Phi=_Phi, B=_B),
                       {"pi": "probabilities", "Phi": "probabilities", "B": "array"}),
    "viterbi": (lambda: dict(pi=_pi, Phi=_Phi, log_B=np.log(_B)),
                {"pi": "probabilities", "Phi": "probabilities", "log_B": "extended"}),
    "baum_welch": (lambda: dict(sequences=[_x, _x[::-1]], K=2, init=_init_hmm(), n_iter=2, emission="categorical"),
                   {"sequences": "array", "K": "count", "init": "object", "n_iter": "count",
                    "emission": "choice"}),
    "kalman_filter": (lambda: dict(X=_X, A=_A, C=_C, Q=_Q, R=_R, mu0=_mu0, V0=_V0), _lgssm),
    "rts_smoother": (lambda: dict(filter_result=_kf(), A=_A, Q=_Q),
                     {"filter_result": "object", "A": "array", "Q": "psd"}),
    "lgssm_loglik": (lambda: dict(X=_X, A=_A, C=_C, Q=_Q, R=_R, mu0=_mu0, V0=_V0), _lgssm),
    "lgssm_em": (lambda: dict(X=_X, k=2, init=_init_ss(), n_iter=2),
                 {"X": "array", "k": "count", "init": "object", "n_iter": "count"}),
    "extended_kalman_filter": (
        lambda: dict(X=_X, f=lambda z, u: _A @ z + u, F=lambda z, u: _A, g=lambda z, u: _C @ z, G=lambda z, u: _C,
                     Q=_Q, R=_R, mu0=_mu0, V0=_V0, U=_U.copy()),
        {"X": "array", "f": "callable", "F": "callable", "g": "callable", "G": "callable",
         "Q": "psd", "R": "psd", "mu0": "array", "V0": "psd", "U": "rows?"}),
}
EXEMPT = {}

_expl = dict(X=np.ones((400, 1)), A=1e3 * np.eye(2), C=np.array([[1.0, 0.0]]), Q=np.eye(2), R=np.eye(1),
             mu0=np.zeros(2), V0=np.eye(2))
_pi2, _Phi2 = np.array([0.5, 0.5]), np.full((2, 2), 0.5)
_g_init = lambda: dict(pi=_pi2, Phi=_Phi2, means=np.array([[0.0], [5.0]]), covs=np.stack([np.eye(1)] * 2))  # noqa: E731

CASES = {
    "kalman_filter: C with one column per feature of another state size": (
        "kalman_filter", lambda: dict(X=_X, A=_A, C=np.ones((2, 3)), Q=_Q, R=_R, mu0=_mu0, V0=_V0), "C"),
    "kalman_filter: C with a row too few for the columns of X": (
        "kalman_filter", lambda: dict(X=_X, A=_A, C=_C[:1], Q=_Q, R=_R, mu0=_mu0, V0=_V0), "C"),
    "kalman_filter: mu0 of another length than A": (
        "kalman_filter", lambda: dict(X=_X, A=_A, C=_C, Q=_Q, R=_R, mu0=np.zeros(3), V0=_V0), "mu0"),
    "kalman_filter: an explosive A overflows the unobserved state": ("kalman_filter", lambda: dict(_expl), "A"),
    "lgssm_loglik: an explosive A overflows the unobserved state": ("lgssm_loglik", lambda: dict(_expl), "A"),
    "lgssm_em: a constant X makes R singular": (
        "lgssm_em", lambda: dict(X=np.zeros((8, 2)), k=2, init=_init_ss(), n_iter=3), "X"),
    "lgssm_em: init without V0": (
        "lgssm_em", lambda: dict(X=_X, k=2, init={k: v for k, v in _init_ss().items() if k != "V0"}), "init"),
    "rts_smoother: Q of another size than the filter's state": (
        "rts_smoother", lambda: dict(filter_result=_kf(), A=_A, Q=np.eye(3)), "Q"),
    "rts_smoother: a filter_result with covariances of the wrong shape": (
        "rts_smoother", lambda: dict(filter_result=_kf()._replace(covs=np.ones((8, 2, 1))), A=_A, Q=_Q),
        "filter_result"),
    "viterbi: every path has probability zero": (
        "viterbi", lambda: dict(pi=_pi, Phi=_Phi, log_B=np.full((3, 2), -np.inf)), "log_B"),
    "hmm_forward: an observation impossible in every state": (
        "hmm_forward", lambda: dict(pi=_pi, Phi=_Phi, B=np.r_[_B[:2], np.zeros((1, 2))]), "B"),
    "hmm_backward: B impossible given every state": (
        "hmm_backward", lambda: dict(Phi=_Phi, B=np.zeros_like(_B), c=_c), "B"),
    "hmm_sample: emissions with NaN": (
        "hmm_sample", lambda: dict(pi=_pi, Phi=_Phi, emission_sampler=lambda st, r: np.full(st.size, np.nan), T=5,
                                   rng=np.random.default_rng(0)), "emission_sampler"),
    "baum_welch: init without the emission matrix E": (
        "baum_welch", lambda: dict(sequences=[_x], K=2, init=dict(pi=_pi, Phi=_Phi)), "init"),
    "baum_welch: Gaussian sequences of different dimensions": (
        "baum_welch", lambda: dict(sequences=[np.ones((5, 1)), np.ones((5, 2))], K=2, init=_g_init(),
                                   emission="gaussian"), "sequences"),
    "baum_welch: a Gaussian state collapses onto one point": (
        "baum_welch", lambda: dict(sequences=[np.r_[np.zeros(10), 5.0]], K=2, init=_g_init(), n_iter=5,
                                   emission="gaussian"), "init"),
    "baum_welch: init gives an observation probability zero": (
        "baum_welch", lambda: dict(sequences=[np.array([0, 2])], K=2,
                                   init=dict(pi=_pi2, Phi=_Phi2, E=np.array([[1.0, 0, 0], [1.0, 0, 0]]))), "init"),
    "extended_kalman_filter: U with a row too few": (
        "extended_kalman_filter", lambda: dict(X=_X, f=lambda z, u: _A @ z, F=lambda z, u: _A, g=lambda z, u: _C @ z,
                                               G=lambda z, u: _C, Q=_Q, R=_R, mu0=_mu0, V0=_V0, U=_U[:-1]), "U"),
}
