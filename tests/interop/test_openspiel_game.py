"""The pyspiel game ``python_kings_breakfast``: OpenSpiel's own checks and bots, chance
probabilities, utilities, hidden information and resampling."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import kingsbreakfast.interop.openspiel as kb_openspiel  # noqa: E402
from kingsbreakfast.engine import DRAGON  # noqa: E402

GAME = kb_openspiel.GAME_NAME


def play_randomly(game: object, seed: int) -> object:
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize(
    ("players", "params"),
    [
        (3, {"utility": "rank"}),
        (4, {"utility": "score"}),
        (5, {"empty_table": "must_draw", "dragon_min_on_table": 2}),
        (4, {"empty_table": "must_draw", "utility": "score"}),
    ],
)
def test_random_sim_test_with_serialization(players: int, params: dict[str, object]) -> None:
    game = pyspiel.load_game(GAME, {"players": players, **params})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_parameters_are_checked() -> None:
    with pytest.raises(Exception, match="3 to 5 players"):
        pyspiel.load_game(GAME, {"players": 6})
    with pytest.raises(Exception, match="unknown utility"):
        pyspiel.load_game(GAME, {"utility": "fun"})
    with pytest.raises(Exception, match="dragon_min_on_table"):
        pyspiel.load_game(GAME, {"dragon_min_on_table": 3})


def test_chance_outcomes_are_the_true_card_probabilities() -> None:
    game = pyspiel.load_game(GAME, {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {**{d: 15 / 110 for d in range(7)}, DRAGON: 5 / 110}
    state.apply_action(DRAGON)
    outcomes = dict(state.chance_outcomes())
    assert outcomes[DRAGON] == pytest.approx(4 / 109)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    for _ in range(5):  # the rest of the first table (2 x 3 cards, R4)
        assert state.is_chance_node()
        state.apply_action(0)
    assert state.current_player() == 0
    state.apply_action(7)  # draw: the drawn card is the next chance node (R7)
    assert state.is_chance_node()
    assert dict(state.chance_outcomes())[0] == pytest.approx(10 / 104)  # 5 bread seen


def test_a_draw_reveals_one_card_and_a_round_end_reveals_the_next_table() -> None:
    game = pyspiel.load_game(GAME, {"players": 3})
    state = game.new_initial_state()
    for card in (0, 0, 1, 1, 2, 2):
        state.apply_action(card)
    state.apply_action(0)  # seat 0 takes the bread
    state.apply_action(1)  # seat 1 takes the cheese
    state.apply_action(7)  # seat 2 draws: one chance node for the card...
    state.apply_action(3)
    for _ in range(6):  # ... then the round is over and the next table is turned up
        assert state.is_chance_node()
        state.apply_action(4)
    assert state.current_player() == 1  # R3: the next cook
    view = state.view(2)
    assert view.hands[2].draws == (0, 0, 0, 1, 0, 0, 0)
    assert view.king == (0, 0, 2, 0, 0, 0, 0)  # R9: the ham was served
    assert view.table == (0, 0, 0, 0, 6, 0, 0)


@pytest.mark.parametrize("utility", ["rank", "score"])
def test_returns_follow_the_engine_scoring(utility: str) -> None:
    game = pyspiel.load_game(GAME, {"players": 4, "utility": utility})
    for seed in range(6):
        state = play_randomly(game, seed)
        returns = state.returns()  # type: ignore[attr-defined]
        scoring = state.view(None).score()  # type: ignore[attr-defined]
        if utility == "score":
            assert returns == [float(p) for p in scoring.points]
        else:
            assert sum(returns) == pytest.approx(0.0)
            best = max(returns)
            assert best == 1.0 or len(scoring.winners) > 1
            assert {s for s, r in enumerate(returns) if r == best} == set(scoring.winners)


def test_information_hides_other_players_draws_and_resampling_keeps_it() -> None:
    game = pyspiel.load_game(GAME, {"players": 4})
    rng = random.Random(4)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        player = state.current_player()
        if len(state.history()) % 7 == 0:
            sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(
                player
            )
            assert other.information_state_tensor(player) == state.information_state_tensor(
                player
            )
            assert other.observation_string(player) == state.observation_string(player)
            assert other.legal_actions() == state.legal_actions()
            checked += 1
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 3
    text = state.information_state_string(0)
    drawn_by_others = [w for w in text.split() if "<" in w and not w.startswith("0<")]
    assert drawn_by_others, "this game should have draws by other seats"
    assert all(w.endswith("<?") or w.endswith("<dragon") for w in drawn_by_others)


def test_resampling_really_changes_hidden_cards() -> None:
    game = pyspiel.load_game(GAME, {"players": 3})
    rng = random.Random(8)
    state = game.new_initial_state()
    while (len(state.history()) < 60 or state.is_chance_node()) and not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            legal = state.legal_actions()
            draw = 7 if 7 in legal else legal[0]
            state.apply_action(draw)  # everyone draws: plenty of hidden cards
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = {
        str(state.resample_from_infostate(player, sampler).view(None).hands) for _ in range(5)
    }
    hands = [state.resample_from_infostate(player, sampler).view((player + 1) % 3)
             for _ in range(8)]
    assert len({h.hands[(player + 1) % 3].draws for h in hands}) > 1
    assert len(others) == 1  # the public part never changes


def test_openspiel_bots_play_full_games() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(GAME, {"players": 3})
    random_state = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=random_state),
        mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=random_state),
        pyspiel.make_uniform_random_bot(2, 5),
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(random_state.choice(outcomes, p=probs)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(0.0)
    assert state.view(None).finished


def test_observers() -> None:
    game = pyspiel.load_game(GAME, {"players": 5})
    state = play_randomly(game, 2)
    public = game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True,
        private_info=pyspiel.PrivateInfoType.NONE,
    ))
    public.set_from(state, 1)
    assert public.tensor.shape == (98,)
    assert set(public.dict) >= {"table", "king", "my_draws"}
    assert not public.dict["my_draws"].any()
    private = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert "<" in private.string_from(state, 1)
    with pytest.raises(ValueError, match="every player's private cards"):
        game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True,
            private_info=pyspiel.PrivateInfoType.ALL_PLAYERS,
        ))


def test_resampling_is_refused_at_a_chance_node_and_for_a_bad_player() -> None:
    game = pyspiel.load_game(GAME, {"players": 3})
    state = game.new_initial_state()
    for card in (0, 0, 1, 1, 2, 2):
        state.apply_action(card)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    with pytest.raises(ValueError, match="no player 5"):
        state.resample_from_infostate(5, sampler)
    state.apply_action(7)  # a draw: now a chance node decides the card
    with pytest.raises(ValueError, match="decision nodes"):
        state.resample_from_infostate(1, sampler)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_chance_outcomes_are_the_deck_in_order(players: int) -> None:
    """The chance outcomes of a game, in order, are the top of a deck from which the engine
    plays the same game: a card is revealed exactly when the engine turns it up or draws it."""
    from kingsbreakfast.engine import State
    from kingsbreakfast.engine.cards import UNSHUFFLED_DECK

    game = pyspiel.load_game(GAME, {"players": players, "utility": "score"})
    for seed in range(4):
        state = play_randomly(game, seed)
        cards = [a.action for a in state.full_history() if a.player == pyspiel.PlayerId.CHANCE]
        moves = [a.action for a in state.full_history() if a.player >= 0]
        rest = list(UNSHUFFLED_DECK)
        for card in cards:
            rest.remove(card)
        engine = State(cards + rest, players)
        for move in moves:
            engine.play(move)
        assert engine.is_over
        assert engine.view(None) == state.view(None)
        assert state.returns() == [float(p) for p in engine.score().points]
        read = 110 - engine.view(None).removed_unseen
        assert len(cards) == read  # no card revealed that the game did not use


def test_information_string_is_the_history_with_others_draws_hidden() -> None:
    """Rebuilt from OpenSpiel's own history: a chance outcome right after a player's draw is
    that player's card (named for them, ``?`` for others unless a dragon); any other is a
    card turned up for the table."""
    from kingsbreakfast.engine import CARD_IDS, Action

    game = pyspiel.load_game(GAME, {"players": 4})
    state = play_randomly(game, 12)
    for player in range(4):
        words = [f"p{player}"]
        drawer = -1
        for item in state.full_history():
            if item.player == pyspiel.PlayerId.CHANCE:
                name = CARD_IDS[item.action]
                if drawer < 0:
                    words.append(f"+{name}")
                elif drawer == player or item.action == DRAGON:
                    words.append(f"{drawer}<{name}")
                else:
                    words.append(f"{drawer}<?")
                drawer = -1
            else:
                words.append(f"{item.player}:{Action(item.action)}")
                drawer = item.player if item.action == 7 else -1
        assert state.information_state_string(player) == " ".join(words)
