"""The research adapters are judged by their libraries' own checkers (Gymnasium's
``check_env``, PettingZoo's api and seed tests, OpenSpiel's random simulation test). Many of
those checks only *warn*, and a warning passes a test; so here every warning is an error.

Two advisories are allowed, by their exact words, both about one design choice: PettingZoo
suggests that an observation space "probably should be" a Box or Discrete, and that an
observation be a NumPy array. Our observation is a dict of the encoding and the action mask,
which is PettingZoo's own documented way to carry a mask (its classic games do the same and
are exempt from both advisories by name).
"""

from __future__ import annotations

import pytest

ALLOWED = (
    "ignore:Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = str(config.rootpath / "tests" / "interop")
    for item in items:
        if str(item.path).startswith(here):
            # the mark added last is the nearest to the test, so it is applied last and wins
            item.add_marker(pytest.mark.filterwarnings("error"))
            for allowed in ALLOWED:
                item.add_marker(pytest.mark.filterwarnings(allowed))
