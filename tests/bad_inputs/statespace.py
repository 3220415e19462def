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
_emit = lambda st, r: st + r.standard_normal(st.size)  # noqa: E731
_init_hmm = lambda: dict(pi=_pi.copy(), Phi=_Phi.copy(), E=_E.copy())  # noqa: E731
_init_ss = lambda: dict(A=_A.copy(), C=_C.copy(), Q=_Q.copy(), R=_R.copy(), mu0=_mu0.copy(), V0=_V0.copy())  # noqa: E731
_lgssm = {"X": "array", "A": "array", "C": "array", "Q": "array", "R": "array", "mu0": "array", "V0": "array"}
_kf = lambda: ss.kalman_filter(_X, _A, _C, _Q, _R, _mu0, _V0)  # noqa: E731

SPECS = {
    "hmm_sample": (lambda: dict(pi=_pi, Phi=_Phi, emission_sampler=_emit, T=5, rng=np.random.default_rng(0)),
                   {"pi": "probabilities", "Phi": "probabilities", "emission_sampler": "callable",
                    "T": "count", "rng": "rng"}),
    "hmm_forward": (lambda: dict(pi=_pi, Phi=_Phi, B=_B),
                    {"pi": "probabilities", "Phi": "probabilities", "B": "array"}),
    "hmm_backward": (lambda: dict(Phi=_Phi, B=_B, c=_c), {"Phi": "probabilities", "B": "array", "c": "array"}),
    "hmm_posteriors": (lambda: dict(pi=_pi, Phi=_Phi, B=_B),
                       {"pi": "probabilities", "Phi": "probabilities", "B": "array"}),
    "viterbi": (lambda: dict(pi=_pi, Phi=_Phi, log_B=np.log(_B)),
                {"pi": "probabilities", "Phi": "probabilities", "log_B": "array"}),
    "baum_welch": (lambda: dict(sequences=[_x, _x[::-1]], K=2, init=_init_hmm(), n_iter=2, emission="categorical"),
                   {"sequences": "array", "K": "count", "init": "object", "n_iter": "count",
                    "emission": "choice"}),
    "kalman_filter": (lambda: dict(X=_X, A=_A, C=_C, Q=_Q, R=_R, mu0=_mu0, V0=_V0), _lgssm),
    "rts_smoother": (lambda: dict(filter_result=_kf(), A=_A, Q=_Q),
                     {"filter_result": "object", "A": "array", "Q": "array"}),
    "lgssm_loglik": (lambda: dict(X=_X, A=_A, C=_C, Q=_Q, R=_R, mu0=_mu0, V0=_V0), _lgssm),
    "lgssm_em": (lambda: dict(X=_X, k=2, init=_init_ss(), n_iter=2),
                 {"X": "array", "k": "count", "init": "object", "n_iter": "count"}),
    "extended_kalman_filter": (
        lambda: dict(X=_X, f=lambda z: _A @ z, F=lambda z: _A, g=lambda z: _C @ z, G=lambda z: _C,
                     Q=_Q, R=_R, mu0=_mu0, V0=_V0),
        {"X": "array", "f": "callable", "F": "callable", "g": "callable", "G": "callable",
         "Q": "array", "R": "array", "mu0": "array", "V0": "array"}),
}
EXEMPT = {}
