"""Write the book's page ``performance.md`` (and ``bench/speed.png``) from ``bench/results.csv``.

Usage: python -m bench.page [--check]
  (--check: exit 1 if performance.md is not what results.csv gives; nothing is written)

The benchmark itself (``python -m bench.run``, ``make bench``) calls this after measuring;
the page can be regenerated from the stored results at any time, and a test checks that it
matches them.
"""
import csv
import json
import math
import sys
from pathlib import Path

from bench.cases import CASES

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PAGE = ROOT / "performance.md"
FIGURE = HERE / "speed.png"
GOAL = 5.0  # mlnotes may be at most this many times slower than the reference at the largest size


def load(results=HERE / "results.csv"):
    with open(results, newline="") as f:
        rows = list(csv.DictReader(f))
    by_case = {}
    for row in rows:
        by_case.setdefault(row["case"], []).append(
            (int(row["size"]), float(row["ours_s"]), float(row["ref_s"])))
    return by_case


def slope(points):
    """Growth exponent between the smallest and the largest size (time ∝ size^slope)."""
    (n0, t0), (n1, t1) = points[0], points[-1]
    return math.log(t1 / t0) / math.log(n1 / n0)


def _fmt_time(t):
    return f"{t * 1e3:.3g} ms" if t < 1 else f"{t:.3g} s"


def render(by_case, env):
    cases = [c for c in CASES if c.name in by_case]
    lines = [
        "(performance)=",
        "# How fast is the from-scratch code?",
        "",
        "Every algorithm in `mlnotes` is written to be read: a few lines of numpy that follow the",
        "mathematics. This page measures what that costs against the library a reader would use",
        "instead (scikit-learn or SciPy), on the same data and the same problem: the same",
        "initialisation and number of iterations, the same regularisation, the same kernel. Both",
        "results are checked to agree before anything is timed.",
        "",
        f"Each time is the median of at least 5 runs, measured on {env['date']} on",
        f"{env['cores']} cores ({env['cpu']}), Python {env['python']}, "
        + ", ".join(f"{k} {v}" for k, v in env["packages"].items()) + ".",
        "The numbers come from `make bench` (`bench/run.py`, cases in `bench/cases.py`), which",
        "writes `bench/results.csv` and this page.",
        "",
        "## Time ratios",
        "",
        f"The ratio is the time of `mlnotes` divided by the time of the reference; the goal is a",
        f"ratio of at most {GOAL:g} at the largest size. The growth exponents $b$ fit",
        "time $\\propto n^b$ between the smallest and the largest size.",
        "",
        "| Algorithm | Sizes $n$ | Ratio at each size | Growth $b$ (ours / ref.) | Goal |",
        "|:---|:---|:---|:---|:---|",
    ]
    slow = []
    for case in cases:
        pts = by_case[case.name]
        ratios = " / ".join(f"{o / r:.2g}" for _, o, r in pts)
        sizes = ", ".join(f"{n:,}" for n, _, _ in pts)
        b_ours = slope([(n, o) for n, o, _ in pts])
        b_ref = slope([(n, r) for n, _, r in pts])
        final = pts[-1][1] / pts[-1][2]
        ok = final <= GOAL
        if not ok:
            slow.append((case, final))
        lines.append(f"| {case.name} | {sizes} | {ratios} | {b_ours:.2f} / {b_ref:.2f} "
                     f"| {'✓' if ok else 'see below'} |")
    within = len(cases) - len(slow)
    lines += ["", f"{within} of {len(cases)} algorithms are within {GOAL:g}× of their reference at the "
              "largest size.", ""]
    lines += ["```{figure} bench/speed.png", ":name: performance-speed", ":width: 100%", "",
              "Time against size, both axes logarithmic: `mlnotes` (solid) and the reference (dashed). "
              "Parallel lines grow at the same rate; the vertical gap is the ratio.", "```", ""]
    lines += ["## What is compared", "",
              "| Algorithm | `mlnotes` | Reference | Problem |", "|:---|:---|:---|:---|"]
    lines += [f"| {c.name} | `{c.ours_name}` | `{c.ref_name}` | {c.size_label} |" for c in cases]
    lines += ["", "## Where the from-scratch code is slower, and why", ""]
    if not slow:
        lines.append(f"Nowhere beyond the goal of {GOAL:g}×.")
    for case, final in slow:
        lines.append(f"- **{case.name}** ({final:.1f}× at n = {by_case[case.name][-1][0]:,}). {case.note}")
    notes = [c for c in cases if c.note and c not in [s[0] for s in slow]]
    if notes:
        lines += ["", "## Notes on the comparisons", ""]
        lines += [f"- **{c.name}.** {c.note}" for c in notes]
    return "\n".join(lines) + "\n"


def figure(by_case, path=FIGURE):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

    from mlnotes.plotting import COLORS, setup

    setup()
    cases = [c for c in CASES if c.name in by_case]
    ncols = 4
    nrows = math.ceil(len(cases) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(12, 2.6 * nrows), squeeze=False)
    for ax, case in zip(axes.flat, cases):
        pts = by_case[case.name]
        n = [p[0] for p in pts]
        ax.loglog(n, [p[1] for p in pts], "o-", color=COLORS[0], label="mlnotes")
        ax.loglog(n, [p[2] for p in pts], "s--", color=COLORS[1], label="reference")
        ax.set_xticks(n, [f"{v:,}" for v in n])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_title(case.name, fontsize=10)
        ax.set_xlabel("n", fontsize=9)
        ax.set_ylabel("seconds", fontsize=9)
        ax.tick_params(labelsize=8)
    for ax in list(axes.flat)[len(cases):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90, metadata={"Software": None})
    plt.close(fig)


def write():
    by_case = load()
    env = json.loads((HERE / "environment.json").read_text())
    PAGE.write_text(render(by_case, env))
    figure(by_case)
    print(f"wrote {PAGE.name} and {FIGURE.relative_to(ROOT)}")


def main(argv):
    if "--check" in argv:
        env = json.loads((HERE / "environment.json").read_text())
        if PAGE.read_text() != render(load(), env):
            print("performance.md is out of date: run python -m bench.page")
            return 1
        return 0
    write()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
