"""Suite-wide rules: what a skip means, and the hypothesis profiles.

A test skips only when something it needs is absent: an optional extra (numba, Textual,
Playwright, …), a service (PostgreSQL, chromium) or a tool. On a developer's machine that is a
convenience, and the summary says what was skipped and why. In CI (the ``CI`` environment
variable set) it would hide a broken install behind a green run, so every such skip is turned
into a failure whose message names what is missing. This is done here, once, rather than in
each file that asks for an extra.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Generator, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

IN_CI = bool(os.environ.get("CI"))

# `--hypothesis-profile=mutation` (set by the mutation run, see docs/testing.md): every budget
# written with tests/budget.py shrinks to a twentieth, and the draws are the same on every run
# so that a mutant caught once is caught again.
settings.register_profile(
    "mutation",
    max_examples=5,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

_skip_reasons: Counter[str] = Counter()


def _reason(longrepr: Any) -> str:
    """The text given to ``pytest.skip`` / ``importorskip``, without pytest's prefix."""
    text = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else longrepr
    return str(text).removeprefix("Skipped: ")


def _fail_instead_of_skipping(report: pytest.TestReport | pytest.CollectReport) -> None:
    reason = _reason(report.longrepr)
    report.outcome = "failed"
    report.longrepr = (
        f"CI is set, so a missing dependency fails instead of skipping. Missing: {reason}\n"
        "(install every extra with `pip install -e '.[all,test]'` and start the services "
        "with scripts/ci-services.sh, or run bash scripts/test.sh)"
    )


@pytest.fixture(autouse=True)
def _language_restored() -> Iterator[None]:
    """The language a test leaves behind (a command run in-process with ``--lang vi``) is
    put back after it, so no later test — in any module the worker runs next — reads
    another language than it asks for."""
    from kingsbreakfast.i18n import current_language, set_language

    before = current_language()
    yield
    set_language(before)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist's ``--dist loadgroup``, each module is one group, run whole by one
    worker: its module-scoped fixtures (a live server, a cluster behind HAProxy, a chromium)
    start once, and its tests never race each other for them. scripts/test.sh asks for
    ``--dist loadfile``, which does the same from the file alone: under pytest 9 xdist 3.8's
    loadgroup no longer sees these marks (docs/testing.md, *Two workers*)."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


def pytest_configure(config: pytest.Config) -> None:
    if IN_CI:
        # A module whose import needs a missing extra is reported as failed at collection;
        # the rest of the suite still runs, so one run names everything that is missing.
        config.option.continue_on_collection_errors = True


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    report: pytest.CollectReport = outcome.get_result()
    if report.skipped and IN_CI:
        _fail_instead_of_skipping(report)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail") and IN_CI:
        _fail_instead_of_skipping(report)


# Skips are counted where reports are logged, which under pytest-xdist is the controlling
# process too (its workers hand their reports over), so the summary names every skip.
def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.skipped:
        _skip_reasons[_reason(report.longrepr)] += 1


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and not hasattr(report, "wasxfail"):
        _skip_reasons[_reason(report.longrepr)] += 1


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line per reason, so a local run says which areas it did not test."""
    if not _skip_reasons:
        return
    terminalreporter.section("skipped, and why (these fail when CI is set)")
    for reason, count in sorted(_skip_reasons.items()):
        terminalreporter.line(f"{count:4d} × {reason}")
