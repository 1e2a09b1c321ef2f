// Leaving a running game from the table, after a confirmation that says what happens next.
//
// The seat is freed through the lobby's leave call and a bot plays it to the end; in a rated
// game (the server says so: at least two seats held by different accounts) leaving counts as
// a loss, and the dialog says that too. The dialog lives outside the page's main element, so
// the table's redraws (a bot moving while the player reads) never close it.
import { t, errorText } from "./strings.js";
import { call, esc } from "./pages.js";

let dialog = null;

function drop() {
  if (dialog) { dialog.close(); dialog.remove(); dialog = null; }
}

// Ask before leaving table `tableId`; `left()` runs once the seat is freed. `opener()` finds
// the button that gets the keyboard back when the player stays (the table may have redrawn).
export async function confirmLeave(tableId, opener, left) {
  drop();
  let rated = false;
  try { rated = (await call("GET", `/api/tables/${encodeURIComponent(tableId)}/leaving`)).rated; } catch (_) { /* said when the leave is refused */ }
  dialog = document.createElement("dialog");
  dialog.className = "leave-dialog";
  dialog.id = "leave-dialog";
  dialog.setAttribute("aria-labelledby", "leave-title");
  dialog.setAttribute("aria-describedby", "leave-text");
  dialog.innerHTML = `<h2 id="leave-title">${esc(t("leave.title"))}</h2>
    <div id="leave-text"><p>${esc(t("leave.bot"))}</p>${rated ? `<p class="rated-note"><strong>${esc(t("leave.rated"))}</strong></p>` : ""}</div>
    <p class="error" role="alert" id="leave-error"></p>
    <div class="actions"><button type="button" data-leave="stay" class="primary">${esc(t("leave.stay"))}</button>
      <button type="button" data-leave="go" class="danger">${esc(t("leave.confirm"))}</button></div>`;
  document.body.appendChild(dialog);
  const stay = () => { drop(); opener()?.focus(); };
  dialog.addEventListener("cancel", (e) => { e.preventDefault(); stay(); });
  dialog.querySelector("[data-leave=stay]").addEventListener("click", stay);
  dialog.querySelector("[data-leave=go]").addEventListener("click", async () => {
    try {
      await call("POST", `/api/tables/${encodeURIComponent(tableId)}/leave`);
      drop();
      left();
    } catch (err) { dialog.querySelector("#leave-error").textContent = errorText(err); }
  });
  dialog.showModal();
  dialog.querySelector("[data-leave=stay]").focus();
}

export function closeLeave() { drop(); }
