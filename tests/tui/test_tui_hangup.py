"""A closed terminal ends the game: ``kingsbreakfast play`` in a real pseudo-terminal whose
master side is closed (the window closing) exits, with SIGHUP's status (129) and no
traceback, whether SIGHUP arrives or is ignored (nohup: then the terminal's EIO ends it).
No process is left behind; the game is in its autosave, a new game no human has moved in
is not kept."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from kingsbreakfast.engine import read_record
from kingsbreakfast.tui.saving import DATA_DIR_VAR, saved_games

SRC = Path(__file__).resolve().parents[2] / "src"
DEADLINE = 60.0
"""Seconds a wait may take before the test fails: a bound, never a measured threshold."""


class Window:
    """``python -m kingsbreakfast ARGS`` on the slave side of a new pty, which is its
    controlling terminal (a session of its own, as a terminal window's shell gives)."""

    def __init__(self, args: list[str], errors: Path, ignore_hangup: bool) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))

        def become_the_terminal_s_session() -> None:
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            if ignore_hangup:
                signal.signal(signal.SIGHUP, signal.SIG_IGN)

        env = {**os.environ, "TERM": "xterm-256color",
               "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
        full_screen = "--plain" not in args  # Textual draws on standard error
        with errors.open("w") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kingsbreakfast", *args], stdin=slave, stdout=slave,
                stderr=slave if full_screen else stderr, env=env,
                preexec_fn=become_the_terminal_s_session,
            )
        os.close(slave)
        self.shown = b""

    def wait_for(self, text: str, times: int = 1) -> None:
        end = time.monotonic() + DEADLINE
        while self.shown.count(text.encode()) < times:
            assert time.monotonic() < end, f"{text!r} never showed: {self.shown[-500:]!r}"
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                self.shown += os.read(self.master, 65536)

    def type_line(self, text: str) -> None:
        os.write(self.master, text.encode() + b"\r")

    def close(self) -> int | None:
        """Close the window; the game's exit status, None if it is still running after
        the deadline (then it is killed, and the test fails)."""
        os.close(self.master)
        try:
            return self.process.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None


GAMES = {
    "full screen, bots at zero pause": (
        ["play", "--speed", "0", "--hotseat", "0", "--bots", "random"], "Round"),
    "plain, bots at zero pause": (
        ["play", "--plain", "--speed", "0", "--hotseat", "0", "--bots", "random"], "Round"),
    "plain, the human to move": (
        ["play", "--plain", "--speed", "0", "--bots", "random"], "Your move"),
}


@pytest.mark.parametrize("ignore_hangup", [False, True], ids=["SIGHUP", "nohup"])
@pytest.mark.parametrize("game", list(GAMES))
def test_closing_the_terminal_ends_the_game(
    game: str, ignore_hangup: bool, tmp_path: Path
) -> None:
    if game.startswith("full"):
        pytest.importorskip("textual")
    args, shown = GAMES[game]
    errors = tmp_path / "stderr.txt"
    window = Window([*args, "--seed", "3"], errors, ignore_hangup)
    window.wait_for(shown)
    status = window.close()
    assert status is not None, "the game was left running after its terminal closed"
    assert "Traceback" not in errors.read_text(), errors.read_text()
    assert status == 128 + signal.SIGHUP


def test_a_closed_terminal_keeps_the_game_as_it_stood(tmp_path: Path) -> None:
    errors = tmp_path / "stderr.txt"
    args = ["play", "--plain", "--speed", "0", "--bots", "random", "--seed", "4"]
    window = Window(args, errors, ignore_hangup=False)
    window.wait_for("Your move")
    assert window.close() == 129
    assert saved_games() == []  # a new game no human had moved in: not kept
    window = Window(args, errors, ignore_hangup=False)
    window.wait_for("Your move")
    window.type_line("d")
    window.wait_for("Your move", times=2)
    assert window.close() == 129
    (saved,) = saved_games()
    record = read_record(saved.path.read_text())
    assert any(str(action) == "draw" for action in record.actions)
    assert os.environ[DATA_DIR_VAR] in str(saved.path)


FORGET = (
    "import sys\n"
    "from kingsbreakfast.tui.plain import forget_the_terminal\n"
    "sys.stdout.write('the board, still in the buffer')\n"
    "{forget}\n"
    "sys.exit(129)\n"
)


@pytest.mark.parametrize("stderr_open", [True, False], ids=["stderr open", "stderr closed"])
@pytest.mark.parametrize("forget", [True, False], ids=["forgotten", "not forgotten"])
def test_output_left_for_a_closed_terminal_does_not_change_the_status(
    forget: bool, stderr_open: bool
) -> None:
    """Python flushes its buffered output at exit and, when that fails, exits 120 instead
    of the status asked for (as a closed terminal's EIO did on Debian's Python). A pipe
    nobody reads fails the same way: after ``forget_the_terminal`` the status is 129,
    standard error open or already closed; without it, 120 (so the check can fail)."""
    code = FORGET.format(forget="forget_the_terminal()" if forget else "pass")
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads: the flush at exit fails (EPIPE)
    shell = 'exec "$0" -c "$1"' + ("" if stderr_open else " 2>&-")
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    try:
        done = subprocess.run(
            ["bash", "-c", shell, sys.executable, code], stdout=write_end,
            stderr=subprocess.DEVNULL, env={**buffered, "PYTHONPATH": str(SRC)},
            timeout=DEADLINE, check=False,
        )
    finally:
        os.close(write_end)
    assert done.returncode == (129 if forget else 120)
