// Keeping the keyboard's place when a screen is drawn again.
//
// The client redraws a whole screen from each state frame. Without care, the element that
// had focus is thrown away with the old markup and focus falls back to the page body: a
// screen-reader user loses their place after every move. So before a redraw we note what had
// focus by what it does (its id or its data-* action), and afterwards focus the element that
// does the same; when there is none, the screen's heading takes focus instead of the body.

const KEYS = ["id", "data-take", "data-pick", "data-act", "data-go", "data-dragon", "data-focus", "name"];

export function focusKey(element) {
  if (!element || element === document.body) return null;
  for (const attribute of KEYS) {
    const value = element.getAttribute && element.getAttribute(attribute);
    if (value) return `[${attribute}="${CSS.escape(value)}"]`;
  }
  return null;
}

// Run `redraw`, which replaces the contents of `root`, and give focus back to the element of
// the new markup that matches the one focused before (or to `fallback`, a selector).
export function redrawKeepingFocus(root, redraw, fallback = "h1") {
  const active = document.activeElement;
  const inside = active && active !== document.body && root.contains(active);
  const key = inside ? focusKey(active) : null;
  redraw();
  if (!inside) return;
  if (document.activeElement && document.activeElement !== document.body && root.contains(document.activeElement)) return;
  const again = (key && root.querySelector(key)) || root.querySelector(fallback);
  if (!again) return;
  if (again.tabIndex < 0 && !again.hasAttribute("tabindex")) again.setAttribute("tabindex", "-1");
  again.focus({ preventScroll: true });
}

// Move focus to `selector` (a heading or status line) so that a screen reader reads it.
export function focusOn(root, selector) {
  const target = root.querySelector(selector);
  if (!target) return;
  if (target.tabIndex < 0 && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
}
