"""Small fixes to what Jupyter Book 1 does with this book.

* The first Markdown cell of each chapter starts with a YAML front matter block holding
  the LaTeX macros of ``_config.yml`` (written by ``tools/frontmatter.py``), which
  JupyterLab needs to render the math. MyST-NB does not read front matter in notebooks
  and would print it as text, so it is removed from the source before parsing.

* sphinx-thebe registers its inline configuration script (``const THEBE_JS_URL = ...``)
  during ``env-before-read-docs``, after the HTML builder has already been initialised, so
  Sphinx ends up emitting it twice and the browser reports ``Identifier 'THEBE_JS_URL'
  has already been declared`` on every page (sphinx-togglebutton's selector script is
  doubled the same way: Sphinx stores the first copy with filename ``None`` and the second
  with ``""``). We drop repeated script and stylesheet
  entries from each page's context, keeping the first of each.
"""
import json
import re

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


def strip_notebook_front_matter(app, docname, source):
    if not str(app.env.doc2path(docname)).endswith(".ipynb"):
        return
    nb = json.loads(source[0])
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            cell["source"] = _FRONT_MATTER.sub("", text, count=1)
            break
    source[0] = json.dumps(nb)


def _key(asset):
    # An inline script is registered with filename None by one caller and "" by another.
    filename = getattr(asset, "filename", asset) or ""
    attributes = getattr(asset, "attributes", {})
    return (str(filename), tuple(sorted((k, str(v)) for k, v in attributes.items())))


def _dedupe(assets):
    seen, out = set(), []
    for asset in assets:
        key = _key(asset)
        if key not in seen:
            seen.add(key)
            out.append(asset)
    return out


def dedupe_assets(app, pagename, templatename, context, doctree):
    for name in ("script_files", "css_files"):
        if name in context:
            context[name] = _dedupe(context[name])


def setup(app):
    app.connect("source-read", strip_notebook_front_matter)
    app.connect("html-page-context", dedupe_assets, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
