"""Gumbel MuZero (mctx) over determinized worlds, trained by self-play entirely under ``jit``.

Which AlphaZero: mctx's ``gumbel_muzero_policy`` with the *real* environment as its model
(no learned dynamics), searched over a **determinized world**: before each search the acting
seat's view is dealt into one full state by :func:`~.worlds.sample_world` (the other seats'
hidden draws and the deck dealt anew from the unseen cards), and every simulation steps that
world with ``Env.step``. The search therefore never reads a hidden card of the real game
(tests/jax_env/test_alphazero.py: twin states that differ only in the other seats' hidden
draws give the same search output for the same key). One world per decision: each decision
samples a fresh one, so over a game the worlds vary, but a single search still suffers the
strategy fusion of every determinizing search (it plans as if it knew the sampled cards).
Chance inside the tree (a draw, the next table) is dealt by the key of the simulation that
first expands a node and then kept: the tree is one sampled outcome per edge.

How the values of 3–5 players are backed up: the network's value head predicts the rank
utility (R12) of *every* seat, indexed relative to the seat whose view it reads (entry 0 its
own, entry 1 the next seat, ...). The search is *paranoid* around the acting (root) seat:
a node where the root seat moves holds the root seat's value, a node where another seat moves
holds its negative (the others are taken to play against the root seat, which the rank
utility, summing to zero, makes a fair reduction to two sides). So an edge's reward is the
root seat's reward times the parent's sign, and its discount is the product of the parent's
and the child's signs (+1 when the side to move stays, −1 when it changes), 0 once the game
is over. Self-play trains the value head on all seats' final rank utilities and the policy
head on the search's improved policy (``action_weights``), as Gumbel MuZero does.

With ``Config.opponent_model = "counter"`` the search models the other seats as what they
are at the evaluation, card counters (``hard``): each step of a world plays the root seat's
action and then the counters' turns (:func:`~.versus.counters_play`, each counter from its
own view of the world) until the root seat moves again, so the tree holds the root seat's
decisions only and backs up its own utility (reward and value undiscounted, no sign). With
``Config.worlds`` above one, each decision is searched in that many worlds and the improved
policies (``action_weights``) are averaged before the action is chosen, which softens the
strategy fusion of a single world.

Self-play may start from a network that first imitated the card counter (:mod:`.imitation`,
``Config.imitate_chunks``), whose updates are :func:`make_learn`'s as self-play's are.

Everything (search, self-play, targets, updates) is one ``jax.jit`` call per training chunk,
so the same code runs unchanged on a GPU: only the batch sizes are worth raising there.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import mctx  # type: ignore[import-untyped]
import numpy as np
import optax  # type: ignore[import-untyped]

from . import network
from .env import Env
from .state import Game, State
from .versus import counters_play
from .worlds import sample_world

Array = jax.Array
Params = dict[str, Array]


@dataclass(frozen=True)
class Config:
    """The search's and the training's settings; the defaults are docs/baselines.md's run."""

    num_players: int = 4
    num_envs: int = 64
    """Games played side by side in self-play (every seat searched by the same network)."""
    num_steps: int = 96
    """Decisions per game slot in one chunk (a four-player game takes about 50–70)."""
    simulations: int = 16
    considered: int = 16
    """Gumbel MuZero's ``max_num_considered_actions`` at the root."""
    hidden: int = 128
    learning_rate: float = 1e-3
    epochs: int = 4
    minibatches: int = 4
    value_weight: float = 1.0
    imitate_chunks: int = 0
    """Chunks of imitation (:mod:`.imitation`: the card counter's choices and its games'
    utilities) before self-play; 0 starts self-play from the random network."""
    opponent_model: str = "paranoid"
    """How the search models the other seats: ``paranoid`` (they move in the tree, against
    the root seat) or ``counter`` (they play the JAX card counter inside the world's step,
    so the tree holds the root seat's decisions only and backs up its own utility)."""
    worlds: int = 1
    """Determinized worlds searched per decision; their improved policies are averaged."""
    value_hidden: int = 0
    """Width of a separate value body (two tanh layers); 0: the value head shares the
    policy's body."""


class Moment(NamedTuple):
    """One decision of self-play, with what the step after it showed."""

    obs: Array
    mask: Array
    target: Array
    """The search's improved policy (mctx's ``action_weights``)."""
    mover: Array
    rewards: Array
    """Every seat's reward of the step (non-zero only when it ended the game, R12)."""
    done: Array
    win: Array
    """Seat 0's share of the win in a game this step ended (1/k for k tied winners)."""


def init_params(key: Array, config: Config, size: int, actions: int) -> Params:
    """Two tanh layers, a policy head (logits over the action ids) and a value head (one
    rank utility per seat, relative to the seat whose view is read)."""
    params = network.init_params(key, size, config.hidden, actions, config.num_players, 0.01)
    if config.value_hidden:
        body = network.init_params(jax.random.fold_in(key, 1), size, config.value_hidden,
                                   actions, config.num_players, 0.01)  # fmt: skip
        params.update({f"value_{name}": body[name] for name in VALUE_BODY})
    return params


VALUE_BODY = ("w1", "b1", "w2", "b2", "wv", "bv")
"""A separate value body's arrays (``value_`` + name), when ``Config.value_hidden`` asks
for one: the policy's cross-entropy then no longer pulls the value's features its way."""


def forward(params: Params, obs: Array, mask: Array) -> tuple[Array, Array]:
    """Masked logits (illegal actions at −1e9) and the seats' values (entry 0: the viewer)."""
    logits, value = network.heads(params, obs, mask)
    if "value_w1" in params:
        own = {name: params[f"value_{name}"] for name in VALUE_BODY}
        value = network.body(own, obs) @ own["wv"] + own["bv"]
    return logits, jnp.tanh(value)


def relative(values: Array, mover: Array, seat: Array, players: int) -> Array:
    """``seat``'s entry of ``values`` indexed relative to ``mover`` (batched)."""
    offset = (seat - mover) % players
    picked: Array = jnp.take_along_axis(values, offset[:, None], axis=1)[:, 0]
    return picked


def make_search(
    env: Env, config: Config, gumbel_scale: float = 1.0
) -> Callable[[Params, State, Array], Any]:
    """``(params, states, key) -> mctx.PolicyOutput`` for a batch of real states: each
    mover's view dealt into one world (:func:`sample_world`), then searched. Nothing after the
    sampling reads the real states' hidden cards. ``gumbel_scale`` 0 plays the search's best
    action without Gumbel noise (evaluation); 1 samples as self-play needs."""
    n = env.num_players

    def recurrent(params: Params, key: Array, action: Array, embedding: Any) -> Any:
        worlds, root_seat = embedding
        keys = jax.random.split(key, action.shape[0])
        after = jax.vmap(env.step)(worlds, action, keys)
        logits, values = forward(params, after.observation, after.legal_action_mask)
        parent = jnp.where(worlds.current_player == root_seat, 1.0, -1.0)
        child = jnp.where(after.current_player == root_seat, 1.0, -1.0)
        reward = parent * jnp.take_along_axis(after.rewards, root_seat[:, None], axis=1)[:, 0]
        value = child * relative(values, after.current_player, root_seat, n)
        over = after.terminated
        output = mctx.RecurrentFnOutput(
            reward=jnp.where(worlds.terminated, 0.0, reward),
            discount=jnp.where(over, 0.0, parent * child),
            prior_logits=logits,
            value=jnp.where(over, 0.0, value),
        )
        return output, (after, root_seat)

    def against_counters(params: Params, key: Array, action: Array, embedding: Any) -> Any:
        worlds, root_seat = embedding
        keys = jax.random.split(key, action.shape[0])
        after = jax.vmap(lambda w, a, k, seat: counters_play(env, env.step(w, a, k), seat,
                                                            jax.random.fold_in(k, 1)))(
            worlds, action, keys, root_seat)  # fmt: skip
        logits, values = forward(params, after.observation, after.legal_action_mask)
        reward = jnp.take_along_axis(after.rewards, root_seat[:, None], axis=1)[:, 0]
        over = after.terminated
        output = mctx.RecurrentFnOutput(
            reward=jnp.where(worlds.terminated, 0.0, reward),
            discount=jnp.where(over, 0.0, 1.0),
            prior_logits=logits,
            value=jnp.where(over, 0.0, values[:, 0]),
        )
        return output, (after, root_seat)

    model = {"paranoid": recurrent, "counter": against_counters}[config.opponent_model]

    def one_world(params: Params, states: State, key: Array) -> Any:
        deal, key = jax.random.split(key)
        batch = states.current_player.shape[0]
        root_seat = states.current_player
        worlds = jax.vmap(lambda s, seat, k: sample_world(env, s, seat, k))(
            states, root_seat, jax.random.split(deal, batch)
        )
        logits, values = forward(params, worlds.observation, worlds.legal_action_mask)
        root = mctx.RootFnOutput(prior_logits=logits, value=values[:, 0],
                                 embedding=(worlds, root_seat))  # fmt: skip
        return mctx.gumbel_muzero_policy(
            params, key, root, model, config.simulations,
            invalid_actions=~worlds.legal_action_mask,
            max_num_considered_actions=config.considered, gumbel_scale=gumbel_scale,
        )  # fmt: skip

    def pooled(params: Params, states: State, key: Array) -> Any:
        """``config.worlds`` worlds per state searched as one batch; the improved policies
        averaged over them, the action the likeliest of the average (or drawn from it when
        the search samples): one world's certainty cannot outvote the others'."""
        w = config.worlds
        batch = states.current_player.shape[0]
        key, pick = jax.random.split(key)
        many = jax.tree.map(lambda a: jnp.repeat(a, w, axis=0), states)
        out = one_world(params, many, key)
        weights = out.action_weights.reshape(batch, w, -1).mean(axis=1)
        logits = jnp.where(states.legal_action_mask, jnp.log(weights + 1e-12), -jnp.inf)
        # gumbel_scale is fixed when the search is made: only the chosen rule is traced
        if gumbel_scale > 0:
            chosen = jax.random.categorical(pick, logits)
        else:
            chosen = jnp.argmax(logits, axis=-1)
        return mctx.PolicyOutput(action=chosen, action_weights=weights,
                                 search_tree=out.search_tree)  # fmt: skip

    return one_world if config.worlds == 1 else pooled


def value_targets(trajectory: Moment, players: int) -> tuple[Array, Array]:
    """Each decision's target: the final rank utilities of its game, rotated so entry 0 is
    the mover's; and whether its game ended within the chunk (a game still going has none)."""

    def back(carry: tuple[Array, Array], moment: Moment) -> Any:
        outcome, known = carry
        outcome = jnp.where(moment.done[:, None], moment.rewards, outcome)
        known = moment.done | known
        order = (moment.mover[:, None] + jnp.arange(players)) % players
        return (outcome, known), (jnp.take_along_axis(outcome, order, axis=1), known)

    batch = trajectory.done.shape[1]
    start = (jnp.zeros((batch, players)), jnp.zeros(batch, bool))
    _, (targets, known) = jax.lax.scan(back, start, trajectory, reverse=True)
    return targets, known


def _optimiser(config: Config) -> Any:
    return optax.chain(optax.clip_by_global_norm(1.0), optax.adam(config.learning_rate))


def seat0_win(after: State) -> Array:
    """Seat 0's share of the win in each game ``after`` ended (1/k for k tied winners)."""
    best = after.rewards.max(axis=1, keepdims=True)
    tied = jnp.maximum((after.rewards == best).sum(axis=1), 1)
    share = (after.rewards[:, 0] >= best[:, 0]) / tied
    return jnp.where(after.terminated, share, 0.0)


def make_learn(config: Config) -> Callable[[Params, Any, Array, Moment], Any]:
    """``(params, opt_state, key, trajectory) -> (params, opt_state, key, losses)``: the
    chunk's updates (``epochs`` × ``minibatches``) on a trajectory of ``num_steps`` ×
    ``num_envs`` decisions; the policy head learns ``trajectory.target`` (cross-entropy over
    the legal actions), the value head each game's final utilities (:func:`value_targets`).
    ``losses``: the policy and value losses of the last update. Self-play and imitation
    (:mod:`.imitation`) share it."""
    n = config.num_players
    optimiser = _optimiser(config)
    batch = config.num_envs * config.num_steps
    minibatch = batch // config.minibatches

    def loss(params: Params, part: Moment, target: Array, known: Array) -> tuple[Array, Any]:
        logits, values = forward(params, part.obs, part.mask)
        log_all = jax.nn.log_softmax(logits)
        policy = -jnp.where(part.mask, part.target * log_all, 0.0).sum(axis=1).mean()
        squared = ((values - target) ** 2).sum(axis=1)
        value = jnp.where(known, squared, 0.0).sum() / jnp.maximum(known.sum(), 1)
        return policy + config.value_weight * value, (policy, value)

    def learn(params: Params, opt_state: Any, key: Array, trajectory: Moment) -> Any:
        targets, known = value_targets(trajectory, n)
        flat = jax.tree.map(lambda a: a.reshape((batch, *a.shape[2:])), trajectory)
        targets, known = targets.reshape(batch, n), known.reshape(batch)

        def epoch(inner: Any, _: None) -> tuple[Any, Array]:
            params, opt_state, key = inner
            key, shuffle = jax.random.split(key)
            order = jax.random.permutation(shuffle, batch).reshape(config.minibatches, minibatch)

            def one(state: Any, idx: Array) -> tuple[Any, Array]:
                params, opt_state = state
                part = jax.tree.map(lambda a: a[idx], flat)
                grads, parts = jax.grad(loss, has_aux=True)(params, part, targets[idx],
                                                            known[idx])  # fmt: skip
                changes, opt_state = optimiser.update(grads, opt_state, params)
                return (optax.apply_updates(params, changes), opt_state), jnp.stack(parts)

            (params, opt_state), losses = jax.lax.scan(one, (params, opt_state), order)
            return (params, opt_state, key), losses[-1]

        (params, opt_state, key), losses = jax.lax.scan(
            epoch, (params, opt_state, key), None, length=config.epochs
        )
        return params, opt_state, key, losses[-1]

    return learn


def make_train(config: Config, chunks: int) -> Callable[[Any], Any]:
    """A compiled ``(runner) -> (runner, metrics)`` doing ``chunks`` rounds of self-play and
    updates. ``metrics`` per chunk: games ended, seat 0's summed win shares in them (a
    quarter of the games by parity), the policy loss and the value loss of the last update."""
    env = Env(config.num_players)
    search = make_search(env, config)
    learn = make_learn(config)

    def play(carry: Any, _: None) -> tuple[Any, Moment]:
        params, opt_state, states, key = carry
        key, think, turn = jax.random.split(key, 3)
        out = search(params, states, think)
        after = jax.vmap(env.step_and_deal)(
            states, out.action, jax.random.split(turn, config.num_envs)
        )
        moment = Moment(
            states.observation, states.legal_action_mask, out.action_weights,
            states.current_player, after.rewards, after.terminated, seat0_win(after),
        )  # fmt: skip
        return (params, opt_state, after, key), moment

    def chunk(carry: Any, _: None) -> tuple[Any, Array]:
        carry, trajectory = jax.lax.scan(play, carry, None, length=config.num_steps)
        params, opt_state, states, key = carry
        params, opt_state, key, losses = learn(params, opt_state, key, trajectory)
        metrics = jnp.concatenate([
            jnp.stack([trajectory.done.sum(), trajectory.win.sum()]).astype(jnp.float32),
            losses,
        ])  # fmt: skip
        return (params, opt_state, states, key), metrics

    def train(runner: Any) -> Any:
        return jax.lax.scan(chunk, runner, None, length=chunks)

    return jax.jit(train)


def start(key: Array, config: Config) -> Any:
    """The training's starting point: network, optimiser state, the games, a key."""
    env = Env(config.num_players)
    net, games, key = jax.random.split(key, 3)
    params = init_params(net, config, env.observation_shape[0], env.num_actions)
    states = jax.jit(jax.vmap(env.init))(jax.random.split(games, config.num_envs))
    return params, _optimiser(config).init(params), states, key


def make_act(config: Config) -> Callable[[Params, State, Array], Array]:
    """A compiled ``(params, states, key) -> actions``: the search's choice for each mover,
    without Gumbel noise (the evaluation's player)."""
    search = make_search(Env(config.num_players), config, gumbel_scale=0.0)

    def act(params: Params, states: State, key: Array) -> Array:
        action: Array = search(params, states, key).action
        return action

    return jax.jit(act)


def state_of(env: Env, game: Game) -> State:
    """The environment's state around ``game``'s arrays (another simulator's game brought
    here): the mover, its legal mask and its view written as ``Env`` writes them."""
    n = env.num_players
    over = game.to_move < 0
    state = State(
        current_player=jnp.maximum(game.to_move, 0).astype(jnp.int32),
        observation=jnp.zeros(env.observation_shape, jnp.float32),
        rewards=jnp.zeros(n, jnp.float32),
        terminated=over,
        truncated=jnp.bool_(False),
        legal_action_mask=jnp.zeros(env.num_actions, bool),
        _step_count=jnp.int32(0),
        _game=game,
    )
    return env._finish(state)


def save(path: str | Path, params: Params, config: Config, **record: Any) -> None:
    """The network's arrays and the settings (and ``record``: seed, versions, ...) in one
    ``.npz`` file."""
    meta = json.dumps({"config": asdict(config), **record})
    arrays = {name: np.asarray(value) for name, value in params.items()}
    np.savez(path, __meta__=np.array(meta), **arrays)  # type: ignore[arg-type]


def load(path: str | Path) -> tuple[Params, Config, dict[str, Any]]:
    """What :func:`save` wrote: the network, its settings, the rest of the record."""
    with np.load(path) as data:
        meta = json.loads(str(data["__meta__"]))
        params = {name: jnp.asarray(data[name]) for name in data.files if name != "__meta__"}
    config = Config(**meta.pop("config"))
    return params, config, meta
