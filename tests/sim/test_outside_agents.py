"""Outside players in tournaments: ``module:Class`` and ``cmd:PROGRAM`` (JSON lines).

The example agent in ``examples/draw_agent.sh`` (POSIX shell) plays whole games; programs
that answer illegally, too late, not in JSON or not at all lose those moves to the
documented fallback (the lowest legal action), and the forfeits are counted and reported.
"""

from __future__ import annotations

import random
import sys
import types
from pathlib import Path

import pytest

from kingsbreakfast.bots.outside import ClassBot, ProgramBot, is_outside, stop_programs
from kingsbreakfast.engine import Action, KingsBreakfastError, State, View
from kingsbreakfast.i18n import language
from kingsbreakfast.i18n.errors import explain
from kingsbreakfast.sim import TournamentConfig, parse_lineup, run_tournament
from kingsbreakfast.sim.match import play_game
from kingsbreakfast.sim.report import build_report

ROOT = Path(__file__).resolve().parents[2]
SHELL_AGENT = ROOT / "examples" / "draw_agent.sh"


@pytest.fixture(autouse=True)
def _stop_programs() -> object:
    yield
    stop_programs()


def python_agent(folder: Path, body: str) -> str:
    """A cmd: line running a small Python program whose loop body answers ``request``."""
    source = (
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        + "".join(f"    {row}\n" for row in body.splitlines())
    )
    script = folder / "agent.py"
    script.write_text(source)
    return f"cmd:{sys.executable} {script}"


def test_the_shell_agent_plays_whole_games_without_a_forfeit() -> None:
    lineup = parse_lineup(f"cmd:{SHELL_AGENT},random,greedy", 3)
    config = TournamentConfig(lineup, 6, seed=3)
    results = run_tournament(config)
    report = build_report(config, results)
    assert report["forfeits"][f"cmd:{SHELL_AGENT}"] == 0
    assert all(game.rounds > 0 for game in results)
    # it draws whenever it may: so it draws in every game
    shell_bot = lineup[0].build()
    state = State.new(3, random.Random(1))
    action = shell_bot.act(state.view(0), random.Random(2))
    assert action == Action.parse("draw")


class Illegal:
    name = "illegal"

    def act(self, view: View, rng: random.Random) -> Action:
        return Action(37)  # pass: never legal while the deck holds cards (R5b)


class Raises:
    name = "raises"

    def act(self, view: View, rng: random.Random) -> Action:
        raise RuntimeError("a bug in the agent")


@pytest.fixture
def agents_module(monkeypatch: pytest.MonkeyPatch) -> str:
    module = types.ModuleType("outside_agents_for_tests")
    module.Illegal = Illegal  # type: ignore[attr-defined]
    module.Raises = Raises  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return module.__name__


def test_a_module_class_player_joins_a_tournament(agents_module: str) -> None:
    lineup = parse_lineup(f"{agents_module}:Illegal,greedy,random", 3)
    assert [spec.outside for spec in lineup] == [True, False, False]
    config = TournamentConfig(lineup, 3, seed=1)
    report = build_report(config, run_tournament(config))
    assert report["forfeits"][f"{agents_module}:Illegal"] > 10


@pytest.mark.parametrize("lineup", [
    "kingsbreakfast.bots.greedy:GreedyBot,{m}:Illegal,random", "{m}:Illegal*2,random",
    "{m}:Illegal,random,{m}:Raises",
])
def test_two_module_class_players_are_refused_they_would_share_a_process(
    agents_module: str, lineup: str,
) -> None:
    with pytest.raises(KingsBreakfastError) as refused:
        parse_lineup(lineup.format(m=agents_module), 3)
    assert refused.value.code == "agents_share_process"
    assert refused.value.params == {"count": 2}
    with language("de"):
        assert "eigenen Prozess" in explain(refused.value)


PID_AGENT = (
    'print(json.dumps({"id": request["id"], "action": request["legal"][0], '
    '"pid": __import__("os").getpid()}), flush=True)'
)


@pytest.mark.parametrize(("form", "seats"), [
    ("{p},{p},random", 3), ("{p}*2,random", 3), ("random,{p}*3", 4),
])
def test_one_command_listed_for_several_seats_runs_one_process_per_seat(
    tmp_path: Path, form: str, seats: int,
) -> None:
    program = python_agent(tmp_path, PID_AGENT)
    lineup = parse_lineup(form.format(p=program), seats)
    bots = [spec.build() for spec in lineup]
    agents = [bot for bot in bots if isinstance(bot, ProgramBot)]
    assert len(agents) >= 2
    result = play_game(bots, 7, list(range(1, len(bots) + 1)))
    assert result.rounds > 0 and sum(result.forfeits) == 0
    pids = [agent.pid for agent in agents]
    assert None not in pids and len(set(pids)) == len(agents)  # never one for two seats
    config = TournamentConfig(lineup, 4, seed=2)  # seats rotate: each entry keeps its own
    assert build_report(config, run_tournament(config))["forfeits"][program] == 0
    assert [agent.pid for agent in agents] == pids


def test_an_exception_forfeits_the_move_with_its_reason(agents_module: str) -> None:
    bot = parse_lineup(f"{agents_module}:Raises,random,random", 3)[0].build()
    assert isinstance(bot, ClassBot)
    view = State.new(3, random.Random(4)).view(0)
    assert bot.act(view, random.Random(0)) == min(view.legal_actions())
    assert bot.forfeits == 1
    assert "a bug in the agent" in bot.forfeit_reasons[0]


@pytest.mark.parametrize(
    ("body", "reason", "timeout"),
    [
        ('print(json.dumps({"id": request["id"], "action": 37}), flush=True)', "not legal", 30),
        ('print("not json", flush=True)', "not JSON", 30),
        ('print(json.dumps({"id": request["id"]}), flush=True)', 'no "action"', 30),
        ('print(json.dumps({"id": request["id"], "action": "fly"}), flush=True)',
         "not an action", 30),
        ("time.sleep(60)", "no answer within", 0.5),
        ("sys.exit(0)", "stopped", 30),
    ],
)
def test_a_bad_answer_forfeits_the_move_to_the_lowest_legal_action(
    tmp_path: Path, body: str, reason: str, timeout: float
) -> None:
    bot = ProgramBot(python_agent(tmp_path, body).removeprefix("cmd:"), timeout=timeout)
    view = State.new(4, random.Random(5)).view(0)
    assert bot.act(view, random.Random(0)) == min(view.legal_actions())
    assert bot.forfeits == 1
    assert reason in bot.forfeit_reasons[0]


def test_a_late_answer_is_skipped_and_the_next_move_is_answered(tmp_path: Path) -> None:
    body = (
        'if request["id"] == 1:\n'
        "    time.sleep(1.0)\n"
        'print(json.dumps({"id": request["id"], "action": request["legal"][-1]}), flush=True)'
    )
    bot = ProgramBot(python_agent(tmp_path, body).removeprefix("cmd:"), timeout=0.3)
    state = State.new(4, random.Random(6))
    view = state.view(0)
    assert bot.act(view, random.Random(0)) == min(view.legal_actions())  # late: fallback
    bot.timeout = 30.0
    assert bot.act(view, random.Random(0)) == max(view.legal_actions())  # not the stale one
    assert bot.forfeits == 1


def test_forfeits_travel_in_the_game_results(tmp_path: Path) -> None:
    program = python_agent(
        tmp_path, 'print(json.dumps({"id": request["id"], "action": 37}), flush=True)'
    )
    lineup = parse_lineup(f"{program},random,random", 3)
    result = play_game([spec.build() for spec in lineup], 1, [1, 2, 3])
    assert result.forfeits[0] > 0
    assert result.forfeits[1:] == (0, 0)


@pytest.mark.parametrize(
    ("text", "outside"),
    [
        ("cmd:./agent", True),
        ("my_agents:Counter", True),
        ("expert:simulations=60", False),
        ("random", False),
        ("hard", False),
    ],
)
def test_which_names_are_outside_players(text: str, outside: bool) -> None:
    assert is_outside(text) == outside


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no_such_module_here:Agent", "cannot import"),
        ("kingsbreakfast.bots.greedy:NoSuchBot", "has no"),
        ("kingsbreakfast.engine:View", "could not be made"),
        ("cmd:", "needs a program"),
    ],
)
def test_bad_outside_players_are_named(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_lineup(f"{text},random,random", 3)[0].build()
