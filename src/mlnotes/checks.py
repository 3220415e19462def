"""Verified claims: statements in the book that are checked every time it runs.

A claim prints one stable line when it holds and raises ``AssertionError`` naming the
statement when it does not, so a notebook (and CI) fails loudly on a false statement.
The printed line shows the tolerance, never the measured difference, so the output is
identical on every run and ``pytest --nbval`` can compare it.
"""
import math

import numpy as np

from mlnotes import _validate as check

__all__ = ["claim", "claim_close", "claims_in"]

_TICK = "\u2713"


def claims_in(text):
    """The statements of the claims printed in ``text`` (a cell's standard output), in order.

    A claim prints one line starting with ``✓``; the book's index of verified claims
    (``tools/claims_index.py``) and the anchors the site puts next to each claim
    (``_ext/book_html.py``) both find them with this function, so they always agree.

    Parameters
    ----------
    text : str
        Printed output, possibly several lines.

    Returns
    -------
    list of str
        The text after ``✓ `` of each claim line.
    """
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    prefix = _TICK + " "
    return [line[len(prefix):].rstrip() for line in text.splitlines() if line.startswith(prefix)]


def _check_statement(statement):
    if not isinstance(statement, str) or not statement.strip():
        raise ValueError("statement must be a non-empty string describing what is checked")


def claim(statement, ok):
    """Check a boolean statement and print it.

    Parameters
    ----------
    statement : str
        What is being claimed, in words ("the hat matrix is idempotent").
    ok : bool
        Whether it holds: a bool, a numpy boolean scalar or a one-element boolean array.
        Lists, numbers and strings are rejected (``"no"`` is not taken as true), and so is
        an array with more than one element, because its truth value is ambiguous (use
        ``np.all`` or ``np.any`` to say which is meant).

    Returns
    -------
    None
        Prints ``✓ statement``.

    Raises
    ------
    AssertionError
        If ``ok`` is false.
    ValueError
        If ``statement`` is empty or ``ok`` is not a single truth value.
    """
    _check_statement(statement)
    arr = np.asarray(ok) if isinstance(ok, (bool, np.bool_, np.ndarray)) else None
    if arr is None or arr.size != 1 or arr.dtype.kind != "b":
        shape = "" if arr is None else f" of shape {arr.shape}"
        raise ValueError(
            f"ok must be a single bool, got {type(ok).__name__}{shape}; "
            "use np.all(...) or np.any(...) to reduce an array"
        )
    if not bool(arr.reshape(())):
        raise AssertionError(f"claim failed: {statement}")
    print(f"{_TICK} {statement}")


def _fmt(x):
    """Two significant digits, rounded up, so the printed bound is never below the one used."""
    if not x:
        return "0"
    e = math.floor(math.log10(x))
    m = math.ceil(round(x / 10.0 ** (e - 1), 9)) / 10  # in [1, 10]
    if m >= 10:
        m, e = m / 10, e + 1
    return f"{m:g}e{e:+03d}"


def claim_close(statement, actual, expected, atol=1e-8, rtol=0.0):
    """Check that ``actual`` equals ``expected`` within a tolerance, and print it.

    The test is elementwise ``|actual - expected| <= atol + rtol * |expected|``
    (the rule of :func:`numpy.allclose`), with shapes required to match exactly.

    Parameters
    ----------
    statement : str
        What is being claimed ("primal and dual ridge solutions agree").
    actual, expected : array_like
        The computed value and the independent reference; same shape, finite.
    atol, rtol : float
        Absolute and relative tolerance, non-negative, not both zero.

    Returns
    -------
    None
        Prints ``✓ statement (|Δ| ≤ atol)`` (or the relative form).

    Raises
    ------
    AssertionError
        If some element is outside the tolerance; the message gives the largest error.
    ValueError
        If ``actual`` or ``expected`` is not numeric or not finite, the shapes differ, or a
        tolerance is not a non-negative number (or both are zero).
    """
    _check_statement(statement)
    a, e = check.as_float(actual, "actual"), check.as_float(expected, "expected")
    if a.shape != e.shape:
        raise ValueError(f"actual has shape {a.shape} but expected has shape {e.shape}")
    a, e = check.finite(a, "actual"), check.finite(e, "expected")
    atol, rtol = check.nonnegative(atol, "atol"), check.nonnegative(rtol, "rtol")
    if atol + rtol == 0:
        raise ValueError("atol and rtol must not both be zero")
    err = np.abs(a - e)
    if np.any(err > atol + rtol * np.abs(e)):
        raise AssertionError(
            f"claim failed: {statement} (max |Δ| = {err.max():.3e}, "
            f"atol = {atol:.0e}, rtol = {rtol:.0e})"
        )
    if rtol == 0:
        tol = f"|\u0394| \u2264 {_fmt(atol)}"
    elif atol == 0:
        tol = f"relative error \u2264 {_fmt(rtol)}"
    else:
        tol = f"|\u0394| \u2264 {_fmt(atol)} + {_fmt(rtol)}\u00b7|expected|"
    print(f"{_TICK} {statement} ({tol})")
