// The hint panel: the value of each legal move (bots/hint.py through the server's hint route),
// with its reason in the player's language and the figures the rules settle marked "=".
// The rows come sorted from the server (by the expected result, then points); the panel only
// writes them. Reasons are a key and parameters (dish ids, numbers), translated here.
import { t, tCount, dishName } from "./strings.js";

// an action's short text ("take ham", "feed bread wine": the hint rows, the record, the
// review) in the page's words
export function actionText(text) {
  const [kind, a, b] = text.split(" ");
  if (kind === "take") return t("game.take", { dish: dishName(a) });
  if (kind === "feed") return t("hint.feed", { a: dishName(a), b: dishName(b) });
  if (kind === "draw") return t("game.draw");
  if (kind === "place_dragon") return t("game.dragonPlace");
  return t("game.pass");
}

export function reasonText(reason) {
  if (!reason) return "";
  const p = reason.params || {};
  const names = { dish: p.dish && dishName(p.dish), a: p.a && dishName(p.a), b: p.b && dishName(p.b) };
  if (reason.key === "scores") return tCount("hint.why.scoresOne", "hint.why.scores", p.points, names);
  return t("hint.why." + reason.key, names);
}

export function hintTable(rows, esc) {
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  const gap = (behind) => (behind > 0.0005 ? "−" + pct(behind) : behind < -0.0005 ? "+" + pct(-behind) : "—");
  const exactTitle = esc(t("hint.exact"));
  const points = (r) => (r.exact ? `<span title="${exactTitle}">=${r.expected_points.toFixed(0)}</span>` : r.expected_points.toFixed(1));
  const win = (r) => (r.result ? `<span title="${exactTitle}">=${(100 * r.win_chance).toFixed(0)}%</span>` : pct(r.win_chance));
  const body = rows.map((r) => `<tr><th scope="row">${esc(actionText(r.action))}<span class="why">${esc(reasonText(r.reason))}</span></th><td>${points(r)}</td><td>${win(r)}</td><td>${gap(r.behind)}</td></tr>`).join("");
  const note = rows.some((r) => r.exact) ? ` ${t("hint.exact")}` : "";
  return `<table class="hint"><caption>${esc(t("hint.title"))}</caption>
      <thead><tr><th scope="col">${esc(t("hint.move"))}</th><th scope="col">${esc(t("hint.points"))}</th><th scope="col">${esc(t("hint.win"))}</th><th scope="col">${esc(t("hint.behind"))}</th></tr></thead>
      <tbody>${body}</tbody></table><p class="muted">${esc(t("hint.explained") + " " + t("hint.order") + note)}</p>`;
}
