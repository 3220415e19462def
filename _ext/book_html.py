r"""Small fixes to what Jupyter Book 1 does with this book.

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

* Every verified claim gets an anchor, so the index of verified claims (``claims.md``,
  written by ``tools/claims_index.py``) can link to the cell that checks it. The k-th
  claim printed by chapter NN is the label ``claim-NN-k``; both sides count claim lines
  with :func:`mlnotes.checks.claims_in`. The anchors are explicit targets registered
  before Sphinx collects labels, so ``{ref}`` resolves them (and the strict build fails on
  a link to a claim that no longer exists), in HTML and in LaTeX.

* The introduction links the PDF of the book (``book.pdf`` in the site's folder) only when
  the PDF is there: ``make book`` alone does not make it, and a site without it shows how
  to make it instead of a dead link. ``make pdf`` copies the PDF into the site and builds
  the site again; the pages with the link are re-read whenever the PDF appears or goes.

* The PDF (``make pdf``, XeLaTeX) gets the math macros of ``_config.yml`` as
  ``\newcommand``s, so they are defined in one place for the site, JupyterLab and the PDF;
  and DejaVu fonts, with the few characters they lack (the CJK characters of quoted
  notes, ℓ, ≺, ✓, ⪯, ⪰, 𝓛) switched to fonts that have them by XeTeX's inter-character tokens.
  Chapters, sections, figures and tables are numbered as on the site (the introduction
  and the back matter are not; see ``part_starts``), each part of ``_toc.yml`` starts with
  a ``\part``, and long tables (which LaTeX would set in
  non-wrapping columns, off the page) get column widths from the length of their text.
"""
import json
import os
import re
import shutil
from pathlib import Path, PurePosixPath

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
import yaml

from mlnotes.checks import claims_in

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


def claim_label(docname, k):
    """The label of the k-th claim (from 1) of the chapter ``chapters/NN_slug``."""
    return f"claim-{PurePosixPath(docname).name.split('_', 1)[0]}-{k}"


class ClaimAnchors(SphinxTransform):
    """Put a target ``claim-NN-k`` in front of the code cell that prints the k-th claim, and
    mark the outputs that print claims (class ``claims``), whose long lines wrap on the site."""

    default_priority = 500  # after MyST-NB has built the cells, before SphinxDomains (850)

    def apply(self, **kwargs):
        docname = self.env.docname
        if not docname.startswith("chapters/"):
            return
        k = 0
        for block in list(self.document.findall(nodes.literal_block)):
            if "stream" not in block["classes"]:
                continue
            cell = block.parent
            while cell is not None and cell.get("nb_element") != "cell_code":
                cell = cell.parent
            claims = claims_in(block.astext())
            if claims:
                block["classes"].append("claims")   # wraps on the site (_static/book.css)
            for _ in claims:
                k += 1
                label = claim_label(docname, k)
                target = nodes.target("", "", ids=[label], names=[label])
                (cell or block).parent.insert((cell or block).parent.index(cell or block), target)
                self.document.note_explicit_target(target)


# Characters the DejaVu text fonts lack, and the fonts that have them.
_FALLBACKS = [
    ("bookcjk", "WenQuanYi Micro Hei", [(0x3000, 0x303F), (0x4E00, 0x9FFF), (0xFF00, 0xFFEF)]),
    ("booksym", "DejaVu Math TeX Gyre", [(0x2113, 0x2113), (0x227A, 0x227A), (0x2713, 0x2713), (0x2AAF, 0x2AB0),
                                 (0x1D4DB, 0x1D4DB)]),
]


def latex_preamble(macros):
    """LaTeX definitions of the book's math macros (`math_macros`), and the font fallbacks."""
    lines = [r"\usepackage{amsmath,amssymb,mathrsfs,ragged2e}", r"\setcounter{secnumdepth}{-2}",
             # table columns of given width (see LongTableWidths): ragged right, hyphenated
             r"\makeatletter\newcolumntype{\X}[2]{>{\RaggedRight\arraybackslash}p{\dimexpr"
             r"(\linewidth-\spx@arrayrulewidth)*#1/#2-\tw@\tabcolsep-\spx@arrayrulewidth\relax}}"
             r"\makeatother",
             r"\XeTeXinterchartokenstate=1",
             # PDF page labels (the "i, ii, ..., 1, 2" a viewer shows) from this run: hyperref
             # writes them from the previous run's .aux, which costs XeLaTeX a third pass just
             # to move them by the length of the contents. Collected while the pages are
             # shipped out, written into the catalog on the last page.
             r"\makeatletter",
             r"\AddToHook{begindocument/before}{\let\HyPL@SetPageLabels\relax}",
             r"\AddToHook{begindocument/end}{\global\let\book@pagelabels\@empty"
             r"\let\book@storepagelabel\HyPL@StorePageLabel"
             r"\def\HyPL@StorePageLabel#1{\book@storepagelabel{#1}"
             r"\xdef\book@pagelabels{\book@pagelabels\the\Hy@abspage<<#1>>}}}",
             r"\AtEndDocument{\Hy@PutCatalog{/PageLabels<</Nums[\book@pagelabels]>>}}",
             r"\makeatother"]
    for cls, font, ranges in _FALLBACKS:
        lines += [rf"\newfontfamily\{cls}font{{{font}}}", rf"\newXeTeXintercharclass\{cls}class"]
        for lo, hi in ranges:
            lines.append(rf"\count255={lo} \loop\ifnum\count255<{hi + 1} "
                         rf"\XeTeXcharclass\count255=\{cls}class \advance\count255 by 1 \repeat")
        for other in (0, 4095):
            lines += [rf"\XeTeXinterchartoks {other} \{cls}class={{\begingroup\{cls}font}}",
                      rf"\XeTeXinterchartoks \{cls}class {other}={{\endgroup}}"]
    for name, body in macros.items():
        body, nargs = (body if isinstance(body, list) else [body, 0])
        args = f"[{nargs}]" if nargs else ""
        lines.append(rf"\providecommand{{\{name}}}{{}}\renewcommand{{\{name}}}{args}{{{body}}}")
    return "\n".join(lines) + "\n"


def configure_latex(app, config):
    macros = config.math_macros
    elements = dict(config.latex_elements)
    elements["fontpkg"] = ("\\setmainfont{DejaVu Serif}\n\\setsansfont{DejaVu Sans}\n"
                           "\\setmonofont{DejaVu Sans Mono}[Scale=0.85]\n")
    elements["preamble"] = elements.get("preamble", "") + latex_preamble(macros)
    # Sphinx names the table of contents after the first toctree caption ("Part I. ...")
    elements["tableofcontents"] = "\\renewcommand{\\contentsname}{Contents}\\sphinxtableofcontents\n"
    config.latex_elements = elements
    # Sphinx's LaTeX Makefile runs `latexmk -pdf`, so XeLaTeX writes a whole PDF on every
    # pass; with -xelatex it writes .xdv files and xdvipdfmx makes the PDF once, at the end
    # (the same PDF, a third less CPU). The Makefile reads this from the environment.
    os.environ.setdefault("LATEXMKOPTS", "-xelatex")


# latexmk runs XeLaTeX again while the .aux changes. With the page labels written from the
# current run (latex_preamble), what still changes from the second run to a third is the
# page labels' own record and the kernel's count of pages, and the third run writes the
# same .xdv byte for byte; so latexmk ignores these two lines when it compares .aux files.
_LATEXMK_AUX_IGNORE = r"""
# _ext/book_html.py: lines of book.aux that do not change the output (see there)
$hash_calc_ignore_pattern{'aux'} = '^(?:\\\\HyPL@Entry\\{|\\\\gdef \\\\@abspage@last\\{)';
"""


def latexmk_ignore_aux_lines(app, exception):
    if exception is None and app.builder.name == "latex":
        rc = Path(app.outdir) / "latexmkrc"
        if rc.is_file() and "hash_calc_ignore_pattern" not in rc.read_text():
            with open(rc, "a", encoding="utf-8") as f:
                f.write(_LATEXMK_AUX_IGNORE)


_ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV",
          "XV", "XVI", "XVII", "XVIII", "XIX", "XX"]


def part_starts(srcdir):
    r"""{first docname of a part: LaTeX that opens the part} from ``_toc.yml``.

    A numbered part (``numbered:`` in ``_toc.yml``) is a numbered ``\part`` whose title is
    its caption without the "Part IV. " that LaTeX prints itself (and the caption's numeral
    must be the one LaTeX gives it); before the first one, section numbering is switched
    on, so that the introduction's chapters stay unnumbered and chapter 1 is the first
    chapter of Part I. An unnumbered part (the back matter) switches numbering off again.
    """
    with open(f"{srcdir}/_toc.yml", encoding="utf-8") as f:
        toc = yaml.safe_load(f)
    starts, numbered = {}, 0
    for part in toc.get("parts", []):
        if not (part.get("chapters") and part.get("caption")):
            continue
        caption = part["caption"]
        if part.get("numbered"):
            m = re.fullmatch(r"Part ([IVXLC]+)\. (.+)", caption)
            if not m or m.group(1) != _ROMAN[numbered]:
                raise ValueError(f"_toc.yml: numbered part {numbered + 1} has the caption {caption!r}; "
                                 f"expected 'Part {_ROMAN[numbered]}. <title>'")
            latex = (r"\setcounter{secnumdepth}{1}" if numbered == 0 else "") + f"\\part{{{m.group(2)}}}\n"
            numbered += 1
        else:
            latex = f"\\setcounter{{secnumdepth}}{{-2}}\\part{{{caption}}}\n"
        starts[part["chapters"][0]["file"]] = latex
    return starts


def add_part_headings(app, doctree):
    r"""A LaTeX ``\part`` before the first chapter of each part (HTML ignores it)."""
    latex = part_starts(app.srcdir).get(app.env.docname)
    if latex:
        doctree.insert(0, nodes.raw("", latex, format="latex"))


class LongTableWidths(SphinxPostTransform):
    """Let long tables break across pages, in wrapping columns as wide as their text needs.

    LaTeX only. Sphinx sets a table of up to 30 rows in ``tabulary``, which cannot break
    across pages (a corrections table then runs over the footer), and a longer one in
    ``longtable`` columns that do not wrap (and run off the page).
    """

    default_priority = 400
    builders = ("latex",)

    def run(self, **kwargs):
        for table in self.document.findall(nodes.table):
            rows = list(table.findall(nodes.row))
            colspecs = list(table.findall(nodes.colspec))
            if len(rows) <= 8 or not colspecs:
                continue
            if "longtable" not in table["classes"]:
                table["classes"].append("longtable")
            lengths = [[] for _ in colspecs]
            for row in rows:
                for j, entry in enumerate(row.children[:len(colspecs)]):
                    lengths[j].append(len(entry.astext()))
            for spec, col in zip(colspecs, lengths):
                spec["colwidth"] = int(min(50, max(8, sum(col) / max(len(col), 1))))
            if "colwidths-given" not in table["classes"]:
                table["classes"].append("colwidths-given")


_PDF_LINK = 'class="reference external pdf-download"'


def _pdf_links(doctree):
    return [n for n in doctree.findall(nodes.raw) if n.get("format") == "html" and _PDF_LINK in n.astext()]


def note_pdf_links(app, doctree):
    """Remember which pages link the PDF (so they can be re-read when it appears)."""
    docs = app.env.__dict__.setdefault("book_pdf_docs", set())
    docs.discard(app.env.docname)
    if _pdf_links(doctree):
        docs.add(app.env.docname)


def purge_pdf_links(app, env, docname):
    env.__dict__.setdefault("book_pdf_docs", set()).discard(docname)


def merge_pdf_links(app, env, docnames, other):
    env.__dict__.setdefault("book_pdf_docs", set()).update(getattr(other, "book_pdf_docs", set()) & set(docnames))


def pdf_outdated(app, env, added, changed, removed):
    """Re-read the pages that link the PDF when it appeared in, or went from, the site."""
    if app.builder.format != "html":
        return []
    present = (Path(app.outdir) / "book.pdf").is_file()
    if getattr(env, "book_pdf_present", None) == present:
        return []
    env.book_pdf_present = present
    return sorted(getattr(env, "book_pdf_docs", set()) - set(removed))


def link_pdf_if_built(doctree, pdf_exists):
    """Keep the PDF link when the PDF exists; otherwise replace it by how to make it."""
    if pdf_exists:
        return
    for node in _pdf_links(doctree):
        note = nodes.paragraph(classes=["pdf-not-built"])
        note += nodes.Text("The PDF is not part of this build of the site: ")
        note += nodes.literal(text="make pdf")
        note += nodes.Text(" makes it (with XeLaTeX) and adds the link here.")
        # Inline raw HTML (the <a> tag alone, inside a paragraph whose text and </a> are
        # separate nodes) is replaced with its whole paragraph: a paragraph in a paragraph
        # and a stray </a> would be malformed HTML.
        inline = isinstance(node.parent, nodes.paragraph)
        (node.parent if inline else node).replace_self(note)


def resolve_pdf_link(app, doctree, docname):
    if app.builder.format == "html":
        link_pdf_if_built(doctree, (Path(app.outdir) / "book.pdf").is_file())


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


def refresh_own_static_files(app, exception):
    """Copy the book's own stylesheet and script (``html_css_files``, ``html_js_files`` that
    live in ``_static/``) into the site when they changed: an incremental build of Sphinx 7.4
    does not overwrite a static file that is already in the output, so an edit of
    ``_static/book.css`` would not reach the site until ``make clean``."""
    if exception is not None or app.builder.format != "html":
        return
    source, target = Path(app.srcdir) / "_static", Path(app.outdir) / "_static"
    for name in list(app.config.html_css_files) + list(app.config.html_js_files):
        name = name[0] if isinstance(name, tuple) else name
        src, dst = source / name, target / name
        if src.is_file() and (not dst.is_file() or dst.read_bytes() != src.read_bytes()):
            shutil.copyfile(src, dst)


def setup(app):
    app.connect("source-read", strip_notebook_front_matter)
    app.add_transform(ClaimAnchors)
    app.connect("config-inited", configure_latex)
    app.connect("doctree-read", add_part_headings)
    app.add_post_transform(LongTableWidths)
    app.connect("html-page-context", dedupe_assets, priority=900)
    app.connect("doctree-read", note_pdf_links)
    app.connect("env-purge-doc", purge_pdf_links)
    app.connect("env-merge-info", merge_pdf_links)
    app.connect("env-get-outdated", pdf_outdated)
    app.connect("doctree-resolved", resolve_pdf_link)
    app.connect("build-finished", latexmk_ignore_aux_lines)
    app.connect("build-finished", refresh_own_static_files)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
