"""Linear models (chapter 06): least squares, logistic regression, the perceptron, loss
functions, Fisher's discriminant, Gaussian discriminant analysis, naive Bayes and locally
weighted linear regression.

Conventions. Data points are the rows of ``X``. A *design matrix* carries its column of
ones explicitly (see :func:`add_intercept`), so ``beta[0]`` is the intercept.
Probabilistic classifiers (logistic regression, GDA, naive Bayes) take labels in {0, 1};
margin methods (the perceptron, the margin losses) take labels in {-1, +1}; Fisher's
discriminant takes either.
"""
from dataclasses import dataclass

import numpy as np
import scipy.linalg

from mlnotes import _validate as check

__all__ = [
    "add_intercept", "least_squares", "hat_matrix", "ols_covariance",
    "sigmoid", "logit", "log_likelihood", "logistic_regression", "FitResult",
    "perceptron",
    "squared_loss", "absolute_loss", "huber_loss", "zero_one_loss", "logistic_loss",
    "exponential_loss", "hinge_loss", "huber_regression",
    "locally_weighted_regression",
    "scatter_matrices", "fisher_ratio", "lda_direction",
    "GDAFit", "gda_fit", "gda_coefficients", "gda_predict_proba",
    "NaiveBayesFit", "naive_bayes_fit", "naive_bayes_coefficients",
    "naive_bayes_predict_proba",
]


# ------------------------------------------------------------------------ validation
def _two_classes(y, n, name="y"):
    """Boolean mask of the positive class for labels in {0, 1} or in {-1, +1}."""
    y = check.as_float(y, name)
    if y.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got {y.shape}")
    values = set(np.unique(y).tolist())
    if not (values <= {0, 1} or values <= {-1, 1}):
        raise ValueError(f"{name} must contain labels in {{0, 1}} or in {{-1, +1}}")
    pos = y == 1
    if pos.all() or not pos.any():
        raise ValueError(f"{name} must contain both classes")
    return pos


def _full_rank(A, name="X"):
    rank = np.linalg.matrix_rank(A)
    if rank < A.shape[1]:
        raise ValueError(f"{name} must have full column rank {A.shape[1]}, "
                         f"got rank {rank}")


# ---------------------------------------------------------------------- least squares
def add_intercept(X):
    """Prepend a column of ones to ``X``, giving the design matrix ``[1, X]``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Data points as rows.

    Returns
    -------
    ndarray, shape (n, p + 1)

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array.
    """
    X = check.matrix(X)
    return np.column_stack([np.ones(X.shape[0]), X])


def least_squares(X, y):
    """Least-squares coefficients, the solution of the normal equations ``XᵀX beta = Xᵀy``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank (include the column of ones yourself).
    y : array_like, shape (n,) or (n, k)
        Responses; ``k`` columns are ``k`` problems that share ``X``, solved at once.

    Returns
    -------
    beta : ndarray, shape (p,) or (p, k)

    Raises
    ------
    ValueError
        If ``X`` or ``y`` has the wrong shape or non-finite values, or ``X`` is
        rank-deficient (then ``XᵀX`` is singular and the minimiser is not unique).

    Notes
    -----
    The normal equations are solved without forming ``XᵀX``, which would square the
    condition number of ``X`` (a covariate near 1e5 would cost about ten digits): with the
    thin QR factorisation ``X = QR`` they read ``RᵀR beta = RᵀQᵀy``, that is
    ``R beta = Qᵀy``, one triangular solve.
    """
    X = check.matrix(X)
    y = check.as_float(y, "y")
    if y.ndim not in (1, 2) or y.shape[0] != X.shape[0]:
        raise ValueError(f"y must have shape ({X.shape[0]},) or ({X.shape[0]}, k), "
                         f"got {y.shape}")
    y = check.finite(y, "y")
    _full_rank(X)
    Q, R = np.linalg.qr(X)                            # X = QR, R upper triangular (p, p)
    return scipy.linalg.solve_triangular(R, Q.T @ y)  # R beta = Qᵀy


def hat_matrix(X):
    """The hat matrix ``H = X (XᵀX)⁻¹ Xᵀ``, the orthogonal projection onto col X.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank.

    Returns
    -------
    H : ndarray, shape (n, n)
        Symmetric, idempotent, of trace ``p``; ``H @ y`` are the fitted values.

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array of full column rank.
    """
    X = check.matrix(X)
    _full_rank(X)
    Q = np.linalg.qr(X)[0]            # orthonormal basis of col X: H = X(XᵀX)⁻¹Xᵀ = QQᵀ
    return Q @ Q.T


def ols_covariance(X, sigma):
    """Covariance ``sigma² (XᵀX)⁻¹`` of the least-squares estimate, given ``X``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank.
    sigma : float
        Standard deviation of the noise (positive).

    Returns
    -------
    ndarray, shape (p, p)

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array of full column rank, or ``sigma`` is not
        positive.
    """
    X = check.matrix(X)
    sigma = check.positive(sigma, "sigma")
    _full_rank(X)
    R_inv = scipy.linalg.solve_triangular(np.linalg.qr(X)[1], np.eye(X.shape[1]))
    return sigma**2 * (R_inv @ R_inv.T)                 # (XᵀX)⁻¹ = (RᵀR)⁻¹ = R⁻¹R⁻ᵀ


# ---------------------------------------------------------------- logistic regression
def sigmoid(z):
    """The logistic function ``1 / (1 + exp(-z))``, evaluated without overflow.

    Parameters
    ----------
    z : array_like
        Real numbers (``±inf`` allowed, NaN not).

    Returns
    -------
    ndarray or float
        Values in [0, 1], same shape as ``z``.

    Raises
    ------
    ValueError
        If ``z`` contains NaN.
    """
    z = check.as_float(z, "z")
    if np.any(np.isnan(z)):
        raise ValueError("z must not contain NaN")
    return np.exp(-np.logaddexp(0.0, -z))


def logit(p):
    """The log-odds ``log(p / (1 - p))``, inverse of :func:`sigmoid`.

    Parameters
    ----------
    p : array_like
        Probabilities in [0, 1] (0 and 1 map to ``-inf`` and ``+inf``).

    Returns
    -------
    ndarray or float

    Raises
    ------
    ValueError
        If some ``p`` lies outside [0, 1] or is NaN.
    """
    p = check.as_float(p, "p")
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError("p must lie in [0, 1]")
    with np.errstate(divide="ignore"):
        return np.log(p) - np.log1p(-p)


def log_likelihood(X, y, beta):
    """Log-likelihood ``sum_i [y_i eta_i - log(1 + exp(eta_i))]``, ``eta = X beta``.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix.
    y : array_like, shape (n,)
        Labels in {0, 1}.
    beta : array_like, shape (p,)
        Coefficients.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, or ``y`` has labels outside {0, 1}.
    """
    X = check.matrix(X)
    y = check.labels(y, X.shape[0], (0, 1))
    eta = X @ check.vector(beta, X.shape[1], "beta")
    return float(np.sum(y * eta - np.logaddexp(0.0, eta)))


@dataclass(frozen=True, repr=False)
class FitResult:
    """Coefficients and diagnostics of an iterative fit.

    Attributes
    ----------
    beta : ndarray, shape (p,)
        The final coefficients.
    n_iter : int
        Number of updates (iterations, or epochs for the perceptron).
    converged : bool
        Whether the stopping rule was met before the iteration limit.
    history : ndarray
        One number per iteration, starting from the initial value: the log-likelihood
        (logistic regression), the Huber objective (robust regression) or the number of
        mistakes in each epoch (perceptron).
    method : str
        Which algorithm produced the fit.
    """

    beta: np.ndarray
    n_iter: int
    converged: bool
    history: np.ndarray
    method: str

    def __repr__(self):
        return (f"FitResult(method={self.method!r}, n_iter={self.n_iter}, "
                f"converged={self.converged}, p={self.beta.size})")


def logistic_regression(X, y, method="newton", step=None, tol=1e-8, max_iter=None):
    """Maximum-likelihood logistic regression by Newton's method or gradient ascent.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank.
    y : array_like, shape (n,)
        Labels in {0, 1}.
    method : {"newton", "gradient"}
        Newton: ``beta += (XᵀWX)⁻¹ Xᵀ(y - p)`` with ``W = diag(p(1-p))``.
        Gradient ascent: ``beta += step * Xᵀ(y - p)``.
    step : float, optional
        Gradient-ascent step; default ``4 / ||X||₂²``, which makes every step
        increase the log-likelihood. Ignored by Newton's method.
    tol : float
        Stop when every component of the gradient ``Xᵀ(y - p)`` is at most ``tol``.
    max_iter : int, optional
        Iteration limit; default 50 (Newton) or 20000 (gradient ascent).

    Returns
    -------
    FitResult
        ``history`` holds the log-likelihood of every iterate, starting at ``beta = 0``.
        ``converged`` is false when the limit is hit, and also when the final ``beta``
        classifies every point correctly: then the data are separable, the likelihood
        keeps growing along ``beta`` and the maximum-likelihood estimate does not exist.

    Raises
    ------
    ValueError
        If inputs have wrong shapes or values, ``X`` is rank-deficient, ``method`` is
        unknown, or ``step``, ``tol`` or ``max_iter`` is not positive.
    """
    X = check.matrix(X)
    y = check.labels(y, X.shape[0], (0, 1))
    method = check.choice(method, ("newton", "gradient"), "method")
    _full_rank(X)
    step = 4.0 / np.linalg.norm(X, 2) ** 2 if step is None else check.positive(step, "step")
    tol = check.positive(tol, "tol")
    if max_iter is None:
        max_iter = 50 if method == "newton" else 20000
    max_iter = check.count(max_iter, "max_iter")
    beta = np.zeros(X.shape[1])
    history = [log_likelihood(X, y, beta)]
    converged = False
    for _ in range(max_iter):
        p = sigmoid(X @ beta)
        grad = X.T @ (y - p)
        if np.max(np.abs(grad)) <= tol:
            converged = True
            break
        if method == "newton":
            beta = beta + np.linalg.solve(X.T @ ((p * (1 - p))[:, None] * X), grad)
        else:
            beta = beta + step * grad
        history.append(log_likelihood(X, y, beta))
    if np.all((2 * y - 1) * (X @ beta) > 0):  # beta separates the data: no MLE exists
        converged = False
    return FitResult(beta, len(history) - 1, converged, np.array(history), method)


def perceptron(X, y, max_epochs=100):
    """Rosenblatt's perceptron: cycle through the data, ``beta += y_i x_i`` on mistakes.

    A point is a mistake when ``y_i x_iᵀ beta <= 0``. The loop over points within an
    epoch is sequential by nature: each update changes the next prediction.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix (include a column of ones for an intercept).
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    max_epochs : int
        Maximum number of passes through the data.

    Returns
    -------
    FitResult
        ``history`` holds the number of mistakes (updates) in each epoch; ``converged``
        means an epoch without mistakes, i.e. ``beta`` separates the data.

    Raises
    ------
    ValueError
        If inputs have wrong shapes or values, ``y`` has labels outside {-1, +1}, or
        ``max_epochs`` is not a positive integer.
    """
    X = check.matrix(X)
    y = check.labels(y, X.shape[0], (-1, 1))
    max_epochs = check.count(max_epochs, "max_epochs")
    beta = np.zeros(X.shape[1])
    mistakes = []
    for _ in range(max_epochs):
        count = 0
        for x_i, y_i in zip(X, y):
            if y_i * (x_i @ beta) <= 0:
                beta = beta + y_i * x_i
                count += 1
        mistakes.append(count)
        if count == 0:
            break
    converged = mistakes[-1] == 0
    return FitResult(beta, len(mistakes), converged, np.array(mistakes), "perceptron")


# --------------------------------------------------------------------- loss functions
def squared_loss(r):
    """Squared loss ``r²`` of a residual ``r = y - xᵀbeta``.

    Parameters
    ----------
    r : array_like
        Residuals (finite).

    Returns
    -------
    ndarray or float

    Raises
    ------
    ValueError
        If ``r`` contains NaN or inf.
    """
    return check.finite(r, "r") ** 2


def absolute_loss(r):
    """Absolute loss ``|r|`` of a residual ``r``.

    Parameters
    ----------
    r : array_like
        Residuals (finite).

    Returns
    -------
    ndarray or float

    Raises
    ------
    ValueError
        If ``r`` contains NaN or inf.
    """
    return np.abs(check.finite(r, "r"))


def huber_loss(r, delta=1.0):
    """Huber loss: ``r²/2`` for ``|r| <= delta``, ``delta |r| - delta²/2`` beyond.

    Parameters
    ----------
    r : array_like
        Residuals (finite).
    delta : float
        Threshold between the quadratic and the linear part (positive).

    Returns
    -------
    ndarray or float

    Raises
    ------
    ValueError
        If ``r`` contains NaN or inf, or ``delta`` is not positive.
    """
    r = check.finite(r, "r")
    delta = check.positive(delta, "delta")
    a = np.abs(r)
    return np.where(a <= delta, 0.5 * r**2, delta * a - 0.5 * delta**2)


def zero_one_loss(m):
    """Zero-one loss ``1(m < 0)`` of a margin ``m = y xᵀbeta`` (labels in {-1, +1}).

    Parameters
    ----------
    m : array_like
        Margins (finite).

    Returns
    -------
    ndarray or float
        1.0 where the sign is wrong, 0.0 elsewhere.

    Raises
    ------
    ValueError
        If ``m`` contains NaN or inf.
    """
    return (check.finite(m, "m") < 0).astype(float)


def logistic_loss(m):
    """Logistic loss ``log(1 + exp(-m))`` of a margin ``m``, computed without overflow.

    Parameters
    ----------
    m : array_like
        Margins (finite).

    Returns
    -------
    ndarray or float

    Raises
    ------
    ValueError
        If ``m`` contains NaN or inf.
    """
    return np.logaddexp(0.0, -check.finite(m, "m"))


def exponential_loss(m):
    """Exponential loss ``exp(-m)`` of a margin ``m``.

    Parameters
    ----------
    m : array_like
        Margins (finite).

    Returns
    -------
    ndarray or float

    Raises
    ------
    ValueError
        If ``m`` contains NaN or inf.
    """
    return np.exp(-check.finite(m, "m"))


def hinge_loss(m):
    """Hinge loss ``max(0, 1 - m)`` of a margin ``m``.

    Parameters
    ----------
    m : array_like
        Margins (finite).

    Returns
    -------
    ndarray or float

    Raises
    ------
    ValueError
        If ``m`` contains NaN or inf.
    """
    return np.maximum(0.0, 1.0 - check.finite(m, "m"))


def huber_regression(X, y, delta=1.0, tol=1e-10, max_iter=200):
    """Minimise ``sum_i huber_loss(y_i - x_iᵀbeta, delta)`` by IRLS.

    IRLS is iteratively reweighted least squares.

    Each step solves a weighted least-squares problem with weights
    ``w_i = min(1, delta / |r_i|)``, starting from the least-squares fit; the objective
    never increases.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank.
    y : array_like, shape (n,)
        Responses.
    delta : float
        Huber threshold (positive), in the units of ``y``.
    tol : float
        Stop when no coefficient changes by more than ``tol * (1 + max |beta|)``.
    max_iter : int
        Iteration limit.

    Returns
    -------
    FitResult
        ``history`` holds the Huber objective of every iterate.

    Raises
    ------
    ValueError
        If inputs have wrong shapes or values, ``X`` is rank-deficient, or ``delta``,
        ``tol`` or ``max_iter`` is not positive.
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    delta, tol = check.positive(delta, "delta"), check.positive(tol, "tol")
    max_iter = check.count(max_iter, "max_iter")
    beta = least_squares(X, y)
    history = [huber_loss(y - X @ beta, delta).sum()]
    converged = False
    for _ in range(max_iter):
        r = np.abs(y - X @ beta)
        w = np.where(r <= delta, 1.0, delta / np.maximum(r, delta))
        new = np.linalg.solve(X.T @ (w[:, None] * X), X.T @ (w * y))
        change = np.max(np.abs(new - beta))
        beta = new
        history.append(huber_loss(y - X @ beta, delta).sum())
        if change <= tol * (1 + np.max(np.abs(beta))):
            converged = True
            break
    return FitResult(beta, len(history) - 1, converged, np.array(history), "huber-irls")


# ------------------------------------------------------ locally weighted regression
def locally_weighted_regression(X, y, X_query, tau):
    """Locally weighted linear regression: a weighted least-squares fit at every query.

    At a query row ``x`` the training points get the weights
    ``w_i = exp(-||x_i - x||² / (2 tau²))`` and the prediction is ``xᵀ beta(x)`` with
    ``beta(x) = (Xᵀ W X)⁻¹ Xᵀ W y``, ``W = diag(w)``. The weighted normal equations are
    solved afresh for every query, all of them in one batched call.

    Parameters
    ----------
    X : array_like, shape (n, p)
        Design matrix of full column rank, with its column of ones (see
        :func:`add_intercept`); a constant column adds nothing to the distances.
    y : array_like, shape (n,)
        Responses.
    X_query : array_like, shape (m, p)
        Design rows of the query points, with the same columns as ``X``.
    tau : float
        Bandwidth (positive), in the units of the features.

    Returns
    -------
    ndarray, shape (m,)
        The prediction at each query point.

    Raises
    ------
    ValueError
        If an input has the wrong shape or non-finite values, ``X`` is rank-deficient,
        ``tau`` is not positive, or ``tau`` is so small that at some query the weights of
        all but a few points underflow and ``Xᵀ W X`` is numerically singular.

    Notes
    -----
    The normal equations ``Xᵀ W X beta = Xᵀ W y`` are solved through a QR factorisation
    of ``√W X`` (then ``Xᵀ W X = RᵀR``), which avoids squaring the condition number. The
    weights of each query are divided by their largest value, which leaves ``beta(x)``
    unchanged and keeps them from underflowing all at once. The columns of ``X`` are
    first replaced by an orthonormal basis of the same span (``X = B R₀``, with the query
    rows mapped to ``X_query R₀⁻¹``): the predictions are unchanged, and they stay
    accurate when the features are far from the origin or on very different scales
    (a shift of the features is otherwise a nearly collinear intercept column). The
    distances are computed from differences of the original rows.
    """
    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    X_query = check.matrix_with_columns(X_query, X.shape[1], "X_query")
    tau = check.positive(tau, "tau")
    _full_rank(X)
    sq = np.sum((X_query[:, None, :] - X[None, :, :]) ** 2, axis=2)      # (m, n)
    log_w = -sq / (2 * tau**2)
    sqrt_w = np.exp((log_w - log_w.max(axis=1, keepdims=True)) / 2)      # largest weight 1
    B, R0 = np.linalg.qr(X)                          # X = B R0: the fits are unchanged by
    B_query = np.linalg.solve(R0.T, X_query.T).T     # the change of basis X -> X R0⁻¹
    Q, R = np.linalg.qr(sqrt_w[:, :, None] * B)                          # √W B = QR per query
    singular = np.linalg.cond(R) > 1e10
    if np.any(singular):
        raise ValueError(f"tau = {tau:g} is too small for these data: Xᵀ W X is numerically "
                         f"singular at {int(singular.sum())} of {len(R)} query points")
    rhs = np.einsum("mij,mi->mj", Q, sqrt_w * y)                          # Qᵀ √W y
    beta = np.linalg.solve(R, rhs[:, :, None])[:, :, 0]                  # R beta = Qᵀ √W y
    return np.einsum("mj,mj->m", B_query, beta)


# ---------------------------------------------------------------- Fisher's discriminant
def scatter_matrices(X, y):
    """Between- and within-class scatter ``S_B = ΔΔᵀ`` and ``S_W = n₊Σ₊ + n₋Σ₋``.

    Here ``Δ = mu₊ - mu₋`` is the difference of the class means and ``Σ±`` are the
    class covariance matrices with divisor ``n±``, so ``S_W`` sums the outer
    products of every point's deviation from its own class mean.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data points (no column of ones).
    y : array_like, shape (n,)
        Labels in {0, 1} or in {-1, +1}; the positive class is 1.

    Returns
    -------
    S_B, S_W : ndarray, shape (d, d)

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D array, or ``y`` has the wrong shape, other labels,
        or only one class.
    """
    X = check.matrix(X)
    pos = _two_classes(y, X.shape[0])
    mu_pos, mu_neg = X[pos].mean(axis=0), X[~pos].mean(axis=0)
    C = X - np.where(pos[:, None], mu_pos, mu_neg)  # each point minus its class mean
    return np.outer(mu_pos - mu_neg, mu_pos - mu_neg), C.T @ C


def fisher_ratio(X, y, beta):
    """Fisher's criterion ``J(beta) = betaᵀ S_B beta / betaᵀ S_W beta``.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data points.
    y : array_like, shape (n,)
        Labels in {0, 1} or in {-1, +1}.
    beta : array_like, shape (d,) or (d, k)
        A direction, or ``k`` directions as columns.

    Returns
    -------
    float or ndarray, shape (k,)

    Raises
    ------
    ValueError
        If a shape or label is wrong, or ``beta`` is zero or not finite.
    """
    S_B, S_W = scatter_matrices(X, y)
    beta = check.as_float(beta, "beta")
    d = S_W.shape[0]
    if beta.ndim not in (1, 2) or beta.shape[0] != d or not np.all(np.isfinite(beta)):
        raise ValueError(f"beta must be finite with shape ({d},) or ({d}, k)")
    B = beta.reshape(d, -1)  # directions as columns
    if np.any(np.all(B == 0, axis=0)):
        raise ValueError("beta must be non-zero")
    J = np.sum(B * (S_B @ B), axis=0) / np.sum(B * (S_W @ B), axis=0)
    return float(J[0]) if beta.ndim == 1 else J


def lda_direction(X, y):
    """Fisher's discriminant direction ``beta ∝ S_W⁻¹ (mu₊ - mu₋)``, of length one.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data points (no column of ones).
    y : array_like, shape (n,)
        Labels in {0, 1} or in {-1, +1}; the positive class is 1.

    Returns
    -------
    beta : ndarray, shape (d,)
        Unit vector maximising :func:`fisher_ratio`, oriented so that the positive class
        projects higher on average.

    Raises
    ------
    ValueError
        If a shape or label is wrong, or the within-class scatter ``S_W`` is singular
        (e.g. fewer than ``d + 2`` points).
    """
    X = check.matrix(X)
    pos = _two_classes(y, X.shape[0])
    _, S_W = scatter_matrices(X, y)
    _full_rank(S_W, name="S_W (within-class scatter of X)")
    beta = np.linalg.solve(S_W, X[pos].mean(axis=0) - X[~pos].mean(axis=0))
    return beta / np.linalg.norm(beta)


# ------------------------------------------------------- Gaussian discriminant analysis
@dataclass(frozen=True, repr=False)
class GDAFit:
    """Maximum-likelihood parameters of Gaussian discriminant analysis.

    Attributes
    ----------
    phi : float
        Class prior ``P(y = 1)``.
    mu0, mu1 : ndarray, shape (d,)
        Class means.
    Sigma : ndarray, shape (d, d)
        Shared covariance (divisor ``n``).
    """

    phi: float
    mu0: np.ndarray
    mu1: np.ndarray
    Sigma: np.ndarray

    def __repr__(self):
        return f"GDAFit(phi={self.phi:.4f}, d={self.mu0.size})"


def gda_fit(X, y):
    """Fit ``y ~ Bernoulli(phi)``, ``x | y=k ~ N(mu_k, Sigma)`` by maximum likelihood.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Data points (no column of ones).
    y : array_like, shape (n,)
        Labels in {0, 1}.

    Returns
    -------
    GDAFit
        ``phi`` = fraction of ones, ``mu_k`` = class means,
        ``Sigma = (1/n) sum_i (x_i - mu_{y_i})(x_i - mu_{y_i})ᵀ``.

    Raises
    ------
    ValueError
        If a shape is wrong, ``y`` has labels outside {0, 1} or one class only, or
        ``Sigma`` is singular.
    """
    X = check.matrix(X)
    y = check.labels(y, X.shape[0], (0, 1))
    _, S_W = scatter_matrices(X, y)
    _full_rank(S_W, name="Sigma (within-class covariance of X)")
    pos = y == 1
    mu0, mu1 = X[~pos].mean(axis=0), X[pos].mean(axis=0)
    return GDAFit(float(pos.mean()), mu0, mu1, S_W / X.shape[0])


def gda_coefficients(fit):
    """Coefficients of the GDA posterior ``P(y=1 | x) = sigmoid(beta_0 + wᵀx)``.

    With a shared covariance the quadratic terms cancel:
    ``w = Sigma⁻¹(mu1 - mu0)`` and
    ``beta_0 = -(mu1 + mu0)ᵀ w / 2 + log(phi / (1 - phi))``.

    Parameters
    ----------
    fit : GDAFit
        From :func:`gda_fit`.

    Returns
    -------
    beta : ndarray, shape (d + 1,)
        ``[beta_0, w]``, to be used with the design matrix ``add_intercept(X)``.

    Raises
    ------
    ValueError
        If ``fit`` is not a :class:`GDAFit`.
    """
    check.instance_of(fit, GDAFit, "fit", "gda_fit")
    w = np.linalg.solve(fit.Sigma, fit.mu1 - fit.mu0)
    beta_0 = -0.5 * (fit.mu1 + fit.mu0) @ w + np.log(fit.phi / (1 - fit.phi))
    return np.concatenate([[beta_0], w])


def gda_predict_proba(fit, X):
    """Posterior probability ``P(y = 1 | x)`` under a fitted GDA model.

    Parameters
    ----------
    fit : GDAFit
        From :func:`gda_fit`.
    X : array_like, shape (m, d)
        Points (no column of ones).

    Returns
    -------
    ndarray, shape (m,)

    Raises
    ------
    ValueError
        If ``fit`` is not a :class:`GDAFit` or ``X`` has the wrong shape.
    """
    beta = gda_coefficients(fit)
    X = check.matrix_with_columns(X, beta.size - 1, "X")
    return sigmoid(beta[0] + X @ beta[1:])


# --------------------------------------------------------------------- naive Bayes
@dataclass(frozen=True, repr=False)
class NaiveBayesFit:
    """Parameters of Bernoulli naive Bayes.

    Attributes
    ----------
    phi_y : float
        Class prior ``P(y = 1)``.
    phi : ndarray, shape (2, d)
        ``phi[k, j] = P(x_j = 1 | y = k)``.
    """

    phi_y: float
    phi: np.ndarray

    def __repr__(self):
        return f"NaiveBayesFit(phi_y={self.phi_y:.4f}, d={self.phi.shape[1]})"


def naive_bayes_fit(X, y, alpha=1.0):
    """Bernoulli naive Bayes with Laplace (add-``alpha``) smoothing.

    ``phi[k, j] = (#{x_j = 1, y = k} + alpha) / (#{y = k} + 2 alpha)`` and
    ``phi_y = (#{y = 1} + alpha) / (n + 2 alpha)``; ``alpha = 1`` is Laplace smoothing.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Binary features in {0, 1} (e.g. word present / absent).
    y : array_like, shape (n,)
        Labels in {0, 1}.
    alpha : float
        Pseudo-count (positive). The unsmoothed maximum-likelihood estimate
        (``alpha = 0``) gives zero probabilities to unseen words and is not allowed.

    Returns
    -------
    NaiveBayesFit

    Raises
    ------
    ValueError
        If ``X`` is not binary, ``y`` has labels outside {0, 1}, a shape is wrong, or
        ``alpha`` is not positive.
    """
    X = check.matrix(X)
    if not np.all(np.isin(X, (0, 1))):
        raise ValueError("X must contain only the values 0 and 1")
    y = check.labels(y, X.shape[0], (0, 1))
    alpha = check.positive(alpha, "alpha")
    Y = np.column_stack([1 - y, y])  # one-hot classes, shape (n, 2)
    n_k = Y.sum(axis=0)
    phi = (Y.T @ X + alpha) / (n_k[:, None] + 2 * alpha)
    return NaiveBayesFit(float((n_k[1] + alpha) / (len(y) + 2 * alpha)), phi)


def naive_bayes_coefficients(fit):
    """Coefficients of the naive-Bayes log-odds, which is linear in binary ``x``.

    ``log P(y=1|x) / P(y=0|x) = beta_0 + sum_j w_j x_j`` with
    ``w_j = logit(phi[1, j]) - logit(phi[0, j])`` and
    ``beta_0 = logit(phi_y) + sum_j log((1 - phi[1, j]) / (1 - phi[0, j]))``.

    Parameters
    ----------
    fit : NaiveBayesFit
        From :func:`naive_bayes_fit`.

    Returns
    -------
    beta : ndarray, shape (d + 1,)
        ``[beta_0, w]``, to be used with the design matrix ``add_intercept(X)``.

    Raises
    ------
    ValueError
        If ``fit`` is not a :class:`NaiveBayesFit`.
    """
    check.instance_of(fit, NaiveBayesFit, "fit", "naive_bayes_fit")
    phi0, phi1 = fit.phi
    w = logit(phi1) - logit(phi0)
    beta_0 = logit(fit.phi_y) + np.sum(np.log1p(-phi1) - np.log1p(-phi0))
    return np.concatenate([[beta_0], w])


def naive_bayes_predict_proba(fit, X):
    """Posterior probability ``P(y = 1 | x)`` under a fitted naive Bayes model.

    Parameters
    ----------
    fit : NaiveBayesFit
        From :func:`naive_bayes_fit`.
    X : array_like, shape (m, d)
        Binary features in {0, 1}.

    Returns
    -------
    ndarray, shape (m,)

    Raises
    ------
    ValueError
        If ``fit`` is not a :class:`NaiveBayesFit`, or ``X`` is not binary or has the
        wrong number of columns.
    """
    beta = naive_bayes_coefficients(fit)
    X = check.matrix(X)
    if X.shape[1] != beta.size - 1 or not np.all(np.isin(X, (0, 1))):
        raise ValueError(f"X must be binary with {beta.size - 1} columns")
    return sigmoid(beta[0] + X @ beta[1:])
