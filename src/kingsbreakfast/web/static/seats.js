// Frames the table page gets besides its state: small presence updates and, for the host,
// requests for a seat freed during play.
//
// A presence frame says only who is connected (and the turn clock): it is merged into the
// last state frame instead of a full state being sent to everyone whenever a socket comes or
// goes. A seat request asks the host to let a newcomer take over a freed seat (a bot plays it
// meanwhile); the answer goes back as a "seat_answer" message. The request box lives outside
// the page's main element, so redrawing the table never loses it.

import { t } from "./strings.js";

const requests = new Map(); // seat -> name, for the table shown now

function box() {
  let el = document.getElementById("seat-requests");
  if (!el) {
    el = document.createElement("div");
    el.id = "seat-requests";
    el.className = "seat-requests";
    el.setAttribute("role", "alertdialog");
    el.setAttribute("aria-live", "assertive");
    Object.assign(el.style, {
      position: "fixed", left: "1rem", right: "1rem", bottom: "1rem", zIndex: "10",
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

// The table page is left: its requests go with it.
export function leaveTable() {
  requests.clear();
  const el = document.getElementById("seat-requests");
  if (el) el.remove();
}
