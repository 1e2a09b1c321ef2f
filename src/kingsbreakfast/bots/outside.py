"""Players from outside the project: a Python class named by module, or any program that
speaks JSON lines over its standard input and output.

``module:Class`` (``my_agents.counting:Counter``) imports the module and calls ``Class()``;
the object must follow the :class:`~kingsbreakfast.bots.base.Bot` protocol (a ``name`` and
``act(view, rng)``). ``cmd:PROGRAM ARGS`` starts the program (split like a shell line, no
shell involved) and speaks the protocol of ``docs/research.md`` (*Outside agents*) with it:
one request per move, ``{"protocol": "kingsbreakfast-agent/1", "id": k, "seat": s, "legal":
[ids], "legal_text": [...], "seed": n, "view": {...}}``, one answer line ``{"id": k,
"action": ID or TEXT}``. Each seat of a line-up has a program of its own, even when two
entries name the same command: one process never hears two seats' hidden cards (it could
pool them). A seat's program is started once per process and kept for its every game; a
program that died is started again at the next move.

An outside player never stops a tournament. A move that is not legal, an answer that is not
JSON or names no action, an exception, or no answer within ``timeout`` seconds forfeits the
move: the legal action with the lowest id is played in its place (the fallback), and the
forfeit is counted in ``forfeits`` with its reason in ``forfeit_reasons``, so reports can say
how often it happened. An answer arriving after its time carries an old ``id`` and is
skipped.
"""

from __future__ import annotations

import atexit
import importlib
import json
import queue
import random
import shlex
import subprocess
import threading
import time
from typing import IO, Any

from kingsbreakfast.engine import Action, KingsBreakfastError, View

from .base import Bot
from .registry import find_bot

PROTOCOL = "kingsbreakfast-agent/1"
DEFAULT_TIMEOUT = 5.0
"""Seconds an outside program has for one move."""


class OutsideBot:
    """What both kinds of outside player share: the fallback and the forfeit count."""

    description = "A player from outside the project (a Python class or a program)."

    def __init__(self, name: str) -> None:
        self.name = name
        self.forfeits = 0
        self.forfeit_reasons: list[str] = []

    def act(self, view: View, rng: random.Random) -> Action:
        raise NotImplementedError

    def _forfeit(self, view: View, reason: str) -> Action:
        """The documented fallback: the legal action with the lowest id."""
        self.forfeits += 1
        self.forfeit_reasons.append(reason)
        return min(view.legal_actions())

    def _checked(self, view: View, answer: object) -> Action:
        """``answer`` as a legal action of ``view``, or the fallback with the reason why not."""
        try:
            if isinstance(answer, Action):
                action = answer
            elif isinstance(answer, str):
                action = Action.parse(answer)
            elif isinstance(answer, int) and not isinstance(answer, bool):
                action = Action(answer)
            else:
                return self._forfeit(view, f"the answer {answer!r} is not an action")
        except (KingsBreakfastError, ValueError) as error:
            return self._forfeit(view, f"the answer {answer!r} is not an action: {error}")
        reason = view.why_illegal(action)
        if reason is not None:
            return self._forfeit(view, f"{action} is not legal: {reason}")
        return action


class ClassBot(OutsideBot):
    """A ``module:Class`` player, held to the same rules as an outside program."""

    def __init__(self, target: str, inner: Bot) -> None:
        super().__init__(target)
        self.inner = inner

    def act(self, view: View, rng: random.Random) -> Action:
        try:
            answer = self.inner.act(view, rng)
        except Exception as error:  # an outside player's bug must not stop the tournament
            return self._forfeit(view, f"act raised {type(error).__name__}: {error}")
        return self._checked(view, answer)


class ProgramBot(OutsideBot):
    """A ``cmd:PROGRAM`` player speaking the JSON-lines protocol."""

    def __init__(
        self, command: str, timeout: float = DEFAULT_TIMEOUT, entry: int = 0
    ) -> None:
        super().__init__(f"cmd:{command}")
        if not timeout > 0:
            raise ValueError(f"timeout must be more than 0 seconds, not {timeout}")
        self.command = command
        self.timeout = timeout
        self.entry = entry
        """Which line-up entry this is: each entry has its own program."""

    @property
    def pid(self) -> int | None:
        """The process id of this entry's program, once started."""
        program = _RUNNING.get((self.command, self.entry))
        return None if program is None else program.process.pid

    def act(self, view: View, rng: random.Random) -> Action:
        program = _program(self.command, self.entry)
        request_id = program.next_id()
        # keys in this order on purpose: a program without a JSON parser (a shell script)
        # finds the id and the legal ids at fixed places at the start of the line
        request = {
            "protocol": PROTOCOL,
            "id": request_id,
            "seat": view.seat,
            "legal": [int(a) for a in view.legal_actions()],
            "legal_text": [str(a) for a in view.legal_actions()],
            "seed": rng.getrandbits(32),
            "view": view.to_dict(),
        }
        try:
            line = program.ask(json.dumps(request), request_id, self.timeout)
        except _NoAnswer as error:
            return self._forfeit(view, str(error))
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            return self._forfeit(view, f"the answer {line[:80]!r} is not JSON")
        if not isinstance(answer, dict) or "action" not in answer:
            return self._forfeit(view, f"the answer {line[:80]!r} has no \"action\"")
        return self._checked(view, answer["action"])


class _NoAnswer(Exception):
    """The program did not answer in time, or is not running."""


class _Program:
    """One running outside program: requests written to its standard input, answers read by
    a thread so that waiting for one can time out."""

    def __init__(self, command: str) -> None:
        self.command = command
        self._ids = 0
        try:
            self.process = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                text=True, bufsize=1,
            )
        except OSError as error:
            raise ValueError(f"cannot start the outside program {command!r}: {error}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)  # the program closed its output

    def next_id(self) -> int:
        self._ids += 1
        return self._ids

    def alive(self) -> bool:
        return self.process.poll() is None

    def ask(self, request: str, request_id: int, timeout: float) -> str:
        """Send one request and wait at most ``timeout`` seconds for the answer carrying
        ``request_id`` (answers to earlier, timed-out requests are skipped)."""
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(request + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError):
            raise _NoAnswer(f"the program {self.command!r} is not running") from None
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _NoAnswer(f"no answer within {timeout:g} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                raise _NoAnswer(f"no answer within {timeout:g} s") from None
            if line is None:
                raise _NoAnswer(f"the program {self.command!r} stopped")
            if not line.strip():
                continue
            if _answer_id(line) in (request_id, None):
                return line

    def stop(self) -> None:
        if self.alive():
            if self.process.stdin is not None:
                self.process.stdin.close()
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _answer_id(line: str) -> int | None:
    """The ``id`` an answer line names; None when it names none (then it is taken as the
    answer to the request waiting, and checked as such)."""
    try:
        answer: Any = json.loads(line)
    except json.JSONDecodeError:
        return None
    if isinstance(answer, dict) and isinstance(answer.get("id"), int):
        return int(answer["id"])
    return None


_RUNNING: dict[tuple[str, int], _Program] = {}


def _program(command: str, entry: int) -> _Program:
    """The running program of line-up entry ``entry``, started (again) when needed."""
    program = _RUNNING.get((command, entry))
    if program is None or not program.alive():
        program = _RUNNING[command, entry] = _Program(command)
    return program


@atexit.register
def stop_programs() -> None:
    """Close every outside program this process started (their input ends; they exit)."""
    for program in _RUNNING.values():
        program.stop()
    _RUNNING.clear()


def is_outside(text: str) -> bool:
    """Whether a line-up entry names an outside player (``cmd:...`` or ``module:Class``);
    a bot of the registry with options (``expert:simulations=60``) is not one."""
    head, sep, rest = text.partition(":")
    if head.strip() == "cmd":
        return True
    if not sep or "=" in rest or not rest.strip().isidentifier():
        return False
    try:
        find_bot(head.strip())
    except KingsBreakfastError:
        return True
    return False


def outside_bot(text: str, timeout: float = DEFAULT_TIMEOUT, entry: int = 0) -> OutsideBot:
    """The outside player ``text`` names (``entry``: its place in the line-up, which gives
    a program its own process); a clear ``ValueError`` when it cannot be made."""
    head, _, rest = text.partition(":")
    if head.strip() == "cmd":
        command = rest.strip()
        if not command:
            raise ValueError("cmd: needs a program to run, as in cmd:./my_agent.sh")
        return ProgramBot(command, timeout, entry)
    module_name, class_name = head.strip(), rest.strip()
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import {module_name!r} for the bot {text!r}: {error}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise ValueError(f"module {module_name!r} has no {class_name!r} (bot {text!r})")
    try:
        inner = cls()
    except Exception as error:
        raise ValueError(f"{text} could not be made: {type(error).__name__}: {error}") from None
    if not isinstance(inner, Bot):
        raise ValueError(f"{text} is not a bot: it needs a name and act(view, rng)")
    return ClassBot(text.strip(), inner)
