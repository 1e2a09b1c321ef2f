"""OpenSpiel's C++ ``pyspiel.MCTSBot`` crashes on any game written in Python: a minimal
reproduction, each case in its own process so the crash is seen as an exit status.

    python examples/openspiel_mcts_crash.py

Three games, the same lines for each (a C++ MCTS bot with random rollouts, 10 simulations,
asked for the first move after the chance nodes): OpenSpiel's C++ ``tic_tac_toe`` (the bot
answers), OpenSpiel's own Python ``python_tic_tac_toe`` and this project's
``python_kings_breakfast`` (both: segmentation fault, exit status −11 / 139). The C++
``ISMCTSBot`` fails the same way (docs/research.md); OpenSpiel's Python ``MCTSBot`` and
``ISMCTSBot`` play this game. Prints one line per game and exits 0 when the three behave as
documented, 1 otherwise (e.g. once OpenSpiel has fixed it: then the docs need updating).
"""

from __future__ import annotations

import subprocess
import sys

CASE = """
import sys
import pyspiel
name = sys.argv[1]
if name == "python_tic_tac_toe":
    from open_spiel.python.games import tic_tac_toe  # noqa: F401 (registers it)
if name == "python_kings_breakfast":
    import kingsbreakfast.interop.openspiel  # noqa: F401 (registers it)
game = pyspiel.load_game(name)
bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 10, 10, False, 0, False)
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.chance_outcomes()[0][0])
print(bot.step(state))
"""

EXPECTED = {"tic_tac_toe": True, "python_tic_tac_toe": False, "python_kings_breakfast": False}
"""Game → whether the C++ MCTS bot answers (False: it crashes)."""


def run(game: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CASE, game], capture_output=True, text=True, timeout=300
    )


def main() -> int:
    as_documented = True
    for game, answers in EXPECTED.items():
        done = run(game)
        if done.returncode == 0:
            outcome = f"answers with action {done.stdout.strip()}"
        elif done.returncode < 0:
            outcome = f"crashes: killed by signal {-done.returncode}"
        else:
            outcome = f"fails with exit status {done.returncode}: {done.stderr.strip()[-200:]}"
        print(f"pyspiel.MCTSBot on {game}: {outcome}")
        as_documented &= (done.returncode == 0) == answers
    return 0 if as_documented else 1


if __name__ == "__main__":
    sys.exit(main())
