"""Shared fixtures and scheduling.

- ``browser``: a headless Chromium (Debian's) driven by Playwright.
- ``book_build``: one strict build of the site per test session, which the PDF checks
  extend with the LaTeX builder instead of parsing every notebook a second time.
- Scheduling under pytest-xdist (``make test`` runs ``-n auto --dist loadfile``).
"""
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import matplotlib
import pytest

matplotlib.use("Agg")  # tests never open a window

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
REQUIRE_BROWSER = os.environ.get("REQUIRE_BROWSER") == "1"


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} not found: install Debian's chromium (apt-get install chromium) to run the browser checks"
        if REQUIRE_BROWSER:
            pytest.fail(reason + " (REQUIRE_BROWSER=1)")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


def _jupyter_book(out, *args):
    """``jupyter-book build`` of the book into ``out`` with the strict flags of the Makefile."""
    jb = Path(sys.executable).with_name("jupyter-book")
    return subprocess.run([str(jb), "build", str(ROOT), "--path-output", str(out), *args, "-W", "-n", "--keep-going"],
                          cwd=ROOT, capture_output=True, text=True, timeout=1200)


@pytest.fixture(scope="session")
def book_build(tmp_path_factory):
    """The strict site build (``-W -n --keep-going``) into a fresh temporary folder.

    A full build, so that every warning is emitted again (``make book``'s incremental build
    stays quiet about pages that did not change). The PDF checks then run the LaTeX builder
    on the same folder: Sphinx reuses the documents parsed here (its environment), so the
    LaTeX build only writes; every warning of the reading phase is checked on this build.
    ``run(*args)`` runs another ``jupyter-book build`` (e.g. another builder) on the folder.
    """
    out = tmp_path_factory.mktemp("book")
    return SimpleNamespace(proc=_jupyter_book(out), out=out, html=out / "_build" / "html",
                           run=lambda *args: _jupyter_book(out, *args))


# ------------------------------------------------------------------ scheduling under xdist
# `--dist loadfile` keeps each file on one worker: the cells of a notebook run in order in
# one kernel, and a test module's fixtures (a build, a browser, a JupyterLab) are made once.
# Two changes to pytest-xdist's defaults:
# - the PDF checks run on the worker that made the site build (one scope), since they
#   continue that build (``book_build``);
# - work is handed out in the order of collection, longest first (below), not xdist's
#   "most tests first" order, which would leave the long browser and PDF checks, with few
#   tests each, to the end, where one worker runs them while the other idles.
_SAME_WORKER = {"tests/test_pdf.py": "tests/test_site.py"}
_LONGEST_FIRST = ("tests/test_site.py", "tests/test_pdf.py", "tests/test_lab.py")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class BookScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid):
            scope = super()._split_scope(nodeid)
            return _SAME_WORKER.get(scope, scope)

    config.option.loadscopereorder = False
    return BookScheduling(config, log)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    rank = {path: i for i, path in enumerate(_LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))
