// The review's pictures (review.js): the board at one reviewed choice, drawn read-only from
// the view the server sends beside it (that seat's own view: its drawn cards, nobody
// else's), with the reasons of the move played and of the better one; and a graph of each
// seat's win chance over the game, inline SVG, each seat told by its line's dash and its
// marker as well as its colour.
import { t, tCount, dishName } from "./strings.js";
import { DISHES, cardHtml } from "./cards.js";
import { actionText, reasonText } from "./hint.js";

function stacks(counts, label, esc) {
  return DISHES.map((d) => `<div class="stack ${counts[d] ? "" : "empty"}" role="img" aria-label="${esc(t(label, { dish: dishName(d), count: counts[d] }))}">${cardHtml(d, esc(dishName(d)), counts[d])}</div>`).join("");
}

function cards(counts, cls, esc) {
  return DISHES.filter((d) => counts && counts[d]).map((d) => cardHtml(d, esc(dishName(d)), counts[d], cls)).join("");
}

// `position`: {move, view, played_reason, best_reason}; `m`: the reviewed move; `number`:
// the seat's own count of its choices; `name(i)`: a seat's name.
export function positionHtml(position, m, number, name, esc) {
  const v = position.view;
  const seat = v.seat;
  const me = v.hands[seat];
  const others = v.hands.map((h, i) => (i === seat ? "" : `<li class="player" data-seat="${i}"><div class="player-head">${v.cook === i ? `<span class="tag cook">${esc(t("game.cookTag"))}</span>` : ""}<strong>${esc(name(i))}</strong></div>
      <div class="cards small">${cards(h.takes, "", esc)}</div>
      <div class="muted hidden-count">${esc(tCount("game.hiddenCountOne", "game.hiddenCount", h.hidden))}</div></li>`)).join("");
  const same = m.action === m.best;
  const why = (action, reason) => `${esc(actionText(action))}<span class="why">${esc(reasonText(reason))}</span>`;
  return `<h2 id="review-position-title">${esc(t("review.position", { number, move: m.move, name: name(seat) }))}</h2>
    <dl class="review-why">
      <dt>${esc(t("review.played"))}</dt><dd>${why(m.action, position.played_reason)}</dd>
      <dt>${esc(t("review.best"))}</dt><dd>${same ? esc(t("review.same")) : why(m.best, position.best_reason)}</dd>
    </dl>
    <div class="game review-board">
      <div class="main-col">
        <section class="panel king-panel"><h3>${esc(t("game.king"))}</h3><div class="stacks king">${stacks(v.king, "game.kingLabel", esc)}</div></section>
        <section class="panel table-panel"><h3>${esc(t("game.table"))}</h3><div class="stacks">${stacks(v.table, "game.stackLabel", esc)}<div class="stack dragons ${v.table_dragons ? "" : "empty"}" role="img" aria-label="${esc(t("game.dragons", { count: v.table_dragons }))}">${cardHtml("dragon", esc(dishName("dragon")), v.table_dragons)}</div></div>
          <p class="muted">${esc(t("game.round", { round: v.round }))} · ${esc(tCount("game.deckOne", "game.deck", v.deck))}</p></section>
        <section class="panel hand"><h3>${esc(name(seat))}</h3>
          <div class="hand-part"><h3>${esc(t("game.public"))}</h3><div class="cards">${cards(me.takes, "", esc) || "—"}</div></div>
          <div class="hand-part private"><h3>${esc(t("game.private"))}</h3><div class="cards">${cards(me.draws, "private", esc) || "—"}</div></div></section>
      </div>
      <aside class="side-col"><section class="panel players"><h3>${esc(t("game.others"))}</h3><ul>${others}</ul></section></aside>
    </div>`;
}

const LINES = [
  { colour: "#0072B2", dash: "", marker: "circle" },
  { colour: "#D55E00", dash: "6 3", marker: "square" },
  { colour: "#009E73", dash: "2 3", marker: "triangle" },
  { colour: "#CC79A7", dash: "8 3 2 3", marker: "diamond" },
  { colour: "#8a6d00", dash: "1 2", marker: "cross" },
];

function marker(kind, x, y) {
  const r = 3.5;
  if (kind === "square") return `<rect x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}"/>`;
  if (kind === "triangle") return `<path d="M${x} ${y - r - 1}L${x + r + 1} ${y + r}H${x - r - 1}Z"/>`;
  if (kind === "diamond") return `<path d="M${x} ${y - r - 1}L${x + r + 1} ${y}L${x} ${y + r + 1}L${x - r - 1} ${y}Z"/>`;
  if (kind === "cross") return `<path d="M${x - r} ${y - r}L${x + r} ${y + r}M${x - r} ${y + r}L${x + r} ${y - r}" stroke-width="2"/>`;
  return `<circle cx="${x}" cy="${y}" r="${r}"/>`;
}

// `series[seat]`: that seat's reviewed moves ({move, win_chance}), or null while it loads.
export function chanceGraph(series, name, esc) {
  const known = series.filter(Boolean);
  if (!known.length) return "";
  const last = Math.max(1, ...known.flat().map((m) => m.move));
  const W = 640, H = 220, L = 40, R = 10, T = 10, B = 30;
  const x = (move) => (L + ((move - 1) / Math.max(1, last - 1)) * (W - L - R)).toFixed(1);
  const y = (share) => (T + (1 - share) * (H - T - B)).toFixed(1);
  const grid = [0, 0.25, 0.5, 0.75, 1].map((s) => `<line x1="${L}" x2="${W - R}" y1="${y(s)}" y2="${y(s)}" class="grid"/><text x="${L - 4}" y="${Number(y(s)) + 4}" text-anchor="end">${Math.round(100 * s)}%</text>`).join("");
  const lines = series.map((moves, seat) => {
    if (!moves || !moves.length) return "";
    const style = LINES[seat % LINES.length];
    const points = moves.map((m) => `${x(m.move)},${y(m.win_chance)}`).join(" ");
    return `<g class="seat-line" data-seat="${seat}" stroke="${style.colour}" fill="${style.colour}"><polyline points="${points}" fill="none" stroke-width="2" ${style.dash ? `stroke-dasharray="${style.dash}"` : ""}/>${moves.map((m) => marker(style.marker, Number(x(m.move)), Number(y(m.win_chance)))).join("")}</g>`;
  }).join("");
  const legend = series.map((moves, seat) => {
    const style = LINES[seat % LINES.length];
    return `<li><svg width="34" height="12" aria-hidden="true"><g stroke="${style.colour}" fill="${style.colour}"><line x1="2" x2="32" y1="6" y2="6" stroke-width="2" ${style.dash ? `stroke-dasharray="${style.dash}"` : ""}/>${marker(style.marker, 17, 6)}</g></svg> ${esc(name(seat))}</li>`;
  }).join("");
  const title = t("review.chances");
  return `<figure class="chance-graph"><svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chance-title chance-desc">
      <title id="chance-title">${esc(title)}</title><desc id="chance-desc">${esc(t("review.chancesDesc"))}</desc>
      ${grid}<text x="${(L + W - R) / 2}" y="${H - 6}" text-anchor="middle">${esc(t("review.moveAxis"))}</text>${lines}</svg>
      <figcaption><ul class="chance-legend">${legend}</ul></figcaption></figure>`;
}
