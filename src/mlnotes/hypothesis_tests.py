"""Hypothesis testing and goodness of fit (chapter 24): likelihood ratios and the
Neyman-Pearson lemma, the z test of a normal mean and its power, generalised likelihood
ratio tests, Pearson's chi-square and the G statistic for multinomial counts, the Poisson
dispersion test, hanging rootograms, probability plots, the moment coefficients of
skewness and kurtosis, the Jarque-Bera test, and confidence sets by inverting tests.

Conventions. A sample is a 1-D array ``x``; functions that say "one or many samples"
also accept an array of shape ``(..., n)`` whose last axis holds the observations, and
then return one value per sample. Counts ``observed`` and ``expected`` are 1-D arrays over
the ``K`` cells of a multinomial (or stacks of them along leading axes). ``alpha`` is the
significance level, ``z(alpha)`` the upper ``alpha`` point of N(0, 1), as in Rice.
"""
from typing import NamedTuple

import numpy as np
from scipy.special import gammaincc, ndtr, ndtri

from mlnotes import _validate as check
from mlnotes.categorical import HypothesisTestResult

__all__ = [
    "SampleTestResult", "NeymanPearsonTest", "Rootogram", "InvertedSet",
    "likelihood_ratio", "neyman_pearson_test", "np_test_normal_mean", "power_normal_mean",
    "glrt_normal_mean", "g_statistic", "pearson_chi2", "gof_test", "poisson_dispersion_test",
    "hanging_rootogram", "plotting_positions", "skewness", "kurtosis", "jarque_bera",
    "ci_by_inverting",
]


# ------------------------------------------------------------------------- results
class SampleTestResult(HypothesisTestResult):
    """The :class:`~mlnotes.categorical.HypothesisTestResult` of chapter 03, for one sample or many.

    Same attributes (``statistic``, ``pvalue``, ``method``, ``dof``, ``expected``); when a
    test is run on a stack of samples, ``statistic`` and ``pvalue`` are arrays with one
    entry per sample, and the repr gives their shape instead of their values.
    """

    def __repr__(self):
        def fmt(v):
            return f"{v:.6g}" if np.ndim(v) == 0 else f"<array of shape {np.shape(v)}>"
        dof = "" if self.dof is None else f", dof={self.dof}"
        return (f"SampleTestResult(method={self.method!r}, statistic={fmt(self.statistic)}, "
                f"pvalue={fmt(self.pvalue)}{dof})")


class NeymanPearsonTest(NamedTuple):
    """Outcome of the most powerful test of two simple hypotheses about a normal mean.

    Attributes
    ----------
    reject : bool or ndarray of bool
        Whether ``H0`` is rejected at level ``alpha``.
    z : float or ndarray
        The standardised mean ``sqrt(n) (x_bar - mu0) / sigma``.
    critical_value : float
        The rejection threshold ``x0`` for the sample mean.
    pvalue : float or ndarray
        The one-sided p-value in the direction of ``mu1``.
    """

    reject: object
    z: object
    critical_value: float
    pvalue: object


class Rootogram(NamedTuple):
    """Pieces of a hanging rootogram and of a hanging chi-gram (arrays over the cells).

    Attributes
    ----------
    top : ndarray
        ``sqrt(E)``, the fitted curve from which the bars hang.
    bottom : ndarray
        ``sqrt(E) - sqrt(O)``, where each bar of height ``sqrt(O)`` ends; it is near 0
        when the fit is good, with standard deviation about 1/2.
    root_residual : ndarray
        ``sqrt(O) - sqrt(E)``.
    chi_residual : ndarray
        ``(O - E) / sqrt(E)``, the signed square roots of the terms of Pearson's ``X^2``.
    """

    top: np.ndarray
    bottom: np.ndarray
    root_residual: np.ndarray
    chi_residual: np.ndarray


class InvertedSet(NamedTuple):
    """A confidence set obtained by inverting a family of tests on a grid of values.

    Attributes
    ----------
    accepted : ndarray of bool
        For each grid value ``theta0``, whether the test of ``theta = theta0`` accepts.
    pvalues : ndarray
        The p-value of each test.
    low, high : float
        Smallest and largest accepted grid value (NaN if none is accepted).
    """

    accepted: np.ndarray
    pvalues: np.ndarray
    low: float
    high: float


# ---------------------------------------------------------------------- validation


def _counts(observed, expected):
    """Observed (>= 0) and expected (> 0) counts of one shape with equal totals."""
    O = check.finite(observed, "observed")
    if O.ndim == 0 or O.shape[-1] < 2:
        raise ValueError(f"observed must have shape (..., K) with K >= 2 cells, got {O.shape}")
    if np.any(O < 0):
        raise ValueError("observed must not contain negative counts")
    E = check.finite(expected, "expected")
    if E.shape != O.shape:
        raise ValueError(f"expected must have the shape of observed {O.shape}, got {E.shape}")
    if np.any(E <= 0):
        raise ValueError("expected must contain positive counts only")
    if not np.allclose(E.sum(axis=-1), O.sum(axis=-1), rtol=1e-6, atol=1e-9):
        raise ValueError("expected must have the same total as observed in each row")
    return O, E


def _chi2_sf(x, dof):
    """Upper tail ``P(chi2_dof > x)``, the regularised upper incomplete gamma function."""
    return gammaincc(dof / 2, np.maximum(x, 0.0) / 2)


def _scalar(a):
    return float(a) if np.ndim(a) == 0 else a


# ------------------------------------------------------------ Neyman-Pearson
def likelihood_ratio(logpdf0, logpdf1, x):
    """Likelihood ratio ``p0(x) / p1(x)`` of an i.i.d. sample (one or many samples).

    Computed as ``exp(sum_i [log p0(x_i) - log p1(x_i)])``, so the densities may be tiny.

    Parameters
    ----------
    logpdf0, logpdf1 : callable
        Log-density (or log-pmf) under ``H0`` and under ``H1``, applied elementwise.
    x : array_like, shape (n,) or (..., n)
        The sample(s); the last axis holds the observations.

    Returns
    -------
    float or ndarray, shape (...)
        Small values discredit ``H0``. May be 0 or inf if the ratio over- or underflows.

    Raises
    ------
    ValueError
        If ``x`` is not finite, or a log-density is not callable or returns an array of
        the wrong shape or with NaN (``-inf``, a zero density, is allowed).
    """
    x = check.sample(x, batch=True)
    logs = []
    for f, name in ((logpdf0, "logpdf0"), (logpdf1, "logpdf1")):
        v = check.as_float(check.function(f, name)(x), f"the value returned by {name}")
        if v.shape != x.shape or np.any(np.isnan(v)) or np.any(v == np.inf):
            raise ValueError(f"{name} must return log-densities of shape {x.shape}, without NaN or +inf")
        logs.append(v.sum(axis=-1))
    with np.errstate(invalid="ignore", over="ignore"):
        log_ratio = logs[0] - logs[1]
    if np.any(np.isnan(log_ratio)):
        raise ValueError("logpdf0 and logpdf1 are both -inf at some point: x is impossible under both")
    return _scalar(np.exp(log_ratio))


def neyman_pearson_test(p0, p1, alpha):
    """The randomised most powerful test of size ``alpha`` on a finite sample space.

    Outcomes are rejected in order of decreasing likelihood ratio ``p1/p0`` until the size
    reaches ``alpha``; the group of outcomes tied at the boundary is rejected with the
    probability ``gamma`` that makes the size exactly ``alpha``.

    Parameters
    ----------
    p0, p1 : array_like, shape (m,)
        Probabilities of the ``m`` outcomes under ``H0`` and ``H1``.
    alpha : float
        Size, in (0, 1).

    Returns
    -------
    phi : ndarray, shape (m,)
        Probability of rejecting ``H0`` at each outcome (0, 1, or ``gamma`` on the boundary).

    Raises
    ------
    ValueError
        If ``p0`` or ``p1`` is not a probability vector of a common length, or ``alpha``
        is not in (0, 1).
    """
    p0 = check.probabilities(check.vector(p0, None, "p0"), "p0")
    p1 = check.probabilities(check.vector(p1, p0.size, "p1"), "p1")
    alpha = check.level(alpha)
    with np.errstate(divide="ignore", invalid="ignore"):
        lr = np.where(p0 > 0, p1 / np.where(p0 > 0, p0, 1.0), np.inf)  # p1/p0, inf where p0 = 0
    ratios, group = np.unique(lr, return_inverse=True)       # groups of tied ratios, ascending
    mass = np.bincount(group, weights=p0, minlength=ratios.size)
    before = np.cumsum(mass[::-1])[::-1] - mass                # size used by larger ratios
    gamma = np.clip((alpha - before) / np.where(mass > 0, mass, 1.0), 0.0, 1.0)
    phi = np.where(mass > 0, gamma, 1.0)[group]
    return phi


def np_test_normal_mean(x, mu0, mu1, sigma, alpha):
    """Most powerful level-``alpha`` test of ``mu = mu0`` against ``mu = mu1``, known ``sigma``.

    The likelihood ratio is small when the mean lies far from ``mu0`` towards ``mu1``, so
    for ``mu1 > mu0`` the test rejects when ``x_bar > mu0 + z(alpha) sigma / sqrt(n)`` (and
    symmetrically for ``mu1 < mu0``). One or many samples.

    Parameters
    ----------
    x : array_like, shape (n,) or (..., n)
        Sample(s) from N(mu, sigma^2).
    mu0, mu1 : float
        The simple null and alternative means, ``mu1 != mu0``.
    sigma : float
        The known standard deviation, > 0.
    alpha : float
        Level, in (0, 1).

    Returns
    -------
    NeymanPearsonTest
        ``reject``, ``z``, the ``critical_value`` for the mean, the one-sided ``pvalue``.

    Raises
    ------
    ValueError
        For a non-finite ``x``, ``mu1 == mu0``, ``sigma <= 0`` or ``alpha`` outside (0, 1).
    """
    x = check.sample(x, batch=True)
    mu0, mu1 = check.number(mu0, "mu0"), check.number(mu1, "mu1")
    if mu1 == mu0:
        raise ValueError("mu1 must differ from mu0 (two simple hypotheses)")
    sigma, alpha = check.positive(sigma, "sigma"), check.level(alpha)
    n = x.shape[-1]
    sign = 1.0 if mu1 > mu0 else -1.0
    z = check.finite_result(np.sqrt(n) * (x.mean(axis=-1) - mu0) / sigma, "x, mu0 and sigma")
    crit = mu0 + sign * ndtri(1 - alpha) * sigma / np.sqrt(n)
    pvalue = ndtr(-sign * z)
    reject = pvalue <= alpha
    reject = bool(reject) if reject.ndim == 0 else reject
    return NeymanPearsonTest(reject, _scalar(z), float(crit), _scalar(pvalue))


def power_normal_mean(mu, mu0, sigma, n, alpha, two_sided=False):
    """Power of the level-``alpha`` z test of ``mu = mu0`` at the true mean(s) ``mu``.

    One-sided (alternative ``mu > mu0``, the test of :func:`np_test_normal_mean`):
    ``1 - Phi(z(alpha) - delta)`` with ``delta = sqrt(n) (mu - mu0) / sigma``. Two-sided
    (reject for ``|z| > z(alpha/2)``): ``1 - Phi(z(alpha/2) - delta) + Phi(-z(alpha/2) - delta)``.

    Parameters
    ----------
    mu : float or array_like
        True mean(s).
    mu0 : float
        Null mean.
    sigma : float
        Known standard deviation, > 0.
    n : int
        Sample size, >= 1.
    alpha : float
        Level, in (0, 1).
    two_sided : bool
        Which test.

    Returns
    -------
    float or ndarray
        Probability of rejecting ``H0``; equals ``alpha`` at ``mu = mu0``.

    Raises
    ------
    ValueError
        For non-finite means, ``sigma <= 0``, ``n < 1``, ``alpha`` outside (0, 1) or a
        non-bool ``two_sided``.
    """
    mu = check.finite(mu, "mu")
    mu0, sigma = check.number(mu0, "mu0"), check.positive(sigma, "sigma")
    n, alpha = float(check.count(n, "n")), check.level(alpha)   # float: a huge int has no sqrt
    delta = np.sqrt(n) * (mu - mu0) / sigma
    if check.flag(two_sided, "two_sided"):
        z = ndtri(1 - alpha / 2)
        return _scalar(ndtr(delta - z) + ndtr(-z - delta))
    return _scalar(ndtr(delta - ndtri(1 - alpha)))


# ------------------------------------------------------ generalised likelihood ratio
def glrt_normal_mean(x, mu0, sigma):
    """Generalised likelihood ratio test of ``mu = mu0`` against ``mu != mu0``, known ``sigma``.

    ``-2 log Lambda = [sum (x_i - mu0)^2 - sum (x_i - x_bar)^2] / sigma^2``, twice the gap
    between the log-likelihood maximised over all ``mu`` (at ``x_bar``) and at ``mu0``; its
    null law is chi-square with 1 degree of freedom (exactly, for normal data).

    Parameters
    ----------
    x : array_like, shape (n,) or (..., n)
        Sample(s).
    mu0 : float
        Null mean.
    sigma : float
        Known standard deviation, > 0.

    Returns
    -------
    SampleTestResult
        ``statistic = -2 log Lambda``, ``pvalue = P(chi2_1 > statistic)``, ``dof = 1``.

    Raises
    ------
    ValueError
        For a non-finite ``x`` or ``mu0``, or ``sigma <= 0``.
    """
    x = check.sample(x, batch=True)
    mu0, sigma = check.number(mu0, "mu0"), check.positive(sigma, "sigma")
    xbar = x.mean(axis=-1, keepdims=True)
    stat = (np.sum((x - mu0) ** 2, axis=-1) - np.sum((x - xbar) ** 2, axis=-1)) / sigma**2
    stat = np.maximum(check.finite_result(stat, "x, mu0 and sigma"), 0.0)   # rounding can give -1e-16
    return SampleTestResult(_scalar(stat), _scalar(_chi2_sf(stat, 1)),
                                "GLRT of a normal mean (known sigma)", 1)


# --------------------------------------------------------------- goodness of fit
def g_statistic(observed, expected):
    """Likelihood ratio statistic ``G = -2 log Lambda = 2 sum O log(O / E)`` (``0 log 0 = 0``).

    Parameters
    ----------
    observed : array_like, shape (K,) or (..., K)
        Observed counts, >= 0.
    expected : array_like, same shape
        Fitted counts under ``H0``, > 0, with the same total as ``observed``.

    Returns
    -------
    float or ndarray, shape (...)

    Raises
    ------
    ValueError
        For shapes that differ or have fewer than 2 cells, negative, non-finite or zero
        expected counts, or totals that differ.
    """
    O, E = _counts(observed, expected)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(O > 0, O * np.log(np.where(O > 0, O, 1.0) / E), 0.0)
    return _scalar(check.finite_result(2.0 * terms.sum(axis=-1), "observed and expected"))


def pearson_chi2(observed, expected):
    """Pearson's goodness-of-fit statistic ``X^2 = sum (O - E)^2 / E`` for multinomial counts.

    Parameters
    ----------
    observed : array_like, shape (K,) or (..., K)
        Observed counts, >= 0.
    expected : array_like, same shape
        Fitted counts under ``H0``, > 0, with the same total as ``observed``.

    Returns
    -------
    float or ndarray, shape (...)

    Raises
    ------
    ValueError
        As :func:`g_statistic`.
    """
    O, E = _counts(observed, expected)
    return _scalar(check.finite_result(np.sum((O - E) ** 2 / E, axis=-1), "observed and expected"))


def gof_test(observed, expected, n_estimated=0, statistic="pearson"):
    """Chi-square goodness-of-fit test of multinomial counts against fitted counts.

    The reference law is chi-square with ``K - 1 - n_estimated`` degrees of freedom:
    ``K - 1`` free cell probabilities, minus the parameters estimated to get ``expected``.

    Parameters
    ----------
    observed, expected : array_like, shape (K,) or (..., K)
        As :func:`pearson_chi2`.
    n_estimated : int
        Number of parameters estimated from the same counts (by maximum likelihood),
        ``0 <= n_estimated <= K - 2``.
    statistic : {"pearson", "g"}
        Pearson's ``X^2`` or the likelihood ratio statistic ``G``.

    Returns
    -------
    SampleTestResult
        ``statistic``, ``pvalue``, ``dof`` and the ``expected`` counts.

    Raises
    ------
    ValueError
        As :func:`g_statistic`; or a bad ``n_estimated`` or ``statistic``.
    """
    O, E = _counts(observed, expected)
    k = check.count(n_estimated, "n_estimated", low=0)
    dof = O.shape[-1] - 1 - k
    if dof < 1:
        raise ValueError(f"n_estimated must be at most K - 2 = {O.shape[-1] - 2}, got {k}")
    kind = check.choice(statistic, ("pearson", "g"), "statistic")
    stat = pearson_chi2(O, E) if kind == "pearson" else g_statistic(O, E)
    name = "Pearson chi-square" if kind == "pearson" else "likelihood ratio G"
    return SampleTestResult(stat, _scalar(_chi2_sf(stat, dof)), f"{name} goodness of fit", dof, E)


def poisson_dispersion_test(x, statistic="lr"):
    """Poisson dispersion test: do counts ``x_1..x_n`` share one Poisson rate?

    ``-2 log Lambda = 2 sum x_i log(x_i / x_bar)`` (``"lr"``) or its Taylor approximation
    ``sum (x_i - x_bar)^2 / x_bar`` (``"pearson"``), referred to chi-square with ``n - 1``
    degrees of freedom. One or many samples.

    Parameters
    ----------
    x : array_like, shape (n,) or (..., n)
        Non-negative counts, ``n >= 2``, not all zero.
    statistic : {"lr", "pearson"}

    Returns
    -------
    SampleTestResult
        ``statistic``, ``pvalue`` (large values mean over-dispersion), ``dof = n - 1``.

    Raises
    ------
    ValueError
        For negative, non-finite or all-zero counts, fewer than 2 counts, or a bad
        ``statistic``.
    """
    x = check.sample(x, min_size=2, batch=True)
    if np.any(x < 0):
        raise ValueError("x must contain non-negative counts")
    kind = check.choice(statistic, ("lr", "pearson"), "statistic")
    xbar = x.mean(axis=-1, keepdims=True)
    if np.any(xbar == 0):
        raise ValueError("x must not be all zero: the fitted rate would be 0")
    check.finite_result(np.sum((x - xbar) ** 2, axis=-1), "x")
    E = np.broadcast_to(xbar, x.shape)
    stat = g_statistic(x, E) if kind == "lr" else pearson_chi2(x, E)
    dof = x.shape[-1] - 1
    return SampleTestResult(stat, _scalar(_chi2_sf(np.asarray(stat), dof)),
                                f"Poisson dispersion test ({kind})", dof)


def hanging_rootogram(observed, expected):
    """Hanging rootogram and hanging chi-gram of counts against fitted counts.

    Bars of height ``sqrt(O)`` hang from the curve ``sqrt(E)``; the square root stabilises
    the variance of a count, so every ``sqrt(O) - sqrt(E)`` has standard deviation near
    1/2 and deviations beyond +-1 (two standard deviations) stand out.

    Parameters
    ----------
    observed : array_like, shape (K,)
        Observed counts, >= 0.
    expected : array_like, shape (K,)
        Fitted counts, > 0 (the totals may differ, e.g. when tail cells are left out).

    Returns
    -------
    Rootogram
        ``top``, ``bottom``, ``root_residual`` and ``chi_residual``.

    Raises
    ------
    ValueError
        For shapes that differ, negative or non-finite observed counts, or expected counts
        that are not positive.
    """
    O = check.vector(observed, None, "observed")
    E = check.vector(expected, O.size, "expected")
    if np.any(O < 0):
        raise ValueError("observed must not contain negative counts")
    if np.any(E <= 0):
        raise ValueError("expected must contain positive counts only")
    top, root = np.sqrt(E), np.sqrt(O)
    return Rootogram(top, top - root, root - top, (O - E) / top)


# --------------------------------------------------------------- probability plots
def plotting_positions(n):
    """The plotting positions ``i / (n + 1)``, ``i = 1..n``: the means of uniform order statistics.

    Parameters
    ----------
    n : int
        Sample size, >= 1.

    Returns
    -------
    ndarray, shape (n,)
        Plot ``x_(i)`` against ``F^{-1}(i / (n + 1))`` for a probability plot.

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer.
    """
    n = check.count(n, "n")
    return np.arange(1, n + 1) / (n + 1)


# ------------------------------------------------------------------------ normality
def _central_moments(x):
    x = check.sample(x, min_size=2, batch=True)
    d = x - x.mean(axis=-1, keepdims=True)
    m2 = np.mean(d**2, axis=-1)
    check.finite_result(np.mean(d**4, axis=-1), "x")     # the fourth moment overflows first
    if np.any(m2 == 0):
        raise ValueError("x must not be constant: its standard deviation is 0")
    return d, m2


def skewness(x):
    """Coefficient of skewness ``b1 = sum (x_i - x_bar)^3 / (n s^3)``, ``s`` with divisor ``n``.

    Parameters
    ----------
    x : array_like, shape (n,) or (..., n)
        Sample(s), ``n >= 2``, not constant.

    Returns
    -------
    float or ndarray, shape (...)
        0 for symmetric data; about N(0, 6/n) for large normal samples.

    Raises
    ------
    ValueError
        For a non-finite or constant sample or ``n < 2``.
    """
    d, m2 = _central_moments(x)
    return _scalar(np.mean(d**3, axis=-1) / m2**1.5)


def kurtosis(x):
    """Coefficient of kurtosis ``b2 = sum (x_i - x_bar)^4 / (n s^4)``, ``s`` with divisor ``n``.

    Parameters
    ----------
    x : array_like, shape (n,) or (..., n)
        Sample(s), ``n >= 2``, not constant.

    Returns
    -------
    float or ndarray, shape (...)
        About 3 for normal data (not the excess ``b2 - 3``); about N(3, 24/n) for large
        normal samples.

    Raises
    ------
    ValueError
        For a non-finite or constant sample or ``n < 2``.
    """
    d, m2 = _central_moments(x)
    return _scalar(np.mean(d**4, axis=-1) / m2**2)


def jarque_bera(x):
    """Jarque-Bera test of normality, ``JB = n/6 [b1^2 + (b2 - 3)^2 / 4]`` against chi-square(2).

    Parameters
    ----------
    x : array_like, shape (n,) or (..., n)
        Sample(s), ``n >= 2``, not constant.

    Returns
    -------
    SampleTestResult
        ``statistic = JB``, ``pvalue = exp(-JB / 2)``, ``dof = 2``.

    Raises
    ------
    ValueError
        As :func:`skewness`.
    """
    x = check.sample(x, min_size=2, batch=True)
    b1, b2 = np.asarray(skewness(x)), np.asarray(kurtosis(x))
    jb = x.shape[-1] / 6 * (b1**2 + (b2 - 3) ** 2 / 4)
    return SampleTestResult(_scalar(jb), _scalar(np.exp(-jb / 2)), "Jarque-Bera", 2)


# ------------------------------------------------------------------------- duality
def ci_by_inverting(test, grid, x, alpha):
    """Confidence set ``{theta0 : the level-alpha test of theta = theta0 accepts}`` on a grid.

    Parameters
    ----------
    test : callable
        ``test(x, theta0)`` returns the p-value of the test of ``theta = theta0``; it is
        called once per grid value.
    grid : array_like, shape (m,)
        Candidate values ``theta0``.
    x : array_like
        The data, passed to ``test`` unchanged (after a finiteness check).
    alpha : float
        Level, in (0, 1); ``theta0`` is accepted when its p-value exceeds ``alpha``.

    Returns
    -------
    InvertedSet
        The accepted mask, the p-values, and the smallest and largest accepted value.

    Raises
    ------
    ValueError
        If ``test`` is not callable or returns something other than one number in [0, 1],
        ``grid`` is not a finite 1-D array, ``x`` is not finite, or ``alpha`` is bad.
    """
    test = check.function(test, "test")
    grid = check.vector(grid, None, "grid")
    x, alpha = check.finite(x, "x"), check.level(alpha)
    p = np.array([check.returned(test(x, t), "test", shape=()) for t in grid], dtype=float)
    if np.any((p < 0) | (p > 1)):
        raise ValueError("test must return p-values in [0, 1]")
    ok = p > alpha
    low, high = (float(grid[ok].min()), float(grid[ok].max())) if ok.any() else (np.nan, np.nan)
    return InvertedSet(ok, p, low, high)
