"""Write ``claims.md``, the index of every verified claim in the book, from the notebooks.

Each chapter prints its claims (``mlnotes.checks.claim`` / ``claim_close``) as lines
starting with ``✓`` in its stored outputs, which ``pytest --nbval`` re-creates and compares
on every CI run. This script lists them, chapter by chapter, each linked to the label
``claim-NN-k`` that ``_ext/book_html.py`` puts in front of the cell printing it, with the
section (or the exercise) it belongs to and the totals.

Usage: python tools/claims_index.py [--check]
  (--check: exit 1 if claims.md is not what the notebooks give; it is not rewritten)
"""
import json
import re
import sys
from pathlib import Path

import yaml

from frontmatter import strip
from generated import write_or_check
from numbering import chapter_numbers, exercise_labels, outside_fences
from mlnotes.checks import claims_in

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "claims.md"
_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character


def escape(text):
    """Markdown-escape ``text`` so it shows literally (no math, roles, tables, HTML)."""
    return _PUNCT.sub(r"\\\1", text)


def toc_chapters(toc=ROOT / "_toc.yml"):
    """The chapter notebooks in the order of the table of contents."""
    data = yaml.safe_load(Path(toc).read_text())
    files = [ch["file"] for part in data.get("parts", []) for ch in part.get("chapters", [])]
    return [ROOT / f"{f}.ipynb" for f in files if f.startswith("chapters/")]


def _text(source):
    return "".join(source) if isinstance(source, list) else source


def chapter_claims(path, number=None):
    """(numbered title, [(statement, section, exercise or None)]) of one chapter notebook.

    Titles carry the numbers the site gives them (``tools/numbering.py``): the chapter
    "27. Inference for the linear model", its sections "27.1 Simple linear regression", and
    an exercise "Exercise 27.3 (its title)". (Exercises are named, not linked:
    sphinx-exercise's LaTeX labels do not match its HTML ones, so a ``{ref}`` to an
    exercise breaks in the PDF.) ``number`` defaults to the chapter's number in
    ``_toc.yml``, or for a notebook outside it, to the number its file name starts with.
    """
    path = Path(path)
    if number is None:
        number = chapter_numbers().get(f"chapters/{path.stem}") or int(path.stem.split("_", 1)[0])
    nb = json.loads(path.read_text())
    numbers = {label: f"{number}.{k}" for k, label in enumerate(exercise_labels(nb), 1) if label}
    title, section, exercise, claims, titles, k = None, None, None, [], {}, 0
    for cell in nb["cells"]:
        src = _text(cell["source"])
        if cell["cell_type"] == "markdown":
            src = strip(src)
            for line in outside_fences(src):
                m = re.match(r"(#{1,2})\s+(.*\S)", line)
                if m and m.group(1) == "#" and title is None:
                    title = f"{number}. {m.group(2)}"
                elif m and m.group(1) == "##":
                    k += 1
                    section = f"{number}.{k} {m.group(2)}"
            for ex_title, label in re.findall(r"^```+\{exercise\}[ \t]*(.*)\n:label:\s*(\S+)", src, re.M):
                titles[label] = f"Exercise {numbers.get(label, '')}" + (f" ({ex_title.strip()})" if ex_title.strip() else "")
            start = re.search(r"^```+\{solution-start\}\s+(\S+)", src, re.M)
            if start:
                exercise = titles.get(start.group(1), start.group(1))
            if re.search(r"^```+\{solution-end\}", src, re.M):
                exercise = None
        elif cell["cell_type"] == "code":
            for out in cell.get("outputs", []):
                if out.get("output_type") == "stream" and out.get("name") == "stdout":
                    for statement in claims_in(_text(out["text"])):
                        claims.append((statement, section, exercise))
    if title is None:
        raise ValueError(f"{path}: no '# Title' heading")
    return title, claims


def render(chapters=None):
    chapters = toc_chapters() if chapters is None else chapters
    data = [(p, *chapter_claims(p)) for p in chapters]
    total = sum(len(c) for _, _, c in data)
    in_ex = sum(1 for _, _, c in data for _, _, e in c if e)
    lines = [
        "# Verified claims",
        "",
        "Every statement below is checked by the code of the book, not asserted. In a chapter",
        "it is a call to `claim` or `claim_close` (from `mlnotes.checks`) that compares a result",
        "with an independent computation (a closed form, brute force, a simulation, or scipy and",
        "scikit-learn) and raises an error when the two disagree. CI re-executes every notebook",
        "with `pytest --nbval`, so a claim that stops being true fails the build, and a changed",
        "printed line fails the comparison with the stored output.",
        "",
        "Each number links to the cell that checks the claim; the tolerance, where there is one,",
        "is printed after the statement. This page is generated from the notebooks by",
        "`tools/claims_index.py` (run by `make book`); a test fails when it is out of date.",
        "",
        f"**{total} claims in {len(data)} chapters**, {in_ex} of them in the solutions of exercises.",
        "",
        "| Chapter | Claims | In exercise solutions |",
        "|:---|---:|---:|",
    ]
    for path, title, claims in data:
        nn = path.stem.split("_", 1)[0]
        n_ex = sum(1 for _, _, e in claims if e)
        lines.append(f"| {{ref}}`{title} <claims-{nn}>` | {len(claims)} | {n_ex} |")
    for path, title, claims in data:
        nn = path.stem.split("_", 1)[0]
        doc = f"chapters/{path.stem}"
        lines += ["", f"(claims-{nn})=", f"## {title}", "",
                  f"{len(claims)} claims in {{doc}}`{doc}`.", ""]
        if not claims:
            continue
        lines += ["| # | Claim | Where |", "|---:|:---|:---|"]
        for k, (statement, section, exercise) in enumerate(claims, 1):
            where = f"solution of {exercise}" if exercise else section or ""
            where = where.replace("|", "\\|")
            lines.append(f"| {{ref}}`{k} <claim-{nn}-{k}>` | {escape(statement)} | {where} |")
    return "\n".join(lines) + "\n"


def main(argv):
    return write_or_check(argv, OUTPUT, render, "Write claims.md, the index of verified claims.")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
