"""The commands a message tells the player to type, written as they work in this installation.

A line such as "resume it with: kingsbreakfast play --resume" is only useful if it runs
as printed. In a virtual environment that is not active, ``kingsbreakfast`` is not on the
PATH and ``pip`` is not this environment's, and while the package is installed from a clone
rather than from PyPI, ``pip install 'kingsbreakfast[tui]'`` finds nothing. So the program
is named the way it was started, and an extra is added the way the package was installed
(the clone's folder, recorded by pip in ``direct_url.json``, PEP 610).
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

DISTRIBUTION = "kingsbreakfast"
"""The package's name on PyPI and in ``pip install``."""


def program() -> str:
    """How to start this program again: ``kingsbreakfast`` when the PATH finds this very
    launcher, else the launcher's path as it was started (``.venv/bin/kingsbreakfast``), or
    ``python -m kingsbreakfast`` with this interpreter."""
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.name == DISTRIBUTION:
        found = shutil.which(DISTRIBUTION)
        if found is not None and _same_file(Path(found), started):
            return DISTRIBUTION
        return shlex.quote(str(started))
    if started is not None and started.name == "__main__.py" and started.parent.name == (
        DISTRIBUTION
    ):
        return f"{shlex.quote(_python())} -m {DISTRIBUTION}"
    return DISTRIBUTION  # imported by another program (tests, a notebook): the plain name


def install_command(extra: str) -> str:
    """The pip command that adds ``extra`` to this installation."""
    target = f"{DISTRIBUTION}[{extra}]"
    editable = False
    source = _installed_from()
    if source is not None:
        path, editable = source
        target = f"{path}[{extra}]"
    pip = "pip" if _pip_on_path_is_ours() else f"{shlex.quote(_python())} -m pip"
    return f"{pip} install {'-e ' if editable else ''}{shlex.quote(target)}"


def _installed_from() -> tuple[str, bool] | None:
    """The clone folder or wheel file pip installed this package from, when it still exists,
    and whether it was an editable install."""
    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    if not text:
        return None  # installed from an index: the name is the way
    try:
        record = json.loads(text)
        url = urlparse(record["url"])
    except (ValueError, KeyError, TypeError):
        return None
    if url.scheme != "file":
        return None
    path = Path(unquote(url.path))
    if not path.exists():
        return None
    editable = bool(record.get("dir_info", {}).get("editable", False))
    return _readable_path(path), editable


def _readable_path(path: Path) -> str:
    """``.`` for the current folder, a relative path below it, else the absolute one."""
    try:
        relative = path.resolve().relative_to(Path.cwd().resolve())
    except (ValueError, OSError):
        return str(path)
    text = str(relative)
    return "." if text == "." else f"./{text}"


def _python() -> str:
    """This interpreter as the player can type it: relative to the current folder when
    inside it (``.venv/bin/python``)."""
    executable = Path(sys.executable)
    try:
        return str(executable.relative_to(Path.cwd()))
    except ValueError:
        return str(executable)


def _pip_on_path_is_ours() -> bool:
    """Whether plain ``pip`` installs into this environment (an active virtual env)."""
    found = shutil.which("pip")
    if found is None:
        return False
    return _same_file(Path(found).parent, Path(sys.executable).parent)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False
