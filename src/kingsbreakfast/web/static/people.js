// People in the browser: the People page (friends with who is online now, followed, followers,
// blocked, challenges both ways, a form to challenge a player), the Follow / Block /
// Challenge buttons beside a player's name (the profile), and ratings beside account names
// wherever the page shows them.
//
// Ratings: a page writes an account's name through nameTag(); watchRatings() notices such
// names wherever they appear under the root, asks GET /api/ratings for the ones it has not
// seen (one call for a page's names, each answer kept), and writes the rating after the name.
// A guest's name (or a bot's) has no rating and gets none.
import { t, errorText } from "./strings.js";
import { durationText, timeLeft } from "./clock.js";
import { call, esc, account } from "./pages.js";
import { displayName } from "./names.js";

// -- ratings beside names ------------------------------------------------------------------
const known = new Map();  // name -> rating (a number), or null: not an account's
let asking = false;

export function nameTag(name) {
  // shown as the reader says it (a deleted account's pseudonym translated), looked up as stored
  return `<span class="who" data-name="${esc(name)}">${esc(displayName(name))}</span>`;
}

export function ratingTag(rating) {
  return `<span class="rating-tag"><span class="visually-hidden">${esc(t("board.rating"))}: </span>${esc(Number(rating).toFixed(2))}</span>`;
}

function writeRatings(root) {
  root.querySelectorAll(".who[data-name]:not([data-rated])").forEach((el) => {
    const rating = known.get(el.dataset.name);
    if (rating === undefined) return;
    el.dataset.rated = "";
    if (rating !== null) el.insertAdjacentHTML("afterend", " " + ratingTag(rating));
  });
}

async function rate(root) {
  writeRatings(root);
  const wanted = [...new Set([...root.querySelectorAll(".who[data-name]:not([data-rated])")].map((el) => el.dataset.name))]
    .filter((n) => !known.has(n)).slice(0, 50);
  if (!wanted.length || asking) return;
  asking = true;
  try {
    const query = wanted.map((n) => "name=" + encodeURIComponent(n)).join("&");
    const found = (await call("GET", "/api/ratings?" + query)).ratings || {};
    for (const name of wanted) known.set(name, name in found ? found[name] : null);
  } catch (_) {
    return;  // no ratings this time: the names stand alone
  } finally {
    asking = false;
  }
  rate(root);
}

// Rate the names under ``root`` now and whenever the page redraws them.
export function watchRatings(root) {
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => { queued = false; rate(root); });
  }).observe(root, { childList: true, subtree: true });
  rate(root);
}

// -- the buttons beside a player's name ----------------------------------------------------
let mine = null;  // the account's people, as GET /api/people last said

async function myPeople() {
  mine = await call("GET", "/api/people");
  return mine;
}

function relation(name) {
  const has = (key) => mine && mine[key].some((p) => p.name === name);
  return { follows: has("friends") || has("following"), blocked: has("blocked") };
}

// The Follow / Block / Challenge row of a profile (nothing for a guest or oneself).
export async function personActions(box, name, navigate) {
  const me = account();
  if (!me || me.name === name) return;
  try { await myPeople(); } catch (_) { return; }
  const draw = () => {
    const { follows, blocked } = relation(name);
    box.innerHTML = `<div class="row person-actions" role="group" aria-label="${esc(t("people.actions", { name }))}">
      ${blocked ? "" : `<button type="button" data-act="${follows ? "unfollow" : "follow"}">${esc(t(follows ? "people.unfollow" : "people.follow"))}</button>`}
      <button type="button" data-act="${blocked ? "unblock" : "block"}">${esc(t(blocked ? "people.unblock" : "people.block"))}</button>
      ${blocked ? "" : `<a class="button" href="/people?challenge=${encodeURIComponent(name)}" data-link>${esc(t("people.challenge"))}</a>`}
      </div><p class="muted">${esc(t("people.blockNote"))}</p><p class="error" role="alert"></p>`;
    box.querySelectorAll("button[data-act]").forEach((b) => b.addEventListener("click", async () => {
      try {
        await call("POST", `/api/people/${b.dataset.act}`, { name });
        await myPeople();
        draw();
        box.querySelector(`button[data-act]`)?.focus();
      } catch (err) { box.querySelector(".error").textContent = errorText(err); }
    }));
    box.querySelectorAll("a[data-link]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); navigate(a.getAttribute("href")); }));
  };
  draw();
}

// -- the People page ---------------------------------------------------------------------
const CLOCKS = [null, 30, 60, 120, 86400];
let poll = null;

export function routePeople(path, app, navigate) {
  if (poll) { clearInterval(poll); poll = null; }
  if (path !== "/people") return false;
  peoplePage(app, navigate);
  return true;
}

function clockText(seconds) {
  return seconds ? durationText(seconds) : t("people.clockNone");
}

function challengeTerms(c) {
  return t("people.terms", { seats: c.seats, clock: clockText(c.clock_seconds), rated: t(c.rated ? "people.ratedYes" : "people.ratedNo") });
}

function personLine(p, buttons) {
  const online = p.online ? ` <span class="online"><span class="online-dot" aria-hidden="true"></span>${esc(t("people.online"))}</span>` : "";
  const acts = buttons.map(([act, label]) => `<button type="button" data-act="${act}" data-name="${esc(p.name)}">${esc(t(label))}<span class="visually-hidden"> ${esc(p.name)}</span></button>`).join(" ");
  return `<li><span><a href="/players/${encodeURIComponent(p.name)}" data-link>${esc(p.name)}</a> ${ratingTag(p.rating)}${online}</span><span class="row">${acts}</span></li>`;
}

function list(people, buttons) {
  return `<ul class="table-list people-list">${people.length ? people.map((p) => personLine(p, buttons)).join("") : `<li class="muted">${esc(t("people.none"))}</li>`}</ul>`;
}

function challengeForm(name) {
  const clocks = CLOCKS.map((c) => `<option value="${c ?? ""}" ${c === 60 ? "selected" : ""}>${esc(clockText(c))}</option>`).join("");
  return `<form id="challenge" class="form">
    <label>${esc(t("people.name"))} <input name="name" required maxlength="32" value="${esc(name)}" autocomplete="off"></label>
    <label>${esc(t("people.seats"))} <select name="seats">${[3, 4, 5].map((n) => `<option ${n === 3 ? "selected" : ""}>${n}</option>`).join("")}</select></label>
    <label>${esc(t("people.clock"))} <select name="clock">${clocks}</select></label>
    <label><input type="checkbox" name="rated" checked> ${esc(t("people.rated"))}</label>
    <label><input type="checkbox" name="bots" checked> ${esc(t("people.bots"))}</label>
    <div class="row"><button type="submit" class="primary">${esc(t("people.send"))}</button>
    <button type="button" id="follow-named">${esc(t("people.follow"))}</button></div>
  </form>`;
}

async function peoplePage(app, navigate) {
  if (!account()) {
    app.innerHTML = `<section class="panel"><h1>${esc(t("people.title"))}</h1><p>${esc(t("people.loginFirst"))}</p><p><a href="/login" data-link>${esc(t("nav.login"))}</a></p></section>`;
    app.querySelector("a[data-link]").addEventListener("click", (e) => { e.preventDefault(); navigate("/login"); });
    return;
  }
  const named = new URLSearchParams(location.search).get("challenge") || "";
  app.innerHTML = `<section class="panel people"><h1>${esc(t("people.title"))}</h1>
    <p class="status-line" role="status" id="people-said"></p><p class="error" role="alert" id="people-error"></p>
    <div id="people-lists" aria-live="polite"></div></section>
    <section class="panel" aria-labelledby="challenge-title"><h2 id="challenge-title">${esc(t("people.challengeTitle"))}</h2>${challengeForm(named)}</section>`;
  const said = app.querySelector("#people-said");
  const error = app.querySelector("#people-error");
  const fail = (err) => { said.textContent = ""; error.textContent = errorText(err); };
  let shown = "";
  const draw = async (again = false) => {
    let p;
    try { p = await myPeople(); } catch (err) { fail(err); return; }
    const box = app.querySelector("#people-lists");
    if (!box || (again && JSON.stringify(p) === shown)) return;  // nothing new: focus stays
    shown = JSON.stringify(p);
    const incoming = p.incoming.map((c) => `<li><span><strong>${esc(t("people.challengeFrom", { name: c.from }))}</strong> · ${esc(challengeTerms(c))} · ${esc(timeLeft(c.expires_ms))}</span>
      <span class="row"><button type="button" class="primary" data-challenge="accept" data-id="${c.id}">${esc(t("people.accept"))}</button>
      <button type="button" data-challenge="decline" data-id="${c.id}">${esc(t("people.decline"))}</button></span></li>`).join("");
    const outgoing = p.outgoing.map((c) => `<li><span>${esc(t("people.challengeTo", { name: c.to }))} · ${esc(challengeTerms(c))} · <em>${esc(t("people.state." + c.state))}</em></span>
      <span class="row">${c.state === "open" ? `<button type="button" data-challenge="withdraw" data-id="${c.id}">${esc(t("people.withdraw"))}</button>` : ""}
      ${c.table ? `<a class="button primary" href="/t/${esc(c.table)}" data-link>${esc(t("people.goToTable"))}</a>` : ""}</span></li>`).join("");
    const none = `<li class="muted">${esc(t("people.noChallenges"))}</li>`;
    box.innerHTML = `<h2>${esc(t("people.incoming"))}</h2><ul class="table-list" id="incoming">${incoming || none}</ul>
      <h2>${esc(t("people.friends"))}</h2>${list(p.friends, [["challenge", "people.challenge"], ["unfollow", "people.unfollow"]])}
      <h2>${esc(t("people.outgoing"))}</h2><ul class="table-list" id="outgoing">${outgoing || none}</ul>
      <h2>${esc(t("people.following"))}</h2>${list(p.following, [["challenge", "people.challenge"], ["unfollow", "people.unfollow"]])}
      <h2>${esc(t("people.followers"))}</h2>${list(p.followers, [["follow", "people.followBack"], ["block", "people.block"]])}
      <h2>${esc(t("people.blocked"))}</h2>${list(p.blocked, [["unblock", "people.unblock"]])}
      <p class="muted">${esc(t("people.blockNote"))}</p>`;
    box.querySelectorAll("a[data-link]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); navigate(a.getAttribute("href")); }));
    box.querySelectorAll("button[data-act]").forEach((b) => b.addEventListener("click", async () => {
      const name = b.dataset.name;
      if (b.dataset.act === "challenge") {
        const field = app.querySelector("#challenge input[name=name]");
        field.value = name;
        field.focus();
        return;
      }
      try {
        await call("POST", `/api/people/${b.dataset.act}`, { name });
        error.textContent = "";
        said.textContent = t("people.done." + b.dataset.act, { name });
      } catch (err) { fail(err); }
      draw();
    }));
    box.querySelectorAll("button[data-challenge]").forEach((b) => b.addEventListener("click", async () => {
      try {
        const answer = await call("POST", `/api/challenges/${b.dataset.id}/${b.dataset.challenge}`);
        if (answer && answer.table) { navigate(`/t/${answer.table}`); return; }
        error.textContent = "";
        said.textContent = t("people.done." + b.dataset.challenge);
      } catch (err) { fail(err); }
      draw();
    }));
  };
  const form = app.querySelector("#challenge");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    try {
      const made = await call("POST", "/api/challenges", {
        name: f.get("name"), seats: Number(f.get("seats")), clock_seconds: f.get("clock") ? Number(f.get("clock")) : null,
        rated: f.get("rated") === "on", bots: f.get("bots") === "on",
      });
      error.textContent = "";
      said.textContent = t("people.sent", { name: made.to });
    } catch (err) { fail(err); }
    draw();
  });
  app.querySelector("#follow-named").addEventListener("click", async () => {
    const name = form.querySelector("input[name=name]").value.trim();
    if (!name) return;
    try {
      const person = await call("POST", "/api/people/follow", { name });
      error.textContent = "";
      said.textContent = t("people.done.follow", { name: person.name });
    } catch (err) { fail(err); }
    draw();
  });
  await draw();
  // challenges come and are answered while the page is open: it asks again now and then
  poll = setInterval(() => { if (!document.hidden && location.pathname === "/people") draw(true); }, 10000);
}
