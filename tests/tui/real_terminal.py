"""A real terminal for tests: ``kingsbreakfast`` inside a tmux pane of a given size.

What a player sees (the pane) and what they could scroll back to (the pane's history) are
read with ``tmux capture-pane``; keys are typed with ``send-keys``. Each terminal runs on a
tmux server of its own (``-L``), so a test that kills it touches nothing else. Waits poll the
pane for an expected text, with a generous deadline, never a fixed pause.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
DEADLINE = 60.0
"""Seconds a wait may take before the test fails (a slow, busy machine included)."""


def need_tmux() -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")


class Terminal:
    """One tmux pane running ``python -m kingsbreakfast ARGS``."""

    def __init__(
        self, args: Sequence[str], width: int = 80, height: int = 24,
        env: dict[str, str] | None = None, cwd: Path | None = None,
    ) -> None:
        need_tmux()
        self.socket = f"kbtest-{uuid.uuid4().hex[:12]}"
        environment = {**os.environ, **(env or {})}
        environment["PYTHONPATH"] = os.pathsep.join(
            [str(SRC), *filter(None, [environment.get("PYTHONPATH")])]
        )
        environment["TERM"] = "xterm-256color"
        environment.pop("TMUX", None)
        command = " ".join(
            shlex.quote(part) for part in [sys.executable, "-m", "kingsbreakfast", *args]
        )
        pid_file = Path(environment.get("TMPDIR", "/tmp")) / f"{self.socket}.pid"
        self.pid_file = pid_file
        # the pane's shell execs the game after writing its process id down
        script = f"echo $$ > {shlex.quote(str(pid_file))}; exec {command}"
        self._tmux(
            "new-session", "-d", "-s", "kb", "-x", str(width), "-y", str(height),
            "sh", "-c", script, env=environment, cwd=cwd,
        )
        self._tmux("set-option", "-t", "kb", "remain-on-exit", "on")

    def _tmux(self, *args: str, env: dict[str, str] | None = None,
              cwd: Path | None = None) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, env=env,
            cwd=cwd, check=False,
        )
        return done.stdout

    @property
    def pid(self) -> int:
        """The game's process id."""
        self.wait_until(lambda: self.pid_file.exists() and self.pid_file.read_text().strip())
        return int(self.pid_file.read_text())

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "kb")

    def history(self) -> list[str]:
        """The lines that scrolled off the top (what scrolling back would show)."""
        size = int(self._tmux("display-message", "-p", "-t", "kb", "#{history_size}") or 0)
        if not size:  # (capture-pane would show the screen's first line for an empty range)
            return []
        text = self._tmux("capture-pane", "-p", "-t", "kb", "-S", str(-size), "-E", "-1")
        return text.splitlines()

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "kb", *keys)

    def type_line(self, text: str) -> None:
        if text:
            self._tmux("send-keys", "-t", "kb", "-l", text)
        self.keys("Enter")

    def wait_for(self, text: str) -> str:
        """The screen once it shows ``text``."""
        shown = ""

        def found() -> bool:
            nonlocal shown
            shown = self.screen()
            return text in shown

        self.wait_until(found, f"{text!r} never showed; the screen:\n{shown}")
        return shown

    def wait_until(self, condition: Callable[[], object], why: str = "",
                   deadline: float = DEADLINE) -> None:
        end = time.monotonic() + deadline
        while not condition():
            if time.monotonic() > end:
                raise AssertionError(why or "the terminal never got there")
            time.sleep(0.05)

    def close(self) -> None:
        """Close the terminal window: the pane's processes are sent SIGHUP."""
        self._tmux("kill-server")
        self.pid_file.unlink(missing_ok=True)


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie waiting for its parent counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
