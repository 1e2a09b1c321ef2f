"""The ``kingsbreakfast`` command."""

from __future__ import annotations

import json
import random
import sys
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer

from kingsbreakfast.bots import RandomBot
from kingsbreakfast.engine import (
    KingsBreakfastError,
    Record,
    RecordError,
    Rules,
    State,
    outcome,
    read_record,
)
from kingsbreakfast.engine.record import parse_json
from kingsbreakfast.narrate import narrate, round_opening, score_lines

app = typer.Typer(
    help="King's Breakfast (King Lui): replay game records, watch bots play.",
    no_args_is_help=True,
    add_completion=False,
)

EXAMPLES = "kingsbreakfast.examples"


def run() -> None:
    app()


@app.callback()
def _root() -> None:
    """King's Breakfast (King Lui), the card game by Alan R. Moon and Aaron Weissblum."""


# --- replay ---------------------------------------------------------------------------------


def _load(source: str) -> Any:
    """A record's parsed JSON from a path, ``-`` (standard input) or a bundled example name."""
    if source == "-":
        data = sys.stdin.buffer.read()
    else:
        path = Path(source)
        if not path.exists() and _is_example(source):
            data = resources.files(EXAMPLES).joinpath(f"{source}.json").read_bytes()
        else:
            try:
                data = path.read_bytes()
            except OSError as error:
                raise RecordError(
                    f"cannot read {source}: {error.strerror or error}", "unreadable_file"
                ) from None
    return parse_json(data)


def _is_example(name: str) -> bool:
    return resources.files(EXAMPLES).joinpath(f"{name}.json").is_file()


def _example_names() -> list[str]:
    return sorted(
        entry.name.removesuffix(".json")
        for entry in resources.files(EXAMPLES).iterdir()
        if entry.name.endswith(".json")
    )


@app.command()
def replay(
    files: Annotated[
        list[str],
        typer.Argument(
            help="Record files (kingsbreakfast/1); '-' reads standard input; a bundled "
            "example may be named (see 'kingsbreakfast examples').",
            show_default=False,
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object per record, one per line.")
    ] = False,
) -> None:
    """Check and replay game records, then print where they end and the scores.

    Exit status 2 when any record is invalid, else 0.
    """
    failed = False
    for source in files:
        try:
            obj = _load(source)
            record = read_record(obj)
            state = record.replay()
        except RecordError as error:
            failed = True
            if as_json:
                print(json.dumps({"error": error.message, "action_index": error.action_index}))
            else:
                where = "" if error.action_index is None else f" (action {error.action_index})"
                print(f"{source}: invalid record{where}: {error.message}", file=sys.stderr)
            continue
        if as_json:
            print(json.dumps(outcome(state)))
        else:
            if len(files) > 1:
                print(f"== {source}")
            print("\n".join(_account(record, state)))
    if failed:
        raise typer.Exit(2)


def _account(record: Record, final: State) -> list[str]:
    """A readable account of the game: every action in words, then the scores."""
    names = list(record.players)
    lines = [
        f"King's Breakfast, {len(names)} players: " + ", ".join(
            f"{name} (seat {seat})" for seat, name in enumerate(names)
        )
    ]
    if not record.rules.is_default:
        switches = record.rules.to_dict().items()
        lines.append("Variants: " + ", ".join(f"{key}={value}" for key, value in switches))
    state = record.start()
    lines.append(round_opening(state.view(None), names))
    reveal = final.is_over  # once the game is over the whole record may be shown
    for action in record.actions:
        mover = state.to_move
        before = state.view(mover if reveal else None)
        state.apply(action)
        after = state.view(mover if reveal else None)
        lines.extend("  " + line if not line.startswith("Round") else line
                     for line in narrate(before, action, after, names))
    lines.append("")
    if final.is_over:
        lines.extend(score_lines(final.score(), final.king, names))
    else:
        to_move = final.to_move
        assert to_move is not None
        lines.append(
            f"The record stops in round {final.round}; {names[to_move]} is to move "
            f"({len(final.legal_actions())} legal actions)."
        )
    return lines


@app.command()
def examples() -> None:
    """List the example records that ship with the package (replay them by name)."""
    for name in _example_names():
        print(name)


# --- demo -----------------------------------------------------------------------------------


@app.command()
def demo(
    players: Annotated[int, typer.Option(help="Number of players, 3 to 5.")] = 4,
    seed: Annotated[
        int | None, typer.Option(help="Seed for the deck and the bots (default: random).")
    ] = None,
    save: Annotated[
        Path | None, typer.Option(help="Write the game's kingsbreakfast/1 record here.")
    ] = None,
    empty_table: Annotated[
        str, typer.Option(help="Variant: draw_or_feed (ruling R5a) or must_draw.")
    ] = "draw_or_feed",
    dragon_min_on_table: Annotated[
        int, typer.Option(help="Variant: dragons needed on the table to feed one (1 or 2).")
    ] = 1,
) -> None:
    """Watch bots play a whole game, told action by action, with the final scores."""
    try:
        rules = Rules(empty_table, dragon_min_on_table)
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        rng = random.Random(seed)
        state = State.new(players, rng, rules=rules)
    except KingsBreakfastError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    names = ["Ann", "Bob", "Cid", "Dee", "Eve"][:players]
    bot = RandomBot()
    print(f"King's Breakfast, {players} random bots, seed {seed}.")
    print(round_opening(state.view(None), names))
    while not state.is_over:
        mover = state.to_move
        before = state.view(mover)
        action = bot.act(before, rng)
        state.play(action)
        after = state.view(mover)
        for line in narrate(before, action, after, names):
            print(line if line.startswith("Round") else "  " + line)
    print()
    print("\n".join(score_lines(state.score(), state.king, names)))
    if save is not None:
        save.write_text(Record.from_state(state, names).to_json(indent=1) + "\n")
        print(f"Record written to {save}")


def _register_commands() -> None:
    """Commands that live in their own modules, one area each."""
    from kingsbreakfast.cli import play_commands, research_commands, sim_commands

    for module in (play_commands, sim_commands, research_commands):
        module.register(app)


_register_commands()
