"""mlnotes: the small helper package behind *Executable Notes on Machine Learning and Statistics*.

Each chapter of the book has one module here (``mlnotes.linear`` for chapter 06, ...).
The shared pieces are

* :mod:`mlnotes.checks` -- ``claim`` and ``claim_close``, the book's verified statements;
* :mod:`mlnotes.plotting` -- one figure style for the whole book;
* :mod:`mlnotes.datasets` -- seeded toy data used across chapters;
* :func:`show_source` -- display an implementation in the book.
"""
from mlnotes.checks import claim, claim_close
from mlnotes.display import show_source

__all__ = ["claim", "claim_close", "show_source"]
__version__ = "0.1.0"
