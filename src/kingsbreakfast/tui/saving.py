"""Saving a game as a ``kingsbreakfast/1`` record and reading one back to resume or replay.

A saved game holds the whole deck (the record format needs it to replay the game), so the
file is for the players' own machine, not for showing to an opponent mid-game.

Besides the saves a player asks for, every game is saved after each action into the user's
data folder (an *autosave*), so that no way of leaving — a key, Ctrl-C, a closed terminal,
the end of piped input — loses a game: ``kingsbreakfast play --resume`` lists those games.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from kingsbreakfast.engine import Record, RecordError, read_record
from kingsbreakfast.i18n.errors import explain
from kingsbreakfast.narrate import narrate

from . import strings
from .session import LANGUAGE_TAG, SEATS_TAG, Game, record_game_id, seats_from_tag

DATA_DIR_VAR = "KINGSBREAKFAST_DATA_DIR"
"""Overrides the data folder (tests, portable installs)."""


def default_save_path(now: _dt.datetime | None = None) -> Path:
    """``kingsbreakfast-YYYYMMDD-HHMMSS.json`` in the current folder."""
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    return Path(f"kingsbreakfast-{stamp}.json")


def write_record(game: Game, path: Path) -> None:
    """Write the game so far; the file is complete or untouched (written aside, then moved)."""
    text = game.record().to_json(indent=1) + "\n"
    aside = path.with_name(path.name + ".part")
    aside.write_text(text, encoding="utf-8")
    aside.replace(path)


def load_record(path: Path) -> Record:
    """Read and check a record file; :class:`RecordError` names what is wrong."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise RecordError(
            f"cannot read {path}: {error.strerror or error}", "unreadable_file"
        ) from None
    return read_record(data)


# --- autosaves ---------------------------------------------------------------------------


def data_dir() -> Path:
    """Where autosaves live: the platform's per-user data folder (platformdirs, a core
    dependency, so the folder is the same with or without the ``tui`` extra)."""
    override = os.environ.get(DATA_DIR_VAR)
    if override:
        return Path(override)
    return platformdirs.user_data_path("kingsbreakfast", appauthor=False)


def autosave_dir() -> Path:
    return data_dir() / "autosave"


def finished_dir() -> Path:
    """Where a finished game's autosave goes: out of the resume list, kept for replay
    (``kingsbreakfast replay FILE --step``)."""
    return autosave_dir() / "finished"


class Autosaver:
    """Keeps one game's file in the autosave folder up to date, quietly.

    A failure to write is remembered (``error``) rather than raised: the game must go on,
    and the front end tells the player once when it matters (when leaving). Once the game
    is over its file moves to :func:`finished_dir`, so the resume list holds only games
    that can go on.
    """

    def __init__(self, path: Path | None = None, now: _dt.datetime | None = None) -> None:
        if path is None:
            stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S-%f")
            path = autosave_dir() / f"game-{stamp}.json"
        self.path = path
        self.error: str | None = None
        self.written = False
        self.resumed = False
        """The game was resumed: its entry is kept even if left untouched (:meth:`discard`)."""
        self.lock: GameLock | None = None
        """The window's lock on this game (``play`` sets it), which a rematch takes along."""

    def next_game(self) -> Autosaver:
        """The autosave of a rematch in the same window; the window's lock moves to it, so
        another window cannot resume the new game while it is played here."""
        following = Autosaver()
        if self.lock is not None:
            self.lock.follow(following.path)
            following.lock, self.lock = self.lock, None
        return following

    def save(self, game: Game) -> bool:
        """Write the game so far; True when the file now holds it."""
        try:
            if game.is_over and self.path.parent != finished_dir():
                finished = finished_dir() / self.path.name
                finished.parent.mkdir(parents=True, exist_ok=True)
                write_record(game, finished)
                self.path.unlink(missing_ok=True)
                self.path = finished
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                write_record(game, self.path)
        except OSError as error:
            self.error = error.strerror or str(error)
            return False
        self.error = None
        self.written = True
        return True

    def worth_keeping(self, game: Game) -> bool:
        """Whether leaving ``game`` now leaves its entry: a resumed game always, a new one
        once a human has moved in it (:attr:`.session.Game.untouched`)."""
        return self.resumed or not game.untouched

    def discard(self) -> None:
        """Remove a new game's file: it was left before any human moved
        (:attr:`.session.Game.untouched`), so it would only add an entry to the list. A
        resumed game's entry is the player's choice and stays."""
        if self.resumed or self.path.parent == finished_dir():
            return
        try:
            self.path.unlink(missing_ok=True)
        except OSError as error:
            self.error = error.strerror or str(error)
            return
        self.written = False

    def farewell(self, saved: Path | None = None) -> str:
        """The last line on leaving an unfinished game: where it is, and how to resume.

        ``saved`` is the player's own save, when the game was saved there last.
        """
        if saved is not None:
            return strings.saved_to(str(saved))
        if self.written and self.error is None:
            return strings.autosaved_to(str(self.path))
        return strings.autosave_failed(str(self.path), self.error or "?")

    @classmethod
    def for_resumed(cls, source: Path, game_id: str | None = None) -> Autosaver:
        """The autosave a resumed game goes on in: its own file when it was resumed from
        the autosave folder, else the autosave of the same game (``game_id``) if there is
        one, so resuming a file of the player's own twice makes no second entry; the
        player's file itself is theirs and is not written to."""
        saver = cls(cls._resumed_path(source, game_id))
        saver.resumed = True
        return saver

    @staticmethod
    def _resumed_path(source: Path, game_id: str | None) -> Path | None:
        folder = autosave_dir()
        try:
            inside = source.resolve().parent == folder.resolve()
        except OSError:
            inside = False
        if inside:
            return source
        if game_id is not None:
            for saved in saved_games(folder):
                if saved.game_id == game_id:
                    return saved.path
        return None


@dataclass(frozen=True, slots=True)
class SavedGame:
    """An entry of the autosave folder, as offered by ``play --resume``: an unfinished
    game, or a file that cannot be read (``error`` says why; it is listed so that the
    player sees it and may delete it, never silently dropped)."""

    path: Path
    players: tuple[str, ...]
    round: int
    saved: str
    game_id: str | None = None
    language: str | None = None
    error: str | None = None
    moves: int = 0
    last: str = ""
    """The last move, as every player saw it (nothing hidden), to tell games apart."""
    bots: tuple[str | None, ...] = ()
    """Each seat's bot (None: a human), so that games of the same names differ by level."""


def saved_games(folder: Path | None = None) -> list[SavedGame]:
    """The unfinished games and unreadable files in the autosave folder, newest first;
    finished games are left out (they move to :func:`finished_dir`)."""
    folder = folder or autosave_dir()
    if not folder.is_dir():
        return []
    found: list[SavedGame] = []
    for path in folder.glob("*.json"):
        try:
            record = load_record(path)
            state = record.replay()
            seats = seats_from_tag(record.tags.get(SEATS_TAG), record.players)
        except (RecordError, ValueError) as error:
            reason = explain(error) if isinstance(error, RecordError) else str(error)
            found.append(SavedGame(path, (), 0, _modified(path), error=reason))
            continue
        if state.is_over:
            continue
        saved = record.tags.get("saved")
        language = record.tags.get(LANGUAGE_TAG)
        found.append(
            SavedGame(path, tuple(record.players), state.round,
                      saved if isinstance(saved, str) else _modified(path),
                      record_game_id(record), language if isinstance(language, str) else None,
                      moves=len(record.actions), last=_last_move(record),
                      bots=tuple(seat.bot for seat in seats))
        )
    found.sort(key=lambda game: (game.saved, game.path.name), reverse=True)
    return found


def _last_move(record: Record) -> str:
    """The record's last action told as a spectator hears it (no drawn card named)."""
    if not record.actions:
        return ""
    state = record.start()
    for action in record.actions[:-1]:
        state.apply(action)
    before = state.view(None)
    state.apply(record.actions[-1])
    lines = narrate(before, record.actions[-1], state.view(None), record.players)
    return lines[0] if lines else ""


def _modified(path: Path) -> str:
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return ""
    return _dt.datetime.fromtimestamp(stamp, _dt.UTC).isoformat(timespec="seconds")


def delete_saved(saved: SavedGame) -> None:
    """Remove an entry from the autosave folder (its file; OSError when that fails)."""
    saved.path.unlink(missing_ok=True)


# --- one window a game -------------------------------------------------------------------


class GameInUse(Exception):
    """The game is open in another window: resuming it here too would let the two windows
    overwrite each other's moves (the last save would win)."""

    def __init__(self, path: Path, pid: int) -> None:
        super().__init__(strings.game_in_use(str(path), pid))
        self.pid = pid


class GameLock:
    """``FILE.lock`` beside a game's autosave, holding the id of the process playing it.

    A lock whose process is gone (a crash, a killed terminal) is stale and taken over; one
    whose process runs refuses the second window.
    """

    def __init__(self, path: Path) -> None:
        self.game = path
        self.path = path.with_name(path.name + ".lock")
        self.held = False

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for _attempt in range(2):
            try:
                descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                owner = self._owner()
                if owner is not None and owner != os.getpid() and _running(owner):
                    raise GameInUse(self.game, owner) from None
                self.path.unlink(missing_ok=True)  # stale: its process is gone
                continue
            with os.fdopen(descriptor, "w") as handle:
                handle.write(f"{os.getpid()}\n")
            self.held = True
            return
        raise GameInUse(self.game, self._owner() or 0)

    def _owner(self) -> int | None:
        try:
            return int(self.path.read_text().strip())
        except (OSError, ValueError):
            return None

    def release(self) -> None:
        if self.held and self._owner() == os.getpid():
            self.path.unlink(missing_ok=True)
        self.held = False

    def follow(self, game: Path) -> None:
        """Hold ``game``'s lock instead (a rematch's new autosave, which no other window
        can know yet; were it taken all the same, this window would go on unlocked)."""
        self.release()
        self.game = game
        self.path = game.with_name(game.name + ".lock")
        with contextlib.suppress(GameInUse):
            self.acquire()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
