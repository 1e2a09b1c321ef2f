// What the game log tells beyond the moves: where each round ends (R3), what the king was
// served (R9) and what the cook turned up for the next round (R4), which moves a bot made
// for a player who was away, and who left the game or took over a seat left (seen from two
// frames in a row: the seats are public, the log line stands where the history then ended).
//
// Round ends follow from the history alone: a round is one turn per player, and a turn is
// one entry, or two when a drawn dragon is used or placed (a draw followed by the same seat's
// feed or place_dragon, R7a). What was served and dealt is public, but it is not in the
// history: the page works it out from two views in a row, so it knows it for the rounds it
// saw end (RoundWitness below), and says only "round N is over" for earlier ones.
import { t, dishName } from "./strings.js";
import { DISHES } from "./cards.js";

// history index → number of the round that ends with that entry
export function roundEnds(history, numPlayers, pendingDragon = false) {
  const ends = new Map();
  let turns = 0;
  for (let i = 0; i < history.length; i++) {
    const entry = history[i];
    const next = history[i + 1];
    if (entry.type === "draw" && next && next.seat === entry.seat && (next.type === "feed" || next.type === "place_dragon")) continue;
    if (entry.type === "draw" && !next && pendingDragon) continue;  // the dragon's choice is still to come
    turns += 1;
    if (turns % numPlayers === 0) ends.set(i, turns / numPlayers);
  }
  return ends;
}

export function cardList(counts, dragons = 0) {
  const parts = DISHES.filter((d) => counts[d] > 0).map((d) => `${counts[d]} ${dishName(d)}`);
  if (dragons > 0) parts.push(`${dragons} ${dishName("dragon")}`);
  return parts.join(", ");
}

// Dragons that left the table between two views: fed from the table (a feed that does not
// follow the same seat's draw, R8), less the ones placed there (R7a).
function dragonsPlacedLessFed(entries, before) {
  let change = 0;
  entries.forEach((entry, i) => {
    const previous = i > 0 ? entries[i - 1] : before;
    const afterOwnDraw = previous && previous.type === "draw" && previous.seat === entry.seat;
    if (entry.type === "place_dragon") change += 1;
    else if (entry.type === "feed" && !afterOwnDraw) change -= 1;
  });
  return change;
}

export class RoundWitness {
  constructor() {
    this.served = new Map();  // round → dish counts the king was served at its end
    this.dealt = new Map();   // round → {dishes, dragons} turned up at its start
    this.byBot = new Set();   // history indices of moves a bot made for an away player
    this.seatNotes = [];      // {at: history length then, text}: players who left or came
  }

  // The seats of two frames in a row during play (either null before the deal): a line for
  // each player who left (the seat opens, keeping their name) and each newcomer who took a
  // left seat; the new lines, also kept for the log.
  seatsChanged(before, after, at) {
    if (!before || !after) return [];
    const lines = [];
    after.forEach((seat, i) => {
      const was = before[i];
      if (!was) return;
      if (was.kind === "human" && seat.kind === "open") {
        lines.push(t("log.left", { name: was.name }));
      } else if (was.kind !== "human" && seat.kind === "human") {
        lines.push(was.name ? t("log.tookOver", { name: seat.name, was: was.name }) : t("log.tookSeat", { name: seat.name, seat: i + 1 }));
      }
    });
    for (const text of lines) this.seatNotes.push({ at, text });
    return lines;
  }

  // Note what changed from view `before` to view `after` (either may be null) and which
  // seats were away in `seats` (the table's seats as the frame gives them); the log lines
  // that are new, for the live region.
  observe(before, after, seats) {
    if (!after) return [];
    const lines = [];
    const start = before ? before.history.length : after.history.length;
    for (let i = start; i < after.history.length; i++) {
      const seat = seats[after.history[i].seat];
      if (seat && seat.kind === "human" && seat.zombie) this.byBot.add(i);
    }
    if (!before && after.history.length === 0 && after.round === 1) {
      this.dealt.set(1, { dishes: { ...after.table }, dragons: after.table_dragons });
      return lines;
    }
    if (!before || after.history.length <= before.history.length) return lines;
    const ended = after.to_move === null || after.round === before.round + 1;
    if (!ended || after.round > before.round + 1) return lines;
    const served = {};
    for (const d of DISHES) served[d] = (after.king[d] - before.king[d]) + (after.removed.dishes[d] - before.removed.dishes[d]);
    this.served.set(before.round, served);
    lines.push(this.roundLine(before.round));
    // the new table is all dealt only if no move of the new round came in the same view
    const ends = roundEnds(after.history, after.num_players, after.pending_dragon);
    if (after.to_move !== null && ends.has(after.history.length - 1)) {
      const between = after.history.slice(before.history.length);
      const last = before.history[before.history.length - 1];
      const kept = before.table_dragons + dragonsPlacedLessFed(between, last);
      this.dealt.set(after.round, { dishes: { ...after.table }, dragons: Math.max(0, after.table_dragons - kept) });
      lines.push(this.dealtLine(after.round));
    }
    return lines;
  }

  roundLine(round) {
    const served = this.served.get(round);
    if (!served) return t("log.roundOver", { round });
    const cards = cardList(served);
    return cards ? t("log.served", { round, cards }) : t("log.servedNothing", { round });
  }

  dealtLine(round) {
    const dealt = this.dealt.get(round);
    return dealt ? t("log.dealt", { round, cards: cardList(dealt.dishes, dealt.dragons) }) : null;
  }

  // The log in order, oldest first: {text, round, value} for each line, where `value` is the
  // move's number (none for a round line).
  lines(view, lineOf) {
    const out = [];
    const first = this.dealtLine(1);
    if (first) out.push({ text: first, round: true });
    const ends = roundEnds(view.history, view.num_players, view.pending_dragon);
    const notesAt = (n) => this.seatNotes.filter((note) => note.at === n).map((note) => ({ text: note.text, round: true }));
    out.push(...notesAt(0));
    view.history.forEach((entry, i) => {
      const text = lineOf(entry);
      out.push({ text: this.byBot.has(i) ? t("log.byBot", { line: text }) : text, value: i + 1, bot: this.byBot.has(i) });
      if (ends.has(i)) {
        const round = ends.get(i);
        out.push({ text: this.roundLine(round), round: true });
        const dealt = this.dealtLine(round + 1);
        if (dealt) out.push({ text: dealt, round: true });
      }
      out.push(...notesAt(i + 1));
    });
    return out;
  }
}
