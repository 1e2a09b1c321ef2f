// Tournaments in the browser (docs/tournaments.md): the list with a form to make one, and a
// tournament's page with its standings (bots marked), its tables and the caller's own table.
//
// The page polls GET /api/tournaments/{id}?since=version every 2 s and redraws only when the
// answer is not 204 (nothing changed); it stops polling once the address changes.
import { t, errorText } from "./strings.js";
import { esc, call, account } from "./pages.js";

const POLL_MS = 2000;
const LEVELS = ["random", "easy", "medium", "hard", "expert", "master", "chef"];

export function routeTournaments(path, app, navigate) {
  if (path === "/tournaments") { listPage(app, navigate); return true; }
  const m = path.match(/^\/tournaments\/([\w-]{1,32})$/);
  if (m) { tournamentPage(app, navigate, m[1]); return true; }
  return false;
}

function links(app, navigate) {
  app.querySelectorAll("a[data-link]").forEach((a) => a.addEventListener("click", (e) => { e.preventDefault(); navigate(a.getAttribute("href")); }));
}

function when(ms) {
  return new Date(ms).toLocaleString(document.documentElement.lang || undefined, { dateStyle: "short", timeStyle: "short" });
}

function kindLine(x) {
  const speed = t(x.clock_seconds >= 3600 ? "tour.turn" : "tour.live");
  return x.kind === "swiss"
    ? t("tour.aboutSwiss", { seats: x.seats, rounds: x.rounds, speed })
    : t("tour.aboutArena", { seats: x.seats, minutes: Math.round((x.ends_at_ms - x.starts_at_ms) / 60000), speed });
}

async function listPage(app, navigate) {
  const me = account();
  const form = me ? `<section class="panel"><h2>${esc(t("tour.make"))}</h2>
    <form id="make-tournament" class="form">
      <label>${esc(t("tour.name"))} <input name="name" required maxlength="32"></label>
      <label>${esc(t("tour.kind"))} <select name="kind"><option value="swiss">${esc(t("tour.swiss"))}</option><option value="arena">${esc(t("tour.arena"))}</option></select></label>
      <label>${esc(t("tour.seats"))} <select name="seats"><option>3</option><option selected>4</option><option>5</option></select></label>
      <label>${esc(t("tour.speed"))} <select name="speed"><option value="live">${esc(t("tour.live"))}</option><option value="turn">${esc(t("tour.turn"))}</option></select></label>
      <label>${esc(t("tour.rounds"))} <input name="rounds" type="number" min="1" max="9" value="3"></label>
      <label>${esc(t("tour.minutes"))} <input name="minutes" type="number" min="5" max="240" value="30"></label>
      <label>${esc(t("tour.startsIn"))} <input name="starts_in" type="number" min="0" max="10080" value="5"></label>
      <label>${esc(t("tour.bots"))} <input name="bots" type="number" min="0" max="8" value="1"></label>
      <label>${esc(t("lobby.botLevel"))} <select name="bot_level">${LEVELS.map((l) => `<option value="${l}" ${l === "chef" ? "selected" : ""}>${esc(t("level." + l))}</option>`).join("")}</select></label>
      <label class="check"><input name="rated" type="checkbox"> ${esc(t("tour.rated"))}</label>
      <button type="submit" class="primary">${esc(t("tour.create"))}</button>
      <p class="error" role="alert" id="make-error"></p>
    </form></section>` : `<p class="muted">${esc(t("tour.loginToMake"))} <a href="/login" data-link>${esc(t("nav.login"))}</a></p>`;
  app.innerHTML = `<section class="panel"><h1>${esc(t("tour.title"))}</h1><div id="tournament-list" aria-live="polite"></div></section>${form}`;
  links(app, navigate);
  const made = app.querySelector("#make-tournament");
  if (made) made.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const body = {
      name: f.get("name"), kind: f.get("kind"), seats: Number(f.get("seats")), speed: f.get("speed"),
      rounds: Number(f.get("rounds")), minutes: Number(f.get("minutes")),
      starts_in: Number(f.get("starts_in")) * 60, bots: Number(f.get("bots")), rated: f.get("rated") === "on",
      bot_level: f.get("bot_level"),
    };
    try { navigate(`/tournaments/${(await call("POST", "/api/tournaments", body)).id}`); }
    catch (err) { app.querySelector("#make-error").textContent = errorText(err); }
  });
  const box = app.querySelector("#tournament-list");
  let rows;
  try { rows = await call("GET", "/api/tournaments"); } catch (err) { box.textContent = errorText(err); return; }
  if (!rows.length) { box.innerHTML = `<p>${esc(t("tour.none"))}</p>`; return; }
  box.innerHTML = `<ul class="tournaments">${rows.map((x) => `<li><a href="/tournaments/${esc(x.id)}" data-link>${esc(x.name)}</a>
    <span class="muted">${esc(kindLine(x))} · ${esc(t("tour.status." + x.status))} · ${esc(t("tour.startsAt", { when: when(x.starts_at_ms) }))} · ${esc(t("tour.entrants", { count: x.entrants }))}</span></li>`).join("")}</ul>`;
  links(box, navigate);
}

function nameCell(x) {
  return `${esc(x.name)}${x.bot ? ` <span class="badge bot">${esc(t("tour.bot"))}</span>` : ""}`;
}

function render(app, navigate, x) {
  const me = account();
  const you = x.you;
  const open = x.status === "open" || (x.kind === "arena" && x.status === "running");
  const actions = [];
  if (me && open && (!you || you.withdrawn)) actions.push(`<button type="button" class="primary" id="enter">${esc(t("tour.enter"))}</button>`);
  if (me && open && you && !you.withdrawn) actions.push(`<button type="button" id="leave">${esc(t("tour.leave"))}</button>`);
  if (me && x.status === "open" && x.yours) actions.push(`<button type="button" id="start-now">${esc(t("tour.startNow"))}</button>`);
  if (!me && open) actions.push(`<a href="/login" data-link>${esc(t("tour.loginToEnter"))}</a>`);
  const mine = you && you.table ? `<p class="your-table"><a class="button primary" href="/t/${esc(you.table)}" data-link>${esc(t("tour.yourTable"))}</a></p>` : "";
  const swiss = x.kind === "swiss";
  const head = `<tr><th scope="col">${esc(t("tour.rank"))}</th><th scope="col">${esc(t("tour.player"))}</th><th scope="col">${esc(t("tour.points"))}</th><th scope="col">${esc(t("tour.wins"))}</th>${swiss ? `<th scope="col">${esc(t("tour.buchholz"))}</th>` : `<th scope="col">${esc(t("tour.streak"))}</th>`}<th scope="col">${esc(t("tour.games"))}</th></tr>`;
  const rows = x.standings.map((r) => `<tr><td>${r.rank}</td><th scope="row">${nameCell(r)}</th><td>${r.points}</td><td>${r.wins}</td><td>${swiss ? r.buchholz : r.streak}</td><td>${r.games}</td></tr>`).join("");
  const tables = x.games.slice().reverse().map((g) => {
    const seats = g.seats.map((s, i) => {
      const who = s ? nameCell(s) : esc(t("tour.houseBot"));
      return g.points ? `${who} (${g.points[i]})` : who;
    }).join(", ");
    const label = swiss ? t("tour.roundN", { round: g.round }) : t("tour.table");
    return `<li><a href="/t/${esc(g.table)}" data-link>${esc(label)}</a> · ${esc(t("tour.state." + g.state))}: ${seats}</li>`;
  }).join("");
  const progress = swiss && x.round ? ` · ${esc(t("tour.roundOf", { round: x.round, rounds: x.rounds }))}` : "";
  const time = x.kind === "arena" && x.ends_at_ms ? ` · ${esc(t("tour.endsAt", { when: when(x.ends_at_ms) }))}` : "";
  app.innerHTML = `<section class="panel tournament"><h1>${esc(x.name)}</h1>
    <p>${esc(kindLine(x))}${x.rated ? ` · ${esc(t("tour.ratedShort"))}` : ""}</p>
    <p><strong>${esc(t("tour.status." + x.status))}</strong> · ${esc(t("tour.startsAt", { when: when(x.starts_at_ms) }))}${progress}${time}</p>
    <div class="row">${actions.join(" ")}</div><p class="error" role="alert" id="tour-error"></p>${mine}
    <h2>${esc(t("tour.standings"))}</h2>
    <div class="scroll"><table class="board"><thead>${head}</thead><tbody>${rows}</tbody></table></div>
    ${tables ? `<h2>${esc(t("tour.tables"))}</h2><ul class="tournament-tables">${tables}</ul>` : ""}
    <p class="muted">${esc(t("tour.tieBreaks"))}</p></section>`;
  links(app, navigate);
  const act = (id, method, path) => {
    const button = app.querySelector("#" + id);
    if (button) button.addEventListener("click", async () => {
      try { await call(method, path); await refresh(app, navigate, x.id, null); }
      catch (err) { app.querySelector("#tour-error").textContent = errorText(err); }
    });
  };
  act("enter", "POST", `/api/tournaments/${x.id}/entry`);
  act("leave", "DELETE", `/api/tournaments/${x.id}/entry`);
  act("start-now", "POST", `/api/tournaments/${x.id}/start`);
}

let shownVersion = null;

async function refresh(app, navigate, id, since) {
  const x = await call("GET", `/api/tournaments/${id}${since === null ? "" : `?since=${since}`}`);
  if (x === null) return;  // 204: nothing changed
  shownVersion = x.version;
  const focused = document.activeElement && document.activeElement.id;
  render(app, navigate, x);
  if (focused) document.getElementById(focused)?.focus();
}

async function tournamentPage(app, navigate, id) {
  const path = location.pathname;
  app.innerHTML = `<section class="panel tournament" aria-busy="true"><p>…</p></section>`;
  shownVersion = null;
  try { await refresh(app, navigate, id, null); }
  catch (err) { app.innerHTML = `<section class="panel"><p class="error" role="alert">${esc(errorText(err))}</p></section>`; return; }
  const timer = setInterval(async () => {
    if (location.pathname !== path) { clearInterval(timer); return; }
    if (document.hidden) return;
    try { await refresh(app, navigate, id, shownVersion); } catch (_) { /* offline a moment: next time */ }
  }, POLL_MS);
}
