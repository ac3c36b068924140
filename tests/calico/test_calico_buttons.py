"""Buttons, the rainbow button, the end of the game and tie-breaks (K-6, K-7)."""

from __future__ import annotations

COLOURS = ["dark_blue", "light_blue", "green", "yellow", "pink", "purple"]


def fresh(table):
    game = table.game()
    table.clear(game)
    # Cats that need big groups, so buttons are tested alone.
    table.assign(game, Coconut=["dots", "ferns", "flowers", "quatrefoil", "stripes", "vines"])
    return game


def three_in_a_row(table, game, colour: str, row: int, start: int = 0) -> None:
    for i, pattern in enumerate(("dots", "ferns", "flowers")):
        table.put(game, 0, f"{colour}/{pattern}", start + i, row)


def test_k_6_1_a_group_of_three_of_one_colour_earns_a_button(table):
    """K-6.1."""
    game = fresh(table)
    table.put(game, 0, "pink/dots", 1, 1)
    table.put(game, 0, "pink/ferns", 2, 1)
    assert table.buttons(game) == []
    table.put(game, 0, "pink/vines", 1, 2)
    assert table.buttons(game) == ["pink"]
    assert game.scores()[0]["categories"]["buttons"] == 3


def test_k_6_1_growing_a_button_group_earns_nothing_more(table):
    """K-6.1."""
    game = fresh(table)
    for col in range(6):
        table.put(game, 0, f"green/{['dots', 'ferns', 'vines'][col % 3]}", col, 1)
    assert table.buttons(game) == ["green"]


def test_k_6_1_a_separate_group_of_the_same_colour_earns_another(table):
    """K-6.1."""
    game = fresh(table)
    three_in_a_row(table, game, "yellow", 1)
    three_in_a_row(table, game, "yellow", 5)
    assert table.buttons(game) == ["yellow", "yellow"]


def test_k_6_1_joining_two_button_groups_keeps_both_and_earns_none(table):
    """K-6.1."""
    game = fresh(table)
    three_in_a_row(table, game, "purple", 1, start=0)
    three_in_a_row(table, game, "purple", 1, start=4)
    assert table.buttons(game) == ["purple", "purple"]
    table.put(game, 0, "purple/stripes", 3, 1)  # joins them into one group of seven
    assert table.buttons(game) == ["purple", "purple"]
    assert game.scores()[0]["categories"]["buttons"] == 6


def test_k_6_2_one_button_of_each_colour_earns_the_rainbow_button_once(table):
    """K-6.2."""
    game = fresh(table)
    spots = [(0, 0), (4, 0), (0, 2), (4, 2), (0, 5), (4, 5)]
    for colour, (col, row) in zip(COLOURS, spots, strict=True):
        three_in_a_row(table, game, colour, row, start=col)
        if colour != COLOURS[-1]:
            assert "rainbow" not in table.buttons(game)
    assert table.buttons(game).count("rainbow") == 1
    assert game.scores()[0]["categories"]["buttons"] == 7 * 3
    # A second button of every colour: still one rainbow button [default]. (The first
    # buttons are moved to row 6, out of the way, and the same spots filled again.)
    g = table.g(game)
    earned = [c for c in g["buttons"][0] if c >= 0]
    table.clear(game)
    g["rainbows"][0] = [game.logic.button_names.index("rainbow")]
    for col, colour in enumerate(earned):
        g["buttons"][0][table.cell(game, col, 6)] = colour
    for colour, (col, row) in zip(COLOURS, spots, strict=True):
        three_in_a_row(table, game, colour, row, start=col)
    assert table.buttons(game).count("rainbow") == 1
    assert len(table.buttons(game)) == 13


def test_k_7_1_total_is_goals_plus_cats_plus_buttons(table):
    """K-7.1."""
    game = table.play_out(table.game(players=3, variants=(), seed=12))
    for player in game.result()["players"]:
        assert set(player["categories"]) == {"goals", "cats", "buttons"}
        assert player["total"] == sum(player["categories"].values())


def two_player_table(table):
    game = table.game(players=2)
    for seat in (0, 1):
        table.clear(game, seat)
    return game


def give(table, game, seat: int, cats=(), buttons=()):
    """Tokens and buttons straight onto hexes (no goals are met on cleared quilts)."""
    g = table.g(game)
    logic = game.logic
    for i, name in enumerate(cats):
        g["tokens"][seat][10 + i] = logic.cat_index[name]
    for i, colour in enumerate(buttons):
        g["buttons"][seat][30 + i] = logic.colour_index[colour]


def test_k_7_2_a_tie_goes_to_the_most_cat_tokens(table):
    """K-7.2."""
    game = two_player_table(table)
    give(table, game, 0, cats=["Millie"])  # 3 points, 1 token
    give(table, game, 1, buttons=["pink"])  # 3 points, 0 tokens
    result = game.result()
    assert [p["total"] for p in result["players"]] == [3, 3]
    assert result["leaders"] == [0]


def test_k_7_2_then_the_most_buttons_rainbow_included(table):
    """K-7.2."""
    game = two_player_table(table)
    give(table, game, 0, cats=["Millie"], buttons=["pink", "green"])  # 9: 1 token, 2 buttons
    give(table, game, 1, cats=["Cira"])  # 9: 1 token, 0 buttons
    assert game.result()["leaders"] == [0]
    # The rainbow button counts as a button [default].
    table.g(game)["buttons"][0] = [-1] * 49
    give(table, game, 0, cats=["Millie"], buttons=["pink"])
    table.g(game)["rainbows"][0] = [game.logic.button_names.index("rainbow")]
    give(table, game, 1, cats=["Millie"], buttons=["green", "green"])
    result = game.result()
    assert [p["total"] for p in result["players"]] == [9, 9]
    assert result["leaders"] == [0, 1]


def test_k_7_2_still_tied_the_win_is_shared(table):
    """K-7.2."""
    game = two_player_table(table)
    give(table, game, 0, cats=["Tibbit"], buttons=["pink"])
    give(table, game, 1, cats=["Tibbit"], buttons=["green"])
    assert game.result()["leaders"] == [0, 1]


def test_heuristic_adds_progress_towards_buttons_to_the_score(table):
    game = fresh(table)
    logic = game.logic
    assert logic.heuristic(game, 0) == 0.0
    table.put(game, 0, "pink/dots", 1, 1)
    one = logic.heuristic(game, 0)
    table.put(game, 0, "pink/ferns", 2, 1)
    two = logic.heuristic(game, 0)
    assert 0 < one < two < 3  # a growing group is worth more, but less than its button
    table.put(game, 0, "pink/vines", 3, 1)
    assert logic.heuristic(game, 0) >= game.score_of(0) == 3
