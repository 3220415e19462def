"""Tests of mlnotes.online against scikit-learn and brute force, plus the chapter's bounds."""
import numpy as np
import pytest
from sklearn.linear_model import Perceptron

from mlnotes import datasets, online

SIZES = [(30, 2, 0), (200, 3, 1), (500, 5, 2)]  # (n, d, seed)


# ----------------------------------------------------------------------- perceptron
@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("epochs", [1, 2, 5])
def test_online_perceptron_matches_sklearn(n, d, seed, epochs):
    X, y, _ = datasets.separable(n=n, d=d, margin=0.05, seed=seed)
    run = online.online_perceptron(X, y, n_epochs=epochs)
    ref = Perceptron(fit_intercept=False, shuffle=False, eta0=1, max_iter=epochs, tol=None).fit(X, y)
    np.testing.assert_allclose(run.w, ref.coef_[0], atol=1e-12)


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_online_perceptron_history_is_consistent(n, d, seed):
    X, y, _ = datasets.separable(n=n, d=d, margin=0.1, seed=seed)
    run = online.online_perceptron(X, y, n_epochs=3)
    assert run.n_rounds == 3 * n and run.iterates.shape == (run.n_mistakes + 1, d)
    np.testing.assert_array_equal(run.iterates[0], np.zeros(d))
    np.testing.assert_allclose(run.iterates[-1], run.w)
    # each step adds y_t x_t of the round where the mistake happened, and it was a mistake
    idx = run.mistake_rounds % n
    np.testing.assert_allclose(np.diff(run.iterates, axis=0), y[idx, None] * X[idx], atol=1e-12)
    assert np.all(y[idx] * np.einsum("kd,kd->k", run.iterates[:-1], X[idx]) <= 0)
    assert run.mistake_rounds[0] == 0  # w = 0 makes the first round a mistake


@pytest.mark.parametrize("margin", [0.02, 0.05, 0.1, 0.2])
@pytest.mark.parametrize("seed", [0, 1])
def test_novikoff_bound_and_invariants(margin, seed):
    X, y, u = datasets.separable(n=300, d=3, margin=margin, seed=seed)
    run = online.online_perceptron(X, y, n_epochs=50)
    D, gamma = np.linalg.norm(X, axis=1).max(), np.min(y * (X @ u))
    k = np.arange(run.n_mistakes + 1)
    assert np.all(run.iterates @ u >= k * gamma - 1e-12)
    assert np.all(np.sum(run.iterates ** 2, axis=1) <= k * D ** 2 + 1e-12)
    assert run.n_mistakes <= (D / gamma) ** 2
    assert np.all(y * (X @ run.w) > 0)  # 50 epochs are enough to separate


def test_wrong_sign_update_does_not_learn():
    X, y, _ = datasets.separable(n=100, d=2, margin=0.1, seed=3)
    run = online.online_perceptron(X, -y, n_epochs=1)  # labels flipped = the sign error
    assert run.n_mistakes >= 1
    good = online.online_perceptron(X, y, n_epochs=20)
    assert np.all(y * (X @ good.w) > 0)


# ------------------------------------------------------------------------- halving
def _brute_halving(P, y):
    alive, mistakes = np.ones(P.shape[1], bool), 0
    for t in range(P.shape[0]):
        ones = np.sum(P[t, alive] == 1)
        y_hat = 1 if 2 * ones >= alive.sum() else 0
        mistakes += y_hat != y[t]
        alive &= P[t] == y[t]
    return mistakes


@pytest.mark.parametrize("T, n, seed", [(20, 8, 0), (200, 64, 1), (500, 1000, 2)])
def test_halving_matches_brute_force_and_bound(T, n, seed):
    rng = np.random.default_rng(seed)
    P = rng.integers(0, 2, size=(T, n))
    y = P[:, rng.integers(n)]  # a perfect expert
    run = online.halving(P, y)
    assert run.mistakes == _brute_halving(P, y)
    assert run.mistakes <= np.log2(n)
    assert np.all(np.isclose(run.weights.sum(axis=1), 1))


def test_halving_adversary_forces_log2_n_mistakes():
    k = 6
    P = (np.arange(2 ** k)[None, :] >> np.arange(k)[:, None]) & 1  # all 2^k bit strings
    run = online.halving(P, lambda t, y_hat: 1 - y_hat)
    assert run.mistakes == k


def test_halving_needs_a_perfect_expert():
    with pytest.raises(ValueError, match="predictions is consistent"):
        online.halving([[0, 0], [1, 1]], [1, 0])


# ------------------------------------------------------------------ weighted majority
def _brute_wm(P, y, beta):
    w, mistakes = np.ones(P.shape[1]), 0
    for t in range(P.shape[0]):
        y_hat = int(w[P[t] == 1].sum() >= w[P[t] == 0].sum())
        mistakes += y_hat != y[t]
        w[P[t] != y[t]] *= beta
    return mistakes


@pytest.mark.parametrize("T, n, seed", [(50, 5, 0), (300, 20, 1), (1000, 100, 2)])
@pytest.mark.parametrize("beta", [0.2, 0.5, 1 / np.e, 0.9])
def test_weighted_majority_matches_brute_force_and_bound(T, n, seed, beta):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size=T)
    err = rng.uniform(0.05, 0.5, size=n)
    P = np.where(rng.random((T, n)) < err, 1 - y[:, None], y[:, None])
    run = online.weighted_majority(P, y, beta)
    assert run.mistakes == _brute_wm(P, y, beta)
    np.testing.assert_array_equal(run.expert_mistakes, np.sum(P != y[:, None], axis=0))
    assert np.all(run.mistakes <= online.weighted_majority_bound(run.expert_mistakes, n, beta))


@pytest.mark.parametrize("beta", [0.5, 1 / np.e])
def test_weighted_majority_bound_against_adversary(beta):
    rng = np.random.default_rng(4)
    P = rng.integers(0, 2, size=(400, 16))
    run = online.weighted_majority(P, lambda t, y_hat: 1 - y_hat, beta)
    assert run.mistakes == 400  # wrong every round
    assert run.mistakes <= online.weighted_majority_bound(run.expert_mistakes.min(), 16, beta)


def test_weighted_majority_bound_constants():
    # beta = 1/2: 2.41 (m + log2 n); beta = 1/e: 2.63 (m + ln n)
    m, n = 7.0, 32
    b = online.weighted_majority_bound(m, n, 0.5)
    np.testing.assert_allclose(b, (m + np.log2(n)) * np.log(2) / np.log(4 / 3))
    assert abs(np.log(2) / np.log(4 / 3) - 2.41) < 0.005
    b = online.weighted_majority_bound(m, n, 1 / np.e)
    np.testing.assert_allclose(b, (m + np.log(n)) / np.log(2 * np.e / (1 + np.e)))
    assert abs(1 / np.log(2 * np.e / (1 + np.e)) - 2.63) < 0.005


# ---------------------------------------------------------------------------- Hedge
def _brute_hedge(L, eta):
    """Closed form: p_t ∝ exp(-eta L_{t-1}) with the cumulative losses before round t."""
    prev = np.vstack([np.zeros(L.shape[1]), np.cumsum(L, axis=0)[:-1]])
    W = np.exp(-eta * prev)
    return W / W.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("T, n, seed", [(10, 2, 0), (300, 10, 1), (2000, 50, 2)])
def test_hedge_matches_closed_form_and_bound(T, n, seed):
    rng = np.random.default_rng(seed)
    L = rng.random((T, n))
    eta = online.hedge_eta(T, n)
    run = online.hedge(L, eta)
    np.testing.assert_allclose(run.p, _brute_hedge(L, eta), atol=1e-12)
    direct = np.sum(run.p * L) - L.sum(axis=0).min()
    np.testing.assert_allclose(run.regret[-1], direct, atol=1e-9)
    t = np.arange(1, T + 1)
    assert np.all(run.regret <= online.hedge_bound(t, n, eta))
    np.testing.assert_allclose(online.hedge_bound(T, n, eta), np.sqrt(T * np.log(n) / 2))


@pytest.mark.parametrize("T, n", [(500, 2), (2000, 10)])
def test_hedge_bound_against_adaptive_adversary(T, n):
    def adversary(t, p):  # loss 1 on the expert Hedge currently trusts most
        return (p == p.max()).astype(float)

    eta = online.hedge_eta(T, n)
    run = online.hedge(adversary, eta, n_rounds=T, n_experts=n)
    assert np.all(run.regret <= online.hedge_bound(np.arange(1, T + 1), n, eta))
    np.testing.assert_allclose(run.p, _brute_hedge(run.losses, eta), atol=1e-12)


def test_follow_the_leader_fails_where_hedge_does_not():
    T = 1000
    L = np.zeros((T, 2))
    L[0], L[1::2], L[2::2] = [0.5, 0], [0, 1], [1, 0]
    assert online.hedge(L, 50.0).regret[-1] > 0.45 * T  # nearly follow-the-leader
    eta = online.hedge_eta(T, 2)
    assert online.hedge(L, eta).regret[-1] <= np.sqrt(T * np.log(2) / 2)


# ---------------------------------------------------------------------- bad inputs
_X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
_y = np.array([1, -1, 1])


@pytest.mark.parametrize("call, message", [
    (lambda: online.online_perceptron(_X[0], _y), "X must be a non-empty 2-D"),
    (lambda: online.online_perceptron([[np.nan, 1.0]], [1]), "X must be finite"),
    (lambda: online.online_perceptron(_X, [1, 0, 1]), "y must contain only the labels"),
    (lambda: online.online_perceptron(_X, _y[:2]), "y must have shape"),
    (lambda: online.online_perceptron(_X, _y, n_epochs=0), "n_epochs must be"),
    (lambda: online.online_perceptron(_X, _y, n_epochs=1.5), "n_epochs must be"),
    (lambda: online.halving([[0, 2]], [1]), "predictions must contain only"),
    (lambda: online.halving([[0, 1]], [1, 0]), "y must have shape"),
    (lambda: online.halving([[0, 1]], lambda t, y_hat: 2), "y must return a label"),
    (lambda: online.weighted_majority([[0, 1]], [1], beta=1.0), "beta must lie in"),
    (lambda: online.weighted_majority([[0, 1]], [1], beta=0.0), "beta must be a positive"),
    (lambda: online.weighted_majority([[0, 1]], [-1]), "y must contain only the labels"),
    (lambda: online.weighted_majority_bound(-1, 3), "expert_mistakes must be non-negative"),
    (lambda: online.weighted_majority_bound(1, 0), "n must be"),
    (lambda: online.weighted_majority_bound(1, 3, beta=1.5), "beta must lie in"),
    (lambda: online.hedge([[0.0, 1.5]], 0.5), "losses must lie in"),
    (lambda: online.hedge([[0.0, np.nan]], 0.5), "losses must be finite"),
    (lambda: online.hedge([0.0, 1.0], 0.5), "losses must be a non-empty 2-D"),
    (lambda: online.hedge([[0.0, 1.0]], -0.5), "eta must be a positive"),
    (lambda: online.hedge(lambda t, p: p, 0.5), "n_rounds must be"),
    (lambda: online.hedge(lambda t, p: -p, 0.5, n_rounds=2, n_experts=2), "losses must lie in"),
    (lambda: online.hedge(lambda t, p: np.zeros(3), 0.5, n_rounds=2, n_experts=2), "shape \\(2,\\)"),
    (lambda: online.hedge_eta(10, 1), "n_experts must be"),
    (lambda: online.hedge_eta(0, 3), "n_rounds must be"),
    (lambda: online.hedge_bound(-1, 3, 0.5), "t must be non-negative"),
    (lambda: online.hedge_bound(1, 3, 0.0), "eta must be a positive"),
])
def test_bad_inputs_raise(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_reprs_have_no_addresses():
    X, y, _ = datasets.separable(n=20, d=2, margin=0.1, seed=0)
    r = online.online_perceptron(X, y)
    assert repr(r).startswith("PerceptronRun(n_rounds=20,") and "0x" not in repr(r)
    run = online.weighted_majority([[1, 0], [1, 1]], [0, 1])  # a tie predicts 1
    assert repr(run) == "ExpertsRun(method='weighted_majority', T=2, n=2, mistakes=1)"
    assert repr(online.hedge([[0.0, 1.0]], 0.5)) == "HedgeRun(T=1, n=2, eta=0.5)"
