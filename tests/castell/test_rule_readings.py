"""Castell's [default] readings are data in `rules/castell/castell.castell`: each test shows the
standard reading and an alternative value of the same field changing the outcome, on
hand-built states (C-3.2, C-4.3, C-4.7, C-8.4, C-9.4, C-9.5, C-10.3).

The empty patch is the standard game, so the same position is played both ways.
"""

from __future__ import annotations

import pytest


def g(game):
    return game.state["g"]


def region(game, name: str) -> int:
    return game.logic.region_index[name]


def compete(game, player: int, where: str, tower) -> None:
    g(game)["pawns"][player] = region(game, where)
    g(game)["towers"][player] = tower


def barcelona_festival(game) -> int:
    return next(i for i, f in enumerate(game.logic.festivals) if f.region == "Barcelona")


def prizes_won(game) -> list[list[str]]:
    names = game.logic.prize_names
    return [[names[i] for i in won] for won in g(game)["prizes"]]


HIGH = [[6, 6, 6], [5, 5, 5], [4, 4], [2]]  # score 4 + 3 + 1 = 8 at sizes 6, 2
LOW = [[6, 6], [5], [4], [2]]  # score 4 + 2 + 1 = 7


@pytest.mark.parametrize(
    ("ties", "third"),
    [("share_and_skip", ["ribbon"]), ("share_no_skip", ["medal"])],
)
def test_c9_4_prize_ties(castell_patched, ties, third):
    """C-9.4 `prize_ties`: two players tie for first. Sharing and skipping (the default)
    gives places 1, 1, 3; sharing without skipping gives 1, 1, 2."""
    game = castell_patched(f"override festival_rules {{ prize_ties {ties} }}")
    compete(game, 0, "Barcelona", HIGH)
    compete(game, 1, "Barcelona", HIGH)
    compete(game, 2, "Barcelona", LOW)
    game.logic.run_festival(game, 0, barcelona_festival(game), [6, 2])
    assert prizes_won(game) == [["trophy"], ["trophy"], third, []]


@pytest.mark.parametrize(("tie", "winner"), [("higher_tower_score", 0), ("nobody", None)])
def test_c9_5_size_token_tie(castell_patched, tie, winner):
    """C-9.5 `size_token_tie`: two competitors with three 6s each; by default the higher
    tower score takes the token, with `nobody` a tie discards it."""
    game = castell_patched(f"override festival_rules {{ size_token_tie {tie} }}")
    compete(game, 0, "Barcelona", [[6, 6, 6], [5, 5], [4], [3], [2]])  # score 8
    compete(game, 1, "Barcelona", [[6, 6, 6], [5, 5], [4], [2]])  # score 7
    game.logic.run_festival(game, 0, barcelona_festival(game), [6])
    owners = [p for p, tokens in enumerate(g(game)["size_tokens"]) if tokens]
    assert owners == ([] if winner is None else [winner])


@pytest.mark.parametrize(("contenders", "owner"), [("competitors", 1), ("in_region", 0)])
def test_c9_5_size_token_contenders(castell_patched, contenders, owner):
    """C-9.5 `size_token_contenders`: player 0 stands in Barcelona with three 6s in a
    three-level tower, which cannot compete (C-9.2). By default only competitors contest the
    token, so player 1's two 6s take it; with `in_region` player 0 takes it."""
    game = castell_patched(f"override festival_rules {{ size_token_contenders {contenders} }}")
    compete(game, 0, "Barcelona", [[6, 6, 6], [5, 5], [4]])
    compete(game, 1, "Barcelona", [[6, 6], [5], [4], [3]])
    game.logic.run_festival(game, 0, barcelona_festival(game), [6])
    barcelona = region(game, "Barcelona")
    assert g(game)["size_tokens"][owner] == [[6, barcelona]]
    assert g(game)["size_tokens"][1 - owner] == []
    assert g(game)["best"][0] == 0  # contesting a token is not competing


@pytest.mark.parametrize(
    ("counted", "regions"),
    [
        ("[size_tokens, collected_tokens, performances]", ["Barcelona", "Lleida", "Tarragona"]),
        ("[size_tokens]", ["Barcelona"]),
        ("[performances, collected_tokens]", ["Lleida", "Tarragona"]),
    ],
)
def test_c10_3_region_items(castell_patched, counted, regions):
    """C-10.3 `region_items`: by default size tokens, collected special tokens and local
    performance tiles each tie a player to a region; a rule set may count fewer kinds."""
    game = castell_patched(f"override region_items {{ counted {counted} }}")
    state = g(game)
    state["size_tokens"][0] = [[5, region(game, "Barcelona")]]
    state["collected"][0][region(game, "Lleida")] = 1
    tile = game.logic.tile_names.index("LP07")
    state["performed"][0] = [[tile, region(game, "Tarragona")]]
    assert game.logic.facts(game, 0)["regions_with_items"] == regions


def exhibition_game(castell_patched, levels: str):
    """Girona holds LP22 (Balance and Mix, 5 points); the first player stands there with a
    team and ranks that build Balance-and-Mix towers of 5 and of 6 levels."""
    game = castell_patched(f"override performance_rules {{ exhibition_levels {levels} }}")
    logic = game.logic
    p = game.current_player
    tile = logic.tile_names.index("LP22")
    for row in g(game)["lp"]:
        if tile in row:
            row.remove(tile)
    g(game)["lp"][region(game, "Girona")] = [tile]
    team = [0] * len(logic.sizes)
    for n in [8, 8, 7, 7, 6, 6, 5, 4, 4, 3, 2, 1]:
        team[n - logic.low] += 1
    g(game)["teams"][p] = team
    g(game)["ranks"][p] = [3 if s in ("balance", "mix") else 0 for s in logic.skills]
    game.apply("move Girona")
    return game


SIX_LEVELS = "special perform LP22 tower 8,8,7/6,6/5/4/3/2"


def test_c8_4_exhibition_levels_exactly(castell_patched):
    """C-8.4 `exhibition_levels exactly` (the default): a sixth level does not complete a
    five-point exhibition, and the tower offered has exactly five levels."""
    game = exhibition_game(castell_patched, "exactly")
    reason = game.explain(SIX_LEVELS)
    assert reason is not None and reason.code == "does-not-complete"
    assert "exactly 5 levels" in reason.message
    performs = [a.text for a in game.legal_actions() if a.text.startswith("special perform")]
    assert performs == ["special perform LP22 tower 8,8,7/6,6/5/4/3"]


def test_c8_4_exhibition_levels_at_least(castell_patched):
    """C-8.4 `exhibition_levels at_least`: the six-level tower completes the tile too, and a
    five-level tower still does (the lowest one is offered)."""
    game = exhibition_game(castell_patched, "at_least")
    assert game.explain(SIX_LEVELS) is None
    assert game.explain("special perform LP22 tower 8,8,7/6,6/5/4/3") is None
    reason = game.explain("special perform LP22 tower 8,8,7/6,6/5/4")
    assert reason is not None and "at least 5 levels" in reason.message
    p = game.current_player
    game.apply(SIX_LEVELS)
    assert game.logic.facts(game, p)["performances"] == ["LP22"]


@pytest.mark.parametrize("start", [0, 3])
def test_c3_2_wheel_start_position(castell_patched, start):
    """C-3.2 `start_position`: at setup the wheel is turned `start` slots (the default 0:
    the advanced-region mark faces north), so sector i faces tile (i + start) mod 8; the
    wheel turns on from there (C-6.5)."""
    game = castell_patched(f"override wheel {{ start_position {start} }}")
    state = g(game)
    logic = game.logic
    assert state["wheel_turns"] == start
    tiles = [logic.wheel_tiles[state["wheel"][(i + start) % 8]] for i in range(8)]
    assert list(logic.wheel_view(state).values()) == tiles
    logic.steps["turn_wheel"](game)
    assert state["wheel_turns"] == start + 1


@pytest.mark.parametrize("places", [True, False])
def test_c4_7_a_special_move_before_the_pawn_is_placed(castell_patched, places):
    """C-4.3, C-4.7 b `places_pawn`: by default a special move may put a pawn that is not on
    the board yet on any region (and the token goes there, C-4.8); with `false` only the move
    action places it, and the special move is neither offered nor accepted until then."""
    special = "action special { limit 1  recruit_up_to 1  move_to any  places_pawn false }"
    game = castell_patched("" if places else (
        "override turn main {\n  " + special + "\n}"
    ))  # fmt: skip
    player = game.current_player
    assert g(game)["pawns"][player] < 0
    moves = [a.text for a in game.legal_actions() if a.text.startswith("special move")]
    if places:
        assert len(moves) == len(game.logic.regions)
        game.apply("special move Lleida")
        assert g(game)["pawns"][player] == region(game, "Lleida")
        assert g(game)["lp_tokens"][region(game, "Lleida")] == 1
    else:
        assert moves == []
        assert game.explain("special move Lleida").code == "no-pawn"
        game.apply("move Lleida")
        assert "special move Girona" in [a.text for a in game.legal_actions()]
