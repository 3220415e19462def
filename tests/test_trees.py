"""Tests of mlnotes.trees against scikit-learn and scipy, plus the chapter's identities."""
import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings, strategies as st
from sklearn.ensemble import AdaBoostClassifier, GradientBoostingClassifier, GradientBoostingRegressor
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from mlnotes import trees

SIZES = [(40, 2, 0), (150, 3, 1), (600, 5, 2)]  # (n, d, seed)


def _data(n, d, seed):
    """Continuous features in general position, 3 classes, a real response and random weights."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    score = X[:, 0] + X[:, 1] ** 2 + 0.5 * rng.standard_normal(n)
    y = (score > 1).astype(int) + (X[:, -1] > 1)
    r = X[:, 0] ** 2 + np.sin(2 * X[:, 1]) + 0.3 * rng.standard_normal(n)
    w = rng.uniform(0.5, 1.5, n)          # continuous weights: no two splits tie exactly
    return X, y, r, w, rng.standard_normal((300, d))


# ------------------------------------------------------------------ impurities
def test_impurities_closed_forms():
    p = np.array([[0.5, 0.5], [1.0, 0.0], [0.2, 0.8], [0.1, 0.3]])
    p[3] = [0.1, 0.9]
    np.testing.assert_allclose(trees.gini(p), 1 - np.sum(p**2, axis=1))
    np.testing.assert_allclose(trees.gini(p), np.sum(p * (1 - p), axis=1))
    np.testing.assert_allclose(trees.entropy_impurity(p), scipy.stats.entropy(p, axis=1))
    np.testing.assert_allclose(trees.misclassification(p), [0.5, 0.0, 0.2, 0.1])


def test_gini_worked_example_of_the_notes():
    p = np.array([1, 50, 50]) / 101
    assert trees.gini(p) == pytest.approx(5200 / 10201, abs=1e-15)
    assert round(float(trees.gini(p)), 4) == 0.5098


def test_misclassification_is_blind_to_the_better_split():
    parent = np.array([900, 100])
    A = np.array([[700, 100], [200, 0]])
    B = np.array([[400, 100], [500, 0]])

    def child(f, S):
        return np.sum(S.sum(1) * f(S / S.sum(1, keepdims=True))) / S.sum()

    assert child(trees.misclassification, A) == pytest.approx(child(trees.misclassification, B))
    assert child(trees.misclassification, A) == pytest.approx(trees.misclassification(parent / 1000))
    for f in (trees.gini, trees.entropy_impurity):
        assert child(f, B) < child(f, A) < f(parent / 1000)


@pytest.mark.parametrize("f", [trees.gini, trees.entropy_impurity, trees.misclassification])
def test_impurity_rejects_bad_probabilities(f):
    with pytest.raises(ValueError, match="p"):
        f([0.5, 0.6])
    with pytest.raises(ValueError, match="p"):
        f([1.2, -0.2])
    with pytest.raises(ValueError, match="p"):
        f([np.nan, 1.0])


# ------------------------------------------------------------------ best split
@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_best_split_matches_sklearn_stump(n, d, seed, criterion):
    X, y, _, w, _ = _data(n, d, seed)
    j, s, dec = trees.best_split(X, y, w, criterion)
    ref = DecisionTreeClassifier(criterion=criterion, max_depth=1, random_state=0)
    t = ref.fit(X, y, sample_weight=w).tree_
    assert j == t.feature[0]
    assert s == pytest.approx(t.threshold[0], abs=1e-6)  # sklearn rounds X to float32
    scale = 1.0 if criterion == "gini" else np.log(2)    # sklearn's entropy is in bits
    W = t.weighted_n_node_samples
    expected = scale * (W[0] * t.impurity[0] - W[1] * t.impurity[1] - W[2] * t.impurity[2])
    assert dec == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_best_split_regression_matches_brute_force(n, d, seed):
    X, _, r, _, _ = _data(n, d, seed)
    j, s, dec = trees.best_split(X, r, criterion="squared_error", min_samples_leaf=3)
    best = (np.inf, None)
    for k in range(d):
        xs = np.sort(X[:, k])
        for a, b in zip(xs[2:-3], xs[3:-2]):
            L = X[:, k] <= (a + b) / 2
            sse = np.sum((r[L] - r[L].mean()) ** 2) + np.sum((r[~L] - r[~L].mean()) ** 2)
            best = min(best, (sse, (k, (a + b) / 2)))
    assert (j, s) == pytest.approx(best[1])
    assert dec == pytest.approx(np.sum((r - r.mean()) ** 2) - best[0])


def test_best_split_midpoint_and_no_split():
    X = np.array([[0.0], [1.0], [3.0], [4.0]])
    j, s, dec = trees.best_split(X, [0, 0, 1, 1])
    assert (j, s) == (0, 2.0) and dec == pytest.approx(2.0)
    assert trees.best_split(np.ones((4, 1)), [0, 1, 0, 1])[0] == -1   # a constant feature


# ------------------------------------------------------------------ the tree
@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("max_depth", [1, 3, None])
def test_classification_tree_matches_sklearn(n, d, seed, criterion, max_depth):
    X, y, _, w, Xt = _data(n, d, seed)
    ours = trees.DecisionTree(criterion, max_depth=max_depth, min_samples_leaf=5).fit(X, y, w)
    ref = DecisionTreeClassifier(criterion=criterion, max_depth=max_depth, min_samples_leaf=5,
                                 random_state=0).fit(X, y, sample_weight=w)
    # (leaf counts may differ: sklearn also splits a pure node whose Gini rounds above 2e-16)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))


@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("max_depth", [2, 4, None])
def test_regression_tree_matches_sklearn(n, d, seed, max_depth):
    X, _, r, _, Xt = _data(n, d, seed)
    ours = trees.DecisionTree("squared_error", max_depth=max_depth, min_samples_leaf=5).fit(X, r)
    ref = DecisionTreeRegressor(max_depth=max_depth, min_samples_leaf=5, random_state=0).fit(X, r)
    np.testing.assert_allclose(ours.predict(Xt), ref.predict(Xt), rtol=1e-10)


def test_unweighted_shallow_tree_matches_sklearn():
    X, y, _, _, Xt = _data(200, 2, 7)
    ours = trees.DecisionTree("gini", max_depth=2).fit(X, y)
    ref = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))


def test_full_tree_fits_training_data():
    X, y, _, _, _ = _data(80, 3, 3)
    np.testing.assert_array_equal(trees.DecisionTree().fit(X, y).predict(X), y)


def test_deep_tree_grows_without_recursion():
    # alternating labels in 1-D: a path of depth n - 1, far beyond Python's recursion limit
    X = np.arange(4000.0)[:, None]
    y = np.arange(4000) % 2
    tree = trees.DecisionTree().fit(X, y)
    assert tree.n_leaves() == 4000
    np.testing.assert_array_equal(tree.predict(X), y)


def _sklearn_path(p):
    """sklearn also splits nodes whose Gini rounds just above 0; drop those α ≈ 1e-16 steps."""
    keep = p.ccp_alphas > 1e-12
    keep[0] = True
    return p.ccp_alphas[keep], p.impurities[keep]


@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("min_samples_leaf", [1, 5])
def test_pruning_path_matches_sklearn(n, d, seed, min_samples_leaf):
    X, y, _, w, _ = _data(n, d, seed)
    ours = trees.DecisionTree("gini", min_samples_leaf=min_samples_leaf).fit(X, y, w)
    alphas, imps = ours.cost_complexity_path()
    ref = DecisionTreeClassifier(min_samples_leaf=min_samples_leaf, random_state=0)
    ra, ri = _sklearn_path(ref.cost_complexity_pruning_path(X, y, sample_weight=w))
    np.testing.assert_allclose(alphas, ra, atol=1e-12, rtol=1e-9)
    np.testing.assert_allclose(imps, ri, atol=1e-12, rtol=1e-9)
    assert np.all(np.diff(alphas) >= 0) and np.all(np.diff(imps) >= 0)


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_regression_pruning_path_matches_sklearn(n, d, seed):
    X, _, r, _, _ = _data(n, d, seed)
    alphas, imps = trees.DecisionTree("squared_error", min_samples_leaf=5).fit(X, r).cost_complexity_path()
    p = DecisionTreeRegressor(min_samples_leaf=5, random_state=0).cost_complexity_pruning_path(X, r)
    np.testing.assert_allclose(alphas, p.ccp_alphas, atol=1e-12, rtol=1e-9)
    np.testing.assert_allclose(imps, p.impurities, atol=1e-12, rtol=1e-9)


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_prune_matches_sklearn_ccp_alpha(n, d, seed):
    X, y, _, w, Xt = _data(n, d, seed)
    tree = trees.DecisionTree("gini", min_samples_leaf=5).fit(X, y, w)
    alphas, imps = tree.cost_complexity_path()
    for k, alpha in enumerate((alphas[1:] + alphas[:-1]) / 2):
        pruned = tree.prune(alpha)
        ref = DecisionTreeClassifier(min_samples_leaf=5, ccp_alpha=alpha, random_state=0)
        ref.fit(X, y, sample_weight=w)
        np.testing.assert_array_equal(pruned.predict(Xt), ref.predict(Xt))
        # the pruned tree's total leaf risk is the k-th entry of the path
        leaf = pruned.left < 0
        reached = np.zeros(len(leaf), bool)
        reached[np.unique(pruned.apply(X))] = True
        risk = np.sum((pruned.weight / pruned.weight[0] * pruned.impurity)[reached])
        assert risk == pytest.approx(imps[k], abs=1e-12)
    assert tree.prune(alphas[-1] + 1).n_leaves() == 1


def test_tree_validation():
    X, y, _, _, _ = _data(30, 2, 0)
    with pytest.raises(ValueError, match="criterion"):
        trees.DecisionTree("mse")
    with pytest.raises(ValueError, match="max_depth"):
        trees.DecisionTree(max_depth=-1)
    with pytest.raises(ValueError, match="min_samples_leaf"):
        trees.DecisionTree(min_samples_leaf=0)
    with pytest.raises(ValueError, match="min_samples_split"):
        trees.DecisionTree(min_samples_split=1)
    with pytest.raises(ValueError, match="rng"):
        trees.DecisionTree(max_features=1)
    with pytest.raises(ValueError, match="max_features"):
        trees.DecisionTree(max_features=3, rng=np.random.default_rng(0)).fit(X, y)
    with pytest.raises(ValueError, match="X"):
        trees.DecisionTree().fit(X[:, 0], y)
    with pytest.raises(ValueError, match="y"):
        trees.DecisionTree().fit(X, y[:-1])
    with pytest.raises(ValueError, match="sample_weight"):
        trees.DecisionTree().fit(X, y, -np.ones(30))
    bad = X.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="X"):
        trees.DecisionTree().fit(bad, y)
    tree = trees.DecisionTree().fit(X, y)
    with pytest.raises(ValueError, match="alpha"):
        tree.prune(-0.1)
    with pytest.raises(ValueError, match="criterion"):
        trees.best_split(X, y, criterion="bogus")
    assert repr(tree).startswith("DecisionTree(criterion='gini'") and "0x" not in repr(tree)


# ------------------------------------------------------------------ majority votes
@pytest.mark.parametrize("p", [0.1, 0.3, 0.45])
def test_majority_vote_error_matches_binomial(p):
    T = np.arange(0, 30)
    expected = scipy.stats.binom.sf(T, 2 * T + 1, p)        # P(more than T of 2T+1 wrong)
    np.testing.assert_allclose(trees.majority_vote_error(T, p), expected, rtol=1e-10, atol=1e-300)


@pytest.mark.parametrize("gamma", [0.02, 0.1, 0.3, 0.5])
def test_chernoff_bound_holds_and_simplifies(gamma):
    T = np.arange(1, 200)
    exact = trees.majority_vote_error(T, 0.5 - gamma)
    bound = trees.chernoff_majority_bound(T, gamma)
    assert np.all(exact <= bound + 1e-15)
    assert np.all(bound <= np.exp(-4 * gamma**2 * T / 5) + 1e-15)


def test_majority_vote_validation():
    with pytest.raises(ValueError, match="p"):
        trees.majority_vote_error(3, 1.5)
    with pytest.raises(ValueError, match="T"):
        trees.majority_vote_error(-1, 0.3)
    with pytest.raises(ValueError, match="gamma"):
        trees.chernoff_majority_bound(3, 0.7)


# ------------------------------------------------------------------ bagging
@pytest.mark.parametrize("n, d, seed", SIZES)
def test_bagging_in_bag_fraction_and_oob(n, d, seed):
    X, y, _, _, Xt = _data(n, d, seed)
    res = trees.bagging(X, y, 40, np.random.default_rng(seed), max_depth=3)
    frac = np.mean(res.in_bag > 0, axis=1)
    expected = 1 - (1 - 1 / n) ** n
    se = np.sqrt(expected * (1 - expected) / n / 40)   # points are nearly independent
    assert abs(frac.mean() - expected) < 6 * se
    np.testing.assert_array_equal(res.in_bag.sum(axis=1), n)
    # out-of-bag vote by hand for the first point that is out of bag somewhere
    P = np.stack([t.predict(X) for t in res.trees])
    i = int(np.argmax((res.in_bag == 0).any(axis=0)))
    votes = P[res.in_bag[:, i] == 0, i]
    vals, counts = np.unique(votes, return_counts=True)
    assert res.oob_prediction[i] == vals[np.argmax(counts)]
    seen = ~np.isnan(res.oob_prediction)
    assert res.oob_error == pytest.approx(np.mean(res.oob_prediction[seen] != y[seen]))
    assert res.predict(Xt).shape == (300,)


def test_bagging_regression_averages_and_forest_features():
    X, _, r, _, Xt = _data(100, 4, 5)
    res = trees.bagging(X, r, 10, np.random.default_rng(0), criterion="squared_error",
                        max_features=2, max_depth=3)
    np.testing.assert_allclose(res.predict(Xt), np.mean([t.predict(Xt) for t in res.trees], axis=0))
    # each split of a forest tree uses one of the features it drew; across trees all appear
    used = np.concatenate([t.feature[t.feature >= 0] for t in res.trees])
    assert set(used.tolist()) == {0, 1, 2, 3}


def test_bagging_validation():
    X, y, _, _, _ = _data(30, 2, 0)
    with pytest.raises(ValueError, match="n_estimators"):
        trees.bagging(X, y, 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="rng"):
        trees.bagging(X, y, 3, 0)


# ------------------------------------------------------------------ AdaBoost
@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("T", [1, 10, 40])
def test_adaboost_matches_sklearn(n, d, seed, T):
    X, y, _, _, Xt = _data(n, d, seed)
    y = np.where(y > 0, 1, -1)
    ours = trees.adaboost(X, y, T)
    ref = AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=1), n_estimators=T,
                             random_state=0).fit(X, y)
    assert len(ours.stumps) == len(ref.estimators_)
    np.testing.assert_allclose(2 * ours.alpha, ref.estimator_weights_[: len(ours.alpha)], rtol=1e-9)
    np.testing.assert_allclose(ours.eps, ref.estimator_errors_[: len(ours.eps)], rtol=1e-9)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_adaboost_training_error_bound(n, d, seed):
    X, y, _, _, _ = _data(n, d, seed)
    y = np.where(y > 0, 1, -1)
    res = trees.adaboost(X, y, 30)
    F = res.staged_decision_function(X)
    np.testing.assert_allclose(res.Z, 2 * np.sqrt(res.eps * (1 - res.eps)), rtol=1e-12)
    bound = np.cumprod(res.Z)
    np.testing.assert_allclose(np.mean(np.exp(-y * F), axis=1), bound, rtol=1e-10)
    train_err = np.mean(np.where(F > 0, 1, -1) != y, axis=1)
    assert np.all(train_err <= bound)
    gamma = 0.5 - res.eps
    assert np.all(bound <= np.exp(-2 * np.cumsum(gamma**2)))


def test_adaboost_validation():
    X, y, _, _, _ = _data(30, 2, 0)
    with pytest.raises(ValueError, match="y"):
        trees.adaboost(X, y, 5)                     # labels 0/1/2, not ±1
    with pytest.raises(ValueError, match="n_rounds"):
        trees.adaboost(X, np.where(y > 0, 1, -1), 0)
    assert repr(trees.adaboost(X, np.where(y > 0, 1, -1), 2)) == "AdaBoostResult(rounds=2)"


def test_prune_of_a_pruned_tree_and_perfect_stump():
    X, y, _, w, Xt = _data(150, 3, 4)
    tree = trees.DecisionTree("gini", min_samples_leaf=5).fit(X, y, w)
    alphas, _ = tree.cost_complexity_path()
    a1, a2 = (alphas[1] + alphas[2]) / 2, (alphas[-2] + alphas[-1]) / 2
    once = tree.prune(a1)
    np.testing.assert_array_equal(once.prune(a2).predict(Xt), tree.prune(a2).predict(Xt))
    # separable data: the first stump is perfect, AdaBoost stops with Z_1 = exp(-1/2)
    Xs = np.array([[0.0], [1.0], [2.0], [3.0]])
    res = trees.adaboost(Xs, [-1, -1, 1, 1], 5)
    assert len(res.stumps) == 1 and res.Z[0] == pytest.approx(np.exp(-0.5))
    ref = AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=1), n_estimators=5).fit(Xs, [-1, -1, 1, 1])
    assert len(ref.estimators_) == 1
    np.testing.assert_array_equal(res.predict(Xs), [-1, -1, 1, 1])


# ------------------------------------------------------------------ gradient boosting
def _gb_sklearn(loss, M, nu, depth, leaf):
    # (scikit-learn 1.9 deprecates `criterion`: its boosting trees always use squared error)
    cls = GradientBoostingRegressor if loss == "squared_error" else GradientBoostingClassifier
    return cls(n_estimators=M, learning_rate=nu, max_depth=depth, min_samples_leaf=leaf,
               subsample=1.0, random_state=0)


@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("nu, depth", [(0.1, 3), (1.0, 1), (0.5, 4)])
def test_gradient_boosting_regression_matches_sklearn(n, d, seed, nu, depth):
    X, _, r, _, Xt = _data(n, d, seed)
    ours = trees.gradient_boosting(X, r, 30, nu, depth, min_samples_leaf=5)
    ref = _gb_sklearn("squared_error", 30, nu, depth, 5).fit(X, r)
    assert ours.init == pytest.approx(r.mean(), abs=1e-14) == ref.init_.constant_[0, 0]
    # same partitions and leaf means, so only the order of floating-point sums differs
    staged = np.array(list(ref.staged_predict(Xt)))
    np.testing.assert_allclose(ours.staged_decision_function(Xt), staged, atol=1e-10)
    np.testing.assert_allclose(2 * ours.train_loss[1:], ref.train_score_, rtol=1e-10)  # sklearn: MSE


@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("nu, depth", [(0.1, 3), (1.0, 2)])
def test_gradient_boosting_log_loss_matches_sklearn(n, d, seed, nu, depth):
    X, y, _, _, Xt = _data(n, d, seed)
    y = (y > 0).astype(int)
    ours = trees.gradient_boosting(X, y, 30, nu, depth, loss="log_loss", min_samples_leaf=5)
    ref = _gb_sklearn("log_loss", 30, nu, depth, 5).fit(X, y)
    assert ours.init == pytest.approx(np.log(y.mean() / (1 - y.mean())), abs=1e-14)
    staged = np.array(list(ref.staged_decision_function(Xt)))[:, :, 0]
    np.testing.assert_allclose(ours.staged_decision_function(Xt), staged, atol=1e-9)
    np.testing.assert_allclose(2 * ours.train_loss[1:], ref.train_score_, rtol=1e-10)  # deviance
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))


def test_gradient_boosting_with_one_point_leaves_agrees_on_the_training_data():
    # leaves of one point: a node of two points is split equally well by every feature, and
    # scikit-learn breaks such ties in a random feature order, we by the first feature. The
    # training points are partitioned alike (same training loss); test points may differ.
    X, _, r, _, _ = _data(150, 3, 1)
    ours = trees.gradient_boosting(X, r, 40, 0.3, 4)
    ref = _gb_sklearn("squared_error", 40, 0.3, 4, 1).fit(X, r)
    np.testing.assert_allclose(2 * ours.train_loss[1:], ref.train_score_, rtol=1e-9)
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), atol=1e-10)


@pytest.mark.parametrize("nu", [0.1, 1.0, 1.9])
def test_gradient_boosting_squared_loss_decrease_identity(nu):
    # L(F + nu h) = L(F) - (nu - nu^2/2) mean(h^2), because the tree's leaf means make r.h = h.h
    X, _, r, _, _ = _data(150, 3, 2)
    res = trees.gradient_boosting(X, r, 25, nu, 2)
    H = np.stack([h.predict(X) for h in res.trees])
    np.testing.assert_allclose(-np.diff(res.train_loss), (nu - nu**2 / 2) * np.mean(H**2, axis=1),
                               rtol=1e-9, atol=1e-14)
    F = res.staged_decision_function(X)
    np.testing.assert_allclose(F.mean(axis=1), r.mean(), atol=1e-12)   # residuals keep mean 0
    np.testing.assert_allclose(res.predict(X), F[-1])


X_GB, _, R_GB, _, _ = _data(30, 2, 0)
GB_BAD_INPUTS = [
    (dict(X=X_GB[:, 0]), "X"),
    (dict(X=np.where(np.eye(30, 2) > 0, np.nan, X_GB)), "X"),
    (dict(y=R_GB[:-1]), "y"),
    (dict(y=np.r_[np.inf, R_GB[1:]]), "y"),
    (dict(y=np.arange(30) % 3, loss="log_loss"), "y"),
    (dict(y=np.ones(30), loss="log_loss"), "y"),
    (dict(n_estimators=0), "n_estimators"),
    (dict(n_estimators=2.0), "n_estimators"),
    (dict(learning_rate=0.0), "learning_rate"),
    (dict(learning_rate=np.nan), "learning_rate"),
    (dict(max_depth=0), "max_depth"),
    (dict(loss="exponential"), "loss"),
    (dict(min_samples_leaf=0), "min_samples_leaf"),
]


@pytest.mark.parametrize("bad, name", GB_BAD_INPUTS, ids=[n for _, n in GB_BAD_INPUTS])
def test_bad_inputs_gradient_boosting(bad, name):
    args = dict(X=X_GB, y=R_GB, n_estimators=3, learning_rate=0.1, max_depth=2) | bad
    with pytest.raises(ValueError, match=name):
        trees.gradient_boosting(**args)
    res = trees.gradient_boosting(X_GB, R_GB, 2, 0.5, 1)
    assert repr(res) == "GradientBoostingResult(loss='squared_error', rounds=2, learning_rate=0.5)"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(5, 60), nu=st.floats(0.01, 1.99),
       depth=st.integers(1, 3))
def test_gradient_boosting_squared_loss_never_increases(seed, n, nu, depth):
    """For 0 < nu < 2 each round lowers the squared training loss by (nu - nu²/2) mean(h²) ≥ 0."""
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((n, 2)), rng.standard_normal(n)
    res = trees.gradient_boosting(X, y, 8, nu, depth)
    assert np.all(np.diff(res.train_loss) <= 1e-12 * (1 + res.train_loss[0]))
    assert res.train_loss[0] == pytest.approx(0.5 * np.var(y), rel=1e-12, abs=1e-15)


@settings(max_examples=25, deadline=None)
@given(nu=st.one_of(st.floats(max_value=0.0), st.just(np.inf), st.just(np.nan)))
def test_gradient_boosting_rejects_every_nonpositive_learning_rate(nu):
    with pytest.raises(ValueError, match="learning_rate"):
        trees.gradient_boosting(X_GB, R_GB, 2, nu, 1)


# ------------------------------------------------------------------ bad input (issue #16)
def test_unfitted_tree_raises_a_value_error():
    X, y, _, _, _ = _data(30, 2, 0)
    tree = trees.DecisionTree()
    for call in (lambda: tree.predict(X), lambda: tree.apply(X), tree.n_leaves,
                 tree.cost_complexity_path, lambda: tree.prune(0.1)):
        with pytest.raises(ValueError, match="not fitted yet"):
            call()
    assert repr(tree).endswith("leaves=0)")


def test_methods_check_the_number_of_columns():
    X, y, r, _, _ = _data(40, 3, 0)
    tree = trees.DecisionTree(max_depth=3).fit(X, y)
    for res in (tree, tree.prune(0.01), trees.bagging(X, y, 2, np.random.default_rng(0), max_depth=2),
                trees.adaboost(X, np.where(y > 0, 1, -1), 2), trees.gradient_boosting(X, r, 2, 0.5, 2)):
        with pytest.raises(ValueError, match="X must have 3 columns"):
            res.predict(X[:, :2])
        with pytest.raises(ValueError, match="X must have 3 columns"):
            res.predict(np.hstack([X, X]))


@pytest.mark.parametrize("features", [[5], [-1], [0.0], [True], "0", [[0, 1], [1]], 0, []])
def test_best_split_rejects_bad_feature_indices(features):
    X, y, _, _, _ = _data(30, 2, 0)
    with pytest.raises(ValueError, match="features"):
        trees.best_split(X, y, features=features)


@pytest.mark.parametrize("axis", [2, -3, 1.0, True, None, "1"])
def test_impurity_rejects_bad_axis(axis):
    with pytest.raises(ValueError, match="axis"):
        trees.gini(np.full((2, 3), 1 / 3), axis=axis)


def test_impurity_axis_and_scalar():
    p = np.full((2, 3), 1 / 3)
    np.testing.assert_allclose(trees.gini(p.T, axis=0), trees.gini(p, axis=np.int64(1)))
    with pytest.raises(ValueError, match="p must be a non-empty array"):
        trees.gini(1.0)


@pytest.mark.parametrize("T", [[[1, 2], [3]], "3", 2.5, True, [1, -1], np.nan, None])
def test_majority_votes_reject_bad_T(T):
    with pytest.raises(ValueError, match="T"):
        trees.majority_vote_error(T, 0.3)
    with pytest.raises(ValueError, match="T"):
        trees.chernoff_majority_bound(T, 0.1)


def test_majority_votes_reject_bad_p_and_gamma():
    for p in ("0.3", True, np.nan, -0.1):
        with pytest.raises(ValueError, match="p must"):
            trees.majority_vote_error(3, p)
    for gamma in (0.0, 0.51, "0.1", True):
        with pytest.raises(ValueError, match="gamma must"):
            trees.chernoff_majority_bound(3, gamma)


def test_bagging_checks_the_tree_options_first():
    X, y, _, _, _ = _data(30, 2, 0)
    with pytest.raises(ValueError, match="criterion"):
        trees.bagging(X, y, 2, np.random.default_rng(0), criterion="mse")
    with pytest.raises(ValueError, match="max_depth"):
        trees.bagging(X, y, 2, np.random.default_rng(0), max_depth="3")
    with pytest.raises(TypeError, match="max_leaves"):
        trees.bagging(X, y, 2, np.random.default_rng(0), max_leaves=3)


@pytest.mark.filterwarnings("ignore:overflow:RuntimeWarning", "ignore:invalid value:RuntimeWarning")
def test_gradient_boosting_divergence_raises():
    X, y = X_GB, R_GB
    with pytest.raises(ValueError, match="diverged.*learning_rate"):
        trees.gradient_boosting(X, y, 400, 1e150, 2)
    # a large but finite run is still returned (the chapter's nu = 2.5 example)
    res = trees.gradient_boosting(X, y, 10, 2.5, 2)
    assert np.all(np.isfinite(res.train_loss)) and res.train_loss[-1] > res.train_loss[0]


def test_ensembles_need_fitted_members():
    tree = trees.DecisionTree(max_depth=1).fit(np.array([[0.0], [1.0]]), np.array([0, 1]))
    with pytest.raises(ValueError, match="trees must be a non-empty list"):
        trees.BaggingResult([], np.zeros((0, 2)), np.zeros(2), 0.0)
    with pytest.raises(ValueError, match="stumps must be a non-empty list"):
        trees.AdaBoostResult([], np.zeros(0), np.zeros(0), np.zeros(0))
    with pytest.raises(ValueError, match="trees must hold fitted DecisionTree"):
        trees.GradientBoostingResult(0.0, [tree, trees.DecisionTree()], 0.1, "squared_error", np.zeros(3))
    with pytest.raises(ValueError, match="trees must hold fitted DecisionTree"):
        trees.BaggingResult([tree, "tree"], np.zeros((2, 2)), np.zeros(2), 0.0)
