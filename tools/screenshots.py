"""Screenshots of the site as a reader sees it, to look at before calling a site change done.

Usage: python tools/screenshots.py [--site _build/html] [--out _build/screenshots] [NN ...]

For each chapter (all, or the numbers given) it takes four pictures: the first screen of the
page, the first theorem-like box (definition, theorem, proposition, ...), the first figure and
the first table, each at 1280 px (desktop) and 390 px (phone) wide, in the light and in the
dark theme; then it writes ``index.html`` beside them, one row per chapter. The site is
served on 127.0.0.1 only, and Chromium is the one the browser tests use (``CHROMIUM``).
"""
import argparse
import functools
import html
import http.server
import os
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
THEMES = ("light", "dark")
# what to show of each chapter: the first element matching the selector (None: the first screen)
TARGETS = {
    "screen": None,
    "theorem": "article div.proof:not(.dropdown), article div.theorem, article div.definition",
    "figure": "article .cell_output figure, article .cell_output img",   # with its caption
    "table": "article .pst-scrollable-table-container, article table",   # a wide table: its scroll box
}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _serve(site):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def chapters(site, numbers=()):
    pages = sorted((site / "chapters").glob("*.html"))
    wanted = {f"{int(n):02d}" for n in numbers}
    return [p.stem for p in pages if not wanted or p.stem[:2] in wanted]


def take(site, out, names, browser=None):
    """Write the screenshots of the chapters ``names`` into ``out``: {chapter: {shot: file}}.
    ``browser``: a Playwright Chromium to use (default: launch one)."""
    out.mkdir(parents=True, exist_ok=True)
    httpd = _serve(site)
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        if browser is not None:
            shots = _take(browser, base, out, names)
        else:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as pw:
                own = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
                shots = _take(own, base, out, names)
                own.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
    (out / "index.html").write_text(index_page(shots))
    return shots


def _take(browser, base, out, names):
    shots = {name: {} for name in names}
    for width, (w, h) in WIDTHS.items():
        for theme in THEMES:
            context = browser.new_context(viewport={"width": w, "height": h}, color_scheme=theme)
            page = context.new_page()
            for name in names:
                page.goto(f"{base}/chapters/{name}.html", wait_until="load")
                page.evaluate("t => { document.documentElement.dataset.theme = t; }", theme)
                page.evaluate("document.fonts.ready")
                for target, selector in TARGETS.items():
                    file = f"{name}-{target}-{width}-{theme}.png"
                    if selector is None:
                        page.evaluate("window.scrollTo(0, 0)")
                        page.screenshot(path=str(out / file))
                    else:
                        element = page.locator(selector).first
                        if not element.count():
                            continue
                        _shoot(page, element, out / file, h)
                    shots[name][(target, width, theme)] = file
            context.close()
    return shots


def _shoot(page, element, path, height):
    """The element as the reader sees it: brought to the top of the window (below the
    theme's header bar), and cut at the bottom of the window if it is taller."""
    element.evaluate("e => { e.scrollIntoView({block: 'start'}); window.scrollBy(0, -64); }")
    box = element.bounding_box()
    top = max(box["y"], 0)
    page.screenshot(path=str(path), clip={"x": max(box["x"], 0), "y": top, "width": box["width"],
                                          "height": max(1, min(box["y"] + box["height"], height) - top)})


def index_page(shots):
    """One row per chapter; in it, each target at each width and theme, linked to full size."""
    head = "".join(f"<th>{html.escape(t)}<br>{w}<br>{th}</th>" for t in TARGETS for w in WIDTHS for th in THEMES)
    rows = []
    for name, files in shots.items():
        cells = []
        for t in TARGETS:
            for w in WIDTHS:
                for th in THEMES:
                    f = files.get((t, w, th))
                    cells.append(f'<td><a href="{f}"><img src="{f}" loading="lazy" alt="{html.escape(name)}: {t}, '
                                 f'{w}, {th}"></a></td>' if f else "<td>none</td>")
        rows.append(f"<tr><th>{html.escape(name)}</th>{''.join(cells)}</tr>")
    return ("<!doctype html><html lang='en'><meta charset='utf-8'><title>Screenshots of the site</title>"
            "<style>body{font-family:sans-serif} img{width:160px;border:1px solid #999} "
            "td,th{vertical-align:top;padding:2px}</style>"
            f"<h1>Screenshots of the site</h1><table><tr><th>chapter</th>{head}</tr>{''.join(rows)}</table></html>\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", help="chapter numbers (default: all)")
    parser.add_argument("--site", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "screenshots")
    args = parser.parse_args(argv)
    if not (args.site / "intro.html").exists():
        print(f"no site in {args.site}: run make book first", file=sys.stderr)
        return 1
    names = chapters(args.site, args.chapters)
    if not names:
        print(f"no chapter pages match {args.chapters}", file=sys.stderr)
        return 1
    shots = take(args.site, args.out, names)
    print(f"wrote {sum(len(v) for v in shots.values())} screenshots of {len(names)} chapters and "
          f"{args.out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
