"""Bandits (chapter 14): importance-weighted loss estimates, EXP3 for adversarial bandits,
UCB1 for stochastic bandits, and the regret of a sequence of plays.

Conventions. There are ``n`` arms and ``m`` rounds; losses lie in [0, 1] (a reward ``r``
is the loss ``1 - r``). A loss table has shape ``(m, n)``: one oblivious loss sequence,
fixed before play and shared by every simulated run; or shape ``(R, m, n)``: one sequence
per run. Arms are numbered ``0, ..., n - 1``. Independent runs are simulated together
(vectorised over runs); the only Python loop is over rounds.
"""
import numpy as np

from mlnotes import _validate as check

__all__ = ["switching_losses", "importance_weighted_estimate", "exp3_learning_rate", "exp3", "ucb1",
           "regret", "pseudo_regret", "exp3_bound", "ucb1_bound"]


# ------------------------------------------------------------------------ validation
def _loss_table(losses, name="losses"):
    """``losses`` as a float array of shape (m, n) or (R, m, n) with entries in [0, 1]."""
    losses = check.finite(losses, name)
    if losses.ndim not in (2, 3) or 0 in losses.shape:
        raise ValueError(f"{name} must have shape (m, n) or (R, m, n), got {losses.shape}")
    if np.any(losses < 0) or np.any(losses > 1):
        raise ValueError(f"{name} must lie in [0, 1]")
    return losses


def _runs(losses, n_runs):
    """Number of simulated runs implied by ``losses`` and ``n_runs``."""
    if losses.ndim == 3:
        if n_runs is not None and check.count(n_runs, "n_runs") != losses.shape[0]:
            raise ValueError(f"n_runs must equal losses.shape[0] = {losses.shape[0]} "
                             f"for a loss table of shape (R, m, n), got {n_runs}")
        return losses.shape[0]
    return 1 if n_runs is None else check.count(n_runs, "n_runs")


def _arms(arms, shape, n, name="arms"):
    """``arms`` as an integer array of the given shape with values in {0, ..., n-1}."""
    arms = check.integer_entries(arms, name)
    if arms.ndim not in (1, 2) or arms.shape[-1] != shape[-1]:
        raise ValueError(f"{name} must be an integer array of shape (m,) or (R, m) with "
                         f"m = {shape[-1]}, got {arms.dtype} of shape {arms.shape}")
    if len(shape) == 2 and arms.shape[0] != shape[0]:
        raise ValueError(f"{name} must have {shape[0]} runs to match the losses, got {arms.shape[0]}")
    if np.any(arms < 0) or np.any(arms >= n):
        raise ValueError(f"{name} must take values in 0, ..., {n - 1}")
    return arms


def _incurred(losses, arms):
    """Loss of the played arm in every run and round, shape (R, m) (or (m,))."""
    if losses.ndim == 2:
        return losses[np.arange(losses.shape[0]), arms]
    return np.take_along_axis(losses, arms[..., None], axis=-1)[..., 0]


# ------------------------------------------------------------------ an adversary
def switching_losses(m, n, switch=0.3):
    """An oblivious adversary whose best arm switches: an (m, n) table of losses in [0, 1].

    Every arm has loss 1/2, except that arm 0 has loss 0 in the first ``switch * m``
    rounds and arm 1 has loss 0 in the rest. For ``switch < 1/2`` arm 1 is the best arm
    in hindsight, but a learner that trusts the early rounds first backs arm 0.

    Parameters
    ----------
    m, n : int
        Number of rounds (>= 1) and of arms (>= 2).
    switch : float
        Fraction of the rounds before the switch, in [0, 1].

    Returns
    -------
    ndarray, shape (m, n)

    Raises
    ------
    ValueError
        If ``m < 1``, ``n < 2`` or ``switch`` is outside [0, 1].
    """
    m, n = check.count(m, "m"), check.count(n, "n", low=2)
    switch = check.number_between(switch, "switch", 0, 1)
    losses = np.full((m, n), 0.5)
    tau = int(switch * m)
    losses[:tau, 0] = 0.0
    losses[tau:, 1] = 0.0
    return losses


# --------------------------------------------------------------- loss estimation
def importance_weighted_estimate(loss, p, arm):
    """Importance-weighted estimate ``l_hat_i = l_i 1{arm = i} / p_i`` of a loss vector.

    Only the loss of the drawn arm is used, so the estimate is computable from bandit
    feedback; it is unbiased when ``arm`` is drawn from ``p`` with ``p_i > 0``.

    Parameters
    ----------
    loss : array_like, shape (..., n)
        Loss vectors (only the entry of the drawn arm matters).
    p : array_like, shape (..., n)
        The probability vectors the arms were drawn from (same shape as ``loss``).
    arm : array_like of int, shape (...)
        The drawn arm(s).

    Returns
    -------
    ndarray, shape (..., n)

    Raises
    ------
    ValueError
        If the shapes disagree, ``p`` is not a probability vector, ``arm`` is out of range,
        or the drawn arm has probability 0.
    """
    loss = check.finite(loss, "loss")
    p = check.probabilities(p, "p")
    if loss.ndim == 0 or p.shape != loss.shape:
        raise ValueError(f"p must have the shape of loss {loss.shape}, got {p.shape}")
    arm, n = check.integer_entries(arm, "arm"), loss.shape[-1]
    if arm.shape != loss.shape[:-1] or np.any((arm < 0) | (arm >= n)):
        raise ValueError(f"arm must be integers in 0, ..., {n - 1} of shape {loss.shape[:-1]}")
    drawn = np.arange(n) == arm[..., None]
    if np.any(p[drawn] == 0):
        raise ValueError("p must be positive at the drawn arm")
    return np.where(drawn, loss / np.where(drawn, p, 1.0), 0.0)


# ------------------------------------------------------------------------------ EXP3
def exp3_learning_rate(m, n):
    """The learning rate ``eta = sqrt(2 ln n / (m n))`` that minimises EXP3's bound.

    Parameters
    ----------
    m, n : int
        Number of rounds (>= 1) and of arms (>= 2).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``m < 1`` or ``n < 2``.
    """
    m, n = check.count(m, "m"), check.count(n, "n", low=2)
    return float(np.sqrt(2 * np.log(n) / (m * n)))


def exp3_bound(m, n):
    """EXP3's expected-regret bound ``sqrt(2 m n ln n)`` for losses in [0, 1].

    Parameters
    ----------
    m, n : int or array_like of int
        Number of rounds (>= 1) and of arms (>= 1; one arm has no regret).

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If ``m`` or ``n`` is not an integer (array) or ``m < 1`` or ``n < 1``.
    """
    m, n = check.integer_entries(m, "m", low=1), check.integer_entries(n, "n", low=1)
    return np.sqrt(2 * m * n * np.log(n))


def exp3(losses, eta=None, n_runs=None, rng=None):
    """EXP3: Hedge run on importance-weighted loss estimates, for adversarial bandits.

    In round t each run draws an arm from ``p_t``, sees only that arm's loss, forms the
    importance-weighted estimate ``l_hat_t`` (see :func:`importance_weighted_estimate`)
    and updates ``p_{t+1, i} ∝ p_{t, i} exp(-eta l_hat_{t, i})``, kept as log-weights.

    Parameters
    ----------
    losses : array_like, shape (m, n) or (R, m, n)
        Losses in [0, 1]: one oblivious sequence shared by all runs, or one per run.
    eta : float, optional
        Learning rate > 0; default :func:`exp3_learning_rate` ``(m, n)``.
    n_runs : int, optional
        Number of independent runs for a shared (m, n) table (default 1); for an
        (R, m, n) table it must be R or None.
    rng : numpy.random.Generator

    Returns
    -------
    arms : ndarray of int, shape (R, m)
        The arm played in each run and round.
    probs : ndarray, shape (m, n)
        The probability vectors ``p_t`` averaged over the runs (for one run: ``p_t``).

    Raises
    ------
    ValueError
        If ``losses`` is not a finite table in [0, 1], ``eta`` is not positive,
        ``n_runs`` disagrees with ``losses`` or ``rng`` is not a Generator; or if the
        log-weights overflow (an ``eta`` so large that every weight underflows to 0).
    """
    losses = _loss_table(losses)
    R, (m, n) = _runs(losses, n_runs), losses.shape[-2:]
    eta = exp3_learning_rate(m, max(n, 2)) if eta is None else check.positive(eta, "eta")
    rng = check.generator(rng)
    log_w, rows = np.zeros((R, n)), np.arange(R)
    arms, probs = np.empty((R, m), dtype=int), np.empty((m, n))
    for t in range(m):
        p = np.exp(log_w - log_w.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        arm = (p.cumsum(axis=1) < rng.random((R, 1))).sum(axis=1).clip(max=n - 1)
        loss = losses[t, arm] if losses.ndim == 2 else losses[rows, t, arm]
        # the estimate l_hat is 0 except at the drawn arm, where it is loss / p
        log_w[rows, arm] -= eta * loss / p[rows, arm]
        if not np.all(np.isfinite(log_w.max(axis=1))):
            raise ValueError(f"exp3 diverged at round {t}: the log-weights overflowed; use a smaller eta")
        arms[:, t], probs[t] = arm, p.mean(axis=0)
    return arms, probs


# ------------------------------------------------------------------------------ UCB1
def ucb1(losses):
    """UCB1 (Auer et al. 2002) on losses: play the arm of smallest optimistic loss estimate.

    After playing each arm once, round t plays the arm minimising
    ``mean_loss_i - sqrt(2 ln(t - 1) / T_i)``, where ``T_i`` counts its plays so far
    (ties go to the lowest index). With rewards ``1 - loss`` this is Auer et al.'s UCB1.

    Parameters
    ----------
    losses : array_like, shape (m, n) or (R, m, n)
        Losses in [0, 1] for every arm and round (only the played ones are revealed),
        e.g. i.i.d. draws for a stochastic bandit, one table per run.

    Returns
    -------
    ndarray of int, shape (R, m)
        The arm played in each run and round (R = 1 for an (m, n) table).

    Raises
    ------
    ValueError
        If ``losses`` is not a finite table in [0, 1] with ``m >= n``.
    """
    losses = _loss_table(losses)
    losses = losses[None] if losses.ndim == 2 else losses
    R, m, n = losses.shape
    if m < n:
        raise ValueError(f"losses must have at least m >= n = {n} rounds, got m = {m}")
    rows = np.arange(R)
    arms = np.empty((R, m), dtype=int)
    arms[:, :n] = np.arange(n)
    totals, counts = losses[:, np.arange(n), np.arange(n)].copy(), np.ones((R, n))
    for t in range(n, m):  # round t + 1 in 1-based counting; t plays done so far
        index = totals / counts - np.sqrt(2 * np.log(t) / counts)
        arms[:, t] = np.argmin(index, axis=1)
        totals[rows, arms[:, t]] += losses[rows, t, arms[:, t]]
        counts[rows, arms[:, t]] += 1
    return arms


def ucb1_bound(means, m):
    """Auer et al.'s (2002, Theorem 1) bound on UCB1's expected pseudo-regret after m rounds.

    ``sum over suboptimal i of 8 ln(m) / Delta_i + (1 + pi^2 / 3) Delta_i``, with
    ``Delta_i = mu_i - min_j mu_j`` the gaps of the mean losses.

    Parameters
    ----------
    means : array_like, shape (n,)
        Mean losses of the arms, in [0, 1].
    m : int or array_like of int
        Number of rounds (>= 1).

    Returns
    -------
    float or ndarray (the shape of ``m``)

    Raises
    ------
    ValueError
        If ``means`` is not a vector in [0, 1] or ``m`` is not an integer (array) >= 1.
    """
    means = check.vector(means, None, "means")
    if np.any(means < 0) or np.any(means > 1):
        raise ValueError("means must lie in [0, 1]")
    gaps = means - means.min()
    gaps = gaps[gaps > 0]
    log_m = np.log(check.integer_entries(m, "m", low=1).astype(float))[..., None]
    return np.sum(8 * log_m / gaps + (1 + np.pi ** 2 / 3) * gaps, axis=-1)


# ---------------------------------------------------------------------------- regret
def regret(losses, arms):
    """Regret after each round against the best fixed arm in hindsight.

    ``regret_t = sum_{s <= t} l_{s, I_s} - min_i sum_{s <= t} l_{s, i}``.

    Parameters
    ----------
    losses : array_like, shape (m, n) or (R, m, n)
        The loss table (shared by all runs, or one per run).
    arms : array_like of int, shape (m,) or (R, m)
        The arms played.

    Returns
    -------
    ndarray, shape of ``arms``

    Raises
    ------
    ValueError
        If ``losses`` is not a table in [0, 1] or ``arms`` does not match it.
    """
    losses = _loss_table(losses)
    arms = _arms(arms, losses.shape[:-1] if losses.ndim == 3 else losses.shape[:1], losses.shape[-1])
    best = np.cumsum(losses, axis=-2).min(axis=-1)
    return np.cumsum(_incurred(losses, arms), axis=-1) - best


def pseudo_regret(means, arms):
    """Pseudo-regret after each round of a stochastic bandit: ``sum_{s <= t} Delta_{I_s}``.

    Parameters
    ----------
    means : array_like, shape (n,)
        Mean losses of the arms.
    arms : array_like of int, shape (m,) or (R, m)
        The arms played.

    Returns
    -------
    ndarray, shape of ``arms``

    Raises
    ------
    ValueError
        If ``means`` is not a finite vector or ``arms`` is out of range.
    """
    means = check.vector(means, None, "means")
    arms = check.integer_entries(arms, "arms")
    arms = _arms(arms, arms.shape[-1:] if arms.ndim else (0,), means.size)
    return np.cumsum((means - means.min())[arms], axis=-1)
