"""Categorical data (chapter 03): Fisher's exact test, Pearson's chi-square tests of
homogeneity and independence, McNemar's test for matched pairs, odds ratios and a
vectorised bootstrap.

Conventions. A contingency table is an ``(I, J)`` array of non-negative integer counts,
``table[i, j]`` counting the observations in row category ``i`` and column category
``j``. Functions whose name says "one or many tables" also accept a stack of tables of
shape ``(..., I, J)``. For a 2×2 table about an exposure X and a disease D the rows are
(not X, X) and the columns (not D, D), so ``table[x, d]`` with ``x, d`` in {0, 1}, as in
Rice; the sample odds ratio is then
``table[0, 0] * table[1, 1] / (table[0, 1] * table[1, 0])``.
"""
import math
from dataclasses import dataclass

import numpy as np

from mlnotes import _validate as check
from scipy.special import gammaincc, ndtr, ndtri

__all__ = [
    "HypothesisTestResult", "BootstrapCI",
    "fisher_null_distribution", "fisher_exact",
    "expected_counts", "chi2_statistic", "chi2_homogeneity", "chi2_independence",
    "mcnemar",
    "odds_ratio", "log_odds_ratio", "relative_risk", "table_from_pairs",
    "bootstrap_ci",
]

# scipy.stats.fisher_exact counts a table as "no more likely" than the observed one when
# its probability is at most (1 + 1e-14) times the observed probability.
FISHER_RELATIVE_TOLERANCE = 1e-14

_comb = np.frompyfunc(math.comb, 2, 1)  # exact integer binomial coefficients, elementwise


# ------------------------------------------------------------------------- results
@dataclass(frozen=True, repr=False)
class HypothesisTestResult:
    """Outcome of a test: the statistic, its p-value and, for chi-square tests, more.

    Attributes
    ----------
    statistic : float
        The test statistic (the count ``n11`` for Fisher's test, ``X²`` for the
        chi-square tests, ``n12`` for the exact McNemar test).
    pvalue : float
    method : str
        Which test produced the result.
    dof : int or None
        Degrees of freedom of the reference chi-square distribution.
    expected : ndarray or None
        Expected counts under the null hypothesis (chi-square tests).
    """

    statistic: float
    pvalue: float
    method: str
    dof: int | None = None
    expected: np.ndarray | None = None

    def __repr__(self):
        dof = "" if self.dof is None else f", dof={self.dof}"
        return (f"HypothesisTestResult(method={self.method!r}, "
                f"statistic={self.statistic:.6g}, pvalue={self.pvalue:.6g}{dof})")


@dataclass(frozen=True, repr=False)
class BootstrapCI:
    """A bootstrap confidence interval and the bootstrap distribution behind it.

    Attributes
    ----------
    low, high : float
        End points of the interval.
    estimate : float
        The statistic on the original data.
    standard_error : float
        Standard deviation (``ddof=1``) of the bootstrap distribution; NaN if it has
        fewer than two values or an infinite one (e.g. a log odds ratio of a resample
        with an empty cell).
    distribution : ndarray, shape (n_resamples,)
        The statistic on each resample.
    method : str
        ``"percentile"``, ``"basic"`` or ``"bca"``.
    level : float
        Confidence level.
    """

    low: float
    high: float
    estimate: float
    standard_error: float
    distribution: np.ndarray
    method: str
    level: float

    def __repr__(self):
        return (f"BootstrapCI(method={self.method!r}, level={self.level:g}, "
                f"low={self.low:.6g}, high={self.high:.6g}, "
                f"n_resamples={self.distribution.size})")


# ---------------------------------------------------------------------- validation
def _table(table, name="table", shape=None, batch=False, integer=True):
    """Validate a table of counts; return it as an int64 (or float) array."""
    t = check.as_float(table, name)
    if t.ndim < 2 or (t.ndim > 2 and not batch):
        want = "an array of shape (..., I, J)" if batch else "a 2-D array"
        raise ValueError(f"{name} must be {want}, got shape {t.shape}")
    if shape is not None and t.shape[-2:] != shape:
        raise ValueError(f"{name} must have shape {shape}, got {t.shape[-2:]}")
    if t.shape[-2] < 2 or t.shape[-1] < 2:
        raise ValueError(f"{name} must have at least 2 rows and 2 columns, got {t.shape[-2:]}")
    t = check.finite(t, name)
    if np.any(t < 0):
        raise ValueError(f"{name} must not contain negative counts")
    if integer:
        if np.any(t != np.round(t)):
            raise ValueError(f"{name} must contain whole-number counts")
        return t.astype(np.int64)
    return t.astype(float)


def _positive_margins(t, name="table", why="the test is undefined"):
    if np.any(t.sum(axis=-1) == 0) or np.any(t.sum(axis=-2) == 0):
        raise ValueError(f"{name} has a row or column of zeros: {why}")


def _chi2_sf(x, dof):
    """Upper tail P(chi2_dof > x) = Q(dof/2, x/2), the regularised incomplete gamma."""
    return float(gammaincc(dof / 2, x / 2))


# --------------------------------------------------------------- Fisher's exact test
def _hypergeom_log_weights(t):
    """Support of N11 given both margins and log p(x) - log p(mode), by a recurrence.

    Successive probabilities have the ratio
    ``p(x+1)/p(x) = (n1 - x)(c1 - x) / ((x + 1)(n2 - c1 + x + 1))``; summing the logs of
    these ratios outwards from the mode avoids huge binomial coefficients and keeps the
    error near the mode, where most of the probability is, at a few units of 1e-16.
    """
    (n1, n2), c1 = t.sum(axis=1).tolist(), int(t[:, 0].sum())
    x = np.arange(max(0, c1 - n2), min(n1, c1) + 1)
    k = x[:-1].astype(float)
    log_ratio = np.log((n1 - k) * (c1 - k)) - np.log((k + 1) * (n2 - c1 + k + 1))
    mode = (n1 + 1) * (c1 + 1) // (n1 + n2 + 2) - x[0]  # index of the largest p(x)
    log_w = np.concatenate([-np.cumsum(log_ratio[:mode][::-1])[::-1], [0.0],
                            np.cumsum(log_ratio[mode:])])
    return x, log_w


def fisher_null_distribution(table):
    """Null distribution of ``n11`` given both margins of a 2×2 table (hypergeometric).

    Parameters
    ----------
    table : array_like, shape (2, 2)
        Counts; only its margins matter.

    Returns
    -------
    support : ndarray of int
        The possible values of ``n11``, ``max(0, c1 - n2), ..., min(n1, c1)``, where
        ``n1, n2`` are the row sums and ``c1`` the first column sum.
    pmf : ndarray of float
        ``C(n1, x) C(n2, c1 - x) / C(n1 + n2, c1)`` for each ``x`` in ``support``.

    Raises
    ------
    ValueError
        If ``table`` is not a 2×2 table of non-negative whole numbers.
    """
    t = _table(table, shape=(2, 2))
    x, log_w = _hypergeom_log_weights(t)
    w = np.exp(log_w)
    return x, w / w.sum()


def _no_more_likely(t, x, log_w):
    """Mask of the values of N11 whose probability is at most (1 + 1e-14) p(n11)."""
    n11 = int(t[0, 0])
    rel = log_w - log_w[x == n11][0]
    mask = rel <= np.log1p(FISHER_RELATIVE_TOLERANCE)
    # Near-ties could be decided by rounding: settle them in exact integer arithmetic.
    (n1, n2), c1 = t.sum(axis=1).tolist(), int(t[:, 0].sum())

    def weight(v):  # C(n1, v) C(n2, c1 - v), an exact integer proportional to p(v)
        return math.comb(n1, v) * math.comb(n2, c1 - v)

    scale = round(1 / FISHER_RELATIVE_TOLERANCE)
    near = np.flatnonzero((np.abs(rel) < 1e-9) & (x != n11))  # n11 itself is in the mask
    if near.size:  # big-integer arithmetic only when there is a near-tie to settle
        bound = weight(n11) * (scale + 1)
        for i in near:
            mask[i] = weight(int(x[i])) * scale <= bound
    return mask


def fisher_exact(table, alternative="two-sided"):
    """Fisher's exact test of independence in a 2×2 table, conditional on both margins.

    The two-sided p-value is the null probability of the tables that are no more likely
    than the observed one (up to a relative tolerance of 1e-14 for ties), the definition
    of ``scipy.stats.fisher_exact``; ``"less"`` and ``"greater"`` are the lower and upper
    tails ``P(N11 <= n11)`` and ``P(N11 >= n11)``.

    Parameters
    ----------
    table : array_like, shape (2, 2)
        Non-negative whole-number counts.
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    HypothesisTestResult
        ``statistic`` is ``n11``; ``pvalue`` as described above. A table with a zero
        margin has a single possible value of ``n11`` and p-value 1.

    Raises
    ------
    ValueError
        If ``table`` is not a 2×2 table of non-negative whole numbers, or
        ``alternative`` is not one of the three options.
    """
    t = _table(table, shape=(2, 2))
    alternative = check.choice(alternative, ("two-sided", "less", "greater"), "alternative")
    x, log_w = _hypergeom_log_weights(t)
    w = np.exp(log_w)
    pmf = w / w.sum()
    n11 = t[0, 0]
    if alternative == "less":
        extreme = x <= n11
    elif alternative == "greater":
        extreme = x >= n11
    else:
        extreme = _no_more_likely(t, x, log_w)
    pvalue = min(1.0, float(pmf[extreme].sum()))
    return HypothesisTestResult(float(n11), pvalue, f"Fisher's exact test ({alternative})")


# ------------------------------------------------------------ Pearson's chi-square
def expected_counts(table):
    """Expected counts ``E_ij = n_i. n_.j / n`` under independence (one or many tables).

    Parameters
    ----------
    table : array_like, shape (..., I, J)
        Non-negative whole-number counts, ``I, J >= 2``, every row and column margin
        positive.

    Returns
    -------
    ndarray, shape (..., I, J)

    Raises
    ------
    ValueError
        If ``table`` has the wrong shape, negative, fractional or non-finite entries, or
        a row or column of zeros (then some ``E_ij`` is 0 and ``X²`` is undefined).
    """
    t = _table(table, batch=True)
    _positive_margins(t, why="an expected count would be 0")
    rows, cols = t.sum(axis=-1), t.sum(axis=-2)
    n = rows.sum(axis=-1)
    return rows[..., :, None] * cols[..., None, :] / n[..., None, None]


def _pearson(observed, expected, correction):
    """Pearson's sum of (O - E)²/E over the last two axes (Yates-corrected if asked)."""
    diff = np.abs(observed - expected)
    if correction:
        diff = np.maximum(diff - 0.5, 0.0)  # move each O half a unit towards its E
    return np.sum(diff**2 / expected, axis=(-2, -1))


def chi2_statistic(table, correction=False):
    """Pearson's ``X² = Σ (O - E)² / E``, ``E`` from the margins (one or many tables).

    Parameters
    ----------
    table : array_like, shape (..., I, J)
        Counts, every margin positive.
    correction : bool
        Apply Yates' continuity correction; it only acts on 2×2 tables (one degree of
        freedom), as in ``scipy.stats.chi2_contingency``.

    Returns
    -------
    float or ndarray, shape (...)

    Raises
    ------
    ValueError
        As :func:`expected_counts`, or if ``correction`` is not a bool.
    """
    t = _table(table, batch=True)
    expected = expected_counts(t)
    x2 = _pearson(t, expected, check.flag(correction, "correction") and t.shape[-2:] == (2, 2))
    return float(x2) if x2.ndim == 0 else x2


def chi2_homogeneity(table, correction=False):
    """Pearson's chi-square test that the ``J`` columns are samples from one multinomial.

    Column ``j`` holds the category counts of a sample of fixed size ``n_.j``. Under
    ``H0`` every column has the same cell probabilities ``pi_1, ..., pi_I``, whose MLE is
    the pooled proportion ``n_i. / n..``; ``X²`` compares the counts with
    ``E_ij = n_.j n_i. / n..`` on ``(I - 1)(J - 1)`` degrees of freedom.

    Parameters
    ----------
    table : array_like, shape (I, J)
        Counts, every row and column margin positive.
    correction : bool
        Yates' continuity correction (2×2 tables only).

    Returns
    -------
    HypothesisTestResult
        With ``statistic = X²``, ``dof`` and ``expected``.

    Raises
    ------
    ValueError
        If ``table`` is not a valid table of counts or has a zero margin, or
        ``correction`` is not a bool.
    """
    t = _table(table)
    _positive_margins(t, why="an expected count would be 0")
    pi_hat = t.sum(axis=1) / t.sum()                 # pooled MLE under H0
    expected = np.outer(pi_hat, t.sum(axis=0))       # E_ij = pi_i n_.j
    x2 = float(_pearson(t, expected, check.flag(correction, "correction") and t.shape == (2, 2)))
    dof = (t.shape[0] - 1) * (t.shape[1] - 1)
    return HypothesisTestResult(x2, _chi2_sf(x2, dof), "chi-square test of homogeneity",
                                dof, expected)


def chi2_independence(table, correction=False):
    """Pearson's chi-square test that rows and columns are independent (one multinomial).

    The ``n`` observations are cross-classified into ``I × J`` cells. Under ``H0`` the
    cell probabilities factor as ``pi_ij = pi_i. pi_.j``, with MLE ``(n_i./n)(n_.j/n)``;
    ``X²`` compares the counts with ``E_ij = n pi_i. pi_.j`` on
    ``IJ - 1 - (I - 1) - (J - 1) = (I - 1)(J - 1)`` degrees of freedom.

    Parameters
    ----------
    table : array_like, shape (I, J)
        Counts, every row and column margin positive.
    correction : bool
        Yates' continuity correction (2×2 tables only), as scipy's default.

    Returns
    -------
    HypothesisTestResult
        With ``statistic = X²``, ``dof`` and ``expected``.

    Raises
    ------
    ValueError
        If ``table`` is not a valid table of counts or has a zero margin, or
        ``correction`` is not a bool.
    """
    t = _table(table)
    _positive_margins(t, why="an expected count would be 0")
    n = t.sum()
    row_p, col_p = t.sum(axis=1) / n, t.sum(axis=0) / n  # MLEs of the margins under H0
    expected = n * np.outer(row_p, col_p)
    x2 = float(_pearson(t, expected, check.flag(correction, "correction") and t.shape == (2, 2)))
    dof = (t.shape[0] - 1) * (t.shape[1] - 1)
    return HypothesisTestResult(x2, _chi2_sf(x2, dof), "chi-square test of independence",
                                dof, expected)


# ----------------------------------------------------------------- McNemar's test
def mcnemar(table, exact=False):
    """McNemar's test of ``pi_12 = pi_21`` for a 2×2 table of matched pairs.

    The chi-square version (no continuity correction) uses
    ``X² = (n12 - n21)² / (n12 + n21)`` on one degree of freedom. The exact version
    conditions on the ``m = n12 + n21`` discordant pairs, under which
    ``n12 ~ Bin(m, 1/2)``, and returns the two-sided binomial p-value
    ``min(1, 2 P(Bin(m, 1/2) <= min(n12, n21)))``.

    Parameters
    ----------
    table : array_like, shape (2, 2)
        ``table[i, j]`` counts the pairs whose first member has outcome ``i`` and second
        member outcome ``j``.
    exact : bool
        Use the exact binomial test instead of the chi-square approximation.

    Returns
    -------
    HypothesisTestResult
        ``statistic`` is ``X²`` (with ``dof = 1``) or, for the exact test, ``n12``.

    Raises
    ------
    ValueError
        If ``table`` is not a 2×2 table of counts, or has no discordant pairs
        (``n12 + n21 = 0``), when the test is undefined; or ``exact`` is not a bool.
    """
    t = _table(table, shape=(2, 2))
    exact = check.flag(exact, "exact")
    n12, n21 = int(t[0, 1]), int(t[1, 0])
    m = n12 + n21
    if m == 0:
        raise ValueError("table has no discordant pairs (n12 + n21 = 0): "
                         "McNemar's test is undefined")
    if exact:
        tail = _comb(m, np.arange(min(n12, n21) + 1)).sum()   # exact integer
        pvalue = min(1.0, 2 * tail / 2**m)
        return HypothesisTestResult(float(n12), pvalue, "McNemar's exact test")
    x2 = (n12 - n21) ** 2 / m
    return HypothesisTestResult(x2, _chi2_sf(x2, 1), "McNemar's test", 1)


# --------------------------------------------------------------------- odds ratios
def odds_ratio(table):
    """Odds ratio ``t00 t11 / (t01 t10)`` of one or many 2×2 tables (counts or probabilities).

    With rows (not X, X) and columns (not D, D) this is
    ``odds(D | X) / odds(D | not X)``; on a table of counts it is the sample odds ratio.

    Parameters
    ----------
    table : array_like, shape (..., 2, 2)
        Non-negative finite entries, every row and column margin positive.

    Returns
    -------
    float or ndarray, shape (...)
        In ``[0, inf]``: ``inf`` when ``t01 t10 = 0`` (positive margins rule out ``0/0``).

    Raises
    ------
    ValueError
        If ``table`` has the wrong shape, negative or non-finite entries, or a row or
        column of zeros (then one of the two odds is ``0/0``).
    """
    t = _table(table, shape=(2, 2), batch=True, integer=False)
    _positive_margins(t, why="the odds ratio is undefined")
    with np.errstate(divide="ignore"):
        ratio = t[..., 0, 0] * t[..., 1, 1] / (t[..., 0, 1] * t[..., 1, 0])
    return float(ratio) if ratio.ndim == 0 else ratio


def log_odds_ratio(table):
    """Natural logarithm of :func:`odds_ratio` (``±inf`` for a zero cell).

    Parameters
    ----------
    table : array_like, shape (..., 2, 2)
        As :func:`odds_ratio`.

    Returns
    -------
    float or ndarray, shape (...)

    Raises
    ------
    ValueError
        As :func:`odds_ratio`.
    """
    with np.errstate(divide="ignore"):
        return np.log(odds_ratio(table))


def relative_risk(table):
    """Relative risk ``P(D | X) / P(D | not X) = [t11/(t10+t11)] / [t01/(t00+t01)]``.

    Parameters
    ----------
    table : array_like, shape (..., 2, 2)
        Rows (not X, X), columns (not D, D); non-negative finite entries with positive
        row margins and ``t01 > 0``.

    Returns
    -------
    float or ndarray, shape (...)

    Raises
    ------
    ValueError
        If ``table`` is invalid, a row margin is 0 or ``t01 = 0`` (risk of the
        unexposed is 0, so the ratio is undefined or infinite).
    """
    t = _table(table, shape=(2, 2), batch=True, integer=False)
    if np.any(t.sum(axis=-1) == 0) or np.any(t[..., 0, 1] == 0):
        raise ValueError("table needs positive row margins and t01 > 0 for a relative risk")
    risk = t[..., :, 1] / t.sum(axis=-1)
    ratio = risk[..., 1] / risk[..., 0]
    return float(ratio) if ratio.ndim == 0 else ratio


def table_from_pairs(pairs):
    """Cross-tabulate ``(x, d)`` pairs in {0, 1}² into 2×2 tables (one or many samples).

    Parameters
    ----------
    pairs : array_like, shape (..., n, 2)
        Each row one subject: ``x`` (exposure) and ``d`` (disease), each 0 or 1.

    Returns
    -------
    ndarray of int, shape (..., 2, 2)
        ``table[..., x, d]`` counts the subjects with those values.

    Raises
    ------
    ValueError
        If ``pairs`` does not have a last axis of length 2 or contains values other
        than 0 and 1.
    """
    p = check.as_float(pairs, "pairs")
    if p.ndim < 2 or p.shape[-1] != 2:
        raise ValueError(f"pairs must have shape (..., n, 2), got {p.shape}")
    if not np.all((p == 0) | (p == 1)):
        raise ValueError("pairs must contain only the values 0 and 1")
    x, d = p[..., 0].astype(bool), p[..., 1].astype(bool)
    n = p.shape[-2]
    n_x, n_d, n_xd = x.sum(axis=-1), d.sum(axis=-1), (x & d).sum(axis=-1)
    table = [[n - n_x - n_d + n_xd, n_d - n_xd], [n_x - n_xd, n_xd]]
    return np.moveaxis(np.array(table, dtype=np.int64), (0, 1), (-2, -1))


# ----------------------------------------------------------------------- bootstrap
def _apply(stat, samples, k):
    theta = check.as_float(stat(samples), "the value returned by stat")
    if theta.shape != (k,):
        raise ValueError(f"stat must map an array of {k} samples, shape {samples.shape}, "
                         f"to {k} numbers; got shape {theta.shape}")
    return theta


def _bca_levels(stat, data, theta_b, theta_hat, alpha):
    """Adjusted quantile levels of the BCa interval (Efron and Tibshirani, ch. 14)."""
    below = np.sum(theta_b < theta_hat) + np.sum(theta_b <= theta_hat)
    z0 = ndtri(below / (2 * theta_b.size))                       # bias correction
    n = data.shape[0]
    leave_one_out = np.flatnonzero(~np.eye(n, dtype=bool)).reshape(n, n - 1) % n
    theta_i = _apply(stat, data[leave_one_out], n)               # jackknife values
    d = theta_i.mean() - theta_i
    with np.errstate(invalid="ignore", divide="ignore"):         # 0/0 if degenerate
        accel = np.sum(d**3) / (6 * np.sum(d**2) ** 1.5)         # acceleration
        z = z0 + ndtri(np.array([alpha, 1 - alpha]))
        levels = ndtr(z0 + z / (1 - accel * z))
    if not np.all(np.isfinite(levels)):
        raise ValueError("data gives a degenerate bootstrap or jackknife distribution: "
                         "the BCa interval is undefined")
    return levels


def bootstrap_ci(stat, data, n_resamples=9999, level=0.95, method="percentile", seed=None):
    """Bootstrap confidence interval for ``stat``, resampling the rows of ``data``.

    All resamples are drawn at once as an index array of shape ``(n_resamples, n)``
    (``rng.integers(0, n, (n_resamples, n))``, the draw of ``scipy.stats.bootstrap``), so
    ``stat`` is evaluated once, on an array of shape ``(n_resamples, n, ...)``.

    Parameters
    ----------
    stat : callable
        Vectorised statistic: maps an array of ``k`` samples, shape ``(k, n, ...)``, to
        an array of ``k`` numbers.
    data : array_like, shape (n, ...)
        Observations as rows, ``n >= 2``.
    n_resamples : int
        Number of bootstrap resamples (at least 1).
    level : float
        Confidence level in (0, 1).
    method : {"percentile", "basic", "bca"}
        Percentile interval, basic (reverse percentile) interval, or bias-corrected and
        accelerated interval.
    seed : int, numpy Generator or None
        Passed to ``np.random.default_rng``.

    Returns
    -------
    BootstrapCI

    Raises
    ------
    ValueError
        If ``stat`` is not callable or returns the wrong shape, ``data`` has fewer than
        two rows or non-finite values, or ``n_resamples``, ``level``, ``method`` or
        ``seed`` is invalid.
    """
    stat = check.function(stat, "stat")
    check.finite(data, "data")
    data = np.asarray(data)  # numeric and finite: keep its dtype for stat
    if data.ndim < 1 or data.shape[0] < 2:
        raise ValueError(f"data must have at least 2 rows (observations), got shape {data.shape}")
    n_resamples = check.count(n_resamples, "n_resamples")
    if not 0 < check.number(level, "level") < 1:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level!r}")
    method = check.choice(method, ("percentile", "basic", "bca"), "method")
    rng = np.random.default_rng(None if seed is None else check.seed(seed))
    n = data.shape[0]
    theta_b = _apply(stat, data[rng.integers(0, n, size=(n_resamples, n))], n_resamples)
    theta_hat = _apply(stat, data[None], 1)[0]
    alpha = (1 - level) / 2
    levels = np.array([alpha, 1 - alpha])
    if method == "bca":
        levels = _bca_levels(stat, data, theta_b, theta_hat, alpha)
    with np.errstate(invalid="ignore"):   # NaN end point if it falls between infinities
        low, high = np.quantile(theta_b, levels)
    if method == "basic":
        low, high = 2 * theta_hat - high, 2 * theta_hat - low
    finite = n_resamples > 1 and np.all(np.isfinite(theta_b))
    se = float(np.std(theta_b, ddof=1)) if finite else float("nan")
    return BootstrapCI(float(low), float(high), float(theta_hat), se, theta_b, method,
                       float(level))
