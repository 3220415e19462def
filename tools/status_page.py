"""Write ``status.md``, the book's execution report, from ``bench/execution.json``.

``tools/execute.py`` (``make execute``) records how long each chapter took to run top to
bottom in a fresh kernel, and with which Python and packages; this page shows it.

Usage: python tools/status_page.py [--check]
  (--check: exit 1 if status.md is not what bench/execution.json gives; nothing is written)
"""
import json
import sys
from pathlib import Path

from frontmatter import chapter_title
from generated import write_or_check
from numbering import chapter_numbers

ROOT = Path(__file__).resolve().parents[1]
TIMES = ROOT / "bench" / "execution.json"
PAGE = ROOT / "status.md"
BUDGET = 10.0  # seconds per notebook (STYLE.md)


def render(data=None):
    data = json.loads(TIMES.read_text()) if data is None else data
    chapters = sorted((ROOT / "chapters").glob("*.ipynb"))
    times = data.get("notebooks", {})
    missing = [p.stem for p in chapters if p.stem not in times]
    if missing:
        raise ValueError(f"no execution time recorded for {missing}: run make execute")
    secs = [times[p.stem]["seconds"] for p in chapters]
    order = sorted(range(len(chapters)), key=lambda i: -secs[i])
    dates = sorted({times[p.stem]["date"] for p in chapters})
    over = [chapters[i] for i in range(len(chapters)) if secs[i] > BUDGET]
    numbers = chapter_numbers()

    def title(path):  # numbered as on the site
        n = numbers.get(f"chapters/{path.stem}")
        return f"{n}. {chapter_title(path)}" if n else chapter_title(path)

    lines = [
        "(status)=",
        "# Execution report",
        "",
        "Every chapter is a notebook stored with its outputs. `make execute` runs each one top to",
        "bottom in a fresh `python3` kernel and records how long it took; `pytest --nbval`",
        "re-runs them all in CI and compares every printed line with the stored one. This page",
        "is generated from those records (`bench/execution.json`, by `tools/status_page.py`).",
        "",
        f"Executed {dates[0] if len(dates) == 1 else dates[0] + ' to ' + dates[-1]} with Python {data['python']} "
        "and " + ", ".join(f"{k} {v}" for k, v in data["packages"].items()) + ".",
        "",
        f"**{len(chapters)} chapters in {sum(secs):.1f} s** of execution in total; the slowest is "
        f"{title(chapters[order[0]])} ({secs[order[0]]:.1f} s). The budget is {BUDGET:g} s per chapter: "
        + ("every chapter is within it." if not over else
           f"{len(over)} over it: " + ", ".join(p.stem for p in over) + "."),
        "",
        "| Chapter | Execution time | Share of the budget |",
        "|:---|---:|:---|",
    ]
    for path, s in zip(chapters, secs):
        bar = "█" * round(10 * min(s, BUDGET) / BUDGET)
        lines.append(f"| {{doc}}`{title(path)} <chapters/{path.stem}>` | {s:.1f} s | {bar} |")
    lines += ["", "Times are wall-clock seconds on the machine that ran `make execute` (2 cores); the",
              "benchmarks of the algorithms themselves are on the page {ref}`performance`."]
    return "\n".join(lines) + "\n"


def main(argv):
    return write_or_check(argv, PAGE, render, "Write status.md, the execution report.")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
