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
from castell_game.towers import TowerRules


@pytest.fixture(scope="session")
def castell_tower_rules() -> TowerRules:
    return make_rules()
