// An account's e-mail address and a forgotten password: the address on the account page,
// "Forgot your password?" (a name or an address), and the pages a mailed link opens.
//
// A mailed link carries its token in the fragment (/reset#…), which the browser sends to no
// server; the page reads it once and takes it out of the address bar and history at once.
import { t, errorText, language } from "./strings.js";
import { call, esc } from "./pages.js";

export function routeRecovery(path, app, navigate) {
  if (path === "/forgot") { forgotPage(app, navigate); return true; }
  if (path === "/reset") { resetPage(app, navigate); return true; }
  if (path === "/verify-email") { verifyPage(app, navigate); return true; }
  return false;
}

function linkToken() {
  const token = location.hash.slice(1);
  if (token) history.replaceState(null, "", location.pathname);
  return token;
}

function wire(app, navigate) {
  app.querySelectorAll("a[data-link]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); navigate(a.getAttribute("href")); }));
}

async function csrf() {
  try { await call("GET", "/api/account"); } catch (_) { /* the form's call says what is wrong */ }
}

export function forgotLink() {
  return `<p><a href="/forgot" data-link>${esc(t("recovery.forgotLink"))}</a></p>`;
}

function forgotPage(app, navigate) {
  app.innerHTML = `<section class="panel"><h1>${esc(t("recovery.forgotTitle"))}</h1>
    <p>${esc(t("recovery.forgotIntro"))}</p>
    <form id="forgot" class="form">
      <label>${esc(t("recovery.who"))} <input name="who" required maxlength="254" autocomplete="username"></label>
      <button type="submit" class="primary">${esc(t("recovery.forgotButton"))}</button>
      <p class="error" role="alert" id="forgot-error"></p>
      <p role="status" id="forgot-sent"></p>
    </form>
    <p><a href="/login" data-link>${esc(t("nav.login"))}</a></p></section>`;
  wire(app, navigate);
  app.querySelector("#forgot").addEventListener("submit", async (e) => {
    e.preventDefault();
    const box = app.querySelector("#forgot-error");
    const sent = app.querySelector("#forgot-sent");
    box.textContent = sent.textContent = "";
    await csrf();
    try {
      await call("POST", "/api/password/forgot", { who: new FormData(e.target).get("who") });
      sent.textContent = t("recovery.forgotSent");
      e.target.reset();
    } catch (err) { box.textContent = errorText(err); }
  });
}

function resetPage(app, navigate) {
  const token = linkToken();
  app.innerHTML = `<section class="panel"><h1>${esc(t("recovery.resetTitle"))}</h1>
    <form id="reset" class="form">
      <label>${esc(t("account.newPassword"))} <input name="password" type="password" required minlength="8" maxlength="256" autocomplete="new-password" aria-describedby="reset-hint"></label>
      <p class="muted" id="reset-hint">${esc(t("account.passwordHint"))}</p>
      <button type="submit" class="primary">${esc(t("recovery.resetButton"))}</button>
      <p class="error" role="alert" id="reset-error"></p>
    </form></section>`;
  const box = app.querySelector("#reset-error");
  if (!token) box.textContent = t("error.bad_link");
  app.querySelector("#reset").addEventListener("submit", async (e) => {
    e.preventDefault();
    await csrf();
    try {
      await call("POST", "/api/password/reset", { token, password: new FormData(e.target).get("password") });
      app.querySelector(".panel").innerHTML = `<h1>${esc(t("recovery.resetTitle"))}</h1>
        <p role="status">${esc(t("recovery.resetDone"))}</p>
        <p><a class="button primary" href="/login" data-link>${esc(t("nav.login"))}</a></p>`;
      wire(app, navigate);
    } catch (err) { box.textContent = errorText(err); }
  });
}

async function verifyPage(app, navigate) {
  const token = linkToken();
  app.innerHTML = `<section class="panel"><h1>${esc(t("recovery.verifyTitle"))}</h1>
    <p role="status" id="verify-state">${esc(t("recovery.verifying"))}</p>
    <p><a href="/account" data-link>${esc(t("nav.account"))}</a></p></section>`;
  wire(app, navigate);
  const box = app.querySelector("#verify-state");
  await csrf();
  try {
    await call("POST", "/api/email/verify", { token });
    box.textContent = t("recovery.verified");
  } catch (err) { box.textContent = errorText(err); }
}

// The account page's part: the address, whether it is verified, and a form to change it.
export async function emailSection(root) {
  root.insertAdjacentHTML("beforeend", `<section class="panel"><h2>${esc(t("recovery.emailTitle"))}</h2>
    <p id="email-state" aria-live="polite"></p>
    <form id="email" class="form">
      <label>${esc(t("recovery.address"))} <input name="address" type="email" maxlength="254" autocomplete="email" aria-describedby="email-hint"></label>
      <p class="muted" id="email-hint">${esc(t("recovery.emailHint"))}</p>
      <label>${esc(t("account.oldPassword"))} <input name="password" type="password" required autocomplete="current-password"></label>
      <button type="submit" class="primary">${esc(t("recovery.emailButton"))}</button>
      <p class="error" role="alert" id="email-error"></p>
      <p role="status" id="email-sent"></p>
    </form></section>`);
  const state = root.querySelector("#email-state");
  const input = root.querySelector("#email input[name=address]");
  const show = (email) => {
    if (!email) { state.textContent = t("recovery.noAddress"); return; }
    input.value = email.address;
    state.textContent = t(email.verified ? "recovery.isVerified" : "recovery.notVerified", { address: email.address });
  };
  try {
    const reply = await call("GET", "/api/me/email");
    show(reply.email);
    if (!reply.mail) {  // this site sends no mail: say so instead of a form that cannot work
      root.querySelector("#email").outerHTML = `<p class="muted">${esc(t("error.mail_unavailable"))}</p>`;
      return;
    }
  } catch (err) { state.textContent = errorText(err); }
  root.querySelector("#email").addEventListener("submit", async (e) => {
    e.preventDefault();
    const box = root.querySelector("#email-error");
    const sent = root.querySelector("#email-sent");
    box.textContent = sent.textContent = "";
    try {
      const f = new FormData(e.target);
      const reply = await call("PUT", "/api/me/email", { address: f.get("address"), password: f.get("password"), language: language() });
      e.target.querySelector("input[name=password]").value = "";
      show(reply.email);
      if (reply.email) sent.textContent = t("recovery.mailSent", { address: reply.email.address });
    } catch (err) { box.textContent = errorText(err); }
  });
}
