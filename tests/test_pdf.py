"""The whole book as one PDF (``make pdf``): XeLaTeX through Jupyter Book's pdflatex builder.

The PDF is built afresh with the same strict flags as ``make pdf``, in the temporary folder
of the test session's site build (``book_build``, tests/conftest.py), then read back with
poppler's ``pdfinfo`` and ``pdftotext``: its length, every chapter and part, every named
result and exercise, typeset formulas (and no TeX source left in the text), and a LaTeX
log without missing glyphs or unresolved references.

Skipped when XeLaTeX or poppler is missing, unless REQUIRE_PDF=1 (as in CI, where
``.ci/run`` installs them), in which case a missing tool is a failure.
"""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from frontmatter import chapter_title  # noqa: E402
from numbering import chapter_numbers  # noqa: E402

from conftest import numbered_items  # noqa: E402

NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb"))
TOOLS = ("xelatex", "latexmk", "pdftotext", "pdfinfo")


@pytest.fixture(scope="module")
def pdf(book_build):
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        if os.environ.get("REQUIRE_PDF") == "1":
            pytest.fail(f"REQUIRE_PDF=1 but {', '.join(missing)} not found (Debian: texlive-xetex, "
                        "texlive-latex-extra, latexmk, poppler-utils)")
        pytest.skip(f"{', '.join(missing)} not installed")
    # the LaTeX builder on the folder of the site build (tests/conftest.py), whose parsed
    # documents it reuses; it writes book.tex and runs latexmk (XeLaTeX) there
    proc = book_build.run("--builder", "pdflatex")
    latex = book_build.out / "_build" / "latex"
    assert proc.returncode == 0, f"PDF build failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    book = latex / "book.pdf"
    assert book.is_file()
    info = subprocess.run(["pdfinfo", str(book)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(book), "-"],
                          capture_output=True, text=True, check=True).stdout
    return {"pages": pages, "text": text, "flat": re.sub(r"\s+", "", text), "pdf": book.read_bytes(),
            "log": (latex / "book.log").read_text(errors="replace"),
            "tex": (latex / "book.tex").read_text(errors="replace"), "build": proc.stdout,
            "aux": (latex / "book.aux").read_text(errors="replace"), "html": book_build.html}


def _markdown(nb_path):
    nb = json.loads(nb_path.read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def _flat(s):
    return re.sub(r"\s+", "", s.replace("'", "\u2019"))


def test_page_count_fits_the_book(pdf):
    # 22 chapters gave about 600 pages; a PDF that lost chapters or figures is far shorter.
    n = len(NOTEBOOKS)
    assert 15 * n <= pdf["pages"] <= 45 * n, f"{pdf['pages']} pages for {n} chapters"


def test_every_chapter_part_and_back_matter_page_is_in_the_pdf(pdf):
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    # a numbered part is typeset "Part IV" over its title (LaTeX numbers it)
    titles = [re.sub(r"^(Part [IVX]+)\. ", r"\1", part["caption"]) for part in toc["parts"]
              if part["caption"] != "Back matter"]
    titles += [chapter_title(nb) for nb in NOTEBOOKS]
    titles += ["Verified claims", "Notation", "References"]
    missing = [t for t in titles if _flat(t) not in pdf["flat"]]
    assert not missing, f"not in the PDF: {missing}"


def test_named_results_and_exercises_are_typeset(pdf):
    names, exercises = [], 0
    for nb in NOTEBOOKS:
        for md in _markdown(nb):
            for kind, title in re.findall(r"^```\{prf:([a-z]+)\}[ \t]*(.*)$", md, re.M):
                # titles without math or markup can be compared with the extracted text
                if title and not re.search(r"[$\\{}`*_]", title):
                    names.append(f"{kind.capitalize()}{_flat(title)}")
            exercises += len(re.findall(r"^```\{exercise\}", md, re.M))
    assert len(names) > 5 * len(NOTEBOOKS)
    def bare(s):  # numbers ("Definition 1.1") and brackets are in the PDF, not in the source
        return re.sub(r"[\d().]", "", s)

    flat = bare(pdf["flat"])
    missing = [n for n in names if bare(n) not in flat]
    assert not missing, f"{len(missing)} named results missing from the PDF, e.g. {missing[:5]}"
    assert len(re.findall(r"\bExercise \d+", pdf["text"])) >= exercises


def test_formulas_are_typeset_not_left_as_tex(pdf):
    text = pdf["text"]
    # typeset math: symbols that only formulas produce (\top, \partial, \nabla, \sqrt; the
    # big operators of Computer Modern's extension font have no Unicode text to extract)
    for symbol, at_least in [("\u22a4", 300), ("\u2202", 100), ("\u2207", 50), ("\u221a", 50)]:
        assert text.count(symbol) >= at_least, f"only {text.count(symbol)} {symbol!r} in the PDF"
    assert "P(X\u2265t)\u2264E[X]" in pdf["flat"].replace(" ", ""), "Markov's inequality is not typeset"


def test_no_formula_reaches_the_pdf_as_text(pdf):
    """TeX that was meant as math but was not parsed as math is escaped as text in the LaTeX
    source (``\\textbackslash{}frac``, ``\\$``). Code (verbatim blocks and inline code),
    where TeX may be quoted on purpose, is left out of the search."""
    tex = re.sub(r"\\begin\{sphinxVerbatim\}.*?\\end\{sphinxVerbatim\}", "", pdf["tex"], flags=re.S)
    tex = re.sub(r"\\sphinxupquote\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}", "", tex)
    raw = [tex[max(0, m.start() - 60):m.end() + 20] for m in re.finditer(
        r"\\textbackslash\{\}[A-Za-z]+|\\\$", tex)]
    assert not raw, f"{len(raw)} pieces of TeX typeset as text, e.g.:\n" + "\n".join(raw[:8])


def test_latex_log_has_no_missing_glyphs_or_references(pdf):
    log = pdf["log"]
    glyphs = sorted(set(re.findall(r"Missing character: There is no (\S+)", log)))
    assert not glyphs, f"characters without a glyph in the PDF: {glyphs}"
    assert "There were undefined references" not in log
    assert not re.search(r"Citation .* undefined", log)


def _page_labels(pdf_bytes):
    """The /PageLabels number tree of the PDF's catalog: [(first page index, style)]."""
    import zlib

    chunks = [pdf_bytes]
    for m in re.finditer(rb"stream\r?\n", pdf_bytes):  # the catalog may sit in a compressed object stream
        try:
            chunks.append(zlib.decompressobj().decompress(pdf_bytes[m.end():m.end() + 400000]))
        except zlib.error:
            pass
    for chunk in chunks:
        found = re.search(rb"/PageLabels\s*<<\s*/Nums\s*\[(.*?)\]\s*>>", chunk, re.S)
        if found:
            return [(int(i), s.decode()) for i, s in re.findall(rb"(\d+)\s*<<\s*/S\s*/(\w)", found.group(1))]
    return None


def test_page_labels_number_the_front_matter_in_roman_and_the_book_from_1(pdf):
    """The PDF page labels are written from the same XeLaTeX run (_ext/book_html.py), so two
    runs suffice: roman numbers start at the contents, arabic 1 at the first page after them."""
    labels = _page_labels(pdf["pdf"])
    assert labels, "the PDF has no /PageLabels"
    styles = [style for _, style in labels]
    assert styles[-2:] == ["r", "D"], labels
    (roman, _), (arabic, _) = labels[-2:]
    pages = pdf["text"].split("\f")
    contents = pages[roman:arabic]
    assert contents and "CONTENTS" in contents[0], f"page {roman} should start the contents"
    assert all(" . . . " in p or "CONTENTS" in p for p in contents), "a page labelled in roman is not a contents page"
    assert " . . . " not in pages[arabic], f"page {arabic}, labelled 1, is still part of the contents"


def test_the_pdf_numbers_everything_as_the_site_does(pdf):
    """Chapters, sections, theorem-like boxes, exercises, figures and tables carry the same
    numbers in the PDF as on the site: the boxes' titles as typeset in book.tex, and what
    LaTeX itself numbers (chapters, sections, figures, tables) as recorded in book.aux for
    the same anchors."""
    html = pdf["html"]
    site_titles, site_numbers = [], {}
    for doc in chapter_numbers():
        for item in numbered_items((html / f"{doc}.html").read_text()):
            if item["kind"] in ("box", "Exercise"):
                site_titles.append(f"{item['word']} {item['number']}")
            else:
                for anchor in item["ids"]:
                    site_numbers[f"{doc}:{anchor}"] = item["number"]
    pdf_titles = [f"{w} {n}" for w, n in re.findall(
        r"\\begin\{sphinxadmonition\}\{note\}\{([A-Z][a-z]+) (\d+\.\d+)\b", pdf["tex"])]
    assert len(site_titles) > 25 * len(NOTEBOOKS)
    assert pdf_titles == site_titles, next(
        f"box {k}: PDF {a!r}, site {b!r}" for k, (a, b) in enumerate(zip(pdf_titles + [None] * 9999, site_titles + [None] * 9999))
        if a != b)
    aux = dict(re.findall(r"\\newlabel\{([^}]+)\}\{\{([^}]*)\}", pdf["aux"]))
    found = [key for key in site_numbers if key in aux]
    assert len(found) > 0.9 * len(site_numbers), f"only {len(found)} of {len(site_numbers)} anchors in book.aux"
    assert sum(1 for k in found if re.search(r":(fig|tab)-", k)) > 4 * len(NOTEBOOKS)
    wrong = [f"{key}: PDF {aux[key]!r}, site {site_numbers[key]!r}" for key in found if aux[key] != site_numbers[key]]
    assert not wrong, f"{len(wrong)} numbers differ between the PDF and the site:\n" + "\n".join(wrong[:20])

