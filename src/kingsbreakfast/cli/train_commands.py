"""The ``train`` command: the master bot's network from self-play, reproducibly."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Annotated

import typer

from kingsbreakfast.cli.extras import need_extra
from kingsbreakfast.cli.options import LangOption, fail
from kingsbreakfast.i18n import _


def train(
    output: Annotated[
        Path, typer.Option(help="Where the best weights go; checkpoints go into "
                           "OUTPUT's folder beside it, the learning curve to .curve.json/.png.")
    ] = Path("master.npz"),
    seed: Annotated[int, typer.Option(help="Seed of the self-play games and the network.")] = 1,
    minutes: Annotated[float, typer.Option(help="Training time (wall clock).")] = 66.0,
    games: Annotated[int, typer.Option(help="Stop after this many self-play games (0: the "
                                       "clock alone); with it the run is the same on any "
                                       "machine.")] = 0,
    hidden: Annotated[int, typer.Option(help="Units in each of the two hidden layers.")] = 128,
    eval_games: Annotated[int, typer.Option(help="Games of each evaluation against three "
                                            "hard bots.")] = 2000,
    eval_every: Annotated[float, typer.Option(help="Seconds between evaluations.")] = 300.0,
    eval_every_games: Annotated[int, typer.Option(help="Self-play games between evaluations "
                                                  "instead of seconds (0: by the clock); "
                                                  "with --games the checkpoints are the same "
                                                  "on any machine.")] = 0,
    steps_per_batch: Annotated[int, typer.Option(help="Adam steps after each batch of 256 "
                                                 "games.")] = 24,
    epsilon: Annotated[float, typer.Option(help="Chance that a network seat explores (a "
                                           "random legal action).")] = 0.05,
    learning_rate: Annotated[float, typer.Option(help="Adam's first step size (it falls "
                                                 "linearly to a tenth).")] = 1e-3,
    self_play_share: Annotated[float, typer.Option(help="Share of games with more network "
                                                   "seats than one.")] = 0.5,
    search_games: Annotated[int, typer.Option(help="Games a batch in which one seat values "
                                              "every action with the chef's search, the "
                                              "search's values joining the Monte-Carlo "
                                              "targets (expert iteration; 0: none).")] = 0,
    search_worlds: Annotated[int, typer.Option(help="Worlds the search deals for each of "
                                               "those decisions.")] = 16,
    td_lambda: Annotated[float, typer.Option(help="How far the targets look ahead: 1 is "
                                             "how the game ended (Monte-Carlo); below 1 "
                                             "they mix in the network's values of the "
                                             "seat's later choices (lambda-returns).")] = 1.0,
    init: Annotated[Path | None, typer.Option(help="Start from these weights (a checkpoint) "
                                              "instead of at random; a network with fewer "
                                              "hidden units is widened to --hidden.")] = None,
    backend: Annotated[str, typer.Option(help="The learner: torch (the train extra; how the "
                                         "shipped weights were made) or numpy.")] = "torch",
    lang: LangOption = None,
) -> None:
    """Train the master bot on self-play against itself and the hard level (deep
    Monte-Carlo), with a progress bar, periodic evaluation against three hard bots,
    checkpoints and a learning curve. Needs the train extra (PyTorch, numba), or with
    --backend numpy only numpy, numba and matplotlib."""
    if not (0 <= epsilon <= 1 and 0 <= self_play_share <= 1 and learning_rate > 0):
        raise fail(_("epsilon and self-play-share are chances from 0 to 1; learning-rate "
                     "must be positive"))
    if backend not in ("torch", "numpy"):
        raise fail(_("unknown backend '{backend}': choose torch or numpy").format(
            backend=backend))
    need_extra("train", *(["torch"] if backend == "torch" else []), "numba", "matplotlib")
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from kingsbreakfast.sim.train import TrainConfig, plot_curve
    from kingsbreakfast.sim.train import train as run

    if (minutes <= 0 or eval_games < 2 or hidden < 1 or eval_every <= 0 or games < 0
            or eval_every_games < 0 or steps_per_batch < 1 or search_games < 0
            or search_worlds < 1):
        raise fail(_("minutes and eval-every must be positive, eval-games at least 2, "
                     "hidden, steps-per-batch and search-worlds at least 1, games, "
                     "eval-every-games and search-games not negative"))
    if not 0 <= td_lambda <= 1:
        raise fail(_("--td-lambda must be from 0 to 1, not {value}").format(value=td_lambda))
    config = TrainConfig(seed=seed, minutes=minutes, hidden=hidden, eval_games=eval_games,
                         eval_every=eval_every, eval_every_games=eval_every_games,
                         steps_per_batch=steps_per_batch, max_games=games, commit=_commit(),
                         backend=backend, epsilon=epsilon, learning_rate=learning_rate,
                         self_play_share=self_play_share, init=str(init or ""),
                         search_games=search_games, search_worlds=search_worlds,
                         td_lambda=td_lambda)
    with Progress(TextColumn("{task.description}"), BarColumn(), TimeRemainingColumn(),
                  TextColumn("{task.fields[status]}")) as bar:
        task = bar.add_task("training", total=1.0, status="")
        result = run(
            config, output, log=bar.console.print,
            progress=lambda done, status: bar.update(task, completed=done, status=status),
        )
    curve = output.with_suffix(".curve.json")
    plot_curve(curve, output.with_suffix(".png"))
    if result.best is not None:
        print(f"best: {100 * result.best.win_share:.1f}% vs 3x hard after "
              f"{result.best.games_trained} games; weights in {output}")


def _commit() -> str:
    """The source's commit, recorded in the weights (empty outside a git checkout)."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).parent, timeout=10, check=False)
    except OSError:
        return ""
    return done.stdout.strip()


def average_weights(
    output: Annotated[Path, typer.Argument(help="Where the averaged weights go.")],
    checkpoints: Annotated[list[Path], typer.Argument(help="Checkpoints of one run.")],
    note: Annotated[str, typer.Option(help="A line for the header: how they were made.")] = "",
    lang: LangOption = None,
) -> None:
    """Average the weights of several checkpoints of the master bot (how the shipped
    weights were made: docs/analysis.md)."""
    need_extra("batch", "numpy")
    from kingsbreakfast.sim.train import average_checkpoints

    try:
        average_checkpoints(list(checkpoints), output, note)
    except ValueError as error:
        raise fail(str(error)) from None
    print(f"averaged {len(checkpoints)} checkpoints into {output}")


def join_weights(
    output: Annotated[Path, typer.Argument(help="Where the joined network goes.")],
    networks: Annotated[list[Path], typer.Argument(help="Two or more master networks.")],
    note: Annotated[str, typer.Option(help="A line for the header: how they were made.")] = "",
    lang: LangOption = None,
) -> None:
    """Join several master networks into one wider network that answers their mean (an
    ensemble in the ordinary weights format: docs/analysis.md)."""
    need_extra("batch", "numpy")
    from kingsbreakfast.sim.train import join_networks

    try:
        join_networks(list(networks), output, note)
    except ValueError as error:
        raise fail(str(error)) from None
    print(f"joined {len(networks)} networks into {output}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the ``kingsbreakfast`` command line."""
    app.command()(train)
    app.command(name="average-weights")(average_weights)
    app.command(name="join-weights")(join_weights)
