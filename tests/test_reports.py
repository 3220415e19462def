"""The generated report pages: the execution report (status.md) and the benchmarks
(performance.md), each consistent with the data it is generated from, and the benchmark
cases still comparing like with like."""
import csv
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

import status_page  # noqa: E402
from bench import page as bench_page  # noqa: E402
from bench.cases import CASES  # noqa: E402

CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))


def test_every_chapter_has_a_recorded_execution_time():
    data = json.loads((ROOT / "bench" / "execution.json").read_text())
    assert set(data["notebooks"]) == {p.stem for p in CHAPTERS}, "run make execute"
    assert all(v["seconds"] > 0 for v in data["notebooks"].values())
    assert {"numpy", "scipy", "scikit-learn", "jupyter-book"} <= set(data["packages"])


def test_status_page_is_up_to_date():
    assert (ROOT / "status.md").read_text() == status_page.render(), (
        "status.md is out of date: run python tools/status_page.py (make book does)")


def test_status_page_rejects_a_missing_chapter():
    data = json.loads((ROOT / "bench" / "execution.json").read_text())
    data["notebooks"].pop(CHAPTERS[0].stem)
    with pytest.raises(ValueError, match="no execution time recorded"):
        status_page.render(data)


def _results():
    with open(ROOT / "bench" / "results.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_benchmark_results_cover_every_case_at_three_sizes_that_agree():
    rows = _results()
    for case in CASES:
        mine = [r for r in rows if r["case"] == case.name]
        assert [int(r["size"]) for r in mine] == list(case.sizes), f"{case.name}: rerun make bench"
        assert all(r["agree"] == "True" for r in mine), f"{case.name}: results disagreed"
        assert all(int(r["repeats"]) >= 5 for r in mine), f"{case.name}: fewer than 5 repeats"


def test_benchmark_sizes_grow_about_fourfold():
    for case in CASES:
        assert len(case.sizes) == 3
        for a, b in zip(case.sizes, case.sizes[1:]):
            assert 3 <= b / a <= 5, f"{case.name}: sizes {case.sizes}"


def test_performance_page_is_up_to_date():
    env = json.loads((ROOT / "bench" / "environment.json").read_text())
    assert (ROOT / "performance.md").read_text() == bench_page.render(bench_page.load(), env), (
        "performance.md is out of date: run python -m bench.page")
    assert (ROOT / "bench" / "speed.png").stat().st_size > 10_000


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_benchmark_case_compares_like_with_like(case):
    """At the smallest size, both implementations still give the same result (so a change
    to mlnotes that breaks the comparison is caught here, not only by make bench)."""
    data = case.setup(case.sizes[0])
    assert case.agree(case.ours(data), case.ref(data))
