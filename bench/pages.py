"""How fast the heaviest chapter pages open, with their math and without it.

For each page, two versions are loaded alternately in one Chromium (``python -m bench.pages``
after ``make book``, or ``make bench-pages``): the page as built, and the same page with every
formula replaced by its TeX source as plain text and KaTeX's stylesheet removed (what the
page costs without math). Two times per load, from the start of the navigation:

* the first screen: the document parsed, the first screen laid out (forced right after
  DOMContentLoaded), every font it asked for loaded, and two frames drawn after that;
* the whole page: the load event (every image), every font ready and one frame drawn.

The results are the ratios of the medians, measured in the same run, so that the machine's
speed cancels out; the book's target is at most 1.3 for the first screen. Written to
bench/pages.json.
"""
import argparse
import functools
import html as htmllib
import http.server
import json
import re
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
_OPEN = re.compile(r'<span class="katex(?:-display)?">')
_TAG = re.compile(r"<span\b|</span>")
_TEX = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.S)


def without_math(page):
    """The page with every KaTeX formula replaced by its TeX source, and no KaTeX stylesheet."""
    out, pos = [], 0
    for start in iter(lambda: _OPEN.search(page, pos), None):
        depth, end = 0, start.start()
        for tag in _TAG.finditer(page, start.start()):
            depth += 1 if tag.group() == "<span" else -1
            if depth == 0:
                end = tag.end()
                break
        tex = _TEX.search(page, start.start(), end)
        out += [page[pos:start.start()], htmllib.escape(htmllib.unescape(tex.group(1)) if tex else "")]
        pos = end
    out.append(page[pos:])
    return re.sub(r'<link[^>]*katex\.min\.css[^>]*>', "", "".join(out))


# Runs in the page right after DOMContentLoaded: lay out the first screen, wait for the fonts
# it asked for, and for two frames.
_FIRST_SCREEN = """async () => { document.body.getBoundingClientRect(); void document.body.offsetHeight;
  await document.fonts.ready;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now(); }"""

# Runs in the page: the load event has fired; wait for every font and one more frame.
_COMPLETE = """async () => { await document.fonts.ready;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now(); }"""


def measure(html_dir, pages, repeats):
    from playwright.sync_api import sync_playwright

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path.split("?")[0].endswith(".nomath.html"):
                path = Path(self.translate_path(self.path.split("?")[0].replace(".nomath.html", ".html")))
                body = without_math(path.read_text(encoding="utf-8")).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            else:
                super().do_GET()

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(html_dir)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    results = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_context().new_page()
        for rel in pages:
            times = {(kind, what): [] for kind in ("math", "nomath") for what in ("first", "whole")}
            for i in range(repeats + 1):  # the first round warms the cache and is not counted
                for kind in ("math", "nomath"):
                    url = f"{base}/{rel}" if kind == "math" else f"{base}/{rel[:-5]}.nomath.html"
                    page.goto("about:blank")
                    page.goto(url, wait_until="domcontentloaded")
                    first = page.evaluate(_FIRST_SCREEN)
                    page.wait_for_load_state("load")
                    whole = page.evaluate(_COMPLETE)
                    if i:
                        times[kind, "first"].append(first / 1000)
                        times[kind, "whole"].append(whole / 1000)
            med = {key: statistics.median(v) for key, v in times.items()}
            results.append({"page": rel,
                            "first_screen_with_math_s": round(med["math", "first"], 3),
                            "first_screen_without_math_s": round(med["nomath", "first"], 3),
                            "first_screen_ratio": round(med["math", "first"] / med["nomath", "first"], 3),
                            "whole_page_with_math_s": round(med["math", "whole"], 3),
                            "whole_page_without_math_s": round(med["nomath", "whole"], 3),
                            "whole_page_ratio": round(med["math", "whole"] / med["nomath", "whole"], 3),
                            "repeats": repeats})
            r = results[-1]
            print(f"{rel}: first screen {r['first_screen_with_math_s']:.2f} s with math, "
                  f"{r['first_screen_without_math_s']:.2f} s without: ratio {r['first_screen_ratio']:.2f}; "
                  f"whole page ratio {r['whole_page_ratio']:.2f}", flush=True)
        browser.close()
    httpd.shutdown()
    return results


def heaviest(html_dir, k):
    """The k chapter pages with the most formulas."""
    counts = {p.relative_to(html_dir).as_posix(): p.read_text(encoding="utf-8").count('<span class="katex">')
              for p in (html_dir / "chapters").glob("*.html")}
    return sorted(counts, key=counts.get, reverse=True)[:k]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--html", default=str(ROOT / "_build" / "html"))
    ap.add_argument("--pages", type=int, default=5, help="how many of the heaviest chapter pages")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", default=str(ROOT / "bench" / "pages.json"))
    args = ap.parse_args(argv)
    html_dir = Path(args.html)
    if not (html_dir / "intro.html").exists():
        sys.exit(f"no site in {html_dir}: run make book first")
    results = measure(html_dir, heaviest(html_dir, args.pages), args.repeats)
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
