"""Each research adapter, imported without its extra, says in one line which extra and
which pip command bring it (not a bare ModuleNotFoundError from deep inside)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(("module", "hidden", "extra"), [
    ("openspiel", "pyspiel", "openspiel"),
    ("gymnasium", "gymnasium", "rl"),
    ("pettingzoo", "pettingzoo", "rl"),
])
def test_an_adapter_without_its_extra_names_the_extra(
    module: str, hidden: str, extra: str
) -> None:
    code = (f"import sys; sys.modules[{hidden!r}] = None\n"  # as if not installed
            f"import kingsbreakfast.interop.{module}")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("kingsbreakfast.interop.extra.MissingExtraError: ")
    assert f"'{extra}' extra" in last and f"pip install 'kingsbreakfast[{extra}]'" in last
    # still a ModuleNotFoundError, for code that catches that
    check = code.replace("import kingsbreakfast", "try:\n    import kingsbreakfast") + (
        "\nexcept ModuleNotFoundError as error:\n    print(error.name)")
    assert subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                          check=True).stdout.strip() == hidden
