"""A mistake on the command line, told in one line of the player's language with the fix.

The parser underneath (typer's copy of click) reports a bad option in a box of five or six
English lines. :func:`usage_error_line` reads the parser's exception instead — which option,
which kind of value, which command — and says the same in one translated sentence that
names what to type; the caller exits with status 2 (bad input), as the parser would.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import get_close_matches
from typing import Any

from kingsbreakfast.i18n import _


def usage_error_line(error: BaseException, argv: Sequence[str] = ()) -> str | None:
    """The sentence for a parser error, or None when ``error`` is not one."""
    names = {cls.__name__ for cls in type(error).__mro__}
    if "UsageError" not in names:
        return None
    ctx: Any = getattr(error, "ctx", None)
    path = ctx.command_path if ctx is not None else "kingsbreakfast"
    see = _("see: {command} --help").format(command=path)
    if "NoArgsIsHelpError" in names:
        return str(getattr(error, "message", ""))  # the help itself, already translated
    if "NoSuchOption" in names:
        option = getattr(error, "option_name", "?")
        close = sorted(getattr(error, "possibilities", None) or [])
        if close:
            return _("error: {command} has no option {option}; did you mean {close}? "
                     "({see})").format(command=path, option=option, close=", ".join(close),
                                       see=see)
        return _("error: {command} has no option {option} ({see})").format(
            command=path, option=option, see=see)
    if "MissingParameter" in names:
        param = getattr(error, "param", None)
        what = _param_name(param)
        return _("error: {command} needs {what} ({see})").format(
            command=path, what=what, see=see)
    if "BadParameter" in names:
        param = getattr(error, "param", None)
        option = _param_name(param)
        value = _value_given(param, argv)
        kind = _kind(param, str(getattr(error, "message", "")))
        if kind is not None:
            return _("error: {option} takes {kind}, not {value!r} ({see})").format(
                option=option, kind=kind, value=value, see=see)
        return _("error: {option}: {value!r} is not accepted ({see})").format(
            option=option, value=value, see=see)
    message = str(getattr(error, "message", error))
    if "BadOptionUsage" in names and message.endswith("requires an argument."):
        option = getattr(error, "option_name", "?")
        return _("error: {option} needs a value after it ({see})").format(
            option=option, see=see)
    if message.startswith("No such command"):
        typed = _command_typed(ctx, argv)
        commands = sorted(getattr(getattr(ctx, "command", None), "commands", {}) or {})
        close = get_close_matches(typed, commands) if typed else []
        if close:
            return _("error: there is no command {typed!r}; did you mean {close}? "
                     "({see})").format(typed=typed, close=", ".join(close), see=see)
        return _("error: there is no command {typed!r} ({see})").format(typed=typed, see=see)
    return _("error: {reason} ({see})").format(reason=message, see=see)


def _param_name(param: Any) -> str:
    if param is None:
        return "?"
    opts = getattr(param, "opts", None) or []
    if getattr(param, "param_type_name", "") == "argument" or not opts:
        return str(getattr(param, "human_readable_name", None) or param.name or "?").upper()
    return str(max(opts, key=len))


def _value_given(param: Any, argv: Sequence[str]) -> str:
    """What the player typed for ``param``: the word after its option, or ``--opt=value``."""
    opts = set(getattr(param, "opts", None) or [])
    for index, arg in enumerate(argv):
        if arg in opts and index + 1 < len(argv):
            return argv[index + 1]
        name, equals, value = arg.partition("=")
        if equals and name in opts:
            return value
    return "?"


def _kind(param: Any, message: str) -> str | None:
    """The kind of value a parameter takes, in words, when we can tell (from its type, or
    from the parser's English message for an optional number)."""
    if "valid integer" in message:
        return _("a whole number, such as 3")
    if "valid number" in message:
        return _("a number, such as 0.5")
    kind = getattr(getattr(param, "type", None), "name", "")
    annotation = getattr(param, "type_descriptor", None)
    python = getattr(annotation, "python_type", None) if annotation is not None else None
    if kind in ("integer", "int") or python is int:
        return _("a whole number, such as 3")
    if kind in ("float",) or python is float:
        return _("a number, such as 0.5")
    if kind in ("boolean", "bool") or python is bool:
        return _("yes or no (true, false)")
    return _kind_from_default(param)


def _kind_from_default(param: Any) -> str | None:
    default = getattr(param, "default", None)
    if isinstance(default, bool):
        return _("yes or no (true, false)")
    if isinstance(default, int):
        return _("a whole number, such as 3")
    if isinstance(default, float):
        return _("a number, such as 0.5")
    return None


def _command_typed(ctx: Any, argv: Sequence[str]) -> str:
    """The word the player gave as a command (the first one that is not an option)."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg == "--lang":
            skip = True
            continue
        if not arg.startswith("-"):
            return arg
    return ""
