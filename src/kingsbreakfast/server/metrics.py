"""What an operator can watch from outside: Prometheus metrics at ``/metrics``.

Counters and the commit histogram are process-wide (one server process is one scrape
target); the two gauges read the live master when scraped, so they are never out of date.
Nothing here names a player, a token or a card: only counts, codes and durations.
"""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

__all__ = ["CONTENT_TYPE_LATEST", "committed", "exposition", "moved", "refused", "watch"]

REGISTRY = CollectorRegistry(auto_describe=True)
"""Our own registry (the default one is shared with whatever else runs in the process);
the process, platform and garbage-collector figures are added to it."""
for _collector in (ProcessCollector, PlatformCollector, GCCollector):
    _collector(registry=REGISTRY)

_MOVES = Counter(
    "kingsbreakfast_moves", "Actions committed, by players and bots", registry=REGISTRY
)
_REFUSALS = Counter(
    "kingsbreakfast_refusals", "Refused client frames and requests, by code", ["code"],
    registry=REGISTRY,
)
_COMMIT = Histogram(
    "kingsbreakfast_commit_seconds", "Time from a move's commit starting to its end",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)
_TABLES = Gauge("kingsbreakfast_tables", "Tables held in memory by this process",
                registry=REGISTRY)
_SOCKETS = Gauge("kingsbreakfast_sockets", "Open play sockets", registry=REGISTRY)


def moved() -> None:
    _MOVES.inc()


def refused(code: str) -> None:
    # codes are the server's own constants, never the client's text: the label set stays
    # small whatever a client sends
    _REFUSALS.labels(code=code[:40]).inc()


def committed(started: float) -> None:
    """A move's commit ended (stored or refused); ``started`` is its ``perf_counter()``.
    A plain call rather than a context manager: this runs for every move."""
    _COMMIT.observe(perf_counter() - started)


def watch(tables: Callable[[], int], sockets: Callable[[], int]) -> None:
    """Read the gauges from the live server at every scrape."""
    _TABLES.set_function(lambda: float(tables()))
    _SOCKETS.set_function(lambda: float(sockets()))


def exposition() -> bytes:
    return generate_latest(REGISTRY)
