// The account page's notices (server/notices.py): which kinds the player is told of, by
// push and by mail, and this device's Web Push. Each switch is saved as it changes. A push
// subscription is made with the site's VAPID key and sent to the server; its keys go
// nowhere else.
import { t, errorText, language } from "./strings.js";
import { call, esc } from "./pages.js";

const KINDS = ["your_turn", "clock_low", "challenge", "game_starting"];
const CHANNELS = ["push", "mail"];

function keyBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

function pushable() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

async function deviceSubscription() {
  if (!pushable()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

export async function noticeSection(root) {
  const rows = KINDS.map((kind) => `<fieldset class="notice-kind"><legend>${esc(t(`notices.kind.${kind}`))}</legend>
    ${CHANNELS.map((channel) => `<label><input type="checkbox" data-kind="${kind}" data-channel="${channel}"> ${esc(t(`notices.channel.${channel}`))}</label>`).join(" ")}
  </fieldset>`).join("");
  root.insertAdjacentHTML("beforeend", `<section class="panel" id="notices" aria-labelledby="notices-title">
    <h2 id="notices-title">${esc(t("notices.title"))}</h2>
    <p>${esc(t("notices.intro"))}</p>
    <p class="muted" id="notices-mail"></p>
    <form id="notice-switches" class="form">${rows}</form>
    <p><button type="button" id="push-on">${esc(t("notices.pushOn"))}</button>
      <button type="button" id="push-off" hidden>${esc(t("notices.pushOff"))}</button></p>
    <p role="status" id="notices-state"></p>
    <p class="error" role="alert" id="notices-error"></p></section>`);
  const section = root.querySelector("#notices");
  const state = section.querySelector("#notices-state");
  const error = section.querySelector("#notices-error");
  const on = section.querySelector("#push-on");
  const off = section.querySelector("#push-off");
  const show = (reply) => {
    for (const box of section.querySelectorAll("input[data-kind]")) {
      box.checked = reply.switches[box.dataset.kind][box.dataset.channel];
    }
    section.querySelector("#notices-mail").textContent = !reply.mail ? t("error.mail_unavailable")
      : reply.email_verified ? "" : t("notices.mailNeedsAddress");
  };
  const showDevice = async () => {
    const subscription = await deviceSubscription().catch(() => null);
    on.hidden = Boolean(subscription);
    off.hidden = !subscription;
    if (!pushable()) { on.disabled = true; state.textContent = t("notices.pushUnsupported"); }
  };
  try { show(await call("GET", "/api/me/notices")); } catch (err) { error.textContent = errorText(err); }
  await showDevice();
  section.querySelector("#notice-switches").addEventListener("change", async (e) => {
    const box = e.target;
    if (!box.dataset.kind) return;
    error.textContent = "";
    try {
      show(await call("PUT", "/api/me/notices", { switches: { [box.dataset.kind]: { [box.dataset.channel]: box.checked } } }));
      state.textContent = t("notices.saved");
    } catch (err) { box.checked = !box.checked; error.textContent = errorText(err); }
  });
  on.addEventListener("click", async () => {
    error.textContent = state.textContent = "";
    try {
      if (await Notification.requestPermission() !== "granted") { state.textContent = t("notices.pushDenied"); return; }
      const { key } = await call("GET", "/api/push/key");
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
      await call("POST", "/api/me/push", { ...subscription.toJSON(), language: language() });
      state.textContent = t("notices.pushEnabled");
    } catch (err) { error.textContent = err && typeof err.code === "string" ? errorText(err) : t("notices.pushFailed"); }
    await showDevice();
  });
  off.addEventListener("click", async () => {
    error.textContent = state.textContent = "";
    try {
      const subscription = await deviceSubscription();
      if (subscription) {
        await call("DELETE", "/api/me/push", { endpoint: subscription.endpoint });
        await subscription.unsubscribe();
      }
      state.textContent = t("notices.pushDisabled");
    } catch (err) { error.textContent = errorText(err); }
    await showDevice();
  });
}
