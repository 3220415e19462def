"""Show the code of ``mlnotes`` inside the book, so the text and the library never drift."""
import inspect
from pathlib import Path

__all__ = ["show_source", "SourceCode"]


class SourceCode:
    """The source of a function or class, displayed as a highlighted Python block.

    Rich front ends (the Jupyter Book site, JupyterLab) render the Markdown form, a fenced
    ``python`` block; plain front ends print the code itself. Neither form contains a
    memory address, so stored outputs compare exactly under ``pytest --nbval``.
    """

    def __init__(self, code, origin):
        self.code = code
        self.origin = origin

    def _repr_markdown_(self):
        return f"```python\n# {self.origin}\n{self.code}```\n"

    def __repr__(self):
        return f"# {self.origin}\n{self.code}"


def show_source(obj):
    """Display the source code of a ``mlnotes`` function or class.

    Parameters
    ----------
    obj : function or class
        Defined in the ``mlnotes`` package.

    Returns
    -------
    SourceCode
        Rendered as a highlighted code block when it is the value of a notebook cell.

    Raises
    ------
    ValueError
        If ``obj`` is not a function or class, or does not come from ``mlnotes``.
    """
    if not (inspect.isfunction(obj) or inspect.isclass(obj)):
        raise ValueError(f"obj must be a function or class, got {type(obj).__name__}")
    module = inspect.getmodule(obj)
    if module is None or not module.__name__.startswith("mlnotes"):
        raise ValueError(f"obj must be defined in mlnotes, got {obj.__qualname__} from "
                         f"{getattr(module, '__name__', 'an unknown module')}")
    code = inspect.getsource(obj)
    rel = Path(*module.__name__.split(".")).with_suffix(".py").as_posix()
    return SourceCode(code, f"{rel}: {obj.__qualname__}")
