"""Components, boards and setup (K-1, K-2)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from castell_dsl import load_rules, new_game

RULES = load_rules("calico")


def test_k_1_1_the_box_holds_108_patches_six_colours_by_six_patterns_by_three():
    """K-1.1."""
    assert len(RULES.named("colour")) == 6
    assert len(RULES.named("pattern")) == 6
    assert RULES.one("components")["patches"] == 108
    game = new_game(RULES, 1, 0)
    g = game.state["g"]
    total = Counter()
    for patch, n in enumerate(g["bag"]):
        total[patch] += n
    for patch in g["market"] + g["hands"][0]:
        total[patch] += 1
    assert sum(total.values()) == 108
    assert set(total.values()) == {3}  # three of every colour-pattern pair


def test_k_1_2_boards_match_the_reference_file_and_hold_goal_spaces(table):
    """K-1.2."""
    reference = json.loads(table.boards_file.read_text())
    assert [list(c) for c in RULES.one("quilt").goal_spaces] == reference["goal_spaces"]
    for name, edges in reference["boards"].items():
        board = RULES.named("board")[name]
        mine = {(e.at[0], e.at[1]): (e.colour, e.pattern) for e in board.edge}
        theirs = {
            (e["col"], e["row"]): (e["colour"].replace("-", "_"), e["pattern"]) for e in edges
        }
        assert mine == theirs, name
    assert len(RULES.named("board")) == 4


def test_k_1_2_a_new_quilt_has_24_edge_patches_3_goal_spaces_and_22_empty_hexes(table):
    """K-1.2."""
    game = table.game(players=4)
    for quilt in table.g(game)["quilts"]:
        assert sum(1 for v in quilt if v >= 0) == 24
        assert quilt.count(-2) == 3
        assert quilt.count(-1) == 22
    assert game.plan.rounds == 22


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ((2, 2), [(1, 1), (2, 1), (1, 2), (3, 2), (1, 3), (2, 3)]),  # even row
        ((2, 3), [(2, 2), (3, 2), (1, 3), (3, 3), (2, 4), (3, 4)]),  # odd row
    ],
)
def test_k_1_3_neighbours_follow_the_odd_rows_shifted_right_layout(cell, expected):
    """K-1.3."""
    from calico_game import hexes

    assert hexes.offset_neighbours(*cell) == expected


def test_k_1_3_edge_patches_count_like_any_other_for_groups(table):
    """K-1.3."""
    game = table.game()
    g = table.g(game)
    quilt = g["quilts"][0]
    # Find an edge patch with an empty inner neighbour, and grow its colour from there.
    logic = game.logic
    for cell in sorted(logic.edge_cells):
        inner = [n for n in logic.neighbours[cell] if quilt[n] == -1]
        if len(inner) >= 1:
            break
    colour = logic.colours[logic.colour_of[quilt[cell]]]
    first = inner[0]
    second = next(n for n in logic.neighbours[first] if quilt[n] == -1 and n != cell)
    others = [p for p in logic.patterns]
    table.assign(game, Millie=[], Tibbit=[], Coconut=others)  # keep cats out of the way
    for target, pattern in ((first, others[0]), (second, others[1])):
        col, row = logic.cell_xy[target]
        table.put(game, 0, f"{colour}/{pattern}", col, row)
    assert table.buttons(game) == [colour]  # the edge patch is the third of the group


def test_k_1_4_components_ten_cats_six_goals_four_boards():
    """K-1.4."""
    components = RULES.one("components")
    assert components["cats"] == len(RULES.named("cat")) == 10
    assert components["goals"] == len(RULES.named("goal")) == 6
    assert components["boards"] == len(RULES.named("board")) == 4
    assert components["edge_patches"] == 96
    assert "rainbow" in RULES.named("button")


def test_k_2_1_beginner_setup_fixes_cats_and_goals_in_order(table):
    """K-2.1."""
    game = table.game(players=2, variants=("beginner",))
    g = table.g(game)
    assert [game.logic.cat_names[c] for c in g["cats"]] == ["Millie", "Tibbit", "Coconut"]
    for seat in range(2):
        names = [game.logic.goal_names[i] for i in g["goals"][seat]]
        assert names == ["all_different", "aa_bb_cc", "aaa_bbb"]
    # Nothing to choose: the first action of the game is a placement.
    assert {a.kind for a in game.legal_actions()} == {"place"}


def test_k_2_2_standard_setup_draws_a_cat_per_dot_group_and_reveals_four_goals():
    """K-2.2."""
    for seed in range(20):
        game = new_game(RULES, 3, seed)
        g = game.state["g"]
        assert sorted(game.logic.cat_dots[c] for c in g["cats"]) == [1, 2, 3]
        for seat in range(3):
            assert len(set(g["revealed"][seat])) == 4
            assert g["goals"][seat] == []


def test_k_2_2_players_choose_three_of_four_goals_and_their_spaces():
    """K-2.2."""
    game = new_game(RULES, 2, 5)
    actions = game.legal_actions()
    assert {a.kind for a in actions} == {"goals"}
    assert len(actions) == 24  # 4 x 3 x 2 arrangements
    player = game.current_player
    choice = actions[7]
    game.apply(choice)
    assert game.state["g"]["goals"][player] == list(choice.args)
    assert game.current_player != player  # one choice per player, then the next


def test_k_2_3_every_pattern_belongs_to_exactly_one_cat_two_per_cat():
    """K-2.3."""
    for seed in range(20):
        game = new_game(RULES, 1, seed)
        g = game.state["g"]
        assert sorted(Counter(g["pattern_cat"]).values()) == [2, 2, 2]
        assert set(g["pattern_cat"]) == set(g["cats"])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_k_2_4_hands_of_two_and_a_market_of_three_from_the_bag(players):
    """K-2.4."""
    game = new_game(RULES, players, 11)
    g = game.state["g"]
    assert all(len(hand) == 2 for hand in g["hands"])
    assert len(g["market"]) == 3
    assert sum(g["bag"]) == 108 - 2 * players - 3
    assert len(set(g["boards"])) == players  # each player has a board of their own
