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


