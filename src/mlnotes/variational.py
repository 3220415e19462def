"""Variational methods (chapter 21): the ELBO, mean-field coordinate ascent, score-function
and reparameterisation gradients, black-box VI, the sleep phase of wake-sleep, a linear
VAE, the importance-weighted bound, normalising flows and regressions on fantasies.

Conventions. The variational family is a diagonal Gaussian ``q = N(m, diag(s²))`` on
``R^d``; a draw is ``z = m + s ε`` with ``ε ~ N(0, I)``, and the functions take the
standard normal draws ``eps`` (shape ``(..., S, d)``: any leading batch axes, then ``S``
samples) so that several estimators can share the same random numbers. ``log_joint``
maps an array ``z`` of shape ``(..., d)`` to ``log p(x, z)`` of shape ``(...)``.
Logarithms are natural.
"""
import warnings
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import scipy.special

from mlnotes import _validate as check

__all__ = [
    "gaussian_entropy", "gaussian_kl", "elbo", "linear_regression_elbo", "cavi_linear_regression",
    "RegressionEMResult", "em_regression_v2", "em_regression_v3", "regression_v3_elbo", "cavi_regression_v3",
    "score_gradient", "reparam_gradient", "log_weights", "iwae_bound", "bbvi_gaussian",
    "sleep_gradient", "sleep_phase", "linear_vae_elbo", "planar_flow", "radial_flow",
    "fantasy_regression",
]


def _scales(s, d, name):
    """``s`` (a number or shape (d,); ``d=None``: any length) as positive standard deviations."""
    return check.positive_entries(check.vector(np.atleast_1d(check.as_float(s, name)), d, name), name)


def _gaussian(m, s, eps):
    """Validate ``m``, ``s`` (shape (d,), scalars allowed) and ``eps`` (shape (..., S, d))."""
    m = check.vector(np.atleast_1d(check.as_float(m, "m")), None, "m")
    s = _scales(s, m.shape[0], "s")
    eps = check.finite(eps, "eps")
    if eps.ndim < 2 or eps.shape[-1] != m.shape[0] or eps.shape[-2] == 0:
        raise ValueError(f"eps must have shape (..., S, {m.shape[0]}) with S >= 1, got {eps.shape}")
    return m, s, eps


def _call(fn, z, name, shape):
    """``fn(z)``, checked to be finite and of ``shape``; ``ValueError`` naming ``name`` otherwise."""
    return check.returned(check.function(fn, name)(z), name, shape)


@contextmanager
def _diverging(t):
    """Step ``t`` of an iteration: floating-point warnings are silenced (:func:`_converging`
    reports overflow), and a ``ValueError`` after step 0 says that the iterates diverged."""
    try:
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):
            yield
    except ValueError as err:
        if t == 0:
            raise
        raise ValueError(f"{err}, at step {t}: the iterates diverged; use a smaller lr") from None


def _converging(t, **iterates):
    """``ValueError`` saying that the iterates diverged at step ``t`` if one of them is not
    finite, or a standard deviation ``s`` is no longer positive (overflow or underflow)."""
    for name, value in iterates.items():
        if not np.all(np.isfinite(value)) or (name == "s" and np.any(value <= 0)):
            what = "finite and positive" if name == "s" else "finite"
            raise ValueError(f"the iterates diverged at step {t} ({name} is no longer {what}): use a smaller lr")


def gaussian_entropy(s):
    """Entropy ``Σ_j ½ log(2πe s_j²)`` of ``N(m, diag(s²))`` in nats.

    Parameters
    ----------
    s : float or array_like, shape (d,)
        Standard deviations (positive).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``s`` is not finite and positive.
    """
    s = _scales(s, None, "s")
    return float(np.sum(0.5 * np.log(2 * np.pi * np.e * s**2)))


def gaussian_kl(m1, S1, m2, S2):
    """``KL(N(m1, S1) ‖ N(m2, S2))`` in nats.

    ``½ [tr(S2⁻¹ S1) + (m2 - m1)ᵀ S2⁻¹ (m2 - m1) - d + log det S2 - log det S1]``.

    Parameters
    ----------
    m1, m2 : array_like, shape (d,)
        Means.
    S1, S2 : array_like, shape (d, d)
        Covariances (symmetric positive definite).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite or a covariance is not positive definite.
    """
    m1 = check.vector(m1, None, "m1")
    d = m1.shape[0]
    m2 = check.vector(m2, d, "m2")
    (S1, L1), (S2, L2) = check.spd(S1, d, "S1"), check.spd(S2, d, "S2")
    A = np.linalg.solve(L2, L1)                     # tr(S2⁻¹ S1) = ‖L2⁻¹ L1‖²_F
    u = np.linalg.solve(L2, m2 - m1)
    log_det = 2 * np.sum(np.log(np.diag(L2))) - 2 * np.sum(np.log(np.diag(L1)))
    return float(0.5 * (np.sum(A**2) + u @ u - d + log_det))


def elbo(log_joint, m, s, eps):
    """Monte Carlo ELBO ``mean_s log p(x, m + s ε_s) + H[q]`` for ``q = N(m, diag(s²))``.

    The entropy of the Gaussian is used in closed form; only ``E_q log p(x, z)`` is sampled.

    Parameters
    ----------
    log_joint : callable
        ``z`` of shape (..., d) ↦ ``log p(x, z)`` of shape (...).
    m, s : float or array_like, shape (d,)
        Mean and standard deviations (positive) of ``q``.
    eps : array_like, shape (..., S, d)
        Standard normal draws.

    Returns
    -------
    ndarray, shape (...)
        One estimate per leading index (a 0-d array when ``eps`` is (S, d)).

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``s`` is not positive, or
        ``log_joint`` does not return finite values of shape (..., S).
    """
    m, s, eps = _gaussian(m, s, eps)
    return _call(log_joint, m + s * eps, "log_joint", eps.shape[:-1]).mean(axis=-1) + gaussian_entropy(s)


def _regression_inputs(X, y, lam, a, b):
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    return X, y, check.positive(lam, "lam"), check.positive(a, "a"), check.positive(b, "b")


def _regression_elbo(X, y, lam, a, b, mu, Sigma, log_det_Sigma, shape, rate):
    N, d = X.shape
    e_alpha, e_log_alpha = shape / rate, scipy.special.digamma(shape) - np.log(rate)
    r = y - X @ mu
    e_sq = r @ r + np.sum((X @ Sigma) * X)               # E_q ‖y - Xw‖²
    return float(N / 2 * (e_log_alpha - np.log(2 * np.pi)) - e_alpha / 2 * e_sq          # E log p(y|w,α)
                 + d / 2 * np.log(lam / (2 * np.pi)) - lam / 2 * (mu @ mu + np.trace(Sigma))  # E log p(w)
                 + a * np.log(b) - scipy.special.gammaln(a) + (a - 1) * e_log_alpha - b * e_alpha
                 + 0.5 * (d * np.log(2 * np.pi * np.e) + log_det_Sigma)                  # H[q(w)]
                 + shape - np.log(rate) + scipy.special.gammaln(shape)
                 + (1 - shape) * scipy.special.digamma(shape))                          # H[q(α)]


def linear_regression_elbo(X, y, lam, a, b, mu, Sigma, shape, rate):
    """ELBO of Bayesian linear regression with unknown noise precision, for ``q(w) q(α)``.

    Model: ``y_i | w, α ~ N(x_iᵀw, 1/α)``, ``w ~ N(0, I/λ)``, ``α ~ Gamma(a, b)`` (shape
    ``a``, rate ``b``); ``q(w) = N(mu, Sigma)`` and ``q(α) = Gamma(shape, rate)``. Every
    expectation is in closed form (``E log α = ψ(shape) - log rate``).

    Parameters
    ----------
    X : array_like, shape (N, d)
    y : array_like, shape (N,)
    lam, a, b : float
        Prior precision of ``w`` and the Gamma prior of ``α`` (all positive).
    mu : array_like, shape (d,)
    Sigma : array_like, shape (d, d)
        Symmetric positive definite.
    shape, rate : float
        Parameters of ``q(α)`` (positive).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If an argument has the wrong shape, is not finite, or is not positive
        (``Sigma`` positive definite).
    """
    X, y, lam, a, b = _regression_inputs(X, y, lam, a, b)
    mu = check.vector(mu, X.shape[1], "mu")
    Sigma, L = check.spd(Sigma, X.shape[1], "Sigma")
    shape, rate = check.positive(shape, "shape"), check.positive(rate, "rate")
    return _regression_elbo(X, y, lam, a, b, mu, Sigma, 2 * np.sum(np.log(np.diag(L))), shape, rate)


def cavi_linear_regression(X, y, lam, a, b, n_iter=50):
    """Mean-field coordinate ascent (CAVI) for linear regression with unknown noise precision.

    The model of :func:`linear_regression_elbo`. Starting from ``q(α)`` equal to the prior,
    each sweep sets ``log q(w) = E_α log p + const`` and then ``log q(α) = E_w log p + const``:
    ``Σ = (λ I + E[α] XᵀX)⁻¹``, ``μ = E[α] Σ Xᵀy``; ``a_N = a + N/2``,
    ``b_N = b + ½ (‖y - Xμ‖² + tr(XᵀX Σ))``.

    Parameters
    ----------
    X, y, lam, a, b
        As in :func:`linear_regression_elbo`.
    n_iter : int
        Number of sweeps (at least 1).

    Returns
    -------
    mu : ndarray, shape (d,)
    Sigma : ndarray, shape (d, d)
    shape, rate : float
        The final factors.
    elbo : ndarray, shape (2 n_iter,)
        The ELBO after every factor update (w, then α, in each sweep).

    Raises
    ------
    ValueError
        If an argument is invalid, or the computation overflows to NaN.
    """
    X, y, lam, a, b = _regression_inputs(X, y, lam, a, b)
    n_iter = check.count(n_iter, "n_iter")
    (N, d), XtX, Xty = X.shape, X.T @ X, X.T @ y
    shape, rate, elbos = a, b, []
    for _ in range(n_iter):
        Sigma = np.linalg.inv(lam * np.eye(d) + shape / rate * XtX)          # update q(w)
        mu, log_det = shape / rate * Sigma @ Xty, np.linalg.slogdet(Sigma)[1]
        elbos.append(_regression_elbo(X, y, lam, a, b, mu, Sigma, log_det, shape, rate))
        r = y - X @ mu                                                      # update q(α)
        shape, rate = a + N / 2, b + 0.5 * (r @ r + np.sum(XtX * Sigma))
        elbos.append(_regression_elbo(X, y, lam, a, b, mu, Sigma, log_det, shape, rate))
    return mu, Sigma, shape, rate, check.no_nan_result(np.array(elbos), "X and y")


# ------------------------------------------------- models V2 and V3 of the Hub: EM and VI

@dataclass(frozen=True, repr=False)
class RegressionEMResult:
    """Outcome of EM for the MAP weights of Bayesian linear regression with integrated precisions.

    Attributes
    ----------
    w : ndarray, shape (d,)
        The final weights.
    e_alpha, e_lambda : float
        ``E[α]`` and ``E[λ]`` under the final E-step's ``q`` (``e_lambda`` is the fixed ``λ``
        of model V2).
    objective : ndarray, shape (n_iter + 1,)
        ``log p(y, w | X)`` (the precisions integrated out) at ``w0`` and after each EM step.
    n_iter : int
    converged : bool
        Whether a step raised the objective by less than ``tol``.
    """

    w: np.ndarray
    e_alpha: float
    e_lambda: float
    objective: np.ndarray
    n_iter: int
    converged: bool

    def __repr__(self):
        return (f"RegressionEMResult(d={self.w.size}, objective={self.objective[-1]:.6g}, "
                f"n_iter={self.n_iter}, converged={self.converged})")


def _log_student(sq, k, a, b):
    """``log ∫ N(v | 0, I/τ) Gamma(τ | a, b) dτ`` for a ``k``-vector ``v`` with ``‖v‖² = sq``."""
    return float(a * np.log(b) - scipy.special.gammaln(a) + scipy.special.gammaln(a + k / 2)
                 - (a + k / 2) * np.log(b + sq / 2) - k / 2 * np.log(2 * np.pi))


def _em_regression(X, y, a, b, lam, ef, w0, max_iter, tol, what):
    """Shared EM loop of models V2 (``ef`` None, fixed ``lam``) and V3 (``ef = (e, f)``)."""
    (N, d) = X.shape
    w = np.zeros(d) if w0 is None else check.vector(w0, d, "w0")
    max_iter, tol = check.count(max_iter, "max_iter"), check.nonnegative(tol, "tol")

    def objective(w):
        r = y - X @ w
        prior = (d / 2 * np.log(lam / (2 * np.pi)) - lam / 2 * (w @ w) if ef is None
                 else _log_student(w @ w, d, *ef))
        return _log_student(r @ r, N, a, b) + prior

    with np.errstate(over="ignore", invalid="ignore"):
        history, converged = [objective(w)], False
    if not np.isfinite(history[0]):
        raise ValueError(f"{what}: the objective at w0 is not finite (X and y overflow)")
    for n_iter in range(1, max_iter + 1):
        r = y - X @ w                                                        # E-step: q(α), q(λ)
        e_alpha = (a + N / 2) / (b + (r @ r) / 2)
        e_lambda = lam if ef is None else (ef[0] + d / 2) / (ef[1] + (w @ w) / 2)
        A = np.vstack([np.sqrt(e_alpha) * X, np.sqrt(e_lambda) * np.eye(d)])   # M-step: ridge by lstsq
        w = np.linalg.lstsq(A, np.r_[np.sqrt(e_alpha) * y, np.zeros(d)], rcond=None)[0]
        history.append(objective(w))
        if not np.isfinite(history[-1]):
            raise ValueError(f"{what}: the objective is not finite after step {n_iter} (X and y overflow)")
        if tol > 0 and history[-1] - history[-2] < tol:
            converged = True
            break
    if tol > 0 and not converged:
        warnings.warn(f"{what} did not converge in max_iter={max_iter} steps; the result is the last "
                      "iterate (converged=False)", RuntimeWarning, stacklevel=3)
    r = y - X @ w
    e_alpha = (a + N / 2) / (b + (r @ r) / 2)
    e_lambda = lam if ef is None else (ef[0] + d / 2) / (ef[1] + (w @ w) / 2)
    return RegressionEMResult(w, float(e_alpha), float(e_lambda), np.array(history), n_iter, converged)


def em_regression_v2(X, y, lam, a, b, w0=None, max_iter=1000, tol=1e-12):
    """EM for the MAP weights of model V2: the noise precision ``α`` is integrated out.

    Model: ``y_i | w, α ~ N(x_iᵀw, 1/α)``, ``w ~ N(0, I/λ)`` (``λ`` fixed), ``α ~ Gamma(a, b)``.
    EM maximises ``log p(y, w | X) = log p(w) + log ∫ p(y | w, α) p(α) dα`` over ``w``. E-step:
    ``q(α) = p(α | y, w) = Gamma(a + N/2, b + ‖y - Xw‖²/2)``; M-step: the ridge solution
    ``w = (λ I + E[α] XᵀX)⁻¹ E[α] Xᵀy`` (solved by least squares on the stacked system).

    Parameters
    ----------
    X : array_like, shape (N, d)
    y : array_like, shape (N,)
    lam, a, b : float
        Prior precision of ``w`` and the Gamma prior (shape, rate) of ``α``; positive.
    w0 : array_like, shape (d,), optional
        Starting weights (default 0).
    max_iter : int
        Maximum number of EM steps (>= 1).
    tol : float
        Stop when a step raises ``log p(y, w | X)`` by less than ``tol`` (>= 0; 0 runs all steps).

    Returns
    -------
    RegressionEMResult
        With ``objective`` the exact ``log p(y, w | X)`` (a Student-t term in closed form).

    Raises
    ------
    ValueError
        If an argument has the wrong shape, is not finite or not positive, or the objective
        overflows. Warns (``RuntimeWarning``, ``converged=False``) if ``tol > 0`` is not met.
    """
    X, y, lam, a, b = _regression_inputs(X, y, lam, a, b)
    return _em_regression(X, y, a, b, lam, None, w0, max_iter, tol, "em_regression_v2")


def em_regression_v3(X, y, a, b, e, f, w0=None, max_iter=1000, tol=1e-12):
    """EM for the MAP weights of model V3: both precisions ``α`` and ``λ`` are integrated out.

    Model: ``y_i | w, α ~ N(x_iᵀw, 1/α)``, ``w | λ ~ N(0, I/λ)``, ``α ~ Gamma(a, b)``,
    ``λ ~ Gamma(e, f)``. Given ``w`` the two precisions are independent, so the E-step is
    ``q(α) q(λ)`` with ``q(α) = Gamma(a + N/2, b + ‖y - Xw‖²/2)`` and
    ``q(λ) = Gamma(e + d/2, f + ‖w‖²/2)``; M-step ``w = (E[λ] I + E[α] XᵀX)⁻¹ E[α] Xᵀy``.

    Parameters
    ----------
    X : array_like, shape (N, d)
    y : array_like, shape (N,)
    a, b, e, f : float
        Gamma priors (shape, rate) of ``α`` and of ``λ``; positive.
    w0, max_iter, tol
        As in :func:`em_regression_v2`.

    Returns
    -------
    RegressionEMResult
        With ``objective`` the exact ``log p(y, w | X)`` (two Student-t terms).

    Raises
    ------
    ValueError
        As for :func:`em_regression_v2`.
    """
    X, y, _, a, b = _regression_inputs(X, y, 1.0, a, b)
    e, f = check.positive(e, "e"), check.positive(f, "f")
    return _em_regression(X, y, a, b, None, (e, f), w0, max_iter, tol, "em_regression_v3")


def _gamma_terms(prior_shape, prior_rate, shape, rate):
    """``E log Gamma(τ | prior) + H[Gamma(shape, rate)]`` and ``E ln τ`` under ``q = Gamma(shape, rate)``."""
    e_log = scipy.special.digamma(shape) - np.log(rate)
    value = (prior_shape * np.log(prior_rate) - scipy.special.gammaln(prior_shape) + (prior_shape - 1) * e_log
             - prior_rate * shape / rate
             + shape - np.log(rate) + scipy.special.gammaln(shape) + (1 - shape) * scipy.special.digamma(shape))
    return value, e_log


def _v3_elbo(X, y, a, b, e, f, mu, Sigma, log_det_Sigma, qa, qb, qe, qf):
    N, d = X.shape
    ga, e_log_alpha = _gamma_terms(a, b, qa, qb)
    gl, e_log_lam = _gamma_terms(e, f, qe, qf)
    r = y - X @ mu
    e_sq = r @ r + np.sum((X @ Sigma) * X)                      # E_q ‖y - Xw‖²
    return float(N / 2 * (e_log_alpha - np.log(2 * np.pi)) - qa / qb / 2 * e_sq       # E log p(y | w, α)
                 + d / 2 * (e_log_lam - np.log(2 * np.pi)) - qe / qf / 2 * (mu @ mu + np.trace(Sigma))
                 + ga + gl + 0.5 * (d * np.log(2 * np.pi * np.e) + log_det_Sigma))


def regression_v3_elbo(X, y, a, b, e, f, mu, Sigma, q_alpha, q_lambda):
    """ELBO of model V3 (see :func:`em_regression_v3`) for ``q(w) q(α) q(λ)``, in closed form.

    ``q(w) = N(mu, Sigma)``, ``q(α) = Gamma(*q_alpha)``, ``q(λ) = Gamma(*q_lambda)`` (shape,
    rate); ``E ln τ = ψ(shape) - ln rate`` for a Gamma factor.

    Parameters
    ----------
    X : array_like, shape (N, d)
    y : array_like, shape (N,)
    a, b, e, f : float
        The Gamma priors of ``α`` and ``λ`` (positive).
    mu : array_like, shape (d,)
    Sigma : array_like, shape (d, d)
        Symmetric positive definite.
    q_alpha, q_lambda : pair of float
        (shape, rate) of ``q(α)`` and ``q(λ)``, positive.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If an argument has the wrong shape, is not finite or not positive (``Sigma``
        positive definite).
    """
    X, y, _, a, b = _regression_inputs(X, y, 1.0, a, b)
    e, f = check.positive(e, "e"), check.positive(f, "f")
    mu = check.vector(mu, X.shape[1], "mu")
    Sigma, L = check.spd(Sigma, X.shape[1], "Sigma")
    qa, qb = (check.positive(v, "q_alpha") for v in check.vector(q_alpha, 2, "q_alpha"))
    qe, qf = (check.positive(v, "q_lambda") for v in check.vector(q_lambda, 2, "q_lambda"))
    with np.errstate(over="ignore", invalid="ignore"):
        value = _v3_elbo(X, y, a, b, e, f, mu, Sigma, 2 * np.sum(np.log(np.diag(L))), qa, qb, qe, qf)
    return check.finite_result(value, "X, y and mu")


def cavi_regression_v3(X, y, a, b, e, f, n_iter=50):
    """Mean-field coordinate ascent for model V3: ``q(w) q(α) q(λ)``.

    Starting from ``q(α)`` and ``q(λ)`` equal to their priors, each sweep updates
    ``q(w) = N(μ, Σ)`` with ``Σ = (E[λ] I + E[α] XᵀX)⁻¹``, ``μ = E[α] Σ Xᵀy``; then
    ``q(α) = Gamma(a + N/2, b + ½(‖y - Xμ‖² + tr(XᵀX Σ)))``; then
    ``q(λ) = Gamma(e + d/2, f + ½(‖μ‖² + tr Σ))``.

    Parameters
    ----------
    X, y, a, b, e, f
        As in :func:`regression_v3_elbo`.
    n_iter : int
        Number of sweeps (at least 1).

    Returns
    -------
    mu : ndarray, shape (d,)
    Sigma : ndarray, shape (d, d)
    q_alpha, q_lambda : tuple of float
        (shape, rate) of the final Gamma factors.
    elbo : ndarray, shape (3 n_iter,)
        The ELBO after every factor update (w, α, λ in each sweep).

    Raises
    ------
    ValueError
        If an argument is invalid, or the computation overflows.
    """
    X, y, _, a, b = _regression_inputs(X, y, 1.0, a, b)
    e, f = check.positive(e, "e"), check.positive(f, "f")
    n_iter = check.count(n_iter, "n_iter")
    qa, qb, qe, qf, elbos = a, b, e, f, []
    with np.errstate(over="ignore", invalid="ignore"):
        (N, d), XtX, Xty = X.shape, X.T @ X, X.T @ y
        for _ in range(n_iter):
            Sigma = np.linalg.inv(qe / qf * np.eye(d) + qa / qb * XtX)           # q(w)
            mu, log_det = qa / qb * Sigma @ Xty, np.linalg.slogdet(Sigma)[1]
            elbos.append(_v3_elbo(X, y, a, b, e, f, mu, Sigma, log_det, qa, qb, qe, qf))
            r = y - X @ mu                                                      # q(α)
            qa, qb = a + N / 2, b + 0.5 * (r @ r + np.sum(XtX * Sigma))
            elbos.append(_v3_elbo(X, y, a, b, e, f, mu, Sigma, log_det, qa, qb, qe, qf))
            qe, qf = e + d / 2, f + 0.5 * (mu @ mu + np.trace(Sigma))          # q(λ)
            elbos.append(_v3_elbo(X, y, a, b, e, f, mu, Sigma, log_det, qa, qb, qe, qf))
    return mu, Sigma, (qa, qb), (qe, qf), check.finite_result(np.array(elbos), "X and y")


def score_gradient(log_joint, m, s, eps):
    """Score-function estimate of ``∇_{m,s} ELBO``: ``mean_s ∇ log q(z_s) [log p(x, z_s) - log q(z_s)]``.

    For ``q = N(m, diag(s²))`` the scores are ``∇_m log q = ε/s`` and
    ``∇_s log q = (ε² - 1)/s``. Only values of ``log p`` are needed.

    Parameters
    ----------
    log_joint : callable
        ``z`` of shape (..., d) ↦ ``log p(x, z)`` of shape (...).
    m, s : float or array_like, shape (d,)
        Mean and standard deviations (positive) of ``q``.
    eps : array_like, shape (..., S, d)
        Standard normal draws; ``z = m + s ε``.

    Returns
    -------
    ndarray, shape (..., 2, d)
        ``[..., 0, :]`` estimates ``∇_m``, ``[..., 1, :]`` estimates ``∇_s``.

    Raises
    ------
    ValueError
        As :func:`elbo`.
    """
    m, s, eps = _gaussian(m, s, eps)
    z = m + s * eps
    log_q = np.sum(-0.5 * eps**2 - np.log(s) - 0.5 * np.log(2 * np.pi), axis=-1)
    weight = (_call(log_joint, z, "log_joint", eps.shape[:-1]) - log_q)[..., None]
    grad_m = np.mean(eps / s * weight, axis=-2)
    grad_s = np.mean((eps**2 - 1) / s * weight, axis=-2)
    return np.stack([grad_m, grad_s], axis=-2)


def reparam_gradient(grad_log_joint, m, s, eps):
    """Reparameterisation estimate of ``∇_{m,s} ELBO`` through ``z = m + s ε``.

    ``∇_m = mean_s g(z_s)`` and ``∇_s = mean_s ε_s g(z_s) + 1/s``, where
    ``g = ∇_z log p(x, z)`` and ``1/s`` is the exact gradient of the entropy.

    Parameters
    ----------
    grad_log_joint : callable
        ``z`` of shape (..., d) ↦ ``∇_z log p(x, z)`` of the same shape.
    m, s : float or array_like, shape (d,)
        Mean and standard deviations (positive) of ``q``.
    eps : array_like, shape (..., S, d)
        Standard normal draws.

    Returns
    -------
    ndarray, shape (..., 2, d)
        ``[..., 0, :]`` estimates ``∇_m``, ``[..., 1, :]`` estimates ``∇_s``.

    Raises
    ------
    ValueError
        As :func:`elbo`, with ``grad_log_joint`` returning the shape of ``z``.
    """
    m, s, eps = _gaussian(m, s, eps)
    g = _call(grad_log_joint, m + s * eps, "grad_log_joint", eps.shape)
    return np.stack([g.mean(axis=-2), (eps * g).mean(axis=-2) + 1 / s], axis=-2)


def log_weights(log_joint, m, s, eps):
    """Log importance weights ``log p(x, z) - log q(z)`` at ``z = m + s ε`` (shape ``eps.shape[:-1]``).

    Parameters
    ----------
    log_joint : callable
        ``z`` of shape (..., d) ↦ ``log p(x, z)`` of shape (...).
    m, s : float or array_like, shape (d,)
        Mean and standard deviations (positive) of ``q``.
    eps : array_like, shape (..., K, d)
        Standard normal draws.

    Returns
    -------
    ndarray, shape (..., K)

    Raises
    ------
    ValueError
        As :func:`elbo`.
    """
    m, s, eps = _gaussian(m, s, eps)
    log_q = np.sum(-0.5 * eps**2 - np.log(s) - 0.5 * np.log(2 * np.pi), axis=-1)
    return _call(log_joint, m + s * eps, "log_joint", eps.shape[:-1]) - log_q


def iwae_bound(log_w):
    """Importance-weighted estimate ``log (1/K) Σ_k w_k`` along the last axis (log-sum-exp).

    Its expectation over ``K`` independent draws from ``q`` is the IWAE bound ``L_K``;
    ``L_1`` is the ELBO and ``L_K ≤ L_{2K} ≤ log p(x)``. Average the rows for a Monte
    Carlo estimate of ``L_K``.

    Parameters
    ----------
    log_w : array_like, shape (..., K)
        Log importance weights (see :func:`log_weights`).

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        If ``log_w`` is not finite or has no samples along the last axis.
    """
    log_w = check.finite(log_w, "log_w")
    if log_w.ndim == 0 or log_w.shape[-1] == 0:
        raise ValueError(f"log_w must have at least one sample along its last axis, got {log_w.shape}")
    top = log_w.max(axis=-1, keepdims=True)
    return np.log(np.mean(np.exp(log_w - top), axis=-1)) + top[..., 0]


def bbvi_gaussian(grad_log_joint, m0, s0, n_iter, n_samples, rng, lr=0.1):
    """Black-box VI: stochastic gradient ascent on the ELBO for ``q = N(m, diag(s²))``.

    Each step draws ``n_samples`` values of ``ε``, forms :func:`reparam_gradient`, and
    updates ``m`` and ``log s`` with the Robbins–Monro step ``lr / (1 + t)^0.6``
    (``Σ η_t = ∞``, ``Σ η_t² < ∞``); the gradient in ``log s`` is ``s ∇_s``.

    Parameters
    ----------
    grad_log_joint : callable
        ``z`` of shape (..., d) ↦ ``∇_z log p(x, z)``.
    m0, s0 : float or array_like, shape (d,)
        Starting mean and standard deviations (positive).
    n_iter, n_samples : int
        Number of steps and Monte Carlo samples per step (at least 1).
    rng : numpy.random.Generator
        Source of the draws.
    lr : float, optional
        Initial step size (positive).

    Returns
    -------
    m_path, s_path : ndarray, shape (n_iter + 1, d)
        The iterates, starting with ``m0`` and ``s0``.

    Raises
    ------
    ValueError
        If an argument is invalid, ``grad_log_joint`` returns non-finite values or the wrong
        shape, or the iterates diverge (overflow of ``m`` or ``s``: use a smaller ``lr``).
    """
    grad_log_joint = check.function(grad_log_joint, "grad_log_joint")
    m = check.vector(np.atleast_1d(check.as_float(m0, "m0")), None, "m0")
    s = _scales(s0, m.shape[0], "s0")
    n_iter, n_samples = check.count(n_iter, "n_iter"), check.count(n_samples, "n_samples")
    rng, lr = check.generator(rng), check.positive(lr, "lr")
    m_path, s_path = [m], [s]
    for t in range(n_iter):
        with _diverging(t):
            g = reparam_gradient(grad_log_joint, m, s, rng.standard_normal((n_samples, m.shape[0])))
            step = lr / (1 + t) ** 0.6
            m = m + step * g[0]
            s = s * np.exp(step * s * g[1])
        _converging(t + 1, m=m, s=s)
        m_path.append(m)
        s_path.append(s)
    return np.array(m_path), np.array(s_path)


def _recognition(V, c, k_name="c"):
    V = check.matrix(V, "V")
    return V, check.vector(c, V.shape[0], k_name)


def sleep_gradient(V, c, log_s, X, Z):
    """Sleep-phase objective ``(1/S) Σ_s log q(z_s | x_s)`` and its gradient, ``q(z|x) = N(Vx + c, diag(s²))``.

    With ``e_s = z_s - V x_s - c``: ``∂/∂V = mean_s (e_s/s²) x_sᵀ``, ``∂/∂c = mean_s e_s/s²``
    and ``∂/∂log s = mean_s e_s²/s² - 1`` (elementwise), the delta rule of wake-sleep.

    Parameters
    ----------
    V : array_like, shape (k, D)
    c, log_s : array_like, shape (k,)
    X : array_like, shape (S, D)
        Fantasy observations.
    Z : array_like, shape (S, k)
        The latents that generated them.

    Returns
    -------
    value : float
    dV : ndarray, shape (k, D)
    dc, dlog_s : ndarray, shape (k,)

    Raises
    ------
    ValueError
        If a shape is wrong or a value is not finite.
    """
    V, c = _recognition(V, c)
    k, D = V.shape
    log_s = check.vector(log_s, k, "log_s")
    X, Z = check.matrix(X, "X"), check.matrix(Z, "Z")
    if X.shape[1] != D or Z.shape != (X.shape[0], k):
        raise ValueError(f"X must have shape (S, {D}) and Z shape (S, {k}), got {X.shape} and {Z.shape}")
    s2 = np.exp(2 * log_s)
    e = Z - X @ V.T - c
    value = -0.5 * np.mean(np.sum(e**2 / s2 + np.log(2 * np.pi * s2), axis=1))
    g = e / s2
    return float(value), g.T @ X / len(X), g.mean(axis=0), np.mean(e**2 / s2, axis=0) - 1


def sleep_phase(W, mu, sigma, V, c, s, n_steps, batch, rng, lr=0.05):
    """The sleep phase of wake-sleep for a linear-Gaussian generative model, with its parameters fixed.

    Each step draws ``batch`` fantasies ``z ~ N(0, I)``, ``x = W z + mu + σ ε`` and takes a
    gradient-ascent step of size ``lr`` on :func:`sleep_gradient` in ``(V, c, log s)``.

    Parameters
    ----------
    W : array_like, shape (D, k)
    mu : array_like, shape (D,)
    sigma : float
        Generative model (``sigma`` positive).
    V : array_like, shape (k, D)
    c, s : array_like, shape (k,)
        Starting recognition model ``q(z|x) = N(Vx + c, diag(s²))`` (``s`` positive).
    n_steps, batch : int
        Number of steps and fantasies per step (at least 1).
    rng : numpy.random.Generator
    lr : float, optional
        Step size (positive).

    Returns
    -------
    V_path : ndarray, shape (n_steps + 1, k, D)
    c_path, s_path : ndarray, shape (n_steps + 1, k)

    Raises
    ------
    ValueError
        If an argument is invalid, or the iterates diverge (``V``, ``c`` or ``s`` overflows:
        use a smaller ``lr``).
    """
    W = check.matrix(W, "W")
    D, k = W.shape
    mu, sigma = check.vector(mu, D, "mu"), check.positive(sigma, "sigma")
    V, c = _recognition(V, c)
    if V.shape != (k, D):
        raise ValueError(f"V must have shape ({k}, {D}), got {V.shape}")
    s = check.positive_entries(check.vector(s, k, "s"), "s")
    n_steps, batch = check.count(n_steps, "n_steps"), check.count(batch, "batch")
    rng, lr = check.generator(rng), check.positive(lr, "lr")
    log_s, path = np.log(s), [(V, c, s)]
    for t in range(n_steps):
        Z = rng.standard_normal((batch, k))
        X = Z @ W.T + mu + sigma * rng.standard_normal((batch, D))
        with _diverging(t):
            _, dV, dc, dlog_s = sleep_gradient(V, c, log_s, X, Z)
            V, c, log_s = V + lr * dV, c + lr * dc, log_s + lr * dlog_s
            s = np.exp(log_s)
        _converging(t + 1, V=V, c=c, s=s)
        path.append((V, c, s))
    return tuple(np.array(p) for p in zip(*path))


def linear_vae_elbo(X, W, b, psi, V, c, L):
    """Average ELBO of a linear VAE and its gradient in every parameter.

    Decoder ``x | z ~ N(W z + b, ψ I)``, prior ``z ~ N(0, I)``, encoder
    ``q(z | x) = N(V x + c, S)`` with ``S = L Lᵀ`` (``L`` lower triangular). With
    ``m_i = V x_i + c`` and ``r_i = x_i - W m_i - b``, the expectations are exact:
    ``F = (1/n) Σ_i [-D/2 log(2πψ) - (‖r_i‖² + tr(W S Wᵀ))/(2ψ) - ½(tr S + ‖m_i‖² - k - log det S)]``.

    Parameters
    ----------
    X : array_like, shape (n, D)
    W : array_like, shape (D, k)
    b : array_like, shape (D,)
    psi : float
        Decoder noise variance (positive).
    V : array_like, shape (k, D)
    c : array_like, shape (k,)
    L : array_like, shape (k, k)
        Lower triangular with non-zero diagonal.

    Returns
    -------
    F : float
    grads : tuple of ndarray
        ``(dW, db, dpsi, dV, dc, dL)``, the gradient of ``F`` (``dL`` lower triangular).

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``psi`` is not positive or ``L`` is not
        lower triangular with a non-zero diagonal, or the computation overflows to NaN.
    """
    X, W = check.matrix(X), check.matrix(W, "W")
    (n, D), k = X.shape, W.shape[1]
    if W.shape[0] != D:
        raise ValueError(f"W must have {D} rows, got shape {W.shape}")
    b, psi = check.vector(b, D, "b"), check.positive(psi, "psi")
    V, c = _recognition(V, c)
    L = check.square(L, "L")
    if V.shape != (k, D) or L.shape != (k, k):
        raise ValueError(f"V must have shape ({k}, {D}) and L shape ({k}, {k}), got {V.shape} and {L.shape}")
    if np.any(np.triu(L, 1)) or np.any(np.diag(L) == 0):
        raise ValueError("L must be lower triangular with a non-zero diagonal")
    S = L @ L.T
    M = X @ V.T + c                                   # encoder means m_i
    R = X - M @ W.T - b                               # residuals r_i
    E = np.sum(R**2) / n + np.sum((W @ L) ** 2)       # mean E_q ‖x - W z - b‖²
    F = (-D / 2 * np.log(2 * np.pi * psi) - E / (2 * psi)
         - 0.5 * (np.trace(S) + np.sum(M**2) / n - k - 2 * np.sum(np.log(np.abs(np.diag(L))))))
    G = R @ W / psi - M                               # ∂F/∂m_i (times n)
    dS = -W.T @ W / (2 * psi) - 0.5 * np.eye(k) + 0.5 * np.linalg.inv(S)
    grads = (R.T @ M / (n * psi) - W @ S / psi, R.mean(axis=0) / psi,
             -D / (2 * psi) + E / (2 * psi**2), G.T @ X / n, G.mean(axis=0), np.tril(2 * dS @ L))
    check.no_nan_result(np.concatenate([np.ravel(g) for g in (F,) + grads]), "X, W, b, V, c and L")
    return float(F), grads


def _points(z, d=None):
    """``z`` as a finite array of shape (..., d) with d >= 1."""
    z = check.finite(z, "z")
    if z.ndim == 0 or z.shape[-1] == 0 or (d is not None and z.shape[-1] != d):
        raise ValueError(f"z must have shape (..., {d if d is not None else 'd'}), got {z.shape}")
    return z


def _softplus(a):
    return np.logaddexp(0.0, a)


def planar_flow(z, u, w, b):
    """Planar flow ``f(z) = z + û tanh(wᵀz + b)`` and ``log|det ∂f/∂z| = log|1 + ûᵀψ(z)|``.

    ``ψ(z) = (1 - tanh²(wᵀz + b)) w``. To keep ``f`` invertible, ``u`` is replaced by
    ``û = u + (-1 + softplus(wᵀu) - wᵀu) w / ‖w‖²``, so that ``wᵀû = -1 + softplus(wᵀu) > -1``
    (Rezende and Mohamed, 2015, appendix A).

    Parameters
    ----------
    z : array_like, shape (..., d)
        Points.
    u, w : array_like, shape (d,)
        Flow parameters (``w`` non-zero).
    b : float
        Offset.

    Returns
    -------
    fz : ndarray, shape (..., d)
    log_det : ndarray, shape (...)

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite or ``w`` is zero.
    """
    z = _points(z)
    u, w = check.vector(u, z.shape[-1], "u"), check.vector(w, z.shape[-1], "w")
    b = check.number(b, "b")
    if not np.any(w):
        raise ValueError("w must be non-zero")
    wu = w @ u
    u_hat = u + (-1 + _softplus(wu) - wu) * w / (w @ w)
    a = np.tanh(z @ w + b)
    log_det = np.log(np.abs(1 + (1 - a**2) * (w @ u_hat)))
    return z + a[..., None] * u_hat, log_det


def radial_flow(z, z0, alpha, beta):
    """Radial flow ``f(z) = z + β̂ h(r) (z - z0)``, ``h = 1/(α + r)``, ``r = ‖z - z0‖``, with its log-determinant.

    ``log det ∂f/∂z = (d - 1) log(1 + β̂h) + log(1 + β̂h + β̂h'(r) r)``, ``h' = -1/(α + r)²``.
    To keep ``f`` invertible, ``β`` is replaced by ``β̂ = -α + softplus(β) > -α``
    (Rezende and Mohamed, 2015, appendix A).

    Parameters
    ----------
    z : array_like, shape (..., d)
        Points.
    z0 : array_like, shape (d,)
        Centre.
    alpha : float
        Positive scale.
    beta : float
        Unconstrained strength (positive ``β̂`` pushes points out, negative pulls in).

    Returns
    -------
    fz : ndarray, shape (..., d)
    log_det : ndarray, shape (...)

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``alpha`` is not positive, or the
        computation overflows to NaN.
    """
    z = _points(z)
    z0 = check.vector(z0, z.shape[-1], "z0")
    alpha, beta = check.positive(alpha, "alpha"), check.number(beta, "beta")
    beta_hat = -alpha + _softplus(beta)
    diff = z - z0
    r = np.linalg.norm(diff, axis=-1)
    h = 1 / (alpha + r)
    bh = beta_hat * h
    log_det = (z.shape[-1] - 1) * np.log1p(bh) + np.log1p(bh - beta_hat * h**2 * r)
    return check.no_nan_result(z + bh[..., None] * diff, "z and z0"), check.no_nan_result(log_det, "z and z0")


def _quadratic_features(X):
    """``(1, x_a, x_a x_b for a <= b)`` for every row of ``X``."""
    a, b = np.triu_indices(X.shape[1])
    return np.hstack([np.ones((X.shape[0], 1)), X, X[:, a] * X[:, b]])


def fantasy_regression(X_s, T_s, X_new):
    """Least-squares regression of targets on quadratic features of ``x``, fitted on fantasies.

    Fits ``T ≈ φ(x) β`` with ``φ(x) = (1, x_a, x_a x_b for a <= b)`` on the sleep samples
    ``(X_s, T_s)`` and returns ``φ(X_new) β``: an estimate of ``E[T | x]`` at new points, as
    used by the DDC Helmholtz machine (``T = ψ(z)``) and by amortised learning
    (``T = ∇_θ log p_θ(x, z)``).

    Parameters
    ----------
    X_s : array_like, shape (S, D)
        Fantasy observations.
    T_s : array_like, shape (S, p)
        Regression targets, one row per fantasy.
    X_new : array_like, shape (m, D)
        Points at which to evaluate the fitted regression.

    Returns
    -------
    ndarray, shape (m, p)

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, there are fewer fantasies than the
        ``1 + D + D(D+1)/2`` features, the features of the fantasies are linearly dependent, or
        the computation overflows to NaN.
    """
    X_s, T_s, X_new = check.matrix(X_s, "X_s"), check.matrix(T_s, "T_s"), check.matrix(X_new, "X_new")
    S, D = X_s.shape
    if T_s.shape[0] != S or X_new.shape[1] != D:
        raise ValueError(f"T_s must have {S} rows and X_new {D} columns, got {T_s.shape} and {X_new.shape}")
    n_features = 1 + D + D * (D + 1) // 2
    if S < n_features:
        raise ValueError(f"X_s must have at least {n_features} rows (one per feature), got {S}")
    # Quadratic regression is unchanged by an affine change of the inputs, so centre and scale
    # them first, and solve the least-squares problem by SVD (lstsq), not the normal equations:
    # far from the origin the raw features are nearly collinear.
    with np.errstate(over="ignore", invalid="ignore"):
        centre, scale = X_s.mean(axis=0), check.finite_result(X_s.std(axis=0), "X_s")
        if np.any(scale == 0):
            raise ValueError("X_s: the quadratic features of the fantasies are linearly dependent "
                             "(a coordinate is constant)")
        Phi = _quadratic_features((X_s - centre) / scale)
        beta, _, rank, sv = np.linalg.lstsq(Phi, T_s, rcond=None)
        if rank < Phi.shape[1] or sv[-1] <= 1e-10 * sv[0]:
            raise ValueError("X_s: the quadratic features of the fantasies are linearly dependent")
        out = _quadratic_features((X_new - centre) / scale) @ beta
    return check.finite_result(out, "X_s, T_s and X_new")
