"""Support vector machines (chapter 08): the dual problem solved by SMO, predictions,
KKT conditions, margins, and the primal hinge-loss problem solved by sub-gradients.

Conventions. Data points are the rows of ``X``; labels are in {-1, +1}. The solvers take
a precomputed Gram matrix ``K[i, j] = k(x_i, x_j)`` (any kernel, including the linear
one ``X @ X.T``), and predictions take the cross-Gram matrix ``K_new[k, i] = k(x_new_k,
x_i)`` between new points and the training points. ``C = np.inf`` is the hard margin.
The soft-margin problem is

    primal   min_{w, b}  ½‖w‖² + C Σ_i max(0, 1 - y_i (wᵀφ(x_i) + b))
    dual     max_α  Σ_i α_i - ½ Σ_ij α_i α_j y_i y_j K_ij,  0 ≤ α ≤ C,  Σ_i α_i y_i = 0,

and the ν-SVM (:func:`nu_svm_dual`) is

    primal   min_{w, b, ρ, ξ}  ½‖w‖² - νρ + (1/n) Σ_i ξ_i,  y_i (wᵀφ(x_i) + b) ≥ ρ - ξ_i,  ξ, ρ ≥ 0
    dual     max_α  -½ Σ_ij α_i α_j y_i y_j K_ij,  0 ≤ α ≤ 1/n,  Σ_i α_i = ν,  Σ_i α_i y_i = 0.
"""
from dataclasses import dataclass

import numpy as np

from mlnotes import _validate as check

__all__ = [
    "geometric_margin", "project_onto_hyperplane",
    "SVMResult", "svm_dual", "svm_decision_function", "svm_predict",
    "dual_objective", "primal_objective", "kkt_violations",
    "HingeResult", "hinge_objective", "hinge_subgradient_descent",
    "NuSVMResult", "nu_svm_dual", "NuProperty", "nu_property",
]

_TAU = 1e-12  # curvature floor of the working-set selection (as in LIBSVM)


# ------------------------------------------------------------------------ validation
def _box(C):
    """``C`` as a float in (0, inf]; ``np.inf`` is the hard margin."""
    if isinstance(C, (float, np.floating)) and C == np.inf:
        return float(C)
    return check.positive(C, "C")


def _pm1(y, n):
    y = check.labels(y, n, (-1, 1))
    if np.all(y == y[0]):
        raise ValueError("y must contain both labels -1 and +1")
    return y.astype(float)


def _psd(K, name="K"):
    """Reject a Gram matrix with a clearly negative eigenvalue (the dual is then not convex).

    The test is that ``K + δI`` has a Cholesky factor, with ``δ = 1e-9 n max|K_ij|``, which
    holds exactly when the smallest eigenvalue exceeds ``-δ``; it costs a twentieth of an
    eigenvalue decomposition, which is computed only to report a failure.
    """
    delta = 1e-9 * K.shape[0] * max(1.0, float(np.abs(K).max()))
    try:
        np.linalg.cholesky(K + delta * np.eye(K.shape[0]))
    except np.linalg.LinAlgError:
        low = np.linalg.eigvalsh(K)[0]
        raise ValueError(f"{name} must be positive semi-definite "
                         f"(smallest eigenvalue {low:.3g}); is the kernel valid?") from None


def _gram(K, y):
    K = check.square(K, "K", symmetric=True)
    return K, _pm1(y, K.shape[0])


def _weights(w, b, d):
    return check.vector(w, d, "w"), check.number(b, "b")


# ------------------------------------------------------------------------- geometry
def geometric_margin(X, y, w, b):
    """Signed distances ``y_i (wᵀx_i + b) / ‖w‖`` of the points to the hyperplane.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Points as rows.
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    w : array_like, shape (d,)
        Normal vector of the hyperplane ``wᵀx + b = 0`` (non-zero).
    b : float
        Offset.

    Returns
    -------
    ndarray, shape (n,)
        Positive for correctly classified points; the margin of the data set is the
        minimum. Unchanged when ``(w, b)`` is scaled by a positive factor.

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``y`` is not ±1, or ``w = 0``.
    """
    X = check.matrix(X)
    y = check.labels(y, X.shape[0], (-1, 1))
    w, b = _weights(w, b, X.shape[1])
    if not np.any(w):
        raise ValueError("w must be non-zero")
    return y * (X @ w + b) / np.linalg.norm(w)


def project_onto_hyperplane(X, w, b):
    """Orthogonal projections ``p = x - w (wᵀx + b) / ‖w‖²`` onto ``wᵀx + b = 0``.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Points as rows.
    w : array_like, shape (d,)
        Normal vector (non-zero).
    b : float
        Offset.

    Returns
    -------
    ndarray, shape (n, d)
        The closest points of the hyperplane; ``‖x - p‖ = |wᵀx + b| / ‖w‖``.

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, or ``w = 0``.
    """
    X = check.matrix(X)
    w, b = _weights(w, b, X.shape[1])
    if not np.any(w):
        raise ValueError("w must be non-zero")
    return X - np.outer(X @ w + b, w) / (w @ w)


# --------------------------------------------------------------------- the dual: SMO
@dataclass(frozen=True, repr=False)
class SVMResult:
    """Solution of the SVM dual problem.

    Attributes
    ----------
    alpha : ndarray, shape (n,)
        Lagrange multipliers, ``0 ≤ alpha ≤ C`` and ``Σ alpha_i y_i = 0``.
    y : ndarray, shape (n,)
        The training labels (±1, as floats).
    b : float
        Intercept, from the free support vectors (``0 < alpha < C``) when there are any.
    C : float
        Box constraint (``inf`` for the hard margin).
    support : ndarray of int
        Indices of the support vectors, ``alpha > 0``.
    n_iter : int
        Number of SMO steps (pairs updated).
    max_violation : float
        Largest KKT violation at the solution (see :func:`kkt_violations`).
    converged : bool
        Whether the stopping rule ``m(alpha) - M(alpha) ≤ tol`` was met.
    """

    alpha: np.ndarray
    y: np.ndarray
    b: float
    C: float
    support: np.ndarray
    n_iter: int
    max_violation: float
    converged: bool

    @property
    def dual_coef(self):
        """``alpha_i y_i`` for every training point (scikit-learn's ``dual_coef_`` on the support)."""
        return self.alpha * self.y

    def __repr__(self):
        return (f"SVMResult(n={self.alpha.size}, n_support={self.support.size}, C={self.C:g}, "
                f"n_iter={self.n_iter}, converged={self.converged})")


def _violating_pair(G, y, alpha, C, K, diag, tol):
    """Second-order working set (Fan, Chen & Lin 2005), or None if the gap is below tol."""
    score = -y * G                                     # -y_t ∇f(α)_t
    up = np.where(y > 0, alpha < C, alpha > 0)         # α_t may move in direction +y_t
    low = np.where(y > 0, alpha > 0, alpha < C)        # α_t may move in direction -y_t
    i = int(np.argmax(np.where(up, score, -np.inf)))
    gap = score[i] - np.min(np.where(low, score, np.inf))
    if gap <= tol:
        return None
    b_it = score[i] - score                            # > 0 for the candidates
    a_it = K[i, i] + diag - 2 * K[i]                   # curvature along the pair (i, t)
    a_it = np.where(a_it > 0, a_it, _TAU)
    gain = np.where(low & (b_it > 0), -b_it**2 / a_it, np.inf)
    j = int(np.argmin(gain))
    return i, j, b_it[j] / a_it[j]


def _intercept(G, y, alpha, C):
    """b = mean of -y_t ∇f_t over free SVs, else the midpoint of the feasible interval."""
    score = -y * G
    free = (alpha > 0) & (alpha < C)
    if free.any():
        return float(score[free].mean())
    up = np.where(y > 0, alpha < C, alpha > 0)
    low = np.where(y > 0, alpha > 0, alpha < C)
    return float((score[up].max() + score[low].min()) / 2)


def svm_dual(K, y, C=1.0, tol=1e-8, max_iter=None):
    """Solve the SVM dual by SMO: repeatedly optimise the most violating pair (α_i, α_j).

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix ``k(x_i, x_j)``: symmetric positive semi-definite.
    y : array_like, shape (n,)
        Labels in {-1, +1}, both present.
    C : float
        Box constraint ``0 ≤ alpha ≤ C`` (positive); ``np.inf`` gives the hard margin,
        which needs separable data.
    tol : float
        Stop when ``max_{I_up} -y_t G_t - min_{I_low} -y_t G_t ≤ tol``, with
        ``G = ∇f(alpha)`` the gradient of the dual objective written as a minimisation
        (LIBSVM's rule); every KKT violation is then at most ``tol``.
    max_iter : int, optional
        Limit on the number of pair updates; default ``max(100000, 100 n)``.

    Returns
    -------
    SVMResult

    Raises
    ------
    ValueError
        If ``K`` is not square, symmetric, finite and positive semi-definite, ``y`` is not
        ±1 with both classes, or ``C``, ``tol`` or ``max_iter`` is not positive.
    """
    K, y = _gram(K, y)
    C, tol = _box(C), check.positive(tol, "tol")
    n = y.size
    max_iter = check.count(max(100_000, 100 * n) if max_iter is None else max_iter, "max_iter")
    _psd(K)
    alpha, G = np.zeros(n), -np.ones(n)                # G = Qα - 1 with Q = (y yᵀ) ∘ K
    diag = np.diag(K).copy()
    n_iter, converged = 0, False
    while n_iter < max_iter:
        pair = _violating_pair(G, y, alpha, C, K, diag, tol)
        if pair is None:                               # confirm with a fresh gradient
            G = y * (K @ (alpha * y)) - 1
            if _violating_pair(G, y, alpha, C, K, diag, tol) is None:
                converged = True
                break
            continue
        i, j, t = pair
        room_i = C - alpha[i] if y[i] > 0 else alpha[i]   # α_i moves by +t y_i
        room_j = alpha[j] if y[j] > 0 else C - alpha[j]   # α_j moves by -t y_j
        t = min(t, room_i, room_j)
        alpha[i] = (C if y[i] > 0 else 0.0) if t == room_i else alpha[i] + t * y[i]
        alpha[j] = (0.0 if y[j] > 0 else C) if t == room_j else alpha[j] - t * y[j]
        G += t * y * (K[i] - K[j])                    # rows: contiguous, and K is symmetric
        n_iter += 1
    b = _intercept(G, y, alpha, C)
    worst = float(_kkt(K, y, alpha, b, C).max())
    return SVMResult(alpha, y, b, C, np.flatnonzero(alpha > 0), n_iter, worst, converged)


def svm_decision_function(result, K_new):
    """Scores ``f(x) = Σ_i alpha_i y_i k(x_i, x) + b`` of new points.

    Parameters
    ----------
    result : SVMResult or NuSVMResult
        From :func:`svm_dual` or :func:`nu_svm_dual`.
    K_new : array_like, shape (m, n)
        Kernel values ``k(x_new_k, x_i)`` against the ``n`` training points.

    Returns
    -------
    ndarray, shape (m,)

    Raises
    ------
    ValueError
        If ``result`` is not an :class:`SVMResult` or :class:`NuSVMResult`, or ``K_new``
        has the wrong shape.
    """
    result = check.instance_of(result, (SVMResult, NuSVMResult), "result", "svm_dual or nu_svm_dual")
    K_new = check.matrix(K_new, "K_new")
    if K_new.shape[1] != result.alpha.size:
        raise ValueError(f"K_new must have {result.alpha.size} columns (one per training point), "
                         f"got {K_new.shape[1]}")
    return K_new @ result.dual_coef + result.b


def svm_predict(result, K_new):
    """Predicted labels ``sign f(x)`` in {-1, +1} (a score of exactly 0 counts as +1).

    Parameters
    ----------
    result : SVMResult or NuSVMResult
        From :func:`svm_dual` or :func:`nu_svm_dual`.
    K_new : array_like, shape (m, n)
        Kernel values ``k(x_new_k, x_i)`` against the ``n`` training points.

    Returns
    -------
    ndarray of int, shape (m,)

    Raises
    ------
    ValueError
        If ``result`` is not an :class:`SVMResult` or :class:`NuSVMResult`, or ``K_new``
        has the wrong shape.
    """
    return np.where(svm_decision_function(result, K_new) >= 0, 1, -1)


def dual_objective(K, y, alpha):
    """The dual objective ``W(alpha) = Σ alpha_i - ½ Σ_ij alpha_i alpha_j y_i y_j K_ij``.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Symmetric Gram matrix.
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    alpha : array_like, shape (n,)
        Multipliers.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, or ``y`` is not ±1.
    """
    K, y = _gram(K, y)
    alpha = check.vector(alpha, y.size, "alpha")
    v = alpha * y
    return float(alpha.sum() - 0.5 * v @ K @ v)


def primal_objective(K, y, alpha, b, C):
    """Primal objective ``½‖w‖² + C Σ_i max(0, 1 - y_i f(x_i))`` at ``w = Σ alpha_i y_i φ(x_i)``.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Symmetric Gram matrix.
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    alpha : array_like, shape (n,)
        Multipliers defining ``w``.
    b : float
        Intercept.
    C : float
        Box constraint (positive or ``np.inf``; with ``inf`` a point inside the margin
        makes the objective infinite).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``y`` is not ±1 or ``C`` is not positive.
    """
    K, y = _gram(K, y)
    v = check.vector(alpha, y.size, "alpha") * y
    b, C = check.number(b, "b"), _box(C)
    slack = np.maximum(0.0, 1 - y * (K @ v + b))
    penalty = C * slack.sum() if slack.any() else 0.0
    return float(0.5 * v @ K @ v + penalty)


def kkt_violations(K, y, alpha, b, C):
    """How far each point is from its KKT condition (0 means satisfied).

    The conditions, with ``m_i = y_i f(x_i)``: ``alpha_i = 0 ⇒ m_i ≥ 1``,
    ``0 < alpha_i < C ⇒ m_i = 1`` and ``alpha_i = C ⇒ m_i ≤ 1``; a multiplier outside
    ``[0, C]`` counts by its distance to the box. The equality ``Σ alpha_i y_i = 0`` is not
    a per-point condition; check it separately.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Symmetric Gram matrix.
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    alpha : array_like, shape (n,)
        Multipliers.
    b : float
        Intercept.
    C : float
        Box constraint (positive or ``np.inf``).

    Returns
    -------
    ndarray, shape (n,)
        Non-negative violations.

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``y`` is not ±1 or ``C`` is not positive.
    """
    K, y = _gram(K, y)
    alpha = check.vector(alpha, y.size, "alpha")
    return _kkt(K, y, alpha, check.number(b, "b"), _box(C))


def _kkt(K, y, alpha, b, C, rho=1.0):
    """Per-point KKT violations for the target margin ``rho`` (1 for the C-SVM)."""
    m = y * (K @ (alpha * y) + b)
    cond = np.where(alpha <= 0, np.maximum(0.0, rho - m),
                    np.where(alpha >= C, np.maximum(0.0, m - rho), np.abs(m - rho)))
    box = np.maximum(0.0, np.maximum(-alpha, alpha - C))
    return np.maximum(cond, box)


# ----------------------------------------------------------- the primal: sub-gradients
@dataclass(frozen=True, repr=False)
class HingeResult:
    """Result of :func:`hinge_subgradient_descent`.

    Attributes
    ----------
    w : ndarray, shape (d,)
        Weights of the best iterate (lowest objective).
    b : float
        Intercept of the best iterate.
    objective : float
        Its objective value.
    history : ndarray, shape (n_iter + 1,)
        Objective of every iterate, starting from ``w = 0, b = 0``.
    lam : float
        Regularisation parameter.
    """

    w: np.ndarray
    b: float
    objective: float
    history: np.ndarray
    lam: float

    def __repr__(self):
        return f"HingeResult(d={self.w.size}, n_iter={self.history.size - 1}, lam={self.lam:g})"


def hinge_objective(X, y, w, b, lam):
    """Regularised hinge risk ``(1/n) Σ_i max(0, 1 - y_i (wᵀx_i + b)) + (lam/2) ‖w‖²``.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Points as rows (no column of ones: ``b`` is the unpenalised intercept).
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    w : array_like, shape (d,)
        Weights.
    b : float
        Intercept.
    lam : float
        Regularisation parameter (positive).

    Returns
    -------
    float
        Equal to ``P_C(w, b) / (n C)`` for the SVM primal ``P_C`` with ``C = 1/(n lam)``.

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``y`` is not ±1 or ``lam`` is not positive.
    """
    X = check.matrix(X)
    y = check.labels(y, X.shape[0], (-1, 1))
    w, b = _weights(w, b, X.shape[1])
    lam = check.positive(lam, "lam")
    return float(np.mean(np.maximum(0.0, 1 - y * (X @ w + b))) + 0.5 * lam * w @ w)


def hinge_subgradient_descent(X, y, lam, n_iter=2000, step=1.0, fit_intercept=True):
    """Minimise the regularised hinge risk by full-batch sub-gradient steps ``step/sqrt(t)``.

    A sub-gradient at ``(w, b)`` is ``(lam w - (1/n) Σ_{i∈A} y_i x_i, -(1/n) Σ_{i∈A} y_i)``
    with ``A = {i : y_i (wᵀx_i + b) < 1}`` (the points whose hinge is active). The method is
    not a descent method, so the best iterate is returned.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Points as rows (no column of ones).
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    lam : float
        Regularisation parameter (positive); ``lam = 1/(n C)`` matches the SVM with box ``C``.
    n_iter : int
        Number of steps.
    step : float
        Initial step size (positive); step ``t`` is ``step / sqrt(t)``.
    fit_intercept : bool
        If false, ``b`` stays 0 (the problem scikit-learn's ``LinearSVC(loss="hinge",
        fit_intercept=False)`` solves, with ``C = 1/(n lam)``).

    Returns
    -------
    HingeResult

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``y`` is not ±1, ``lam``,
        ``n_iter`` or ``step`` is not positive, ``fit_intercept`` is not a bool, or the
        iterates diverge (the objective overflows: ``step`` is too large for ``lam``).
    """
    X = check.matrix(X)
    y = check.labels(y, X.shape[0], (-1, 1)).astype(float)
    lam, step = check.positive(lam, "lam"), check.positive(step, "step")
    n_iter = check.count(n_iter, "n_iter")
    fit_intercept = check.flag(fit_intercept, "fit_intercept")
    n, d = X.shape
    w, b = np.zeros(d), 0.0
    history = np.empty(n_iter + 1)
    best = (np.inf, w, b)
    for t in range(n_iter + 1):
        with np.errstate(over="ignore", invalid="ignore"):
            active = y * (X @ w + b) < 1
            history[t] = np.sum(1 - y[active] * (X[active] @ w + b)) / n + 0.5 * lam * w @ w
        if not np.isfinite(history[t]):
            raise ValueError(f"hinge_subgradient_descent diverged (the objective overflowed at "
                             f"step {t}): use a smaller step (step * lam = {step * lam:g} is large)")
        if history[t] < best[0]:
            best = (history[t], w, b)
        if t == n_iter:
            break
        eta = step / np.sqrt(t + 1)
        w = w - eta * (lam * w - y[active] @ X[active] / n)
        b = b + eta * y[active].sum() / n if fit_intercept else 0.0
    return HingeResult(best[1], float(best[2]), float(best[0]), history, lam)


# ------------------------------------------------------------------------ the ν-SVM
@dataclass(frozen=True, repr=False)
class NuSVMResult:
    """Solution of the ν-SVM dual problem.

    Attributes
    ----------
    alpha : ndarray, shape (n,)
        Multipliers, ``0 ≤ alpha ≤ 1/n``, ``Σ alpha_i = nu`` (and ``Σ alpha_i y_i = 0``
        with an intercept).
    y : ndarray, shape (n,)
        The training labels (±1, as floats).
    rho : float
        The margin parameter ρ: free support vectors have ``y_i f(x_i) = rho``.
    b : float
        Intercept (0 without one).
    nu : float
        The parameter ν.
    fit_intercept : bool
        Whether the problem had an intercept (the constraint ``Σ alpha_i y_i = 0``).
    support : ndarray of int
        Indices of the support vectors, ``alpha > 0``.
    n_iter : int
        Number of pair updates.
    max_violation : float
        Largest KKT violation at the solution, in units of the score ``f``.
    converged : bool
        Whether the stopping rule (gap at most ``tol`` in every group) was met.
    """

    alpha: np.ndarray
    y: np.ndarray
    rho: float
    b: float
    nu: float
    fit_intercept: bool
    support: np.ndarray
    n_iter: int
    max_violation: float
    converged: bool

    @property
    def dual_coef(self):
        """``alpha_i y_i``; scikit-learn's ``NuSVC.dual_coef_`` is ``dual_coef / rho``."""
        return self.alpha * self.y

    def __repr__(self):
        return (f"NuSVMResult(n={self.alpha.size}, n_support={self.support.size}, "
                f"nu={self.nu:g}, n_iter={self.n_iter}, converged={self.converged})")


def _nu_pair(G, alpha, C, Q, diag, group, masks, tol):
    """Second-order pair (i up, j low) within one group, or None if every gap is ≤ tol."""
    up, low = alpha < C, alpha > 0                      # α_t may increase / decrease
    G_up = np.where(masks & up, G, np.inf)             # (groups, n)
    heads = np.argmin(G_up, axis=1)                    # i of each group: smallest G in up
    ok = np.isfinite(G_up[np.arange(heads.size), heads])
    gaps = np.max(np.where(masks & low, G, -np.inf), axis=1) - G[heads]
    if not ok.any() or gaps[ok].max() <= tol:
        return None
    i = heads[group]                                   # the partner of every t: its group's i
    b_it = G - G[i]                                    # > 0 for the candidates
    a_it = diag[i] + diag - 2 * Q[i, np.arange(G.size)]   # curvature along e_i - e_t
    a_it = np.where(a_it > 0, a_it, _TAU)
    gain = np.where(low & (b_it > 0) & ok[group], -b_it**2 / a_it, np.inf)
    j = int(np.argmin(gain))
    return int(i[j]), j, b_it[j] / a_it[j]


def _nu_offsets(G, alpha, C, group):
    """r_g = G_t at the free SVs of group g (their mean), else the midpoint of its interval."""
    r = []
    for g in np.unique(group):
        in_g, free = group == g, (group == g) & (alpha > 0) & (alpha < C)
        lo, up = G[in_g & (alpha > 0)].max(), in_g & (alpha < C)
        r.append(G[free].mean() if free.any() else (lo + G[up].min()) / 2 if up.any() else lo)
    return r


def nu_svm_dual(K, y, nu, fit_intercept=True, tol=1e-8, max_iter=None):
    """Solve the ν-SVM dual by SMO over pairs that keep ``Σ alpha_i`` (and each class sum) fixed.

    Minimises ``½ alphaᵀQalpha`` with ``Q_ij = y_i y_j K_ij`` over ``0 ≤ alpha ≤ 1/n`` and
    ``Σ alpha_i = nu``; with an intercept also ``Σ alpha_i y_i = 0``, i.e. each class sums to
    ``nu/2``, so pairs are taken within a class. ``rho`` and ``b`` come from the multipliers
    ``r_+ = rho - b`` and ``r_- = rho + b`` of the two class sums (``r = rho`` without an
    intercept), read off the free support vectors, where ``(Qalpha)_t = r``.

    Parameters
    ----------
    K : array_like, shape (n, n)
        Gram matrix: symmetric positive semi-definite.
    y : array_like, shape (n,)
        Labels in {-1, +1}, both present.
    nu : float
        In ``(0, nu_max]`` with ``nu_max = 2 min(n_+, n_-)/n`` (intercept) or ``1`` (none);
        a larger ``nu`` makes the problem infeasible.
    fit_intercept : bool
        Whether the primal has the intercept ``b`` (LIBSVM's ``NuSVC`` has one; the UCL notes
        drop it).
    tol : float
        Stop when, in every group (class, or all points), ``max_{alpha_t > 0} G_t -
        min_{alpha_t < 1/n} G_t ≤ tol`` with ``G = Qalpha``; every KKT violation is then ≤ tol.
    max_iter : int, optional
        Limit on the number of pair updates; default ``max(100000, 100 n)``.

    Returns
    -------
    NuSVMResult
        ``rho ≤ 0`` (up to rounding) signals the trivial solution ``w = 0`` of a ``nu`` too
        small for overlapping classes.

    Raises
    ------
    ValueError
        If ``K`` is not square, symmetric, finite and positive semi-definite, ``y`` is not ±1
        with both classes, ``nu`` is not in ``(0, nu_max]``, ``fit_intercept`` is not a bool,
        or ``tol`` or ``max_iter`` is not positive.
    """
    K, y = _gram(K, y)
    nu, tol = check.positive(nu, "nu"), check.positive(tol, "tol")
    fit_intercept = check.flag(fit_intercept, "fit_intercept")
    n = y.size
    max_iter = check.count(max(100_000, 100 * n) if max_iter is None else max_iter, "max_iter")
    group = (y > 0).astype(int) if fit_intercept else np.zeros(n, dtype=int)
    sizes, masks = np.bincount(group), group == np.arange(group.max() + 1)[:, None]
    nu_max = sizes.size * sizes.min() / n
    if nu > nu_max * (1 + 1e-12):
        raise ValueError(f"nu must be in (0, {nu_max:.6g}] (2 min(n+, n-)/n with an intercept, "
                         f"1 without); got {nu!r}")
    _psd(K)
    Q, C = K * np.outer(y, y), 1.0 / n
    alpha = np.minimum(nu / sizes.size / sizes[group], C)   # uniform in each group: feasible
    G, diag = Q @ alpha, np.diag(Q).copy()
    n_iter, converged = 0, False
    while n_iter < max_iter:
        pair = _nu_pair(G, alpha, C, Q, diag, group, masks, tol)
        if pair is None:                                   # confirm with a fresh gradient
            G = Q @ alpha
            if _nu_pair(G, alpha, C, Q, diag, group, masks, tol) is None:
                converged = True
                break
            continue
        i, j, t = pair
        t = min(t, C - alpha[i], alpha[j])
        alpha[i] = C if t == C - alpha[i] else alpha[i] + t
        alpha[j] = 0.0 if t == alpha[j] else alpha[j] - t
        G += t * (Q[i] - Q[j])
        n_iter += 1
    alpha[alpha <= 1e-12 * C], alpha[alpha >= (1 - 1e-12) * C] = 0.0, C   # rounding residues
    r = _nu_offsets(G, alpha, C, group)
    rho, b = ((r[0] + r[1]) / 2, (r[0] - r[1]) / 2) if fit_intercept else (r[0], 0.0)
    worst = float(_kkt(K, y, alpha, b, C, rho).max())
    return NuSVMResult(alpha, y, float(rho), float(b), nu, fit_intercept,
                       np.flatnonzero(alpha > 0), n_iter, worst, converged)


@dataclass(frozen=True)
class NuProperty:
    """Fractions of the training points in the ν-property (see :func:`nu_property`).

    Attributes
    ----------
    margin_errors : float
        Fraction with ``y_i f(x_i) < rho``, i.e. slack ``ξ_i > 0``.
    at_bound : float
        Fraction with ``alpha_i = 1/n``.
    support : float
        Fraction of support vectors, ``alpha_i > 0``.
    sum_alpha : float
        ``Σ alpha_i``, which is ν at a solution with ``rho > 0``.
    """

    margin_errors: float
    at_bound: float
    support: float
    sum_alpha: float


def nu_property(alpha, margins, rho, tol=1e-8):
    """The fractions of the ν-property: margin errors ≤ at the bound ≤ ν ≤ support vectors.

    Parameters
    ----------
    alpha : array_like, shape (n,)
        ν-SVM multipliers in ``[0, 1/n]``; one counts as 0 below ``1e-9/n`` and as at the
        bound above ``(1 - 1e-9)/n``.
    margins : array_like, shape (n,)
        ``y_i f(x_i)`` at the solution.
    rho : float
        The margin parameter (positive), on the scale of ``margins``.
    tol : float
        Point ``i`` is a margin error if ``margins_i < rho - tol`` (use the solver's
        tolerance, in the units of ``margins``).

    Returns
    -------
    NuProperty

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, ``alpha`` is outside ``[0, 1/n]``, or
        ``rho`` or ``tol`` is not positive.
    """
    alpha = check.vector(alpha, None, "alpha")
    n = alpha.size
    margins = check.vector(margins, n, "margins")
    rho, tol = check.positive(rho, "rho"), check.positive(tol, "tol")
    if np.any(alpha < -1e-9 / n) or np.any(alpha > (1 + 1e-9) / n):
        raise ValueError(f"alpha must lie in [0, 1/n] = [0, {1 / n:.6g}]")
    return NuProperty(float(np.mean(margins < rho - tol)), float(np.mean(alpha >= (1 - 1e-9) / n)),
                      float(np.mean(alpha > 1e-9 / n)), float(alpha.sum()))
