"""Fixtures for the authoring tests: a working directory holding a designer's variant files."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from castell_dsl.cli import cli

#: The tutorial's eight-rounds variant (docs/variants.md), complete.
EIGHT_ROUNDS = """\
# Eight rounds: a quicker evening.
extends "castell"

override game { rounds 8 }

override calendar {
  space { round 3  back I   size_tokens 1 }
  space { round 4  back I   size_tokens 1 }
  space { round 4  back I   size_tokens 1 } when players >= 3
  space { round 5  back I   size_tokens 1 }
  space { round 5  back I   size_tokens 1 } when players >= 3
  space { round 6  back II  size_tokens 2 }
  space { round 7  back II  size_tokens 2 }
  space { round 7  back II  size_tokens 2 } when players >= 3
  space { round 8  back II  size_tokens 2 }
  space { round 8  back II  size_tokens 2 } when players >= 3
}
"""

ONLY_ROUNDS = 'extends "castell"\n\noverride game { rounds 8 }\n'

EXTRA_TILE = 'extends "castell"\n\nperformance LP33 { shape [2, 1] points 2 }\n'


@pytest.fixture(scope="session")
def eight_rounds_text() -> str:
    return EIGHT_ROUNDS


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "eight-rounds.castell").write_text(EIGHT_ROUNDS, encoding="utf-8")
    (tmp_path / "only-rounds.castell").write_text(ONLY_ROUNDS, encoding="utf-8")
    (tmp_path / "extra-tile.castell").write_text(EXTRA_TILE, encoding="utf-8")
    return tmp_path


@pytest.fixture
def run():
    def invoke(*args: str):
        return CliRunner().invoke(cli, list(args), catch_exceptions=False)

    return invoke
