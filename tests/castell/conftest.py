"""Shared fixtures for the Castell tower tests.

`castell_tower_rules` builds the standard tower parameters explicitly (`brute_force.make_rules`:
the package has no defaults for game numbers); the rule-file compiler must produce equal rules.

Property tests size themselves with `brute_force.examples(n)`: the normal suite is quick. For a
long campaign multiply every example count, e.g. ``CASTELL_HYPOTHESIS_SCALE=50 pytest
tests/castell`` (add ``--hypothesis-seed=N`` to replay a seed, ``-n auto`` with pytest-xdist).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# Make brute_force importable whatever pytest's import mode (tests/ has no __init__.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from brute_force import make_rules
from castell_game import solver
from castell_game.towers import TowerRules

from castell_dsl import load_rules, new_game

#: The tower searches this install has: the Python one always, the compiled one when built
#: (`tests/castell/test_compiled_search.py` fails in CI when it is not).
SEARCH_BACKENDS = ["python", "compiled"] if solver._compiled is not None else ["python"]


@pytest.fixture(scope="module", params=SEARCH_BACKENDS)
def each_search_backend(request):
    """Run a module's tests once per tower search (`solver.use_search_backend`): both must
    give every answer the tests expect."""
    previous = solver.use_search_backend(request.param)
    yield request.param
    solver.use_search_backend(previous)


@pytest.fixture(scope="session")
def castell_tower_rules() -> TowerRules:
    return make_rules()


@pytest.fixture
def castell_patched(tmp_path):
    """A game right after setup (round 1, the first player's turn) of the standard rules
    patched by rule-file text, e.g. `override festival_rules { prize_ties share_no_skip }`:
    how a variant file would change a [default] reading."""

    def make(patch: str = "", players: int = 4, seed: int = 7):
        path = tmp_path / "patched.castell"
        path.write_text('extends "castell"\n' + patch + "\n", encoding="utf-8")
        game = new_game(load_rules(path), players=players, seed=seed)
        game.invalidate()
        return game

    return make
