"""A core install (the wheel without extras) runs every command or says which extra it needs.

The wheel built for the release (tests/dist.py) goes into a new virtual environment with its
core dependencies only (typer, rich, platformdirs), and each command runs there as a
newcomer would run it: a command that needs an extra ends with status 2 and one translated
line naming the extra and the pip command that adds it, never a traceback; the others work.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from functools import cache
from pathlib import Path

import pytest

from dist import wheel

EXTRAS_MODULES = ("numpy", "numba", "textual", "openskill", "matplotlib", "fastapi", "uvicorn",
                  "websockets", "torch", "ray")


def _clean_env() -> dict[str, str]:
    """This process's environment without what would let the test's own sources or
    environment leak into the new one (PYTHONPATH, an active virtual environment)."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}


@cache
def _core(folder: Path) -> Path:
    """The environment's bin folder: python, pip and the kingsbreakfast launcher."""
    venv.create(folder, with_pip=True, clear=True)
    python = folder / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         str(wheel())], capture_output=True, text=True, check=False, env=_clean_env(),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return folder / "bin"


@pytest.fixture(scope="module")
def core(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _core(tmp_path_factory.mktemp("core") / "venv")


def run(
    core: Path, tmp_path: Path, *args: str, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    env = _clean_env() | {
        "KINGSBREAKFAST_DATA_DIR": str(tmp_path / "data"), "KINGSBREAKFAST_LANG": "en",
        "PATH": "/usr/bin:/bin", "COLUMNS": "200", "TERM": "dumb",
    }
    return subprocess.run([str(core / "kingsbreakfast"), *args], cwd=tmp_path, env=env,
                          input=stdin, capture_output=True, text=True, timeout=300, check=False)


def test_the_core_install_has_no_extra(core: Path) -> None:
    probe = "import importlib.util as u; print([m for m in %r if u.find_spec(m)])"
    done = subprocess.run([str(core / "python"), "-c", probe % (EXTRAS_MODULES,)],
                          capture_output=True, text=True, check=True, env=_clean_env())
    assert done.stdout.strip() == "[]"
    assert "platformdirs" not in EXTRAS_MODULES


NEEDS = [
    (["hint", "unfinished-4p"], "tui", "numpy"),
    (["tournament", "--games", "4"], "sim", "openskill"),
    (["tournament", "--games", "4", "--backend", "ray"], "sim", "openskill"),
    (["leaderboard"], "sim", "openskill"),
    (["analyze", "--games", "2", "--plots", "plots"], "sim", "matplotlib"),
    (["serve", "--port", "9"], "server", "uvicorn"),
    (["agent", "http://127.0.0.1:9/t/TABLE", "cmd:true"], "server", "websockets"),
    (["train", "--games", "1"], "train", "torch, numba, matplotlib"),
    (["train", "--games", "1", "--backend", "numpy"], "train", "numba, matplotlib"),
    (["batch", "--games", "10"], "batch", "numpy, numba"),
    (["average-weights", "out.npz", "a.npz"], "batch", "numpy"),
]


@pytest.mark.parametrize(("args", "extra", "packages"), NEEDS, ids=[n[0][0] for n in NEEDS])
def test_a_command_that_needs_an_extra_says_which_in_one_line(
    core: Path, tmp_path: Path, args: list[str], extra: str, packages: str
) -> None:
    done = run(core, tmp_path, *args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: this needs {packages}, from the '{extra}' extra: ")
    # the pip command that adds the extra to this very installation: the wheel it came from
    assert f"{core / 'python'} -m pip install " in lines[0]
    assert f"{wheel()}[{extra}]" in lines[0]
    assert not (tmp_path / "plots").exists() and not (tmp_path / "tournament.json").exists()


def test_the_line_is_in_the_players_language(core: Path, tmp_path: Path) -> None:
    expected = {
        "de": "dafür wird numpy aus dem Extra „tui“ gebraucht: ",
        "hu": "ehhez szükség van erre: numpy, a(z) „tui” kiegészítőből: ",
        "fr": "il faut pour cela numpy, fourni par l’extra « tui » : ",
        "vi": "việc này cần numpy, có trong gói bổ sung “tui”: ",
    }
    for lang, sentence in expected.items():
        done = run(core, tmp_path, "--lang", lang, "hint", "unfinished-4p")
        assert done.returncode == 2
        assert sentence in done.stderr, (lang, done.stderr)
        assert f"{wheel()}[tui]" in done.stderr


def test_the_pip_command_in_the_line_installs_the_extra(core: Path, tmp_path: Path) -> None:
    line = run(core, tmp_path, "batch").stderr.strip()
    command = line.split(": ", 2)[2]
    python, dash_m, pip, install, target = command.split(" ")
    assert (dash_m, pip, install) == ("-m", "pip", "install")
    done = subprocess.run([python, "-m", "pip", "install", "--dry-run", "--quiet",
                           "--disable-pip-version-check", target.strip("'")],
                          capture_output=True, text=True, check=False, env=_clean_env())
    assert done.returncode == 0, done.stderr


WORKS = [
    ["--version"],
    ["bots"],
    ["examples"],
    ["rules"],
    ["replay", "game-4p"],
    ["demo", "--seed", "1", "--bots", "hard,medium,easy,random"],
    ["analyze", "--games", "2", "--players", "3"],
    ["tensor-layout"],
]


@pytest.mark.parametrize("args", WORKS, ids=[" ".join(a) for a in WORKS])
def test_the_core_commands_work(core: Path, tmp_path: Path, args: list[str]) -> None:
    done = run(core, tmp_path, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() and not done.stderr.strip()


def test_the_plain_game_plays_and_the_hint_key_names_its_extra(core: Path, tmp_path: Path) -> None:
    done = run(core, tmp_path, "play", "--plain", "--seed", "1", stdin="h\nd\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "this needs numpy, from the 'tui' extra: " in done.stdout
    assert "drew" in done.stdout  # the game went on after the hint key
    saved = list((tmp_path / "data" / "autosave").glob("game-*.json"))
    assert len(saved) == 1  # the documented data folder, without the tui extra
    # the resume line names the program as it was started (not on the PATH here)
    assert f"Resume it with: {core / 'kingsbreakfast'} play --resume" in done.stdout


def test_the_full_screen_game_and_the_master_bot_refuse_cleanly(
    core: Path, tmp_path: Path
) -> None:
    for args in (["demo", "--bots", "master"], ["play", "--bots", "master", "--plain"],
                 ["demo", "--bots", "chef"]):
        done = run(core, tmp_path, *args)
        assert done.returncode == 2, (args, done.stdout + done.stderr)
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
        assert "numpy" in done.stderr


def test_the_environment_is_a_fresh_one(core: Path) -> None:
    assert Path(sys.prefix) != core.parent
