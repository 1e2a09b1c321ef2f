// The review of a finished game (/review/<id>?seat=N): every choice of one seat beside the
// master bot's best move from what that seat could see then, the biggest losses marked.
// The numbers come from the server (GET /api/games/<id>/review?seat=N, server/routes/
// review.py), the same review `kingsbreakfast review` prints; before the game is over the
// server refuses (not_over) and this page says so. Any seat of a finished game may be
// picked: its record is public once the game is over.
import { t, tCount, errorText } from "./strings.js";
import { call, esc } from "./pages.js";
import { displayName } from "./names.js";
import { redrawKeepingFocus } from "./focus.js";
import { actionText } from "./hint.js";
import { positionHtml, chanceGraph } from "./reviewboard.js";

const pct = (share) => `${(100 * share).toFixed(1)}%`;
const points = (value) => value.toFixed(1);
// a loss shown to a tenth: a real but tiny one reads "under 0.1", not "0.0" (which beside a
// win chance lost read as a contradiction); none at all reads "0"
const lost = (value) => (value <= 0 ? "0" : value < 0.05 ? t("review.under", { value: (0.1).toFixed(1) }) : points(value));

export class ReviewPage {
  constructor(root, gameId, seat, navigate) {
    this.root = root;
    this.id = gameId;
    this.seat = seat;
    this.navigate = navigate;
    this.data = null;
    this.error = "";
    this.load();
  }

  stop() { this.stopped = true; }

  async load() {
    this.render();
    try {
      this.data = await call("GET", `/api/games/${encodeURIComponent(this.id)}/review?seat=${this.seat}`);
      this.error = "";
      const d = this.data;
      // the board shows the costliest choice first (else the first one)
      this.shown = d.biggest.length ? d.biggest[0] : d.moves.length ? d.moves[0].move : null;
      this.series = d.players.map((_, i) => (i === d.seat ? d.moves : null));
      this.loadOthers();
    } catch (err) {
      this.data = null;
      this.error = err && err.code === "not_over" ? t("review.notOver") : errorText(err);
    }
    if (!this.stopped) this.render();
  }

  // every other seat's review, for the graph of each seat's win chance (each is worked out
  // once on the server and kept; the graph draws what has come)
  loadOthers() {
    const d = this.data;
    d.players.forEach((_, seat) => {
      if (seat === d.seat) return;
      call("GET", `/api/games/${encodeURIComponent(this.id)}/review?seat=${seat}`).then((other) => {
        if (this.stopped || this.data !== d) return;
        this.series[seat] = other.moves;
        const box = this.root.querySelector("#chance-graph");
        if (box) box.innerHTML = chanceGraph(this.series, (i) => displayName(d.players[i]), esc);
      }).catch(() => { /* the graph shows the seats that came */ });
    });
  }

  render() {
    redrawKeepingFocus(this.root, () => this.paint(), "h1");
  }

  paint() {
    const d = this.data;
    if (!d) {
      this.root.innerHTML = `<section class="panel review-page"><h1 tabindex="-1">${esc(t("review.pageTitle"))}</h1>
        ${this.error ? `<p class="error" role="alert">${esc(this.error)}</p>` : `<p aria-live="polite">…</p>`}
        <p class="row"><a href="/" class="button" data-home>${esc(t("replay.back"))}</a></p></section>`;
      this.wire();
      return;
    }
    const name = (i) => displayName(d.players[i]);
    const seats = d.players.map((_, i) => `<li><a href="/review/${esc(d.id)}?seat=${i}" data-seat="${i}" class="button${i === d.seat ? " primary" : ""}" ${i === d.seat ? 'aria-current="page"' : ""}>${esc(name(i))}</a></li>`).join("");
    const biggest = new Set(d.biggest);
    // the seat's own choices are numbered 1, 2, 3…: the game's move numbers jump (the other
    // seats and the forced turns come between), so each says its game move beside it
    const number = new Map(d.moves.map((m, i) => [m.move, i + 1]));
    const rows = d.moves.map((m) => {
      const same = m.action === m.best;
      const mark = m.big_loss ? ` <strong class="loss-mark">${esc(t("review.bigLoss"))}</strong>` : "";
      return `<tr id="move-${m.move}" class="${m.big_loss ? "big-loss" : ""}${biggest.has(m.move) ? " costliest" : ""}">
        <th scope="row"><button type="button" class="show-move" id="show-${m.move}" data-show="${m.move}" aria-pressed="${m.move === this.shown}" aria-label="${esc(t("review.showPosition", { number: number.get(m.move) }))}">${number.get(m.move)}</button><span class="move-note">${esc(t("review.ofGame", { move: m.move }))}</span><span class="round-note">${esc(t("game.round", { round: m.round }))}</span></th><td class="round-col">${m.round}</td>
        <td class="choice">${esc(actionText(m.action))}${mark}</td>
        <td class="choice">${same ? `<span aria-hidden="true">=</span><span class="visually-hidden">${esc(t("review.same"))}</span>` : esc(actionText(m.best))}</td>
        <td>${esc(lost(m.points_lost))}</td><td>${pct(m.win_lost)}</td></tr>`;
    }).join("");
    const costly = d.biggest.map((move) => {
      const m = d.moves.find((x) => x.move === move);
      return `<li><a href="#move-${m.move}" data-move="${m.move}">${esc(t("review.costlyChoice", { number: number.get(m.move), move: m.move, action: actionText(m.action), share: pct(m.win_lost) }))}</a></li>`;
    }).join("");
    const threshold = `${Math.round(100 * d.big_loss_threshold)}%`;
    const shown = (d.positions || []).find((p) => p.move === this.shown);
    const shownMove = d.moves.find((m) => m.move === this.shown);
    const table = d.moves.length ? `<div class="scroll" tabindex="0" role="region" aria-label="${esc(t("review.choicesOf", { name: name(d.seat) }))}">
        <table class="review-table"><thead><tr>
          <th scope="col">${esc(t("review.choice"))}</th><th scope="col" class="round-col">${esc(t("review.round"))}</th>
          <th scope="col" class="choice">${esc(t("review.played"))}</th><th scope="col" class="choice">${esc(t("review.best"))}</th>
          <th scope="col">${esc(t("review.pointsExpected"))}</th><th scope="col">${esc(t("review.winLost"))}</th>
        </tr></thead><tbody>${rows}</tbody></table></div>` : `<p>${esc(t("review.none"))}</p>`;
    this.root.innerHTML = `<div class="review-page">
      <section class="panel review-head"><h1 tabindex="-1">${esc(t("review.title", { name: name(d.seat) }))}</h1>
        <nav aria-label="${esc(t("review.seats"))}"><ul class="seat-pick">${seats}</ul></nav>
        <p class="explained">${esc(t("review.explained", { threshold }))}</p>
        <p class="two-measures">${esc(t("review.twoMeasures"))}</p></section>
      <section class="panel review-summary" aria-labelledby="review-summary"><h2 id="review-summary">${esc(t("review.summary"))}</h2>
        <ul>
          <li>${esc(tCount("review.decisionsOne", "review.decisions", d.decisions))}</li>
          ${d.forced ? `<li>${esc(tCount("review.forcedOne", "review.forced", d.forced))}</li>` : ""}
          <li>${esc(t("review.totals", { points: points(d.points_lost) }))}</li>
          <li>${esc(tCount("review.bigLossesOne", "review.bigLosses", d.big_losses))}</li>
        </ul>
        ${costly ? `<h3>${esc(t("review.costliest"))}</h3><ol class="costliest-list">${costly}</ol>` : `<p>${esc(t("review.nothingLost"))}</p>`}
      </section>
      <section class="panel review-graph" aria-labelledby="review-graph-title"><h2 id="review-graph-title">${esc(t("review.chances"))}</h2>
        <div id="chance-graph">${chanceGraph(this.series, name, esc)}</div></section>
      ${shown ? `<section class="panel review-position" id="review-position" aria-labelledby="review-position-title">${positionHtml(shown, shownMove, number.get(shownMove.move), name, esc)}</section>` : ""}
      <section class="panel review-moves"><h2>${esc(t("review.choicesOf", { name: name(d.seat) }))}</h2>${table}</section>
      <p class="row"><a href="/replay/${esc(d.id)}" class="button" data-replay>${esc(t("review.replay"))}</a>
        <a href="/" class="button" data-home>${esc(t("replay.back"))}</a></p></div>`;
    this.wire();
  }

  wire() {
    this.root.querySelector("[data-home]")?.addEventListener("click", (e) => { e.preventDefault(); this.navigate("/"); });
    this.root.querySelectorAll("[data-seat]").forEach((a) => a.addEventListener("click", (e) => {
      e.preventDefault();
      this.navigate(a.getAttribute("href"));
    }));
    // a choice's number shows its position on the board above the table
    this.root.querySelectorAll("[data-show]").forEach((b) => b.addEventListener("click", () => {
      this.shown = Number(b.dataset.show);
      this.render();
      this.root.querySelector("#review-position")?.scrollIntoView({ block: "nearest" });
    }));
    // a costly move's link takes the keyboard to its row, not only the eye
    this.root.querySelectorAll("[data-move]").forEach((a) => a.addEventListener("click", (e) => {
      e.preventDefault();
      const row = this.root.querySelector(`#move-${a.dataset.move}`);
      if (!row) return;
      row.setAttribute("tabindex", "-1");
      row.scrollIntoView({ block: "center" });
      row.focus({ preventScroll: true });
    }));
  }
}
