"""The index of verified claims (claims.md) is generated from the notebooks and kept current."""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import claims_index  # noqa: E402
from mlnotes.checks import claims_in  # noqa: E402


def test_claims_md_is_up_to_date():
    assert (ROOT / "claims.md").read_text() == claims_index.render(), (
        "claims.md is out of date: run `python tools/claims_index.py` (make book does)")


def test_every_chapter_in_the_toc_is_indexed_with_all_its_claims():
    chapters = claims_index.toc_chapters()
    assert chapters == sorted((ROOT / "chapters").glob("*.ipynb"))
    for path in chapters:
        nb = json.loads(path.read_text())
        printed = sum(len(claims_in("".join(o["text"]))) for c in nb["cells"] if c["cell_type"] == "code"
                      for o in c.get("outputs", []) if o.get("output_type") == "stream")
        _, claims = claims_index.chapter_claims(path)
        assert len(claims) == printed > 0


def test_claims_in_solutions_are_attributed_to_their_exercise(tmp_path):
    nb = {"cells": [
        {"cell_type": "markdown", "source": "# Title\n\n## First"},
        {"cell_type": "code", "source": "", "outputs": [
            {"output_type": "stream", "name": "stdout", "text": "\u2713 a | b $x$ *y*\n"}]},
        {"cell_type": "markdown", "source": "## Exercises"},
        {"cell_type": "markdown", "source": "```{exercise} Unsolved\n:label: mod-ex-zero\n\nText.\n```"},
        {"cell_type": "markdown", "source": "```{exercise} A $p$ title\n:label: mod-ex-one\n\nText.\n```"},
        {"cell_type": "markdown", "source": "```{solution-start} mod-ex-one\n:class: dropdown\n```"},
        {"cell_type": "code", "source": "", "outputs": [
            {"output_type": "stream", "name": "stdout", "text": "x = 1\n\u2713 second\n"}]},
        {"cell_type": "markdown", "source": "```{solution-end}\n```"},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "09_title.ipynb"
    path.write_text(json.dumps(nb))
    title, claims = claims_index.chapter_claims(path)
    assert title == "9. Title"
    # numbered as on the site: the chapter from its file name (it is not in _toc.yml), the
    # sections and exercises in order
    assert claims == [("a | b $x$ *y*", "9.1 First", None), ("second", "9.2 Exercises", "Exercise 9.2 (A $p$ title)")]
    text = claims_index.render([path])
    assert "{ref}`1 <claim-09-1>` | a \\| b \\$x\\$ \\*y\\* | 9.1 First |" in text
    assert "{ref}`2 <claim-09-2>` | second | solution of Exercise 9.2 (A $p$ title) |" in text
    assert "**2 claims in 1 chapters**, 1 of them in the solutions of exercises." in text
