"""The JAX environment's interface: pgx's conventions, chance through the key, jit and vmap,
and what a seat's observation may hold (docs/rules.md, *What is public and what is hidden*)."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
jax = pytest.importorskip("jax")
jnp = jax.numpy

from kingsbreakfast.engine import DRAW_ID, NUM_ACTIONS, Rules, SetupError  # noqa: E402
from kingsbreakfast.jax import Env  # noqa: E402
from kingsbreakfast.jax.rules import CARD_KINDS, FULL_DECK, draw_cards  # noqa: E402
from kingsbreakfast.tensor import OBS_SIZE as SIZE  # noqa: E402
from kingsbreakfast.tensor import offsets  # noqa: E402

ENV = Env(4)
INIT = jax.jit(ENV.init)
STEP = jax.jit(ENV.step)


def play_out(state, key):  # type: ignore[no-untyped-def]
    """Random legal actions until the game ends; the states on the way."""
    states = [state]
    while not bool(state.terminated):
        key, pick, turn = jax.random.split(key, 3)
        action = jax.random.categorical(pick, jnp.where(state.legal_action_mask, 0.0, -jnp.inf))
        state = STEP(state, action, turn)
        states.append(state)
    return states


def test_the_shapes_are_pgx_s() -> None:
    state = INIT(jax.random.PRNGKey(0))
    assert state.observation.shape == (SIZE,) == ENV.observation_shape
    assert state.observation.dtype == jnp.float32
    assert state.legal_action_mask.shape == (NUM_ACTIONS,) == (ENV.num_actions,)
    assert state.rewards.shape == (4,)
    assert not bool(state.terminated) and not bool(state.truncated)
    assert 0 <= int(state.current_player) < 4
    game = state._game
    assert int(game.table.sum()) == 8 and int(game.deck.sum()) == 102  # R4: 2 × players


def test_the_key_is_the_only_chance() -> None:
    key = jax.random.PRNGKey(7)
    one, two = INIT(key), INIT(key)
    assert all(jax.tree.leaves(jax.tree.map(lambda a, b: bool((a == b).all()), one, two)))
    tables = {tuple(np.asarray(INIT(jax.random.PRNGKey(k))._game.table)) for k in range(20)}
    assert len(tables) > 10
    # the same state and action with two keys: a draw may turn up different cards
    state = one
    draws = {
        tuple(np.asarray(STEP(state, DRAW_ID, jax.random.PRNGKey(k))._game.draws).ravel())
        for k in range(40)
    }
    assert len(draws) > 1


def test_the_first_cook_is_chosen_at_random_unless_fixed() -> None:
    cooks = {int(INIT(jax.random.PRNGKey(k))._game.cook) for k in range(40)}
    assert cooks == {0, 1, 2, 3}
    fixed = Env(4, first_cook=2)
    assert {int(fixed.init(jax.random.PRNGKey(k)).current_player) for k in range(5)} == {2}


def test_a_finished_game_does_not_move_and_rewards_add_up_to_zero() -> None:
    states = play_out(INIT(jax.random.PRNGKey(3)), jax.random.PRNGKey(4))
    last = states[-1]
    # the seat whose action ended the game stays the current player (pgx: never −1), shown
    assert int(last.current_player) == int(states[-2].current_player) >= 0
    assert np.array_equal(last.observation, ENV.observe(last, last.current_player))
    assert int(last._game.to_move) == -1
    assert bool(last.legal_action_mask.all())  # pgx: nothing masked once over
    assert float(jnp.abs(last.rewards.sum())) < 1e-6
    assert all(float(jnp.abs(s.rewards).sum()) == 0 for s in states[:-1])
    again = STEP(last, 0, jax.random.PRNGKey(5))
    assert float(jnp.abs(again.rewards).sum()) == 0
    assert bool((again._game.takes == last._game.takes).all()) and bool(again.terminated)
    assert int(again._step_count) == int(last._step_count) == len(states) - 1


def test_an_illegal_action_is_replaced_by_the_lowest_legal_one_by_default() -> None:
    """``kingsbreakfast.tensor.illegal``: the JAX id's rule is ``substitute``."""
    state = INIT(jax.random.PRNGKey(1))
    illegal = int(jnp.argmin(state.legal_action_mask))
    lowest = int(jnp.argmax(state.legal_action_mask))
    assert not bool(state.legal_action_mask[illegal]) and ENV.illegal_action == "substitute"
    key = jax.random.PRNGKey(2)
    after, expected = STEP(state, illegal, key), STEP(state, lowest, key)
    assert not bool(after.terminated)
    assert all(jax.tree.leaves(jax.tree.map(lambda a, b: bool((a == b).all()), after, expected)))


@pytest.mark.parametrize(
    ("rule", "others"), [("lose", {3: 0.5, 4: 1 / 3}), ("pgx", {3: 2.0, 4: 3.0})]
)
def test_an_illegal_action_can_end_the_game_against_its_taker(
    rule: str, others: dict[int, float]
) -> None:
    """``lose``: −1 and +1/(n − 1), zero-sum; ``pgx``: pgx's own −1 and +(n − 1)."""
    for players in (3, 4):
        env = Env(players, illegal_action=rule)
        state = env.init(jax.random.PRNGKey(1))
        illegal = int(jnp.argmin(state.legal_action_mask))
        mover = int(state.current_player)
        after = env.step(state, illegal, jax.random.PRNGKey(2))
        assert bool(after.terminated) and int(after.current_player) == mover
        expected = [-1.0 if seat == mover else others[players] for seat in range(players)]
        assert np.asarray(after.rewards).tolist() == pytest.approx(expected)
        assert bool((after._game.takes == state._game.takes).all())
        assert bool(after.legal_action_mask.all())


def test_an_unknown_illegal_action_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="illegal_action"):
        Env(4, illegal_action="raise")


def test_jit_and_vmap_step_a_batch_of_games_to_their_end() -> None:
    env = Env(5, Rules("must_draw", 2))
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    batch = init(jax.random.split(jax.random.PRNGKey(0), 64))
    key = jax.random.PRNGKey(1)
    for _ in range(200):
        key, pick, turn = jax.random.split(key, 3)
        logits = jnp.where(batch.legal_action_mask, 0.0, -jnp.inf)
        batch = step(batch, jax.random.categorical(pick, logits), jax.random.split(turn, 64))
        # card conservation at every step (docs/rules.md)
        game = batch._game
        total = (
            game.deck.sum(1) + game.table.sum(1) + game.king.sum(1) + game.takes.sum((1, 2))
            + game.draws.sum((1, 2)) + game.removed_dishes.sum(1) + game.removed_dragons
            + game.removed_unseen + game.pending_dragon
        )
        assert bool((total == 110).all())
    assert bool(batch.terminated.all())
    assert int(batch._game.round.max()) <= 11  # 110 // 10 rounds at most at five players (R4, R10)


def test_drawn_cards_come_from_the_deck_without_replacement() -> None:
    deck = jnp.asarray([3, 0, 1, 0, 0, 0, 0, 2], jnp.int32)
    for k in range(30):
        cards = np.asarray(draw_cards(deck, jax.random.PRNGKey(k), 8))
        assert sorted(cards[:6].tolist()) == [0, 0, 0, 2, 7, 7]
        assert cards[6:].tolist() == [CARD_KINDS, CARD_KINDS]
    # the top card of a full deck is each kind in proportion to its count (R2: shuffled)
    keys = jax.random.split(jax.random.PRNGKey(9), 22_000)
    firsts = np.asarray(jax.vmap(lambda k: draw_cards(jnp.asarray(FULL_DECK), k, 1)[0])(keys))
    share = np.bincount(firsts, minlength=CARD_KINDS) / len(firsts)
    assert np.abs(share[:7] - 15 / 110).max() < 0.01 and abs(share[7] - 5 / 110) < 0.006


def test_a_seat_cannot_tell_which_dish_another_seat_drew() -> None:
    """Twin worlds: seat 1 drew cheese and the deck holds a ham, or the other way round.
    Seat 0's tensor is the same in both (R7: a drawn dish card is hidden); seat 1's is not."""
    state = INIT(jax.random.PRNGKey(11))
    game = state._game
    draws = game.draws.at[1, 1].add(1)
    deck = game.deck.at[2].add(-1)
    one = state.replace(_game=game.replace(draws=draws, deck=deck))
    two = state.replace(
        _game=game.replace(draws=game.draws.at[1, 2].add(1), deck=game.deck.at[1].add(-1))
    )
    assert np.array_equal(ENV.observe(one, 0), ENV.observe(two, 0))
    assert np.array_equal(ENV.observe(one, 2), ENV.observe(two, 2))
    mine = slice(*offsets()["my_draws"])
    assert not np.array_equal(ENV.observe(one, 1)[mine], ENV.observe(two, 1)[mine])


@pytest.mark.parametrize("players", [2, 6, True, "4"])
def test_a_table_size_outside_the_rules_is_refused(players: object) -> None:
    with pytest.raises(SetupError, match="3 to 5 players"):
        Env(players)  # type: ignore[arg-type]


def test_bad_rules_and_cooks_are_refused() -> None:
    with pytest.raises(SetupError):
        Env(4, "must_draw")  # type: ignore[arg-type]
    with pytest.raises(SetupError, match="first cook"):
        Env(3, first_cook=3)


def test_step_and_deal_starts_a_new_game_where_one_ends() -> None:
    env = Env(3)
    step = jax.jit(jax.vmap(env.step_and_deal))
    batch = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(2), 32))
    key = jax.random.PRNGKey(3)
    ended = 0
    for _ in range(150):
        key, pick, turn = jax.random.split(key, 3)
        logits = jnp.where(batch.legal_action_mask, 0.0, -jnp.inf)
        batch = step(batch, jax.random.categorical(pick, logits), jax.random.split(turn, 32))
        done = np.asarray(batch.terminated)
        ended += int(done.sum())
        rewards = np.asarray(batch.rewards)
        assert np.allclose(rewards[done].sum(axis=1), 0)
        assert (np.abs(rewards[done]).sum(axis=1) > 0).all()
        assert (rewards[~done] == 0).all()
        # the finished games are new games, ready to play: round 1, a full table of 6
        assert (np.asarray(batch._game.round)[done] == 1).all()
        assert (np.asarray(batch._game.deck.sum(1))[done] == 104).all()
        assert (np.asarray(batch.current_player) >= 0).all()
        assert not np.asarray(batch.legal_action_mask)[done].all(axis=1).any()
    assert ended > 32  # every slot finished at least one game on the way


def test_the_svg_draws_the_table_and_hides_which_dish_a_seat_drew(tmp_path: Path) -> None:
    """``save_svg`` (pgx's drawing hook): a real SVG, one panel per game of a batch, showing
    how many cards a seat drew but never which (R7), so twin worlds draw the same."""
    from xml.etree import ElementTree

    state = INIT(jax.random.PRNGKey(11))
    game = state._game
    one = state.replace(_game=game.replace(draws=game.draws.at[1, 1].add(1)))
    two = state.replace(_game=game.replace(draws=game.draws.at[1, 2].add(1)))
    assert one.to_svg() == two.to_svg()
    assert "drew 1" in one.to_svg() and "drew 0" in one.to_svg()
    path = tmp_path / "table.svg"
    one.save_svg(path)
    root = ElementTree.fromstring(path.read_text())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    labels = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert sum(1 for t in labels if t and t.startswith("round 1")) == 1
    batch = jax.vmap(ENV.init)(jax.random.split(jax.random.PRNGKey(3), 3))
    drawn = ElementTree.fromstring(batch.to_svg(color_theme="dark", scale=0.5))
    panels = [t.text for t in drawn.iter("{http://www.w3.org/2000/svg}text")]
    assert sum(1 for t in panels if t and t.startswith("round 1")) == 3
    with pytest.raises(ValueError, match=r"end with \.svg"):
        one.save_svg(tmp_path / "table.png")


def test_observe_takes_the_seat_by_pgx_s_keyword() -> None:
    """pgx's ``Env.observe(state, player_id)``: code that names the argument runs as is."""
    state = INIT(jax.random.PRNGKey(7))
    for seat in range(4):
        assert np.array_equal(ENV.observe(state, player_id=seat), ENV.observe(state, seat))
    assert np.array_equal(ENV.observe(state), state.observation)
