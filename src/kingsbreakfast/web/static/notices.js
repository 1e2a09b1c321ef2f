// What the page says when there is nothing to play with: an address the client does not
// draw (the server answers it 404 with this same page, so a browser sees a page in the
// player's language instead of raw JSON), and a lobby opened without a connection (the
// service worker's kept page), where the forms would otherwise look usable and then fail.
import { t } from "./strings.js";
import { esc } from "./pages.js";

export function renderNotFound(app, navigate) {
  app.innerHTML = `<section class="panel not-found"><h1 id="not-found" tabindex="-1">${esc(t("notFound.title"))}</h1>
    <p>${esc(t("notFound.text"))}</p>
    <p><a href="/" class="button primary" data-link>${esc(t("notFound.home"))}</a></p></section>`;
  app.querySelector("a[data-link]").addEventListener("click", (e) => { e.preventDefault(); navigate("/"); });
}

// The lobby's notice while offline, above everything else; gone again once online.
export function sayOffline(app) {
  if (app.querySelector("#offline")) return;
  app.insertAdjacentHTML("afterbegin", `<p class="panel notice offline" role="status" id="offline">${esc(t("lobby.offline"))}</p>`);
}

export function watchConnection(onChange) {
  window.addEventListener("offline", onChange);
  window.addEventListener("online", onChange);
}
