"""Design goals, met by colour, by pattern, both ways and neither (K-4).

Each quilt is built by hand around the goal space at (3,2): the six neighbours get colours and
patterns falling into the goal's counts (or into one kind, which meets no goal).
"""

from __future__ import annotations

import pytest

#: K-4.2's table: counts, one way, both ways.
GOALS = {
    "all_different": ([1, 1, 1, 1, 1, 1], 10, 15),
    "aa_bb_cc": ([2, 2, 2], 7, 11),
    "aaa_bbb": ([3, 3], 8, 13),
    "aaa_bb_c": ([3, 2, 1], 7, 11),
    "aaaa_bb": ([4, 2], 8, 14),
    "aa_bb_c_d": ([2, 2, 1, 1], 5, 8),
}
COLOURS = ["dark_blue", "light_blue", "green", "yellow", "pink", "purple"]
PATTERNS = ["dots", "ferns", "flowers", "quatrefoil", "stripes", "vines"]
AROUND_3_2 = [(2, 1), (3, 1), (2, 2), (4, 2), (2, 3), (3, 3)]


def kinds_for(counts: list[int], names: list[str], shift: int = 0) -> list[str]:
    """Six names falling into `counts` (shifted so colours and patterns differ in order)."""
    out = []
    for i, n in enumerate(counts):
        out.extend([names[(i + shift) % len(names)]] * n)
    return out


def score_goal(table, goal: str, colours: list[str], patterns: list[str]):
    game = table.game()
    table.clear(game)
    g = table.g(game)
    logic = game.logic
    g["goals"][0] = [logic.goal_index[goal], logic.goal_index["aa_bb_cc"],
                     logic.goal_index["aaa_bbb"]]  # fmt: skip
    for (col, row), colour, pattern in zip(AROUND_3_2, colours, patterns, strict=True):
        table.set_cell(game, 0, f"{colour}/{pattern}", col, row)
    facts = logic.facts(game, 0)
    return facts, game.scores()[0]["categories"]["goals"]


@pytest.mark.parametrize("goal", list(GOALS))
def test_k_4_1_k_4_2_goal_met_by_colour_only_scores_its_lower_value(table, goal):
    """K-4.1, K-4.2."""
    counts, one, _both = GOALS[goal]
    facts, points = score_goal(table, goal, kinds_for(counts, COLOURS), ["dots"] * 6)
    assert facts["goals_one_way"] == [goal] and facts["goals_both_ways"] == []
    assert points == one


@pytest.mark.parametrize("goal", list(GOALS))
def test_k_4_1_k_4_2_goal_met_by_pattern_only_scores_its_lower_value(table, goal):
    """K-4.1, K-4.2."""
    counts, one, _both = GOALS[goal]
    facts, points = score_goal(table, goal, ["pink"] * 6, kinds_for(counts, PATTERNS, 2))
    assert facts["goals_one_way"] == [goal]
    assert points == one


@pytest.mark.parametrize("goal", list(GOALS))
def test_k_4_1_k_4_2_goal_met_both_ways_scores_its_higher_value(table, goal):
    """K-4.1, K-4.2."""
    counts, _one, both = GOALS[goal]
    colours = kinds_for(counts, COLOURS)
    patterns = kinds_for(counts, PATTERNS, 3)
    facts, points = score_goal(table, goal, colours, patterns)
    assert facts["goals_both_ways"] == [goal] and facts["goals_one_way"] == []
    assert points == both


@pytest.mark.parametrize("goal", list(GOALS))
def test_k_4_1_goal_met_neither_way_scores_nothing(table, goal):
    """K-4.1."""
    # Six of one kind meets no goal [default], by colour or by pattern.
    facts, points = score_goal(table, goal, ["green"] * 6, ["vines"] * 6)
    assert facts["goals_one_way"] == facts["goals_both_ways"] == []
    assert points == 0


def test_k_4_2_counts_are_matched_exactly_not_at_least(table):
    """K-4.2."""
    # 3-3 is not 3-2-1, and 2-2-2 is not 2-2-1-1: a multiset of counts, not a minimum.
    facts, _ = score_goal(table, "aaa_bb_c", kinds_for([3, 3], COLOURS), ["dots"] * 6)
    assert facts["goals_one_way"] == []
    facts, _ = score_goal(table, "aa_bb_c_d", kinds_for([2, 2, 2], COLOURS), ["dots"] * 6)
    assert facts["goals_one_way"] == []


def test_k_4_1_a_goal_with_an_empty_neighbour_is_not_met(table):
    """K-4.1."""
    game = table.game()
    table.clear(game)
    for (col, row), colour in zip(AROUND_3_2[:5], COLOURS, strict=False):
        table.set_cell(game, 0, f"{colour}/dots", col, row)
    assert game.logic.goal_results(table.g(game), 0)[0] == 0


def test_k_4_2_the_order_of_the_six_neighbours_does_not_matter(table):
    """K-4.2."""
    # The same six patches in another order around the goal meet it just the same.
    counts, one, _ = GOALS["aaaa_bb"]
    colours = kinds_for(counts, COLOURS)
    _facts, points = score_goal(table, "aaaa_bb", list(reversed(colours)), ["dots"] * 6)
    assert points == one


# ---- the reading is data: `goal_rules { match exact | merged }` --------------------------------


@pytest.fixture
def merged_game(tmp_path, monkeypatch):
    """A beginner game whose rules read goals `merged` (a variant file of the designer's)."""
    from castell_dsl import load_rules, new_game

    (tmp_path / "merged.castell").write_text(
        'extends "calico"\noverride goal_rules { match merged }\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    return lambda: new_game(load_rules("calico", ("beginner", "./merged.castell")), 1, 0)


def score_with(table, make, goal: str, colours: list[str]) -> list[str]:
    game = make()
    table.clear(game)
    logic = game.logic
    table.g(game)["goals"][0] = [logic.goal_index[goal], logic.goal_index["aa_bb_cc"],
                                 logic.goal_index["aaa_bbb"]]  # fmt: skip
    # Patterns five and one meet none of these goals either way (All different aside, which
    # `merged` meets with any six patches).
    patterns = kinds_for([5, 1], PATTERNS)
    for (col, row), colour, pattern in zip(AROUND_3_2, colours, patterns, strict=True):
        table.set_cell(game, 0, f"{colour}/{pattern}", col, row)
    facts = logic.facts(game, 0)
    return facts["goals_one_way"] + facts["goals_both_ways"]


@pytest.mark.parametrize(
    ("goal", "colours", "met"),
    [
        ("aaa_bbb", ["green"] * 6, True),  # two groups of three, both green
        ("aa_bb_cc", ["green"] * 6, True),
        ("aaaa_bb", ["green"] * 6, True),
        ("all_different", ["green"] * 6, True),  # six groups of one: any quilt
        ("aa_bb_cc", kinds_for([4, 2], COLOURS), True),  # 2 + 2 and 2
        ("aaaa_bb", kinds_for([5, 1], COLOURS), False),  # 4 + 2 cannot make 5 and 1
        ("aaa_bbb", kinds_for([4, 2], COLOURS), False),
    ],
)
def test_k_4_2_goals_read_merged(table, merged_game, goal, colours, met):
    """K-4.2 `goal_rules { match merged }`: a goal's groups may share a colour (pattern). The
    same quilts read `exact` (the default) meet none of these."""
    assert (score_with(table, merged_game, goal, colours) == [goal]) is met
    assert score_with(table, table.game, goal, colours) == []


def _profiles(total: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """Every way to split `total` patches into kinds, largest first."""
    if total == 0:
        return [()]
    top = largest or total
    return [
        (first, *rest)
        for first in range(min(top, total), 0, -1)
        for rest in _profiles(total - first, first)
    ]


def _completions(have: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every profile six neighbours can end with, given the kinds placed so far."""
    out = set()
    missing = 6 - sum(have)

    def grow(counts: list[int], left: int) -> None:
        if left == 0:
            out.add(tuple(sorted((c for c in counts if c), reverse=True)))
            return
        for i in range(len(counts) + 1):  # onto a kind there, or a new one
            grown = [*counts, 0] if i == len(counts) else list(counts)
            grown[i] += 1
            grow(grown, left - 1)

    grow(list(have), missing)
    return out


@pytest.mark.parametrize("match", ["exact", "merged"])
def test_k_4_2_hints_know_exactly_when_a_goal_can_still_be_met(match):
    """The hints' `still_possible` against brute force: for every goal and every set of
    neighbours placed so far, possible exactly when some way of filling the rest meets it."""
    from calico_game import goals

    wanted = {tuple(sorted(counts, reverse=True)) for counts, _, _ in GOALS.values()}
    for want in wanted:
        for placed in range(7):
            for have in _profiles(placed):
                truth = any(goals.meets(p, want, match) for p in _completions(have))
                assert goals.still_possible(have, want, match) is truth, (have, want)
