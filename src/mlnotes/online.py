"""Online learning (chapter 13): the perceptron, expert advice, online gradient descent,
Winnow and the conversion of mistake bounds into batch guarantees.

Conventions. A stream of rounds t = 1, ..., T. The perceptron and online gradient descent
see points ``x_t`` (the rows of ``X``) with labels in {-1, +1}. Expert algorithms see the
advice of n experts as the rows of a ``(T, n)`` array: binary predictions in {0, 1}
(halving, weighted majority), predictions in [0, 1] (the weighted-average forecaster)
or losses in [0, 1] (Hedge). Winnow and the disjunction
perceptron see Boolean points in {0, 1}^n with Boolean labels in {0, 1}. Every algorithm
here is sequential over rounds and vectorised over experts or features within a round;
the learners whose state changes only on a mistake (Winnow, the perceptrons) score a
block of rounds at once and jump to the next mistake.
"""
from dataclasses import dataclass

import numpy as np

from mlnotes import _validate as check

__all__ = ["PerceptronRun", "online_perceptron", "ExpertsRun", "halving", "weighted_majority",
           "weighted_majority_bound", "WeightedAverageRun", "weighted_average",
           "weighted_average_bound", "HedgeRun", "hedge", "hedge_eta", "hedge_bound",
           "proximal_hinge_step", "OGDRun", "online_gradient_descent", "WinnowRun", "winnow",
           "perceptron_disjunction", "anova_kernel", "KernelPerceptronRun", "kernel_perceptron",
           "online_to_batch"]


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
        with np.errstate(over="ignore", invalid="ignore"):
            score = y_t * (x_t @ w)
        if not np.isfinite(score):
            raise ValueError(f"the score overflowed in round {t}: rescale X")
        if score <= 0:  # mistake (a zero score included)
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
    y_t = check.returned(y(t, y_hat_t), "y", shape=())
    if y_t not in (0.0, 1.0):
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
    beta = check.number_between(beta, "beta", 0, 1, open_low=True, open_high=True)
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
    beta = check.number_between(beta, "beta", 0, 1, open_low=True, open_high=True)
    return (m * np.log(1 / beta) + np.log(n)) / np.log(2 / (1 + beta))


# ------------------------------------------------------- weighted-average forecaster
_EXP_CONCAVE = {"entropic": 1.0, "square": 0.5}  # largest eta for which exp(-eta L) is concave


def _prediction_loss(y, y_hat, loss):
    """Entropic ``y ln(y/ŷ) + (1-y) ln((1-y)/(1-ŷ))`` (0 ln 0 = 0) or square ``(y - ŷ)²``."""
    if loss == "square":
        return (y - y_hat) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        one = np.where(y > 0, y * np.log(y / y_hat), 0.0)
        zero = np.where(y < 1, (1 - y) * np.log((1 - y) / (1 - y_hat)), 0.0)
    return one + zero


@dataclass(frozen=True, repr=False)
class WeightedAverageRun:
    """The history of a weighted-average forecaster.

    Attributes
    ----------
    v : ndarray, shape (T, n)
        The weights (a probability vector over the experts) used in each round.
    predictions : ndarray, shape (T, n)
        The experts' predictions in [0, 1].
    y_hat : ndarray, shape (T,)
        The forecaster's predictions ``v_t · x_t``.
    y : ndarray, shape (T,)
        The outcomes in [0, 1].
    eta : float
        The learning rate.
    loss : str
        ``"entropic"`` or ``"square"``.
    """

    v: np.ndarray
    predictions: np.ndarray
    y_hat: np.ndarray
    y: np.ndarray
    eta: float
    loss: str

    @property
    def learner_loss(self):
        """Cumulative loss of the forecaster after each round."""
        return np.cumsum(_prediction_loss(self.y, self.y_hat, self.loss))

    @property
    def expert_loss(self):
        """Cumulative loss of every expert after each round, shape (T, n)."""
        return np.cumsum(_prediction_loss(self.y[:, None], self.predictions, self.loss), axis=0)

    @property
    def regret(self):
        """Regret after each round: the forecaster's cumulative loss minus the best expert's."""
        return self.learner_loss - self.expert_loss.min(axis=1)

    def __repr__(self):
        return (f"WeightedAverageRun(loss={self.loss!r}, T={self.y.size}, n={self.v.shape[1]}, "
                f"eta={self.eta:.4g})")


def weighted_average(predictions, y, eta, loss="entropic"):
    """Weighted-average forecaster: predict ``ŷ_t = v_t · x_t``, ``v_{t+1} ∝ v_t exp(-eta L(y_t, x_t))``.

    The weights start uniform, so ``v_t ∝ exp(-eta L_{t-1})`` with ``L_{t-1}`` the experts'
    cumulative losses; they are kept as normalised log-weights.

    Parameters
    ----------
    predictions : array_like, shape (T, n)
        Predictions in [0, 1] of n experts, one row per round.
    y : array_like, shape (T,), or callable
        Outcomes in [0, 1], or an adaptive adversary ``y(t, y_hat_t) -> outcome`` that
        chooses the outcome after seeing the forecaster's prediction.
    eta : float
        Learning rate (positive); the regret bound ``ln(n)/eta`` needs ``eta <= 1``
        (entropic) or ``eta <= 1/2`` (square).
    loss : {"entropic", "square"}
        The entropic (relative-entropy, log) loss or the square loss.

    Returns
    -------
    WeightedAverageRun
        Weights, predictions and outcomes of every round; ``regret`` gives the regret curve.

    Raises
    ------
    ValueError
        If a prediction or outcome lies outside [0, 1], ``y`` has the wrong shape, ``eta``
        is not positive, or (entropic loss) every expert's cumulative loss is infinite.
    """
    X = check.matrix(predictions, "predictions")
    if np.any(X < 0) or np.any(X > 1):
        raise ValueError("predictions must lie in [0, 1]")
    T, n = X.shape
    if not callable(y):
        y = check.vector(y, T, "y")
        if np.any(y < 0) or np.any(y > 1):
            raise ValueError("y must lie in [0, 1]")
    eta = check.positive(eta, "eta")
    loss = check.choice(loss, tuple(_EXP_CONCAVE), "loss")
    log_v = np.full(n, -np.log(n))
    V, y_hat, y_out = np.empty((T, n)), np.empty(T), np.empty(T)
    for t in range(T):
        V[t] = np.exp(log_v)
        y_hat[t] = min(max(V[t] @ X[t], 0.0), 1.0)  # rounding could step outside [0, 1]
        y_out[t] = y[t] if not callable(y) else check.returned(y(t, y_hat[t]), "y", shape=())
        if not 0 <= y_out[t] <= 1:
            raise ValueError(f"y must return an outcome in [0, 1], got {y_out[t]!r} at round {t}")
        with np.errstate(over="ignore"):
            log_v = log_v - eta * _prediction_loss(y_out[t], X[t], loss)
        top = log_v.max()
        if not np.isfinite(top):
            raise ValueError(f"every expert in predictions has infinite loss after round {t}: "
                             f"the weights are undefined")
        log_v = log_v - top - np.log(np.sum(np.exp(log_v - top)))
    return WeightedAverageRun(V, X, y_hat, y_out, eta, loss)


def weighted_average_bound(n_experts, eta, loss="entropic"):
    """Regret bound ``ln(n)/eta`` of the weighted-average forecaster, for any horizon.

    Parameters
    ----------
    n_experts : int
        Number of experts n.
    eta : float
        Learning rate, at most the exp-concavity constant of the loss.
    loss : {"entropic", "square"}
        The entropic loss (``eta <= 1``) or the square loss on [0, 1] (``eta <= 1/2``).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``n_experts < 1``, or ``eta`` is not positive or exceeds 1 (entropic) or 1/2
        (square): the bound is not guaranteed there.
    """
    n = check.count(n_experts, "n_experts")
    loss = check.choice(loss, tuple(_EXP_CONCAVE), "loss")
    eta = check.number_between(eta, "eta", 0.0, _EXP_CONCAVE[loss], open_low=True)
    return float(np.log(n) / eta)


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
        T and n; required when ``losses`` is callable; for a table, None or its shape.

    Returns
    -------
    HedgeRun
        Allocations and losses of every round; ``regret`` gives the regret curve.

    Raises
    ------
    ValueError
        If a loss lies outside [0, 1] or is not finite, ``eta`` is not positive,
        ``n_rounds``/``n_experts`` is missing for a callable or disagrees with the table,
        or the weights overflow (an ``eta`` so large that ``eta`` times a cumulative loss
        is infinite).
    """
    eta = check.positive(eta, "eta")
    if callable(losses):
        T, n = check.count(n_rounds, "n_rounds"), check.count(n_experts, "n_experts")
    else:
        losses = check.matrix(losses, "losses")
        T, n = losses.shape
        check.choice(n_rounds, (None, T), "n_rounds"), check.choice(n_experts, (None, n), "n_experts")
    neg_eta_L = np.zeros(n)  # -eta times the cumulative losses
    P, Lmat = np.empty((T, n)), np.empty((T, n))
    for t in range(T):
        p = np.exp(neg_eta_L - neg_eta_L.max())
        P[t] = p / p.sum()
        l_t = losses[t] if not callable(losses) else check.returned(losses(t, P[t].copy()), "losses", (n,))
        if np.any(l_t < 0) or np.any(l_t > 1):
            raise ValueError(f"losses must lie in [0, 1], shape ({n},) per round (round {t})")
        Lmat[t] = l_t
        neg_eta_L -= eta * l_t
        if not np.isfinite(neg_eta_L.max()):
            raise ValueError(f"hedge diverged at round {t}: eta times the cumulative losses overflowed; "
                             f"use a smaller eta")
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


# ---------------------------------------------------------- online gradient descent
def proximal_hinge_step(w, x, y, lam):
    """Implicit step ``argmin_v max(0, 1 - y v·x) + lam ||v - w||²``, in closed form.

    If the margin ``y w·x`` is at least 1 the minimiser is ``w``; otherwise it is
    ``w + tau y x`` with ``tau = min(1/(2 lam), (1 - y w·x)/||x||²)``: the full step
    ``1/(2 lam)`` unless it would push the margin past 1, where the hinge has its kink
    (the passive-aggressive update with aggressiveness ``C = 1/(2 lam)``).

    Parameters
    ----------
    w : array_like, shape (d,)
        Current weights.
    x : array_like, shape (d,)
        The point of this round.
    y : {-1, +1}
        Its label.
    lam : float
        Weight of the proximity term (positive).

    Returns
    -------
    ndarray, shape (d,)
        The new weights.

    Raises
    ------
    ValueError
        If ``w`` or ``x`` is not a finite vector of the same length, ``y`` is not -1 or +1,
        or ``lam`` is not positive.
    """
    w = check.vector(w, None, "w")
    x = check.vector(x, w.size, "x")
    y, lam = float(check.choice(y, (-1, 1), "y")), check.positive(lam, "lam")
    with np.errstate(over="ignore", invalid="ignore"):
        margin, sq = y * (w @ x), x @ x
    if not (np.isfinite(margin) and np.isfinite(sq)):
        raise ValueError("w·x or ||x||² overflowed: rescale w and x")
    if margin >= 1 or sq == 0:
        return w.copy()
    tau = min(1 / (2 * lam), (1 - margin) / sq)
    return w + tau * y * x


@dataclass(frozen=True, repr=False)
class OGDRun:
    """The history of online gradient descent on the hinge loss.

    Attributes
    ----------
    iterates : ndarray, shape (T + 1, d)
        ``iterates[t]`` is the weight vector used in round ``t`` (0-based), starting from 0;
        the last row is the final weight vector.
    scores : ndarray, shape (T,)
        The predictions ``w_t·x_t`` before each label was revealed.
    y : ndarray, shape (T,)
        The labels in {-1, +1}.
    eta : float
        The step size.
    """

    iterates: np.ndarray
    scores: np.ndarray
    y: np.ndarray
    eta: float

    @property
    def w(self):
        """The final weights."""
        return self.iterates[-1]

    @property
    def losses(self):
        """Hinge loss of each round, ``max(0, 1 - y_t w_t·x_t)``."""
        return np.maximum(0.0, 1.0 - self.y * self.scores)

    @property
    def n_updates(self):
        """Number of rounds in which the weights moved."""
        return int(np.sum(np.any(np.diff(self.iterates, axis=0) != 0, axis=1)))

    def __repr__(self):
        return (f"OGDRun(T={self.scores.size}, d={self.iterates.shape[1]}, eta={self.eta:.4g}, "
                f"hinge loss={self.losses.sum():.4f})")


def online_gradient_descent(X, y, eta, conservative=False):
    """Online gradient descent on the hinge loss: ``w += eta y_t x_t`` when ``y_t w·x_t < 1``.

    Starting from ``w = 0``, each round predicts ``w·x_t``, suffers the hinge loss
    ``max(0, 1 - y_t w·x_t)`` and steps along the negative subgradient ``y_t x_t`` if the
    margin is below 1. With ``conservative=True`` it steps only on a mistake,
    ``y_t w·x_t <= 0``: that is the perceptron with step ``eta``.

    Parameters
    ----------
    X : array_like, shape (T, d)
        The points, one per round.
    y : array_like, shape (T,)
        Labels in {-1, +1}.
    eta : float
        Step size (positive).
    conservative : bool
        Update only on mistakes.

    Returns
    -------
    OGDRun
        The weights before every round, the scores and the labels.

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array, ``y`` has the wrong shape or labels outside
        {-1, +1}, ``eta`` is not positive or ``conservative`` is not a bool.
    """
    X = check.matrix(X)
    y = check.labels(y, X.shape[0], (-1, 1)).astype(float)
    eta = check.positive(eta, "eta")
    conservative = check.flag(conservative, "conservative")
    W, scores = np.zeros((X.shape[0] + 1, X.shape[1])), np.empty(X.shape[0])
    for t, (x_t, y_t) in enumerate(zip(X, y)):
        scores[t] = x_t @ W[t]
        step = y_t * scores[t] <= 0 if conservative else y_t * scores[t] < 1
        with np.errstate(over="ignore", invalid="ignore"):
            W[t + 1] = W[t] + eta * y_t * x_t if step else W[t]
        if not np.isfinite(scores[t]) or not np.all(np.isfinite(W[t + 1])):
            raise ValueError(f"the weights or scores overflowed in round {t}: rescale X or eta")
    return OGDRun(W, scores, y, eta)


# --------------------------------------------------------- Winnow and disjunctions
def _mistake_scan(n_rounds, wrong, block=8):
    """Yield the rounds of the mistakes of a learner whose state changes only on a mistake.

    ``wrong(a, b)`` returns the boolean mistakes the *current* state would make on rounds
    ``a..b-1``; the caller updates its state after each yielded round. Blocks double while
    no mistake is found and halve after one, so a stream with M mistakes costs about
    ``M + log T`` vectorised calls instead of T scalar rounds.
    """
    t, size = 0, block
    while t < n_rounds:
        stop = min(n_rounds, t + size)
        hits = np.flatnonzero(wrong(t, stop))
        if hits.size == 0:
            t, size = stop, 2 * size
        else:
            yield t + int(hits[0])
            t, size = t + int(hits[0]) + 1, max(block, size // 2)


def _boolean(X, y):
    """Validate Boolean points ``(T, n)`` in {0, 1} and labels in {0, 1}."""
    X = check.matrix(X)
    if not np.all((X == 0) | (X == 1)):
        raise ValueError("X must contain only 0 and 1 (Boolean points)")
    return X, check.labels(y, X.shape[0], (0, 1))


@dataclass(frozen=True, repr=False)
class WinnowRun:
    """The history of a Winnow run.

    Attributes
    ----------
    w : ndarray, shape (n,)
        The final weights (powers of 2).
    threshold : float
        The threshold of the prediction ``w·x >= threshold``.
    mistake_rounds : ndarray, shape (M,)
        The (0-based) rounds of the mistakes.
    y : ndarray, shape (T,)
        The labels in {0, 1}.
    """

    w: np.ndarray
    threshold: float
    mistake_rounds: np.ndarray
    y: np.ndarray

    @property
    def n_mistakes(self):
        """Number of mistakes (promotions plus demotions)."""
        return self.mistake_rounds.size

    @property
    def promotions(self):
        """Mistakes on positive examples (false negatives), where weights doubled."""
        return int(np.sum(self.y[self.mistake_rounds] == 1))

    @property
    def demotions(self):
        """Mistakes on negative examples (false positives), where weights halved."""
        return self.n_mistakes - self.promotions

    def predict(self, X):
        """Predictions ``1[w·x >= threshold]`` of the final weights for the rows of ``X``
        (a finite 2-D array with n columns)."""
        return (check.matrix_with_columns(X, self.w.size) @ self.w >= self.threshold).astype(int)

    def __repr__(self):
        return (f"WinnowRun(T={self.y.size}, n={self.w.size}, mistakes={self.n_mistakes}, "
                f"promotions={self.promotions}, demotions={self.demotions})")


def winnow(X, y, threshold=None):
    """Winnow: predict ``1[w·x >= threshold]``; on a mistake double or halve the active weights.

    Starting from ``w = 1``, a false negative doubles ``w_i`` for every ``i`` with
    ``x_i = 1`` (promotion) and a false positive halves them (demotion), i.e.
    ``w_i <- w_i 2**((y_t - y_hat_t) x_i)``; correct rounds change nothing.

    Parameters
    ----------
    X : array_like, shape (T, n)
        Boolean points in {0, 1}, one per round.
    y : array_like, shape (T,)
        Boolean labels in {0, 1}.
    threshold : float, optional
        Positive threshold; the default is the dimension n.

    Returns
    -------
    WinnowRun
        Final weights, threshold and the rounds of the mistakes.

    Raises
    ------
    ValueError
        If ``X`` is not a 2-D array of 0s and 1s, ``y`` has the wrong shape or labels
        outside {0, 1}, or ``threshold`` is not positive.
    """
    X, y = _boolean(X, y)
    theta = float(X.shape[1]) if threshold is None else check.positive(threshold, "threshold")
    w, rounds = np.ones(X.shape[1]), []
    for t in _mistake_scan(len(y), lambda a, b: (X[a:b] @ w >= theta) != y[a:b]):
        w = np.where(X[t] == 1, w * (2.0 if y[t] == 1 else 0.5), w)
        rounds.append(t)
    return WinnowRun(w, theta, np.array(rounds, dtype=int), y)


def perceptron_disjunction(X, y):
    """The online perceptron on ``phi(x) = (x, 1)`` for Boolean data, labels 0/1 -> -1/+1.

    One pass of :func:`online_perceptron` over the points with a constant feature
    appended (the bias), so that a monotone disjunction becomes a halfspace through the
    origin of R^(n+1).

    Parameters
    ----------
    X : array_like, shape (T, n)
        Boolean points in {0, 1}, one per round.
    y : array_like, shape (T,)
        Boolean labels in {0, 1}.

    Returns
    -------
    PerceptronRun
        As for :func:`online_perceptron`, with weights of length n + 1 (the last is the bias).

    Raises
    ------
    ValueError
        If ``X`` is not a 2-D array of 0s and 1s or ``y`` has the wrong shape or labels
        outside {0, 1}.
    """
    X, y = _boolean(X, y)
    Phi, s = np.ones((X.shape[0], X.shape[1] + 1)), 2.0 * y - 1.0
    Phi[:, :-1] = X
    w, iterates, rounds = np.zeros(Phi.shape[1]), [np.zeros(Phi.shape[1])], []
    for t in _mistake_scan(len(s), lambda a, b: s[a:b] * (Phi[a:b] @ w) <= 0):
        w = w + s[t] * Phi[t]
        iterates.append(w)
        rounds.append(t)
    return PerceptronRun(w, np.array(iterates), np.array(rounds, dtype=int), len(s))


# ------------------------------------------------------------- kernel perceptron
def anova_kernel(X, Y=None):
    """The all-subsets ("ANOVA") kernel ``k(x, y) = prod_i (1 + x_i y_i)``.

    It is the inner product of the 2^n monomial features ``prod_{i in S} x_i``, one for
    every subset S of {1, ..., n} (the empty subset gives the constant 1).

    Parameters
    ----------
    X : array_like, shape (n_x, n)
        Points, one per row.
    Y : array_like, shape (n_y, n), optional
        Second set of points; the default is ``X``.

    Returns
    -------
    ndarray, shape (n_x, n_y)
        The Gram matrix ``K[i, j] = k(X[i], Y[j])``.

    Raises
    ------
    ValueError
        If ``X`` or ``Y`` is not a finite 2-D array, or they have different numbers of columns.
    """
    X = check.matrix(X, "X")
    Y = X if Y is None else check.matrix(Y, "Y")
    if Y.shape[1] != X.shape[1]:
        raise ValueError(f"Y must have {X.shape[1]} columns like X, got {Y.shape[1]}")
    K = np.ones((X.shape[0], Y.shape[0]))
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(X.shape[1]):  # one factor per coordinate, vectorised over all pairs
            K *= 1.0 + np.outer(X[:, i], Y[:, i])
    if not np.all(np.isfinite(K)):
        raise ValueError("the kernel overflowed: rescale X and Y (or use fewer coordinates)")
    return K


@dataclass(frozen=True, repr=False)
class KernelPerceptronRun:
    """The history of a kernel perceptron run.

    Attributes
    ----------
    alpha : ndarray, shape (T,)
        Dual coefficients: ``alpha[q] = y_q`` if round q was a mistake, else 0, so that the
        score of a point x is ``sum_q alpha[q] k(x_q, x)``.
    mistake_rounds : ndarray, shape (M,)
        The (0-based) rounds of the mistakes.
    """

    alpha: np.ndarray
    mistake_rounds: np.ndarray

    @property
    def n_mistakes(self):
        """Number of mistakes."""
        return self.mistake_rounds.size

    def __repr__(self):
        return f"KernelPerceptronRun(T={self.alpha.size}, n_mistakes={self.n_mistakes})"


def kernel_perceptron(K, y):
    """The online perceptron in dual form: score ``sum_{mistakes q} y_q K[q, t]``.

    One pass over a stream whose Gram matrix is ``K``; a score ``<= 0`` times the label is
    a mistake, and the round joins the expansion with coefficient ``y_t``. With
    ``K = X Xᵀ`` this is :func:`online_perceptron`.

    Parameters
    ----------
    K : array_like, shape (T, T)
        Symmetric positive semi-definite Gram matrix ``K[q, t] = k(x_q, x_t)`` of the
        stream, in round order.
    y : array_like, shape (T,)
        Labels in {-1, +1}.

    Returns
    -------
    KernelPerceptronRun
        Dual coefficients and the rounds of the mistakes.

    Raises
    ------
    ValueError
        If ``K`` is not a finite symmetric positive semi-definite matrix or ``y`` has the wrong shape or
        labels outside {-1, +1}.
    """
    K = check.square(K, "K", symmetric=True)
    y = check.labels(y, K.shape[0], (-1, 1)).astype(float)
    scale = max(np.abs(K).max(), 1e-300)
    try:  # a kernel (Gram) matrix is positive semi-definite: Cholesky with a relative jitter
        np.linalg.cholesky(K / scale + 1e-10 * np.eye(len(K)))
    except np.linalg.LinAlgError:
        raise ValueError("K must be positive semi-definite (a kernel matrix)") from None
    rounds = []
    for t in _mistake_scan(len(y), lambda a, b: y[a:b] * (y[rounds] @ K[rounds, a:b]) <= 0):
        rounds.append(t)
    alpha = np.zeros(len(y))
    alpha[rounds] = y[rounds]
    return KernelPerceptronRun(alpha, np.array(rounds, dtype=int))


# --------------------------------------------------------------- online to batch
def online_to_batch(algorithm, X, y, rng):
    """Random stopping: run an online learner on the first t examples, t ~ Uniform{1..T}.

    Parameters
    ----------
    algorithm : callable
        ``algorithm(X_t, y_t)`` runs the online learner on a prefix of the stream and
        returns its current hypothesis, a callable ``h(X_new)`` giving one label per row.
    X : array_like, shape (T, n)
        The sample, in the order the learner sees it.
    y : array_like, shape (T,)
        Its labels.
    rng : numpy.random.Generator
        Source of the stopping time.

    Returns
    -------
    h : callable
        ``h(X_new) -> ndarray of shape (len(X_new),)``, the hypothesis after t examples;
        it checks that the learner's hypothesis returns one finite label per row.
    t : int
        The stopping time, in {1, ..., T}.

    Raises
    ------
    ValueError
        If ``algorithm`` is not callable or does not return a callable, ``X`` is not a
        finite 2-D array, ``y`` does not have one label per row, or ``rng`` is not a Generator.
    """
    algorithm = check.function(algorithm, "algorithm")
    X, rng = check.matrix(X), check.generator(rng)
    check.vector(y, X.shape[0], "y")       # finite, one label per row; the learner gets y as given
    y = np.asarray(y)
    t = int(rng.integers(1, X.shape[0] + 1))
    hypothesis = check.function(algorithm(X[:t], y[:t]), "the hypothesis h(X_new) returned by algorithm")

    def h(X_new):
        X_new = check.matrix(X_new, "X_new")
        labels = hypothesis(X_new)
        check.returned(labels, "the hypothesis h of algorithm", shape=(X_new.shape[0],))
        labels = np.asarray(labels)
        if labels.dtype.kind not in "biuf":
            raise ValueError(f"the hypothesis h of algorithm must give one numeric label per row, "
                             f"got dtype {labels.dtype}")
        return labels

    return h, t
