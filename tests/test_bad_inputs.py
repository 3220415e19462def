"""Every public function and method of mlnotes rejects bad input with a ValueError (or
TypeError) that mlnotes raises itself and whose message names the argument.

The tables are in tests/bad_inputs/<module>.py (see the README there). For each entry,
hypothesis picks an argument and a bad value of its kind, substitutes it into a call that is
known to succeed, and checks the error. A public name without an entry fails
``test_every_public_name_has_a_table_entry``.
"""
import functools
import importlib
import importlib.util
import inspect
import pkgutil
import traceback
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlnotes

TABLES = Path(__file__).parent / "bad_inputs"
PACKAGE = Path(mlnotes.__file__).resolve().parent
MODULES = sorted(m.name for m in pkgutil.iter_modules(mlnotes.__path__) if not m.name.startswith("_"))


def _nan_like(valid):
    arr = np.asarray(valid, dtype=float)
    return np.full(arr.shape, np.nan) if arr.size else [np.nan]


def _not_summing_to_one(valid):
    arr = np.asarray(valid, dtype=float)
    return arr * 2 + 0.1


def _inf_entry(valid):
    arr = np.array(valid, dtype=float, order="C")   # C order, so reshape(-1) is a view
    if arr.size == 0:
        return [np.inf]
    arr.reshape(-1)[-1] = np.inf
    return arr


def _one_row_short(valid):
    """``valid`` without its last row: for an argument whose length must match another's."""
    arr = np.asarray(valid)
    return arr[:-1] if arr.ndim and len(arr) > 1 else np.concatenate([np.atleast_1d(arr)] * 2)


def _one_row_more(valid):
    arr = np.asarray(valid)
    return np.concatenate([arr, arr[:1]]) if arr.ndim else np.array([arr, arr])


def _asymmetric(valid):
    arr = np.array(valid, dtype=float)
    arr[0, -1] += 1.0 + abs(arr[0, -1])
    return arr


def _indefinite(valid):
    """Symmetric, but with a negative eigenvalue: ``valid - (lambda_max + 1) I``."""
    arr = np.array(valid, dtype=float)
    return arr - (np.linalg.eigvalsh((arr + arr.T) / 2).max() + 1.0) * np.eye(len(arr))


def _negative_entry(valid):
    arr = np.array(valid, dtype=float, order="C")   # C order, so reshape(-1) is a view
    flat = arr.reshape(-1)
    flat[0], flat[-1] = -0.5, flat[-1] + flat[0] + 0.5
    return arr


_NUMBER = ["1.0", None, np.nan, np.inf, -np.inf, True, [1.0, 2.0], object()]
# Bad values of each kind: constants, or functions of the valid value of that argument.
KINDS = {
    "array": ["abc", [[1.0, 2.0], [3.0]], None, object(), _nan_like, _inf_entry],
    # an array in which +-inf is a legitimate value (an unbounded box, a limit of the sigmoid)
    "extended": ["abc", [[1.0, 2.0], [3.0]], None, object(), _nan_like],
    # an array whose length must match another argument's (y with X, weights with x, ...)
    "rows": ["abc", [[1.0, 2.0], [3.0]], None, object(), _nan_like, _inf_entry, _one_row_short, _one_row_more],
    # a symmetric positive semi-definite matrix (a Gram or covariance matrix)
    "psd": ["abc", [[1.0, 2.0], [3.0]], None, object(), _nan_like, _inf_entry, _asymmetric, _indefinite],
    "probabilities": ["abc", None, [[0.5, 0.5], [1.0]], _nan_like, _not_summing_to_one, _negative_entry],
    "number": _NUMBER,
    "positive": _NUMBER + [0.0, -1.0, -1e-300],
    "nonnegative": _NUMBER + [-1e-3, -1.0],
    "probability": _NUMBER + [-0.1, 1.5],
    "count": [True, False, 2.5, "3", None, -1, np.nan, object()],
    "index": [True, 2.5, "1", None, -10**6, 10**6, object()],
    "bool": ["no", "yes", None, 2, [True], object()],
    "callable": [3, "f", None, np.ones(3)],
    "rng": ["abc", 1.5, object(), [1, 2], 7],
    "seed": ["abc", 1.5, -1, True, object(), [1, 2]],
    "choice": ["no-such-option", 3.5, None, [1], object()],
    "object": ["abc", None, 3, object(), np.ones(3)],
    "string": [3, None, 1.5, object(), ["a"]],
}


def _derived(bad):
    """Whether ``bad`` is a function of the valid value (defined here) rather than a constant."""
    return callable(bad) and not isinstance(bad, type) and getattr(bad, "__module__", None) == __name__


@functools.lru_cache(maxsize=None)
def _load(module):
    """The table of ``module`` (executed once; ``valid()`` still builds a fresh dict per call)."""
    path = TABLES / f"{module}.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"bad_inputs_{module}", path)
    table = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(table)
    return table


def _public_names(module):
    """The functions in ``module.__all__`` and ``Class.method`` for the public methods of its
    classes (methods defined in the class itself, not properties or dataclass machinery)."""
    mod = importlib.import_module(f"mlnotes.{module}")
    names = []
    for name in getattr(mod, "__all__", []):
        obj = getattr(mod, name)
        if inspect.isclass(obj):
            names += [f"{name}.{m}" for m, f in vars(obj).items()
                      if not m.startswith("_") and inspect.isfunction(f)]
        elif callable(obj):
            names.append(name)
    return mod, names


def _entries():
    out = []
    for module in MODULES:
        table = _load(module)
        for name in sorted(getattr(table, "SPECS", {})):
            out.append(pytest.param(module, name, id=f"{module}.{name}"))
    return out


ENTRIES = _entries()


def _target(module, name, entry):
    mod = importlib.import_module(f"mlnotes.{module}")
    if "." in name:
        cls, method = name.split(".")
        obj = entry[2]()
        assert isinstance(obj, getattr(mod, cls)), f"make_object of {name} must return a {cls}"
        return getattr(obj, method)
    return getattr(mod, name)


@pytest.mark.parametrize("module", MODULES)
def test_every_public_name_has_a_table_entry(module):
    table = _load(module)
    assert table is not None, f"tests/bad_inputs/{module}.py is missing"
    mod, names = _public_names(module)
    specs, exempt = getattr(table, "SPECS", {}), getattr(table, "EXEMPT", {})
    missing = sorted(set(names) - set(specs) - set(exempt))
    assert not missing, f"public names of mlnotes.{module} without a bad-input entry: {missing}"
    stale = sorted((set(specs) | set(exempt)) - set(names))
    assert not stale, f"entries for names that mlnotes.{module} does not export: {stale}"
    for name, why in exempt.items():
        assert isinstance(why, str) and len(why) > 10, f"EXEMPT[{name!r}] needs a reason"
    for name, entry in specs.items():
        kinds = entry[1]
        assert kinds, f"{name}: no argument to vary"
        params = inspect.signature(_target(module, name, entry)).parameters
        for arg, kind in kinds.items():
            assert kind.rstrip("?") in KINDS, f"{name}: unknown kind {kind!r}"
            assert arg in params, f"{name} has no argument {arg!r}"


@pytest.mark.parametrize("module, name", ENTRIES)
def test_the_valid_call_succeeds(module, name):
    entry = _load(module).SPECS[name]
    _target(module, name, entry)(**entry[0]())


def _raised_inside_mlnotes(err):
    frames = traceback.extract_tb(err.__traceback__)
    return bool(frames) and Path(frames[-1].filename).resolve().is_relative_to(PACKAGE)


@pytest.mark.parametrize("module, name", ENTRIES)
@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_bad_values_are_rejected_by_name(module, name, data):
    entry = _load(module).SPECS[name]
    kinds = entry[1]
    arg = data.draw(st.sampled_from(sorted(kinds)), label="argument")
    kind = kinds[arg]
    kwargs = entry[0]()
    bads = [b for b in KINDS[kind.rstrip("?")] if not (kind.endswith("?") and b is None)
            and not (_derived(b) and kwargs[arg] is None)]   # nothing to derive a bad value from
    bad = data.draw(st.sampled_from(bads), label="bad value")
    if _derived(bad):
        bad = bad(kwargs[arg])
    kwargs[arg] = bad
    fn = _target(module, name, entry)
    with pytest.raises((ValueError, TypeError)) as info:
        fn(**kwargs)
    err = info.value
    assert _raised_inside_mlnotes(err), (
        f"{module}.{name}({arg}={bad!r}) was rejected by {traceback.extract_tb(err.__traceback__)[-1].filename}, "
        f"not by mlnotes: {type(err).__name__}: {err}")
    assert arg in str(err), f"{module}.{name}({arg}={bad!r}): the message does not name {arg!r}: {err}"


def _bad_values(kind, valid):
    for bad in KINDS[kind.rstrip("?")]:
        if kind.endswith("?") and bad is None:
            continue
        if not _derived(bad):
            yield bad
        elif valid is not None:     # a derived bad value needs a valid value to start from
            yield bad(valid)


def test_every_bad_value_of_every_kind_is_rejected():
    """The exhaustive companion of the property test: every (argument, bad value) pair of every
    table entry, about six thousand calls in a few seconds."""
    problems, calls = [], 0
    for module in MODULES:
        for name, entry in _load(module).SPECS.items():
            for arg, kind in entry[1].items():
                for bad in _bad_values(kind, entry[0]()[arg]):
                    kwargs = entry[0]()
                    kwargs[arg] = bad
                    calls += 1
                    try:
                        _target(module, name, entry)(**kwargs)
                        problems.append(f"{module}.{name}({arg}={bad!r:.40}): accepted")
                    except (ValueError, TypeError) as err:
                        if not _raised_inside_mlnotes(err) or arg not in str(err):
                            problems.append(f"{module}.{name}({arg}={bad!r:.40}): {err}")
    assert calls > 1000 and not problems, f"{len(problems)} of {calls} bad calls not rejected by name:\n" + \
        "\n".join(problems[:30])


def _cases():
    out = []
    for module in MODULES:
        for label in sorted(getattr(_load(module), "CASES", {})):
            out.append(pytest.param(module, label, id=f"{module}:{label}"))
    return out


@pytest.mark.parametrize("module, label", _cases())
def test_bad_cases_are_rejected_by_name(module, label):
    """The bad calls that no kind describes (a mismatch between two arguments, an overflow, a
    target with no mass, a tolerance below the float spacing, an infeasible problem): each
    ``CASES`` entry must be rejected by mlnotes with a message naming the argument."""
    table = _load(module)
    name, make_kwargs, arg = table.CASES[label]
    entry = table.SPECS.get(name)
    assert entry is not None, f"CASES[{label!r}] names {name!r}, which has no SPECS entry"
    fn = _target(module, name, entry)
    assert arg in inspect.signature(fn).parameters, f"CASES[{label!r}]: {name} has no argument {arg!r}"
    kwargs = make_kwargs()
    with pytest.raises((ValueError, TypeError)) as info:
        fn(**kwargs)
    err = info.value
    assert _raised_inside_mlnotes(err), (
        f"{module}.{name} [{label}] was rejected by {traceback.extract_tb(err.__traceback__)[-1].filename}, "
        f"not by mlnotes: {type(err).__name__}: {err}")
    assert arg in str(err), f"{module}.{name} [{label}]: the message does not name {arg!r}: {err}"
