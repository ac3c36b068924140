"""Fixtures: the toy mechanics registered for one test, and toy rule files."""

from __future__ import annotations

import pytest
from toy_games import RaceMechanics, rules_text

from castell_dsl.runtime.plugins import registries


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """Write the toy race with `mode` and return its path (the mechanics registered)."""
    monkeypatch.setitem(registries().mechanics, "toyrace", RaceMechanics())

    def write(mode: int, rounds: int = 4) -> str:
        path = tmp_path / f"race-{mode}-{rounds}.castell"
        path.write_text(rules_text(mode, rounds))
        return str(path)

    return write
