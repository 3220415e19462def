import numpy as np
import pytest

from mlnotes import claim, claim_close
from mlnotes.checks import claims_in


def test_claim_prints_a_stable_line(capsys):
    claim("two plus two is four", 2 + 2 == 4)
    assert capsys.readouterr().out == "\u2713 two plus two is four\n"


def test_claim_accepts_numpy_bools(capsys):
    claim("numpy bool", np.bool_(True))
    claim("0-d array", np.array(True))
    claim("one-element array", np.array([True]))
    assert capsys.readouterr().out.count("\u2713") == 3


def test_false_claim_raises_with_the_statement():
    with pytest.raises(AssertionError, match="one is two"):
        claim("one is two", 1 == 2)


@pytest.mark.parametrize("ok", [np.array([True, True]), 1, "yes", "no", None, 0.5, [True],
                                [[True], [True, False]], object()])
def test_claim_rejects_values_that_are_not_one_bool(ok):
    with pytest.raises(ValueError, match="ok must be a single bool"):
        claim("ambiguous", ok)


@pytest.mark.parametrize("statement", ["", "   ", None, 3])
def test_claim_needs_a_statement(statement):
    with pytest.raises(ValueError, match="statement"):
        claim(statement, True)


def test_claim_close_prints_the_tolerance_not_the_error(capsys):
    claim_close("pi to six places", np.pi, 3.1415926, atol=1e-6)
    claim_close("relative", 1000.0001, 1000.0, rtol=1e-6, atol=0)
    claim_close("both", [1.0, 2.0], [1.0, 2.0 + 1e-9], atol=1e-8, rtol=1e-6)
    out = capsys.readouterr().out.splitlines()
    assert out == ["\u2713 pi to six places (|\u0394| \u2264 1e-06)",
                   "\u2713 relative (relative error \u2264 1e-06)",
                   "\u2713 both (|\u0394| \u2264 1e-08 + 1e-06\u00b7|expected|)"]


def test_claim_close_fails_outside_the_tolerance():
    with pytest.raises(AssertionError, match=r"close.*max \|Δ\| = 1\.000e-03"):
        claim_close("close", [1.0, 2.001], [1.0, 2.0], atol=1e-4)


def test_claim_close_uses_allclose_rule():
    a = np.linspace(1, 2, 7)
    e = a * (1 + 5e-7)
    claim_close("within rtol", a, e, atol=0, rtol=1e-6)
    with pytest.raises(AssertionError):
        claim_close("outside rtol", a, e, atol=0, rtol=1e-7)


@pytest.mark.parametrize("actual, expected, kw, match", [
    ([1.0, 2.0], [1.0], {}, "shape"),
    ([[1.0]], [1.0], {}, "shape"),
    ([np.nan], [1.0], {}, "finite"),
    ([1.0], [np.inf], {}, "finite"),
    ([1.0], [1.0], {"atol": -1}, "atol must be non-negative"),
    ([1.0], [1.0], {"atol": 0, "rtol": 0}, "atol and rtol"),
    ([1.0], [1.0], {"rtol": np.nan}, "rtol must be a finite real number"),
    ([1.0], [1.0], {"atol": "1e-8"}, "atol must be a finite real number"),
    ([1.0], [1.0], {"rtol": True}, "rtol must be a finite real number"),
    ("abc", [1.0], {}, "actual must be numeric"),
    ([1.0], [[1.0, 2.0], [3.0]], {}, "expected must be a rectangular array"),
    ([np.nan], [np.inf], {}, "actual must be finite"),
])
def test_claim_close_rejects_bad_input(actual, expected, kw, match):
    with pytest.raises(ValueError, match=match):
        claim_close("bad", actual, expected, **kw)


@pytest.mark.parametrize("tol", [1e-15, 1e-10, 3e-7, 0.0849, 0.0894, 0.02161, 9.951e-3, 0.5, 123.0])
def test_printed_tolerance_is_never_below_the_one_used(tol, capsys):
    claim_close("tolerance", 0.0, 0.0, atol=tol)
    printed = capsys.readouterr().out.split("\u2264 ")[1].rstrip(")\n")
    assert tol <= float(printed) <= tol * 1.11


def test_claims_in_finds_the_printed_claims(capsys):
    print("some number 0.5")
    claim("first", True)
    claim_close("second", 1.0, 1.0, atol=1e-9)
    print("not a claim: \u2713 inside a line")
    found = claims_in(capsys.readouterr().out)
    assert found == ["first", "second (|\u0394| \u2264 1e-09)"]


def test_claims_in_needs_text():
    assert claims_in("") == []
    with pytest.raises(ValueError, match="text must be a str"):
        claims_in(None)
