import ast

import numpy as np
import pytest

from mlnotes import datasets, linear, show_source
from mlnotes.checks import claim


def test_show_source_of_a_function():
    src = show_source(claim, docstring="full")
    md = src._repr_markdown_()
    assert md.startswith("```python\n# mlnotes/checks.py: claim\ndef claim(statement, ok):")
    assert md.rstrip().endswith("```")
    assert repr(src).startswith("# mlnotes/checks.py: claim\ndef claim(")
    assert "Parameters\n    ----------" in repr(src)
    assert "0x" not in repr(src)


@pytest.mark.parametrize("obj", [claim, datasets.linear_regression, linear.FitResult, linear.sigmoid])
def test_summary_keeps_the_code_and_the_first_paragraph(obj):
    full, short = repr(show_source(obj, docstring="full")), repr(show_source(obj))
    assert "----------" not in short and f"(Full docstring: help({obj.__name__}).)" in short
    summary = obj.__doc__.strip().split("\n\n")[0].strip()
    assert summary in short
    # the code is unchanged: same syntax tree once docstrings are removed
    def strip(src):
        tree = ast.parse(src.split("\n", 1)[1])
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                    and isinstance(getattr(body[0], "value", None), ast.Constant):
                body.pop(0)
        return ast.dump(tree)
    assert strip(full) == strip(short)
    assert len(short) < len(full)


def test_show_source_of_a_module_function():
    assert "def linear_regression" in repr(show_source(datasets.linear_regression))


@pytest.mark.parametrize("obj, kw, match", [
    (pytest.raises, {}, "defined in mlnotes"),
    (42, {}, "function or class"),
    ("claim", {}, "function or class"),
    (claim, {"docstring": "none"}, "docstring must be"),
])
def test_show_source_rejects_bad_input(obj, kw, match):
    with pytest.raises(ValueError, match=match):
        show_source(obj, **kw)


def test_source_code_holds_strings():
    from mlnotes.display import SourceCode
    with pytest.raises(ValueError, match="code must be a string"):
        SourceCode(3, "mlnotes/x.py: f")
    with pytest.raises(ValueError, match="origin must be a string"):
        SourceCode("def f(): pass\n", None)
    assert repr(SourceCode("x = 1\n", "mlnotes/x.py: x")) == "# mlnotes/x.py: x\nx = 1\n"
