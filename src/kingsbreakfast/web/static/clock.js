// Time left on a clock, in words of the player's language: "2 days, 3 hours", "4 minutes,
// 10 seconds", never "3599 s". The units and their grammar are the browser's (CLDR, through
// Intl.DurationFormat where the browser has it, else Intl.NumberFormat's unit style joined
// by Intl.ListFormat); only the sentence around them is ours ("{time} left").
import { t, language } from "./strings.js";

const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

// The two largest units that matter: days and hours beyond a day, hours and minutes beyond
// an hour, minutes and seconds under ten minutes, whole minutes between (a turn-based clock
// need not tick every second).
export function parts(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const split = {};
  let rest = s;
  for (const [unit, size] of UNITS) { split[unit] = Math.floor(rest / size); rest %= size; }
  if (s >= 86400) return [["day", split.day], ["hour", split.hour]];
  if (s >= 3600) return [["hour", split.hour], ["minute", split.minute]];
  if (s >= 600) return [["minute", split.minute]];
  if (s >= 60) return [["minute", split.minute], ["second", split.second]];
  return [["second", split.second]];
}

export function durationText(seconds, lang = language()) {
  const shown = parts(seconds).filter(([, n], i) => n > 0 || i === 0);
  if (typeof Intl.DurationFormat === "function") {
    try {
      const value = Object.fromEntries(shown.map(([unit, n]) => [unit + "s", n]));
      return new Intl.DurationFormat(lang, { style: "long" }).format(value);
    } catch (_) { /* fall through to the unit style */ }
  }
  const words = shown.map(([unit, n]) => new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "long" }).format(n));
  try { return new Intl.ListFormat(lang, { style: "long", type: "unit" }).format(words); } catch (_) { return words.join(" "); }
}

// "{time} left" for a deadline in epoch milliseconds.
export function timeLeft(deadlineMs) {
  return t("game.timeLeft", { time: durationText((deadlineMs - Date.now()) / 1000) });
}
