// The player's settings for this browser: single-key shortcuts, sound and notifications at
// their turn. They are kept in localStorage; none of them is a secret.

const KEY = "kingsbreakfast.prefs";
const DEFAULTS = { shortcuts: true, sound: false, notify: false };

function load() {
  try { return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") }; } catch (_) { return { ...DEFAULTS }; }
}

function save(prefs) {
  try { localStorage.setItem(KEY, JSON.stringify(prefs)); } catch (_) { /* private mode */ }
}

export function pref(name) { return load()[name]; }
export function setPref(name, value) { save({ ...load(), [name]: value }); }
export function shortcutsOn() { return pref("shortcuts") !== false; }
export function setShortcuts(on) { setPref("shortcuts", !!on); }
