"""Every test's autosaves go to a folder of its own, never the user's data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingsbreakfast.tui.saving import DATA_DIR_VAR


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_VAR, str(folder))
    return folder
