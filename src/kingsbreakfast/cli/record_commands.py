"""The commands that read and tell whole games: ``replay`` (check a record and tell it, or step
through it), ``examples`` (the records that ship with the package) and ``demo`` (bots play a
game, told as it happens); and the record reading the other commands share
(:func:`read_source`, :func:`readable_error`)."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from kingsbreakfast.bots import make_bot
from kingsbreakfast.cli.options import LangOption, VariantOption, fail, parse_variants
from kingsbreakfast.engine import (
    Action,
    KingsBreakfastError,
    Record,
    RecordError,
    State,
    outcome,
    read_record,
)
from kingsbreakfast.i18n import _, ngettext
from kingsbreakfast.i18n.errors import explain
from kingsbreakfast.narrate import DEFAULT_NAMES, narrate, round_opening, score_lines

EXAMPLES = "kingsbreakfast.examples"


def register(app: typer.Typer) -> None:
    app.command()(replay)
    app.command()(examples)
    app.command()(demo)


def read_source(source: str) -> bytes:
    """A record's JSON text from a path, ``-`` (standard input) or a bundled example name."""
    if source == "-":
        data = sys.stdin.buffer.read()
    else:
        path = Path(source)
        if not path.exists() and is_example(source):
            data = resources.files(EXAMPLES).joinpath(f"{source}.json").read_bytes()
        else:
            try:
                data = path.read_bytes()
            except OSError as error:
                raise RecordError(
                    f"cannot read {source}: {error.strerror or error}",
                    "unreadable_file",
                    path=source,
                    reason=error.strerror or str(error),
                ) from None
    return data


def is_example(name: str) -> bool:
    return resources.files(EXAMPLES).joinpath(f"{name}.json").is_file()


def example_names() -> list[str]:
    return sorted(
        entry.name.removesuffix(".json")
        for entry in resources.files(EXAMPLES).iterdir()
        if entry.name.endswith(".json")
    )


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
    step: Annotated[
        bool, typer.Option("--step", help="Step through one record in the game's own screen.")
    ] = False,
    plain: Annotated[
        bool, typer.Option("--plain", help="With --step: line by line, for any terminal.")
    ] = False,
    lang: LangOption = None,
) -> None:
    """Check and replay game records, then print where they end and the scores.

    Exit status 2 when any record is invalid, else 0.
    """
    if step:
        step_through(files, as_json, plain)
        return
    failed = False
    for source in files:
        try:
            obj = read_source(source)
            record = read_record(obj)
            state = record.replay()
        except RecordError as error:
            failed = True
            if as_json:
                print(json.dumps({"error": error.message, "action_index": error.action_index}))
            else:
                print(readable_error(source, error), file=sys.stderr)
            continue
        if as_json:
            print(json.dumps(outcome(state)))
        else:
            if len(files) > 1:
                print(f"== {source}")
            print("\n".join(account(record, state)))
    if failed:
        raise typer.Exit(2)


def step_through(files: list[str], as_json: bool, plain: bool) -> None:
    """``replay --step``: one valid record, shown in the terminal game's replay viewer."""
    from kingsbreakfast.cli.play_commands import step_replay

    if len(files) != 1 or as_json:
        typer.echo(_("error: --step shows exactly one record, and not with --json"), err=True)
        raise typer.Exit(2)
    try:
        record = read_record(read_source(files[0]))
    except RecordError as error:
        print(readable_error(files[0], error), file=sys.stderr)
        raise typer.Exit(2) from None
    step_replay(record, plain=plain)


def readable_error(source: str, error: RecordError) -> str:
    """The reason a record is invalid, in the player's language where we can say it."""
    reason = explain(error)
    if error.action_index is None or reason == error.message:
        # outside the actions, or no translation: the engine's sentence says it all
        return _("{file}: invalid record: {reason}").format(file=source, reason=reason)
    if "action" in error.params:
        return _("{file}: invalid record: action {index} ({action}): {reason}").format(
            file=source, index=error.action_index, action=error.params["action"], reason=reason
        )
    return _("{file}: invalid record: action {index}: {reason}").format(
        file=source, index=error.action_index, reason=reason
    )


def account(record: Record, final: State) -> list[str]:
    """A readable account of the game: every action in words, then the scores."""
    names = list(record.players)
    seats = ", ".join(
        _("{name} (seat {seat})").format(name=name, seat=seat) for seat, name in enumerate(names)
    )
    lines = [_("King's Breakfast, {count} players: {seats}").format(count=len(names), seats=seats)]
    if not record.rules.is_default:
        switches = record.rules.to_dict().items()
        variants = ", ".join(f"{key}={value}" for key, value in switches)
        lines.append(_("Variants: {variants}").format(variants=variants))
    state = record.start()
    lines.append(round_opening(state.view(None), names))
    # once the game is over the whole record may be shown, hidden draws included
    lines.extend(tell(state, record.actions, names, reveal=final.is_over))
    lines.append("")
    if final.is_over:
        lines.extend(score_lines(final.score(), final.king, names))
    else:
        to_move = final.to_move
        assert to_move is not None
        lines.append(
            _("The record stops in round {round}; {player} is to move.").format(
                round=final.round, player=names[to_move]
            )
        )
    return lines


def tell(
    state: State, actions: Iterable[Action], names: Sequence[str], reveal: bool
) -> Iterator[str]:
    """Play ``actions`` on ``state`` and tell each turn in words, as it happens.

    A turn's lines are indented, except the opening of the round a turn starts, so the
    rounds stand out. With ``reveal`` the mover's own view is told (the card a player
    drew); without it, only what everyone at the table saw.
    """
    for action in actions:
        mover = state.to_move
        before = state.view(mover if reveal else None)
        state.play(action)
        after = state.view(mover if reveal else None)
        turn_lines = narrate(before, action, after, names)
        opens_round = state.round != before.round and not state.is_over
        for number, line in enumerate(turn_lines):
            last = number == len(turn_lines) - 1
            yield line if last and opens_round else "  " + line


def examples(lang: LangOption = None) -> None:
    """List the example records that ship with the package (replay them by name)."""
    for name in example_names():
        print(name)


def demo(
    players: Annotated[int, typer.Option(help="Number of players, 3 to 5.")] = 4,
    bots: Annotated[
        str,
        typer.Option(
            help="The bots, in seat order, comma-separated; one name serves every seat "
            "(see 'kingsbreakfast bots')."
        ),
    ] = "random",
    seed: Annotated[
        int | None, typer.Option(help="Seed for the deck and the bots (default: random).")
    ] = None,
    save: Annotated[
        Path | None, typer.Option(help="Write the game's kingsbreakfast/1 record here.")
    ] = None,
    variant: VariantOption = None,
    lang: LangOption = None,
) -> None:
    """Watch bots play a whole game, told action by action, with the final scores."""
    try:
        rules = parse_variants(variant)
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        rng = random.Random(seed)
        state = State.new(players, rng, rules=rules)
        chosen = [part.strip() for part in bots.split(",") if part.strip()] or ["random"]
        if len(chosen) == 1:
            chosen = chosen * players
        if len(chosen) != players:
            raise fail(
                ngettext("--bots names {named} bot for {players} seats: name one per seat, "
                         "or one for all",
                         "--bots names {named} bots for {players} seats: name one per seat, "
                         "or one for all", len(chosen)).format(named=len(chosen),
                                                               players=players)
            )
        seated = [make_bot(name) for name in chosen]
    except KingsBreakfastError as error:
        raise fail(error) from None
    names = list(DEFAULT_NAMES[:players])
    from kingsbreakfast.tui.strings import bot_word

    print(
        _("King's Breakfast, {count} bots ({bots}), seed {seed}.").format(
            count=players, bots=", ".join(bot_word(name) for name in chosen), seed=seed
        )
    )
    print(round_opening(state.view(None), names))
    bot_rngs = [random.Random(rng.randrange(2**63)) for _ in seated]

    def moves() -> Iterator[Action]:
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            yield seated[seat].act(state.view(seat), bot_rngs[seat])

    for line in tell(state, moves(), names, reveal=True):
        print(line)
    print()
    print("\n".join(score_lines(state.score(), state.king, names)))
    if save is not None:
        save.write_text(Record.from_state(state, names).to_json(indent=1) + "\n")
        print(_("Record written to {path}").format(path=save))
