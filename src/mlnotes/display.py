"""Show the code of ``mlnotes`` inside the book, so the text and the library never drift."""
import ast
import inspect
import textwrap
from pathlib import Path

from mlnotes import _validate as check

__all__ = ["show_source", "SourceCode"]


class SourceCode:
    """The source of a function or class, displayed as a highlighted Python block.

    Rich front ends (the Jupyter Book site, JupyterLab) render the Markdown form, a fenced
    ``python`` block; plain front ends print the code itself. Neither form contains a
    memory address, so stored outputs compare exactly under ``pytest --nbval``.
    """

    def __init__(self, code, origin):
        for value, name in ((code, "code"), (origin, "origin")):
            if not isinstance(value, str):
                raise ValueError(f"{name} must be a string, got {type(value).__name__}")
        self.code = code
        self.origin = origin

    def _repr_markdown_(self):
        return f"```python\n# {self.origin}\n{self.code}```\n"

    def __repr__(self):
        return f"# {self.origin}\n{self.code}"


def _abridge_docstring(code):
    """Keep only the first paragraph (the summary) of the top-level docstring of ``code``."""
    tree = ast.parse(textwrap.dedent(code))
    node = tree.body[0]
    doc = ast.get_docstring(node, clean=True)
    first = node.body[0] if node.body else None
    if not doc or not isinstance(first, ast.Expr):
        return code, False
    summary = doc.split("\n\n")[0].strip()
    if summary == doc.strip():
        return code, False
    lines = code.splitlines(keepends=True)
    start, end = first.lineno - 1, first.end_lineno  # 0-based start, exclusive end
    indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
    body = textwrap.indent(summary, indent).lstrip()
    quoted = f'{indent}"""{body}\n\n{indent}(Full docstring: help({node.name}).)\n{indent}"""\n'
    return "".join(lines[:start]) + quoted + "".join(lines[end:]), True


def show_source(obj, docstring="summary"):
    """Display the source code of a ``mlnotes`` function or class.

    Parameters
    ----------
    obj : function or class
        Defined in the ``mlnotes`` package.
    docstring : {"summary", "full"}
        Show only the first paragraph of the docstring (the default, which keeps the
        listing about the algorithm) or the whole numpydoc docstring.

    Returns
    -------
    SourceCode
        Rendered as a highlighted code block when it is the value of a notebook cell.

    Raises
    ------
    ValueError
        If ``obj`` is not a function or class, or does not come from ``mlnotes``, or
        ``docstring`` is not one of the two choices.
    """
    if not (inspect.isfunction(obj) or inspect.isclass(obj)):
        raise ValueError(f"obj must be a function or class, got {type(obj).__name__}")
    module = inspect.getmodule(obj)
    if module is None or not module.__name__.startswith("mlnotes"):
        raise ValueError(f"obj must be defined in mlnotes, got {obj.__qualname__} from "
                         f"{getattr(module, '__name__', 'an unknown module')}")
    docstring = check.choice(docstring, ("summary", "full"), "docstring")
    code = inspect.getsource(obj)
    if docstring == "summary":
        code, _ = _abridge_docstring(code)
    rel = Path(*module.__name__.split(".")).with_suffix(".py").as_posix()
    return SourceCode(code, f"{rel}: {obj.__qualname__}")
