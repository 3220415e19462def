"""The chapters as a reader sees them in JupyterLab (jupyterlab-myst), in a real browser.

JupyterLab is started on 127.0.0.1 on copies of the notebooks. Each chapter must open with
every Markdown cell rendered by MyST, its {prf:...} boxes drawn, and no math error: the
LaTeX macros reach JupyterLab through the front matter written by tools/frontmatter.py.
Opening a notebook starts no kernel (``notebook_starts_kernel=False``): the check is about
reading; running the code is what nbval checks.
"""
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import limit, new_context, wait_for

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "chapters").glob("*.ipynb"))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab")
    for nb in NOTEBOOKS:
        shutil.copy(nb, root / nb.name)
    home = tmp_path_factory.mktemp("jupyter-home")
    settings = home / "user-settings" / "@jupyterlab"
    # draw every cell at once (no lazy "windowing"), and ask nothing about news
    (settings / "notebook-extension").mkdir(parents=True)
    (settings / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        '{"windowingMode": "none"}')
    (settings / "apputils-extension").mkdir(parents=True)
    (settings / "apputils-extension" / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(home / "user-settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"))
    port, token = _free_port(), secrets.token_hex(16)
    cmd = [str(Path(sys.executable).with_name("jupyter")), "lab", "--no-browser", "--ip=127.0.0.1",
           f"--port={port}", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
           "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           "--LabServerApp.notebook_starts_kernel=False"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    log = open(home / "lab.log", "w")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + limit(180)
    while True:  # until the server answers (or has exited, or the limit is reached)
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=limit(10))
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                why = "exited" if proc.poll() is not None else f"did not answer within {limit(180):.0f} s"
                pytest.fail(f"JupyterLab {why}:\n" + (home / "lab.log").read_text()[-3000:])
            time.sleep(0.2)
    yield base, token
    proc.terminate()
    try:
        proc.wait(timeout=limit(30))
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="module")
def lab_page(browser, lab):
    """One JupyterLab page for all chapters: the app loads once, chapters open from the file browser."""
    base, token = lab
    context = new_context(browser, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/lab?reset&token={token}")  # ?reset: a fresh workspace, no restored tabs
    wait_for(page, "() => document.querySelector('.jp-DirListing-item') !== null",
             "JupyterLab to load and list the chapters in its file browser", 180)
    yield page, errors
    context.close()


def _expected(nb_path):
    nb = json.loads(nb_path.read_text())
    md = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    boxes = sum(len(re.findall(r"^```\{prf:(?!ref)[a-z]+\}", m, re.M)) for m in md)
    return len(md), boxes


# The notebook shown in the main area (other tabs are hidden with lm-mod-hidden).
_CURRENT = ".jp-NotebookPanel:not(.lm-mod-hidden)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_chapter_renders_in_jupyterlab(lab_page, path):
    page, errors = lab_page
    errors.clear()
    n_markdown, n_boxes = _expected(path)
    page.locator(".jp-DirListing-itemText", has_text=path.name).dblclick()
    wait_for(page, f"""() => Array.from(document.querySelectorAll('.lm-TabBar-tab.lm-mod-current'))
                          .some(t => t.textContent.includes({json.dumps(path.name)}))""",
             f"a tab for {path.name} to open", 120)
    wait_for(page, f"""() => document.querySelectorAll('{_CURRENT} .jp-MarkdownCell .myst').length >= {n_markdown}
                           && document.querySelectorAll('{_CURRENT} .jp-MarkdownCell .myst-proof').length >= {n_boxes}""",
             f"MyST to render the {n_markdown} Markdown cells and {n_boxes} {{prf:...}} boxes of {path.name}", 300,
             state=f"""() => `${{document.querySelectorAll('{_CURRENT} .jp-MarkdownCell .myst').length}} cells and
                 ${{document.querySelectorAll('{_CURRENT} .jp-MarkdownCell .myst-proof').length}} boxes rendered`""")
    report = page.evaluate(f"""() => {{
        const nb = document.querySelector('{_CURRENT}');
        return {{
            rendered: nb.querySelectorAll('.jp-MarkdownCell .myst').length,
            boxes: nb.querySelectorAll('.jp-MarkdownCell .myst-proof').length,
            katex: nb.querySelectorAll('.jp-MarkdownCell .katex').length,
            katexErrors: Array.from(nb.querySelectorAll('.katex-error')).map(e => e.title || e.textContent),
        }};
    }}""")
    # close the tab before the next chapter
    page.locator(".lm-TabBar-tab.lm-mod-current .lm-TabBar-tabCloseIcon").first.click()
    wait_for(page, f"""() => !Array.from(document.querySelectorAll('.lm-TabBar-tab'))
                          .some(t => t.textContent.includes({json.dumps(path.name)}))""",
             f"the tab of {path.name} to close", 120)
    math_errors = [e for e in errors if "Undefined control sequence" in e or "KaTeX" in e or "ParseError" in e]
    assert report["rendered"] == n_markdown, f"{report['rendered']} of {n_markdown} Markdown cells rendered by MyST"
    assert report["boxes"] == n_boxes, f"{report['boxes']} of {n_boxes} {{prf:...}} boxes drawn"
    assert report["katex"] > 0, "no math was typeset"
    assert not report["katexErrors"] and not math_errors, report["katexErrors"] + math_errors
