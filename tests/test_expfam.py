"""Tests of mlnotes.expfam against scipy references, identities and brute-force integrals."""
import warnings

import numpy as np
import pytest
import scipy.integrate
import scipy.stats

from mlnotes import expfam


def _spd(d, rng):
    G = rng.standard_normal((d, d))
    return G @ G.T + d * np.eye(d)


@pytest.mark.parametrize("n,k", [(5, 1), (12, 3), (30, 6)])
def test_woodbury_matches_direct_inverse(n, k):
    rng = np.random.default_rng(n)
    A, C = _spd(n, rng), _spd(k, rng)
    U, V = rng.standard_normal((n, k)), rng.standard_normal((k, n))
    got = expfam.woodbury_inverse(np.linalg.inv(A), U, C, V)
    # well-conditioned SPD inputs: both sides agree to rounding, 1e-10 is generous
    np.testing.assert_allclose(got, np.linalg.inv(A + U @ C @ V), atol=1e-10)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gain_identity_sides_agree_also_nonsymmetric(seed):
    rng = np.random.default_rng(seed)
    P, R, B = _spd(4, rng), _spd(3, rng), rng.standard_normal((3, 4))
    lhs, rhs = expfam.gain_identity_sides(P, B, R)
    np.testing.assert_allclose(lhs, rhs, atol=1e-10)
    C, V0, Rn = (rng.standard_normal((5, 5)) for _ in range(3))
    lhs, rhs = expfam.gain_identity_sides(V0, C, Rn)
    # random non-symmetric matrices can be ill-conditioned: relative tolerance scaled by cond
    scale = np.abs(rhs).max() * np.linalg.cond(Rn + C @ V0 @ C.T) * np.linalg.cond(V0)
    np.testing.assert_allclose(lhs, rhs, atol=1e-12 * scale)


@pytest.mark.parametrize("p,q", [(1, 1), (2, 3), (4, 2)])
def test_partitioned_inverse(p, q):
    rng = np.random.default_rng(p + 10 * q)
    T = rng.standard_normal((p + q, p + q)) + (p + q) * np.eye(p + q)
    got = expfam.partitioned_inverse(T[:p, :p], T[:p, p:], T[p:, :p], T[p:, p:])
    np.testing.assert_allclose(got, np.linalg.inv(T), atol=1e-10)


def test_numeric_matrix_derivative_logdet_and_shape():
    rng = np.random.default_rng(3)
    A = _spd(3, rng)
    got = expfam.numeric_matrix_derivative(lambda X: np.linalg.slogdet(X)[1], A)
    np.testing.assert_allclose(got, np.linalg.inv(A).T, atol=1e-7)   # O(h²) ≈ 1e-10
    vec = expfam.numeric_matrix_derivative(lambda X: X @ np.ones(3), A)
    assert vec.shape == (3, 3, 3)
    np.testing.assert_allclose(vec[1, 2], np.eye(3)[1], atol=1e-8)


THETAS = [("bernoulli", [0.4]), ("categorical", [0.2, -0.5, 1.0]), ("poisson", [1.1]),
          ("normal", [0.5, -0.3]), ("gamma", [2.0, -1.5]), ("beta", [0.5, 2.0])]


@pytest.mark.parametrize("family,theta", THETAS)
def test_gradient_of_log_partition_and_inverse_map(family, theta):
    theta = np.array(theta, float)
    h = 1e-6
    fd = np.array([(expfam.log_partition(theta + h * e, family) - expfam.log_partition(theta - h * e, family)) / (2 * h)
                   for e in np.eye(theta.size)])
    mu = expfam.mean_parameters(theta, family)
    np.testing.assert_allclose(fd, mu, atol=1e-7)                     # central differences
    np.testing.assert_allclose(expfam.natural_parameters(mu, family), theta, atol=1e-10)


def test_mean_parameters_against_scipy():
    a, b = 3.0, 2.0
    m = expfam.mean_parameters([a - 1, -b], "gamma")
    assert m[1] == pytest.approx(a / b)
    x = scipy.stats.gamma(a, scale=1 / b)
    assert m[0] == pytest.approx(scipy.integrate.quad(lambda t: np.log(t) * x.pdf(t), 0, np.inf)[0], abs=1e-8)
    mb = expfam.mean_parameters([a - 1, b - 1], "beta")
    y = scipy.stats.beta(a, b)
    assert mb[1] == pytest.approx(scipy.integrate.quad(lambda t: np.log1p(-t) * y.pdf(t), 0, 1)[0], abs=1e-8)


def test_sufficient_statistics_give_the_loglik():
    rng = np.random.default_rng(4)
    x = rng.normal(1.0, 2.0, size=30)
    theta = np.array([1.0 / 4, -1.0 / 8])
    s = expfam.sufficient_statistics(x, "normal").sum(0)
    ll = -0.5 * 30 * np.log(2 * np.pi) + theta @ s - 30 * expfam.log_partition(theta, "normal")
    assert ll == pytest.approx(scipy.stats.norm.logpdf(x, 1.0, 2.0).sum(), abs=1e-10)


def _grid_ml(logf, lo, hi):
    t = np.linspace(lo, hi, 200001)
    v = logf(t)
    return v.max() + np.log(scipy.integrate.trapezoid(np.exp(v - v.max()), t))


@pytest.mark.parametrize("n", [1, 10, 40])
def test_scalar_marginal_likelihoods_vs_grid(n):
    rng = np.random.default_rng(n)
    xb = (rng.random(n) < 0.4).astype(float)
    k = xb.sum()
    got = expfam.log_marginal_likelihood("beta-bernoulli", dict(a=1.5, b=2.5), xb)
    ref = _grid_ml(lambda p: scipy.stats.beta.logpdf(p, 1.5, 2.5) + k * np.log(p) + (n - k) * np.log1p(-p), 1e-9, 1 - 1e-9)
    assert got == pytest.approx(ref, abs=1e-5)                           # grid error near p = 0, 1
    xp = rng.poisson(2.0, size=n).astype(float)
    got = expfam.log_marginal_likelihood("gamma-poisson", dict(a=2.0, b=1.0), xp)
    ref = _grid_ml(lambda l: scipy.stats.gamma.logpdf(l, 2.0) + scipy.stats.poisson.logpmf(xp[:, None], l).sum(0), 1e-9, 30)
    assert got == pytest.approx(ref, abs=1e-6)
    xn = rng.normal(0.5, 1.5, size=n)
    got = expfam.log_marginal_likelihood("normal-normal", dict(m=0.0, v=2.0, sigma2=2.25), xn)
    ref = scipy.stats.multivariate_normal(np.zeros(n), 2.25 * np.eye(n) + 2.0).logpdf(xn)
    assert got == pytest.approx(ref, abs=1e-10)


def test_dirichlet_multinomial_matches_scipy():
    rng = np.random.default_rng(5)
    alpha = np.array([0.5, 2.0, 1.5])
    x = rng.multinomial(7, [0.2, 0.3, 0.5], size=1)
    got = expfam.log_marginal_likelihood("dirichlet-multinomial", dict(alpha=alpha), x)
    assert got == pytest.approx(scipy.stats.dirichlet_multinomial(alpha, 7).logpmf(x[0]), abs=1e-10)
    post = expfam.conjugate_posterior("dirichlet-multinomial", dict(alpha=alpha), x)
    np.testing.assert_allclose(post["alpha"], alpha + x[0])


def test_normal_gamma_predictive_is_ratio_of_evidences():
    rng = np.random.default_rng(6)
    prior = dict(m=1.0, lam=0.5, alpha=2.0, beta=3.0)
    x = rng.normal(0.0, 1.0, size=8)
    post = expfam.conjugate_posterior("normal-gamma", prior, x)
    pred = expfam.posterior_predictive("normal-gamma", post)
    base = expfam.log_marginal_likelihood("normal-gamma", prior, x)
    for v in [-1.0, 0.3, 2.0]:
        ratio = np.exp(expfam.log_marginal_likelihood("normal-gamma", prior, np.r_[x, v]) - base)
        assert scipy.stats.t.pdf(v, **pred.params) == pytest.approx(ratio, rel=1e-10)


@pytest.mark.parametrize("D,n", [(1, 3), (2, 10), (3, 25)])
def test_normal_wishart(D, n):
    rng = np.random.default_rng(D * 100 + n)
    prior = dict(m=np.zeros(D), beta=2.0, W=np.eye(D), nu=D + 1.5)
    x = rng.multivariate_normal(np.ones(D), np.eye(D), size=n)
    post = expfam.conjugate_posterior("normal-wishart", prior, x)
    assert post["nu"] == D + 1.5 + n and post["beta"] == 2.0 + n
    pred = expfam.posterior_predictive("normal-wishart", post)
    base = expfam.log_marginal_likelihood("normal-wishart", prior, x)
    q = rng.standard_normal(D)
    ratio = np.exp(expfam.log_marginal_likelihood("normal-wishart", prior, np.vstack([x, q])) - base)
    assert scipy.stats.multivariate_t(**pred.params).pdf(q) == pytest.approx(ratio, rel=1e-10)
    # Monte Carlo of the posterior mean of Λ: νW with 4 standard errors
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        L = scipy.stats.wishart(df=post["nu"], scale=post["W"]).rvs(size=4000, random_state=rng)
    L = L.reshape(4000, D, D)
    se = L.std(0) / np.sqrt(4000)
    assert np.all(np.abs(L.mean(0) - post["nu"] * post["W"]) < 4 * se + 1e-12)


def test_gaussian_condition_precision_form_and_marginal():
    rng = np.random.default_rng(7)
    mu, S = rng.standard_normal(4), _spd(4, rng)
    a, b = np.array([2]), np.array([0, 1, 3])
    xb = rng.standard_normal(3)
    m, C = expfam.gaussian_condition(mu, S, a, xb)
    L = np.linalg.inv(S)
    np.testing.assert_allclose(m, mu[a] - np.linalg.solve(L[np.ix_(a, a)], L[np.ix_(a, b)] @ (xb - mu[b])), atol=1e-10)
    np.testing.assert_allclose(C, np.linalg.inv(L[np.ix_(a, a)]), atol=1e-10)
    mm, Cm = expfam.gaussian_marginal(mu, S, b)
    np.testing.assert_allclose(Cm, S[np.ix_(b, b)])
    np.testing.assert_allclose(mm, mu[b])


def test_linear_gaussian_matches_information_form():
    rng = np.random.default_rng(8)
    mu, P, R = rng.standard_normal(3), _spd(3, rng), _spd(2, rng)
    A, b = rng.standard_normal((2, 3)), rng.standard_normal(2)
    out = expfam.linear_gaussian(mu, P, A, b, R)
    y = rng.standard_normal(2)
    Lam, L = np.linalg.inv(P), np.linalg.inv(R)
    Sig = np.linalg.inv(Lam + A.T @ L @ A)
    np.testing.assert_allclose(out.gain @ y + out.offset, Sig @ (A.T @ L @ (y - b) + Lam @ mu), atol=1e-10)
    np.testing.assert_allclose(out.post_cov, Sig, atol=1e-10)
    np.testing.assert_allclose(out.y_cov, R + A @ P @ A.T, atol=1e-12)


@pytest.mark.parametrize("call", [
    lambda: expfam.log_partition([0.1, 0.2], "normal"),
    lambda: expfam.natural_parameters([0.5, 0.1], "normal"),
    lambda: expfam.conjugate_posterior("beta-bernoulli", dict(a=1.0), [0, 1]),
    lambda: expfam.conjugate_posterior("beta-bernoulli", dict(a=1.0, b=1.0), [0, 2]),
    lambda: expfam.conjugate_posterior("gamma-poisson", dict(a=1.0, b=1.0), [0.5]),
    lambda: expfam.gaussian_condition(np.zeros(2), np.eye(2), [0, 1], [1.0]),
    lambda: expfam.partitioned_inverse(np.eye(2), np.eye(2), np.eye(2), np.eye(2)),
])
def test_bad_inputs_raise(call):
    with pytest.raises(ValueError):
        call()


# ------------------------------------------------------------ faults fixed after review
def test_normal_normal_evidence_far_from_the_origin_matches_scipy():
    # the one-pass form Σx²/σ² + m²/v − m_N²/v_N cancelled catastrophically at an offset of 1e8
    rng = np.random.default_rng(11)
    x = 1e8 + rng.standard_normal(6)
    prior = dict(m=1e8 + 0.3, v=2.0, sigma2=1.5)
    cov = prior["sigma2"] * np.eye(6) + prior["v"] * np.ones((6, 6))
    ref = scipy.stats.multivariate_normal(np.full(6, prior["m"]), cov).logpdf(x)
    assert abs(expfam.log_marginal_likelihood("normal-normal", prior, x) - ref) < 1e-8
    x0 = x - 1e8                                            # and the same value without the offset
    ref0 = scipy.stats.multivariate_normal(np.full(6, 0.3), cov).logpdf(x0)
    assert abs(expfam.log_marginal_likelihood("normal-normal", dict(prior, m=0.3), x0) - ref0) < 1e-10


def test_natural_parameters_raises_when_newton_does_not_converge():
    # used to return, after 200 steps, a θ whose mean parameters missed mu by 0.2%
    with pytest.raises(ValueError, match="mu"):
        expfam.natural_parameters([-1e-12, -40.0], "beta")
    t = np.array([1.5, 0.4])
    assert np.allclose(expfam.natural_parameters(expfam.mean_parameters(t, "beta"), "beta"), t, atol=1e-10)


def test_overflow_and_float_spacing_are_reported():
    with pytest.raises(ValueError, match="theta"):             # used to return inf
        expfam.log_partition(1000.0, "poisson")
    with pytest.raises(ValueError, match="theta"):
        expfam.mean_parameters(1000.0, "poisson")
    with pytest.raises(ValueError, match="h"):                 # used to return a zero derivative
        expfam.numeric_matrix_derivative(np.trace, np.eye(2), h=1e-300)
    with pytest.raises(ValueError, match="P"):                 # used to return NaN
        expfam.gain_identity_sides(1e300 * np.eye(2), 1e300 * np.eye(2), np.eye(2))
    with pytest.raises(ValueError, match="Lambda_inv"):        # used to return NaN and inf
        expfam.linear_gaussian(np.zeros(2), 1e300 * np.eye(2), 1e10 * np.eye(2), np.zeros(2), np.eye(2))
    with pytest.raises(ValueError, match="x"):                 # used to return inf in s(x) = (x, x²)
        expfam.sufficient_statistics(np.array([1e200]), "normal")
