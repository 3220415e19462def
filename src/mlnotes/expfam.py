"""Exponential families, conjugacy and Gaussian identities (chapter 34).

The linear-algebra toolkit (Woodbury, the gain identity, the partitioned inverse, a
finite-difference matrix derivative), exponential families in natural form
``p(x | θ) = h(x) exp(θᵀs(x) − Φ(θ))``, conjugate posteriors with their marginal
likelihoods and posterior predictives, and Gaussian conditioning, marginalisation and the
linear Gaussian model.

Conventions. Gamma distributions use the *rate* ``b`` (mean ``a/b``). The Wishart
distribution ``W(Λ | W, ν)`` has mean ``νW`` (scipy's ``wishart(df=ν, scale=W)``). The
Normal–Gamma prior is ``τ ~ Gamma(α, β)``, ``μ | τ ~ N(m, 1/(λτ))``; the Normal–Wishart
prior is ``Λ ~ W(W, ν)``, ``μ | Λ ~ N(m, (βΛ)⁻¹)``. Priors and posteriors are plain dicts
of hyperparameters, so that a posterior visibly has the keys of its prior.
"""
from typing import NamedTuple

import numpy as np
from scipy.special import digamma, gammaln, multigammaln, polygamma

from mlnotes import _validate as check

__all__ = [
    "woodbury_inverse", "gain_identity_sides", "partitioned_inverse",
    "numeric_matrix_derivative",
    "log_partition", "mean_parameters", "natural_parameters", "sufficient_statistics",
    "conjugate_posterior", "log_marginal_likelihood", "Predictive", "posterior_predictive",
    "gaussian_condition", "gaussian_marginal", "LinearGaussian", "linear_gaussian",
]

FAMILIES = ("bernoulli", "categorical", "poisson", "normal", "gamma", "beta")
CONJUGATE = ("beta-bernoulli", "dirichlet-multinomial", "gamma-poisson", "normal-normal",
             "normal-gamma", "normal-wishart")
_PRIOR_KEYS = {"beta-bernoulli": ("a", "b"), "dirichlet-multinomial": ("alpha",),
               "gamma-poisson": ("a", "b"), "normal-normal": ("m", "v", "sigma2"),
               "normal-gamma": ("m", "lam", "alpha", "beta"),
               "normal-wishart": ("m", "beta", "W", "nu")}


def _finite_result(value, names):
    """``value`` if every entry is finite; ``ValueError`` naming ``names`` if it overflowed."""
    for v in (value if isinstance(value, tuple) else (value,)):
        if not np.all(np.isfinite(np.asarray(v, dtype=float))):
            raise ValueError(f"the result is not finite (the computation overflowed): rescale {names}")
    return value


def _inv(A, name):
    """The inverse of the square matrix ``A``; ``ValueError`` naming it if singular."""
    A = check.square(A, name)
    if np.linalg.cond(A) > 1e14:
        raise ValueError(f"{name} must be invertible")
    return np.linalg.inv(A)


# --------------------------------------------------------------------- matrix identities
def woodbury_inverse(A_inv, U, C, V):
    """``(A + UCV)⁻¹`` from ``A⁻¹`` by the Woodbury identity.

    ``(A + UCV)⁻¹ = A⁻¹ − A⁻¹U(C⁻¹ + VA⁻¹U)⁻¹VA⁻¹``: only a ``k × k`` system is solved when
    ``U`` is ``n × k``.

    Parameters
    ----------
    A_inv : array_like, shape (n, n)
        The inverse of ``A``.
    U : array_like, shape (n, k)
    C : array_like, shape (k, k)
        Invertible.
    V : array_like, shape (k, n)

    Returns
    -------
    ndarray, shape (n, n)
    """
    A_inv = check.square(A_inv, "A_inv")
    U = check.matrix(U, "U")
    C_inv = _inv(C, "C")
    V = check.matrix(V, "V")
    n, k = A_inv.shape[0], C_inv.shape[0]
    if U.shape != (n, k) or V.shape != (k, n):
        raise ValueError(f"U must have shape ({n}, {k}) and V shape ({k}, {n}); "
                         f"got {U.shape} and {V.shape}")
    AU, VA = A_inv @ U, V @ A_inv
    return A_inv - AU @ np.linalg.solve(C_inv + V @ AU, VA)


def gain_identity_sides(P, B, R):
    """Both sides of ``(P⁻¹ + BᵀR⁻¹B)⁻¹BᵀR⁻¹ = PBᵀ(BPBᵀ + R)⁻¹``.

    Parameters
    ----------
    P : array_like, shape (n, n)
        Invertible (a prior covariance in the Kalman filter).
    B : array_like, shape (m, n)
    R : array_like, shape (m, m)
        Invertible (a noise covariance).

    Returns
    -------
    lhs, rhs : ndarray, shape (n, m)
        The information form (an ``n × n`` inverse) and the gain form (an ``m × m`` one).
    """
    P, R = check.square(P, "P"), check.square(R, "R")
    P_inv, R_inv = _inv(P, "P"), _inv(R, "R")
    B = check.matrix(B, "B")
    if B.shape != (R_inv.shape[0], P_inv.shape[0]):
        raise ValueError(f"B must have shape ({R_inv.shape[0]}, {P_inv.shape[0]}), got {B.shape}")
    with np.errstate(over="ignore", invalid="ignore"):
        M, S = P_inv + B.T @ R_inv @ B, B @ P @ B.T + R
    _finite_result((M, S), "P, B and R")
    if np.linalg.cond(M) > 1e14 or np.linalg.cond(S) > 1e14:
        raise ValueError("P, B and R must make P⁻¹ + BᵀR⁻¹B and BPBᵀ + R invertible")
    lhs = np.linalg.solve(M, B.T @ R_inv)
    rhs = np.linalg.solve(S.T, B @ P.T).T
    return _finite_result((lhs, rhs), "P, B and R")


def partitioned_inverse(A, B, C, D):
    """The inverse of the block matrix ``[[A, B], [C, D]]`` through the Schur complement of D.

    With ``M = (A − BD⁻¹C)⁻¹`` the inverse is
    ``[[M, −MBD⁻¹], [−D⁻¹CM, D⁻¹ + D⁻¹CMBD⁻¹]]``.

    Parameters
    ----------
    A : array_like, shape (p, p)
    B : array_like, shape (p, q)
    C : array_like, shape (q, p)
    D : array_like, shape (q, q)
        ``D`` and ``A − BD⁻¹C`` must be invertible.

    Returns
    -------
    ndarray, shape (p + q, p + q)
    """
    A, D_inv = check.square(A, "A"), _inv(D, "D")
    B, C = check.matrix(B, "B"), check.matrix(C, "C")
    p, q = A.shape[0], D_inv.shape[0]
    if B.shape != (p, q) or C.shape != (q, p):
        raise ValueError(f"B must have shape ({p}, {q}) and C shape ({q}, {p}); got {B.shape} and {C.shape}")
    M = _inv(A - B @ D_inv @ C, "the Schur complement A - B D^-1 C")
    top = np.hstack([M, -M @ B @ D_inv])
    bottom = np.hstack([-D_inv @ C @ M, D_inv + D_inv @ C @ M @ B @ D_inv])
    return np.vstack([top, bottom])


def numeric_matrix_derivative(f, A, h=1e-5):
    """Central finite differences ``∂f/∂A_ij ≈ (f(A + hE_ij) − f(A − hE_ij)) / 2h``.

    Parameters
    ----------
    f : callable
        Maps a matrix of the shape of ``A`` to a number or an array.
    A : array_like, shape (n, m)
    h : float
        Step (positive).

    Returns
    -------
    ndarray, shape ``A.shape + np.shape(f(A))``
        Entry ``[i, j, ...]`` is the derivative with respect to ``A[i, j]``.
    """
    f = check.function(f, "f")
    A = check.matrix(A, "A")
    h = check.positive(h, "h")
    if np.any(A + h == A) or np.any(A - h == A) or not np.all(np.isfinite(A + h)):
        raise ValueError(f"h = {h:g} is below the float spacing of A (or overflows it): A ± h must "
                         f"differ from A in every entry")
    shape = check.returned(f(A), "f").shape
    out = np.empty(A.shape + shape)
    for i, j in np.ndindex(A.shape):
        E = np.zeros_like(A)
        E[i, j] = h
        up, down = check.returned(f(A + E), "f", shape), check.returned(f(A - E), "f", shape)
        with np.errstate(over="ignore", invalid="ignore"):
            out[i, j] = (up - down) / (2 * h)
    if not np.all(np.isfinite(out)):
        raise ValueError("f returned values whose central differences are not finite; use a smaller h")
    return out


# ------------------------------------------------------------------ exponential families
def _theta(theta, family):
    """Validated natural parameters of ``family`` (a 1-D array)."""
    family = check.choice(family, FAMILIES, "family")
    theta = np.atleast_1d(check.finite(theta, "theta"))
    need = {"bernoulli": 1, "poisson": 1, "normal": 2, "gamma": 2, "beta": 2}.get(family)
    if theta.ndim != 1 or (need is not None and theta.size != need) or theta.size == 0:
        raise ValueError(f"theta must be a 1-D array with {need or 'K - 1 >= 1'} entries for "
                         f"family {family!r}, got shape {theta.shape}")
    bad = ((family == "normal" and theta[1] >= 0)
           or (family == "gamma" and (theta[0] <= -1 or theta[1] >= 0))
           or (family == "beta" and np.any(theta <= -1)))
    if bad:
        raise ValueError(f"theta is outside the natural parameter space of {family!r}")
    return family, theta


def log_partition(theta, family):
    """The log-partition function ``Φ(θ) = log ∫ h(x) exp(θᵀs(x)) dx`` of a family.

    Natural parameters and statistics: bernoulli ``θ = logit p``, ``s = x``; categorical
    (``K`` classes, minimal) ``θ_k = log(p_k/p_K)``, ``s = (x_1, …, x_{K−1})`` of the one-hot
    ``x``; poisson ``θ = log λ``, ``s = x``, ``h = 1/x!``; normal ``θ = (μ/σ², −1/(2σ²))``,
    ``s = (x, x²)``, ``h = 1/√(2π)``; gamma ``θ = (a − 1, −b)``, ``s = (log x, x)``; beta
    ``θ = (a − 1, b − 1)``, ``s = (log x, log(1 − x))``.

    Parameters
    ----------
    theta : array_like
        Natural parameters (a number or 1-D array).
    family : {"bernoulli", "categorical", "poisson", "normal", "gamma", "beta"}

    Returns
    -------
    float
    """
    family, t = _theta(theta, family)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        value = _log_partition(t, family)
    if not np.isfinite(value):
        raise ValueError(f"theta = {t} is too extreme: Φ(θ) overflows for {family!r}")
    return value


def _log_partition(t, family):
    """``Φ(θ)`` for validated ``t``."""
    if family in ("bernoulli", "categorical"):
        return float(np.logaddexp.reduce(np.r_[t, 0.0]))
    if family == "poisson":
        return float(np.exp(t[0]))
    if family == "normal":
        return float(-t[0] ** 2 / (4 * t[1]) - 0.5 * np.log(-2 * t[1]))
    a, b = t[0] + 1, t[1] + 1
    if family == "gamma":
        return float(gammaln(a) - a * np.log(-t[1]))
    return float(gammaln(a) + gammaln(b) - gammaln(a + b))


def mean_parameters(theta, family):
    """The mean parameters ``E[s(x)] = ∇Φ(θ)`` (closed forms).

    Parameters
    ----------
    theta : array_like
        Natural parameters, as in :func:`log_partition`.
    family : str
        One of the families of :func:`log_partition`.

    Returns
    -------
    ndarray, shape (m,)
    """
    family, t = _theta(theta, family)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        value = _mean_parameters(t, family)
    if not np.all(np.isfinite(value)):
        raise ValueError(f"theta = {t} is too extreme: the mean parameters overflow for {family!r}")
    return value


def _mean_parameters(t, family):
    """``∇Φ(θ)`` for validated ``t``."""
    if family in ("bernoulli", "categorical"):
        return np.exp(t - np.logaddexp.reduce(np.r_[t, 0.0]))
    if family == "poisson":
        return np.exp(t)
    if family == "normal":
        mu, var = -t[0] / (2 * t[1]), -1 / (2 * t[1])
        return np.array([mu, mu**2 + var])
    a, b = t[0] + 1, t[1] + 1
    if family == "gamma":
        return np.array([digamma(a) - np.log(-t[1]), a / -t[1]])
    return np.array([digamma(a) - digamma(a + b), digamma(b) - digamma(a + b)])


def _fisher(t, family):
    """``∇²Φ(θ) = Cov[s(x)]`` for the families that need Newton's method."""
    a, b = t[0] + 1, t[1] + 1
    if family == "gamma":
        rate = -t[1]
        return np.array([[polygamma(1, a), 1 / rate], [1 / rate, a / rate**2]])
    c = -polygamma(1, a + b)
    return np.array([[polygamma(1, a) + c, c], [c, polygamma(1, b) + c]])


def natural_parameters(mu, family):
    """The natural parameters ``θ`` with ``∇Φ(θ) = mu`` (the inverse of :func:`mean_parameters`).

    Closed forms for bernoulli, categorical, poisson and normal; Newton's method on
    ``Φ(θ) − θᵀmu`` (a convex function, with Hessian ``Cov[s]``) for gamma and beta.

    Parameters
    ----------
    mu : array_like
        Mean parameters ``E[s(x)]``; they must lie in the interior of the mean space.
    family : str
        One of the families of :func:`log_partition`.

    Returns
    -------
    ndarray, shape (m,)
    """
    family = check.choice(family, FAMILIES, "family")
    m = np.atleast_1d(check.finite(mu, "mu"))
    if m.ndim != 1 or not _mean_ok(m, family):
        raise ValueError(f"mu must be a valid interior mean parameter of {family!r}, got {m}")
    if family in ("bernoulli", "categorical"):
        return np.log(m) - np.log1p(-m.sum())
    if family == "poisson":
        return np.log(m)
    if family == "normal":
        var = m[1] - m[0] ** 2
        return np.array([m[0] / var, -1 / (2 * var)])
    t = np.array([0.0, -1.0]) if family == "gamma" else np.zeros(2)
    for _ in range(200):
        step = np.linalg.solve(_fisher(t, family), _mean_parameters(t, family) - m)
        while not _inside(t - step, family):
            step = step / 2
        t = t - step
        if np.max(np.abs(step)) < 1e-13 * (1 + np.max(np.abs(t))):
            break
    else:
        raise ValueError(f"mu = {m}: Newton's method did not converge in 200 steps (mu too close "
                         f"to the boundary of the mean space of {family!r})")
    if not np.allclose(_mean_parameters(t, family), m, rtol=1e-8, atol=1e-10):
        raise ValueError(f"mu = {m}: Newton's method stopped at a point whose mean parameters "
                         f"differ from mu (mu too close to the boundary of the mean space)")
    return t


def _mean_ok(m, family):
    """Whether ``m`` is an interior mean parameter of ``family``."""
    if family in ("bernoulli", "poisson") and m.size != 1:
        return False
    if family in ("normal", "gamma", "beta") and m.size != 2:
        return False
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return bool({"bernoulli": lambda: 0 < m[0] < 1,
                     "categorical": lambda: np.all(m > 0) and m.sum() < 1,
                     "poisson": lambda: m[0] > 0,
                     "normal": lambda: m[1] > m[0] ** 2,
                     "gamma": lambda: m[1] > 0 and m[0] < np.log(m[1]),
                     "beta": lambda: np.all(m < 0) and np.exp(m).sum() < 1}[family]())


def _inside(t, family):
    """Whether ``t`` is in the natural parameter space of gamma or beta."""
    return (t[0] > -1 and t[1] < 0) if family == "gamma" else bool(np.all(t > -1))


def sufficient_statistics(x, family):
    """The sufficient statistic ``s(x_i)`` of each observation, one row per observation.

    Parameters
    ----------
    x : array_like
        Observations: shape (n,) for the scalar families (0/1 for bernoulli, counts for
        poisson, positive for gamma, in (0, 1) for beta), shape (n, K) of one-hot rows
        for categorical.
    family : str
        One of the families of :func:`log_partition`.

    Returns
    -------
    ndarray, shape (n, m)
        Its column sums are the sufficient statistic of an iid sample.
    """
    family = check.choice(family, FAMILIES, "family")
    if family == "categorical":
        x = check.matrix(x, "x")
        if x.shape[1] < 2 or np.any((x != 0) & (x != 1)) or np.any(x.sum(axis=1) != 1):
            raise ValueError("x must be one-hot rows (n, K) with K >= 2 for 'categorical'")
        return x[:, :-1]
    x = check.vector(x, None, "x")
    valid = {"bernoulli": np.all((x == 0) | (x == 1)), "normal": True,
             "poisson": np.all((x >= 0) & (x == np.round(x))), "gamma": np.all(x > 0),
             "beta": np.all((x > 0) & (x < 1))}[family]
    if not valid:
        raise ValueError(f"x must hold valid observations of {family!r}")
    if family == "normal" and np.any(np.abs(x) > 1e150):
        raise ValueError("x is too large: x² overflows")
    if family == "gamma":
        return np.c_[np.log(x), x]
    if family == "beta":
        return np.c_[np.log(x), np.log1p(-x)]
    return np.c_[x, x**2] if family == "normal" else x[:, None]


# ------------------------------------------------------------------------- conjugacy
def _prior(family, prior, name="prior"):
    """Validated ``(family, hyperparameters)`` of a conjugate pair."""
    family = check.choice(family, CONJUGATE, "family")
    if not isinstance(prior, dict) or set(prior) != set(_PRIOR_KEYS[family]):
        raise ValueError(f"{name} must be a dict with keys {_PRIOR_KEYS[family]} for {family!r}")
    p = {}
    for key, value in prior.items():
        if key in ("m",) and family == "normal-wishart":
            p[key] = check.vector(value, None, "prior['m']")
        elif key == "alpha" and family == "dirichlet-multinomial":
            p[key] = check.positive_entries(check.vector(value, None, "prior['alpha']"), "prior['alpha']")
        elif key == "W":
            p[key] = check.spd(value, p["m"].size if "m" in p else np.shape(value)[0], "prior['W']")[0]
        elif key == "m":
            p[key] = check.number(value, "prior['m']")
        else:
            p[key] = check.positive(value, f"prior[{key!r}]")
    if family == "normal-wishart":
        d = p["m"].size
        if p["W"].shape != (d, d) or p["nu"] <= d - 1:
            raise ValueError(f"prior['W'] must be ({d}, {d}) and prior['nu'] > {d - 1}")
    return family, p


def _counts(x):
    """``x`` if its entries are non-negative whole numbers."""
    if np.any(x < 0) or np.any(x != np.round(x)):
        raise ValueError("x must hold non-negative integer counts")
    return x


def _data(family, p, x):
    """Validated observations for a conjugate pair."""
    if family == "dirichlet-multinomial":
        x = _counts(check.matrix_with_columns(x, p["alpha"].size, "x"))
    elif family == "normal-wishart":
        x = check.matrix_with_columns(x, p["m"].size, "x")
    else:
        x = check.vector(x, None, "x")
        if family == "beta-bernoulli" and np.any((x != 0) & (x != 1)):
            raise ValueError("x must hold 0/1 observations for 'beta-bernoulli'")
        if family == "gamma-poisson":
            x = _counts(x)
    return np.asarray(x, dtype=float)


def conjugate_posterior(family, prior, x):
    """The posterior hyperparameters of a conjugate pair after observing ``x``.

    Parameters
    ----------
    family : {"beta-bernoulli", "dirichlet-multinomial", "gamma-poisson", "normal-normal",
              "normal-gamma", "normal-wishart"}
    prior : dict
        ``{"a", "b"}`` (Beta(a, b); Gamma(a, rate b)); ``{"alpha"}`` (Dirichlet);
        ``{"m", "v", "sigma2"}`` (μ ~ N(m, v), known noise variance σ²);
        ``{"m", "lam", "alpha", "beta"}`` (Normal–Gamma); ``{"m", "beta", "W", "nu"}``
        (Normal–Wishart).
    x : array_like
        Observations: shape (n,), or (n, K) count rows (multinomial), or (n, D) points.

    Returns
    -------
    dict
        The posterior, with the keys of the prior.
    """
    family, p = _prior(family, prior)
    x = _data(family, p, x)
    n = x.shape[0]
    if family in ("beta-bernoulli",):
        return {"a": p["a"] + x.sum(), "b": p["b"] + n - x.sum()}
    if family == "dirichlet-multinomial":
        return {"alpha": p["alpha"] + x.sum(axis=0)}
    if family == "gamma-poisson":
        return {"a": p["a"] + x.sum(), "b": p["b"] + n}
    if family == "normal-normal":
        v = 1 / (1 / p["v"] + n / p["sigma2"])
        return {"m": v * (p["m"] / p["v"] + x.sum() / p["sigma2"]), "v": v, "sigma2": p["sigma2"]}
    xbar = x.mean(axis=0)
    if family == "normal-gamma":
        lam = p["lam"] + n
        beta = (p["beta"] + 0.5 * np.sum((x - xbar) ** 2)
                + p["lam"] * n * (xbar - p["m"]) ** 2 / (2 * lam))
        return {"m": (p["lam"] * p["m"] + n * xbar) / lam, "lam": lam,
                "alpha": p["alpha"] + n / 2, "beta": beta}
    beta = p["beta"] + n
    r, dev = x - xbar, xbar - p["m"]
    W_inv = np.linalg.inv(p["W"]) + r.T @ r + p["beta"] * n / beta * np.outer(dev, dev)
    W = np.linalg.inv(W_inv)
    return {"m": (p["beta"] * p["m"] + n * xbar) / beta, "beta": beta,
            "W": (W + W.T) / 2, "nu": p["nu"] + n}


def _logdet(S):
    return np.linalg.slogdet(S)[1]


def log_marginal_likelihood(family, prior, x):
    """``log p(x) = log ∫ p(x | θ) p(θ) dθ`` for a conjugate pair, in closed form.

    It is the probability (density) of the observed sequence ``x_1, …, x_n``; for
    multinomial count rows the multinomial coefficients are included.

    Parameters
    ----------
    family, prior, x
        As in :func:`conjugate_posterior`.

    Returns
    -------
    float
    """
    family, p = _prior(family, prior)
    x = _data(family, p, x)
    q = conjugate_posterior(family, prior, x)
    n = x.shape[0]
    if family == "beta-bernoulli":
        lb = lambda a, b: gammaln(a) + gammaln(b) - gammaln(a + b)  # noqa: E731
        return float(lb(q["a"], q["b"]) - lb(p["a"], p["b"]))
    if family == "dirichlet-multinomial":
        a0, c = p["alpha"], x.sum(axis=0)
        coef = np.sum(gammaln(x.sum(axis=1) + 1)) - np.sum(gammaln(x + 1))
        return float(coef + gammaln(a0.sum()) - gammaln(a0.sum() + c.sum())
                     + np.sum(gammaln(a0 + c) - gammaln(a0)))
    if family == "gamma-poisson":
        return float(p["a"] * np.log(p["b"]) - gammaln(p["a"]) + gammaln(q["a"])
                     - q["a"] * np.log(q["b"]) - np.sum(gammaln(x + 1)))
    if family == "normal-normal":
        # x ~ N(m 1, s2 I + v 11ᵀ); the quadratic form in centred (two-pass) form
        s2, xbar = p["sigma2"], x.mean()
        quad = np.sum((x - xbar) ** 2) / s2 + n * (xbar - p["m"]) ** 2 / (s2 + n * p["v"])
        return float(-n / 2 * np.log(2 * np.pi * s2) + 0.5 * np.log(q["v"] / p["v"]) - 0.5 * quad)
    if family == "normal-gamma":
        return float(gammaln(q["alpha"]) - gammaln(p["alpha"]) + p["alpha"] * np.log(p["beta"])
                     - q["alpha"] * np.log(q["beta"]) + 0.5 * np.log(p["lam"] / q["lam"])
                     - n / 2 * np.log(2 * np.pi))
    d = p["m"].size
    return float(-n * d / 2 * np.log(np.pi) + multigammaln(q["nu"] / 2, d)
                 - multigammaln(p["nu"] / 2, d) - p["nu"] / 2 * _logdet(p["W"])
                 + q["nu"] / 2 * _logdet(q["W"]) + d / 2 * np.log(p["beta"] / q["beta"]))


class Predictive(NamedTuple):
    """A posterior predictive distribution: its ``kind`` and scipy-style ``params``."""
    kind: str
    params: dict


def posterior_predictive(family, post):
    """The posterior predictive distribution of one new observation.

    Parameters
    ----------
    family : str
        As in :func:`conjugate_posterior`.
    post : dict
        Hyperparameters (a posterior from :func:`conjugate_posterior`, or a prior).

    Returns
    -------
    Predictive
        ``bernoulli(p)``; ``categorical(p)`` (one trial); ``nbinom(n=a, p=b/(b + 1))``;
        ``norm(loc, scale)``; ``t(df=2α, loc=m, scale=√(β(λ + 1)/(αλ)))``;
        ``multivariate_t(loc=m, shape=(β + 1)/(β(ν − D + 1))·W⁻¹, df=ν − D + 1)``.
    """
    family, p = _prior(family, post, "post")
    if family == "beta-bernoulli":
        return Predictive("bernoulli", {"p": p["a"] / (p["a"] + p["b"])})
    if family == "dirichlet-multinomial":
        return Predictive("categorical", {"p": p["alpha"] / p["alpha"].sum()})
    if family == "gamma-poisson":
        return Predictive("nbinom", {"n": p["a"], "p": p["b"] / (p["b"] + 1)})
    if family == "normal-normal":
        return Predictive("norm", {"loc": p["m"], "scale": float(np.sqrt(p["v"] + p["sigma2"]))})
    if family == "normal-gamma":
        scale = np.sqrt(p["beta"] * (p["lam"] + 1) / (p["alpha"] * p["lam"]))
        return Predictive("t", {"df": 2 * p["alpha"], "loc": p["m"], "scale": float(scale)})
    df = p["nu"] - p["m"].size + 1
    shape = (p["beta"] + 1) / (p["beta"] * df) * np.linalg.inv(p["W"])
    return Predictive("multivariate_t", {"loc": p["m"], "shape": (shape + shape.T) / 2, "df": df})


# -------------------------------------------------------------------------- Gaussians
def _block(mu, Sigma, a):
    """Validated mean, covariance and index arrays of the blocks a and b."""
    mu = check.vector(mu, None, "mu")
    Sigma = check.spd(Sigma, mu.size, "Sigma")[0]
    if isinstance(a, (bool, np.bool_, str)) or a is None:
        raise ValueError(f"a must be integer indices, got {a!r}")
    a = check.index_array([a] if isinstance(a, (int, np.integer)) else a, None, mu.size, "a")
    if np.unique(a).size != a.size:
        raise ValueError("a must not repeat an index")
    b = np.setdiff1d(np.arange(mu.size), a)
    return mu, Sigma, a, b


def gaussian_condition(mu, Sigma, a, x_b):
    """``p(x_a | x_b)`` of ``x ~ N(mu, Sigma)``: mean and covariance (covariance form).

    ``μ_{a|b} = μ_a + Σ_abΣ_bb⁻¹(x_b − μ_b)`` and ``Σ_{a|b} = Σ_aa − Σ_abΣ_bb⁻¹Σ_ba``; ``b`` is
    the complement of ``a``.

    Parameters
    ----------
    mu : array_like, shape (d,)
    Sigma : array_like, shape (d, d)
        Symmetric positive definite.
    a : array_like of int
        Indices of the block ``x_a`` (a proper, non-empty subset).
    x_b : array_like, shape (d − len(a),)
        The observed values of the other coordinates, in increasing index order.

    Returns
    -------
    mean : ndarray, shape (len(a),)
    cov : ndarray, shape (len(a), len(a))
    """
    mu, Sigma, a, b = _block(mu, Sigma, a)
    if b.size == 0:
        raise ValueError("a must leave at least one coordinate to condition on")
    x_b = check.vector(x_b, b.size, "x_b")
    K = np.linalg.solve(Sigma[np.ix_(b, b)], Sigma[np.ix_(b, a)]).T
    cov = Sigma[np.ix_(a, a)] - K @ Sigma[np.ix_(b, a)]
    return mu[a] + K @ (x_b - mu[b]), (cov + cov.T) / 2


def gaussian_marginal(mu, Sigma, a):
    """``p(x_a)`` of ``x ~ N(mu, Sigma)``: ``N(μ_a, Σ_aa)``.

    Parameters
    ----------
    mu : array_like, shape (d,)
    Sigma : array_like, shape (d, d)
    a : array_like of int
        Indices kept.

    Returns
    -------
    mean : ndarray, shape (len(a),)
    cov : ndarray, shape (len(a), len(a))
    """
    mu, Sigma, a, _ = _block(mu, Sigma, a)
    return mu[a], Sigma[np.ix_(a, a)]


class LinearGaussian(NamedTuple):
    """Joint, marginal and posterior of the linear Gaussian model.

    The posterior mean of ``x`` given ``y`` is ``gain @ y + offset``.
    """
    joint_mean: np.ndarray
    joint_cov: np.ndarray
    y_mean: np.ndarray
    y_cov: np.ndarray
    gain: np.ndarray
    offset: np.ndarray
    post_cov: np.ndarray


def linear_gaussian(mu, Lambda_inv, A, b, L_inv):
    """The linear Gaussian model ``x ~ N(mu, Λ⁻¹)``, ``y | x ~ N(Ax + b, L⁻¹)``.

    Parameters
    ----------
    mu : array_like, shape (d,)
    Lambda_inv : array_like, shape (d, d)
        Prior covariance (SPD).
    A : array_like, shape (k, d)
    b : array_like, shape (k,)
    L_inv : array_like, shape (k, k)
        Noise covariance (SPD).

    Returns
    -------
    LinearGaussian
        Joint of ``(x, y)``; ``y ~ N(Aμ + b, L⁻¹ + AΛ⁻¹Aᵀ)``; ``x | y`` with covariance
        ``Σ = (Λ + AᵀLA)⁻¹`` and mean ``Σ(AᵀL(y − b) + Λμ) = gain·y + offset``.
    """
    mu = check.vector(mu, None, "mu")
    P = check.spd(Lambda_inv, mu.size, "Lambda_inv")[0]
    A = check.matrix_with_columns(A, mu.size, "A")
    b = check.vector(b, A.shape[0], "b")
    R = check.spd(L_inv, A.shape[0], "L_inv")[0]
    with np.errstate(over="ignore", invalid="ignore"):
        y_cov = R + A @ P @ A.T
        cross = P @ A.T
    _finite_result((y_cov, cross), "Lambda_inv and A")
    joint_cov = np.block([[P, cross], [cross.T, y_cov]])
    gain = np.linalg.solve(y_cov, cross.T).T
    post_cov = P - gain @ cross.T
    y_mean = A @ mu + b
    return LinearGaussian(np.r_[mu, y_mean], (joint_cov + joint_cov.T) / 2, y_mean,
                          (y_cov + y_cov.T) / 2, gain, mu - gain @ y_mean,
                          (post_cov + post_cov.T) / 2)
