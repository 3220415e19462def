import numpy as np
import scipy.stats

from mlnotes import mcmc  # noqa: F401

_P = np.array([[0.5, 0.3, 0.2], [0.1, 0.6, 0.3], [0.4, 0.1, 0.5]])
_pi = np.array([0.3, 0.4, 0.3])
_p0 = np.array([1.0, 0.0, 0.0])
_chain = np.random.default_rng(0).standard_normal(50)
_chains = np.random.default_rng(1).standard_normal((3, 20))
_x = np.random.default_rng(2).normal(1, 1.5, 20)
_sq = lambda x: x**2  # noqa: E731
_lq = scipy.stats.norm(1, 1.5).logpdf
_lp = lambda x: -0.5 * (x**2).sum(axis=1)  # noqa: E731
_prop = lambda x, rng: x + rng.standard_normal(x.shape)  # noqa: E731

SPECS = {
    "propagate": (lambda: dict(P=_P, p0=_p0, t=3), {"P": "array", "p0": "probabilities", "t": "count"}),
    "stationary_distribution": (lambda: dict(P=_P), {"P": "array"}),
    "is_irreducible": (lambda: dict(P=_P), {"P": "array"}),
    "period": (lambda: dict(P=_P, i=1), {"P": "array", "i": "index"}),
    "detailed_balance_residual": (lambda: dict(P=_P, pi=_pi), {"P": "array", "pi": "probabilities"}),
    "pagerank": (lambda: dict(T=_P, alpha=0.15), {"T": "array", "alpha": "probability"}),
    "metropolis_matrix": (lambda: dict(pi=_pi, Q=_P), {"pi": "probabilities", "Q": "array"}),
    "rejection_sample": (lambda: dict(log_p_tilde=scipy.stats.norm.logpdf, sample_q=lambda m, r: r.standard_cauchy(m),
                                      log_q=scipy.stats.cauchy.logpdf, log_c=np.log(1.6), n=20,
                                      rng=np.random.default_rng(0), max_proposals=10**6),
                         {"log_p_tilde": "callable", "sample_q": "callable", "log_q": "callable", "log_c": "number",
                          "n": "count", "rng": "rng", "max_proposals": "count"}),
    "importance_estimate": (lambda: dict(f=_sq, log_p_tilde=scipy.stats.norm.logpdf, log_q=_lq, x=_x, self_normalised=True),
                            {"f": "callable", "log_p_tilde": "callable", "log_q": "callable", "x": "array",
                             "self_normalised": "bool"}),
    "metropolis_hastings": (lambda: dict(log_p=_lp, propose=_prop, log_q_ratio=None, x0=np.zeros((2, 1)), n=5,
                                         rng=np.random.default_rng(0)),
                            {"log_p": "callable", "propose": "callable", "x0": "array", "n": "count", "rng": "rng"}),
    "gibbs_gaussian": (lambda: dict(mu=np.zeros(2), Sigma=np.array([[1.0, 0.5], [0.5, 1.0]]), n=5,
                                    rng=np.random.default_rng(0), x0=np.ones(2)),
                       {"mu": "array", "Sigma": "psd", "n": "count", "rng": "rng", "x0": "rows?"}),
    "gibbs_ising": (lambda: dict(J=0.3, h=0.0, shape=(3, 3), n_sweeps=2, rng=np.random.default_rng(0), n_chains=2),
                    {"J": "number", "h": "number", "n_sweeps": "count", "rng": "rng", "n_chains": "count"}),
    "ising_exact": (lambda: dict(J=0.3, h=0.1, shape=(2, 2)), {"J": "number", "h": "number"}),
    "autocorrelation": (lambda: dict(x=_chain, max_lag=5), {"x": "array", "max_lag": "count"}),
    "effective_sample_size": (lambda: dict(x=_chain), {"x": "array"}),
    "gelman_rubin": (lambda: dict(chains=_chains), {"chains": "array"}),
}
EXEMPT = {}

_no_mass = lambda x: np.full(np.shape(x), -np.inf)  # noqa: E731
_x2 = np.array([1.0, 2.0])
CASES = {
    # the loop used to run for ever on a target with no mass where q proposes
    "rejection from a target with no mass": (
        "rejection_sample", lambda: dict(log_p_tilde=_no_mass, sample_q=lambda m, r: r.standard_cauchy(m),
                                         log_q=scipy.stats.cauchy.logpdf, log_c=0.0, n=5,
                                         rng=np.random.default_rng(0), max_proposals=10**5), "log_p_tilde"),
    "self-normalised IS with all weights zero": (
        "importance_estimate", lambda: dict(f=_sq, log_p_tilde=_no_mass, log_q=_lq, x=_x2), "log_p_tilde"),
    "IS with draws where q = 0": (
        "importance_estimate", lambda: dict(f=_sq, log_p_tilde=scipy.stats.norm.logpdf,
                                            log_q=scipy.stats.expon.logpdf, x=np.array([-1.0, 2.0])), "log_q"),
    "plain IS whose weights overflow": (
        "importance_estimate", lambda: dict(f=_sq, log_p_tilde=lambda x: 1000 + 0 * x, log_q=_lq, x=_x2,
                                            self_normalised=False), "log_p_tilde"),
    "MH proposal returning NaN": (
        "metropolis_hastings", lambda: dict(log_p=_lp, propose=lambda x, rng: x * np.nan, log_q_ratio=None,
                                            x0=np.zeros((2, 1)), n=5, rng=np.random.default_rng(0)), "propose"),
    "MH target NaN at a proposal": (
        "metropolis_hastings", lambda: dict(log_p=lambda x: np.where(x[:, 0] == 0, 0.0, np.nan), propose=_prop,
                                            log_q_ratio=None, x0=np.zeros((2, 1)), n=5,
                                            rng=np.random.default_rng(0)), "log_p"),
    "Ising energies that overflow": ("ising_exact", lambda: dict(J=1e308, h=0.0, shape=(2, 2)), "J"),
    "propagate output too large": ("propagate", lambda: dict(P=_P, p0=_p0, t=10**12), "t"),
}
