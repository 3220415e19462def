"""Tests of mlnotes.subgradient against closed forms, scipy's linprog, scikit-learn's
QuantileRegressor and LinearSVC, and the inequalities of chapter 33."""
import warnings

import numpy as np
import pytest
import scipy.optimize
from sklearn.linear_model import QuantileRegressor
from sklearn.svm import LinearSVC

from mlnotes import optimize, subgradient as sg, svm

SIZES = [(30, 2, 0), (100, 3, 1), (400, 5, 2)]  # (n, d, seed)


def _lad(n, d, seed):
    rng = np.random.default_rng(seed)
    X = np.column_stack([np.ones(n), rng.standard_normal((n, d - 1))])
    y = X @ rng.standard_normal(d) + rng.standard_t(3, size=n)
    f = lambda b: float(np.mean(np.abs(y - X @ b)))  # noqa: E731
    sub = lambda b: -X.T @ sg.subgradient_l1(y - X @ b) / n  # noqa: E731
    return X, y, f, sub


def _lad_optimum(X, y):
    """Exact LAD optimum by an LP (min 1ᵀ(r⁺ + r⁻)/n s.t. Xβ + r⁺ − r⁻ = y)."""
    n, d = X.shape
    res = scipy.optimize.linprog(np.r_[np.zeros(d), np.ones(2 * n) / n],
                                 A_eq=np.hstack([X, np.eye(n), -np.eye(n)]), b_eq=y,
                                 bounds=[(None, None)] * d + [(0, None)] * (2 * n), method="highs")
    return res.x[:d], res.fun


# ------------------------------------------------------------------ subgradients
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_subgradient_inequality_at_random_points(seed):
    rng = np.random.default_rng(seed)
    d, n = 4, 25
    w = rng.uniform(0, 3, d)
    A, b = rng.standard_normal((10, d)), rng.standard_normal(10)
    X, y = rng.standard_normal((n, d)), rng.choice([-1, 1], n)
    for _ in range(10):
        x = rng.standard_normal(d)
        x[rng.random(d) < 0.5] = 0.0
        Y = x + 2 * rng.standard_normal((500, d))
        u = sg.subgradient_l1(x, w, at_zero=rng.uniform(-1, 1))
        assert np.all(np.abs(Y) @ w >= np.abs(x) @ w + (Y - x) @ u - 1e-12)
        u = sg.subgradient_max_affine(A, b, x)
        assert np.all((Y @ A.T + b).max(1) >= (A @ x + b).max() + (Y - x) @ u - 1e-12)
        u = sg.subgradient_hinge(x, X, y)
        hinge = lambda W: np.mean(np.maximum(0, 1 - y * (W @ X.T)), axis=-1)  # noqa: E731
        assert np.all(hinge(Y) >= hinge(x) + (Y - x) @ u - 1e-12)


def test_subgradient_abs_interval_and_l1_choices():
    lo, hi = sg.subgradient_abs([[-1.5, 0.0], [0.0, 2.0]])
    np.testing.assert_array_equal(lo, [[-1, -1], [-1, 1]])
    np.testing.assert_array_equal(hi, [[-1, 1], [1, 1]])
    np.testing.assert_array_equal(sg.subgradient_l1([1.0, 0.0], [1.0, 2.0], at_zero=1.0), [1.0, 2.0])
    np.testing.assert_array_equal(sg.subgradient_l1([-3.0, 0.0]), [-1.0, 0.0])
    with pytest.raises(ValueError, match="weights"):
        sg.subgradient_l1([1.0, 2.0], [1.0, -1.0])
    with pytest.raises(ValueError, match="at_zero"):
        sg.subgradient_l1([1.0, 2.0], at_zero=1.5)


def test_hinge_subgradient_is_gradient_where_smooth():
    rng = np.random.default_rng(3)
    X, y = rng.standard_normal((40, 3)), rng.choice([-1, 1], 40)
    w = rng.standard_normal(3)
    f = lambda v: np.mean(np.maximum(0, 1 - y * (X @ v)))  # noqa: E731
    num = np.array([(f(w + 1e-7 * e) - f(w - 1e-7 * e)) / 2e-7 for e in np.eye(3)])
    np.testing.assert_allclose(sg.subgradient_hinge(w, X, y), num, atol=1e-6)


def test_max_affine_picks_an_active_piece():
    A = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    b = np.zeros(3)
    np.testing.assert_array_equal(sg.subgradient_max_affine(A, b, [2.0, 1.0]), [1.0, 0.0])
    np.testing.assert_array_equal(sg.subgradient_max_affine(A, b, [-2.0, -1.0]), [-1.0, -1.0])


def test_one_sided_derivatives_bracket_and_converge():
    f = lambda x: np.abs(x) + x**2 + np.maximum(0, x - 1)  # noqa: E731
    x = np.array([0.0, 1.0, 0.5])
    exact = np.array([[-1.0, 3.0, 2.0], [1.0, 4.0, 2.0]])
    for h in (0.5, 1e-2):
        left, right = sg.one_sided_derivatives(f, x, h)
        assert np.all(left <= exact[0] + 1e-12) and np.all(exact[1] <= right + 1e-12)
    np.testing.assert_allclose(np.stack(sg.one_sided_derivatives(f, x, 1e-7)), exact, atol=1e-6)
    with pytest.raises(ValueError, match="f"):
        sg.one_sided_derivatives(lambda x: np.ones(5), x, 1e-3)


# ------------------------------------------------------------------ the method
@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("kind", ["constant", "sqrt", "harmonic"])
def test_rate_bound_holds_at_every_step_on_lad(n, d, seed, kind):
    X, y, f, sub = _lad(n, d, seed)
    beta, fstar = _lad_optimum(X, y)
    qr = QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs", fit_intercept=False).fit(X, y)
    assert f(qr.coef_) == pytest.approx(fstar, abs=1e-8)     # the library agrees with the LP
    L = float(np.mean(np.linalg.norm(X, axis=1)))
    D = float(np.linalg.norm(beta))
    steps = sg.step_sizes(kind, 0.05 if kind == "constant" else D / L, 400)
    run = sg.projected_subgradient(f, sub, lambda v: optimize.project_ball(v, 20.0), np.zeros(d), steps)
    bound = sg.subgradient_rate_bound(D, L, steps)
    assert np.all(run.best[:-1] - fstar <= bound + 1e-9)
    assert np.all(run.average_values - fstar <= bound + 1e-9)
    assert np.all(run.best - fstar >= -1e-9)


def test_run_bookkeeping():
    f = lambda x: float(np.abs(x).sum())  # noqa: E731
    steps = np.array([0.5, 0.25, 0.125])
    run = sg.projected_subgradient(f, sg.subgradient_l1, lambda v: np.clip(v, -1, 1), [3.0, -0.2], steps)
    np.testing.assert_array_equal(run.iterates[0], [1.0, -0.2])        # x0 is projected
    np.testing.assert_allclose(run.iterates[1], [0.5, 0.3])
    np.testing.assert_allclose(run.values, [f(x) for x in run.iterates])
    np.testing.assert_allclose(run.best, np.minimum.accumulate(run.values))
    for k in range(3):
        np.testing.assert_allclose(run.averages[k], np.average(run.iterates[:k + 1], axis=0, weights=steps[:k + 1]))
    assert repr(run).startswith("SubgradientRun(K=3, d=2")


def test_step_sizes_and_bound_closed_forms():
    np.testing.assert_allclose(sg.step_sizes("sqrt", 2.0, 4), 2 / np.sqrt([1, 2, 3, 4]))
    np.testing.assert_allclose(sg.step_sizes("harmonic", 1.0, 3), [1, 1 / 2, 1 / 3])
    np.testing.assert_allclose(sg.step_sizes("power", 1.0, 3, alpha=0.75), np.arange(1, 4) ** -0.75)
    np.testing.assert_allclose(sg.step_sizes("constant", 0.3, 2), [0.3, 0.3])
    K, D, L = 100, 2.0, 3.0
    assert sg.subgradient_rate_bound(D, L, np.full(K, D / (L * np.sqrt(K))))[-1] == pytest.approx(D * L / np.sqrt(K))
    with pytest.raises(ValueError, match="alpha"):
        sg.step_sizes("power", 1.0, 3, alpha=1.5)
    with pytest.raises(ValueError, match="steps"):
        sg.subgradient_rate_bound(1.0, 1.0, [0.1, -0.1])


def test_non_descending_subgradient_still_converges():
    f = lambda x: float(abs(x[0]) + 2 * abs(x[1]))  # noqa: E731
    sub = lambda x: sg.subgradient_l1(x, [1.0, 2.0], at_zero=1.0)  # noqa: E731
    run = sg.projected_subgradient(f, sub, lambda v: v, [1.0, 0.0], sg.step_sizes("sqrt", 0.5, 2000))
    assert run.values[1] > run.values[0]
    assert run.best[-1] < 1e-2 and run.average_values[-1] < 2e-2


def test_bad_callables_are_named():
    with pytest.raises(ValueError, match="subgrad"):
        sg.projected_subgradient(lambda x: 0.0, lambda x: np.ones(3), lambda v: v, [0.0, 0.0], [0.1])
    with pytest.raises(ValueError, match="project"):
        sg.projected_subgradient(lambda x: 0.0, lambda x: x, lambda v: np.nan * v, [1.0], [0.1])
    with pytest.raises(ValueError, match="sample_subgrad"):
        sg.projected_sgd(lambda x, rng: np.ones(2), lambda v: v, [0.0], [0.1], np.random.default_rng(0))


# ------------------------------------------------------------------ stochastic
def test_projected_sgd_population_lad_within_bound():
    R, d, K = 100, 3, 1000
    beta = np.array([1.0, -2.0, 0.5])

    def sample(v, rng):
        B = v.reshape(R, d)
        Z = rng.standard_normal((R, d))
        y = Z @ beta + rng.standard_normal(R)
        return (-np.sign(y - np.sum(Z * B, 1))[:, None] * Z).ravel()

    proj = lambda v: optimize.project_ball(v.reshape(R, d), 4.0).ravel()  # noqa: E731
    D, B = float(np.linalg.norm(beta)), np.sqrt(3.0)
    run = sg.projected_sgd(sample, proj, np.zeros(R * d), np.full(K, D / (B * np.sqrt(K))), np.random.default_rng(5))
    F = lambda M: np.sqrt(2 / np.pi) * np.sqrt(np.sum((M - beta) ** 2, -1) + 1)  # noqa: E731
    gaps = F(run.averages[-1].reshape(R, d)) - np.sqrt(2 / np.pi)
    assert gaps.mean() <= B * D / np.sqrt(K)
    assert gaps.mean() < 0.02
    assert np.all(np.linalg.norm(run.iterates.reshape(K + 1, R, d), axis=2) <= 4 + 1e-12)


def test_projected_sgd_is_reproducible():
    s = lambda x, rng: x - rng.standard_normal(x.size)  # noqa: E731
    a = sg.projected_sgd(s, lambda v: v, [1.0, 2.0], [0.1] * 5, np.random.default_rng(7))
    b = sg.projected_sgd(s, lambda v: v, [1.0, 2.0], [0.1] * 5, np.random.default_rng(7))
    np.testing.assert_array_equal(a.iterates, b.iterates)
    assert repr(a) == "StochasticRun(K=5, d=2)"


@pytest.mark.parametrize("n, seed", [(100, 0), (300, 1)])
def test_pegasos_matches_linearsvc_objective(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.choice([-1, 1], n)
    X = rng.standard_normal((n, 2)) + 0.8 * y[:, None]
    lam = 0.05
    run = sg.pegasos(X, y, lam, 20000, np.random.default_rng(seed + 10))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = LinearSVC(loss="hinge", dual=True, fit_intercept=False, C=1 / (n * lam),
                        tol=1e-10, max_iter=100000).fit(X, y)
    J = lambda w: svm.hinge_objective(X, y, w, 0.0, lam)  # noqa: E731
    assert J(ref.coef_[0]) - 1e-8 <= J(run.w_average) <= J(ref.coef_[0]) + 2e-3
    assert np.all(np.linalg.norm(run.iterates, axis=1) <= 1 / np.sqrt(lam) + 1e-12)
    assert repr(run) == f"PegasosRun(T=20000, d=2, lam={lam:g})"
