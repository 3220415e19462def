"""Tests of mlnotes.mcmc against numpy/scipy/statsmodels references, exact enumeration and the
chapter's identities."""
import numpy as np
import pytest
import scipy.linalg
import scipy.stats
import statsmodels.tsa.stattools as smt
from scipy.stats.sampling import TransformedDensityRejection

from mlnotes import mcmc

SEEDS = [0, 1, 2]


def _random_chain(d, seed, sparsity=0.0):
    rng = np.random.default_rng(seed)
    P = rng.random((d, d)) * (rng.random((d, d)) >= sparsity) + np.roll(np.eye(d), 1, axis=1) * 0.1
    return P / P.sum(axis=1, keepdims=True)


# ------------------------------------------------------------------ finite chains
@pytest.mark.parametrize("d, seed", [(2, 0), (5, 1), (30, 2)])
def test_stationary_matches_left_eigenvector(d, seed):
    P = _random_chain(d, seed)
    w, vl = scipy.linalg.eig(P, left=True, right=False)
    v = np.real(vl[:, np.argmin(np.abs(w - 1))])
    np.testing.assert_allclose(mcmc.stationary_distribution(P), v / v.sum(), atol=1e-12)


@pytest.mark.parametrize("d, seed", [(3, 0), (8, 1), (20, 2)])
def test_propagate_transpose_convention(d, seed):
    P = _random_chain(d, seed)
    p0 = np.random.default_rng(seed).dirichlet(np.ones(d))
    out = mcmc.propagate(P, p0, 5)
    assert out.shape == (6, d)
    np.testing.assert_allclose(out[5], np.linalg.matrix_power(P, 5).T @ p0, atol=1e-14)
    np.testing.assert_allclose(out.sum(axis=1), 1.0, atol=1e-13)
    np.testing.assert_allclose(mcmc.propagate(P, p0, 0), p0[None, :])


def _brute_period(P, i):
    times = [t for t in range(1, 4 * len(P) + 1) if np.linalg.matrix_power(P, t)[i, i] > 1e-15]
    return int(np.gcd.reduce(times)) if times else 0


@pytest.mark.parametrize("seed", range(6))
def test_period_and_irreducibility_brute_force(seed):
    rng = np.random.default_rng(seed)
    d = int(rng.integers(2, 7))
    A = (rng.random((d, d)) < 0.35).astype(float)
    A[np.arange(d), rng.integers(0, d, d)] = 1.0      # every row has an edge
    P = A / A.sum(axis=1, keepdims=True)
    reach = np.all(sum(np.linalg.matrix_power(P, t) for t in range(d + 1)) > 0)
    assert mcmc.is_irreducible(P) == bool(reach)
    for i in range(d):
        assert mcmc.period(P, i) == _brute_period(P, i)


def test_period_examples():
    assert mcmc.period(np.array([[0.0, 1.0], [1.0, 0.0]]), 0) == 2
    assert mcmc.period(np.roll(np.eye(4), 1, axis=1), 2) == 4
    assert mcmc.period(np.array([[0.5, 0.5], [1.0, 0.0]]), 1) == 1


def test_detailed_balance_and_cyclic_counterexample():
    C = np.random.default_rng(0).random((6, 6))
    C = C + C.T
    P = C / C.sum(axis=1, keepdims=True)
    assert mcmc.detailed_balance_residual(P, C.sum(axis=1) / C.sum()) < 1e-15
    cyc = 0.5 * np.eye(4) + 0.5 * np.roll(np.eye(4), 1, axis=1)
    u = np.full(4, 0.25)
    np.testing.assert_allclose(cyc.T @ u, u)
    assert mcmc.detailed_balance_residual(cyc, u) == pytest.approx(0.125)


@pytest.mark.parametrize("d, seed", [(3, 0), (6, 1), (15, 2)])
def test_metropolis_matrix_detailed_balance(d, seed):
    rng = np.random.default_rng(seed)
    pi = rng.dirichlet(np.ones(d))
    Q = _random_chain(d, seed + 10)
    K = mcmc.metropolis_matrix(pi, Q)
    np.testing.assert_allclose(K.sum(axis=1), 1.0, atol=1e-14)
    assert np.all(K >= -1e-15)
    assert mcmc.detailed_balance_residual(K, pi) < 1e-12
    np.testing.assert_allclose(mcmc.stationary_distribution(K), pi, atol=1e-10)


def test_metropolis_matrix_symmetric_proposal_uniform_target_is_proposal():
    Q = np.full((4, 4), 0.25)
    np.testing.assert_allclose(mcmc.metropolis_matrix(np.full(4, 0.25), Q), Q, atol=1e-15)


@pytest.mark.parametrize("alpha", [0.05, 0.15, 0.5, 1.0])
def test_pagerank_power_method(alpha):
    T = _random_chain(7, 3, sparsity=0.6)
    P = (1 - alpha) * T + alpha / 7
    power = np.linalg.matrix_power(P.T, 500) @ np.full(7, 1 / 7)
    np.testing.assert_allclose(mcmc.pagerank(T, alpha), power, atol=1e-12)


# ------------------------------------------------------------------ independent sampling
def test_rejection_against_scipy_tdr_and_ks():
    class StdNormal:
        def pdf(self, x):
            return np.exp(-0.5 * x * x)

        def dpdf(self, x):
            return -x * np.exp(-0.5 * x * x)

    lib = TransformedDensityRejection(StdNormal(), random_state=np.random.default_rng(1)).rvs(3000)
    c = np.sqrt(2 * np.pi / np.e) * np.sqrt(2 * np.pi)            # p_tilde = exp(-x²/2), Z_p = √(2π)
    res = mcmc.rejection_sample(lambda x: -0.5 * x**2, lambda m, r: r.standard_cauchy(m), scipy.stats.cauchy.logpdf,
                                np.log(c), 3000, np.random.default_rng(2))
    assert res.samples.shape == (3000,)
    assert scipy.stats.ks_2samp(res.samples, lib).pvalue > 1e-3
    assert scipy.stats.kstest(res.samples, "norm").pvalue > 1e-3
    rate = np.sqrt(2 * np.pi) / c
    assert abs(res.acceptance_rate - rate) < 4 * np.sqrt(rate * (1 - rate) / res.n_proposed)


def test_rejection_raises_when_envelope_too_low():
    with pytest.raises(ValueError, match="log_c"):
        mcmc.rejection_sample(scipy.stats.norm.logpdf, lambda m, r: r.standard_normal(m), scipy.stats.norm.logpdf,
                              np.log(0.5), 10, np.random.default_rng(0))


def test_importance_estimates():
    rng = np.random.default_rng(3)
    x = rng.normal(1, 1.5, size=(40000, 3))
    q = scipy.stats.norm(1, 1.5)
    plain = mcmc.importance_estimate(lambda t: t**2, scipy.stats.norm.logpdf, q.logpdf, x, self_normalised=False)
    sn = mcmc.importance_estimate(lambda t: t**2, scipy.stats.norm.logpdf, q.logpdf, x)
    assert abs(plain.mean() - 1) < 4 * plain.std() / np.sqrt(len(plain))
    assert abs(sn.mean() - 1.3104) < 4 * sn.std() / np.sqrt(len(sn))
    # self-normalised is invariant to the constant of p_tilde; direct formula on one row
    sn_c = mcmc.importance_estimate(lambda t: t**2, lambda t: scipy.stats.norm.logpdf(t) + 7.0, q.logpdf, x[0])
    w = scipy.stats.norm.pdf(x[0]) / q.pdf(x[0])
    assert sn_c == pytest.approx(np.sum(x[0] ** 2 * w) / w.sum(), rel=1e-12)


# ------------------------------------------------------------------ MCMC
@pytest.mark.parametrize("J, h", [(0.3, 0.0), (0.5, 0.2), (-0.4, 0.1)])
def test_ising_exact_against_loops(J, h):
    ex = mcmc.ising_exact(J, h, (2, 3))
    assert ex.probs.shape == (64,) and ex.probs.sum() == pytest.approx(1.0)
    S = ex.states.reshape(64, 6).astype(float)
    E = np.array([J * (s[0] * s[1] + s[1] * s[2] + s[3] * s[4] + s[4] * s[5] + s[0] * s[3] + s[1] * s[4] + s[2] * s[5])
                  + h * s.sum() for s in S])
    np.testing.assert_allclose(ex.probs, np.exp(E) / np.exp(E).sum(), atol=1e-15)
    assert ex.log_Z == pytest.approx(np.log(np.exp(E).sum()))
    np.testing.assert_allclose(ex.corr, S.T @ (ex.probs[:, None] * S), atol=1e-14)


def test_gibbs_ising_matches_exact():
    J, h = 0.35, -0.15
    ex = mcmc.ising_exact(J, h, (3, 3))
    S = mcmc.gibbs_ising(J, h, (3, 3), 200, np.random.default_rng(4), n_chains=400)
    assert S.shape == (200, 400, 3, 3) and S.dtype == np.int8
    m = S[30:].astype(float).mean(axis=0).reshape(400, 9)
    se = m.std(axis=0, ddof=1) / np.sqrt(400)
    assert np.all(np.abs(m.mean(axis=0) - ex.mean.ravel()) < 4.5 * se)


def test_metropolis_hastings_gaussian_and_asymmetric_proposal():
    rng = np.random.default_rng(5)
    # independence proposal N(0, 2²): asymmetric in the MH sense, needs the Hastings ratio
    prop = lambda x, r: 2.0 * r.standard_normal(x.shape)  # noqa: E731
    lq = lambda x, y: (-(x**2).sum(1) + (y**2).sum(1)) / 8.0  # noqa: E731   log q(x) - log q(y)
    res = mcmc.metropolis_hastings(lambda x: -0.5 * ((x - 1.0) ** 2).sum(1), prop, lq, np.zeros((500, 1)), 300, rng)
    assert res.samples.shape == (300, 500, 1)
    last = res.samples[-1, :, 0]
    assert abs(last.mean() - 1.0) < 4 / np.sqrt(500)
    assert abs(last.var() - 1.0) < 4 * np.sqrt(2 / 500)
    one = mcmc.metropolis_hastings(lambda x: -0.5 * (x**2).sum(1), lambda x, r: x + r.standard_normal(x.shape), None,
                                   np.zeros(2), 50, rng)
    assert one.samples.shape == (50, 2) and one.acceptance_rate.shape == (1,)


@pytest.mark.parametrize("D, seed", [(2, 0), (3, 1), (5, 2)])
def test_gibbs_gaussian_covariance(D, seed):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((D, D))
    Sigma = A @ A.T / D + 0.5 * np.eye(D)
    mu = rng.standard_normal(D)
    X = mcmc.gibbs_gaussian(mu, Sigma, 20000, rng)[200:]
    ess = min(mcmc.effective_sample_size(X[:, d]) for d in range(D))
    scale = np.sqrt(np.outer(np.diag(Sigma), np.diag(Sigma)))
    np.testing.assert_allclose(X.mean(axis=0), mu, atol=5 * np.sqrt(np.diag(Sigma).max() / ess))
    assert np.all(np.abs(np.cov(X.T) - Sigma) < 5 * np.sqrt(2 / ess) * scale)


# ------------------------------------------------------------------ diagnostics
@pytest.mark.parametrize("n, seed", [(50, 0), (1000, 1), (4097, 2)])
def test_autocorrelation_matches_statsmodels(n, seed):
    x = np.cumsum(np.random.default_rng(seed).standard_normal(n)) * 0.1 + np.random.default_rng(seed + 1).standard_normal(n)
    k = min(40, n - 1)
    np.testing.assert_allclose(mcmc.autocorrelation(x, k), smt.acf(x, nlags=k, fft=True), atol=1e-12)


@pytest.mark.parametrize("rho", [0.0, 0.5, 0.9])
def test_ess_ar1(rho):
    n, reps = 20000, 20
    rng = np.random.default_rng(int(rho * 10))
    x = np.empty((reps, n))
    x[:, 0] = rng.standard_normal(reps)
    z = np.sqrt(1 - rho**2) * rng.standard_normal((reps, n))
    for t in range(1, n):
        x[:, t] = rho * x[:, t - 1] + z[:, t]
    ess = np.array([mcmc.effective_sample_size(c) for c in x])
    target = n * (1 - rho) / (1 + rho)
    assert abs(ess.mean() - target) < 4 * ess.std(ddof=1) / np.sqrt(reps) + 0.02 * target


def test_gelman_rubin_formula():
    chains = np.array([[0.0, 1, 2], [3, 4, 5]])
    assert mcmc.gelman_rubin(chains) == pytest.approx(np.sqrt(31 / 6), rel=1e-14)
    rng = np.random.default_rng(7)
    C = rng.standard_normal((4, 50))
    n = 50
    W = np.mean([np.var(c, ddof=1) for c in C])
    B = n * np.var(C.mean(axis=1), ddof=1)
    assert mcmc.gelman_rubin(C) == pytest.approx(np.sqrt(((n - 1) / n * W + B / n) / W), rel=1e-13)
    assert mcmc.gelman_rubin(C + np.arange(4)[:, None] * 3) > 1.5


def test_bad_inputs_messages():
    with pytest.raises(ValueError, match="row-stochastic"):
        mcmc.stationary_distribution([[0.5, 0.6], [0.5, 0.5]])
    with pytest.raises(ValueError, match="i"):
        mcmc.period(np.eye(2), 5)
    with pytest.raises(ValueError, match="16"):
        mcmc.ising_exact(0.1, 0.0, (5, 4))
    with pytest.raises(ValueError, match="shape"):
        mcmc.gibbs_ising(0.1, 0.0, [3, 3], 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="constant"):
        mcmc.autocorrelation(np.ones(5), 2)


# ------------------------------------------------------------ bad input that used to pass
def test_rejection_from_a_target_without_mass_raises_instead_of_looping():
    # the old loop proposed for ever when p_tilde = 0 wherever q proposes
    with pytest.raises(ValueError, match="log_p_tilde"):
        mcmc.rejection_sample(lambda x: np.where(x > 1e6, 0.0, -np.inf), lambda m, r: r.standard_normal(m),
                              scipy.stats.norm.logpdf, 5.0, 5, np.random.default_rng(0))


def test_rejection_with_rare_acceptance_still_matches_the_truncated_normal():
    # p ∝ N(0, 1) on x > 3 proposed from N(0, 1): acceptance 0.00135, batches grow, samples stay exact
    res = mcmc.rejection_sample(lambda x: np.where(x > 3, scipy.stats.norm.logpdf(x), -np.inf),
                                lambda m, r: r.standard_normal(m), scipy.stats.norm.logpdf, 0.0, 400,
                                np.random.default_rng(4))
    assert scipy.stats.kstest(res.samples, scipy.stats.truncnorm(3, np.inf).cdf).pvalue > 1e-3
    rate = scipy.stats.norm.sf(3)
    assert abs(res.acceptance_rate - rate) < 4 * np.sqrt(rate / res.n_proposed)


def test_importance_estimate_refuses_undefined_or_overflowing_weights():
    x = np.array([1.0, 2.0])
    with pytest.raises(ValueError, match="log_p_tilde"):        # old: nan
        mcmc.importance_estimate(lambda t: t, lambda t: np.full(t.shape, -np.inf), scipy.stats.norm.logpdf, x)
    with pytest.raises(ValueError, match="log_p_tilde"):        # old: inf
        mcmc.importance_estimate(lambda t: t, lambda t: 1000 + 0 * t, scipy.stats.norm.logpdf, x,
                                 self_normalised=False)
    with pytest.raises(ValueError, match="log_q"):              # old: nan
        mcmc.importance_estimate(lambda t: t, scipy.stats.norm.logpdf, scipy.stats.expon.logpdf, np.array([-1.0, 2.0]))


def test_metropolis_hastings_rejects_nan_proposals():
    # the old sampler silently rejected every NaN proposal and returned the starting point
    with pytest.raises(ValueError, match="propose"):
        mcmc.metropolis_hastings(lambda x: -0.5 * (x**2).sum(axis=1), lambda x, rng: x * np.nan, None,
                                 np.zeros((2, 1)), 5, np.random.default_rng(0))


def test_ising_exact_refuses_overflowing_energies():
    with pytest.raises(ValueError, match="J"):                   # old: log_Z = inf
        mcmc.ising_exact(1e308, 0.0, (2, 2))
    ex = mcmc.ising_exact(0.3, 0.1, (2, 2))
    assert np.isclose(ex.probs.sum(), 1.0)
