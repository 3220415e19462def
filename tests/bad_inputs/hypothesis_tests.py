import numpy as np
import scipy.stats

from mlnotes import hypothesis_tests as ht

_rng = np.random.default_rng(0)
_x = _rng.normal(0.2, 1.0, 25)
_O = np.array([12.0, 30.0, 38.0, 20.0])
_E = np.array([15.0, 28.0, 35.0, 22.0])
_k = np.arange(7)
_p0 = scipy.stats.binom.pmf(_k, 6, 0.5)
_p1 = scipy.stats.binom.pmf(_k, 6, 0.7)
_counts = np.array([3.0, 5.0, 2.0, 4.0, 6.0, 1.0, 3.0])
_OE = {"observed": "array", "expected": "rows"}


def _logpdf0(v):
    return scipy.stats.norm.logpdf(v)


def _logpdf1(v):
    return scipy.stats.norm.logpdf(v, 0.5)


def _ztest(x, t):
    return ht.glrt_normal_mean(x, t, 1.0).pvalue


SPECS = {
    "likelihood_ratio": (lambda: dict(logpdf0=_logpdf0, logpdf1=_logpdf1, x=_x.copy()),
                         {"logpdf0": "callable", "logpdf1": "callable", "x": "array"}),
    "neyman_pearson_test": (lambda: dict(p0=_p0.copy(), p1=_p1.copy(), alpha=0.1),
                            {"p0": "probabilities", "p1": "probabilities", "alpha": "probability"}),
    "np_test_normal_mean": (lambda: dict(x=_x.copy(), mu0=0.0, mu1=0.5, sigma=1.0, alpha=0.05),
                            {"x": "array", "mu0": "number", "mu1": "number", "sigma": "positive",
                             "alpha": "probability"}),
    "power_normal_mean": (lambda: dict(mu=np.array([0.0, 0.5]), mu0=0.0, sigma=1.0, n=10, alpha=0.05,
                                       two_sided=True),
                          {"mu": "array", "mu0": "number", "sigma": "positive", "n": "count",
                           "alpha": "probability", "two_sided": "bool"}),
    "glrt_normal_mean": (lambda: dict(x=_x.copy(), mu0=0.0, sigma=1.0),
                         {"x": "array", "mu0": "number", "sigma": "positive"}),
    "g_statistic": (lambda: dict(observed=_O.copy(), expected=_E.copy()), _OE),
    "pearson_chi2": (lambda: dict(observed=_O.copy(), expected=_E.copy()), _OE),
    "gof_test": (lambda: dict(observed=_O.copy(), expected=_E.copy(), n_estimated=1, statistic="g"),
                 {"observed": "array", "expected": "rows", "n_estimated": "count", "statistic": "choice"}),
    "poisson_dispersion_test": (lambda: dict(x=_counts.copy(), statistic="pearson"),
                                {"x": "array", "statistic": "choice"}),
    "hanging_rootogram": (lambda: dict(observed=_O.copy(), expected=_E.copy()), _OE),
    "plotting_positions": (lambda: dict(n=10), {"n": "count"}),
    "skewness": (lambda: dict(x=_x.copy()), {"x": "array"}),
    "kurtosis": (lambda: dict(x=_x.copy()), {"x": "array"}),
    "jarque_bera": (lambda: dict(x=_x.copy()), {"x": "array"}),
    "ci_by_inverting": (lambda: dict(test=_ztest, grid=np.linspace(-1.0, 1.0, 21), x=_x.copy(), alpha=0.05),
                        {"test": "callable", "grid": "array", "x": "array", "alpha": "probability"}),
}
CASES = {
    "p1 over another number of outcomes than p0": (
        "neyman_pearson_test", lambda: dict(p0=_p0.copy(), p1=np.full(8, 1 / 8), alpha=0.1), "p1"),
    "a log-density returning the wrong shape": (
        "likelihood_ratio", lambda: dict(logpdf0=lambda v: np.zeros(3), logpdf1=_logpdf1, x=_x.copy()),
        "logpdf0"),
    "a test returning a vector of p-values": (
        "ci_by_inverting", lambda: dict(test=lambda x, t: np.ones(2), grid=np.linspace(-1.0, 1.0, 5),
                                        x=_x.copy(), alpha=0.05), "test"),
    "mu1 equal to mu0": (
        "np_test_normal_mean", lambda: dict(x=_x.copy(), mu0=0.5, mu1=0.5, sigma=1.0, alpha=0.05), "mu1"),
}
