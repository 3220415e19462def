"""Tests of mlnotes.bandits: exact enumeration, loop references, and the regret bounds."""
import numpy as np
import pytest
import scipy.optimize

from mlnotes import bandits

SIZES = [(2, 0), (5, 1), (12, 2)]  # (n arms, seed)


def _random_p(n, rng):
    p = rng.random(n) + 0.05
    return p / p.sum()


# ------------------------------------------------------------- importance weighting
@pytest.mark.parametrize("n, seed", SIZES)
def test_importance_weighted_estimate_is_unbiased_by_enumeration(n, seed):
    rng = np.random.default_rng(seed)
    loss, p = rng.random(n), _random_p(n, rng)
    # every possible draw j at once: row j is the estimate when arm j is drawn
    est = bandits.importance_weighted_estimate(np.tile(loss, (n, 1)), np.tile(p, (n, 1)), np.arange(n))
    np.testing.assert_allclose(p @ est, loss, atol=1e-12)                       # E[l_hat] = l
    np.testing.assert_allclose(p @ (est ** 2 @ p), np.sum(loss ** 2), atol=1e-12)  # E[sum p l_hat^2]
    var = p @ est ** 2 - (p @ est) ** 2
    np.testing.assert_allclose(var, loss ** 2 * (1 - p) / p, atol=1e-12)
    np.testing.assert_array_equal(est[~np.eye(n, dtype=bool)], 0.0)


def test_importance_weighted_estimate_monte_carlo():
    rng = np.random.default_rng(3)
    loss, p, R = np.array([0.2, 0.9, 0.5]), np.array([0.6, 0.1, 0.3]), 200_000
    arms = (p.cumsum() < rng.random((R, 1))).sum(axis=1)
    est = bandits.importance_weighted_estimate(np.tile(loss, (R, 1)), np.tile(p, (R, 1)), arms)
    se = est.std(axis=0) / np.sqrt(R)
    assert np.all(np.abs(est.mean(axis=0) - loss) < 4 * se)


@pytest.mark.parametrize("kwargs, match", [
    (dict(loss=[0.1, 0.2], p=[0.5, 0.6], arm=0), "p must sum to 1"),
    (dict(loss=[0.1, 0.2], p=[0.5, 0.5, 0.0], arm=0), "p must have the shape"),
    (dict(loss=[0.1, np.nan], p=[0.5, 0.5], arm=0), "loss must be finite"),
    (dict(loss=[0.1, 0.2], p=[0.5, 0.5], arm=2), "arm must be integers"),
    (dict(loss=[0.1, 0.2], p=[0.5, 0.5], arm=0.0), "arm must be an integer"),
    (dict(loss=[0.1, 0.2], p=[0.5, 0.5], arm=True), "arm must be an integer"),
    (dict(loss=[0.1, 0.2], p=[0.5, 0.5], arm="1"), "arm must be an integer"),
    (dict(loss=0.5, p=[0.5, 0.5], arm=0), "p must have the shape of loss"),
    (dict(loss=[0.1, 0.2], p=[1.0, 0.0], arm=1), "p must be positive at the drawn arm"),
])
def test_importance_weighted_estimate_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        bandits.importance_weighted_estimate(**kwargs)


# ---------------------------------------------------------------------------- EXP3
def _exp3_loop(losses, eta, rng):
    """Reference EXP3 for one run: multiplicative weights, one uniform draw per round."""
    m, n = losses.shape
    w, arms, probs = np.ones(n), np.empty(m, dtype=int), np.empty((m, n))
    for t in range(m):
        p = w / w.sum()
        arm = int(np.searchsorted(np.cumsum(p), rng.random(), side="left"))
        w[arm] *= np.exp(-eta * losses[t, arm] / p[arm])
        w /= w.max()  # rescaling does not change p
        arms[t], probs[t] = arm, p
    return arms, probs


@pytest.mark.parametrize("n, seed", SIZES)
def test_exp3_matches_loop_reference(n, seed):
    losses = np.random.default_rng(seed).random((200, n))
    arms, probs = bandits.exp3(losses, eta=0.1, rng=np.random.default_rng(seed + 10))
    arms_ref, probs_ref = _exp3_loop(losses, 0.1, np.random.default_rng(seed + 10))
    np.testing.assert_array_equal(arms[0], arms_ref)
    np.testing.assert_allclose(probs, probs_ref, atol=1e-10)


def test_exp3_runs_are_vectorised_and_seeded():
    losses = bandits.switching_losses(300, 4)
    a1, p1 = bandits.exp3(losses, n_runs=50, rng=np.random.default_rng(0))
    a2, p2 = bandits.exp3(np.broadcast_to(losses, (50, 300, 4)), rng=np.random.default_rng(0))
    assert a1.shape == (50, 300) and p1.shape == (300, 4)
    np.testing.assert_array_equal(a1, a2)
    np.testing.assert_allclose(p1.sum(axis=1), 1.0, atol=1e-12)
    assert len({tuple(r) for r in a1}) > 1  # the runs are independent, not copies


def test_exp3_with_tiny_eta_plays_uniformly():
    R, m, n = 400, 50, 4
    arms, _ = bandits.exp3(np.ones((m, n)), eta=1e-12, n_runs=R, rng=np.random.default_rng(1))
    freq = np.bincount(arms.ravel(), minlength=n) / arms.size
    se = np.sqrt(0.25 * 0.75 / arms.size)
    assert np.all(np.abs(freq - 1 / n) < 4 * se)


@pytest.mark.parametrize("seed", range(5))
def test_hedge_lemma_holds_on_every_path(seed):
    m, n, eta = 400, 4, 0.05
    losses = np.random.default_rng(seed).random((m, n))
    arms, p = bandits.exp3(losses, eta=eta, rng=np.random.default_rng(seed))
    est = bandits.importance_weighted_estimate(losses, p, arms[0])
    lhs = np.sum(p * est) - est.sum(axis=0).min()
    rhs = np.log(n) / eta + eta / 2 * np.sum(p * est ** 2)
    assert lhs <= rhs


@pytest.mark.parametrize("m, n", [(200, 3), (1000, 5), (500, 10)])
def test_exp3_mean_regret_below_bound(m, n):
    R = 300
    losses = bandits.switching_losses(m, n)
    arms, _ = bandits.exp3(losses, n_runs=R, rng=np.random.default_rng(m + n))
    final = bandits.regret(losses, arms)[:, -1]
    upper = final.mean() + 4 * final.std(ddof=1) / np.sqrt(R)
    assert upper < bandits.exp3_bound(m, n)
    # and the adversary is not trivial: uniform play has a larger regret than the bound
    assert losses.mean(axis=1).sum() - losses.sum(axis=0).min() > final.mean()


def test_exp3_learning_rate_minimises_the_bound():
    m, n = 1000, 7
    f = lambda eta: np.log(n) / eta + eta * m * n / 2  # noqa: E731
    res = scipy.optimize.minimize_scalar(f, bounds=(1e-6, 1.0), method="bounded", options={"xatol": 1e-12})
    assert bandits.exp3_learning_rate(m, n) == pytest.approx(res.x, rel=1e-5)
    assert f(bandits.exp3_learning_rate(m, n)) == pytest.approx(bandits.exp3_bound(m, n), rel=1e-12)


@pytest.mark.parametrize("kwargs, match", [
    (dict(losses=[[0.1, 1.2]]), "losses must lie in"),
    (dict(losses=[0.1, 0.2]), "losses must have shape"),
    (dict(losses=[[0.1, np.inf]]), "losses must be finite"),
    (dict(losses=[[0.1, 0.2]], eta=0.0), "eta must be a positive"),
    (dict(losses=[[0.1, 0.2]], n_runs=0), "n_runs must be an integer"),
    (dict(losses=np.zeros((3, 2, 2)), n_runs=2), "n_runs must equal"),
    (dict(losses=[[0.1, 0.2]], rng=0), "rng must be a numpy.random.Generator"),
])
def test_exp3_rejects_bad_input(kwargs, match):
    kwargs.setdefault("rng", np.random.default_rng(0))
    with pytest.raises(ValueError, match=match):
        bandits.exp3(**kwargs)


# ---------------------------------------------------------------------------- UCB1
def _ucb1_loop(losses):
    """Reference UCB1 for one run, written with Python lists."""
    m, n = losses.shape
    totals, counts, arms = [0.0] * n, [0] * n, []
    for t in range(m):
        if t < n:
            arm = t
        else:
            index = [totals[i] / counts[i] - np.sqrt(2 * np.log(t) / counts[i]) for i in range(n)]
            arm = int(np.argmin(index))
        totals[arm] += losses[t, arm]
        counts[arm] += 1
        arms.append(arm)
    return np.array(arms)


@pytest.mark.parametrize("n, seed", SIZES)
def test_ucb1_matches_loop_reference(n, seed):
    rng = np.random.default_rng(seed)
    means = rng.random(n)
    losses = (rng.random((3, 300, n)) < means).astype(float)
    arms = bandits.ucb1(losses)
    for r in range(3):
        np.testing.assert_array_equal(arms[r], _ucb1_loop(losses[r]))
    np.testing.assert_array_equal(bandits.ucb1(losses[0])[0], arms[0])


def test_ucb1_bound_and_pull_counts():
    means, R, m = np.array([0.2, 0.4, 0.5, 0.6]), 200, 3000
    losses = (np.random.default_rng(5).random((R, m, 4)) < means).astype(float)
    arms = bandits.ucb1(losses)
    pr = bandits.pseudo_regret(means, arms)
    t = np.arange(1, m + 1)
    assert np.all(pr.mean(axis=0)[3:] <= bandits.ucb1_bound(means, t[3:]))
    gaps = means - means.min()
    counts = np.stack([(arms == i).sum(axis=1) for i in range(4)], axis=1)  # (R, n) plays
    assert np.all(counts.mean(axis=0)[1:] <= 8 * np.log(m) / gaps[1:] ** 2 + 1 + np.pi ** 2 / 3)
    np.testing.assert_allclose(pr[:, -1], counts @ gaps)


def test_ucb1_bound_closed_form():
    means = np.array([0.5, 0.3, 0.8])
    expected = 8 * np.log(100) * (1 / 0.2 + 1 / 0.5) + (1 + np.pi ** 2 / 3) * 0.7
    assert bandits.ucb1_bound(means, 100) == pytest.approx(expected, rel=1e-12)
    np.testing.assert_allclose(bandits.ucb1_bound(means, [100, 100]), [expected] * 2, rtol=1e-12)


@pytest.mark.parametrize("losses, match", [
    (np.zeros((2, 3)), "at least m >= n"),
    (-np.ones((4, 2)), "losses must lie in"),
    (np.zeros(4), "losses must have shape"),
])
def test_ucb1_rejects_bad_input(losses, match):
    with pytest.raises(ValueError, match=match):
        bandits.ucb1(losses)


def test_ucb1_bound_rejects_bad_means():
    with pytest.raises(ValueError, match="means"):
        bandits.ucb1_bound([0.2, 1.5], 10)


# -------------------------------------------------------------------------- regret
@pytest.mark.parametrize("n, seed", SIZES)
def test_regret_matches_brute_force(n, seed):
    rng = np.random.default_rng(seed)
    m, R = 40, 3
    for losses in (rng.random((m, n)), rng.random((R, m, n))):
        arms = rng.integers(0, n, size=(R, m))
        reg = bandits.regret(losses, arms)
        for r in range(R):
            L = losses if losses.ndim == 2 else losses[r]
            for t in (0, m // 2, m - 1):
                incurred = sum(L[s, arms[r, s]] for s in range(t + 1))
                best = min(L[: t + 1, i].sum() for i in range(n))
                assert reg[r, t] == pytest.approx(incurred - best, abs=1e-12)


def test_regret_of_a_single_run_and_pseudo_regret():
    losses = bandits.switching_losses(10, 3)
    np.testing.assert_allclose(bandits.regret(losses, np.ones(10, dtype=int))[-1], 0.0)
    np.testing.assert_allclose(bandits.pseudo_regret([0.1, 0.3], [0, 1, 1]), [0.0, 0.2, 0.4])


@pytest.mark.parametrize("arms, match", [
    (np.zeros(9, dtype=int), "arms must be an integer array"),
    (np.zeros(10), "arms must be an integer array"),
    (np.full(10, 3), "arms must take values"),
    (np.zeros((2, 10), dtype=int), None),
])
def test_regret_rejects_bad_arms(arms, match):
    losses = bandits.switching_losses(10, 3)
    if match is None:  # two runs against a shared table are fine
        assert bandits.regret(losses, arms).shape == (2, 10)
        with pytest.raises(ValueError, match="arms must have 3 runs"):
            bandits.regret(np.broadcast_to(losses, (3, 10, 3)), arms)
    else:
        with pytest.raises(ValueError, match=match):
            bandits.regret(losses, arms)


def test_switching_losses():
    losses = bandits.switching_losses(100, 4, switch=0.3)
    assert np.argmin(losses.sum(axis=0)) == 1
    assert np.all(losses[:30, 0] == 0) and np.all(losses[30:, 1] == 0)
    with pytest.raises(ValueError, match="switch"):
        bandits.switching_losses(10, 3, switch=1.5)
    with pytest.raises(ValueError, match="n must be an integer >= 2"):
        bandits.switching_losses(10, 1)


@pytest.mark.parametrize("call, match", [
    (lambda: bandits.exp3_bound(-1, 3), "m must take values >= 1"),
    (lambda: bandits.exp3_bound(0, 3), "m must take values >= 1"),
    (lambda: bandits.exp3_bound(np.array([10, -5]), 3), "m must take values >= 1"),
    (lambda: bandits.exp3_bound(100.5, 3), "m must be an integer"),
    (lambda: bandits.exp3_bound("100", 3), "m must be an integer"),
    (lambda: bandits.exp3_bound(100, 0), "n must take values >= 1"),
    (lambda: bandits.exp3_bound(100, True), "n must be an integer"),
    (lambda: bandits.ucb1_bound([0.2, 0.5], 0), "m must take values >= 1"),
    (lambda: bandits.ucb1_bound([0.2, 0.5], -3), "m must take values >= 1"),
    (lambda: bandits.ucb1_bound([0.2, 0.5], [[1, 2], [3]]), "m must be a rectangular"),
    (lambda: bandits.regret(np.zeros((3, 2)), [[0, 1], [1]]), "arms must be a rectangular"),
    (lambda: bandits.pseudo_regret([0.1, 0.3], np.array([0.0, np.nan])), "arms must be an integer"),
    (lambda: bandits.switching_losses(10, 3, switch="0.3"), "switch must be a finite real"),
    (lambda: bandits.exp3(np.ones((20, 3)), eta=1e308, rng=np.random.default_rng(0)), "exp3 diverged"),
])
@pytest.mark.filterwarnings("ignore:overflow:RuntimeWarning")
def test_bounds_and_helpers_reject_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_bounds_accept_integer_arrays_and_one_arm():
    np.testing.assert_allclose(bandits.exp3_bound(np.array([100, 400]), 3),
                               np.sqrt(2 * np.array([100, 400]) * 3 * np.log(3)))
    assert bandits.exp3_bound(100, 1) == 0.0
    assert bandits.ucb1_bound([0.2, 0.5], 1) == pytest.approx((1 + np.pi ** 2 / 3) * 0.3)
