import numpy as np

from mlnotes import estimation

_rng = np.random.default_rng(0)
_G = _rng.gamma(2.0, 0.5, size=30)
_P = _rng.poisson(3.0, size=30)
_N = _rng.normal(1.0, 2.0, size=30)


def _score(lam, x):
    return x / lam - 1


def _hessian(lam, x):
    return -x / lam ** 2


def _sampler(rng, B):
    return rng.poisson(3.0, size=(B, 30))


SPECS = {
    "sample_moments": (lambda: dict(x=_N, k=3), {"x": "array", "k": "count"}),
    "mom_poisson": (lambda: dict(x=_P), {"x": "array"}),
    "mom_normal": (lambda: dict(x=_N), {"x": "array"}),
    "mom_gamma": (lambda: dict(x=_G), {"x": "array"}),
    "mle_poisson": (lambda: dict(x=_P), {"x": "array"}),
    "mle_normal": (lambda: dict(x=_N), {"x": "array"}),
    "mle_gamma": (lambda: dict(x=_G, tol=1e-10, max_iter=50),
                  {"x": "array", "tol": "positive", "max_iter": "count"}),
    "mle_multinomial": (lambda: dict(counts=np.array([3, 0, 5, 2])), {"counts": "array"}),
    "normal_log_likelihood": (lambda: dict(x=_N, mu=0.5, sigma2=2.0),
                              {"x": "array", "mu": "number", "sigma2": "positive"}),
    "gamma_log_likelihood": (lambda: dict(x=_G, alpha=2.0, lam=2.0),
                             {"x": "array", "alpha": "positive", "lam": "positive"}),
    "fisher_information": (lambda: dict(score=_score, hessian=_hessian, theta=3.0, x=_P),
                           {"score": "callable", "hessian": "callable", "theta": "number", "x": "array"}),
    "gamma_fisher_information": (lambda: dict(alpha=2.0, lam=1.5), {"alpha": "positive", "lam": "positive"}),
    "crlb": (lambda: dict(info=np.array([[2.0, -0.5], [-0.5, 1.0]]), n=10), {"info": "psd", "n": "count"}),
    "wald_ci": (lambda: dict(theta_hat=np.array([1.0, 2.0]), info=np.array([1.0, 0.5]), n=10, alpha=0.05),
                {"theta_hat": "array", "info": "rows", "n": "count", "alpha": "probability"}),
    "normal_mean_ci": (lambda: dict(x=_N, alpha=0.1), {"x": "array", "alpha": "probability"}),
    "normal_var_ci": (lambda: dict(x=_N, alpha=0.1), {"x": "array", "alpha": "probability"}),
    "parametric_bootstrap": (lambda: dict(estimator=estimation.mle_poisson, sampler=_sampler, B=20,
                                          rng=np.random.default_rng(1)),
                             {"estimator": "callable", "sampler": "callable", "B": "count", "rng": "rng"}),
    "rao_blackwell_poisson_zero": (lambda: dict(x=_P), {"x": "array"}),
}
EXEMPT = {}
CASES = {
    "info of another shape than theta_hat": (
        "wald_ci", lambda: dict(theta_hat=np.array([1.0, 2.0]), info=np.array([[1.0, 0.5]]), n=10), "info"),
    "Newton's method stopped before converging": (
        "mle_gamma", lambda: dict(x=_G, tol=1e-12, max_iter=1), "max_iter"),
    "a fisher_information theta that is a matrix": (
        "fisher_information", lambda: dict(score=_score, hessian=_hessian, theta=np.ones((2, 2)), x=_P),
        "theta"),
}
