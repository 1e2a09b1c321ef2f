// Players' names as the page shows them. The server names a bot's seat in records and in
// the archive in English, "Bot 3 (hard)" (server/tables.py, bot_name); the page shows that
// name in the player's language. A human's name is shown as given.
import { t, has } from "./strings.js";

const BOT = /^Bot (\d+) \((\w+)\)$/;

export function displayName(name) {
  const found = BOT.exec(String(name));
  if (!found || !has("level." + found[2])) return String(name);
  return t("seat.bot", { seat: found[1], level: t("level." + found[2]) });
}
