"""Tests of mlnotes.embedding against scikit-learn (TSNE, LocallyLinearEmbedding) and the
chapter's identities (perplexity calibration, symmetric joint P, gradient, constraints)."""
import numpy as np
import pytest
from sklearn.datasets import load_digits, make_blobs, make_swiss_roll
from sklearn.manifold import TSNE, LocallyLinearEmbedding, trustworthiness

from mlnotes import embedding
from mlnotes.nn import gradient_check


def _digits(n, seed):
    X, y = load_digits(return_X_y=True)
    idx = np.random.default_rng(seed).choice(len(X), n, replace=False)
    return X[idx], y[idx]


def _entropy_bits(P):
    logs = np.log2(np.where(P > 0, P, 1.0))
    return -np.sum(P * logs, axis=1)


# ------------------------------------------------------------------ affinities
@pytest.mark.parametrize("n, d, perplexity, seed", [(30, 3, 5.0, 0), (120, 10, 25.0, 1), (200, 64, 40.0, 2)])
def test_conditional_rows_have_the_requested_perplexity(n, d, perplexity, seed):
    X = np.random.default_rng(seed).standard_normal((n, d)) * np.arange(1, d + 1)
    P, beta = embedding.conditional_p(X, perplexity)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(np.diag(P) == 0) and np.all(beta > 0)
    np.testing.assert_allclose(2 ** _entropy_bits(P), perplexity, rtol=1e-5)
    # each row is the Gaussian kernel exp(-beta_i ||x_i - x_j||^2), normalised over j != i
    D = embedding.squared_distances(X)
    K = np.exp(-beta[:, None] * (D - np.where(np.eye(n, dtype=bool), np.inf, D).min(axis=1, keepdims=True)))
    np.fill_diagonal(K, 0.0)
    np.testing.assert_allclose(P, K / K.sum(axis=1, keepdims=True), rtol=1e-10, atol=1e-300)


def test_conditional_p_matches_sklearn_binary_search():
    from sklearn.manifold._utils import _binary_search_perplexity
    X, _ = _digits(100, 0)
    D = embedding.squared_distances(X)
    P_sk = _binary_search_perplexity(D.astype(np.float32), 20.0, 0)
    P, _ = embedding.conditional_p(X, 20.0)
    np.testing.assert_allclose(P, P_sk, atol=2e-4)


@pytest.mark.parametrize("n, seed", [(40, 0), (150, 1)])
def test_joint_p_symmetric_and_normalised(n, seed):
    X, _ = make_blobs(n_samples=n, centers=3, n_features=5, random_state=seed)
    P = embedding.joint_p(X, 10.0)
    np.testing.assert_allclose(P, P.T, atol=1e-15)
    assert P.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.all(np.diag(P) == 0) and np.all(P >= 0)
    Pc, _ = embedding.conditional_p(X, 10.0)
    np.testing.assert_allclose(P, (Pc + Pc.T) / (2 * n), atol=1e-15)


def test_joint_q_is_student_t():
    Y = np.random.default_rng(0).standard_normal((25, 2))
    Q, W = embedding.joint_q(Y)
    i, j = 3, 17
    assert W[i, j] == pytest.approx(1 / (1 + np.sum((Y[i] - Y[j]) ** 2)))
    assert Q.sum() == pytest.approx(1.0) and np.all(np.diag(Q) == 0)
    np.testing.assert_allclose(Q, Q.T)


def test_kl_divergence_identities():
    rng = np.random.default_rng(0)
    p, q = rng.dirichlet(np.ones(10)), rng.dirichlet(np.ones(10))
    assert embedding.kl_divergence(p, q) == pytest.approx(np.sum(p * np.log(p / q)))
    assert embedding.kl_divergence(p, p) == pytest.approx(0.0, abs=1e-15)
    assert embedding.kl_divergence(p, q) > 0


# ------------------------------------------------------------------ gradient
@pytest.mark.parametrize("n, m, seed", [(8, 2, 0), (15, 3, 1)])
def test_tsne_gradient_matches_central_differences(n, m, seed):
    rng = np.random.default_rng(seed)
    P = embedding.joint_p(rng.standard_normal((n, 4)), 3.0)
    Y = rng.standard_normal((n, m))
    grad = embedding.tsne_gradient(P, Y)
    err = gradient_check(lambda Z: embedding.kl_divergence(P, embedding.joint_q(Z)[0]), Y, grad)
    assert err < 1e-6
    np.testing.assert_allclose(grad.sum(axis=0), 0.0, atol=1e-12)  # translation invariance


# ------------------------------------------------------------------ t-SNE vs sklearn
@pytest.mark.parametrize("n, perplexity, seed", [(150, 20.0, 0), (200, 30.0, 1)])
def test_tsne_trustworthiness_matches_sklearn(n, perplexity, seed):
    X, _ = _digits(n, seed)
    ours = embedding.tsne(X, perplexity, 750, np.random.default_rng(seed))
    ref = TSNE(method="exact", perplexity=perplexity, init="random", random_state=seed, max_iter=750).fit(X)
    t_ours = trustworthiness(X, ours.Y, n_neighbors=10)
    t_ref = trustworthiness(X, ref.embedding_, n_neighbors=10)
    assert abs(t_ours - t_ref) < 0.02
    assert ours.kl[-1] == pytest.approx(ref.kl_divergence_, rel=0.25)
    assert ours.kl[-1] < ours.kl[0]
    assert "TSNEResult(n=" in repr(ours) and "0x" not in repr(ours)


@pytest.mark.parametrize("n, seed", [(60, 0), (120, 1)])
def test_tsne_optimiser_matches_sklearn_gradient_descent(n, seed):
    """Gains (grow by 0.2 where grad * update < 0, else shrink by 0.8), momentum and step agree
    with scikit-learn's _gradient_descent step by step; after a few steps the trajectories part
    only by rounding, which the large early steps amplify, hence 8 steps."""
    from sklearn.manifold._t_sne import _gradient_descent
    X, _ = _digits(n, seed)
    P = embedding.joint_p(X, 10.0)

    def objective(p, compute_error=True):
        Y = p.reshape(-1, 2)
        Q, W = embedding.joint_q(Y)
        G = 4 * (12.0 * P - Q) * W
        return 0.0, (G.sum(axis=1)[:, None] * Y - G @ Y).ravel()

    Y0 = 1e-2 * np.random.default_rng(seed).standard_normal((n, 2))
    ours = embedding.tsne(X, 10.0, 8, np.random.default_rng(seed)).Y
    ref = _gradient_descent(objective, Y0, 0, 8, momentum=0.5, learning_rate=max(n / 48, 50.0))[0]
    np.testing.assert_allclose(ours, ref.reshape(-1, 2), atol=1e-10)


def test_tsne_is_reproducible():
    X, _ = make_blobs(n_samples=60, centers=3, n_features=4, random_state=0)
    a = embedding.tsne(X, 10.0, 300, np.random.default_rng(5))
    b = embedding.tsne(X, 10.0, 300, np.random.default_rng(5))
    np.testing.assert_array_equal(a.Y, b.Y)
    assert a.kl.shape == (300,)


# ------------------------------------------------------------------ LLE
@pytest.mark.parametrize("n, k, reg, seed", [(150, 8, 1e-3, 0), (300, 12, 1e-2, 1)])
def test_lle_matches_sklearn(n, k, reg, seed):
    X, _ = make_swiss_roll(n, noise=0.0, random_state=seed)
    Y = embedding.lle(X, 2, k, reg)
    ref = LocallyLinearEmbedding(n_neighbors=k, n_components=2, method="standard",
                                 eigen_solver="dense", reg=reg).fit(X)
    for c in range(2):
        assert abs(np.corrcoef(Y[:, c], ref.embedding_[:, c])[0, 1]) > 1 - 1e-6
    # scikit-learn's eigenvectors have unit norm; ours are scaled to unit covariance
    np.testing.assert_allclose(np.abs(Y), np.sqrt(n) * np.abs(ref.embedding_), atol=1e-5 * np.sqrt(n))
    W = embedding.lle_weights(X, k, reg)
    M = (np.eye(n) - W).T @ (np.eye(n) - W)
    assert np.trace(Y.T @ M @ Y) / n == pytest.approx(ref.reconstruction_error_, rel=1e-4, abs=1e-12)


@pytest.mark.parametrize("n, k, seed", [(50, 5, 0), (200, 10, 1)])
def test_lle_constraints(n, k, seed):
    X = np.random.default_rng(seed).standard_normal((n, 3))
    W = embedding.lle_weights(X, k)
    np.testing.assert_allclose(W.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(np.count_nonzero(W, axis=1) == k) and np.all(np.diag(W) == 0)
    Y = embedding.lle(X, 2, k)
    np.testing.assert_allclose(Y.mean(axis=0), 0.0, atol=1e-6)  # to the accuracy of eigh (tiny eigengap)
    np.testing.assert_allclose(Y.T @ Y / n, np.eye(2), atol=1e-10)


def test_lle_weights_solve_the_constrained_least_squares():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((30, 5))       # d = 5 > k = 4: local Gram matrices are invertible
    W = embedding.lle_weights(X, 4, reg=0.0)
    i = 7
    nbrs = np.flatnonzero(W[i])
    # eliminate the constraint: w = e_0 + B z with columns of B summing to zero
    A = X[nbrs].T
    B = np.vstack([-np.ones(3), np.eye(3)])
    z = np.linalg.lstsq(A @ B, X[i] - A[:, 0], rcond=None)[0]
    np.testing.assert_allclose(W[i, nbrs], np.r_[1.0, 0, 0, 0] + B @ z, atol=1e-10)


# ------------------------------------------------------------------ bad inputs
def test_bad_inputs():
    X = np.random.default_rng(0).standard_normal((20, 3))
    with pytest.raises(ValueError, match="X"):
        embedding.conditional_p(np.ones(5), 3.0)
    with pytest.raises(ValueError, match="X"):
        embedding.joint_p(np.where(np.eye(20, 3) > 0, np.nan, X), 3.0)
    with pytest.raises(ValueError, match="perplexity"):
        embedding.conditional_p(X, 19.0)
    with pytest.raises(ValueError, match="perplexity"):
        embedding.conditional_p(X, -2.0)
    with pytest.raises(ValueError, match="perplexity"):
        embedding.conditional_p(X, 1.0)
    with pytest.raises(ValueError, match="rng"):
        embedding.tsne(X, 5.0, 10, rng=0)
    with pytest.raises(ValueError, match="n_iter"):
        embedding.tsne(X, 5.0, 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="exaggeration"):
        embedding.tsne(X, 5.0, 10, np.random.default_rng(0), exaggeration=0.5)
    with pytest.raises(ValueError, match="learning_rate"):
        embedding.tsne(X, 5.0, 10, np.random.default_rng(0), learning_rate=-1.0)
    with pytest.raises(ValueError, match="Y"):
        embedding.joint_q(np.ones((1, 2)))
    P = embedding.joint_p(X, 5.0)
    with pytest.raises(ValueError, match="P"):
        embedding.tsne_gradient(2 * P, np.zeros((20, 2)))
    with pytest.raises(ValueError, match="P"):
        embedding.tsne_gradient(P, np.zeros((19, 2)))
    assert embedding.kl_divergence([0.5, 0.5], [1.0, 0.0]) == np.inf   # Q = 0 where P > 0
    with pytest.raises(ValueError, match="p"):
        embedding.kl_divergence([0.5, 0.6], [0.5, 0.5])
    with pytest.raises(ValueError, match="n_neighbors"):
        embedding.lle_weights(X, 20)
    with pytest.raises(ValueError, match="reg"):
        embedding.lle_weights(X, 5, reg=-1.0)
    with pytest.raises(ValueError, match="reg"):
        embedding.lle_weights(X, 5, reg=0.0)           # k = 5 > d = 3: singular Gram matrices
    with pytest.raises(ValueError, match="n_components"):
        embedding.lle(X, 20, 5)


# ------------------------------------------------------------------ translation and scale
# Everything here depends on X only through the differences x_i - x_j: a shift of the data
# changes nothing, and X -> cX multiplies D by c² (P, the LLE weights and embedding stay).
_X_INV = np.random.default_rng(0).standard_normal((60, 5)) * np.arange(1, 6)
_CHANGES = [pytest.param(1.0, 1e5, id="shift 1e5"), pytest.param(1e-3, 0.0, id="scale 1e-3"),
            pytest.param(1e3, 0.0, id="scale 1e3")]
# a shift of 1e5 of data spread over 1e-2: the neighbours found from ||x||² + ||y||² - 2x·y change
_HARD = _CHANGES + [pytest.param(1e-2, 1e5, id="scale 1e-2 and shift 1e5")]


def _close(a, b, rtol=1e-8):
    """``a == b`` to ``rtol`` relative to the largest entry of ``b``."""
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * np.abs(b).max())


@pytest.mark.parametrize("c, shift", _HARD)
def test_distances_and_affinities_are_translation_and_scale_invariant(c, shift):
    X, Xt = _X_INV, c * _X_INV + shift
    _close(embedding.squared_distances(Xt), c ** 2 * embedding.squared_distances(X))
    P, beta = embedding.conditional_p(X, 10.0)
    Pt, beta_t = embedding.conditional_p(Xt, 10.0)
    _close(Pt, P)
    np.testing.assert_allclose(beta_t * c ** 2, beta, rtol=1e-8)      # sigma_i scales with c
    _close(embedding.joint_p(Xt, 10.0), embedding.joint_p(X, 10.0))


@pytest.mark.parametrize("c, shift", _HARD)
def test_lle_is_translation_and_scale_invariant(c, shift):
    X, Xt = _X_INV, c * _X_INV + shift
    _close(embedding.lle_weights(Xt, 6), embedding.lle_weights(X, 6))
    Y, Yt = embedding.lle(X, 2, 8), embedding.lle(Xt, 2, 8)
    _close(Yt * np.sign(np.sum(Yt * Y, axis=0)), Y)                  # eigenvectors: up to sign


@pytest.mark.parametrize("c, shift", _CHANGES)
def test_tsne_depends_on_x_only_through_invariant_affinities(c, shift):
    """t-SNE sees X only through P, which is invariant; its gain rule (a sign test) turns
    rounding-level differences into different trajectories after some tens of steps, so
    the whole run is compared over its first ten steps."""
    a = embedding.tsne(_X_INV, 10.0, 10, np.random.default_rng(1))
    b = embedding.tsne(c * _X_INV + shift, 10.0, 10, np.random.default_rng(1))
    _close(b.Y, a.Y)
    np.testing.assert_allclose(b.kl, a.kl, rtol=1e-8)


def test_student_t_affinities_and_gradient_are_translation_invariant():
    rng = np.random.default_rng(2)
    Y, P = rng.standard_normal((40, 2)), embedding.joint_p(rng.standard_normal((40, 3)), 5.0)
    _close(embedding.joint_q(Y + 1e5)[0], embedding.joint_q(Y)[0])
    _close(embedding.tsne_gradient(P, Y + 1e5), embedding.tsne_gradient(P, Y))
    _close(embedding.tsne_gradient(P, Y - [3e6, -1e5]), embedding.tsne_gradient(P, Y))


def test_tsne_divergence_is_an_error_not_nan():
    X = np.random.default_rng(0).standard_normal((30, 3))
    with pytest.raises(ValueError, match="diverged.*learning_rate"):
        embedding.tsne(X, 5.0, 100, np.random.default_rng(0), learning_rate=1e200)
    with pytest.raises(ValueError, match="too far apart"):
        embedding.joint_q(np.array([[0.0, 0.0], [1e200, 0.0]]))


def test_more_bad_inputs():
    X = np.random.default_rng(0).standard_normal((20, 3))
    with pytest.raises(ValueError, match="X must have at least 3 rows"):
        embedding.conditional_p(X[:2], 1.5)
    with pytest.raises(ValueError, match="p"):
        embedding.kl_divergence([[0.5, 0.5], [1.0]], [0.5, 0.5])
    np.testing.assert_array_equal(embedding.squared_distances([[1.0, 2.0]]), [[0.0]])
