"""How fast the heaviest chapter pages open, with their math and without it.

For each page, two versions are loaded alternately in one Chromium (``python -m bench.pages``
after ``make book``; ``make bench`` runs it): the page as built, and the same page with every
formula replaced by its TeX source as plain text and KaTeX's stylesheet removed (what the
page costs without math). "Complete" is the load event, every font ready and one frame drawn
after that. The result is the ratio of the medians, measured in the same run, so that the
machine's speed cancels out; the book's target is at most 1.3. Written to bench/pages.json.
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
            times = {"math": [], "nomath": []}
            for i in range(repeats + 1):  # the first round warms the cache and is not counted
                for kind in ("math", "nomath"):
                    url = f"{base}/{rel}" if kind == "math" else f"{base}/{rel[:-5]}.nomath.html"
                    page.goto("about:blank")
                    page.goto(url, wait_until="load")
                    t = page.evaluate(_COMPLETE)
                    if i:
                        times[kind].append(t / 1000)
            n = page.evaluate("() => 0")  # keep the page alive
            m, b = statistics.median(times["math"]), statistics.median(times["nomath"])
            results.append({"page": rel, "with_math_s": round(m, 3), "without_math_s": round(b, 3),
                            "ratio": round(m / b, 3), "repeats": repeats})
            print(f"{rel}: {m:.2f} s with math, {b:.2f} s without: ratio {m / b:.2f}", flush=True)
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
    ap.add_argument("--pages", type=int, default=3, help="how many of the heaviest chapter pages")
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
