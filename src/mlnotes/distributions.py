"""Distributions and limit theorems (chapter 01): the normal and multinomial laws, tail
bounds, running and standardised sums, the sample mean and variance, and the densities of
the chi-square, t and F distributions.

Conventions. The normal law ``N(mu, sigma²)`` is parameterised by its standard deviation
``sigma`` in the code (its variance in the text). Data points are the rows of an array, so
the statistics of a sample run along ``axis=0``; a Monte Carlo experiment with ``R``
samples of size ``n`` stores them as the columns of an ``(n, R)`` array. The gamma and
beta functions come from ``scipy.special`` (``gammaln``, ``betaln``, ``erfc``); the
densities themselves are written out from their formulas.
"""
import numpy as np

from mlnotes import _validate as check
from scipy.special import betaln, erfc, gammaln, xlogy

__all__ = [
    "normal_pdf", "normal_cdf",
    "multinomial_pmf", "multinomial_cov",
    "markov_bound", "chebyshev_bound", "empirical_tail",
    "running_mean", "standardized_sum",
    "sample_mean_var", "t_statistic",
    "chi2_pdf", "t_pdf", "f_pdf",
]


# ------------------------------------------------------------------------ validation


def _axis(x, axis, name, min_len=1):
    if check.count(axis, "axis", low=-x.ndim) >= x.ndim:
        raise ValueError(f"axis must be an integer axis of {name} (ndim {x.ndim}), got {axis!r}")
    if x.shape[axis] < min_len:
        raise ValueError(f"{name} must have at least {min_len} value(s) along axis {axis}, "
                         f"got {x.shape[axis]}")
    return int(axis)


def _scalar_or_array(a):
    """Return a Python float for 0-d results, the array otherwise."""
    return float(a) if np.ndim(a) == 0 else a


# -------------------------------------------------------------------- normal distribution
def normal_pdf(x, mu=0.0, sigma=1.0):
    """Density ``exp(-(x - mu)² / (2 sigma²)) / sqrt(2 pi sigma²)`` of ``N(mu, sigma²)``.

    Parameters
    ----------
    x : array_like
        Points at which to evaluate the density (finite).
    mu : float
        Mean.
    sigma : float
        Standard deviation (positive).

    Returns
    -------
    float or ndarray
        Same shape as ``x``.

    Raises
    ------
    ValueError
        If ``x`` or ``mu`` is not finite, or ``sigma`` is not positive.
    """
    x = check.finite(x, "x")
    mu, sigma = check.number(mu, "mu"), check.positive(sigma, "sigma")
    z = (x - mu) / sigma
    return _scalar_or_array(np.exp(-0.5 * z**2) / np.sqrt(2 * np.pi * sigma**2))


def normal_cdf(x, mu=0.0, sigma=1.0):
    """Normal CDF ``Phi((x - mu) / sigma) = (1 + erf((x - mu) / (sigma sqrt 2))) / 2``.

    Evaluated as ``erfc(-(x - mu) / (sigma sqrt 2)) / 2``, the same number written with the
    complementary error function ``erfc = 1 - erf``: it keeps full relative precision in
    the lower tail, where ``1 + erf(...)`` cancels to 0.

    Parameters
    ----------
    x : array_like
        Points at which to evaluate the CDF (finite).
    mu : float
        Mean.
    sigma : float
        Standard deviation (positive).

    Returns
    -------
    float or ndarray
        ``P(X <= x)`` for ``X ~ N(mu, sigma²)``, same shape as ``x``.

    Raises
    ------
    ValueError
        If ``x`` or ``mu`` is not finite, or ``sigma`` is not positive.
    """
    x = check.finite(x, "x")
    mu, sigma = check.number(mu, "mu"), check.positive(sigma, "sigma")
    return _scalar_or_array(0.5 * erfc(-(x - mu) / (sigma * np.sqrt(2.0))))


# ---------------------------------------------------------------- multinomial distribution
def _probabilities(p, name="p"):
    p = check.probabilities(p, name, atol=1e-10)
    if p.ndim != 1:
        raise ValueError(f"{name} must be a non-empty 1-D array of cell probabilities, "
                         f"got shape {p.shape}")
    return p


def multinomial_pmf(counts, p):
    """Multinomial probability ``n! / (x_1! ... x_m!) * p_1^x_1 ... p_m^x_m``, ``n = sum x_i``.

    Parameters
    ----------
    counts : array_like, shape (m,) or (k, m)
        Cell counts ``x_1, ..., x_m`` (non-negative integers); each row of a 2-D array is
        one outcome, and its total is the number of trials ``n`` of that outcome.
    p : array_like, shape (m,)
        Cell probabilities (non-negative, summing to 1).

    Returns
    -------
    float or ndarray, shape (k,)
        The probability of each outcome.

    Raises
    ------
    ValueError
        If ``counts`` is not an array of non-negative integers with ``m`` columns, or
        ``p`` is not a probability vector.
    """
    p = _probabilities(p)
    x = check.as_float(counts, "counts")
    if x.ndim not in (1, 2) or x.shape[-1] != p.size:
        raise ValueError(f"counts must have shape ({p.size},) or (k, {p.size}), got {x.shape}")
    if not np.all(np.isfinite(x)) or np.any(x < 0) or np.any(x != np.round(x)):
        raise ValueError("counts must contain non-negative integers")
    n = x.sum(axis=-1)
    # log n! - sum log x_i! + sum x_i log p_i, with 0 log 0 = 0 (xlogy)
    log_pmf = gammaln(n + 1) - gammaln(x + 1).sum(axis=-1) + xlogy(x, p).sum(axis=-1)
    return _scalar_or_array(np.exp(log_pmf))


def multinomial_cov(n, p):
    """Covariance matrix ``n (diag(p) - p pᵀ)`` of multinomial counts.

    The diagonal holds the binomial variances ``n p_i (1 - p_i)``; the off-diagonal
    entries ``-n p_i p_j`` are negative because the counts share a fixed total ``n``.

    Parameters
    ----------
    n : int
        Number of trials (non-negative).
    p : array_like, shape (m,)
        Cell probabilities (non-negative, summing to 1).

    Returns
    -------
    ndarray, shape (m, m)

    Raises
    ------
    ValueError
        If ``n`` is not a non-negative integer or ``p`` is not a probability vector.
    """
    n = check.count(n, "n", low=0)
    p = _probabilities(p)
    return n * (np.diag(p) - np.outer(p, p))


# -------------------------------------------------------------------------- tail bounds
def markov_bound(mean, t):
    """Markov's bound ``P(X >= t) <= E[X] / t`` for a non-negative ``X`` and ``t > 0``.

    Parameters
    ----------
    mean : array_like
        ``E[X]`` (non-negative, finite).
    t : array_like
        Thresholds (positive, finite); broadcast against ``mean``.

    Returns
    -------
    float or ndarray
        ``mean / t`` (values above 1 say nothing).

    Raises
    ------
    ValueError
        If some ``mean`` is negative or not finite, or some ``t`` is not positive and finite.
    """
    mean, t = check.finite(mean, "mean"), check.finite(t, "t")
    if np.any(mean < 0):
        raise ValueError("mean must be non-negative (Markov's inequality needs X >= 0)")
    if np.any(t <= 0):
        raise ValueError("t must be positive")
    return _scalar_or_array(mean / t)


def chebyshev_bound(variance, t):
    """Chebyshev's bound ``P(|X - mu| >= t) <= sigma² / t²`` for ``t > 0``.

    Parameters
    ----------
    variance : array_like
        ``var(X) = sigma²`` (non-negative, finite).
    t : array_like
        Distances from the mean (positive, finite); broadcast against ``variance``.

    Returns
    -------
    float or ndarray
        ``variance / t²`` (values above 1 say nothing).

    Raises
    ------
    ValueError
        If some ``variance`` is negative or not finite, or some ``t`` is not positive and
        finite.
    """
    variance, t = check.finite(variance, "variance"), check.finite(t, "t")
    if np.any(variance < 0):
        raise ValueError("variance must be non-negative")
    if np.any(t <= 0):
        raise ValueError("t must be positive")
    return _scalar_or_array(variance / t**2)


def empirical_tail(x, t):
    """Fraction of a sample at or above each threshold, the estimate of ``P(X >= t)``.

    Parameters
    ----------
    x : array_like, shape (n,)
        The sample (finite, at least one value).
    t : array_like
        Thresholds (finite).

    Returns
    -------
    float or ndarray
        ``#{i : x_i >= t} / n``, same shape as ``t``.

    Raises
    ------
    ValueError
        If ``x`` is not a non-empty finite 1-D array, or ``t`` is not finite.
    """
    x = check.finite(x, "x")
    if x.ndim != 1 or x.size == 0:
        raise ValueError(f"x must be a non-empty 1-D array, got shape {x.shape}")
    t = check.finite(t, "t")
    below = np.searchsorted(np.sort(x), t, side="left")  # how many x_i < t
    return _scalar_or_array((x.size - below) / x.size)


# --------------------------------------------------------------- running and standardised sums
def running_mean(x, axis=0):
    """Running means ``(x_1 + ... + x_k) / k`` for ``k = 1, ..., n`` along ``axis``.

    Parameters
    ----------
    x : array_like
        Finite values; ``axis`` indexes the draws ``x_1, ..., x_n``.
    axis : int
        The axis along which to accumulate.

    Returns
    -------
    ndarray
        Same shape as ``x``.

    Raises
    ------
    ValueError
        If ``x`` is empty along ``axis`` or not finite, or ``axis`` is invalid.
    """
    x = check.finite(x, "x")
    if x.ndim == 0:
        raise ValueError("x must be an array with at least one axis")
    axis = _axis(x, axis, "x")
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    k = np.arange(1, x.shape[axis] + 1).reshape(shape)
    return np.cumsum(x, axis=axis) / k


def standardized_sum(x, mu, sigma, axis=0):
    """Standardised sum ``Z_n = (X_1 + ... + X_n - n mu) / (sigma sqrt n)`` along ``axis``.

    Parameters
    ----------
    x : array_like
        Finite draws; ``axis`` indexes ``X_1, ..., X_n``.
    mu : float
        Mean of each draw.
    sigma : float
        Standard deviation of each draw (positive).
    axis : int
        The axis that is summed.

    Returns
    -------
    float or ndarray
        ``x`` with ``axis`` removed; mean 0 and variance 1 for i.i.d. draws.

    Raises
    ------
    ValueError
        If ``x`` is empty along ``axis`` or not finite, ``axis`` is invalid, ``mu`` is
        not finite or ``sigma`` is not positive.
    """
    x = check.finite(x, "x")
    if x.ndim == 0:
        raise ValueError("x must be an array with at least one axis")
    axis = _axis(x, axis, "x")
    mu, sigma = check.number(mu, "mu"), check.positive(sigma, "sigma")
    n = x.shape[axis]
    return _scalar_or_array((x.sum(axis=axis) - n * mu) / (sigma * np.sqrt(n)))


# ------------------------------------------------------------- sample mean and variance
def sample_mean_var(x, axis=0):
    """Sample mean ``X̄ = sum X_i / n`` and sample variance ``S² = sum (X_i - X̄)² / (n - 1)``.

    Parameters
    ----------
    x : array_like
        Finite values, at least two along ``axis``; with a 2-D ``(n, R)`` array and
        ``axis=0`` each column is one sample.
    axis : int
        The axis that indexes the sample ``X_1, ..., X_n``.

    Returns
    -------
    mean, var : float or ndarray
        ``x`` with ``axis`` removed.

    Raises
    ------
    ValueError
        If ``x`` is not finite, has fewer than two values along ``axis``, or ``axis`` is
        invalid.
    """
    x = check.finite(x, "x")
    if x.ndim == 0:
        raise ValueError("x must be an array with at least one axis")
    axis = _axis(x, axis, "x", min_len=2)
    n = x.shape[axis]
    mean = x.sum(axis=axis) / n
    dev = x - np.expand_dims(mean, axis)
    var = (dev**2).sum(axis=axis) / (n - 1)
    return _scalar_or_array(mean), _scalar_or_array(var)


def t_statistic(x, mu0=0.0, axis=0):
    """One-sample t statistic ``(X̄ - mu0) / (S / sqrt n)``; ``t_(n-1)`` for normal samples.

    Parameters
    ----------
    x : array_like
        Finite values, at least two along ``axis``.
    mu0 : float
        Hypothesised mean.
    axis : int
        The axis that indexes the sample.

    Returns
    -------
    float or ndarray
        ``x`` with ``axis`` removed (``±inf`` where ``S = 0`` and ``X̄ != mu0``, NaN where
        ``S = 0`` and ``X̄ = mu0``).

    Raises
    ------
    ValueError
        If ``x`` is not finite, has fewer than two values along ``axis``, ``axis`` is
        invalid, or ``mu0`` is not finite.
    """
    mu0 = check.number(mu0, "mu0")
    mean, var = sample_mean_var(x, axis=axis)
    n = np.shape(x)[axis]
    with np.errstate(divide="ignore", invalid="ignore"):
        return _scalar_or_array((mean - mu0) / np.sqrt(np.asarray(var) / n))


# ------------------------------------------------------- chi-square, t and F densities
def _density_at_zero(a, scale):
    """Limit at 0 of ``scale * v**(a - 1) * (1 + o(1))``: inf, ``scale`` or 0."""
    return np.inf if a < 1 else (scale if a == 1 else 0.0)


def chi2_pdf(x, df):
    """Chi-square density ``v^(n/2 - 1) exp(-v/2) / (2^(n/2) Gamma(n/2))`` for ``v > 0``.

    Parameters
    ----------
    x : array_like
        Points (finite); the density is 0 for ``x < 0``.
    df : float
        Degrees of freedom ``n`` (positive; need not be an integer).

    Returns
    -------
    float or ndarray
        Same shape as ``x``. At ``x = 0`` the limit: ``inf`` if ``df < 2``, ``1/2`` if
        ``df = 2``, 0 otherwise.

    Raises
    ------
    ValueError
        If ``x`` is not finite or ``df`` is not positive.
    """
    x = check.finite(x, "x")
    df = check.positive(df, "df")
    a = df / 2
    v = np.where(x > 0, x, 1.0)  # placeholder where the formula does not apply
    log_p = (a - 1) * np.log(v) - v / 2 - a * np.log(2.0) - gammaln(a)
    at_zero = _density_at_zero(a, 0.5)
    return _scalar_or_array(np.where(x > 0, np.exp(log_p), np.where(x == 0, at_zero, 0.0)))


def t_pdf(x, df):
    """Student t density ``Gamma((n+1)/2) / (sqrt(n pi) Gamma(n/2)) (1 + t²/n)^(-(n+1)/2)``.

    Parameters
    ----------
    x : array_like
        Points (finite).
    df : float
        Degrees of freedom ``n`` (positive; need not be an integer).

    Returns
    -------
    float or ndarray
        Same shape as ``x``.

    Raises
    ------
    ValueError
        If ``x`` is not finite or ``df`` is not positive.
    """
    x = check.finite(x, "x")
    n = check.positive(df, "df")
    log_c = gammaln((n + 1) / 2) - gammaln(n / 2) - 0.5 * np.log(n * np.pi)
    return _scalar_or_array(np.exp(log_c - (n + 1) / 2 * np.log1p(x**2 / n)))


def f_pdf(x, dfn, dfd):
    """F density ``(m/n)^(m/2) w^(m/2 - 1) (1 + m w / n)^(-(m+n)/2) / B(m/2, n/2)``, ``w > 0``.

    Here ``B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b)`` is the beta function, so the
    constant equals ``Gamma((m+n)/2) / (Gamma(m/2) Gamma(n/2))`` as in the text.

    Parameters
    ----------
    x : array_like
        Points (finite); the density is 0 for ``x < 0``.
    dfn, dfd : float
        Degrees of freedom ``m`` of the numerator and ``n`` of the denominator (positive).

    Returns
    -------
    float or ndarray
        Same shape as ``x``. At ``x = 0`` the limit: ``inf`` if ``m < 2``, 1 if ``m = 2``,
        0 otherwise.

    Raises
    ------
    ValueError
        If ``x`` is not finite or a degree of freedom is not positive.
    """
    x = check.finite(x, "x")
    m, n = check.positive(dfn, "dfn"), check.positive(dfd, "dfd")
    w = np.where(x > 0, x, 1.0)  # placeholder where the formula does not apply
    log_p = (m / 2 * np.log(m / n) + (m / 2 - 1) * np.log(w)
             - (m + n) / 2 * np.log1p(m * w / n) - betaln(m / 2, n / 2))
    at_zero = _density_at_zero(m / 2, 1.0)
    return _scalar_or_array(np.where(x > 0, np.exp(log_p), np.where(x == 0, at_zero, 0.0)))
