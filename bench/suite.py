"""What the test suite costs, against its floor, measured in one run (``make bench-suite``).

1. The floor: the notebooks alone under nbval on 2 workers (``pytest -n 2 --nbval
   chapters``), the least work ``make test`` must do (every notebook executed once).
2. The whole suite, as ``make test`` runs it, with ``SUITE_COST`` set so that every test
   item records the CPU seconds its worker and the worker's finished child processes spent
   on it (tests/conftest.py).

Both are timed on the wall clock and in CPU seconds of the whole machine (/proc/stat).
The result is written to bench/suite.json and printed as a table: the suite's wall time
as a ratio to the floor's (the book's goal: at most 3), and the CPU seconds of each kind
of check per chapter. ``--load N`` runs N busy processes beside both runs (the loaded
check of the README: the suite must still pass, only slower).
"""
import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTEST = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--dist", "loadfile",
          "--nbval", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg", "--nbval-current-env"]

KINDS = [("notebooks under nbval", lambda f: f.startswith("chapters/")),
         ("site: strict build and browser visit", lambda f: f == "tests/test_site.py"),
         ("PDF", lambda f: f == "tests/test_pdf.py"),
         ("JupyterLab", lambda f: f == "tests/test_lab.py"),
         ("book checks (notebooks, claims, reports, set-up)",
          lambda f: f in {"tests/test_notebooks.py", "tests/test_claims_index.py", "tests/test_reports.py",
                          "tests/test_project.py"}),
         ("unit tests of mlnotes", lambda f: True)]


def machine_cpu():
    """CPU seconds spent by the whole machine so far (all cores, not idle)."""
    with open("/proc/stat") as f:
        user, nice, system, idle, iowait, irq, softirq, steal = map(int, f.readline().split()[1:9])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def timed(cmd, env=None):
    t0, c0 = time.monotonic(), machine_cpu()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    wall, cpu = time.monotonic() - t0, machine_cpu() - c0
    summary = (proc.stdout.strip().splitlines() or [""])[-1]
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "returncode": proc.returncode,
            "summary": summary}, proc


def _busy():
    while True:
        pass


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--load", type=int, default=0, help="busy processes to run beside the suite")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--out", default=None, help="default: bench/suite.json, or bench/suite-loaded.json with --load")
    args = ap.parse_args(argv)
    if args.out is None:
        args.out = str(ROOT / "bench" / ("suite-loaded.json" if args.load else "suite.json"))
    chapters = sorted(p.name for p in (ROOT / "chapters").glob("*.ipynb"))
    hogs = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
    for h in hogs:
        h.start()
    try:
        floor, _ = timed(PYTEST + ["-n", args.jobs, "chapters"])
        print(f"floor (nbval of {len(chapters)} chapters, -n {args.jobs}): {floor}", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            cost_file = Path(tmp) / "cost.jsonl"
            env = dict(os.environ, SUITE_COST=str(cost_file), REQUIRE_BROWSER="1", REQUIRE_PDF="1")
            suite, proc = timed(PYTEST + ["-n", args.jobs, "tests", "chapters"], env=env)
            records = [json.loads(line) for line in cost_file.read_text().splitlines()] if cost_file.exists() else []
    finally:
        for h in hogs:
            h.terminate()
    print(f"make test: {suite}", flush=True)
    if suite["returncode"] != 0:
        print(proc.stdout[-6000:])
    by_kind = defaultdict(float)
    for r in records:
        kind = next(name for name, match in KINDS if match(r["file"]))
        by_kind[kind] += r["cpu"]
    n = len(chapters)
    kinds = [{"kind": name, "cpu_s": round(by_kind[name], 1), "cpu_s_per_chapter": round(by_kind[name] / n, 2)}
             for name, _ in KINDS]
    beyond = sum(k["cpu_s"] for k in kinds if k["kind"] != KINDS[0][0])
    methods = sorted({r.get("method", "?") for r in records})
    result = {"chapters": n, "cpu_accounting": methods, "jobs": args.jobs, "load": args.load, "cores": os.cpu_count(),
              "floor": floor, "suite": suite, "ratio_to_floor": round(suite["wall_s"] / floor["wall_s"], 2),
              "kinds": kinds, "recorded_cpu_s": round(sum(by_kind.values()), 1),
              "beyond_execution_cpu_s_per_chapter": round(beyond / n, 2)}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"\nmake test took {result['ratio_to_floor']}x the floor ({suite['wall_s']} s against {floor['wall_s']} s)")
    print("| kind of check | CPU s | per chapter |\n|:--|--:|--:|")
    for k in kinds:
        print(f"| {k['kind']} | {k['cpu_s']} | {k['cpu_s_per_chapter']} |")
    print(f"recorded {result['recorded_cpu_s']} of the machine's {suite['cpu_s']} CPU s ({', '.join(methods)}; "
          "the rest is pytest-xdist's controller, the machine's own work"
          + (f" and the {args.load} busy processes)" if args.load else ")"))
    print(f"beyond the chapters' own execution: {result['beyond_execution_cpu_s_per_chapter']} CPU s per chapter "
          f"(all of it divided by {n}, so fixed costs count too)")
    return 0 if suite["returncode"] == 0 and floor["returncode"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
