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

// Keyboard access to formulas wider than the column: such a display scrolls inside its own
// box (book.css), which a keyboard user can only scroll once it can take the focus; the
// displays that fit are left out of the tab order. Checked again when the width changes.
(() => {
  const mark = () => {
    for (const d of document.querySelectorAll(".katex-display")) {
      if (d.scrollWidth > d.clientWidth + 1) d.setAttribute("tabindex", "0");
      else d.removeAttribute("tabindex");
    }
  };
  let pending = null;
  window.addEventListener("resize", () => { clearTimeout(pending); pending = setTimeout(mark, 150); });
  window.addEventListener("load", mark);
  document.fonts.ready.then(mark);
})();
