"""`solver.any_tower` and the tower-existence shortcuts that counting legal actions relies on.

Counting a player's tower and performance actions asks only whether some tower answers a
question. `any_tower` stops the exact search at its first tower and `TowerQuestions` answers
from witnesses (towers found before, re-checked); both must say "none" exactly when the best
answer is None, or a counted action list would differ from the listed one.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "castell"))

import brute_force as bf  # a test helper of tests/castell, importable through the line above
from castell_game import solver, towers

RULES = bf.make_rules()
teams = st.lists(st.sampled_from(RULES.sizes), min_size=1, max_size=22)
ranks = st.fixed_dictionaries({s: st.integers(0, 3) for s in RULES.skills})


@given(
    team=teams,
    ranks=ranks,
    sizes=st.lists(st.sampled_from(RULES.sizes), max_size=2, unique=True),
    min_levels=st.integers(1, 6),
)
def test_any_festival_tower_exists_exactly_when_the_best_does(team, ranks, sizes, min_levels):
    best = solver.best_festival_tower(team, ranks, RULES, sizes, min_levels)
    found = solver.any_tower(team, ranks, RULES, sizes, min_levels)
    assert (found is None) == (best is None)
    if found is not None:
        assert towers.check(found.levels, ranks, RULES).legal
        assert towers.meets_festival(found.levels, sizes, min_levels)


@given(
    team=teams,
    ranks=ranks,
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=5).map(
        lambda s: sorted(s, reverse=True)
    ),
)
def test_any_shape_tower_exists_exactly_when_the_solver_completes_it(team, ranks, shape):
    best = solver.complete_shape(team, ranks, RULES, shape)
    found = solver.any_tower(team, ranks, RULES, shape=shape)
    assert (found is None) == (best is None)
    if found is not None:
        assert towers.check(found.levels, ranks, RULES).legal
        assert towers.meets_shape(found.levels, shape)


@given(
    team=teams,
    ranks=ranks,
    needs=st.lists(st.sampled_from(sorted(RULES.skills)), min_size=1, max_size=2, unique=True),
    n_levels=st.integers(2, 6),
)
def test_any_exhibition_tower_exists_exactly_when_the_solver_completes_it(
    team, ranks, needs, n_levels
):
    best = solver.complete_exhibition(team, ranks, RULES, needs, n_levels)
    found = solver.any_tower(team, ranks, RULES, n_levels=n_levels, needs=needs)
    assert (found is None) == (best is None)
    if found is not None:
        result = towers.check(found.levels, ranks, RULES)
        assert len(found.levels) == n_levels
        assert towers.meets_exhibition(result, needs)
