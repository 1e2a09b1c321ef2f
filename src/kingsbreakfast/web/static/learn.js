// The lesson (/learn): learn the game by playing a short scripted game against three bots.
//
// The page keeps only the learner's own moves. Each move goes to the server (POST /api/learn)
// with the moves before it; the server replays them on the real engine, plays the lesson's
// bots and answers with the learner's view (never a bot's drawn cards or the deck), the step
// with its words in the page's language, and a kind word when the move is not the one the
// step waits for. Every move the page offers comes from the view's legal list: the page holds
// no rules of its own.
import { t, tCount, errorText, dishName, language } from "./strings.js";
import { DISHES, cardHtml } from "./cards.js";
import { redrawKeepingFocus, focusOn } from "./focus.js";

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

export class LessonPage {
  constructor(app, navigate) {
    this.app = app;
    this.navigate = navigate;
    this.moves = [];        // the learner's accepted moves, in order
    this.reply = null;      // the server's last answer
    this.spoken = null;     // the language of that answer
    this.feeding = false;   // the learner is choosing two of the king's dishes
    this.error = "";
    this.busy = false;
    this.stopped = false;
    this.render();
    this.ask(null);
  }

  stop() { this.stopped = true; }

  async ask(move) {
    if (this.busy) return;
    this.busy = true;
    const stepBefore = this.reply && this.reply.step ? this.reply.step.key : null;
    try {
      const reply = await fetch("/api/learn", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ language: language(), moves: this.moves, move }),
      });
      const data = await reply.json().catch(() => ({}));
      if (!reply.ok) throw (data.error || { code: "http_" + reply.status, message: reply.statusText, params: {} });
      if (this.stopped) return;
      this.reply = data;
      this.spoken = language();
      this.moves = data.moves;
      this.error = "";
      if (data.word === null) this.feeding = false;
    } catch (err) {
      this.error = err && err.code === undefined ? t("error.network") : errorText(err);
    } finally {
      this.busy = false;
    }
    if (this.stopped) return;
    this.paintKeepingFocus();
    const stepNow = this.reply && this.reply.step ? this.reply.step.key : "scoring";
    // a new step (or the scoring): the keyboard and the screen reader go to its heading
    if (this.reply && stepNow !== stepBefore) focusOn(this.app, "#turn");
    else if (this.reply && this.reply.word) focusOn(this.app, "#lesson-word");
  }

  // a change of language asks the server for the step's words again
  render() {
    if (this.reply && this.spoken !== language()) { this.ask(null); return; }
    this.paintKeepingFocus();
  }

  paintKeepingFocus() {
    redrawKeepingFocus(this.app, () => this.paint(), "#turn");
  }

  nameOf(seat) { return seat === 0 ? t("learn.you") : this.reply.names[seat]; }

  logLine(entry) {
    const name = this.nameOf(entry.seat);
    if (entry.type === "take") return t("log.take", { name, dish: dishName(entry.dish) });
    if (entry.type === "feed") return t("log.feed", { name, a: dishName(entry.dishes[0]), b: dishName(entry.dishes[1]) });
    return t("log." + entry.type, { name });
  }

  paint() {
    const r = this.reply;
    if (!r) {
      this.app.innerHTML = `<section class="panel lesson-step"><h1 id="turn" tabindex="-1">${esc(t("learn.title"))}</h1>
        <p class="error" role="alert">${esc(this.error)}</p></section>`;
      return;
    }
    const v = r.view;
    const legal = new Set(v.legal);
    const mine = v.to_move === 0;
    const step = r.step;
    const feeds = [...legal].filter((a) => a.startsWith("feed "));

    const stack = (d, n, take) => take
      ? `<button class="stack legal" data-take="${d}" aria-label="${esc(t("game.takeStack", { dish: dishName(d), count: n }))}">${cardHtml(d, esc(dishName(d)), n)}</button>`
      : `<div class="stack ${n ? "" : "empty"}" role="img" aria-label="${esc(t("game.stackLabel", { dish: dishName(d), count: n }))}">${cardHtml(d, esc(dishName(d)), n)}</div>`;
    const tableStacks = DISHES.map((d) => stack(d, v.table[d], mine && !this.feeding && legal.has("take " + d))).join("")
      + `<div class="stack dragons ${v.table_dragons ? "" : "empty"}" role="img" aria-label="${esc(t("game.dragons", { count: v.table_dragons }))}">${cardHtml("dragon", esc(dishName("dragon")), v.table_dragons)}</div>`;
    const kingStacks = DISHES.map((d) => `<div class="stack ${v.king[d] ? "" : "empty"}" role="img" aria-label="${esc(t("game.kingLabel", { dish: dishName(d), count: v.king[d] }))}">${cardHtml(d, esc(dishName(d)), v.king[d])}</div>`).join("");

    const cards = (counts, cls) => DISHES.filter((d) => counts && counts[d]).map((d) => cardHtml(d, esc(dishName(d)), counts[d], cls)).join("");
    const me = v.hands[0];
    const hand = `<section class="panel hand" aria-label="${esc(t("game.yourHand"))}"><h2>${esc(t("game.yourHand"))}</h2>
      <div class="hand-part"><h3>${esc(t("game.public"))}</h3><div class="cards">${cards(me.takes, "") || "—"}</div></div>
      <div class="hand-part private"><h3>${esc(t("game.private"))}</h3><div class="cards">${cards(me.draws, "private") || "—"}</div></div></section>`;
    // at the end every hand is scored, so every hand is shown (R11): a bot's whole hand, its
    // drawn cards too, comes from the final scoring; during the game only what it took
    const whole = (i) => (r.score ? Object.fromEntries(r.score.players[i].dishes.map((d) => [d.dish, d.held])) : null);
    const players = v.hands.map((h, i) => i === 0 ? "" : `<li class="player ${v.to_move === i ? "to-move" : ""}" data-seat="${i}">
        <div class="player-head">${v.cook === i ? `<span class="tag cook">${esc(t("game.cookTag"))}</span>` : ""}<strong>${esc(this.nameOf(i))}</strong></div>
        <div class="cards small">${cards(whole(i) || h.takes, "")}</div>
        ${whole(i) ? "" : `<div class="muted hidden-count">${esc(tCount("game.hiddenCountOne", "game.hiddenCount", h.hidden))}</div>`}</li>`).join("");
    const others = v.history.filter((e) => e.seat !== 0);
    const log = others.slice(-24).reverse().map((e) => `<li>${esc(this.logLine(e))}</li>`).join("");

    let actions = "";
    if (mine && this.feeding) {
      actions = `<div class="actions picking" role="group" aria-label="${esc(t("learn.feedChoose"))}"><span>${esc(t("learn.feedChoose"))}</span>
        ${feeds.map((a) => { const [, x, y] = a.split(" "); return `<button class="legal" data-act="${esc(a)}">${esc(t("hint.feed", { a: dishName(x), b: dishName(y) }))}</button>`; }).join("")}
        <button data-act="back">${esc(t("game.cancel"))}</button></div>`;
    } else if (mine) {
      // a drawn dragon is shown to everyone (R7b) until it is used or placed (R7a)
      const drawn = v.pending_dragon ? `<div class="stack" role="img" aria-label="${esc(t("game.dragonTitle"))}">${cardHtml("dragon", esc(dishName("dragon")))}</div>` : "";
      actions = `<div class="actions">${drawn}
        ${legal.has("draw") ? `<button data-act="draw" class="legal">${esc(t("game.draw"))}</button>` : ""}
        ${feeds.length ? `<button data-act="feed" class="legal">${esc(v.pending_dragon ? t("game.dragonUse") : t("game.feed"))}</button>` : ""}
        ${legal.has("place_dragon") ? `<button data-act="place_dragon" class="legal">${esc(t("game.dragonPlace"))}</button>` : ""}
        ${legal.has("pass") ? `<button data-act="pass" class="legal">${esc(t("game.pass"))}</button>` : ""}</div>`;
    }

    // the results as a ranking: the winners first, then by points, then by fewer cards
    // discarded (R12), so the list's numbers are the places
    const ranked = (score) => [...score.players].sort((a, b) => (score.winners.includes(b.seat) - score.winners.includes(a.seat))
      || (b.points - a.points) || (a.discarded - b.discarded) || (a.seat - b.seat));
    const heading = step ? step.title : r.title;
    const number = step ? `<p class="lesson-number">${esc(t("learn.step", { number: step.number, total: step.total }))}</p>` : "";
    const body = step
      ? `<p id="lesson-text">${esc(step.text)}</p><p class="lesson-task"><strong>${esc(step.task)}</strong></p>`
      : `<ul class="lesson-scoring" id="lesson-scoring">${r.scoring.map((line) => `<li>${esc(line)}</li>`).join("")}</ul>
         <ol class="lesson-points">${ranked(r.score).map((p) => `<li class="${r.score.winners.includes(p.seat) ? "winner" : ""}">${esc(tCount("learn.pointsOne", "learn.points", p.points, { name: this.nameOf(p.seat) }))}</li>`).join("")}</ol>
         <p class="row"><a class="button primary" href="/" id="real-game" data-link>${esc(t("learn.realGame"))}</a></p>`;

    this.app.innerHTML = `<div class="game lesson ${mine ? "my-turn" : ""}" data-step="${esc(step ? step.key : "scoring")}" data-moves="${this.moves.length}">
      <section class="panel lesson-step" aria-labelledby="turn">
        ${number}
        <h1 id="turn" tabindex="-1">${esc(heading)}</h1>
        ${body}
        <p id="lesson-word" class="lesson-word" role="alert" tabindex="-1">${esc(this.error || r.word || "")}</p>
        <p class="row"><button type="button" id="leave-lesson">${esc(t("learn.leave"))}</button></p>
      </section>
      <section class="panel status"><span>${esc(t("game.round", { round: v.round }))}</span>
        <span>${esc(t("game.cook", { name: this.nameOf(v.cook) }))}</span>
        <span>${esc(tCount("game.deckOne", "game.deck", v.deck))}</span></section>
      <div class="main-col">
        <section class="panel king-panel"><h2>${esc(t("game.king"))}</h2><div class="stacks king">${kingStacks}</div></section>
        <section class="panel table-panel"><h2>${esc(t("game.table"))}</h2><div class="stacks">${tableStacks}</div>${actions}</section>
        ${hand}
      </div>
      <aside class="side-col">
        <section class="panel players"><h2>${esc(t("game.others"))}</h2><ul>${players}</ul></section>
        <section class="panel log"><h2>${esc(t("learn.log"))}</h2><ol reversed start="${others.length}" tabindex="0" data-focus="log" aria-label="${esc(t("learn.log"))}">${log}</ol></section>
      </aside>
    </div>`;

    this.app.querySelectorAll("[data-take]").forEach((b) => b.addEventListener("click", () => this.ask("take " + b.dataset.take)));
    this.app.querySelectorAll("[data-act]").forEach((b) => b.addEventListener("click", () => {
      const act = b.dataset.act;
      if (act === "feed") { this.feeding = true; this.paintKeepingFocus(); focusOn(this.app, ".picking button"); }
      else if (act === "back") { this.feeding = false; this.paintKeepingFocus(); focusOn(this.app, "[data-act=feed]"); }
      else this.ask(act);
    }));
    this.app.querySelector("#leave-lesson").addEventListener("click", () => this.navigate("/"));
    // a real game: the lobby, with the keyboard at play now's first field
    this.app.querySelector("#real-game")?.addEventListener("click", (e) => {
      e.preventDefault();
      this.navigate("/");
      focusOn(this.app, "#play-now input, #play-now button");
    });
  }
}
