"""Shared fixtures and scheduling.

- ``browser``: a headless Chromium (Debian's) driven by Playwright.
- ``book_build``: one strict build of the site per test session, which the PDF checks
  extend with the LaTeX builder instead of parsing every notebook a second time.
- Scheduling under pytest-xdist (``make test`` runs ``-n auto --dist loadfile``).
- ``--chapter NN`` (``make test CHAPTER=NN``): the quick loop for one chapter, see
  ``chapter_selection`` below.
- Time limits: every wait polls for a condition, with a generous limit multiplied by
  ``TEST_TIMEOUT_SCALE`` (default 1; e.g. 3 on a slow or busy machine). A wait that runs
  out says what it was waiting for (``wait_for``). No check depends on how fast the
  machine is.
"""
import json
import os
import re
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
try:
    TIMEOUT_SCALE = float(os.environ.get("TEST_TIMEOUT_SCALE") or 1)
except ValueError:
    TIMEOUT_SCALE = float("nan")
if not TIMEOUT_SCALE > 0:
    raise ValueError(f"TEST_TIMEOUT_SCALE must be a positive number, not {os.environ['TEST_TIMEOUT_SCALE']!r}")


def limit(seconds):
    """A time limit of ``seconds`` on an unloaded machine, scaled by ``TEST_TIMEOUT_SCALE``."""
    return seconds * TIMEOUT_SCALE


def wait_for(page, expression, what, seconds, arg=None, polling=100, state=None):
    """Poll the JavaScript ``expression`` in ``page`` until it is truthy, for at most
    ``limit(seconds)``; fail saying what was awaited (and for how long) if it never is,
    with the value of the JavaScript ``state`` at that moment when one is given."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        return page.wait_for_function(expression, arg=arg, polling=polling, timeout=limit(seconds) * 1000)
    except PlaywrightTimeout:
        seen = f"; {page.evaluate(state)}" if state else ""
        pytest.fail(f"waited {limit(seconds):.0f} s for {what}{seen} (raise TEST_TIMEOUT_SCALE on a slow machine)")


def new_context(browser, **options):
    """A browser context whose Playwright actions (navigation, clicks, waits) may take
    ``limit(120)`` seconds instead of Playwright's default 30 s."""
    context = browser.new_context(**options)
    context.set_default_timeout(limit(120) * 1000)
    context.set_default_navigation_timeout(limit(120) * 1000)
    return context


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
                          cwd=ROOT, capture_output=True, text=True, timeout=limit(1800))


def pytest_addoption(parser):
    parser.addoption("--chapter", metavar="NN", default=None,
                     help="the quick loop for one chapter: its notebook, the unit tests of the mlnotes "
                          "modules it imports, its notebook checks, and its pages in the browser and "
                          "in JupyterLab, on an incremental site build in _build/quick (no PDF)")


def chapter_notebook(config):
    """The notebook selected with ``--chapter NN``, or None."""
    number = config.getoption("--chapter", default=None)
    if not number:
        return None
    found = sorted((ROOT / "chapters").glob(f"{int(number):02d}_*.ipynb")) if number.isdigit() else []
    if len(found) != 1:
        raise pytest.UsageError(f"--chapter {number}: no chapter notebook chapters/{number}_*.ipynb")
    return found[0]


def imported_modules(nb_path):
    """The ``mlnotes`` modules a notebook imports (``from mlnotes import x``, ``from mlnotes.x
    import ...``, ``import mlnotes.x``)."""
    code = "\n".join("".join(c["source"]) for c in json.loads(nb_path.read_text())["cells"]
                      if c["cell_type"] == "code")
    names = set(re.findall(r"^\s*(?:from|import)\s+mlnotes\.(\w+)", code, re.M))
    for group in re.findall(r"^\s*from\s+mlnotes\s+import\s+\(?([\w\s,]+)\)?", code, re.M):
        names.update(n.strip() for n in group.split(",") if n.strip())
    return sorted(n for n in names if (ROOT / "src" / "mlnotes" / f"{n}.py").exists())


# Book-wide checks that stay in the quick loop (cheap, and what a new chapter breaks first).
_QUICK_BOOK_FILES = {"tests/test_notebooks.py", "tests/test_claims_index.py", "tests/test_project.py",
                     "tests/test_site.py", "tests/test_lab.py"}


def chapter_selection(config, items):
    """Keep, for ``--chapter NN``: the chapter's notebook (nbval), ``tests/test_<module>.py``
    and the bad-input table entries for each mlnotes module it imports, and of the book-wide files the items that are about
    this chapter (parametrised with its notebook) or about the whole book without visiting
    every page. The site checks then visit only the chapter's page and the pages it links to
    are checked for existence; JupyterLab opens only this chapter. The PDF is left out."""
    nb = chapter_notebook(config)
    if nb is None:
        return
    modules = imported_modules(nb)
    unit = {f"tests/test_{m}.py" for m in modules}
    keep, drop = [], []
    for item in items:
        path = item.nodeid.split("::")[0]
        if path.startswith("chapters/"):
            ok = path == f"chapters/{nb.name}"
        elif path in unit:
            ok = True
        elif path == "tests/test_bad_inputs.py":   # the tables of the modules it imports
            ok = getattr(item, "callspec", None) is None or any(
                f"[{m}." in item.nodeid or f"[{m}]" in item.nodeid for m in modules)
        elif path in _QUICK_BOOK_FILES:
            params = getattr(item, "callspec", None)
            ok = params is None or nb.name in item.nodeid
        else:
            ok = False
        (keep if ok else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
    items[:] = keep


@pytest.fixture(scope="session")
def book_build(tmp_path_factory, request):
    """The strict site build (``-W -n --keep-going``) into a fresh temporary folder.

    A full build, so that every warning is emitted again (``make book``'s incremental build
    stays quiet about pages that did not change). The PDF checks then run the LaTeX builder
    on the same folder: Sphinx reuses the documents parsed here (its environment), so the
    LaTeX build only writes; every warning of the reading phase is checked on this build.
    ``run(*args)`` runs another ``jupyter-book build`` (e.g. another builder) on the folder.
    """
    if chapter_notebook(request.config) is not None:
        # the quick loop: an incremental build that re-reads only what changed since the last
        # one (so it reports the warnings of the pages it re-reads, the edited chapter's)
        out = ROOT / "_build" / "quick"
        out.mkdir(parents=True, exist_ok=True)
    else:
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


def pytest_configure(config):
    # nbval waits 60 s for a kernel to start (and 2000 s per cell): on a loaded machine the
    # start can take longer, so it gets a scaled limit like every other wait
    if hasattr(config.option, "nbval_kernel_startup_timeout"):
        config.option.nbval_kernel_startup_timeout = max(config.option.nbval_kernel_startup_timeout, limit(180))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    chapter_selection(config, items)
    rank = {path: i for i, path in enumerate(_LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


# ------------------------------------------------------------------ cost of each kind of check
# With SUITE_COST=<file> set, each worker appends one JSON line per test file it ran: the
# file, and the CPU seconds spent on it by the worker and every process it started
# (kernels, Chromium, JupyterLab, the site and PDF builds), setup and teardown included;
# bench/suite.py sums them by kind of check. The worker moves itself into a cgroup of its
# own (cgroup v1 ``cpuacct``, as root), whose counter includes processes that have already
# exited: Chromium's reap their children without passing the time on, so ``getrusage``
# would miss most of the browser's work. Without such a cgroup the record says
# ``"method": "rusage"`` and undercounts the browser checks.
_COST_FILE = os.environ.get("SUITE_COST")
_cost = {}
_CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def _cost_counter():
    """A function giving the CPU seconds of this worker and its descendants, and its method."""
    import atexit
    import resource

    group = _CPUACCT / f"mlnotes-suite-{os.getpid()}"
    try:
        group.mkdir(exist_ok=True)
        (group / "cgroup.procs").write_text(str(os.getpid()))

        def leave():
            try:
                (_CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
                group.rmdir()
            except OSError:
                pass

        atexit.register(leave)
        return (lambda: int((group / "cpuacct.usage").read_text()) / 1e9), "cgroup"
    except OSError:
        def rusage():
            me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
            return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
        return rusage, "rusage"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not _COST_FILE:
        yield
        return
    if "counter" not in _cost:
        _cost["counter"], _cost["method"] = _cost_counter()
    path = item.nodeid.split("::")[0]
    if _cost.get("file") != path:
        _cost.update(file=path, start=_cost["counter"]())
    yield
    if nextitem is None or nextitem.nodeid.split("::")[0] != path:
        line = json.dumps({"file": path, "cpu": round(_cost["counter"]() - _cost.pop("start"), 2),
                           "method": _cost["method"]})
        _cost.pop("file")
        with open(_COST_FILE, "a", encoding="utf-8") as f:
            f.write(line + "\n")


# ------------------------------------------------------------------ the numbers on a page
# Chapters, sections, theorem-like boxes, exercises, figures and tables are numbered per
# chapter by Sphinx (numbered parts in _toc.yml, numfig). These read the numbers from a built
# HTML page, for the browser-suite and PDF checks that compare them.
_SECTION = re.compile(r'<section(?: class="[^"]*")? id="([^"]+)">\s*((?:<span id="[^"]+"></span>\s*)*)'
                      r'<h([1-6])><span class="section-number">([\d.]+)\. </span>')
_BOX = re.compile(r'<div class="([^"]*\badmonition\b[^"]*)" id="([^"]+)">\s*<p class="admonition-title">'
                  r'<span class="caption-number">(\w+) ([\d.]+) </span>')
_FIGURE = re.compile(r'<figure[^>]* id="([^"]+)">.*?<span class="caption-number">Figure ([\d.]+) </span>', re.S)
_TABLE = re.compile(r'<table[^>]* id="([^"]+)">\s*<caption><span class="caption-number">Table ([\d.]+) </span>')
_ANY_NUMBER = re.compile(r'<span class="(?:caption|section)-number">')


def numbered_items(html_text):
    """[(position, kind, number, [ids])] of the numbered things on a page, in page order.

    kind: "h1", "h2", ... for headings; "box" for a sphinx-proof box (number shared by all
    kinds; the box's own kind word is kept as ``word``); "Exercise", "Figure", "Table".
    Returned as dicts: {pos, kind, word, number, ids}.
    """
    # the article only: the previous/next links below it carry chapter numbers too
    start = max(html_text.find('<article class="bd-article">'), 0)
    end = html_text.find("</article>", start)
    html_text = html_text[:end] if end > 0 else html_text
    items = []
    for m in _SECTION.finditer(html_text):
        ids = [m.group(1)] + re.findall(r'<span id="([^"]+)">', m.group(2))
        items.append(dict(pos=m.start(), kind=f"h{m.group(3)}", word="§", number=m.group(4), ids=ids))
    for m in _BOX.finditer(html_text):
        classes, word = m.group(1).split(), m.group(3)
        kind = "Exercise" if "exercise" in classes else "box"
        items.append(dict(pos=m.start(), kind=kind, word=word, number=m.group(4), ids=[m.group(2)]))
    for m in _FIGURE.finditer(html_text):
        items.append(dict(pos=m.start(), kind="Figure", word="Figure", number=m.group(2), ids=[m.group(1)]))
    for m in _TABLE.finditer(html_text):
        items.append(dict(pos=m.start(), kind="Table", word="Table", number=m.group(2), ids=[m.group(1)]))
    return sorted((d for d in items if d["pos"] >= start), key=lambda d: d["pos"])
