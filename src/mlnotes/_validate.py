"""Input checks shared by the ``mlnotes`` modules.

Every public function of ``mlnotes`` validates its input and raises ``ValueError`` with a
message that names the offending argument. These helpers do the common cases, so each
chapter module states its checks in one line each, e.g.::

    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    lam = check.positive(lam, "lam")
"""
import numpy as np

__all__ = ["finite", "matrix", "vector", "square", "number", "positive", "nonnegative", "count",
           "choice", "probabilities", "labels", "generator"]


def finite(x, name):
    """``x`` as a float array; ``ValueError`` if it holds NaN or inf."""
    x = np.asarray(x, dtype=float)
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    return x


def matrix(X, name="X"):
    """``X`` as a finite, non-empty 2-D float array of shape (n, d)."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array of shape (n, d), got shape {X.shape}")
    return finite(X, name)


def vector(v, n, name):
    """``v`` as a finite float array of shape (n,); ``n=None`` accepts any non-empty length."""
    v = np.asarray(v, dtype=float)
    if v.ndim != 1 or (n is not None and v.shape[0] != n) or v.size == 0:
        expected = f"({n},)" if n is not None else "(n,) with n >= 1"
        raise ValueError(f"{name} must have shape {expected}, got {v.shape}")
    return finite(v, name)


def square(A, name, symmetric=False):
    """``A`` as a finite square matrix (optionally symmetric to rounding)."""
    A = np.asarray(A, dtype=float)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or A.size == 0:
        raise ValueError(f"{name} must be a non-empty square matrix, got shape {A.shape}")
    A = finite(A, name)
    if symmetric and not np.allclose(A, A.T, rtol=1e-10, atol=1e-12 * max(1.0, np.abs(A).max())):
        raise ValueError(f"{name} must be symmetric")
    return A


def spd(S, k, name):
    """``S`` as a symmetric positive definite (k, k) matrix, with its Cholesky factor."""
    S = square(S, name, symmetric=True)
    if S.shape != (k, k):
        raise ValueError(f"{name} must have shape ({k}, {k}), got {S.shape}")
    try:
        return S, np.linalg.cholesky(S)
    except np.linalg.LinAlgError:
        raise ValueError(f"{name} must be positive definite") from None


def number(value, name):
    """``value`` as a finite Python float (bools are rejected)."""
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
    if not ok or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value!r}")
    return float(value)


def positive(value, name):
    """``value`` as a float > 0."""
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
    if not (ok and np.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return float(value)


def nonnegative(value, name):
    """``value`` as a float >= 0."""
    if number(value, name) < 0:
        raise ValueError(f"{name} must be non-negative, got {value!r}")
    return float(value)


def count(value, name, low=1):
    """``value`` as a Python int >= ``low`` (floats and bools are rejected)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def choice(value, options, name):
    """``value`` if it is one of ``options``."""
    if value not in options:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, options))}; got {value!r}")
    return value


def probabilities(p, name="p", axis=-1, atol=1e-9):
    """``p`` as a float array of probabilities, non-negative and summing to 1 along ``axis``."""
    p = finite(p, name)
    if p.ndim == 0 or p.size == 0:
        raise ValueError(f"{name} must be a non-empty array of probabilities")
    if np.any(p < 0):
        raise ValueError(f"{name} must be non-negative")
    if not np.allclose(p.sum(axis=axis), 1.0, rtol=0, atol=atol):
        raise ValueError(f"{name} must sum to 1")
    return p


def labels(y, n, allowed, name="y"):
    """``y`` as an integer array of shape (n,) whose values all lie in ``allowed``."""
    y = np.asarray(y)
    if y.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got {y.shape}")
    if y.dtype.kind not in "biuf" or not np.all(np.isin(y, allowed)):
        raise ValueError(f"{name} must contain only the labels {', '.join(map(str, allowed))}")
    return y.astype(int)


def generator(rng, name="rng"):
    """``rng`` if it is a ``numpy.random.Generator`` (use ``np.random.default_rng(seed)``)."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"{name} must be a numpy.random.Generator, e.g. np.random.default_rng(0); "
                         f"got {type(rng).__name__}")
    return rng
