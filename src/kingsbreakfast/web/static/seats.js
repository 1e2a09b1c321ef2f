// Frames the table page gets besides its state: small presence updates and, for the host,
// requests for a seat freed during play.
//
// A presence frame says only who is connected (and the turn clock): it is merged into the
// last state frame instead of a full state being sent to everyone whenever a socket comes or
// goes. A seat request asks the host to let a newcomer take over a freed seat (a bot plays it
// meanwhile); the answer goes back as a "seat_answer" message. The request box lives outside
// the page's main element, so redrawing the table never loses it.
//
// A spectator may ask for such a freed seat: the ask box (also outside the main element, so
// a name being typed survives the table's redraws) posts the join, which during play is only
// a request; the page then waits, as a spectator, until either its socket becomes the seat's
// (a state frame with "you" set: the player's view, hand and all, is drawn from then on) or
// the host declines ("seat_declined", then the socket is closed with 4002).

import { t, errorText, onLanguageChange } from "./strings.js";
import { call } from "./pages.js";

const requests = new Map(); // seat -> name, for the table shown now

function box() {
  let el = document.getElementById("seat-requests");
  if (!el) {
    el = document.createElement("div");
    el.id = "seat-requests";
    el.className = "seat-requests";
    el.setAttribute("role", "alertdialog");
    el.setAttribute("aria-live", "assertive");
    // sticky at the foot of the window while it is open, yet in the page's flow: it takes
    // room of its own after everything else, so it never hides the bottom of the page
    Object.assign(el.style, {
      position: "sticky", bottom: "0", margin: "0 1rem 1rem", zIndex: "10",
      background: "var(--panel, #fff)", border: "2px solid currentColor", borderRadius: "0.5rem",
      padding: "0 1rem",
    });
    document.body.appendChild(el);
  }
  return el;
}

function drawRequests(session) {
  const el = box();
  el.replaceChildren();
  for (const [seat, name] of requests) {
    const row = document.createElement("p");
    const text = document.createElement("span");
    text.id = `seat-request-${seat}`;
    text.textContent = t("seat.request", { name, seat: seat + 1 });
    row.appendChild(text);
    for (const accept of [true, false]) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = accept ? "primary" : "";
      button.textContent = t(accept ? "seat.accept" : "seat.decline");
      button.addEventListener("click", () => {
        if (session.ws && session.ws.readyState === WebSocket.OPEN) {
          session.ws.send(JSON.stringify({ type: "seat_answer", seat, accept }));
        }
        requests.delete(seat);
        drawRequests(session);
      });
      row.appendChild(button);
    }
    el.appendChild(row);
  }
  // the box is named by the requests it holds
  el.setAttribute("aria-labelledby", [...requests.keys()].map((seat) => `seat-request-${seat}`).join(" "));
  el.hidden = requests.size === 0;
}

// Handles a frame the state logic does not know; true when it was one of ours.
export function extraFrame(session, frame) {
  if (frame.type === "presence") {
    const shown = session.frame;
    if (!shown || shown.version !== frame.version) return true; // a state frame is coming
    let changed = JSON.stringify(shown.clock) !== JSON.stringify(frame.clock);
    frame.seats.forEach((seat, i) => {
      const mine = shown.table.seats[i];
      if (mine && (mine.connected !== seat.connected || mine.zombie !== seat.zombie)) {
        mine.connected = seat.connected;
        mine.zombie = seat.zombie;
        changed = true;
      }
    });
    shown.clock = frame.clock;
    // redraw only when something shown changed, and never the waiting room (it shows no
    // presence, and redrawing it would throw away a name being typed into its form)
    if (changed && shown.table.status !== "lobby") session.render();
    return true;
  }
  if (frame.type === "error" && frame.code === "seat_declined" && asking && asking.phase === "waiting") {
    asking = { phase: "form", seat: null, note: errorText(frame), focus: "note" };
    drawAsk(session, session.frame);
    return true;
  }
  if (frame.type === "state") drawAsk(session, frame);
  if (frame.type === "seat_request") {
    requests.set(frame.seat, frame.name);
    drawRequests(session);
    return true;
  }
  if (frame.type === "state" && frame.table.host !== frame.you && requests.size) {
    requests.clear(); // only the host answers requests
    drawRequests(session);
  }
  return false;
}

// The table page is left: its requests and any request of ours go with it.
export function leaveTable() {
  requests.clear();
  asking = null;
  shownAsk = "";
  askingFor = null;
  for (const id of ["seat-requests", "seat-ask"]) document.getElementById(id)?.remove();
}

// ---- asking for a seat its player left (a spectator) --------------------------------------
let asking = null;   // {phase: "form" | "sending" | "waiting", seat, note, focus} or null
let shownAsk = "";   // what the ask box shows now, so that a redraw happens only on a change
let askingFor = null; // the session the box belongs to

onLanguageChange(() => { if (askingFor) { shownAsk = ""; drawAsk(askingFor, askingFor.frame); } });

// The first seat whose player left during play: the server hands out the first free seat
// nobody asked for yet, so that is the one worth asking for (a seat someone else asked for
// is refused with "seat_requested"). Null when there is none to ask for.
function freeSeat(frame) {
  if (!frame || frame.you !== null || frame.table.status !== "playing" || frame.table.host === null) return null;
  if (!frame.view || frame.view.to_move === null) return null;
  const seat = frame.table.seats.findIndex((s) => s.kind === "open");
  return seat < 0 ? null : seat;
}

function drawAsk(session, frame) {
  askingFor = session;
  if (frame && frame.you !== null) {
    if (asking && asking.phase === "waiting" && frame.you === asking.seat) {
      // ours now: the main element shows the seat's view; the keyboard goes to its status
      const seat = asking.seat;
      queueMicrotask(() => { document.getElementById("turn")?.focus(); announce(t("seat.granted", { seat: seat + 1 })); });
    }
    asking = null;
  }
  if (asking && frame && frame.table.status === "over") asking = null; // nothing left to ask for
  const free = freeSeat(frame);
  if (!asking && free !== null) asking = { phase: "form", seat: null, note: "", focus: null };
  const waiting = asking && (asking.phase === "waiting" || asking.phase === "sending");
  if (!asking || (!waiting && free === null)) {
    if (asking && asking.note === "") asking = null;
    if (!asking) { document.getElementById("seat-ask")?.remove(); shownAsk = ""; return; }
  }
  const key = JSON.stringify([asking.phase, asking.seat, asking.note, free]);
  if (key === shownAsk && document.getElementById("seat-ask")) return;
  shownAsk = key;
  paintAsk(session, free);
}

function askBox() {
  let el = document.getElementById("seat-ask");
  if (!el) {
    el = document.createElement("section");
    el.id = "seat-ask";
    el.className = "panel seat-ask";
    el.setAttribute("aria-labelledby", "seat-ask-title");
    const main = document.getElementById("app");
    main.parentNode.insertBefore(el, main);
  }
  return el;
}

function paintAsk(session, free) {
  const el = askBox();
  const old = el.querySelector("input[name=name]");
  const typed = old ? old.value : null;
  const hadFocus = el.contains(document.activeElement) ? document.activeElement.id : null;
  el.replaceChildren();
  const title = document.createElement("h2");
  title.id = "seat-ask-title";
  title.tabIndex = -1;
  el.appendChild(title);
  if (asking.phase === "waiting" || asking.phase === "sending") {
    const seat = asking.seat ?? free ?? 0;
    title.textContent = t("seat.askTitle", { seat: seat + 1 });
    const wait = document.createElement("p");
    wait.id = "seat-ask-waiting";
    wait.setAttribute("role", "status");
    wait.textContent = asking.phase === "waiting" ? t("seat.waiting", { seat: seat + 1 }) : "…";
    el.appendChild(wait);
  } else {
    title.textContent = free === null ? t("game.spectating") : t("seat.askTitle", { seat: free + 1 });
    if (free !== null) {
      const text = document.createElement("p");
      text.textContent = t("seat.askText");
      el.appendChild(text);
      const form = document.createElement("form");
      form.id = "seat-ask-form";
      form.className = "form inline";
      const label = document.createElement("label");
      label.append(t("lobby.yourName"), " ");
      const input = document.createElement("input");
      input.name = "name";
      input.id = "seat-ask-name";
      input.required = true;
      input.maxLength = 32;
      input.autocomplete = "nickname";
      input.value = typed !== null ? typed : savedName();
      label.appendChild(input);
      const button = document.createElement("button");
      button.type = "submit";
      button.className = "primary";
      button.id = "seat-ask-button";
      button.textContent = t("seat.askButton");
      form.append(label, button);
      form.addEventListener("submit", (e) => { e.preventDefault(); askFor(session, input.value.trim()); });
      el.appendChild(form);
    }
  }
  const note = document.createElement("p");
  note.id = "seat-ask-note";
  note.className = "error";
  note.setAttribute("role", "alert");
  note.tabIndex = -1;
  note.textContent = asking.note;
  el.appendChild(note);
  const focus = asking.focus === "note" ? note : hadFocus ? document.getElementById(hadFocus) : null;
  asking.focus = null;
  (focus || (hadFocus !== null ? title : null))?.focus();
}

function announce(text) {
  const live = document.getElementById("live");
  if (live) live.textContent = text;
}

function savedName() {
  try { return localStorage.getItem("kingsbreakfast.name") || ""; } catch (_) { return ""; }
}

async function askFor(session, name) {
  if (!name || !asking || asking.phase !== "form") return;
  try { localStorage.setItem("kingsbreakfast.name", name); } catch (_) { /* private mode */ }
  asking = { phase: "sending", seat: null, note: "", focus: null };
  drawAsk(session, session.frame);
  try {
    const grant = await call("POST", `/api/tables/${session.id}/join`, { name });
    if (askingFor !== session || session.closed) return;
    asking = { phase: "waiting", seat: grant.seat, note: "", focus: null };
    session.token = grant.token;   // the request's token: it holds the seat once accepted
    session.quick = true;
    if (session.ws) session.ws.close(); // reconnect at once with it, still as a spectator
  } catch (err) {
    if (askingFor !== session) return;
    asking = { phase: "form", seat: null, note: errorText(err), focus: "note" };
  }
  shownAsk = "";
  drawAsk(session, session.frame);
}
