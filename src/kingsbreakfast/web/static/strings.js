// Every player-facing string of the browser client, keyed by message id.
//
// Lookup: t(id, params) reads CATALOGS[current language][id], falls back to English, then
// to the id itself; "{name}" placeholders are replaced from params. Server errors are looked
// up as "error.<code>" with the error's params, and fall back to the server's English message.
// To add a language, add a catalog with the same keys to CATALOGS (or call addCatalog from
// a generated module); the language picker lists every catalog and remembers the choice.

export const CATALOGS = {
  en: {
    "language.name": "English",
    "app.title": "King's Breakfast",
    "app.tagline": "Play King's Breakfast with friends in the browser; bots fill the empty seats.",
    "app.language": "Language",
    "lobby.create": "Create a table",
    "lobby.yourName": "Your name",
    "lobby.seats": "Seats",
    "lobby.botLevel": "Bots in empty seats",
    "lobby.clock": "Turn clock (seconds, empty for none)",
    "lobby.public": "List this table publicly",
    "lobby.variantEmptyTable": "Empty table (R5a)",
    "lobby.variantDragonMin": "Dragons needed on the table to feed (R8)",
    "lobby.createButton": "Create table",
    "lobby.publicTables": "Open tables",
    "lobby.noTables": "No public table right now. Create one!",
    "lobby.join": "Join",
    "lobby.watch": "Watch",
    "lobby.archive": "Finished games",
    "lobby.replay": "Replay",
    "lobby.seatsTaken": "{taken}/{total} seats",
    "level.random": "random",
    "level.easy": "easy",
    "level.medium": "medium",
    "level.hard": "hard",
    "level.expert": "expert",
    "variant.draw_or_feed": "draw or feed (ruling)",
    "variant.must_draw": "must draw (word for word)",
    "status.lobby": "waiting",
    "status.playing": "in play",
    "status.over": "over",
    "wait.title": "Waiting for players",
    "wait.invite": "Invite link: share it with your friends",
    "wait.copy": "Copy link",
    "wait.copied": "Link copied",
    "wait.start": "Start the game",
    "wait.onlyHost": "The host starts the game when everyone is here.",
    "wait.joinTitle": "Join this table",
    "wait.joinButton": "Take a seat",
    "wait.full": "Every seat is taken; you are watching.",
    "wait.leave": "Leave the table",
    "seat.open": "open seat",
    "seat.bot": "Bot {seat} ({level})",
    "seat.you": "you",
    "seat.host": "host",
    "seat.away": "away",
    "seat.zombie": "away — a bot plays for them",
    "seat.label": "Seat {seat}",
    "game.round": "Round {round}",
    "game.cook": "Cook: {name}",
    "game.cookTag": "cook",
    "game.deck": "Deck: {count} cards",
    "game.toMove": "{name} to move",
    "game.yourTurn": "Your turn",
    "game.spectating": "You are watching",
    "game.clock": "{seconds} s left",
    "game.king": "The king's plate",
    "game.table": "The table",
    "game.dragons": "Dragons: {count}",
    "game.removed": "Out of the game: {count}",
    "game.yourHand": "Your hand",
    "game.public": "taken (everyone sees)",
    "game.private": "drawn (only you see)",
    "game.hiddenCount": "{count} drawn cards",
    "game.others": "Players",
    "game.log": "Game log",
    "game.draw": "Draw a card",
    "game.feed": "Feed the dragon",
    "game.pass": "Pass",
    "game.pickTwo": "Pick two of the king's dishes for the dragon ({picked}/2)",
    "game.cancel": "Cancel",
    "game.take": "Take {dish}",
    "game.stackLabel": "{dish}: {count} on the table",
    "game.kingLabel": "{dish}: the king has {count}",
    "game.connected": "connected",
    "game.reconnecting": "reconnecting…",
    "game.dragonTitle": "You drew a dragon!",
    "game.dragonText": "Use it now (it eats two of the king's dishes) or place it on the table.",
    "game.dragonUse": "Use it: pick two dishes",
    "game.dragonPlace": "Place it on the table",
    "game.keys": "Keys: 1–7 take a dish, D draw, F feed, P pass, Esc cancel",
    "game.cards": "{count} cards",
    "log.take": "{name} took {dish}",
    "log.draw": "{name} drew a card",
    "log.place_dragon": "{name} placed a dragon on the table",
    "log.feed": "{name} fed the dragon {a} and {b}",
    "log.pass": "{name} passed",
    "score.title": "Final score",
    "score.winner": "Winner: {names}",
    "score.winners": "Shared win: {names}",
    "score.player": "Player",
    "score.points": "Points",
    "score.discarded": "Discarded",
    "score.cell": "{held}×{king}={points}",
    "score.cellDiscarded": "{held} discarded",
    "score.replay": "Replay this game",
    "score.record": "Download the record",
    "replay.title": "Replay",
    "replay.step": "Step {step} of {steps}",
    "replay.first": "First",
    "replay.prev": "Back",
    "replay.next": "Forward",
    "replay.last": "Last",
    "replay.back": "Back to the lobby",
    "dish.bread": "bread",
    "dish.cheese": "cheese",
    "dish.ham": "ham",
    "dish.chicken": "chicken",
    "dish.fruit": "fruit",
    "dish.cake": "cake",
    "dish.wine": "wine",
    "dish.dragon": "dragon",
    "error.generic": "Something went wrong: {message}",
    "error.network": "The server cannot be reached.",
    "error.stale_version": "The game moved on before your move arrived; here is the new state.",
    "error.not_your_turn": "It is not your turn.",
    "error.game_over": "The game is over.",
    "error.spectator": "Spectators cannot play.",
    "error.rate_limited": "Too many messages: slow down.",
    "error.bad_token": "Your seat is no longer yours (you left, or the link is old).",
    "error.no_table": "There is no such table.",
    "error.table_full": "Every seat at this table is taken.",
    "error.not_host": "Only the host may start the game.",
    "error.bad_name": "Please give a name of 1 to 32 characters.",
    "error.not_over": "The record is shown once the game is over.",
    "error.storage_unavailable": "The move could not be saved; try again in a moment.",
  },
};

const STORE_KEY = "kingsbreakfast.language";
let current = "en";
const listeners = new Set();

export function addCatalog(lang, catalog) {
  CATALOGS[lang] = { ...(CATALOGS[lang] || {}), ...catalog };
}

export function languages() {
  return Object.keys(CATALOGS).map((code) => ({ code, name: CATALOGS[code]["language.name"] || code }));
}

export function language() {
  return current;
}

export function setLanguage(lang) {
  if (!CATALOGS[lang]) return;
  current = lang;
  try { localStorage.setItem(STORE_KEY, lang); } catch (_) { /* private mode */ }
  document.documentElement.lang = lang;
  for (const fn of listeners) fn(lang);
}

export function onLanguageChange(fn) {
  listeners.add(fn);
}

export function initLanguage() {
  let wanted = null;
  try { wanted = localStorage.getItem(STORE_KEY); } catch (_) { /* private mode */ }
  if (!wanted) wanted = (navigator.language || "en").slice(0, 2);
  current = CATALOGS[wanted] ? wanted : "en";
  document.documentElement.lang = current;
}

export function has(id) {
  return id in (CATALOGS[current] || {}) || id in CATALOGS.en;
}

export function t(id, params = {}) {
  const text = (CATALOGS[current] && CATALOGS[current][id]) ?? CATALOGS.en[id] ?? id;
  return text.replace(/\{(\w+)\}/g, (all, key) => (key in params ? String(params[key]) : all));
}

// A server error frame or HTTP error body: {code, message, params}.
export function errorText(error) {
  const id = "error." + error.code;
  if (has(id)) return t(id, error.params || {});
  return t("error.generic", { message: error.message || error.code });
}

export function dishName(dish) {
  return t("dish." + dish);
}
