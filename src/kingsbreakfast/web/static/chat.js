// The table chat: a panel beside the game, never part of its log. Lines are written as
// text only (textContent), so a line holding markup shows as the characters typed. A player
// may mute another seat; the choice is kept for this tab only. Another's line may be
// reported to the site's operator (POST /api/reports, with the table and the line's id).
import { t, errorText } from "./strings.js";
import { call, esc } from "./pages.js";
import { displayName } from "./names.js";
import { watchRatings } from "./people.js";

export class ChatPanel {
  constructor(tableId) {
    this.id = tableId;
    this.lines = [];
    this.muted = new Set();
    try { this.muted = new Set(JSON.parse(sessionStorage.getItem("kingsbreakfast.muted." + tableId) || "[]")); } catch (_) { /* private mode */ }
    this.you = null;
    this.names = [];
    this.error = "";
    this.el = document.createElement("aside");
    this.el.className = "panel chat";
    this.el.setAttribute("aria-labelledby", "chat-title");
    document.body.insertBefore(this.el, document.getElementById("live"));
    watchRatings(this.el);  // an account's rating beside its name in each line, as on the page
    this.load();
  }

  async load() {
    let stored = [];
    try { stored = await call("GET", `/api/tables/${this.id}/chat`); } catch (_) { /* none yet */ }
    // a line may have arrived on the socket while this was on its way: keep both, once each
    const byId = new Map([...stored, ...this.lines].map((l) => [l.id, l]));
    this.lines = [...byId.values()].sort((a, b) => a.id - b.id).slice(-100);
    this.render();
  }

  stop() { this.el.remove(); }

  // A "chat" frame from the table's socket.
  onFrame(frame) {
    if (this.lines.some((l) => l.id === frame.id)) return;
    this.lines.push(frame);
    this.lines = this.lines.slice(-100);
    this.renderLines();
  }

  // Who sits where, from each state frame (for the mute buttons).
  seats(you, names) {
    const same = you === this.you && JSON.stringify(names) === JSON.stringify(this.names);
    this.you = you;
    this.names = names;
    if (!same) this.render();
  }

  toggle(seat) {
    if (this.muted.has(seat)) this.muted.delete(seat); else this.muted.add(seat);
    try { sessionStorage.setItem("kingsbreakfast.muted." + this.id, JSON.stringify([...this.muted])); } catch (_) { /* private mode */ }
    rememberMuted(this.names[seat], this.muted.has(seat));
    this.render();
  }

  // Drawn anew when the seats or the language change; a line being typed stays in the box.
  render() {
    const typing = this.el.querySelector("#chat-form input[name=text]");
    const draft = typing ? typing.value : "";
    const focused = typing !== null && document.activeElement === typing;
    const mutes = this.names.map((name, seat) => seat === this.you || name === null ? "" : `<button type="button" class="link" data-mute="${seat}" aria-pressed="${this.muted.has(seat)}">${esc(t(this.muted.has(seat) ? "chat.unmute" : "chat.mute", { name }))}</button>`).join(" ");
    const form = this.you === null ? `<p class="muted">${esc(t("chat.spectator"))}</p>` : `<form class="form inline" id="chat-form">
        <label>${esc(t("chat.label"))} <input name="text" maxlength="200" autocomplete="off" required></label>
        <button type="submit">${esc(t("chat.send"))}</button></form>`;
    this.el.innerHTML = `<h2 id="chat-title">${esc(t("chat.title"))}</h2><ol class="chat-lines" aria-live="polite"></ol>${form}
      <p class="error" role="alert" id="chat-error"></p><p class="mutes">${mutes}</p><div id="chat-report"></div>`;
    this.renderLines();
    this.renderReport();
    this.el.querySelectorAll("[data-mute]").forEach((b) => b.addEventListener("click", () => this.toggle(Number(b.dataset.mute))));
    const f = this.el.querySelector("#chat-form");
    if (f) f.addEventListener("submit", (e) => { e.preventDefault(); this.send(e.target); });
    const box = this.el.querySelector("#chat-form input[name=text]");
    if (box) {
      box.value = draft;
      if (focused) box.focus();
    }
  }

  renderLines() {
    const list = this.el.querySelector(".chat-lines");
    if (!list) return;
    list.replaceChildren();
    const shown = this.lines.filter((l) => !this.muted.has(l.seat));
    if (!shown.length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = t("chat.empty");
      list.append(li);
    }
    for (const line of shown) {
      const li = document.createElement("li");
      const who = document.createElement("strong");
      const name = document.createElement("span");
      name.className = "who";
      name.dataset.name = line.name;
      name.textContent = displayName(line.name);
      who.append(name, ": ");
      const text = document.createElement("span");
      text.className = "chat-text";
      text.textContent = line.text;
      li.append(who, text);
      if (this.you !== null && line.seat !== this.you) {
        const report = document.createElement("button");
        report.type = "button";
        report.className = "link report";
        report.textContent = t("chat.report");
        report.setAttribute("aria-label", t("chat.reportLine", { name: line.name }));
        report.addEventListener("click", () => { this.reporting = line; this.reported = ""; this.renderReport(); });
        li.append(" ", report);
      }
      list.append(li);
    }
  }

  // The form that reports one line (its reason in the reporter's words), or the thanks.
  renderReport() {
    const area = this.el.querySelector("#chat-report");
    if (!area) return;
    if (this.reported) {
      area.innerHTML = `<p role="status">${esc(this.reported)}</p>`;
      return;
    }
    const line = this.reporting;
    if (!line) { area.replaceChildren(); return; }
    area.innerHTML = `<form class="form" id="report-form">
        <p>${esc(t("chat.reportWhat", { name: line.name }))} <q class="chat-text"></q></p>
        <label>${esc(t("chat.reportReason"))} <textarea name="reason" maxlength="500" rows="2" required></textarea></label>
        <button type="submit">${esc(t("chat.reportSend"))}</button>
        <button type="button" class="link" id="report-cancel">${esc(t("chat.reportCancel"))}</button>
        <p class="error" role="alert" id="report-error"></p></form>`;
    area.querySelector("q").textContent = line.text;
    area.querySelector("#report-cancel").addEventListener("click", () => { this.reporting = null; this.renderReport(); });
    area.querySelector("#report-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const reason = e.target.querySelector("textarea").value;
      try {
        await call("POST", "/api/reports", { name: line.name, reason, table: this.id, chat_line: line.id });
        this.reporting = null;
        this.reported = t("chat.reported");
        this.renderReport();
      } catch (err) { area.querySelector("#report-error").textContent = errorText(err); }
    });
    area.querySelector("textarea").focus();
  }

  async send(form) {
    const input = form.querySelector("input[name=text]");
    const box = this.el.querySelector("#chat-error");
    try {
      const line = await call("POST", `/api/tables/${this.id}/chat`, { text: input.value });
      input.value = "";
      box.textContent = "";
      this.onFrame(line);
    } catch (err) { box.textContent = errorText(err); }
    input.focus();
  }
}

// The names this browser muted, at any table: play now never seats it with them again.
const MUTED_NAMES = "kingsbreakfast.mutedNames";
export function mutedNames() {
  try { return JSON.parse(localStorage.getItem(MUTED_NAMES) || "[]"); } catch (_) { return []; }
}
function rememberMuted(name, muted) {
  if (!name) return;
  const names = new Set(mutedNames());
  if (muted) names.add(name); else names.delete(name);
  try { localStorage.setItem(MUTED_NAMES, JSON.stringify([...names].slice(-200))); } catch (_) { /* private mode */ }
}
