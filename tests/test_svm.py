"""Tests of mlnotes.svm against scikit-learn's SVC, LinearSVC and SVR, plus the chapter's identities.

A note on tolerances. LIBSVM (behind ``SVC``) caches kernel values in single precision, so
its dual coefficients carry errors of order 1e-7 times the condition number of the support
vectors' Gram matrix times ``alpha``. The problems below are well conditioned (data in
general position, moderate ``C``, RBF width not too large), where both solvers, run to a
gap of 1e-8, agree to 1e-4 on ``alpha_i y_i`` and on ``b``.

For the ν-SVM, ``NuSVC`` reports ``alpha_i y_i / rho`` and ``b / rho`` (the C-SVM form), so its
coefficients are compared after normalising both vectors to unit l1 norm (1e-6: the
normalised coefficients are of order 1/n_SV and carry LIBSVM's single-precision error), and
the scale through the decision function ``f / rho`` (1e-4, as for SVC). Values of ν with
``ν n / 2`` an integer are avoided: there a class can have no free support vector, ``rho``
and ``b`` are only determined up to an interval, and the two solvers may pick different
points of it.
"""
import dataclasses

import numpy as np
import pytest
import scipy.optimize
from hypothesis import given, settings, strategies as st
from sklearn.linear_model import LogisticRegression
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel, sigmoid_kernel
from sklearn.model_selection import LeaveOneOut, cross_val_score
from sklearn.svm import SVC, LinearSVC, NuSVC

from mlnotes import datasets, svm

SIZES = [(30, 2, 0), (80, 3, 1), (200, 5, 2)]  # (n, d, seed)
KERNELS = {
    "linear": lambda X: X @ X.T,
    "rbf": lambda X: rbf_kernel(X, gamma=1.0),
    "poly": lambda X: polynomial_kernel(X, degree=2, gamma=1.0 / X.shape[1], coef0=1.0),
}


def _overlapping(n, d, seed, shift=1.0):
    """Two overlapping Gaussian classes with labels ±1 (not separable)."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1, -1)
    X = rng.standard_normal((n, d)) + shift * y[:, None] / np.sqrt(d)
    return X, y


def _svc_coef(ref, n):
    coef = np.zeros(n)
    coef[ref.support_] = ref.dual_coef_[0]
    return coef


def _assert_matches_svc(fit, ref, K, K_test):
    n = K.shape[0]
    np.testing.assert_array_equal(fit.support, np.sort(ref.support_))
    np.testing.assert_allclose(fit.dual_coef, _svc_coef(ref, n), atol=1e-4)
    assert fit.b == pytest.approx(ref.intercept_[0], abs=1e-4)
    np.testing.assert_array_equal(svm.svm_predict(fit, K_test), ref.predict(K_test))
    np.testing.assert_allclose(svm.svm_decision_function(fit, K_test), ref.decision_function(K_test), atol=1e-4)


# ------------------------------------------------------------------ the dual vs SVC
# The degree-2 polynomial kernel has rank 21 in five dimensions: with C = 10 its support
# vectors' Gram matrix is too ill-conditioned for LIBSVM's single-precision cache (SVC's own
# KKT violation is then about 1e-5), so that case is left out of the 1e-4 comparison.
CASES = [("linear", 0.1), ("linear", 1.0), ("linear", 10.0), ("rbf", 0.1), ("rbf", 1.0),
         ("rbf", 10.0), ("poly", 0.1), ("poly", 1.0)]


@pytest.mark.parametrize("kernel, C", CASES)
@pytest.mark.parametrize("n, d, seed", SIZES)
def test_soft_margin_matches_svc(n, d, seed, kernel, C):
    X, y = _overlapping(n + 20, d, seed)
    K_all = KERNELS[kernel](X)
    K, K_test = K_all[:n, :n], K_all[n:, :n]
    fit = svm.svm_dual(K, y[:n], C)
    ref = SVC(kernel="precomputed", C=C, tol=1e-8).fit(K, y[:n])
    assert fit.converged
    _assert_matches_svc(fit, ref, K, K_test)
    assert fit.max_violation <= 1e-8
    assert abs(fit.alpha @ fit.y) <= 1e-10 * max(1.0, fit.alpha.sum())
    assert np.all((fit.alpha >= 0) & (fit.alpha <= C))
    alpha_ref = np.abs(_svc_coef(ref, n))
    assert svm.dual_objective(K, y[:n], fit.alpha) >= svm.dual_objective(K, y[:n], alpha_ref) - 1e-9


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("n, d, seed", SIZES)
def test_hard_margin_matches_svc(n, d, seed, kernel):
    X, y, _ = datasets.separable(n=n + 20, d=d, margin=0.2, seed=seed)
    K_all = KERNELS[kernel](X)
    K, K_test = K_all[:n, :n], K_all[n:, :n]
    fit = svm.svm_dual(K, y[:n], np.inf)
    ref = SVC(kernel="precomputed", C=1e10, tol=1e-8).fit(K, y[:n])
    assert fit.converged and fit.C == np.inf
    _assert_matches_svc(fit, ref, K, K_test)
    margins = y[:n] * svm.svm_decision_function(fit, K)
    assert margins.min() == pytest.approx(1.0, abs=1e-8)          # canonical hyperplane
    np.testing.assert_allclose(margins[fit.support], 1.0, atol=1e-8)  # SVs on the margin


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_linear_kernel_gives_svc_linear_weights(n, d, seed):
    X, y = _overlapping(n, d, seed)
    fit = svm.svm_dual(X @ X.T, y, 1.0)
    ref = SVC(kernel="linear", C=1.0, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(X.T @ fit.dual_coef, ref.coef_[0], atol=1e-4)
    assert fit.b == pytest.approx(ref.intercept_[0], abs=1e-4)


@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("C", [0.5, np.inf])
def test_kkt_and_strong_duality(n, d, seed, C):
    if C == np.inf:
        X, y, _ = datasets.separable(n=n, d=d, margin=0.2, seed=seed)
    else:
        X, y = _overlapping(n, d, seed)
    K = X @ X.T
    fit = svm.svm_dual(K, y, C)
    viol = svm.kkt_violations(K, y, fit.alpha, fit.b, C)
    assert viol.max() == pytest.approx(fit.max_violation) and viol.max() <= 1e-8
    m = y * svm.svm_decision_function(fit, K)
    free = (fit.alpha > 0) & (fit.alpha < C)
    assert np.all(m[fit.alpha == 0] >= 1 - 1e-8)
    np.testing.assert_allclose(m[free], 1.0, atol=1e-8)
    assert np.all(m[fit.alpha == C] <= 1 + 1e-8)
    xi = np.maximum(0, 1 - m)  # the optimal slacks
    np.testing.assert_allclose(fit.alpha * (m - 1 + xi), 0, atol=1e-6)  # complementary slackness
    if C < np.inf:
        np.testing.assert_allclose((C - fit.alpha) * xi, 0, atol=1e-8)
    dual = svm.dual_objective(K, y, fit.alpha)
    if C < np.inf:
        primal = svm.primal_objective(K, y, fit.alpha, fit.b, C)
    else:  # the slacks are zero up to rounding; an exact slack of 1e-12 would cost inf * 1e-12
        primal = 0.5 * fit.dual_coef @ K @ fit.dual_coef
    assert primal == pytest.approx(dual, rel=1e-7)
    # a perturbed feasible alpha is no better (the dual is maximised)
    i, j = np.flatnonzero(free)[:2] if free.sum() >= 2 else fit.support[:2]
    for t in (-1e-3, 1e-3):
        a = fit.alpha.copy()
        a[i] += t * y[i]
        a[j] -= t * y[j]
        if np.all((a >= 0) & (a <= C)):
            assert svm.dual_objective(K, y, a) <= dual + 1e-12


def test_kkt_violations_detects_a_wrong_solution():
    X, y = _overlapping(40, 2, 3)
    K = X @ X.T
    fit = svm.svm_dual(K, y, 1.0)
    assert svm.kkt_violations(K, y, fit.alpha, fit.b + 0.3, 1.0).max() > 0.1
    bad = np.full(40, 2.0)  # outside the box [0, 1]
    assert svm.kkt_violations(K, y, bad, 0.0, 1.0).min() >= 1.0


def test_alpha_is_piecewise_linear_in_C():
    X, y = _overlapping(25, 2, 4)
    K = X @ X.T

    def state(C):
        a = svm.svm_dual(K, y, C, tol=1e-12).alpha
        return a, (a > 1e-9).astype(int) + (a > C - 1e-9)

    (a1, s1), (a2, s2), (a3, s3) = state(0.30), state(0.31), state(0.32)
    assert np.array_equal(s1, s2) and np.array_equal(s2, s3)  # same three sets of points
    np.testing.assert_allclose(a2, (a1 + a3) / 2, atol=1e-8)


# ------------------------------------------------------------------ geometry
@pytest.mark.parametrize("n, d, seed", SIZES)
def test_projection_and_distance(n, d, seed):
    rng = np.random.default_rng(seed)
    X, w, b = rng.standard_normal((n, d)), rng.standard_normal(d), rng.standard_normal()
    y = np.where(rng.random(n) < 0.5, 1, -1)
    P = svm.project_onto_hyperplane(X, w, b)
    np.testing.assert_allclose(P @ w + b, 0, atol=1e-12)
    Z = rng.standard_normal((5, d))
    Z -= np.outer(Z @ w + b, w) / (w @ w)  # other points of the hyperplane
    np.testing.assert_allclose(np.einsum("ij,kij->ki", X - P, Z[:, None, :] - P[None]), 0, atol=1e-10)
    gm = svm.geometric_margin(X, y, w, b)
    np.testing.assert_allclose(np.abs(gm), np.linalg.norm(X - P, axis=1), atol=1e-12)
    np.testing.assert_allclose(svm.geometric_margin(X, y, 3 * w, 3 * b), gm, atol=1e-12)


def test_hard_margin_is_the_widest_separating_line():
    X, y, _ = datasets.separable(n=40, d=2, margin=0.15, seed=5)
    fit = svm.svm_dual(X @ X.T, y, np.inf)
    w = X.T @ fit.dual_coef
    margin = svm.geometric_margin(X, y, w, fit.b).min()
    assert margin == pytest.approx(1 / np.linalg.norm(w), abs=1e-9)
    theta = np.linspace(0, 2 * np.pi, 20001)
    U = np.stack([np.cos(theta), np.sin(theta)])
    proj = X @ U
    best = (proj[y == 1].min(axis=0) - proj[y == -1].max(axis=0)) / 2  # widest margin per direction
    assert best.max() <= margin + 1e-12
    assert best.max() >= margin - 1e-6
    # the midpoint formula for b is right for the hard margin
    s = X @ w
    assert -(s[y == 1].min() + s[y == -1].max()) / 2 == pytest.approx(fit.b, abs=1e-8)


# ------------------------------------------------------------------ kernels
def test_sigmoid_gram_matrix_can_be_indefinite_and_is_rejected():
    x = np.array([[1.0], [2.0]])
    K = sigmoid_kernel(x, gamma=1.0, coef0=0.0)
    np.testing.assert_allclose(K, np.tanh(x @ x.T))
    assert np.linalg.eigvalsh(K)[0] < -0.09
    with pytest.raises(ValueError, match="K must be positive semi-definite"):
        svm.svm_dual(K, [1, -1], 1.0)
    assert sigmoid_kernel(x[:1], gamma=1.0, coef0=-2.0)[0, 0] < 0  # even a 1x1 Gram matrix


def test_rbf_decision_function_matches_svc_rbf():
    X, y = _overlapping(120, 2, 6)
    Xt = np.random.default_rng(7).uniform(-3, 3, (50, 2))
    fit = svm.svm_dual(rbf_kernel(X, gamma=0.5), y, 2.0)
    ref = SVC(kernel="rbf", gamma=0.5, C=2.0, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(svm.svm_decision_function(fit, rbf_kernel(Xt, X, gamma=0.5)),
                               ref.decision_function(Xt), atol=1e-4)


# ------------------------------------------------------------------ the primal
@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("C", [0.1, 1.0])
def test_subgradient_reaches_the_dual_optimum(n, d, seed, C):
    X, y = _overlapping(n, d, seed)
    K = X @ X.T
    fit = svm.svm_dual(K, y, C)
    lam = 1 / (n * C)
    target = svm.dual_objective(K, y, fit.alpha) / (n * C)  # = optimal J_lam by strong duality
    res = svm.hinge_subgradient_descent(X, y, lam, n_iter=2000)
    assert np.all(res.history >= target - 1e-12)  # weak duality, at every iterate
    assert res.objective == pytest.approx(target, rel=1e-3)
    assert res.objective == pytest.approx(svm.hinge_objective(X, y, res.w, res.b, lam))
    # J is lam-strongly convex in w, so J(w, b) - J* ≥ (lam/2)‖w - w_true‖²; both gaps are
    # measured from the dual value, which is ≤ J* by weak duality
    # (plus the rounding error of the objective values themselves)
    eps = 8 * np.finfo(float).eps * target
    gap_sg = max(res.objective - target, 0.0) + eps
    gap_smo = max(svm.primal_objective(K, y, fit.alpha, fit.b, C) / (n * C) - target, 0.0) + eps
    bound = np.sqrt(2 * gap_sg / lam) + np.sqrt(2 * gap_smo / lam)
    assert np.linalg.norm(res.w - X.T @ fit.dual_coef) <= bound + 1e-12


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_primal_objective_scaling(n, d, seed):
    X, y = _overlapping(n, d, seed)
    rng = np.random.default_rng(seed)
    w, b, C = rng.standard_normal(d), rng.standard_normal(), 0.7
    alpha = np.linalg.lstsq(X.T, w, rcond=None)[0] * y  # X.T @ (alpha * y) = w when n >= d
    P = svm.primal_objective(X @ X.T, y, alpha, b, C)
    assert svm.hinge_objective(X, y, w, b, 1 / (n * C)) == pytest.approx(P / (n * C), rel=1e-10)


@pytest.mark.parametrize("n, d, seed", SIZES)
@pytest.mark.parametrize("C", [0.1, 1.0])
def test_no_intercept_subgradient_matches_linearsvc(n, d, seed, C):
    X, y = _overlapping(n, d, seed)
    X = X + 0.5
    lam = 1 / (n * C)
    ref = LinearSVC(loss="hinge", C=C, fit_intercept=False, tol=1e-10, max_iter=100_000).fit(X, y)
    res = svm.hinge_subgradient_descent(X, y, lam, n_iter=3000, fit_intercept=False)
    assert res.b == 0.0
    J_ref = svm.hinge_objective(X, y, ref.coef_[0], 0.0, lam)
    assert res.objective == pytest.approx(J_ref, rel=1e-5)
    np.testing.assert_allclose(res.w, ref.coef_[0], atol=5e-3)


# --------------------------------------------------------- representer and LOO bound
def test_ridge_logistic_solution_lies_in_the_span_of_the_data():
    rng = np.random.default_rng(8)
    n, d, lam = 12, 30, 0.5
    X = rng.standard_normal((n, d))
    y = np.where(rng.random(n) < 0.5, 1, -1)
    beta = LogisticRegression(C=1 / lam, fit_intercept=False, tol=1e-12, max_iter=10_000).fit(X, y).coef_[0]
    c = y / (1 + np.exp(y * (X @ beta))) / lam  # stationarity: beta = sum_i c_i x_i
    np.testing.assert_allclose(X.T @ c, beta, atol=1e-6)
    coef = np.linalg.lstsq(X.T, beta, rcond=None)[0]
    np.testing.assert_allclose(X.T @ coef, beta, atol=1e-8)


@pytest.mark.parametrize("seed", [0, 1])
def test_leave_one_out_bound(seed):
    X, y = _overlapping(30, 2, seed, shift=0.8)
    K, C, n = X @ X.T, 1.0, 30
    fit = svm.svm_dual(K, y, C)
    errors = np.zeros(n, dtype=bool)
    for i in range(n):
        keep = np.arange(n) != i
        f = svm.svm_dual(K[np.ix_(keep, keep)], y[keep], C)
        errors[i] = svm.svm_predict(f, K[i:i + 1, keep])[0] != y[i]
        if fit.alpha[i] == 0:  # removing a non-support vector changes nothing
            np.testing.assert_allclose(f.alpha, fit.alpha[keep], atol=1e-6)
            assert f.b == pytest.approx(fit.b, abs=1e-6)
    assert not errors[fit.alpha == 0].any()
    assert errors.mean() <= fit.support.size / n
    sk = 1 - cross_val_score(SVC(kernel="linear", C=C, tol=1e-8), X, y, cv=LeaveOneOut()).mean()
    assert errors.mean() == pytest.approx(sk)


# ------------------------------------------------------------------ results and inputs
def test_result_reprs_have_no_addresses():
    X, y = _overlapping(20, 2, 0)
    fit = svm.svm_dual(X @ X.T, y, 1.0)
    assert repr(fit).startswith("SVMResult(n=20, n_support=") and "0x" not in repr(fit)
    res = svm.hinge_subgradient_descent(X, y, 0.1, n_iter=10)
    assert repr(res) == "HingeResult(d=2, n_iter=10, lam=0.1)"
    assert res.history.shape == (11,)


def test_non_separable_hard_margin_does_not_converge():
    X, y = _overlapping(30, 2, 0)
    fit = svm.svm_dual(X @ X.T, y, np.inf, max_iter=500)
    assert not fit.converged and fit.n_iter == 500


_X, _Y = _overlapping(6, 2, 0)
_K = _X @ _X.T
_FIT = svm.svm_dual(_K, _Y, 1.0)


@pytest.mark.parametrize("call, match", [
    (lambda: svm.svm_dual(np.ones((3, 4)), [1, -1, 1]), "K must be a non-empty square"),
    (lambda: svm.svm_dual([[1.0, 2.0], [0.0, 1.0]], [1, -1]), "K must be symmetric"),
    (lambda: svm.svm_dual([[1.0, np.nan], [np.nan, 1.0]], [1, -1]), "K must be finite"),
    (lambda: svm.svm_dual([[0.0, 2.0], [2.0, 0.0]], [1, -1]), "K must be positive semi-definite"),
    (lambda: svm.svm_dual(_K, [0, 1, 0, 1, 0, 1]), "y must contain only the labels -1, 1"),
    (lambda: svm.svm_dual(_K, np.ones(6)), "y must contain both labels"),
    (lambda: svm.svm_dual(_K, _Y[:5]), r"y must have shape \(6,\)"),
    (lambda: svm.svm_dual(_K, _Y, 0.0), "C must be a positive"),
    (lambda: svm.svm_dual(_K, _Y, -np.inf), "C must be a positive"),
    (lambda: svm.svm_dual(_K, _Y, np.nan), "C must be a positive"),
    (lambda: svm.svm_dual(_K, _Y, 1.0, tol=0.0), "tol must be a positive"),
    (lambda: svm.svm_dual(_K, _Y, 1.0, max_iter=0), "max_iter must be an integer"),
    (lambda: svm.svm_decision_function(_FIT, np.ones((2, 5))), "K_new must have 6 columns"),
    (lambda: svm.svm_predict("fit", np.ones((2, 6))), "result must be a SVMResult or NuSVMResult"),
    (lambda: svm.svm_predict(_FIT, np.ones(6)), "K_new must be a non-empty 2-D"),
    (lambda: svm.kkt_violations(_K, _Y, np.ones(5), 0.0, 1.0), r"alpha must have shape \(6,\)"),
    (lambda: svm.kkt_violations(_K, _Y, np.ones(6), np.nan, 1.0), "b must be a finite"),
    (lambda: svm.primal_objective(_K, _Y, np.ones(6), 0.0, -1.0), "C must be a positive"),
    (lambda: svm.dual_objective(_K, _Y, [np.inf] * 6), "alpha must be finite"),
    (lambda: svm.geometric_margin(_X, _Y, [0.0, 0.0], 0.0), "w must be non-zero"),
    (lambda: svm.geometric_margin(_X, _Y, [1.0], 0.0), r"w must have shape \(2,\)"),
    (lambda: svm.project_onto_hyperplane(_X, [0.0, 0.0], 1.0), "w must be non-zero"),
    (lambda: svm.project_onto_hyperplane(_X[0], [1.0, 0.0], 1.0), "X must be a non-empty 2-D"),
    (lambda: svm.hinge_objective(_X, _Y, [1.0, 0.0], 0.0, 0.0), "lam must be a positive"),
    (lambda: svm.hinge_subgradient_descent(_X, _Y, -1.0), "lam must be a positive"),
    (lambda: svm.hinge_subgradient_descent(_X, _Y, 0.1, n_iter=0), "n_iter must be an integer"),
    (lambda: svm.hinge_subgradient_descent(_X, _Y, 0.1, step=0), "step must be a positive"),
    (lambda: svm.hinge_subgradient_descent(_X, _Y, 0.1, fit_intercept="yes"), "fit_intercept must be True or False"),
    (lambda: svm.hinge_subgradient_descent(_X, _Y + 1, 0.1), "y must contain only the labels"),
    (lambda: svm.nu_svm_dual(_K, _Y, 0.0), "nu must be a positive"),
    (lambda: svm.nu_svm_dual(_K, _Y, np.nan), "nu must be a positive"),
    (lambda: svm.nu_svm_dual(_K, _Y, 1.5, fit_intercept=False), r"nu must be in \(0, 1\]"),
    (lambda: svm.nu_svm_dual(_K, np.array([1, 1, 1, 1, 1, -1]), 0.5), r"nu must be in \(0, 0.333333\]"),
    (lambda: svm.nu_svm_dual(_K, _Y, 0.5, fit_intercept="yes"), "fit_intercept must be True or False"),
    (lambda: svm.nu_svm_dual(_K, _Y, 0.5, tol=-1.0), "tol must be a positive"),
    (lambda: svm.nu_svm_dual(_K, _Y, 0.5, max_iter=1.5), "max_iter must be an integer"),
    (lambda: svm.nu_svm_dual(_K, np.ones(6), 0.5), "y must contain both labels"),
    (lambda: svm.nu_svm_dual([[0.0, 2.0], [2.0, 0.0]], [1, -1], 0.5), "K must be positive semi-definite"),
    (lambda: svm.nu_svm_dual(np.ones((2, 3)), [1, -1], 0.5), "K must be a non-empty square"),
    (lambda: svm.nu_property(np.full(4, 0.3), np.ones(4), 1.0), r"alpha must lie in \[0, 1/n\]"),
    (lambda: svm.nu_property(np.full(4, -0.1), np.ones(4), 1.0), r"alpha must lie in \[0, 1/n\]"),
    (lambda: svm.nu_property(np.full(4, 0.1), np.ones(3), 1.0), r"margins must have shape \(4,\)"),
    (lambda: svm.nu_property(np.full(4, 0.1), np.ones(4), 0.0), "rho must be a positive"),
    (lambda: svm.nu_property(np.full(4, 0.1), np.ones(4), 1.0, tol=0.0), "tol must be a positive"),
    (lambda: svm.nu_property([np.nan] * 4, np.ones(4), 1.0), "alpha must be finite"),
    (lambda: svm.svm_predict(svm.nu_svm_dual(_K, _Y, 0.5), np.ones((2, 5))), "K_new must have 6 columns"),
])
def test_bad_inputs_raise_value_error_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ------------------------------------------------------------------ the ν-SVM
def _odd_nu(q, n):
    """ν near q with ν n / 2 a half-integer (so that both classes keep a free support vector)."""
    return (2 * np.floor(q * n / 2) + 1) / n


NU_CASES = [("linear", 0.5), ("linear", 0.7), ("rbf", 0.2), ("rbf", 0.5), ("rbf", 0.8)]


@pytest.mark.parametrize("kernel, q", NU_CASES)
@pytest.mark.parametrize("n, d, seed", SIZES)
def test_nu_svm_matches_nusvc(n, d, seed, kernel, q):
    X, y = _overlapping(n + 20, d, seed)
    K_all = KERNELS[kernel](X)
    K, K_test, y = K_all[:n, :n], K_all[n:, :n], y[:n]
    nu_max = 2 * min(np.sum(y == 1), np.sum(y == -1)) / n
    nu = _odd_nu(min(q, 0.9 * nu_max), n)
    fit = svm.nu_svm_dual(K, y, nu)
    ref = NuSVC(nu=nu, kernel="precomputed", tol=1e-10).fit(K, y)
    assert fit.converged and fit.max_violation <= 1e-8 and fit.rho > 1e-3
    assert fit.alpha.sum() == pytest.approx(nu, abs=1e-12) and abs(fit.alpha @ fit.y) <= 1e-12
    assert np.all((fit.alpha >= 0) & (fit.alpha <= 1 / n))
    coef = _svc_coef(ref, n)
    np.testing.assert_array_equal(fit.support, np.flatnonzero(np.abs(coef) > 1e-9 * np.abs(coef).max()))
    np.testing.assert_allclose(fit.dual_coef / fit.alpha.sum(), coef / np.abs(coef).sum(), atol=1e-6)
    np.testing.assert_allclose(svm.svm_decision_function(fit, K_test) / fit.rho, ref.decision_function(K_test),
                               atol=1e-4)
    np.testing.assert_array_equal(svm.svm_predict(fit, K_test), ref.predict(K_test))
    # the ν-property, for our solution and for LIBSVM's (margins 1 and alpha normalised to Σ = ν)
    ours = svm.nu_property(fit.alpha, y * svm.svm_decision_function(fit, K), fit.rho)
    theirs = svm.nu_property(np.abs(coef) * nu / np.abs(coef).sum(), y * ref.decision_function(K), 1.0, tol=1e-6)
    for p in (ours, theirs):
        assert p.margin_errors <= p.at_bound <= nu + 1e-12 and nu <= p.support + 1e-12
        assert p.sum_alpha == pytest.approx(nu, abs=1e-9)
    assert dataclasses.astuple(ours) == pytest.approx(dataclasses.astuple(theirs))


@pytest.mark.parametrize("nu", [0.5, 0.8])
def test_nu_svm_without_intercept_matches_a_generic_qp_solver(nu):
    X, y = _overlapping(30, 2, 1)
    X = X + np.array([0.5, 0.3])
    K, n = X @ X.T, 30
    Q = K * np.outer(y, y)
    fit = svm.nu_svm_dual(K, y, nu, fit_intercept=False)
    assert fit.converged and fit.b == 0.0 and not fit.fit_intercept
    res = scipy.optimize.minimize(lambda a: (0.5 * a @ Q @ a, Q @ a), np.full(n, nu / n), jac=True,
                                  method="SLSQP", bounds=[(0, 1 / n)] * n,
                                  constraints=[{"type": "eq", "fun": lambda a: a.sum() - nu,
                                                "jac": lambda a: np.ones(n)}],
                                  options={"ftol": 1e-15, "maxiter": 1000})
    assert 0.5 * fit.alpha @ Q @ fit.alpha <= res.fun + 1e-12   # at least as good
    np.testing.assert_allclose(fit.alpha, res.x, atol=1e-7)     # the solution is unique here
    m = y * svm.svm_decision_function(fit, K)
    free = (fit.alpha > 0) & (fit.alpha < 1 / n)
    np.testing.assert_allclose(m[free], fit.rho, atol=1e-8)      # ρ from the free SVs
    assert np.all(m[fit.alpha == 0] >= fit.rho - 1e-8) and np.all(m[fit.alpha == 1 / n] <= fit.rho + 1e-8)


@pytest.mark.parametrize("nu", [0.45, 0.65])
def test_nu_svm_solves_the_primal(nu):
    # the primal of the ν-SVM (with intercept) by SLSQP over (w, b, ρ, ξ): same w, b, ρ and value
    X, y = _overlapping(30, 2, 2)
    n, d = X.shape
    fit = svm.nu_svm_dual(X @ X.T, y, nu)
    w = X.T @ fit.dual_coef
    xi = np.maximum(0, fit.rho - y * (X @ w + fit.b))

    def objective(v):
        g = np.concatenate([v[:d], [0.0, -nu], np.full(n, 1 / n)])
        return 0.5 * v[:d] @ v[:d] - nu * v[d + 1] + v[d + 2:].mean(), g

    A = np.hstack([y[:, None] * X, y[:, None], -np.ones((n, 1)), np.eye(n)])   # A v ≥ 0
    res = scipy.optimize.minimize(objective, np.zeros(d + 2 + n), jac=True, method="SLSQP",
                                  bounds=[(None, None)] * (d + 1) + [(0, None)] * (n + 1),
                                  constraints=[{"type": "ineq", "fun": lambda v: A @ v, "jac": lambda v: A}],
                                  options={"ftol": 1e-15, "maxiter": 2000})
    dual_value = -0.5 * w @ w
    assert res.fun == pytest.approx(dual_value, abs=1e-8)              # no duality gap
    assert 0.5 * w @ w - nu * fit.rho + xi.mean() == pytest.approx(dual_value, abs=1e-12)
    np.testing.assert_allclose(res.x[:d + 2], np.r_[w, fit.b, fit.rho], atol=1e-5)


@pytest.mark.parametrize("n, d, seed", SIZES)
def test_nu_svm_and_c_svm_describe_the_same_solutions(n, d, seed):
    X, y = _overlapping(n, d, seed)
    K = X @ X.T
    soft = svm.svm_dual(K, y, 1.0)                 # C → ν
    nu = soft.alpha.sum() / n
    back = svm.nu_svm_dual(K, y, nu)
    np.testing.assert_allclose(np.r_[back.alpha, back.b, back.rho], np.r_[soft.alpha, soft.b, 1.0] / n,
                               atol=1e-5 / n)   # both solved to a gap of 1e-8
    fit = svm.nu_svm_dual(K, y, _odd_nu(0.6, n))   # ν → C
    c_fit = svm.svm_dual(K, y, 1 / (n * fit.rho))
    np.testing.assert_allclose(np.r_[fit.alpha, fit.b] / fit.rho, np.r_[c_fit.alpha, c_fit.b], atol=1e-6)


def test_nu_below_nu_min_gives_the_zero_classifier():
    X, y = _overlapping(60, 2, 0)
    n = 60
    lp = scipy.optimize.linprog(-np.ones(n), A_eq=np.vstack([X.T * y, y]), b_eq=np.zeros(3),
                                bounds=[(0, 1 / n)] * n, method="highs")
    nu_min = -lp.fun
    assert 0.05 < nu_min < 0.9
    for nu, zero in ((0.9 * nu_min, True), (nu_min + 0.05, False)):
        fit = svm.nu_svm_dual(X @ X.T, y, nu)
        w2 = fit.dual_coef @ (X @ X.T) @ fit.dual_coef
        assert (w2 <= 1e-12) == zero and (abs(fit.rho) <= 1e-6) == zero
    # with the Gaussian kernel every labelling is separable, so ν_min = 0
    assert svm.nu_svm_dual(rbf_kernel(X, gamma=1.0), y, 0.02).rho > 0


def test_nu_svm_stops_at_max_iter_and_reprs():
    X, y = _overlapping(40, 2, 3)
    fit = svm.nu_svm_dual(X @ X.T, y, 0.5, max_iter=3)
    assert not fit.converged and fit.n_iter == 3
    assert np.all((fit.alpha >= 0) & (fit.alpha <= 1 / 40)) and fit.alpha.sum() == pytest.approx(0.5)
    full = svm.nu_svm_dual(X @ X.T, y, 0.5)
    assert repr(full).startswith("NuSVMResult(n=40, n_support=") and "0x" not in repr(full)
    assert svm.nu_svm_dual(X @ X.T, y, 2 * min(np.sum(y == 1), np.sum(y == -1)) / 40).converged  # ν = ν_max


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(6, 40), q=st.floats(0.05, 1.0),
       fit_intercept=st.booleans())
def test_nu_svm_kkt_and_nu_property_on_random_problems(seed, n, q, fit_intercept):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1, -1)
    if np.all(y == y[0]):
        y[0] = -y[0]
    X = rng.standard_normal((n, 3)) + 0.7 * y[:, None]
    K = rbf_kernel(X, gamma=0.5)
    nu = q * (2 * min(np.sum(y == 1), np.sum(y == -1)) / n if fit_intercept else 1.0)
    fit = svm.nu_svm_dual(K, y, nu, fit_intercept=fit_intercept)
    assert fit.converged and fit.max_violation <= 1e-8
    assert fit.alpha.sum() == pytest.approx(nu, abs=1e-12)
    if fit_intercept:
        assert fit.alpha[y == 1].sum() == pytest.approx(nu / 2, abs=1e-12)
    assert np.all((fit.alpha >= 0) & (fit.alpha <= 1 / n))
    m = y * svm.svm_decision_function(fit, K)
    w2 = fit.dual_coef @ K @ fit.dual_coef
    xi = np.maximum(0, fit.rho - m)
    assert nu * fit.rho == pytest.approx(w2 + xi.mean(), abs=1e-7)  # the identity of the KKT proposition
    if fit.rho > 1e-6:
        p = svm.nu_property(fit.alpha, m, fit.rho)
        assert p.margin_errors <= p.at_bound <= nu + 1e-12 and nu <= p.support + 1e-12


@settings(max_examples=30, deadline=None)
@given(nu=st.one_of(st.floats(max_value=0.0), st.floats(1.0001, 100.0), st.just(np.nan),
                    st.just(np.inf), st.booleans(), st.text(max_size=3)))
def test_nu_svm_bad_nu_names_nu(nu):
    with pytest.raises(ValueError, match="nu must be"):
        svm.nu_svm_dual(_K, _Y, nu, fit_intercept=False)


def test_hinge_subgradient_descent_raises_when_it_diverges():
    X, y = _overlapping(30, 2, 0)
    with pytest.raises(ValueError, match="diverged.*smaller step"):
        svm.hinge_subgradient_descent(X, y, 1.0, step=1e6)


def test_results_and_flags_are_checked_by_name():
    with pytest.raises(ValueError, match="result must be a SVMResult or NuSVMResult"):
        svm.svm_decision_function(np.ones(6), _K)
    with pytest.raises(ValueError, match="fit_intercept must be True or False"):
        svm.hinge_subgradient_descent(_X, _Y, 0.1, fit_intercept=1)
    with pytest.raises(ValueError, match="K must be"):
        svm.svm_dual([[1.0, 0.0], [0.0]], [1, -1])
    with pytest.raises(ValueError, match="y must"):
        svm.svm_dual(np.eye(2), "ab")
