"""Analysis of variance and multiple comparisons (chapter 26): the one-way F test, expected
mean squares, Tukey and Bonferroni intervals, the Kruskal-Wallis and Friedman rank tests,
the two-way layout (also with one observation per cell: randomised blocks) and design
matrices of ANOVA models with sum-to-zero or treatment coding.

Conventions. A one-way layout is a list of 1-D arrays, one per treatment (``groups``). A
balanced two-way layout is an array ``Y`` of shape ``(I, J, K)``: levels of factor A ×
levels of factor B × replicates; a randomised block design is ``Y`` of shape ``(I, J)``:
treatments × blocks. Levels of a factor are integer codes ``0, ..., I - 1``. Critical
values and p-values come from the distributions of ``scipy.stats``; the statistics are
numpy.
"""
from typing import NamedTuple

import numpy as np
import scipy.stats

from mlnotes import _validate as check
from mlnotes.two_sample import midranks

__all__ = [
    "OneWayAnova", "one_way_anova", "ExpectedMeanSquares", "expected_mean_squares",
    "PairwiseIntervals", "tukey_intervals", "bonferroni_intervals",
    "RankTest", "kruskal_wallis", "TwoWayAnova", "two_way_anova", "friedman",
    "anova_design_matrix",
]


# ------------------------------------------------------------------------- validation


def _ranks_within_columns(Y):
    """Midranks within each column of ``Y`` and the tie sum over all columns."""
    less = np.sum(Y[None, :, :] < Y[:, None, :], axis=1)
    equal = np.sum(Y[None, :, :] == Y[:, None, :], axis=1)     # includes the value itself
    return less + (equal + 1) / 2, float(np.sum(equal.astype(float) ** 2 - 1))


# -------------------------------------------------------------------- one-way layout
class OneWayAnova(NamedTuple):
    """Sums of squares, degrees of freedom, F statistic and p-value of a one-way layout."""
    ss_between: float
    ss_within: float
    df_between: int
    df_within: int
    F: float
    p_value: float


def _sums_of_squares(groups):
    """``SS_B``, ``SS_W`` (over the last axis of each group), the sizes and the group means."""
    sizes = np.array([g.shape[-1] for g in groups])
    means = np.stack([g.mean(axis=-1) for g in groups], axis=-1)      # (..., I)
    grand = np.sum(sizes * means, axis=-1, keepdims=True) / sizes.sum()
    ss_b = np.sum(sizes * (means - grand) ** 2, axis=-1)
    ss_w = sum(np.sum((g - g.mean(axis=-1, keepdims=True)) ** 2, axis=-1) for g in groups)
    return ss_b, ss_w, sizes, means


def one_way_anova(groups):
    """One-way analysis of variance: ``SS_B``, ``SS_W`` and the F test of equal means.

    ``SS_B = sum_i J_i (Ybar_i - Ybar)²`` and ``SS_W = sum_i sum_j (Y_ij - Ybar_i)²``, with
    ``I - 1`` and ``N - I`` degrees of freedom; ``F = (SS_B/(I - 1)) / (SS_W/(N - I))`` and the
    p-value is ``P(F_{I-1, N-I} >= F)``. Group sizes ``J_i`` may differ.

    Parameters
    ----------
    groups : sequence of array_like
        ``I >= 2`` one-dimensional samples, each with at least two values; or, for many
        layouts at once, arrays of shape ``(..., J_i)`` with the same leading shape.

    Returns
    -------
    OneWayAnova
        ``ss_between``, ``ss_within``, ``df_between``, ``df_within``, ``F``, ``p_value``
        (floats, or arrays of the leading shape for batches).

    Raises
    ------
    ValueError
        If ``groups`` is not a list of at least two finite 1-D arrays of size >= 2, or all
        groups are constant (``SS_W = 0``).
    """
    groups = check.groups(groups, batch=True)
    ss_b, ss_w, sizes, _ = _sums_of_squares(groups)
    check.finite_result([ss_b, ss_w], "groups")
    if np.any(ss_w == 0):
        raise ValueError("groups must not all be constant: the within-group sum of squares is 0")
    df_b, df_w = len(groups) - 1, int(sizes.sum()) - len(groups)
    F = (ss_b / df_b) / (ss_w / df_w)
    p = scipy.stats.f.sf(F, df_b, df_w)
    out = (ss_b, ss_w, F, p) if ss_b.ndim else tuple(float(v) for v in (ss_b, ss_w, F, p))
    return OneWayAnova(out[0], out[1], df_b, df_w, out[2], out[3])


class ExpectedMeanSquares(NamedTuple):
    """Expected mean squares between and within groups of a one-way layout."""
    between: float
    within: float


def expected_mean_squares(alpha, sigma, J):
    """Expected mean squares ``E[MS_B]`` and ``E[MS_W]`` of the one-way layout.

    With ``N = sum_i J_i`` and the weighted mean effect ``abar = sum_i J_i alpha_i / N``,

    ``E[MS_B] = sigma² + sum_i J_i (alpha_i - abar)² / (I - 1)``,  ``E[MS_W] = sigma²``.

    For equal sizes and ``sum_i alpha_i = 0`` this is ``sigma² + J sum_i alpha_i² / (I - 1)``.
    Adding a constant to every ``alpha_i`` changes nothing, so no constraint is imposed.

    Parameters
    ----------
    alpha : array_like, shape (I,)
        Treatment effects, ``I >= 2``.
    sigma : float
        Error standard deviation (positive).
    J : int or array_like of int, shape (I,)
        Common group size (>= 2), or the group sizes ``J_i`` (each >= 2).

    Returns
    -------
    ExpectedMeanSquares
        ``between`` and ``within``.

    Raises
    ------
    ValueError
        If ``alpha`` is not a finite vector of length >= 2, ``sigma`` is not positive, or
        ``J`` is not an integer >= 2 or a vector of such integers of length ``I``.
    """
    alpha = check.vector(alpha, None, "alpha")
    if alpha.size < 2:
        raise ValueError(f"alpha must hold at least 2 treatment effects, got {alpha.size}")
    sigma = check.positive(sigma, "sigma")
    if isinstance(J, (int, np.integer)) and not isinstance(J, (bool, np.bool_)):
        sizes = np.full(alpha.size, check.count(J, "J", low=2))
    else:
        sizes = check.integer_entries(J, "J", low=2)
        if sizes.shape != alpha.shape:
            raise ValueError(f"J must be an integer >= 2 or have shape {alpha.shape}, got {sizes.shape}")
    sizes = sizes.astype(float)                 # float sums: huge sizes cannot wrap around
    abar = np.sum(sizes * alpha) / sizes.sum()
    between = sigma**2 + float(np.sum(sizes * (alpha - abar) ** 2)) / (alpha.size - 1)
    check.finite_result([between, sigma**2], "alpha, sigma and J")
    return ExpectedMeanSquares(float(between), sigma**2)


# -------------------------------------------------------------- multiple comparisons
class PairwiseIntervals(NamedTuple):
    """Simultaneous confidence intervals for all differences ``mu_i - mu_k`` (``i < k``)."""
    pairs: np.ndarray
    diff: np.ndarray
    low: np.ndarray
    high: np.ndarray
    critical: float


def _pairwise(groups, critical_of):
    groups = check.groups(groups)
    ss_b, ss_w, sizes, means = _sums_of_squares(groups)
    check.finite_result([ss_b, ss_w], "groups")
    I, df_w = len(groups), int(sizes.sum()) - len(groups)
    s_p = np.sqrt(ss_w / df_w)
    i, k = np.triu_indices(I, k=1)
    critical, scale = critical_of(I, df_w)
    half = critical * s_p * np.sqrt(scale * (1 / sizes[i] + 1 / sizes[k]))
    diff = means[i] - means[k]
    return PairwiseIntervals(np.column_stack([i, k]), diff, diff - half, diff + half, float(critical))


def tukey_intervals(groups, alpha=0.05):
    """Tukey's simultaneous intervals ``Ybar_i - Ybar_k ± q_{I, N-I}(alpha) s_p / sqrt(J)``.

    ``q_{I, N-I}(alpha)`` is the upper ``alpha`` point of the studentised range with ``I``
    means and ``N - I`` degrees of freedom, and ``s_p² = SS_W / (N - I)``. For unequal sizes
    ``1/J`` becomes ``(1/J_i + 1/J_k)/2`` (the Tukey-Kramer intervals).

    Parameters
    ----------
    groups : sequence of array_like
        ``I >= 2`` samples, each with at least two values.
    alpha : float
        Family-wise error rate, in (0, 1).

    Returns
    -------
    PairwiseIntervals
        ``pairs`` (shape (I(I-1)/2, 2), ``i < k``), ``diff``, ``low``, ``high`` and the
        ``critical`` value ``q``.

    Raises
    ------
    ValueError
        If ``groups`` is not a list of finite samples of size >= 2 or ``alpha`` is not in (0, 1).
    """
    alpha = check.level(alpha)
    return _pairwise(groups, lambda I, df: (scipy.stats.studentized_range.ppf(1 - alpha, I, df), 0.5))


def bonferroni_intervals(groups, alpha=0.05):
    """Bonferroni intervals ``Ybar_i - Ybar_k ± t_{N-I}(alpha/(2m)) s_p sqrt(1/J_i + 1/J_k)``.

    Each of the ``m = I(I-1)/2`` pooled-variance t intervals has level ``1 - alpha/m``, so
    by the union bound all of them hold together with probability at least ``1 - alpha``.

    Parameters
    ----------
    groups : sequence of array_like
        ``I >= 2`` samples, each with at least two values.
    alpha : float
        Family-wise error rate, in (0, 1).

    Returns
    -------
    PairwiseIntervals
        As :func:`tukey_intervals`; ``critical`` is the t quantile.

    Raises
    ------
    ValueError
        If ``groups`` is not a list of finite samples of size >= 2 or ``alpha`` is not in (0, 1).
    """
    alpha = check.level(alpha)

    def critical(I, df):
        m = I * (I - 1) // 2
        return scipy.stats.t.isf(alpha / (2 * m), df), 1.0
    return _pairwise(groups, critical)


# ------------------------------------------------------------------------ rank tests
class RankTest(NamedTuple):
    """Statistic of a rank test, its degrees of freedom and the chi-square p-value."""
    statistic: float
    df: int
    p_value: float


def kruskal_wallis(groups):
    """Kruskal-Wallis test: the one-way ANOVA of the ranks of the pooled sample.

    ``K = 12/(N(N+1)) sum_i J_i (Rbar_i - (N+1)/2)² = 12/(N(N+1)) sum_i J_i Rbar_i² - 3(N+1)``
    without ties; in general ``K = (N - 1) SS_B / SS_TOT`` of the (mid)ranks, which divides
    the first form by ``1 - sum(t³ - t)/(N³ - N)`` over the tie runs ``t``. The p-value is the
    chi-square approximation ``P(chi²_{I-1} >= K)``.

    Parameters
    ----------
    groups : sequence of array_like
        ``I >= 2`` samples, each with at least one value.

    Returns
    -------
    RankTest
        ``statistic`` ``K``, ``df = I - 1`` and ``p_value``.

    Raises
    ------
    ValueError
        If ``groups`` is not a list of finite 1-D samples, or all values are equal.
    """
    groups = check.groups(groups, min_size=1)
    sizes = np.array([g.size for g in groups])
    pooled = np.concatenate(groups)
    ranks = np.split(midranks(pooled)[0], np.cumsum(sizes)[:-1])
    ss_b, ss_w, _, _ = _sums_of_squares(ranks)
    if ss_b + ss_w == 0:
        raise ValueError("groups must not all hold the same value: the ranks do not vary")
    K = (pooled.size - 1) * ss_b / (ss_b + ss_w)
    df = len(groups) - 1
    return RankTest(float(K), df, float(scipy.stats.chi2.sf(K, df)))


def friedman(Y):
    """Friedman's test for treatments in a randomised block design, from ranks within blocks.

    With ``Rbar_i`` the mean rank of treatment ``i`` over the ``J`` blocks,
    ``Q = 12 J / (I(I+1)) sum_i (Rbar_i - (I+1)/2)²``, divided by
    ``1 - sum(t³ - t) / (J (I³ - I))`` when some block has ties; ``Q`` is approximately
    ``chi²_{I-1}`` under the null hypothesis of no treatment effect.

    Parameters
    ----------
    Y : array_like, shape (I, J)
        Responses, treatments (``I >= 2``) × blocks (``J >= 2``).

    Returns
    -------
    RankTest
        ``statistic`` ``Q``, ``df = I - 1`` and ``p_value``.

    Raises
    ------
    ValueError
        If ``Y`` is not a finite 2-D array with at least two rows and two columns, or every
        block is constant.
    """
    Y = check.matrix(Y, "Y")
    I, J = Y.shape
    if I < 2 or J < 2:
        raise ValueError(f"Y must have at least 2 treatments (rows) and 2 blocks (columns), got {Y.shape}")
    R, ties = _ranks_within_columns(Y)              # ranks within each block (column)
    if ties == J * (I**3 - I):
        raise ValueError("Y must not be constant within every block: the ranks carry no information")
    Q = 12 * J / (I * (I + 1)) * np.sum((R.mean(axis=1) - (I + 1) / 2) ** 2)
    Q /= 1 - ties / (J * (I**3 - I))
    return RankTest(float(Q), I - 1, float(scipy.stats.chi2.sf(Q, I - 1)))


# -------------------------------------------------------------------- two-way layout
class TwoWayAnova(NamedTuple):
    """Effects, sums of squares and F tests of a balanced two-way layout.

    ``sources`` names the rows of ``ss`` and ``df``: ``("A", "B", "AB", "E")``, or
    ``("A", "B", "AB")`` with one observation per cell. ``F`` and ``p_value`` are for the
    sources A, B (and AB when there are replicates).
    """
    sources: tuple
    ss: np.ndarray
    df: np.ndarray
    F: np.ndarray
    p_value: np.ndarray
    ss_total: float
    mu: float
    alpha: np.ndarray
    beta: np.ndarray
    delta: np.ndarray


def two_way_anova(Y):
    """Two-way analysis of variance of a balanced layout, with or without replicates.

    The maximum-likelihood effects under the sum-to-zero constraints are
    ``mu = Ybar...``, ``alpha_i = Ybar_i.. - mu``, ``beta_j = Ybar_.j. - mu`` and
    ``delta_ij = Ybar_ij. - Ybar_i.. - Ybar_.j. + mu``; ``SS_A = JK sum alpha_i²``,
    ``SS_B = IK sum beta_j²``, ``SS_AB = K sum delta_ij²`` and ``SS_E = sum (Y_ijk - Ybar_ij.)²``.
    With ``K >= 2`` replicates each F is a mean square over ``MS_E``; with one observation
    per cell (a randomised block design, additivity assumed) ``MS_AB`` is the denominator.

    Parameters
    ----------
    Y : array_like, shape (I, J, K), (I, J) or (..., I, J, K)
        Responses: levels of A (``I >= 2``) × levels of B (``J >= 2``) × replicates (``K``);
        a 2-D array means ``K = 1``, and leading axes hold independent layouts.

    Returns
    -------
    TwoWayAnova
        ``sources``, ``ss``, ``df``, ``F``, ``p_value``, ``ss_total``, ``mu``, ``alpha``,
        ``beta``, ``delta`` (with the leading axes of ``Y`` in front).

    Raises
    ------
    ValueError
        If ``Y`` is not a finite array of one of these shapes with ``I, J >= 2``, or the
        error sum of squares of the denominator is 0.
    """
    Y = check.finite(Y, "Y")
    Y = Y[:, :, None] if Y.ndim == 2 else Y
    if Y.ndim < 3 or min(Y.shape[-3:-1]) < 2 or Y.shape[-1] < 1:
        raise ValueError(f"Y must have shape (I, J, K), (I, J) or (..., I, J, K) with I, J >= 2, got {Y.shape}")
    I, J, K = Y.shape[-3:]
    mu, cell = Y.mean(axis=(-3, -2, -1)), Y.mean(axis=-1)
    alpha = Y.mean(axis=(-2, -1)) - mu[..., None]
    beta = Y.mean(axis=(-3, -1)) - mu[..., None]
    delta = cell - mu[..., None, None] - alpha[..., :, None] - beta[..., None, :]
    ss = [J * K * np.sum(alpha**2, -1), I * K * np.sum(beta**2, -1), K * np.sum(delta**2, (-2, -1))]
    df = [I - 1, J - 1, (I - 1) * (J - 1)]
    if K > 1:
        ss, df = ss + [np.sum((Y - cell[..., None]) ** 2, axis=(-3, -2, -1))], df + [I * J * (K - 1)]
    ss, df = check.finite_result(np.stack(ss, axis=-1), "Y"), np.array(df)
    if np.any(ss[..., -1] == 0):
        raise ValueError("Y has a zero error sum of squares: the F statistics are undefined")
    ms = ss / df
    F = ms[..., :-1] / ms[..., -1:]
    p = scipy.stats.f.sf(F, df[:-1], df[-1])
    ss_total = np.sum((Y - mu[..., None, None, None]) ** 2, axis=(-3, -2, -1))
    scalar = (lambda v: float(v)) if mu.ndim == 0 else (lambda v: v)
    return TwoWayAnova(("A", "B", "AB", "E")[:ss.shape[-1]], ss, df, F, p, scalar(ss_total),
                       scalar(mu), alpha, beta, delta)


# ------------------------------------------------------------------ design matrices
def _levels(levels, name, n=None):
    arr = check.integer_entries(levels, name, low=0)
    if arr.ndim != 1 or arr.size == 0 or (n is not None and arr.size != n):
        want = "a non-empty 1-D array" if n is None else f"a 1-D array of length {n}"
        raise ValueError(f"{name} must be {want} of level codes, got shape {arr.shape}")
    if arr.max() >= arr.size:                   # some code is unused; bincount would allocate max + 1
        raise ValueError(f"{name} must use every level 0, ..., L - 1 with L >= 2, got a code "
                         f"{arr.max()} with only {arr.size} observations")
    counts = np.bincount(arr)
    if counts.size < 2 or np.any(counts == 0):
        raise ValueError(f"{name} must use every level 0, ..., L - 1 with L >= 2; "
                         f"missing levels: {np.flatnonzero(counts == 0).tolist()}")
    return arr, counts.size


def _factor_columns(levels, L, coding):
    ind = (levels[:, None] == np.arange(L)[None, :]).astype(float)
    if coding == "indicator":
        return ind
    if coding == "treatment":
        return ind[:, 1:]
    return ind[:, 1:] - ind[:, :1]                          # sum to zero: level 0 gets -1


def anova_design_matrix(levels_a, levels_b=None, coding="sum", interaction=False):
    """Design matrix of a one- or two-way ANOVA model, intercept column first.

    ``coding="sum"`` imposes sum-to-zero constraints (the first level's effect is minus the
    sum of the others, so its rows carry -1), ``"treatment"`` sets the first level's effect to
    zero (corner point: level 0 is the reference), and ``"indicator"`` keeps one indicator
    column per level, the overparametrised and rank-deficient matrix with ``1 + I + J + IJ``
    columns. Interaction columns are the row-wise products of the A and B columns.

    Parameters
    ----------
    levels_a : array_like of int, shape (n,)
        Level codes ``0, ..., I - 1`` of factor A (every level present, ``I >= 2``).
    levels_b : array_like of int, shape (n,), optional
        Level codes of factor B, for a two-way model.
    coding : {"sum", "treatment", "indicator"}
        Parametrisation of the effects.
    interaction : bool
        Add the interaction columns (needs ``levels_b``).

    Returns
    -------
    ndarray, shape (n, p)
        ``p = I`` (one-way), ``I + J - 1`` (additive), ``IJ`` (with interaction) for the
        codings with constraints; ``1 + I (+ J (+ IJ))`` for ``"indicator"``.

    Raises
    ------
    ValueError
        If a level array is not a 1-D array of non-negative integer codes using every level,
        the lengths differ, ``coding`` is unknown, or ``interaction`` is not a bool or is
        True without ``levels_b``.
    """
    coding = check.choice(coding, ("sum", "treatment", "indicator"), "coding")
    interaction = check.flag(interaction, "interaction")
    a, I = _levels(levels_a, "levels_a")
    cols = [np.ones((a.size, 1)), _factor_columns(a, I, coding)]
    if levels_b is None:
        if interaction:
            raise ValueError("interaction=True needs levels_b (a second factor)")
        return np.hstack(cols)
    b, J = _levels(levels_b, "levels_b", n=a.size)
    cols.append(_factor_columns(b, J, coding))
    if interaction:
        cols.append(np.einsum("np,nq->npq", cols[1], cols[2]).reshape(a.size, -1))
    return np.hstack(cols)
