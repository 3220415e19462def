import numpy as np
import pytest

from mlnotes import datasets, show_source
from mlnotes.checks import claim


def test_show_source_of_a_function():
    src = show_source(claim)
    md = src._repr_markdown_()
    assert md.startswith("```python\n# mlnotes/checks.py: claim\ndef claim(statement, ok):")
    assert md.rstrip().endswith("```")
    assert repr(src).startswith("# mlnotes/checks.py: claim\ndef claim(")
    assert "0x" not in repr(src)


def test_show_source_of_a_module_function():
    assert "def linear_regression" in repr(show_source(datasets.linear_regression))


@pytest.mark.parametrize("obj, match", [
    (pytest.raises, "defined in mlnotes"),
    (42, "function or class"),
    ("claim", "function or class"),
])
def test_show_source_rejects_other_objects(obj, match):
    with pytest.raises(ValueError, match=match):
        show_source(obj)
