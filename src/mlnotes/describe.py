"""Summarising data (chapter 02): the empirical distribution function, the
Kolmogorov-Smirnov distance and the DKW band, survival and hazard functions, quantiles and
Q-Q plots, kernel density estimates, and measures of location and dispersion.

Conventions. A sample is a 1-D array ``x`` of shape ``(n,)``. The location and dispersion
functions, ``quantile`` and ``ks_statistic`` also accept a 2-D array of shape ``(m, n)``:
each *row* is one sample, and the result has one value per row. This lets a Monte Carlo
study treat thousands of samples in one call.
"""
import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from mlnotes import _validate as check
from scipy.special import ndtri

__all__ = [
    "ECDF", "ecdf", "ks_statistic", "dkw_epsilon",
    "survival", "hazard",
    "quantile", "qq_points",
    "kde", "silverman_bandwidth",
    "MedianCI", "median_ci_coverage", "median_ci", "trimmed_mean",
    "huber_irls_step", "huber_location",
    "iqr", "mad",
]

#: ``Φ⁻¹(3/4)``: the MAD of N(0, σ²) is this multiple of σ.
_Z75 = float(ndtri(0.75))


# ------------------------------------------------------------------------ validation
def _sample(x, name="x", batch=False, min_n=1):
    """A finite float array of shape (n,), or also (m, n) when ``batch``."""
    x = check.as_float(x, name)
    ndims = (1, 2) if batch else (1,)
    if x.ndim not in ndims or x.shape[-1] < min_n or x.size == 0:
        shape = "(n,) or (m, n)" if batch else "(n,)"
        raise ValueError(f"{name} must be an array of shape {shape} with n >= {min_n}, "
                         f"got shape {x.shape}")
    return check.finite(x, name)


def _callable_values(fn, t, name):
    """Call ``fn(t)`` and check that it returns finite numbers of the shape of ``t``."""
    return check.returned(check.function(fn, name)(t), name, t.shape)


# ------------------------------------------------------------- the empirical CDF
@dataclass(frozen=True, repr=False)
class ECDF:
    """The empirical distribution function ``F_n(t) = #{i : x_i <= t} / n`` of a sample.

    Call it on any array of points ``t``. It is a right-continuous step function that
    jumps by ``1/n`` at each observation (by ``k/n`` at a value observed ``k`` times).

    Attributes
    ----------
    x : ndarray, shape (n,)
        The sample, sorted.
    """

    x: np.ndarray

    def __call__(self, t):
        t = check.finite(t, "t")
        return np.searchsorted(self.x, t, side="right") / self.x.size

    def __repr__(self):
        return f"ECDF(n={self.x.size})"


def ecdf(x):
    """Empirical distribution function ``F_n`` of the sample ``x``.

    Parameters
    ----------
    x : array_like, shape (n,)
        The sample (finite, n >= 1).

    Returns
    -------
    ECDF
        A callable: ``ecdf(x)(t)`` is the fraction of observations ``<= t``.

    Raises
    ------
    ValueError
        If ``x`` is not a finite 1-D array with at least one element.
    """
    return ECDF(np.sort(_sample(x)))


def ks_statistic(x, cdf):
    """Kolmogorov-Smirnov distance ``D_n = sup_t |F_n(t) - F(t)|`` to a continuous CDF.

    The supremum is attained next to a jump of ``F_n``, so with the order statistics
    ``x_(1) <= ... <= x_(n)`` it equals ``max_i max(i/n - F(x_(i)), F(x_(i)) - (i-1)/n)``.

    Parameters
    ----------
    x : array_like, shape (n,) or (m, n)
        One sample, or ``m`` samples as rows.
    cdf : callable
        The hypothesised continuous CDF ``F``, applied elementwise to an array.

    Returns
    -------
    float or ndarray, shape (m,)

    Raises
    ------
    ValueError
        If ``x`` is not finite with a valid shape, or ``cdf`` is not callable or returns
        values outside [0, 1] or of the wrong shape.
    """
    xs = np.sort(_sample(x, batch=True), axis=-1)
    F = _callable_values(cdf, xs, "cdf")
    if np.any((F < 0) | (F > 1)):
        raise ValueError("cdf must return values in [0, 1]")
    n = xs.shape[-1]
    i = np.arange(1, n + 1)
    d_plus = np.max(i / n - F, axis=-1)        # F_n above F, just after a jump
    d_minus = np.max(F - (i - 1) / n, axis=-1)  # F_n below F, just before a jump
    d = np.maximum(d_plus, d_minus)
    return float(d) if d.ndim == 0 else d


def dkw_epsilon(n, alpha=0.05):
    """Half-width ``eps = sqrt(log(2/alpha) / (2n))`` of the DKW confidence band.

    By the Dvoretzky-Kiefer-Wolfowitz inequality with Massart's constant,
    ``P(sup_t |F_n(t) - F(t)| > eps) <= 2 exp(-2 n eps²) = alpha``.

    Parameters
    ----------
    n : int
        Sample size (at least 1).
    alpha : float
        Allowed probability that ``F`` leaves the band, in (0, 1).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer or ``alpha`` is not in (0, 1).
    """
    n = check.count(n, "n")
    if not 0 < check.number(alpha, "alpha") < 1:
        raise ValueError(f"alpha must be a number in (0, 1), got {alpha!r}")
    return math.sqrt(math.log(2 / alpha) / (2 * n))


# ------------------------------------------------------------ survival and hazard
def survival(x, t, convention="n"):
    """Empirical survival function ``S_n(t)``, the fraction of lifetimes beyond ``t``.

    With ``i = #{j : x_j <= t}``, the convention ``"n"`` gives ``S_n(t) = 1 - i/n``
    (that is, ``1 - F_n(t)``) and ``"n+1"`` gives ``S_n(t) = 1 - i/(n+1)``, which stays
    positive, so that ``log S_n`` is defined beyond the largest observation.

    Parameters
    ----------
    x : array_like, shape (n,)
        Observed lifetimes (any finite numbers).
    t : array_like
        Points at which to evaluate ``S_n``.
    convention : {"n", "n+1"}
        Divisor of the count.

    Returns
    -------
    ndarray, the shape of ``t``

    Raises
    ------
    ValueError
        If ``x`` or ``t`` is not finite, or ``convention`` is not one of the two.
    """
    xs = np.sort(_sample(x))
    t = check.finite(t, "t")
    convention = check.choice(convention, ("n", "n+1"), "convention")
    i = np.searchsorted(xs, t, side="right")
    return 1 - i / (xs.size + (convention == "n+1"))


def hazard(t, pdf, sf):
    """Hazard function ``h(t) = f(t) / S(t)``: the failure rate among survivors at ``t``.

    Parameters
    ----------
    t : array_like
        Times (finite).
    pdf, sf : callable
        The density ``f`` and the survival function ``S = 1 - F`` of the lifetime,
        applied elementwise to an array.

    Returns
    -------
    ndarray, the shape of ``t``

    Raises
    ------
    ValueError
        If ``t`` is not finite, ``pdf`` or ``sf`` is not callable or returns values of
        the wrong shape, ``pdf`` is negative, or ``sf`` is not positive at some ``t``
        (the hazard is undefined where nobody survives).
    """
    t = check.finite(t, "t")
    f = _callable_values(pdf, t, "pdf")
    S = _callable_values(sf, t, "sf")
    if np.any(f < 0):
        raise ValueError("pdf must be non-negative")
    if np.any(S <= 0) or np.any(S > 1):
        raise ValueError("sf must lie in (0, 1] at every t (h is undefined where S(t) = 0)")
    return f / S


# ------------------------------------------------------------- quantiles and Q-Q plots
def quantile(x, p):
    """Sample quantile by linear interpolation between order statistics.

    With ``h = (n - 1) p``, the ``p``-quantile is ``x_(⌊h⌋+1) + (h - ⌊h⌋)(x_(⌊h⌋+2) - x_(⌊h⌋+1))``
    in 1-based order statistics (Hyndman and Fan's type 7, numpy's default).

    Parameters
    ----------
    x : array_like, shape (n,) or (m, n)
        One sample, or ``m`` samples as rows.
    p : float or array_like, shape (k,)
        Probabilities in [0, 1].

    Returns
    -------
    ndarray, shape ``x.shape[:-1] + np.shape(p)`` (a float for one sample and scalar ``p``)

    Raises
    ------
    ValueError
        If ``x`` is not finite with a valid shape, or ``p`` is outside [0, 1] or not 0-D/1-D.
    """
    xs = np.sort(_sample(x, batch=True), axis=-1)
    p = check.finite(p, "p")
    if p.ndim > 1 or np.any((p < 0) | (p > 1)):
        raise ValueError("p must be a number or a 1-D array of numbers in [0, 1]")
    n = xs.shape[-1]
    h = (n - 1) * p
    lo = np.floor(h).astype(int)
    hi = np.minimum(lo + 1, n - 1)
    q = xs[..., lo] + (h - lo) * (xs[..., hi] - xs[..., lo])
    return float(q) if q.ndim == 0 else q


def qq_points(x, y):
    """Points of the empirical Q-Q plot of sample ``y`` against sample ``x``.

    Both samples are cut at the same probabilities ``p_i = (i - 1)/(m - 1)``,
    ``i = 1..m``, with ``m`` the smaller sample size, so the smaller sample contributes
    its order statistics and the larger one its interpolated quantiles.

    Parameters
    ----------
    x, y : array_like, shapes (n_x,) and (n_y,)
        The two samples (finite, at least 2 points each).

    Returns
    -------
    qx, qy : ndarray, shape (m,)
        Matching quantiles; plot ``qy`` against ``qx``.

    Raises
    ------
    ValueError
        If ``x`` or ``y`` is not a finite 1-D array with at least two points.
    """
    x, y = _sample(x, "x", min_n=2), _sample(y, "y", min_n=2)
    p = np.linspace(0, 1, min(x.size, y.size))
    qx = np.sort(x) if x.size <= y.size else quantile(x, p)
    qy = np.sort(y) if y.size <= x.size else quantile(y, p)
    return qx, qy


# --------------------------------------------------------------- kernel density
_KERNELS = {
    "gaussian": lambda u: np.exp(-0.5 * u**2) / math.sqrt(2 * math.pi),
    "epanechnikov": lambda u: np.where(np.abs(u) <= 1, 0.75 * (1 - u**2), 0.0),
}


def kde(x, grid, h, kernel="gaussian"):
    """Kernel density estimate ``f_h(t) = (1/n) sum_i w_h(t - x_i)``, ``w_h(u) = w(u/h)/h``.

    Parameters
    ----------
    x : array_like, shape (n,)
        The sample.
    grid : array_like
        Points at which to evaluate the estimate.
    h : float
        Bandwidth (positive): the standard deviation of the Gaussian kernel, the
        half-width of the Epanechnikov kernel.
    kernel : {"gaussian", "epanechnikov"}
        The weight function ``w``: the standard normal density, or
        ``w(u) = 3(1 - u²)/4`` on ``[-1, 1]``.

    Returns
    -------
    ndarray, the shape of ``grid``

    Raises
    ------
    ValueError
        If ``x`` or ``grid`` is not finite, ``h`` is not positive, or ``kernel`` is unknown.
    """
    x = _sample(x)
    grid = check.finite(grid, "grid")
    h = check.positive(h, "h")
    kernel = check.choice(kernel, tuple(_KERNELS), "kernel")
    u = (grid[..., None] - x) / h          # shape grid.shape + (n,)
    return _KERNELS[kernel](u).mean(axis=-1) / h


def silverman_bandwidth(x):
    """Normal-reference bandwidth ``h = (4 / (3n))^(1/5) s`` for a Gaussian kernel.

    It minimises the asymptotic mean integrated squared error when the data are normal
    with standard deviation ``s`` (estimated with divisor ``n - 1``); ``(4/3)^(1/5)``
    is about 1.06.

    Parameters
    ----------
    x : array_like, shape (n,)
        The sample (at least two distinct values).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``x`` is not a finite 1-D array with ``n >= 2`` and positive spread.
    """
    x = _sample(x, min_n=2)
    s = x.std(ddof=1)
    if s == 0:
        raise ValueError("x must contain at least two distinct values")
    return (4 / (3 * x.size)) ** 0.2 * s


# -------------------------------------------------------------------- location
class MedianCI(NamedTuple):
    """Order-statistic confidence interval ``[x_(k), x_(n-k+1)]`` for the median."""

    lower: float
    upper: float
    coverage: float


def median_ci_coverage(n, k):
    """Coverage ``P(X_(k) <= eta <= X_(n-k+1)) = 1 - 2^(1-n) sum_{j<k} C(n, j)``.

    ``eta`` is the median of a distribution that is continuous at ``eta``; the value does
    not depend on the distribution. Computed exactly with integers, then rounded once.

    Parameters
    ----------
    n : int
        Sample size (at least 2).
    k : int
        Rank of the lower end point, ``1 <= k <= n // 2``.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``n`` or ``k`` is not an integer in range.
    """
    n, k = check.count(n, "n", low=2), check.count(k, "k")
    if k > n // 2:
        raise ValueError(f"k must be an integer with 1 <= k <= n // 2 = {n // 2}, got {k!r}")
    tail = sum(math.comb(n, j) for j in range(k))  # P(Bin(n, 1/2) <= k - 1) * 2^n
    return 1 - tail / 2 ** (n - 1)


def median_ci(x, k):
    """Distribution-free confidence interval ``[x_(k), x_(n-k+1)]`` for the median.

    Parameters
    ----------
    x : array_like, shape (n,) or (m, n)
        One sample, or ``m`` samples as rows (n >= 2).
    k : int
        Rank of the lower end point, ``1 <= k <= n // 2``.

    Returns
    -------
    MedianCI
        ``lower`` and ``upper`` (floats, or arrays of shape (m,)) and the ``coverage``
        probability from :func:`median_ci_coverage`.

    Raises
    ------
    ValueError
        If ``x`` is not finite with a valid shape, or ``k`` is out of range.
    """
    xs = np.sort(_sample(x, batch=True, min_n=2), axis=-1)
    n = xs.shape[-1]
    coverage = median_ci_coverage(n, k)
    lower, upper = xs[..., k - 1], xs[..., n - k]
    if xs.ndim == 1:
        lower, upper = float(lower), float(upper)
    return MedianCI(lower, upper, coverage)


def trimmed_mean(x, alpha):
    """The ``100 alpha %`` trimmed mean: drop the ``[n alpha]`` smallest and largest values.

    ``x̄_alpha = (x_([nα]+1) + ... + x_(n-[nα])) / (n - 2[nα])``, with ``[nα]`` the
    integer part of ``n alpha``.

    Parameters
    ----------
    x : array_like, shape (n,) or (m, n)
        One sample, or ``m`` samples as rows.
    alpha : float
        Fraction cut from each end, in [0, 0.5).

    Returns
    -------
    float or ndarray, shape (m,)

    Raises
    ------
    ValueError
        If ``x`` is not finite with a valid shape, or ``alpha`` is not in [0, 0.5).
    """
    xs = np.sort(_sample(x, batch=True), axis=-1)
    if not 0 <= check.number(alpha, "alpha") < 0.5:
        raise ValueError(f"alpha must be a number in [0, 0.5), got {alpha!r}")
    n = xs.shape[-1]
    g = int(np.floor(n * alpha))
    m = xs[..., g:n - g].mean(axis=-1)
    return float(m) if m.ndim == 0 else m


def _huber_step(x, mu, c, scale):
    u = (x - mu[..., None]) / scale[..., None]
    w = np.minimum(1.0, c / np.maximum(np.abs(u), 1e-300))  # psi(u) / u
    return np.sum(w * x, axis=-1) / np.sum(w, axis=-1)


def huber_irls_step(x, mu, c, scale):
    """One IRLS step for Huber's location: the weighted mean with ``w_i = min(1, c/|u_i|)``.

    Here ``u_i = (x_i - mu) / scale``. The step never increases the Huber objective
    ``sum_i rho_c(u_i)``, and its fixed points solve ``sum_i psi_c(u_i) = 0``.

    Parameters
    ----------
    x : array_like, shape (n,) or (m, n)
        One sample, or ``m`` samples as rows.
    mu : float or array_like, shape (m,)
        Current location (one per sample).
    c : float
        Huber's tuning constant (positive), in units of ``scale``.
    scale : float or array_like, shape (m,)
        Scale of the residuals (positive).

    Returns
    -------
    float or ndarray, shape (m,)

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, or ``c`` or ``scale`` is not positive.
    """
    x = _sample(x, batch=True)
    mu = check.finite(mu, "mu")
    scale = check.finite(scale, "scale")
    c = check.positive(c, "c")
    for name, v in (("mu", mu), ("scale", scale)):
        if v.shape not in ((), x.shape[:-1]):
            raise ValueError(f"{name} must be a number or have shape {x.shape[:-1]}, got {v.shape}")
    if np.any(scale <= 0):
        raise ValueError("scale must be positive")
    shape = x.shape[:-1]
    new = _huber_step(x, np.broadcast_to(mu, shape), c, np.broadcast_to(scale, shape))
    return float(new) if new.ndim == 0 else new


def huber_location(x, c=1.345, scale=None, tol=1e-10, max_iter=500):
    """Huber's M-estimate of location, by iteratively reweighted least squares (IRLS).

    Minimises ``sum_i rho_c((x_i - mu) / s)`` with Huber's ``rho_c(u) = u²/2`` for
    ``|u| <= c`` and ``c|u| - c²/2`` beyond. The scale ``s`` is fixed in advance, by
    default the normalised MAD; IRLS starts from the median.

    Parameters
    ----------
    x : array_like, shape (n,) or (m, n)
        One sample, or ``m`` samples as rows.
    c : float
        Tuning constant (positive); 1.345 gives 95% efficiency at the normal model.
    scale : float, optional
        Fixed positive scale ``s``; by default ``mad(x, normalize=True)`` of each sample.
    tol : float
        Stop when no estimate moves by more than ``tol * s``.
    max_iter : int
        Iteration limit.

    Returns
    -------
    float or ndarray, shape (m,)

    Raises
    ------
    ValueError
        If ``x`` is not finite with a valid shape, ``c``, ``scale`` or ``tol`` is not
        positive, ``max_iter`` is not a positive integer, or the MAD of a sample is 0.
    RuntimeError
        If IRLS has not converged after ``max_iter`` steps.
    """
    x = _sample(x, batch=True)
    c, tol = check.positive(c, "c"), check.positive(tol, "tol")
    max_iter = check.count(max_iter, "max_iter")
    s = mad(x, normalize=True) if scale is None else check.positive(scale, "scale")
    s = np.broadcast_to(np.asarray(s, dtype=float), x.shape[:-1])
    if np.any(s <= 0):
        raise ValueError("scale must be positive: the MAD of x is 0, pass scale")
    mu = np.median(x, axis=-1)
    for _ in range(max_iter):
        new = _huber_step(x, mu, c, s)
        done = np.all(np.abs(new - mu) <= tol * s)
        mu = new
        if done:
            return float(mu) if mu.ndim == 0 else mu
    raise RuntimeError(f"huber_location did not converge in {max_iter} iterations")


# ------------------------------------------------------------------ dispersion
def iqr(x):
    """Interquartile range ``q(0.75) - q(0.25)`` with the sample quantiles of :func:`quantile`.

    Parameters
    ----------
    x : array_like, shape (n,) or (m, n)
        One sample, or ``m`` samples as rows.

    Returns
    -------
    float or ndarray, shape (m,)

    Raises
    ------
    ValueError
        If ``x`` is not finite with a valid shape.
    """
    q = quantile(x, np.array([0.25, 0.75]))
    r = q[..., 1] - q[..., 0]
    return float(r) if r.ndim == 0 else r


def mad(x, normalize=False):
    """Median absolute deviation from the median, ``median_i |x_i - median(x)|``.

    With ``normalize=True`` it is divided by ``Φ⁻¹(3/4) ≈ 0.6745``, which makes it a
    consistent estimate of ``σ`` for normal data.

    Parameters
    ----------
    x : array_like, shape (n,) or (m, n)
        One sample, or ``m`` samples as rows.
    normalize : bool
        Divide by ``Φ⁻¹(3/4)``.

    Returns
    -------
    float or ndarray, shape (m,)

    Raises
    ------
    ValueError
        If ``x`` is not finite with a valid shape, or ``normalize`` is not a bool.
    """
    x = _sample(x, batch=True)
    normalize = check.flag(normalize, "normalize")
    med = np.median(x, axis=-1, keepdims=True)
    d = np.median(np.abs(x - med), axis=-1)
    if normalize:
        d = d / _Z75
    return float(d) if d.ndim == 0 else d
