"""Tests of mlnotes.clustering against scikit-learn, plus the chapter's identities."""
import warnings

import numpy as np
import pytest
import scipy.optimize
import scipy.stats
from hypothesis import given, settings, strategies as st
from scipy.special import expit, logsumexp, softmax
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


# ------------------------------------------------------------------ generalised EM
def _q_means(X, means, covs, weights, resp):
    return np.sum(resp * clustering.gmm_log_joint(X, means, covs, weights))


@pytest.mark.parametrize("n, k, d, seed", SIZES)
def test_gem_step_is_a_gradient_step_that_raises_q_and_loglik(n, k, d, seed):
    X, init, covs, weights = _data(n, k, d, seed)
    resp, ll0 = clustering.gmm_e_step(X, init, covs, weights)
    new, ll = clustering.gem_step(X, init, covs, weights, lr=1.0)
    assert ll == pytest.approx(ll0, rel=1e-14)
    # the step is parallel to ∇_μⱼ log p(X | θ) (Fisher's identity), by central differences
    h = 1e-6 * np.abs(X).max()
    for j in range(k):
        fd = np.array([(clustering.gmm_log_likelihood(X, init + h * E, covs, weights)
                        - clustering.gmm_log_likelihood(X, init - h * E, covs, weights)) / (2 * h)
                       for E in np.eye(k * d).reshape(k * d, k, d)[j * d:(j + 1) * d]])
        step = new[j] - init[j]
        cos = step @ fd / (np.linalg.norm(step) * np.linalg.norm(fd))
        assert cos == pytest.approx(1.0, abs=1e-6)
        # and its length is lr / (N_j λ_max(Σ_j⁻¹)) times the gradient
        eta = 1.0 / (resp[:, j].sum() / np.linalg.eigvalsh(covs[j])[0])
        np.testing.assert_allclose(step, eta * fd, rtol=1e-5)
    assert _q_means(X, new, covs, weights, resp) > _q_means(X, init, covs, weights, resp)
    assert clustering.gmm_log_likelihood(X, new, covs, weights) > ll0


def test_gem_reaches_the_means_only_em_fixed_point():
    X, init, covs, weights = _data(200, 3, 2, 1)
    m_gem, m_em = init, init
    for _ in range(400):
        m_gem, _ = clustering.gem_step(X, m_gem, covs, weights, lr=1.5)
        m_em = clustering.gmm_m_step(X, clustering.gmm_e_step(X, m_em, covs, weights)[0])[0]
    np.testing.assert_allclose(m_gem, m_em, atol=1e-8)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), lr=st.floats(0.01, 1.99), k=st.integers(1, 3))
def test_gem_step_never_lowers_the_log_likelihood(seed, lr, k):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((30, 2)) * rng.uniform(0.5, 3.0)
    A = rng.standard_normal((k, 2, 2))
    covs = A @ np.swapaxes(A, 1, 2) + 0.2 * np.eye(2)
    means, weights = rng.normal(0, 2, (k, 2)), rng.dirichlet(np.ones(k))
    new, ll0 = clustering.gem_step(X, means, covs, weights, lr=lr)
    assert clustering.gmm_log_likelihood(X, new, covs, weights) >= ll0 - 1e-9 * abs(ll0)


# ------------------------------------------------- mixtures of exponential families
@pytest.mark.parametrize("n, k, d, seed", SIZES)
@pytest.mark.parametrize("max_iter", [1, 4, 12])
def test_normal_family_matches_sklearn_diagonal_mixture(n, k, d, seed, max_iter):
    X, init, covs, weights = _data(n, k, d, seed)
    var = np.diag(covs[0])
    m0 = np.stack([init, init**2 + var], axis=-1)
    ours = clustering.em_exponential_family(X, "normal", (weights, m0), max_iter=max_iter)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref = GaussianMixture(n_components=k, covariance_type="diag", weights_init=weights, means_init=init,
                              precisions_init=np.tile(1 / var, (k, 1)), reg_covar=0, tol=1e-300,
                              max_iter=max_iter).fit(X)
    assert ours.n_iter == ref.n_iter_ == max_iter
    mean = ours.params[..., 0]
    # tolerances as for the full mixtures above: both run the same arithmetic in a different order
    np.testing.assert_allclose(ours.weights, ref.weights_, atol=1e-6)
    np.testing.assert_allclose(mean, ref.means_, atol=1e-6)
    np.testing.assert_allclose(ours.params[..., 1] - mean**2, ref.covariances_, atol=1e-6)
    np.testing.assert_allclose(ours.log_likelihood[:-1] / n, ref.lower_bounds_, atol=1e-6)
    np.testing.assert_allclose(ours.resp, ref.predict_proba(X), atol=1e-6)


def test_normal_family_in_one_dimension_is_gmm_em():
    X, init, _, weights = _data(200, 3, 1, 4)
    covs = np.full((3, 1, 1), X.var())
    m0 = np.stack([init[:, 0], init[:, 0] ** 2 + covs[0, 0, 0]], axis=-1)      # shape (k, 2): d = 1
    ours = clustering.em_exponential_family(X[:, 0], "normal", (weights, m0), max_iter=20)
    ref = clustering.gmm_em(X, init, covs, weights, max_iter=20)
    assert ours.params.shape == (3, 2)
    np.testing.assert_allclose(ours.log_likelihood, ref.log_likelihood, rtol=1e-10)
    np.testing.assert_allclose(ours.params[:, 0], ref.means[:, 0], atol=1e-9)
    np.testing.assert_allclose(ours.params[:, 1] - ours.params[:, 0] ** 2, ref.covs[:, 0, 0], atol=1e-9)


@pytest.mark.parametrize("family, x, m0, logpdf", [
    ("poisson", np.array([0, 1, 2, 5, 9, 3]), np.array([1.5, 6.0]),
     lambda x, m: scipy.stats.poisson.logpmf(x, m[..., 0])),
    ("bernoulli", np.array([[0, 1, 1], [1, 1, 0], [0, 0, 0], [1, 0, 1]]), np.array([[0.2, 0.5, 0.7], [0.6, 0.3, 0.4]]),
     lambda x, m: scipy.stats.bernoulli.logpmf(x, m[..., 0])),
    ("exponential", np.array([0.3, 1.2, 4.0, 0.1, 2.2]), np.array([0.5, 3.0]),
     lambda x, m: scipy.stats.expon.logpdf(x, scale=m[..., 0])),
    ("normal", np.array([[0.3, -1.0], [2.0, 0.5], [-0.7, 1.1]]),
     np.array([[[0.0, 1.0], [1.0, 3.0]], [[1.0, 5.0], [-1.0, 2.0]]]),
     lambda x, m: scipy.stats.norm.logpdf(x, m[..., 0], np.sqrt(m[..., 1] - m[..., 0] ** 2))),
])
def test_family_densities_match_scipy(family, x, m0, logpdf):
    """log_likelihood[0] is the mixture log-likelihood at init, computed from scipy's densities."""
    k = m0.shape[0]
    weights = np.full(k, 1 / k)
    res = clustering.em_exponential_family(x, family, (weights, m0), max_iter=1)
    X = x.reshape(len(x), -1).astype(float)
    m = m0.reshape(k, X.shape[1], -1)
    comp = np.array([logpdf(X, m[j][None]).sum(axis=1) for j in range(k)])     # (k, n)
    ref = logsumexp(np.log(weights)[:, None] + comp, axis=0).sum()
    assert res.log_likelihood[0] == pytest.approx(ref, rel=1e-12)
    assert res.params.shape == m0.shape


def _poisson_data(seed=3, n=400):
    rng = np.random.default_rng(seed)
    return rng.poisson(np.where(rng.random(n) < 0.45, 1.5, 7.0))


def test_poisson_mixture_matches_direct_maximisation():
    x = _poisson_data()
    res = clustering.poisson_mixture_em(x, ([0.5, 0.5], [1.0, 3.0]), max_iter=2000)

    def neg(u):
        w = softmax([u[0], 0.0])
        return -logsumexp(np.log(w)[:, None] + scipy.stats.poisson.logpmf(x, np.exp(u[1:])[:, None]), axis=0).sum()

    opt = scipy.optimize.minimize(neg, [0.0, 0.0, 1.0], method="BFGS", options={"gtol": 1e-8})
    # BFGS stops at a gradient of about 1e-8 in its coordinates; EM has converged after 2000 steps
    assert res.log_likelihood[-1] >= -opt.fun - 1e-8
    np.testing.assert_allclose(np.r_[softmax([opt.x[0], 0.0]), np.exp(opt.x[1:])],
                               np.r_[res.weights, res.params], atol=1e-5)
    N = res.resp.sum(0)
    np.testing.assert_allclose(res.params, res.resp.T @ x / N, rtol=1e-9)       # moment equations
    np.testing.assert_allclose(res.weights, N / x.size, rtol=1e-9)
    assert np.all(np.diff(res.log_likelihood) >= -1e-9 * abs(res.log_likelihood[0]))
    assert repr(res).startswith("MixtureEMResult(family='poisson', k=2") and "0x" not in repr(res)


def test_poisson_mixture_equals_the_generic_algorithm():
    x = _poisson_data(seed=8, n=300)
    init = ([0.2, 0.3, 0.5], [0.5, 2.0, 6.0])
    ours = clustering.poisson_mixture_em(x, init, max_iter=50)
    generic = clustering.em_exponential_family(x, "poisson", init, max_iter=50)
    np.testing.assert_allclose(generic.log_likelihood, ours.log_likelihood, rtol=1e-12)
    np.testing.assert_allclose(generic.params, ours.params, rtol=1e-10)
    np.testing.assert_allclose(generic.resp, ours.resp, atol=1e-12)
    # the mixture mean equals the sample mean after every M-step
    assert ours.weights @ ours.params == pytest.approx(x.mean(), rel=1e-12)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(1, 3), n=st.integers(10, 80))
def test_poisson_mixture_never_lowers_the_likelihood(seed, k, n):
    rng = np.random.default_rng(seed)
    x = rng.poisson(rng.uniform(0.5, 15.0, size=3)[rng.integers(0, 3, n)])
    init = (rng.dirichlet(np.ones(k)), rng.uniform(0.5, 15.0, k))
    res = clustering.poisson_mixture_em(x, init, max_iter=30)
    assert np.all(np.diff(res.log_likelihood) >= -1e-9 * abs(res.log_likelihood[0]))
    assert res.weights @ res.params == pytest.approx(x.mean(), rel=1e-10, abs=1e-12)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), family=st.sampled_from(["bernoulli", "exponential", "normal"]))
def test_exponential_family_em_never_lowers_the_likelihood(seed, family):
    rng = np.random.default_rng(seed)
    n, d, k = 60, 2, 2
    if family == "bernoulli":
        x, m0 = (rng.random((n, d)) < rng.uniform(0.2, 0.8, d)).astype(float), rng.uniform(0.2, 0.8, (k, d))
    elif family == "exponential":
        x, m0 = rng.exponential(rng.uniform(0.5, 3.0, d), (n, d)), rng.uniform(0.5, 3.0, (k, d))
    else:
        x = rng.normal(rng.normal(0, 2, d), 1.0, (n, d))
        mu = x[rng.choice(n, k, replace=False)]                # start at data points with the data's spread
        m0 = np.stack([mu, mu**2 + x.var(axis=0) * rng.uniform(0.5, 1.5, (k, d))], axis=-1)
    res = clustering.em_exponential_family(x, family, (np.full(k, 0.5), m0), max_iter=15)
    assert np.all(np.diff(res.log_likelihood) >= -1e-9 * abs(res.log_likelihood[0]))


# -------------------------------------------------------------------------- MAP-EM
def _map_setup():
    X, _, _, _ = _data(80, 2, 2, 6)
    rng = np.random.default_rng(0)
    init = (X[rng.choice(80, 2, replace=False)], np.repeat(np.cov(X.T)[None], 2, axis=0), np.array([0.5, 0.5]))
    prior = {"alpha": [2.0, 4.0], "mean": np.array([0.5, -1.0]), "kappa": 0.5, "nu": 4.0,
             "scale": np.array([[2.0, 0.3], [0.3, 1.0]])}
    return X, prior, init


def _log_posterior_scipy(X, prior, means, covs, w):
    ll = logsumexp([np.log(wj) + multivariate_normal.logpdf(X, m, C) for wj, m, C in zip(w, means, covs)], axis=0).sum()
    return ll + scipy.stats.dirichlet.logpdf(w, prior["alpha"]) + sum(
        multivariate_normal.logpdf(m, prior["mean"], C / prior["kappa"])
        + scipy.stats.invwishart.logpdf(C, prior["nu"], prior["scale"]) for m, C in zip(means, covs))


def test_gmm_map_em_log_posterior_matches_scipy_and_never_decreases():
    X, prior, init = _map_setup()
    res = clustering.gmm_map_em(X, prior, init, max_iter=40)
    assert res.log_posterior[0] == pytest.approx(_log_posterior_scipy(X, prior, *init), rel=1e-12)
    assert res.log_posterior[-1] == pytest.approx(_log_posterior_scipy(X, prior, res.means, res.covs, res.weights),
                                                  rel=1e-12)
    assert res.log_likelihood[-1] == pytest.approx(clustering.gmm_log_likelihood(X, res.means, res.covs, res.weights))
    assert np.all(np.diff(res.log_posterior) >= -1e-9 * abs(res.log_posterior[0]))
    assert repr(res).startswith("GMMMAPResult(k=2, d=2") and "0x" not in repr(res)


def test_gmm_map_em_fixed_point_maximises_the_log_posterior():
    X, prior, init = _map_setup()
    res = clustering.gmm_map_em(X, prior, init, max_iter=2000, tol=1e-14)
    tril = np.tril_indices(2)

    def unpack(u):
        L = np.zeros((2, 2, 2))
        L[:, tril[0], tril[1]] = u[5:].reshape(2, 3)
        L[:, [0, 1], [0, 1]] = np.exp(L[:, [0, 1], [0, 1]])
        return u[1:5].reshape(2, 2), L @ np.swapaxes(L, 1, 2), softmax([u[0], 0.0])

    L0 = np.linalg.cholesky(res.covs)
    L0[:, [0, 1], [0, 1]] = np.log(L0[:, [0, 1], [0, 1]])
    u_em = np.concatenate([[np.log(res.weights[0] / res.weights[1])], res.means.ravel(), L0[:, tril[0], tril[1]].ravel()])
    u0 = u_em + 0.1 * np.random.default_rng(1).standard_normal(11)
    opt = scipy.optimize.minimize(lambda u: -_log_posterior_scipy(X, prior, *unpack(u)), u0, method="BFGS",
                                  options={"gtol": 1e-7})
    means, covs, w = unpack(opt.x)
    # BFGS with finite-difference gradients reaches the mode to about 1e-5 in the parameters
    assert res.log_posterior[-1] >= -opt.fun - 1e-8
    np.testing.assert_allclose(means, res.means, atol=1e-4)
    np.testing.assert_allclose(covs, res.covs, atol=1e-4)
    np.testing.assert_allclose(w, res.weights, atol=1e-4)


def test_gmm_map_em_m_step_formulas():
    """One step from init equals the closed-form MAP M-step, and the prior pulls the means to m0."""
    X, prior, init = _map_setup()
    res = clustering.gmm_map_em(X, prior, init, max_iter=1)
    r, _ = clustering.gmm_e_step(X, *init)
    N, alpha, kappa, m0 = r.sum(0), np.array(prior["alpha"]), prior["kappa"], prior["mean"]
    np.testing.assert_allclose(res.weights, (N + alpha - 1) / (80 + alpha.sum() - 2), rtol=1e-12)
    xbar = r.T @ X / N[:, None]
    np.testing.assert_allclose(res.means, (N[:, None] * xbar + kappa * m0) / (N + kappa)[:, None], rtol=1e-12)
    for j in range(2):       # the NIW posterior scale Ψ + S + κN/(κ+N)(x̄ − m0)(x̄ − m0)ᵀ over ν + N + d + 2
        S = (r[:, j, None] * (X - xbar[j])).T @ (X - xbar[j])
        dev = xbar[j] - m0
        Psi_n = prior["scale"] + S + kappa * N[j] / (kappa + N[j]) * np.outer(dev, dev)
        np.testing.assert_allclose(res.covs[j], Psi_n / (prior["nu"] + N[j] + 4), rtol=1e-10)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), kappa=st.floats(0.01, 10.0), nu=st.floats(1.01, 10.0),
       alpha=st.floats(1.0, 5.0))
def test_gmm_map_em_never_lowers_the_log_posterior(seed, kappa, nu, alpha):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((25, 2)) * rng.uniform(0.3, 3.0, 2)
    prior = {"alpha": alpha, "mean": rng.standard_normal(2), "kappa": kappa, "nu": nu,
             "scale": np.diag(rng.uniform(0.1, 2.0, 2))}
    init = (X[:2], np.repeat(np.eye(2)[None], 2, axis=0), np.array([0.5, 0.5]))
    res = clustering.gmm_map_em(X, prior, init, max_iter=15)
    assert np.all(np.diff(res.log_posterior) >= -1e-9 * abs(res.log_posterior[0]))


# ------------------------------------------------------ bad inputs of the new functions
_X, _INIT, _COVS, _W = _data(30, 2, 2, 0)
_PRIOR = {"alpha": 2.0, "mean": np.zeros(2), "kappa": 1.0, "nu": 3.0, "scale": np.eye(2)}
_COUNTS = np.array([0, 1, 3, 2, 7, 5])


@pytest.mark.parametrize("call, name", [
    (lambda: clustering.gem_step(_X, _INIT, _COVS, _W, lr=0.0), "lr"),
    (lambda: clustering.gem_step(_X, _INIT, _COVS, _W, lr=2.0), "lr"),
    (lambda: clustering.gem_step(_X, _INIT, _COVS, _W, lr=np.nan), "lr"),
    (lambda: clustering.gem_step(_X, _INIT, -_COVS, _W), "covs"),
    (lambda: clustering.gem_step(_X[:, :1], _INIT, _COVS, _W), "means"),
    (lambda: clustering.em_exponential_family(_COUNTS, "gamma", ([1.0], [1.0])), "family"),
    (lambda: clustering.em_exponential_family([0, 1, 2.5], "poisson", ([1.0], [1.0])), "x"),
    (lambda: clustering.em_exponential_family([0, 1, -1], "poisson", ([1.0], [1.0])), "x"),
    (lambda: clustering.em_exponential_family([0, 1, 2], "bernoulli", ([1.0], [0.5])), "x"),
    (lambda: clustering.em_exponential_family([0.0, 1.0], "exponential", ([1.0], [1.0])), "x"),
    (lambda: clustering.em_exponential_family([[np.nan]], "normal", ([1.0], [[0.0, 1.0]])), "x"),
    (lambda: clustering.em_exponential_family(_COUNTS, "poisson", ([0.5, 0.6], [1.0, 2.0])), "init weights"),
    (lambda: clustering.em_exponential_family(_COUNTS, "poisson", ([0.5, 0.5], [1.0, 2.0, 3.0])), "init params"),
    (lambda: clustering.em_exponential_family(_COUNTS, "poisson", ([0.5, 0.5], [1.0, 0.0])), "init params"),
    (lambda: clustering.em_exponential_family(_COUNTS, "normal", ([1.0], [[1.0, 0.5]])), "init params"),
    (lambda: clustering.em_exponential_family(_COUNTS, "poisson", [1.0]), "init"),
    (lambda: clustering.em_exponential_family(_COUNTS, "poisson", ([1.0], [1.0]), max_iter=0), "max_iter"),
    (lambda: clustering.em_exponential_family(_COUNTS, "poisson", ([1.0], [1.0]), tol=-1.0), "tol"),
    (lambda: clustering.poisson_mixture_em([0, 1.5], ([1.0], [1.0])), "x"),
    (lambda: clustering.poisson_mixture_em([[0, 1]], ([1.0], [1.0])), "x"),
    (lambda: clustering.poisson_mixture_em(_COUNTS, ([1.0], [-1.0])), "init rates"),
    (lambda: clustering.poisson_mixture_em(_COUNTS, ([0.5, 0.5], [1.0])), "init rates"),
    (lambda: clustering.poisson_mixture_em(_COUNTS, ([1.0, 0.1], [1.0, 2.0])), "init weights"),
    (lambda: clustering.poisson_mixture_em(_COUNTS, ([1.0], [1.0]), max_iter=1.5), "max_iter"),
    (lambda: clustering.gmm_map_em(_X, _PRIOR, (_INIT, _COVS)), "init"),
    (lambda: clustering.gmm_map_em(_X, {**_PRIOR, "extra": 1}, (_INIT, _COVS, _W)), "prior"),
    (lambda: clustering.gmm_map_em(_X, [1, 2, 3, 4, 5], (_INIT, _COVS, _W)), "prior"),
    (lambda: clustering.gmm_map_em(_X, {**_PRIOR, "alpha": 0.5}, (_INIT, _COVS, _W)), r"prior\['alpha'\]"),
    (lambda: clustering.gmm_map_em(_X, {**_PRIOR, "alpha": [2.0, 2.0, 2.0]}, (_INIT, _COVS, _W)), r"prior\['alpha'\]"),
    (lambda: clustering.gmm_map_em(_X, {**_PRIOR, "mean": np.zeros(3)}, (_INIT, _COVS, _W)), r"prior\['mean'\]"),
    (lambda: clustering.gmm_map_em(_X, {**_PRIOR, "kappa": 0.0}, (_INIT, _COVS, _W)), r"prior\['kappa'\]"),
    (lambda: clustering.gmm_map_em(_X, {**_PRIOR, "nu": 1.0}, (_INIT, _COVS, _W)), r"prior\['nu'\]"),
    (lambda: clustering.gmm_map_em(_X, {**_PRIOR, "scale": -np.eye(2)}, (_INIT, _COVS, _W)), r"prior\['scale'\]"),
    (lambda: clustering.gmm_map_em(_X, {**_PRIOR, "scale": np.eye(3)}, (_INIT, _COVS, _W)), r"prior\['scale'\]"),
    (lambda: clustering.gmm_map_em(_X, _PRIOR, (_INIT, _COVS, [0.9, 0.3])), "weights"),
    (lambda: clustering.gmm_map_em(_X, _PRIOR, (_INIT, _COVS, _W), tol=np.inf), "tol"),
])
def test_bad_inputs_of_the_em_variants(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_poisson_component_of_zero_counts_reaches_the_point_mass_at_zero():
    # the first component starts near 0 and ends responsible only for the zeros: rate 0, the
    # point mass at 0, a legitimate maximiser with a finite likelihood (0 log 0 = 0)
    x = np.array([0, 0, 0, 0, 50, 60])
    res = clustering.poisson_mixture_em(x, ([0.5, 0.5], [1e-3, 55.0]), max_iter=50)
    np.testing.assert_allclose(res.params, [0.0, 55.0], atol=1e-12)
    np.testing.assert_allclose(res.weights, [4 / 6, 2 / 6], atol=1e-12)
    direct = 4 * np.log(4 / 6) + np.sum(np.log(2 / 6) + scipy.stats.poisson.logpmf([50, 60], 55.0))
    assert res.log_likelihood[-1] == pytest.approx(direct, rel=1e-12)
    assert np.all(np.diff(res.log_likelihood) >= -1e-12)


def test_em_variants_raise_when_a_component_collapses():
    with pytest.raises(ValueError, match="boundary"):
        clustering.em_exponential_family([0.0, 0.0, 5.0, 5.1], "normal", ([0.5, 0.5], [[0.0, 1.0], [5.0, 26.0]]),
                                         max_iter=200)


@settings(max_examples=25, deadline=None)
@given(family=st.text(min_size=1, max_size=12).filter(lambda s: s not in clustering.EXP_FAMILIES))
def test_unknown_families_are_rejected_by_name(family):
    with pytest.raises(ValueError, match="family"):
        clustering.em_exponential_family(_COUNTS, family, ([1.0], [1.0]))


# --------------------------------------------------------- translation far from the origin
SHIFT = 1e5


def _close(shifted, ref, rtol=1e-8):
    """Agreement to ``rtol`` relative to the size of the reference (normwise, so that entries
    that are zero in exact arithmetic do not demand a relative accuracy of their own)."""
    shifted, ref = np.asarray(shifted, dtype=float), np.asarray(ref, dtype=float)
    np.testing.assert_allclose(shifted, ref, rtol=0, atol=rtol * np.abs(ref).max())


@pytest.mark.parametrize("n, k, d, seed", SIZES)
def test_kmeans_is_unchanged_by_a_translation_far_from_the_origin(n, k, d, seed):
    # the distances are computed from x - μ, not as ‖x‖² + ‖μ‖² - 2xᵀμ, which would lose
    # about ε‖x‖² (1e-6 at 1e5) to cancellation
    X, init, _, _ = _data(n, k, d, seed)
    t = SHIFT * np.ones(d)
    ref, far = clustering.kmeans(X, init, 300), clustering.kmeans(X + t, init + t, 300)
    np.testing.assert_array_equal(far.labels, ref.labels)
    assert far.n_iter == ref.n_iter
    _close(far.centres - t, ref.centres)
    _close(far.inertia, ref.inertia)
    _close(far.history, ref.history)
    np.testing.assert_array_equal(clustering.kmeans_assign(X + t, ref.centres + t), ref.labels)
    _close(clustering.kmeans_inertia(X + t, init + t, ref.labels), clustering.kmeans_inertia(X, init, ref.labels))


@pytest.mark.parametrize("n, k, d, seed", SIZES)
def test_gmm_is_unchanged_by_a_translation_far_from_the_origin(n, k, d, seed):
    X, init, covs, weights = _data(n, k, d, seed)
    t = SHIFT * np.ones(d)
    _close(clustering.gmm_log_joint(X + t, init + t, covs, weights), clustering.gmm_log_joint(X, init, covs, weights))
    resp = clustering.gmm_e_step(X, init, covs, weights)[0]
    _close(clustering.gmm_e_step(X + t, init + t, covs, weights)[0], resp)
    (m_far, c_far, w_far), (m_ref, c_ref, w_ref) = clustering.gmm_m_step(X + t, resp), clustering.gmm_m_step(X, resp)
    _close(m_far - t, m_ref), _close(c_far, c_ref), _close(w_far, w_ref)
    ref, far = clustering.gmm_em(X, init, covs, weights, 50), clustering.gmm_em(X + t, init + t, covs, weights, 50)
    _close(far.means - t, ref.means)
    _close(far.covs, ref.covs)
    _close(far.weights, ref.weights)
    _close(far.resp, ref.resp)
    _close(far.log_likelihood, ref.log_likelihood)
    (g_far, ll_far), (g_ref, ll_ref) = (clustering.gem_step(X + t, init + t, covs, weights),
                                        clustering.gem_step(X, init, covs, weights))
    _close(g_far - init - t, g_ref - init)                      # the step itself, not just the new means
    _close(ll_far, ll_ref)


def test_gmm_map_em_is_unchanged_by_a_translation_far_from_the_origin():
    X, prior, (means, covs, weights) = _map_setup()
    t = SHIFT * np.ones(2)
    ref = clustering.gmm_map_em(X, prior, (means, covs, weights), max_iter=30)
    far = clustering.gmm_map_em(X + t, {**prior, "mean": prior["mean"] + t}, (means + t, covs, weights), max_iter=30)
    _close(far.means - t, ref.means)
    _close(far.covs, ref.covs)
    _close(far.resp, ref.resp)
    _close(far.log_posterior, ref.log_posterior)


# ------------------------------------------------------------- divergence and overflow
_DUPLICATES = np.array([[0, 0], [0, 0], [0, 0], [5, 5], [6, 5], [5, 6], [6, 6.0]])


def test_gmm_em_reports_a_collapsing_component_as_divergence():
    # component 0 ends up responsible only for three equal points: its covariance becomes 0
    with pytest.raises(ValueError, match="EM diverged at step 2: the covariance of component 0 collapsed"):
        clustering.gmm_em(_DUPLICATES, np.array([[0.0, 0], [5.5, 5.5]]), np.array([np.eye(2)] * 2), [0.5, 0.5], 50)
    # the prior of MAP-EM keeps it positive definite
    prior = {"alpha": 1.0, "mean": np.zeros(2), "kappa": 0.01, "nu": 3.0, "scale": 0.01 * np.eye(2)}
    res = clustering.gmm_map_em(_DUPLICATES, prior, (np.array([[0.0, 0], [5.5, 5.5]]), np.array([np.eye(2)] * 2),
                                                     [0.5, 0.5]), max_iter=50)
    assert np.all(np.isfinite(res.log_posterior))


def test_gmm_em_reports_a_component_without_responsibility_as_divergence():
    # a component whose mean is so far away that no point gives it any responsibility
    X, init, covs, weights = _data(30, 2, 2, 0)
    with pytest.raises(ValueError, match="EM diverged at step 1: component 1 lost all responsibility"):
        clustering.gmm_em(X, np.array([init[0], [1e3, 1e3]]), covs, weights)


def test_the_exponential_family_em_reports_a_non_finite_likelihood():
    # component 0 shrinks onto 0 and 1e-160: its variance (about 1e-321) gives infinite
    # natural parameters and a NaN log-likelihood, reported instead of carried on
    x = np.array([0, 1e-160, 5, 5.1, 4.9])
    with np.errstate(all="ignore"), pytest.raises(ValueError, match=r"after step 2 \(EM diverged\) is nan"):
        clustering.em_exponential_family(x, "normal", ([0.4, 0.6], [[1e-161, 1.0], [5.0, 26.0]]), max_iter=20)


@pytest.mark.parametrize("call, match", [
    (lambda X, C: clustering.kmeans_assign(X, C), "X is too far from centres"),
    (lambda X, C: clustering.kmeans(X, C), "X is too far from init"),
    (lambda X, C: clustering.kmeans_inertia(X, C, np.zeros(len(X), dtype=int)), "X is too far from centres"),
    (lambda X, C: clustering.gmm_e_step(X, C, np.array([np.eye(2)] * 2), [0.5, 0.5]), "Mahalanobis distances overflow"),
    (lambda X, C: clustering.gem_step(X, C, np.array([np.eye(2)] * 2), [0.5, 0.5]), "Mahalanobis distances overflow"),
])
def test_overflowing_distances_raise_instead_of_returning_nan_or_inf(call, match):
    X = np.array([[0.0, 0.0], [1e200, 1e200], [1.0, 0.0]])
    with pytest.raises(ValueError, match=match):
        call(X, np.array([[0.0, 0.0], [1.0, 1.0]]))


def test_list_and_string_inputs_of_the_em_variants():
    res = clustering.em_exponential_family([0, 1, 2, 7, 8, 9], "poisson", ([0.5, 0.5], [1.0, 8.0]), max_iter=5)
    ref = clustering.em_exponential_family(np.array([0, 1, 2, 7, 8, 9.0]), "poisson", ([0.5, 0.5], [1.0, 8.0]), max_iter=5)
    np.testing.assert_array_equal(res.params, ref.params)
    for bad in ["abc", [[0, 1], [2]], None]:
        with pytest.raises(ValueError, match="x must"):
            clustering.em_exponential_family(bad, "poisson", ([1.0], [1.0]))
    X, prior, (means, covs, weights) = _map_setup()
    for init, name in [((means[:, :1], covs, weights), "init means"), ((means, -covs, weights), "init covs"),
                       ((means, covs, [0.9, 0.3]), "init weights")]:
        with pytest.raises(ValueError, match=name):
            clustering.gmm_map_em(X, prior, init)


def test_gmm_em_rejects_a_zero_weight_by_name():
    X = np.random.default_rng(0).normal(size=(20, 2))
    with pytest.raises(ValueError, match="weights must be positive: component 1"):
        clustering.gmm_em(X, np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([np.eye(2)] * 2), np.array([1.0, 0.0]))


# ------------------------------------------------------- a Gaussian with missing data
def _observed_loglik(X, mean, cov):
    """Σᵢ log N(x_{i,o} | μ_o, Σ_oo) row by row with scipy."""
    total = 0.0
    for x in X:
        o = ~np.isnan(x)
        if o.any():
            total += scipy.stats.multivariate_normal(mean[o], cov[np.ix_(o, o)]).logpdf(x[o])
    return total


def _missing_data(n, d, frac, seed, offset=0.0):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((d, d))
    X = rng.multivariate_normal(offset + rng.standard_normal(d), A @ A.T + np.eye(d), n)
    X[rng.random((n, d)) < frac] = np.nan
    return X


@pytest.mark.parametrize("n,d,frac,seed", [(30, 2, 0.2, 0), (60, 3, 0.3, 1), (80, 4, 0.25, 2)])
def test_missing_em_likelihood_is_monotone_and_exact(n, d, frac, seed):
    X = _missing_data(n, d, frac, seed)
    res = clustering.gaussian_missing_em(X, max_iter=300, tol=1e-12)
    assert res.converged
    assert np.all(np.diff(res.log_likelihood) >= -1e-9)
    assert res.log_likelihood[-1] == pytest.approx(_observed_loglik(X, res.mean, res.cov), rel=1e-12)
    first = clustering.gaussian_missing_em(X, max_iter=1, tol=0.0)
    mean0, cov0 = np.nanmean(X, axis=0), np.diag(np.nanvar(X, axis=0))
    assert first.log_likelihood[0] == pytest.approx(_observed_loglik(X, mean0, cov0), rel=1e-12)


def test_missing_em_matches_the_closed_form_for_a_monotone_pattern():
    # x1 always observed, x2 missing in some rows: the MLE factorises (Anderson 1957)
    rng = np.random.default_rng(3)
    X = rng.multivariate_normal([1.0, -1.0], [[2.0, 1.2], [1.2, 1.5]], 50)
    X[rng.random(50) < 0.4, 1] = np.nan
    c = ~np.isnan(X[:, 1])
    m1, s11 = X[:, 0].mean(), X[:, 0].var()
    xc, yc = X[c, 0], X[c, 1]
    beta = np.cov(xc, yc, bias=True)[0, 1] / xc.var()
    alpha = yc.mean() - beta * xc.mean()
    s22_1 = np.mean((yc - alpha - beta * xc) ** 2)
    res = clustering.gaussian_missing_em(X, max_iter=2000, tol=1e-15)
    np.testing.assert_allclose(res.mean, [m1, alpha + beta * m1], atol=1e-7)
    np.testing.assert_allclose(res.cov, [[s11, beta * s11], [beta * s11, s22_1 + beta**2 * s11]], atol=1e-7)


def test_missing_em_with_complete_data_is_the_sample_mle_far_from_the_origin():
    X = _missing_data(40, 3, 0.0, 4, offset=1e8)
    res = clustering.gaussian_missing_em(X, max_iter=3, tol=0.0)
    np.testing.assert_allclose(res.mean, X.mean(axis=0), rtol=1e-15)
    np.testing.assert_allclose(res.cov, np.cov(X.T, bias=True), rtol=1e-7)
    # the same data shifted: the covariance (centred M-step) does not change
    Xm = _missing_data(40, 3, 0.3, 5, offset=0.0)
    a = clustering.gaussian_missing_em(Xm, max_iter=50, tol=0.0)
    b = clustering.gaussian_missing_em(Xm + 1e6, max_iter=50, tol=0.0)
    np.testing.assert_allclose(b.cov, a.cov, rtol=1e-6)
    np.testing.assert_allclose(b.mean - 1e6, a.mean, atol=1e-6)


def test_missing_em_fixed_point_maximises_the_observed_likelihood():
    X = _missing_data(40, 2, 0.3, 6)
    res = clustering.gaussian_missing_em(X, max_iter=1000, tol=1e-14)

    def neg(v):
        L = np.array([[np.exp(v[2]), 0.0], [v[3], np.exp(v[4])]])
        return -_observed_loglik(X, v[:2], L @ L.T)

    L0 = np.linalg.cholesky(res.cov)
    v_em = np.r_[res.mean, np.log(L0[0, 0]), L0[1, 0], np.log(L0[1, 1])]
    opt = scipy.optimize.minimize(neg, np.r_[0.0, 0.0, 0.0, 0.0, 0.0], method="BFGS", options={"gtol": 1e-9})
    assert -opt.fun <= res.log_likelihood[-1] + 1e-8
    np.testing.assert_allclose(opt.x, v_em, atol=1e-4)


def test_missing_em_rejects_bad_input_and_warns_when_unconverged():
    X = _missing_data(20, 2, 0.2, 7)
    Xbad = X.copy()
    Xbad[:, 1] = np.nan
    Xbad[0, 1] = 1.0
    with pytest.raises(ValueError, match="X: column 1 has fewer than two"):
        clustering.gaussian_missing_em(Xbad)
    with pytest.raises(ValueError, match="X must not hold inf"):
        clustering.gaussian_missing_em(np.where(np.isnan(X), np.inf, X))
    with pytest.raises(ValueError, match="cov must be positive definite"):
        clustering.gaussian_missing_em(X, cov=np.array([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(ValueError, match="mean must have shape"):
        clustering.gaussian_missing_em(X, mean=np.zeros(3))
    with pytest.warns(RuntimeWarning, match="did not converge"):
        res = clustering.gaussian_missing_em(X, max_iter=2, tol=1e-12)
    assert not res.converged and "converged=False" in repr(res)
    # a row with nothing observed is allowed and changes nothing in the likelihood
    Xr = np.vstack([X, [np.nan, np.nan]])
    b = clustering.gaussian_missing_em(Xr, max_iter=30, tol=0.0)
    assert b.log_likelihood[-1] == pytest.approx(_observed_loglik(Xr, b.mean, b.cov), rel=1e-12)
    np.testing.assert_allclose(b.X_filled[-1], b.mean, atol=1e-12)
