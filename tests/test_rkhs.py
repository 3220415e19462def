"""Tests of mlnotes.rkhs against scikit-learn (rbf_kernel, polynomial_kernel, Nystroem),
numpy.fft, scipy.special.eval_hermite, numpy.linalg.eigh, ch07's is_psd and closed forms."""
import math

import numpy as np
import pytest
import scipy.special
from hypothesis import given, settings, strategies as st
from sklearn.kernel_approximation import Nystroem
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel

from mlnotes import kernels, rkhs

RNG = np.random.default_rng(46)
X, Y = RNG.standard_normal((12, 3)), RNG.standard_normal((9, 3))


def _grid(N):
    return -np.pi + 2 * np.pi * np.arange(N) / N


# Gram entries are O(1) sums of a few products: agreement to 1e-12 is rounding level.
@pytest.mark.parametrize("ell", [0.3, 1.0, 2.5])
def test_exponentiated_quadratic_matches_sklearn(ell):
    assert np.allclose(rkhs.exponentiated_quadratic(X, Y, ell),
                       rbf_kernel(X, Y, gamma=1 / (2 * ell**2)), atol=1e-12)
    K = rkhs.exponentiated_quadratic(X, None, ell)
    assert np.allclose(np.diag(K), 1.0) and kernels.is_psd(K)


@pytest.mark.parametrize("degree, c", [(1, 0.0), (2, 1.0), (3, 0.5), (4, 2.0)])
def test_polynomial_feature_map_reproduces_sklearn(degree, c):
    P, Q = rkhs.polynomial_feature_map(X, degree, c), rkhs.polynomial_feature_map(Y, degree, c)
    ref = polynomial_kernel(X, Y, degree=degree, gamma=1, coef0=c)
    # entries up to ~(1 + 9)^4 = 1e4: relative 1e-12
    assert np.allclose(P @ Q.T, ref, rtol=1e-12, atol=1e-10)
    n_feat = math.comb(3 + degree, 3) if c > 0 else math.comb(2 + degree, 2)
    assert P.shape == (12, n_feat)


def test_taylor_series_kernel():
    Xs, Ys = 0.4 * X, 0.4 * Y
    coeffs = 1 / np.array([math.factorial(n) for n in range(30)])
    # the exponential series truncated at 30 terms of |t| < 3: error < 3^30/30! ~ 1e-18
    assert np.allclose(rkhs.taylor_series_kernel(Xs, Ys, coeffs), np.exp(Xs @ Ys.T), atol=1e-12)
    coeffs = np.array([0.5, 0.0, 2.0, 1.0])
    ref = 0.5 + 2 * (X @ Y.T) ** 2 + (X @ Y.T) ** 3
    assert np.allclose(rkhs.taylor_series_kernel(X, Y, coeffs), ref, rtol=1e-12, atol=1e-10)
    assert kernels.is_psd(rkhs.taylor_series_kernel(X, None, coeffs))
    with pytest.raises(ValueError, match="coeffs"):
        rkhs.taylor_series_kernel(X, Y, [1.0, -1.0])


def test_fourier_coefficients_match_fft_and_closed_forms():
    N = 101
    x = _grid(N)
    vals = np.exp(np.cos(x)) * (1 + 0.2 * np.sin(3 * x))
    f_hat = rkhs.fourier_coefficients(vals)
    L = N // 2
    l = np.arange(-L, L + 1)
    # independent: the DFT as an explicit sum, and synthesis back to the values
    direct = (vals[None, :] * np.exp(-1j * l[:, None] * x[None, :])).sum(1) / N
    assert np.allclose(f_hat, direct, atol=1e-13)
    assert np.allclose((f_hat[:, None] * np.exp(1j * l[:, None] * x)).sum(0), vals, atol=1e-12)
    # exp(cos x) has coefficients I_l(1); with N = 101 the aliasing error is ~I_101(1) ~ 0
    g = rkhs.fourier_coefficients(np.exp(np.cos(x)))
    assert np.allclose(g, scipy.special.iv(np.abs(l), 1.0), atol=1e-14)
    # numpy.fft reference: the fft of the values rolled to start at x_L is f_hat e^{i l x_L}
    assert np.allclose(np.fft.fftshift(np.fft.fft(np.roll(vals, -L))) / N,
                       f_hat * np.exp(1j * l * x[L]), atol=1e-13)


def test_periodic_kernel_closed_forms():
    L = 60
    l = np.arange(-L, L + 1)
    t = np.linspace(-np.pi, np.pi, 7)
    # Sobolev-type kernel: sum_l e^{ilt} / (1 + l^2) = pi cosh(pi - |t|) / sinh(pi); the
    # truncation tail is 2 sum_{l > 60} 1/l^2 ~ 0.033, so use a long expansion instead
    L2 = 20000
    l2 = np.arange(-L2, L2 + 1)
    K = rkhs.periodic_kernel(t, np.zeros(1), 1 / (1 + l2**2))[:, 0]
    assert np.allclose(K, np.pi * np.cosh(np.pi - np.abs(t)) / np.sinh(np.pi), atol=2 / L2)
    # Jacobi theta = wrapped Gaussian by Poisson summation
    s = 0.7
    K = rkhs.periodic_kernel(t, np.zeros(1), np.exp(-s**2 * l**2 / 2) / (2 * np.pi))[:, 0]
    n = np.arange(-5, 6)
    wrapped = np.exp(-(t[:, None] - 2 * np.pi * n) ** 2 / (2 * s**2)).sum(1) / (np.sqrt(2 * np.pi) * s)
    assert np.allclose(K, wrapped, atol=1e-12)
    assert kernels.is_psd(rkhs.periodic_kernel(t, t, np.exp(-s**2 * l**2 / 2)))


def test_fourier_rkhs_reproducing_property():
    L = 40
    l = np.arange(-L, L + 1)
    k_hat = np.exp(-0.5 * l**2 / 2) / (2 * np.pi)
    xi = RNG.uniform(-np.pi, np.pi, 5)
    alpha = RNG.standard_normal(5)
    f_hat = (alpha[:, None] * k_hat * np.exp(-1j * l * xi[:, None])).sum(0)
    z = 0.37
    kz_hat = k_hat * np.exp(-1j * l * z)
    val = rkhs.fourier_rkhs_inner(f_hat, kz_hat, k_hat)
    fz = rkhs.periodic_kernel(np.array([z]), xi, k_hat)[0] @ alpha
    assert abs(val.imag) < 1e-12 and np.isclose(val.real, fz, atol=1e-12)
    K = rkhs.periodic_kernel(xi, xi, k_hat)
    assert np.isclose(rkhs.fourier_rkhs_inner(f_hat, f_hat, k_hat).real, alpha @ K @ alpha, atol=1e-10)
    with pytest.raises(ValueError, match="k_hat"):
        rkhs.fourier_rkhs_inner(f_hat, f_hat, np.zeros(2 * L + 1))


def test_gaussian_mercer_against_eval_hermite_and_quadrature():
    a, b, n = 0.25, 0.5, 12
    lam, ef = rkhs.gaussian_mercer(a, b, n)
    c = np.sqrt(a**2 + 2 * a * b)
    x = np.linspace(-2.5, 2.5, 11)
    H = np.array([scipy.special.eval_hermite(k, np.sqrt(2 * c) * x) for k in range(n)]).T
    norm = np.array([np.sqrt(np.sqrt(a / c) * 2.0**k * math.factorial(k)) for k in range(n)])
    ref = np.exp(-(c - a) * x**2)[:, None] * H / norm
    assert np.allclose(ef(x), ref, atol=1e-10)
    # orthonormality under p = N(0, 1/(4a)) = N(0, 1): probabilists' Gauss-Hermite nodes
    g, w = np.polynomial.hermite_e.hermegauss(100)
    E = ef(g)
    assert np.allclose(E.T @ (E * (w / w.sum())[:, None]), np.eye(n), atol=1e-10)
    # eigen-equation: int k(x, x') e_l(x') p(x') dx' = lambda_l e_l(x)
    Kxg = np.exp(-b * (x[:, None] - g[None, :]) ** 2)
    assert np.allclose(Kxg @ (E * (w / w.sum())[:, None]), ef(x) * lam, atol=1e-10)
    lam40, ef40 = rkhs.gaussian_mercer(a, b, 40)
    # the series tail is sum_{k >= 40} lambda_k e_k^2 <= B^40 sup e^2 -- tiny
    assert np.allclose((ef40(x) * lam40) @ ef40(x).T, np.exp(-b * (x[:, None] - x) ** 2), atol=1e-10)


def test_nystrom_eigenvalues_converge_and_match_sklearn():
    Xs = np.random.default_rng(1).standard_normal((1500, 1))
    kern = lambda A, B: rkhs.exponentiated_quadratic(A, B, 1.0)  # noqa: E731
    lam_hat, ef = rkhs.nystrom_eigenfunctions(kern, Xs, 5)
    mu = np.linalg.eigvalsh(kern(Xs, Xs))[::-1][:5] / 1500
    assert np.allclose(lam_hat, mu, rtol=1e-10)
    lam, _ = rkhs.gaussian_mercer(0.25, 0.5, 5)
    # Monte Carlo error of Gram eigenvalues/n is O(lambda / sqrt(n)) ~ 3%: allow 15%
    assert np.allclose(lam_hat, lam, rtol=0.15)
    # at the sample points the Nyström eigenfunction is sqrt(n) v: (1/n) sum e^2 = 1
    E = ef(Xs)
    assert np.allclose((E**2).mean(0), 1.0, atol=1e-8)
    # sklearn's Nystroem on all points reproduces K; our eigenpairs give the same low-rank K
    ny = Nystroem(kernel="rbf", gamma=0.5, n_components=300, random_state=0).fit(Xs[:300])
    Z = ny.transform(Xs[:300])
    # the Gram matrix of 300 points has numerical rank 19: 15 eigenpairs leave a tail ~1e-10
    lam_all, ef_all = rkhs.nystrom_eigenfunctions(kern, Xs[:300], 15)
    E = ef_all(Xs[:300])
    assert np.allclose(Z @ Z.T, kern(Xs[:300], Xs[:300]), atol=1e-6)
    assert np.allclose((E * lam_all) @ E.T, Z @ Z.T, atol=1e-8)


def test_rkhs_norm_evaluate_and_bound():
    kern = lambda A, B: rkhs.exponentiated_quadratic(A, B, 0.8)  # noqa: E731
    alpha = RNG.standard_normal(12)
    K = kern(X, X)
    norm = rkhs.rkhs_norm(alpha, K)
    assert np.isclose(norm, np.sqrt(alpha @ K @ alpha))
    f = rkhs.rkhs_evaluate(alpha, X, kern, Y)
    assert np.allclose(f, rbf_kernel(Y, X, gamma=1 / (2 * 0.64)) @ alpha, atol=1e-12)
    assert np.all(np.abs(f) <= norm * 1.0 + 1e-12)          # k(x, x) = 1
    with pytest.raises(ValueError, match="alpha"):
        rkhs.rkhs_norm(np.ones(3), K)
    with pytest.raises(ValueError, match="positive semi-definite"):
        rkhs.rkhs_norm(np.array([1.0, -1.0]), np.array([[1.0, 2.0], [2.0, 1.0]]))


def test_bad_spectra():
    with pytest.raises(ValueError, match="odd"):
        rkhs.periodic_kernel(np.zeros(2), np.zeros(2), np.ones(4))
    with pytest.raises(ValueError, match="symmetric"):
        rkhs.periodic_kernel(np.zeros(2), np.zeros(2), np.array([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="values"):
        rkhs.fourier_coefficients(np.ones(4))
    with pytest.raises(ValueError, match="n_terms"):
        rkhs.nystrom_eigenfunctions(lambda A, B: A @ B.T, X, 13)
    with pytest.raises(ValueError, match="n_terms"):         # rank 3: was 1/rounding-noise
        rkhs.nystrom_eigenfunctions(lambda A, B: A @ B.T, X, 5)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.floats(0.2, 3.0))
def test_property_reproducing_bound(seed, ell):
    """|f(x)| <= sqrt(k(x, x)) ||f||_H for random f in span{k(x_i, .)}, and equality at f = k(x, .)."""
    rng = np.random.default_rng(seed)
    Xp, xq = rng.standard_normal((6, 2)), rng.standard_normal((4, 2))
    kern = lambda A, B: rkhs.exponentiated_quadratic(A, B, ell)  # noqa: E731
    alpha = rng.standard_normal(6)
    f = rkhs.rkhs_evaluate(alpha, Xp, kern, xq)
    assert np.all(np.abs(f) <= rkhs.rkhs_norm(alpha, kern(Xp, Xp)) + 1e-10)
    assert np.isclose(rkhs.rkhs_norm(np.ones(1), kern(xq[:1], xq[:1])), 1.0)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4), st.floats(0.0, 2.0))
def test_property_polynomial_feature_map(seed, degree, c):
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1, 1, (5, 2))
    P = rkhs.polynomial_feature_map(A, degree, c)
    assert np.allclose(P @ P.T, (c + A @ A.T) ** degree, atol=1e-10)


# ------------------------------------------------- regressions (referee pass, chapter 46)
def test_exponentiated_quadratic_unchanged_far_from_the_origin():
    # the Gram form ||x||^2 + ||y||^2 - 2 xᵀy cancelled catastrophically at 1e8 (errors ~0.5)
    for shift in (1e5, 1e8):
        K = rkhs.exponentiated_quadratic(X + shift, Y + shift, 0.9)
        assert np.allclose(K, rbf_kernel(X, Y, gamma=1 / (2 * 0.81)), atol=1e-7)
    K = rkhs.exponentiated_quadratic(X + 1e8, None, 0.9)
    assert np.array_equal(K, K.T) and np.all(np.diag(K) == 1.0)


def test_periodic_kernel_is_the_one_implementation_with_x_y_k_hat_order():
    # kernel_tests no longer has its own copy; the Poisson kernel sum_l rho^|l| e^{ilt}
    x = np.random.default_rng(1).uniform(-np.pi, np.pi, 30)
    c = 0.5 ** np.arange(80)
    K = rkhs.periodic_kernel(x, x, np.r_[c[:0:-1], c])
    t = x[:, None] - x[None, :]
    assert np.allclose(K, 0.75 / (1.25 - np.cos(t)), atol=1e-12)
    from mlnotes import kernel_tests
    assert not hasattr(kernel_tests, "periodic_kernel")


def test_overflow_and_bad_gram_matrices_raise():
    with pytest.raises(ValueError, match="coeffs"):          # was an inf Gram matrix
        rkhs.taylor_series_kernel(1e100 * X, None, np.ones(10))
    with pytest.raises(ValueError, match="X"):               # was inf features
        rkhs.polynomial_feature_map(1e200 * X, 3)
    # degree 200 in one dimension: the multinomial weights are sqrt(C(200, j)) (was an
    # OverflowError from 200! as a float)
    x = np.array([[0.3], [0.7]])             # same signs: no cancellation in the sum
    P = rkhs.polynomial_feature_map(x, 200, 1.0)
    assert np.allclose(P @ P.T, (1 + x @ x.T) ** 200, rtol=1e-10)
    with pytest.raises(ValueError, match="K must be positive semi-definite"):   # was 1.41
        rkhs.rkhs_norm(np.array([1.0, 0.0]), np.array([[2.0, 0.0], [0.0, -1.0]]))
    kern = lambda A, B: rkhs.exponentiated_quadratic(A, B, 1.0)  # noqa: E731
    with pytest.raises(ValueError, match="kernel must return a symmetric"):     # was symmetrised
        rkhs.nystrom_eigenfunctions(lambda A, B: kern(A, B) + 0.3 * np.triu(np.ones((len(A), len(B))), 1), X, 2)
    with pytest.raises(ValueError, match="kernel is not positive semi-definite"):
        rkhs.nystrom_eigenfunctions(lambda A, B: kern(A, B) - 2.0 * (A @ B.T), X, 1)


def test_gaussian_mercer_eigenfunctions_far_out_are_finite():
    # H_k(u) overflowed while exp(-(c - a) x^2) underflowed: 0 * inf = nan at large |x|
    lam, ef = rkhs.gaussian_mercer(0.25, 0.5, 60)
    E = ef(np.array([0.0, 40.0, 1e10]))
    assert np.all(np.isfinite(E)) and np.all(E[2] == 0.0)
    c = np.sqrt(0.25**2 + 0.25)
    k = np.arange(60)
    # log |e_k(40)| from log-gamma, against scipy's Hermite values (finite at u = 40 sqrt(2c))
    H = scipy.special.eval_hermite(k, np.sqrt(2 * c) * 40.0)
    ref = (c / 0.25) ** 0.25 * np.exp(-(c - 0.25) * 1600.0) * H / np.sqrt(2.0**k * scipy.special.factorial(k))
    assert np.allclose(E[1], ref, rtol=1e-9, atol=1e-300)


def test_fourier_rkhs_inner_overflow_is_an_error_not_inf():
    with pytest.raises(ValueError, match="k_hat"):          # was (inf+0j)
        rkhs.fourier_rkhs_inner(np.full(5, 1e200), np.full(5, 1e200), np.array([1e-200, 0.5, 1.0, 0.5, 1e-200]))
