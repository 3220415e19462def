"""Tests of mlnotes.information against scipy and scikit-learn, plus the chapter's identities."""
import itertools

import numpy as np
import pytest
import scipy.optimize
import scipy.special
import scipy.stats
from sklearn.metrics import mutual_info_score
from sklearn.metrics.cluster import contingency_matrix

from mlnotes import information as info
from mlnotes import linear

SIZES = [(2, 0), (5, 1), (40, 2)]  # (number of outcomes, seed)
TABLES = [(2, 3, 0), (4, 4, 1), (7, 3, 2)]  # (rows, columns, seed)


def _pair(k, seed, zeros=False):
    rng = np.random.default_rng(seed)
    p, q = rng.dirichlet(np.ones(k)), rng.dirichlet(np.ones(k))
    if zeros and k > 2:
        p[0] = 0.0
        p /= p.sum()
    return p, q


def _table(a, b, seed):
    return np.random.default_rng(seed).dirichlet(np.ones(a * b)).reshape(a, b)


def _central_difference(fun, x, h=1e-6):
    """Gradient of a scalar function of an array by central differences."""
    grad = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[idx] = h
        grad[idx] = (fun(x + e) - fun(x - e)) / (2 * h)
    return grad


# ------------------------------------------------------------- entropy and divergence
@pytest.mark.parametrize("k, seed", SIZES)
@pytest.mark.parametrize("zeros", [False, True])
def test_entropy_cross_entropy_kl_match_scipy(k, seed, zeros):
    p, q = _pair(k, seed, zeros)
    assert info.entropy(p) == pytest.approx(scipy.stats.entropy(p), rel=1e-12)
    assert info.entropy(p, base=2) == pytest.approx(scipy.stats.entropy(p, base=2), rel=1e-12)
    assert info.kl_divergence(p, q) == pytest.approx(scipy.stats.entropy(p, q), rel=1e-12, abs=1e-15)
    assert info.kl_divergence(p, q) == pytest.approx(scipy.special.rel_entr(p, q).sum(), rel=1e-12, abs=1e-15)
    assert info.kl_divergence(p, q, base=2) == pytest.approx(scipy.stats.entropy(p, q, base=2), rel=1e-12, abs=1e-15)
    ce = -np.sum(scipy.special.xlogy(p, q))
    assert info.cross_entropy(p, q) == pytest.approx(ce, rel=1e-12)
    assert info.cross_entropy(p, q) == pytest.approx(info.entropy(p) + info.kl_divergence(p, q), rel=1e-12)


def test_joint_table_is_one_distribution():
    P = _table(3, 4, 5)
    assert info.entropy(P) == pytest.approx(scipy.stats.entropy(P.ravel()), rel=1e-12)


@pytest.mark.parametrize("k", [2, 3, 10])
def test_gibbs_inequality(k):
    rng = np.random.default_rng(k)
    P, Q = rng.dirichlet(np.ones(k), size=300), rng.dirichlet(np.full(k, 0.3), size=300)
    kls = np.array([info.kl_divergence(p, q) for p, q in zip(P, Q)])
    assert np.all(kls > 0)
    assert all(info.kl_divergence(p, p) == 0.0 for p in P[:20])
    assert all(info.cross_entropy(p, q) >= info.entropy(p) for p, q in zip(P, Q))
    reverse = np.array([info.kl_divergence(q, p) for p, q in zip(P, Q)])
    assert np.mean(np.abs(kls - reverse) > 1e-9 * kls) > 0.99  # asymmetric


def test_infinite_divergence_when_q_misses_the_support_of_p():
    p, q = np.array([0.5, 0.5, 0.0]), np.array([0.5, 0.0, 0.5])
    with np.errstate(all="raise"):
        assert info.kl_divergence(p, q) == np.inf == scipy.stats.entropy(p, q)
        assert info.cross_entropy(p, q) == np.inf
        # p = 0 where q = 0 is harmless: 0 log(0/q) = 0
        assert info.kl_divergence([1.0, 0.0], [0.5, 0.5]) == pytest.approx(np.log(2))
        assert info.cross_entropy([1.0, 0.0], [1.0, 0.0]) == 0.0
        assert info.entropy([1.0, 0.0]) == 0.0


def test_kl_is_not_a_metric():
    p, q, r = np.array([0.9, 0.1]), np.array([0.5, 0.5]), np.array([0.1, 0.9])
    assert info.kl_divergence(p, r) > info.kl_divergence(p, q) + info.kl_divergence(q, r)


# ------------------------------------------------------------------ chain rule and MI
@pytest.mark.parametrize("a, b, seed", TABLES)
def test_chain_rule_both_orders(a, b, seed):
    P, Q = _table(a, b, seed), _table(a, b, seed + 100)
    px, qx, py, qy = P.sum(1), Q.sum(1), P.sum(0), Q.sum(0)
    joint = info.kl_divergence(P, Q)
    by_x = info.kl_divergence(px, qx) + info.conditional_kl(px, P / px[:, None], Q / qx[:, None])
    by_y = info.kl_divergence(py, qy) + info.conditional_kl(py, (P / py).T, (Q / qy).T)
    assert by_x == pytest.approx(joint, rel=1e-12)
    assert by_y == pytest.approx(joint, rel=1e-12)
    assert joint >= info.kl_divergence(px, qx)


def test_conditional_kl_weights_rows_by_p_x():
    p_cond = np.array([[0.9, 0.1], [0.5, 0.5], [0.3, 0.7]])
    q_cond = np.array([[0.5, 0.5], [0.5, 0.5], [0.0, 1.0]])
    rows = [info.kl_divergence(r, s) for r, s in zip(p_cond, q_cond)]
    p_x = np.array([0.2, 0.8, 0.0])  # the third row (infinite divergence) has weight 0
    assert info.conditional_kl(p_x, p_cond, q_cond) == pytest.approx(0.2 * rows[0])
    assert info.conditional_kl([0.2, 0.7, 0.1], p_cond, q_cond) == np.inf


@pytest.mark.parametrize("n, a, b, seed", [(50, 2, 2, 0), (400, 3, 5, 1), (3000, 6, 4, 2)])
def test_mutual_information_matches_sklearn(n, a, b, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, a, n)
    y = (x + (rng.random(n) < 0.2)) % b  # y = x mod b with probability 0.8
    joint = info.empirical_joint(x, y)
    np.testing.assert_allclose(joint, contingency_matrix(x, y) / n, atol=1e-15)
    mi = info.mutual_information(joint)
    assert mi > 0.1
    assert mi == pytest.approx(mutual_info_score(x, y), rel=1e-10, abs=1e-14)
    outer = np.outer(joint.sum(1), joint.sum(0))
    assert mi == pytest.approx(scipy.stats.entropy(joint.ravel(), outer.ravel()), rel=1e-10, abs=1e-14)
    assert info.mutual_information(joint, base=2) == pytest.approx(mi / np.log(2), rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("a, b, seed", TABLES)
def test_mutual_information_identities(a, b, seed):
    P = _table(a, b, seed)
    px, py = P.sum(1), P.sum(0)
    mi = info.mutual_information(P)
    assert mi > 0
    assert mi == pytest.approx(info.entropy(px) + info.entropy(py) - info.entropy(P), rel=1e-10)
    assert mi == pytest.approx(info.mutual_information(P.T), rel=1e-12)
    assert mi == pytest.approx(info.conditional_kl(px, P / px[:, None], np.tile(py, (a, 1))), rel=1e-10)
    assert mi <= min(info.entropy(px), info.entropy(py))
    assert info.mutual_information(np.outer(px, py)) == pytest.approx(0, abs=1e-14)
    assert info.mutual_information(np.diag(px)) == pytest.approx(info.entropy(px), rel=1e-12)


def test_mutual_information_is_the_g_statistic():
    rng = np.random.default_rng(3)
    x, y = rng.integers(0, 3, 500), rng.integers(0, 2, 500)
    counts = contingency_matrix(x, y)
    g = scipy.stats.chi2_contingency(counts, correction=False, lambda_="log-likelihood").statistic
    assert 2 * 500 * info.mutual_information(info.empirical_joint(x, y)) == pytest.approx(g, rel=1e-10)


def test_empirical_joint_with_strings():
    joint = info.empirical_joint(np.array(["b", "a", "b", "b"]), np.array([1, 0, 0, 1]))
    np.testing.assert_allclose(joint, [[0.25, 0.0], [0.25, 0.5]])


# ------------------------------------------------------------------------- coding
def _optimal_prefix_length(p):
    """Smallest expected length over all integer lengths satisfying Kraft's inequality."""
    k = p.size
    L = np.array(list(itertools.product(range(1, k), repeat=k)))
    feasible = np.sum(2.0 ** -L, axis=1) <= 1
    return np.min(L[feasible] @ p)


@pytest.mark.parametrize("k, seed", [(2, 0), (4, 1), (5, 2), (6, 3)])
def test_huffman_is_optimal_and_within_one_bit_of_entropy(k, seed):
    p = np.random.default_rng(seed).dirichlet(np.full(k, 0.7))
    lengths = info.huffman_code_lengths(p)
    expected = p @ lengths
    assert np.sum(2.0 ** -lengths) == pytest.approx(1.0)
    assert expected == pytest.approx(_optimal_prefix_length(p), rel=1e-12)
    H = info.entropy(p, base=2)
    assert H <= expected < H + 1


def test_huffman_dyadic_and_blocks():
    dyadic = np.array([0.5, 0.125, 0.25, 0.0625, 0.0625])
    np.testing.assert_array_equal(info.huffman_code_lengths(dyadic), -np.log2(dyadic))
    p = np.array([0.9, 0.1])
    H = info.entropy(p, base=2)
    block = p
    for m in range(1, 9):
        if m > 1:
            block = np.outer(block, p).ravel()
        per_symbol = block @ info.huffman_code_lengths(block) / m
        assert H <= per_symbol < H + 1 / m
    assert info.huffman_code_lengths([1.0]).tolist() == [0]


# ------------------------------------------------------------------ MLE and MAP
@pytest.mark.parametrize("alpha", [1.0, 2.0, 3.5])
def test_categorical_map_maximises_the_posterior(alpha):
    counts = np.array([7.0, 0.0, 3.0, 12.0, 1.0])

    def neg_log_posterior(z):  # softmax parametrisation of the simplex
        log_q = z - scipy.special.logsumexp(z)
        return -np.sum((counts + alpha - 1) * log_q)

    z = scipy.optimize.minimize(neg_log_posterior, np.zeros(5), method="BFGS", options={"gtol": 1e-10}).x
    numeric = scipy.special.softmax(z)
    estimate = info.categorical_map(counts, alpha)
    assert estimate.sum() == pytest.approx(1.0)
    if alpha == 1.0:  # the unseen category has MLE 0, which softmax only approaches
        np.testing.assert_allclose(estimate, counts / counts.sum(), atol=1e-15)
        np.testing.assert_allclose(numeric, estimate, atol=1e-4)
    else:
        np.testing.assert_allclose(numeric, estimate, atol=1e-6)


def test_average_log_likelihood_is_minus_kl_minus_entropy():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 6, 80)
    p_hat = np.bincount(x, minlength=6) / x.size
    for q in rng.dirichlet(np.ones(6), size=5):
        assert np.mean(np.log(q[x])) == pytest.approx(
            -info.kl_divergence(p_hat, q) - info.entropy(p_hat), rel=1e-12)


# ----------------------------------------------------------------- gradients
@pytest.mark.parametrize("n, d, K, seed", [(10, 2, 2, 0), (60, 3, 4, 1), (200, 5, 3, 2)])
def test_softmax_log_likelihood_and_gradient(n, d, K, seed):
    rng = np.random.default_rng(seed)
    X, W = rng.standard_normal((n, d)), rng.standard_normal((K, d))
    y = rng.integers(0, K, n)
    value, grad = info.softmax_log_likelihood(W, X, y)
    F = X @ W.T
    assert value == pytest.approx(np.sum(F[np.arange(n), y] - scipy.special.logsumexp(F, axis=1)), rel=1e-12)
    P = scipy.special.softmax(F, axis=1)
    np.testing.assert_allclose(grad, (np.eye(K)[y] - P).T @ X, atol=1e-12)
    numeric = _central_difference(lambda V: info.softmax_log_likelihood(V, X, y)[0], W)
    np.testing.assert_allclose(grad, numeric, atol=1e-6 * n)


def test_softmax_with_two_classes_is_logistic_regression():
    rng = np.random.default_rng(4)
    X, beta = linear.add_intercept(rng.standard_normal((50, 2))), rng.standard_normal(3)
    y = rng.integers(0, 2, 50)
    value, grad = info.softmax_log_likelihood(np.vstack([np.zeros(3), beta]), X, y)
    assert value == pytest.approx(linear.log_likelihood(X, y, beta), rel=1e-12)
    np.testing.assert_allclose(grad[1], X.T @ (y - linear.sigmoid(X @ beta)), atol=1e-12)


def _boltzmann_features(d):
    states = np.array(list(itertools.product([0, 1], repeat=d)), dtype=float)
    pairs = [states[:, i] * states[:, j] for i, j in itertools.combinations(range(d), 2)]
    return np.column_stack([states] + pairs)


@pytest.mark.parametrize("d, n, seed", [(2, 30, 0), (3, 100, 1), (4, 500, 2)])
def test_descriptive_log_likelihood_and_gradient(d, n, seed):
    rng = np.random.default_rng(seed)
    phi = _boltzmann_features(d)
    theta = rng.standard_normal(phi.shape[1])
    x = rng.integers(0, phi.shape[0], n)
    value, grad = info.descriptive_log_likelihood(theta, phi, x)
    f = phi @ theta
    assert value == pytest.approx(np.sum(f[x]) - n * scipy.special.logsumexp(f), rel=1e-12)
    numeric = _central_difference(lambda t: info.descriptive_log_likelihood(t, phi, x)[0], theta)
    np.testing.assert_allclose(grad, numeric, atol=1e-6 * n)


@pytest.mark.parametrize("n, D, k, seed", [(5, 2, 1, 0), (40, 4, 2, 1), (300, 6, 3, 2)])
def test_linear_gaussian_model(n, D, k, seed):
    rng = np.random.default_rng(seed)
    W, sigma = rng.standard_normal((D, k)), 0.7
    X = rng.standard_normal((n, k)) @ W.T + sigma * rng.standard_normal((n, D))
    C = W @ W.T + sigma**2 * np.eye(D)
    value, grad = info.linear_gaussian_log_likelihood(W, sigma, X)
    assert value == pytest.approx(scipy.stats.multivariate_normal(np.zeros(D), C).logpdf(X).sum(), rel=1e-10)
    # posterior by conditioning the joint Gaussian of (h, x)
    M, S = info.linear_gaussian_posterior(W, sigma, X)
    np.testing.assert_allclose(M, X @ np.linalg.solve(C, W), atol=1e-10)
    np.testing.assert_allclose(S, np.eye(k) - W.T @ np.linalg.solve(C, W), atol=1e-10)
    # Fisher's identity against matrix calculus and against finite differences
    Ci = np.linalg.inv(C)
    np.testing.assert_allclose(grad, (Ci @ X.T @ X @ Ci - n * Ci) @ W, atol=1e-8 * n)
    numeric = _central_difference(lambda V: info.linear_gaussian_log_likelihood(V, sigma, X)[0], W)
    np.testing.assert_allclose(grad, numeric, atol=1e-5 * n)


# --------------------------------------------------------- Brownian motion, Langevin
def test_brownian_paths_variance_and_increments():
    n, sigma, dt = 20000, 1.5, 0.01
    X = info.brownian_paths(n, 100, dt, np.random.default_rng(0), sigma=sigma, x0=2.0)
    assert X.shape == (n, 101) and np.all(X[:, 0] == 2.0)
    for j in (10, 50, 100):
        var = sigma**2 * j * dt
        assert abs(X[:, j].var(ddof=1) - var) < 4 * var * np.sqrt(2 / (n - 1))
        assert abs(X[:, j].mean() - 2.0) < 4 * np.sqrt(var / n)
    first, second = X[:, 50] - X[:, 0], X[:, 100] - X[:, 50]
    assert abs(np.corrcoef(first, second)[0, 1]) < 4 / np.sqrt(n)


def test_langevin_shapes_and_reproducibility():
    grad = lambda x: -x  # noqa: E731 - standard normal target
    x0 = np.zeros((7, 3))
    a = info.langevin(grad, x0, 0.1, 5, np.random.default_rng(1))
    b = info.langevin(grad, x0, 0.1, 5, np.random.default_rng(1), return_path=True)
    assert a.shape == (7, 3) and b.shape == (6, 7, 3)
    np.testing.assert_array_equal(a, b[-1])
    np.testing.assert_array_equal(b[0], x0)
    assert info.langevin(grad, np.zeros(4), 0.1, 3, np.random.default_rng(0)).shape == (4,)


@pytest.mark.parametrize("step", [0.05, 0.2, 0.5])
def test_langevin_gaussian_stationary_variance(step):
    s2 = 2.0  # target N(1, 2); the ULA is stationary at N(1, s2 / (1 - step / (2 s2)))
    x = info.langevin(lambda x: -(x - 1) / s2, np.ones(20000), step, int(30 / step),
                      np.random.default_rng(2))
    v = s2 / (1 - step / (2 * s2))
    assert abs(x.mean() - 1) < 4 * np.sqrt(v / x.size)
    assert abs(x.var(ddof=1) - v) < 4 * v * np.sqrt(2 / (x.size - 1))


def test_langevin_correlated_gaussian_moments():
    Sigma = np.array([[1.0, 0.8], [0.8, 1.0]])
    Lam, mu, step = np.linalg.inv(Sigma), np.array([1.0, -2.0]), 0.05
    x = info.langevin(lambda x: -(x - mu) @ Lam, np.zeros((20000, 2)), step, 600,
                      np.random.default_rng(3))
    Sigma_eps = np.linalg.inv(Lam @ (np.eye(2) - step * Lam / 2))
    se_mean = np.sqrt(np.diag(Sigma_eps) / x.shape[0])
    assert np.all(np.abs(x.mean(axis=0) - mu) < 4 * se_mean)
    # standard error of a sample covariance entry: sqrt((S_ii S_jj + S_ij²) / n)
    se_cov = np.sqrt((np.outer(np.diag(Sigma_eps), np.diag(Sigma_eps)) + Sigma_eps**2) / x.shape[0])
    assert np.all(np.abs(np.cov(x.T) - Sigma_eps) < 4 * se_cov)


def test_langevin_mixture_passes_ks():
    w, m, s = np.array([0.35, 0.65]), np.array([-1.2, 1.3]), np.array([0.55, 0.7])

    def grad(x):
        z = (x[:, None] - m) / s
        r = scipy.special.softmax(np.log(w / s) - 0.5 * z**2, axis=1)
        return np.sum(r * (-z / s), axis=1)

    x = info.langevin(grad, np.random.default_rng(4).normal(0, 3, 2000), 0.02, 1500,
                      np.random.default_rng(5))
    cdf = lambda t: np.sum(w * scipy.stats.norm.cdf((t[:, None] - m) / s), axis=1)  # noqa: E731
    assert scipy.stats.kstest(x, cdf).pvalue > 0.01


def test_langevin_divergence_raises():
    with pytest.raises(FloatingPointError, match="diverged"):
        info.langevin(lambda x: -100.0 * x, np.ones(3), 1.0, 200, np.random.default_rng(0))


# ------------------------------------------------------------------ bad inputs
_p = np.array([0.2, 0.3, 0.5])
_W, _X, _y = np.zeros((3, 2)), np.ones((4, 2)), np.array([0, 1, 2, 1])
_phi = _boltzmann_features(2)


@pytest.mark.parametrize("call, match", [
    (lambda: info.entropy([0.5, 0.6]), "p must sum to 1"),
    (lambda: info.entropy([1.2, -0.2]), "p must be non-negative"),
    (lambda: info.entropy([np.nan, 1.0]), "p must be finite"),
    (lambda: info.entropy([]), "p must be a non-empty"),
    (lambda: info.entropy(_p, base=1), "base must be"),
    (lambda: info.entropy(_p, base=-2.0), "base must be"),
    (lambda: info.cross_entropy(_p, [0.5, 0.5]), "p and q must have the same shape"),
    (lambda: info.cross_entropy(_p, [0.5, 0.6, -0.1]), "q must be non-negative"),
    (lambda: info.kl_divergence(_p, [0.3, 0.3, 0.3]), "q must sum to 1"),
    (lambda: info.kl_divergence([0.5, 0.5], [np.inf, 0.0]), "q must be finite"),
    (lambda: info.conditional_kl([0.5, 0.6], np.eye(2), np.eye(2)), "p_x must sum to 1"),
    (lambda: info.conditional_kl([0.5, 0.5], np.eye(3), np.eye(3)), "p_cond must have shape"),
    (lambda: info.conditional_kl([0.5, 0.5], np.eye(2), [[0.5, 0.6], [0, 1]]), "q_cond must sum to 1"),
    (lambda: info.conditional_kl([0.5, 0.5], np.eye(2), np.full((2, 3), 1 / 3)), "p_cond and q_cond must have the same shape"),
    (lambda: info.mutual_information(_p), "joint must be a non-empty 2-D"),
    (lambda: info.mutual_information([[0.5, 0.5], [0.5, 0.5]]), "joint must sum to 1"),
    (lambda: info.empirical_joint([[1, 2]], [1]), "x must be a non-empty 1-D"),
    (lambda: info.empirical_joint([1, 2], [1]), "y must have shape"),
    (lambda: info.huffman_code_lengths(np.eye(2) / 2), "p must be a non-empty 1-D"),
    (lambda: info.categorical_map([1.0, -1.0]), "counts must be non-negative"),
    (lambda: info.categorical_map([1.0, np.nan]), "counts must be finite"),
    (lambda: info.categorical_map([1.0, 2.0], alpha=0.5), "alpha must be at least 1"),
    (lambda: info.categorical_map([1.0, 2.0], alpha=0.0), "alpha must be a positive"),
    (lambda: info.categorical_map([0.0, 0.0]), "counts must not all be zero"),
    (lambda: info.softmax_log_likelihood(_W, _X, np.array([0, 1, 3, 1])), r"y must contain indices in 0, \.\.\., 2"),
    (lambda: info.softmax_log_likelihood(_W, _X, _y.astype(float)), r"y must contain integer indices .*got dtype float64"),
    (lambda: info.softmax_log_likelihood(_W, np.ones((4, 3)), _y), "X must have 2 columns"),
    (lambda: info.softmax_log_likelihood(np.zeros(3), _X, _y), "W must be a non-empty 2-D array"),
    (lambda: info.softmax_log_likelihood(_W, np.full((4, 2), np.nan), _y), "X must be finite"),
    (lambda: info.descriptive_log_likelihood(np.zeros(2), _phi, [0, 1]), "theta must have shape"),
    (lambda: info.descriptive_log_likelihood(np.zeros(3), _phi, [0, 4]), r"x must contain indices in 0, \.\.\., 3"),
    (lambda: info.descriptive_log_likelihood(np.zeros(3), _phi[:, 0], [0]), "phi must be a non-empty 2-D array"),
    (lambda: info.linear_gaussian_log_likelihood(np.ones((3, 1)), 0.0, np.ones((2, 3))), "sigma must be a positive"),
    (lambda: info.linear_gaussian_log_likelihood(np.ones((3, 1)), 1.0, np.ones((2, 2))), "X must have 3 columns"),
    (lambda: info.linear_gaussian_posterior(np.ones(3), 1.0, np.ones((2, 3))), "W must be a non-empty 2-D array"),
    (lambda: info.brownian_paths(0, 10, 0.1, np.random.default_rng(0)), "n_paths must be an integer"),
    (lambda: info.brownian_paths(5, 10, -0.1, np.random.default_rng(0)), "dt must be a positive"),
    (lambda: info.brownian_paths(5, 10, 0.1, np.random.default_rng(0), sigma=0), "sigma must be a positive"),
    (lambda: info.brownian_paths(5, 10, 0.1, np.random.default_rng(0), x0=np.nan), "x0 must be a finite"),
    (lambda: info.brownian_paths(5, 10, 0.1, 0), "rng must be a numpy.random.Generator"),
    (lambda: info.langevin(lambda x: -x, np.zeros((2, 2, 2)), 0.1, 5, np.random.default_rng(0)), "x0 must be a non-empty array with 1 or 2"),
    (lambda: info.langevin(lambda x: -x, [np.inf], 0.1, 5, np.random.default_rng(0)), "x0 must be finite"),
    (lambda: info.langevin(lambda x: -x, np.zeros(3), 0.0, 5, np.random.default_rng(0)), "step must be a positive"),
    (lambda: info.langevin(lambda x: -x, np.zeros(3), 0.1, 2.5, np.random.default_rng(0)), "n_steps must be an integer"),
    (lambda: info.langevin(lambda x: -x, np.zeros(3), 0.1, 5, 42), "rng must be a numpy.random.Generator"),
    (lambda: info.langevin(lambda x: -x[:1], np.zeros(3), 0.1, 5, np.random.default_rng(0)), "grad_log_p must return an array of shape"),
    # strings, ragged lists, bools as flags, non-callables, and what a callable returns
    (lambda: info.kl_divergence(["a", "b"], [0.5, 0.5]), "p must be numeric"),
    (lambda: info.kl_divergence([0.5, 0.5], "ab"), "q must be numeric"),
    (lambda: info.entropy([[0.5, 0.2], [0.3]]), "p must be a rectangular array"),
    (lambda: info.entropy(_p, base="2"), "base must be a positive"),
    (lambda: info.entropy(_p, base=True), "base must be a positive"),
    (lambda: info.empirical_joint([[1, 2], [3]], [1, 2]), "x must be a 1-D array of values"),
    (lambda: info.empirical_joint([1.0, np.nan], [1, 2]), "x must be finite"),
    (lambda: info.empirical_joint([1, 2], [object(), object()]), "y must be a non-empty 1-D array of numbers or strings"),
    (lambda: info.softmax_log_likelihood(_W, _X, [[0, 1], [2]]), "y must be a 1-D array of integer indices"),
    (lambda: info.softmax_log_likelihood(_W, _X, np.array([0, 1, 1, 1]) > 0), "y must contain integer indices"),
    (lambda: info.descriptive_log_likelihood(np.zeros(3), _phi, "0"), "x must be a 1-D array"),
    (lambda: info.brownian_paths(5, 10, 0.1, np.random.default_rng(0), x0="0"), "x0 must be a finite"),
    (lambda: info.langevin("grad", np.zeros(3), 0.1, 5, np.random.default_rng(0)), "grad_log_p must be callable"),
    (lambda: info.langevin(lambda x: np.nan * x, np.zeros(3), 0.1, 5, np.random.default_rng(0)), "the value returned by grad_log_p must be finite"),
    (lambda: info.langevin(lambda x: "abc", np.zeros(3), 0.1, 5, np.random.default_rng(0)), "the value returned by grad_log_p must be numeric"),
    (lambda: info.langevin(lambda x: -x, np.zeros(3), 0.1, 5, np.random.default_rng(0), return_path="no"), "return_path must be True or False"),
])
def test_bad_inputs_raise(call, match):
    with pytest.raises(ValueError, match=match):
        call()
