"""Keep the LaTeX macros of ``_config.yml`` available when a chapter is opened in JupyterLab.

The site gets its macros from ``math_macros`` in ``_config.yml`` (KaTeX renders the math
when the site is built). JupyterLab, with jupyterlab-myst, renders a notebook's math with the macros listed under ``math:`` in the YAML front matter
of the notebook's first Markdown cell. This module writes that front matter from
``_config.yml`` (so the macros are still defined in one place), and the Sphinx extension
in ``_ext/book_html.py`` removes it again before Jupyter Book parses the notebook.

Usage: python tools/frontmatter.py [--check] chapters/*.ipynb
"""
import json
import re
import sys
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


def macros_from_config(config=ROOT / "_config.yml"):
    """The macros of ``_config.yml`` (``math_macros``) as mystmd/KaTeX macro definitions."""
    cfg = yaml.safe_load(Path(config).read_text())
    macros = cfg["sphinx"]["config"]["math_macros"]
    # the config writes [body, n_args] (MathJax's form, which the PDF's \newcommand also
    # uses); KaTeX infers the arguments from #1, #2, ...
    return {f"\\{name}": (body[0] if isinstance(body, list) else body) for name, body in macros.items()}


def strip(markdown):
    """A Markdown cell's text without its front matter."""
    return FRONT_MATTER.sub("", markdown, count=1)


def chapter_title(path):
    """The ``# Title`` heading of a chapter notebook (read as plain JSON; Sphinx numbers it)."""
    nb = json.loads(Path(path).read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            src = cell["source"]
            m = re.search(r"^# (.+)$", strip("".join(src) if isinstance(src, list) else src), re.M)
            if m:
                return m.group(1).strip()
    raise ValueError(f"{path}: no '# Title' heading")


def front_matter(macros):
    body = "\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in macros.items())
    return f"---\nmath:\n{body}\n---\n"


def sync(nb, macros):
    """Put (or refresh) the front matter at the top of the first Markdown cell; True if changed."""
    cell = next(c for c in nb.cells if c.cell_type == "markdown")
    new = front_matter(macros) + strip(cell.source)
    changed = new != cell.source
    cell.source = new
    return changed


def main(args):
    check = "--check" in args
    paths = [a for a in args if a != "--check"]
    macros = macros_from_config()
    stale = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        if sync(nb, macros):
            stale.append(path)
            if not check:
                nbformat.write(nb, path)
    for path in stale:
        print(f"{path}: front matter {'is out of date' if check else 'updated'}")
    return 1 if (check and stale) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
