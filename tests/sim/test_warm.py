"""The first use of a compiled simulator says that it compiles; later uses say nothing.

No test sleeps for the notice's delay: each waits for the notice itself (an event set when
it is said, with a deadline), or joins the notice's timer to know that it can no longer
speak."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from kingsbreakfast.i18n import language
from kingsbreakfast.sim import warm

DEADLINE = 30.0
"""Seconds a test waits at most for the notice (a loaded machine may be slow to run it)."""


@dataclass
class Notices:
    said: threading.Event = field(default_factory=threading.Event)
    timers: list[threading.Timer] = field(default_factory=list)

    def settle(self) -> None:
        """Wait until every notice timer has run or been cancelled."""
        for timer in self.timers:
            timer.join(DEADLINE)
            assert not timer.is_alive()


@pytest.fixture
def notices(monkeypatch: pytest.MonkeyPatch) -> Iterator[Notices]:
    """The real notice and the real timers, watched: ``said`` is set once a notice is out,
    and every timer started is kept so that a test can wait for it."""
    seen = Notices()
    real_say = warm._say

    def say(notice: str) -> None:
        real_say(notice)
        seen.said.set()

    class Timer(threading.Timer):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            seen.timers.append(self)

    monkeypatch.setattr(warm, "_say", say)
    monkeypatch.setattr(warm.threading, "Timer", Timer)
    yield seen
    seen.settle()


def test_a_slow_first_call_tells_the_user_once(
    capsys: pytest.CaptureFixture[str], notices: Notices
) -> None:
    key = ("test", "slow")
    with warm.notice_first_compile(key, 12.4):
        assert notices.said.wait(DEADLINE)  # the call lasts as long as a compile would
    first = capsys.readouterr().err
    assert first.count("\n") == 1 and "compiling the simulator once (about 12 s" in first
    with warm.notice_first_compile(key, 12.4):
        assert len(notices.timers) == 1  # no timer for a second call: nothing can be said
    notices.settle()
    assert capsys.readouterr().err == ""


def test_a_quick_first_call_says_nothing(
    capsys: pytest.CaptureFixture[str], notices: Notices
) -> None:
    with warm.notice_first_compile(("test", "quick"), 5.0):
        pass  # a warm cache loads in well under NOTICE_AFTER
    assert len(notices.timers) == 1
    notices.settle()  # the timer is over: cancelled before it spoke
    assert not notices.said.is_set()
    assert capsys.readouterr().err == ""


def test_the_notice_speaks_the_program_s_language(
    capsys: pytest.CaptureFixture[str], notices: Notices
) -> None:
    with language("de"), warm.notice_first_compile(("test", "de"), 8.0):
        assert notices.said.wait(DEADLINE)
    assert "Der Simulator wird einmalig kompiliert (etwa 8 s" in capsys.readouterr().err
