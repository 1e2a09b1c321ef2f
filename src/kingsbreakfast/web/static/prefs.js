// The player's settings for this browser: single-key shortcuts, sound and notifications at
// their turn. They are kept in localStorage; none of them is a secret.

const KEY = "kingsbreakfast.prefs";
const DEFAULTS = { shortcuts: true, sound: false, notify: false, theme: "auto" };

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

// Light or dark colours: "auto" follows the system (prefers-color-scheme), "light" and "dark"
// hold whatever the system says; the stylesheet reads the root's data-theme.
export const THEMES = ["auto", "light", "dark"];
export function applyTheme(theme = pref("theme")) {
  const root = document.documentElement;
  if (theme === "light" || theme === "dark") root.dataset.theme = theme; else delete root.dataset.theme;
  const dark = theme === "dark" || (theme !== "light" && window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches);
  document.querySelector('meta[name="theme-color"]')?.setAttribute("content", dark ? "#15120f" : "#3d2b1f");
}
export function setTheme(theme) { setPref("theme", THEMES.includes(theme) ? theme : "auto"); applyTheme(); }
