"""Estimation (chapter 23): the method of moments, maximum likelihood, Fisher information,
confidence intervals, the Cramér–Rao bound, sufficiency and Rao–Blackwell.

Conventions. A sample is a 1-D array ``x`` of shape ``(n,)``. The estimators also accept a
2-D array of shape ``(R, n)``, read as ``R`` independent samples (one per row), and then
return one estimate per row; simulations use this to fit thousands of samples at once.
The gamma distribution has shape ``alpha`` and *rate* ``lam`` (density
``lam**alpha x**(alpha - 1) exp(-lam x) / Gamma(alpha)``), so its mean is ``alpha / lam``;
scipy's ``scale`` is ``1 / lam``. The normal model is parametrised by ``(mu, sigma2)``.
"""
import numpy as np
from scipy import special
from scipy import stats

from mlnotes import _validate as check

__all__ = [
    "sample_moments", "mom_poisson", "mom_normal", "mom_gamma",
    "mle_poisson", "mle_normal", "mle_gamma", "mle_multinomial",
    "normal_log_likelihood", "gamma_log_likelihood",
    "fisher_information", "gamma_fisher_information", "crlb",
    "wald_ci", "normal_mean_ci", "normal_var_ci",
    "parametric_bootstrap", "rao_blackwell_poisson_zero",
]


# ------------------------------------------------------------------------ validation
def _samples(x, name="x", min_n=1, positive=False, integer=False):
    """``x`` as a finite float array of shape (n,) or (R, n) with n >= ``min_n``."""
    if integer and not isinstance(x, (str, bytes)) and x is not None:
        try:
            kind = np.asarray(x).dtype.kind
        except (ValueError, TypeError):
            kind = "O"
        if kind == "f":
            arr = check.finite(x, name)
            if np.any(arr != np.round(arr)):
                raise ValueError(f"{name} must hold whole-number counts")
    x = check.finite(x, name)
    if x.ndim not in (1, 2) or x.shape[-1] < min_n or x.size == 0:
        raise ValueError(f"{name} must have shape (n,) or (R, n) with n >= {min_n}, got {x.shape}")
    if positive and np.any(x <= 0):
        raise ValueError(f"{name} must have positive entries")
    if integer and np.any(x < 0):
        raise ValueError(f"{name} must hold non-negative counts")
    return x


def _call(f, name, theta, x):
    """``f(theta, x)``, with an error inside ``f`` reported as a ``ValueError`` naming both."""
    try:
        return f(theta, x)
    except (ValueError, TypeError, IndexError, ArithmeticError) as err:
        shape = "a scalar" if np.ndim(theta) == 0 else f"shape {np.shape(theta)}"
        raise ValueError(f"{name}(theta, x) failed for theta of {shape}: {err}") from None


# ------------------------------------------------------------------- method of moments
def sample_moments(x, k):
    """The first ``k`` sample moments ``mu_hat_j = mean(x**j)``, ``j = 1, ..., k``.

    Parameters
    ----------
    x : array_like, shape (n,) or (R, n)
        A sample (or ``R`` samples as rows).
    k : int
        Highest order, at least 1.

    Returns
    -------
    ndarray, shape (k,) or (R, k)
    """
    x = _samples(x)
    k = check.count(k, "k")
    powers = np.arange(1, k + 1)
    return check.finite_result(np.mean(x[..., None] ** powers, axis=-2), "x")


def mom_poisson(x):
    """Method-of-moments estimate of a Poisson mean: ``lam_hat = mean(x)``.

    Parameters
    ----------
    x : array_like, shape (n,) or (R, n)
        Non-negative counts.

    Returns
    -------
    float or ndarray, shape (R,)
    """
    x = _samples(x, integer=True)
    return x.mean(axis=-1)[()]


def mom_normal(x):
    """Method-of-moments estimates ``(mu_hat, sigma2_hat)`` of a normal sample.

    ``mu_hat = mu_hat_1`` and ``sigma2_hat = mu_hat_2 - mu_hat_1**2``, the variance with
    divisor ``n``. It is computed as ``mean((x - mu_hat)**2)`` (the same number in exact
    arithmetic): the difference of raw moments cancels catastrophically for data far from
    0, e.g. it returns 6 instead of 1 for a sample of N(1e8, 1).

    Parameters
    ----------
    x : array_like, shape (n,) or (R, n)

    Returns
    -------
    ndarray, shape (2,) or (R, 2)
    """
    x = _samples(x)
    mu = x.mean(axis=-1)
    return check.finite_result(np.stack([mu, np.mean((x - mu[..., None]) ** 2, axis=-1)], axis=-1), "x")


def mom_gamma(x):
    """Method-of-moments estimates ``(alpha_hat, lam_hat)`` of a gamma sample.

    With ``sigma2_hat = mu_hat_2 - mu_hat_1**2`` (divisor ``n``):
    ``alpha_hat = mu_hat_1**2 / sigma2_hat`` and ``lam_hat = mu_hat_1 / sigma2_hat``.

    Parameters
    ----------
    x : array_like, shape (n,) or (R, n)
        Positive, not all equal, ``n >= 2``.

    Returns
    -------
    ndarray, shape (2,) or (R, 2)
    """
    x = _samples(x, min_n=2, positive=True)
    m1 = x.mean(axis=-1)
    s2 = np.mean((x - m1[..., None]) ** 2, axis=-1)   # = mu_hat_2 - mu_hat_1**2, stably
    if np.any(s2 <= 0):
        raise ValueError("x must not be constant (its sample variance is 0)")
    return check.finite_result(np.stack([m1 ** 2 / s2, m1 / s2], axis=-1), "x")


# ------------------------------------------------------------------ maximum likelihood
def mle_poisson(x):
    """Maximum-likelihood estimate of a Poisson mean, the root of ``S / lam - n = 0``.

    Parameters
    ----------
    x : array_like, shape (n,) or (R, n)
        Non-negative counts.

    Returns
    -------
    float or ndarray, shape (R,)
    """
    x = _samples(x, integer=True)
    return (x.sum(axis=-1) / x.shape[-1])[()]


def mle_normal(x):
    """Maximum-likelihood estimates ``(mu_hat, sigma2_hat)`` of a normal sample.

    ``mu_hat = mean(x)`` and ``sigma2_hat = mean((x - mu_hat)**2)`` (divisor ``n``).

    Parameters
    ----------
    x : array_like, shape (n,) or (R, n)

    Returns
    -------
    ndarray, shape (2,) or (R, 2)
    """
    x = _samples(x)
    mu = x.mean(axis=-1)
    return check.finite_result(np.stack([mu, np.mean((x - mu[..., None]) ** 2, axis=-1)], axis=-1), "x")


def _log_mean_minus_mean_log(x):
    """``s = log(mean x) - mean(log x)`` per row, without the cancellation of the two logs.

    With ``c = mean(x)``, ``u = x/c - 1`` and ``f(u) = u - log1p(u) >= 0``, exactly
    ``s = mean f(u) - f(mean u)``. For ``|u| < 0.1``, ``f`` is a series in
    ``t = u/(2 + u)`` (``log1p(u) = 2 atanh t``): ``f = 2t²/(1 - t) - 2 Σ_k t^(2k+1)/(2k+1)``.
    """
    c = x.mean(axis=-1, keepdims=True)

    def f(u, direct):
        t = u / (2 + u)
        series = 2 * t**2 / (1 - t) - 2 * t * sum(t ** (2 * k) / (2 * k + 1) for k in range(1, 9))
        return np.where(np.abs(u) < 0.1, series, direct)

    u = (x - c) / c
    ubar = u.mean(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        direct = u - (np.log(x) - np.log(c))
        return f(u, direct).mean(axis=-1) - f(ubar, ubar - np.log1p(ubar))


def _log_minus_digamma(alpha):
    """``log(alpha) - digamma(alpha)`` and its derivative ``1/alpha - trigamma(alpha)``; for
    ``alpha >= 20`` from the asymptotic series, since the difference of two large logs cancels."""
    a = np.maximum(alpha, 20.0)
    g = 1 / (2 * a) + 1 / (12 * a**2) - 1 / (120 * a**4) + 1 / (252 * a**6) - 1 / (240 * a**8)
    dg = -(1 / (2 * a**2) + 1 / (6 * a**3) - 1 / (30 * a**5) + 1 / (42 * a**7) - 1 / (30 * a**9))
    small = alpha < 20
    g = np.where(small, np.log(alpha) - special.digamma(alpha), g)
    dg = np.where(small, 1 / alpha - special.polygamma(1, alpha), dg)
    return g, dg


def mle_gamma(x, tol=1e-10, max_iter=100):
    """Maximum-likelihood estimates ``(alpha_hat, lam_hat)`` of a gamma sample, by Newton's method.

    ``alpha_hat`` solves ``log(alpha) - digamma(alpha) = s`` with
    ``s = log(mean(x)) - mean(log(x)) > 0``; then ``lam_hat = alpha_hat / mean(x)``. The
    left side is decreasing and convex in ``alpha``, and Newton's method starts at
    ``1 / (2 s)``, left of the root, so the iterates increase monotonically to it. ``s`` and
    the left side are evaluated without cancellation, so samples far from 0 (huge
    ``alpha``) keep their accuracy.

    Parameters
    ----------
    x : array_like, shape (n,) or (R, n)
        Positive, not all equal, ``n >= 2``.
    tol : float
        Stop when every Newton step is below ``tol * alpha``.
    max_iter : int
        Maximum number of Newton steps.

    Returns
    -------
    ndarray, shape (2,) or (R, 2)

    Raises
    ------
    ValueError
        If ``x`` is not a positive finite sample of size >= 2, is constant, or Newton's
        method has not converged after ``max_iter`` steps.
    """
    x = _samples(x, min_n=2, positive=True)
    tol, max_iter = check.positive(tol, "tol"), check.count(max_iter, "max_iter")
    xbar = check.finite_result(x.mean(axis=-1), "x")
    s = _log_mean_minus_mean_log(x)
    if np.any(s <= 0):
        raise ValueError("x must not be constant (log mean(x) - mean(log x) is 0)")
    alpha = 0.5 / s
    for _ in range(max_iter):
        g, dg = _log_minus_digamma(alpha)
        step = (g - s) / dg
        alpha = alpha - step
        if np.all(np.abs(step) <= tol * alpha):
            break
    else:
        raise ValueError(f"Newton's method did not converge in max_iter={max_iter} steps "
                         f"(relative step {np.max(np.abs(step) / alpha):.2g} > tol={tol:g})")
    return np.stack([alpha, alpha / xbar], axis=-1)


def mle_multinomial(counts):
    """Maximum-likelihood cell probabilities ``p_hat_i = n_i / n`` of multinomial counts.

    Parameters
    ----------
    counts : array_like of int, shape (m,) or (R, m)
        Non-negative cell counts, at least one positive in each row.

    Returns
    -------
    ndarray, shape (m,) or (R, m)
    """
    counts = check.integer_entries(counts, "counts", low=0)
    if counts.ndim not in (1, 2) or counts.shape[-1] < 2:
        raise ValueError(f"counts must have shape (m,) or (R, m) with m >= 2, got {counts.shape}")
    n = counts.astype(float).sum(axis=-1, keepdims=True)     # a float sum cannot wrap around
    if np.any(n == 0):
        raise ValueError("counts must contain at least one positive count (per row)")
    return counts / n


def normal_log_likelihood(x, mu, sigma2):
    """Log-likelihood ``-n/2 log(2 pi sigma2) - sum((x - mu)**2) / (2 sigma2)`` of a normal sample.

    Parameters
    ----------
    x : array_like, shape (n,)
    mu : float
    sigma2 : float
        The variance, > 0.

    Returns
    -------
    float
    """
    x = check.vector(x, None, "x")
    mu, sigma2 = check.number(mu, "mu"), check.positive(sigma2, "sigma2")
    ll = -0.5 * x.size * np.log(2 * np.pi * sigma2) - np.sum((x - mu) ** 2) / (2 * sigma2)
    return float(check.finite_result(ll, "x, mu and sigma2"))


def gamma_log_likelihood(x, alpha, lam):
    """Log-likelihood ``n alpha log lam + (alpha - 1) sum log x - lam sum x - n log Gamma(alpha)``.

    Parameters
    ----------
    x : array_like, shape (n,)
        Positive.
    alpha, lam : float
        Shape and rate, > 0.

    Returns
    -------
    float
    """
    x = _samples(x, positive=True)
    if x.ndim != 1:
        raise ValueError(f"x must have shape (n,), got {x.shape}")
    alpha, lam = check.positive(alpha, "alpha"), check.positive(lam, "lam")
    n = x.size
    ll = n * alpha * np.log(lam) + (alpha - 1) * np.log(x).sum() - lam * x.sum() - n * special.gammaln(alpha)
    return float(check.finite_result(ll, "x, alpha and lam"))


# ------------------------------------------------------------------ Fisher information
def fisher_information(score, hessian, theta, x):
    """The Fisher information per observation in its two forms, as averages over a sample.

    Returns ``(mean of score**2, -mean of hessian)``: the sample versions of
    ``E[(d/dθ log p)^2]`` and ``-E[d²/dθ² log p]``. For a vector ``theta`` of length ``k``
    the square is the outer product and both are ``(k, k)`` matrices.

    Parameters
    ----------
    score : callable
        ``score(theta, x)``: the derivative of ``log p(x_i | theta)`` for each point, shape
        ``(n,)`` for a scalar ``theta`` or ``(n, k)``.
    hessian : callable
        ``hessian(theta, x)``: second derivatives, shape ``(n,)`` or ``(n, k, k)``.
    theta : float or array_like, shape (k,)
        Where the information is evaluated (the true parameter of the sample).
    x : array_like, shape (n,)
        A sample drawn from ``p(. | theta)``.

    Returns
    -------
    tuple of two floats, or of two ndarrays of shape (k, k)
    """
    score, hessian = check.function(score, "score"), check.function(hessian, "hessian")
    scalar = np.ndim(check.as_float(theta, "theta")) == 0
    theta = check.number(theta, "theta") if scalar else check.vector(theta, None, "theta")
    x = check.vector(x, None, "x")
    n, k = x.size, 1 if scalar else theta.size
    u = check.returned(_call(score, "score", theta, x), "score", (n,) if scalar else (n, k))
    h = check.returned(_call(hessian, "hessian", theta, x), "hessian", (n,) if scalar else (n, k, k))
    if scalar:
        return float(np.mean(u ** 2)), float(-np.mean(h))
    return u.T @ u / n, -h.mean(axis=0)


def gamma_fisher_information(alpha, lam):
    """Fisher information matrix of one gamma observation in ``(alpha, lam)`` (rate ``lam``).

    ``I = [[trigamma(alpha), -1/lam], [-1/lam, alpha/lam**2]]``.

    Parameters
    ----------
    alpha, lam : float
        Shape and rate, > 0.

    Returns
    -------
    ndarray, shape (2, 2)
    """
    alpha, lam = check.positive(alpha, "alpha"), check.positive(lam, "lam")
    return np.array([[special.polygamma(1, alpha), -1 / lam], [-1 / lam, alpha / lam ** 2]])


def crlb(info, n):
    """Cramér–Rao lower bound ``1 / (n I)`` (or ``(n I)^{-1}`` for a matrix ``I``).

    Parameters
    ----------
    info : float or array_like, shape (k, k)
        Fisher information of one observation: positive, or symmetric positive definite.
    n : int
        Sample size.

    Returns
    -------
    float or ndarray, shape (k, k)
    """
    n = check.count(n, "n")
    if np.ndim(check.as_float(info, "info")) == 0:
        info = info.item() if isinstance(info, np.ndarray) else info
        return 1.0 / (n * check.positive(info, "info"))
    info = check.as_float(info, "info")
    I, _ = check.spd(info, info.shape[0] if info.ndim == 2 else -1, "info")
    return np.linalg.inv(n * I)


# --------------------------------------------------------------- confidence intervals
def wald_ci(theta_hat, info, n, alpha=0.05):
    """Approximate interval ``theta_hat ± z(alpha/2) / sqrt(n info)`` from asymptotic normality.

    Parameters
    ----------
    theta_hat : float or array_like
        Estimates (one per sample).
    info : float or array_like
        Fisher information of one observation at ``theta_hat`` (a number, or an array of
        the shape of ``theta_hat``), > 0.
    n : int
        Sample size.
    alpha : float
        One minus the confidence level, in (0, 1).

    Returns
    -------
    (low, high) : tuple of floats or ndarrays
    """
    theta_hat, info = check.finite(theta_hat, "theta_hat"), check.finite(info, "info")
    if info.ndim and info.shape != theta_hat.shape:
        raise ValueError(f"info must be a number or have the shape {theta_hat.shape} of theta_hat, "
                         f"got {info.shape}")
    if np.any(info <= 0):
        raise ValueError("info must be positive")
    n, alpha = check.count(n, "n"), check.level(alpha)
    half = special.ndtri(1 - alpha / 2) / np.sqrt(n * info)
    return (theta_hat - half)[()], (theta_hat + half)[()]


def normal_mean_ci(x, alpha=0.05):
    """Exact interval ``x̄ ± t_{n-1}(alpha/2) S / sqrt(n)`` for a normal mean.

    Parameters
    ----------
    x : array_like, shape (n,) or (R, n)
        ``n >= 2``.
    alpha : float
        One minus the confidence level, in (0, 1).

    Returns
    -------
    (low, high) : tuple of floats or ndarrays of shape (R,)
    """
    x, alpha = _samples(x, min_n=2), check.level(alpha)
    n = x.shape[-1]
    half = stats.t.ppf(1 - alpha / 2, n - 1) * x.std(axis=-1, ddof=1) / np.sqrt(n)
    xbar = x.mean(axis=-1)
    check.finite_result(np.stack([xbar - half, xbar + half]), "x")
    return (xbar - half)[()], (xbar + half)[()]


def normal_var_ci(x, alpha=0.05):
    """Exact interval ``(n σ̂² / χ²_{n-1}(alpha/2), n σ̂² / χ²_{n-1}(1 - alpha/2))`` for a normal variance.

    ``χ²_m(a)`` is the point with probability ``a`` above it, and ``n σ̂²`` the sum of
    squared deviations from the mean.

    Parameters
    ----------
    x : array_like, shape (n,) or (R, n)
        ``n >= 2``.
    alpha : float
        One minus the confidence level, in (0, 1).

    Returns
    -------
    (low, high) : tuple of floats or ndarrays of shape (R,)
    """
    x, alpha = _samples(x, min_n=2), check.level(alpha)
    n = x.shape[-1]
    ss = check.finite_result(np.sum((x - x.mean(axis=-1, keepdims=True)) ** 2, axis=-1), "x")
    return (ss / stats.chi2.isf(alpha / 2, n - 1))[()], (ss / stats.chi2.isf(1 - alpha / 2, n - 1))[()]


# ---------------------------------------------------------- bootstrap, Rao-Blackwell
def parametric_bootstrap(estimator, sampler, B, rng):
    """Parametric bootstrap: ``B`` samples from the fitted model, each re-estimated.

    Parameters
    ----------
    estimator : callable
        Maps an array of ``B`` samples, shape ``(B, n)``, to ``B`` estimates, shape ``(B,)``
        or ``(B, k)`` (the estimators of this module do).
    sampler : callable
        ``sampler(rng, B)`` returns ``B`` samples of size ``n`` from the model at the
        estimate, shape ``(B, n)``.
    B : int
        Number of bootstrap samples, at least 2.
    rng : numpy.random.Generator

    Returns
    -------
    ndarray, shape (B,) or (B, k)
        The bootstrap estimates; their standard deviation estimates the standard error.
    """
    estimator, sampler = check.function(estimator, "estimator"), check.function(sampler, "sampler")
    B, rng = check.count(B, "B", low=2), check.generator(rng)
    samples = check.returned(sampler(rng, B), "sampler")
    if samples.ndim != 2 or samples.shape[0] != B:
        raise ValueError(f"sampler must return an array of shape ({B}, n), got {samples.shape}")
    est = check.returned(estimator(samples), "estimator")
    if est.ndim not in (1, 2) or est.shape[0] != B:
        raise ValueError(f"estimator must return an array of shape ({B},) or ({B}, k), got {est.shape}")
    return est


def rao_blackwell_poisson_zero(x):
    """Rao–Blackwellised estimate of ``P(X = 0) = exp(-lam)`` from a Poisson sample.

    ``E[1{X_1 = 0} | S] = (1 - 1/n)**S`` with ``S = sum(x)``, because given ``S`` the count
    ``X_1`` is binomial with ``S`` trials and success probability ``1/n``.

    Parameters
    ----------
    x : array_like, shape (n,) or (R, n)
        Non-negative counts.

    Returns
    -------
    float or ndarray, shape (R,)
    """
    x = _samples(x, integer=True)
    n = x.shape[-1]
    return ((1 - 1 / n) ** x.sum(axis=-1))[()]
