"""Trees and ensembles (chapter 12): impurities, the vectorised best split, CART trees
with cost-complexity pruning, bagging (and random forests), AdaBoost with stumps, and
gradient boosting with regression trees.

Conventions. Data points are the rows of ``X``. A classification tree takes any integer
or real class labels and predicts the majority class of a leaf (ties go to the smallest
label, as in scikit-learn); a regression tree predicts the mean of a leaf. AdaBoost uses
labels in {-1, +1}. Impurities use natural logarithms (scikit-learn's ``"entropy"`` uses
base 2, which scales every impurity by the same factor and so never changes a split).
"""
from dataclasses import dataclass

import numpy as np
from scipy.special import expit, gammaln  # logistic function; log-factorials

from mlnotes import _validate as check

__all__ = [
    "misclassification", "gini", "entropy_impurity", "best_split", "DecisionTree",
    "majority_vote_error", "chernoff_majority_bound", "bagging", "BaggingResult",
    "adaboost", "AdaBoostResult", "gradient_boosting", "GradientBoostingResult",
]

CRITERIA = ("gini", "entropy", "squared_error")


# ------------------------------------------------------------------------ impurities
def misclassification(p, axis=-1):
    """Misclassification impurity ``1 - max_k p_k`` of class proportions ``p``.

    Parameters
    ----------
    p : array_like
        Class proportions, non-negative and summing to 1 along ``axis``.
    axis : int
        Axis of the classes.

    Returns
    -------
    ndarray
        The impurity, with ``axis`` removed.

    Raises
    ------
    ValueError
        If ``p`` is not a probability vector along ``axis``, or ``axis`` is not an axis of ``p``.
    """
    p, axis = _proportions(p, axis)
    return 1.0 - p.max(axis=axis)


def gini(p, axis=-1):
    """Gini impurity ``sum_k p_k (1 - p_k) = 1 - sum_k p_k^2`` of class proportions ``p``.

    Parameters
    ----------
    p : array_like
        Class proportions, non-negative and summing to 1 along ``axis``.
    axis : int
        Axis of the classes.

    Returns
    -------
    ndarray
        The impurity, with ``axis`` removed.

    Raises
    ------
    ValueError
        If ``p`` is not a probability vector along ``axis``, or ``axis`` is not an axis of ``p``.
    """
    p, axis = _proportions(p, axis)
    return 1.0 - np.sum(p * p, axis=axis)


def entropy_impurity(p, axis=-1):
    """Entropy impurity ``-sum_k p_k log p_k`` (natural log, ``0 log 0 = 0``).

    Parameters
    ----------
    p : array_like
        Class proportions, non-negative and summing to 1 along ``axis``.
    axis : int
        Axis of the classes.

    Returns
    -------
    ndarray
        The impurity in nats, with ``axis`` removed.

    Raises
    ------
    ValueError
        If ``p`` is not a probability vector along ``axis``, or ``axis`` is not an axis of ``p``.
    """
    p, axis = _proportions(p, axis)
    logp = np.log(np.where(p > 0, p, 1.0))
    return -np.sum(p * logp, axis=axis)


def _proportions(p, axis):
    """``(p, axis)``: class proportions along an integer ``axis`` of ``p`` (checked in that order)."""
    p = check.as_float(p, "p")
    axis = check.axis_index(axis, max(p.ndim, 1))
    return check.probabilities(p, "p", axis=axis), axis


def _node_impurity(counts, criterion):
    """Impurity from weighted class counts (..., K), or from (w, wy, wy²) for regression."""
    if criterion == "squared_error":
        w, s, s2 = counts[..., 0], counts[..., 1], counts[..., 2]
        return np.maximum(s2 / w - (s / w) ** 2, 0.0)
    p = counts / counts.sum(axis=-1, keepdims=True)
    if criterion == "gini":
        return 1.0 - np.sum(p * p, axis=-1)
    return -np.sum(p * np.log(np.where(p > 0, p, 1.0)), axis=-1)


def _targets(y, w, criterion, classes):
    """Per-point statistics whose sums give a node's impurity: one-hot weights or (w, wy, wy²)."""
    if criterion == "squared_error":
        return np.column_stack([w, w * y, w * y * y])
    return w[:, None] * (y[:, None] == classes[None, :])


# ------------------------------------------------------------------------ best split
def best_split(X, y, sample_weight=None, criterion="gini", min_samples_leaf=1, features=None):
    """Best axis-parallel split ``x_j <= s`` of a node, found for all thresholds at once.

    Each feature is sorted once; cumulative sums of the (weighted) class indicators, or of
    ``w, w y, w y^2`` for regression, give the impurity of both children at every cut, and
    the cut with the smallest weighted child impurity ``W_L G(L) + W_R G(R)`` wins. The
    threshold is the midpoint between the two sorted values it separates.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Class labels, or real responses for ``criterion="squared_error"``.
    sample_weight : array_like, shape (n,), optional
        Non-negative weights (default: all ones).
    criterion : {"gini", "entropy", "squared_error"}
    min_samples_leaf : int
        Each child must hold at least this many points.
    features : array_like of int, optional
        Features to search (default: all).

    Returns
    -------
    (feature, threshold, decrease) : (int, float, float)
        ``decrease`` is ``W G(node) - W_L G(L) - W_R G(R)`` (weights summed, not
        normalised); ``(-1, nan, 0.0)`` if no valid split exists.

    Raises
    ------
    ValueError
        On bad shapes, non-finite values, negative weights, an unknown criterion or a
        feature index outside 0, ..., d - 1.
    """
    X = check.matrix(X)
    n, d = X.shape
    y = check.vector(y, n, "y")
    w = _weights(sample_weight, n)
    criterion = check.choice(criterion, CRITERIA, "criterion")
    min_samples_leaf = check.count(min_samples_leaf, "min_samples_leaf")
    features = np.arange(d) if features is None else check.index_array(features, None, d, "features")
    return _best_split(X, y, w, criterion, min_samples_leaf, features, np.unique(y))


def _best_split(X, y, w, criterion, min_leaf, features, classes):
    n = X.shape[0]
    if n < 2 * min_leaf:
        return -1, np.nan, 0.0
    order = np.argsort(X[:, features], axis=0, kind="stable")          # (n, f)
    xs = np.take_along_axis(X[:, features], order, axis=0)
    T = _targets(y, w, criterion, classes)[order]                       # (n, f, K)
    left = np.cumsum(T, axis=0)[:-1]                                    # cut after row i
    total = left[-1] + T[-1]
    right = total[None] - left
    weight = (lambda c: c[..., 0]) if criterion == "squared_error" else (lambda c: c.sum(-1))
    wl, wr = weight(left), weight(right)
    size = np.arange(1, n)[:, None]
    ok = (xs[1:] > xs[:-1]) & (size >= min_leaf) & (n - size >= min_leaf) & (wl > 0) & (wr > 0)
    if not ok.any():
        return -1, np.nan, 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        child = wl * _node_impurity(left, criterion) + wr * _node_impurity(right, criterion)
    child = np.where(ok, child, np.inf)
    i, k = np.unravel_index(np.argmin(child), child.shape)
    threshold = xs[i, k] / 2.0 + xs[i + 1, k] / 2.0
    if threshold == xs[i + 1, k]:                     # midpoint rounded up: keep the left value
        threshold = xs[i, k]
    parent = weight(total[k]) * _node_impurity(total[k], criterion)
    return int(features[k]), float(threshold), float(parent - child[i, k])


def _weights(sample_weight, n):
    if sample_weight is None:
        return np.ones(n)
    w = check.vector(sample_weight, n, "sample_weight")
    if np.any(w < 0) or w.sum() <= 0:
        raise ValueError("sample_weight must be non-negative with a positive sum")
    return w


# ------------------------------------------------------------------------ the tree
class DecisionTree:
    """CART tree grown greedily by :func:`best_split`, with cost-complexity pruning.

    Nodes are numbered in depth-first order (left child first), as in scikit-learn, and
    stored in flat arrays: ``feature``, ``threshold``, ``left``, ``right`` (``-1`` at a
    leaf), ``value`` (class proportions or mean), ``impurity`` and ``weight`` (the summed
    sample weight of the node).

    Parameters
    ----------
    criterion : {"gini", "entropy", "squared_error"}
        The last one gives a regression tree.
    max_depth : int or None
        Maximum depth (the root has depth 0); ``None`` grows until the leaves are pure.
    min_samples_split, min_samples_leaf : int
        A node with fewer than ``min_samples_split`` points is a leaf; each child of a
        split holds at least ``min_samples_leaf`` points.
    max_features : int or None
        If set, each split searches a fresh random subset of this many features (a random
        forest's tree); needs ``rng``.
    rng : numpy.random.Generator, optional
    """

    def __init__(self, criterion="gini", max_depth=None, min_samples_split=2, min_samples_leaf=1,
                 max_features=None, rng=None):
        self.criterion = check.choice(criterion, CRITERIA, "criterion")
        self.max_depth = None if max_depth is None else check.count(max_depth, "max_depth", low=0)
        self.min_samples_split = check.count(min_samples_split, "min_samples_split", low=2)
        self.min_samples_leaf = check.count(min_samples_leaf, "min_samples_leaf")
        self.max_features = None if max_features is None else check.count(max_features, "max_features")
        self.rng = None if rng is None else check.generator(rng)
        if self.max_features is not None and self.rng is None:
            raise ValueError("rng must be given when max_features is set")

    def __repr__(self):
        leaves = self.n_leaves() if hasattr(self, "left") else 0
        return (f"DecisionTree(criterion={self.criterion!r}, max_depth={self.max_depth}, "
                f"leaves={leaves})")

    def fit(self, X, y, sample_weight=None):
        """Grow the tree on ``(X, y)`` (optionally weighted) and return ``self``.

        Raises
        ------
        ValueError
            On bad shapes, non-finite values, negative weights, or ``max_features`` > d.
        """
        X = check.matrix(X)
        y = check.vector(y, X.shape[0], "y")
        w = _weights(sample_weight, X.shape[0])
        if self.max_features is not None and self.max_features > X.shape[1]:
            raise ValueError(f"max_features must be at most d = {X.shape[1]}")
        self.classes_ = None if self.criterion == "squared_error" else np.unique(y)
        self.n_features_ = X.shape[1]
        self._nodes, self._pruned_at = [], None
        self._grow(X, y, w)
        cols = list(zip(*self._nodes))
        self.feature, self.left, self.right = (np.array(c, dtype=int) for c in cols[:3])
        self.threshold, self.impurity, self.weight = (np.array(c, dtype=float) for c in cols[3:6])
        self.value = np.array(cols[6], dtype=float)
        del self._nodes
        return self

    def _grow(self, X, y, w):
        """Append the nodes of the tree for ``(X, y, w)`` in depth-first order, left child first.

        An explicit stack replaces recursion, so a deep tree cannot overflow Python's call
        stack: each entry is a node's data, its depth and the parent slot for its id.
        """
        stack = [(X, y, w, 0, None)]
        while stack:
            X, y, w, depth, slot = stack.pop()
            stats = _targets(y, w, self.criterion, self.classes_).sum(axis=0)
            impurity = float(_node_impurity(stats, self.criterion))
            value = stats[1] / stats[0] if self.criterion == "squared_error" else stats / stats.sum()
            wsum = float(stats[0] if self.criterion == "squared_error" else stats.sum())
            node = len(self._nodes)
            self._nodes.append([-1, -1, -1, np.nan, impurity, wsum, value])
            if slot is not None:                          # (parent, 1 for left or 2 for right)
                self._nodes[slot[0]][slot[1]] = node
            if ((self.max_depth is not None and depth >= self.max_depth) or impurity <= 1e-12
                    or X.shape[0] < self.min_samples_split):
                continue
            d = X.shape[1]
            feats = (np.arange(d) if self.max_features is None
                     else np.sort(self.rng.choice(d, self.max_features, replace=False)))
            j, s, _ = _best_split(X, y, w, self.criterion, self.min_samples_leaf, feats, self.classes_)
            if j < 0:
                continue
            go_left = X[:, j] <= s
            self._nodes[node][0], self._nodes[node][3] = j, s
            stack.append((X[~go_left], y[~go_left], w[~go_left], depth + 1, (node, 2)))
            stack.append((X[go_left], y[go_left], w[go_left], depth + 1, (node, 1)))  # popped first

    def apply(self, X):
        """Leaf id reached by each row of ``X`` (all rows descend the tree together).

        Raises
        ------
        ValueError
            If the tree is not fitted, or ``X`` is not a finite 2-D array with as many
            columns as the training data.
        """
        X = check.matrix_with_columns(X, check.fitted(self, "left").n_features_)
        node = np.zeros(X.shape[0], dtype=int)
        while True:
            inner = self.left[node] >= 0
            if not inner.any():
                return node
            k = node[inner]
            go_left = X[inner, self.feature[k]] <= self.threshold[k]
            node[inner] = np.where(go_left, self.left[k], self.right[k])

    def predict(self, X):
        """Majority class (classification) or leaf mean (regression) for each row of ``X``."""
        leaf = self.apply(X)
        if self.criterion == "squared_error":
            return self.value[leaf]
        return self.classes_[np.argmax(self.value[leaf], axis=1)]

    def n_leaves(self):
        """Number of leaves (nodes below a pruned node are not counted)."""
        check.fitted(self, "left")
        reach = np.zeros(len(self.left), bool)
        reach[0] = True
        for t in np.flatnonzero(self.left >= 0):      # parents come before their children
            reach[[self.left[t], self.right[t]]] = reach[t]
        return int(np.sum(reach & (self.left < 0)))

    def _subtree_risk(self, alive):
        """For each node: total risk R(T_t) and leaf count of its subtree in the pruned tree."""
        R = self.weight / self.weight[0] * self.impurity
        risk, leaves = R.copy(), np.ones(len(R))
        for t in range(len(R) - 1, -1, -1):           # children have larger ids than parents
            if self.left[t] >= 0 and alive[t]:
                risk[t] = risk[self.left[t]] + risk[self.right[t]]
                leaves[t] = leaves[self.left[t]] + leaves[self.right[t]]
        return R, risk, leaves

    def cost_complexity_path(self):
        """Weakest-link pruning: the increasing alphas and the total leaf impurity of each subtree.

        The risk of a node is ``R(t) = (W_t / W) G(t)``. At each step the internal node with
        the smallest ``g(t) = (R(t) - R(T_t)) / (|T_t| - 1)`` is collapsed into a leaf, until
        only the root is left (scikit-learn's ``cost_complexity_pruning_path``).

        Returns
        -------
        alphas, impurities : ndarray
            ``alphas[k]`` is the alpha at which the k-th subtree becomes optimal
            (``alphas[0] = 0``); ``impurities[k] = sum over its leaves of R(t)``.
        """
        check.fitted(self, "left")
        alive = self.left >= 0                          # internal nodes still split
        alphas, impurities = [0.0], []
        self._pruned_at = np.full(len(self.left), np.inf)
        while True:
            R, risk, leaves = self._subtree_risk(alive)
            impurities.append(risk[0])
            if not alive.any():
                break
            with np.errstate(divide="ignore", invalid="ignore"):
                g = np.where(alive, (R - risk) / (leaves - 1), np.inf)
            t = int(np.argmin(g))
            alphas.append(max(g[t], alphas[-1]))
            self._pruned_at[t] = alphas[-1]
            stack = [t]                                 # collapse t's subtree
            while stack:
                u = stack.pop()
                alive[u] = False
                if self.left[u] >= 0:
                    stack += [self.left[u], self.right[u]]
        return np.array(alphas), np.array(impurities)

    def prune(self, alpha):
        """The subtree of the weakest-link sequence that minimises ``R(T) + alpha |T|``.

        Returns a new :class:`DecisionTree` whose collapsed nodes are leaves.
        """
        alpha = check.nonnegative(alpha, "alpha")
        check.fitted(self, "left")
        if getattr(self, "_pruned_at", None) is None:
            self.cost_complexity_path()
        pruned = DecisionTree(self.criterion, self.max_depth, self.min_samples_split,
                              self.min_samples_leaf)
        pruned.classes_, pruned.n_features_ = self.classes_, self.n_features_
        for name in ("feature", "threshold", "left", "right", "impurity", "weight", "value"):
            setattr(pruned, name, getattr(self, name).copy())
        cut = self._pruned_at <= alpha
        for t in np.flatnonzero(self.left >= 0):      # below a collapsed node, all is collapsed
            if cut[t]:
                cut[[self.left[t], self.right[t]]] = True
        pruned.left[cut], pruned.right[cut], pruned.feature[cut] = -1, -1, -1
        pruned.threshold[cut] = np.nan
        return pruned


# ------------------------------------------------------------------------ majority votes
def majority_vote_error(T, p):
    """Exact probability that a majority of ``2T+1`` independent voters, each wrong with
    probability ``p``, is wrong: ``sum_{i=T+1}^{2T+1} C(2T+1, i) p^i (1-p)^(2T+1-i)``.

    Parameters
    ----------
    T : array_like of int
        Non-negative; the crowd has ``2T + 1`` voters.
    p : float
        Error probability of each voter, in [0, 1].

    Returns
    -------
    ndarray
        The probability for each ``T``.

    Raises
    ------
    ValueError
        If ``T`` is negative or not integral, or ``p`` is outside [0, 1].
    """
    T = np.atleast_1d(check.integer_entries(T, "T", low=0))
    p = check.number_between(p, "p", 0, 1)
    m = 2 * int(T.max()) + 1
    i = np.arange(m + 1)
    n = 2 * T[:, None] + 1
    logc = gammaln(n + 1) - gammaln(i + 1) - gammaln(np.maximum(n - i, 0) + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        logterm = logc + i * np.log(p) + (n - i) * np.log1p(-p)
        terms = np.where((i > T[:, None]) & (i <= n), np.exp(np.nan_to_num(logterm, nan=-np.inf)), 0.0)
    if p in (0.0, 1.0):
        terms = np.where((i > T[:, None]) & (i <= n), (i == n) * (p == 1.0), 0.0)
    return terms.sum(axis=1)


def chernoff_majority_bound(T, gamma):
    """Chernoff bound ``exp(-(mu - T)^2 / (2 mu))``, ``mu = (2T+1)(1/2 + gamma)``, on the
    error of a majority of ``2T+1`` independent voters, each right with probability 1/2 + gamma.

    Raises
    ------
    ValueError
        If ``T`` is negative or ``gamma`` is outside (0, 1/2].
    """
    T = np.atleast_1d(check.integer_entries(T, "T", low=0))
    gamma = check.number_between(gamma, "gamma", 0, 0.5, open_low=True)
    mu = (2 * T + 1) * (0.5 + gamma)
    return np.exp(-((mu - T) ** 2) / (2 * mu))


def _members(trees, name):
    """``trees`` as a non-empty list of fitted :class:`DecisionTree` objects (an ensemble)."""
    if not isinstance(trees, (list, tuple)) or len(trees) == 0:
        raise ValueError(f"{name} must be a non-empty list of fitted DecisionTree objects, got "
                         f"{type(trees).__name__}{' of length 0' if isinstance(trees, (list, tuple)) else ''}")
    for t in trees:
        if not isinstance(t, DecisionTree) or getattr(t, "left", None) is None:
            raise ValueError(f"{name} must hold fitted DecisionTree objects, got {type(t).__name__}")
    return list(trees)


# ------------------------------------------------------------------------ bagging
@dataclass(repr=False)
class BaggingResult:
    """Trees grown on bootstrap samples, with the in-bag counts and the out-of-bag vote."""

    trees: list
    in_bag: np.ndarray          # (B, n) number of times point i is in bootstrap b
    oob_prediction: np.ndarray  # (n,) out-of-bag prediction (nan where never out of bag)
    oob_error: float

    def __post_init__(self):
        self.trees = _members(self.trees, "trees")

    def __repr__(self):
        return f"BaggingResult(n_trees={len(self.trees)}, oob_error={self.oob_error:.4f})"

    def predict(self, X):
        """Majority vote (classification) or average (regression) of the trees."""
        return _aggregate(np.stack([t.predict(X) for t in self.trees]), self.trees[0])


def _aggregate(P, tree, mask=None):
    """Combine predictions P (B, m) column by column, using only the rows where ``mask``."""
    mask = np.ones(P.shape, bool) if mask is None else mask
    if tree.criterion == "squared_error":
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.sum(P * mask, axis=0) / mask.sum(axis=0)
    votes = np.stack([np.sum((P == c) & mask, axis=0) for c in tree.classes_], axis=1)
    out = tree.classes_[np.argmax(votes, axis=1)].astype(float)
    return np.where(mask.any(axis=0), out, np.nan)


def bagging(X, y, n_estimators, rng, criterion="gini", max_features=None, **tree_params):
    """Bootstrap aggregation: grow one tree per bootstrap sample, vote or average.

    With ``max_features`` set, each split of each tree searches a random subset of that
    many features: a random forest. The out-of-bag prediction of point ``i`` combines
    only the trees whose bootstrap sample missed ``i``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    n_estimators : int
        Number of bootstrap samples (trees).
    rng : numpy.random.Generator
    criterion : {"gini", "entropy", "squared_error"}
    max_features : int or None
    **tree_params
        ``max_depth``, ``min_samples_split``, ``min_samples_leaf`` of :class:`DecisionTree`.

    Returns
    -------
    BaggingResult

    Raises
    ------
    ValueError
        On bad shapes or values, a bad ``n_estimators`` or ``rng``, or a tree option that
        :class:`DecisionTree` rejects (``TypeError`` for an unknown one).
    """
    X = check.matrix(X)
    n = X.shape[0]
    y = check.vector(y, n, "y")
    B = check.count(n_estimators, "n_estimators")
    rng = check.generator(rng)
    DecisionTree(criterion, max_features=max_features, rng=rng, **tree_params)  # checks the tree options
    idx = rng.integers(0, n, size=(B, n))
    in_bag = np.stack([np.bincount(row, minlength=n) for row in idx])
    trees = [DecisionTree(criterion, max_features=max_features, rng=rng, **tree_params)
             .fit(X[row], y[row]) for row in idx]
    P = np.stack([t.predict(X) for t in trees])
    oob = _aggregate(P, trees[0], mask=in_bag == 0)
    seen = ~np.isnan(oob)
    if criterion == "squared_error":
        err = float(np.mean((oob[seen] - y[seen]) ** 2)) if seen.any() else np.nan
    else:
        err = float(np.mean(oob[seen] != y[seen])) if seen.any() else np.nan
    return BaggingResult(trees, in_bag, oob, err)


# ------------------------------------------------------------------------ AdaBoost
@dataclass(repr=False)
class AdaBoostResult:
    """The stumps ``h_t``, their weights ``alpha_t``, weighted errors ``eps_t`` and normalisers ``Z_t``."""

    stumps: list
    alpha: np.ndarray
    eps: np.ndarray
    Z: np.ndarray

    def __post_init__(self):
        self.stumps = _members(self.stumps, "stumps")

    def __repr__(self):
        return f"AdaBoostResult(rounds={len(self.stumps)})"

    def staged_decision_function(self, X):
        """``f_t(x) = sum_{s<=t} alpha_s h_s(x)`` for every round t: shape (T, m)."""
        H = np.stack([h.predict(X) for h in self.stumps])
        return np.cumsum(self.alpha[:, None] * H, axis=0)

    def predict(self, X):
        """``sign f_T(x)`` in {-1, +1} (a score of exactly 0 goes to -1, as in scikit-learn)."""
        return np.where(self.staged_decision_function(X)[-1] > 0, 1, -1)


def adaboost(X, y, n_rounds):
    """AdaBoost with decision stumps on labels in {-1, +1}.

    Round t fits a stump (a depth-1 :class:`DecisionTree`, Gini criterion, as
    scikit-learn's ``AdaBoostClassifier`` does) to the weights ``D_t``, then sets
    ``eps_t = sum_i D_t(i) [h_t(x_i) != y_i]``, ``alpha_t = log((1 - eps_t)/eps_t) / 2``
    and ``D_{t+1}(i) = D_t(i) exp(-alpha_t y_i h_t(x_i)) / Z_t``. It stops early if a
    stump is perfect (kept with ``alpha = 1/2``, as scikit-learn does, so ``Z_t = e^{-1/2}``)
    or no better than chance (dropped).

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    n_rounds : int
        Number of rounds T.

    Returns
    -------
    AdaBoostResult

    Raises
    ------
    ValueError
        On bad shapes, labels outside {-1, +1}, a bad ``n_rounds``, or a first stump no
        better than chance.
    """
    X = check.matrix(X)
    n = X.shape[0]
    y = check.labels(y, n, (-1, 1)).astype(float)
    T = check.count(n_rounds, "n_rounds")
    D = np.full(n, 1.0 / n)
    stumps, alpha, eps, Z = [], [], [], []
    for _ in range(T):
        h = DecisionTree("gini", max_depth=1).fit(X, y, sample_weight=D)
        miss = h.predict(X) != y
        e = float(D @ miss)
        if e >= 0.5:
            if not stumps:
                raise ValueError("y: the first stump is no better than chance")
            break
        a = 0.5 * np.log((1 - e) / e) if e > 0 else 0.5   # a perfect stump: stop
        D = D * np.exp(np.where(miss, a, -a))
        stumps.append(h)
        alpha.append(a)
        eps.append(e)
        Z.append(D.sum())
        D = D / D.sum()
        if e <= 0:
            break
    return AdaBoostResult(stumps, np.array(alpha), np.array(eps), np.array(Z))


# ------------------------------------------------------------------------ gradient boosting
BOOST_LOSSES = ("squared_error", "log_loss")


def _boost_loss(loss, y, F):
    """Mean loss and negative gradient ``-dL/dF`` of ``L(y, F)`` at the scores ``F``.

    ``squared_error``: ``L = (y - F)^2 / 2``; ``log_loss`` (y in {0, 1}, ``F`` the log-odds):
    ``L = log(1 + e^F) - y F``, the negative log-likelihood of ``P(y = 1) = 1/(1 + e^-F)``.
    """
    if loss == "squared_error":
        return float(np.mean(0.5 * (y - F) ** 2)), y - F
    return float(np.mean(np.logaddexp(0.0, F) - y * F)), y - expit(F)


@dataclass(repr=False)
class GradientBoostingResult:
    """The constant ``F_0``, the trees ``h_m`` (leaves hold the steps ``gamma_jm``), the
    learning rate ``nu`` and the training loss of ``F_0, F_1, ..., F_M``."""

    init: float
    trees: list
    learning_rate: float
    loss: str
    train_loss: np.ndarray      # (M + 1,) mean training loss after 0, 1, ..., M rounds

    def __post_init__(self):
        self.trees = _members(self.trees, "trees")

    def __repr__(self):
        return (f"GradientBoostingResult(loss={self.loss!r}, rounds={len(self.trees)}, "
                f"learning_rate={self.learning_rate})")

    def staged_decision_function(self, X):
        """``F_m(x) = F_0 + nu sum_{k<=m} h_k(x)`` for every round m = 1..M: shape (M, m)."""
        H = np.stack([h.predict(X) for h in self.trees])
        return self.init + self.learning_rate * np.cumsum(H, axis=0)

    def predict(self, X):
        """``F_M(x)`` (squared error), or the class ``1[F_M(x) > 0]`` in {0, 1} (log loss)."""
        F = self.staged_decision_function(X)[-1]
        return F if self.loss == "squared_error" else (F > 0).astype(int)


def gradient_boosting(X, y, n_estimators, learning_rate, max_depth, loss="squared_error",
                      min_samples_leaf=1):
    """Gradient tree boosting: each round fits a regression tree to the negative gradient.

    ``F_0`` is the constant minimising the loss (the mean of ``y``, or the log-odds of the
    class-1 proportion). Round m computes the pseudo-residuals ``r_i = -dL(y_i, F)/dF`` at
    ``F = F_{m-1}(x_i)``, grows a least-squares :class:`DecisionTree` of depth ``max_depth``
    on ``(x_i, r_i)``, replaces each leaf value by the loss-minimising step ``gamma_j``
    (the leaf mean of ``r`` for squared error, which the tree holds already; one Newton
    step ``sum r_i / sum p_i (1 - p_i)`` for log loss, as scikit-learn does), and sets
    ``F_m = F_{m-1} + nu h_m``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Real responses (squared error) or labels in {0, 1} (log loss).
    n_estimators : int
        Number of rounds M.
    learning_rate : float
        Shrinkage ``nu > 0``.
    max_depth : int
        Depth (>= 1) of each tree.
    loss : {"squared_error", "log_loss"}
    min_samples_leaf : int
        Each leaf of each tree holds at least this many points.

    Returns
    -------
    GradientBoostingResult

    Raises
    ------
    ValueError
        On bad shapes or values, labels outside {0, 1} (or only one class) for log loss,
        or a bad ``n_estimators``, ``learning_rate``, ``max_depth``, ``loss`` or
        ``min_samples_leaf``; or if the boosting diverges (the training loss overflows,
        e.g. ``learning_rate`` far above 2 for squared error).
    """
    X = check.matrix(X)
    loss = check.choice(loss, BOOST_LOSSES, "loss")
    if loss == "squared_error":
        y = check.vector(y, X.shape[0], "y")
        F0 = float(np.mean(y))
    else:
        y = check.labels(y, X.shape[0], (0, 1)).astype(float)
        if y.min() == y.max():
            raise ValueError("y must contain both classes 0 and 1 for log_loss")
        F0 = float(np.log(y.mean() / (1 - y.mean())))
    M = check.count(n_estimators, "n_estimators")
    nu = check.positive(learning_rate, "learning_rate")
    depth = check.count(max_depth, "max_depth")
    min_leaf = check.count(min_samples_leaf, "min_samples_leaf")
    F = np.full(X.shape[0], F0)
    trees, losses = [], []
    for m in range(M + 1):
        value, r = _boost_loss(loss, y, F)
        if not np.isfinite(value):
            raise ValueError(f"gradient boosting diverged after {m} rounds (the training loss "
                             f"overflowed): use a smaller learning_rate, below 2 for squared error")
        losses.append(value)
        if m == M:
            break
        h = DecisionTree("squared_error", max_depth=depth, min_samples_leaf=min_leaf).fit(X, r)
        leaf = h.apply(X)
        if loss == "log_loss":                     # Newton step in each leaf
            p = y - r
            num = np.bincount(leaf, r, minlength=len(h.value))
            den = np.bincount(leaf, p * (1 - p), minlength=len(h.value))
            reached = np.unique(leaf)
            h.value[reached] = np.where(den[reached] > 1e-150,
                                        num[reached] / np.maximum(den[reached], 1e-300), 0.0)
        F = F + nu * h.value[leaf]
        trees.append(h)
    return GradientBoostingResult(F0, trees, nu, loss, np.array(losses))
