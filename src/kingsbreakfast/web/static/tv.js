// The TV (/tv): the highest rated game in play, live, as any spectator sees it, and the games in
// play in the TV's order (GET /api/tv: tournament games first, then the seated accounts' mean
// rating; the server says why).
//
// The page's socket says hello without a token and never offers its cookies' seat: it is sent
// only the spectator's view, never a drawn card nor the deck, even when the viewer plays at
// the table shown. A game stays on screen until it ends; a moment later the page asks for the
// list again and shows the game that now leads it.
import { t, tCount, dishName } from "./strings.js";
import { DISHES, cardHtml } from "./cards.js";
import { esc, seatName } from "./pages.js";
import { redrawKeepingFocus } from "./focus.js";

const REFRESH_MS = 15000;  // the list is asked again this often while a game is shown
const NEXT_MS = 5000;      // a finished game stays on screen this long, with its score
const RETRY_MS = 2000;     // a closed socket is looked at again after this long

export class TvPage {
  constructor(app, navigate) {
    this.app = app;
    this.navigate = navigate;
    this.answer = null;    // the last GET /api/tv
    this.showing = null;   // the id of the game on screen
    this.frame = null;     // its last state frame
    this.ws = null;
    this.stopped = false;
    this.failed = false;   // the list could not be fetched
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
    this.next = null;
    this.render();
    this.refresh();
  }

  stop() {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.next);
    this.close();
  }

  close() {
    if (!this.ws) return;
    this.ws.onclose = null;
    this.ws.close();
    this.ws = null;
  }

  async refresh() {
    try {
      const reply = await fetch("/api/tv", { headers: { accept: "application/json" } });
      if (!reply.ok) throw new Error(String(reply.status));
      this.answer = await reply.json();
      this.failed = false;
    } catch (_) {
      this.failed = true;
    }
    if (this.stopped) return;
    const featured = this.answer && this.answer.featured;
    if (!this.showing && featured) this.show(featured.id);
    this.render();
  }

  // Watch one game: a spectator's socket, and nothing else.
  show(tableId) {
    this.close();
    this.showing = tableId;
    this.frame = null;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.showing)}`);
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: null }));
    ws.onmessage = (event) => {
      let frame;
      try { frame = JSON.parse(event.data); } catch (_) { return; }
      if (frame.type !== "state" || !frame.view || frame.table.id !== this.showing) return;
      if (this.frame && frame.version < this.frame.version) return;
      this.frame = frame;
      this.renderBoard();
      if (frame.score && !this.next) this.next = setTimeout(() => this.moveOn(), NEXT_MS);
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.stopped || (this.frame && this.frame.score)) return;
      this.ws = null;
      setTimeout(() => this.resume(), RETRY_MS);
    };
  }

  // The socket closed mid-game: the game is watched again while it is still in play (its
  // table moved to another process, the network came back), else the next one is shown.
  async resume() {
    if (this.stopped || this.ws || !this.showing) return;
    await this.refresh();
    if (this.stopped || this.ws || !this.showing) return;
    const listed = this.answer && this.answer.tables.some((tb) => tb.id === this.showing);
    if (listed) this.connect(); else this.moveOn();
  }

  // The game shown ended: the next featured game (the list no longer holds this one).
  moveOn() {
    this.next = null;
    this.close();
    this.showing = null;
    this.frame = null;
    this.refresh();
  }

  render() {
    if (this.stopped) return;
    document.title = `${t("tv.title")} · ${t("app.title")}`;
    if (!this.app.querySelector("#tv")) {
      this.app.innerHTML = `<div id="tv" class="tv">
        <section class="panel tv-now" aria-labelledby="tv-title"><h1 id="tv-title">${esc(t("tv.title"))}</h1><div id="tv-board"></div></section>
        <section class="panel" aria-labelledby="tv-list-title"><h2 id="tv-list-title"></h2><div id="tv-list"></div></section></div>`;
    }
    this.app.querySelector("#tv-title").textContent = t("tv.title");
    this.app.querySelector("#tv-list-title").textContent = t("tv.list");
    this.renderBoard();
    const list = this.app.querySelector("#tv-list");
    redrawKeepingFocus(list, () => { list.innerHTML = this.listHtml(); }, "#tv-list-title");
    list.querySelectorAll("a[data-link]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); this.navigate(a.getAttribute("href")); }));
  }

  // Each seat by name and rating (a guest unrated, a bot by its level).
  seatLabel(seat, index) {
    const name = seatName(seat, index);
    if (seat.kind !== "human") return name;
    return seat.rating === null ? t("tv.unrated", { name }) : t("tv.rated", { name, rating: Math.round(seat.rating) });
  }

  listHtml() {
    const tables = this.answer ? this.answer.tables : [];
    if (this.failed && !this.answer) return `<p class="error" role="alert">${esc(t("error.network"))}</p>`;
    if (!tables.length) return `<p class="muted" id="tv-none">${esc(t("tv.none"))}</p>`;
    return `<ol class="table-list tv-list">${tables.map((tb) => {
      const seats = tb.seats.map((s, i) => esc(this.seatLabel(s, i))).join(", ");
      const tags = [
        tb.tournament ? `<span class="tag">${esc(t("tv.tournament"))}</span>` : "",
        tb.id === this.showing ? `<span class="tag on-tv">${esc(t("tv.onTv"))}</span>` : "",
      ].join("");
      const rating = tb.rating === null ? t("tv.noRating") : t("tv.average", { rating: Math.round(tb.rating) });
      return `<li data-table="${esc(tb.id)}"><span>${tags}${seats} · ${esc(rating)}</span>
        <a href="/t/${esc(tb.id)}" class="button" data-link>${esc(t("lobby.watch"))}<span class="visually-hidden"> (${esc(tb.seats.map((s, i) => seatName(s, i)).join(", "))})</span></a></li>`;
    }).join("")}</ol>`;
  }

  renderBoard() {
    const board = this.app.querySelector("#tv-board");
    if (!board) return;
    const f = this.frame;
    board.dataset.showing = this.showing || "";
    if (!f) {
      const waiting = this.showing ? t("tv.tuning") : this.answer ? t("tv.none") : "…";
      board.innerHTML = `<p class="muted" id="tv-waiting">${esc(waiting)}</p>`;
      return;
    }
    const v = f.view;
    const listed = this.answer ? [this.answer.featured, ...this.answer.tables].find((tb) => tb && tb.id === f.table.id) : null;
    const ratingOf = (i, seat) => {  // the list's rating, while the same person sits there
      const known = listed && listed.seats[i];
      return known && known.kind === seat.kind && known.name === seat.name ? known.rating : null;
    };
    const seatOf = (i) => {
      const seat = f.table.seats[i];
      return this.seatLabel({ kind: seat.kind, name: seat.name, level: f.table.bot_level, rating: ratingOf(i, seat) }, i);
    };
    const nameOf = (i) => seatName({ ...f.table.seats[i], level: f.table.bot_level }, i);
    const status = v.to_move === null ? t("game.over") : v.to_move >= 0 ? t("game.toMove", { name: nameOf(v.to_move) }) : "";
    const stacks = (counts, label) => DISHES.map((d) => `<div class="stack ${counts[d] ? "" : "empty"}" role="img" aria-label="${esc(t(label, { dish: dishName(d), count: counts[d] }))}">${cardHtml(d, esc(dishName(d)), counts[d])}</div>`).join("");
    const hand = (counts) => DISHES.filter((d) => counts && counts[d]).map((d) => cardHtml(d, esc(dishName(d)), counts[d])).join("");
    const players = v.hands.map((h, i) => {
      const who = f.score ? tCount("learn.pointsOne", "learn.points", f.score.scores[i], { name: seatOf(i) }) : seatOf(i);
      const hidden = h.draws ? hand(h.draws) : "";
      return `<li class="player ${v.to_move === i ? "to-move" : ""}" data-seat="${i}"><div class="player-head">${v.cook === i ? `<span class="tag cook">${esc(t("game.cookTag"))}</span>` : ""}<strong>${esc(who)}</strong></div>
        <div class="cards small">${hand(h.takes)}${hidden}</div>
        <div class="muted hidden-count">${esc(tCount("game.hiddenCountOne", "game.hiddenCount", h.hidden))}</div></li>`;
    }).join("");
    board.innerHTML = `<p class="tv-status"><strong>${esc(status)}</strong> · <span>${esc(t("game.round", { round: v.round }))}</span> · <span>${esc(tCount("game.deckOne", "game.deck", v.deck))}</span> · <span class="muted">${esc(t("game.spectating"))}</span></p>
      ${f.score ? `<p class="notice" role="status" id="tv-next">${esc(t("tv.next"))}</p>` : ""}
      <div class="tv-plates"><div><h2>${esc(t("game.king"))}</h2><div class="stacks king">${stacks(v.king, "game.kingLabel")}</div></div>
      <div><h2>${esc(t("game.table"))}</h2><div class="stacks">${stacks(v.table, "game.stackLabel")}<div class="stack dragons ${v.table_dragons ? "" : "empty"}" role="img" aria-label="${esc(t("game.dragons", { count: v.table_dragons }))}">${cardHtml("dragon", esc(dishName("dragon")), v.table_dragons)}</div></div></div></div>
      <h2>${esc(t("game.others"))}</h2><ul class="players tv-players">${players}</ul>`;
  }
}
