"""Online learning (chapter 13): the online perceptron and learning from expert advice.

Conventions. A stream of rounds t = 1, ..., T. The perceptron sees points ``x_t`` (the
rows of ``X``) with labels in {-1, +1}. Expert algorithms see the advice of n experts as
the rows of a ``(T, n)`` array: binary predictions in {0, 1} (halving, weighted
majority) or losses in [0, 1] (Hedge). Every algorithm here is sequential over rounds
and vectorised over experts within a round.
"""
from dataclasses import dataclass

import numpy as np

from mlnotes import _validate as check

__all__ = ["PerceptronRun", "online_perceptron", "ExpertsRun", "halving", "weighted_majority",
           "weighted_majority_bound", "HedgeRun", "hedge", "hedge_eta", "hedge_bound"]


# ----------------------------------------------------------------------- perceptron
@dataclass(frozen=True, repr=False)
class PerceptronRun:
    """The history of an online perceptron run.

    Attributes
    ----------
    w : ndarray, shape (d,)
        The final weights.
    iterates : ndarray, shape (M + 1, d)
        ``iterates[k]`` is the weight vector after ``k`` mistakes (``iterates[0] = 0``).
    mistake_rounds : ndarray, shape (M,)
        The (0-based) rounds of the stream at which the mistakes happened; round ``t`` of
        epoch ``e`` is ``e * n + t``.
    n_rounds : int
        Length of the stream, ``n_epochs * n``.
    """

    w: np.ndarray
    iterates: np.ndarray
    mistake_rounds: np.ndarray
    n_rounds: int

    @property
    def n_mistakes(self):
        """Number of mistakes (= number of updates)."""
        return self.mistake_rounds.size

    def __repr__(self):
        return (f"PerceptronRun(n_rounds={self.n_rounds}, n_mistakes={self.n_mistakes}, "
                f"d={self.w.size})")


def online_perceptron(X, y, n_epochs=1):
    """Online perceptron: on a mistake, ``y_t w·x_t <= 0``, update ``w += y_t x_t``.

    The stream is the rows of ``X`` in order, repeated ``n_epochs`` times, starting from
    ``w = 0`` (so the first round is always a mistake). A score of exactly zero counts as a
    mistake whatever the label, the convention of the mistake-bound proof and of
    scikit-learn's ``Perceptron``.

    Parameters
    ----------
    X : array_like, shape (n, d)
        The points, one per round.
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    n_epochs : int
        Number of passes through the data (at least 1).

    Returns
    -------
    PerceptronRun
        Final weights, the iterate after every mistake, and the rounds of the mistakes.

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array, ``y`` has the wrong shape or labels outside
        {-1, +1}, or ``n_epochs`` is not a positive integer.
    """
    X = check.matrix(X)
    y = check.labels(y, X.shape[0], (-1, 1)).astype(float)
    n_epochs = check.count(n_epochs, "n_epochs")
    n = X.shape[0]
    w = np.zeros(X.shape[1])
    iterates, rounds = [w], []
    for t in range(n_epochs * n):
        x_t, y_t = X[t % n], y[t % n]
        if y_t * (x_t @ w) <= 0:  # mistake (a zero score included)
            w = w + y_t * x_t
            iterates.append(w)
            rounds.append(t)
    return PerceptronRun(w, np.array(iterates), np.array(rounds, dtype=int), n_epochs * n)


# -------------------------------------------------------------------------- experts
@dataclass(frozen=True, repr=False)
class ExpertsRun:
    """The history of a master algorithm predicting binary outcomes from expert advice.

    Attributes
    ----------
    y_hat : ndarray, shape (T,)
        The master's predictions in {0, 1}.
    y : ndarray, shape (T,)
        The outcomes in {0, 1}.
    weights : ndarray, shape (T + 1, n)
        Normalised weights (each row sums to 1) at the start of every round, plus the
        final row. Halving: uniform over the experts still consistent.
    expert_mistakes : ndarray, shape (n,)
        Total mistakes of each expert.
    method : str
        ``"halving"`` or ``"weighted_majority"``.
    """

    y_hat: np.ndarray
    y: np.ndarray
    weights: np.ndarray
    expert_mistakes: np.ndarray
    method: str

    @property
    def mistakes(self):
        """Number of mistakes of the master algorithm."""
        return int(np.sum(self.y_hat != self.y))

    def __repr__(self):
        return (f"ExpertsRun(method={self.method!r}, T={self.y.size}, "
                f"n={self.expert_mistakes.size}, mistakes={self.mistakes})")


def _advice(predictions, y):
    """Validate binary expert advice ``(T, n)`` and outcomes (array or callable)."""
    P = check.matrix(predictions, "predictions")
    if not np.all(np.isin(P, (0, 1))):
        raise ValueError("predictions must contain only the labels 0 and 1")
    if not callable(y):
        y = check.labels(y, P.shape[0], (0, 1))
    return P.astype(int), y


def _outcome(y, t, y_hat_t):
    """The outcome of round ``t``: from the array, or from an adaptive adversary."""
    if not callable(y):
        return int(y[t])
    y_t = y(t, y_hat_t)
    if y_t not in (0, 1):
        raise ValueError(f"y must return a label 0 or 1, got {y_t!r} at round {t}")
    return int(y_t)


def _vote(x_t, w):
    """Weighted majority vote of binary advice ``x_t``; ties go to 1."""
    return int(w @ x_t >= w @ (1 - x_t))


def halving(predictions, y):
    """Halving algorithm: predict the majority vote of the experts never wrong so far.

    Parameters
    ----------
    predictions : array_like, shape (T, n)
        Advice of n experts in {0, 1}, one row per round.
    y : array_like, shape (T,), or callable
        Outcomes in {0, 1}, or an adaptive adversary ``y(t, y_hat_t) -> 0 or 1`` that
        chooses the outcome after seeing the master's prediction.

    Returns
    -------
    ExpertsRun
        ``weights`` is uniform over the experts still consistent.

    Raises
    ------
    ValueError
        If the advice is not binary, ``y`` has the wrong shape or labels, or no expert is
        consistent with the outcomes (the algorithm assumes a perfect expert).
    """
    return _weighted_majority(predictions, y, 0.0, "halving")


def weighted_majority(predictions, y, beta=0.5):
    """Weighted majority vote; a wrong expert's weight is multiplied by ``beta``.

    Parameters
    ----------
    predictions : array_like, shape (T, n)
        Advice of n experts in {0, 1}, one row per round.
    y : array_like, shape (T,), or callable
        Outcomes in {0, 1}, or an adaptive adversary ``y(t, y_hat_t) -> 0 or 1``.
    beta : float
        Penalty factor in (0, 1).

    Returns
    -------
    ExpertsRun
        Predictions, outcomes and the normalised weights before every round.

    Raises
    ------
    ValueError
        If the advice is not binary, ``y`` has the wrong shape or labels, or ``beta`` is
        not in (0, 1).
    """
    beta = check.positive(beta, "beta")
    if beta >= 1:
        raise ValueError(f"beta must lie in (0, 1), got {beta!r}")
    return _weighted_majority(predictions, y, beta, "weighted_majority")


def _weighted_majority(predictions, y, beta, method):
    """Shared loop of halving (``beta = 0``) and weighted majority."""
    P, y = _advice(predictions, y)
    T, n = P.shape
    w = np.full(n, 1.0 / n)
    weights, y_hat, y_out = [w], np.empty(T, dtype=int), np.empty(T, dtype=int)
    for t in range(T):
        y_hat[t] = _vote(P[t], w)
        y_out[t] = _outcome(y, t, y_hat[t])
        w = w * np.where(P[t] == y_out[t], 1.0, beta)
        if w.sum() == 0:
            raise ValueError("no expert in predictions is consistent with y: halving needs a perfect expert")
        w = w / w.sum()  # normalising does not change the votes and avoids underflow
        weights.append(w)
    return ExpertsRun(y_hat, y_out, np.array(weights), np.sum(P != y_out[:, None], axis=0), method)


def weighted_majority_bound(expert_mistakes, n, beta=0.5):
    """Weighted-majority mistake bound ``(m ln(1/beta) + ln n) / ln(2/(1+beta))``.

    Parameters
    ----------
    expert_mistakes : float or array_like
        Mistakes ``m`` of an expert (any expert, usually the best).
    n : int
        Number of experts.
    beta : float
        Penalty factor in (0, 1).

    Returns
    -------
    float or ndarray
        The bound for each value of ``expert_mistakes``.

    Raises
    ------
    ValueError
        If ``expert_mistakes`` is negative or not finite, ``n < 1``, or ``beta`` is not in (0, 1).
    """
    m = check.finite(expert_mistakes, "expert_mistakes")
    if np.any(m < 0):
        raise ValueError("expert_mistakes must be non-negative")
    n = check.count(n, "n")
    beta = check.positive(beta, "beta")
    if beta >= 1:
        raise ValueError(f"beta must lie in (0, 1), got {beta!r}")
    return (m * np.log(1 / beta) + np.log(n)) / np.log(2 / (1 + beta))


# ---------------------------------------------------------------------------- Hedge
@dataclass(frozen=True, repr=False)
class HedgeRun:
    """The history of a Hedge run.

    Attributes
    ----------
    p : ndarray, shape (T, n)
        The allocation (probability vector over experts) played in each round.
    losses : ndarray, shape (T, n)
        The loss of every expert in each round.
    eta : float
        The learning rate.
    """

    p: np.ndarray
    losses: np.ndarray
    eta: float

    @property
    def learner_loss(self):
        """Cumulative loss of the learner, ``sum_{s<=t} p_s·l_s``, for t = 1..T."""
        return np.cumsum(np.sum(self.p * self.losses, axis=1))

    @property
    def regret(self):
        """Regret after each round: learner's cumulative loss minus the best expert's."""
        return self.learner_loss - np.cumsum(self.losses, axis=0).min(axis=1)

    def __repr__(self):
        return f"HedgeRun(T={self.p.shape[0]}, n={self.p.shape[1]}, eta={self.eta:.4g})"


def hedge(losses, eta, n_rounds=None, n_experts=None):
    """Hedge (exponential weights): play ``p_t ∝ exp(-eta L_{t-1})``, L = cumulative losses.

    Parameters
    ----------
    losses : array_like, shape (T, n), or callable
        Losses in [0, 1] of n experts, one row per round; or an adaptive adversary
        ``losses(t, p_t) -> l_t`` that picks the loss vector after seeing the allocation.
    eta : float
        Learning rate (positive).
    n_rounds, n_experts : int, optional
        T and n; required when ``losses`` is callable, ignored otherwise.

    Returns
    -------
    HedgeRun
        Allocations and losses of every round; ``regret`` gives the regret curve.

    Raises
    ------
    ValueError
        If a loss lies outside [0, 1] or is not finite, ``eta`` is not positive, or
        ``n_rounds``/``n_experts`` is missing for a callable.
    """
    eta = check.positive(eta, "eta")
    if callable(losses):
        T, n = check.count(n_rounds, "n_rounds"), check.count(n_experts, "n_experts")
    else:
        losses = check.matrix(losses, "losses")
        T, n = losses.shape
    neg_eta_L = np.zeros(n)  # -eta times the cumulative losses
    P, Lmat = np.empty((T, n)), np.empty((T, n))
    for t in range(T):
        p = np.exp(neg_eta_L - neg_eta_L.max())
        P[t] = p / p.sum()
        l_t = np.asarray(losses(t, P[t].copy()) if callable(losses) else losses[t], dtype=float)
        if l_t.shape != (n,) or not np.all(np.isfinite(l_t) & (l_t >= 0) & (l_t <= 1)):
            raise ValueError(f"losses must lie in [0, 1], shape ({n},) per round (round {t})")
        Lmat[t] = l_t
        neg_eta_L -= eta * l_t
    return HedgeRun(P, Lmat, eta)


def hedge_eta(n_rounds, n_experts):
    """The tuned learning rate ``sqrt(8 ln n / T)`` of the Hedge regret bound.

    Parameters
    ----------
    n_rounds, n_experts : int
        T >= 1 and n >= 2.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``n_rounds < 1`` or ``n_experts < 2``.
    """
    T, n = check.count(n_rounds, "n_rounds"), check.count(n_experts, "n_experts", low=2)
    return float(np.sqrt(8 * np.log(n) / T))


def hedge_bound(t, n_experts, eta):
    """Regret bound of Hedge after t rounds with losses in [0, 1]: ``ln(n)/eta + eta t/8``.

    Parameters
    ----------
    t : float or array_like
        Number of rounds (non-negative).
    n_experts : int
        Number of experts n.
    eta : float
        Learning rate (positive).

    Returns
    -------
    float or ndarray
        The bound; with ``eta = hedge_eta(T, n)`` it equals ``sqrt(T ln(n) / 2)`` at t = T.

    Raises
    ------
    ValueError
        If ``t`` is negative or not finite, ``n_experts < 1`` or ``eta`` is not positive.
    """
    t = check.finite(t, "t")
    if np.any(t < 0):
        raise ValueError("t must be non-negative")
    n = check.count(n_experts, "n_experts")
    eta = check.positive(eta, "eta")
    return np.log(n) / eta + eta * t / 8
