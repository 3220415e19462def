"""Hygiene of the chapter notebooks: what every chapter must satisfy before nbval runs it."""
import json
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb"))


def _toc_files():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                yield entry["file"]
            yield from walk(entry.get("sections"))

    files = [toc["root"]]
    for part in toc.get("parts", []):
        files += list(walk(part.get("chapters")))
    return files


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def _source(cell):
    src = cell["source"]
    return "".join(src) if isinstance(src, list) else src


def test_there_are_chapters():
    assert NOTEBOOKS, "chapters/ holds no notebook"


def test_toc_and_chapters_agree():
    listed = {f for f in _toc_files() if f.startswith("chapters/")}
    present = {p.relative_to(ROOT).with_suffix("").as_posix() for p in NOTEBOOKS}
    assert present - listed == set(), f"notebooks missing from _toc.yml: {sorted(present - listed)}"
    assert listed - present == set(), f"_toc.yml lists notebooks that do not exist: {sorted(listed - present)}"
    for f in _toc_files():
        assert (ROOT / f).with_suffix(".ipynb").exists() or (ROOT / f).with_suffix(".md").exists(), f


def test_chapter_file_names():
    for p in NOTEBOOKS:
        assert re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", p.name), f"{p.name}: expected NN_slug.ipynb"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_hygiene(path):
    nb = _load(path)
    assert nb.get("metadata", {}).get("kernelspec", {}).get("name") == "python3", "kernelspec must be python3"
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    md = "\n".join(_source(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    counts = [c.get("execution_count") for c in code]
    assert counts == list(range(1, len(code) + 1)), f"not executed top to bottom in a fresh kernel: {counts}"
    for i, cell in enumerate(code, 1):
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", f"code cell {i} has an error output"
            assert not (out["output_type"] == "stream" and out.get("name") == "stderr"), \
                f"code cell {i} writes to stderr (a warning?): {''.join(out.get('text', ''))[:200]}"
            shown = "".join(out.get("data", {}).get("text/plain", "")) + "".join(out.get("text", ""))
            assert not re.search(r" at 0x[0-9a-fA-F]+>", shown), \
                f"code cell {i} shows an object repr with a memory address (end the cell with plt.show() or ';'): {shown[:80]}"
    assert re.search(r"\bclaim(_close)?\(", "\n".join(_source(c) for c in code)), "no claim(...) checks"
    assert re.search(r"^# \S", md, re.M), "no '# Title' heading"
    assert re.search(r"\{admonition\}\s*Sources", md), "no Sources admonition"
    assert re.search(r"^#+\s*Corrections to the source notes", md, re.M), "no corrections section"
    assert "{prf:" in md, "no {prf:...} directives"
    assert re.search(r"show_source\(", "\n".join(_source(c) for c in code)), "no implementation shown with show_source"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_claims_pass_in_stored_outputs(path):
    """Each claim cell's stored output shows the tick line (the claim ran and held)."""
    nb = _load(path)
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or not re.search(r"^\s*claim(_close)?\(", _source(cell), re.M):
            continue
        text = "".join("".join(o.get("text", "")) for o in cell.get("outputs", []) if o["output_type"] == "stream")
        assert "\u2713" in text, f"a claim cell has no ✓ line in its stored output:\n{_source(cell)[:300]}"


def test_prf_labels_are_unique_across_the_book():
    seen = {}
    for path in NOTEBOOKS:
        for cell in _load(path)["cells"]:
            if cell["cell_type"] == "markdown":
                for label in re.findall(r"^:label:\s*(\S+)", _source(cell), re.M):
                    assert label not in seen, f"label {label} in {path.name} is also in {seen[label]}"
                    seen[label] = path.name


def test_front_matter_carries_the_config_macros():
    """JupyterLab gets the LaTeX macros of _config.yml from each chapter's front matter."""
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import frontmatter
    finally:
        sys.path.pop(0)
    import nbformat

    macros = frontmatter.macros_from_config()
    assert {"\\norm", "\\argmin", "\\bracka", "\\loss", "\\dby"} <= set(macros)
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        assert not frontmatter.sync(nb, macros), \
            f"{path.name}: front matter differs from _config.yml; run python tools/frontmatter.py {path}"


# The parts of ../shared/BOOK_PLAN.md and BOOK_PLAN_VOL2.md, in order; the table of contents uses these captions.
PARTS = [
    "Part I. Probability and statistics",
    "Part II. Optimisation and linear models",
    "Part III. Kernels and regularisation",
    "Part IV. Generalisation and ensembles",
    "Part V. Online learning",
    "Part VI. Neural networks",
    "Part VII. Unsupervised and probabilistic learning",
    "Part VIII. Sequential decisions",
    "Part IX. Statistical inference",
    "Part X. Linear and generalised linear models",
    "Part XI. Learning theory",
    "Part XII. Bayesian modelling and Monte Carlo",
    "Part XIII. Graphical models and approximate inference",
    "Part XIV. Convex optimisation in depth",
    "Part XV. RKHS theory",
]


def test_toc_parts_follow_the_book_plan():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    captions = [part["caption"] for part in toc["parts"]]
    assert captions[-1] == "Back matter"
    body = captions[:-1]
    assert all(c in PARTS for c in body), f"unknown part captions: {set(body) - set(PARTS)}"
    assert body == sorted(body, key=PARTS.index), "parts are out of order"
    numbers = [int(re.match(r"chapters/(\d\d)_", c["file"]).group(1))
               for part in toc["parts"][:-1] for c in part["chapters"]]
    assert numbers == sorted(numbers), "chapters are out of order"


_LIST_MARKER = re.compile(r"^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:\s|$)")
_DOLLAR = re.compile(r"(?<![\\$])\$(?!\$)")


def _lines_breaking_inline_math(markdown):
    """Lines that continue an inline formula ``$...$`` but start like a list item.

    Markdown ends the paragraph there (``+ \\log x$`` opens a bullet list), so the formula
    is torn in two and its TeX is shown raw; the browser checks cannot see it, because
    each half holds one dollar sign. Wrap the line elsewhere.
    """
    bad, inside, fence = [], False, None
    for line in markdown.splitlines():
        m = re.match(r"^\s*(`{3,}|~{3,})", line)
        if m:
            fence = None if fence and m.group(1).startswith(fence) else (fence or m.group(1))
            inside = False
            continue
        if not line.strip():
            inside = False
            continue
        if inside and _LIST_MARKER.match(line):
            bad.append(line.strip()[:80])
        if len(_DOLLAR.findall(line)) % 2:
            inside = not inside
    return bad


def test_lines_breaking_inline_math_are_found():
    assert _lines_breaking_inline_math("a $x\n+ y$ b") == ["+ y$ b"]
    assert _lines_breaking_inline_math("a $x$\n+ item $y$") == []
    assert _lines_breaking_inline_math("a $x\n\n- y") == []


def _display_math_glued_to_text(markdown):
    """Lines ``$$`` that open a display formula right after a line of text.

    Without a blank line before it, ``$$`` continues the paragraph as inline math: the site
    still shows a formula, but the PDF typesets its TeX as text.
    """
    bad, inside, prev = [], False, ""
    for line in markdown.splitlines():
        s = line.strip()
        if not inside and s.startswith("$$"):
            if prev.strip() and not prev.strip().startswith(("```", ":")):
                bad.append(prev.strip()[:80])
            inside = not (len(s) > 4 and s.endswith("$$"))     # a formula on one line closes at once
        elif inside and s.endswith("$$"):
            inside = False
        prev = line
    return bad


def test_display_math_glued_to_text_is_found():
    assert _display_math_glued_to_text("text\n$$\nx\n$$") == ["text"]
    assert _display_math_glued_to_text("text\n\n$$\nx\n$$\nmore") == []
    assert _display_math_glued_to_text("text\n$$x = 1$$\nmore") == ["text"]
    assert _display_math_glued_to_text("a\n\n$$x\ny$$\nb\n$$z$$") == ["b"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_display_math_starts_a_block(path):
    bad = [f"cell {i}: {line}" for i, cell in enumerate(_load(path)["cells"]) if cell["cell_type"] == "markdown"
           for line in _display_math_glued_to_text(_source(cell))]
    assert not bad, "a $$ display formula follows a line of text without a blank line:\n" + "\n".join(bad)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_line_breaks_an_inline_formula(path):
    bad = [f"cell {i}: {line}" for i, cell in enumerate(_load(path)["cells"]) if cell["cell_type"] == "markdown"
           for line in _lines_breaking_inline_math(_source(cell))]
    assert not bad, "a formula is torn by a line that Markdown reads as a list item:\n" + "\n".join(bad)


# --- Damage done by string escapes, and listings that are not shown --------------------
# A notebook written from a Python string without r"..." loses the backslash of TeX
# commands: "\t" of \theta becomes a tab, "\f" of \frac a form feed, "\b" of \beta a
# backspace, "\r" of \rho a carriage return, and "\n" of \norm, \nabla, \neq a line break,
# leaving a line that begins "orm{...}". Control characters are found directly; a line
# break is found from the tail it leaves at the start of the next line inside a formula.
_CONTROL = re.compile(r"[\x00-\x08\x09\x0b-\x1f\x7f]")
# The tails of TeX commands that begin with n, long enough not to be a variable name.
_NEWLINE_TAILS = ("orm", "abla", "ewline", "olimits", "otin", "atural", "earrow", "exists", "eq",
                  "ot", "mid", "leq", "geq", "eg")
_TAIL_START = re.compile(r"\s*(" + "|".join(sorted(_NEWLINE_TAILS, key=len, reverse=True)) + r")(?![A-Za-z])")
_SURE_TAIL = re.compile(r"\s*(orm\s*[{_^]|abla(?![A-Za-z])|ewline(?![A-Za-z]))")


def _escape_damage(markdown):
    """Control characters, and lines that begin with the tail of a TeX command whose
    backslash-n a string escape turned into a line break."""
    bad = [f"control character {m.group()!r} near {markdown[max(0, m.start() - 30):m.end() + 10]!r}"
           for m in _CONTROL.finditer(markdown)]
    inline, display = False, False
    for line in markdown.splitlines():
        if _SURE_TAIL.match(line) or ((inline or display) and _TAIL_START.match(line)):
            bad.append(f"line begins with the tail of a TeX command: {line.strip()[:60]!r}")
        for m in re.finditer(r"\$\$|(?<!\\)\$", line):
            if m.group() == "$$":
                display = not display
            elif not display:
                inline = not inline
        if not line.strip():
            inline = False
    return bad


def test_escape_damage_is_found():
    assert _escape_damage("a $\\norm{x}$ b") == []
    assert len(_escape_damage("a $\\theta$ and $\theta$")) == 1          # a tab
    assert len(_escape_damage("for $x$, $\norm{x} = 1$")) == 1           # "orm{x} = 1$"
    assert len(_escape_damage("$$\na \neq b\n$$")) == 1                   # "eq b" inside display math
    assert _escape_damage("the gradient\nnotation and\neq. (3)") == []    # prose, not a formula
    assert _escape_damage("$$\nu = s(b - a)\n$$") == []                   # a variable u, not \nu


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_tex_eaten_by_string_escapes(path):
    bad = [f"cell {i}: {msg}" for i, cell in enumerate(_load(path)["cells"]) if cell["cell_type"] == "markdown"
           for msg in _escape_damage(_source(cell))]
    assert not bad, "markdown damaged by a string escape (write notebooks with raw strings):\n" + "\n".join(bad)


def _listings_shown(cell):
    """The origins ('mlnotes/x.py: name') of the show_source listings a code cell displays."""
    shown = []
    for out in cell.get("outputs", []):
        text = "".join(out.get("data", {}).get("text/markdown", ""))
        m = re.match(r"```python\n# (mlnotes/\S+: \S+)\n", text)
        if m:
            shown.append(m.group(1))
    return shown


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_show_source_call_is_shown(path):
    """Only a cell's last expression is displayed, so a second show_source in one cell would
    silently show nothing: every call must have its listing in the stored outputs."""
    bad = []
    for i, cell in enumerate(_load(path)["cells"]):
        if cell["cell_type"] != "code":
            continue
        calls = re.findall(r"\bshow_source\(\s*([\w.]+)", _source(cell))
        shown = _listings_shown(cell)
        if len(shown) < len(calls):
            bad.append(f"cell {i}: {len(calls)} show_source calls ({', '.join(calls)}), {len(shown)} shown")
    assert not bad, "show_source listings that are not displayed:\n" + "\n".join(bad)


# --- Claims quoted in the text, and references to other chapters -------------------------
# A corrections table (or a paragraph) names the claim that checks a statement: 'claim "…"'
# or 'claims "…", "…"'. The quoted text must be a claim the chapter prints, so a claim that
# is renamed or removed cannot leave a citation to nothing behind. "…" in a quote stands for
# any text (a long statement, or a number printed in it).
_CLAIM_QUOTES = re.compile(r'\b[Cc]laims?\b((?:[^"|\n]{0,40}?"[^"\n]+")+)')


def _printed_claims(nb):
    from mlnotes.checks import claims_in
    return [line for cell in nb["cells"] if cell["cell_type"] == "code"
            for out in cell.get("outputs", []) if out["output_type"] == "stream"
            for line in claims_in("".join(out.get("text", "")))]


def _quoted_claims(markdown):
    """The claim statements quoted in Markdown text, with table escapes (\\|) undone."""
    return [q.replace("\\|", "|") for m in _CLAIM_QUOTES.finditer(markdown)
            for q in re.findall(r'"([^"\n]+)"', m.group(1))]


def _quote_matches(quote, printed):
    """Whether a printed claim contains the quote's pieces (split at "…") in order."""
    pieces = [s.strip() for s in quote.split("…") if s.strip()]
    for line in printed:
        pos = 0
        for piece in pieces:
            pos = line.find(piece, pos)
            if pos < 0:
                break
            pos += len(piece)
        else:
            return True
    return False


def test_quoted_claims_are_found_and_matched():
    md = 'row | x | claims "a b", "c … e" and the claim "zz" |\n'
    assert _quoted_claims(md) == ["a b", "c … e", "zz"]
    assert _quoted_claims('claim "P(\\|X\\| > t)"') == ["P(|X| > t)"]
    printed = ["a b c", "c d e"]
    assert _quote_matches("a b", printed) and _quote_matches("c … e", printed)
    assert not _quote_matches("zz", printed) and not _quote_matches("e … c", printed)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_quoted_claim_is_printed_by_the_chapter(path):
    nb = _load(path)
    printed = _printed_claims(nb)
    md = "\n".join(_source(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    missing = [q for q in _quoted_claims(md) if not _quote_matches(q, printed)]
    assert not missing, ("the text quotes claims that the chapter does not print "
                         "(quote the printed statement; … stands for any text):\n  " + "\n  ".join(missing))


def _chapter_number(path):
    return int(path.name[:2])


def _labels_by_chapter():
    where = {}
    for path in NOTEBOOKS:
        md = "\n".join(_source(c) for c in _load(path)["cells"] if c["cell_type"] == "markdown")
        for label in re.findall(r"^:label:\s*(\S+)", md, re.M) + re.findall(r"^\(([\w.-]+)\)=", md, re.M):
            where[label] = _chapter_number(path)
    return where


def _forward_references(md, chapter, where):
    """References in chapter ``chapter`` to a later chapter's label, written with their own
    text, whose line does not say which chapter it is in ("Chapter N", "§N.", or a
    ``{numref}`` to a section of chapter N). A reference without its own text renders the
    result's number ("Theorem 31.4"), which names the chapter already."""
    bad = []
    for m in re.finditer(r"\{prf:ref\}`([^`]*)`", md):
        target = m.group(1)
        label = re.search(r"<([^>]+)>\s*$", target)
        if not label:
            continue
        label = label.group(1).strip()
        other = where.get(label)
        if other is None or other <= chapter:
            continue
        line = md[md.rfind("\n", 0, m.start()) + 1:md.find("\n", m.end()) % (len(md) + 1)]
        if re.search(rf"Chapters?\s+(?:\d+\s*(?:,|and|–|-)\s*)*{other}\b|§{other}\.\d", line):
            continue
        if any(where.get(t) == other for t in re.findall(r"\{numref\}`[^`<]*<([^>]+)>`", line)):
            continue
        bad.append(f"{label} (Chapter {other})")
    return bad


def test_forward_references_are_found():
    where = {"later": 9, "earlier": 2, "later-sec": 9}
    assert _forward_references("see {prf:ref}`the bound <later>` and {prf:ref}`earlier`", 5, where) == [
        "later (Chapter 9)"]
    assert _forward_references("see {prf:ref}`later`, which renders Theorem 9.1", 5, where) == []
    assert _forward_references("see {prf:ref}`text <later>` in Chapter 9", 5, where) == []
    assert _forward_references("as §9.3 shows ({prf:ref}`text <later>`)", 5, where) == []
    assert _forward_references("as {numref}`§%s <later-sec>` shows ({prf:ref}`text <later>`)", 5, where) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_references_to_later_chapters_say_which_chapter(path):
    """A reader meets a result before its chapter only with a pointer to where it is."""
    md = "\n".join(_source(c) for c in _load(path)["cells"] if c["cell_type"] == "markdown")
    bad = _forward_references(md, _chapter_number(path), _labels_by_chapter())
    assert not bad, ("references to labels of later chapters, on a line that does not say which "
                     "chapter (write 'Chapter N' or '§N.k' beside it):\n  " + "\n  ".join(bad))


def test_numref_targets_are_in_the_same_chapter():
    """{numref} to an exercise of another chapter resolves on the site but not in the PDF
    (sphinx-exercise labels are local to their document in LaTeX): name it in prose instead."""
    labels = {m.group(1): path for path in NOTEBOOKS
              for m in re.finditer(r":label: ([\w-]+)", path.read_text(encoding="utf-8"))}
    bad = [f"{path.name}: {m.group(1)}" for path in NOTEBOOKS
           for m in re.finditer(r"\{numref\}`([\w-]+)`", path.read_text(encoding="utf-8"))
           if labels.get(m.group(1), path) != path]
    assert not bad, "numref to a label of another chapter:\n" + "\n".join(bad)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_headings_carry_no_hand_numbers_and_sections_have_labels(path):
    """Sphinx numbers the chapters and their sections (the numbered parts of _toc.yml): a
    hand-written number would show twice ("27.1. 27.1 Simple ..."). Every section has a
    label right above its heading, so that a reference to it ({numref}`§%s <label>`)
    follows it when sections are added or moved."""
    bad, unlabelled = [], []
    for cell in _load(path)["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        lines = _source(cell).splitlines()
        for i, line in enumerate(lines):
            if re.match(r"#{1,6}\s+\d+(\.\d+)*\.?\s", line):
                bad.append(line)
            if line.startswith("## ") and not (i and re.fullmatch(r"\([\w.:-]+-sec-[\w.-]+\)=", lines[i - 1])):
                unlabelled.append(line)
    assert not bad, f"headings with hand-written numbers: {bad}"
    assert not unlabelled, f"sections without a '(<prefix>-sec-<slug>)=' label line above them: {unlabelled}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_has_a_caption_a_name_and_alt_text(path):
    """A figure is numbered (Figure 27.2) only with a caption; a reader who cannot see it
    gets its alt text, which must say what it shows (myst-nb's default is the file name)."""
    bad = []
    for i, cell in enumerate(_load(path)["cells"]):
        if cell["cell_type"] != "code":
            continue
        outs = [o for o in cell.get("outputs", []) if o["output_type"] in ("display_data", "execute_result")]
        images = [o for o in outs if any(k.startswith("image/") for k in o.get("data", {}))]
        if not images:
            continue
        meta = cell.get("metadata", {}).get("mystnb", {})
        caption = meta.get("figure", {}).get("caption", "")
        name = meta.get("figure", {}).get("name", "")
        alt = meta.get("image", {}).get("alt", "")
        if len(outs) > len(images):
            bad.append(f"cell {i}: shows something beside its figure (end it with plt.show())")
        if len(images) > 1:
            bad.append(f"cell {i}: {len(images)} figures in one cell")
        if not re.fullmatch(r"fig-[a-z0-9_]+-[a-z0-9-]+", name):
            bad.append(f"cell {i}: figure name {name!r} (want fig-<prefix>-<slug>)")
        if len(caption.split()) < 4:
            bad.append(f"cell {i}: figure caption {caption!r}")
        if len(alt) < 40 or re.search(r"[$\\`]", alt) or alt.strip() == caption.strip():
            bad.append(f"cell {i}: alt text must describe the figure in plain text: {alt!r}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_table_has_a_caption_and_a_name(path):
    """Tables are numbered (Table 27.1) only inside a captioned ``table`` directive."""
    bad = []
    for cell in _load(path)["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        inside = None
        for line in _source(cell).splitlines():
            m = re.match(r"\s*(:{3,})\{table\}(.*)$", line)
            if m:
                inside = m.group(1)
                if not m.group(2).strip():
                    bad.append(f"a table without a caption: {line.strip()}")
            elif inside and line.strip() == inside:
                inside = None
            elif re.match(r"\s*\|[-: |]+\|\s*$", line) and not inside:
                bad.append("a Markdown table outside a ':::{table} Caption' block")
    names = re.findall(r"^\s*:name:\s*(\S+)", "\n".join(_source(c) for c in _load(path)["cells"]), re.M)
    bad += [f"table name {n!r} (want tab-<prefix>-<slug>)" for n in names
            if n.startswith("tab") and not re.fullmatch(r"tab-[a-z0-9_]+-[a-z0-9-]+", n)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_headings_are_unique_within_a_chapter(path):
    """Two headings with one title lose their implicit names in docutils: their anchors
    become "id3", and sphinx-proof cannot find the chapter of a box in the PDF, whose
    number is then missing there (it happened to a section titled like its chapter)."""
    import sys
    sys.path.insert(0, str(ROOT / "tools"))
    from numbering import headings

    titles = [t.lower() for _, t in headings(_load(path))]
    assert len(set(titles)) == len(titles), f"repeated headings: {sorted({t for t in titles if titles.count(t) > 1})}"



@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_figures_are_opaque(path):
    """A figure keeps its own white background, so that its black text and lines stay
    readable in the site's dark theme (a transparent PNG would show them on near-black)."""
    import base64
    import io

    import numpy as np
    from PIL import Image

    bad = []
    for i, cell in enumerate(_load(path)["cells"]):
        for out in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            png = out.get("data", {}).get("image/png")
            if png:
                alpha = np.asarray(Image.open(io.BytesIO(base64.b64decode(png))).convert("RGBA"))[..., 3]
                if alpha.min() < 255:
                    bad.append(f"cell {i}: {np.mean(alpha < 255):.0%} of the pixels are transparent")
    assert not bad, "\n".join(bad)
