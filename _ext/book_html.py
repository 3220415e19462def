"""Small fixes to the HTML that Jupyter Book 1 produces, so pages load without console errors.

* sphinx-thebe registers its inline configuration script (``const THEBE_JS_URL = ...``)
  during ``env-before-read-docs``, after the HTML builder has already been initialised, so
  Sphinx ends up emitting it twice and the browser reports ``Identifier 'THEBE_JS_URL'
  has already been declared`` on every page (sphinx-togglebutton's selector script is
  doubled the same way: Sphinx stores the first copy with filename ``None`` and the second
  with ``""``). We drop repeated script and stylesheet
  entries from each page's context, keeping the first of each.
"""


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
    app.connect("html-page-context", dedupe_assets, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
