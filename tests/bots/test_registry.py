"""The table of bots: one entry per name, and everything that offers bots reads it."""

from __future__ import annotations

import random

import pytest

from kingsbreakfast.bots import (
    BOT_NAMES,
    BOTS,
    LEVELS,
    OPPONENT_LEVELS,
    Bot,
    BotEntry,
    UnknownBotError,
    batch_policy,
    describe_bot,
    find_bot,
    make_bot,
)
from kingsbreakfast.engine import State

SAMPLE_VALUES = {int: 3, float: 0.5}


def test_names_are_unique_and_split_into_bots_and_levels() -> None:
    names = [entry.name for entry in BOTS]
    assert len(names) == len(set(names))
    assert set(names) == set(BOT_NAMES) | set(LEVELS)
    assert not set(BOT_NAMES) & set(LEVELS)
    ranks = [find_bot(name).level for name in LEVELS]
    assert ranks == sorted(ranks) and None not in ranks  # weakest first


def test_names_are_found_in_any_case_and_unknown_ones_list_the_choices() -> None:
    assert find_bot(" Expert ").name == "expert"
    with pytest.raises(UnknownBotError) as caught:
        find_bot("wizard")
    assert "unknown bot 'wizard'" in str(caught.value)
    assert all(name in str(caught.value) for name in (*BOT_NAMES, *LEVELS))


@pytest.mark.parametrize("entry", BOTS, ids=lambda e: e.name)
def test_every_listed_option_is_one_the_bot_takes(entry: BotEntry) -> None:
    for option, kind in entry.options.items():
        bot = make_bot(entry.name, **{option: SAMPLE_VALUES[kind]})
        assert isinstance(bot, Bot)
        assert getattr(bot, option) == SAMPLE_VALUES[kind]


def test_an_option_the_entry_does_not_list_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="bad option for bot 'hard': 'simulations'"):
        make_bot("hard", simulations=3)
    with pytest.raises(ValueError, match="bot 'easy' takes no options"):
        make_bot("easy", leader_weight=0.5)


def test_a_level_says_what_it_is_then_how_its_bot_plays() -> None:
    for name in LEVELS:
        entry = find_bot(name)
        text = describe_bot(name)
        assert text.startswith(entry.summary)
        bot = make_bot(name)
        assert bot.name == name
        assert text == getattr(bot, "description", None)
    assert describe_bot("expert").endswith(describe_bot("ismcts"))


def test_the_search_is_described_as_it_searches() -> None:
    # The search values the position it reaches by an estimate; it does not play out.
    text = describe_bot("ismcts")
    assert "plays the game out quickly" not in text
    assert "estimate" in text and "does not play the game out" in text


def test_the_lobby_offers_random_and_every_level() -> None:
    assert ("random", *LEVELS) == OPPONENT_LEVELS
    state = State.new(3, random.Random(1))
    view = state.view(state.to_move)
    for name in OPPONENT_LEVELS:
        options: dict[str, int] = {"expert": {"simulations": 5}, "chef": {"worlds": 2}}.get(
            name, {})
        bot = make_bot(name, **options)
        assert bot.act(view, random.Random(0)) in view.legal_actions()


def test_batch_policies_come_from_the_entries() -> None:
    assert batch_policy("random") == "random"
    assert batch_policy("greedy") == batch_policy("easy") == "greedy"
    assert batch_policy("heuristic") == batch_policy("hard") == "heuristic"
    assert batch_policy("medium") == "medium"
    with pytest.raises(ValueError, match="unknown batch policy 'ismcts'"):
        batch_policy("ismcts")
    with pytest.raises(ValueError, match="unknown batch policy 'smart'"):
        batch_policy("smart")
