r"""Every formula of the site rendered at build time with KaTeX, so pages arrive typeset.

MathJax typesets in the reader's browser: a chapter with ~1000 formulas took 5-10 s to
open. Here the HTML builder sends each page's formulas to one Node.js process running
KaTeX (``_ext/katex_render.js``, the ``katex`` package pinned in ``package.json``, installed
into ``node_modules`` by ``make book``), and writes the rendered HTML into the page. The
browser only needs KaTeX's stylesheet and fonts, which are copied into ``_static/katex``:
no script, and no request leaves the site.

* The macros are the book's ``math_macros`` (``_config.yml``), the same that the LaTeX
  preamble (``book_html.py``) and the JupyterLab front matter (``tools/frontmatter.py``)
  get, in MathJax's form ``name: body`` or ``name: [body, number of arguments]``.
* A formula KaTeX cannot parse is a build warning at its source line (so ``-W`` fails),
  and is still written as KaTeX's red ``.katex-error`` span, which the browser checks of
  the site look for.
* Display math is assembled as Sphinx's MathJax writer does it (blank lines separate
  equations, ``\\`` inside one makes it a ``split``), with the equation number and its
  permalink in ``span.eqno``; ``nowrap`` blocks (amsmath environments) go to KaTeX as they are.
* Only the HTML builders use this; the PDF typesets the same TeX with XeLaTeX.
"""
import json
import re
import shutil
import subprocess
from pathlib import Path

from docutils import nodes
from sphinx.locale import _
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

logger = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "katex_render.js"


def node_modules(srcdir):
    return Path(srcdir) / "node_modules"


def katex_macros(macros):
    """MathJax-style macros (``name: body`` or ``name: [body, nargs]``) as KaTeX's ``{"\\name": body}``."""
    return {f"\\{name}": (body[0] if isinstance(body, list) else body) for name, body in macros.items()}


def display_tex(node):
    """The TeX of a display-math node, assembled as Sphinx's MathJax writer assembles it."""
    if node.get("nowrap"):
        return node.astext()
    parts = [p for p in node.astext().split("\n\n") if p.strip()]
    parts = [rf"\begin{{split}}{p}\end{{split}}" if r"\\" in p else p for p in parts]
    if len(parts) > 1:
        return r"\begin{aligned}" + r"\\".join(parts) + r"\end{aligned}"
    return parts[0] if parts else ""


def _item(node):
    if isinstance(node, nodes.math_block):
        return display_tex(node), True
    return node.astext(), False


class KaTeX:
    """One Node.js process with KaTeX for the whole build; results are cached per formula."""

    def __init__(self, srcdir, macros):
        self.cache = {}
        modules = node_modules(srcdir)
        node = shutil.which("node")
        if node is None or not (modules / "katex").is_dir():
            raise RuntimeError(
                "rendering the math needs Node.js and the katex package: run `npm ci` in "
                f"{srcdir} (make book does this), with Node.js 18 or newer on the PATH")
        env = {"NODE_PATH": str(modules), "PATH": str(Path(node).parent)}
        self.proc = subprocess.Popen([node, str(SCRIPT), json.dumps(katex_macros(macros))],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     encoding="utf-8", env=env, cwd=srcdir)
        hello = json.loads(self._readline())
        self.version = hello["version"]

    def _readline(self):
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the KaTeX process ({SCRIPT.name}) stopped (exit code {self.proc.poll()})")
        return line

    def render(self, items):
        """Render [(tex, display)], filling the cache; returns the list of (html, error)."""
        todo = list(dict.fromkeys(i for i in items if i not in self.cache))
        if todo:
            self.proc.stdin.write(json.dumps([{"tex": t, "display": d} for t, d in todo]) + "\n")
            self.proc.stdin.flush()
            for key, out in zip(todo, json.loads(self._readline())):
                self.cache[key] = (out["html"], out["error"])
        return [self.cache[i] for i in items]

    def close(self):
        self.proc.stdin.close()  # the script ends at the end of its input
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()


def _katex(app):
    if getattr(app, "_katex", None) is None:
        app._katex = KaTeX(app.srcdir, app.config.math_macros)
    return app._katex


# punctuation that belongs to the formula before it: a line must not start with it
_TRAILING_PUNCTUATION = re.compile(r"[.,;:!?)\]’”]+")
# an opening bracket or quote right before a formula: a line must not end with it
_LEADING_PUNCTUATION = re.compile(r"[(\[‘“]+$")


def keep_punctuation_with_math(doctree):
    """Wrap each inline formula with the punctuation right after it, and an opening bracket
    or quote right before it, in one ``span.math-punct`` (``white-space: nowrap`` in
    ``_static/book.css``), so that a line never starts with the full stop or comma that ends
    a formula, nor ends with the bracket that opens one."""
    for node in list(doctree.findall(nodes.math)):
        parent = node.parent
        i = parent.index(node)
        before = parent[i - 1] if i > 0 else None
        after = parent[i + 1] if i + 1 < len(parent) else None
        lead = _LEADING_PUNCTUATION.search(str(before)) if isinstance(before, nodes.Text) else None
        trail = _TRAILING_PUNCTUATION.match(str(after)) if isinstance(after, nodes.Text) else None
        if not (lead or trail):
            continue
        glue = nodes.inline(classes=["math-punct"])
        parent.replace(node, glue)
        if lead:
            glue += nodes.Text(lead.group())
            rest = str(before)[:lead.start()]
            if rest:
                parent.replace(before, nodes.Text(rest))
            else:
                parent.remove(before)
        glue += node
        if trail:
            glue += nodes.Text(trail.group())
            rest = str(after)[trail.end():]
            if rest:
                parent.replace(after, nodes.Text(rest))
            else:
                parent.remove(after)


def prerender(app, doctree, docname):
    """Render all formulas of a page in one request to the KaTeX process (before writing)."""
    if app.builder.format != "html" or app.builder.math_renderer_name != "katex":
        return
    keep_punctuation_with_math(doctree)
    math = list(doctree.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block))))
    if not math:
        return
    items = [_item(n) for n in math]
    for node, (tex, _display), (_html, error) in zip(math, items, _katex(app).render(items)):
        if error:
            logger.warning("KaTeX cannot render %r: %s", tex[:200], error, location=node,
                           type="katex", subtype="parse")


def _rendered(self, node):
    tex, display = _item(node)
    html, _error = _katex(self.builder.app).render([(tex, display)])[0]
    return html


def visit_math(self, node):
    self.body.append(self.starttag(node, "span", "", CLASS="math notranslate nohighlight"))
    self.body.append(_rendered(self, node) + "</span>")
    raise nodes.SkipNode


def visit_displaymath(self, node):
    self.body.append(self.starttag(node, "div", CLASS="math notranslate nohighlight"))
    if node["number"] and not node.get("nowrap"):
        self.body.append(f'<span class="eqno">({get_node_equation_number(self, node)})')
        self.add_permalink_ref(node, _("Link to this equation"))
        self.body.append("</span>")
    self.body.append(_rendered(self, node) + "</div>\n")
    raise nodes.SkipNode


def add_stylesheet(app):
    if app.builder.format == "html" and app.builder.math_renderer_name == "katex":
        app.add_css_file("katex/katex.min.css")


def copy_assets(app, exception):
    """KaTeX's stylesheet and fonts into ``_static/katex``; then stop the KaTeX process."""
    if getattr(app, "_katex", None) is not None:
        app._katex.close()
        app._katex = None
    if exception is not None or app.builder.format != "html" or app.builder.math_renderer_name != "katex":
        return
    dist = node_modules(app.srcdir) / "katex" / "dist"
    target = Path(app.outdir) / "_static" / "katex"
    (target / "fonts").mkdir(parents=True, exist_ok=True)
    shutil.copy2(dist / "katex.min.css", target / "katex.min.css")
    for font in (dist / "fonts").iterdir():
        shutil.copy2(font, target / "fonts" / font.name)


def setup(app):
    app.add_config_value("math_macros", {}, "env", types=(dict,))
    app.add_html_math_renderer("katex", (visit_math, None), (visit_displaymath, None))
    app.connect("builder-inited", add_stylesheet)
    app.connect("doctree-resolved", prerender)
    app.connect("build-finished", copy_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
