"""Tests of mlnotes.kernel_embeddings against scikit-learn, closed forms and brute force."""
import itertools

import numpy as np
import pytest
import scipy.stats as scipy_stats
from sklearn.decomposition import PCA, KernelPCA
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.preprocessing import KernelCenterer

from mlnotes import kernel_embeddings as E

SIZES = [(6, 1, 0), (25, 2, 1), (70, 3, 2)]  # (n, d, seed)


def _data(n, d, seed):
    return np.random.default_rng(seed).standard_normal((n, d))


def _quadratic_features(X):
    """Explicit feature map of k(x, z) = (xᵀz + 1)² for x in R²."""
    x1, x2 = X[:, 0], X[:, 1]
    r = np.sqrt(2)
    return np.column_stack([x1**2, x2**2, r * x1 * x2, r * x1, r * x2, np.ones(len(X))])


def _align(A, B):
    """Flip the columns of A to match the signs of the columns of B."""
    return A * np.sign(np.sum(A * B, axis=0))


def _gauss_stack(Z, sigma=1.0):
    sq = ((Z[..., :, None, :] - Z[..., None, :, :]) ** 2).sum(-1)
    return np.exp(-sq / (2 * sigma**2))


# ---------------------------------------------------------------------- centring
@pytest.mark.parametrize("n, d, seed", SIZES)
def test_centering_matrix_properties(n, d, seed):
    X = _data(n, d, seed)
    H = E.centering_matrix(n)
    np.testing.assert_allclose(H, H.T, atol=0)
    np.testing.assert_allclose(H @ H, H, atol=1e-12)
    np.testing.assert_allclose(H @ np.ones(n), 0, atol=1e-12)
    np.testing.assert_allclose(H @ X, X - X.mean(axis=0), atol=1e-12)
    np.testing.assert_allclose(X.T @ H @ X / n, np.atleast_2d(np.cov(X, rowvar=False, bias=True)),
                               atol=1e-12)
    assert np.trace(H) == pytest.approx(n - 1)


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_center_kernel_matches_kernelcenterer_and_hkh(n, d, seed):
    X = _data(n, d, seed)
    K = rbf_kernel(X, gamma=0.3)
    Kc = E.center_kernel(K)
    np.testing.assert_allclose(Kc, KernelCenterer().fit_transform(K), atol=1e-12)
    H = E.centering_matrix(n)
    np.testing.assert_allclose(Kc, H @ K @ H, atol=1e-12)
    one = np.ones((n, n))
    four_terms = K - K @ one / n - one @ K / n + one @ K @ one / n**2
    np.testing.assert_allclose(Kc, four_terms, atol=1e-12)


@pytest.mark.parametrize("n, seed", [(5, 0), (40, 1)])
def test_center_kernel_is_gram_of_centred_features(n, seed):
    X = _data(n, 2, seed)
    Phi = _quadratic_features(X)
    K = (X @ X.T + 1) ** 2
    np.testing.assert_allclose(Phi @ Phi.T, K, atol=1e-10)
    Phic = Phi - Phi.mean(axis=0)
    np.testing.assert_allclose(E.center_kernel(K), Phic @ Phic.T, atol=1e-10)


def test_center_kernel_on_a_stack():
    Z = np.random.default_rng(3).standard_normal((4, 9, 2))
    Ks = _gauss_stack(Z)
    out = E.center_kernel(Ks)
    for i in range(4):
        np.testing.assert_allclose(out[i], E.center_kernel(Ks[i]), atol=1e-14)


# -------------------------------------------------------------------- kernel PCA
@pytest.mark.parametrize("n, d, seed", SIZES[1:])
@pytest.mark.parametrize("k", [1, 3])
def test_kernel_pca_matches_sklearn(n, d, seed, k):
    X = _data(n, d, seed)
    K = rbf_kernel(X, gamma=0.5)
    res = E.kernel_pca(K, k)
    ref = KernelPCA(n_components=k, kernel="precomputed", eigen_solver="dense").fit(K)
    scores_ref = ref.transform(K)
    np.testing.assert_allclose(_align(res.scores, scores_ref), scores_ref, atol=1e-8)
    # sklearn's eigenvalues_ are those of the centred Gram matrix, n times ours
    np.testing.assert_allclose(n * res.eigenvalues, ref.eigenvalues_, rtol=1e-10)
    np.testing.assert_allclose(E.center_kernel(K) @ res.alphas, res.scores, atol=1e-10)


@pytest.mark.parametrize("n, d, seed", SIZES[1:])
def test_kernel_pca_with_linear_kernel_is_pca(n, d, seed):
    X = _data(n, d, seed) * np.arange(1, d + 1)  # distinct variances
    res = E.kernel_pca(X @ X.T, d)
    pca = PCA(n_components=d).fit(X)
    ref = pca.transform(X)
    np.testing.assert_allclose(_align(res.scores, ref), ref, atol=1e-9)
    # PCA divides by n - 1, kernel PCA's variances by n
    np.testing.assert_allclose(res.eigenvalues, pca.explained_variance_ * (n - 1) / n, rtol=1e-10)


@pytest.mark.parametrize("n, seed", [(30, 4), (60, 5)])
def test_kernel_pca_directions_have_unit_norm(n, seed):
    X = _data(n, 2, seed)
    Phic = _quadratic_features(X)
    Phic = Phic - Phic.mean(axis=0)
    res = E.kernel_pca((X @ X.T + 1) ** 2, 4)
    F = Phic.T @ res.alphas                  # the directions f_l in feature space
    np.testing.assert_allclose(F.T @ F, np.eye(4), atol=1e-9)
    C = Phic.T @ Phic / n                    # covariance of the centred features
    np.testing.assert_allclose(C @ F, F * res.eigenvalues, atol=1e-9)
    np.testing.assert_allclose(res.scores.var(axis=0), res.eigenvalues, rtol=1e-9)
    np.testing.assert_allclose(np.corrcoef(res.scores, rowvar=False), np.eye(4), atol=1e-8)


def test_kernel_pca_sign_convention_and_repr():
    K = rbf_kernel(_data(20, 2, 6))
    res = E.kernel_pca(K, 3)
    U = res.alphas * np.sqrt(20 * res.eigenvalues)
    assert np.all(U[np.abs(U).argmax(axis=0), np.arange(3)] > 0)
    np.testing.assert_allclose(U.T @ U, np.eye(3), atol=1e-10)
    assert repr(res) == "KernelPCAResult(n=20, n_components=3)"
    assert np.all(np.diff(res.eigenvalues) <= 0)


# --------------------------------------------------------------------------- MMD
def _mmd_brute_force(K, m):
    N = K.shape[0]
    n = N - m
    xs, ys = range(m), range(m, N)
    v_xx = sum(K[i, j] for i in xs for j in xs) / m**2
    v_yy = sum(K[i, j] for i in ys for j in ys) / n**2
    xy = sum(K[i, j] for i in xs for j in ys) / (m * n)
    u_xx = sum(K[i, j] for i in xs for j in xs if i != j) / (m * (m - 1))
    u_yy = sum(K[i, j] for i in ys for j in ys if i != j) / (n * (n - 1))
    return v_xx + v_yy - 2 * xy, u_xx + u_yy - 2 * xy


@pytest.mark.parametrize("m, n, d, seed", [(2, 3, 1, 0), (7, 12, 2, 1), (30, 18, 3, 2)])
def test_mmd_estimates_match_brute_force_sums(m, n, d, seed):
    rng = np.random.default_rng(seed)
    Z = np.vstack([rng.standard_normal((m, d)), 0.5 + rng.standard_normal((n, d))])
    K = rbf_kernel(Z, gamma=0.4)
    v, u = _mmd_brute_force(K, m)
    assert E.mmd2_biased(K, m) == pytest.approx(v, abs=1e-12)
    assert E.mmd2_unbiased(K, m) == pytest.approx(u, abs=1e-12)


@pytest.mark.parametrize("m, n, d, seed", [(1, 1, 1, 0), (10, 4, 2, 1), (40, 55, 5, 2)])
def test_linear_kernel_mmd_is_squared_mean_difference(m, n, d, seed):
    rng = np.random.default_rng(seed)
    X, Y = rng.standard_normal((m, d)), 1 + rng.standard_normal((n, d))
    Z = np.vstack([X, Y])
    mmd = E.mmd2_biased(Z @ Z.T, m)
    assert mmd == pytest.approx(np.sum((X.mean(0) - Y.mean(0)) ** 2), abs=1e-10)


def test_mmd_on_a_stack_matches_one_at_a_time():
    Ks = _gauss_stack(np.random.default_rng(7).standard_normal((5, 11, 2)))
    for f in (E.mmd2_biased, E.mmd2_unbiased):
        np.testing.assert_allclose(f(Ks, 4), [f(K, 4) for K in Ks], atol=1e-14)
        assert f(Ks[None], 4).shape == (1, 5)


def _gauss_expectation(mean_diff, var_sum, ell, d):
    """E exp(-‖a - b‖²/(2ℓ²)) for independent a ~ N(μa, σa² I), b ~ N(μb, σb² I)."""
    s = ell**2 + var_sum
    return (ell**2 / s) ** (d / 2) * np.exp(-mean_diff**2 / (2 * s))


def test_mmd_estimates_have_the_stated_expectations():
    """U is unbiased for the closed-form MMD²; V has the bias (2 - E_PP k - E_QQ k)/n."""
    rng = np.random.default_rng(8)
    reps, n, shift, sd_q = 4000, 15, 0.8, 1.5
    Z = np.concatenate([rng.standard_normal((reps, n, 1)),
                        shift + sd_q * rng.standard_normal((reps, n, 1))], axis=1)
    Ks = _gauss_stack(Z)
    e_pp = _gauss_expectation(0, 2, 1, 1)
    e_qq = _gauss_expectation(0, 2 * sd_q**2, 1, 1)
    e_pq = _gauss_expectation(shift, 1 + sd_q**2, 1, 1)
    mmd2 = e_pp + e_qq - 2 * e_pq
    u, v = E.mmd2_unbiased(Ks, n), E.mmd2_biased(Ks, n)
    assert abs(u.mean() - mmd2) < 4 * u.std() / np.sqrt(reps)
    bias = ((1 - e_pp) + (1 - e_qq)) / n
    assert abs(v.mean() - (mmd2 + bias)) < 4 * v.std() / np.sqrt(reps)
    assert abs(v.mean() - mmd2) > 8 * v.std() / np.sqrt(reps)  # the bias is visible
    assert np.all(v >= -1e-12) and np.any(u < 0)


# -------------------------------------------------------------------------- HSIC
def _hsic_brute_force(K, L):
    n = K.shape[0]
    total = 0.0
    for i, j in itertools.product(range(n), repeat=2):
        total += K[i, j] * L[i, j] / n**2
        for q in range(n):
            total -= 2 * K[i, j] * L[i, q] / n**3
    total += K.sum() * L.sum() / n**4
    return total


@pytest.mark.parametrize("n, seed", [(3, 0), (9, 1), (17, 2)])
def test_hsic_matches_trace_and_three_term_forms(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 2))
    y = np.column_stack([x[:, 0] ** 2, rng.standard_normal(n)])
    K, L = rbf_kernel(x, gamma=0.7), rbf_kernel(y, gamma=0.2)
    H = E.centering_matrix(n)
    h = E.hsic_biased(K, L)
    assert h == pytest.approx(np.trace(K @ H @ L @ H) / n**2, abs=1e-13)
    one = np.ones(n)
    three = (np.trace(K @ L) / n**2 + (one @ K @ one) * (one @ L @ one) / n**4
             - 2 * one @ K @ L @ one / n**3)
    assert h == pytest.approx(three, abs=1e-13)
    assert h == pytest.approx(_hsic_brute_force(K, L), abs=1e-12)
    assert E.hsic_biased(L, K) == pytest.approx(h, abs=1e-14)


@pytest.mark.parametrize("n, p, q, seed", [(8, 1, 1, 0), (40, 3, 2, 1), (90, 2, 4, 2)])
def test_linear_hsic_is_squared_frobenius_norm_of_cross_covariance(n, p, q, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    Y = X @ rng.standard_normal((p, q)) + rng.standard_normal((n, q))
    C = (X - X.mean(0)).T @ (Y - Y.mean(0)) / n
    np.testing.assert_allclose(C, np.cov(X, Y, rowvar=False, bias=True)[:p, p:], atol=1e-12)
    h = E.hsic_biased(X @ X.T, Y @ Y.T)
    assert h == pytest.approx(np.sum(C**2), rel=1e-10)
    assert h == pytest.approx(np.sum(np.linalg.svd(C, compute_uv=False) ** 2), rel=1e-10)


def test_hsic_broadcasts_stacks():
    rng = np.random.default_rng(9)
    K = rbf_kernel(rng.standard_normal((10, 1)))
    Ls = _gauss_stack(rng.standard_normal((6, 10, 1)))
    np.testing.assert_allclose(E.hsic_biased(K, Ls), [E.hsic_biased(K, L) for L in Ls], atol=1e-15)


# -------------------------------------------------------------- permutation test
def test_pvalue_formula_and_ties():
    rng = np.random.default_rng(10)
    K = rbf_kernel(rng.standard_normal((12, 1)))
    res = E.permutation_test(lambda A: E.mmd2_biased(A, 6), K, n_permutations=99, rng=rng)
    assert res.null_distribution.shape == (99,)
    expected = (1 + np.sum(res.null_distribution >= res.statistic)) / 100
    assert res.pvalue == pytest.approx(expected, abs=1e-15)
    const = E.permutation_test(lambda A: np.zeros(A.shape[:-2]), K, n_permutations=49, rng=rng)
    assert const.pvalue == 1.0                        # every permuted value ties
    # a permutation that keeps the two groups reproduces T up to rounding: it must tie
    T = E.mmd2_biased(K, 6)
    p = np.r_[rng.permutation(6), 6 + rng.permutation(6)]
    assert E.mmd2_biased(K[np.ix_(p, p)], 6) == pytest.approx(T, rel=1e-12)


def test_pvalue_is_never_zero_and_reproducible():
    rng = np.random.default_rng(11)
    Z = np.vstack([rng.standard_normal((30, 1)), 4 + rng.standard_normal((30, 1))])
    K = rbf_kernel(Z)
    a = E.permutation_test(lambda A: E.mmd2_unbiased(A, 30), K, n_permutations=199,
                           rng=np.random.default_rng(0))
    b = E.permutation_test(lambda A: E.mmd2_unbiased(A, 30), K, n_permutations=199,
                           rng=np.random.default_rng(0))
    assert a.pvalue == 1 / 200
    np.testing.assert_array_equal(a.null_distribution, b.null_distribution)
    assert repr(a).startswith("PermutationTestResult(statistic=")
    assert "n_permutations=199" in repr(a)


def test_batches_do_not_change_the_result(monkeypatch):
    rng = np.random.default_rng(12)
    K, L = rbf_kernel(rng.standard_normal((15, 1))), rbf_kernel(rng.standard_normal((15, 1)))
    whole = E.permutation_test(E.hsic_biased, K, L, n_permutations=101, rng=np.random.default_rng(1))
    monkeypatch.setattr(E, "_BATCH_ENTRIES", 15 * 15 * 7)   # batches of 7 permutations
    parts = E.permutation_test(E.hsic_biased, K, L, n_permutations=101, rng=np.random.default_rng(1))
    np.testing.assert_allclose(parts.null_distribution, whole.null_distribution, atol=1e-15)
    assert parts.pvalue == whole.pvalue


def test_two_sample_pvalue_matches_exact_enumeration():
    rng = np.random.default_rng(13)
    m = 4
    Z = np.vstack([rng.standard_normal((m, 1)), 0.8 + rng.standard_normal((m, 1))])
    K = rbf_kernel(Z, gamma=0.5)
    T = E.mmd2_biased(K, m)
    splits = [list(s) + [i for i in range(2 * m) if i not in s]
              for s in itertools.combinations(range(2 * m), m)]
    values = np.array([E.mmd2_biased(K[np.ix_(p, p)], m) for p in splits])
    exact = np.mean(values >= T - 1e-12)
    B = 20000
    res = E.permutation_test(lambda A: E.mmd2_biased(A, m), K, n_permutations=B, rng=rng)
    assert abs(res.pvalue - exact) < 4 * np.sqrt(exact * (1 - exact) / B) + 1 / B


def test_independence_pvalue_matches_exact_enumeration():
    rng = np.random.default_rng(14)
    n = 6
    x = rng.standard_normal((n, 1))
    y = x**2 + 0.3 * rng.standard_normal((n, 1))
    K, L = rbf_kernel(x), rbf_kernel(y)
    T = E.hsic_biased(K, L)
    values = np.array([E.hsic_biased(K, L[np.ix_(p, p)])
                       for p in map(list, itertools.permutations(range(n)))])
    exact = np.mean(values >= T - 1e-12)
    B = 20000
    res = E.permutation_test(E.hsic_biased, K, L, n_permutations=B, rng=rng)
    assert abs(res.pvalue - exact) < 4 * np.sqrt(exact * (1 - exact) / B) + 1 / B


@pytest.mark.parametrize("kind", ["two-sample", "independence"])
def test_level_under_the_null_by_simulation(kind):
    """With (B + 1) α an integer the permutation test has level exactly α."""
    rng = np.random.default_rng(15)
    reps, n, B = 3000, 10, 39
    A = _gauss_stack(rng.standard_normal((reps, 2 * n if kind == "two-sample" else n, 1)))
    Bm = _gauss_stack(rng.standard_normal((reps, n, 1)) ** 2)
    pvalues = np.empty(reps)
    for r in range(reps):
        if kind == "two-sample":
            res = E.permutation_test(lambda M: E.mmd2_biased(M, n), A[r], n_permutations=B, rng=rng)
        else:
            res = E.permutation_test(E.hsic_biased, A[r], Bm[r], n_permutations=B, rng=rng)
        pvalues[r] = res.pvalue
    for alpha in (0.05, 0.5):
        rate = np.mean(pvalues <= alpha)
        assert abs(rate - alpha) < 4 * np.sqrt(alpha * (1 - alpha) / reps), (alpha, rate)


def test_power_under_alternatives():
    rng = np.random.default_rng(16)
    Z = np.vstack([rng.standard_normal((50, 1)), 3.0 * rng.standard_normal((50, 1))])
    res = E.permutation_test(lambda A: E.mmd2_unbiased(A, 50), rbf_kernel(Z, gamma=0.5),
                             n_permutations=199, rng=rng)
    assert res.pvalue == 1 / 200     # a variance ratio of 9: no permutation comes close
    x = rng.uniform(-1, 1, (50, 1))
    y = x**2 + 0.1 * rng.standard_normal((50, 1))
    res = E.permutation_test(E.hsic_biased, rbf_kernel(x, gamma=2), rbf_kernel(y, gamma=2),
                             n_permutations=199, rng=rng)
    assert res.pvalue == 1 / 200


# -------------------------------------------------------------------- validation
def test_centering_matrix_rejects_bad_sizes():
    for bad in (0, -3, 2.5, True, "4"):
        with pytest.raises(ValueError, match="n must be an integer"):
            E.centering_matrix(bad)


GOOD = np.array([[2.0, 1.0], [1.0, 2.0]])
BAD_GRAMS = [
    (np.ones((2, 3)), "K must be a non-empty square matrix"),
    (np.ones(4), "K must be a non-empty square matrix"),
    (np.array([[1.0, 0.5], [0.2, 1.0]]), "K must be symmetric"),
    (np.array([[1.0, np.nan], [np.nan, 1.0]]), "K must be finite"),
    (np.ones((3, 2, 3)), "K must be a non-empty square matrix"),
    (np.array([GOOD, [[1.0, 0.0], [0.3, 1.0]]]), "K must be symmetric"),
    (np.array([GOOD, [[np.inf, 0.0], [0.0, 1.0]]]), "K must be finite"),
]


@pytest.mark.parametrize("K, match", BAD_GRAMS)
def test_bad_gram_matrices_raise(K, match):
    with pytest.raises(ValueError, match=match):
        E.center_kernel(K)
    with pytest.raises(ValueError, match=match):
        E.mmd2_biased(K, 1)
    with pytest.raises(ValueError, match=match):
        E.hsic_biased(K, K)
    if K.ndim == 2 or K.ndim == 1:
        with pytest.raises(ValueError, match=match):
            E.kernel_pca(K, 1)
        with pytest.raises(ValueError, match=match):
            E.permutation_test(E.hsic_biased, K, GOOD, rng=np.random.default_rng(0))


def test_bad_L_is_named():
    with pytest.raises(ValueError, match="L must be symmetric"):
        E.hsic_biased(GOOD, np.array([[1.0, 0.5], [0.2, 1.0]]))
    with pytest.raises(ValueError, match="L must have the size of K"):
        E.hsic_biased(GOOD, np.eye(3))
    with pytest.raises(ValueError, match="L has stack shape"):
        E.hsic_biased(np.stack([GOOD] * 2), np.stack([GOOD] * 3))
    with pytest.raises(ValueError, match="L must have the shape of K"):
        E.permutation_test(E.hsic_biased, GOOD, np.eye(3), rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="L must be finite"):
        E.permutation_test(E.hsic_biased, GOOD, np.full((2, 2), np.nan), rng=np.random.default_rng(0))


def test_sample_sizes_of_the_mmd_estimates():
    K = rbf_kernel(_data(5, 1, 0))
    for m in (0, 5, 7, 2.0, None):
        with pytest.raises(ValueError, match="m must"):
            E.mmd2_biased(K, m)
    for m in (1, 4):   # the unbiased estimate needs two points in each sample
        with pytest.raises(ValueError, match="m must"):
            E.mmd2_unbiased(K, m)
    assert np.isfinite(E.mmd2_unbiased(K, 2)) and np.isfinite(E.mmd2_biased(K, 4))


def test_kernel_pca_rejects_bad_input():
    X = _data(6, 2, 1)
    K = X @ X.T                      # rank 2, so the centred matrix has rank 2
    with pytest.raises(ValueError, match="n_components must be at most 2"):
        E.kernel_pca(K, 3)
    with pytest.raises(ValueError, match="n_components must be an integer"):
        E.kernel_pca(K, 0)
    with pytest.raises(ValueError, match="K must be positive semi-definite"):
        E.kernel_pca(-rbf_kernel(X), 1)


def test_permutation_test_rejects_bad_arguments():
    rng = np.random.default_rng(0)
    K = rbf_kernel(_data(6, 1, 2))
    stat = lambda A: E.mmd2_biased(A, 3)  # noqa: E731
    with pytest.raises(ValueError, match="statistic must be callable"):
        E.permutation_test(3.0, K, rng=rng)
    for bad in (0, 1.5, -2):
        with pytest.raises(ValueError, match="n_permutations must be an integer"):
            E.permutation_test(stat, K, n_permutations=bad, rng=rng)
    for bad in (None, 0, np.random.RandomState(0)):
        with pytest.raises(ValueError, match="rng must be a numpy.random.Generator"):
            E.permutation_test(stat, K, rng=bad)
    with pytest.raises(ValueError, match="statistic must return one value per matrix"):
        E.permutation_test(lambda A: A.sum(), K, rng=rng)


# ------------------------------------------------- invariances (issue #16, numerics)
def _all_statistics(K, L, m, n_components=3):
    """Every result of the module for the pooled Gram matrix K (first m rows: sample 1) and L."""
    kp = E.kernel_pca(K, n_components=n_components)
    two = E.permutation_test(lambda M: E.mmd2_unbiased(M, m), K, n_permutations=99,
                             rng=np.random.default_rng(0))
    ind = E.permutation_test(E.hsic_biased, K, L, n_permutations=99, rng=np.random.default_rng(1))
    gam = E.hsic_gamma_test(K, L)
    return [E.center_kernel(K), kp.eigenvalues, kp.scores, kp.alphas, E.mmd2_biased(K, m),
            E.mmd2_unbiased(K, m), E.hsic_biased(K, L), two.statistic, two.pvalue,
            two.null_distribution, ind.statistic, ind.pvalue, ind.null_distribution,
            E.mmd2_variance_h1(K, m), E.mmd2_null_spectral(K, m, 50, rng=np.random.default_rng(2)),
            E.hs_norm2(K, L), E.hsic_unbiased(K, L), gam.statistic, gam.pvalue]


def _assert_all_close(new, ref, rtol=1e-8):
    for a, b in zip(new, ref):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * np.max(np.abs(b)))


def _invariance_data():
    rng = np.random.default_rng(11)
    Z = np.vstack([rng.standard_normal((12, 2)), rng.standard_normal((10, 2)) + [0.8, 0.0]])
    return Z, Z[:, :1] ** 2 + 0.3 * rng.standard_normal((22, 1))


@pytest.mark.parametrize("shift", [1e5, -1e5])
def test_gaussian_kernel_statistics_are_unchanged_by_a_translation_of_the_data(shift):
    # the Gram matrices are built from differences x - x' (as mlnotes.bayes does), so the
    # statistics of data far from the origin agree with those of the original data
    Z, Y = _invariance_data()
    ref = _all_statistics(_gauss_stack(Z, 0.9), _gauss_stack(Y, 0.5), 12)
    new = _all_statistics(_gauss_stack(Z + shift, 0.9), _gauss_stack(Y - shift, 0.5), 12)
    _assert_all_close(new, ref)


@pytest.mark.parametrize("scale", [1e4, 1e-4])
def test_gaussian_kernel_statistics_are_unchanged_when_data_and_width_are_scaled(scale):
    Z, Y = _invariance_data()
    ref = _all_statistics(_gauss_stack(Z, 0.9), _gauss_stack(Y, 0.5), 12)
    new = _all_statistics(_gauss_stack(Z * scale, 0.9 * scale), _gauss_stack(Y * scale, 0.5 * scale), 12)
    _assert_all_close(new, ref)


@pytest.mark.parametrize("c", [1e4, 1e-4])
def test_statistics_scale_with_the_gram_matrix(c):
    # MMD², HSIC, HKH and the kernel-PCA variances are linear in K, the scores scale by √c,
    # and the p-values do not change
    Z, Y = _invariance_data()
    K, L = _gauss_stack(Z, 0.9), _gauss_stack(Y, 0.5)
    ref = _all_statistics(K, L, 12)
    factors = [c, c, np.sqrt(c), 1 / np.sqrt(c), c, c, c, c, 1, c, c, 1, c]
    _assert_all_close(_all_statistics(c * K, L, 12), [f * r for f, r in zip(factors, ref)])


def test_linear_kernel_statistics_are_unchanged_by_a_translation_when_x_is_centred_first():
    # HKH, MMD² and HSIC of the linear kernel depend on the data through x - x̄ only; forming
    # X Xᵀ of data at 1e5 loses those digits in K itself, so centre X before forming K
    Z, Y = _invariance_data()
    grams = lambda A, B: ((A - A.mean(0)) @ (A - A.mean(0)).T, (B - B.mean(0)) @ (B - B.mean(0)).T)
    _assert_all_close(_all_statistics(*grams(Z + 1e5, Y - 1e5), 12, 2),
                      _all_statistics(*grams(Z, Y), 12, 2))


def test_statistic_returning_bad_values_is_named():
    K = _gauss_stack(_data(8, 2, 0))
    for bad in (lambda M: "x", lambda M: np.full(np.shape(M)[:-2], np.nan)):
        with pytest.raises(ValueError, match="statistic must be finite|returned by statistic"):
            E.permutation_test(bad, K, n_permutations=5, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="statistic must return one value for one matrix"):
        E.permutation_test(lambda M: np.ones(3), K, n_permutations=5, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="statistic must be callable"):
        E.permutation_test(np.ones(3), K, n_permutations=5, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="K must be"):
        E.mmd2_biased([[1.0, 0.5], [0.5]], 1)


# ------------------------------------------------ asymptotics and kernel choice (MMD)
def _brute_variance_h1(K, m):
    """4 var_P(ĝ)/m + 4 var_Q(ĝ)/n with ĝ = μ̂_P − μ̂_Q, each point left out of its own mean."""
    N = len(K)
    n = N - m
    gx = [sum(K[i, j] for j in range(m) if j != i) / (m - 1) - sum(K[i, j] for j in range(m, N)) / n
          for i in range(m)]
    gy = [sum(K[i, j] for i in range(m)) / m - sum(K[j, i] for i in range(m, N) if i != j) / (n - 1)
          for j in range(m, N)]
    return 4 * np.var(gx, ddof=1) / m + 4 * np.var(gy, ddof=1) / n


@pytest.mark.parametrize("m, n, seed", [(3, 3, 0), (7, 12, 1), (20, 9, 2)])
def test_mmd2_variance_h1_matches_loops_and_stacks(m, n, seed):
    rng = np.random.default_rng(seed)
    Z = np.vstack([rng.standard_normal((m, 2)), 0.5 + rng.standard_normal((n, 2))])
    K = rbf_kernel(Z, gamma=0.3)
    assert np.isclose(E.mmd2_variance_h1(K, m), _brute_variance_h1(K, m), rtol=1e-12)
    stack = np.stack([K, rbf_kernel(Z, gamma=1.0)])
    assert np.allclose(E.mmd2_variance_h1(stack, m),
                       [E.mmd2_variance_h1(K, m), E.mmd2_variance_h1(stack[1], m)], rtol=1e-12)


def test_mmd2_variance_h1_estimates_the_simulated_variance():
    # N(0,1) vs N(1,1), Gaussian kernel: the mean of the estimates and the variance of
    # MMD²_u over 1000 simulations agree within 20% at m = n = 50 (the simulated variance has
    # a relative standard error of about 4.5%, and the estimate omits the O(1/m²) term)
    rng = np.random.default_rng(3)
    Z = np.concatenate([rng.standard_normal((1000, 50, 1)), 1 + rng.standard_normal((1000, 50, 1))], axis=1)
    K = _gauss_stack(Z)
    u = E.mmd2_unbiased(K, 50)
    assert np.isclose(E.mmd2_variance_h1(K, 50).mean(), u.var(), rtol=0.2)


def test_mmd2_null_spectral_linear_kernel_is_a_scaled_chi2():
    # linear kernel in 1-D: one eigenvalue, the biased sample variance s² of the pooled sample,
    # so the draws are (1/m + 1/n) s² (χ²₁ − 1)
    rng = np.random.default_rng(4)
    z = rng.standard_normal(30) * 2
    m = 12
    draws = E.mmd2_null_spectral(np.outer(z, z), m, 20000, rng=np.random.default_rng(5))
    scale = (1 / m + 1 / 18) * z.var()
    p = scipy_stats.kstest(draws / scale + 1, scipy_stats.chi2(1).cdf).pvalue
    assert p > 1e-3


def test_mmd2_null_spectral_moments_and_reproducibility():
    rng = np.random.default_rng(6)
    Z = rng.standard_normal((40, 2))
    K = rbf_kernel(Z, gamma=0.5)
    N, m = 40, 15
    H = np.eye(N) - 1 / N
    lam = np.linalg.eigvalsh(H @ K @ H / N)
    lam = lam[lam > 1e-12 * lam.max()]
    c = 1 / m + 1 / (N - m)
    d = E.mmd2_null_spectral(K, m, 200000, rng=np.random.default_rng(7))
    assert abs(d.mean()) < 4 * np.sqrt(2 * c**2 * np.sum(lam**2) / 200000)
    assert np.isclose(d.var(), 2 * c**2 * np.sum(lam**2), rtol=0.03)
    again = E.mmd2_null_spectral(K, m, 200000, rng=np.random.default_rng(7))
    assert np.array_equal(d, again)


def test_mmd2_null_spectral_matches_simulation_and_permutations():
    # H0, m = n = 40. (1) The law of the theorem, with the eigenvalues of HKH/N from a pooled
    # sample of 400 points, against 1500 simulated MMD²_u; (2) the spectral draws from one
    # data set against the permutation distribution of the same data set (KS tests).
    rng = np.random.default_rng(8)
    u = E.mmd2_unbiased(_gauss_stack(rng.standard_normal((1500, 80, 1))), 40)
    big = _gauss_stack(rng.standard_normal((400, 1)))
    d_big = E.mmd2_null_spectral(big, 200, 5000, rng=rng) * (2 / 40) / (2 / 200)   # rescale to m = n = 40
    assert scipy_stats.ks_2samp(u, d_big).pvalue > 1e-3
    K0 = _gauss_stack(rng.standard_normal((80, 1)))
    d = E.mmd2_null_spectral(K0, 40, 5000, rng=rng)
    perm = E.permutation_test(lambda M: E.mmd2_unbiased(M, 40), K0, n_permutations=999, rng=rng)
    assert scipy_stats.ks_2samp(d, perm.null_distribution).pvalue > 1e-3


def test_mmd2_null_spectral_rejects_degenerate_and_huge_requests():
    with pytest.raises(ValueError, match="K"):
        E.mmd2_null_spectral(np.ones((6, 6)), 3, 10, rng=np.random.default_rng(0))
    K = rbf_kernel(np.arange(6.0)[:, None])
    with pytest.raises(ValueError, match="n_samples"):
        E.mmd2_null_spectral(K, 3, 10**12, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="positive semi-definite"):
        E.mmd2_null_spectral(K - 2 * np.eye(6), 3, 10, rng=np.random.default_rng(0))


# ------------------------------------------------- Hilbert–Schmidt norms and HSIC
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hs_norm2_equals_the_frobenius_norm_of_explicit_operators(seed):
    rng = np.random.default_rng(seed)
    X, Y = rng.standard_normal((15, 2)), rng.standard_normal((15, 2)) + 1e3 * seed
    Fx, Fy = _quadratic_features(X), _quadratic_features(Y)
    Kx, Ky = Fx @ Fx.T, Fy @ Fy.T
    assert np.isclose(E.hs_norm2(Kx, Ky), np.linalg.norm(Fx.T @ Fy / 15, "fro") ** 2, rtol=1e-9)
    w = rng.standard_normal(15)
    assert np.isclose(E.hs_norm2(Kx, Ky, w),
                      np.linalg.norm(Fx.T @ (w[:, None] * Fy), "fro") ** 2, rtol=1e-9)
    # a random orthonormal basis of G gives the same sum Σ_j ‖A g_j‖²
    Q = np.linalg.qr(rng.standard_normal((6, 6)))[0]
    A = Fx.T @ (w[:, None] * Fy)
    assert np.isclose(np.sum((A @ Q) ** 2), E.hs_norm2(Kx, Ky, w), rtol=1e-9)


def test_hs_norm2_rejects_bad_input():
    K = rbf_kernel(np.arange(5.0)[:, None])
    with pytest.raises(ValueError, match="weights"):
        E.hs_norm2(K, K, np.ones(4))
    with pytest.raises(ValueError, match="Kb"):
        E.hs_norm2(K, K[:4, :4])
    with pytest.raises(ValueError, match="Ka"):
        E.hs_norm2(K - 3 * np.eye(5), K)


def _hsic_u_brute(K, L):
    """Average of h = k_ij l_ij + k_ij l_qr − 2 k_ij l_iq over ordered distinct 4-tuples."""
    tot, cnt = 0.0, 0
    for i, j, q, r in itertools.permutations(range(len(K)), 4):
        tot += K[i, j] * L[i, j] + K[i, j] * L[q, r] - 2 * K[i, j] * L[i, q]
        cnt += 1
    return tot / cnt


@pytest.mark.parametrize("n, seed", [(4, 0), (6, 1), (8, 2)])
def test_hsic_unbiased_is_the_u_statistic(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 1))
    y = x**2 + rng.standard_normal((n, 1))
    K, L = rbf_kernel(x, gamma=0.5), rbf_kernel(y, gamma=0.5)
    assert np.isclose(E.hsic_unbiased(K, L), _hsic_u_brute(K, L), rtol=1e-10, atol=1e-14)
    assert np.allclose(E.hsic_unbiased(np.stack([K, L]), L), [E.hsic_unbiased(K, L), E.hsic_unbiased(L, L)])


def test_hsic_unbiased_is_exactly_unbiased_by_enumeration():
    # x takes 2 values, y 2 values; all 4^5 samples of n = 5 pairs with their probabilities
    Kx = rbf_kernel(np.array([[0.0], [1.3]]))
    Ly = rbf_kernel(np.array([[-0.4], [0.9]]))
    P = np.array([[0.4, 0.1], [0.15, 0.35]])
    px, py = P.sum(1), P.sum(0)
    hsic = (np.sum(P * (Kx @ P @ Ly)) + (px @ Kx @ px) * (py @ Ly @ py) - 2 * (Kx @ px) @ P @ (Ly @ py))
    cells = np.array(list(itertools.product(range(4), repeat=5)))
    prob = np.prod(P.ravel()[cells], axis=1)
    ix, iy = cells // 2, cells % 2
    K = Kx[ix[:, :, None], ix[:, None, :]]
    L = Ly[iy[:, :, None], iy[:, None, :]]
    assert np.isclose(prob @ E.hsic_unbiased(K, L), hsic, atol=1e-13)
    assert prob @ E.hsic_biased(K, L) > hsic + 1e-3          # the biased one is not


def test_hsic_unbiased_rejects_small_samples_and_mismatches():
    K = rbf_kernel(np.arange(3.0)[:, None])
    with pytest.raises(ValueError, match="at least 4"):
        E.hsic_unbiased(K, K)
    K5 = rbf_kernel(np.arange(5.0)[:, None])
    with pytest.raises(ValueError, match="L"):
        E.hsic_unbiased(K5, K5[:4, :4])


def _gretton_gamma_reference(K, L):
    """Transcription of hsicTestGamma.m (Gretton et al., 2008), with explicit H matrices."""
    m = len(K)
    H = np.eye(m) - np.ones((m, m)) / m
    Kc, Lc = H @ K @ H, H @ L @ H
    stat = np.sum(Kc.T * Lc) / m
    v = (Kc * Lc / 6) ** 2
    v = (v.sum() - np.trace(v)) / m / (m - 1)
    v = 72 * (m - 4) * (m - 5) / m / (m - 1) / (m - 2) / (m - 3) * v
    K0, L0 = K - np.diag(np.diag(K)), L - np.diag(np.diag(L))
    muX = np.ones(m) @ K0 @ np.ones(m) / m / (m - 1)
    muY = np.ones(m) @ L0 @ np.ones(m) / m / (m - 1)
    mean = (1 + muX * muY - muX - muY) / m
    return stat, mean, v


@pytest.mark.parametrize("n, seed", [(6, 0), (30, 1), (80, 2)])
def test_hsic_gamma_test_matches_the_reference_code_and_scipy(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (n, 1))
    y = x**2 + 0.3 * rng.standard_normal((n, 1))
    K, L = rbf_kernel(x, gamma=2.0), rbf_kernel(y, gamma=2.0)
    res = E.hsic_gamma_test(K, L)
    stat, mean, var = _gretton_gamma_reference(K, L)
    assert np.isclose(res.statistic, stat, rtol=1e-10)
    assert np.isclose(res.null_mean, (n - 1) / n * mean, rtol=1e-10)   # (n−1)/n² instead of 1/n
    assert np.isclose(res.null_var, var, rtol=1e-10)
    a, scale = res.null_mean**2 / res.null_var, n * res.null_var / res.null_mean
    assert np.isclose(res.pvalue, scipy_stats.gamma.sf(stat, a=a, scale=scale), rtol=1e-8, atol=1e-14)
    assert np.isclose(res.shape * res.scale, n * res.null_mean)


def test_hsic_gamma_test_level_by_simulation():
    # 600 data sets under independence, n = 40: rejections at 5% inside the 99.9% binomial band
    rng = np.random.default_rng(9)
    x, y = rng.standard_normal((600, 40, 1)), rng.uniform(-1, 1, (600, 40, 1))
    res = E.hsic_gamma_test(_gauss_stack(x), _gauss_stack(y, 0.5))
    lo, hi = scipy_stats.binom.interval(0.999, 600, 0.05)
    assert lo <= np.sum(res.pvalue <= 0.05) <= hi
    # and the estimated null mean is unbiased: simulated mean of HSIC_b within 4 s.e.
    h = res.statistic / 40
    assert abs(h.mean() - res.null_mean.mean()) < 4 * h.std() / np.sqrt(600)


def test_hsic_gamma_test_rejects_degenerate_input():
    x = np.arange(8.0)[:, None]
    K = rbf_kernel(x)
    with pytest.raises(ValueError, match="L"):
        E.hsic_gamma_test(K, np.ones((8, 8)))
    with pytest.raises(ValueError, match="at least 6"):
        E.hsic_gamma_test(K[:5, :5], K[:5, :5])
    with pytest.raises(ValueError, match="K"):
        E.hsic_gamma_test(K - 2 * np.eye(8), K)
    assert "HSICGammaResult(statistic=" in repr(E.hsic_gamma_test(K, K))


# ----------------------------------------------- regressions of the bad-input hardening
def test_indefinite_gram_matrices_are_rejected():
    # the old code returned MMD²_b < 0 for an indefinite "Gram matrix", impossible for
    # ‖μ̂_P − μ̂_Q‖² ≥ 0
    K = rbf_kernel(np.arange(6.0)[:, None]) - 1.5 * np.eye(6)
    assert np.linalg.eigvalsh(K).min() < 0
    for f in (lambda: E.mmd2_biased(K, 3), lambda: E.mmd2_unbiased(K, 3), lambda: E.center_kernel(K),
              lambda: E.hsic_biased(K, np.eye(6)), lambda: E.mmd2_variance_h1(K, 3),
              lambda: E.permutation_test(lambda M: E.mmd2_biased(M, 3), K, n_permutations=9,
                                         rng=np.random.default_rng(0))):
        with pytest.raises(ValueError, match="K must be positive semi-definite"):
            f()


def test_overflowing_statistics_raise_instead_of_returning_nan():
    K = np.full((6, 6), 1e308)
    for f in (lambda: E.mmd2_biased(K, 3), lambda: E.mmd2_unbiased(K, 3),
              lambda: E.hsic_unbiased(K, K)):
        with np.errstate(all="ignore"), pytest.raises(ValueError, match="overflow"):
            f()


def test_huge_sizes_are_rejected_by_name_not_by_memory_error():
    with pytest.raises(ValueError, match="n is too large"):
        E.centering_matrix(10**6)
    K = rbf_kernel(np.arange(6.0)[:, None])
    with pytest.raises(ValueError, match="n_permutations"):
        E.permutation_test(lambda M: E.mmd2_biased(M, 3), K, n_permutations=10**12,
                           rng=np.random.default_rng(0))


def test_batched_permutations_give_the_same_p_value_as_one_batch(monkeypatch):
    K = _gauss_stack(np.random.default_rng(10).standard_normal((12, 1)))
    stat = lambda M: E.mmd2_biased(M, 6)
    one = E.permutation_test(stat, K, n_permutations=500, rng=np.random.default_rng(11))
    monkeypatch.setattr(E, "_BATCH_ENTRIES", 12 * 12 * 7)   # batches of 7 permutations
    many = E.permutation_test(stat, K, n_permutations=500, rng=np.random.default_rng(11))
    assert np.array_equal(one.null_distribution, many.null_distribution)
