// Players' names as the page shows them. The server names a bot's seat in records and in
// the archive in English, "Bot 3 (hard)" (server/tables.py, bot_name); the page shows that
// name in the player's language, and a deleted account's pseudonym too. A human's name is
// shown as given.
import { t, has } from "./strings.js";

const BOT = /^Bot (\d+) \((\w+)\)$/;
// A deleted account's pseudonym, stored in English like a bot's name (server/farewell_store.py)
const FORMER = /^Former player (\d+)$/;

export function displayName(name) {
  const former = FORMER.exec(String(name));
  if (former) return t("account.formerPlayer", { number: former[1] });
  const found = BOT.exec(String(name));
  if (!found || !has("level." + found[2])) return String(name);
  return t("seat.bot", { seat: found[1], level: t("level." + found[2]) });
}
