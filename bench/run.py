"""Time the from-scratch ``mlnotes`` implementations against the libraries a reader would use.

Usage: python -m bench.run [--quick] [--only NAME]     (make bench runs it)

For every case of ``bench/cases.py`` and each of its three sizes: build the seeded data,
run both implementations once and check that their results agree (a benchmark of two
different answers would mean nothing), then time each ``repeats`` times and keep the
median. Writes ``bench/results.csv`` and, through ``bench/page.py``, the book's page
``performance.md`` with its figure ``bench/speed.png``. Run it on a quiet machine: the
numbers are wall-clock times.
"""
import argparse
import csv
import gc
import json
import os
import statistics
import sys
import time
from pathlib import Path

from bench.cases import CASES

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results.csv"
ENVIRONMENT = HERE / "environment.json"
FIELDS = ["case", "size", "ours_s", "ref_s", "ratio", "repeats", "agree"]


def _time(fn, data, repeats):
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        fn(data)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(case, size, min_repeats=5, budget=2.0):
    data = case.setup(size)
    start = time.perf_counter()
    ours = case.ours(data)
    first = time.perf_counter() - start
    ref = case.ref(data)
    agree = bool(case.agree(ours, ref))
    # at least min_repeats; more for fast calls, within a time budget per implementation
    repeats = max(min_repeats, min(25, int(budget / max(first, 1e-4))))
    t_ours = _time(case.ours, data, repeats)
    t_ref = _time(case.ref, data, repeats)
    return {"case": case.name, "size": size, "ours_s": f"{t_ours:.6g}", "ref_s": f"{t_ref:.6g}",
            "ratio": f"{t_ours / t_ref:.4g}", "repeats": repeats, "agree": agree}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 repeats, for a smoke test")
    parser.add_argument("--only", help="run only the cases whose name contains this")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if not args.only or args.only.lower() in c.name.lower()]
    rows, failed = [], []
    start = time.perf_counter()
    for case in cases:
        for size in case.sizes:
            row = measure(case, size, min_repeats=3 if args.quick else 5, budget=0.5 if args.quick else 2.0)
            rows.append(row)
            print(f"{case.name:28s} n={size:<7d} ours {float(row['ours_s']):9.4f} s   "
                  f"ref {float(row['ref_s']):9.4f} s   ratio {float(row['ratio']):7.2f}"
                  f"{'' if row['agree'] else '   RESULTS DISAGREE'}", flush=True)
            if not row["agree"]:
                failed.append(f"{case.name} at n={size}")
    print(f"total {time.perf_counter() - start:.0f} s")
    if failed:
        print("results disagree: " + ", ".join(failed), file=sys.stderr)
        return 1
    if args.only or args.quick:
        return 0  # a partial or quick run does not replace the published numbers
    with RESULTS.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    ENVIRONMENT.write_text(json.dumps(environment(), indent=1) + "\n")
    from bench import page
    page.write()
    return 0


def environment():
    """Where and with what the numbers were measured."""
    import platform
    from importlib.metadata import version

    cpu = "unknown CPU"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"date": time.strftime("%Y-%m-%d"), "cpu": cpu, "cores": os.cpu_count(),
            "python": platform.python_version(),
            "packages": {p: version(p) for p in ("numpy", "scipy", "scikit-learn")}}


if __name__ == "__main__":
    sys.exit(main())
