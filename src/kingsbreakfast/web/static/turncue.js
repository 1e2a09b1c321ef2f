// Telling a player it is their turn when they are looking elsewhere: the tab's title and a
// badge on its icon always; a short sound and a browser notification (when the tab is
// hidden) if the player switched them on.
import { t } from "./strings.js";
import { pref } from "./prefs.js";

let plainTitle = null;

function favicon() { return document.getElementById("favicon"); }

// Show or clear the cue; `fresh` is true only when the turn has just begun (the sound and
// the notification come once, the title and badge stay while it is the player's turn).
export function turnCue(myTurn, fresh = false) {
  const icon = favicon();
  if (icon && !icon.dataset.plain) icon.dataset.plain = icon.getAttribute("href");
  if (plainTitle === null) plainTitle = document.title;
  if (!myTurn) {
    clearTurnCue();
    return;
  }
  document.title = `${t("game.yourTurn")} · ${t("app.title")}`;
  if (icon) icon.setAttribute("href", icon.dataset.plain.replace(/favicon\.svg$/, "favicon-turn.svg"));
  document.documentElement.dataset.turn = "yes";
  if (!fresh) return;
  if (pref("sound")) chime();
  if (pref("notify") && document.hidden && "Notification" in window && Notification.permission === "granted") {
    try { new Notification(t("game.yourTurn"), { body: t("app.title"), tag: "kingsbreakfast-turn" }); } catch (_) { /* not allowed here */ }
  }
}

export function clearTurnCue() {
  const icon = favicon();
  if (icon && icon.dataset.plain) icon.setAttribute("href", icon.dataset.plain);
  if (plainTitle !== null) document.title = plainTitle;
  delete document.documentElement.dataset.turn;
}

// Ask the browser for leave to notify; whether it was given.
export async function askToNotify() {
  if (!("Notification" in window)) return false;
  if (Notification.permission === "granted") return true;
  try { return (await Notification.requestPermission()) === "granted"; } catch (_) { return false; }
}

let audio = null;

// Two soft notes made on the spot (no sound file to fetch).
function chime() {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    [660, 880].forEach((pitch, i) => {
      const tone = audio.createOscillator();
      const level = audio.createGain();
      tone.frequency.value = pitch;
      level.gain.setValueAtTime(0.0001, now + i * 0.14);
      level.gain.exponentialRampToValueAtTime(0.12, now + i * 0.14 + 0.02);
      level.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.25);
      tone.connect(level).connect(audio.destination);
      tone.start(now + i * 0.14);
      tone.stop(now + i * 0.14 + 0.3);
    });
  } catch (_) { /* no audio here */ }
}
