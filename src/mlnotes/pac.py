"""PAC learning, VC dimension and nearest neighbours (chapter 31).

The Bayes classifier and its risk, the k-nearest-neighbour rule and its asymptotic 1-NN
error, empirical risk minimisation over a finite class, the sample sizes of the realisable
and the agnostic (uniform-convergence) bounds, deciding linear separability by a linear
program, shattering and Radon partitions, the No-Free-Lunch average computed exactly over
all labelings of a small domain, and nearest-neighbour distances as the dimension grows.
Labels are in {-1, +1}.
"""
import itertools
import math
from typing import NamedTuple

import numpy as np
import scipy.optimize

from mlnotes import _validate as check

__all__ = [
    "bayes_classifier", "bayes_risk", "knn_predict", "one_nn_asymptotic_error",
    "ERMResult", "erm_finite", "pac_sample_size", "uc_sample_size", "linearly_separable",
    "is_shattered", "vc_dimension_lower_bound", "RadonPartition", "radon_partition",
    "NFLResult", "nfl_average_error", "NNDistances", "nn_distance_vs_dimension",
]

_MAX_ENUMERATION = 2 ** 24      # learner evaluations allowed in nfl_average_error


# ---------------------------------------------------------------- private checks
def _eta(eta):
    """``eta`` as P(y = +1 | x) values in [0, 1] (1-D) or class-probability rows (2-D)."""
    eta = check.finite(eta, "eta")
    if eta.ndim not in (1, 2) or eta.size == 0:
        raise ValueError(f"eta must be a non-empty 1-D array of P(y=+1|x) or a 2-D array of "
                         f"class probabilities, got shape {eta.shape}")
    if np.any(eta < 0) or np.any(eta > 1):
        raise ValueError("eta must contain probabilities in [0, 1]")
    if eta.ndim == 2:
        check.probabilities(eta, "eta", axis=1)
    return eta


def _pm1(y, n, name="y"):
    return check.labels(y, n, (-1, 1), name)


def _eps_delta(n_hypotheses, eps, delta):
    k = check.count(n_hypotheses, "n_hypotheses")
    eps = check.number_between(eps, "eps", 0, 1, open_low=True, open_high=True)
    delta = check.number_between(delta, "delta", 0, 1, open_low=True, open_high=True)
    return k, eps, delta


def _predicate(separable, points, y):
    """Call a user predicate and insist on a truth value."""
    out = separable(points, y)
    if not isinstance(out, (bool, np.bool_)):
        raise ValueError(f"separable must return True or False, got {type(out).__name__}")
    return bool(out)


# ---------------------------------------------------------------- Bayes classifier
def bayes_classifier(eta):
    """The Bayes classifier: +1 where P(y = +1 | x) > 1/2, else -1; argmax for several classes.

    Parameters
    ----------
    eta : array_like
        Shape (n,): the regression function eta(x) = P(y = +1 | x) at n points; or shape
        (n, C): the class probabilities p(y = c | x), rows summing to 1.

    Returns
    -------
    ndarray of int
        Shape (n,): labels in {-1, +1} (ties eta = 1/2 go to -1), or class indices 0..C-1
        (the first maximiser) in the multi-class case.
    """
    eta = _eta(eta)
    if eta.ndim == 2:
        return np.argmax(eta, axis=1)
    return np.where(eta > 0.5, 1, -1)


def _weights(px, n):
    px = check.vector(px, None, "px")
    if px.shape[0] != n:
        raise ValueError(f"px and eta must describe the same points: eta has {n}, px {px.shape[0]}")
    return check.probabilities(px, "px")


def bayes_risk(eta, px):
    """Bayes risk R* = sum_x p(x) min(eta(x), 1 - eta(x)) on a finite domain.

    Parameters
    ----------
    eta : array_like
        Shape (n,) with eta(x) = P(y = +1 | x), or (n, C) class probabilities.
    px : array_like
        Shape (n,): the probabilities p(x) of the n points (summing to 1).

    Returns
    -------
    float
        The smallest 0-1 risk of any classifier, sum_x p(x) (1 - max_c p(c | x)).
    """
    eta = _eta(eta)
    px = _weights(px, eta.shape[0])
    top = eta.max(axis=1) if eta.ndim == 2 else np.maximum(eta, 1 - eta)
    return float(px @ (1 - top))


def one_nn_asymptotic_error(eta, px):
    """Large-sample error of the 1-NN rule, E[2 eta(1 - eta)] (Cover and Hart).

    Parameters
    ----------
    eta : array_like
        Shape (n,) with eta(x) = P(y = +1 | x), or (n, C) class probabilities.
    px : array_like
        Shape (n,): probabilities of the points (a quadrature or a finite domain).

    Returns
    -------
    float
        sum_x p(x) sum_c p(c | x)(1 - p(c | x)); for two classes sum_x p(x) 2 eta(1 - eta).
    """
    eta = _eta(eta)
    px = _weights(px, eta.shape[0])
    P = eta if eta.ndim == 2 else np.column_stack([eta, 1 - eta])
    return float(px @ np.sum(P * (1 - P), axis=1))


# ---------------------------------------------------------------- nearest neighbours
def knn_predict(X_train, y_train, X, k, chunk=2048):
    """k-nearest-neighbour majority vote with Euclidean distance and labels in {-1, +1}.

    Parameters
    ----------
    X_train : array_like, shape (n, d)
        Training inputs.
    y_train : array_like, shape (n,)
        Training labels in {-1, +1}.
    X : array_like, shape (q, d)
        Query points.
    k : int
        Number of neighbours, 1 <= k <= n. An odd k avoids ties in the vote; a tie goes to
        the label of the nearest neighbour.
    chunk : int
        Queries processed at a time (memory of chunk x n distances).

    Returns
    -------
    ndarray of int, shape (q,)
        Predicted labels.
    """
    X_train = check.matrix(X_train, "X_train")
    n, d = X_train.shape
    y_train = _pm1(y_train, n, "y_train")
    X = check.matrix_with_columns(X, d, "X")
    k = check.count(k, "k")
    chunk = check.count(chunk, "chunk")
    if k > n:
        raise ValueError(f"k must be at most the number of training points {n}, got {k}")
    centre = X_train.mean(axis=0)        # distances are translation invariant: centre first
    A, B = X_train - centre, X - centre
    a2 = np.sum(A**2, axis=1)
    out = np.empty(X.shape[0], dtype=int)
    for s in range(0, X.shape[0], chunk):
        Q = B[s:s + chunk]
        D = a2[None, :] - 2 * Q @ A.T                       # |q - a|^2 - |q|^2
        votes = y_train[np.argpartition(D, k - 1, axis=1)[:, :k]].sum(axis=1)
        nearest = y_train[np.argmin(D, axis=1)]             # breaks a tied vote
        out[s:s + chunk] = np.where(votes != 0, np.sign(votes), nearest)
    return out


class NNDistances(NamedTuple):
    """Nearest-neighbour distances of uniform points in [0, 1]^d, one entry per dimension."""
    dims: np.ndarray          #: the dimensions d
    nn_median: np.ndarray     #: median over the points of the distance to the nearest other point
    all_median: np.ndarray    #: median over all pairs of the distance
    ratio: np.ndarray         #: nn_median / all_median: tends to 1 as d grows


def nn_distance_vs_dimension(n, dims, rng):
    """Median nearest-neighbour and pairwise distances of n uniform points in [0, 1]^d.

    Parameters
    ----------
    n : int
        Number of points (>= 2), drawn afresh for each d.
    dims : array_like of int
        Dimensions d >= 1.
    rng : numpy.random.Generator
        Source of the points (for d in the order given, ``rng.random((n, d))``).

    Returns
    -------
    NNDistances
    """
    n = check.count(n, "n", low=2)
    dims = check.integer_entries(dims, "dims", low=1)
    if dims.ndim != 1 or dims.size == 0:
        raise ValueError(f"dims must be a non-empty 1-D array of dimensions, got shape {dims.shape}")
    rng = check.generator(rng)
    nn, allm = [], []
    iu = np.triu_indices(n, 1)
    for d in dims:
        Z = rng.random((n, int(d)))
        sq = np.sum(Z**2, axis=1)
        D = np.sqrt(np.maximum(sq[:, None] + sq[None, :] - 2 * Z @ Z.T, 0))
        np.fill_diagonal(D, np.inf)
        nn.append(np.median(D.min(axis=1)))
        allm.append(np.median(D[iu]))
    nn, allm = np.array(nn), np.array(allm)
    return NNDistances(dims, nn, allm, nn / allm)


# ---------------------------------------------------------------- finite classes
class ERMResult(NamedTuple):
    """Empirical risk minimisation over a finite class."""
    index: int                #: position of the chosen hypothesis (the first minimiser)
    risk: float               #: its empirical 0-1 risk L_S
    risks: np.ndarray         #: empirical risks of all hypotheses


def erm_finite(hypotheses, X, y):
    """ERM over a finite class: the hypothesis with the least training 0-1 error.

    Parameters
    ----------
    hypotheses : sequence of callables
        Each maps X (shape (m, d)) to m labels in {-1, +1}.
    X : array_like, shape (m, d)
        Training inputs.
    y : array_like, shape (m,)
        Training labels in {-1, +1}.

    Returns
    -------
    ERMResult
        Ties are broken by the smallest index.
    """
    if isinstance(hypotheses, (str, bytes, np.ndarray)) or not isinstance(hypotheses, (list, tuple)) \
            or len(hypotheses) == 0:
        raise ValueError("hypotheses must be a non-empty list or tuple of callables, "
                         f"got {type(hypotheses).__name__}")
    for j, h in enumerate(hypotheses):
        check.function(h, f"hypotheses[{j}]")
    X = check.matrix(X, "X")
    y = _pm1(y, X.shape[0])
    P = np.stack([_pm1(np.asarray(h(X)), X.shape[0], f"the value returned by hypotheses[{j}]")
                  for j, h in enumerate(hypotheses)])
    risks = np.mean(P != y, axis=1)
    j = int(np.argmin(risks))
    return ERMResult(j, float(risks[j]), risks)


def pac_sample_size(n_hypotheses, eps, delta):
    """Realisable sample size ceil(log(|H|/delta)/eps) for ERM over a finite class.

    Parameters
    ----------
    n_hypotheses : int
        |H| >= 1.
    eps, delta : float
        Accuracy and failure probability, both in (0, 1).

    Returns
    -------
    int
        The smallest m with |H| exp(-eps m) <= delta.
    """
    k, eps, delta = _eps_delta(n_hypotheses, eps, delta)
    return check.sample_size((math.log(k) - math.log(delta)) / np.float64(eps) - 1e-12, "eps")


def uc_sample_size(n_hypotheses, eps, delta):
    """Uniform-convergence sample size ceil(log(2|H|/delta)/(2 eps^2)) for a finite class.

    With this many examples every h in H has |L_S(h) - L_D(h)| <= eps with probability at
    least 1 - delta; the agnostic PAC sample size is ``uc_sample_size(k, eps / 2, delta)``.

    Parameters
    ----------
    n_hypotheses : int
        |H| >= 1.
    eps, delta : float
        Accuracy and failure probability, both in (0, 1).

    Returns
    -------
    int
        The smallest m with 2|H| exp(-2 m eps^2) <= delta.
    """
    k, eps, delta = _eps_delta(n_hypotheses, eps, delta)
    with np.errstate(divide="ignore", over="ignore"):             # eps**2 may underflow to 0
        need = (math.log(2 * k) - math.log(delta)) / (2 * np.float64(eps) ** 2)
    return check.sample_size(need - 1e-12, "eps")


# ---------------------------------------------------------------- separability and shattering
def linearly_separable(X, y, bias=True):
    """Whether some halfspace sgn(<w, x> + b) labels every point correctly (an LP).

    The labels are realised strictly, y_i(<w, x_i> + b) > 0, if and only if the linear
    program with constraints y_i(<w, x_i> + b) >= 1 (after rescaling w, b) is feasible;
    ``scipy.optimize.linprog`` (HiGHS) decides it. A least-squares fit of y is tried
    first: when it already has the right signs it is a certificate and the LP is skipped.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Points.
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    bias : bool
        Allow an offset b (affine halfspaces); False gives homogeneous ones, b = 0.

    Returns
    -------
    bool
    """
    X = check.matrix(X, "X")
    y = _pm1(y, X.shape[0])
    bias = check.flag(bias, "bias")
    A = np.column_stack([X, np.ones(len(X))]) if bias else X
    w = np.linalg.lstsq(A, y.astype(float), rcond=None)[0]
    if np.all(y * (A @ w) > 1e-9 * max(1.0, np.abs(A @ w).max())):
        return True                       # the least-squares fit already separates: a certificate
    res = scipy.optimize.linprog(np.zeros(A.shape[1]), A_ub=-(y[:, None] * A),
                                 b_ub=-np.ones(len(X)), bounds=(None, None), method="highs")
    return bool(res.status == 0)


def is_shattered(points, separable):
    """Whether a class realises all 2^n labelings of n points (brute force).

    Parameters
    ----------
    points : array_like, shape (n, d)
        The set C, 1 <= n <= 20.
    separable : callable
        ``separable(points, y)`` returns True if some hypothesis gives the labels y in
        {-1, +1}^n, e.g. :func:`linearly_separable`.

    Returns
    -------
    bool
        True if every labeling is realised (stops at the first one that is not).
    """
    points = check.matrix(points, "points")
    separable = check.function(separable, "separable")
    n = points.shape[0]
    if n > 20:
        raise ValueError(f"points must hold at most 20 points (2^n labelings), got {n}")
    for lab in itertools.product((-1, 1), repeat=n):
        if not _predicate(separable, points, np.array(lab)):
            return False
    return True


def vc_dimension_lower_bound(points_candidates, separable):
    """Largest size of a shattered set among candidate sets: a lower bound on the VC dimension.

    Parameters
    ----------
    points_candidates : sequence of array_like
        Candidate sets, each of shape (n_i, d).
    separable : callable
        As in :func:`is_shattered`.

    Returns
    -------
    int
        max n_i over the shattered candidates (0 if none is shattered).
    """
    if isinstance(points_candidates, (str, bytes)) or not isinstance(points_candidates, (list, tuple)) \
            or len(points_candidates) == 0:
        raise ValueError("points_candidates must be a non-empty list or tuple of point arrays, "
                         f"got {type(points_candidates).__name__}")
    separable = check.function(separable, "separable")
    sets = [check.matrix(P, f"points_candidates[{j}]") for j, P in enumerate(points_candidates)]
    best = 0
    for P in sorted(sets, key=len, reverse=True):
        if len(P) > best and is_shattered(P, separable):
            best = len(P)
    return best


class RadonPartition(NamedTuple):
    """A Radon partition of points in R^d."""
    first: np.ndarray         #: indices of X_1 (beta_i > 0)
    second: np.ndarray        #: indices of X_2 (beta_i <= 0)
    point: np.ndarray         #: a point of conv(X_1) and of conv(X_2)
    weights: np.ndarray       #: the affine dependence beta (sum 0, sum beta_i x_i = 0)


def radon_partition(points):
    """Split n >= d + 2 points of R^d into two sets whose convex hulls meet (Radon).

    An affine dependence beta != 0 with sum_i beta_i x_i = 0 and sum_i beta_i = 0 is a null
    vector of the (d + 1) x n matrix [X^T; 1^T] (from its SVD); its positive and
    non-positive entries give the two sets, and the common point is
    sum_{beta_i > 0} beta_i x_i / sum_{beta_i > 0} beta_i.

    Parameters
    ----------
    points : array_like, shape (n, d)
        n >= d + 2 points.

    Returns
    -------
    RadonPartition
    """
    X = check.matrix(points, "points")
    n, d = X.shape
    if n < d + 2:
        raise ValueError(f"points must hold at least d + 2 = {d + 2} points in R^{d}, got {n}")
    M = np.vstack([X.T, np.ones(n)])
    beta = np.linalg.svd(M)[2][-1]
    beta = beta / np.abs(beta).max()
    beta[np.abs(beta) < 1e-12] = 0.0
    pos = beta > 0
    point = beta[pos] @ X[pos] / beta[pos].sum()
    return RadonPartition(np.flatnonzero(pos), np.flatnonzero(~pos), point, beta)


# ---------------------------------------------------------------- No-Free-Lunch
class NFLResult(NamedTuple):
    """Exact expected errors of a learner on all labelings of a uniform domain."""
    expected_errors: np.ndarray   #: E_S[L(A(S))] for each of the 2^|C| labelings
    average: float                #: their mean over the labelings
    worst: float                  #: their maximum
    worst_labeling: np.ndarray    #: a labeling attaining the maximum, in {-1, +1}^|C|
    worst_tail: float             #: P_S[L(A(S)) >= 1/8] under that labeling


def nfl_average_error(learner, domain_size, m):
    """Exact No-Free-Lunch average: a learner's expected error over every labeling of C.

    The domain is C = {0, ..., |C| - 1} with the uniform distribution; for every labeling
    f in {-1, +1}^C and every one of the |C|^m equally likely training sequences the learner
    is trained and its error on C is computed.

    Parameters
    ----------
    learner : callable
        ``learner(x, y, domain_size)`` with x of shape (B, m) (training points, integers in
        C), y of shape (B, m) (their labels) returns predictions of shape (B, |C|) in {-1, +1}
        for all points of C, one row per training set.
    domain_size : int
        |C| >= 2.
    m : int
        Training-set size >= 1.

    Returns
    -------
    NFLResult
    """
    learner = check.function(learner, "learner")
    c = check.count(domain_size, "domain_size", low=2)
    m = check.count(m, "m")
    if 2.0**c * float(c) ** m * c > _MAX_ENUMERATION:
        raise ValueError(f"domain_size and m are too large to enumerate: 2^|C| |C|^m |C| = "
                         f"{2.0**c * float(c)**m * c:.3g} > {_MAX_ENUMERATION}")
    seqs = np.array(list(itertools.product(range(c), repeat=m)), dtype=int)      # (c^m, m)
    labelings = np.array(list(itertools.product((-1, 1), repeat=c)), dtype=int)   # (2^c, c)
    errs, tails = np.empty(len(labelings)), np.empty(len(labelings))
    for i, f in enumerate(labelings):
        pred = check.returned(learner(seqs, f[seqs], c), "learner", (len(seqs), c))
        loss = np.mean(pred != f, axis=1)                   # L_D(A(S)) for each sequence
        errs[i], tails[i] = loss.mean(), np.mean(loss >= 1 / 8 - 1e-12)
    j = int(np.argmax(errs))
    return NFLResult(errs, float(errs.mean()), float(errs[j]), labelings[j], float(tails[j]))
