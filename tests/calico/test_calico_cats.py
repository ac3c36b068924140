"""Cats: groups, shapes in every rotation, and the order in which tokens are earned (K-5).

Rotations here are made independently of the mechanics: a shape is a set of paths of steps
(east, north-east, …) from one hex, a rotation turns every step by 60 degrees, and the paths
are walked with K-1.3's neighbour table.
"""

from __future__ import annotations

import pytest

# K-1.3's neighbours, in its order: NW, NE, W, E, SW, SE (even rows, then odd rows).
EVEN = [(-1, -1), (0, -1), (-1, 0), (1, 0), (-1, 1), (0, 1)]
ODD = [(0, -1), (1, -1), (-1, 0), (1, 0), (0, 1), (1, 1)]
NW, NE, W, E, SW, SE = range(6)
TURN = [E, NE, NW, W, SW, SE]  # anticlockwise: one 60-degree turn is the next entry

#: The shape cats of K-5.2 as paths from one hex (Almond: a row of three, a row of two above).
SHAPES = {
    "Callie": [[], [E], [SE]],
    "Rumi": [[], [E], [E, E]],
    "Tecolote": [[], [E], [E, E], [E, E, E]],
    "Almond": [[], [E], [SW], [SE], [SE, E]],
    "Leo": [[], [E], [E, E], [E, E, E], [E, E, E, E]],
}


def step(col: int, row: int, direction: int) -> tuple[int, int]:
    dc, dr = (ODD if row % 2 else EVEN)[direction]
    return col + dc, row + dr


def turned(direction: int, times: int) -> int:
    return TURN[(TURN.index(direction) + times) % 6]


def place_shape(name: str, anchor: tuple[int, int], rotation: int) -> list[tuple[int, int]]:
    cells = []
    for path in SHAPES[name]:
        col, row = anchor
        for d in path:
            col, row = step(col, row, turned(d, rotation))
        cells.append((col, row))
    return cells


def on_grid(cells) -> bool:
    return all(0 <= c < 7 and 0 <= r < 7 for c, r in cells)


def placements(name: str):
    """Every rotation, each at up to three anchors (both even and odd rows)."""
    for rotation in range(6):
        found = 0
        for row in (2, 3, 1, 4, 0, 5, 6):
            for col in range(7):
                cells = place_shape(name, (col, row), rotation)
                if on_grid(cells) and found < 3:
                    found += 1
                    yield rotation, cells


def indices(table, game, cells) -> list[int]:
    return [table.cell(game, c, r) for c, r in cells]


def test_shapes_in_the_rule_file_are_the_k_5_2_shapes(table):
    """K-5.2."""
    game = table.game()
    rules = game.rules
    for name in SHAPES:
        written = [tuple(c) for c in rules.named("cat")[name].shape]
        ours = place_shape(name, written[0], 0)
        assert sorted(ours) == sorted(written), name


@pytest.mark.parametrize("name", list(SHAPES))
def test_k_5_2_k_5_3_a_shape_cat_is_found_in_every_rotation(table, name):
    """K-5.2, K-5.3."""
    game = table.game()
    logic = game.logic
    cat = logic.cat_index[name]
    rotations_seen = set()
    for rotation, cells in placements(name):
        assert logic.cat_condition(cat, indices(table, game, cells)), (rotation, cells)
        rotations_seen.add(rotation)
    assert rotations_seen == set(range(6))


@pytest.mark.parametrize("name", list(SHAPES))
def test_k_5_3_a_shape_with_one_extra_patch_attached_is_refused(table, name):
    """K-5.3."""
    game = table.game()
    logic = game.logic
    cat = logic.cat_index[name]
    for _rotation, cells in placements(name):
        extras = {step(c, r, d) for c, r in cells for d in range(6) if step(c, r, d) not in cells}
        for extra in sorted(e for e in extras if on_grid([e]))[:4]:
            assert not logic.cat_condition(cat, indices(table, game, [*cells, extra]))


@pytest.mark.parametrize("name", list(SHAPES))
def test_k_5_3_the_contains_option_accepts_a_larger_group(table, name, tmp_path):
    """K-5.3."""
    from castell_dsl import load_rules, new_game

    path = tmp_path / "contains.castell"
    path.write_text('extends "calico"\noverride cat_rules { shape_match contains }\n')
    game = new_game(load_rules(path), 1, 0)
    logic = game.logic
    cat = logic.cat_index[name]
    for _rotation, cells in placements(name):
        extra = next(
            step(c, r, d)
            for c, r in cells
            for d in range(6)
            if step(c, r, d) not in cells and on_grid([step(c, r, d)])
        )
        assert logic.cat_condition(cat, indices(table, game, [*cells, extra]))
        assert not logic.cat_condition(cat, indices(table, game, cells[:-1]))


def test_k_5_3_a_placed_shape_attracts_its_cat_when_it_is_complete(table):
    """K-5.3."""
    game = table.game()
    table.clear(game)
    table.assign(game, Rumi=["dots", "ferns"], Millie=["vines", "stripes"],
                 Tibbit=["flowers", "quatrefoil"])  # fmt: skip
    table.put(game, 0, "pink/dots", 1, 3)
    table.put(game, 0, "green/dots", 2, 3)
    assert table.tokens(game) == []
    table.put(game, 0, "yellow/ferns", 3, 4)  # a ferns patch is another group
    assert table.tokens(game) == []
    table.put(game, 0, "purple/dots", 3, 3)
    assert table.tokens(game) == ["Rumi"]


def test_k_5_1_k_5_2_a_group_cat_needs_enough_patches_of_one_of_its_patterns(table):
    """K-5.1, K-5.2."""
    game = table.game()
    table.clear(game)
    table.assign(game, Tibbit=["dots", "ferns"], Millie=["vines", "stripes"],
                 Coconut=["flowers", "quatrefoil"])  # fmt: skip
    table.put(game, 0, "pink/dots", 1, 1)
    table.put(game, 0, "pink/ferns", 2, 1)  # Tibbit's other pattern: not the same group
    table.put(game, 0, "green/dots", 1, 2)
    table.put(game, 0, "green/dots", 2, 2)
    assert table.tokens(game) == []
    table.put(game, 0, "yellow/dots", 1, 3)
    assert table.tokens(game) == ["Tibbit"]


def test_k_5_4_a_group_growing_past_its_threshold_earns_once(table):
    """K-5.4."""
    game = table.game()
    table.clear(game)
    table.assign(game, Millie=["dots", "ferns"], Tibbit=["vines", "stripes"],
                 Coconut=["flowers", "quatrefoil"])  # fmt: skip
    for col in range(1, 6):
        table.put(game, 0, "pink/dots" if col % 2 else "green/dots", col, 1)
    assert table.tokens(game) == ["Millie"]
    assert game.scores()[0]["categories"]["cats"] == 3


def test_k_5_4_joining_a_group_that_attracted_a_cat_earns_nothing(table):
    """K-5.4."""
    game = table.game()
    table.clear(game)
    table.assign(game, Millie=["dots", "ferns"], Tibbit=["vines", "stripes"],
                 Coconut=["flowers", "quatrefoil"])  # fmt: skip
    for col in (1, 2, 3):
        table.put(game, 0, "pink/dots", col, 1)
    table.put(game, 0, "pink/dots", 5, 1)
    table.put(game, 0, "pink/dots", 5, 2)
    table.put(game, 0, "pink/dots", 4, 1)  # joins 2 tokenless patches to the token group
    assert table.tokens(game) == ["Millie"]


def test_k_5_4_two_small_groups_merged_into_a_large_one_earn_then(table):
    """K-5.4."""
    game = table.game()
    table.clear(game)
    table.assign(game, Coconut=["dots", "ferns"], Tibbit=["vines", "stripes"],
                 Millie=["flowers", "quatrefoil"])  # fmt: skip
    for col in (1, 2, 4, 5):
        table.put(game, 0, "pink/dots", col, 1)
    assert table.tokens(game) == []
    table.put(game, 0, "pink/dots", 3, 1)
    assert table.tokens(game) == ["Coconut"]


def test_k_5_4_the_same_cat_twice_needs_two_groups_that_do_not_touch(table):
    """K-5.4."""
    game = table.game()
    table.clear(game)
    table.assign(game, Millie=["dots", "ferns"], Tibbit=["vines", "stripes"],
                 Coconut=["flowers", "quatrefoil"])  # fmt: skip
    for col in (1, 2, 3):
        table.put(game, 0, "pink/dots", col, 1)
    for col in (1, 2, 3):
        table.put(game, 0, "green/dots", col, 5)
    assert table.tokens(game) == ["Millie", "Millie"]


def test_k_5_4_touching_groups_of_the_cats_two_patterns_each_attract_it(table):
    """K-5.4."""
    game = table.game()
    table.clear(game)
    table.assign(game, Millie=["dots", "ferns"], Tibbit=["vines", "stripes"],
                 Coconut=["flowers", "quatrefoil"])  # fmt: skip
    for col in (1, 2, 3):
        table.put(game, 0, "pink/dots", col, 1)
    for col in (0, 1, 2):
        table.put(game, 0, "pink/ferns", col, 2)  # touches the dots group below it
    assert table.tokens(game) == ["Millie", "Millie"]  # [public errata, default]


def test_k_5_4_the_literal_reading_refuses_a_group_touching_the_first(table, tmp_path):
    """K-5.4."""
    from castell_dsl import load_rules, new_game

    path = tmp_path / "literal.castell"
    path.write_text(
        'extends "calico"\n'
        "override cat_rules { patterns_may_touch false }\n"
        "override setup { cats [Millie, Tibbit, Coconut]  goals [all_different, aa_bb_cc, "
        "aaa_bbb]  goal_placement in_order }\n"
    )
    game = new_game(load_rules(path), 1, 0)
    table.clear(game)
    table.assign(game, Millie=["dots", "ferns"], Tibbit=["vines", "stripes"],
                 Coconut=["flowers", "quatrefoil"])  # fmt: skip
    for col in (1, 2, 3):
        table.put(game, 0, "pink/dots", col, 1)
    for col in (0, 1, 2):
        table.put(game, 0, "pink/ferns", col, 2)
    assert table.tokens(game) == ["Millie"]
    for col in (1, 2, 3):  # far away, the other pattern still attracts Millie
        table.put(game, 0, "pink/ferns", col, 5)
    assert table.tokens(game) == ["Millie", "Millie"]


def test_k_5_5_tokens_never_run_out_and_score_their_cats_points(table):
    """K-5.5."""
    game = table.game()
    table.clear(game)
    table.assign(game, Millie=["dots", "ferns"], Tibbit=["vines", "stripes"],
                 Coconut=["flowers", "quatrefoil"])  # fmt: skip
    for row in (1, 3, 5):
        for col in (1, 2, 3):
            table.put(game, 0, f"{'pink' if col != 2 else 'green'}/dots", col, row)
    table.put(game, 0, "yellow/ferns", 5, 1)
    table.put(game, 0, "yellow/ferns", 5, 2)
    table.put(game, 0, "purple/ferns", 5, 3)
    assert table.tokens(game).count("Millie") == 4
    assert game.scores()[0]["categories"]["cats"] == 12
