"""The compiled tower search answers exactly as the same source run as Python (C-5, C-6.3a,
C-8.3, C-8.4, C-9.2, C-9.3).

`castell_game.tower_search` is one source, `tower_search.py`, compiled by setup.py (with the
types of `tower_search.pxd`) when a C compiler is there; `solver._plain_search()` is the same
file run as plain Python. These tests ask both builds the same queries, the queries real games
ask and random ones of every kind under several rule variants, and require the same tower,
score and uses; and they check the ways back to the plain build: not built, turned off, or a
query beyond the compiled integer ranges. `test_solver.py` runs its brute-force properties on
both, and `test_solver_dump.py` compares both with the answers recorded before the two were one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import brute_force as bf
import pytest
from brute_force import SKILLS
from castell_game import solver
from hypothesis import given, settings
from hypothesis import strategies as st

from castell_dsl import load_rules
from castell_dsl.runtime.simulation import play_game

compiled = pytest.mark.skipif(solver._compiled is None, reason="the compiled search is not built")

QUERIES = ("best_festival_tower", "complete_shape", "complete_exhibition", "tallest_tower")
VARIANT_RULES = bf.SEARCH_VARIANTS


def answer(backend: str, name: str, *args):
    """`solver.<name>(*args)` asked cold of one search: (levels, score, uses) or None."""
    previous = solver.use_search_backend(backend)
    try:
        found = getattr(solver, name)(*args)
    finally:
        solver.use_search_backend(previous)
    return None if found is None else (found.levels, found.score, found.uses)


def assert_same_answer(name: str, *args) -> None:
    python = answer("python", name, *args)
    assert answer("compiled", name, *args) == python, (name, args)


def test_the_compiled_search_is_built_where_ci_runs():
    """CI installs with Cython and a C compiler, so the compiled search must be there: a build
    that silently fell back would leave it untested."""
    if not os.environ.get("CI"):
        pytest.skip("only CI guarantees a C compiler")
    assert solver._compiled is not None
    assert solver.search_backend() == "compiled"


@compiled
def test_game_queries_answer_the_same():
    """Every tower question of seeded random 4-player games, asked of both searches."""
    rules = load_rules("castell")
    calls: list[tuple] = []
    originals = {name: getattr(solver, name) for name in QUERIES}

    def recorder(name, function):
        def recorded(*args):
            calls.append((name, tuple(args[0]), dict(args[1]), *args[2:]))
            return function(*args)

        return recorded

    try:
        for name, function in originals.items():
            setattr(solver, name, recorder(name, function))
        for seed in range(20):
            play_game(rules, 4, 100 + seed, ["random"] * 4)
    finally:
        for name, function in originals.items():
            setattr(solver, name, function)
    assert len(calls) > 40
    assert {call[0] for call in calls} >= {"best_festival_tower", "complete_shape"}
    for name, team, ranks, *rest in calls:
        assert_same_answer(name, list(team), ranks, *rest)


@compiled
@settings(max_examples=bf.examples(300), deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANT_RULES)),
    size=st.integers(0, 30),
    rank_max=st.sampled_from([1, 3, 5]),
    data=st.data(),
)
def test_random_queries_of_every_kind_answer_the_same(variant, size, rank_max, data):
    """Teams of up to 30 castellers (beyond the brute force's reach), ranks up to 5, every
    kind of query: festival (with sizes and a height), shape, exhibition, tallest."""
    rules = VARIANT_RULES[variant]
    team = data.draw(st.lists(st.sampled_from(rules.sizes), min_size=size, max_size=size))
    ranks = data.draw(st.fixed_dictionaries({s: st.integers(0, rank_max) for s in SKILLS}))
    kind = data.draw(st.sampled_from(QUERIES))
    if kind == "best_festival_tower":
        sizes = data.draw(st.lists(st.sampled_from(rules.sizes), max_size=3, unique=True))
        args: tuple = (sizes, data.draw(st.integers(1, 7)))
    elif kind == "complete_shape":
        widths = data.draw(st.lists(st.integers(1, 6), min_size=1, max_size=7))
        args = (sorted(widths, reverse=True),)
    elif kind == "complete_exhibition":
        needs = data.draw(st.lists(st.sampled_from(SKILLS), min_size=1, max_size=3, unique=True))
        args = (needs, data.draw(st.integers(1, 7)))
    else:
        args = ()
    assert_same_answer(kind, team, ranks, rules, *args)


@compiled
@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(bf.make_rules(score_per_level=2**40), id="a weight beyond the C range"),
        pytest.param(bf.make_rules(sizes=tuple(range(1, 71))), id="70 numbers, more than 63"),
    ],
)
def test_rules_beyond_the_compiled_ranges_are_answered_by_the_python_search(rules):
    team = [rules.sizes[i % min(12, len(rules.sizes))] for i in range(20)]
    ranks = dict.fromkeys(SKILLS, 2)
    assert_same_answer("best_festival_tower", team, ranks, rules, rules.sizes[:2], 3)
    assert answer("compiled", "tallest_tower", team, ranks, rules) is not None


@compiled
@pytest.mark.parametrize("castellers", [150, 250])
def test_towers_of_many_levels_are_answered_alike_below_and_above_the_depth_cap(castellers):
    """C-5.4, C-6.2: a team of one number with Balance and Strength for every level stacks a
    level per casteller. The compiled search recurses once per level on the C stack, so a team
    that could stack more than 200 levels goes to the Python search; both answer the same."""
    rules = bf.make_rules()
    ranks = {**dict.fromkeys(SKILLS, 0), "balance": 400, "strength": 400}
    team = [1] * castellers
    assert_same_answer("tallest_tower", team, ranks, rules)
    assert len(answer("compiled", "tallest_tower", team, ranks, rules)[0]) == castellers


def test_a_team_beyond_the_compiled_ranges_is_answered_by_the_python_search(monkeypatch):
    """A team whose counts the compiled search cannot hold (here: a range lowered to 5
    castellers) is searched by the Python search, with the same answer."""
    rules = bf.make_rules()
    ranks = dict.fromkeys(SKILLS, 3)
    team = [9, 9, 8, 8, 7, 6, 5, 4, 3, 2, 1]
    expected = answer("python", "best_festival_tower", team, ranks, rules, (8, 3), 4)
    monkeypatch.setattr(solver._compiled, "LIMIT", 5)
    assert answer("compiled", "best_festival_tower", team, ranks, rules, (8, 3), 4) == expected
    assert expected is not None


TEAMS = {
    "a bool": lambda: [3, True, 4],
    "a float": lambda: [3, 3.0],
    "no such number": lambda: [3, 11],
    "a string": lambda: ["3"],
    "empty": lambda: [],
    "a generator": lambda: (n for n in (5, 5, 4)),
    "a tuple": lambda: (9, 8, 8),
}


@compiled
@pytest.mark.parametrize("make_team", list(TEAMS.values()), ids=list(TEAMS))
def test_team_counts_match_the_python_counts_and_their_errors(make_team):
    """Both builds count a team alike (`solver._counts`), and a casteller that is not a number
    of the game gets the same error (C-5.1)."""
    index = solver._tables(bf.make_rules()).index

    def outcome(backend):
        previous = solver.use_search_backend(backend)
        try:
            return solver._counts(make_team(), index)
        except ValueError as error:
            return f"ValueError: {error}"
        finally:
            solver.use_search_backend(previous)

    assert outcome("compiled") == outcome("python")


def test_the_search_backend_is_chosen_by_name_or_setting():
    with pytest.raises(ValueError, match="unknown search backend"):
        solver.use_search_backend("fast")
    if solver._compiled is None:
        with pytest.raises(ValueError, match="not built"):
            solver.use_search_backend("compiled")
    code = "from castell_game import solver; print(solver.search_backend())"
    env = {**os.environ, "CASTELL_SOLVER": "python"}
    shown = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert shown.stdout.strip() == "python"


def test_both_builds_are_one_source():
    """The compiled module (when built) and the plain one are the same file: the extension is
    built from `tower_search.py`, and the plain build is that file run as Python."""
    plain = solver._plain_search()
    assert plain.COMPILED is False
    assert Path(plain.__file__).name == "tower_search.py"
    if solver._compiled is not None:
        assert solver._compiled.COMPILED is True
        assert Path(solver._compiled.__file__).with_name("tower_search.py") == Path(plain.__file__)


def test_the_plain_build_answers_when_the_extension_is_missing():
    """Without the extension (an install with no C compiler: here its import is made to find
    the .py file instead), `tower_search.py` runs as Python and answers as the solver's tests
    expect: the search backend is "python" and a compiled one cannot be asked for."""
    code = """
import importlib.machinery, importlib.util, sys
from pathlib import Path
import castell_game
source = Path(castell_game.__file__).with_name("tower_search.py")

class SourceOnly:
    def find_spec(self, name, path=None, target=None):
        if name == "castell_game.tower_search":
            return importlib.util.spec_from_file_location(name, source)
        return None

sys.meta_path.insert(0, SourceOnly())
from castell_game import solver
print(solver.search_backend(), solver._compiled)
try:
    solver.use_search_backend("compiled")
except ValueError as error:
    print("refused:", error)
print(solver.tallest_tower([5, 5, 4, 3, 2, 1], dict.fromkeys(
    ("balance", "base", "mix", "strength", "width"), 1), solver_rules()).levels)
""".replace(
        "solver_rules()",
        "__import__('castell_game.tables').tables.tower_rules("
        "__import__('castell_dsl').load_rules('castell'))",
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert shown[0] == "python None"
    assert shown[1].startswith("refused: the compiled search is not built")
    assert shown[2].startswith("((")
