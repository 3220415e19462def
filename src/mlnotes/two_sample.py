"""Comparing two samples (chapter 25): the pooled and Welch t tests and intervals, the exact
and approximate power of the t test, the Mann–Whitney test with its exact null law and the
Hodges–Lehmann interval for a shift, the paired t test, the signed-rank test, and the
flat-prior Bayesian posterior of a difference of means.

Conventions. ``x`` holds the sample ``X_1, ..., X_n`` (the control group) and ``y`` the
sample ``Y_1, ..., Y_m`` (the treatment group); both are 1-D arrays. The parameter of the
t methods is ``mu_X - mu_Y`` and its estimate ``X̄ - Ȳ``. The Mann–Whitney statistic is
``U_Y = #{(i, j) : X_i < Y_j}`` (ties count 1/2), large when the ``Y`` tend to be larger;
the shift of the Hodges–Lehmann interval is ``Delta`` in ``G(t) = F(t - Delta)``, i.e.
``Y = X + Delta`` in law. For paired data ``D_i = X_i - Y_i`` and the signed-rank statistic
``W_+`` is the sum of the ranks of ``|D_i|`` over the positive ``D_i``. Ties get midranks.
Quantiles and tail probabilities of the t, non-central t and normal laws come from
``scipy.stats``; everything else is numpy.
"""
from typing import NamedTuple

import numpy as np
import scipy.stats

from mlnotes import _validate as check
from mlnotes.distributions import normal_cdf, sample_mean_var, t_pdf

__all__ = [
    "TTestResult", "ConfidenceInterval", "RankTestResult",
    "midranks", "pooled_variance", "two_sample_t", "t_interval", "t_power", "approx_power",
    "rank_sum", "mann_whitney_u", "mw_null_pmf", "hodges_lehmann",
    "paired_t", "signed_rank", "signed_rank_null_pmf", "bayes_two_sample_posterior",
]

_ALTERNATIVES = ("two-sided", "greater", "less")
# method="auto" uses the exact null law up to these sizes (its cost grows like (nm)² and n³);
# beyond the LIMITs the exact laws are refused (minutes of work, gigabytes of memory)
EXACT_MAX_MN = 10_000
EXACT_MAX_N = 400
EXACT_LIMIT_MN = 100_000
EXACT_LIMIT_N = 1_000


class TTestResult(NamedTuple):
    """A t test: statistic, degrees of freedom, p-value, the estimate, its standard error,
    and the two-sided ``100(1 - alpha) %`` interval ``estimate ± t_df(alpha/2) se``."""
    statistic: float
    df: float
    pvalue: float
    estimate: float
    se: float
    low: float
    high: float


class ConfidenceInterval(NamedTuple):
    """A point estimate with an interval ``[low, high]`` and its confidence level."""
    estimate: float
    low: float
    high: float
    level: float


class RankTestResult(NamedTuple):
    """A rank test: the statistic, its p-value and how the p-value was found."""
    statistic: float
    pvalue: float
    method: str


# ----------------------------------------------------------------------- helpers


def _t_pvalue(t, df, alternative):
    if alternative == "greater":
        return float(scipy.stats.t.sf(t, df))
    if alternative == "less":
        return float(scipy.stats.t.cdf(t, df))
    return float(min(1.0, 2 * scipy.stats.t.sf(abs(t), df)))


def _t_result(estimate, se, df, alternative, alpha):
    check.finite_result([estimate, se, df], "x and y")
    if not se > 0:
        raise ValueError("x and y must not both be constant: the standard error is 0")
    t = estimate / se
    half = scipy.stats.t.ppf(1 - alpha / 2, df) * se
    return TTestResult(float(t), float(df), _t_pvalue(t, df, alternative), float(estimate),
                       float(se), float(estimate - half), float(estimate + half))


def midranks(v):
    """Ranks 1, ..., N of a sample in increasing order, tied values sharing the mean of their ranks.

    Parameters
    ----------
    v : array_like, shape (N,)
        A finite sample.

    Returns
    -------
    ranks : ndarray, shape (N,)
        The midrank of each value (``scipy.stats.rankdata(v)``, method ``"average"``).
    counts : ndarray of int, shape (K,)
        The sizes of the K runs of equal values, in increasing order of the value, so that
        ``sum(counts**3 - counts)`` is the tie correction of the rank tests.

    Raises
    ------
    ValueError
        If ``v`` is not a finite 1-D sample.
    """
    v = check.sample(v, "v")
    _, inverse, counts = np.unique(v, return_inverse=True, return_counts=True)
    top = np.cumsum(counts)
    return (top - (counts - 1) / 2)[inverse], counts


def _exact_size_mn(n, m, names):
    if n * m > EXACT_LIMIT_MN:
        raise ValueError(f"{names[0]} and {names[1]} are too large for the exact Mann–Whitney null law "
                         f"(n m = {n * m} > {EXACT_LIMIT_MN}): use the normal approximation")


def _exact_tail_pvalue(pmf, w, alternative):
    """``P(W >= w)``, ``P(W <= w)`` or twice the smaller, from the pmf on 0, 1, ..., len-1."""
    k = int(round(w))
    upper, lower = pmf[k:].sum(), pmf[:k + 1].sum()
    p = {"greater": upper, "less": lower}.get(alternative, 2 * min(upper, lower))
    return float(min(1.0, p))


# ----------------------------------------------------------------- the t methods
def pooled_variance(x, y):
    """Pooled sample variance ``s_p² = ((n - 1) s_X² + (m - 1) s_Y²) / (n + m - 2)``.

    Parameters
    ----------
    x, y : array_like
        The two samples, 1-D, finite, with at least two values each.

    Returns
    -------
    float
        The weighted average of the two sample variances, with weights proportional to
        their degrees of freedom.
    """
    x, y = check.sample(x, "x", 2), check.sample(y, "y", 2)
    n, m = x.size, y.size
    s2 = ((n - 1) * sample_mean_var(x)[1] + (m - 1) * sample_mean_var(y)[1]) / (n + m - 2)
    return float(check.finite_result(s2, "x and y"))


def _estimate_se_df(x, y, equal_var):
    """``X̄ - Ȳ``, its estimated standard error and the degrees of freedom of the t law."""
    (mx, vx), (my, vy) = sample_mean_var(x), sample_mean_var(y)
    n, m = x.size, y.size
    if equal_var:
        return mx - my, np.sqrt(pooled_variance(x, y) * (1 / n + 1 / m)), n + m - 2
    a, b = vx / n, vy / m
    return mx - my, np.sqrt(a + b), (a + b) ** 2 / (a**2 / (n - 1) + b**2 / (m - 1))


def two_sample_t(x, y, equal_var=True, alternative="two-sided", alpha=0.05):
    """Two-sample t test of ``mu_X = mu_Y``: pooled (Student) or Welch's unequal-variance test.

    With ``equal_var=True`` the statistic is ``(X̄ - Ȳ) / (s_p sqrt(1/n + 1/m))`` with
    ``n + m - 2`` degrees of freedom; otherwise ``(X̄ - Ȳ) / sqrt(s_X²/n + s_Y²/m)`` with the
    Welch–Satterthwaite degrees of freedom (not rounded).

    Parameters
    ----------
    x, y : array_like
        The two samples, 1-D, finite, at least two values each.
    equal_var : bool
        Pool the variances (True) or use Welch's statistic (False).
    alternative : {"two-sided", "greater", "less"}
        ``mu_X != mu_Y``, ``mu_X > mu_Y`` or ``mu_X < mu_Y``.
    alpha : float
        The interval in the result has level ``1 - alpha`` (it is always two-sided).

    Returns
    -------
    TTestResult
    """
    x, y = check.sample(x, "x", 2), check.sample(y, "y", 2)
    equal_var = check.flag(equal_var, "equal_var")
    alternative = check.choice(alternative, _ALTERNATIVES, "alternative")
    estimate, se, df = _estimate_se_df(x, y, equal_var)
    return _t_result(estimate, se, df, alternative, check.level(alpha))


def t_interval(x, y, alpha=0.05, equal_var=True):
    """Confidence interval ``(X̄ - Ȳ) ± t_df(alpha/2) s_{X̄-Ȳ}`` for ``mu_X - mu_Y``.

    Parameters
    ----------
    x, y : array_like
        The two samples, 1-D, finite, at least two values each.
    alpha : float
        One minus the confidence level, in (0, 1).
    equal_var : bool
        Pooled standard error with ``n + m - 2`` degrees of freedom (True) or Welch's.

    Returns
    -------
    ConfidenceInterval
    """
    r = two_sample_t(x, y, equal_var=equal_var, alpha=alpha)
    return ConfidenceInterval(r.estimate, r.low, r.high, 1 - alpha)


def t_power(delta, sigma, n, m, alpha=0.05, alternative="two-sided"):
    """Exact power of the pooled two-sample t test, from the non-central t distribution.

    Under ``mu_X - mu_Y = delta`` the statistic has the non-central t law with ``n + m - 2``
    degrees of freedom and non-centrality ``delta / (sigma sqrt(1/n + 1/m))``; the power is
    its probability of the rejection region.

    Parameters
    ----------
    delta : float or array_like
        True difference ``mu_X - mu_Y`` (finite).
    sigma : float
        Common standard deviation (positive).
    n, m : int
        Sample sizes, at least 2 each.
    alpha : float
        Level of the test, in (0, 1).
    alternative : {"two-sided", "greater", "less"}

    Returns
    -------
    float or ndarray
        Same shape as ``delta``.
    """
    delta = check.finite(delta, "delta")
    sigma = check.positive(sigma, "sigma")
    n, m = check.count(n, "n", low=2), check.count(m, "m", low=2)
    alpha = check.level(alpha)
    alternative = check.choice(alternative, _ALTERNATIVES, "alternative")
    n, m = float(n), float(m)                    # a huge Python int is not a numpy number
    df, nc = n + m - 2, delta / (sigma * np.sqrt(1 / n + 1 / m))
    # P(T < -c) for T ~ nct(df, nc) is P(T' > c) for T' = -T ~ nct(df, -nc); written with sf
    # because scipy's nct.cdf returns NaN far in the lower tail (e.g. df=98, nc=10).
    if alternative == "greater":
        power = scipy.stats.nct.sf(scipy.stats.t.ppf(1 - alpha, df), df, nc)
    elif alternative == "less":
        power = scipy.stats.nct.sf(scipy.stats.t.ppf(1 - alpha, df), df, -nc)
    else:
        c = scipy.stats.t.ppf(1 - alpha / 2, df)
        power = scipy.stats.nct.sf(c, df, nc) + scipy.stats.nct.sf(c, df, -nc)
    if np.any(np.isnan(power)):
        raise ValueError(f"the non-central t law could not be evaluated for n={n:g}, m={m:g} "
                         "(scipy returned NaN): use approx_power for such sizes")
    return float(power) if np.ndim(power) == 0 else power


def approx_power(delta, sigma, n, alpha=0.05, m=None):
    """Normal-approximation power ``1 - Φ(z - δ/se) + Φ(-z - δ/se)`` of the two-sided test.

    This is the exact power of the two-sided z test with known ``sigma``, where
    ``se = sigma sqrt(1/n + 1/m)`` (``= sigma sqrt(2/n)`` for ``m = n``, the notes' formula)
    and ``z = z(alpha/2)``; for the t test it is a large-sample approximation.

    Parameters
    ----------
    delta : float or array_like
        True difference ``mu_X - mu_Y`` (finite).
    sigma : float
        Common standard deviation (positive).
    n : int
        Size of the first sample.
    alpha : float
        Level, in (0, 1).
    m : int or None
        Size of the second sample; ``None`` means ``m = n``.

    Returns
    -------
    float or ndarray
        Same shape as ``delta``.
    """
    delta = check.finite(delta, "delta")
    sigma = check.positive(sigma, "sigma")
    n = float(check.count(n, "n"))
    m = n if m is None else float(check.count(m, "m"))
    z = scipy.stats.norm.ppf(1 - check.level(alpha) / 2)
    shift = delta / (sigma * np.sqrt(1 / n + 1 / m))
    return 1 - normal_cdf(z - shift) + normal_cdf(-z - shift)


# ------------------------------------------------------------------ Mann–Whitney
def rank_sum(x, y):
    """Rank sum ``T_Y``: the sum of the ranks of ``y`` in the combined sample (midranks for ties).

    Parameters
    ----------
    x, y : array_like
        The two samples, 1-D, finite, non-empty.

    Returns
    -------
    float
    """
    x, y = check.sample(x, "x"), check.sample(y, "y")
    ranks, _ = midranks(np.concatenate([x, y]))
    return float(ranks[x.size:].sum())


def mw_null_pmf(n, m):
    """Null distribution of ``U_Y`` for sample sizes ``n, m``, by the counting recursion.

    With ``p_{n,m}(u) = P(U_Y = u)`` under ``F = G``, the largest of the ``n + m`` values is a
    ``Y`` (and exceeds all ``n`` values of ``X``) with probability ``m / (n + m)``:
    ``p_{n,m}(u) = m/(n+m) p_{n,m-1}(u - n) + n/(n+m) p_{n-1,m}(u)``, with
    ``p_{0,m} = p_{n,0} = δ_0``.

    Parameters
    ----------
    n, m : int
        Sample sizes (at least 1).

    Returns
    -------
    ndarray of shape (n m + 1,)
        ``P(U_Y = u)`` for ``u = 0, 1, ..., n m``.

    Raises
    ------
    ValueError
        If ``n`` or ``m`` is not a positive integer, or ``n m`` exceeds 100000 (the
        recursion would take minutes and gigabytes; use the normal approximation).
    """
    n, m = check.count(n, "n"), check.count(m, "m")
    _exact_size_mn(n, m, ("n", "m"))
    row = [np.ones(1) for _ in range(m + 1)]            # p_{0, j} = δ_0
    for i in range(1, n + 1):
        new = [np.ones(1)]                             # p_{i, 0} = δ_0
        for j in range(1, m + 1):
            p = np.zeros(i * j + 1)
            p[i:] += j / (i + j) * new[j - 1]          # largest is a Y: u - i from (i, j-1)
            p[: row[j].size] += i / (i + j) * row[j]   # largest is an X: u from (i-1, j)
            new.append(p)
        row = new
    return row[m]


def mann_whitney_u(x, y, alternative="two-sided", method="auto"):
    """Mann–Whitney test of ``F = G`` with ``U_Y = #{(i, j) : X_i < Y_j}`` (ties count 1/2).

    ``alternative="greater"`` means the ``Y`` tend to be larger (large ``U_Y``). The exact
    p-value uses :func:`mw_null_pmf` (no ties allowed); the normal one uses
    ``E U_Y = nm/2``, the tie-corrected variance
    ``nm/12 [N + 1 - sum(t³ - t) / (N(N - 1))]`` (``N = n + m``, ``t`` the sizes of the
    groups of ties) and a continuity correction of 1/2.

    Parameters
    ----------
    x, y : array_like
        The two samples, 1-D, finite, non-empty.
    alternative : {"two-sided", "greater", "less"}
    method : {"auto", "exact", "normal"}
        ``"auto"`` is exact without ties when ``n m <= 10000``, normal otherwise.

    Returns
    -------
    RankTestResult
    """
    x, y = check.sample(x, "x"), check.sample(y, "y")
    alternative = check.choice(alternative, _ALTERNATIVES, "alternative")
    method = check.choice(method, ("auto", "exact", "normal"), "method")
    n, m = x.size, y.size
    ranks, ties = midranks(np.concatenate([x, y]))
    u = float(ranks[n:].sum() - m * (m + 1) / 2)    # = #{X_i < Y_j} + #{X_i = Y_j}/2, in O(N log N)
    if method == "exact" and np.any(ties > 1):
        raise ValueError("x and y must have no tied values for method='exact'")
    if method == "exact":
        _exact_size_mn(n, m, ("x", "y"))
    if method == "exact" or (method == "auto" and not np.any(ties > 1) and n * m <= EXACT_MAX_MN):
        return RankTestResult(u, _exact_tail_pvalue(mw_null_pmf(n, m), u, alternative), "exact")
    N = n + m
    sd = np.sqrt(n * m / 12 * (N + 1 - np.sum(ties**3 - ties) / (N * (N - 1))))
    return RankTestResult(u, _normal_pvalue(u - n * m / 2, sd, alternative, 0.5), "normal")


def _normal_pvalue(centred, sd, alternative, correction):
    """Normal tail probability of a centred statistic with a continuity ``correction``."""
    if not sd > 0:
        raise ValueError("the statistic has zero variance (all values tied): no normal p-value")
    if alternative == "greater":
        return float(1 - normal_cdf((centred - correction) / sd))
    if alternative == "less":
        return float(normal_cdf((centred + correction) / sd))
    return float(min(1.0, 2 * (1 - normal_cdf((abs(centred) - correction) / sd))))


def hodges_lehmann(x, y, alpha=0.05):
    """Hodges–Lehmann estimate and Mann–Whitney confidence interval for a shift ``Delta``.

    In the model ``G(t) = F(t - Delta)`` the estimate is the median of the ``nm``
    differences ``Y_j - X_i`` and the interval ``[D_(k), D_(nm-k+1)]`` of their order
    statistics, where ``k`` is the largest integer with ``P(U_Y <= k - 1) <= alpha/2``
    under the null; its exact level is ``1 - 2 P(U_Y <= k - 1) >= 1 - alpha``.

    Parameters
    ----------
    x, y : array_like
        The two samples, 1-D, finite, non-empty.
    alpha : float
        At most one minus the confidence level, in (0, 1).

    Returns
    -------
    ConfidenceInterval
        With ``level`` the exact coverage for continuous ``F``. The exact null law costs
        about ``(nm)²/4`` operations (a second for ``n m`` near 40000).
    """
    x, y = check.sample(x, "x"), check.sample(y, "y")
    alpha = check.level(alpha)
    n, m = x.size, y.size
    _exact_size_mn(n, m, ("x", "y"))
    D = np.sort((y[None, :] - x[:, None]).ravel())
    cdf = np.cumsum(mw_null_pmf(n, m))
    k = int(np.sum(cdf <= alpha / 2 * (1 + 1e-12)))
    if k == 0:
        raise ValueError(f"x and y are too small for a level-{1 - alpha:g} interval: "
                         f"even P(U_Y = 0) = {cdf[0]:.3g} exceeds alpha/2")
    return ConfidenceInterval(float(np.median(D)), float(D[k - 1]), float(D[n * m - k]),
                              float(1 - 2 * cdf[k - 1]))


# ------------------------------------------------------------------ paired samples
def paired_t(x, y, alpha=0.05, alternative="two-sided"):
    """Paired t test and interval for ``mu_D = mu_X - mu_Y`` from ``D_i = X_i - Y_i``.

    The statistic ``D̄ / s_D̄`` with ``s_D̄ = s_D / sqrt n`` has ``n - 1`` degrees of freedom;
    the interval is ``D̄ ± t_{n-1}(alpha/2) s_D̄``.

    Parameters
    ----------
    x, y : array_like
        The pairs ``(X_i, Y_i)``: two 1-D finite arrays of the same length n >= 2.
    alpha : float
        One minus the confidence level, in (0, 1).
    alternative : {"two-sided", "greater", "less"}

    Returns
    -------
    TTestResult
    """
    x = check.sample(x, "x", 2)
    y = check.vector(y, x.size, "y")
    alternative = check.choice(alternative, _ALTERNATIVES, "alternative")
    mean, var = sample_mean_var(x - y)
    return _t_result(mean, np.sqrt(var / x.size), x.size - 1, alternative, check.level(alpha))


def signed_rank_null_pmf(n):
    """Null distribution of ``W_+ = sum_k k I_k`` with independent fair signs ``I_k``.

    Adds the ranks one at a time: ``p_k(w) = (p_{k-1}(w) + p_{k-1}(w - k)) / 2``, the
    coefficients of ``prod_k (1 + z^k) / 2``.

    Parameters
    ----------
    n : int
        Number of non-zero differences (at least 1).

    Returns
    -------
    ndarray of shape (n(n+1)/2 + 1,)
        ``P(W_+ = w)`` for ``w = 0, 1, ..., n(n+1)/2``.

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer or exceeds 1000 (use the normal approximation).
    """
    n = check.count(n, "n")
    if n > EXACT_LIMIT_N:
        raise ValueError(f"n must be at most {EXACT_LIMIT_N} for the exact null law of W_+, got {n}: "
                         "use the normal approximation")
    p = np.ones(1)
    for k in range(1, n + 1):
        p = 0.5 * (np.concatenate([p, np.zeros(k)]) + np.concatenate([np.zeros(k), p]))
    return p


def signed_rank(d, alternative="two-sided", method="auto"):
    """Wilcoxon signed-rank test with ``W_+`` = sum of the ranks of ``|D_i|`` over ``D_i > 0``.

    Zero differences are dropped, tied ``|D_i|`` get midranks. The exact p-value uses
    :func:`signed_rank_null_pmf` (no ties or zeros); the normal one uses
    ``E W_+ = n(n+1)/4`` and ``var W_+ = n(n+1)(2n+1)/24 - sum(t³ - t)/48``, without a
    continuity correction. ``alternative="greater"`` means the ``D_i`` tend to be positive.

    Parameters
    ----------
    d : array_like
        The differences ``D_i = X_i - Y_i``, 1-D and finite, not all zero.
    alternative : {"two-sided", "greater", "less"}
    method : {"auto", "exact", "normal"}
        ``"auto"`` is exact without ties or zeros when ``n <= 400``, normal otherwise.

    Returns
    -------
    RankTestResult
        The statistic is always ``W_+`` (also for the two-sided test).
    """
    d = check.vector(d, None, "d")
    alternative = check.choice(alternative, _ALTERNATIVES, "alternative")
    method = check.choice(method, ("auto", "exact", "normal"), "method")
    nz = d[d != 0]
    if nz.size == 0:
        raise ValueError("d must have at least one non-zero difference")
    ranks, ties = midranks(np.abs(nz))
    w, n = float(ranks[nz > 0].sum()), nz.size
    clean = nz.size == d.size and not np.any(ties > 1)
    if method == "exact" and not clean:
        raise ValueError("d must have no zeros and no tied |d| for method='exact'")
    if method == "exact" and n > EXACT_LIMIT_N:
        raise ValueError(f"d has {n} differences, too many for the exact null law (at most "
                         f"{EXACT_LIMIT_N}): use method='normal'")
    if method == "exact" or (method == "auto" and clean and n <= EXACT_MAX_N):
        return RankTestResult(w, _exact_tail_pvalue(signed_rank_null_pmf(n), w, alternative), "exact")
    sd = np.sqrt(n * (n + 1) * (2 * n + 1) / 24 - np.sum(ties**3 - ties) / 48)
    return RankTestResult(w, _normal_pvalue(w - n * (n + 1) / 4, sd, alternative, 0.0), "normal")


# ---------------------------------------------------------------------- Bayesian
def bayes_two_sample_posterior(x, y, grid):
    """Posterior density of ``Delta = mu_X - mu_Y`` under flat priors on the means and on ``log σ``.

    It is the ``t_{n+m-2}`` density located at ``x̄ - ȳ`` with scale
    ``s_p sqrt(1/n + 1/m)``: ``(Delta - (x̄ - ȳ)) / (s_p sqrt(1/n + 1/m)) | data ~ t_{n+m-2}``.

    Parameters
    ----------
    x, y : array_like
        The two samples, 1-D, finite, at least two values each.
    grid : array_like
        Finite values of ``Delta`` at which to evaluate the density.

    Returns
    -------
    ndarray
        The density on ``grid`` (same shape).
    """
    x, y = check.sample(x, "x", 2), check.sample(y, "y", 2)
    grid = check.finite(grid, "grid")
    scale = np.sqrt(pooled_variance(x, y) * (1 / x.size + 1 / y.size))
    if not scale > 0:
        raise ValueError("x and y must not both be constant: the posterior is degenerate")
    centre = sample_mean_var(x)[0] - sample_mean_var(y)[0]
    return np.asarray(t_pdf((grid - centre) / scale, x.size + y.size - 2)) / scale
