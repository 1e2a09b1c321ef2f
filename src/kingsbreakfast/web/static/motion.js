// Short card movements that show what just happened: a taken dish arriving in a hand, a
// drawn card, two of the king's dishes eaten by a dragon, a new table dealt. They are CSS
// animations named by class, so `prefers-reduced-motion: reduce` turns them all off in the
// stylesheet; they move cards (transform only), never fade text.

// What to animate after going from view `before` to view `after`: [selector, class] pairs,
// applied to the freshly drawn page by `animate`.
export function motionFor(before, after) {
  if (!before || !after || after.history.length <= before.history.length) return [];
  const out = [];
  const entries = after.history.slice(before.history.length);
  for (const entry of entries) {
    if (entry.type === "take") {
      out.push([`.player[data-seat="${entry.seat}"] .card-${entry.dish}`, "arrive"]);
      if (after.seat === entry.seat) out.push([`.hand .hand-part:not(.private) .card-${entry.dish}`, "arrive"]);
    } else if (entry.type === "draw") {
      out.push([`.player[data-seat="${entry.seat}"] .hidden-count`, "arrive"]);
      if (after.seat === entry.seat) out.push([".hand .hand-part.private .cards", "arrive"]);
    } else if (entry.type === "feed") {
      for (const dish of entry.dishes) out.push([`.king .stack[data-dish="${dish}"]`, "eaten"]);
    }
  }
  if (after.round !== before.round && after.to_move !== null) out.push([".table-panel .stacks .stack", "dealt"]);
  return out;
}

export function animate(root, motion) {
  const kinds = new Set();
  for (const [selector, cls] of motion) {
    root.querySelectorAll(selector).forEach((element) => element.classList.add(cls));
    kinds.add(cls);
  }
  // every kind of movement this page has shown so far (read by the browser tests)
  const shown = new Set((root.dataset.motion || "").split(" ").filter(Boolean));
  for (const kind of kinds) shown.add(kind);
  if (shown.size) root.dataset.motion = [...shown].join(" ");
}
