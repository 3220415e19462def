"""Tests of mlnotes.model_selection against scikit-learn and brute force, plus the chapter's identities."""
from functools import partial

import numpy as np
import pytest
from sklearn.feature_selection import SelectKBest, SequentialFeatureSelector, mutual_info_classif
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.metrics import mutual_info_score
from sklearn.model_selection import KFold, cross_val_score

from mlnotes import model_selection as ms
from mlnotes.kernels import ridge


def _sine(x):
    return np.sin(2 * np.pi * x)


def _regression(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    beta = np.zeros(d)
    beta[: max(1, d // 2)] = rng.uniform(0.5, 2.0, max(1, d // 2)) * rng.choice([-1, 1], max(1, d // 2))
    y = 0.7 + X @ beta + rng.standard_normal(n)
    return X, y


# ----------------------------------------------------------------- bias and variance
@pytest.mark.parametrize("degree, seed", [(1, 0), (3, 1), (5, 2)])
def test_bias_variance_adds_up_to_simulated_error(degree, seed):
    f, x_test = _sine, np.linspace(0.05, 0.95, 20)
    r = ms.bias_variance(f, x_test, degree, n_train=25, sigma=0.3, n_sets=2000,
                         rng=np.random.default_rng(seed))
    D = (r.y_test - r.predictions) ** 2 - (r.predictions - f(x_test)) ** 2 - r.noise
    se = D.std() / np.sqrt(D.size)
    assert abs(r.bias2 + r.variance + r.noise - r.error) < 4 * se
    # the sample identity: mean squared deviation from f = bias² + variance, exactly
    assert np.mean((r.predictions - f(x_test)) ** 2) == pytest.approx(r.bias2 + r.variance, rel=1e-10)
    assert r.noise == pytest.approx(0.09)
    assert "predictions" not in repr(r) and "0x" not in repr(r)


def test_bias_variance_tradeoff_direction():
    f, x_test = _sine, np.linspace(0.05, 0.95, 20)
    low = ms.bias_variance(f, x_test, 1, n_train=25, n_sets=1000, rng=np.random.default_rng(0))
    high = ms.bias_variance(f, x_test, 5, n_train=25, n_sets=1000, rng=np.random.default_rng(0))
    assert low.bias2 > 10 * high.bias2 and high.variance > low.variance


def test_noise_free_constant_function_has_no_bias_or_variance():
    r = ms.bias_variance(lambda x: 2.0 + 0 * x, np.linspace(0, 1, 5), 2, sigma=0.0, n_sets=10,
                         rng=np.random.default_rng(0))
    assert r.bias2 < 1e-20 and r.variance < 1e-20 and r.error < 1e-20


def test_polynomial_features_and_batched_least_squares():
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 1, (4, 12))
    y = rng.standard_normal((4, 12))
    P = ms.polynomial_features(x, 3)
    assert P.shape == (4, 12, 4)
    B = ms.least_squares_fit(P, y)
    for i in range(4):
        np.testing.assert_allclose(B[i], np.linalg.lstsq(P[i], y[i], rcond=None)[0], atol=1e-10)
    # same fitted polynomial as np.polyfit in the raw variable
    fit = P[0] @ B[0]
    np.testing.assert_allclose(fit, np.polyval(np.polyfit(x[0], y[0], 3), x[0]), atol=1e-8)


# -------------------------------------------------------------------- cross-validation
@pytest.mark.parametrize("n, k", [(10, 3), (23, 5), (7, 7), (100, 10)])
def test_kfold_indices_match_sklearn(n, k):
    ours = ms.kfold_indices(n, k)
    ref = list(KFold(n_splits=k).split(np.zeros((n, 1))))
    assert len(ours) == k
    for (tr, te), (rtr, rte) in zip(ours, ref):
        np.testing.assert_array_equal(tr, rtr)
        np.testing.assert_array_equal(te, rte)


@pytest.mark.parametrize("n, k, seed", [(10, 3, 0), (31, 4, 1)])
def test_shuffled_folds_partition_the_points(n, k, seed):
    folds = ms.kfold_indices(n, k, shuffle=True, rng=np.random.default_rng(seed))
    tests = np.concatenate([te for _, te in folds])
    np.testing.assert_array_equal(np.sort(tests), np.arange(n))
    sizes = sorted((len(te) for _, te in folds), reverse=True)
    assert sizes == sorted((len(te) for _, te in KFold(k).split(np.zeros(n))), reverse=True)
    for tr, te in folds:
        assert np.intersect1d(tr, te).size == 0 and tr.size + te.size == n
    # the convention: blocks of rng.permutation(n)
    perm = np.random.default_rng(seed).permutation(n)
    np.testing.assert_array_equal(folds[0][1], np.sort(perm[: len(folds[0][1])]))


def test_holdout_indices():
    tr, te = ms.holdout_indices(20, 0.3, np.random.default_rng(0))
    assert te.size == 6 and tr.size == 14
    np.testing.assert_array_equal(np.sort(np.concatenate([tr, te])), np.arange(20))


@pytest.mark.parametrize("n, d, k, seed", [(30, 3, 5, 0), (57, 6, 4, 1), (200, 10, 10, 2)])
def test_cross_validate_matches_cross_val_score(n, d, k, seed):
    X, y = _regression(n, d, seed)
    Z = np.column_stack([np.ones(n), X])
    ours = ms.cross_validate(Z, y, ms.kfold_indices(n, k))
    ref = -cross_val_score(LinearRegression(fit_intercept=False), Z, y, cv=KFold(k),
                           scoring="neg_mean_squared_error")
    np.testing.assert_allclose(ours, ref, rtol=1e-10)
    ours = ms.cross_validate(Z, y, ms.kfold_indices(n, k), fit=partial(ridge, lam=3.0))
    ref = -cross_val_score(Ridge(alpha=3.0, fit_intercept=False), Z, y, cv=KFold(k),
                           scoring="neg_mean_squared_error")
    np.testing.assert_allclose(ours, ref, rtol=1e-8)


@pytest.mark.parametrize("n, d, seed", [(15, 2, 0), (40, 5, 1), (120, 8, 2)])
@pytest.mark.parametrize("lam", [0.0, 0.5, 10.0])
def test_loocv_shortcut_equals_brute_force(n, d, seed, lam):
    X, y = _regression(n, d, seed)
    Z = np.column_stack([np.ones(n), X])
    fit = ms.least_squares_fit if lam == 0 else partial(ridge, lam=lam)
    brute = np.mean(ms.cross_validate(Z, y, ms.kfold_indices(n, n), fit=fit))
    assert ms.loocv_linear(Z, y, lam) == pytest.approx(brute, rel=1e-9)


def test_loocv_rejects_leverage_one():
    X = np.column_stack([np.ones(4), [0.0, 0.0, 0.0, 1.0]])  # the last point alone fixes the slope
    with pytest.raises(ValueError, match="leverage"):
        ms.loocv_linear(X, np.arange(4.0))


# ------------------------------------------------------------------ feature selection
@pytest.mark.parametrize("n, d, seed", [(40, 6, 0), (80, 8, 1)])
@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_sequential_selection_matches_sklearn(n, d, seed, direction):
    X, y = _regression(n, d, seed)
    folds = ms.kfold_indices(n, 5)
    search = ms.forward_selection if direction == "forward" else ms.backward_selection
    for k in range(1, d):
        path = search(X, y, k, folds)
        sfs = SequentialFeatureSelector(LinearRegression(), direction=direction, n_features_to_select=k,
                                        cv=KFold(5), scoring="neg_mean_squared_error").fit(X, y)
        assert path.selected == np.flatnonzero(sfs.get_support()).tolist()


def test_forward_path_is_nested_and_errors_are_subset_errors():
    X, y = _regression(50, 6, 4)
    folds = ms.kfold_indices(50, 5)
    path = ms.forward_selection(X, y, 6, folds)
    assert sorted(path.features) == list(range(6)) and len(path.cv_error) == 7
    for i in range(7):
        Z = np.column_stack([np.ones(50), X[:, path.features[:i]]])
        assert path.cv_error[i] == pytest.approx(np.mean(ms.cross_validate(Z, y, folds)))
    for k in range(1, 6):
        assert ms.forward_selection(X, y, k, folds).selected == sorted(path.features[:k])


@pytest.mark.parametrize("n, seed", [(200, 0), (1000, 1)])
def test_mi_scores_match_sklearn(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = np.column_stack([y ^ (rng.random(n) < q) for q in (0.05, 0.2, 0.4, 0.5)] + [rng.integers(0, 3, n)])
    scores = ms.mi_scores(X, y)
    ref = [mutual_info_score(X[:, j], y) for j in range(X.shape[1])]
    np.testing.assert_allclose(scores, ref, atol=1e-12)
    sel = SelectKBest(partial(mutual_info_classif, discrete_features=True), k=2).fit(X, y)
    assert sorted(ms.mi_filter(X, y, 2).tolist()) == np.flatnonzero(sel.get_support()).tolist()
    assert ms.mi_scores(y[:, None], y)[0] == pytest.approx(mutual_info_score(y, y))


def test_finite_class_bound_formula_and_coverage():
    assert ms.finite_class_bound(100, 10, 0.05) == pytest.approx(np.sqrt(np.log(400) / 200))
    # simulated uniform deviation of k threshold classifiers stays below gamma w.p. >= 1 - delta
    rng = np.random.default_rng(0)
    m, R, t = 100, 2000, np.linspace(0, 1, 11)
    x = rng.random((R, m))
    y = (x > 0.3) ^ (rng.random((R, m)) < 0.1)
    train_err = np.mean((x[..., None] > t) != y[..., None], axis=1)
    gen_err = 0.1 + 0.8 * np.abs(t - 0.3)
    dev = np.abs(train_err - gen_err).max(axis=1)
    assert np.mean(dev > ms.finite_class_bound(m, t.size, 0.05)) <= 0.05


# ------------------------------------------------------------------------ bad inputs
def test_bad_inputs():
    rng = np.random.default_rng(0)
    X, y = _regression(20, 3, 0)
    folds = ms.kfold_indices(20, 4)
    with pytest.raises(ValueError, match="k must be at most"):
        ms.kfold_indices(5, 6)
    with pytest.raises(ValueError, match="k must be"):
        ms.kfold_indices(5, 1)
    with pytest.raises(ValueError, match="rng"):
        ms.kfold_indices(5, 2, shuffle=True)
    with pytest.raises(ValueError, match="test_fraction"):
        ms.holdout_indices(10, 1.0, rng)
    with pytest.raises(ValueError, match="y must have shape"):
        ms.cross_validate(X, y[:-1], folds)
    with pytest.raises(ValueError, match="X must be finite"):
        ms.cross_validate(np.where(X > 1, np.nan, X), y, folds)
    with pytest.raises(ValueError, match="folds"):
        ms.cross_validate(X, y, [(np.arange(10), np.arange(25, 30))])
    with pytest.raises(ValueError, match="folds"):
        ms.cross_validate(X, y, [])
    with pytest.raises(ValueError, match="lam"):
        ms.loocv_linear(X, y, -1.0)
    with pytest.raises(ValueError, match="k must be at most"):
        ms.forward_selection(X, y, 4, folds)
    with pytest.raises(ValueError, match="k must be smaller"):
        ms.backward_selection(X, y, 3, folds)
    with pytest.raises(ValueError, match="k must be"):
        ms.mi_filter(X > 0, y > 0, 0)
    with pytest.raises(ValueError, match="degree"):
        ms.bias_variance(_sine, [0.5], -1, rng=rng)
    with pytest.raises(ValueError, match="n_train"):
        ms.bias_variance(_sine, [0.5], 5, n_train=5, rng=rng)
    with pytest.raises(ValueError, match="sigma"):
        ms.bias_variance(_sine, [0.5], 1, sigma=-0.1, rng=rng)
    with pytest.raises(ValueError, match="rng"):
        ms.bias_variance(_sine, [0.5], 1, rng=0)
    with pytest.raises(ValueError, match="f must be"):
        ms.bias_variance(3.0, [0.5], 1, rng=rng)
    with pytest.raises(ValueError, match="x_test"):
        ms.bias_variance(_sine, [[0.5]], 1, rng=rng)
    with pytest.raises(ValueError, match="low must be smaller"):
        ms.polynomial_features([0.5], 2, low=1.0, high=0.0)
    with pytest.raises(ValueError, match="X must have shape"):
        ms.least_squares_fit(np.ones((2, 3)), np.ones(2))
    with pytest.raises(ValueError, match="delta"):
        ms.finite_class_bound(10, 2, 1.5)
    with pytest.raises(ValueError, match="m must be"):
        ms.finite_class_bound(0, 2, 0.1)


def test_user_callables_and_what_they_return_are_checked():
    rng = np.random.default_rng(0)
    X, y = _regression(20, 3, 0)
    folds = ms.kfold_indices(20, 4)
    with pytest.raises(ValueError, match="fit must be callable"):
        ms.cross_validate(X, y, folds, fit="lstsq")
    with pytest.raises(ValueError, match=r"fit must return an array of shape \(3,\)"):
        ms.cross_validate(X, y, folds, fit=lambda A, b: np.ones(2))
    with pytest.raises(ValueError, match="returned by fit must be finite"):
        ms.cross_validate(X, y, folds, fit=lambda A, b: np.full(3, np.nan))
    with pytest.raises(ValueError, match="returned by fit must be numeric"):
        ms.cross_validate(X, y, folds, fit=lambda A, b: None)
    with pytest.raises(ValueError, match=r"f must return an array of shape \(10, 5\)"):
        ms.bias_variance(lambda x: 0.0, [0.5], 1, n_train=5, n_sets=10, rng=rng)
    with pytest.raises(ValueError, match="returned by f must be finite"):
        ms.bias_variance(lambda x: np.where(x > 0.5, np.inf, x), [0.5], 1, n_train=5, n_sets=10, rng=rng)


def test_folds_flags_bounds_and_rank_are_checked():
    X, y = _regression(20, 3, 0)
    for folds in ([np.arange(20)], [(np.arange(10), np.arange(10, 15), np.arange(15, 20))], ["ab"],
                  [([0, 1], [[2, 3], [4]])]):
        with pytest.raises(ValueError, match="folds"):
            ms.cross_validate(X, y, folds)
    with pytest.raises(ValueError, match="shuffle must be True or False"):
        ms.kfold_indices(10, 2, shuffle="yes", rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="rng"):
        ms.kfold_indices(10, 2, rng=7)
    with pytest.raises(ValueError, match="low"):
        ms.bias_variance(_sine, [0.5], 1, rng=np.random.default_rng(0), low="0")
    with pytest.raises(ValueError, match="low must be smaller"):
        ms.bias_variance(_sine, [0.5], 1, rng=np.random.default_rng(0), low=1.0, high=1.0)
    rank_deficient = np.column_stack([X, X[:, 0] + X[:, 1]])
    with pytest.raises(ValueError, match="full column rank"):
        ms.least_squares_fit(rank_deficient, y)
    with pytest.raises(ValueError, match="full column rank|leverage"):
        ms.loocv_linear(np.column_stack([X, X[:, :1]]), y)
