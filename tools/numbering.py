"""The book's numbers as Sphinx gives them, computed from ``_toc.yml`` and the notebooks.

The site and the PDF number per chapter (``numbered:`` parts in ``_toc.yml``, ``numfig`` in
``_config.yml``): chapters 1, 2, ... across the numbered parts; sections N.k (the ``## ``
headings); exercises N.k. Pages generated from the notebooks (the index of verified claims,
the execution report) use the same numbers; the browser tests check them against the pages.
"""
import json
import re
from pathlib import Path

import yaml

from frontmatter import strip

ROOT = Path(__file__).resolve().parents[1]
_FENCE = re.compile(r"^(`{3,}|:{3,})")


def chapter_numbers(toc=ROOT / "_toc.yml"):
    """{chapter file (``chapters/NN_slug``): its number}, in the order of the numbered parts."""
    data = yaml.safe_load(Path(toc).read_text())
    files = [ch["file"] for part in data.get("parts", []) if part.get("numbered")
             for ch in part.get("chapters", [])]
    return {f: n for n, f in enumerate(files, 1)}


def _markdown(nb):
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            src = cell["source"]
            yield strip("".join(src) if isinstance(src, list) else src)


def outside_fences(markdown):
    """The lines of ``markdown`` that are not inside a fenced block (code or directive)."""
    fence = None
    for line in markdown.splitlines():
        m = _FENCE.match(line.strip())
        if fence is None:
            if m and len(line.strip()) > len(m.group(1)):   # a fence opening: ```{...} or ```python
                fence = m.group(1)
                continue
            if m and line.strip() == m.group(1):             # a bare ``` opening a code block
                fence = m.group(1)
                continue
            yield line
        elif line.strip() == fence[0] * len(line.strip()) and len(line.strip()) >= len(fence):
            fence = None


def headings(nb):
    """[(level, title)] of the Markdown headings of a notebook, in order (not those in fences)."""
    out = []
    for md in _markdown(nb):
        for line in outside_fences(md):
            m = re.match(r"(#{1,6})\s+(.*\S)", line)
            if m:
                out.append((len(m.group(1)), m.group(2)))
    return out


def exercise_labels(nb):
    """The labels of the numbered exercises of a notebook, in order."""
    labels = []
    for md in _markdown(nb):
        for m in re.finditer(r"^(`{3,}|:{3,})\{exercise(?:-start)?\}[^\n]*\n((?::[a-z-]+:[^\n]*\n)*)", md, re.M):
            opts = m.group(2)
            if ":nonumber:" in opts:
                continue
            label = re.search(r":label:\s*(\S+)", opts)
            labels.append(label.group(1) if label else None)
    return labels


def load(path):
    return json.loads(Path(path).read_text())
