// Accounts in the browser: the header's account links, the log-in and register page,
// "My games", the leaderboard and a player's profile.
//
// Credentials never touch script-readable storage: the session and the seats live in
// HttpOnly cookies the server sets. The one value a script reads is the CSRF cookie, which
// grants nothing alone and is sent back in X-CSRF-Token on every state-changing call.
import { t, errorText, dishName } from "./strings.js";
import { timeLeft } from "./clock.js";
import { finishedLine, withResults } from "./results.js";
import { routeRecovery, emailSection, forgotLink } from "./recovery.js";
import { registerWithProof, farewellSection, farewellPage } from "./farewell.js";
import { displayName } from "./names.js";
import { routePeople, personActions, nameTag } from "./people.js";
import { noticeSection } from "./noticeprefs.js";

let current = null; // the logged-in account, or null
const listeners = new Set();

export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

export function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)kb_csrf=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

export function account() { return current; }
export function onAccountChange(fn) { listeners.add(fn); }

// A JSON call with the CSRF header; a refusal is thrown as {code, message, params}.
export async function call(method, path, body = null, headers = {}) {
  const all = { "content-type": "application/json", ...headers };
  if (method !== "GET") all["x-csrf-token"] = csrfToken();
  let reply;
  try {
    reply = await fetch(path, { method, headers: all, body: body === null ? undefined : JSON.stringify(body), credentials: "same-origin" });
  } catch (_) {
    throw { code: "network", message: t("error.network"), params: {} };
  }
  if (reply.status === 204) return null;
  const data = await reply.json().catch(() => ({}));
  if (!reply.ok) throw data.error || { code: "http_" + reply.status, message: reply.statusText, params: {} };
  return data;
}

export async function initAccount() {
  try { current = (await call("GET", "/api/account")).account; } catch (_) { current = null; }
}

function changed() { for (const fn of listeners) fn(current); }

export function accountNav() {
  const links = [`<a href="/leaderboard" data-link>${esc(t("nav.leaderboard"))}</a>`];
  links.push(`<a href="/tv" data-link>${esc(t("tv.title"))}</a>`);
  links.push(`<a href="/tournaments" data-link>${esc(t("nav.tournaments"))}</a>`);
  if (current) {
    links.push(`<a href="/me" data-link>${esc(t("nav.myGames"))}<span id="awaiting" class="awaiting" hidden></span></a>`);
    links.push(`<a href="/players/${encodeURIComponent(current.name)}" data-link>${esc(current.name)}</a>`);
    links.push(`<a href="/account" data-link>${esc(t("nav.account"))}</a>`);
    links.push(`<a href="/people" data-link>${esc(t("nav.people"))}</a>`);
    links.push(`<button type="button" id="logout" class="link">${esc(t("nav.logout"))}</button>`);
  } else {
    links.push(`<a href="/login" data-link>${esc(t("nav.login"))}</a>`);
  }
  return `<nav class="account-nav" aria-label="${esc(t("nav.account"))}">${links.join(" ")}</nav>`;
}

// The badge beside My games on every page: how many games in play await this account's
// move (GET /api/me/awaiting), asked when the header is drawn, each minute, and when the tab
// comes back into view, so whoever closed a turn-based game's tab sees it is their turn.
let awaitingWatched = false;
async function refreshAwaiting() {
  const badge = document.getElementById("awaiting");
  if (!badge || !current) return;
  let count = 0;
  try { count = (await call("GET", "/api/me/awaiting")).count || 0; } catch (_) { return; }
  badge.hidden = count === 0;
  badge.innerHTML = count ? `<span aria-hidden="true">${count}</span><span class="visually-hidden">${esc(t("nav.awaiting", { count }))}</span>` : "";
}

function watchAwaiting() {
  refreshAwaiting();
  if (awaitingWatched) return;
  awaitingWatched = true;
  setInterval(() => { if (!document.hidden) refreshAwaiting(); }, 60000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshAwaiting(); });
}

export function wireNav(root, navigate) {
  if (current) watchAwaiting();
  root.querySelectorAll(".account-nav [data-link]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); navigate(a.getAttribute("href")); }));
  const out = root.querySelector("#logout");
  if (out) out.addEventListener("click", async () => {
    try { await call("POST", "/api/account/logout"); } catch (_) { /* the cookie is gone either way */ }
    current = null;
    changed();
    navigate("/");
  });
}

// The pages this module draws; false when the path is not one of them.
export function routeAccount(path, app, navigate) {
  if (path === "/login") { loginPage(app, navigate); return true; }
  if (routeRecovery(path, app, navigate)) return true;
  if (routePeople(path, app, navigate)) return true;
  if (path === "/account") { accountPage(app, navigate); return true; }
  if (path === "/me") { myGamesPage(app, navigate); return true; }
  if (path === "/leaderboard") { leaderboardPage(app, navigate, Number(new URLSearchParams(location.search).get("page")) || 1); return true; }
  const m = path.match(/^\/players\/([^/]+)$/);
  if (m) { profilePage(app, decodeURIComponent(m[1]), navigate); return true; }
  return false;
}

function links(app, navigate) {
  app.querySelectorAll("a[data-link]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); navigate(a.getAttribute("href")); }));
}

function loginPage(app, navigate) {
  const form = (id, title, button, autocomplete) => `<section class="panel"><h${id === "login" ? 1 : 2}>${esc(title)}</h${id === "login" ? 1 : 2}>
    <form id="${id}" class="form">
      <label>${esc(t("account.name"))} <input name="name" required maxlength="32" autocomplete="username"></label>
      <label>${esc(t("account.password"))} <input name="password" type="password" required minlength="8" maxlength="256" autocomplete="${autocomplete}" aria-describedby="${id}-hint"></label>
      <p class="muted" id="${id}-hint">${esc(t("account.passwordHint"))}</p>
      <button type="submit" class="primary">${esc(button)}</button>
      <p class="error" role="alert" id="${id}-error"></p>
    </form></section>`;
  app.innerHTML = form("login", t("account.loginTitle"), t("account.loginButton"), "current-password")
      .replace("</form></section>", `</form>${forgotLink()}</section>`)
    + form("register", t("account.registerTitle"), t("account.registerButton"), "new-password")
    + `<p class="muted">${esc(t("account.guestNote"))}</p>`;
  links(app, navigate);
  for (const id of ["login", "register"]) {
    app.querySelector("#" + id).addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = new FormData(e.target);
      const body = { name: f.get("name"), password: f.get("password") };
      try {
        const done = id === "register"
          ? await registerWithProof(body, app.querySelector("#register-error"))
          : await call("POST", "/api/account/login", body);
        current = done.account;
        changed();
        navigate("/me");
      } catch (err) { app.querySelector(`#${id}-error`).textContent = errorText(err); }
    });
  }
}

function accountPage(app, navigate) {
  if (!current) { navigate("/login"); return; }
  app.innerHTML = `<section class="panel"><h1>${esc(t("account.changeTitle"))}</h1>
    <p>${esc(t("account.signedInAs", { name: current.name }))}</p>
    <form id="password" class="form">
      <input type="text" name="name" autocomplete="username" value="${esc(current.name)}" hidden>
      <label>${esc(t("account.oldPassword"))} <input name="old" type="password" required autocomplete="current-password"></label>
      <label>${esc(t("account.newPassword"))} <input name="new" type="password" required minlength="8" maxlength="256" autocomplete="new-password"></label>
      <button type="submit" class="primary">${esc(t("account.changeButton"))}</button>
      <p class="error" role="alert" id="password-error"></p>
    </form></section>`;
  app.querySelector("#password").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const box = app.querySelector("#password-error");
    try {
      await call("POST", "/api/account/password", { old: f.get("old"), new: f.get("new") });
      e.target.reset();
      box.textContent = t("account.changed");
    } catch (err) { box.textContent = errorText(err); }
  });
  emailSection(app);
  noticeSection(app);
  // everything the site holds about the account, as one file (GET /api/me/data)
  const data = document.createElement("section");
  data.className = "panel";
  data.setAttribute("aria-labelledby", "data-title");
  data.innerHTML = `<h2 id="data-title">${esc(t("account.dataTitle"))}</h2><p>${esc(t("account.dataText"))}</p>
    <p><a class="button" id="data-download" href="/api/me/data" download="kingsbreakfast-account.json">${esc(t("account.dataDownload"))}</a></p>`;
  app.append(data);
  farewellSection(app, (pseudonym) => { current = null; changed(); farewellPage(app, pseudonym); links(app, navigate); });
}

export function seatName(seat, index) {
  if (seat.kind === "human") return displayName(seat.name);
  if (seat.kind === "open" && seat.name) return t("seat.botWas", { name: displayName(seat.name) });  // left in play
  if (seat.kind === "bot") return t("seat.bot", { seat: index + 1, level: t("level." + seat.level) });
  return t("seat.open");
}

async function myGamesPage(app, navigate) {
  app.innerHTML = `<section class="panel"><h1>${esc(t("games.title"))}</h1><div id="games" aria-live="polite"></div></section>`;
  const box = app.querySelector("#games");
  let data;
  try { data = await call("GET", "/api/me/games"); } catch (err) {
    box.innerHTML = `<p>${esc(err.code === "not_logged_in" ? t("games.loginFirst") : errorText(err))}</p><p><a href="/login" data-link>${esc(t("nav.login"))}</a></p>`;
    links(app, navigate);
    return;
  }
  const who = (g) => g.seats.map((s, i) => (s.kind === "human" ? nameTag(s.name) : esc(seatName(s, i)))).join(", ");
  const left = (g) => {
    if (!g.your_move || !g.deadline_ms) return "";
    return " · " + esc(timeLeft(g.deadline_ms));
  };
  const running = data.running.map((g) => `<li class="${g.your_move ? "your-move" : ""}"><span>${g.your_move ? `<strong>${esc(t("games.yourMove"))}</strong> · ` : ""}${who(g)} · ${esc(t("status." + g.status))}${left(g)}</span>
      <a class="button" href="/t/${esc(g.id)}" data-link>${esc(t("games.open"))}</a></li>`).join("");
  const ended = await withResults(data.finished, (g) => g.seats.map((s, i) => seatName(s, i)));
  const finished = ended.map((g) => `<li>${finishedLine(g)}
      <a class="button" href="${esc(g.replay)}" data-link>${esc(t("lobby.replay"))}</a>
      <a class="button" href="/review/${esc(g.id)}?seat=${Number(g.seat)}" data-link>${esc(t("lobby.review"))}</a>
      <a class="button" href="${esc(g.record)}" download="kingsbreakfast-${esc(g.id)}.json">${esc(t("games.record"))}</a></li>`).join("");
  box.innerHTML = `<h2>${esc(t("games.running"))}</h2><ul class="table-list">${running || `<li class="muted">${esc(t("games.none"))}</li>`}</ul>
    <h2>${esc(t("games.finished"))}</h2><ul class="table-list">${finished || `<li class="muted">${esc(t("games.none"))}</li>`}</ul>`;
  links(app, navigate);
}

async function leaderboardPage(app, navigate, page) {
  app.innerHTML = `<section class="panel"><h1>${esc(t("board.title"))}</h1><div id="board" aria-live="polite"></div><p class="muted">${esc(t("board.note"))}</p></section>`;
  const box = app.querySelector("#board");
  let data;
  try { data = await call("GET", `/api/leaderboard?page=${page}&size=20`); } catch (err) { box.textContent = errorText(err); return; }
  app.querySelector(".panel").insertAdjacentHTML("beforeend", `<p class="muted">${esc(t("board.established", data.established_after))}</p>`);
  if (!data.rows.length) { box.innerHTML = `<p>${esc(t("board.empty"))}</p>`; return; }
  const pages = Math.max(1, Math.ceil(data.total / data.size));
  const rows = data.rows.map((r) => `<tr><td>${r.rank}</td><th scope="row"><a href="/players/${encodeURIComponent(r.name)}" data-link>${esc(r.name)}</a></th><td>${r.rating.toFixed(2)}</td><td>${r.games}</td></tr>`).join("");
  box.innerHTML = `<div class="scroll"><table class="board"><thead><tr><th scope="col">${esc(t("board.rank"))}</th><th scope="col">${esc(t("board.player"))}</th><th scope="col">${esc(t("board.rating"))}</th><th scope="col">${esc(t("board.games"))}</th></tr></thead><tbody>${rows}</tbody></table></div>
    <nav class="row" aria-label="${esc(t("board.page", { page, pages }))}">
      ${page > 1 ? `<a class="button" href="/leaderboard?page=${page - 1}" data-link>${esc(t("board.prev"))}</a>` : ""}
      <span>${esc(t("board.page", { page, pages }))}</span>
      ${page < pages ? `<a class="button" href="/leaderboard?page=${page + 1}" data-link>${esc(t("board.next"))}</a>` : ""}
    </nav>`;
  links(app, navigate);
}

async function profilePage(app, name, navigate) {
  app.innerHTML = `<section class="panel profile"><h1>${esc(name)}</h1><div id="profile" aria-live="polite"></div></section>`;
  const box = app.querySelector("#profile");
  let p;
  try { p = await call("GET", `/api/players/${encodeURIComponent(name)}`); } catch (err) { box.textContent = errorText(err); return; }
  const percent = p.win_share === null ? "—" : `${Math.round(p.win_share * 100)} %`;
  const title = t("profile.plotTitle", { name: p.name });
  const desc = t("profile.plotDesc", { count: p.rated_games, rating: p.rating.toFixed(2) });
  const plot = `/api/players/${encodeURIComponent(p.name)}/rating.svg?title=${encodeURIComponent(title)}&desc=${encodeURIComponent(desc)}`;
  const rating = esc(t("profile.rating", { rating: p.rating.toFixed(2) }));
  const provisional = p.provisional
    ? ` <abbr class="provisional" title="${esc(t("profile.provisionalNote", p.established_after))}">${esc(t("profile.provisional"))}</abbr>`
    : "";
  box.innerHTML = `<p class="rating">${rating}${provisional}</p>
    <dl class="stats">
      <dt>${esc(t("profile.games"))}</dt><dd>${p.games}</dd>
      <dt>${esc(t("board.games"))}</dt><dd>${p.rated_games}</dd>
      <dt>${esc(t("profile.winShare"))}</dt><dd>${esc(percent)}</dd>
      <dt>${esc(t("profile.average"))}</dt><dd>${p.average_points === null ? "—" : esc(p.average_points)}</dd>
      <dt>${esc(t("profile.favourite"))}</dt><dd>${p.favourite_dish ? esc(dishName(p.favourite_dish)) : "—"}</dd>
    </dl>
    <figure><img src="${esc(plot)}" alt="${esc(title + ". " + desc)}" width="480" height="200"><figcaption>${esc(title)}</figcaption></figure>
    <div id="person-actions"></div>`;
  personActions(box.querySelector("#person-actions"), p.name, navigate);
}
