// Open the hidden solution (or any collapsed toggle) that holds the target of a link, so
// that a link from the index of verified claims to a claim checked in the solution of an
// exercise shows that claim instead of landing on a closed box.
(() => {
  const openTarget = () => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (!target) return;
    for (let box = target.closest(".toggle-hidden"); box; box = box.parentElement.closest(".toggle-hidden")) {
      const button = box.querySelector(":scope > .admonition-title button.toggle-button");
      if (button) button.click();
    }
    target.scrollIntoView();
  };
  window.addEventListener("load", openTarget);  // after sphinx-togglebutton has closed the boxes
  window.addEventListener("hashchange", openTarget);
})();

// Keyboard access to what scrolls sideways: a formula wider than the column scrolls inside its
// own box (book.css), as does a wide table; a keyboard user can only scroll such a box once
// it can take the focus, so those that overflow join the tab order (the others stay out of
// it). A ResizeObserver checks each box when the browser lays it out and whenever its width
// changes, so that the blocks not laid out yet (content-visibility in book.css) are not laid
// out just to be checked. The first Tab a reader presses lays out the whole page and checks
// every box at once, before the focus moves, so that Tab reaches every wide formula.
(() => {
  const BOXES = ".katex-display, .pst-scrollable-table-container";
  const check = d => {
    if (d.scrollWidth > d.clientWidth) d.setAttribute("tabindex", "0");
    else if (d.matches(".katex-display")) d.removeAttribute("tabindex");
  };
  // the boxes laid out now (checkVisibility does not lay out the others)
  const checkShown = () => {
    for (const d of document.querySelectorAll(BOXES)) {
      if (d.checkVisibility({contentVisibilityAuto: true})) check(d);
    }
  };
  const observer = new ResizeObserver(entries => { for (const e of entries) check(e.target); });
  const start = () => { for (const d of document.querySelectorAll(BOXES)) observer.observe(d); };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  // a formula widens when its fonts arrive, without its box changing size
  document.fonts.addEventListener("loadingdone", checkShown);
  document.addEventListener("keydown", e => {
    const root = document.documentElement;
    if (e.key !== "Tab" || root.classList.contains("book-render-all")) return;
    root.classList.add("book-render-all");
    checkShown();
  }, {capture: true});
})();

// Back to the same place after a reload or Back: the blocks of the article that are off the
// screen are not laid out (content-visibility in book.css) and count with a placeholder
// height until they have been shown, so the browser's own restoration of the scroll offset
// would land on other text. Instead the first block on the screen and how far it was
// scrolled are kept in the history entry, and that block is brought back to the same place.
(() => {
  const BLOCKS = "article.bd-article section > :not(section)";
  const topBlock = () => {  // the first block (not hidden) whose bottom is below the top of the window
    const blocks = document.querySelectorAll(BLOCKS);
    for (let i = 0; i < blocks.length; i++) {
      const r = blocks[i].getBoundingClientRect();
      if ((r.width || r.height) && r.bottom > 0) return {i, dy: r.top};
    }
    return null;
  };
  const save = () => {
    const at = topBlock();
    if (at) history.replaceState({...(history.state || {}), bookScroll: {...at, y: scrollY}}, "");
  };
  let pending = null;
  window.addEventListener("scroll", () => { clearTimeout(pending); pending = setTimeout(save, 150); }, {passive: true});
  window.addEventListener("pagehide", save);
  const nav = performance.getEntriesByType("navigation")[0];
  const saved = history.state && history.state.bookScroll;
  if (!saved || !nav || !["reload", "back_forward"].includes(nav.type)) return;
  history.scrollRestoration = "manual";
  // Blocks near the screen are laid out as the page settles (fonts, formulas), which moves
  // the saved block; it is put back on every frame until it stays put, for at most two
  // seconds, or until the reader scrolls.
  let stable = 0, frames = 0, stop = false;
  for (const e of ["wheel", "touchstart", "keydown", "mousedown"]) {
    window.addEventListener(e, () => { stop = true; }, {once: true, passive: true});
  }
  const restore = () => {
    if (stop) return;
    const block = document.querySelectorAll(BLOCKS)[saved.i];
    if (!block) return;
    const off = block.getBoundingClientRect().top - saved.dy;
    if (Math.abs(off) > 0.5) { window.scrollBy(0, off); stable = 0; } else stable++;
    if (stable < 5 && ++frames < 120) requestAnimationFrame(restore);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restore);
  else restore();
})();
