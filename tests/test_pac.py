"""Tests of mlnotes.pac against scikit-learn, scipy and brute force."""
import itertools
import warnings

import numpy as np
import pytest
import scipy.optimize
import scipy.spatial
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC

from mlnotes import pac


def _homog(P, y):
    return pac.linearly_separable(P, y, bias=False)


@pytest.mark.parametrize("n, d, k", [(30, 1, 1), (200, 2, 5), (500, 4, 11), (101, 3, 101)])
def test_knn_matches_sklearn(n, d, k):
    rng = np.random.default_rng(n + d)
    X = rng.standard_normal((n, d))
    y = np.where(rng.random(n) < 1 / (1 + np.exp(-3 * X[:, 0])), 1, -1)
    Q = rng.standard_normal((150, d))
    ref = KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(X, y).predict(Q)
    np.testing.assert_array_equal(pac.knn_predict(X, y, Q, k, chunk=37), ref)


def test_knn_is_translation_invariant_and_one_nn_memorises():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((300, 3))
    y = np.where(rng.random(300) < 0.5, 1, -1)
    Q = rng.standard_normal((100, 3))
    shift = np.array([1e6, -3e6, 2e6])
    np.testing.assert_array_equal(pac.knn_predict(X + shift, y, Q + shift, 5), pac.knn_predict(X, y, Q, 5))
    np.testing.assert_array_equal(pac.knn_predict(X, y, X, 1), y)


def test_bayes_classifier_and_risk_by_brute_force():
    rng = np.random.default_rng(4)
    for n in (3, 6, 9):
        eta, px = rng.random(n), rng.dirichlet(np.ones(n))
        risks = [px @ np.where(np.array(h) == 1, 1 - eta, eta) for h in itertools.product((-1, 1), repeat=n)]
        assert np.isclose(min(risks), pac.bayes_risk(eta, px), atol=1e-12)
        h = pac.bayes_classifier(eta)
        assert np.isclose(px @ np.where(h == 1, 1 - eta, eta), min(risks), atol=1e-12)
    P = rng.dirichlet(np.ones(3), size=5)
    np.testing.assert_array_equal(pac.bayes_classifier(P), P.argmax(axis=1))
    assert np.isclose(pac.bayes_risk(P, np.full(5, 0.2)), np.mean(1 - P.max(axis=1)))


def test_cover_hart_inequalities():
    rng = np.random.default_rng(5)
    for C in (2, 3, 5):
        P = rng.dirichlet(np.ones(C) * 0.7, size=50)
        px = rng.dirichlet(np.ones(50))
        r = pac.bayes_risk(P, px)
        e1 = pac.one_nn_asymptotic_error(P, px)
        assert r - 1e-12 <= e1 <= r * (2 - C * r / (C - 1)) + 1e-12
    eta = rng.random(40)
    px = np.full(40, 1 / 40)
    assert np.isclose(pac.one_nn_asymptotic_error(eta, px), np.mean(2 * eta * (1 - eta)))
    assert np.isclose(pac.one_nn_asymptotic_error(np.column_stack([eta, 1 - eta]), px),
                      pac.one_nn_asymptotic_error(eta, px))


def test_sample_sizes():
    assert pac.uc_sample_size(100, 0.1, 0.05) == 415
    assert pac.uc_sample_size(100, 0.05, 0.05) == 1659
    for k, eps, delta in [(1, 0.3, 0.1), (10, 0.05, 0.01), (1000, 0.2, 0.5)]:
        m = pac.pac_sample_size(k, eps, delta)
        assert k * np.exp(-eps * m) <= delta < k * np.exp(-eps * (m - 1)) or m == 1
        m = pac.uc_sample_size(k, eps, delta)
        assert 2 * k * np.exp(-2 * m * eps**2) <= delta < 2 * k * np.exp(-2 * (m - 1) * eps**2)


def test_erm_finite():
    rng = np.random.default_rng(6)
    X = rng.random((50, 1))
    y = np.where(X[:, 0] > 0.4, 1, -1)
    ts = np.linspace(0, 1, 11)
    H = [lambda Z, t=t: np.where(Z[:, 0] > t, 1, -1) for t in ts]
    res = pac.erm_finite(H, X, y)
    assert res.index == 4 and res.risk == 0.0
    np.testing.assert_allclose(res.risks, [np.mean(np.where(X[:, 0] > t, 1, -1) != y) for t in ts])
    with pytest.raises(ValueError, match="hypotheses"):
        pac.erm_finite([lambda Z: np.zeros(len(Z))], X, y)


@pytest.mark.parametrize("seed", range(6))
def test_linearly_separable_matches_svc(seed):
    rng = np.random.default_rng(seed)
    n, d = 12, 2
    X = rng.standard_normal((n, d))
    y = np.where(X @ rng.standard_normal(d) + (0.8 * rng.standard_normal() if seed % 2 else 0) > 0, 1, -1)
    if seed >= 3:
        y[:2] = -y[:2]                                  # usually breaks separability
    if len(set(y)) == 2:
        svc = SVC(kernel="linear", C=1e4).fit(X, y)     # C=1e10 (the plan) is very slow on non-separable data
        assert pac.linearly_separable(X, y) == bool(np.all(svc.predict(X) == y))


def test_vc_dimensions_of_halfspaces():
    rng = np.random.default_rng(7)
    for d in (1, 2, 3):
        E = np.eye(d)
        assert pac.is_shattered(E, _homog)
        assert not pac.is_shattered(rng.standard_normal((d + 1, d)), _homog)
        assert pac.is_shattered(np.vstack([np.zeros(d), E]), pac.linearly_separable)
        assert not pac.is_shattered(rng.standard_normal((d + 2, d)), pac.linearly_separable)
        assert pac.vc_dimension_lower_bound([E, rng.standard_normal((d + 1, d))], _homog) == d


def test_radon_partition_hulls_intersect():
    rng = np.random.default_rng(8)
    for d in (1, 2, 3, 5):
        X = rng.standard_normal((d + 2, d)) + 1e3
        r = pac.radon_partition(X)
        assert np.isclose(r.weights.sum(), 0, atol=1e-9)
        for part in (r.first, r.second):
            k = len(part)
            res = scipy.optimize.linprog(np.zeros(k), A_eq=np.vstack([X[part].T, np.ones(k)]),
                                         b_eq=np.r_[r.point, 1], bounds=(0, None), method="highs")
            assert res.status == 0
        y = np.where(np.isin(np.arange(d + 2), r.first), 1, -1)
        assert not pac.linearly_separable(X, y)
    with pytest.raises(ValueError, match="points"):
        pac.radon_partition(np.eye(3))


def _memoriser(x, y, c):
    P = -np.ones((len(x), c), dtype=int)
    np.put_along_axis(P, x, y, axis=1)
    return P


@pytest.mark.parametrize("c, m", [(4, 2), (6, 3), (8, 4)])
def test_nfl_closed_form_for_a_memoriser(c, m):
    res = pac.nfl_average_error(_memoriser, c, m)
    assert np.isclose(res.average, (1 - 1 / c) ** m / 2)
    assert res.average >= 0.25 - 1e-12 and res.worst >= 0.25
    const = pac.nfl_average_error(lambda x, y, c: np.ones((len(x), c), dtype=int), c, m)
    assert np.isclose(const.average, 0.5)


def test_nn_distances_match_scipy():
    res = pac.nn_distance_vs_dimension(60, np.array([1, 4, 16]), np.random.default_rng(9))
    rng = np.random.default_rng(9)
    for j, d in enumerate((1, 4, 16)):
        Z = rng.random((60, d))
        D = scipy.spatial.distance.cdist(Z, Z)
        np.fill_diagonal(D, np.inf)
        assert np.isclose(res.nn_median[j], np.median(D.min(axis=1)))
        assert np.isclose(res.all_median[j], np.median(scipy.spatial.distance.pdist(Z)))
    assert np.all(np.diff(res.nn_median) > 0)


def test_function_specific_bad_inputs():
    X = np.eye(3)
    with pytest.raises(ValueError, match="k"):
        pac.knn_predict(X, [1, -1, 1], X, 4)
    with pytest.raises(ValueError, match="y_train"):
        pac.knn_predict(X, [0, 1, 1], X, 1)
    with pytest.raises(ValueError, match="eta"):
        pac.bayes_risk([0.2, 1.3], [0.5, 0.5])
    with pytest.raises(ValueError, match="separable"):
        pac.is_shattered(X, lambda P, y: 1)
    with pytest.raises(ValueError, match="domain_size"):
        pac.nfl_average_error(_memoriser, 30, 3)
    with pytest.raises(ValueError, match="learner"):
        pac.nfl_average_error(lambda x, y, c: np.ones((len(x), c + 1)), 4, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pac.linearly_separable(X, [1, -1, 1])


@pytest.mark.parametrize("bias", [True, False])
def test_linearly_separable_matches_the_plain_lp(bias):
    """The least-squares shortcut never changes the answer of the LP of the plan."""
    rng = np.random.default_rng(11)
    for _ in range(40):
        n, d = rng.integers(3, 7), rng.integers(1, 4)
        X = rng.standard_normal((n, d))
        y = rng.choice([-1, 1], size=n)
        A = np.column_stack([X, np.ones(n)]) if bias else X
        ref = scipy.optimize.linprog(np.zeros(A.shape[1]), A_ub=-(y[:, None] * A), b_ub=-np.ones(n),
                                     bounds=(None, None), method="highs").status == 0
        assert pac.linearly_separable(X, y, bias=bias) == ref
