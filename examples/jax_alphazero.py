"""Gumbel MuZero over determinized worlds (``kingsbreakfast.jax.alphazero``), trained by
self-play within a CPU budget and measured against three ``hard`` card counters.

    pip install 'kingsbreakfast[jax,batch]'
    XLA_FLAGS=--xla_force_host_platform_device_count=1 nice -n 19 \\
        python examples/jax_alphazero.py --seeds 2 3 --minutes 10 --json az.json

Each seed trains by self-play (every seat searched by the same network, all inside one
``jax.jit`` call per ``--chunks`` chunks) until ``--minutes`` of its own CPU time
(``time.process_time``, compilation included, evaluations excluded) are spent, saving a
checkpoint (``--checkpoints DIR``) after every call. At ``--points`` evenly spaced moments
and at the end, the search (gumbel noise off) plays seat 0 against three ``hard`` seats of
the project's compiled vector games (``VectorGames``, the numba card counter the other
baselines meet), seat-rotated as ``benchmarks/curves.py`` does: each decision of seat 0 is
the compiled game's state brought into the JAX environment (its view checked equal to the
compiled game's view), dealt into a world from seat 0's view and searched. The win share
(ties shared; parity 25%) is printed with its 95% Wilson interval. ``--json`` writes the
curve with the settings and every library version (mctx's among them). The same command
runs unchanged on a GPU (JAX picks the device; raise ``--envs`` there). ``--evaluate CKPT``
only evaluates a saved checkpoint (``--eval-games`` games, fresh deals of ``--seeds``'s first).

``--imitate N`` first trains N chunks on the card counter's own games (``kingsbreakfast.jax
.imitation``: the policy head learns its choice, the value head the final utilities; one
compiled call, its CPU timed apart from its compilation), then self-play goes on from there;
``--no-search`` evaluates the network's likeliest legal action without the search.

``--opponent-model counter`` makes the search model the other seats as card counters (the
tree then holds the acting seat's decisions only), ``--worlds W`` pools the improved policy
of W determinized worlds per decision; with ``--evaluate`` these and ``--simulations``
override the checkpoint's search settings (the network stays the saved one).
``--value-hidden H`` gives the value head its own body of width H.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, replace
from importlib import metadata
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from kingsbreakfast.bots import batch_policy
from kingsbreakfast.compiled.games import (
    COOK,
    PENDING,
    REMOVED_DRAGONS,
    REMOVED_UNSEEN,
    ROUND,
    TO_MOVE,
    TOP,
    TURNS_LEFT,
)
from kingsbreakfast.jax import Env, Game
from kingsbreakfast.jax.alphazero import (
    Config,
    forward,
    load,
    make_act,
    make_train,
    save,
    start,
    state_of,
)
from kingsbreakfast.jax.imitation import make_imitate
from kingsbreakfast.sim.vector import VectorGames

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from curves import point, position, rotations, versions  # type: ignore[import-not-found]

PLAYERS = 4


def games_here(games: VectorGames) -> Game:
    """The compiled games' arrays as a batch of the JAX environment's ``Game`` (the deck as
    counts of each card kind; its order stays behind, and the search deals a world anyway)."""
    g = games._games
    top = g.state[:, TOP]
    unread = np.arange(g.deck.shape[1])[None, :] >= top[:, None]
    kinds = np.arange(8)
    deck = ((g.deck[:, :, None] == kinds) & unread[:, :, None]).sum(axis=1)

    def i32(a: Any) -> jax.Array:
        return jnp.asarray(np.asarray(a, np.int32))

    return Game(
        to_move=i32(g.state[:, TO_MOVE]), table=i32(g.table), king=i32(g.king),
        takes=i32(g.takes), draws=i32(g.draws), deck=i32(deck),
        removed_dishes=i32(g.removed), removed_dragons=i32(g.state[:, REMOVED_DRAGONS]),
        removed_unseen=i32(g.state[:, REMOVED_UNSEEN]),
        pending_dragon=jnp.asarray(g.state[:, PENDING] != 0), cook=i32(g.state[:, COOK]),
        round=i32(g.state[:, ROUND]), turns_left=i32(g.state[:, TURNS_LEFT]),
    )  # fmt: skip


def evaluate(act: Any, params: Any, games_wanted: int, seed: int, opponents: str,
             partial: Any = None) -> dict[str, Any]:  # fmt: skip
    """``games_wanted`` fresh games, a quarter with the first cook at each seat, each played
    to its end once; seat 0 is the search, the others ``opponents`` (compiled). ``partial``
    (if given) gets the point of the games so far after each first cook's quarter, so a long
    evaluation cut short still leaves what it measured."""
    env = Env(PLAYERS)
    bring = jax.jit(jax.vmap(lambda game: state_of(env, game)))
    per_cook = rotations(games_wanted)
    key = jax.random.PRNGKey(seed)
    shares: list[float] = []
    positions: list[int] = []
    for cook in range(PLAYERS):
        games = VectorGames(per_cook, PLAYERS, ["caller"] + [batch_policy(opponents)] * 3,
                            first_cook=cook, autoreset=False)  # fmt: skip
        obs, _ = games.reset(seed=seed + cook)
        finished = np.zeros(per_cook, np.bool_)
        share = np.zeros(per_cook)
        while not finished.all():
            states = bring(games_here(games))
            going = ~finished
            if not np.array_equal(np.asarray(states.observation)[going], obs[going]):
                raise AssertionError("the JAX view of a compiled game differs from its own")
            key, think = jax.random.split(key)
            actions = np.asarray(act(params, states, think))
            obs, _, _, done = games.step(actions)
            ended = done & ~finished
            if ended.any():
                points = games.points[ended] * 1000 - games.discarded[ended]
                winners = points == points.max(axis=1, keepdims=True)
                share[ended] = winners[:, 0] / winners.sum(axis=1)
                finished |= ended
        shares += share.tolist()
        positions += [position(cook)] * per_cook
        if partial is not None and cook < PLAYERS - 1:
            partial(point(shares, positions))
    return point(shares, positions)


def acting(config: Config, no_search: bool) -> Any:
    """The evaluation's player: the search (Gumbel noise off), or with ``no_search`` the
    network's likeliest legal action alone."""
    if not no_search:
        return make_act(config)

    @jax.jit
    def likeliest(params: Any, states: Any, key: jax.Array) -> jax.Array:
        logits, _ = forward(params, states.observation, states.legal_action_mask)
        return jnp.argmax(logits, axis=-1)

    return likeliest


def warm_start(config: Config, runner: Any, seed: int) -> tuple[Any, dict[str, Any]]:
    """``config.imitate_chunks`` chunks of imitating the card counter (one compiled call for
    all), its compilation timed apart."""
    cpu = time.process_time()
    imitate = make_imitate(config, config.imitate_chunks).lower(runner).compile()
    compile_s = time.process_time() - cpu
    cpu = time.process_time()
    runner, metrics = jax.block_until_ready(imitate(runner))
    metrics = np.asarray(metrics)
    spent = time.process_time() - cpu
    record = {"seed": seed, "imitation_chunks": config.imitate_chunks,
              "imitation_decisions": config.imitate_chunks * config.num_envs * config.num_steps,
              "imitation_cpu_s": round(spent, 1), "imitation_compile_cpu_s": round(compile_s, 1),
              "agreement_first": float(metrics[0, 3]), "agreement_last": float(metrics[-1, 3]),
              "value_loss_first": float(metrics[:10, 2].mean()),
              "value_loss_last": float(metrics[-10:, 2].mean()),
              "games": float(metrics[:, 0].sum())}  # fmt: skip
    print(f"seed {seed}: imitation {config.imitate_chunks} chunks, {spent:.1f} CPU s "
          f"(+{compile_s:.1f} compiling), agreement with the counter "
          f"{metrics[0, 3]:.1%} -> {metrics[-1, 3]:.1%}, value loss (10 chunks' mean) "
          f"{record['value_loss_first']:.3f} -> {record['value_loss_last']:.3f}",
          flush=True)  # fmt: skip
    return runner, record


def where(runner: Any, seed: int, steps: int, spent: float, games: float) -> dict[str, Any]:
    """Where a seed's training stands: what each point of its curve records."""
    return {"params": runner[0], "seed": seed, "steps": steps, "spent": spent, "games": games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--minutes", type=float, default=10.0, help="training CPU a seed")
    parser.add_argument("--chunks", type=int, default=1, help="chunks per compiled call")
    parser.add_argument("--envs", type=int, default=Config.num_envs)
    parser.add_argument("--simulations", type=int, default=Config.simulations)
    parser.add_argument("--points", type=int, default=2, help="curve points before the end")
    parser.add_argument("--curve-games", type=int, default=200)
    parser.add_argument("--eval-games", type=int, default=2000, help="final games a seed")
    parser.add_argument("--opponents", default="hard")
    parser.add_argument("--checkpoints", help="a folder for each seed's last network")
    parser.add_argument("--json", help="write the curve here")
    parser.add_argument("--evaluate", help="only evaluate this checkpoint (--seeds[0]'s deals)")
    parser.add_argument("--imitate", type=int, default=0,
                        help="chunks of imitating the card counter before self-play")
    parser.add_argument("--no-search", action="store_true",
                        help="evaluate the network's likeliest action, without search")
    parser.add_argument("--opponent-model", choices=("paranoid", "counter"), default=None,
                        help="the search's model of the other seats (default: paranoid, or "
                        "the checkpoint's with --evaluate)")
    parser.add_argument("--worlds", type=int, help="determinized worlds pooled per decision")
    parser.add_argument("--considered", type=int, help="actions considered at the root")
    parser.add_argument("--value-hidden", type=int, default=0,
                        help="width of a separate value body (0: shared with the policy)")
    parser.add_argument("--learning-rate", type=float, default=Config.learning_rate)
    parser.add_argument("--epochs", type=int, default=Config.epochs)
    args = parser.parse_args()
    search_settings = {name: value for name, value in (
        ("opponent_model", args.opponent_model), ("worlds", args.worlds),
        ("considered", args.considered)) if value is not None}  # fmt: skip
    if args.evaluate:
        params, saved, record = load(args.evaluate)
        # the search's settings may differ from training's; the network is the saved one
        saved = replace(saved, **search_settings)
        if "--simulations" in sys.argv:
            saved = replace(saved, simulations=args.simulations)
        cpu = time.process_time()

        def report(measured: dict[str, Any], done: bool = False) -> None:
            measured["eval_cpu_s"] = round(time.process_time() - cpu, 1)
            print(
                f"{args.evaluate}: vs 3x {args.opponents} {measured['win_share']:.1%} "
                f"[{measured['low']:.1%}-{measured['high']:.1%}] over {measured['games']}"
                + ("" if done else " (so far)"), flush=True,
            )  # fmt: skip
            if args.json:
                Path(args.json).write_text(json.dumps({"checkpoint": record,
                    "config": asdict(saved), "point": measured, "complete": done,
                    "command": " ".join(sys.argv),
                    "versions": {**versions(), "mctx": metadata.version("mctx")}},
                    indent=1) + "\n")  # fmt: skip

        measured = evaluate(acting(saved, args.no_search), params, args.eval_games,
                            args.seeds[0] * 100_000 + 7, args.opponents, report)  # fmt: skip
        report(measured, done=True)
        return
    config = Config(num_envs=args.envs, simulations=args.simulations,
                    imitate_chunks=args.imitate, value_hidden=args.value_hidden,
                    learning_rate=args.learning_rate, epochs=args.epochs,
                    **search_settings)  # fmt: skip
    found = {**versions(), "mctx": metadata.version("mctx")}
    print(f"JAX {jax.__version__} on {jax.devices()[0].platform}; mctx {found['mctx']}; {config}")
    train = make_train(config, args.chunks)
    act = acting(config, args.no_search)
    budget = args.minutes * 60
    marks = [budget * (i + 1) / (args.points + 1) for i in range(args.points)]
    curve: list[dict[str, Any]] = []
    warm: list[dict[str, Any]] = []
    for seed in args.seeds:
        runner = start(jax.random.PRNGKey(seed), config)
        spent, steps, games_seen, wins = 0.0, 0, 0.0, 0.0
        if config.imitate_chunks:
            runner, imitated = warm_start(config, runner, seed)
            warm.append(imitated)
            if args.checkpoints:
                Path(args.checkpoints).mkdir(parents=True, exist_ok=True)
                save(Path(args.checkpoints) / f"alphazero-{seed}.npz", runner[0], config,
                     seed=seed, learner_steps=0, cpu_s=0.0, versions=found,
                     imitation=imitated)  # fmt: skip

        def measure(games: int, final: bool, at: dict[str, Any]) -> None:
            measured = evaluate(act, at["params"], games, at["seed"] * 100_000 + len(curve),
                                args.opponents)  # fmt: skip
            measured.update(seed=at["seed"], learner_steps=at["steps"], cpu_s=round(at["spent"], 1),
                            final=final, self_play_games=at["games"])  # fmt: skip
            curve.append(measured)
            print(f"seed {at['seed']}: {at['steps']:>8,} decisions, {at['spent']:6.1f} CPU s, "
                  f"{at['games']:,.0f} self-play games: vs 3x {args.opponents} "
                  f"{measured['win_share']:.1%} [{measured['low']:.1%}-{measured['high']:.1%}] "
                  f"over {measured['games']}", flush=True)  # fmt: skip

        if args.curve_games:
            measure(
                args.curve_games,
                False,
                where(runner, seed, steps, spent, games_seen),
            )
        while spent < budget:
            cpu = time.process_time()
            runner, metrics = train(runner)
            metrics = np.asarray(metrics)
            spent += time.process_time() - cpu
            steps += args.chunks * config.num_envs * config.num_steps
            games_seen += float(metrics[:, 0].sum())
            wins += float(metrics[:, 1].sum())
            print(f"seed {seed}: {spent:6.1f} CPU s, losses policy {metrics[-1, 2]:.3f} "
                  f"value {metrics[-1, 3]:.3f}", flush=True)  # fmt: skip
            if args.checkpoints:
                Path(args.checkpoints).mkdir(parents=True, exist_ok=True)
                save(Path(args.checkpoints) / f"alphazero-{seed}.npz", runner[0], config,
                     seed=seed, learner_steps=steps, cpu_s=spent, versions=found)  # fmt: skip
            while marks and spent >= marks[0] and spent < budget:
                marks.pop(0)
                measure(
                    args.curve_games,
                    False,
                    where(runner, seed, steps, spent, games_seen),
                )
        marks = [budget * (i + 1) / (args.points + 1) for i in range(args.points)]
        measure(
            args.eval_games,
            True,
            where(runner, seed, steps, spent, games_seen),
        )
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"learner": "Gumbel MuZero (mctx) over determinized worlds", "config": asdict(config),
             "opponents": args.opponents, "minutes": args.minutes, "versions": found,
             "imitation": warm, "no_search": args.no_search, "curve": curve,
             "command": " ".join(sys.argv)},
            indent=1) + "\n")  # fmt: skip


if __name__ == "__main__":
    main()
