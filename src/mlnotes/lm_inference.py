"""Inference for the linear model (chapter 27): the least-squares fit with its standard
errors, t and F tests, confidence and prediction intervals, weighted least squares, the
regression ANOVA table and the pairs bootstrap.

Conventions. ``X`` is a design matrix of shape ``(n, p)`` with full column rank; the
caller includes the column of ones (as in statsmodels), so ``p`` counts the intercept and
the residual degrees of freedom are ``n - p``. ``alpha`` is the level of a test, and an
interval has confidence ``1 - alpha``. Every fit goes through a QR factorisation
``X = QR`` (as statsmodels solves by a pseudo-inverse), never through the normal equations
``XᵀX β = Xᵀy``: forming ``XᵀX`` squares the condition number of ``X`` and loses half of the
digits when a covariate sits far from the origin (a column near 1e5 costs ~6 digits).
"""
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import scipy.linalg
import scipy.stats

from mlnotes import _validate as check

__all__ = [
    "OLSFit", "Interval", "FTest", "RegressionAnova",
    "ols_fit", "hat_matrix", "ci_beta", "ci_linear_combination", "prediction_interval",
    "confidence_band", "f_test_nested", "general_linear_hypothesis", "wls", "r_squared",
    "anova_regression_table", "pairs_bootstrap_se",
]


# ------------------------------------------------------------------------ result types
@dataclass(frozen=True, repr=False)
class OLSFit:
    """A least-squares fit with its normal-theory inference.

    Attributes
    ----------
    beta : ndarray, shape (p,)
        The estimate ``(XᵀX)⁻¹Xᵀy`` (or the weighted one, for :func:`wls`).
    s2 : float
        ``RSS / (n - p)``, the unbiased estimate of the noise variance (weighted RSS for WLS).
    cov : ndarray, shape (p, p)
        Estimated covariance ``s2 (XᵀX)⁻¹`` of ``beta``.
    se, t, p : ndarray, shape (p,)
        Standard errors, t statistics for ``beta_j = 0`` and their two-sided p-values.
    df : int
        Residual degrees of freedom ``n - p``.
    fitted : ndarray, shape (n,)
        Fitted values ``X beta``.
    """

    beta: np.ndarray
    s2: float
    cov: np.ndarray
    se: np.ndarray
    t: np.ndarray
    p: np.ndarray
    df: int
    fitted: np.ndarray

    def __repr__(self):
        return f"OLSFit(n={self.fitted.size}, p={self.beta.size}, df={self.df}, s2={self.s2:.4g})"


class Interval(NamedTuple):
    """Estimates with standard errors and two-sided interval ends (floats or arrays)."""
    estimate: np.ndarray
    se: np.ndarray
    low: np.ndarray
    high: np.ndarray


class FTest(NamedTuple):
    """An F test: statistic, p-value and the two degrees of freedom."""
    statistic: float
    pvalue: float
    df_num: int
    df_den: int


class RegressionAnova(NamedTuple):
    """The ANOVA table of a regression with intercept (sums of squares, dfs, mean squares)."""
    ss_reg: float
    ss_res: float
    ss_tot: float
    df_reg: int
    df_res: int
    df_tot: int
    ms_reg: float
    ms_res: float
    statistic: float
    pvalue: float


# ------------------------------------------------------------------------- validation
def _design(X, y, name="X"):
    """``X`` (n, p) of full column rank with ``n > p`` and ``y`` of shape (n,)."""
    X = check.design(X, name)
    return X, check.vector(y, X.shape[0], "y")


def _fit(fit):
    return check.instance_of(fit, OLSFit, "fit", made_by="ols_fit or wls")


def _rows(x0, p, name):
    """``x0`` as a finite (m, p) array, and whether it was given as one row (p,)."""
    x0 = check.as_float(x0, name)
    if x0.ndim == 1:
        return check.vector(x0, p, name)[None, :], True
    if x0.ndim != 2 or x0.shape[1] != p or x0.shape[0] == 0:
        raise ValueError(f"{name} must have shape ({p},) or (m, {p}), got {x0.shape}")
    return check.finite(x0, name), False


def _interval(est, se, half, single):
    out = [est, se, est - half, est + half]
    return Interval(*(float(v[0]) if single else v for v in out))


# ------------------------------------------------------------------------ fitting
def hat_matrix(X):
    """The hat matrix ``P = X (XᵀX)⁻¹ Xᵀ = Q Qᵀ``, from a thin QR factorisation ``X = QR``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank, ``n > p``.

    Returns
    -------
    P : ndarray, shape (n, n)
        The orthogonal projection onto the column space of ``X`` (symmetric, idempotent,
        trace ``p``). ``Q Qᵀ`` is accurate even when ``XᵀX`` is ill-conditioned.

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array of full column rank with ``n > p``.
    """
    Q = np.linalg.qr(check.design(X))[0]
    return Q @ Q.T


def _qr_solve(X, y):
    """Least squares by QR: ``β̂ = R⁻¹Qᵀy`` and ``(XᵀX)⁻¹ = R⁻¹R⁻ᵀ``, without forming ``XᵀX``."""
    Q, R = np.linalg.qr(X)
    beta = scipy.linalg.solve_triangular(R, Q.T @ y)
    R_inv = scipy.linalg.solve_triangular(R, np.eye(R.shape[0]))
    return beta, R_inv @ R_inv.T


def _inference(X, beta, rss, fitted, G_inv, names="X and y"):
    check.finite_result(np.r_[beta, rss, G_inv.ravel()], names)
    n, p = X.shape
    df = n - p
    s2 = float(rss / df)
    cov = s2 * G_inv
    se = np.sqrt(np.diag(cov))
    t = beta / se
    return OLSFit(beta, s2, cov, se, t, 2 * scipy.stats.t.sf(np.abs(t), df), df, fitted)


def ols_fit(X, y):
    """Least-squares fit with ``s²``, ``Cov β̂``, standard errors, t statistics and p-values.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank, ``n > p`` (include the column of ones).
    y : array_like, shape (n,)
        Responses.

    Returns
    -------
    OLSFit
        ``beta``, ``s2 = RSS/(n - p)``, ``cov = s2 (XᵀX)⁻¹``, ``se``, ``t = beta/se``, the
        two-sided p-values ``p`` from ``t_{n-p}``, ``df = n - p`` and the fitted values.
        With ``X = QR``: ``beta = R⁻¹Qᵀy`` and ``(XᵀX)⁻¹ = R⁻¹R⁻ᵀ``.

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``n <= p`` or ``X`` is rank-deficient.
    """
    X, y = _design(X, y)
    beta, G_inv = _qr_solve(X, y)                 # never the normal equations (XᵀX)β = Xᵀy
    fitted = X @ beta
    return _inference(X, beta, np.sum((y - fitted) ** 2), fitted, G_inv)


def wls(X, y, w):
    """Weighted least squares: minimise ``Σ w_i (y_i - x_iᵀβ)²``, with its inference.

    With ``w_i = 1/var(y_i)`` (known up to a common factor) this is the best linear
    unbiased estimate; ``s2`` is the weighted ``RSS/(n - p)`` and ``cov = s2 (XᵀWX)⁻¹``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank, ``n > p``.
    y : array_like, shape (n,)
        Responses.
    w : array_like, shape (n,)
        Positive weights.

    Returns
    -------
    OLSFit
        As :func:`ols_fit`; ``fitted`` are the values ``X beta``.

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, a weight is not positive, ``n <= p`` or
        ``X`` is rank-deficient.
    """
    X, y = _design(X, y)
    w = check.vector(w, X.shape[0], "w")
    if np.any(w <= 0):
        raise ValueError("w must contain only positive weights")
    sw = np.sqrt(w)                               # WLS is OLS on the rows scaled by √w
    beta, G_inv = _qr_solve(sw[:, None] * X, sw * y)
    fitted = X @ beta
    return _inference(X, beta, np.sum(w * (y - fitted) ** 2), fitted, G_inv, "X, y and w")


# ------------------------------------------------------------------------ intervals
def ci_beta(fit, alpha=0.05):
    """Confidence intervals ``β̂_j ± t_{n-p}(α/2) se(β̂_j)`` for every coefficient.

    Parameters
    ----------
    fit : OLSFit
        From :func:`ols_fit` or :func:`wls`.
    alpha : float
        Level in (0, 1); the intervals have confidence ``1 - alpha``.

    Returns
    -------
    ndarray, shape (p, 2)
        Lower and upper ends (the layout of statsmodels' ``conf_int``).

    Raises
    ------
    ValueError
        If ``fit`` is not an OLSFit or ``alpha`` is not in (0, 1).
    """
    fit, alpha = _fit(fit), check.level(alpha)
    half = scipy.stats.t.ppf(1 - alpha / 2, fit.df) * fit.se
    return np.column_stack([fit.beta - half, fit.beta + half])


def ci_linear_combination(fit, c, alpha=0.05):
    """Interval ``cᵀβ̂ ± t_{n-p}(α/2) √(cᵀ Cov β̂ c)`` for one or several combinations ``cᵀβ``.

    Parameters
    ----------
    fit : OLSFit
    c : array_like, shape (p,) or (m, p)
        One combination, or ``m`` of them as rows (each gets its own interval).
    alpha : float
        Level in (0, 1).

    Returns
    -------
    Interval
        ``estimate``, ``se``, ``low``, ``high``: floats for one ``c``, arrays of shape
        (m,) for rows.

    Raises
    ------
    ValueError
        If ``fit`` is not an OLSFit, ``c`` has the wrong shape or ``alpha`` is not in (0, 1).
    """
    fit, alpha = _fit(fit), check.level(alpha)
    C, single = _rows(c, fit.beta.size, "c")
    se = np.sqrt(np.einsum("ij,jk,ik->i", C, fit.cov, C))
    half = scipy.stats.t.ppf(1 - alpha / 2, fit.df) * se
    return _interval(C @ fit.beta, se, half, single)


def prediction_interval(fit, x0, alpha=0.05):
    """Interval for a new response ``Y₀ = x₀ᵀβ + e₀``: ``x₀ᵀβ̂ ± t_{n-p}(α/2) √(s² + x₀ᵀ Cov β̂ x₀)``.

    Parameters
    ----------
    fit : OLSFit
    x0 : array_like, shape (p,) or (m, p)
        New design row(s), with the intercept entry.
    alpha : float
        Level in (0, 1).

    Returns
    -------
    Interval
        ``se`` is the standard error of the prediction error ``Y₀ - x₀ᵀβ̂``.

    Raises
    ------
    ValueError
        If ``fit`` is not an OLSFit, ``x0`` has the wrong shape or ``alpha`` is not in (0, 1).
    """
    fit, alpha = _fit(fit), check.level(alpha)
    X0, single = _rows(x0, fit.beta.size, "x0")
    se = np.sqrt(fit.s2 + np.einsum("ij,jk,ik->i", X0, fit.cov, X0))
    half = scipy.stats.t.ppf(1 - alpha / 2, fit.df) * se
    return _interval(X0 @ fit.beta, se, half, single)


def confidence_band(fit, x0, alpha=0.05, simultaneous=False):
    """Confidence band for the mean response ``x₀ᵀβ`` at the rows of ``x0``.

    Pointwise (``simultaneous=False``): each row gets ``x₀ᵀβ̂ ± t_{n-p}(α/2) se``, which
    covers that one mean with probability ``1 - α``. Simultaneous (Working–Hotelling,
    Scheffé): the multiplier ``√(p F_{p,n-p}(α))`` makes the band cover *all* means
    ``x₀ᵀβ``, ``x₀ ∈ ℝᵖ``, at once with probability ``1 - α``.

    Parameters
    ----------
    fit : OLSFit
    x0 : array_like, shape (m, p)
        Design rows at which the band is evaluated.
    alpha : float
        Level in (0, 1).
    simultaneous : bool
        Pointwise (False) or Working–Hotelling (True) multiplier.

    Returns
    -------
    Interval
        Arrays of shape (m,).

    Raises
    ------
    ValueError
        If ``fit`` is not an OLSFit, ``x0`` is not an (m, p) array, ``alpha`` is not in
        (0, 1) or ``simultaneous`` is not a bool.
    """
    fit, alpha = _fit(fit), check.level(alpha)
    simultaneous = check.flag(simultaneous, "simultaneous")
    X0 = check.matrix(x0, "x0")
    p = fit.beta.size
    if X0.shape[1] != p:
        raise ValueError(f"x0 must have {p} columns, got shape {X0.shape}")
    se = np.sqrt(np.einsum("ij,jk,ik->i", X0, fit.cov, X0))
    if simultaneous:
        mult = np.sqrt(p * scipy.stats.f.ppf(1 - alpha, p, fit.df))
    else:
        mult = scipy.stats.t.ppf(1 - alpha / 2, fit.df)
    return _interval(X0 @ fit.beta, se, mult * se, False)


# -------------------------------------------------------------------------- F tests
def f_test_nested(X_small, X_big, y):
    """F test of a smaller model against a bigger one that contains it.

    ``F = ((RSS₀ - RSS)/(p - q)) / (RSS/(n - p))``, which under the smaller model with
    normal errors has the ``F_{p-q, n-p}`` distribution.

    Parameters
    ----------
    X_small : array_like, shape (n, q)
        Design of the null model; its columns must lie in the column space of ``X_big``.
    X_big : array_like, shape (n, p)
        Design of the full model, ``q < p < n``, full column rank.
    y : array_like, shape (n,)

    Returns
    -------
    FTest
        ``statistic``, ``pvalue``, ``df_num = p - q``, ``df_den = n - p``.

    Raises
    ------
    ValueError
        If a shape is wrong, a design is rank-deficient, ``q >= p``, or the models are not
        nested.
    """
    X_big, y = _design(X_big, y, "X_big")
    X_small = check.matrix(X_small, "X_small")
    (n, p), q = X_big.shape, X_small.shape[1]
    if X_small.shape[0] != n or q >= p:
        raise ValueError(f"X_small must have {n} rows and fewer than {p} columns, "
                         f"got shape {X_small.shape}")
    X_small = check.design(X_small, "X_small")
    Q = np.linalg.qr(X_big)[0]                    # orthonormal basis of col X_big
    outside = X_small - Q @ (Q.T @ X_small)
    if np.linalg.norm(outside) > 1e-8 * max(1.0, np.linalg.norm(X_small)):
        raise ValueError("X_small must span a subspace of the column space of X_big "
                         "(the models are not nested)")
    big, small = ols_fit(X_big, y), ols_fit(X_small, y)
    rss = np.sum((y - big.fitted) ** 2)
    extra = np.sum((big.fitted - small.fitted) ** 2)   # = RSS₀ - RSS (Pythagoras), no cancellation
    F = (extra / (p - q)) / (rss / (n - p))
    return FTest(float(F), float(scipy.stats.f.sf(F, p - q, n - p)), p - q, n - p)


def general_linear_hypothesis(fit, R, r=None):
    """F test of ``H₀: Rβ = r`` (``q`` linear restrictions) from an OLS fit.

    ``F = (Rβ̂ - r)ᵀ (R Cov β̂ Rᵀ)⁻¹ (Rβ̂ - r) / q``, ``F_{q, n-p}`` under ``H₀``.

    Parameters
    ----------
    fit : OLSFit
    R : array_like, shape (q, p) or (p,)
        Restrictions as rows, of full row rank ``q <= p``.
    r : array_like, shape (q,), optional
        Right-hand side; zeros by default.

    Returns
    -------
    FTest

    Raises
    ------
    ValueError
        If ``fit`` is not an OLSFit, ``R`` or ``r`` has the wrong shape or ``R`` does not have
        full row rank.
    """
    fit = _fit(fit)
    R, _ = _rows(R, fit.beta.size, "R")
    q = R.shape[0]
    if q > fit.beta.size or np.linalg.matrix_rank(R) < q:
        raise ValueError(f"R must have full row rank, got rank {np.linalg.matrix_rank(R)} "
                         f"for {q} rows")
    r = np.zeros(q) if r is None else check.vector(r, q, "r")
    d = R @ fit.beta - r
    F = float(d @ np.linalg.solve(R @ fit.cov @ R.T, d) / q)
    return FTest(F, float(scipy.stats.f.sf(F, q, fit.df)), q, fit.df)


# ----------------------------------------------------------------- R², ANOVA table
def r_squared(fit, y):
    """Coefficient of determination ``R² = 1 - RSS/Σ(y_i - ȳ)²`` of a fit with intercept.

    For least squares with an intercept this is the squared correlation of ``y`` and the
    fitted values. (For a WLS fit it is the unweighted version.)

    Parameters
    ----------
    fit : OLSFit
    y : array_like, shape (n,)
        The responses the fit was computed from (not constant).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``fit`` is not an OLSFit, ``y`` has the wrong shape or is constant.
    """
    fit = _fit(fit)
    y = check.vector(y, fit.fitted.size, "y")
    tss = np.sum((y - y.mean()) ** 2)
    if not tss > 0:
        raise ValueError("y must not be constant (its total sum of squares is 0)")
    return float(1 - np.sum((y - fit.fitted) ** 2) / tss)


def anova_regression_table(X, y):
    """ANOVA table of a regression: SS(reg) + RSS = CTSS, with the overall F test.

    The corrected total sum of squares ``CTSS = Σ(y_i - ȳ)²`` is the RSS of the
    intercept-only model, so ``F`` tests ``β₁ = ... = β_m = 0`` (all but the intercept).

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank whose column space contains the vector of ones
        (a model with intercept), ``p >= 2``.
    y : array_like, shape (n,)

    Returns
    -------
    RegressionAnova
        With ``df_reg = p - 1``, ``df_res = n - p``, ``df_tot = n - 1``.

    Raises
    ------
    ValueError
        If a shape is wrong, ``X`` is rank-deficient, has no intercept, or ``p < 2``.
    """
    X, y = _design(X, y)
    n, p = X.shape
    ones = np.ones((n, 1))
    if p < 2 or np.linalg.matrix_rank(np.hstack([ones, X])) > p:
        raise ValueError("X must contain the intercept (ones in its column space) and at "
                         "least one more column")
    fitted = ols_fit(X, y).fitted
    ss_res, ss_tot = np.sum((y - fitted) ** 2), np.sum((y - y.mean()) ** 2)
    ss_reg = np.sum((fitted - y.mean()) ** 2)     # = CTSS - RSS, computed without cancellation
    check.finite_result([ss_res, ss_tot, ss_reg], "X and y")
    ms_reg, ms_res = ss_reg / (p - 1), ss_res / (n - p)
    F = ms_reg / ms_res
    return RegressionAnova(float(ss_reg), float(ss_res), float(ss_tot), p - 1, n - p, n - 1,
                           float(ms_reg), float(ms_res), float(F),
                           float(scipy.stats.f.sf(F, p - 1, n - p)))


# ------------------------------------------------------------------------ bootstrap
def pairs_bootstrap_se(X, y, B, rng):
    """Bootstrap standard errors of β̂, resampling the pairs ``(x_i, y_i)`` (random-X model).

    All ``B`` resamples are drawn at once as an index array ``(B, n)`` and solved as one
    stack of QR factorisations (no normal equations); a rare resample whose design is
    rank-deficient gets the minimum-norm solution (pseudo-inverse) instead of stopping the run.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank, ``n > p``.
    y : array_like, shape (n,)
    B : int
        Number of resamples, at least 2.
    rng : numpy.random.Generator
        Source of randomness.

    Returns
    -------
    ndarray, shape (p,)
        Standard deviations (``ddof=1``) of the ``B`` bootstrap estimates.

    Raises
    ------
    ValueError
        If a shape is wrong, ``X`` is rank-deficient, ``B < 2`` or ``rng`` is not a Generator.
    """
    X, y = _design(X, y)
    B = check.count(B, "B", low=2)
    rng = check.generator(rng)
    idx = rng.integers(0, X.shape[0], size=(B, X.shape[0]))
    Xb, yb = X[idx], y[idx]                                       # (B, n, p), (B, n)
    Q, R = np.linalg.qr(Xb)                                       # a stack of thin QRs
    d = np.abs(np.diagonal(R, axis1=1, axis2=2))
    ok = d.min(axis=1) > X.shape[0] * np.finfo(float).eps * d.max(axis=1)
    betas = np.empty((B, X.shape[1]))
    qty = np.einsum("bni,bn->bi", Q[ok], yb[ok])
    betas[ok] = np.linalg.solve(R[ok], qty[..., None])[..., 0]    # triangular R: no squaring
    betas[~ok] = np.einsum("bin,bn->bi", np.linalg.pinv(Xb[~ok]), yb[~ok])
    return check.finite_result(betas.std(axis=0, ddof=1), "X and y")
