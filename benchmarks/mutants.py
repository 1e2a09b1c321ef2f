"""Hand-made mutants of the code where a silent bug hurts players most, and whether the tests
catch each one (issue 45: the settled outcomes and last turns, the lesson, the review and
its guard, the rating rules, the registration limits).

mutmut (``benchmarks/mutation.py``) changes the code one token at a time; the bugs a person
makes are often larger and mean something: "a dragon may still be drawn" dropped from what
makes a position unsettled, a shared win counted as a whole one, a cache that forgets the
deck's order. Each mutant here is such a bug, written as a text edit of one source file
(``old`` replaced by ``new``, each ``old`` found exactly once). The script copies ``src`` to
a scratch folder, applies one mutant at a time there (the work tree is never touched), runs
the mutant's tests with ``-x`` and prints *caught* (a test failed) or *survived*, then the
score of each module: caught / (mutants - equivalent), the equivalent ones named in
:data:`EQUIVALENT` with the reason. A mutant that no longer applies (its ``old`` text is
gone, or none of its tests is there) is reported as ``stale`` and left out of the score.

    python benchmarks/mutants.py --list               # the mutants, by module
    python benchmarks/mutants.py                      # every mutant
    python benchmarks/mutants.py settled lesson       # the mutants of some modules
    python benchmarks/mutants.py --only settled.dragon_drawn

Run it in the project's root with the project's environment (PYTHONPATH is set here to the
scratch copy, then ``tests``). The review's live test needs PostgreSQL
(``KINGSBREAKFAST_TEST_POSTGRES_URL``), as the suite does.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "src/kingsbreakfast"


@dataclass(frozen=True, slots=True)
class Mutant:
    module: str
    """The module the mutant belongs to, as the score table names it."""
    name: str
    path: str
    """The file, relative to ``src/kingsbreakfast``."""
    edits: tuple[tuple[str, str], ...]
    """(old, new) pairs, each ``old`` found once in the file."""
    tests: tuple[str, ...]
    """What pytest runs against the mutant (files or node ids under ``tests``)."""
    bug: str
    """What a player would suffer."""


SETTLED_TESTS = ("tests/bots/test_settled_known.py", "tests/bots/test_settled.py")
LAST_TURNS_TESTS = ("tests/bots/test_last_turns_known.py", "tests/bots/test_last_turns.py")
LESSON_TESTS = ("tests/lesson",)
REVIEW_TESTS = (
    "tests/bots/test_review.py", "tests/server/test_server_review.py",
    "tests/server/test_server_review_route.py", "tests/server/test_server_record_guard.py",
    "tests/server/test_server_review_live.py", "tests/server/test_server_review_cluster.py",
)
RATING_TESTS = ("tests/server/test_rating_rules.py", "tests/server/test_accounts_props.py")
NAME_TESTS = (
    "tests/server/test_attack_rated.py::"
    "test_a_guest_cannot_sit_under_an_account_s_name_through_play_now",
)
REGISTRATION_TESTS = ("tests/server/test_accounts_props.py", "tests/server/test_registrations.py")


def _m(module: str, name: str, path: str, old: str, new: str, tests: tuple[str, ...],
       bug: str) -> Mutant:
    return Mutant(module, name, path, ((old, new),), tests, bug)


S = "bots/settled.py"
L = "bots/last_turns.py"
MUTANTS: tuple[Mutant, ...] = (
    # -- bots/settled.py ------------------------------------------------------------------
    _m("settled", "dragon_drawn", S,
       "if after.table_dragons or (after.deck_size and dragons):",
       "if after.table_dragons:", SETTLED_TESTS,
       "a dragon still in the deck is forgotten (R7a): exact points claimed that a drawn, "
       "fed dragon changes"),
    _m("settled", "dragon_on_table", S,
       "if after.table_dragons or (after.deck_size and dragons):",
       "if after.deck_size and dragons:", SETTLED_TESTS,
       "a dragon on the table is forgotten (R8)"),
    _m("settled", "shared_as_win", S,
       'result = ("win" if len(winners) == 1 else "shared") if mover in winners else "loss"',
       'result = "win" if mover in winners else "loss"', SETTLED_TESTS,
       "a shared win (R12) told as a win"),
    _m("settled", "share_whole", S,
       "1.0 / len(winners) if mover in winners else 0.0",
       "1.0 if mover in winners else 0.0", SETTLED_TESTS,
       "a shared win's share counted whole"),
    _m("settled", "not_last_round", S,
       "    if not view.last_round:\n", "    if False:\n", SETTLED_TESTS,
       "a move before the last round settled: the mover may still play again (R4, R10)"),
    _m("settled", "king_plate_edge", S,
       "mine[dish] <= king[dish] + after.table[dish]",
       "mine[dish] < king[dish] + after.table[dish]", SETTLED_TESTS,
       "R9 serving the king exactly as many as the mover holds is forgotten"),
    _m("settled", "others_hidden", S,
       "unseen = other.hidden if other.draws is None else 0", "unseen = 0", SETTLED_TESTS,
       "the others' hidden draws bound as if they held nothing (R7)"),
    _m("settled", "others_draw_again", S,
       "options.append((known, unseen + 1, high_king))", "pass", SETTLED_TESTS,
       "a seat still to play is not thought to draw (R7)"),
    _m("settled", "tie_is_win", S,
       "if all(high < points for high in highs):", "if all(high <= points for high in highs):",
       SETTLED_TESTS, "a seat that can equal the mover's points is ignored (R12 tie-break)"),
    _m("settled", "tie_is_loss", S,
       "elif any(low > points for low in lows):", "elif any(low >= points for low in lows):",
       SETTLED_TESTS, "a seat sure to equal the mover's points is called a loss"),
    _m("settled", "later_turns", S,
       "turns_left = [(after.cook - 1 - i) % n for i in range(after.turns_left)]",
       "turns_left = []", SETTLED_TESTS,
       "the seats still to play this round are thought to have played (R5)"),
    _m("settled", "draw_settled", S,
       "if mover is None or mover < 0 or int(action) == DRAW_ID:",
       "if mover is None or mover < 0:", SETTLED_TESTS,
       "a draw's unseen card is taken for known (R7)"),
    _m("settled", "knapsack_short", S,
       "for extra in range(min(pool[dish], unseen - used) + 1):",
       "for extra in range(min(pool[dish], unseen - used)):", SETTLED_TESTS,
       "a hidden hand's best and worst deal missed"),
    _m("settled", "mover_draws_unseen", S,
       "if hand.draws is None and hand.hidden:", "if False:", SETTLED_TESTS,
       "a view that hides the mover's draws settles as if there were none"),
    # -- bots/last_turns.py ---------------------------------------------------------------
    _m("last_turns", "cache_ignores_deck", L,
       "world.remaining_deck)", ")", LAST_TURNS_TESTS,
       "worlds that differ in the deck's order share one playout"),
    _m("last_turns", "shared_whole", L,
       "share = 1.0 / len(scoring.winners) if mover in scoring.winners else 0.0",
       "share = 1.0 if mover in scoring.winners else 0.0", LAST_TURNS_TESTS,
       "a shared win (R12) counted as a whole win"),
    Mutant("last_turns", "world_counted_once", L, (
        ("        if key not in seen:\n", "        if key in seen:\n            continue\n"
                                         "        if key not in seen:\n"),
        ("(totals[t][0] / worlds, totals[t][1] / worlds)",
         "(totals[t][0] / len(seen), totals[t][1] / len(seen))"),
    ), LAST_TURNS_TESTS, "a world dealt twice counted once: the mean weighs the deals wrong"),
    _m("last_turns", "window", L,
       "return view.last_round and view.turns_left <= 2",
       "return view.last_round and view.turns_left <= 3", LAST_TURNS_TESTS,
       "playouts where two seats still play after the mover (slow)"),
    _m("last_turns", "others_points", L,
       "return share, scoring.points[mover]", "return share, max(scoring.points)",
       LAST_TURNS_TESTS, "the best seat's points told as the mover's"),
    _m("last_turns", "no_renaming", L,
       "rename[dish] = place", "rename[dish] = dish", LAST_TURNS_TESTS,
       "renamed dishes (R1) get other numbers"),
    _m("last_turns", "too_few_worlds", L,
       "return max(FEWEST_WORLDS, min(WORLDS, PLAYOUTS // max(1, actions)))",
       "return min(WORLDS, PLAYOUTS // max(1, actions))", LAST_TURNS_TESTS,
       "a few worlds only where many actions are open"),
    _m("last_turns", "twins_apart", L,
       "twin_of = [first.setdefault(rows[i].tobytes(), i) for i in range(len(legal))]",
       "twin_of = list(range(len(legal)))", LAST_TURNS_TESTS,
       "identical choices get different numbers"),
    _m("last_turns", "unseeded", L,
       "rng = random.Random(SEED)", "rng = random.Random()", LAST_TURNS_TESTS,
       "the same view gets other numbers each time"),
    _m("last_turns", "draws_not_renamed", L,
       "None if hand.draws is None else counts(hand.draws))",
       "hand.draws)", LAST_TURNS_TESTS,
       "the mover's own drawn cards put under other dishes' names"),
    # -- lesson/ ---------------------------------------------------------------------------
    _m("lesson", "king_takes_any", "lesson/steps.py",
       '_only("take fruit"),', 'lambda action: action.kind == "take",', LESSON_TESTS,
       "the king step accepts taking the cheese it calls wrong (R9, R11)"),
    _m("lesson", "feed_any", "lesson/steps.py",
       '_only("feed wine wine"),', 'lambda action: action.kind == "feed",', LESSON_TESTS,
       "the feed step accepts any feed"),
    _m("lesson", "dragon_place_only", "lesson/steps.py",
       'return action == PLACE_DRAGON_ID or action.kind == "feed"',
       "return action == PLACE_DRAGON_ID", LESSON_TESTS,
       "using a drawn dragon (R7a) refused"),
    _m("lesson", "dragon_any", "lesson/steps.py",
       'return action == PLACE_DRAGON_ID or action.kind == "feed"', "return True",
       LESSON_TESTS, "the drawn dragon step accepts anything"),
    _m("lesson", "take_any", "lesson/steps.py",
       '_only("take cheese"),', 'lambda action: action.kind == "take",', LESSON_TESTS,
       "the first step accepts any dish"),
    _m("lesson", "judge_lenient", "lesson/course.py",
       "if step is None or step.accepts(action):", "if True:", LESSON_TESTS,
       "every legal move is accepted"),
    _m("lesson", "end_step_left", "lesson/course.py",
       "        elif not step.to_the_end:\n            self.index += 1",
       "        else:\n            self.index += 1", LESSON_TESTS,
       "the last step ends before the game"),
    _m("lesson", "no_finish", "lesson/course.py",
       "        if state.is_over:\n            self.lesson.finish()", "", LESSON_TESTS,
       "a game a bot ends leaves the lesson at its last step"),
    _m("lesson", "plays_refused", "lesson/course.py",
       "        if word is not None:\n            return word\n", "", LESSON_TESTS,
       "a move the step refuses is played all the same"),
    _m("lesson", "bots_take", "lesson/script.py",
       "    if Action(DRAW_ID) in legal:\n        return Action(DRAW_ID)\n", "",
       LESSON_TESTS, "the bots take dishes instead of drawing: the game drags on"),
    _m("lesson", "no_fruit", "lesson/script.py",
       "_cards(cheese=3, ham=2, bread=2, fruit=1)", "_cards(cheese=3, ham=3, bread=2)",
       LESSON_TESTS, "the king step asks for fruit that is not there"),
    _m("lesson", "wine_taker", "lesson/script.py",
       "WINE_TAKER: Final = 3", "WINE_TAKER: Final = 2", LESSON_TESTS,
       "the feed step names the wrong bot"),
    _m("lesson", "learner_not_cook", "lesson/script.py",
       "FIRST_COOK: Final = 0", "FIRST_COOK: Final = 1", LESSON_TESTS,
       "the learner does not cook first"),
    # -- the review and its guard ----------------------------------------------------------
    _m("review", "store_guard", "server/master.py",
       "        if record.status != OVER:\n            raise LobbyError(409, \"not_over\"",
       "        if False:\n            raise LobbyError(409, \"not_over\"", REVIEW_TESTS,
       "a process that does not hold a running game serves its review and record"),
    _m("review", "actor_guard", "server/master.py",
       "        if actor is not None:\n            raise LobbyError(409",
       "        if False:\n            raise LobbyError(409", REVIEW_TESTS,
       "the process that holds a running game serves its review and record"),
    _m("review", "every_hand_seen", "bots/review.py",
       "moves.append(_judged(index, view, action, rank(view)))",
       "moves.append(_judged(index, view, action, rank(__import__('dataclasses').replace("
       "view, hands=tuple(state.view(s).hands[s] for s in range(players))))))",
       REVIEW_TESTS, "the review reads every player's hidden cards (R7)"),
    _m("review", "kept_any_seat", "server/routes/review.py",
       "found = _kept.get((game_id, int(text)))", "found = _kept.get((game_id, 0))",
       REVIEW_TESTS, "a seat is sent another seat's kept review"),
    _m("review", "seat_bound", "server/routes/review.py",
       "not 0 <= int(text) < players", "not 0 <= int(text) <= players", REVIEW_TESTS,
       "a seat the game lacks reaches the review (a server error)"),
    _m("review", "kept_unbounded", "server/routes/review.py",
       "    while len(_kept) > KEPT:\n", "    while False:\n", REVIEW_TESTS,
       "kept reviews grow without bound"),
    _m("review", "work_together", "server/routes/review.py",
       "            _working[key] = working\n", "", REVIEW_TESTS,
       "asks arriving together each work the review out"),
    # -- the rating rules ------------------------------------------------------------------
    _m("ratings", "abort_edge", "server/rating_rules.py",
       "any(n < ABORT_MOVES for n in moves.values())",
       "any(n <= ABORT_MOVES for n in moves.values())", RATING_TESTS,
       "a leaver with exactly enough moves aborts the game"),
    _m("ratings", "repeat_edge", "server/rating_rules.py",
       "standing.repeats >= REPEAT_GAMES", "standing.repeats > REPEAT_GAMES", RATING_TESTS,
       "the same accounts rated together once more than allowed"),
    _m("ratings", "leaver_placed", "server/rating_rules.py",
       "rank = {a: last if a in gone else places[seat] for a, seat in entries.items()}",
       "rank = {a: places[seat] for a, seat in entries.items()}", RATING_TESTS,
       "a leaver ranks where its bot ended: leaving is a way out of a loss"),
    _m("ratings", "swing_unbounded", "server/rating_rules.py",
       "for a in entries.keys() & standing.established:", "for a in ():", RATING_TESTS,
       "a provisional opponent moves an established rating without bound"),
    _m("ratings", "opponents_edge", "server/rating_rules.py",
       "account.opponents < ESTABLISHED_OPPONENTS", "account.opponents <= ESTABLISHED_OPPONENTS",
       RATING_TESTS, "a rating stays provisional with enough opponents"),
    _m("ratings", "sigma_edge", "server/rating_rules.py",
       "account.sigma <= ESTABLISHED_SIGMA", "account.sigma < ESTABLISHED_SIGMA", RATING_TESTS,
       "a deviation exactly at the bound is provisional"),
    _m("ratings", "flag_ignored", "server/rating_rules.py",
       "elif standing.flagged & entries.keys():", "elif False:", RATING_TESTS,
       "a flagged account's games are rated"),
    _m("ratings", "one_account_rated", "server/rating_rules.py",
       "rated = len(entries) >= 2 and", "rated = len(entries) >= 1 and", RATING_TESTS,
       "a game with one account (and bots or guests) is rated"),
    _m("ratings", "one_account_two_seats", "server/rating_rules.py",
       "len(set(seated.values())) == len(seated)", "True", RATING_TESTS,
       "an account that holds two seats is rated against itself"),
    _m("ratings", "games_edge", "server/rating_rules.py",
       "account.rated_games >= ESTABLISHED_GAMES", "account.rated_games > ESTABLISHED_GAMES",
       RATING_TESTS, "one game more than needed to establish a rating"),
    _m("ratings", "leaver_wins", "server/rating_rules.py",
       "won=account not in gone and seat in scoring.winners",
       "won=seat in scoring.winners", RATING_TESTS,
       "a leaver's seat's win counts as the leaver's"),
    # -- names and registrations ------------------------------------------------------------
    _m("registrations", "play_now_guest_name", "server/routes/play_now.py",
       "    if account is None:  # a guest never sits under a name an account has\n"
       "        await site.accounts.guest_may_use(name)\n", "", NAME_TESTS,
       "a guest sits under an account's name through play now"),
    _m("registrations", "no_day_bound", "server/limits.py",
       "if len(last_hour) >= self.per_hour or len(made) >= self.per_day:",
       "if len(last_hour) >= self.per_hour:", REGISTRATION_TESTS,
       "the per-day registration limit dropped: a crowd of puppets a day"),
    _m("registrations", "no_hour_bound", "server/limits.py",
       "if len(last_hour) >= self.per_hour or len(made) >= self.per_day:",
       "if len(made) >= self.per_day:", REGISTRATION_TESTS,
       "the per-hour registration limit dropped"),
    _m("registrations", "no_proof", "server/accounts.py",
       "        if needed:\n            self.proofs.check(",
       "        if False:\n            self.proofs.check(",
       ("tests/server/test_registration_proof.py",),
       "past an address's free accounts of the hour, registrations need no proof of work"),
)


EQUIVALENT: dict[str, str] = {
    "lesson.dragon_any": "while a drawn dragon is pending the engine allows only placing or "
                         "feeding it (R7a), and the lesson judges only legal moves",
    "review.actor_guard": "the store's row of a table a process holds is never over before the "
                          "game is, so the store's guard refuses the same asks (409 not_over)",
}
"""Mutants no test can catch because the program behaves the same: name -> why. They are
run and shown, and left out of the score."""


def applied(source: str, mutant: Mutant) -> str | None:
    """``source`` with the mutant's edits, or None when one of its texts is not there once."""
    for old, new in mutant.edits:
        if source.count(old) != 1:
            return None
        source = source.replace(old, new)
    return source


def present(tests: tuple[str, ...]) -> list[str]:
    return [t for t in tests if (ROOT / t.split("::")[0]).exists()]


def run_tests(copy: Path, tests: list[str], timeout: float) -> int:
    """pytest's exit status for ``tests`` run on the scratch copy (-1: out of time)."""
    env = {
        **os.environ, "PYTHONPATH": f"{copy / 'src'}{os.pathsep}{ROOT / 'tests'}",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
             "--hypothesis-profile=mutation", *tests],
            cwd=ROOT, env=env, capture_output=True, timeout=timeout, check=False,
        )
    except subprocess.TimeoutExpired:
        return -1
    return done.returncode


def run_one(copy: Path, mutant: Mutant, timeout: float) -> str:
    """caught, survived or stale: the mutant applied to the scratch copy, its tests run."""
    target = copy / PACKAGE / mutant.path
    original = target.read_text()
    mutated = applied(original, mutant)
    tests = present(mutant.tests)
    if mutated is None or not tests:
        return "stale"
    target.write_text(mutated)
    try:
        status = run_tests(copy, tests, timeout)
    finally:
        target.write_text(original)
    if status == 4:  # pytest's usage error: a test named here is not there
        return "stale"
    # out of time (-1): a mutant that hangs is a bug seen
    return "survived" if status in (0, 5) else "caught"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="modules to run (default: all)")
    parser.add_argument("--only", action="append", default=[], help="module.name of one mutant")
    parser.add_argument("--list", action="store_true", help="name the mutants and stop")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the check that the tests pass without a mutant")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per mutant")
    args = parser.parse_args()
    chosen = [m for m in MUTANTS
              if (not args.modules or m.module in args.modules)
              and (not args.only or f"{m.module}.{m.name}" in args.only)]
    if args.list:
        for m in chosen:
            print(f"{m.module}.{m.name}: {m.bug} ({m.path})")
        return
    scores: dict[str, Counter[str]] = defaultdict(Counter)
    with tempfile.TemporaryDirectory(prefix="kb-mutants-") as scratch:
        copy = Path(scratch)
        shutil.copytree(ROOT / "src", copy / "src",
                        ignore=shutil.ignore_patterns("__pycache__"))
        if not args.no_baseline:  # the tests must pass on the code as it is
            for tests in sorted({m.tests for m in chosen}):
                status = run_tests(copy, present(tests), args.timeout)
                if status not in (0, 5):  # once more: the live tests share a database
                    status = run_tests(copy, present(tests), args.timeout)
                if status not in (0, 5):
                    sys.exit(f"the tests fail without a mutant (status {status}): "
                             f"{' '.join(tests)}")
        for mutant in chosen:
            started = time.monotonic()
            verdict = run_one(copy, mutant, args.timeout)
            if verdict == "survived" and f"{mutant.module}.{mutant.name}" in EQUIVALENT:
                verdict = "equivalent"
            scores[mutant.module][verdict] += 1
            print(f"{mutant.module}.{mutant.name}: {verdict} "
                  f"({time.monotonic() - started:.0f} s) - {mutant.bug}", flush=True)
    print()
    print("| module | mutants | caught | survived | equivalent | score |")
    print("|---|---:|---:|---:|---:|---:|")
    for module, counts in scores.items():
        judged = counts["caught"] + counts["survived"]
        score = 100.0 * counts["caught"] / judged if judged else 100.0
        stale = f" ({counts['stale']} stale)" if counts["stale"] else ""
        print(f"| {module} | {judged + counts['equivalent']}{stale} | {counts['caught']} "
              f"| {counts['survived']} | {counts['equivalent']} | {score:.0f}% |")
    for name, why in EQUIVALENT.items():
        if name.partition(".")[0] in scores:
            print(f"\nequivalent: {name}: {why}")


if __name__ == "__main__":
    main()
