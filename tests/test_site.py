"""The strict site build, and checks of the built site in a real browser.

The book is built once per test session into a fresh temporary folder (``book_build`` in
tests/conftest.py: a full build, so that every warning is emitted again). The browser
checks open every page of that build in Debian's Chromium, driven by Playwright, with the
site served on 127.0.0.1 only.

The ``browser`` fixture (tests/conftest.py) skips these checks with the reason when Chromium
is missing, unless ``REQUIRE_BROWSER=1`` is set (as CI does), in which case they fail.
"""
import functools
import html as html_module
import html.parser
import http.server
import json
import re
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import chapter_notebook, limit, new_context, numbered_items, wait_for

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def build(book_build):
    """The strict build (``-W -n --keep-going``) of the site: (process, html folder)."""
    return book_build.proc, book_build.html


def test_strict_build_has_no_warnings(build):
    proc, html = build
    log = proc.stdout + proc.stderr
    problems = [line for line in log.splitlines() if re.search(r"\b(WARNING|ERROR|CRITICAL)\b", line)]
    assert proc.returncode == 0 and not problems, "site build failed or warned:\n" + "\n".join(problems or [log[-4000:]])
    assert (html / "index.html").exists()


def test_every_toc_page_is_built(build):
    _, html = build
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]
    for part in toc.get("parts", []):
        files += [c["file"] for c in part.get("chapters", [])]
    missing = [f for f in files if not (html / f"{f}.html").exists()]
    assert not missing, f"pages listed in _toc.yml but not built: {missing}"


# ------------------------------------------------------------- well-formed HTML
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_OPTIONAL_END = {"li", "dt", "dd", "tr", "td", "th", "option", "thead", "tbody", "tfoot", "colgroup"}
# what may not stand inside <p>: a browser closes the paragraph before it, and the </p> that
# follows is left over
_NOT_IN_P = {"address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption",
             "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "nav",
             "ol", "p", "pre", "section", "table", "ul"}


class _TagBalance(html.parser.HTMLParser):
    """The elements a page opens and closes, with what a parser would have to repair."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open, self.problems = [], []

    def handle_starttag(self, tag, attrs):
        if tag in _NOT_IN_P and "p" in self.open:
            self.problems.append(f"line {self.getpos()[0]}: <{tag}> inside <p>")
        if tag not in _VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        if tag not in self.open:
            self.problems.append(f"line {self.getpos()[0]}: stray </{tag}>")
            return
        while self.open[-1] != tag:
            top = self.open.pop()
            if top not in _OPTIONAL_END:
                self.problems.append(f"line {self.getpos()[0]}: <{top}> closed by </{tag}>")
        self.open.pop()


def malformed_html(text):
    """What is malformed in a page: a block (a paragraph included) inside a paragraph, an
    end tag with nothing to close, an element closed by the end tag of its parent."""
    checker = _TagBalance()
    checker.feed(text)
    checker.close()
    return checker.problems


def test_malformed_html_is_found():
    assert malformed_html("<div><p>a <em>b</em></p><ul><li>x<li>y</ul></div>") == []
    assert malformed_html("<p><p class='x'>a</p>b</a>.</p>") == ["line 1: <p> inside <p>", "line 1: stray </a>"]
    assert malformed_html("<p>a<div>b</div></p>") == ["line 1: <div> inside <p>"]
    assert malformed_html("<section><span>a</section>") == ["line 1: <span> closed by </section>"]


def test_every_page_is_well_formed_html(build):
    _, html = build
    bad = {page: problems[:3] for page in _pages(html)
           if (problems := malformed_html((html / page).read_text(errors="replace")))}
    assert not bad, "malformed HTML (a browser would repair it, and show what is left over):\n" + "\n".join(
        f"  {page}: {'; '.join(p)}" for page, p in bad.items())


# ---------------------------------------------------------------- browser checks

def _is_redirect(path):
    return 'http-equiv="Refresh"' in path.read_text(errors="replace")[:2000]


def _pages(html):
    """Every page of the site, except redirect stubs (index.html) and theme assets."""
    skip = {"_static", "_sources", "_images", "_sphinx_design_static"}
    return sorted(p.relative_to(html).as_posix() for p in html.rglob("*.html")
                  if not skip.intersection(p.relative_to(html).parts) and not _is_redirect(p))


# ---------------------------------------------------------- numbers per chapter
def _chapter_pages(html):
    """[(chapter number, page path, notebook)] in the order of _toc.yml."""
    import sys
    sys.path.insert(0, str(ROOT / "tools"))
    from numbering import chapter_numbers

    return [(n, html / f"{doc}.html", ROOT / f"{doc}.ipynb") for doc, n in chapter_numbers().items()]


def _targets(html):
    """{(page, id): (word, number)} of every numbered thing of the site."""
    out = {}
    for page in _pages(html):
        for item in numbered_items((html / page).read_text()):
            for i in item["ids"]:
                out[(page, i)] = (item["word"], item["number"])
    return out


def test_numbers_are_per_chapter_and_in_order(build):
    """Chapter N's page is headed "N.", its sections are N.1, N.2, ...; its theorem-like boxes
    (one counter for every kind), exercises, figures and tables each count N.1, N.2, ... in
    page order; every figure of the notebook is numbered (so it has a caption)."""
    _, html = build
    problems = []
    for n, page, nb_path in _chapter_pages(html):
        items = numbered_items(page.read_text())
        by = lambda kind: [i["number"] for i in items if i["kind"] == kind]
        if by("h1") != [str(n)]:
            problems.append(f"{page.name}: chapter heading numbered {by('h1')}, not {n}")
        for kind in ("h2", "box", "Exercise", "Figure", "Table"):
            got = by(kind)
            if got != [f"{n}.{k}" for k in range(1, len(got) + 1)]:
                problems.append(f"{page.name}: {kind} numbers {got[:12]}")
        nb = json.loads(nb_path.read_text())
        figures = sum(1 for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])
                      if any(k.startswith("image/") for k in o.get("data", {})))
        if len(by("Figure")) != figures:
            problems.append(f"{page.name}: {len(by('Figure'))} numbered figures, {figures} in the notebook")
        if not by("h2") or not by("box"):
            problems.append(f"{page.name}: no numbered sections or boxes")
    assert not problems, "\n".join(problems)


_NUMBERED_TEXT = re.compile(r"^(?:(§)|([A-Z][a-z]+) )?(\d+(?:\.\d+)+)$")


def test_cross_references_show_the_number_of_their_target(build):
    """A link that reads "Theorem 6.2", "§27.5", "Figure 25.1" or "Exercise 2.3" goes to the
    thing with that kind and number, whichever page it is on (so a reference into another
    chapter names that chapter by its number); checked on every page of the site."""
    _, html = build
    targets = _targets(html)
    link = re.compile(r'<a class="reference internal" href="([^"]*)"[^>]*>(.*?)</a>', re.S)
    checked, problems = 0, []
    for page in _pages(html):
        text = (html / page).read_text()
        for m in link.finditer(text):
            shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", m.group(2))).strip()
            shown = re.sub(r"^Solution to ", "", re.sub(r" \(.*\)$", "", shown))
            num = _NUMBERED_TEXT.match(shown)
            if not num or "#" not in m.group(1):
                continue
            href, anchor = m.group(1).split("#", 1)
            target = (Path(page).parent / href).as_posix() if href else page
            target = re.sub(r"(^|/)[^/]+/\.\./", r"\1", target)
            got = targets.get((target, anchor))
            word = num.group(1) or num.group(2)
            checked += 1
            if got is None:
                problems.append(f"{page}: '{shown}' links to {target}#{anchor}, which has no number")
            elif got[1] != num.group(3) or (word not in (None, "§", "Section", "Chapter") and word != got[0]):
                problems.append(f"{page}: '{shown}' links to {got[0]} {got[1]}")
    assert checked > 2000, f"only {checked} numbered links found"
    assert not problems, f"{len(problems)} links show another number than their target's:\n" + "\n".join(problems[:20])


def test_claims_index_names_the_section_or_exercise_of_each_claim(build):
    """The index of verified claims says where each claim is checked ("27.3 Title", or
    "solution of Exercise 27.2 (...)"); on the chapter page, the claim's anchor lies in that
    section, or in that exercise's solution."""
    _, html = build
    index = (html / "claims.html").read_text()
    row = re.compile(r'<tr[^>]*>\s*<td[^>]*><p><a class="reference internal" href="(chapters/[^"#]+)#(claim-[\d-]+)".*?</td>'
                     r'\s*<td[^>]*>.*?</td>\s*<td[^>]*><p>(.*?)</p></td>', re.S)
    pages, problems, n = {}, [], 0
    for m in row.finditer(index):
        where = re.sub(r"<[^>]+>", "", m.group(3)).strip()
        text = pages.setdefault(m.group(1), (html / m.group(1)).read_text())
        pos = text.find(f'id="{m.group(2)}"')
        n += 1
        sec = re.match(r"(\d+\.\d+) ", where)
        ex = re.match(r"solution of Exercise (\d+\.\d+)", where)
        if sec:
            heads = [i for i in numbered_items(text[:pos] + "</article>") if i["kind"] == "h2"]
            if not heads or heads[-1]["number"] != sec.group(1):
                problems.append(f"{m.group(2)}: index says {where[:40]!r}, page has §{heads[-1]['number'] if heads else None}")
        elif ex:
            sols = re.findall(r'Solution to<a class="reference internal" href="[^"]*"> Exercise ([\d.]+)', text[:pos])
            if not sols or sols[-1] != ex.group(1):
                problems.append(f"{m.group(2)}: index says {where[:50]!r}, page has the solution of {sols[-1:] }")
        else:
            problems.append(f"{m.group(2)}: index gives no section or exercise: {where!r}")
    assert n > 1000, f"only {n} rows of the claims index read"
    assert not problems, f"{len(problems)} claims placed wrongly:\n" + "\n".join(problems[:20])


@pytest.fixture(scope="module")
def server(build):
    proc, html = build
    if proc.returncode != 0:
        pytest.fail("the site did not build, so it cannot be checked in the browser")
    handler = functools.partial(_QuietHandler, directory=str(html))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", html
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


# Runs in the page: wait for the fonts, force every image to load, then report problems.
# The math arrives rendered by KaTeX at build time (_ext/katex_math.py): every .math
# element must hold KaTeX's output, none may be KaTeX's red error span, and KaTeX's
# stylesheet and fonts (served from _static/katex) must be in effect.
_INSPECT = r"""async () => {
  await document.fonts.ready;
  const imgs = Array.from(document.images);
  imgs.forEach(img => { img.loading = 'eager'; });
  await Promise.all(imgs.map(img => img.complete ? null : new Promise(r => { img.onload = img.onerror = r; })));
  const brokenImages = imgs.filter(img => !(img.complete && img.naturalWidth > 0)).map(img => img.src);
  // KaTeX's error span, and an unknown command, which KaTeX writes out in its error colour
  const mathErrors = Array.from(document.querySelectorAll('.katex-error'))
      .map(e => (e.getAttribute('title') || '') + ' in ' + e.textContent.slice(0, 80))
      .concat(Array.from(document.querySelectorAll('.katex-html [style*="color:#cc0000"]'))
      .filter(e => !e.closest('.katex-error') && !e.parentElement.closest('[style*="color:#cc0000"]'))
      .map(e => 'undefined command ' + e.textContent.slice(0, 80)));
  const untypeset = Array.from(document.querySelectorAll('.math'))
      .filter(e => !e.querySelector('.katex, .katex-error')).map(e => e.textContent.slice(0, 80));
  const katex = document.querySelectorAll('.katex').length;
  const styleProblems = [];
  if (katex) {
    const mathml = document.querySelector('.katex .katex-mathml');
    if (!mathml || getComputedStyle(mathml).position !== 'absolute') {
      styleProblems.push("KaTeX's stylesheet is not applied (the MathML copy of each formula is visible)");
    }
    const fonts = Array.from(document.fonts).filter(f => f.family.replace(/"/g, '').startsWith('KaTeX_'));
    const loaded = fonts.filter(f => f.status === 'loaded').map(f => f.family.replace(/"/g, ''));
    if (!loaded.includes('KaTeX_Main')) { styleProblems.push("KaTeX's fonts did not load: " + loaded.join(', ')); }
    const failed = fonts.filter(f => f.status === 'error').map(f => f.family);
    if (failed.length) { styleProblems.push('KaTeX fonts failed to load: ' + failed.join(', ')); }
  }
  // text outside code, outputs and typeset math that still looks like TeX: \( \) \[ \] $$ $...$
  const raw = [];
  const main = document.querySelector('main') || document.body;
  const skip = 'PRE, CODE, SCRIPT, STYLE, TEXTAREA, .katex, .highlight, .output';
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {acceptNode: n =>
      n.nodeType !== Node.TEXT_NODE ? (n.matches(skip) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP)
                                    : NodeFilter.FILTER_ACCEPT});
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n.textContent;
    if (/\\\(|\\\)|\\\[|\\\]|\$\$|\$[^\s$][^$]*\$/.test(t)) { raw.push(t.trim().slice(0, 80)); }
  }
  const ids = Array.from(document.querySelectorAll('[id]')).map(e => e.id);
  const links = Array.from(document.querySelectorAll('a[href]')).map(a => a.href)
      .filter(h => h.startsWith(location.origin + '/'));
  // rows of the index of verified claims that name a claim checked in a solution
  const solutionClaims = Array.from(document.querySelectorAll('tr'))
      .filter(tr => tr.lastElementChild && tr.lastElementChild.textContent.includes('solution of'))
      .map(tr => tr.querySelector("a[href*='#claim-']")).filter(a => a).map(a => a.href);
  return {brokenImages, mathErrors, untypeset, styleProblems, raw, ids, links, solutionClaims, nMath: katex};
}"""


# Runs in the page: lay out the whole article, as it is once the reader has scrolled through it
# (the blocks off the screen are laid out lazily, content-visibility in book.css; the class
# is what book.js sets at the first Tab); the layout checks below measure that layout.
_RENDER_ALL = """async () => { document.documentElement.classList.add('book-render-all');
    await document.fonts.ready;
    for (let i = 0; i < 3; i++) await new Promise(r => requestAnimationFrame(r)); }"""


# Runs in the page: pieces of text that overlap each other (text set on top of text, a
# caption over its figure, a formula running into the next paragraph). Every text block of the
# article is compared with the blocks below it that start above its bottom; a block is not
# compared with its own ancestors or descendants. 2 px of overlap are tolerated (rounding,
# KaTeX's struts).
_OVERLAPS = r"""() => {
  const sel = 'article :is(p, li, dt, dd, h1, h2, h3, h4, h5, figcaption, caption, th, td, pre, .katex-display, .admonition-title, img)';
  const boxes = [];
  for (const e of document.querySelectorAll(sel)) {
    if (e.closest('.toggle-hidden, details:not([open])')) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    boxes.push({e, top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right});
  }
  boxes.sort((a, b) => a.top - b.top);
  const found = [];
  for (let i = 0; i < boxes.length && found.length < 10; i++) {
    const a = boxes[i];
    for (let j = i + 1; j < boxes.length && boxes[j].top < a.bottom - 2; j++) {
      const b = boxes[j];
      if (a.e.contains(b.e) || b.e.contains(a.e)) continue;
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 2 && h > 2) {
        const name = x => x.e.tagName.toLowerCase() + (x.e.className ? '.' + String(x.e.className).split(' ')[0] : '');
        found.push(`${name(a)} "${a.e.textContent.trim().slice(0, 40)}" and ${name(b)} "${b.e.textContent.trim().slice(0, 40)}" overlap by ${Math.round(w)}x${Math.round(h)} px`);
      }
    }
  }
  return found;
}"""


# Runs in the page: where each display formula sits. One narrower than its box (the text
# column, or a proof's or theorem's column, beside its equation number if any) must be
# centred in it; a wider one must scroll inside its own box and start at the box's left edge
# (a formula overflowing at the left, or hugging the right edge, was the old layout).
_DISPLAYS = r"""() => {
  const problems = [];
  let centred = 0, scrolling = 0;
  for (const d of document.querySelectorAll('div.math > .katex-display')) {
    const outer = d.parentElement.getBoundingClientRect();    // div.math: the column
    if (!outer.width) continue;                                // in a folded solution
    const eqno = d.parentElement.querySelector(':scope > .eqno');
    const box = {left: outer.left, right: eqno ? eqno.getBoundingClientRect().left : outer.right};
    const formula = d.querySelector('.katex-html').getBoundingClientRect();
    const text = d.textContent.trim().slice(0, 60);
    if (d.scrollWidth > d.clientWidth + 1) {
      scrolling++;
      if (!['auto', 'scroll'].includes(getComputedStyle(d).overflowX)) {
        problems.push(`a display wider than its box does not scroll: ${text}`);
      } else if (formula.left < box.left - 1) {
        problems.push(`a display starts ${Math.round(box.left - formula.left)} px left of its box: ${text}`);
      }
    } else {
      centred++;
      const off = (formula.left + formula.right - box.left - box.right) / 2;
      if (Math.abs(off) > 3) problems.push(`a display is ${Math.round(off)} px off centre: ${text}`);
    }
  }
  for (const pre of document.querySelectorAll('div.claims pre')) {   // claims wrap, never scroll
    if (pre.clientWidth && pre.scrollWidth > pre.clientWidth + 1) {
      problems.push(`a claim output scrolls sideways: ${pre.textContent.trim().slice(0, 60)}`);
    }
  }
  const sideways = document.documentElement.scrollWidth - document.documentElement.clientWidth;
  if (sideways > 0) problems.push(`the page scrolls sideways by ${sideways} px`);
  return {problems, centred, scrolling};
}"""


# Runs in the page: the punctuation after an inline formula is on the formula's line (the
# build wraps both in span.math-punct); a formula followed by bare punctuation is reported too.
_PUNCTUATION = r"""() => {
  const problems = [];
  const punct = /^[.,;:!?)\]\u2019\u201d]/;
  for (const m of document.querySelectorAll('article span.math')) {   // the text, not the tables of contents
    const after = m.nextSibling;
    if (!after || after.nodeType !== Node.TEXT_NODE || !punct.test(after.textContent)) continue;
    const text = m.textContent.trim().slice(0, 40);
    if (!m.parentElement.matches('span.math-punct')) { problems.push(`punctuation not kept with ${text}`); continue; }
    const f = m.getBoundingClientRect();
    if (!f.width) continue;                                   // in a folded solution
    const range = document.createRange();
    range.setStart(after, 0); range.setEnd(after, 1);
    const p = range.getBoundingClientRect();
    if (p.top >= f.bottom - 1 || p.bottom <= f.top + 1) problems.push(`"${after.textContent[0]}" starts a line after ${text}`);
  }
  // an opening bracket or quote right before a formula stays on the formula's line
  for (const m of document.querySelectorAll('article span.math')) {
    const before = m.previousSibling;
    if (!before || before.nodeType !== Node.TEXT_NODE || !/[(\[\u2018\u201c]$/.test(before.textContent)) continue;
    const text = m.textContent.trim().slice(0, 40);
    if (!m.parentElement.matches('span.math-punct')) { problems.push(`opening bracket not kept with ${text}`); continue; }
    const f = m.getBoundingClientRect();
    if (!f.width) continue;
    const range = document.createRange();
    const n = before.textContent.length;
    range.setStart(before, n - 1); range.setEnd(before, n);
    const p = range.getBoundingClientRect();
    if (p.top >= f.bottom - 1 || p.bottom <= f.top + 1) problems.push(`"${before.textContent[n - 1]}" ends a line before ${text}`);
  }
  return problems;
}"""


# Runs in the page: every folded solution must be hidden, and open when its toggle is clicked.
_UNFOLD = r"""async (seconds) => {
  const out = {opened: 0, problems: []};
  const boxes = Array.from(document.querySelectorAll('div.solution.dropdown'));
  const shown = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  for (const [i, box] of boxes.entries()) {
    const content = box.querySelector(':scope > section');
    const button = box.querySelector(':scope > .admonition-title button.toggle-button');
    if (!content || !button) { out.problems.push(`solution ${i + 1}: no content or no toggle button`); continue; }
    if (shown(content)) { out.problems.push(`solution ${i + 1} is not folded`); continue; }
    button.click();
    const deadline = performance.now() + 1000 * seconds;
    while (!shown(content) && performance.now() < deadline) { await new Promise(r => setTimeout(r, 20)); }
    if (shown(content)) { out.opened++; }
    else { out.problems.push(`solution ${i + 1} did not open within ${seconds} s of the click`); }
  }
  return out;
}"""


class _Tab:
    """One browser tab that visits page after page, as a reader navigates.

    It records, for the page being visited, console errors, page errors, failed requests,
    HTTP errors and any request that would leave the machine (which it blocks). One tab
    for the whole site: opening a tab per page costs a new renderer process each time.
    """

    def __init__(self, context):
        self.page = context.new_page()
        self.problems = []
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console error: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url} ({r.failure})"))
        self.page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))
        self.page.route("**/*", self._guard)

    def _guard(self, route):
        parts = urlsplit(route.request.url)
        if parts.scheme in ("data", "blob", "about") or parts.hostname == "127.0.0.1":
            route.continue_()
        else:
            self.problems.append(f"request leaves the machine: {route.request.url}")
            route.abort()

    def visit(self, url):
        """Open ``url``, inspect it and unfold its solutions: (status, report, problems)."""
        self.problems = []
        response = self.page.goto(url, wait_until="load")
        self.page.evaluate(_RENDER_ALL)
        report = self.page.evaluate(_INSPECT)
        report["displays"] = self.page.evaluate(_DISPLAYS)
        report["punctuation"] = self.page.evaluate(_PUNCTUATION)
        report["overlaps"] = self.page.evaluate(_OVERLAPS)
        report["notebooks"] = self.page.eval_on_selector_all("a[href$='.ipynb']", "els => els.map(a => a.href)")
        report["solutions"] = self.page.evaluate(_UNFOLD, limit(30))
        self.page.wait_for_timeout(100)  # let late console messages arrive
        return (None if response is None else response.status), report, self.problems


@pytest.fixture(scope="module")
def tab(browser):
    """The one tab that every check of this module navigates in."""
    context = new_context(browser)
    yield _Tab(context)
    context.close()


@pytest.fixture(scope="module")
def pages(server, request):
    """The pages to visit: every page of the site, or with ``--chapter NN`` (the quick loop)
    the chapter's page, the introduction and the index of verified claims."""
    _, html = server
    nb = chapter_notebook(request.config)
    if nb is None:
        return _pages(html)
    return sorted({f"chapters/{nb.stem}.html", "intro.html", "claims.html"})


@pytest.fixture(scope="module")
def visits(server, tab, pages):
    """The pages, visited once in Chromium: {page: (status, report, problems)}."""
    base, html = server
    return {rel: tab.visit(f"{base}/{rel}") for rel in pages}


def test_every_page_loads_cleanly_in_the_browser(visits):
    assert len(visits) >= 3
    failures = []
    for rel, (status, report, problems) in visits.items():
        problems = list(problems)
        if status != 200:
            problems.append(f"status {status}")
        problems += [f"image did not load: {s}" for s in report["brokenImages"]]
        problems += [f"KaTeX error: {s}" for s in report["mathErrors"]]
        problems += [f"formula not typeset: {s}" for s in report["untypeset"]]
        problems += report["styleProblems"]
        problems += [f"raw TeX left in the text: {s!r}" for s in report["raw"]]
        failures += [f"{rel}: {p}" for p in problems]
    assert not failures, "\n".join(failures)


def test_chapter_math_is_typeset(visits):
    chapters = [rel for rel in visits if rel.startswith("chapters/")]
    assert chapters, "no chapter pages were built"
    for rel in chapters:
        assert visits[rel][1]["nMath"] > 0, f"{rel}: no typeset formula found"


def test_display_math_is_centred_or_scrolls(visits):
    """At the desktop width of the visits: each display formula centred in its box, or, if
    wider, scrolling inside it from its left edge; outputs with claims wrapped, not
    scrolling; and no page scrolls sideways."""
    failures = [f"{rel}: {p}" for rel, (_, report, _) in visits.items() for p in report["displays"]["problems"]]
    assert not failures, "\n".join(failures[:40])
    assert sum(r["displays"]["centred"] for _, r, _ in visits.values()) > 0


def test_punctuation_stays_with_its_formula(visits):
    failures = [f"{rel}: {p}" for rel, (_, report, _) in visits.items() for p in report["punctuation"]]
    assert not failures, "\n".join(failures[:40])


def test_no_text_overlaps_other_text(visits):
    """At 1280 px no piece of text is set over another on any page (at 390 px: the phone test
    below)."""
    failures = [f"{rel}: {p}" for rel, (_, report, _) in visits.items() for p in report["overlaps"]]
    assert not failures, "\n".join(failures[:40])


def test_the_overlap_check_finds_overlaps(tab, server):
    base, _ = server
    tab.page.goto(f"{base}/intro.html", wait_until="load")
    tab.page.evaluate("() => { const p = document.querySelectorAll('article p')[1]; p.style.marginTop = '-2em'; }")
    assert tab.page.evaluate(_OVERLAPS), "a paragraph pulled up over the one before it was not found"


def test_display_math_on_a_phone(server, tab, pages):
    """At 390 px most displays are wider than the column: each must scroll from its start,
    no line may start with the punctuation after an inline formula, and the page must not
    scroll sideways (the chapter pages among the visited ones; when all are visited, four
    chapters with wide formulas or long headings, the introduction and the claims index)."""
    base, _ = server
    chapters = [p for p in pages if p.startswith("chapters/")]
    heavy = [p for p in chapters if p.split("/")[1][:2] in ("10", "15", "27", "38")] or chapters
    heavy += [p for p in ("intro.html", "claims.html") if p in pages]
    tab.page.set_viewport_size({"width": 390, "height": 844})
    try:
        failures, scrolling = [], 0
        for rel in heavy:
            tab.page.goto(f"{base}/{rel}", wait_until="load")
            tab.page.evaluate(_RENDER_ALL)
            found = tab.page.evaluate(_DISPLAYS)
            failures += [f"{rel}: {p}" for p in found["problems"]]
            failures += [f"{rel} at 390 px: {p}" for p in tab.page.evaluate(_PUNCTUATION)]
            failures += [f"{rel} at 390 px: {p}" for p in tab.page.evaluate(_OVERLAPS)]
            scrolling += found["scrolling"]
    finally:
        tab.page.set_viewport_size({"width": 1280, "height": 720})
    assert not failures, "\n".join(failures[:40])
    assert scrolling > 0, "no display was wider than a phone's column: the check checked nothing"


# ---------------------------------------------------------- accessibility (axe-core)
_AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def _axe_pages(pages, html):
    """The introduction and the five chapter pages with the most formulas (or, in the quick
    loop, the chapter being checked)."""
    import sys
    sys.path.insert(0, str(ROOT))
    from bench.pages import heaviest

    chapters = [p for p in pages if p.startswith("chapters/")]
    heavy = [p for p in heaviest(html, 5) if p in chapters] if len(chapters) > 5 else chapters
    return ["intro.html"] + heavy


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violation(server, browser, pages, scheme):
    """axe-core (pinned in package-lock.json) finds no serious or critical violation of
    WCAG 2 A/AA on the introduction and the heaviest chapters, in the light and the dark
    theme: contrast, names of links and buttons, landmarks, images without alt text,
    keyboard access to what scrolls."""
    assert _AXE.is_file(), "node_modules/axe-core is missing: run npm ci (make does)"
    base, html = server
    context = new_context(browser, color_scheme=scheme)
    page = context.new_page()
    found = []
    try:
        for rel in _axe_pages(pages, html):
            page.goto(f"{base}/{rel}", wait_until="load")
            page.evaluate("""async () => { await document.fonts.ready;
                await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); }""")
            assert page.evaluate("document.documentElement.dataset.theme") == scheme, f"{rel} not in the {scheme} theme"
            # a keyboard user's first Tab lays out the whole page (book.js), so that every
            # formula or table that scrolls sideways can take the focus
            page.keyboard.press("Tab")
            page.evaluate(_SETTLE)
            page.add_script_tag(path=str(_AXE))
            violations = page.evaluate("""async () => (await axe.run(document, {
                runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']},
                resultTypes: ['violations']})).violations
              .filter(v => ['serious', 'critical'].includes(v.impact))
              .map(v => `${v.impact} ${v.id} (${v.nodes.length}x): ${v.help}; e.g. ${v.nodes[0].target.join(' ')}`)""")
            found += [f"{rel} ({scheme}): {v}" for v in violations]
    finally:
        context.close()
    assert not found, "\n".join(found)


def test_the_accessibility_check_finds_violations(server, browser):
    """The check above can fail: a page with low-contrast text and an image without alt."""
    base, _ = server
    context = new_context(browser)
    page = context.new_page()
    try:
        page.goto(f"{base}/intro.html", wait_until="load")
        page.evaluate("""() => { const p = document.querySelector('article p');
            p.style.color = '#bbb'; p.insertAdjacentHTML('beforeend', '<img src="_static/logo.svg">'); }""")
        page.add_script_tag(path=str(_AXE))
        ids = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .filter(v => ['serious', 'critical'].includes(v.impact)).map(v => v.id)""")
    finally:
        context.close()
    assert {"color-contrast", "image-alt"} <= set(ids), ids


def test_every_figure_says_what_it_shows(build):
    """Each figure of a chapter has alt text of its own (myst-nb's default is the image's
    file name) and a caption."""
    _, html = build
    bad = []
    for n, page, _ in _chapter_pages(html):
        text = page.read_text()
        for m in re.finditer(r'<figure[^>]*>\s*<img alt="([^"]*)"', text):
            if len(m.group(1)) < 40 or re.search(r"\.(png|svg|jpe?g)$", m.group(1)):
                bad.append(f"{page.name}: alt {m.group(1)[:60]!r}")
        loose = re.findall(r'<img alt="([^"]*\.png)"', text)
        bad += [f"{page.name}: an image outside a captioned figure ({a[-20:]})" for a in loose]
    assert not bad, "\n".join(bad[:20])


# ------------------------------------------- lazy rendering (content-visibility in book.css)
_SETTLE = """async () => { await document.fonts.ready;
    for (let i = 0; i < 8; i++) await new Promise(r => requestAnimationFrame(r)); }"""
# the first block of the article on the screen (as book.js counts them) and where it is
_WHERE = """() => { const blocks = document.querySelectorAll('article.bd-article section > :not(section)');
  for (let i = 0; i < blocks.length; i++) { const r = blocks[i].getBoundingClientRect();
    if ((r.width || r.height) && r.bottom > 0) return [i, Math.round(r.top)]; } }"""


def _pdf_pages(pdf):
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_lazy_rendering_keeps_anchors_search_printing_and_scroll_positions(server, browser, pages):
    """The blocks of an article off the screen are not laid out until they come near it
    (content-visibility: auto). On the heaviest chapter: such a block is indeed skipped;
    a link to an anchor far down lands on it; find-in-page finds text inside a skipped
    block; the printed page has as many pages as with everything laid out; and a reload or
    Back returns to the same block at the same height (book.js), at three depths."""
    base, html = server
    import sys
    sys.path.insert(0, str(ROOT))
    from bench.pages import heaviest

    chapters = [p for p in pages if p.startswith("chapters/")]
    rel = next(p for p in heaviest(html, 50) if p in chapters)
    context = new_context(browser)
    page = context.new_page()
    try:
        page.goto(f"{base}/{rel}", wait_until="load")
        page.evaluate(_SETTLE)
        probe = page.evaluate("""() => {
            const blocks = Array.from(document.querySelectorAll('article.bd-article section > div.proof'));
            const box = blocks[blocks.length - 1];
            const p = Array.from(box.querySelectorAll('p')).find(p => !p.querySelector('.katex, code, a')
                && p.textContent.trim().split(/\\s+/).length >= 6);
            const skipped = !p.checkVisibility({contentVisibilityAuto: true});
            const words = p.textContent.trim().split(/\\s+/).slice(0, 6).join(' ');
            const found = window.find(words, true);
            const sel = getSelection();
            return {cv: getComputedStyle(box).contentVisibility, skipped, words, found,
                    inside: !!(sel.anchorNode && p.contains(sel.anchorNode))};
        }""")
        assert probe["cv"] == "auto" and probe["skipped"], f"the last theorem-like box is not rendered lazily: {probe}"
        assert probe["found"] and probe["inside"], f"find-in-page missed {probe['words']!r} in a skipped block"

        anchor = page.evaluate("() => Array.from(document.querySelectorAll('article .exercise[id]')).pop().id")
        page.goto(f"{base}/{rel}#{anchor}", wait_until="load")
        page.evaluate(_SETTLE)
        tops = []
        for _ in range(3):
            tops.append(page.evaluate(f"() => document.getElementById({anchor!r}).getBoundingClientRect().top"))
            page.evaluate(_SETTLE)
        assert 0 <= tops[0] <= 160 and max(tops) - min(tops) < 1, f"#{anchor} is at {tops} px, not at the top"

        lazy = _pdf_pages(page.pdf())
        page.add_style_tag(content="* { content-visibility: visible !important; }")
        assert lazy == _pdf_pages(page.pdf()) > 10, "the printed page changes when everything is laid out"

        moved = []
        for depth in (0.3, 0.6, 0.9):
            page.goto(f"{base}/{rel}", wait_until="load")
            page.evaluate(_SETTLE)
            page.evaluate(f"() => window.scrollTo(0, document.body.scrollHeight * {depth})")
            page.evaluate(_SETTLE)
            page.wait_for_timeout(300)  # book.js records the place 150 ms after scrolling stops
            before = page.evaluate(_WHERE)
            page.reload(wait_until="load")
            page.evaluate(_SETTLE)
            after_reload = page.evaluate(_WHERE)
            page.goto(f"{base}/intro.html", wait_until="load")
            page.go_back(wait_until="load")
            page.evaluate(_SETTLE)
            after_back = page.evaluate(_WHERE)
            for what, after in (("reload", after_reload), ("Back", after_back)):
                if after[0] != before[0] or abs(after[1] - before[1]) > 2:
                    moved.append(f"at {depth:.0%} of the page, {what} moved block {before} to {after}")
        assert not moved, "\n".join(moved)
    finally:
        context.close()


def test_chapters_offer_their_notebook_for_download(visits, browser):
    context = new_context(browser)
    for rel in [rel for rel in visits if rel.startswith("chapters/")]:
        hrefs = visits[rel][1]["notebooks"]
        assert hrefs, f"{rel}: no download link for the notebook"
        response = context.request.get(hrefs[0])
        assert response.status == 200 and response.json()["metadata"]["kernelspec"]["name"] == "python3"
    context.close()


def test_index_redirects_to_the_introduction(server, tab):
    base, html = server
    assert _is_redirect(html / "index.html")
    tab.problems = []
    tab.page.goto(f"{base}/index.html")
    wait_for(tab.page, "() => location.pathname.endsWith('/intro.html')", "index.html to redirect to intro.html", 60)
    assert "Executable Notes" in tab.page.title()
    assert not tab.problems, tab.problems


def test_search_finds_each_chapter_by_its_title(server, tab, pages):
    """The search page, used once through its interface, then (to avoid reloading the index
    for every chapter) through the same search functions the page calls."""
    base, html = server
    chapters = [p for p in pages if p.startswith("chapters/")]
    queries = {}
    for rel in chapters:
        # the chapter's own heading (the theme repeats the title in its header without a headerlink)
        title = re.search(r'<h1>(.*?)<a class="headerlink"', (html / rel).read_text()).group(1)
        title = re.sub(r'<span class="section-number">[^<]*</span>', "", title)  # "27. "
        queries[rel] = html_module.unescape(re.sub(r"<[^>]+>", "", title)).strip()
    page = tab.page
    first = chapters[0]
    page.goto(f"{base}/search.html?q={queries[first].replace(' ', '+')}", wait_until="load")
    # results are appended one at a time (5 ms apart); the summary line appears when all are listed
    wait_for(page, "() => /Search finished/.test(document.querySelector('#search-results p.search-summary')"
                   "?.innerText ?? '')", f"the search page to list all results for {queries[first]!r}", 120)
    links = page.eval_on_selector_all("#search-results ul.search li a", "els => els.map(a => a.href)")
    assert any(first in link for link in links), f"the search page did not find {first}: {links[:5]}"
    found = page.evaluate("""queries => Object.fromEntries(Object.entries(queries).map(([rel, q]) => {
        const results = Search._performSearch(...Search._parseQuery(q));
        return [rel, results.map(r => r[0])];
    }))""", queries)
    missing = {rel: (queries[rel], docs[:5]) for rel, docs in found.items()
               if rel.removesuffix(".html") not in docs}
    assert not missing, f"search did not find these chapters by their titles: {missing}"


def _solutions_in_source(rel):
    """How many solutions the notebook behind a chapter page writes (``{solution}`` or a
    gated ``{solution-start}``)."""
    nb = json.loads((ROOT / rel).with_suffix(".ipynb").read_text())
    md = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    return sum(len(re.findall(r"^\s*(?:`{3,}|:{3,})\{solution(?:-start)?\}", m, re.M)) for m in md)


def test_exercise_solutions_are_folded_and_open_on_click(visits):
    """Every solution of every chapter is folded when its page loads and opens when its
    toggle is clicked (``_UNFOLD``, run during the visit)."""
    problems = []
    for rel, (_, report, _) in visits.items():
        solutions = report["solutions"]
        problems += [f"{rel}: {p}" for p in solutions["problems"]]
        if rel.startswith("chapters/"):
            expected = _solutions_in_source(rel)
            if expected == 0 or solutions["opened"] != expected:
                problems.append(f"{rel}: {solutions['opened']} folded solutions opened, the notebook has {expected}")
    assert not problems, "\n".join(problems)


def test_a_link_into_a_folded_solution_opens_it(visits, tab):
    """A claim checked inside a solution, reached from the index of verified claims, is
    shown: _static/book.js opens the folded solution that holds the link's target."""
    hrefs = visits["claims.html"][1]["solutionClaims"]
    assert hrefs, "claims.html lists no claim checked in a solution"
    href = hrefs[len(hrefs) // 2]
    tab.page.goto(href, wait_until="load")
    is_open = """id => {
        const box = document.getElementById(id).closest('.solution');
        return box !== null && !box.classList.contains('toggle-hidden'); }"""
    wait_for(tab.page, is_open, f"the folded solution holding {href} to open", 60, arg=urlsplit(href).fragment)


def test_internal_links_resolve_to_pages_and_anchors(visits, server):
    """Every link between pages of the site reaches a file, and its #anchor an element there
    (the claims index links to claims, the notation page to definitions)."""
    _, html = server
    ids = {rel: set(report["ids"]) for rel, (_, report, _) in visits.items()}
    broken = set()
    for rel, (_, report, _) in visits.items():
        for link in report["links"]:
            parts = urlsplit(link)
            target = parts.path.lstrip("/") or "index.html"
            if not (html / target).is_file():
                broken.add(f"{rel}: {link} (no such file)")
            elif parts.fragment and target in ids and parts.fragment not in ids[target]:
                broken.add(f"{rel}: {link} (no element with this id)")
    assert not broken, f"{len(broken)} broken links:\n" + "\n".join(sorted(broken)[:40])


def test_claims_index_links_every_claim_of_every_chapter(visits):
    links = [urlsplit(h) for h in visits["claims.html"][1]["links"]]
    claim_links = {(p.path.lstrip("/"), p.fragment) for p in links if p.fragment.startswith("claim-")}
    chapters = [rel for rel in visits if rel.startswith("chapters/")]
    assert chapters
    for rel in chapters:
        anchors = {i for i in visits[rel][1]["ids"] if i.startswith("claim-")}
        assert anchors, f"{rel}: no claim anchors"
        linked = {frag for page, frag in claim_links if page == rel}
        assert linked == anchors, f"{rel}: index links {len(linked)} claims, page has {len(anchors)} anchors"


def test_the_introduction_links_the_pdf_only_when_it_is_built(visits, server):
    """``make pdf`` puts book.pdf into the site and rebuilds it; a site built without it
    (``make book``, and this test build) says how to make it instead of linking nothing."""
    _, html = server
    links = [urlsplit(h).path for h in visits["intro.html"][1]["links"]]
    if (html / "book.pdf").is_file():
        assert "/book.pdf" in links
    else:
        assert "/book.pdf" not in links, "the introduction links book.pdf, which this site does not have"
        text = (html / "intro.html").read_text()
        assert "pdf-not-built" in text and "make pdf" in re.sub(r"<[^>]+>", "", text)


def test_pdf_link_is_kept_or_replaced():
    """The switch itself (_ext/book_html.py), on a page with the link, both ways."""
    import sys
    from docutils import nodes

    sys.path.insert(0, str(ROOT / "_ext"))
    from book_html import link_pdf_if_built

    def page():
        doc = nodes.section()
        doc += nodes.raw("", '<a class="reference external pdf-download" href="book.pdf">PDF</a>', format="html")
        return doc

    kept, replaced = page(), page()
    link_pdf_if_built(kept, True)
    link_pdf_if_built(replaced, False)
    assert "book.pdf" in kept.astext() and not list(kept.findall(nodes.paragraph))
    assert "book.pdf" not in replaced.astext() and "make pdf" in replaced.astext()

    # the link as inline HTML: MyST makes <a ...>, the text and </a> separate nodes of one
    # paragraph, which is replaced whole (no paragraph inside a paragraph, no stray </a>)
    doc = nodes.section()
    para = nodes.paragraph()
    para += nodes.raw("", '<a class="reference external pdf-download" href="book.pdf">', format="html")
    para += nodes.Text("Download the whole book as a PDF")
    para += nodes.raw("", "</a>", format="html")
    doc += para
    link_pdf_if_built(doc, False)
    assert "Download" not in doc.astext() and len(list(doc.findall(nodes.paragraph))) == 1


def test_the_browser_check_sees_katex_errors_and_untypeset_math(tab):
    """The page inspection must be able to fail: a formula KaTeX cannot parse (rendered by
    the build's own KaTeX process, as the site build does), an undefined macro, and a
    formula left as TeX are all reported."""
    import sys

    sys.path.insert(0, str(ROOT / "_ext"))
    import yaml
    from katex_math import KaTeX

    macros = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["config"]["math_macros"]
    katex = KaTeX(ROOT, macros)
    try:
        (good, ok), (bad, error), (undefined, error2) = katex.render(
            [(r"\norm{x}_2 \le \argmin{\theta} f", False), (r"\frac{1}{", True), (r"\nosuchmacro x", False)])
    finally:
        katex.close()
    assert ok is None and error and "nosuchmacro" in error2
    tab.page.set_content(f"""<main><p><span class="math">{good}</span></p><div class="math">{bad}</div>
        <p><span class="math">{undefined}</span> and <span class="math">\\(x^2\\)</span></p></main>""")
    report = tab.page.evaluate(_INSPECT)
    assert len(report["mathErrors"]) == 2, report["mathErrors"]
    assert report["untypeset"] == ["\\(x^2\\)"], report["untypeset"]
    assert any("x^2" in r for r in report["raw"]), report["raw"]


def test_own_static_files_are_refreshed(tmp_path):
    """An edited _static/book.css reaches an incrementally built site (Sphinx 7.4 would keep
    the old copy)."""
    import sys
    from types import SimpleNamespace

    sys.path.insert(0, str(ROOT / "_ext"))
    from book_html import refresh_own_static_files

    (tmp_path / "src" / "_static").mkdir(parents=True)
    (tmp_path / "out" / "_static").mkdir(parents=True)
    (tmp_path / "src" / "_static" / "book.css").write_text("new")
    (tmp_path / "out" / "_static" / "book.css").write_text("old")
    app = SimpleNamespace(srcdir=tmp_path / "src", outdir=tmp_path / "out", builder=SimpleNamespace(format="html"),
                          config=SimpleNamespace(html_css_files=["book.css"], html_js_files=[]))
    refresh_own_static_files(app, None)
    assert (tmp_path / "out" / "_static" / "book.css").read_text() == "new"


def test_screenshots_of_a_chapter(build, browser, pages, tmp_path):
    """make screenshots: the four pictures of a chapter at both widths and in both themes,
    and an index page that shows each of them."""
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    import screenshots

    _, html = build
    chapter = sorted(p for p in pages if p.startswith("chapters/"))[0].split("/")[1][:2]
    names = screenshots.chapters(html, [chapter])
    shots = screenshots.take(html, tmp_path, names, browser)
    files = shots[names[0]]
    assert {t for t, _, _ in files} >= {"screen", "theorem"}, f"missing pictures: {sorted(files)}"
    assert len(files) % 4 == 0 and all((tmp_path / f).stat().st_size > 1000 for f in files.values())
    index = (tmp_path / "index.html").read_text()
    assert all(f'src="{f}"' in index for f in files.values()) and not malformed_html(index)


def test_punctuation_is_glued_to_its_formula():
    """The transform behind span.math-punct: a closing mark after an inline formula and an
    opening bracket or quote before it go into one unbreakable span with it; the rest of the
    text stays outside."""
    import sys
    from docutils import nodes
    sys.path.insert(0, str(ROOT / "_ext"))
    from katex_math import keep_punctuation_with_math

    para = nodes.paragraph("", "", nodes.Text("the law ("), nodes.math("", "x^2"), nodes.Text("), then"),
                           nodes.Text(" and "), nodes.math("", "y"), nodes.Text(" alone"))
    doc = nodes.document(None, None)
    doc += para
    keep_punctuation_with_math(doc)
    glue = [n for n in para.children if isinstance(n, nodes.inline)]
    assert [g.astext() for g in glue] == ["(x^2),"]
    assert "math-punct" in glue[0]["classes"]
    assert para.astext() == "the law (x^2), then and y alone"
