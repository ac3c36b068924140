"""Exact tower solver (solver.py): C-6.3a, C-8.3, C-8.4, C-9.2, C-9.3.

Property tests compare the solver with brute_force.best_tower, which enumerates every tower of a
small team and applies the solver's documented tie-break, so the exact tower must agree (not
just the score). Every returned tower is also re-checked with towers.check. Every test runs
once per tower search, the Python one and the compiled one when it is built
(`each_search_backend`).
"""

from __future__ import annotations

import json
import random

import brute_force as bf
import pytest
from brute_force import SKILLS, make_rules
from castell_game import solver
from castell_game.solver import (
    Solution,
    best_festival_tower,
    best_tower_dict,
    clear_cache,
    complete_exhibition,
    complete_shape,
    tallest_tower,
)
from castell_game.towers import (
    check,
    meets_exhibition,
    meets_festival,
    meets_shape,
    tower_score,
)
from hypothesis import given, settings
from hypothesis import strategies as st

ALL3 = dict.fromkeys(SKILLS, 3)

pytestmark = pytest.mark.usefixtures("each_search_backend")


def assert_valid(solution: Solution, ranks, rules, sizes=()) -> None:
    """The solver's tower passes the checker and reports check()'s uses and the C-9.3 score."""
    result = check(solution.levels, ranks, rules)
    assert result.legal, result.reason
    assert solution.uses == result.uses
    assert solution.score == tower_score(solution.levels, sizes, rules)


def test_c9_3_brief_example(castell_tower_rules):
    """C-9.2 / C-9.3: 6,6,6,5,5,4,3 with Balance 1 at a festival showing 6 and 5: score 9."""
    out = best_tower_dict(
        [6, 6, 6, 5, 5, 4, 3], {"balance": 1}, castell_tower_rules, sizes=(6, 5), min_levels=4
    )
    assert out == {
        "found": True,
        "score": 9,
        "levels": [[6, 6, 6], [5, 5], [4], [3]],
        "uses": {"balance": 1, "base": 0, "mix": 0, "strength": 0, "width": 0},
    }
    json.dumps(out)


def test_c9_2_not_found_contract(castell_tower_rules):
    """C-9.2: a size the team lacks, or too few levels possible: no tower."""
    none = {"found": False, "score": None, "levels": None, "uses": None}
    assert best_tower_dict([6, 5, 4], {}, castell_tower_rules, sizes=(7,)) == none
    assert best_tower_dict([6, 5, 4], {}, castell_tower_rules, min_levels=4) == none
    assert best_festival_tower([], {}, castell_tower_rules) is None
    # Without Balance, 6/5/4 singles cannot stack: the best is one level... plus matches.
    sol = best_festival_tower([6, 5, 4], {}, castell_tower_rules, sizes=(4,))
    assert sol is not None and sol.levels == ((4,),) and sol.score == 2


def test_c9_2_required_sizes_are_included_even_if_it_costs_levels(castell_tower_rules):
    """C-9.2: the tower must contain every festival number."""
    team = [9, 9, 9, 8, 8, 7, 1]
    sol = best_festival_tower(team, {}, castell_tower_rules, sizes=(1,))
    assert sol is not None
    assert meets_festival(sol.levels, (1,), 1)
    assert_valid(sol, {}, castell_tower_rules, (1,))
    assert sol.levels == ((9, 9, 9), (8, 8), (1,))


def test_c9_3_score_counts_matching_castellers(castell_tower_rules):
    """C-9.3: matching castellers add points, so a wider matching level can beat a level."""
    team = [5, 5, 5, 5, 5, 4, 3]
    ranks = {"width": 2}
    sol = best_festival_tower(team, ranks, castell_tower_rules, sizes=(5,), min_levels=1)
    assert sol is not None
    assert sol.levels == ((5, 5, 5, 5, 5), (4,))
    assert sol.score == 2 + 5
    assert_valid(sol, ranks, castell_tower_rules, (5,))


def test_tie_break_prefers_no_base_on_equal_uses(castell_tower_rules):
    """C-6.3a tie rule inside the solver: Width 1 vs Base 1 for a bottom of 4 reports Width."""
    team = [6, 6, 6, 6, 5, 5, 4]
    ranks = {"width": 1, "base": 1}
    sol = best_festival_tower(team, ranks, castell_tower_rules, sizes=(6,))
    assert sol is not None
    assert sol.levels == ((6, 6, 6, 6), (5, 5), (4,))
    assert sol.uses == {"balance": 0, "base": 0, "mix": 0, "strength": 0, "width": 1}


def test_tie_break_fewer_uses_then_lexicographically_largest(castell_tower_rules):
    """Documented tie-break: equal score and matches -> fewer uses -> largest tower."""
    # Three levels either way; 9/8/7 with no skill beats anything needing Balance or Mix.
    sol = tallest_tower([9, 9, 9, 8, 8, 7, 3, 3, 2], {"balance": 1}, castell_tower_rules)
    assert sol is not None
    assert len(sol.levels) == 4
    assert sol.levels == ((9, 9, 9), (8, 8), (7,), (3,))
    assert sol.uses["balance"] == 1
    sol = tallest_tower([9, 9, 8, 7, 7, 6], {}, castell_tower_rules)
    assert sol is not None and sol.levels == ((9, 9), (8,))


def test_tallest_tower(castell_tower_rules):
    """C-6.2: with Balance and Strength every casteller can become a level."""
    team = [5, 5, 5, 4]
    # Two levels either way; the lexicographically largest tower is the wider one.
    assert tallest_tower(team, {}, castell_tower_rules).levels == ((5, 5, 5), (4,))
    sol = tallest_tower(team, {"balance": 3, "strength": 2}, castell_tower_rules)
    assert sol is not None and len(sol.levels) == 4
    assert tallest_tower([], {}, castell_tower_rules) is None


def test_c8_3_complete_shape(castell_tower_rules):
    """C-8.3: a tower of exactly the pictured shape, or None as proof that none exists."""
    team = [8, 8, 8, 8, 7, 7, 7, 6, 6, 5]
    sol = complete_shape(team, {}, castell_tower_rules, [3, 2, 1])
    assert sol is not None and sol.levels == ((8, 8, 8), (7, 7), (6,))
    assert complete_shape(team, {}, castell_tower_rules, [3, 3]) is None
    sol = complete_shape(team, {"balance": 1}, castell_tower_rules, [3, 3])
    assert sol is not None and meets_shape(sol.levels, [3, 3])
    assert complete_shape(team, {"width": 1}, castell_tower_rules, [4, 3, 2, 1]) is not None
    assert complete_shape(team, {}, castell_tower_rules, [4, 3, 2, 1]) is None
    assert complete_shape(team, ALL3, castell_tower_rules, [5, 5, 5]) is None


def test_c8_4_complete_exhibition_with_two_skills(castell_tower_rules):
    """C-8.4: exactly n levels, one accounting using every listed skill."""
    team = [8, 8, 7, 7, 6, 6, 6, 5, 4]
    ranks = {"balance": 1, "mix": 1}
    sol = complete_exhibition(team, ranks, castell_tower_rules, ["balance", "mix"], 3)
    assert sol is not None and len(sol.levels) == 3
    assert meets_exhibition(check(sol.levels, ranks, castell_tower_rules), ["balance", "mix"], 3)
    assert complete_exhibition(team, {"balance": 1}, castell_tower_rules, ["mix"], 2) is None


def test_c8_4_exhibition_of_base_and_width_needs_one_accounting(castell_tower_rules):
    """C-8.4 / C-6.3a: Base and Width together need a Base bottom with level 2 over the limit."""
    ranks = {"base": 1, "width": 1}
    team = [6, 6, 6, 6, 5, 5, 4]
    assert complete_exhibition(team, ranks, castell_tower_rules, ["base", "width"], 3) is None
    assert complete_exhibition(team, ranks, castell_tower_rules, ["base"], 3) is not None
    team = [9] * 6 + [8] * 4 + [7]
    sol = complete_exhibition(team, ranks, castell_tower_rules, ["base", "width"], 3)
    assert sol is not None
    result = check(sol.levels, ranks, castell_tower_rules)
    assert meets_exhibition(result, ["base", "width"], 3)


def test_best_tower_dict_with_needs_and_shape(castell_tower_rules):
    """C-8.3 / C-8.4 through the JSON contract: the score is the festival score."""
    team = [8, 8, 7, 7, 6, 6, 6, 5, 4]
    ranks = {"balance": 1, "mix": 1}
    out = best_tower_dict(team, ranks, castell_tower_rules, sizes=(6,), needs=["mix"])
    assert out["found"] and out["uses"]["mix"] >= 1
    levels = out["levels"]
    assert out["score"] == tower_score(levels, (6,), castell_tower_rules)
    out = best_tower_dict(team, ranks, castell_tower_rules, shape=[2, 2, 1])
    assert out["found"] and [len(level) for level in out["levels"]] == [2, 2, 1]
    out = best_tower_dict(team, ranks, castell_tower_rules, shape=[2, 2, 2])
    assert not out["found"]


def test_queries_are_cached_and_answers_are_independent(castell_tower_rules):
    """Bots ask the same question repeatedly: the answer is memoised, copies are returned."""
    clear_cache()
    team = [8, 8, 7, 7, 6, 6, 6, 5, 4]
    first = best_festival_tower(team, ALL3, castell_tower_rules, (6,), 2)
    first.uses["balance"] = 99
    second = best_festival_tower(list(reversed(team)), ALL3, castell_tower_rules, [6], 2)
    assert second.levels == first.levels and second.uses["balance"] != 99


def test_unknown_casteller_number_is_rejected(castell_tower_rules):
    with pytest.raises(ValueError, match="not one of the game's sizes"):
        best_festival_tower([11], {}, castell_tower_rules)
    with pytest.raises(ValueError, match="unknown skill"):
        complete_exhibition([5], {}, castell_tower_rules, ["fly"], 1)


def test_exhibition_of_a_skill_without_relaxation_is_impossible():
    """C-8.4 under a rule set without Base: no tower can use it."""
    rules = make_rules(relaxations={"wider": "width"})
    assert complete_exhibition([5, 5, 5, 5], {"base": 3}, rules, ["base"], 1) is None


def test_larger_team_is_fast_enough_and_valid(castell_tower_rules):
    """30 castellers, every rank 3: the exact answer is valid (speed: benchmarks/)."""
    team = [(i * 7) % 10 + 1 for i in range(30)]
    sol = best_festival_tower(team, ALL3, castell_tower_rules, (3, 8), 4)
    assert sol is not None
    assert_valid(sol, ALL3, castell_tower_rules, (3, 8))
    assert meets_festival(sol.levels, (3, 8), 4)


# --- Properties against the brute-force oracle ---------------------------------------------------

# Uniform teams, and dense ones (numbers within a window of 4) that stack tall, wide towers.
teams = st.one_of(
    st.lists(st.integers(1, 10), max_size=12),
    st.integers(1, 7).flatmap(
        lambda lo: st.lists(st.integers(lo, lo + 3), min_size=6, max_size=12)
    ),
)
ranks_st = st.fixed_dictionaries({s: st.integers(0, 3) for s in SKILLS})
fest_sizes = st.lists(st.integers(1, 10), max_size=2, unique=True)


def as_pair(solution: Solution | None) -> tuple[int, tuple] | None:
    return None if solution is None else (solution.score, solution.levels)


def shape_or_exhibition(data, team, ranks, rules, tallest: int):
    """A drawn C-8.3 shape or C-8.4 exhibition query of up to `tallest` levels: the solver's
    answer and the brute force's."""
    if data.draw(st.booleans(), label="shape"):
        widths = data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=tallest))
        shape = sorted(widths, reverse=True)
        return complete_shape(team, ranks, rules, shape), bf.best_tower(
            team, ranks, rules, shape=shape
        )
    needs = data.draw(st.lists(st.sampled_from(SKILLS), min_size=1, max_size=2, unique=True))
    n_levels = data.draw(st.integers(1, tallest), label="n_levels")
    return complete_exhibition(team, ranks, rules, needs, n_levels), bf.best_tower(
        team, ranks, rules, n_levels=n_levels, needs=needs
    )


@settings(max_examples=bf.examples(200), deadline=None)
@given(team=teams, ranks=ranks_st, sizes=fest_sizes, min_levels=st.integers(1, 4))
def test_c9_festival_optimum_equals_brute_force(team, ranks, sizes, min_levels):
    """C-9.2 / C-9.3 / C-6.3a: same score and, by the documented tie-break, the same tower."""
    rules = make_rules()
    solution = best_festival_tower(team, ranks, rules, sizes, min_levels)
    assert as_pair(solution) == bf.best_tower(team, ranks, rules, sizes, min_levels)
    if solution is not None:
        assert_valid(solution, ranks, rules, sizes)
        assert meets_festival(solution.levels, sizes, min_levels)


@settings(max_examples=bf.examples(150), deadline=None)
@given(team=teams, ranks=ranks_st, data=st.data())
def test_c8_3_shape_found_iff_brute_force_finds_one(team, ranks, data):
    """C-8.3: complete_shape finds a tower exactly when one exists (and the same one)."""
    rules = make_rules()
    shape = data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=5), label="shape")
    shape = sorted(shape, reverse=True)  # mostly plausible shapes
    if data.draw(st.booleans(), label="perturb"):
        i = data.draw(st.integers(0, len(shape) - 1))
        shape[i] += 1
    solution = complete_shape(team, ranks, rules, shape)
    assert as_pair(solution) == bf.best_tower(team, ranks, rules, shape=shape)
    if solution is not None:
        assert_valid(solution, ranks, rules)
        assert meets_shape(solution.levels, shape)


@settings(max_examples=bf.examples(150), deadline=None)
@given(
    team=teams,
    ranks=ranks_st,
    needs=st.lists(st.sampled_from(SKILLS), min_size=1, max_size=2, unique=True),
    n_levels=st.integers(1, 5),
)
def test_c8_4_exhibition_found_iff_brute_force_finds_one(team, ranks, needs, n_levels):
    """C-8.4 / C-6.3a: complete_exhibition finds a tower exactly when one exists."""
    rules = make_rules()
    solution = complete_exhibition(team, ranks, rules, needs, n_levels)
    assert as_pair(solution) == bf.best_tower(team, ranks, rules, n_levels=n_levels, needs=needs)
    if solution is not None:
        assert_valid(solution, ranks, rules)
        assert meets_exhibition(check(solution.levels, ranks, rules), needs, n_levels)


@settings(max_examples=bf.examples(80), deadline=None)
@given(
    team=teams,
    ranks=ranks_st,
    sizes=fest_sizes,
    needs=st.lists(st.sampled_from(SKILLS), max_size=2, unique=True),
    min_levels=st.integers(1, 3),
)
def test_best_tower_dict_exhibition_any_height_equals_brute_force(
    team, ranks, sizes, needs, min_levels
):
    """C-8.4 + C-9.3: needs without a height: the best-scoring exhibition tower."""
    rules = make_rules()
    out = best_tower_dict(team, ranks, rules, sizes, min_levels, needs=needs)
    expected = bf.best_tower(team, ranks, rules, sizes, min_levels, needs=needs)
    got = (out["score"], tuple(map(tuple, out["levels"]))) if out["found"] else None
    assert got == expected


@settings(max_examples=bf.examples(80), deadline=None)
@given(team=teams, ranks=ranks_st)
def test_tallest_tower_equals_brute_force(team, ranks):
    """C-6.2 / C-6.3a: the most levels any legal tower of the team has."""
    rules = make_rules()
    solution = tallest_tower(team, ranks, rules)
    assert (len(solution.levels) if solution else 0) == bf.tallest(team, ranks, rules)


VARIANTS = {
    "spread2": make_rules(mix_spread=2),
    "step2-limit2": make_rules(width_step=2, width_limit=2),
    "no-width": make_rules(
        relaxations={
            "equal_count": "balance",
            "wide_bottom": "base",
            "mixed_sizes": "mix",
            "equal_size": "strength",
        }
    ),
    "gaps-weights": make_rules(
        sizes=(1, 2, 3, 5, 6, 8, 9, 10), score_per_level=2, score_per_match=3
    ),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(max_examples=bf.examples(30), deadline=None)
@given(
    team=teams,
    ranks=ranks_st,
    sizes=fest_sizes,
    min_levels=st.integers(1, 3),
)
def test_c9_festival_optimum_under_variant_rules(variant, team, ranks, sizes, min_levels):
    """C-6.3a / C-9.3 with variant rule numbers: the solver still equals brute force."""
    rules = VARIANTS[variant]
    team = [x for x in team if x in rules.sizes]
    sizes = [s for s in sizes if s in rules.sizes]
    solution = best_festival_tower(team, ranks, rules, sizes, min_levels)
    assert as_pair(solution) == bf.best_tower(team, ranks, rules, sizes, min_levels)
    if solution is not None:
        assert_valid(solution, ranks, rules, sizes)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(max_examples=bf.examples(30), deadline=None)
@given(team=teams, ranks=ranks_st, data=st.data())
def test_c8_shapes_and_exhibitions_under_variant_rules(variant, team, ranks, data):
    """C-8.3 / C-8.4 with variant rule numbers (Mix windows over gaps, wider Width steps, no
    Width skill): the solver's early rejections and search still equal brute force."""
    rules = VARIANTS[variant]
    team = [x for x in team if x in rules.sizes]
    solution, expected = shape_or_exhibition(data, team, ranks, rules, tallest=5)
    assert as_pair(solution) == expected
    if solution is not None:
        assert_valid(solution, ranks, rules)


@pytest.mark.parametrize(
    ("team", "ranks", "sizes"),
    [
        ([9] * 10 + [8] * 2, {"width": 2}, (9,)),
        ([9] * 9 + [8] * 2 + [7], {"width": 2, "balance": 1}, (9, 7)),
        ([9] * 10 + [8] * 2, {"width": 2, "mix": 1, "strength": 1}, (8,)),
    ],
)
def test_very_wide_levels_equal_brute_force(team, ranks, sizes):
    """A Width step of 4 allows levels far wider than the usual ones (the solver indexes its
    pattern tables by width up to a fixed size and falls back beyond it)."""
    rules = make_rules(width_step=4)
    clear_cache()
    solution = best_festival_tower(team, ranks, rules, sizes)
    assert as_pair(solution) == bf.best_tower(team, ranks, rules, sizes=sizes)
    assert_valid(solution, ranks, rules, sizes)


# --- A fixed broad sample against the brute force ------------------------------------------------


def _fixed_sample(n: int, seed: int = 2018) -> list[tuple]:
    """`n` seeded queries of every kind, over every variant (best_tower_dict arguments)."""
    rng = random.Random(seed)
    variants = [make_rules(), *VARIANTS.values()]
    sample = []
    for _ in range(n):
        rules = rng.choice(variants)
        if rng.random() < 0.5:
            lo = rng.randint(1, 7)
            team = [rng.randint(lo, lo + 3) for _ in range(rng.randint(4, 10))]
        else:
            team = [rng.randint(1, 10) for _ in range(rng.randint(0, 10))]
        team = [x for x in team if x in rules.sizes]
        ranks = {s: rng.randint(0, 3) for s in SKILLS}
        sizes = rng.sample(rules.sizes, rng.randint(0, 2))
        query: dict = {"sizes": sizes, "min_levels": rng.randint(1, 4)}
        kind = rng.randrange(3)
        if kind == 1:
            shape = sorted((rng.randint(1, 5) for _ in range(rng.randint(1, 5))), reverse=True)
            query = {"shape": shape}
        elif kind == 2:
            query["needs"] = rng.sample(SKILLS, rng.randint(1, 2))
            if rng.random() < 0.5:
                query = {"needs": query["needs"], "n_levels": rng.randint(1, 5)}
        sample.append((team, ranks, rules, query))
    return sample


def test_c6_3a_c8_3_c8_4_c9_3_fixed_sample_equals_brute_force_for_every_skill():
    """C-6.2 / C-6.3a (every skill: Balance, Base, Mix, Strength, Width), C-8.3 shapes, C-8.4
    exhibitions, C-9.2 / C-9.3 festival towers: on a fixed seeded sample over every variant the
    solver returns exactly the brute force's tower and score, and the sample's answers use every
    skill (and every skill as an exhibition need), so no relaxation goes untested."""
    used: set[str] = set()
    needed: set[str] = set()
    for team, ranks, rules, query in _fixed_sample(1500):
        clear_cache()
        out = best_tower_dict(team, ranks, rules, **query)
        got = (out["score"], tuple(map(tuple, out["levels"]))) if out["found"] else None
        assert got == bf.best_tower(team, ranks, rules, **query), (team, ranks, query)
        if out["found"]:
            used.update(skill for skill, n in out["uses"].items() if n)
            needed.update(query.get("needs", ()))
    assert used == set(SKILLS)
    assert needed == set(SKILLS)


# --- The castellers bound (`tower_search._most_levels`) -------------------------------------------

#: The bound as the plain-Python build of the search computes it (the compiled build's is a C
#: function, the same source).
_most_levels = solver._plain_search()._most_levels

# Few castellers under high ranks: the teams where castellers, not widths, bound the levels, so
# the solver's castellers bound (its prefilter, and in the search for a scarce team) is what
# prunes.
scarce_teams = st.lists(st.integers(1, 10), min_size=1, max_size=11)
high_ranks = st.fixed_dictionaries(
    {
        "balance": st.integers(0, 3),
        "base": st.integers(0, 2),
        "mix": st.integers(0, 3),
        "strength": st.integers(0, 3),
        "width": st.integers(1, 3),
    }
)


@settings(max_examples=bf.examples(150), deadline=None)
@given(team=scarce_teams, ranks=ranks_st)
def test_c5_4_c6_2_castellers_bound_the_levels_of_every_tower(team, ranks):
    """C-5.4 / C-6.2 (Balance) / C-6.3a: a legal tower of n castellers has at most
    `_most_levels(n, Balance rank)` levels (widths grow downwards except with a Balance use, and
    each level holds one casteller at least). The search applies it to the levels above a level,
    which are a legal tower of the castellers left, so this is the bound's whole safety."""
    rules = make_rules()
    bound = _most_levels(len(team), ranks["balance"])
    assert bf.tallest(team, ranks, rules) <= bound


@pytest.mark.parametrize("n", [0, 1, 2, 5, 40, 511, 512, 2000, 10**6, 2**40 + 3])
def test_most_levels_holds_for_any_team_size(n):
    """`_most_levels` computes its triangular root (an integer square root from a float one,
    corrected), exactly for teams of any size."""
    for balance in (0, 1, 3):
        m = _most_levels(n, balance)
        # m levels fit in n castellers, m + 1 do not (the smallest stack, see its docstring).
        need = [
            k if k <= balance + 1 else balance + (k - balance) * (k - balance + 1) // 2
            for k in (m, m + 1)
        ]
        assert need[0] <= n < need[1]


@settings(max_examples=bf.examples(200), deadline=None)
@given(team=scarce_teams, ranks=high_ranks, sizes=fest_sizes, min_levels=st.integers(1, 6))
def test_c9_festival_optimum_for_scarce_teams_equals_brute_force(team, ranks, sizes, min_levels):
    """C-9.2 / C-9.3 / C-6.3a for small teams under high ranks (the castellers bound prunes
    their bottoms and levels): the solver's tower is the brute force's."""
    rules = make_rules()
    clear_cache()
    solution = best_festival_tower(team, ranks, rules, sizes, min_levels)
    assert as_pair(solution) == bf.best_tower(team, ranks, rules, sizes, min_levels)


@settings(max_examples=bf.examples(150), deadline=None)
@given(team=scarce_teams, ranks=high_ranks, data=st.data())
def test_c8_shapes_and_exhibitions_for_scarce_teams_equal_brute_force(team, ranks, data):
    """C-8.3 / C-8.4 / C-6.3a for small teams under high ranks (exact heights: the castellers
    bound filters the bottom positions)."""
    rules = make_rules()
    clear_cache()
    solution, expected = shape_or_exhibition(data, team, ranks, rules, tallest=6)
    assert as_pair(solution) == expected


@pytest.mark.parametrize(
    ("sizes", "expected_found"),
    [((), True), ((9, 5), True), ((5, 9, 9, 5), True), ([9, 5], True), ((4,), False)],
)
def test_c9_2_festival_sizes_in_any_order_or_repeated_ask_the_same(sizes, expected_found):
    """C-9.2: the festival sizes are a set (the solver keys its memo on them as one bit per
    number): order, repeats and the container do not change the answer; a size the team lacks,
    or that is not a casteller number, means no tower."""
    rules = make_rules()
    team = [9, 9, 8, 7, 6, 5, 5, 3]
    clear_cache()
    got = best_festival_tower(team, ALL3, rules, sizes, 2)
    assert (got is not None) == expected_found
    if got is not None:
        assert as_pair(got) == bf.best_tower(team, ALL3, rules, sorted(set(sizes)), 2)
    assert best_festival_tower(team, ALL3, rules, (11,), 1) is None


def test_searches_in_threads_do_not_share_state():
    """The searchers (`tower_search.Searcher`) are kept per setup and reused (`solver._answer`
    takes one from a pool): searches running at once in threads each get their own, so the
    answers are the ones a single thread gets (C-9.2 / C-9.3 festival queries, one setup for
    all)."""
    import threading

    rules = make_rules()
    rng = random.Random(11)
    queries = [([rng.randint(1, 10) for _ in range(rng.randint(8, 20))], (3, 7)) for _ in range(60)]
    expected = []
    for team, sizes in queries:
        clear_cache()
        expected.append(as_pair(best_festival_tower(team, ALL3, rules, sizes, 3)))
    results: dict[int, list] = {}

    def work(worker: int) -> None:
        got = []
        for team, sizes in queries:
            clear_cache()
            got.append(as_pair(best_festival_tower(team, ALL3, rules, sizes, 3)))
        results[worker] = got

    threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(got == expected for got in results.values())


# --- Pattern tables (`solver._patterns`) -----------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", *sorted(VARIANTS)])
def test_c6_3_pattern_tables_of_small_windows_equal_the_generic_construction(variant):
    """C-5.1, C-6.3 (Mix levels within the spread): the levels of a window of one or two
    numbers are built in order (`_single_patterns`, `_pair_patterns`) instead of enumerated and
    sorted; the tables must equal `_window_patterns`'s for every window, festival bits and
    score weights (the tallest query's (1, 0) and weights that make matches cost)."""
    from castell_game.solver import _patterns, _tables, _window_patterns

    rules = make_rules() if variant == "standard" else VARIANTS[variant]
    tb = _tables(rules)
    windows = 0
    for p in range(len(tb.vals)):
        wcs = [(c0,) for c0 in range(1, 7)]
        if p + 1 < len(tb.vals):
            wcs += [(c0, c1) for c0 in range(1, 7) for c1 in range(7)]
        for wc in wcs:
            for mbits in range(1 << len(wc)):
                for w_level, w_match in ((1, 1), (1, 0), (2, 3), (1, -1), (0, 2)):
                    expected = _window_patterns(tb, p, wc, mbits, w_level, w_match)
                    assert _patterns(tb, p, wc, mbits, w_level, w_match) == expected, (p, wc)
                    windows += 1
    assert windows > 1000
