"""``play --hint-seconds``: the seconds reach the hint, which gives them to the chef level's
search and shows the searched win chances when the search answers in time (it was accepted
and then dropped)."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from kingsbreakfast.bots.hint import ActionEstimate, rank_actions
from kingsbreakfast.cli.main import app
from kingsbreakfast.tui import strings
from kingsbreakfast.tui.opponents import rank_moves
from kingsbreakfast.tui.session import Game, plan_seats

pytest.importorskip("numba")

GENEROUS = 600.0
"""Seconds the search may take: a bound a slow machine compiling the search stays under,
never a threshold the test measures."""


def first_human_view(seed: int) -> Game:
    game = Game.new(plan_seats(4, [], 0, 1), seed)
    while not game.human_to_move():
        game.play(game.bot_choice())
    return game


def win_chances(ranking: list[ActionEstimate]) -> list[tuple[str, float]]:
    return [(str(estimate.action), estimate.win_chance) for estimate in ranking]


def test_the_hint_searches_for_the_seconds_it_is_given() -> None:
    view = first_human_view(5).view(0)
    searched = rank_actions(view, search=True)
    network = rank_actions(view)
    assert win_chances(searched) != win_chances(network)  # the two can be told apart here
    assert win_chances(rank_moves(view, random.Random(1), seconds=GENEROUS)) == win_chances(
        searched)
    assert win_chances(rank_moves(view, random.Random(1))) == win_chances(network)


def test_play_hint_seconds_reaches_the_plain_game_hint() -> None:
    view = first_human_view(5).view(0)
    best = rank_actions(view, search=True)[0]
    network_best = rank_actions(view)[0]
    figures = strings.hint_numbers(best.expected_points, best.win_chance, best.behind,
                                   best.exact, best.result is not None)
    network_figures = strings.hint_numbers(
        network_best.expected_points, network_best.win_chance, network_best.behind,
        network_best.exact, network_best.result is not None)
    assert figures[1] != network_figures[1]
    result = CliRunner().invoke(
        app, ["play", "--plain", "--players", "4", "--seed", "5", "--speed", "0",
              "--hint-seconds", str(GENEROUS)], input="h\nq\nn\n",
    )
    assert result.exit_code == 0, result.output
    hint = result.output.split(strings.hint_thinking())[1]
    assert figures[1] in hint and network_figures[1] not in hint
