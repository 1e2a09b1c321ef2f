// Two account matters in the browser (docs/accounts.md):
//
// - the register form's proof of work: past an address's first few accounts of the hour,
//   the server asks for a hashcash proof (server/proof.py) so that a classroom behind one
//   address can register while a script filling the address pays for every account. The
//   browser finds it with Web Crypto's SHA-256, a batch of hashes at a time;
// - the account page's "Delete my account": what it does, the password asked again and a
//   box to tick, then the farewell with the pseudonym the games keep.
import { t, errorText } from "./strings.js";
import { call, esc } from "./pages.js";

const BATCH = 256;  // hashes awaited together: one await per batch, not per hash
const NAME_RESERVED_DAYS = 30;  // server/farewell.py, NAME_RESERVED_SECONDS

function zeroBits(bytes) {
  let bits = 0;
  for (const byte of bytes) {
    if (byte === 0) { bits += 8; continue; }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

// The proof the next registration needs, or undefined when it needs none.
export async function registrationProof(name, status) {
  const asked = await call("GET", "/api/account/challenge");
  if (!asked.bits) return undefined;
  if (status) status.textContent = t("account.proofWorking");
  const encoder = new TextEncoder();
  for (let start = 0; ; start += BATCH) {
    const counters = Array.from({ length: BATCH }, (_, i) => String(start + i));
    const digests = await Promise.all(counters.map((counter) => crypto.subtle.digest(
      "SHA-256", encoder.encode(`${asked.challenge}\n${name}\n${counter}`))));
    const found = digests.findIndex((d) => zeroBits(new Uint8Array(d)) >= asked.bits);
    if (found >= 0) {
      if (status) status.textContent = "";
      return { challenge: asked.challenge, counter: counters[found] };
    }
  }
}

// Register with the proof asked for; asked again when the proof came too late (others of
// the address registered meanwhile and the price rose: a class registering at once).
export async function registerWithProof(body, status) {
  for (let tries = 1; ; tries++) {
    try {
      return await call("POST", "/api/account/register", { ...body, proof: await registrationProof(body.name, status) });
    } catch (err) {
      if (tries >= 3 || (err.code !== "bad_proof" && err.code !== "proof_needed")) throw err;
    }
  }
}

// The account page's last section; onGone(pseudonym) runs once the account is deleted.
export function farewellSection(app, onGone) {
  const box = document.createElement("section");
  box.className = "panel danger-zone";
  box.setAttribute("aria-labelledby", "delete-title");
  box.innerHTML = `<h2 id="delete-title">${esc(t("account.deleteTitle"))}</h2>
    <p>${esc(t("account.deleteText", { days: NAME_RESERVED_DAYS }))}</p>
    <p><button type="button" id="delete-open" aria-expanded="false" aria-controls="delete-form">${esc(t("account.deleteOpen"))}</button></p>
    <form id="delete-form" class="form" hidden>
      <label>${esc(t("account.deletePassword"))} <input name="password" type="password" required autocomplete="current-password"></label>
      <label class="check"><input name="understood" type="checkbox" required> ${esc(t("account.deleteUnderstand"))}</label>
      <div class="row">
        <button type="submit" class="danger" id="delete-confirm">${esc(t("account.deleteButton"))}</button>
        <button type="button" id="delete-cancel">${esc(t("account.deleteCancel"))}</button>
      </div>
      <p class="error" role="alert" id="delete-error"></p>
    </form>`;
  app.append(box);
  const open = box.querySelector("#delete-open");
  const form = box.querySelector("#delete-form");
  const show = (shown) => {
    form.hidden = !shown;
    open.setAttribute("aria-expanded", String(shown));
    if (shown) form.querySelector("input[name=password]").focus(); else { form.reset(); open.focus(); }
  };
  open.addEventListener("click", () => show(form.hidden));
  box.querySelector("#delete-cancel").addEventListener("click", () => show(false));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const error = box.querySelector("#delete-error");
    error.textContent = "";
    try {
      const gone = await call("POST", "/api/account/delete", { password: new FormData(form).get("password") });
      onGone(gone.pseudonym);
    } catch (err) { error.textContent = errorText(err); }
  });
}

export function farewellPage(app, pseudonym) {
  app.innerHTML = `<section class="panel"><h1 tabindex="-1">${esc(t("account.deletedTitle"))}</h1>
    <p role="status">${esc(t("account.deletedText", { name: t("account.formerPlayer", { number: pseudonym.replace(/\D/g, "") }) }))}</p>
    <p><a class="button" href="/" data-link>${esc(t("account.deletedHome"))}</a></p></section>`;
  app.querySelector("h1").focus();
}
