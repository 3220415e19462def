"""Shared fixtures: a headless Chromium (Debian's) driven by Playwright."""
import os
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")  # tests never open a window

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




# Scheduling under pytest-xdist (`make test` runs `-n auto --dist loadfile`: the cells of a
# notebook run in order in one kernel, and the site and PDF checks share one build per
# module, so each file stays on one worker). The longest files are put first, so that they
# start at once and the short ones fill in around them. (`--dist loadgroup` would allow a
# finer split, but pytest-xdist 3.8 cannot set its group suffix on pytest 9's node ids.)
_LONGEST_FIRST = ("tests/test_site.py", "tests/test_pdf.py", "tests/test_lab.py")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    rank = {path: i for i, path in enumerate(_LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))
