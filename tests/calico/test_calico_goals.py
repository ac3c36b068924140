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
