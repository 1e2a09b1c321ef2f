// A finished game in a list (the lobby's finished games, "My games"): when it ended, who
// played with how many points, and who won. The results come from the server in one call for
// the whole list (GET /api/games/results); a game whose result is missing is still listed,
// with its players.
import { t, tCount, language } from "./strings.js";
import { call, esc } from "./pages.js";
import { nameTag } from "./people.js";

// The sentence escaped, with the player's name in it marked as a name (its rating is shown
// beside it, people.js).
function withName(sentence, name) {
  const safe = esc(sentence);
  const at = safe.indexOf(esc(name));
  return at < 0 ? safe : safe.slice(0, at) + nameTag(name) + safe.slice(at + esc(name).length);
}

// `games`: list entries with an `id` (and maybe `finished_at`); `namesOf(game)`: its seats'
// names. The entries come back with `names`, and `scores`, `winners`, `finished_at` when known.
export async function withResults(games, namesOf) {
  const listed = games.map((g) => ({ ...g, names: namesOf(g) }));
  if (!listed.length) return listed;
  let found = [];
  try { found = await call("GET", `/api/games/results?ids=${listed.map((g) => encodeURIComponent(g.id)).join(",")}`); } catch (_) { /* the names alone */ }
  const byId = new Map(found.map((r) => [r.id, r]));
  return listed.map((g) => ({ ...g, ...(byId.get(g.id) || {}) }));
}

function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  let text;
  try { text = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(date); } catch (_) { text = date.toISOString().slice(0, 16).replace("T", " "); }
  return `<time datetime="${esc(iso)}">${esc(text)}</time>`;
}

export function finishedLine(g) {
  const date = when(g.finished_at);
  if (!g.scores) return `<span class="finished">${date ? `${date} · ` : ""}${g.names.map(nameTag).join(", ")}</span>`;
  const won = new Set(g.winners);
  const players = g.names.map((name, i) => {
    const text = withName(tCount("archive.pointsOne", "archive.points", g.scores[i], { name }), name);
    return won.has(i) ? `<strong>${text}</strong>` : text;
  }).join(", ");
  const winners = g.winners.map((i) => g.names[i]).join(", ");
  return `<span class="finished">${date ? `${date} · ` : ""}${players}<br><span class="winner-note">★ ${esc(t(g.winners.length > 1 ? "score.winners" : "score.winner", { names: winners }))}</span></span>`;
}
