// Every player-facing string of the browser client goes through t().
//
// The English strings are the catalogue /static/strings/en.json (message id → text). Other
// languages come from the server, GET /api/strings/<lang>, which translates each English
// string through the project's gettext catalogues (kingsbreakfast.i18n, msgctxt "web:<id>")
// and falls back to English where a string is not translated yet.
//
// Lookup: t(id, params) reads the current language's catalogue, falls back to English, then
// to the id itself; "{name}" placeholders are replaced from params. Server errors are looked
// up as "error.<code>" with the error's params, and fall back to the server's English message.
// The language picker lists GET /api/languages and remembers the choice in localStorage.

export const CATALOGS = { en: {} };
let LANGUAGES = [{ code: "en", name: "English" }];

const STORE_KEY = "kingsbreakfast.language";
let current = "en";
const listeners = new Set();

async function fetchJson(path) {
  const reply = await fetch(path);
  if (!reply.ok) throw new Error(`${path}: ${reply.status}`);
  return reply.json();
}

export function addCatalog(lang, catalog) {
  CATALOGS[lang] = { ...(CATALOGS[lang] || {}), ...catalog };
}

export function languages() {
  return LANGUAGES;
}

export function language() {
  return current;
}

// The page names the languages, the player's language and the versioned catalogue URLs in a
// JSON data block (filled in by the server), so the catalogues load in parallel, already
// preloaded, instead of one request waiting on another. Without it (an old page), the API.
function readBoot() {
  try { return JSON.parse(document.getElementById("boot").textContent); } catch (_) { return null; }
}
const BOOT = readBoot();

function catalogueUrl(lang) {
  if (BOOT && BOOT.assets) return `${BOOT.assets}lang/${lang}.json`;
  return lang === "en" ? "/static/strings/en.json" : `/api/strings/${lang}`;
}

// The server reads the pick from a cookie to preload the right catalogue next time; it only
// chooses a language, so it is no secret.
function rememberLanguage(lang) {
  try { localStorage.setItem(STORE_KEY, lang); } catch (_) { /* private mode */ }
  document.cookie = `kb_lang=${encodeURIComponent(lang)}; path=/; max-age=31536000; SameSite=Lax`;
}

async function load(lang) {
  if (!CATALOGS[lang] || Object.keys(CATALOGS[lang]).length === 0) {
    addCatalog(lang, await fetchJson(catalogueUrl(lang)));
  }
}

export async function setLanguage(lang) {
  if (!LANGUAGES.some((l) => l.code === lang)) return;
  try { await load(lang); } catch (_) { return; }
  current = lang;
  rememberLanguage(lang);
  document.documentElement.lang = lang;
  for (const fn of listeners) fn(lang);
}

export function onLanguageChange(fn) {
  listeners.add(fn);
}

export async function initLanguage() {
  if (BOOT && BOOT.languages) {
    LANGUAGES = BOOT.languages;
    let wanted = null;
    try { wanted = localStorage.getItem(STORE_KEY); } catch (_) { /* private mode */ }
    if (!wanted || !LANGUAGES.some((l) => l.code === wanted)) wanted = BOOT.language || "en";
    const [, picked] = await Promise.allSettled([load("en"), wanted === "en" ? null : load(wanted)]);
    current = wanted !== "en" && picked.status === "fulfilled" ? wanted : "en";
    if (current !== BOOT.language) rememberLanguage(current);
    document.documentElement.lang = current;
    return;
  }
  await load("en");
  try { LANGUAGES = await fetchJson("/api/languages"); } catch (_) { /* English only */ }
  let wanted = null;
  try { wanted = localStorage.getItem(STORE_KEY); } catch (_) { /* private mode */ }
  if (!wanted) {  // not picked yet: the browser's Accept-Language, as the server reads it
    try { wanted = (await fetchJson("/api/language")).code; } catch (_) { wanted = "en"; }
  }
  if (wanted !== "en" && LANGUAGES.some((l) => l.code === wanted)) {
    try { await load(wanted); current = wanted; } catch (_) { current = "en"; }
  }
  document.documentElement.lang = current;
}

export function has(id) {
  return id in (CATALOGS[current] || {}) || id in CATALOGS.en;
}

export function t(id, params = {}) {
  const text = (CATALOGS[current] && CATALOGS[current][id]) ?? CATALOGS.en[id] ?? id;
  return text.replace(/\{(\w+)\}/g, (all, key) => (key in params ? String(params[key]) : all));
}

// A count's text in the current language's plural rule (CLDR, through Intl.PluralRules):
// `oneId` where the language says "one" (French also for 0), `otherId` for every other
// category; Vietnamese has no singular form, so it always takes `otherId`.
export function tCount(oneId, otherId, count, params = {}) {
  let category = count === 1 ? "one" : "other";
  try { category = new Intl.PluralRules(current).select(count); } catch (_) { /* old browser */ }
  return t(category === "one" ? oneId : otherId, { ...params, count });
}

// A server error frame or HTTP error body: {code, message, params}.
export function errorText(error) {
  const id = "error." + error.code;
  const params = { ...(error.params || {}) };
  if (typeof params.dish === "string" && has("dish." + params.dish)) {
    params.dish = dishName(params.dish);  // the engine names dishes by id
  }
  if (has(id)) return t(id, params);
  return t("error.generic", { message: error.message || error.code });
}

export function dishName(dish) {
  return t("dish." + dish);
}
