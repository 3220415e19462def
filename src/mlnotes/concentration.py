"""Concentration inequalities and generalisation bounds for finite and covered classes.

Chapter 30. The tail bounds of Markov and Chebyshev (implemented in
:mod:`mlnotes.distributions` for chapter 1 and re-exported here, the same functions), Hoeffding's bound, the
gap in Hoeffding's lemma, Popoviciu's variance bound, the uniform bound for a finite
hypothesis class and its sample complexity, empirical risk minimisation over a grid of
threshold classifiers with labels in {-1, +1}, the uniform deviation of a finite class,
the memorising algorithm and the covering number of an interval.

Losses are bounded as ``|l| <= M``; a loss with values in an interval of length ``R`` is
covered by ``M = R / 2``, because subtracting the midpoint of the interval changes no
difference ``E_n(f) - E(f)``.
"""
import math
from typing import NamedTuple

import numpy as np

from mlnotes import _validate as check
from mlnotes.distributions import chebyshev_bound, markov_bound   # re-exported: one implementation (chapter 1)

__all__ = [
    "markov_bound", "chebyshev_bound", "hoeffding_bound", "hoeffding_lemma_gap",
    "popoviciu_bound", "finite_class_uniform_bound", "sample_complexity_finite",
    "threshold_grid", "erm_thresholds", "ERMThresholds", "uniform_deviation", "memoriser",
    "covering_number_interval",
]


def _delta(delta):
    """``delta`` as a float in (0, 1]."""
    return check.number_between(delta, "delta", 0.0, 1.0, open_low=True)


def hoeffding_bound(n, eps, a=0.0, b=1.0, two_sided=True):
    """Hoeffding's bound on the deviation of the mean of ``n`` independent variables in ``[a, b]``.

    ``P(|X̄ - E X̄| >= eps) <= 2 exp(-2 n eps² / (b - a)²)``, or without the factor 2 for one
    tail (``two_sided=False``).

    Parameters
    ----------
    n : int
        Number of variables (>= 1).
    eps : array_like
        Deviations (positive, finite).
    a, b : float
        The range of each variable, ``a < b``.
    two_sided : bool
        Bound ``P(|X̄ - E X̄| >= eps)`` (True) or one tail ``P(X̄ - E X̄ >= eps)`` (False).

    Returns
    -------
    float or ndarray
        The bound, of the shape of ``eps`` (values above 1 say nothing).

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer, some ``eps`` is not positive and finite, or
        ``a >= b``.
    """
    n = check.count(n, "n")
    eps = check.positive_entries(eps, "eps")
    a, b = check.interval_bounds(a, b, ("a", "b"))
    factor = 2.0 if check.flag(two_sided, "two_sided") else 1.0
    out = factor * np.exp(-2.0 * n * eps**2 / (b - a) ** 2)
    return float(out) if out.ndim == 0 else out


def hoeffding_lemma_gap(values, probs, s):
    """Slack ``s²(b - a)²/8 - log E exp(s (X - E X))`` of Hoeffding's lemma for a discrete law.

    ``X`` takes ``values[j]`` with probability ``probs[j]``; ``a`` and ``b`` are the least and
    the largest value. Hoeffding's lemma says the slack is ``>= 0`` for every real ``s``.

    Parameters
    ----------
    values : array_like, shape (k,)
        Support points (finite).
    probs : array_like, shape (k,)
        Their probabilities (non-negative, summing to 1).
    s : array_like
        Arguments of the moment generating function (finite, any sign).

    Returns
    -------
    float or ndarray
        The slack, of the shape of ``s``.

    Raises
    ------
    ValueError
        If ``values`` is not a finite vector, ``probs`` not a probability vector of the same
        length, or ``s`` not finite.
    """
    values = check.vector(values, None, "values")
    probs = check.probabilities(probs, "probs")
    if probs.shape != values.shape:
        raise ValueError(f"probs and values must have the same length: values has shape "
                         f"{values.shape}, probs {probs.shape}")
    s = check.finite(s, "s")
    centred = values - probs @ values
    z = s[..., None] * centred                       # (..., k)
    keep = probs > 0
    zmax = z[..., keep].max(axis=-1, keepdims=True)
    log_mgf = zmax[..., 0] + np.log(np.exp(z[..., keep] - zmax) @ probs[keep])
    out = s**2 * (values.max() - values.min()) ** 2 / 8.0 - log_mgf
    return float(out) if out.ndim == 0 else out


def popoviciu_bound(a, b):
    """Popoviciu's bound ``var X <= (b - a)² / 4`` for a random variable with ``a <= X <= b``.

    Parameters
    ----------
    a, b : float
        The range, ``a < b``.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not finite or ``a >= b``.
    """
    a, b = check.interval_bounds(a, b, ("a", "b"))
    return (b - a) ** 2 / 4.0


def finite_class_uniform_bound(n_hypotheses, n, delta, M=1.0):
    """Radius ``sqrt(2 M² log(2|H|/δ) / n)`` of the uniform bound for a finite class ``H``.

    With probability at least ``1 - δ`` over ``n`` i.i.d. examples, every ``f`` in ``H`` has
    ``|E_n(f) - E(f)|`` at most this radius, for a loss with ``|l| <= M`` (Hoeffding's
    inequality for each ``f`` and the union bound over ``H``).

    Parameters
    ----------
    n_hypotheses : int
        ``|H|`` (>= 1).
    n : int
        Number of examples (>= 1).
    delta : float
        Failure probability, in (0, 1].
    M : float
        Bound on the loss, ``|l| <= M`` (positive); ``M = R/2`` for values in an interval of
        length ``R``.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If an argument is out of range.
    """
    k, n = check.count(n_hypotheses, "n_hypotheses"), check.count(n, "n")
    delta, M = _delta(delta), check.positive(M, "M")
    return float(np.sqrt(2.0 * M**2 * (math.log(2 * k) - math.log(delta)) / n))   # math.log: any int k


def sample_complexity_finite(n_hypotheses, eps, delta, M=1.0):
    """Least ``n`` with ``sqrt(2 M² log(2|H|/δ) / n) <= eps``: ``ceil(2 M² log(2|H|/δ) / eps²)``.

    Parameters
    ----------
    n_hypotheses : int
        ``|H|`` (>= 1).
    eps : float
        Accuracy (positive).
    delta : float
        Failure probability, in (0, 1].
    M : float
        Bound on the loss, ``|l| <= M`` (positive).

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If an argument is out of range.
    """
    k = check.count(n_hypotheses, "n_hypotheses")
    eps, delta, M = check.positive(eps, "eps"), _delta(delta), check.positive(M, "M")
    with np.errstate(divide="ignore", over="ignore"):             # eps**2 may underflow to 0
        need = 2.0 * M**2 * (math.log(2 * k) - math.log(delta)) / np.float64(eps) ** 2
    n = check.sample_size(need, "eps")
    if n > 1 and need <= (n - 1) * (1 + 1e-12):       # ceil overshot through rounding
        n -= 1
    return n


def threshold_grid(p):
    """The thresholds ``a`` in (-1, 1] with ``a 10^p`` an integer: ``2·10^p`` values, spacing ``10^-p``.

    Parameters
    ----------
    p : int
        Precision in decimal digits (0 <= p <= 6).

    Returns
    -------
    ndarray, shape (2·10^p,)
        ``k / 10^p`` for ``k = -10^p + 1, ..., 10^p``, increasing.

    Raises
    ------
    ValueError
        If ``p`` is not an integer in 0, ..., 6.
    """
    p = check.count(p, "p", low=0)
    if p > 6:
        raise ValueError(f"p must be at most 6 (2·10^p thresholds), got {p}")
    m = 10**p
    return np.arange(-m + 1, m + 1) / m


class ERMThresholds(NamedTuple):
    """Result of :func:`erm_thresholds`."""

    threshold: float            # the selected a (the smallest one of least empirical risk)
    index: int                  # its position in ``thresholds``
    empirical_risk: float       # its training 0-1 error
    risks: np.ndarray           # the training 0-1 error of every threshold


def erm_thresholds(x, y, thresholds):
    """Empirical risk minimisation of the 0-1 loss over threshold classifiers ``f_a(x) = sign(x - a)``.

    ``f_a(x) = +1`` if ``x >= a`` and ``-1`` otherwise. The training error of every ``a`` is
    counted in ``O((n + m) log n)`` with sorting and cumulative sums; ties go to the first
    (smallest) threshold.

    Parameters
    ----------
    x : array_like, shape (n,)
        Inputs (finite).
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    thresholds : array_like, shape (m,)
        Candidate thresholds (finite, increasing).

    Returns
    -------
    ERMThresholds
        ``threshold``, ``index``, ``empirical_risk`` and all ``risks`` (shape (m,)).

    Raises
    ------
    ValueError
        If shapes disagree, a label is not -1 or +1, or ``thresholds`` is not increasing.
    """
    x = check.vector(x, None, "x")
    y = check.labels(y, x.shape[0], (-1, 1), "y")
    a = check.vector(thresholds, None, "thresholds")
    if np.any(np.diff(a) <= 0):
        raise ValueError("thresholds must be strictly increasing")
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    pos_below = np.r_[0, np.cumsum(ys == 1)]         # positives among the j smallest x
    neg_below = np.r_[0, np.cumsum(ys == -1)]
    j = np.searchsorted(xs, a, side="left")          # number of x_i < a
    errors = pos_below[j] + (neg_below[-1] - neg_below[j])
    risks = errors / x.shape[0]
    i = int(np.argmin(risks))
    return ERMThresholds(float(a[i]), i, float(risks[i]), risks)


def uniform_deviation(losses, risks):
    """Uniform deviation ``max_j |E_n(h_j) - E(h_j)|`` of a finite class on one or many samples.

    Parameters
    ----------
    losses : array_like, shape (n, k) or (r, n, k)
        ``losses[..., i, j] = l(h_j(x_i), y_i)``: ``n`` examples, ``k`` hypotheses, and
        optionally ``r`` independent samples.
    risks : array_like, shape (k,)
        The expected risks ``E(h_j)``.

    Returns
    -------
    float or ndarray of shape (r,)
        The uniform deviation of each sample.

    Raises
    ------
    ValueError
        If ``losses`` is not a finite array with 2 or 3 axes or ``risks`` does not match.
    """
    L = check.finite(losses, "losses")
    if L.ndim not in (2, 3) or L.size == 0:
        raise ValueError(f"losses must have shape (n, k) or (r, n, k), got {L.shape}")
    risks = check.vector(risks, L.shape[-1], "risks")
    out = np.abs(L.mean(axis=-2) - risks).max(axis=-1)
    return float(out) if out.ndim == 0 else out


class _Memoriser:
    """The predictor returned by :func:`memoriser`."""

    def __init__(self, x, y):
        order = np.argsort(x, kind="stable")
        self._x, self._y = x[order], y[order]

    def __repr__(self):
        return f"memoriser(n={self._x.shape[0]})"

    def __call__(self, x):
        x = check.finite(x, "x")
        j = np.clip(np.searchsorted(self._x, x), 0, self._x.shape[0] - 1)
        return np.where(self._x[j] == x, self._y[j], 0.0)


def memoriser(x_train, y_train):
    """The memorising algorithm: ``f_n(x) = y_i`` if ``x = x_i`` for a training point, else ``0``.

    Parameters
    ----------
    x_train : array_like, shape (n,)
        Training inputs (finite, pairwise distinct).
    y_train : array_like, shape (n,)
        Training outputs (finite).

    Returns
    -------
    callable
        ``f_n``, vectorised over an array of inputs.

    Raises
    ------
    ValueError
        If the shapes disagree, a value is not finite, or two training inputs coincide.
    """
    x = check.vector(x_train, None, "x_train")
    y = check.vector(y_train, x.shape[0], "y_train")
    if np.unique(x).shape[0] != x.shape[0]:
        raise ValueError("x_train must hold pairwise distinct inputs")
    return _Memoriser(x, y)


def covering_number_interval(gamma, eta):
    """Covering number ``N([-γ, γ], η) = ceil(γ/η)`` of an interval by closed balls of radius ``η``.

    A ball of radius ``η`` is an interval of length ``2η``, so ``ceil(2γ / 2η)`` of them are
    needed and enough (with centres in the interval). It is also the covering number, in the
    sup norm on ``[-1, 1]``, of the linear class ``{x -> w x : |w| <= γ}``.

    Parameters
    ----------
    gamma : float
        Half-length of the interval (positive).
    eta : array_like
        Radii (positive).

    Returns
    -------
    int or ndarray of int

    Raises
    ------
    ValueError
        If ``gamma`` or some ``eta`` is not positive and finite.
    """
    gamma = check.positive(gamma, "gamma")
    eta = check.positive_entries(eta, "eta")
    with np.errstate(over="ignore"):
        ratio = gamma / eta
    if np.any(ratio > 2.0**62):
        raise ValueError(f"eta is too small for gamma = {gamma:g}: the covering number exceeds 2^62")
    out = np.maximum(1, np.ceil(ratio * (1 - 1e-12))).astype(np.int64)
    return int(out) if out.ndim == 0 else out
