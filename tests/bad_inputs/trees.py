import numpy as np

from mlnotes import trees

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((30, 3))
_Y = (_X[:, 0] + 0.3 * _X[:, 1] > 0).astype(int)          # labels 0/1
_PM = np.where(_Y == 1, 1, -1)                             # labels -1/+1
_R = _X[:, 0] - _X[:, 2] ** 2                              # real responses
_W = _rng.random(30) + 0.1
_P = _rng.dirichlet(np.ones(3), size=4)                    # (4, 3) class proportions

_tree = lambda: trees.DecisionTree("gini", max_depth=3).fit(_X, _Y)
_bag = lambda: trees.bagging(_X, _Y, 3, np.random.default_rng(1), max_depth=2)
_boost = lambda: trees.adaboost(_X, _PM, 3)
_gb = lambda: trees.gradient_boosting(_X, _R, 3, 0.5, 2)

SPECS = {
    "misclassification": (lambda: dict(p=_P, axis=1), {"p": "probabilities", "axis": "index"}),
    "gini": (lambda: dict(p=_P, axis=-1), {"p": "probabilities", "axis": "index"}),
    # a C-ordered copy: _negative_entry of test_bad_inputs.py edits a copy of an F-ordered array
    "entropy_impurity": (lambda: dict(p=np.ascontiguousarray(_P.T), axis=0),
                         {"p": "probabilities", "axis": "index"}),
    "best_split": (lambda: dict(X=_X, y=_Y, sample_weight=_W, criterion="entropy", min_samples_leaf=2,
                                features=np.array([0, 2])),
                   {"X": "array", "y": "array", "sample_weight": "array?", "criterion": "choice",
                    "min_samples_leaf": "count", "features": "array?"}),
    "DecisionTree.fit": (lambda: dict(X=_X, y=_R, sample_weight=_W),
                         {"X": "array", "y": "array", "sample_weight": "array?"},
                         lambda: trees.DecisionTree("squared_error", max_depth=2)),
    "DecisionTree.apply": (lambda: dict(X=_X[:5]), {"X": "array"}, _tree),
    "DecisionTree.predict": (lambda: dict(X=_X[:5]), {"X": "array"}, _tree),
    "DecisionTree.prune": (lambda: dict(alpha=0.01), {"alpha": "nonnegative"}, _tree),
    "majority_vote_error": (lambda: dict(T=10, p=0.4), {"T": "count", "p": "probability"}),
    # gamma lies in (0, 1/2]: "positive" (its bad values include 0); 0.7 is in test_trees
    "chernoff_majority_bound": (lambda: dict(T=10, gamma=0.1), {"T": "count", "gamma": "positive"}),
    "bagging": (lambda: dict(X=_X, y=_Y, n_estimators=3, rng=np.random.default_rng(1), criterion="gini",
                             max_features=2),
                {"X": "array", "y": "array", "n_estimators": "count", "rng": "rng", "criterion": "choice",
                 "max_features": "count?"}),
    "BaggingResult.predict": (lambda: dict(X=_X[:5]), {"X": "array"}, _bag),
    "adaboost": (lambda: dict(X=_X, y=_PM, n_rounds=3), {"X": "array", "y": "array", "n_rounds": "count"}),
    "AdaBoostResult.staged_decision_function": (lambda: dict(X=_X[:5]), {"X": "array"}, _boost),
    "AdaBoostResult.predict": (lambda: dict(X=_X[:5]), {"X": "array"}, _boost),
    "gradient_boosting": (lambda: dict(X=_X, y=_Y, n_estimators=3, learning_rate=0.5, max_depth=2,
                                       loss="log_loss", min_samples_leaf=2),
                          {"X": "array", "y": "array", "n_estimators": "count", "learning_rate": "positive",
                           "max_depth": "count", "loss": "choice", "min_samples_leaf": "count"}),
    "GradientBoostingResult.staged_decision_function": (lambda: dict(X=_X[:5]), {"X": "array"}, _gb),
    "GradientBoostingResult.predict": (lambda: dict(X=_X[:5]), {"X": "array"}, _gb),
}
EXEMPT = {
    "DecisionTree.n_leaves": "takes no argument (before fit it raises the ValueError of check.fitted, "
                             "tested in tests/test_trees.py)",
    "DecisionTree.cost_complexity_path": "takes no argument (before fit it raises the ValueError of "
                                         "check.fitted, tested in tests/test_trees.py)",
}
