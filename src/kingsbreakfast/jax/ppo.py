"""PPO on the JAX environment, in the style of PureJaxRL: rollouts, advantages and updates all
inside one ``jax.jit``-compiled function, so a whole stretch of training is one call.

Why PPO and not AlphaZero with mctx: the game has hidden cards and chance at every draw, so
AlphaZero would need a determinization (sample the unseen cards, search each world, pool the
visits) wrapped around mctx's search of a perfect-information model, which is both far more
compute per decision and a known source of strategy fusion errors; PPO needs only the view
tensor and the legal mask, learns from the rank reward directly, and is the baseline the
project's other learners (MaskablePPO, the numpy vector PPO) already use, so the three
curves compare like with like.

The learner sits in seat 0 against built-in random seats (uniform over the legal actions),
the first cook drawn at random for each game (R2), so every seat order is met. The policy is a
small multilayer perceptron over the view tensor with the illegal actions masked out, and a
value head; the reward is the R12 rank utility at the game's end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import optax  # type: ignore[import-untyped]

from . import network
from . import rules as _rules
from .env import Env
from .state import State

Array = jax.Array
Params = dict[str, Array]


@dataclass(frozen=True)
class Config:
    """PPO's settings; the defaults are those of docs/baselines.md's curve."""

    num_players: int = 4
    num_envs: int = 256
    num_steps: int = 32
    """Learner steps per game slot between two updates."""
    epochs: int = 4
    minibatches: int = 4
    hidden: int = 128
    learning_rate: float = 3e-4
    gamma: float = 1.0
    """An episode is one game with its reward at the end: no discount."""
    gae_lambda: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    value_weight: float = 0.5
    max_grad_norm: float = 0.5


class Transition(NamedTuple):
    obs: Array
    mask: Array
    action: Array
    log_prob: Array
    value: Array
    reward: Array
    done: Array
    win: Array
    """The learner's share of the win in a game that just ended (1/k for k tied winners)."""


def init_params(key: Array, config: Config, size: int, actions: int) -> Params:
    """A two-layer tanh network with a policy head and a value head."""
    return network.init_params(key, size, config.hidden, actions, 1, 1.0)


def forward(params: Params, obs: Array, mask: Array) -> tuple[Array, Array]:
    """Masked logits (illegal actions at −1e9) and the value of ``obs``."""
    logits, value = network.heads(params, obs, mask)
    return logits, value[..., 0]


def random_legal(mask: Array, key: Array) -> Array:
    """A uniformly random legal action: the k-th legal id, k uniform below their count."""
    count = mask.sum()
    k = jnp.minimum(jnp.floor(jax.random.uniform(key) * count), count - 1).astype(jnp.int32)
    action: Array = jnp.argmax(jnp.cumsum(mask) > k)
    return action


def win_share(state: State, seat: int) -> Array:
    """``seat``'s share of the win (R12: most points, then fewest discards; ties share)."""
    points, discarded = _rules.score(state._game.king, state._game.takes, state._game.draws)
    above = (points > points[seat]) | ((points == points[seat]) & (discarded < discarded[seat]))
    tied = (points == points[seat]) & (discarded == discarded[seat])
    share: Array = jnp.where(above.any(), 0.0, 1.0 / tied.sum())
    return share


class Versus:
    """The learner's game: seat 0 is the caller, the other seats play ``opponent``."""

    def __init__(self, env: Env, opponent: Callable[[State, Array], Array] | None = None):
        self.env = env
        self.opponent = opponent or (lambda state, key: random_legal(state.legal_action_mask, key))

    def others(self, state: State, key: Array) -> State:
        """The other seats move until seat 0 is to move or the game is over."""

        def waiting(carry: tuple[State, Array]) -> Array:
            s, _ = carry
            result: Array = (s.current_player != 0) & ~s.terminated
            return result

        def move(carry: tuple[State, Array]) -> tuple[State, Array]:
            s, k = carry
            k, pick, turn = jax.random.split(k, 3)
            return self.env.step(s, self.opponent(s, pick), turn), k

        final, _ = jax.lax.while_loop(waiting, move, (state, key))
        return final

    def reset(self, key: Array) -> State:
        deal, play = jax.random.split(key)
        return self.others(self.env.init(deal), play)

    def answered(self, state: State, action: Array, key: Array) -> State:
        """Seat 0's action and the others' answers, up to seat 0's next turn or the end."""
        mine, theirs = jax.random.split(key)
        return self.others(self.env.step(state, action, mine), theirs)

    def step(self, state: State, action: Array, key: Array) -> tuple[State, Array, Array, Array]:
        """Seat 0's action, the others' answers; a finished game is dealt again. Returns the
        next state, seat 0's reward, whether a game ended and seat 0's share of its win."""
        play, deal = jax.random.split(key)
        after = self.answered(state, action, play)
        done = after.terminated
        reward = jnp.where(done, after.rewards[0], 0.0)
        won = jnp.where(done, win_share(after, 0), 0.0)
        fresh = self.reset(deal)
        following: State = jax.tree.map(lambda a, b: jnp.where(done, a, b), fresh, after)
        return following, reward, done, won


def make_train(config: Config, updates: int) -> Callable[[Any], Any]:
    """A compiled function ``(runner) -> (runner, metrics)`` doing ``updates`` PPO updates;
    ``runner`` is what :func:`start` returns. ``metrics`` holds, per update, the games that
    ended in its rollout and the learner's summed win shares and rewards in them."""
    env = Env(config.num_players)
    versus = Versus(env)
    step = jax.vmap(versus.step)
    optimiser = optax.chain(
        optax.clip_by_global_norm(config.max_grad_norm), optax.adam(config.learning_rate)
    )
    batch = config.num_envs * config.num_steps
    minibatch = batch // config.minibatches

    def rollout(carry: Any, _: None) -> tuple[Any, Transition]:
        params, opt_state, states, key = carry
        key, pick, turn = jax.random.split(key, 3)
        logits, value = forward(params, states.observation, states.legal_action_mask)
        action = jax.random.categorical(pick, logits)
        log_prob = jax.nn.log_softmax(logits)[jnp.arange(config.num_envs), action]
        following, reward, done, won = step(
            states, action, jax.random.split(turn, config.num_envs)
        )
        moment = Transition(
            states.observation, states.legal_action_mask, action, log_prob, value, reward,
            done, won,
        )  # fmt: skip
        return (params, opt_state, following, key), moment

    def advantages(trajectory: Transition, last_value: Array) -> tuple[Array, Array]:
        def back(carry: tuple[Array, Array], moment: Transition) -> Any:
            gae, next_value = carry
            live = 1.0 - moment.done
            delta = moment.reward + config.gamma * next_value * live - moment.value
            gae = delta + config.gamma * config.gae_lambda * live * gae
            return (gae, moment.value), gae

        _, adv = jax.lax.scan(
            back, (jnp.zeros_like(last_value), last_value), trajectory, reverse=True
        )
        return adv, adv + trajectory.value

    def loss(params: Params, moments: Transition, adv: Array, target: Array) -> Array:
        logits, value = forward(params, moments.obs, moments.mask)
        log_all = jax.nn.log_softmax(logits)
        log_prob = jnp.take_along_axis(log_all, moments.action[:, None], axis=1)[:, 0]
        ratio = jnp.exp(log_prob - moments.log_prob)
        norm = (adv - adv.mean()) / (adv.std() + 1e-8)
        policy = -jnp.minimum(
            ratio * norm, jnp.clip(ratio, 1 - config.clip, 1 + config.clip) * norm
        ).mean()
        value_loss = 0.5 * ((value - target) ** 2).mean()
        probs = jnp.exp(log_all)
        entropy = -(jnp.where(moments.mask, probs * log_all, 0.0)).sum(axis=1).mean()
        total: Array = policy + config.value_weight * value_loss - config.entropy * entropy
        return total

    def update(carry: Any, unused: None) -> tuple[Any, Array]:
        carry, trajectory = jax.lax.scan(rollout, carry, None, length=config.num_steps)
        params, opt_state, states, key = carry
        _, last_value = forward(params, states.observation, states.legal_action_mask)
        adv, target = advantages(trajectory, last_value)
        flat = jax.tree.map(lambda a: a.reshape((batch, *a.shape[2:])), trajectory)
        adv, target = adv.reshape(batch), target.reshape(batch)

        def epoch(inner: Any, _: None) -> tuple[Any, None]:
            params, opt_state, key = inner
            key, shuffle = jax.random.split(key)
            order = jax.random.permutation(shuffle, batch).reshape(config.minibatches, minibatch)

            def one(state: Any, idx: Array) -> tuple[Any, None]:
                params, opt_state = state
                part = jax.tree.map(lambda a: a[idx], flat)
                grads = jax.grad(loss)(params, part, adv[idx], target[idx])
                changes, opt_state = optimiser.update(grads, opt_state, params)
                return (optax.apply_updates(params, changes), opt_state), None

            (params, opt_state), _ = jax.lax.scan(one, (params, opt_state), order)
            return (params, opt_state, key), None

        (params, opt_state, key), _ = jax.lax.scan(
            epoch, (params, opt_state, key), None, length=config.epochs
        )
        metrics = jnp.stack(
            [trajectory.done.sum(), trajectory.win.sum(), trajectory.reward.sum()]
        ).astype(jnp.float32)
        return (params, opt_state, states, key), metrics

    def train(runner: Any) -> Any:
        return jax.lax.scan(update, runner, None, length=updates)

    return jax.jit(train)


def start(key: Array, config: Config) -> Any:
    """The training's starting point: network, optimiser state, the games, a key."""
    env = Env(config.num_players)
    versus = Versus(env)
    net, games, key = jax.random.split(key, 3)
    params = init_params(net, config, env.observation_shape[0], env.num_actions)
    optimiser = optax.chain(
        optax.clip_by_global_norm(config.max_grad_norm), optax.adam(config.learning_rate)
    )
    states = jax.jit(jax.vmap(versus.reset))(jax.random.split(games, config.num_envs))
    return params, optimiser.init(params), states, key


def make_evaluate(config: Config, games: int, greedy: bool) -> Callable[[Params, Array], Array]:
    """A compiled function ``(params, key) -> win shares (games,)``: each slot plays one whole
    game, the learner's most likely action (``greedy``) or a sample from its policy."""
    env = Env(config.num_players)
    versus = Versus(env)

    def play(params: Params, key: Array) -> Array:
        deal, key = jax.random.split(key)
        states = jax.vmap(versus.reset)(jax.random.split(deal, games))

        def going(carry: Any) -> Array:
            result: Array = ~carry[0].terminated.all()
            return result

        def move(carry: Any) -> Any:
            states, key = carry
            key, pick, turn = jax.random.split(key, 3)
            logits, _ = forward(params, states.observation, states.legal_action_mask)
            action = jnp.argmax(logits, axis=1) if greedy else jax.random.categorical(pick, logits)
            # a finished game stays as it is: a step on it changes nothing (pgx)
            states = jax.vmap(versus.answered)(states, action, jax.random.split(turn, games))
            return states, key

        final, _ = jax.lax.while_loop(going, move, (states, key))
        shares: Array = jax.vmap(lambda s: win_share(s, 0))(final)
        return shares

    return jax.jit(play)
