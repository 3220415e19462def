"""Tests of mlnotes.latent against numpy, scipy and scikit-learn, plus the chapter's identities."""
import numpy as np
import pytest
import scipy.linalg
import scipy.stats
from sklearn.cross_decomposition import CCA
from sklearn.decomposition import PCA, FactorAnalysis

from mlnotes import latent

SIZES = [(150, 6, 2, 0), (400, 8, 3, 1), (1000, 12, 4, 0)]  # (n, d, q, seed)


def _fa_data(n, d, q, seed):
    """Draws from a factor-analysis model with heteroscedastic noise and a non-zero mean."""
    rng = np.random.default_rng(seed)
    W = rng.standard_normal((d, q))
    psi = rng.uniform(0.2, 1.5, d)
    Z = rng.standard_normal((n, q))
    return Z @ W.T + rng.standard_normal((n, d)) * np.sqrt(psi) + rng.standard_normal(d)


def _two_views(n, seed):
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((n, 2))
    X = Z @ rng.standard_normal((2, 4)) + rng.standard_normal((n, 4))
    Y = Z @ rng.standard_normal((2, 3)) + 1.5 * rng.standard_normal((n, 3))
    return X, Y


@pytest.mark.parametrize("n,d,q,seed", SIZES)
def test_pca_matches_sklearn(n, d, q, seed):
    X = _fa_data(n, d, q, seed)
    res, ref = latent.pca(X, q), PCA(n_components=q).fit(X)
    np.testing.assert_allclose(np.abs(np.sum(res.components * ref.components_, axis=1)), 1.0, atol=1e-9)
    # sklearn divides by n - 1, the book by n
    np.testing.assert_allclose(res.explained_variance * n / (n - 1), ref.explained_variance_, rtol=1e-10)
    np.testing.assert_allclose(res.mean, ref.mean_, atol=1e-12)
    np.testing.assert_allclose(np.abs(res.transform(X)), np.abs(ref.transform(X)), atol=1e-8)


@pytest.mark.parametrize("n,d,q,seed", SIZES)
def test_pca_min_error_equals_discarded_variance(n, d, q, seed):
    X = _fa_data(n, d, q, seed)
    res = latent.pca(X, q)
    Xc = X - res.mean
    recon = Xc @ res.components.T @ res.components
    err = np.mean(np.sum((Xc - recon) ** 2, axis=1))
    np.testing.assert_allclose(err, res.eigenvalues[q:].sum(), rtol=1e-10)
    # a random q-dimensional subspace does worse
    Q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((d, q)))
    assert np.mean(np.sum((Xc - Xc @ Q @ Q.T) ** 2, axis=1)) > err


@pytest.mark.parametrize("n,d,q,seed", SIZES)
def test_ppca_matches_sklearn_pca(n, d, q, seed):
    X = _fa_data(n, d, q, seed)
    res, ref = latent.ppca_ml(X, q), PCA(n_components=q).fit(X)
    # sklearn's covariance uses divisor n - 1: its sigma2 and C are n/(n-1) times the ML ones
    np.testing.assert_allclose(res.sigma2 * n / (n - 1), ref.noise_variance_, rtol=1e-10)
    np.testing.assert_allclose(res.covariance * n / (n - 1), ref.get_covariance(), atol=1e-10)
    C_sk = res.covariance * n / (n - 1)
    np.testing.assert_allclose(latent.gaussian_loglik(X, res.mean, C_sk), ref.score(X), rtol=1e-10)
    assert res.loglik > ref.score(X)  # the divisor-n fit is the maximum


@pytest.mark.parametrize("n,d,q,seed", SIZES)
def test_ppca_loglik_closed_form_and_scipy(n, d, q, seed):
    X = _fa_data(n, d, q, seed)
    res = latent.ppca_ml(X, q)
    lam = latent.pca(X, d).eigenvalues
    closed = -0.5 * (d * np.log(2 * np.pi) + np.log(lam[:q]).sum() + (d - q) * np.log(res.sigma2) + d)
    np.testing.assert_allclose(res.loglik, closed, rtol=1e-10)
    ref = scipy.stats.multivariate_normal(res.mean, res.covariance).logpdf(X).mean()
    np.testing.assert_allclose(res.loglik, ref, rtol=1e-10)


@pytest.mark.parametrize("n,d,q,seed", SIZES)
def test_ppca_stationarity_rotation_and_gradient_sign(n, d, q, seed):
    X = _fa_data(n, d, q, seed)
    mean, S = latent.sample_covariance(X)
    res = latent.ppca_ml(X, q)
    C = res.covariance
    np.testing.assert_allclose(S @ np.linalg.solve(C, res.W), res.W, atol=1e-9)
    R, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((q, q)))
    rot = latent.ppca_ml(X, q, R=R)
    np.testing.assert_allclose(rot.covariance, C, atol=1e-10)
    # gradient of the total log-likelihood at a non-stationary W: N (C⁻¹SC⁻¹W − C⁻¹W)
    W = res.W + 0.3 * np.random.default_rng(seed + 1).standard_normal(res.W.shape)

    def ell(W):
        return n * latent.gaussian_loglik(X, mean, W @ W.T + res.sigma2 * np.eye(d))

    Cw = W @ W.T + res.sigma2 * np.eye(d)
    Ci = np.linalg.inv(Cw)
    grad = n * (Ci @ S @ Ci @ W - Ci @ W)
    h, E = 1e-6, np.zeros_like(W)
    E[0, 0] = 1.0
    fd = (ell(W + h * E) - ell(W - h * E)) / (2 * h)
    np.testing.assert_allclose(fd, grad[0, 0], rtol=1e-5, atol=1e-5)
    assert np.sign(fd) == np.sign(grad[0, 0])


@pytest.mark.parametrize("n,d,q,seed", SIZES)
def test_latent_posterior_matches_gaussian_conditioning(n, d, q, seed):
    X = _fa_data(n, d, q, seed)[:20]
    rng = np.random.default_rng(seed)
    W, psi, mu = rng.standard_normal((d, q)), rng.uniform(0.3, 2.0, d), rng.standard_normal(d)
    Ez, cov = latent.latent_posterior(X, W, psi, mu)
    C = W @ W.T + np.diag(psi)
    np.testing.assert_allclose(Ez, (X - mu) @ np.linalg.solve(C, W), atol=1e-10)
    np.testing.assert_allclose(cov, np.eye(q) - W.T @ np.linalg.solve(C, W), atol=1e-10)


@pytest.mark.parametrize("n,d,q,seed", SIZES)
def test_factor_analysis_matches_sklearn(n, d, q, seed):
    X = _fa_data(n, d, q, seed)
    res = latent.factor_analysis_em(X, q, tol=1e-9, max_iter=5000)
    ref = FactorAnalysis(n_components=q, tol=1e-9, max_iter=5000, svd_method="lapack").fit(X)
    assert res.converged
    np.testing.assert_allclose(res.history[-1], ref.score(X), atol=1e-4)
    np.testing.assert_allclose(res.history[-1], latent.gaussian_loglik(X, res.mean, res.covariance),
                               rtol=1e-10)
    np.testing.assert_allclose(res.covariance, ref.get_covariance(), atol=5e-3)
    np.testing.assert_allclose(res.psi, ref.noise_variance_, atol=5e-3)
    assert np.all(np.diff(res.history) >= -1e-10)  # EM never decreases the likelihood


@pytest.mark.parametrize("n,seed", [(80, 0), (300, 1), (2000, 2)])
def test_cca_matches_sklearn_and_generalised_eigenproblem(n, seed):
    X, Y = _two_views(n, seed)
    res = latent.cca(X, Y, k=2)
    _, S = latent.sample_covariance(np.hstack([X, Y]))
    p = X.shape[1]
    A = np.zeros_like(S)
    A[:p, p:], A[p:, :p] = S[:p, p:], S[p:, :p]
    B = S.copy()
    B[:p, p:] = B[p:, :p] = 0
    np.testing.assert_allclose(res.correlations, scipy.linalg.eigh(A, B, eigvals_only=True)[::-1][:2],
                               rtol=1e-9)
    ref = CCA(n_components=2, scale=False, max_iter=5000, tol=1e-12).fit(X, Y)
    xs, ys = ref.transform(X, Y)
    sk_rho = [np.corrcoef(xs[:, j], ys[:, j])[0, 1] for j in range(2)]
    np.testing.assert_allclose(res.correlations, sk_rho, atol=1e-6)
    U, V = res.transform(X, Y)
    np.testing.assert_allclose(U.T @ U / n, np.eye(2), atol=1e-10)
    np.testing.assert_allclose(U.T @ V / n, np.diag(res.correlations), atol=1e-10)


def test_reprs_have_no_addresses():
    X = _fa_data(100, 5, 2, 3)
    for r in (latent.pca(X, 2), latent.ppca_ml(X, 2), latent.factor_analysis_em(X, 2),
              latent.cca(X[:, :2], X[:, 2:], 1)):
        assert " at 0x" not in repr(r) and repr(r).startswith(type(r).__name__ + "(")


@pytest.mark.parametrize("call,match", [
    (lambda X: latent.pca(X[:, 0], 1), "X"),
    (lambda X: latent.pca(np.where(X > 2, np.nan, X), 1), "X"),
    (lambda X: latent.pca(X, 0), "q"),
    (lambda X: latent.pca(X, 6), "q"),
    (lambda X: latent.pca(X, 1.0), "q"),
    (lambda X: latent.ppca_ml(X, 5), "q"),
    (lambda X: latent.ppca_ml(X, 2, R=np.ones((2, 2))), "R"),
    (lambda X: latent.ppca_ml(X[:3], 2), "X"),
    (lambda X: latent.factor_analysis_em(X, 2, tol=0.0), "tol"),
    (lambda X: latent.factor_analysis_em(X, 2, max_iter=0), "max_iter"),
    (lambda X: latent.factor_analysis_em(np.column_stack([X, np.ones(len(X))]), 2), "X"),
    # the mean of 50 copies of 0.1 or 1/3 is rounded, so the computed variance is 2e-33 or 3e-32, not 0
    (lambda X: latent.factor_analysis_em(np.column_stack([X, np.full(len(X), 0.1)]), 2), "X"),
    (lambda X: latent.factor_analysis_em(np.column_stack([X, np.full(len(X), 1 / 3)]), 2), "X"),
    (lambda X: latent.factor_analysis_em(X, 5), "q"),
    (lambda X: latent.gaussian_loglik(X, np.zeros(4), np.eye(5)), "mean"),
    (lambda X: latent.gaussian_loglik(X, np.zeros(5), -np.eye(5)), "C"),
    (lambda X: latent.gaussian_loglik(X, np.zeros(5), np.eye(4)), "C"),
    (lambda X: latent.latent_posterior(X, np.ones((5, 2)), np.zeros(5), np.zeros(5)), "psi"),
    (lambda X: latent.latent_posterior(X, np.ones((4, 2)), np.ones(5), np.zeros(5)), "W"),
    (lambda X: latent.cca(X, X[:-1]), "Y"),
    (lambda X: latent.cca(X[:, :2], X[:, 2:], k=3), "k"),
    (lambda X: latent.cca(np.column_stack([X[:, :2], X[:, 0]]), X[:, 2:]), "X"),
])
def test_bad_inputs_raise(call, match):
    X = _fa_data(50, 5, 2, 4)
    with pytest.raises(ValueError, match=match):
        call(X)


EPS = np.finfo(float).eps


def test_ppca_discarded_eigenvalues_of_rounding_size_count_as_zero(monkeypatch):
    # Three points in 5 dimensions: rank 2, so λ_3 = λ_4 = λ_5 = 0 in exact arithmetic. The
    # eigensolver returns rounding noise of either sign instead (positive and about ε·λ_1 on
    # some CPUs); inject such positive noise so that this does not depend on the CPU.
    X = _fa_data(50, 5, 2, 4)[:3]
    eigh_descending = latent._eigh_descending

    def with_positive_noise(S):
        lam, U = eigh_descending(S)
        return np.concatenate([lam[:2], np.array([3.0, 2.0, 1.0]) * EPS * lam[0]]), U

    monkeypatch.setattr(latent, "_eigh_descending", with_positive_noise)
    with pytest.raises(ValueError, match="X: the discarded eigenvalues are zero up to rounding"):
        latent.ppca_ml(X, 2)


@pytest.mark.parametrize("make", [
    lambda X: X[:3],                                         # n = 3 points: rank 2
    lambda X: 1e3 * X[:3] + 1e4,                             # ... on another scale, far from 0
    lambda X: np.column_stack([X[:, :2], X[:, :2] @ [[1.0, 0.3, -2.0], [0.7, -1.1, 0.1]]]),
    lambda X: np.column_stack([X[:, :2], X[:, :2] @ [[1.0, 0.3, -2.0], [0.7, -1.1, 0.1]]]) / 7,
    lambda X: np.tile(X[:, [0]], 5) * [0.1, 1 / 3, 0.7, 3.0, 1e-3] + 1 / 3,  # rank 1, q = 2
    lambda X: np.full((50, 5), 0.1) + [0.0, 0.2, 1 / 3, 0.5, 0.9],           # constant: rank 0
])
def test_ppca_rank_deficient_data_raises(make):
    X = make(_fa_data(50, 5, 2, 4))
    assert np.linalg.matrix_rank(X - X.mean(axis=0)) <= 2
    with pytest.raises(ValueError, match="X: the discarded eigenvalues are zero up to rounding"):
        latent.ppca_ml(X, 2)


@pytest.mark.parametrize("scale", [1e-4, 1e-6])
def test_ppca_small_but_genuine_discarded_variance_is_kept(scale):
    # rank-2 data plus noise of standard deviation `scale`: σ²/λ_1 is about 7e-10 or 7e-14,
    # small but above the rounding level ε·λ_1, so σ² is estimated, not rejected
    X = _fa_data(50, 5, 2, 4)
    X = np.column_stack([X[:, :2], X[:, :2] @ [[1.0, 0.3, -2.0], [0.7, -1.1, 0.1]]])
    X = X + scale * np.random.default_rng(5).standard_normal(X.shape)
    res, ref = latent.ppca_ml(X, 2), PCA(n_components=2).fit(X)  # sklearn: SVD of the data
    # the eigenvalues of S have absolute errors of order ε·λ_1, so σ² has relative error
    # of order ε·λ_1/σ² (3e-7 and 3e-3 here); allow d = 5 times that
    rtol = 5 * EPS * ref.explained_variance_[0] / ref.noise_variance_
    np.testing.assert_allclose(res.sigma2 * 50 / 49, ref.noise_variance_, rtol=rtol)


# --------------------------------------------------- fitted results, overflow, divergence
def test_transform_checks_the_number_of_columns():
    X = _fa_data(50, 5, 2, 4)
    res = latent.pca(X, 2)
    np.testing.assert_allclose(res.transform(X[:3].tolist()), res.transform(X[:3]))   # lists are fine
    for bad in [X[:, :4], X[:, :1], X[0]]:
        with pytest.raises(ValueError, match="X must"):
            res.transform(bad)
    cc = latent.cca(X[:, :3], X[:, 3:], k=2)
    with pytest.raises(ValueError, match="X must have 3 columns"):
        cc.transform(X[:, :2], X[:, 3:])
    with pytest.raises(ValueError, match="Y must have 2 columns"):
        cc.transform(X[:, :3], X[:, 2:])


def test_overflowing_data_raise_instead_of_returning_inf_or_nan():
    X = 1e160 * _fa_data(50, 4, 2, 4)
    for call in [latent.sample_covariance, lambda X: latent.pca(X, 2), lambda X: latent.ppca_ml(X, 2),
                 lambda X: latent.factor_analysis_em(X, 2)]:
        with pytest.raises(ValueError, match="X is too large"):
            call(X)
    with pytest.raises(ValueError, match="X and Y are too large"):
        latent.cca(X[:, :2] * 1e-160, X[:, 2:])
    with pytest.raises(ValueError, match="overflowed: rescale X, W and psi"):
        latent.latent_posterior(X[:, :4] * 1e-160, np.full((4, 2), 1e200), np.ones(4), np.zeros(4))


def test_factor_analysis_em_reports_a_non_finite_likelihood(monkeypatch):
    calls = []

    def nan_after_the_start(S, C, t):
        calls.append(t)
        return 0.0 if t == 0 else np.nan

    monkeypatch.setattr(latent, "_loglik_from_S", nan_after_the_start)
    with pytest.raises(ValueError, match="diverged at iteration 1"):
        latent.factor_analysis_em(_fa_data(50, 5, 2, 4), 2)
    assert calls == [0, 1]
