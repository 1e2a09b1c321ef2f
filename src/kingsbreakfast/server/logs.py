"""The server's own log: one line per event (tables resumed, created, started, expired,
handed over, game over, errors), at the level the operator asks for, as text or JSON.

Uvicorn configures only its own loggers, so ours printed nothing before. Lines name tables,
seats and versions, never a token, a deck or a hand: the messages are the server's own
constants with ids filled in, and nothing a client sent is logged.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, Final

LOGGER: Final = "kingsbreakfast"
LEVELS: Final = ("critical", "error", "warning", "info", "debug")
_STANDARD: Final = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


class JsonLines(logging.Formatter):
    """One JSON object a line: ``time``, ``level``, ``logger``, ``message`` and any extra
    fields the call gave (``table``, ``seat``…), so a log shipper needs no parsing rules."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                line[key] = value if isinstance(value, str | int | float | bool) else str(value)
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, separators=(",", ":"))


TEXT_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def formatter(as_json: bool) -> logging.Formatter:
    return JsonLines() if as_json else logging.Formatter(TEXT_FORMAT)


def check_level(level: str) -> str:
    if level.lower() not in LEVELS:
        raise ValueError(f"the log level is one of {', '.join(LEVELS)}")
    return level.lower()


def configure(level: str, as_json: bool) -> None:
    """Send the server's records to standard error at ``level``."""
    logger = logging.getLogger(LOGGER)
    for old in [h for h in logger.handlers if getattr(h, "_kingsbreakfast", False)]:
        logger.removeHandler(old)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter(as_json))
    handler._kingsbreakfast = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(check_level(level).upper())
    logger.propagate = False


def uvicorn_config(level: str, as_json: bool) -> dict[str, Any]:
    """Uvicorn's own loggers (errors, access lines) in the same shape as ours."""
    kind = "kingsbreakfast.server.logs.JsonLines" if as_json else "logging.Formatter"
    fmt: dict[str, Any] = {"()": kind} if as_json else {"format": TEXT_FORMAT}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"plain": fmt},
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "formatter": "plain",
                       "stream": "ext://sys.stderr"},
        },
        "loggers": {
            name: {"handlers": ["stderr"], "level": check_level(level).upper(),
                   "propagate": False}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
