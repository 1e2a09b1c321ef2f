"""The commands a message tells the player to type are the ones that work where they are."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from kingsbreakfast.i18n import commands


@pytest.fixture
def launcher(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ``.venv/bin/kingsbreakfast`` in the current folder, as scripts/play.sh starts it."""
    bin_folder = tmp_path / ".venv" / "bin"
    bin_folder.mkdir(parents=True)
    path = bin_folder / "kingsbreakfast"
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    return path


def test_a_launcher_off_the_path_is_named_as_it_was_started(
    launcher: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", [".venv/bin/kingsbreakfast", "play"])
    assert commands.program() == ".venv/bin/kingsbreakfast"
    monkeypatch.setattr(sys, "argv", [str(launcher), "play"])
    assert commands.program() == str(launcher)


def test_a_launcher_the_path_finds_is_named_plainly(
    launcher: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", f"{launcher.parent}:/usr/bin:/bin")  # an active venv
    monkeypatch.setattr(sys, "argv", [".venv/bin/kingsbreakfast", "play"])
    assert commands.program() == "kingsbreakfast"


def test_python_dash_m_and_other_programs(monkeypatch: pytest.MonkeyPatch) -> None:
    main = Path(commands.__file__).parents[1] / "__main__.py"
    monkeypatch.setattr(sys, "argv", [str(main)])
    assert commands.program().endswith(" -m kingsbreakfast")
    monkeypatch.setattr(sys, "argv", ["/usr/bin/pytest"])
    assert commands.program() == "kingsbreakfast"


class _Distribution:
    def __init__(self, direct_url: dict[str, object] | None) -> None:
        self.direct_url = direct_url

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        return None if self.direct_url is None else json.dumps(self.direct_url)


def _installed(monkeypatch: pytest.MonkeyPatch, direct_url: dict[str, object] | None) -> None:
    monkeypatch.setattr(commands.metadata, "distribution", lambda name: _Distribution(direct_url))


def test_an_extra_is_added_the_way_the_package_was_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clone = tmp_path / "kingsbreakfast"
    clone.mkdir()
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # no pip of this environment on the PATH
    monkeypatch.chdir(clone)
    _installed(monkeypatch, {"url": clone.as_uri(), "dir_info": {}})
    assert commands.install_command("tui") == f"{commands._python()} -m pip install '.[tui]'"
    _installed(monkeypatch, {"url": clone.as_uri(), "dir_info": {"editable": True}})
    assert commands.install_command("sim").endswith(" -m pip install -e '.[sim]'")
    monkeypatch.chdir(tmp_path)
    _installed(monkeypatch, {"url": clone.as_uri(), "dir_info": {}})
    assert commands.install_command("sim").endswith(" install './kingsbreakfast[sim]'")
    # from an index (no direct_url.json), or from a folder that is gone: the PyPI name
    _installed(monkeypatch, None)
    python = commands._python()  # relative to the current folder when inside it
    assert commands.install_command("sim") == f"{python} -m pip install 'kingsbreakfast[sim]'"
    _installed(monkeypatch, {"url": (tmp_path / "gone").as_uri(), "dir_info": {}})
    assert commands.install_command("sim").endswith(" install 'kingsbreakfast[sim]'")


def test_plain_pip_when_it_is_this_environments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:/usr/bin:/bin")
    _installed(monkeypatch, None)
    if not (Path(sys.executable).parent / "pip").exists():
        pytest.skip("this environment has no pip launcher")
    assert commands.install_command("server") == "pip install 'kingsbreakfast[server]'"
