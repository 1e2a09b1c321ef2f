"""The first use of a compiled simulator says that it compiles; later uses say nothing."""

from __future__ import annotations

import time

import pytest

from kingsbreakfast.i18n import language
from kingsbreakfast.sim import warm


def test_a_slow_first_call_tells_the_user_once(capsys: pytest.CaptureFixture[str]) -> None:
    key = ("test", "slow")
    with warm.notice_first_compile(key, 12.4):
        time.sleep(warm.NOTICE_AFTER + 0.5)  # as long as a compile: the notice is due
    first = capsys.readouterr().err
    assert first.count("\n") == 1 and "compiling the simulator once (about 12 s" in first
    with warm.notice_first_compile(key, 12.4):
        time.sleep(warm.NOTICE_AFTER + 0.5)
    assert capsys.readouterr().err == ""


def test_a_quick_first_call_says_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    with warm.notice_first_compile(("test", "quick"), 5.0):
        pass  # a warm cache loads in well under NOTICE_AFTER
    time.sleep(warm.NOTICE_AFTER + 0.3)
    assert capsys.readouterr().err == ""


def test_the_notice_speaks_the_program_s_language(capsys: pytest.CaptureFixture[str]) -> None:
    with language("de"), warm.notice_first_compile(("test", "de"), 8.0):
        time.sleep(warm.NOTICE_AFTER + 0.5)
    assert "Der Simulator wird einmalig kompiliert (etwa 8 s" in capsys.readouterr().err
