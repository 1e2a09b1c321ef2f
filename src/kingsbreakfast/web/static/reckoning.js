// What the table tells a player beside the cards, reckoned from the view the page already
// has (nothing more is sent): the points of their hand if the game ended now (R11), the
// dishes they hold more of than the king (discarded at the end unless the king gets more),
// and whether this round is the last (R10). The engine's score_hand (engine/scoring.py) and
// View.last_round (engine/views.py) say the same; tests/web/test_web_reckoning.py checks this
// copy against the engine on many hands.
import { DISHES } from "./cards.js";

// R11: a dish held more often than the king has it is discarded (every card of it, also when
// the king has none); otherwise each card scores as many points as the king has of it.
export function handScore(king, hand) {
  let points = 0;
  let discarded = 0;
  const over = [];
  for (const dish of DISHES) {
    const held = hand[dish] || 0;
    if (!held) continue;
    const kings = king[dish] || 0;
    if (held > kings) { discarded += held; over.push(dish); } else points += held * kings;
  }
  return { points, discarded, over };
}

// A seat's whole hand: what it took (everyone sees) and what it drew (only it sees).
export function wholeHand(hand) {
  const all = {};
  for (const dish of DISHES) all[dish] = ((hand.takes || {})[dish] || 0) + ((hand.draws || {})[dish] || 0);
  return all;
}

// R4, R10: a cook needs two cards a player to set a table, and the deck only shrinks, so
// once it holds fewer the round being played is the last.
export function lastRound(view) {
  return view.to_move !== null && view.deck < 2 * view.hands.length;
}
