"""``benchmarks/strength.py`` on the rules engine: a run stopped part way and resumed writes
the row an unbroken run writes, and a partial file of another run is never resumed.

The long engine runs (master against three expert: hours a seed) outlast a working session;
what they played must not be lost or, worse, joined to games of another pairing or network.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = 3
ROTATIONS = 2  # seat rotations a chunk, so that three chunks stay quick
GAMES = 3 * ROTATIONS * PLAYERS  # a seed's games: three chunks


@pytest.fixture
def strength(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "strength_benchmark", ROOT / "benchmarks" / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "CHUNK_ROTATIONS", ROTATIONS)
    return module


def stopped_after(module: ModuleType, chunks: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every later engine run stop (as a killed process does) once ``chunks`` chunks
    have been played, over all seeds."""
    played = 0
    original = module.engine_chunks

    def limited(*args: Any, **kwargs: Any) -> Iterator[list[float]]:
        nonlocal played
        for chunk in original(*args, **kwargs):
            if played == chunks:
                raise KeyboardInterrupt
            played += 1
            yield chunk

    monkeypatch.setattr(module, "engine_chunks", limited)


def one_chunk_of(strength: ModuleType, upper: str, out: Path,
                 monkeypatch: pytest.MonkeyPatch) -> str:
    """A run of ``upper`` against two random bots on seed 4242, stopped after its first
    chunk: the text of the partial file it leaves."""
    stopped_after(strength, 1, monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        strength.measure(upper, "random", PLAYERS, [4242], GAMES, out)
    return out.with_suffix(".partial.json").read_text()


def test_a_stopped_run_resumed_writes_the_unbroken_runs_row(
    strength: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds = [4242, 4243]
    whole = strength.measure("exploiter", "random", PLAYERS, seeds, GAMES, tmp_path / "a.json")
    out = tmp_path / "b.json"
    original = strength.engine_chunks
    stopped_after(strength, 3, monkeypatch)  # seed 4242 two chunks, seed 4243 one
    with pytest.raises(KeyboardInterrupt):
        strength.measure("exploiter", "random", PLAYERS, seeds, GAMES, out)
    partial = json.loads(out.with_suffix(".partial.json").read_text())
    assert partial["partial"] is True and not out.exists()
    assert [row["games"] for row in partial["per_seed"]] == [2 * ROTATIONS * PLAYERS,
                                                            ROTATIONS * PLAYERS]
    monkeypatch.setattr(strength, "engine_chunks", original)
    starts: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Iterator[list[float]]:
        starts.append(args[5] if len(args) > 5 else kwargs.get("start", 0))
        yield from original(*args, **kwargs)

    monkeypatch.setattr(strength, "engine_chunks", counted)
    again = strength.measure("exploiter", "random", PLAYERS, seeds, GAMES, out, resume=True)
    assert starts == [2 * ROTATIONS * PLAYERS, ROTATIONS * PLAYERS]  # nothing played twice
    for key in ("games", "win_share", "wilson95", "per_seed", "seeds_spread_chi2_p"):
        assert again[key] == whole[key], key
    assert json.loads(out.read_text())["per_seed"] == whole["per_seed"]
    assert not out.with_suffix(".partial.json").exists()


def test_a_partial_file_of_another_run_is_refused(
    strength: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "row.json"
    kept = one_chunk_of(strength, "exploiter", out, monkeypatch)
    with pytest.raises(SystemExit, match="games a seed"):
        strength.measure("exploiter", "random", PLAYERS, [4242], 2 * GAMES, out, resume=True)
    with pytest.raises(SystemExit, match="pairing"):
        strength.measure("exploiter", "easy", PLAYERS, [4242], GAMES, out, resume=True)
    with pytest.raises(SystemExit, match="not among --seeds"):
        strength.measure("exploiter", "random", PLAYERS, [4243], GAMES, out, resume=True)
    assert out.with_suffix(".partial.json").read_text() == kept  # nothing was lost


def test_resume_is_refused_for_a_kernel_run(strength: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="rules engine"):
        strength.measure("hard", "medium", PLAYERS, [4242], GAMES, tmp_path / "k.json",
                         resume=True)


def test_a_partial_file_of_another_network_is_refused(
    strength: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "master.json"
    assert len(json.loads(one_chunk_of(strength, "master", out, monkeypatch))
               ["weights_sha256"]) == 64
    monkeypatch.setattr(strength, "weights_digest", lambda weights: "0" * 64)  # retrained
    with pytest.raises(SystemExit, match="weights_sha256"):
        strength.measure("master", "random", PLAYERS, [4242], GAMES, out, resume=True)


def test_combine_keeps_the_network_and_refuses_rows_of_two_networks(
    strength: ModuleType, tmp_path: Path
) -> None:
    rows = {}
    for seed in (4242, 4243):
        out = tmp_path / f"seed{seed}.json"
        strength.measure("master", "random", PLAYERS, [seed], ROTATIONS * PLAYERS, out)
        rows[seed] = out
    joined = strength.combine(list(rows.values()), tmp_path / "both.json")
    digest = json.loads(rows[4242].read_text())["weights_sha256"]
    assert joined["weights_sha256"] == digest and len(digest) == 64
    assert [p["seed"] for p in joined["per_seed"]] == [4242, 4243]
    other = json.loads(rows[4243].read_text())
    other["weights_sha256"] = "0" * 64  # the same pairing, played by a retrained network
    rows[4243].write_text(json.dumps(other))
    with pytest.raises(SystemExit, match="another network"):
        strength.combine(list(rows.values()), tmp_path / "mixed.json")
    assert not (tmp_path / "mixed.json").exists()
