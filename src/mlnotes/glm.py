"""Generalised linear and additive models (chapter 29): exponential dispersion families,
link functions, IRLS (Fisher scoring), deviance and Pearson statistics, Wald intervals,
likelihood-ratio and Hosmer–Lemeshow tests, log-linear models of two-way tables, softmax
regression, B-spline bases, curvature penalties, penalised IRLS and GCV.

Conventions. ``X`` is an ``(n, p)`` design matrix whose column of ones, if wanted, is
included by the caller. A binomial response is the *proportion* of successes ``y_i`` in
``[0, 1]`` with the number of trials as the prior weight ``w_i = n_i``, so that
``a_i(phi) = phi / w_i`` as in the source notes; binary data have ``w_i = 1``. Families
(``gaussian()``, ``binomial()``, ``poisson()``, ``gamma()``) and links (``logit_link()``,
``probit_link()``, ``cloglog_link()``, ``log_link()``, ``identity_link()``, ``inverse_link()``)
are named tuples of functions; ``deviance`` is the *unscaled* deviance
``D = 2 phi [l_sat - l]`` (statsmodels' ``.deviance``), and ``D / phi`` the scaled one.
"""
import warnings
from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np
from scipy import special, stats

from mlnotes import _validate as check
from mlnotes import information, linear

__all__ = [
    "Link", "logit_link", "probit_link", "cloglog_link", "log_link", "identity_link", "inverse_link",
    "ExpFamily", "gaussian", "binomial", "poisson", "gamma",
    "GLMFit", "glm_irls", "deviance", "pearson_residuals", "deviance_residuals",
    "TestResult", "lr_test", "hosmer_lemeshow",
    "LoglinearFit", "loglinear_independence", "SoftmaxFit", "softmax_regression",
    "bspline_basis", "second_derivative_penalty", "PenalisedFit", "penalised_irls",
    "gcv_score",
]

_EPS = 1e-12


def _warn_unconverged(ok, what, max_iter):
    """Warn (the result is also marked ``converged=False``) when an iteration hit ``max_iter``."""
    if not np.all(ok):
        warnings.warn(f"{what} did not converge in max_iter = {max_iter} iterations; the result is "
                      "marked converged=False (raise max_iter or tol)", RuntimeWarning, stacklevel=3)


# ----------------------------------------------------------------------------- links
class Link(NamedTuple):
    """A link ``eta = g(mu)``: ``g``, its inverse ``mu = g⁻¹(eta)`` and ``dmu/deta``."""

    name: str
    g: Callable
    inverse: Callable
    mu_eta: Callable

    def __repr__(self):
        return f"Link({self.name!r})"


def _phi(eta):
    return np.exp(-0.5 * eta**2) / np.sqrt(2 * np.pi)


_LOGIT = Link("logit", linear.logit, special.expit,         # expit: a fast linear.sigmoid
             lambda eta: special.expit(eta) * special.expit(-eta))
_PROBIT = Link("probit", special.ndtri, special.ndtr, _phi)
_CLOGLOG = Link("cloglog", lambda mu: np.log(-np.log1p(-mu)),
               lambda eta: -np.expm1(-np.exp(eta)), lambda eta: np.exp(eta - np.exp(eta)))
_LOG = Link("log", np.log, np.exp, np.exp)
_IDENTITY = Link("identity", lambda mu: 1.0 * mu, lambda eta: 1.0 * eta, np.ones_like)
_INVERSE = Link("inverse", lambda mu: 1.0 / mu, lambda eta: 1.0 / eta, lambda eta: -1.0 / eta**2)


def logit_link():
    """The logit link ``eta = log(mu / (1 - mu))``, canonical for the binomial family.

    Returns
    -------
    Link
        With ``g``, the inverse ``mu = 1 / (1 + exp(-eta))`` and ``mu_eta = dmu/deta``.
    """
    return _LOGIT

def probit_link():
    """The probit link ``eta = Phi⁻¹(mu)``, with ``Phi`` the standard normal cdf.

    Returns
    -------
    Link
        With ``g``, the inverse ``mu = Phi(eta)`` and ``mu_eta = dmu/deta``.
    """
    return _PROBIT

def cloglog_link():
    """The complementary log-log link ``eta = log(-log(1 - mu))``.

    Returns
    -------
    Link
        With ``g``, the inverse ``mu = 1 - exp(-exp(eta))`` and ``mu_eta = dmu/deta``.
    """
    return _CLOGLOG

def log_link():
    """The log link ``eta = log(mu)``, canonical for the Poisson family.

    Returns
    -------
    Link
        With ``g``, the inverse ``mu = exp(eta)`` and ``mu_eta = dmu/deta``.
    """
    return _LOG

def identity_link():
    """The identity link ``eta = mu``, canonical for the normal family.

    Returns
    -------
    Link
        With ``g``, the inverse ``mu = eta`` and ``mu_eta = dmu/deta``.
    """
    return _IDENTITY

def inverse_link():
    """The reciprocal link ``eta = 1 / mu`` (the gamma family's canonical link up to sign).

    Returns
    -------
    Link
        With ``g``, the inverse ``mu = 1 / eta`` and ``mu_eta = dmu/deta``.
    """
    return _INVERSE


# -------------------------------------------------------------------------- families
class ExpFamily(NamedTuple):
    """An exponential dispersion family ``f(y) = exp{(y theta - b(theta)) / a(phi) + c(y, phi)}``.

    Fields: ``theta(mu)`` (the canonical parameter), ``b`` and its derivatives ``b1 = b′``
    (the mean) and ``b2 = b″``, the variance function ``variance(mu) = b″(theta(mu))``, the
    canonical ``link``, the ``unit_deviance(y, mu)``, ``loglik(y, mu, phi, w)`` (one value per
    observation), whether ``phi = 1`` is known (``scale_known``), a starting value
    ``start(y, w)`` for IRLS and ``valid(y)``, the admissible responses.
    """

    name: str
    theta: Callable
    b: Callable
    b1: Callable
    b2: Callable
    variance: Callable
    link: Link
    unit_deviance: Callable
    loglik: Callable
    scale_known: bool
    start: Callable
    valid: Callable

    def __repr__(self):
        return f"ExpFamily({self.name!r})"


_GAUSSIAN = ExpFamily(
    "gaussian", lambda mu: 1.0 * mu, lambda t: t**2 / 2, lambda t: 1.0 * t, np.ones_like,
    np.ones_like, _IDENTITY, lambda y, mu: (y - mu) ** 2,
    lambda y, mu, phi, w: -0.5 * (w * (y - mu) ** 2 / phi + np.log(2 * np.pi * phi / w)),
    False, lambda y, w: 1.0 * y, lambda y: np.ones(np.shape(y), bool))
_BINOMIAL = ExpFamily(
    "binomial", linear.logit, lambda t: np.logaddexp(0.0, t), special.expit,
    lambda t: special.expit(t) * special.expit(-t), lambda mu: mu * (1 - mu), _LOGIT,
    lambda y, mu: 2 * (special.xlogy(y, y / mu) + special.xlogy(1 - y, (1 - y) / (1 - mu))),
    lambda y, mu, phi, w: (special.gammaln(w + 1) - special.gammaln(w * y + 1)
                           - special.gammaln(w * (1 - y) + 1) + w * special.xlogy(y, mu)
                           + w * special.xlog1py(1 - y, -mu)),
    True, lambda y, w: (w * y + 0.5) / (w + 1), lambda y: (y >= 0) & (y <= 1))
_POISSON = ExpFamily(
    "poisson", np.log, np.exp, np.exp, np.exp, lambda mu: 1.0 * mu, _LOG,
    lambda y, mu: 2 * (special.xlogy(y, y / mu) - (y - mu)),
    lambda y, mu, phi, w: w * (special.xlogy(y, mu) - mu - special.gammaln(y + 1)),
    True, lambda y, w: y + 0.1, lambda y: y >= 0)
_GAMMA = ExpFamily(
    "gamma", lambda mu: -1.0 / mu, lambda t: -np.log(-t), lambda t: -1.0 / t,
    lambda t: 1.0 / t**2, lambda mu: mu**2, _INVERSE,
    lambda y, mu: 2 * (-np.log(y / mu) + (y - mu) / mu),
    lambda y, mu, phi, w: ((w / phi) * np.log(w * y / (phi * mu)) - w * y / (phi * mu)
                           - np.log(y) - special.gammaln(w / phi)),
    False, lambda y, w: 1.0 * y, lambda y: y > 0)


def gaussian():
    """The normal family: ``theta = mu``, ``b = theta²/2``, ``V(mu) = 1``, ``phi = sigma²`` estimated.

    Returns
    -------
    ExpFamily
    """
    return _GAUSSIAN

def binomial():
    """The binomial family for proportions: ``theta = logit(mu)``, ``b = log(1 + e^theta)``, ``V = mu(1 - mu)``, ``phi = 1``.

    Returns
    -------
    ExpFamily
    """
    return _BINOMIAL

def poisson():
    """The Poisson family: ``theta = log(mu)``, ``b = e^theta``, ``V(mu) = mu``, ``phi = 1``.

    Returns
    -------
    ExpFamily
    """
    return _POISSON

def gamma():
    """The gamma family: ``theta = -1/mu``, ``b = -log(-theta)``, ``V(mu) = mu²``, ``phi = 1/shape`` estimated.

    Returns
    -------
    ExpFamily
    """
    return _GAMMA


# ------------------------------------------------------------------------ validation
def _family(family, link):
    check.instance_of(family, ExpFamily, "family", "gaussian(), binomial(), poisson() or gamma()")
    link = family.link if link is None else check.instance_of(link, Link, "link", "logit_link(), probit_link(), cloglog_link(), log_link(), identity_link() or inverse_link()")
    return family, link


def _response(y, n, family, name="y"):
    """``y`` as a float array of shape (n,) or (n, R) with values the family admits."""
    y = check.finite(y, name)
    if y.ndim not in (1, 2) or (n is not None and y.shape[0] != n) or y.size == 0:
        raise ValueError(f"{name} must have shape ({n},) or ({n}, R), got {y.shape}")
    if not np.all(family.valid(y)):
        raise ValueError(f"{name} has values outside the support of the {family.name} family")
    return y


def _weights(w, n, name="weights"):
    return np.ones(n) if w is None else check.positive_entries(check.vector(w, n, name), name)


def _full_rank(X, name="X"):
    if np.linalg.matrix_rank(X) < X.shape[1]:
        raise ValueError(f"{name} must have full column rank {X.shape[1]}")


# ---------------------------------------------------------------------------- IRLS
def _working(X, Y, w, off, link, family, beta):
    """Means, IRLS weights and working responses at ``beta`` (shape (R, p))."""
    eta = X @ beta.T + off[:, None]
    mu = link.inverse(eta)
    if family.name == "binomial":
        mu = np.clip(mu, _EPS, 1 - _EPS)
    d = link.mu_eta(eta)                                   # dmu/deta
    W = w[:, None] * d**2 / family.variance(mu)            # W_ii = w (dmu/deta)² / V(mu)
    z = eta - off[:, None] + (Y - mu) / d                  # working response (offset removed)
    return eta, mu, W, z


def _irls(X, Y, w, off, family, link, P, tol, max_iter):
    """Fisher scoring for all columns of ``Y`` at once; ``P`` is a penalty matrix (or 0).

    Each step is the weighted least-squares problem ``min ||W^½(z - Xβ)||² + βᵀPβ``, solved by
    a QR factorisation of ``[W^½X; P^½]`` (batched over the columns) rather than by the normal
    equations ``(XᵀWX + P)β = XᵀWz``, which square the condition number."""
    mu = family.start(Y, w[:, None])
    if family.name == "binomial":
        mu = np.clip(mu, _EPS, 1 - _EPS)
    eta = link.g(mu)
    bad = ~np.isfinite(eta)                                # e.g. log link, y <= 0: use the mean
    mu = np.where(bad, np.mean(Y, axis=0), mu)
    eta = link.g(mu)
    d = link.mu_eta(eta)
    W = w[:, None] * d**2 / family.variance(mu)
    z = eta - off[:, None] + (Y - mu) / d
    if np.ndim(P) == 0:
        P_half = np.zeros((0, X.shape[1]))
    else:
        e, V = np.linalg.eigh(P)
        P_half = np.sqrt(np.clip(e, 0.0, None))[:, None] * V.T  # P = P_halfᵀ P_half
    beta, converged, it = None, False, 0
    for it in range(1, max_iter + 1):
        new = _wls(X, W, z, P_half)
        step = np.inf if beta is None else np.max(np.abs(new - beta))
        beta = new
        eta, mu, W, z = _working(X, Y, w, off, link, family, beta)
        if step <= tol * (1.0 + np.max(np.abs(beta))):
            converged = True
            break
    return beta, eta, mu, W, it, converged


def _weighted_r(X, W, P_half=None):
    """R factors (R, p, p) of ``[W_r^½ X; P_half]`` for every column ``r`` of ``W`` (n, R),
    and the Q factors."""
    A = np.sqrt(W).T[:, :, None] * X[None, :, :]
    if P_half is not None and P_half.shape[0]:
        A = np.concatenate([A, np.broadcast_to(P_half, (A.shape[0],) + P_half.shape)], axis=1)
    Q, R = np.linalg.qr(A)
    diag = np.abs(np.diagonal(R, axis1=1, axis2=2))
    if not np.all(diag.min(axis=1) > 1e-13 * diag.max(axis=1)):
        raise ValueError("y has no finite maximum-likelihood fit: the weighted design became singular "
                         "as the fitted means went to the boundary of the family (e.g. complete "
                         "separation of binary data)")
    return Q, R


def _wls(X, W, z, P_half):
    """``argmin ||W^½(z - Xβ)||² + ||P_half β||²`` for every column, shape (R, p)."""
    Q, R = _weighted_r(X, W, P_half)
    rhs = np.sqrt(W).T * z.T                                     # (R, n)
    qtb = np.einsum("rnp,rn->rp", Q[:, :X.shape[0], :], rhs)
    return np.linalg.solve(R, qtb[..., None])[..., 0]


def _inv_gram(X, W):
    """``(XᵀW_rX)⁻¹ = R⁻¹R⁻ᵀ`` from the QR factor of ``W_r^½X``, for every column of ``W``."""
    R_inv = np.linalg.inv(_weighted_r(X, W)[1])
    return R_inv @ np.swapaxes(R_inv, 1, 2)


def _gram(X, W):
    """``XᵀW_rX`` for every column ``r`` of the weights ``W`` (n, R), as one matrix product."""
    n, p = X.shape
    return (W.T @ (X[:, :, None] * X[:, None, :]).reshape(n, p * p)).reshape(-1, p, p)


@dataclass(frozen=True, repr=False)
class GLMFit:
    """A fitted GLM.

    Attributes
    ----------
    beta : ndarray, shape (p,) (or (p, R) for R responses)
    cov : ndarray, shape (p, p) (or (R, p, p)): ``phi_hat (XᵀWX)⁻¹``.
    deviance, pearson_chi2, phi, llf : float (or (R,))
        Unscaled deviance ``D``, Pearson ``X²``, dispersion ``phi`` (1 for the binomial and
        Poisson families, else ``X²/(n - p)``) and the maximised log-likelihood ``llf``, as
        statsmodels' ``GLMResults.llf``: evaluated at ``phi``, except for the Gaussian family
        with the identity link, where ``sigma²`` is profiled out (evaluated at the maximum-
        likelihood ``D/n``, so that ``-2 llf + 2p`` is the usual AIC of a linear model).
    mu, eta : ndarray, shape (n,) (or (n, R))
    df_resid, n_iter : int
    converged : bool
    family, link : str
    """

    beta: np.ndarray
    cov: np.ndarray
    deviance: np.ndarray
    pearson_chi2: np.ndarray
    phi: np.ndarray
    llf: np.ndarray
    mu: np.ndarray
    eta: np.ndarray
    df_resid: int
    n_iter: int
    converged: bool
    family: str
    link: str

    def __repr__(self):
        return (f"GLMFit(family={self.family!r}, link={self.link!r}, p={self.beta.shape[0]}, "
                f"df_resid={self.df_resid}, converged={self.converged})")

    def conf_int(self, alpha=0.05):
        """Wald intervals ``beta_j ± z_{alpha/2} se(beta_j)``, ``se`` from ``cov``.

        Parameters
        ----------
        alpha : float
            One minus the confidence level, in (0, 1).

        Returns
        -------
        ndarray, shape (p, 2)
            Lower and upper limits (as statsmodels' ``GLMResults.conf_int(alpha)``).

        Raises
        ------
        ValueError
            If the fit is not that of a single response vector or ``alpha`` is not in (0, 1).
        """
        if self.beta.ndim != 1:
            raise ValueError("conf_int needs the fit of a single response vector (beta of shape (p,))")
        alpha = check.level(alpha)
        half = stats.norm.isf(alpha / 2) * np.sqrt(np.diag(self.cov))
        return np.column_stack([self.beta - half, self.beta + half])


def _summary(Y, w, family, mu, df_resid, link_name=""):
    """Deviance, Pearson X², dispersion and log-likelihood per column of ``Y``."""
    dev = np.sum(w[:, None] * family.unit_deviance(Y, mu), axis=0)
    x2 = np.sum(w[:, None] * (Y - mu) ** 2 / family.variance(mu), axis=0)
    phi = np.ones_like(x2) if family.scale_known else x2 / df_resid
    ml = family.name == "gaussian" and link_name == "identity"       # as statsmodels' llf
    phi_ml = dev / Y.shape[0] if ml else phi
    llf = np.sum(family.loglik(Y, mu, phi_ml, w[:, None]), axis=0)
    return dev, x2, phi, llf


def glm_irls(X, y, family, link=None, weights=None, offset=None, tol=1e-10, max_iter=100):
    """Maximum-likelihood GLM by iteratively reweighted least squares (Fisher scoring).

    Each step solves ``(XᵀWX) beta = XᵀWz`` with ``W_ii = w_i (dmu_i/deta_i)² / V(mu_i)`` and
    the working response ``z_i = eta_i + (y_i - mu_i) deta_i/dmu_i``, starting from a
    value of ``mu`` near ``y``; it stops when no coefficient moves by more than
    ``tol (1 + max|beta|)``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank.
    y : array_like, shape (n,) or (n, R)
        Responses (proportions for the binomial family); ``R`` columns are ``R`` data sets
        sharing ``X``, fitted at once.
    family : ExpFamily
        ``gaussian()``, ``binomial()``, ``poisson()`` or ``gamma()``.
    link : Link, optional
        Default: the family's canonical link.
    weights : array_like, shape (n,), optional
        Prior weights ``w_i`` (``a_i(phi) = phi / w_i``; the numbers of trials for binomial).
    offset : array_like, shape (n,), optional
        Known part of the linear predictor, ``eta = X beta + offset``.
    tol : float
    max_iter : int

    Returns
    -------
    GLMFit

    Warns
    -----
    RuntimeWarning
        If the iteration stops at ``max_iter`` without meeting the stopping rule (the result
        then has ``converged=False``).

    Raises
    ------
    ValueError
        If a shape is wrong, ``X`` is rank-deficient, ``y`` is outside the family's support,
        a weight is not positive, ``family``/``link`` is not a family/link of this module, or
        no finite maximum-likelihood fit exists (``XᵀWX`` becomes singular, e.g. under complete
        separation).
    """
    X = check.matrix(X)
    n, p = X.shape
    family, link = _family(family, link)
    y = _response(y, n, family)
    w = _weights(weights, n)
    off = np.zeros(n) if offset is None else check.vector(offset, n, "offset")
    tol, max_iter = check.positive(tol, "tol"), check.count(max_iter, "max_iter")
    _full_rank(X)
    Y = y.reshape(n, -1)
    with np.errstate(all="ignore"):
        beta, eta, mu, W, it, ok = _irls(X, Y, w, off, family, link, 0.0, tol, max_iter)
        dev, x2, phi, llf = _summary(Y, w, family, mu, n - p, link.name)
        cov = phi[:, None, None] * _inv_gram(X, W)
    _warn_unconverged(ok, "glm_irls", max_iter)
    one = y.ndim == 1
    pick = (lambda a: a[0]) if one else (lambda a: a)
    return GLMFit(beta[0] if one else beta.T, pick(cov), *(float(v[0]) if one else v
                  for v in (dev, x2, phi, llf)), mu[:, 0] if one else mu,
                  eta[:, 0] if one else eta, n - p, it, bool(ok), family.name, link.name)


def _mean_pair(y, mu, family, weights):
    family = check.instance_of(family, ExpFamily, "family", "gaussian(), binomial(), poisson() or gamma()")
    y = _response(y, None, family)
    mu = check.finite(mu, "mu")
    if mu.shape != y.shape or not np.all(family.valid(mu)):
        raise ValueError(f"mu must have shape {y.shape} and values the {family.name} "
                         f"family admits as means")
    w = _weights(weights, y.shape[0])
    return y, mu, (w if y.ndim == 1 else w[:, None])


def deviance(y, mu, family, weights=None):
    """Unscaled deviance ``D = sum_i w_i d(y_i, mu_i) = 2 phi [l_sat - l(mu)]``.

    Parameters
    ----------
    y : array_like, shape (n,) or (n, R)
        Responses (proportions for the binomial family).
    mu : array_like, same shape
        Fitted means.
    family : ExpFamily
    weights : array_like, shape (n,), optional
        Prior weights (numbers of trials for binomial).

    Returns
    -------
    float or ndarray, shape (R,)

    Raises
    ------
    ValueError
        If shapes differ, values are outside the family's support, or weights are not positive.
    """
    y, mu, w = _mean_pair(y, mu, family, weights)
    with np.errstate(divide="ignore", invalid="ignore"):
        D = np.sum(w * family.unit_deviance(y, mu), axis=0)
    return float(D) if y.ndim == 1 else D


def pearson_residuals(y, mu, family, weights=None):
    """Pearson residuals ``sqrt(w_i) (y_i - mu_i) / sqrt(V(mu_i))``; their squares sum to ``X²``.

    Parameters
    ----------
    y, mu : array_like, shape (n,) or (n, R)
        Responses and fitted means.
    family : ExpFamily
    weights : array_like, shape (n,), optional

    Returns
    -------
    ndarray, same shape as ``y``

    Raises
    ------
    ValueError
        If shapes differ, values are outside the family's support, or weights are not positive.
    """
    y, mu, w = _mean_pair(y, mu, family, weights)
    return np.sqrt(w) * (y - mu) / np.sqrt(family.variance(mu))


def deviance_residuals(y, mu, family, weights=None):
    """Deviance residuals ``sign(y_i - mu_i) sqrt(w_i d(y_i, mu_i))``; their squares sum to ``D``.

    Parameters
    ----------
    y, mu : array_like, shape (n,) or (n, R)
        Responses and fitted means.
    family : ExpFamily
    weights : array_like, shape (n,), optional

    Returns
    -------
    ndarray, same shape as ``y``

    Raises
    ------
    ValueError
        If shapes differ, values are outside the family's support, or weights are not positive.
    """
    y, mu, w = _mean_pair(y, mu, family, weights)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = np.maximum(w * family.unit_deviance(y, mu), 0.0)
    return np.sign(y - mu) * np.sqrt(d)


# ----------------------------------------------------------------------- inference
def _fit(fit, name="fit"):
    fit = check.instance_of(fit, GLMFit, name, "glm_irls")
    if fit.beta.ndim != 1:
        raise ValueError(f"{name} must be the fit of a single response vector")
    return fit


class TestResult(NamedTuple):
    """A test statistic, its degrees of freedom (two for an F test), p-value and method."""

    statistic: float
    df: tuple
    pvalue: float
    method: str

    def __repr__(self):
        return f"TestResult(method={self.method!r}, df={self.df})"


def lr_test(fit_small, fit_big):
    """Compare nested GLMs by their deviances.

    With ``phi`` known (binomial, Poisson) the statistic is ``D_small - D_big``, referred
    to ``chi²(p_big - p_small)``; with ``phi`` estimated (Gaussian, gamma) it is
    ``F = [(D_small - D_big)/(p_big - p_small)] / [D_big/(n - p_big)]``, referred to
    ``F(p_big - p_small, n - p_big)``.

    Parameters
    ----------
    fit_small, fit_big : GLMFit
        Fits of the same response and family; the small model nested in the big one
        (the function checks the sizes, not the nesting).

    Returns
    -------
    TestResult

    Raises
    ------
    ValueError
        If the fits are not single-response GLMFits of the same family and ``n``, or the
        small model does not have fewer parameters.
    """
    s, b = _fit(fit_small, "fit_small"), _fit(fit_big, "fit_big")
    if s.family != b.family or s.mu.shape != b.mu.shape or s.beta.size >= b.beta.size:
        raise ValueError("fit_small and fit_big must fit the same data with the same family, "
                         "fit_small with fewer parameters")
    q = b.beta.size - s.beta.size
    if s.family in ("binomial", "poisson"):
        stat = s.deviance - b.deviance
        return TestResult(stat, (q,), float(stats.chi2.sf(stat, q)), "likelihood ratio (chi2)")
    F = ((s.deviance - b.deviance) / q) / (b.deviance / b.df_resid)
    return TestResult(F, (q, b.df_resid), float(stats.f.sf(F, q, b.df_resid)), "deviance F test")


def hosmer_lemeshow(y, p, g=10):
    """Hosmer–Lemeshow statistic: Pearson's ``X²`` of the ``2 × g`` table of observed and
    expected successes and failures in ``g`` groups of (nearly) equal size formed by sorting
    the fitted probabilities; referred to ``chi²(g - 2)``.

    Parameters
    ----------
    y : array_like, shape (n,)
        Binary responses in {0, 1}.
    p : array_like, shape (n,)
        Fitted probabilities in (0, 1).
    g : int
        Number of groups, 3 <= g <= n.

    Returns
    -------
    TestResult

    Raises
    ------
    ValueError
        If ``y`` is not binary, ``p`` is outside (0, 1), a shape is wrong, or ``g`` is out of range.
    """
    p = check.vector(p, None, "p")
    y = check.labels(y, p.size, (0, 1))
    if np.any((p <= 0) | (p >= 1)):
        raise ValueError("p must lie in the open interval (0, 1)")
    g = check.count(g, "g", low=3)
    if g > p.size:
        raise ValueError(f"g must be at most the number of observations {p.size}, got {g}")
    size = np.full(g, p.size // g) + (np.arange(g) < p.size % g)   # as np.array_split
    group = np.empty(p.size, int)
    group[np.argsort(p, kind="stable")] = np.repeat(np.arange(g), size)
    obs, exp = np.bincount(group, y, g), np.bincount(group, p, g)
    stat = float(np.sum((obs - exp) ** 2 / (exp * (1 - exp / size))))
    return TestResult(stat, (g - 2,), float(stats.chi2.sf(stat, g - 2)), "Hosmer-Lemeshow")


# --------------------------------------------------------------- log-linear models
class LoglinearFit(NamedTuple):
    """Poisson main-effects fit of a two-way table: fitted counts, coefficients
    ``(lambda, alpha_2..I, beta_2..J)`` (first categories as reference), ``G²``, ``X²``,
    degrees of freedom ``(I - 1)(J - 1)`` and the p-value of ``G²``."""

    fitted: np.ndarray
    beta: np.ndarray
    G2: float
    X2: float
    df: int
    pvalue: float

    def __repr__(self):
        return f"LoglinearFit(shape={self.fitted.shape}, df={self.df})"


def loglinear_independence(table):
    """Fit the independence model ``log mu_ij = lambda + alpha_i + beta_j`` to an ``I × J``
    table as a Poisson GLM (reference coding ``alpha_1 = beta_1 = 0``) by IRLS.

    Parameters
    ----------
    table : array_like, shape (I, J)
        Non-negative counts, I, J >= 2, every row and column margin positive.

    Returns
    -------
    LoglinearFit

    Raises
    ------
    ValueError
        If ``table`` is not a 2-D array of non-negative counts with positive margins.
    """
    t = check.matrix(table, "table")
    I, J = t.shape
    if I < 2 or J < 2 or np.any(t < 0) or np.any(t.sum(0) == 0) or np.any(t.sum(1) == 0):
        raise ValueError("table must be at least 2 × 2 with non-negative counts and positive margins")
    rows, cols = np.indices((I, J)).reshape(2, -1)
    X = np.column_stack([np.ones(I * J), np.eye(I)[rows][:, 1:], np.eye(J)[cols][:, 1:]])
    fit = glm_irls(X, t.ravel(), _POISSON, tol=1e-12)
    df = (I - 1) * (J - 1)
    return LoglinearFit(fit.mu.reshape(I, J), fit.beta, fit.deviance, fit.pearson_chi2, df,
                        float(stats.chi2.sf(fit.deviance, df)))


# ------------------------------------------------------------------ softmax regression
class SoftmaxFit(NamedTuple):
    """Softmax regression: weights ``W`` (K, d) with the last row 0 (reference class),
    the (penalised) log-likelihood, iterations and convergence."""

    W: np.ndarray
    loglik: float
    n_iter: int
    converged: bool

    def __repr__(self):
        return f"SoftmaxFit(K={self.W.shape[0]}, d={self.W.shape[1]}, converged={self.converged})"


def softmax_regression(X, y, lam=0.0, max_iter=50, tol=1e-10):
    """Multinomial logistic (softmax) regression by Newton's method.

    Maximises ``sum_i log p(y_i | x_i) - (lam/2) ||W||²`` with
    ``p(y = k | x) = exp(w_kᵀx) / sum_l exp(w_lᵀx)`` and ``w_K = 0`` for the last class.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Design matrix (include the column of ones for intercepts).
    y : array_like of int, shape (n,)
        Labels in ``0, ..., K-1``, every class present, K >= 2.
    lam : float
        Ridge penalty (>= 0); with 0 and separable data no maximiser exists.
    max_iter : int
    tol : float
        Stop when the largest gradient entry is at most ``tol``.

    Returns
    -------
    SoftmaxFit

    Warns
    -----
    RuntimeWarning
        If the iteration stops at ``max_iter`` without meeting the stopping rule (the result
        then has ``converged=False``).

    Raises
    ------
    ValueError
        If a shape is wrong, a label is negative or a class is missing, ``lam``,
        ``max_iter``, ``tol`` are out of range, or ``lam = 0`` and the classes are separable
        (no maximiser).
    """
    X = check.matrix(X)
    n, d = X.shape
    y = check.integer_entries(y, "y", low=0)
    if y.shape != (n,) or np.unique(y).size != y.max() + 1 or y.max() < 1:
        raise ValueError(f"y must have shape ({n},) with labels 0, ..., K-1 all present, K >= 2")
    lam, tol = check.nonnegative(lam, "lam"), check.positive(tol, "tol")
    max_iter = check.count(max_iter, "max_iter")
    K = int(y.max()) + 1
    W, ok, it = np.zeros((K, d)), False, 0
    for it in range(max_iter + 1):
        ll, grad = information.softmax_log_likelihood(W, X, y)
        g = (grad - lam * W)[:-1].ravel()                       # free rows 0..K-2
        if np.max(np.abs(g)) <= tol:
            ok = True
            break
        if it == max_iter:
            break
        F = X @ W.T
        P = np.exp(F - special.logsumexp(F, axis=1, keepdims=True))[:, :-1]
        C = np.einsum("nk,kl->nkl", P, np.eye(K - 1)) - P[:, :, None] * P[:, None, :]
        H = np.einsum("nkl,ni,nj->kilj", C, X, X).reshape((K - 1) * d, -1)
        W[:-1] += np.linalg.solve(H + lam * np.eye(H.shape[0]), g).reshape(K - 1, d)
    if lam == 0 and ok and ll > -1e-6:
        raise ValueError("lam = 0 and X separates the classes of y: the log-likelihood tends to 0 "
                         "as ||W|| grows, so no maximiser exists (use lam > 0)")
    _warn_unconverged(ok, "softmax_regression", max_iter)
    return SoftmaxFit(W, float(ll - lam / 2 * np.sum(W**2)), it, ok)


# ------------------------------------------------------------------------ B-splines
def _knot_vector(knots, degree):
    knots = check.vector(knots, None, "knots")
    degree = check.count(degree, "degree", low=1)
    if knots.size < 2 or np.any(np.diff(knots) <= 0):
        raise ValueError("knots must be strictly increasing, with at least 2 entries")
    return np.r_[[knots[0]] * degree, knots, [knots[-1]] * degree], degree


def _basis(x, t, k, deriv):
    """Cox–de Boor recursion for the B-splines of degree ``k`` on the knot vector ``t`` (and
    their ``deriv``-th derivatives by ``B′_{i,k} = k[B_{i,k-1}/(t_{i+k}-t_i) - B_{i+1,k-1}/(t_{i+k+1}-t_{i+1})]``)."""
    m = t.size - 1
    last = np.searchsorted(t, t[-1]) - 1                      # last non-empty interval
    cell = np.clip(np.searchsorted(t, x, side="right") - 1, 0, last)
    B = (cell[:, None] == np.arange(m)[None, :]).astype(float)  # degree 0
    for j in range(1, k - deriv + 1):
        B = _raise(B, x, t, j)
    for j in range(k - deriv + 1, k + 1):                     # differentiate the rest
        den1, den2 = t[j:-1] - t[:-j - 1], t[j + 1:] - t[1:-j]
        a = np.divide(j, den1, out=np.zeros_like(den1), where=den1 > 0)
        b = np.divide(j, den2, out=np.zeros_like(den2), where=den2 > 0)
        B = a * B[:, :-1] - b * B[:, 1:]
    return B


def _raise(B, x, t, j):
    """One step of the recursion: degree ``j - 1`` to degree ``j``."""
    den1, den2 = t[j:-1] - t[:-j - 1], t[j + 1:] - t[1:-j]
    left = np.divide(x[:, None] - t[:-j - 1], den1, out=np.zeros((x.size, den1.size)),
                     where=den1 > 0)
    right = np.divide(t[j + 1:] - x[:, None], den2, out=np.zeros((x.size, den2.size)),
                      where=den2 > 0)
    return left * B[:, :-1] + right * B[:, 1:]


def bspline_basis(x, knots, degree=3, deriv=0):
    """B-spline basis of ``degree`` with breakpoints ``knots`` (boundary knots repeated).

    Parameters
    ----------
    x : array_like, shape (n,)
        Points in ``[knots[0], knots[-1]]``.
    knots : array_like, shape (m,)
        Strictly increasing breakpoints, boundaries included (m >= 2).
    degree : int
        Polynomial degree (>= 1; 3 for cubic splines).
    deriv : int
        Derivative order, ``0 <= deriv <= degree``.

    Returns
    -------
    ndarray, shape (n, m + degree - 1)
        Column ``i`` is ``B_i(x)`` (or its derivative); without derivative the rows sum to 1.

    Raises
    ------
    ValueError
        If the knots are not increasing, ``x`` is outside their range, or an order is invalid.
    """
    t, degree = _knot_vector(knots, degree)
    x = check.vector(x, None, "x")
    deriv = check.count(deriv, "deriv", low=0)
    if deriv > degree:
        raise ValueError(f"deriv must be at most degree = {degree}, got {deriv}")
    if np.any((x < t[0]) | (x > t[-1])):
        raise ValueError(f"x must lie in [{t[0]}, {t[-1]}], the range of the knots")
    return _basis(x, t, degree, deriv)


def second_derivative_penalty(knots, degree=3):
    """Curvature penalty ``S_ij = ∫ B_i″(x) B_j″(x) dx`` over the range of the knots, exact
    (Gauss–Legendre quadrature with ``degree`` nodes per interval), so that
    ``∫ f″(x)² dx = βᵀSβ`` for ``f = sum_i beta_i B_i``.

    Parameters
    ----------
    knots : array_like, shape (m,)
        Strictly increasing breakpoints, boundaries included.
    degree : int
        Spline degree, >= 2.

    Returns
    -------
    ndarray, shape (m + degree - 1, m + degree - 1)
        Symmetric, positive semi-definite; its null space is the linear functions.

    Raises
    ------
    ValueError
        If the knots are not increasing or ``degree`` < 2.
    """
    t, degree = _knot_vector(knots, degree)
    if degree < 2:
        raise ValueError(f"degree must be at least 2 for a second-derivative penalty, got {degree}")
    u, wq = np.polynomial.legendre.leggauss(degree)
    k = np.unique(t)
    half = np.diff(k)[:, None] / 2
    x = ((k[:-1, None] + k[1:, None]) / 2 + half * u).ravel()
    D2 = _basis(x, t, degree, 2)
    return D2.T @ ((half * wq).ravel()[:, None] * D2)


# --------------------------------------------------------------- penalised IRLS, GCV
class PenalisedFit(NamedTuple):
    """Penalised IRLS fit: ``beta``, the Bayesian covariance ``phi (BᵀWB + lam S)⁻¹``, the
    effective degrees of freedom ``tr[(BᵀWB + lam S)⁻¹ BᵀWB]``, deviance, dispersion, means,
    iterations and convergence (arrays over columns for ``R`` responses)."""

    beta: np.ndarray
    cov: np.ndarray
    edf: np.ndarray
    deviance: np.ndarray
    phi: np.ndarray
    mu: np.ndarray
    n_iter: int
    converged: bool

    def __repr__(self):
        return f"PenalisedFit(q={self.beta.shape[0]}, converged={self.converged})"


def penalised_irls(B, y, family, S, lam, link=None, weights=None, tol=1e-10, max_iter=100):
    """Maximise ``-D(beta)/2 - (lam/2) betaᵀ S beta`` by penalised IRLS,
    ``beta ← (BᵀWB + lam S)⁻¹ BᵀWz``.

    Parameters
    ----------
    B : array_like, shape (n, q)
        Basis (model) matrix, e.g. :func:`bspline_basis` with extra parametric columns.
    y : array_like, shape (n,) or (n, R)
        Responses, as for :func:`glm_irls`.
    family : ExpFamily
    S : array_like, shape (q, q)
        Symmetric positive semi-definite penalty matrix.
    lam : float
        Smoothing parameter (>= 0); ``BᵀWB + lam S`` must be invertible.
    link, weights, tol, max_iter
        As for :func:`glm_irls`.

    Returns
    -------
    PenalisedFit

    Warns
    -----
    RuntimeWarning
        If the iteration stops at ``max_iter`` without meeting the stopping rule (the result
        then has ``converged=False``).

    Raises
    ------
    ValueError
        If a shape or value is invalid, or ``BᵀB + lam S`` is singular.
    """
    B = check.matrix(B, "B")
    n, q = B.shape
    family, link = _family(family, link)
    y = _response(y, n, family)
    S = check.psd(S, q, "S")
    lam, w = check.nonnegative(lam, "lam"), _weights(weights, n)
    tol, max_iter = check.positive(tol, "tol"), check.count(max_iter, "max_iter")
    if np.linalg.matrix_rank(B.T @ B + lam * S) < q:
        raise ValueError("BᵀB + lam S must be invertible (B of full rank, or lam S filling its null space)")
    Y = y.reshape(n, -1)
    with np.errstate(all="ignore"):
        beta, eta, mu, W, it, ok = _irls(B, Y, w, np.zeros(n), family, link, lam * S, tol, max_iter)
        A = _gram(B, W)
        dev, x2, _, _ = _summary(Y, w, family, mu, 1)
    _warn_unconverged(ok, "penalised_irls", max_iter)
    inv = np.linalg.inv(A + lam * S)
    edf = np.trace(inv @ A, axis1=1, axis2=2)
    phi = np.ones_like(x2) if family.scale_known else x2 / (n - edf)
    one = y.ndim == 1
    f = (lambda a: a[0]) if one else (lambda a: a)
    return PenalisedFit(beta[0] if one else beta.T, f(phi[:, None, None] * inv), f(edf), f(dev),
                        f(phi), mu[:, 0] if one else mu, it, bool(ok))


def gcv_score(B, y, family, S, lam, link=None, weights=None):
    """Generalised cross-validation score ``n D(beta_lam) / (n - edf_lam)²`` of a penalised fit.

    Parameters
    ----------
    B, y, family, S, lam, link, weights
        As for :func:`penalised_irls` (``y`` of shape (n,)).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As :func:`penalised_irls`, and if ``edf >= n``.
    """
    fit = penalised_irls(B, y, family, S, lam, link=link, weights=weights)
    n = check.matrix(B, "B").shape[0]
    if np.ndim(fit.edf) != 0 or fit.edf >= n - 1e-9:
        raise ValueError("y must be one response vector and the fit must have edf < n")
    return float(n * fit.deviance / (n - fit.edf) ** 2)
