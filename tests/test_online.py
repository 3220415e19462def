"""Tests of mlnotes.online against scikit-learn, scipy and brute force, plus the chapter's bounds."""
import numpy as np
import pytest
import scipy.optimize
from hypothesis import given, settings, strategies as st
from sklearn.linear_model import Perceptron, SGDClassifier

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


# ------------------------------------------------------------------ proximal step
def _prox_objective(v, w, x, y, lam):
    return max(0.0, 1.0 - y * (v @ x)) + lam * np.sum((v - w) ** 2)


def _nelder_mead(f, v0, restarts=3):
    for _ in range(restarts):  # restarts rebuild the simplex, which gets Nelder-Mead past the kink
        res = scipy.optimize.minimize(f, v0, method="Nelder-Mead",
                                      options={"xatol": 1e-12, "fatol": 1e-14, "maxiter": 20000,
                                               "maxfev": 40000, "adaptive": True})
        v0 = res.x
    return res


@pytest.mark.parametrize("seed", range(8))
def test_proximal_step_matches_nelder_mead(seed):
    rng = np.random.default_rng(seed)
    w, x = rng.standard_normal(3), rng.standard_normal(3)
    y, lam = rng.choice([-1, 1]), 10.0 ** rng.uniform(-2, 0.5)
    step = online.proximal_hinge_step(w, x, y, lam)
    f = lambda v: _prox_objective(v, w, x, y, lam)  # noqa: E731
    res = _nelder_mead(f, w.copy())
    # the closed form is never worse than the numerical minimum (up to rounding), and
    # Nelder-Mead on a kinked objective reaches it to about 1e-9 in three dimensions
    assert f(step) <= res.fun + 1e-12
    np.testing.assert_allclose(f(step), res.fun, atol=1e-7)
    np.testing.assert_allclose(step, res.x, atol=1e-4)


def test_proximal_step_the_plan_example():
    # margin -1.5, ||x||^2 = 3.5, lambda = 0.01: the clipped step's objective is
    # lambda (1 - margin)^2 / ||x||^2 = 0.0179; the notes' step overshoots to ||x||^2/(4 lambda) = 87.5
    x = np.array([np.sqrt(3.5), 0.0])
    w = np.array([-1.5 / np.sqrt(3.5), 0.7])
    lam, y = 0.01, 1
    f = lambda v: _prox_objective(v, w, x, y, lam)  # noqa: E731
    step = online.proximal_hinge_step(w, x, y, lam)
    np.testing.assert_allclose(f(step), 0.01 * 2.5 ** 2 / 3.5, rtol=1e-12)
    assert round(f(step), 4) == 0.0179
    np.testing.assert_allclose(f(w + y * x / (2 * lam)), 87.5, rtol=1e-12)
    np.testing.assert_allclose(_nelder_mead(f, w.copy()).fun, f(step), atol=1e-8)


def test_proximal_step_cases():
    w, x = np.array([0.2, -0.1]), np.array([1.0, 2.0])
    assert np.array_equal(online.proximal_hinge_step(w, x, 1, 0.1), w + 1 / 5 * x)  # clipped: margin 1
    assert np.isclose(online.proximal_hinge_step(w, x, 1, 0.1) @ x, 1.0)
    big = online.proximal_hinge_step(w, x, 1, 10.0)  # 1/(2 lam) = 0.05 < (1 - 0)/5: the full step
    np.testing.assert_allclose(big, w + x / 20, atol=1e-15)
    np.testing.assert_allclose(online.proximal_hinge_step(w, x, -1, 0.1),  # (x, -1) is (-x, +1)
                               online.proximal_hinge_step(w, -x, 1, 0.1), atol=1e-15)
    assert np.array_equal(online.proximal_hinge_step(np.array([1.0, 1.0]), x, 1, 0.1), [1.0, 1.0])  # margin 3
    assert np.array_equal(online.proximal_hinge_step(w, np.zeros(2), 1, 0.1), w)  # x = 0: nothing to gain


@pytest.mark.parametrize("lam", [0.01, 0.3, 5.0])
def test_passes_of_proximal_steps_match_sklearn_pa1(lam):
    X, y, _ = datasets.separable(n=300, d=4, margin=0.0, seed=5)
    y = np.where(np.random.default_rng(5).random(300) < 0.1, -y, y)
    w = np.zeros(4)
    for x_t, y_t in zip(X, y):
        w = online.proximal_hinge_step(w, x_t, y_t, lam)
    ref = SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1", eta0=1 / (2 * lam),
                        fit_intercept=False, shuffle=False, max_iter=1, tol=None).fit(X, y)
    np.testing.assert_allclose(w, ref.coef_[0], atol=1e-12)  # same arithmetic, rounding only


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), d=st.integers(1, 6), log_lam=st.floats(-3, 2))
def test_proximal_step_satisfies_the_optimality_condition(seed, d, log_lam):
    rng = np.random.default_rng(seed)
    w, x, y, lam = rng.standard_normal(d), rng.standard_normal(d), rng.choice([-1, 1]), 10.0 ** log_lam
    step = online.proximal_hinge_step(w, x, y, lam)
    a = 2 * lam * y * ((step - w) @ x) / (x @ x)  # 2 lam (step - w) = a y x with a in [0, 1]
    np.testing.assert_allclose(2 * lam * (step - w), a * y * x, atol=1e-10)
    margin = y * (step @ x)
    assert -1e-12 <= a <= 1 + 1e-12
    if margin < 1 - 1e-9:
        assert abs(a - 1) < 1e-9
    if margin > 1 + 1e-9:
        assert abs(a) < 1e-9
    f = lambda v: _prox_objective(v, w, x, y, lam)  # noqa: E731
    for v in step + 1e-3 * rng.standard_normal((20, d)):  # a minimiser: no nearby point is lower
        assert f(step) <= f(v) + 1e-12


# ----------------------------------------------------------- online gradient descent
def _noisy(n, d, seed, flip=0.1):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X @ rng.standard_normal(d) > 0, 1, -1)
    return X, np.where(rng.random(n) < flip, -y, y)


@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("eta", [0.01, 0.2, 1.0, 5.0])
def test_ogd_matches_one_pass_of_sgdclassifier(n, d, seed, eta):
    X, y = _noisy(n, d, seed)
    run = online.online_gradient_descent(X, y, eta)
    ref = SGDClassifier(loss="hinge", penalty=None, learning_rate="constant", eta0=eta,
                        fit_intercept=False, shuffle=False, max_iter=1, tol=None).fit(X, y)
    # sklearn adds eta*y*x on the same rounds (it also steps at a margin of exactly 1,
    # which has probability 0 here), so the weights agree to rounding
    np.testing.assert_allclose(run.w, ref.coef_[0], atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("U", [0.3, 1.0, 5.0])
def test_ogd_regret_bound(seed, U):
    X, y = _noisy(500, 3, seed, flip=0.2)
    R, T = np.linalg.norm(X, axis=1).max(), len(y)
    run = online.online_gradient_descent(X, y, U / (R * np.sqrt(T)))
    rng = np.random.default_rng(seed + 100)
    u = rng.standard_normal((2000, 3))
    u *= U * rng.random((2000, 1)) ** (1 / 3) / np.linalg.norm(u, axis=1, keepdims=True)  # uniform in the ball
    regret = run.losses.sum() - np.maximum(0, 1 - y[:, None] * (X @ u.T)).sum(axis=0)
    assert np.all(regret <= U * R * np.sqrt(T))


def test_ogd_history_and_conservative_mode():
    X, y = _noisy(300, 4, 7)
    run = online.online_gradient_descent(X, y, 0.3)
    np.testing.assert_array_equal(run.iterates[0], 0)
    np.testing.assert_allclose(run.scores, np.einsum("td,td->t", run.iterates[:-1], X), atol=1e-12)
    steps = y * run.scores < 1
    np.testing.assert_allclose(np.diff(run.iterates, axis=0), 0.3 * (steps * y)[:, None] * X, atol=1e-12)
    assert run.n_updates == steps.sum()
    perc = online.online_perceptron(X, y)
    for eta in (0.001, 1.0, 1000.0):
        cons = online.online_gradient_descent(X, y, eta, conservative=True)
        np.testing.assert_array_equal(np.flatnonzero(y * cons.scores <= 0), perc.mistake_rounds)
        np.testing.assert_allclose(cons.w, eta * perc.w, rtol=1e-12, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), log_eta=st.floats(-3, 1), radius=st.floats(0.0, 20.0))
def test_ogd_first_inequality_holds_for_every_eta_and_u(seed, log_eta, radius):
    X, y = _noisy(80, 2, seed, flip=0.3)
    eta = 10.0 ** log_eta
    run = online.online_gradient_descent(X, y, eta)
    u = radius * np.array([np.cos(seed), np.sin(seed)])
    sum_z2 = np.sum(np.sum(X ** 2, axis=1) * (y * run.scores < 1))
    regret = run.losses.sum() - np.maximum(0, 1 - y * (X @ u)).sum()
    assert regret <= radius ** 2 / (2 * eta) + eta / 2 * sum_z2 + 1e-9


# ------------------------------------------------------------------ disjunctions
def _disjunction(T, n, relevant, seed):
    rng = np.random.default_rng(seed)
    p = 1 - 0.5 ** (1 / len(relevant))
    X = (rng.random((T, n)) < p).astype(float)
    return X, X[:, relevant].max(axis=1).astype(int)


def _brute_winnow(X, y, theta):
    w, mistakes = np.ones(X.shape[1]), []
    for t in range(len(y)):
        y_hat = int(w @ X[t] >= theta)
        if y_hat != y[t]:
            w = w * 2.0 ** ((y[t] - y_hat) * X[t])
            mistakes.append(t)
    return w, mistakes


@pytest.mark.parametrize("T, n, k, seed", [(50, 5, 1, 0), (400, 30, 3, 1), (1500, 200, 5, 2), (3000, 64, 2, 3)])
@pytest.mark.parametrize("threshold", [None, 2.5, 40.0])
def test_winnow_matches_round_by_round_loop(T, n, k, seed, threshold):
    X, y = _disjunction(T, n, list(range(k)), seed)
    y = np.where(np.random.default_rng(seed).random(T) < 0.03, 1 - y, y)  # noise: any labels must work
    run = online.winnow(X, y, threshold)
    w, mistakes = _brute_winnow(X, y, n if threshold is None else threshold)
    np.testing.assert_array_equal(run.w, w)
    np.testing.assert_array_equal(run.mistake_rounds, mistakes)
    np.testing.assert_array_equal(run.predict(X), (X @ run.w >= run.threshold).astype(int))


@pytest.mark.parametrize("seed", range(30))
def test_winnow_mistake_bound(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(4, 700)), int(rng.integers(1, 5))
    X, y = _disjunction(600, n, list(rng.choice(n, k, replace=False)), seed)
    run = online.winnow(X, y)
    assert run.promotions <= k * (np.log2(n) + 1)
    assert run.demotions < 2 * run.promotions + 2
    assert run.n_mistakes <= 3 * k * (np.log2(n) + 1) + 2


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 60), T=st.integers(1, 200))
def test_winnow_log_weights_are_the_signed_sum_of_mistakes(seed, n, T):
    rng = np.random.default_rng(seed)
    X, y = rng.integers(0, 2, (T, n)), rng.integers(0, 2, T)  # arbitrary labels
    run = online.winnow(X, y)
    alpha = np.where(y[run.mistake_rounds] == 1, 1, -1)
    np.testing.assert_array_equal(np.log2(run.w), alpha @ X[run.mistake_rounds])
    assert run.promotions + run.demotions == run.n_mistakes


@pytest.mark.parametrize("T, n, k, seed", [(100, 5, 1, 0), (800, 40, 3, 1), (2000, 150, 4, 2)])
def test_perceptron_disjunction_matches_sklearn_and_bound(T, n, k, seed):
    X, y = _disjunction(T, n, list(range(k)), seed)
    run = online.perceptron_disjunction(X, y)
    ref = Perceptron(fit_intercept=True, shuffle=False, eta0=1, max_iter=1, tol=None).fit(X, y)
    np.testing.assert_allclose(run.w, np.r_[ref.coef_[0], ref.intercept_], atol=1e-12)
    plain = online.online_perceptron(np.hstack([X, np.ones((T, 1))]), 2 * y - 1)
    np.testing.assert_array_equal(run.mistake_rounds, plain.mistake_rounds)
    np.testing.assert_array_equal(run.iterates, plain.iterates)
    assert run.n_mistakes <= (4 * k + 1) * (n + 1)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 40), k=st.integers(1, 4))
def test_perceptron_disjunction_bound_on_random_targets(seed, n, k):
    k = min(k, n)
    rng = np.random.default_rng(seed)
    X, y = _disjunction(300, n, list(rng.choice(n, k, replace=False)), seed)
    assert online.perceptron_disjunction(X, y).n_mistakes <= (4 * k + 1) * (n + 1)


# ------------------------------------------------------------- kernel perceptron
def _all_subsets(X):
    A = (np.arange(2 ** X.shape[1])[:, None] >> np.arange(X.shape[1])) & 1
    return np.prod(np.where(A[None] == 1, X[:, None, :], 1.0), axis=2)


@pytest.mark.parametrize("n", range(1, 11))
def test_anova_kernel_is_the_inner_product_of_all_monomials(n):
    rng = np.random.default_rng(n)
    X, Y = rng.uniform(-1, 1, (7, n)), rng.uniform(-1, 1, (4, n))
    # at most 2^n terms of size <= 1 each: rounding below 2^n * 1e-16
    np.testing.assert_allclose(online.anova_kernel(X, Y), _all_subsets(X) @ _all_subsets(Y).T,
                               rtol=1e-12, atol=1e-12)
    K = online.anova_kernel(X)
    np.testing.assert_allclose(K, _all_subsets(X) @ _all_subsets(X).T, rtol=1e-12, atol=1e-12)
    assert np.array_equal(K, K.T)
    B = rng.integers(0, 2, (6, n)).astype(float)
    np.testing.assert_array_equal(online.anova_kernel(B), 2.0 ** (B @ B.T))  # Boolean: 2^(shared ones)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 7), scale=st.floats(0.1, 3.0))
def test_anova_kernel_property(seed, n, scale):
    rng = np.random.default_rng(seed)
    X, Y = scale * rng.standard_normal((3, n)), scale * rng.standard_normal((5, n))
    expected = _all_subsets(X) @ _all_subsets(Y).T
    np.testing.assert_allclose(online.anova_kernel(X, Y), expected, rtol=1e-10,
                               atol=1e-12 * np.prod(1 + np.abs(X).max(0) * np.abs(Y).max(0)))


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_kernel_perceptron_with_the_linear_kernel_is_the_perceptron(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, (n, d)).astype(float)  # integer data: scores are exact, ties included
    y = np.where(X @ rng.standard_normal(d) > 0, 1, -1)
    kp = online.kernel_perceptron(X @ X.T, y)
    run = online.online_perceptron(X, y)
    np.testing.assert_array_equal(kp.mistake_rounds, run.mistake_rounds)
    np.testing.assert_allclose(kp.alpha @ X, run.w, atol=1e-12)


def test_kernel_perceptron_with_the_anova_kernel_and_its_bound():
    rng = np.random.default_rng(11)
    X = rng.integers(0, 2, (400, 7)).astype(float)
    terms = [[0, 3], [1, 2, 5]]
    y = np.any([X[:, A].min(axis=1) == 1 for A in terms], axis=0).astype(int)
    K = online.anova_kernel(X)
    kp = online.kernel_perceptron(K, 2 * y - 1)
    primal = online.online_perceptron(_all_subsets(X), 2 * y - 1)
    np.testing.assert_array_equal(kp.mistake_rounds, primal.mistake_rounds)
    assert kp.n_mistakes <= (4 * len(terms) + 1) * 2 ** 7


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), T=st.integers(1, 60), d=st.integers(1, 5))
def test_kernel_perceptron_property_linear_kernel(seed, T, d):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, (T, d)).astype(float)
    y = rng.choice([-1, 1], T)  # any labels, separable or not
    kp = online.kernel_perceptron(X @ X.T, y)
    np.testing.assert_array_equal(kp.mistake_rounds, online.online_perceptron(X, y).mistake_rounds)
    assert set(np.flatnonzero(kp.alpha)) == set(kp.mistake_rounds.tolist())


# ---------------------------------------------------------------- online to batch
def test_online_to_batch_stopping_time_and_hypothesis():
    X, y = _disjunction(50, 12, [0, 5], 3)
    rng = np.random.default_rng(0)
    stops = []
    for _ in range(3000):
        h, t = online.online_to_batch(_winnow_h, X, y, rng)
        stops.append(t)
    stops = np.array(stops)
    assert stops.min() == 1 and stops.max() == 50
    counts = np.bincount(stops, minlength=51)[1:]
    # 3000 uniform draws on 50 values: each count is Binomial(3000, 1/50), mean 60, sd 7.7
    assert np.all(np.abs(counts - 60) < 6 * 7.7)
    h, t = online.online_to_batch(_winnow_h, X, y, np.random.default_rng(1))
    np.testing.assert_array_equal(h(X), online.winnow(X[:t], y[:t]).predict(X))


@pytest.mark.parametrize("seed", range(3))
def test_online_to_batch_error_is_below_B_over_T(seed):
    n, k, T, reps = 16, 2, 100, 400
    B = 3 * k * (np.log2(n) + 1) + 2  # 32, so B/T = 0.32
    rng = np.random.default_rng(seed)
    errors = 0
    for r in range(reps):
        X, y = _disjunction(T + 1, n, [0, 1], seed * 1000 + r)
        h, _ = online.online_to_batch(_winnow_h, X[:T], y[:T], rng)
        errors += int(h(X[T:])[0] != y[T])
    # errors ~ Binomial(reps, p) with p <= B/T; the 1 - 1e-6 quantile is the tolerance
    import scipy.stats
    assert errors <= scipy.stats.binom.ppf(1 - 1e-6, reps, B / T)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), T=st.integers(1, 40))
def test_online_to_batch_property(seed, T):
    X, y = _disjunction(T, 6, [2], seed)
    h, t = online.online_to_batch(_winnow_h, X, y, np.random.default_rng(seed))
    assert 1 <= t <= T
    out = h(X)
    assert out.shape == (T,)
    np.testing.assert_array_equal(out, online.winnow(X[:t], y[:t]).predict(X))


# ---------------------------------------------------------------------- bad inputs
_X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
_y = np.array([1, -1, 1])


def _winnow_h(X, y):
    return online.winnow(X, y).predict


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
    (lambda: online.weighted_majority([[0, 1]], [1], beta=0.0), "beta must lie in \\(0, 1\\)"),
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
    (lambda: online.proximal_hinge_step([0.0, 1.0], [1.0], 1, 0.5), "x must have shape \\(2,\\)"),
    (lambda: online.proximal_hinge_step([[0.0, 1.0]], [1.0, 0.0], 1, 0.5), "w must have shape"),
    (lambda: online.proximal_hinge_step([0.0, np.inf], [1.0, 0.0], 1, 0.5), "w must be finite"),
    (lambda: online.proximal_hinge_step([0.0, 1.0], [1.0, 0.0], 0, 0.5), "y must be one of -1, 1"),
    (lambda: online.proximal_hinge_step([0.0, 1.0], [1.0, 0.0], [1], 0.5), "y must be one of -1, 1"),
    (lambda: online.proximal_hinge_step([0.0, 1.0], [1.0, 0.0], 1, 0.0), "lam must be a positive"),
    (lambda: online.online_gradient_descent(_X, [1, 0, 1], 0.1), "y must contain only the labels"),
    (lambda: online.online_gradient_descent(_X, _y, 0.0), "eta must be a positive"),
    (lambda: online.online_gradient_descent(_X, _y, np.nan), "eta must be a positive"),
    (lambda: online.online_gradient_descent(_X[0], _y, 0.1), "X must be a non-empty 2-D"),
    (lambda: online.online_gradient_descent(_X, _y, 0.1, conservative=1), "conservative must be"),
    (lambda: online.winnow([[0, 2]], [1]), "X must contain only 0 and 1"),
    (lambda: online.winnow([[0.0, 0.5]], [1]), "X must contain only 0 and 1"),
    (lambda: online.winnow([[0, 1]], [-1]), "y must contain only the labels 0, 1"),
    (lambda: online.winnow([[0, 1]], [1, 0]), "y must have shape"),
    (lambda: online.winnow([[0, 1]], [1], threshold=0), "threshold must be a positive"),
    (lambda: online.winnow([[0, 1]], [1], threshold="n"), "threshold must be a positive"),
    (lambda: online.perceptron_disjunction([[0, 2]], [1]), "X must contain only 0 and 1"),
    (lambda: online.perceptron_disjunction([[0, 1]], [2]), "y must contain only the labels 0, 1"),
    (lambda: online.perceptron_disjunction([0, 1], [1]), "X must be a non-empty 2-D"),
    (lambda: online.anova_kernel([[1.0, 2.0]], [[1.0]]), "Y must have 2 columns"),
    (lambda: online.anova_kernel([[1.0, np.nan]]), "X must be finite"),
    (lambda: online.anova_kernel([1.0, 2.0]), "X must be a non-empty 2-D"),
    (lambda: online.anova_kernel([[1.0]], [1.0]), "Y must be a non-empty 2-D"),
    (lambda: online.kernel_perceptron([[1.0, 0.0]], [1]), "K must be a non-empty square"),
    (lambda: online.kernel_perceptron([[1.0, 0.5], [0.0, 1.0]], [1, -1]), "K must be symmetric"),
    (lambda: online.kernel_perceptron([[1.0, np.nan], [np.nan, 1.0]], [1, -1]), "K must be finite"),
    (lambda: online.kernel_perceptron(np.eye(2), [1, 0]), "y must contain only the labels -1, 1"),
    (lambda: online.kernel_perceptron(np.eye(2), [1]), "y must have shape"),
    (lambda: online.online_to_batch("winnow", [[0, 1]], [1], np.random.default_rng(0)), "algorithm must be callable"),
    (lambda: online.online_to_batch(lambda X, y: None, [[0, 1]], [1], np.random.default_rng(0)),
     "hypothesis h\\(X_new\\) returned by algorithm must be callable"),
    (lambda: online.online_to_batch(_winnow_h, [[0, 1]], [1, 0], np.random.default_rng(0)), "y must have shape"),
    (lambda: online.online_to_batch(_winnow_h, [[0, 1]], [1], 0), "rng must be a numpy.random.Generator"),
    (lambda: online.online_to_batch(_winnow_h, [[0, np.nan]], [1], np.random.default_rng(0)), "X must be finite"),
    (lambda: online.online_to_batch(lambda X, y: (lambda Z: np.zeros(len(Z) + 1)), [[0, 1]], [1],
                                    np.random.default_rng(0))[0]([[0, 1]]),
     "hypothesis h of algorithm must return an array of shape \\(1,\\)"),
    (lambda: online.online_to_batch(lambda X, y: (lambda Z: np.array(["a"] * len(Z))), [[0, 1]], [1],
                                    np.random.default_rng(0))[0]([[0, 1]]),
     "returned by the hypothesis h of algorithm must be numeric"),
    (lambda: online.online_to_batch(_winnow_h, [[0, 1]], [1], np.random.default_rng(0))[0]([0, 1]),
     "X_new must be a non-empty 2-D"),
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
    assert repr(online.online_gradient_descent(_X, _y, 0.5)) == "OGDRun(T=3, d=2, eta=0.5, hinge loss=3.0000)"
    assert repr(online.winnow([[1, 0], [1, 1]], [1, 1])) == \
        "WinnowRun(T=2, n=2, mistakes=1, promotions=1, demotions=0)"
    assert repr(online.kernel_perceptron(np.eye(2), [1, -1])) == "KernelPerceptronRun(T=2, n_mistakes=2)"


# ------------------------------------------------------------------ bad input (issue #16)
@pytest.mark.parametrize("call, message", [
    (lambda: online.hedge([[0.0, 1.0]], 0.5, n_rounds=2), "n_rounds must be one of None, 1"),
    (lambda: online.hedge([[0.0, 1.0]], 0.5, n_experts="2"), "n_experts must be one of None, 2"),
    (lambda: online.hedge(lambda t, p: "0.5", 0.5, n_rounds=2, n_experts=2),
     "returned by losses must be numeric"),
    (lambda: online.hedge(lambda t, p: [[0.1, 0.2], [0.3]], 0.5, n_rounds=2, n_experts=2),
     "returned by losses must be a rectangular"),
    (lambda: online.hedge(lambda t, p: np.full(2, np.nan), 0.5, n_rounds=2, n_experts=2),
     "returned by losses must be finite"),
    (lambda: online.hedge(lambda t, p: np.zeros(3), 0.5, n_rounds=2, n_experts=2),
     "losses must return an array of shape \\(2,\\)"),
    (lambda: online.hedge(np.ones((3, 2)), 1e308), "hedge diverged"),
    (lambda: online.halving([[0, 1]], lambda t, y_hat: np.array([0, 1])), "y must return an array of shape"),
    (lambda: online.halving([[0, 1]], lambda t, y_hat: "1"), "returned by y must be numeric"),
    (lambda: online.weighted_majority([[0, 1]], lambda t, y_hat: np.nan), "returned by y must be finite"),
    (lambda: online.weighted_majority([[0, 1]], [1], beta="0.5"), "beta must be a finite real"),
    (lambda: online.weighted_majority_bound(1, 3, beta=True), "beta must be a finite real"),
    (lambda: online.online_gradient_descent(_X, _y, 0.1, conservative="no"), "conservative must be True"),
    (lambda: online.proximal_hinge_step([0.0, 1.0], [1.0, 0.0], True, 0.5), "y must be one of -1, 1"),
    (lambda: online.winnow([[0, 1]], [1]).predict([[0, 1, 1]]), "X must have 2 columns"),
    (lambda: online.online_to_batch(_winnow_h, [[0, 1]], [np.nan], np.random.default_rng(0)), "y must be finite"),
    (lambda: online.online_to_batch(_winnow_h, [[0, 1], [1, 0]], [[1], [0, 1]], np.random.default_rng(0)),
     "y must be a rectangular"),
])
@pytest.mark.filterwarnings("ignore:overflow:RuntimeWarning")
def test_bad_inputs_raise_issue_16(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_valid_calls_unchanged_issue_16():
    """A table with matching n_rounds / n_experts, an adversary returning numpy or bool labels,
    and online_to_batch passing y to the learner as given (integers stay integers)."""
    L = np.array([[0.0, 1.0], [1.0, 0.0]])
    np.testing.assert_array_equal(online.hedge(L, 0.5, n_rounds=2, n_experts=2).p, online.hedge(L, 0.5).p)
    run = online.halving([[0, 1], [1, 1]], lambda t, y_hat: np.int64(1))
    assert run.y.tolist() == [1, 1] and run.mistakes == 0
    assert online.weighted_majority([[0, 1]], lambda t, y_hat: True).y.tolist() == [1]
    seen = {}

    def learner(X, y):
        seen["dtype"] = y.dtype
        return lambda Z: np.zeros(len(Z), dtype=int)

    h, _ = online.online_to_batch(learner, [[0, 1], [1, 0]], [1, 0], np.random.default_rng(0))
    assert seen["dtype"].kind == "i" and h([[0, 1]]).dtype.kind == "i"


# ------------------------------------------------------- weighted-average forecaster
def _brute_weighted_average(X, y, eta, loss):
    """Closed form v_t ∝ exp(-eta L_{t-1}), losses from scipy's rel_entr, and its predictions."""
    from scipy.special import logsumexp, rel_entr
    ell = (rel_entr(y[:, None], X) + rel_entr(1 - y[:, None], 1 - X)) if loss == "entropic" else (y[:, None] - X) ** 2
    prev = -eta * np.vstack([np.zeros(X.shape[1]), np.cumsum(ell, axis=0)[:-1]])
    V = np.exp(prev - logsumexp(prev, axis=1, keepdims=True))
    return V, np.sum(V * X, axis=1), ell


@pytest.mark.parametrize("T, n, seed, loss, eta", [(5, 2, 0, "entropic", 1.0), (300, 8, 1, "entropic", 0.7),
                                                   (300, 8, 2, "square", 0.5), (1000, 30, 3, "square", 0.2)])
def test_weighted_average_matches_closed_form_and_bound(T, n, seed, loss, eta):
    rng = np.random.default_rng(seed)
    X, y = rng.random((T, n)), rng.random(T)
    run = online.weighted_average(X, y, eta, loss)
    V, y_hat, ell = _brute_weighted_average(X, y, eta, loss)
    np.testing.assert_allclose(run.v, V, atol=1e-12)
    np.testing.assert_allclose(run.y_hat, y_hat, atol=1e-12)
    np.testing.assert_allclose(run.expert_loss, np.cumsum(ell, axis=0), rtol=1e-12, atol=1e-12)
    assert np.all(run.regret <= online.weighted_average_bound(n, eta, loss) + 1e-9)


def test_weighted_average_entropic_is_the_bayes_mixture():
    # log loss, eta = 1, binary outcomes: total loss = -ln((1/n) Σ_i Π_t p_i(y_t)), and the
    # regret identity R_T = ln n + ln v_{T+1, best}
    from scipy.special import logsumexp
    rng = np.random.default_rng(4)
    T, n = 500, 6
    y = (rng.random(T) < 0.4).astype(float)
    X = np.clip(rng.random((T, n)), 0.02, 0.98)
    run = online.weighted_average(X, y, 1.0)
    log_lik = np.sum(np.log(np.where(y[:, None] == 1, X, 1 - X)), axis=0)
    np.testing.assert_allclose(run.learner_loss[-1], np.log(n) - logsumexp(log_lik), rtol=1e-12)
    np.testing.assert_allclose(run.regret[-1], np.log(n) + log_lik.max() - logsumexp(log_lik), atol=1e-9)


def test_weighted_average_adaptive_outcomes_and_the_eta_condition():
    X = np.tile([0.0, 1.0], (500, 1))
    flip = lambda t, y_hat: float(y_hat < 0.5)  # noqa: E731
    ok = online.weighted_average(X, flip, 0.5, "square")
    assert np.all(ok.regret <= online.weighted_average_bound(2, 0.5, "square"))
    assert np.all((ok.y == 1) == (ok.y_hat < 0.5))
    bad = online.weighted_average(X, flip, 2.0, "square")      # beyond exp-concavity: linear regret
    assert bad.regret[-1] > 10 * np.log(2) / 2
    # a perfect expert (predicting 0/1) makes the others' entropic losses infinite at times
    y = (np.random.default_rng(5).random(200) < 0.5).astype(float)
    run = online.weighted_average(np.column_stack([y, 1 - y, np.full(200, 0.5)]), y, 1.0)
    assert run.expert_loss[-1, 0] == 0 and np.isinf(run.expert_loss[-1, 1])
    np.testing.assert_allclose(run.regret[-1], np.log(3) - np.log(1 + 2.0 ** -200), atol=1e-12)


@pytest.mark.parametrize("call, message", [
    (lambda: online.weighted_average([[0.2, 1.5]], [1.0], 1.0), "predictions must lie in"),
    (lambda: online.weighted_average([[0.2, 0.5]], [1.0, 0.0], 1.0), "y must have shape"),
    (lambda: online.weighted_average([[0.2, 0.5]], [-0.1], 1.0), "y must lie in"),
    (lambda: online.weighted_average([[0.2, 0.5]], lambda t, y_hat: 2.0, 1.0), "y must return an outcome"),
    (lambda: online.weighted_average([[0.2, 0.5]], [1.0], 0.0), "eta must be a positive"),
    (lambda: online.weighted_average([[0.2, 0.5]], [1.0], 1.0, loss="hinge"), "loss must be one of"),
    (lambda: online.weighted_average([[0.0, 0.0]], [1.0], 1.0), "every expert in predictions has infinite loss"),
    (lambda: online.weighted_average_bound(3, 0.6, "square"), "eta must"),
    (lambda: online.weighted_average_bound(3, 1.5), "eta must"),
    (lambda: online.weighted_average_bound(0, 0.5), "n_experts must be"),
])
def test_weighted_average_bad_inputs(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_weighted_average_repr():
    run = online.weighted_average([[0.2, 0.5]], [1.0], 1.0)
    assert repr(run) == "WeightedAverageRun(loss='entropic', T=1, n=2, eta=1)"


# ------------------------------------------------------------ overflow and kernels (review)
def test_overflow_is_reported_not_returned():
    # each used to return a plausible-looking result computed from NaN or inf
    with pytest.raises(ValueError, match="rescale X"):            # perceptron: NaN score read as "no mistake"
        online.online_perceptron(np.array([[1e308, 1e308], [1e308, -1e308]]), [1, -1], n_epochs=3)
    with pytest.raises(ValueError, match="rescale"):              # OGD: weights inf/NaN, hinge loss inf
        online.online_gradient_descent(np.full((2, 2), 1e308), [1, -1], 1e10)
    with pytest.raises(ValueError, match="rescale w and x"):      # proximal step: NaN step length
        online.proximal_hinge_step([1e308, 0.0], [1e308, 0.0], -1, 0.5)
    with pytest.raises(ValueError, match="rescale X"):            # all-subsets kernel: inf entries
        online.anova_kernel(np.full((2, 3000), 2.0))


def test_kernel_perceptron_needs_a_positive_semidefinite_kernel():
    with pytest.raises(ValueError, match="positive semi-definite"):   # used to run on an indefinite "kernel"
        online.kernel_perceptron(np.array([[1.0, 2.0], [2.0, 1.0]]), [1, -1])
    X = np.random.default_rng(6).standard_normal((30, 3))
    K = X @ X.T                                                     # rank 3: singular but PSD, accepted
    y = np.where(X[:, 0] > 0, 1, -1)
    run = online.kernel_perceptron(K, y)
    np.testing.assert_array_equal(run.mistake_rounds, online.online_perceptron(X, y).mistake_rounds)
