"""Tests of mlnotes.clustering against scikit-learn, plus the chapter's identities."""
import warnings

import numpy as np
import pytest
from scipy.stats import multivariate_normal
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning
from sklearn.mixture import GaussianMixture

from mlnotes import clustering

SIZES = [(30, 2, 2, 0), (200, 3, 2, 1), (1000, 5, 4, 2)]  # (n, k, d, seed)


def _data(n, k, d, seed):
    """Overlapping blobs, k initial centres drawn from the points, a broad initial mixture."""
    X, _ = make_blobs(n_samples=n, centers=k, n_features=d, cluster_std=2.0, random_state=seed)
    rng = np.random.default_rng(seed)
    init = X[rng.choice(n, k, replace=False)]
    covs = np.repeat(np.cov(X.T)[None], k, axis=0)
    weights = rng.dirichlet(np.full(k, 5.0))
    return X, init, covs, weights


def _sklearn_kmeans(X, init, max_iter):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return KMeans(n_clusters=init.shape[0], init=init, n_init=1, algorithm="lloyd", tol=0,
                      max_iter=max_iter).fit(X)


def _sklearn_gmm(X, init, covs, weights, max_iter):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return GaussianMixture(n_components=init.shape[0], covariance_type="full",
                               weights_init=weights, means_init=init,
                               precisions_init=np.linalg.inv(covs), reg_covar=0, tol=1e-300,
                               max_iter=max_iter).fit(X)


# ------------------------------------------------------------------------------ k-means
@pytest.mark.parametrize("n, k, d, seed", SIZES)
@pytest.mark.parametrize("max_iter", [1, 2, 300])
def test_kmeans_matches_sklearn(n, k, d, seed, max_iter):
    X, init, _, _ = _data(n, k, d, seed)
    ours, ref = clustering.kmeans(X, init, max_iter), _sklearn_kmeans(X, init, max_iter)
    np.testing.assert_array_equal(ours.labels, ref.labels_)
    np.testing.assert_allclose(ours.centres, ref.cluster_centers_, rtol=0, atol=1e-10)
    assert ours.inertia == pytest.approx(ref.inertia_, rel=1e-12)
    assert ours.n_iter == ref.n_iter_


@pytest.mark.parametrize("n, k, d, seed", SIZES)
def test_kmeans_objective_never_increases(n, k, d, seed):
    X, init, _, _ = _data(n, k, d, seed)
    result = clustering.kmeans(X, init, 300)
    assert result.converged
    assert np.all(np.diff(result.history) <= 1e-9 * result.history[0])
    assert result.history[-1] == pytest.approx(result.inertia, rel=1e-12)


def test_kmeans_fixed_point_and_helpers():
    X, init, _, _ = _data(200, 3, 2, 1)
    result = clustering.kmeans(X, init, 300)
    np.testing.assert_array_equal(clustering.kmeans_assign(X, result.centres), result.labels)
    for j in range(3):
        np.testing.assert_allclose(result.centres[j], X[result.labels == j].mean(axis=0), atol=1e-12)
    brute = sum(np.sum((x - result.centres[c]) ** 2) for x, c in zip(X, result.labels))
    assert clustering.kmeans_inertia(X, result.centres, result.labels) == pytest.approx(brute)
    assert repr(result).startswith("KMeansResult(k=3, d=2") and "0x" not in repr(result)


def test_kmeans_empty_cluster_keeps_centre():
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    init = np.array([[0.0, 0.0], [100.0, 100.0]])
    result = clustering.kmeans(X, init, 10)
    np.testing.assert_array_equal(result.centres[1], init[1])
    np.testing.assert_allclose(result.centres[0], X.mean(axis=0))


# --------------------------------------------------------------------- Gaussian mixtures
@pytest.mark.parametrize("n, k, d, seed", SIZES)
@pytest.mark.parametrize("max_iter", [1, 3, 15])
def test_gmm_em_matches_sklearn(n, k, d, seed, max_iter):
    X, init, covs, weights = _data(n, k, d, seed)
    ours = clustering.gmm_em(X, init, covs, weights, max_iter)
    ref = _sklearn_gmm(X, init, covs, weights, max_iter)
    assert ours.n_iter == ref.n_iter_ == max_iter
    assert ours.log_likelihood[-1] / n == pytest.approx(ref.score(X), abs=1e-6)
    # sklearn's lower bounds are the mean log-likelihoods before each M-step
    np.testing.assert_allclose(ours.log_likelihood[:-1] / n, ref.lower_bounds_, atol=1e-6)
    np.testing.assert_allclose(ours.weights, ref.weights_, atol=1e-6)
    np.testing.assert_allclose(ours.means, ref.means_, atol=1e-6)
    np.testing.assert_allclose(ours.covs, ref.covariances_, atol=1e-6)
    np.testing.assert_allclose(ours.resp, ref.predict_proba(X), atol=1e-6)


@pytest.mark.parametrize("n, k, d, seed", SIZES)
def test_gmm_log_likelihood_never_decreases(n, k, d, seed):
    X, init, covs, weights = _data(n, k, d, seed)
    ll = clustering.gmm_em(X, init, covs, weights, 100).log_likelihood
    assert np.all(np.diff(ll) >= -1e-9 * abs(ll[0]))
    assert ll[-1] > ll[0]


@pytest.mark.parametrize("n, k, d, seed", SIZES)
def test_gmm_log_likelihood_matches_scipy(n, k, d, seed):
    X, init, covs, weights = _data(n, k, d, seed)
    dens = sum(w * multivariate_normal(m, c).pdf(X) for w, m, c in zip(weights, init, covs))
    assert clustering.gmm_log_likelihood(X, init, covs, weights) == pytest.approx(np.log(dens).sum(), rel=1e-10)
    resp, _ = clustering.gmm_e_step(X, init, covs, weights)
    joint = np.stack([w * multivariate_normal(m, c).pdf(X) for w, m, c in zip(weights, init, covs)], axis=1)
    np.testing.assert_allclose(resp, joint / joint.sum(axis=1, keepdims=True), atol=1e-12)


def test_em_decomposition_q_plus_h():
    """log p(X|θ) = Q(θ|θt) + H(θ|θt) for any θ, and H(θ|θt) >= H(θt|θt)."""
    X, init, covs, weights = _data(200, 3, 2, 1)
    resp_t, _ = clustering.gmm_e_step(X, init, covs, weights)
    H_t = -np.sum(resp_t * np.log(resp_t))
    rng = np.random.default_rng(5)
    for _ in range(5):
        means = init + rng.standard_normal(init.shape)
        w = rng.dirichlet(np.ones(3))
        log_joint = clustering.gmm_log_joint(X, means, covs * rng.uniform(0.5, 2), w)
        log_px = np.logaddexp.reduce(log_joint, axis=1)
        Q = np.sum(resp_t * log_joint)
        H = -np.sum(resp_t * (log_joint - log_px[:, None]))
        assert log_px.sum() == pytest.approx(Q + H, rel=1e-12)
        assert H >= H_t - 1e-9


def test_gmm_m_step_maximises_q():
    X, init, covs, weights = _data(200, 3, 2, 1)
    resp, _ = clustering.gmm_e_step(X, init, covs, weights)
    means, new_covs, new_w = clustering.gmm_m_step(X, resp)
    best = np.sum(resp * clustering.gmm_log_joint(X, means, new_covs, new_w))
    rng = np.random.default_rng(0)
    for _ in range(10):
        A = rng.standard_normal((3, 2, 2)) * 0.1
        perturbed = new_covs + A @ np.swapaxes(A, 1, 2)
        w = rng.dirichlet(50 * new_w)
        q = np.sum(resp * clustering.gmm_log_joint(X, means + 0.1 * rng.standard_normal(means.shape), perturbed, w))
        assert q < best


def test_small_variance_limit_is_kmeans_assignment():
    X, init, _, _ = _data(200, 3, 2, 1)
    labels = clustering.kmeans_assign(X, init)
    onehot = np.eye(3)[labels]
    gaps = []
    for sigma in [1.0, 0.3, 0.1]:
        resp, _ = clustering.gmm_e_step(X, init, np.repeat(sigma**2 * np.eye(2)[None], 3, axis=0), np.full(3, 1 / 3))
        np.testing.assert_array_equal(resp.argmax(axis=1), labels)
        gaps.append(np.abs(resp - onehot).mean())
    assert gaps[0] > gaps[1] > gaps[2]


def test_gmm_repr_and_tol():
    X, init, covs, weights = _data(200, 3, 2, 1)
    result = clustering.gmm_em(X, init, covs, weights, 500, tol=1e-4)
    assert result.converged and result.n_iter < 500
    assert repr(result).startswith("GMMResult(k=3, d=2") and "0x" not in repr(result)


# -------------------------------------------------------------------------- bad inputs
def test_bad_inputs():
    X, init, covs, weights = _data(30, 2, 2, 0)
    with pytest.raises(ValueError, match="X"):
        clustering.kmeans(X[:, :, None], init)
    with pytest.raises(ValueError, match="X"):
        clustering.kmeans(np.where(X > 0, np.nan, X), init)
    with pytest.raises(ValueError, match="init"):
        clustering.kmeans(X, init[:, :1])
    with pytest.raises(ValueError, match="init"):
        clustering.kmeans(X[:1], init)
    with pytest.raises(ValueError, match="max_iter"):
        clustering.kmeans(X, init, 0)
    with pytest.raises(ValueError, match="max_iter"):
        clustering.kmeans(X, init, 2.5)
    with pytest.raises(ValueError, match="labels"):
        clustering.kmeans_inertia(X, init, np.full(30, 2))
    with pytest.raises(ValueError, match="centres"):
        clustering.kmeans_assign(X, init[0])
    with pytest.raises(ValueError, match="means"):
        clustering.gmm_em(X, init[:, :1], covs, weights)
    with pytest.raises(ValueError, match="covs"):
        clustering.gmm_em(X, init, covs[:, :1], weights)
    with pytest.raises(ValueError, match="covs"):
        clustering.gmm_em(X, init, covs + np.array([[0.0, 1.0], [0.0, 0.0]]), weights)
    with pytest.raises(ValueError, match="covs"):
        clustering.gmm_em(X, init, -covs, weights)
    with pytest.raises(ValueError, match="covs"):
        clustering.gmm_em(X, init, covs * np.inf, weights)
    with pytest.raises(ValueError, match="weights"):
        clustering.gmm_em(X, init, covs, [0.5, 0.6])
    with pytest.raises(ValueError, match="weights"):
        clustering.gmm_em(X, init, covs, [1.2, -0.2])
    with pytest.raises(ValueError, match="weights"):
        clustering.gmm_em(X, init, covs, [1.0])
    with pytest.raises(ValueError, match="max_iter"):
        clustering.gmm_em(X, init, covs, weights, max_iter=-1)
    with pytest.raises(ValueError, match="tol"):
        clustering.gmm_em(X, init, covs, weights, tol=-1.0)
    with pytest.raises(ValueError, match="resp"):
        clustering.gmm_m_step(X, np.full((30, 2), 0.7))
    with pytest.raises(ValueError, match="resp"):
        clustering.gmm_m_step(X, np.tile([1.0, 0.0], (30, 1)))
    with pytest.raises(ValueError, match="resp"):
        clustering.gmm_m_step(X, np.full((29, 2), 0.5))
