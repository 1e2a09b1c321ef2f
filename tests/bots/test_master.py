"""The master level: its shipped weights load with numpy alone, bad files are refused with a
message naming the file and the fix, and the bot plays legal, repeatable moves."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from kingsbreakfast.bots import LEVELS, OPPONENT_LEVELS, describe_bot, make_bot  # noqa: E402
from kingsbreakfast.bots.master import (  # noqa: E402
    FORMAT,
    VERSION,
    MasterBot,
    MasterWeightsError,
    default_weights_path,
    header_bytes,
    load_weights,
)
from kingsbreakfast.engine import State  # noqa: E402


def test_the_shipped_weights_load_and_say_where_they_come_from() -> None:
    path = default_weights_path()
    assert path.is_file()
    assert path.stat().st_size <= 5 * 1024 * 1024
    weights = load_weights()
    header = weights.header
    assert header["format"] == FORMAT and header["version"] == VERSION
    assert isinstance(header["seed"], int)
    assert len(header["commit"]) == 40  # the source the weights were trained from
    assert header["games_trained"] > 0


def play(seed: int, players: int = 4) -> list[int]:
    state = State.new(players, random.Random(seed))
    bots = [make_bot("master") for _ in range(players)]
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_move
        action = bots[seat].act(state.view(seat), rng)
        assert action in state.legal_actions()
        state.play(action)
    return [int(a) for a in state.actions]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_master_plays_whole_games_and_the_same_seed_gives_the_same_game(players: int) -> None:
    assert play(11, players) == play(11, players)


def test_master_is_below_the_chef_and_offered_to_hosts() -> None:
    assert LEVELS[-1] == "chef" and LEVELS[-2] == "master" and LEVELS[-3] == "expert"
    assert "master" in OPPONENT_LEVELS
    text = describe_bot("master")
    assert "trained" in text and "self-play" in text


def test_a_missing_file_names_itself_and_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "nothing.npz"
    with pytest.raises(MasterWeightsError, match=r"nothing\.npz is missing") as raised:
        load_weights(path)
    assert "kingsbreakfast train" in str(raised.value)
    with pytest.raises(MasterWeightsError):
        MasterBot(str(path))  # never a quiet fall back to another bot


def test_a_truncated_file_is_refused(tmp_path: Path) -> None:
    data = default_weights_path().read_bytes()
    for cut in (0, 10, len(data) // 2, len(data) - 1):
        path = tmp_path / f"cut{cut}.npz"
        path.write_bytes(data[:cut])
        with pytest.raises(MasterWeightsError, match=f"cut{cut}.npz") as raised:
            load_weights(path)
        assert "reinstall" in str(raised.value)


def rewrite(tmp_path: Path, **changes: object) -> Path:
    """The shipped file with its header changed."""
    with np.load(default_weights_path()) as data:
        arrays = {k: data[k] for k in data.files}
    header = json.loads(bytes(arrays["header"]).decode())
    header.update(changes)
    arrays["header"] = header_bytes(header)
    path = tmp_path / "changed.npz"
    with path.open("wb") as handle:
        np.savez(handle, **arrays)
    return path


def test_another_version_or_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MasterWeightsError, match="version 99"):
        load_weights(rewrite(tmp_path, version=99))
    with pytest.raises(MasterWeightsError, match="not a master bot weights file"):
        load_weights(rewrite(tmp_path, format="something-else"))
    with pytest.raises(MasterWeightsError, match="feature layout"):
        load_weights(rewrite(tmp_path, layout="an older row"))


def test_layers_of_the_wrong_shape_are_refused(tmp_path: Path) -> None:
    with np.load(default_weights_path()) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["w2"] = arrays["w2"][:, :5]
    path = tmp_path / "shape.npz"
    with path.open("wb") as handle:
        np.savez(handle, **arrays)
    with pytest.raises(MasterWeightsError, match="wrong shape"):
        load_weights(path)
