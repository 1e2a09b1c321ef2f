"""The small policy-value network the JAX baselines share (PPO in :mod:`.ppo`, AlphaZero in
:mod:`.alphazero`): two tanh layers, a policy head over the action ids and a value head whose
width and starting scale each baseline chooses. One copy, so both learn on the same body."""

from __future__ import annotations

import jax
import jax.numpy as jnp

Array = jax.Array
Params = dict[str, Array]


def init_params(key: Array, size: int, hidden: int, actions: int, values: int,
                value_scale: float) -> Params:
    """Weights scaled by 1/√fan-in; the policy head starts small (scale 0.01), so the first
    policy is near uniform over the legal actions."""
    k1, k2, k3, k4 = jax.random.split(key, 4)

    def dense(k: Array, fan_in: int, fan_out: int, scale: float) -> Array:
        weights: Array = jax.random.normal(k, (fan_in, fan_out)) * scale / jnp.sqrt(fan_in)
        return weights

    return {
        "w1": dense(k1, size, hidden, 1.0), "b1": jnp.zeros(hidden),
        "w2": dense(k2, hidden, hidden, 1.0), "b2": jnp.zeros(hidden),
        "wp": dense(k3, hidden, actions, 0.01), "bp": jnp.zeros(actions),
        "wv": dense(k4, hidden, values, value_scale), "bv": jnp.zeros(values),
    }  # fmt: skip


def body(params: Params, obs: Array) -> Array:
    """The two tanh layers' features, which the heads read."""
    x = jnp.tanh(obs @ params["w1"] + params["b1"])
    return jnp.tanh(x @ params["w2"] + params["b2"])


def heads(params: Params, obs: Array, mask: Array) -> tuple[Array, Array]:
    """Masked logits (illegal actions at −1e9) and the value head's raw output."""
    x = body(params, obs)
    logits = jnp.where(mask, x @ params["wp"] + params["bp"], -1e9)
    return logits, x @ params["wv"] + params["bv"]
