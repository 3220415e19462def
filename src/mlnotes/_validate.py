"""Input checks shared by the ``mlnotes`` modules.

Every public function of ``mlnotes`` validates its input and raises ``ValueError`` with a
message that names the offending argument. These helpers do the common cases, so each
chapter module states its checks in one line each, e.g.::

    X = check.matrix(X)
    y = check.vector(y, X.shape[0], "y")
    lam = check.positive(lam, "lam")
"""
import numpy as np

__all__ = ["as_float", "finite", "matrix", "vector", "square", "spd", "number", "positive",
           "nonnegative", "count", "flag", "choice", "probabilities", "labels", "generator", "seed",
           "function", "returned", "fitted", "instance_of", "interval_bounds", "index_array",
           "discrete_sample", "positive_entries", "matrix_with_columns", "integer_entries",
           "number_between", "axis_index", "cache_layout", "no_nan_result", "level", "sample",
           "groups", "design", "dataset", "square_stack",
           "stochastic_matrix", "edge_list", "points", "norm_order",
           "nonempty", "increasing_grid", "point_sets", "psd", "sample_size", "finite_result"]


def as_float(x, name):
    """``x`` as a float array; ``ValueError`` naming ``name`` for strings, ragged nested lists
    and anything else numpy cannot read as numbers."""
    if isinstance(x, (str, bytes)) or x is None:
        raise ValueError(f"{name} must be numeric (an array or a number), got {type(x).__name__}")
    try:
        arr = np.asarray(x, dtype=float)
    except (ValueError, TypeError) as err:
        kind = "a rectangular array (rows of equal length)" if "inhomogeneous" in str(err) else "numeric"
        raise ValueError(f"{name} must be {kind}, got {type(x).__name__}: {err}") from None
    return arr


def finite(x, name):
    """``x`` as a float array; ``ValueError`` if it holds NaN or inf."""
    x = as_float(x, name)
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    return x


def matrix(X, name="X"):
    """``X`` as a finite, non-empty 2-D float array of shape (n, d)."""
    X = as_float(X, name)
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array of shape (n, d), got shape {X.shape}")
    return finite(X, name)


def vector(v, n, name):
    """``v`` as a finite float array of shape (n,); ``n=None`` accepts any non-empty length."""
    v = as_float(v, name)
    if v.ndim != 1 or (n is not None and v.shape[0] != n) or v.size == 0:
        expected = f"({n},)" if n is not None else "(n,) with n >= 1"
        raise ValueError(f"{name} must have shape {expected}, got {v.shape}")
    return finite(v, name)


def square(A, name, symmetric=False):
    """``A`` as a finite square matrix (optionally symmetric to rounding)."""
    A = as_float(A, name)
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


def flag(value, name):
    """``value`` as a Python bool; only ``True``/``False`` (or numpy bools) are accepted, so a
    string such as ``"no"`` is not silently taken as true."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _same_option(value, option):
    """``value == option`` without the surprises of ``==``: a bool matches only a bool, a
    string only a string, a number only a (non-bool) number, and arrays match nothing."""
    if option is None or isinstance(value, np.ndarray):
        return value is option
    if isinstance(option, (bool, np.bool_)):
        return isinstance(value, (bool, np.bool_)) and bool(value) == bool(option)
    if isinstance(option, str):
        return isinstance(value, str) and value == option
    return (isinstance(value, (int, float, np.integer, np.floating))
            and not isinstance(value, (bool, np.bool_)) and value == option)


def choice(value, options, name):
    """``value`` if it is one of ``options``."""
    if not any(_same_option(value, o) for o in options):
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
    if isinstance(y, (str, bytes)):
        raise ValueError(f"{name} must be an array of labels, got a string")
    try:
        y = np.asarray(y)
    except ValueError as err:
        raise ValueError(f"{name} must be a rectangular array of labels: {err}") from None
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


def seed(value, name="seed"):
    """``value`` as a seed for ``np.random.default_rng``: an integer >= 0 (not a bool), or a
    ``numpy.random.Generator``, which is returned as it is."""
    if isinstance(value, np.random.Generator):
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer or a numpy.random.Generator, got {value!r}")
    return int(value)


def function(f, name):
    """``f`` if it is callable."""
    if not callable(f):
        raise ValueError(f"{name} must be callable (a function), got {type(f).__name__}")
    return f


def returned(value, name, shape=None):
    """What a user-supplied callable ``name`` returned, as a finite float array (of ``shape``
    when given): ``ValueError`` naming the callable otherwise."""
    try:
        arr = finite(value, f"the value returned by {name}")
    except ValueError as err:
        raise ValueError(str(err)) from None
    if shape is not None and arr.shape != tuple(shape):
        raise ValueError(f"{name} must return an array of shape {tuple(shape)}, got {arr.shape}")
    return arr


def fitted(obj, attribute, method="fit"):
    """``ValueError`` if ``obj`` has not been fitted yet (``attribute`` is missing or None)."""
    if getattr(obj, attribute, None) is None:
        raise ValueError(f"{type(obj).__name__} is not fitted yet: call {method}(...) first")
    return obj


def instance_of(obj, cls, name, made_by=None):
    """``obj`` if it is an instance of ``cls`` (a class or tuple of classes); ``ValueError``
    naming ``name`` (and, when given, the function ``made_by`` that returns one) otherwise."""
    if not isinstance(obj, cls):
        want = " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
        source = f" returned by {made_by}" if made_by else ""
        article = "an" if want[:1].lower() in "aeiou" else "a"
        raise ValueError(f"{name} must be {article} {want}{source}, got {type(obj).__name__}")
    return obj


def interval_bounds(low, high, names=("low", "high")):
    """``(low, high)`` as finite floats with ``low < high``; ``ValueError`` naming them otherwise."""
    low, high = number(low, names[0]), number(high, names[1])
    if not low < high:
        raise ValueError(f"{names[0]} must be smaller than {names[1]} ({names[0]} < {names[1]}), "
                         f"got {names[0]}={low!r}, {names[1]}={high!r}")
    return low, high


def index_array(x, n, size, name):
    """``x`` as an int array of shape ``(n,)`` (any non-empty length when ``n`` is None) of
    indices in ``0, ..., size - 1``; floats, bools, strings and ragged lists are rejected."""
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{name} must be a 1-D array of integer indices: {err}") from None
    if arr.ndim != 1 or arr.size == 0 or (n is not None and arr.shape != (n,)):
        raise ValueError(f"{name} must be a 1-D array of {'n >= 1' if n is None else n} integer "
                         f"indices, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must contain integer indices (not floats, bools or strings), "
                         f"got dtype {arr.dtype}")
    if np.any((arr < 0) | (arr >= size)):
        raise ValueError(f"{name} must contain indices in 0, ..., {size - 1}, got values from "
                         f"{arr.min()} to {arr.max()}")
    return arr.astype(int)


def discrete_sample(x, name):
    """``x`` as a non-empty 1-D array of discrete values (numbers, bools or strings); a
    ragged list, objects, NaN or inf give a ``ValueError`` naming ``name``."""
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{name} must be a 1-D array of values: {err}") from None
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "biufUS":
        raise ValueError(f"{name} must be a non-empty 1-D array of numbers or strings, "
                         f"got shape {arr.shape} and dtype {arr.dtype}")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    return arr


def positive_entries(x, name):
    """``x`` as a finite float array (any shape) whose entries are all > 0."""
    x = finite(x, name)
    if np.any(x <= 0):
        raise ValueError(f"{name} must have positive entries, got {x!r}")
    return x


def matrix_with_columns(X, d, name="X"):
    """``X`` as a finite, non-empty 2-D float array with ``d`` columns (one per feature)."""
    X = matrix(X, name)
    if X.shape[1] != d:
        raise ValueError(f"{name} must have {d} columns (one per feature), got shape {X.shape}")
    return X


def integer_entries(x, name, low=None, high=None):
    """``x`` (any shape, a scalar included) as an integer array with entries in ``[low, high)``
    (each bound optional); floats, bools, strings, ragged lists and objects are rejected."""
    try:
        arr = None if isinstance(x, (str, bytes)) or x is None else np.asarray(x)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{name} must be a rectangular integer array: {err}") from None
    if arr is None or arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must be an integer array or integer (not floats, bools or strings), "
                         f"got {type(x).__name__}{'' if arr is None else ' of dtype ' + str(arr.dtype)}")
    if (low is not None and np.any(arr < low)) or (high is not None and np.any(arr >= high)):
        span = f"{low}, ..., {high - 1}" if high is not None and low is not None else (
            f">= {low}" if low is not None else f"< {high}")
        raise ValueError(f"{name} must take values {'in ' if '...' in span else ''}{span}")
    return arr


def number_between(value, name, low, high, open_low=False, open_high=False):
    """``value`` as a finite float (not a bool) in the interval from ``low`` to ``high``, whose
    ends are closed unless ``open_low`` / ``open_high``."""
    value = number(value, name)
    if value < low or value > high or (open_low and value == low) or (open_high and value == high):
        raise ValueError(f"{name} must lie in {'(' if open_low else '['}{low}, {high}"
                         f"{')' if open_high else ']'}, got {value!r}")
    return value


def axis_index(value, ndim, name="axis"):
    """``value`` as an axis of an ``ndim``-dimensional array: an integer (not a bool) in
    ``-ndim, ..., ndim - 1``."""
    if (isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer))
            or not -ndim <= value < ndim):
        raise ValueError(f"{name} must be an integer axis in -{ndim}, ..., {ndim - 1} of an array "
                         f"with {ndim} dimension(s), got {value!r}")
    return int(value)


def cache_layout(cache, kinds, made_by, name="cache"):
    """``cache`` if it is a tuple (or list) with one entry of each type in ``kinds`` (a type or a
    tuple of types per entry), as ``made_by`` returns it; ``ValueError`` naming ``name`` otherwise."""
    if not (isinstance(cache, (tuple, list)) and len(cache) == len(kinds)
            and all(isinstance(c, k) for c, k in zip(cache, kinds))):
        raise ValueError(f"{name} must be the cache returned by {made_by} (a tuple of {len(kinds)} entries), "
                         f"got {type(cache).__name__}"
                         + (f" of {len(cache)} entries" if isinstance(cache, (tuple, list)) else ""))
    return cache


def no_nan_result(value, names):
    """``value`` (a computed result) if it holds no NaN; ``ValueError`` otherwise, saying that
    the computation overflowed and that the arguments ``names`` (a string) need rescaling."""
    if np.any(np.isnan(np.asarray(value, dtype=float))):
        raise ValueError(f"the result is NaN because the computation overflowed: rescale {names}")
    return value


def level(alpha, name="alpha"):
    """``alpha`` as a significance (or error) level: a finite float strictly between 0 and 1."""
    return number_between(alpha, name, 0.0, 1.0, open_low=True, open_high=True)


def sample(x, name="x", min_size=1, batch=False):
    """``x`` as a finite float sample of shape ``(n,)`` (or ``(..., n)`` if ``batch``: one
    sample per leading index) with ``n >= min_size``."""
    x = as_float(x, name)
    if (x.ndim != 1 and not batch) or x.ndim == 0 or x.shape[-1] < min_size:
        shape = "(..., n)" if batch else "(n,)"
        raise ValueError(f"{name} must have shape {shape} with n >= {min_size} values, got {x.shape}")
    return finite(x, name)


def groups(values, name="groups", min_size=2, min_groups=2, batch=False):
    """``values`` as a list of finite float samples, one per group (at least ``min_groups``),
    each 1-D with at least ``min_size`` values; with ``batch``, arrays of shape ``(..., J_i)``
    whose leading axes (independent layouts) agree."""
    if isinstance(values, (str, bytes, np.ndarray)) or not hasattr(values, "__len__") \
            or not hasattr(values, "__iter__"):
        raise ValueError(f"{name} must be a list of 1-D arrays (one per group), "
                         f"got {type(values).__name__}")
    out = []
    for i, g in enumerate(values):
        g = finite(g, f"{name}[{i}]")
        if g.ndim < 1 or (g.ndim > 1 and not batch) or g.shape[-1] < min_size:
            raise ValueError(f"{name}[{i}] must be a 1-D array with at least {min_size} values"
                             f"{' (or a batch of shape (..., J_i))' if batch else ''}, got shape {g.shape}")
        if out and g.shape[:-1] != out[0].shape[:-1]:
            raise ValueError(f"{name}[{i}] has leading shape {g.shape[:-1]}, but {name}[0] has "
                             f"{out[0].shape[:-1]}: the batches of all groups must agree")
        out.append(g)
    if len(out) < min_groups:
        raise ValueError(f"{name} must hold at least {min_groups} groups, got {len(out)}")
    return out


def design(X, name="X", intercept=False):
    """``X`` as a finite ``(n, p)`` design matrix of full column rank with ``n > p``; with
    ``intercept``, its first column must be the column of ones."""
    X = matrix(X, name)
    n, p = X.shape
    if n <= p:
        raise ValueError(f"{name} must have more rows than columns (n > p), got shape {X.shape}")
    if intercept and not np.all(X[:, 0] == 1.0):
        raise ValueError(f"{name} must have a first column of ones (the intercept)")
    rank = np.linalg.matrix_rank(X)
    if rank < p:
        raise ValueError(f"{name} must have full column rank {p}, got rank {rank}")
    return X


def dataset(S, name="S"):
    """``S`` as a training set ``(X, y)``: a finite (n, d) matrix and a finite (n,) vector."""
    if not isinstance(S, (tuple, list)) or len(S) != 2:
        raise ValueError(f"{name} must be a pair (X, y) of an (n, d) array and an (n,) array, "
                         f"got {type(S).__name__}")
    X = matrix(S[0], f"{name}[0] (X)")
    return X, vector(S[1], X.shape[0], f"{name}[1] (y)")


def square_stack(K, name="K"):
    """``K`` as a finite array of square matrices, shape (..., n, n) with n >= 1."""
    K = finite(K, name)
    if K.ndim < 2 or K.shape[-1] != K.shape[-2] or K.shape[-1] == 0:
        raise ValueError(f"{name} must have shape (..., n, n) with n >= 1, got {K.shape}")
    return K


def stochastic_matrix(P, name="P"):
    """``P`` as a square row-stochastic matrix: non-negative entries, rows summing to 1."""
    P = square(P, name)
    if np.any(P < 0) or not np.allclose(P.sum(axis=1), 1.0, rtol=0, atol=1e-9):
        raise ValueError(f"{name} must be row-stochastic: non-negative entries, rows summing to 1")
    return P


def edge_list(edges, n_nodes, name="edges"):
    """``edges`` as an int array of shape (m, 2) of distinct undirected pairs i != j of
    nodes in ``0..n_nodes-1`` (an empty list gives shape (0, 2))."""
    if isinstance(edges, (list, tuple, np.ndarray)) and len(edges) == 0:
        return np.zeros((0, 2), dtype=int)
    arr = integer_entries(edges, name, 0, n_nodes)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"{name} must have shape (m, 2), got {arr.shape}")
    if np.any(arr[:, 0] == arr[:, 1]):
        raise ValueError(f"{name} must not contain self-loops (i, i)")
    if len({tuple(sorted(e)) for e in arr.tolist()}) != len(arr):
        raise ValueError(f"{name} must not contain the same edge twice")
    return arr.astype(int)


def points(x, n, name):
    """``x`` as a finite ``(m, n)`` array of points (rows) and whether it was one point: a
    vector of shape ``(n,)`` becomes one row; ``n=None`` accepts any dimension."""
    arr = finite(x, name)
    if arr.ndim == 1:
        return vector(arr, n, name)[None, :], True
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0 or (n is not None and arr.shape[1] != n):
        dim = n if n else "n"
        raise ValueError(f"{name} must have shape ({dim},) or (m, {dim}), got {arr.shape}")
    return arr, False


def norm_order(p, name="ord"):
    """``p`` as a float in ``[1, inf]``, the order of an l_p norm (``np.inf`` for the max norm)."""
    ok = isinstance(p, (int, float, np.integer, np.floating)) and not isinstance(p, (bool, np.bool_))
    if not ok or np.isnan(p) or p < 1:
        raise ValueError(f"{name} must be a number >= 1 or np.inf (the order of an l_p norm), got {p!r}")
    return float(p)


def nonempty(x, name, ndim=None):
    """``x`` as a finite float array with at least one entry (and exactly ``ndim`` dimensions
    if ``ndim`` is given)."""
    x = finite(x, name)
    if x.size == 0 or (ndim is not None and x.ndim != ndim):
        shape = f"{ndim}-D " if ndim is not None else ""
        raise ValueError(f"{name} must be a non-empty {shape}array, got shape {x.shape}")
    return x


def increasing_grid(grid, name="grid", min_size=3):
    """``grid`` as a strictly increasing finite 1-D array of at least ``min_size`` points."""
    grid = nonempty(grid, name, ndim=1)
    if grid.size < min_size or np.any(np.diff(grid) <= 0):
        raise ValueError(f"{name} must be a strictly increasing 1-D array of at least {min_size} points")
    return grid


def point_sets(X, Y, names=("X", "Y")):
    """The two point sets of a kernel evaluation as finite 2-D arrays with the same number of
    columns; ``Y=None`` means ``Y = X``."""
    X = matrix(X, names[0])
    if Y is None:
        return X, X
    return X, matrix_with_columns(Y, X.shape[1], names[1])


def psd(S, k, name):
    """``S`` as a symmetric positive semi-definite (k, k) matrix (``k=None``: any size). Zero
    eigenvalues are allowed (a deterministic component); an eigenvalue below ``-1e-10`` times
    the largest absolute entry gives a ``ValueError`` naming ``name``."""
    S = square(S, name, symmetric=True)
    if k is not None and S.shape != (k, k):
        raise ValueError(f"{name} must have shape ({k}, {k}), got {S.shape}")
    S = 0.5 * S + 0.5 * S.T                    # not (S + Sᵀ)/2, which overflows near 1e308
    scale = np.abs(S).max()
    if scale > 0 and np.linalg.eigvalsh(S / scale).min() < -1e-10:    # scaled: entries near 1e308
        raise ValueError(f"{name} must be positive semi-definite (no negative eigenvalue)")
    return S


def sample_size(need, name):
    """``ceil(need)`` (at least 1) as a Python int, for a sample size computed from a bound;
    a ``ValueError`` naming ``name`` (the argument that made it so large, e.g. ``eps``) if
    ``need`` is not finite or exceeds ``2**62``, instead of an overflow."""
    need = float(need)
    if not np.isfinite(need) or need > 2.0**62:
        raise ValueError(f"{name} is too small: the sample size it requires ({need:.3g}) exceeds 2^62")
    return max(1, int(np.ceil(need)))


def finite_result(value, names):
    """``value`` (a computed result) if all its entries are finite; otherwise a ``ValueError``
    saying that the computation overflowed and that the arguments ``names`` (a string, e.g.
    ``"x and y"``) need rescaling. For results that cannot be inf or NaN for finite input
    of a sensible size (a variance, a test statistic, a fitted coefficient)."""
    if not np.all(np.isfinite(np.asarray(value, dtype=float))):
        raise ValueError(f"the result is not finite because the computation overflowed: rescale {names}")
    return value
