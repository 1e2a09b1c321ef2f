// The King's Breakfast browser client: lobby, table, score screen and replay viewer.
// It speaks only the server's wire protocol (docs/server.md) and never sees another seat's
// drawn cards: it renders the view the server built for its seat.
import { t, tCount, errorText, dishName, languages, language, setLanguage, initLanguage, onLanguageChange } from "./strings.js";
import { DISHES, cardHtml } from "./cards.js";
import { extraFrame, leaveTable } from "./seats.js";
import { redrawKeepingFocus, focusOn } from "./focus.js";
import { shortcutsOn, setShortcuts, pref, setPref, THEMES, applyTheme, setTheme } from "./prefs.js";
import { RoundWitness } from "./tablelog.js";
import { motionFor, animate } from "./motion.js";
import { turnCue, clearTurnCue, askToNotify } from "./turncue.js";
import { displayName } from "./names.js";
import { csrfToken, initAccount, accountNav, wireNav, routeAccount, onAccountChange, account, seatName as seatKindName } from "./pages.js";
import { routeTournaments } from "./tournaments.js";
import { finishedLine, withResults } from "./results.js";
import { ChatPanel, mutedNames } from "./chat.js";
import { confirmLeave, closeLeave } from "./leave.js";
import { timeLeft, durationText } from "./clock.js";
import { handScore, wholeHand, lastRound } from "./reckoning.js";
import { hintTable } from "./hint.js";
import { ReviewPage } from "./review.js";
import { LessonPage } from "./learn.js";
import { Heartbeat } from "./heartbeat.js";
import { renderNotFound, sayOffline, watchConnection } from "./notices.js";
import { TvPage } from "./tv.js";
import { nameTag, watchRatings } from "./people.js";

const app = document.getElementById("app");
const LOCK = '<svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true"><rect x="3" y="7" width="10" height="8" rx="1.5" fill="currentColor"/><path d="M5 7V5a3 3 0 0 1 6 0v2" stroke="currentColor" stroke-width="2" fill="none"/></svg>';
const live = document.getElementById("live");

// ---- small helpers -----------------------------------------------------------------------
function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function announce(text) {
  live.textContent = "";
  setTimeout(() => { live.textContent = text; }, 30);
}

// Seat credentials live in HttpOnly cookies the server sets (no script can read them); a
// token an older version left in localStorage is removed, never used.
function tokenKey(tableId) { return "kingsbreakfast.token." + tableId; }
function savedToken(tableId) { try { localStorage.removeItem(tokenKey(tableId)); } catch (_) { /* private mode */ } return null; }
function saveToken(_tableId, _token) { /* the server's cookie holds it */ }
function forgetToken(tableId) { savedToken(tableId); }
function savedName() { try { return localStorage.getItem("kingsbreakfast.name") || ""; } catch (_) { return ""; } }
function saveName(name) { try { localStorage.setItem("kingsbreakfast.name", name); } catch (_) { /* private mode */ } }

async function api(method, path, body = null, token = null) {
  const headers = { "content-type": "application/json" };
  if (token) headers["x-seat-token"] = token;
  if (method !== "GET") headers["x-csrf-token"] = csrfToken();
  let reply;
  try {
    reply = await fetch(path, { method, headers, body: body === null ? undefined : JSON.stringify(body) });
  } catch (_) {
    throw { code: "network", message: t("error.network"), params: {} };
  }
  if (reply.status === 204) return null;
  const data = await reply.json().catch(() => ({}));
  if (!reply.ok) {
    if (data.error) throw data.error;
    const detail = Array.isArray(data.detail) && data.detail[0] ? data.detail[0].msg : reply.statusText;
    throw { code: "http_" + reply.status, message: detail, params: {} };
  }
  return data;
}

function navigate(path) {
  history.pushState(null, "", path);
  route();
}

// ---- header: title and language picker ---------------------------------------------------
function renderHeader() {
  const header = document.getElementById("header");
  redrawKeepingFocus(header, () => drawHeader(header), "#lang");
}

function drawHeader(header) {
  const options = languages().map((l) => `<option value="${l.code}" ${l.code === language() ? "selected" : ""}>${esc(l.name)}</option>`).join("");
  header.innerHTML = `<a href="/" class="brand" data-link>${cardHtml("dragon", "", null, "mini")}<span>${esc(t("app.title"))}</span></a>
    <a href="/rules" class="rules-link" id="rules-link">${esc(t("app.rules"))}</a>
    <label class="lang"><span class="lang-label">${esc(t("app.language"))}</span> <select id="lang">${options}</select></label>
    <label class="theme"><span class="lang-label">${esc(t("theme.label"))}</span> <select id="theme">${THEMES.map((k) => `<option value="${k}" ${k === pref("theme") ? "selected" : ""}>${esc(t("theme." + k))}</option>`).join("")}</select></label>${accountNav()}`;
  wireNav(header, navigate);
  header.querySelector("#rules-link").addEventListener("click", (e) => { e.preventDefault(); navigate("/rules"); });
  header.querySelector("#lang").addEventListener("change", (e) => setLanguage(e.target.value));
  header.querySelector("#theme").addEventListener("change", (e) => setTheme(e.target.value));
  header.querySelector("[data-link]").addEventListener("click", (e) => { e.preventDefault(); navigate("/"); });
}

// ---- routing -----------------------------------------------------------------------------
let session = null; // the live table session, if any
let notice = "";     // what the lobby says first, once (after leaving a game)
// how long play now waits for strangers (seconds): the page says it (else asked once)
let playWait = (() => { try { return JSON.parse(document.getElementById("boot").textContent).play_now_wait ?? null; } catch (_) { return null; } })();

// The tab's title names the page and the game, and the description says what the site is,
// both in the player's language (the server writes them into the page for the first load).
function nameThePage() {
  const path = location.pathname;
  const page = /^\/t\//.test(path) ? "game.titleTable" : /^\/replay\//.test(path) ? "replay.title" : /^\/review\//.test(path) ? "review.pageTitle" : path === "/rules" ? "app.rules" : path === "/learn" ? "learn.title" : null;
  document.title = page ? `${t(page)} · ${t("app.title")}` : t("app.title");
  document.querySelector('meta[name="description"]')?.setAttribute("content", t("app.description"));
}

function route() {
  if (session) { session.stop(); session = null; }
  const path = location.pathname;
  nameThePage();
  renderHeader();
  let m = path.match(/^\/t\/([\w-]+)$/);
  if (m) { session = new TableSession(m[1]); return; }
  m = path.match(/^\/replay\/([\w-]+)$/);
  if (m) { session = new ReplayViewer(m[1]); return; }
  m = path.match(/^\/review\/([\w-]+)$/);  // a finished game's review (review.js)
  if (m) { session = new ReviewPage(app, m[1], Number(new URLSearchParams(location.search).get("seat")) || 0, navigate); return; }
  if (path === "/rules") { renderRules(); return; }
  if (path === "/learn") { session = new LessonPage(app, navigate); return; }
  if (path === "/tv") { session = new TvPage(app, navigate); return; }
  if (routeAccount(path, app, navigate)) return;
  if (routeTournaments(path, app, navigate)) return;
  if (path !== "/") { renderNotFound(app, navigate); return; }  // the server answered 404
  renderLobby();
}
// the lobby says when it is offline, and fills its lists again when the connection is back
watchConnection(() => { if (location.pathname === "/" && !session) renderLobby(); });
watchRatings(app);  // each account's rating beside its name, on every page (people.js)
onAccountChange(() => renderHeader());

// ---- the rules, written for each language (served as HTML made from our own text) ---------
async function renderRules() {
  app.innerHTML = `<section class="panel rules" aria-live="polite"><p>…</p></section>`;
  try {
    const page = await api("GET", "/api/rules/" + language());
    app.innerHTML = `<section class="panel rules" lang="${esc(page.language)}">${page.html}</section>`;
  } catch (error) {
    app.innerHTML = `<section class="panel rules"><p class="error" role="alert">${esc(errorText(error))}</p></section>`;
  }
}

window.addEventListener("popstate", route);
onLanguageChange(() => {
  nameThePage();
  renderHeader();
  if (session) { session.render(); session.chat?.render(); }
  else if (location.pathname === "/rules") renderRules();
  else if (!routeAccount(location.pathname, app, navigate)
           && !routeTournaments(location.pathname, app, navigate)) renderLobby();
});

// ---- lobby -------------------------------------------------------------------------------
async function renderLobby() {
  const levels = ["random", "easy", "medium", "hard", "expert", "master"];
  const me = account();  // an account plays under its own name: the form asks none
  const said = notice;
  notice = "";
  app.innerHTML = `${said ? `<p class="panel notice" role="status" id="notice">${esc(said)}</p>` : ""}${navigator.onLine ? "" : `<p class="panel notice offline" role="status" id="offline">${esc(t("lobby.offline"))}</p>`}<section class="panel play-now" aria-labelledby="play-title">
      <h2 id="play-title">${esc(t("play.title"))}</h2>
      <p id="play-text">${playWait === null ? "" : esc(t("play.text", { time: durationText(playWait) }))}</p>
      <form id="play-now" class="form inline">
        ${me ? "" : `<label>${esc(t("lobby.yourName"))} <input name="player" required maxlength="32" autocomplete="nickname" value="${esc(savedName())}"></label>`}
        <label>${esc(t("lobby.seats"))} <select name="size"><option>3</option><option selected>4</option><option>5</option></select></label>
        <label>${esc(t("play.speed"))} <select name="speed"><option value="live">${esc(t("play.live"))}</option><option value="turn">${esc(t("play.turn"))}</option></select></label>
        <button type="submit" class="primary">${esc(t("play.button"))}</button>
        <p class="error" role="alert" id="play-error"></p>
      </form>
    </section><section class="panel learn-entry" aria-labelledby="learn-title">
      <h2 id="learn-title">${esc(t("learn.title"))}</h2>
      <p>${esc(t("learn.invite"))}</p>
      <a href="/learn" class="button" id="learn-link" data-link>${esc(t("learn.start"))}</a>
    </section><section class="panel lobby-create">
      <h1>${esc(t("lobby.create"))}</h1>
      <p class="tagline">${esc(t("app.tagline"))}</p>
      <form id="create" class="form">
        ${me ? `<p class="playing-as">${esc(t("lobby.playingAs", { name: me.name }))}</p>` : `<label>${esc(t("lobby.yourName"))} <input name="name" required maxlength="32" autocomplete="nickname" value="${esc(savedName())}"></label>`}
        <label>${esc(t("lobby.seats"))} <select name="seats"><option>3</option><option selected>4</option><option>5</option></select></label>
        <label>${esc(t("lobby.botLevel"))} <select name="bot_level">${levels.map((l) => `<option value="${l}" ${l === "easy" ? "selected" : ""}>${esc(t("level." + l))}</option>`).join("")}</select></label>
        <label>${esc(t("lobby.clock"))} <input name="clock" type="number" min="5" max="3600" inputmode="numeric"></label>
        <label>${esc(t("lobby.turnBased"))} <select name="turn_clock"><option value="">${esc(t("lobby.turnNone"))}</option>${[["h1", 3600], ["h12", 43200], ["d1", 86400], ["d3", 259200], ["d7", 604800]].map(([k, s]) => `<option value="${s}">${esc(t("clock." + k))}</option>`).join("")}</select></label>
        <label>${esc(t("lobby.variantEmptyTable"))} <select name="empty_table"><option value="draw_or_feed">${esc(t("variant.draw_or_feed"))}</option><option value="must_draw">${esc(t("variant.must_draw"))}</option></select></label>
        <label>${esc(t("lobby.variantDragonMin"))} <select name="dragon_min"><option>1</option><option>2</option></select></label>
        <label class="check"><input type="checkbox" name="public" checked> ${esc(t("lobby.public"))}</label>
        <button type="submit" class="primary">${esc(t("lobby.createButton"))}</button>
        <p class="error" role="alert" id="create-error"></p>
      </form>
    </section>
    <section class="panel"><h2>${esc(t("lobby.publicTables"))}</h2><ul id="tables" class="table-list"></ul></section>
    <section class="panel"><h2>${esc(t("lobby.archive"))}</h2><ul id="archive" class="table-list"></ul></section>`;
  app.querySelector("#learn-link").addEventListener("click", (e) => { e.preventDefault(); navigate("/learn"); });
  app.querySelector("#play-now").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const name = me ? me.name : f.get("player");
    if (!me) saveName(name);
    try {
      const seat = await api("POST", "/api/play-now", { name, seats: Number(f.get("size")), speed: f.get("speed"), avoid: mutedNames() });
      navigate(seat.invite);
    } catch (err) {
      app.querySelector("#play-error").textContent = errorText(err);
    }
  });
  if (playWait === null) {  // the wait is said before anyone asks
    api("GET", "/api/play-now").then((plan) => {
      playWait = plan.wait_seconds;
      const text = app.querySelector("#play-text");
      if (text) text.textContent = t("play.text", { time: durationText(playWait) });
    }).catch(() => { /* said after the click instead */ });
  }
  app.querySelector("#create").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const clock = f.get("turn_clock") ? Number(f.get("turn_clock")) : f.get("clock") ? Number(f.get("clock")) : null;
    const name = me ? me.name : f.get("name");
    if (!me) saveName(name);
    try {
      const grant = await api("POST", "/api/tables", {
        name, seats: Number(f.get("seats")), bot_level: f.get("bot_level"),
        clock_seconds: clock, public: f.get("public") === "on",
        rules: { empty_table: f.get("empty_table"), dragon_min_on_table: Number(f.get("dragon_min")) },
      });
      saveToken(grant.table.id, grant.token);
      navigate(grant.invite);
    } catch (err) {
      app.querySelector("#create-error").textContent = errorText(err);
    }
  });
  try {
    // both lists at once: neither waits on the other
    const [tables, games] = await Promise.all([api("GET", "/api/tables"), api("GET", "/api/archive")]);
    const list = app.querySelector("#tables");
    if (!list) return;
    list.innerHTML = tables.length ? tables.map((tb) => {
      const taken = tb.seats.filter((s) => s.kind !== "open").length;
      const label = tb.status === "lobby" && taken < tb.num_seats ? t("lobby.join") : t("lobby.watch");
      const names = tb.seats.filter((s) => s.kind === "human").map((s) => nameTag(s.name)).join(", ");
      return `<li><span>${names} · ${esc(t("lobby.seatsTaken", { taken, total: tb.num_seats }))} · ${esc(t("status." + tb.status))}</span>
        <a href="/t/${esc(tb.id)}" class="button" data-link>${esc(label)}</a></li>`;
    }).join("") : `<li class="muted">${esc(t("lobby.noTables"))}</li>`;
    const archive = app.querySelector("#archive");
    if (!archive) return;
    const namesOf = (g) => (g.seats ? g.seats.map((s, i) => seatKindName(s, i)) : g.players.map(displayName));
    // the review opens on the seat this player held, if they played (else the first seat)
    const mySeat = (g) => {
      const mine = me ? me.name : savedName();
      const seat = (g.seats || []).findIndex((s) => s.kind === "human" && s.name === mine);
      return seat < 0 ? 0 : seat;
    };
    const drawArchive = (ended) => {
      archive.innerHTML = ended.length === 0 ? `<li class="muted">${esc(t("lobby.noArchive"))}</li>` : ended.map((g) => `<li>${finishedLine(g)}<span class="row"><a href="/replay/${esc(g.id)}" class="button" data-link>${esc(t("lobby.replay"))}</a><a href="/review/${esc(g.id)}?seat=${mySeat(g)}" class="button" data-link>${esc(t("lobby.review"))}</a></span></li>`).join("");
      archive.querySelectorAll("[data-link]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); navigate(a.getAttribute("href")); }));
    };
    // the players at once; the points and winners as soon as the results arrive
    drawArchive(games.map((g) => ({ ...g, names: namesOf(g) })));
    list.querySelectorAll("[data-link]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); navigate(a.getAttribute("href")); }));
    if (games.length) {
      const ended = await withResults(games, namesOf);
      if (app.querySelector("#archive") === archive) drawArchive(ended);
    }
  } catch (error) {  // the lists are a convenience, but a lobby without a connection says so
    if (error && error.code === "network" && location.pathname === "/") sayOffline(app);
  }
}

// ---- a live table ------------------------------------------------------------------------
class TableSession {
  constructor(tableId) {
    this.id = tableId;
    this.token = savedToken(tableId);
    this.frame = null;      // the last state frame
    this.error = "";        // the last refusal, shown until the next state
    this.feedPicks = null;  // dishes picked on the king's plate for a feed, or null
    this.dragonChoice = false;
    this.closed = false;
    this.retry = 0;
    this.witness = new RoundWitness();  // round ends, deals and bot moves seen by this page
    this.motion = [];                   // card movements for the next drawing
    this.tick = setInterval(() => this.renderClock(), 500);
    this.keys = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keys);
    this.chat = new ChatPanel(tableId);
    this.rematch = null;    // the last rematch frame: who said yes to playing again
    this.match = null;      // a play-now table's wait: {table, deadline_ms}, or null
    api("GET", `/api/play-now/tables/${encodeURIComponent(tableId)}`).then((m) => { if (m) { this.match = m; this.render(); } }).catch(() => { /* said by the table itself */ });
    this.connect();
    this.render();
  }

  // A rated table (two accounts or more seated) gives no hints: the page asks once a game
  // runs, and again when the seated players change, so it neither offers the Hint button
  // there nor leaves the players unaware that the game counts.
  askRated(frame) {
    if (frame.table.status !== "playing" || frame.you === null) return;
    const who = frame.table.seats.map((s) => (s.kind === "human" ? s.name : "")).join("\n");
    if (who === this.ratedFor) return;
    this.ratedFor = who;
    api("GET", `/api/tables/${encodeURIComponent(this.id)}/leaving`).then((answer) => {
      if (this.rated !== answer.rated) { this.rated = answer.rated; this.render(); }
    }).catch(() => { /* the hint's refusal says it instead */ });
  }

  stop() {
    this.chat.stop();
    closeLeave();
    this.closed = true;
    leaveTable();
    clearTurnCue();
    clearInterval(this.tick);
    document.removeEventListener("keydown", this.keys);
    if (this.heartbeat) this.heartbeat.stop();
    if (this.ws) this.ws.close();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${this.id}`);
    this.ws = ws;
    this.connected = false;
    if (this.heartbeat) this.heartbeat.stop();
    // a silent socket (its process froze) is given up, and the table found again at once
    this.heartbeat = new Heartbeat(ws, () => {
      this.ws = null;
      ws.onclose = null;
      ws.onmessage = null;
      ws.close();
      this.connected = false;
      this.render();
      if (!this.closed) this.connect();
    });
    // a token the server refused stays in its cookie: it is not asked for again (a declined
    // request for a seat would otherwise be refused on every reconnection)
    ws.onopen = () => { ws.send(JSON.stringify({ type: "hello", token: this.token, cookie: !this.deadCookie })); };
    ws.onmessage = (event) => { this.heartbeat.heardFrom(); this.onFrame(JSON.parse(event.data)); };
    ws.onclose = (event) => {
      this.heartbeat.stop();
      this.connected = false;
      if (this.closed) return;
      if (event.code === 4003 || event.code === 4001 || event.code === 4002) { // our token is no longer valid
        forgetToken(this.id);
        this.token = null;
        this.deadCookie = true;
      }
      if (event.code === 4004) { this.fatal = t("error.no_table"); this.render(); return; }
      this.render();
      const delay = this.quick ? 0 : 250 * 2 ** this.retry;
      this.quick = false;
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => { if (!this.closed) this.connect(); }, delay);
    };
  }

  onFrame(frame) {
    if (extraFrame(this, frame)) return;
    if (frame.type === "state") {
      this.connected = true;
      this.retry = 0;
      const before = this.frame;
      this.frame = frame;
      const view = frame.view;
      if (!view || view.to_move !== frame.you) { this.feedPicks = null; this.dragonChoice = false; }
      if (view && view.to_move === frame.you && view.pending_dragon && !this.feedPicks) this.dragonChoice = true;
      const beforeView = before && before.view;
      const news = this.witness.observe(beforeView, view, frame.table.seats);
      // a player who left, or a newcomer who took a left seat: a line in the log, said aloud
      // (frames to watchers may skip ahead: the next one seen can already be the game's end)
      const seated = before && before.table.status === "playing" && frame.table.status !== "lobby" ? this.witness.seatsChanged(before.table.seats, frame.table.seats, view ? view.history.length : 0) : [];
      for (const line of seated) announce(line);
      this.motion = motionFor(beforeView, view);
      if (before && view && before.version !== frame.version) {
        const last = view.history[view.history.length - 1];
        if (last) announce([this.logLine(last), ...news].join(" "));
      }
      const turnBegins = view && view.to_move === frame.you && (!before || !before.view || before.view.to_move !== frame.you);
      if (turnBegins) announce(t("game.yourTurn"));
      turnCue(!!(view && view.to_move === frame.you && frame.you !== null), !!turnBegins);
      this.chat.seats(frame.you, frame.table.seats.map((s, i) => (s.kind === "human" ? this.seatName(i) : null)));
      this.askRated(frame);
      this.render();
      // at the start of a turn the keyboard goes to the status line, which says what to do;
      // not while the player is typing elsewhere or a dialog holds focus
      const active = document.activeElement;
      const busy = active && (active.closest("header, dialog, .chat") || ["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName));
      if (turnBegins && !busy) focusOn(app, "#turn");
    } else if (frame.type === "chat") {
      this.chat.onFrame(frame);
    } else if (frame.type === "rematch") {
      this.rematch = frame;
      this.render();
    } else if (frame.type === "error") {
      this.error = errorText(frame);
      announce(this.error);
      if (frame.code === "bad_token") { forgetToken(this.id); this.token = null; }
      this.renderError();
    }
  }

  send(action) {
    if (!this.frame || !this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.error = "";
    this.ws.send(JSON.stringify({ type: "act", version: this.frame.version, action }));
  }

  legal() { return new Set((this.frame && this.frame.view && this.frame.view.legal) || []); }
  myTurn() { const f = this.frame; return !!(f && f.view && f.you !== null && f.view.to_move === f.you); }

  seatName(seat) {
    const s = this.frame.table.seats[seat];
    if (s.kind === "human") return displayName(s.name);
    // a seat its player left during the game is played by a bot until the end, named after
    // the player who left it (the server keeps their name on the open seat)
    if (s.kind === "open" && s.name && this.frame.view) return t("seat.botWas", { name: displayName(s.name) });
    if (s.kind === "bot" || this.frame.view) return t("seat.bot", { seat: seat + 1, level: t("level." + this.frame.table.bot_level) });
    return t("seat.open");
  }

  logLine(entry) {
    const name = this.seatName(entry.seat);
    if (entry.type === "take") return t("log.take", { name, dish: dishName(entry.dish) });
    if (entry.type === "feed") return t("log.feed", { name, a: dishName(entry.dishes[0]), b: dishName(entry.dishes[1]) });
    return t("log." + entry.type, { name });
  }

  // -- input -------------------------------------------------------------------------------
  take(dish) { if (this.myTurn() && this.legal().has("take " + dish)) this.send({ type: "take", dish }); }
  draw() { if (this.myTurn() && this.legal().has("draw")) this.send({ type: "draw" }); }
  pass() { if (this.myTurn() && this.legal().has("pass")) this.send({ type: "pass" }); }
  placeDragon() { this.dragonChoice = false; if (this.legal().has("place_dragon")) this.send({ type: "place_dragon" }); }

  startFeed() {
    if (!this.myTurn() || ![...this.legal()].some((a) => a.startsWith("feed"))) return;
    this.dragonChoice = false;
    this.feedPicks = [];
    this.render();
    const first = app.querySelector(".king .pickable");
    if (first) first.focus();
  }

  cancelFeed() {
    this.feedPicks = null;
    if (this.myTurn() && this.frame.view.pending_dragon) this.dragonChoice = true;
    this.render();
  }

  pick(dish) {
    if (!this.feedPicks) return;
    this.feedPicks.push(dish);
    if (this.feedPicks.length === 2) {
      const [a, b] = [...this.feedPicks].sort((x, y) => DISHES.indexOf(x) - DISHES.indexOf(y));
      this.feedPicks = null;
      this.send({ type: "feed", dishes: [a, b] });
    }
    this.render();
    // after the first pick the keyboard stays in the picker, on the next dish it may take
    const picked = app.querySelector(`.king [data-pick="${dish}"]`);
    if (this.feedPicks && !(picked && picked === document.activeElement)) app.querySelector(".king .pickable")?.focus();
  }

  // which king dishes may still be picked for a feed
  pickable(dish) {
    if (!this.feedPicks) return false;
    const feeds = [...this.legal()].filter((a) => a.startsWith("feed ")).map((a) => a.split(" ").slice(1));
    if (this.feedPicks.length === 0) return feeds.some((p) => p.includes(dish));
    const first = this.feedPicks[0];
    return feeds.some((p) => (p[0] === first && p[1] === dish) || (p[1] === first && p[0] === dish));
  }

  onKey(e) {
    if (!shortcutsOn() || e.ctrlKey || e.metaKey || e.altKey) return;  // WCAG 2.1.4: they can be switched off
    if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (!this.frame || !this.frame.view) return;
    const k = e.key.toLowerCase();
    if (k >= "1" && k <= "7") {
      const dish = DISHES[Number(k) - 1];
      if (this.feedPicks) { if (this.pickable(dish)) this.pick(dish); } else this.take(dish);
    } else if (k === "d") this.draw();
    else if (k === "f") this.startFeed();
    else if (k === "p") { if (this.dragonChoice) this.placeDragon(); else this.pass(); }
    else if (k === "escape" && this.feedPicks) this.cancelFeed();
  }

  // -- drawing the page --------------------------------------------------------------------
  render() {
    redrawKeepingFocus(app, () => this.paint(), "#turn, h1");
    // a new screen (the waiting room after "Create table", the game after the deal): the
    // keyboard starts at its heading instead of falling back to the page body
    const active = document.activeElement;
    if (!active || active === document.body) focusOn(app, "#turn, h1");
  }

  paint() {
    if (this.fatal) { app.innerHTML = `<section class="panel"><p class="error">${esc(this.fatal)}</p></section>`; return; }
    const f = this.frame;
    if (!f) { app.innerHTML = `<section class="panel"><p class="muted">${esc(t("game.reconnecting"))}</p></section>`; return; }
    if (f.table.status === "lobby") this.renderWaiting();
    else this.renderGame();
  }

  renderError() {
    const box = app.querySelector("#refusal");
    if (box) box.textContent = this.error;
  }

  renderWaiting() {
    const f = this.frame;
    const isHost = f.you !== null && f.table.host === f.you;
    const invite = `${location.origin}/t/${this.id}`;
    const seats = f.table.seats.map((s, i) => {
      const marks = [];
      if (i === f.you) marks.push(t("seat.you"));
      if (i === f.table.host) marks.push(t("seat.host"));
      const name = s.kind === "human" ? nameTag(s.name) : `<span class="muted">${esc(t("seat.open"))}</span>`;
      return `<li>${esc(t("seat.label", { seat: i + 1 }))}: ${name} ${marks.length ? `<em>(${esc(marks.join(", "))})</em>` : ""}</li>`;
    }).join("");
    const free = f.table.seats.some((s) => s.kind === "open");
    const me = account();  // an account sits under its own name: the form asks none
    const nameField = me ? `<p class="playing-as">${esc(t("lobby.playingAs", { name: me.name }))}</p>` : `<label>${esc(t("lobby.yourName"))} <input name="name" required maxlength="32" value="${esc(savedName())}"></label>`;
    const join = f.you === null ? (free ? `<form id="join" class="form inline">${nameField}<button class="primary" type="submit">${esc(t("wait.joinButton"))}</button></form>` : `<p>${esc(t("wait.full"))}</p>`) : "";
    const match = this.match && this.match.table === this.id ? `<div class="matching" id="matching">
        <p role="status"><strong>${esc(t("play.waiting", { players: f.table.seats.filter((s) => s.kind === "human").length, seats: f.table.num_seats }))}</strong></p>
        <p id="match-clock">${esc(t("play.startsBy", { time: durationText((this.match.deadline_ms - Date.now()) / 1000) }))}</p></div>` : "";
    app.innerHTML = `<section class="panel waiting">
      <h1>${esc(t("wait.title"))}</h1>${match}
      <label class="invite">${esc(t("wait.invite"))} <span class="row"><input readonly id="invite" value="${esc(invite)}"><button id="copy" type="button">${esc(t("wait.copy"))}</button></span></label>
      <ol class="seats">${seats}</ol>
      ${join}
      ${isHost ? `<button id="start" class="primary" type="button">${esc(t("wait.start"))}</button>` : match ? "" : `<p class="muted">${esc(t("wait.onlyHost"))}</p>`}
      ${f.you !== null ? `<button id="leave" type="button">${esc(t("wait.leave"))}</button>` : ""}
      <p id="refusal" class="error" role="alert">${esc(this.error)}</p>
    </section>`;
    app.querySelector("#copy").addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(invite); announce(t("wait.copied")); } catch (_) { app.querySelector("#invite").select(); }
    });
    const joinForm = app.querySelector("#join");
    if (joinForm) joinForm.addEventListener("submit", (e) => { e.preventDefault(); this.join(me ? me.name : new FormData(e.target).get("name")); });
    const start = app.querySelector("#start");
    if (start) start.addEventListener("click", () => this.lobbyCall("start"));
    const leave = app.querySelector("#leave");
    if (leave) leave.addEventListener("click", () => this.lobbyCall("leave"));
  }

  async join(name) {
    if (!account()) saveName(name);
    try {
      const grant = await api("POST", `/api/tables/${this.id}/join`, { name });
      saveToken(this.id, grant.token);
      this.token = grant.token;
      this.quick = true;
      if (this.ws) this.ws.close(); // reconnects at once with the new token
    } catch (err) { this.error = errorText(err); this.renderError(); }
  }

  async lobbyCall(what) {
    try {
      await api("POST", `/api/tables/${this.id}/${what}`, null, this.token);
      if (what === "leave") { forgetToken(this.id); this.token = null; navigate("/"); }
    } catch (err) { this.error = errorText(err); this.renderError(); }
  }

  renderClock() {
    const waiting = app.querySelector("#match-clock");
    if (waiting && this.match) {
      const text = t("play.startsBy", { time: durationText(Math.max(0, (this.match.deadline_ms - Date.now()) / 1000)) });
      if (waiting.textContent !== text) waiting.textContent = text;
    }
    const box = app.querySelector("#clock");
    const f = this.frame;
    if (!box || !f || !f.clock) return;
    const text = timeLeft(f.clock.deadline_ms);
    if (box.textContent !== text) box.textContent = text;
  }

  renderGame() {
    const f = this.frame;
    const v = f.view;
    const legal = this.legal();
    const mine = this.myTurn();
    const canTake = (d) => mine && !this.feedPicks && legal.has("take " + d);
    const canFeed = mine && [...legal].some((a) => a.startsWith("feed"));
    const status = v.to_move === null ? t("game.over")
      : mine ? t("game.yourTurn") : t("game.toMove", { name: this.seatName(v.to_move) });

    const tableStacks = DISHES.map((d) => {
      const n = v.table[d];
      const label = t("game.stackLabel", { dish: dishName(d), count: n });
      // the name starts with what the card shows (WCAG 2.5.3: say what you see to press it)
      if (canTake(d)) return `<button class="stack legal" data-take="${d}" aria-label="${esc(t("game.takeStack", { dish: dishName(d), count: n }))}">${cardHtml(d, esc(dishName(d)), n)}</button>`;
      return `<div class="stack ${n ? "" : "empty"}" role="img" aria-label="${esc(label)}">${cardHtml(d, esc(dishName(d)), n)}</div>`;
    }).join("");
    const dragons = `<div class="stack dragons ${v.table_dragons ? "" : "empty"}" role="img" aria-label="${esc(t("game.dragons", { count: v.table_dragons }))}">${cardHtml("dragon", esc(dishName("dragon")), v.table_dragons)}</div>`;

    const kingStacks = DISHES.map((d) => {
      const n = v.king[d];
      const label = t("game.kingLabel", { dish: dishName(d), count: n });
      if (this.pickable(d)) return `<button class="stack legal pickable" data-dish="${d}" data-pick="${d}" aria-label="${esc(t("game.pickKing", { dish: dishName(d), count: n }))}">${cardHtml(d, esc(dishName(d)), n)}</button>`;
      const picked = this.feedPicks && this.feedPicks.includes(d) ? "picked" : "";
      return `<div class="stack ${n ? "" : "empty"} ${picked}" data-dish="${d}" role="img" aria-label="${esc(label)}">${cardHtml(d, esc(dishName(d)), n)}</div>`;
    }).join("");

    const handCards = (counts, cls, over = new Set()) => DISHES.filter((d) => counts && counts[d]).map((d) => cardHtml(d, esc(dishName(d)), counts[d], over.has(d) ? `${cls} over` : cls)).join("");
    let myHand = "";
    if (f.you !== null) {
      const h = v.hands[f.you];
      const whole = wholeHand(h);
      const now = handScore(v.king, whole);
      const over = new Set(now.over);
      // R11 as the terminal says it: the points if the game ended now, and a warning for
      // every dish held more often than the king has it
      const warnings = now.over.map((d) => `<li>${esc(t("game.overDish", { dish: dishName(d), held: whole[d], king: v.king[d] }))}</li>`).join("");
      myHand = `<section class="panel hand" aria-label="${esc(t("game.yourHand"))}">
        <h2>${esc(t("game.yourHand"))}</h2>
        <div class="hand-part"><h3>${esc(t("game.public"))}</h3><div class="cards">${handCards(h.takes, "", over) || "—"}</div></div>
        <div class="hand-part private"><h3>${LOCK} ${esc(t("game.private"))}</h3><div class="cards">${handCards(h.draws, "private", over) || "—"}</div></div>
        <p class="running" id="running">${esc(now.discarded
          ? tCount("game.nowDiscardedOne", "game.nowDiscarded", now.discarded, { points: now.points })
          : tCount("game.nowOne", "game.now", now.points))}</p>
        ${warnings ? `<ul class="over-list">${warnings}</ul>` : ""}
      </section>`;
    }

    const players = v.hands.map((h, i) => {
      const s = f.table.seats[i];
      const marks = [];
      if (i === f.you) marks.push(t("seat.you"));
      if (s.kind === "human" && s.zombie) marks.push(t("seat.zombie"));
      else if (s.kind === "human" && !s.connected) marks.push(t("seat.away"));
      const turn = v.to_move === i ? "to-move" : "";
      const cook = v.cook === i ? `<span class="tag cook">${esc(t("game.cookTag"))}</span>` : "";
      const draws = h.draws ? handCards(h.draws, "private") : "";
      return `<li class="player ${turn}" data-seat="${i}"><div class="player-head">${cook}<strong>${s.kind === "human" ? nameTag(this.seatName(i)) : esc(this.seatName(i))}</strong> ${marks.length ? `<em>${esc(marks.join(", "))}</em>` : ""}</div>
        <div class="cards small">${handCards(h.takes, "") || ""}${draws}</div>
        <div class="muted hidden-count">${esc(tCount("game.hiddenCountOne", "game.hiddenCount", h.hidden))}</div></li>`;
    }).join("");

    const log = this.witness.lines(v, (e) => this.logLine(e)).reverse().slice(0, 60).map((line) => line.round
      ? `<li class="round-line">${esc(line.text)}</li>`
      : `<li value="${line.value}" class="${line.bot ? "by-bot" : ""}">${esc(line.text)}</li>`).join("");

    const actions = mine && !this.feedPicks ? `<div class="actions">
        <button data-act="draw" class="${legal.has("draw") ? "legal" : ""}" ${legal.has("draw") ? "" : "disabled"}>${esc(t("game.draw"))}</button>
        <button data-act="feed" class="${canFeed ? "legal" : ""}" ${canFeed ? "" : "disabled"}>${esc(t("game.feed"))}</button>
        ${legal.has("pass") ? `<button data-act="pass" class="legal">${esc(t("game.pass"))}</button>` : ""}
        ${this.rated ? "" : `<button data-act="hint">${esc(t("game.hint"))}</button>`}
      </div>${this.hintHtml()}` : "";
    const picking = this.feedPicks ? `<div class="actions picking"><span>${esc(t("game.pickTwo", { picked: this.feedPicks.length }))}</span><button data-act="cancel">${esc(t("game.cancel"))}</button></div>` : "";

    app.innerHTML = `<div class="game ${mine ? "my-turn" : ""}">
      <section class="panel status" aria-live="polite">
        <h1 class="turn" id="turn" tabindex="-1">${esc(status)}</h1>
        <span>${esc(t("game.round", { round: v.round }))}</span>
        <span>${esc(t("game.cook", { name: this.seatName(v.cook) }))}</span>
        <span>${esc(tCount("game.deckOne", "game.deck", v.deck))}</span>
        <span id="clock" class="clock"></span>
        ${this.rated ? `<span class="rated-note" id="rated-note">${esc(t("game.rated"))}</span>` : ""}
        <span class="conn ${this.connected ? "ok" : "bad"}">${esc(this.connected ? t("game.connected") : t("game.reconnecting"))}</span>
        ${f.you === null ? `<span class="muted">${esc(t("game.spectating"))}</span>` : ""}
        ${f.you !== null && !f.score ? `<button type="button" id="leave-game" class="leave-game">${esc(t("leave.button"))}</button>` : ""}
      </section>
      ${lastRound(v) ? `<p class="panel last-round" id="last-round"><strong>${esc(t("game.lastRound"))}</strong></p>` : ""}
      <p id="refusal" class="error" role="alert">${esc(this.error)}</p>
      ${f.score ? this.scoreHtml() : ""}
      <div class="main-col">
      <section class="panel king-panel"><h2>${esc(t("game.king"))}</h2><div class="stacks king">${kingStacks}</div>${picking}</section>
      <section class="panel table-panel"><h2>${esc(t("game.table"))}</h2><div class="stacks">${tableStacks}${dragons}</div>${actions}
        ${f.you === null ? "" : this.keysHtml()}</section>
      ${myHand}
      </div>
      <aside class="side-col">
      <section class="panel players"><h2>${esc(t("game.others"))}</h2><ul>${players}</ul>
        <p class="muted">${esc(t("game.removed", { count: v.removed.unseen + v.removed.dragons + Object.values(v.removed.dishes).reduce((a, b) => a + b, 0) }))}</p></section>
      ${f.you === null ? "" : this.prefsHtml()}
      <section class="panel log"><h2>${esc(t("game.log"))}</h2><ol reversed start="${v.history.length}" data-actions="${v.history.length}" data-focus="log" tabindex="0" aria-label="${esc(t("game.log"))}">${log}</ol></section>
      </aside>
    </div>
    ${this.dragonChoice && mine && v.pending_dragon ? this.dragonDialog(canFeed) : ""}`;

    app.querySelector("[data-rematch]")?.addEventListener("click", () => this.askRematch());
    app.querySelector("#leave-game")?.addEventListener("click", (e) => confirmLeave(this.id, () => document.getElementById("leave-game"), () => {
      forgetToken(this.id); this.token = null; notice = t("leave.done"); navigate("/");
    }));
    app.querySelectorAll("[data-take]").forEach((b) => b.addEventListener("click", () => this.take(b.dataset.take)));
    app.querySelectorAll("[data-pick]").forEach((b) => b.addEventListener("click", () => this.pick(b.dataset.pick)));
    app.querySelectorAll("[data-act]").forEach((b) => b.addEventListener("click", () => {
      const what = b.dataset.act;
      if (what === "draw") this.draw();
      else if (what === "feed") this.startFeed();
      else if (what === "pass") this.pass();
      else if (what === "cancel") this.cancelFeed();
      else if (what === "hint") this.showHint();
    }));
    app.querySelector("#shortcuts")?.addEventListener("change", (e) => { setShortcuts(e.target.checked); this.render(); });
    app.querySelector("#pref-sound")?.addEventListener("change", (e) => setPref("sound", e.target.checked));
    app.querySelector("#pref-notify")?.addEventListener("change", async (e) => {
      const wanted = e.target.checked && await askToNotify();
      setPref("notify", wanted);
      if (e.target.checked && !wanted) { this.error = t("game.notifyRefused"); this.renderError(); e.target.checked = false; }
    });
    animate(app, this.motion);
    this.motion = [];
    const dialog = app.querySelector("dialog");
    if (dialog) {
      dialog.showModal();
      dialog.addEventListener("cancel", (e) => e.preventDefault());
      dialog.querySelector("[data-dragon=use]")?.addEventListener("click", () => { dialog.close(); this.startFeed(); });
      dialog.querySelector("[data-dragon=place]").addEventListener("click", () => { dialog.close(); this.placeDragon(); });
    }
    this.renderClock();
  }

  // the turn cues a player may switch on (the tab's title and icon always change)
  prefsHtml() {
    return `<section class="panel prefs-panel"><h2>${esc(t("game.cues"))}</h2><div class="prefs">
      <label><input type="checkbox" id="pref-sound" ${pref("sound") ? "checked" : ""}> ${esc(t("game.sound"))}</label>
      <label><input type="checkbox" id="pref-notify" ${pref("notify") ? "checked" : ""}> ${esc(t("game.notify"))}</label></div></section>`;
  }

  // the shortcut hint, with the switch that turns the single-key shortcuts off (hidden on
  // touch screens by the stylesheet, and never shown to a spectator, who has no moves)
  keysHtml() {
    const on = shortcutsOn();
    return `<div class="keys muted"><label class="check"><input type="checkbox" id="shortcuts" ${on ? "checked" : ""}> ${esc(t("game.shortcuts"))}</label>
      ${on ? `<span>${esc(t("game.keys"))}</span>` : ""}</div>`;
  }

  // -- hint: the master bot's value of each legal move, asked for on our own turn -----------
  async showHint() {
    if (!this.myTurn()) return;
    try {
      this.hint = { version: this.frame.version, rows: await api("POST", `/api/tables/${this.id}/hint`, null, this.token) };
      this.render();
    } catch (err) { this.error = errorText(err); this.renderError(); }
  }

  hintHtml() {
    const hint = this.hint;
    if (!hint || !this.frame || hint.version !== this.frame.version) return "";
    return hintTable(hint.rows, esc);
  }

  dragonDialog(canFeed) {
    return `<dialog class="dragon-dialog" aria-labelledby="dragon-title">
      ${cardHtml("dragon", esc(dishName("dragon")))}
      <h2 id="dragon-title">${esc(t("game.dragonTitle"))}</h2>
      <p>${esc(t("game.dragonText"))}</p>
      <div class="actions">
        ${canFeed ? `<button data-dragon="use" class="legal">${esc(t("game.dragonUse"))}</button>` : ""}
        <button data-dragon="place" class="legal">${esc(t("game.dragonPlace"))}</button>
      </div></dialog>`;
  }

  scoreHtml() {
    return scoreTable(this.frame.score, (i) => this.seatName(i), `<p class="row"><a class="button" href="/replay/${esc(this.id)}" data-replay>${esc(t("score.replay"))}</a>
      <a class="button" href="/games/${esc(this.id)}/record" download="kingsbreakfast-${esc(this.id)}.json">${esc(t("score.record"))}</a>
      ${this.frame.you !== null ? `<a class="button" href="/review/${esc(this.id)}?seat=${this.frame.you}" data-replay>${esc(t("score.review"))}</a>` : ""}
      ${this.frame.you !== null ? `<button type="button" class="primary" data-rematch>${esc(t("rematch.button"))}</button>` : ""}</p>
      ${this.rematch ? `<p class="rematch-votes">${esc(t("rematch.votes", { votes: this.rematch.votes.length, needed: this.rematch.needed.length }))} <a class="button" href="/t/${esc(this.rematch.table)}" data-replay>${esc(t("rematch.go"))}</a></p>` : ""}`);
  }

  async askRematch() {
    try {
      const again = await api("POST", `/api/tables/${this.id}/rematch`, null, this.token);
      navigate(again.invite);
    } catch (err) { this.error = errorText(err); this.renderError(); }
  }
}

function scoreTable(score, nameOf, footer = "") {
  const winners = score.winners.map((i) => nameOf(i)).join(", ");
  const head = DISHES.map((d) => `<th scope="col">${cardHtml(d, esc(dishName(d)), null, "mini")}<span class="visually-hidden">${esc(dishName(d))}</span></th>`).join("");
  const rows = score.players.map((p) => `<tr class="${score.winners.includes(p.seat) ? "winner" : ""}">
      <th scope="row">${esc(nameOf(p.seat))}</th>
      ${p.dishes.map((d) => `<td>${d.held === 0 ? "" : d.discarded ? `<s><span aria-hidden="true">${d.held}</span><span class="visually-hidden">${esc(t("score.cellDiscarded", d))}</span></s>` : esc(t("score.cell", d)).replace(/=/g, "=<wbr>")}</td>`).join("")}
      <td>${p.discarded}</td><td><strong>${p.points}</strong></td></tr>`).join("");
  return `<section class="panel score" id="score"><h2>${esc(t("score.title"))}</h2>
    <p class="winner-line">★ ${esc(t(score.winners.length > 1 ? "score.winners" : "score.winner", { names: winners }))}</p>
    <div class="scroll" data-focus="score" tabindex="0" role="region" aria-label="${esc(t("score.title"))}"><table><thead><tr><th scope="col"><span class="long">${esc(t("score.player"))}</span></th>${head}<th scope="col"><span class="long">${esc(t("score.discarded"))}</span><s class="short" aria-hidden="true">#</s></th><th scope="col">${esc(t("score.points"))}</th></tr></thead>
    <tbody>${rows}</tbody></table></div>
    <ul class="legend muted"><li>${esc(t("score.legendCell"))}</li><li>${esc(t("score.legendDiscard"))}</li></ul>${footer}</section>`;
}

// ---- replay viewer ---------------------------------------------------------------------
class ReplayViewer {
  constructor(gameId) {
    this.id = gameId;
    this.step = 0;
    this.data = null;
    this.error = "";
    this.target = 0;        // the step asked for, ahead of the one shown while a fetch runs
    this.loading = false;
    this.keys = (e) => {
      if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
      if (e.key === "ArrowRight") this.go(this.target + 1);
      else if (e.key === "ArrowLeft") this.go(this.target - 1);
      else if (e.key === "Home") this.go(0);
      else if (e.key === "End" && this.data) this.go(this.data.steps);
    };
    document.addEventListener("keydown", this.keys);
    this.go(0);
  }

  stop() { document.removeEventListener("keydown", this.keys); }

  // Each press counts, however quick: the wanted step moves at once, and one fetch at a time
  // follows it until the step shown is the step wanted.
  async go(step) {
    if (this.data && (step < 0 || step > this.data.steps)) return;
    this.target = step;
    if (this.loading) return;
    this.loading = true;
    try {
      while (!this.data || this.step !== this.target || this.data.step !== this.target) {
        const wanted = this.target;
        try {
          this.data = await api("GET", `/games/${this.id}/replay/${wanted}`);
          this.step = wanted;
          this.error = "";
        } catch (err) { this.error = errorText(err); this.target = this.step; break; }
        this.render();
      }
    } finally { this.loading = false; }
    this.render();
  }

  render() {
    redrawKeepingFocus(app, () => this.paint(), "h1");
  }

  paint() {
    if (!this.data) { app.innerHTML = `<section class="panel"><p class="error">${esc(this.error)}</p></section>`; return; }
    const d = this.data;
    const v = d.view;
    const name = (i) => (d.seats ? seatKindName(d.seats[i], i) : displayName(d.players[i]));
    const stacks = (counts) => DISHES.map((dish) => `<div class="stack ${counts[dish] ? "" : "empty"}" role="img" aria-label="${esc(dishName(dish))}: ${counts[dish]}">${cardHtml(dish, esc(dishName(dish)), counts[dish])}</div>`).join("");
    const last = v.history[v.history.length - 1];
    const fake = { frame: { table: { seats: d.players.map((p) => ({ kind: "human", name: p })) } } };
    const line = last ? TableSession.prototype.logLine.call({ seatName: (i) => name(i), ...fake }, last) : "";
    const hands = v.hands.map((h, i) => {
      const all = {};
      for (const dish of DISHES) all[dish] = (h.takes[dish] || 0) + (h.draws[dish] || 0);
      return `<li class="player ${v.to_move === i ? "to-move" : ""}"><strong>${esc(name(i))}</strong><div class="cards small">${DISHES.filter((x) => all[x]).map((x) => cardHtml(x, esc(dishName(x)), all[x])).join("") || "—"}</div></li>`;
    }).join("");
    const score = d.score ? scoreTable(d.score, name) : "";
    app.innerHTML = `<div class="game replay">
      <section class="panel status"><h1 class="turn">${esc(t("replay.title"))}</h1>
        <span>${esc(t("replay.step", { step: d.step, steps: d.steps }))}</span>
        <span>${esc(t("game.round", { round: v.round }))}</span><span>${esc(tCount("game.deckOne", "game.deck", v.deck))}</span>
        <span>${esc(line)}</span></section>
      <section class="panel replay-controls">
        <button data-go="first">${esc(t("replay.first"))}</button><button data-go="prev">${esc(t("replay.prev"))}</button>
        <input type="range" id="replay-step" min="0" max="${d.steps}" value="${d.step}" aria-label="${esc(t("replay.step", { step: d.step, steps: d.steps }))}">
        <button data-go="next">${esc(t("replay.next"))}</button><button data-go="last">${esc(t("replay.last"))}</button>
      </section>
      <p class="error" role="alert">${esc(this.error)}</p>
      <section class="panel"><h2>${esc(t("game.king"))}</h2><div class="stacks">${stacks(v.king)}</div></section>
      <section class="panel"><h2>${esc(t("game.table"))}</h2><div class="stacks">${stacks(v.table)}<div class="stack dragons ${v.table_dragons ? "" : "empty"}">${cardHtml("dragon", esc(dishName("dragon")), v.table_dragons)}</div></div></section>
      ${score}
      <section class="panel players"><h2>${esc(t("game.others"))}</h2><ul>${hands}</ul></section>
      <p><a href="/" class="button" data-home>${esc(t("replay.back"))}</a></p></div>`;
    const go = { first: () => 0, prev: () => this.target - 1, next: () => this.target + 1, last: () => d.steps };
    app.querySelectorAll("[data-go]").forEach((b) => b.addEventListener("click", () => this.go(go[b.dataset.go]())));
    app.querySelector("input[type=range]").addEventListener("change", (e) => this.go(Number(e.target.value)));
    app.querySelector("[data-home]").addEventListener("click", (e) => { e.preventDefault(); navigate("/"); });
  }
}

document.addEventListener("click", (e) => {
  const a = e.target.closest && e.target.closest("[data-replay]");
  if (a) { e.preventDefault(); navigate(a.getAttribute("href")); }
});

applyTheme();
await Promise.all([initLanguage(), initAccount()]);
route();
// the static shell is kept by a service worker, so the site installs as an app (play itself
// always needs the server)
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => { /* not installable here */ });
