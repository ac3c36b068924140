"""The game of Castell on the engine, rule by rule (C-1 … C-10).

Each test names the rule it covers. Subtle situations are built by hand: a game is created
with a seed, then its state is arranged (teams, pawns, towers, calendar) before the action or
step under test runs.
"""

from __future__ import annotations

import pytest
from castell_game.tables import tower_rules

from castell_dsl import load_rules, new_game
from castell_dsl.contract import ActionError


def g(game):
    return game.state["g"]


def region(game, name: str) -> int:
    return game.logic.region_index[name]


def set_team(game, player: int, numbers: list[int]) -> None:
    counts = [0] * len(game.logic.sizes)
    for n in numbers:
        counts[n - game.logic.low] += 1
    g(game)["teams"][player] = counts


def set_region(game, name: str, numbers: list[int]) -> None:
    counts = [0] * len(game.logic.sizes)
    for n in numbers:
        counts[n - game.logic.low] += 1
    g(game)["regions"][region(game, name)] = counts


def set_ranks(game, player: int, **ranks: int) -> None:
    g(game)["ranks"][player] = [ranks.get(s, 0) for s in game.logic.skills]


def team_of(game, player: int) -> list[int]:
    return game.logic._team_list(g(game), player)


def fresh(players: int = 4, seed: int = 7):
    """A game right after setup: round 1, the first player's turn."""
    game = new_game("castell", players=players, seed=seed)
    game.invalidate()
    return game


def rejection(game, text: str) -> str:
    reason = game.explain(text)
    assert reason is not None, f"{text} should be refused"
    return reason.code


def festival_game(players: int = 4):
    """A game whose festival can be run by hand in Barcelona with sizes 6 and 2."""
    game = fresh(players)
    fest = next(i for i, f in enumerate(game.logic.festivals) if f.region == "Barcelona")
    return game, fest


# ---- C-1 ------------------------------------------------------------------------------------


def test_c1_1_two_to_four_players():
    """C-1.1."""
    for n in (2, 3, 4):
        assert fresh(n).players == n
    for n in (1, 5):
        with pytest.raises(ValueError, match="for 2 to 4 players"):
            new_game("castell", players=n)


def test_c1_2_the_game_lasts_ten_rounds():
    """C-1.2."""
    from castell_dsl.runtime.simulation import play_game

    game = play_game(load_rules("castell"), 3, 11, ["random"] * 3, record_events=True)
    assert game.is_over()
    rounds = [e["round"] for e in game.events if e["type"] == "round"]
    assert rounds == list(range(1, 11))
    assert game.result()["rounds"] == 10


def test_c1_3_tie_on_total_broken_by_best_tower_then_shared():
    """C-1.3."""
    game = fresh(3)
    state = g(game)
    # Seat 0: best tower 9. Seat 1: best tower 4 + a trophy (5) = 9. Seat 2: best tower 9.
    state["best"] = [9, 4, 9]
    state["prizes"] = [[], [game.logic.prize_names.index("trophy")], []]
    result = game.result()
    totals = [p["total"] for p in result["players"]]
    assert totals == [9, 9, 9]
    assert result["leaders"] == [0, 2]  # best tower 9 beats 4; 0 and 2 still tied: shared


def test_c1_3_and_c10_7_most_points_wins():
    """C-1.3, C-10.7."""
    game = fresh(2)
    g(game)["best"] = [5, 8]
    assert game.result()["leaders"] == [1]


# ---- C-2, C-3 setup -------------------------------------------------------------------------


def test_c2_components_counts():
    rules = load_rules("castell")
    data = rules.to_json()
    assert sum(data["bag"].values()) == 150
    assert len(data["size_tokens"]) == 30
    assert len(data["festivals"]) == 14 and len(data["local_performances"]) == 32
    assert len(data["wheel"]["tiles"]) == 8 and len(data["regions"]) == 7


@pytest.mark.parametrize("players, per_region", [(2, 3), (3, 4), (4, 5)])
def test_c3_1_regions_receive_castellers_by_player_count(players, per_region):
    """C-3.1."""
    game = fresh(players)
    assert [sum(r) for r in g(game)["regions"]] == [per_region] * 7
    in_play = sum(sum(r) for r in g(game)["regions"]) + sum(sum(t) for t in g(game)["teams"])
    assert sum(g(game)["bag"]) + in_play == 150


def test_c3_2_wheel_tiles_placed_at_random_all_regions_side_up():
    """C-3.2."""
    wheels = {tuple(g(fresh(seed=s))["wheel"]) for s in range(8)}
    assert len(wheels) > 1
    for wheel in wheels:
        assert sorted(wheel) == list(range(8))
    game = fresh()
    assert g(game)["wheel_turns"] == 0
    assert game.view()["table"]["shared_sectors"] == ["all_regions"]


@pytest.mark.parametrize("players, spaces", [(2, 8), (3, 12), (4, 12)])
def test_c3_3_festival_calendar_by_player_count(players, spaces):
    """C-3.3."""
    game = fresh(players)
    calendar = g(game)["calendar"]
    assert len(calendar) == spaces
    for rnd, festival, numbers in calendar:
        back = game.logic.festivals[festival].back
        assert back == ("I" if rnd <= 6 else "II")
        assert len(numbers) == (1 if back == "I" else 2)
    assert len({f for _, f, _ in calendar}) == spaces  # each tile dealt once


def test_c3_4_two_local_performances_per_region_the_rest_boxed():
    """C-3.4."""
    game = fresh()
    rows = g(game)["lp"]
    assert [len(r) for r in rows] == [2] * 7
    assert len({t for r in rows for t in r}) == 14


def test_c3_5_each_player_starts_with_seven_castellers_and_tokens():
    """C-3.5."""
    game = fresh()
    for p in range(4):
        assert sum(g(game)["teams"][p]) == 7
        assert g(game)["tokens"][p] == 7
        assert g(game)["best"][p] == 0
        assert g(game)["ranks"][p] == [0] * 5


def test_c3_6_first_player_drawn_with_the_seed():
    """C-3.6."""
    firsts = {fresh(seed=s).state["first_player"] for s in range(20)}
    assert firsts == {0, 1, 2, 3}
    assert fresh(seed=5).state["first_player"] == fresh(seed=5).state["first_player"]


# ---- C-4 the round and the turn --------------------------------------------------------------


def play_round_of_ends(game) -> None:
    for _ in range(game.players):
        game.apply("end")


def test_c4_0_round_order_refill_wheel_turns_festivals():
    """C-4.0."""
    game = fresh(2, seed=3)
    play_round_of_ends(game)  # round 1 over
    assert game.round == 2 and g(game)["wheel_turns"] == 1  # the wheel turned (C-6.5)
    g(game)["regions"][0] = [0] * 10  # empty Barcelona
    play_round_of_ends(game)
    assert game.round == 3
    assert sum(g(game)["regions"][0]) == 3  # refilled at the start of round 3 (C-7.1)


def test_c4_1_turns_go_clockwise_from_the_first_player():
    """C-4.1."""
    game = fresh(4, seed=9)
    first = game.state["first_player"]
    seen = []
    for _ in range(4):
        seen.append(game.current_player)
        game.apply("end")
    assert seen == [(first + i) % 4 for i in range(4)]
    assert game.current_player == first  # the marker does not pass


def test_c4_2_each_action_at_most_once_in_any_order_and_any_may_be_skipped():
    """C-4.2."""
    game = fresh()
    p = game.current_player
    set_team(game, p, [5, 5, 5, 4, 4, 3])
    game.apply("tower 5,5,5/4,4/3")  # free, before the others
    game.apply("move Girona")
    assert rejection(game, "move Barcelona") == "limit-reached"
    game.apply("tower 5,5/4")  # rebuilt: no limit (C-5.6)
    game.apply("end")  # recruit, train and special skipped
    assert game.current_player != p


def test_c4_3_first_move_anywhere_then_adjacent_only():
    """C-4.3."""
    game = fresh()
    p = game.current_player
    game.apply("move Lleida")  # not adjacent to anything yet: the pawn is placed
    assert g(game)["pawns"][p] == region(game, "Lleida")
    play_round_of_ends_except(game, p)
    assert rejection(game, "move Girona") == "not-adjacent"
    assert game.explain("move Girona").message.startswith("Girona is not adjacent to Lleida")
    game.apply("move Terrassa")


def play_round_of_ends_except(game, player: int) -> None:
    """End turns until it is `player`'s turn again."""
    game.apply("end")
    while game.current_player != player:
        game.apply("end")


def test_c4_4_recruit_up_to_two_from_the_pawns_region():
    """C-4.4."""
    game = fresh()
    p = game.current_player
    assert rejection(game, "recruit 3") == "no-pawn"
    game.apply("move Girona")
    set_region(game, "Girona", [3, 7, 7, 9])
    assert rejection(game, "recruit 3 7 9") == "too-many"
    assert rejection(game, "recruit 3 3") == "not-available"
    before = sum(g(game)["teams"][p])
    game.apply("recruit 7 3")
    assert sum(g(game)["teams"][p]) == before + 2
    assert g(game)["regions"][region(game, "Girona")][7 - 1] == 1


def test_c4_5_train_from_the_regions_slot_or_the_all_regions_slot(arrange_wheel):
    """C-4.5."""
    game = fresh()
    p = game.current_player
    arrange_wheel(game, {"Girona": "mix", "all_regions": "balance", "Lleida": "width"})
    game.apply("move Girona")
    assert sorted(a.text for a in game.legal_actions() if a.kind == "train") == [
        "train balance",
        "train mix",
    ]
    assert rejection(game, "train width") == "not-on-wheel"
    game.apply("train mix")
    assert g(game)["ranks"][p][game.logic.skill_index["mix"]] == 1


def test_c4_6_a_trained_special_tile_gives_a_free_special_action(arrange_wheel):
    """C-4.6."""
    game = fresh()
    p = game.current_player
    arrange_wheel(game, {"Girona": "special"})
    game.apply("move Girona")
    tokens = g(game)["tokens"][p]
    game.apply("train special")
    assert game.view()["pending_grant"] == "special"
    assert rejection(game, "end") == "granted-action-pending"
    assert {a.kind for a in game.legal_actions()} == {"special"}
    game.apply("special move Lleida")
    assert g(game)["tokens"][p] == tokens  # no token spent (C-4.9)
    assert sum(g(game)["lp_tokens"]) == 0  # and none placed
    # The special action of the turn is still available, with a token.
    game.apply("special move Valls")
    assert g(game)["tokens"][p] == tokens - 1


def test_c4_7_special_recruit_move_anywhere_or_perform_spends_a_token():
    """C-4.7."""
    game = fresh()
    p = game.current_player
    game.apply("move Girona")
    set_region(game, "Girona", [4, 8])
    assert rejection(game, "special recruit 4 8") == "too-many"
    game.apply("special recruit 8")
    assert g(game)["tokens"][p] == 6
    assert team_of(game, p).count(8) >= 1
    play_round_of_ends_except(game, p)
    game.apply("special move Lleida")  # not adjacent to Girona: a special move goes anywhere
    assert g(game)["pawns"][p] == region(game, "Lleida")


def test_c4_8_the_spent_token_goes_to_the_destination_region():
    """C-4.8."""
    game = fresh()
    game.apply("move Girona")
    game.apply("special move Tarragona")
    assert g(game)["lp_tokens"][region(game, "Tarragona")] == 1
    assert g(game)["lp_tokens"][region(game, "Girona")] == 0


def test_c4_9_no_token_no_special_action():
    """C-4.9."""
    game = fresh()
    p = game.current_player
    game.apply("move Girona")
    g(game)["tokens"][p] = 0
    game.invalidate()
    assert rejection(game, "special move Lleida") == "no-token"
    assert not [a for a in game.legal_actions() if a.kind == "special"]


# ---- C-5, C-6 towers in the game ------------------------------------------------------------


def test_c5_1_to_c5_4_the_engine_refuses_illegal_towers_with_the_reason():
    """C-5.4, C-5.3."""
    game = fresh()
    p = game.current_player
    set_team(game, p, [6, 6, 5, 5, 5, 4, 4, 3])
    assert rejection(game, "tower 6,5/4") == "illegal-tower"  # C-5.1 one size per level
    assert rejection(game, "tower 5,5/6") == "illegal-tower"  # C-5.2 smaller above
    assert rejection(game, "tower 4,4/5,5,5") == "illegal-tower"  # C-5.4 fewer above
    assert rejection(game, "tower 7/6") == "not-in-team"
    reason = game.explain("tower 5,5,5/4,4,4/3")
    assert reason.code in ("not-in-team", "illegal-tower")
    set_team(game, p, [5, 5, 5, 5, 4, 4, 3])
    assert "width limit of 3" in game.explain("tower 5,5,5,5/4,4/3").message  # C-5.3


def test_c5_5_and_c6_1_skills_relax_by_rank_from_zero_to_the_highest(arrange_wheel):
    """C-5.5, C-6.1."""
    game = fresh()
    p = game.current_player
    set_team(game, p, [5, 5, 5, 4, 4, 4, 3])
    assert rejection(game, "tower 5,5,5/4,4,4/3") == "illegal-tower"
    set_ranks(game, p, balance=1)
    assert game.explain("tower 5,5,5/4,4,4/3") is None
    set_ranks(game, p, balance=3)
    arrange_wheel(game, {"all_regions": "balance"})
    game.apply("move Girona")
    assert rejection(game, "train balance") == "max-rank"


def test_c5_6_rebuild_freely_and_the_tower_is_what_the_festival_scores():
    """C-5.6."""
    game = fresh()
    p = game.current_player
    set_team(game, p, [6, 6, 6, 5, 5, 4, 3, 2])
    game.apply("tower 6,6,6/5,5/4")
    game.apply("tower 6,6/5")
    assert g(game)["towers"][p] == [[6, 6], [5]]
    assert sum(g(game)["teams"][p]) == 8  # building uses nobody up


def test_c6_5_the_wheel_turns_one_slot_each_round_from_round_two():
    """C-6.5."""
    game = fresh(2)
    logic = game.logic
    before = logic.wheel_view(g(game))
    play_round_of_ends(game)
    after = logic.wheel_view(g(game))
    sectors = logic.sectors
    for i, sector in enumerate(sectors):
        assert after[sector] == before[sectors[(i + 1) % len(sectors)]]


# ---- C-7 refills --------------------------------------------------------------------------


def test_c7_1_refill_in_a_fixed_order_when_the_bag_is_short():
    """C-7.1."""
    game = fresh(2)
    state = g(game)
    state["regions"] = [[0] * 10 for _ in range(7)]
    state["bag"] = [0] * 10
    state["bag"][4] = 5  # five castellers of size 5 left
    game.logic.refill(game)
    # Refill order Barcelona, Girona, Lleida, …: Barcelona gets 3, Girona 2, the rest none.
    assert [sum(r) for r in state["regions"]] == [3, 2, 0, 0, 0, 0, 0]
    assert sum(state["bag"]) == 0


# ---- C-8 local performances ----------------------------------------------------------------


def put_tile(game, region_name: str, tile_name: str) -> int:
    tile = game.logic.tile_names.index(tile_name)
    for row in g(game)["lp"]:
        if tile in row:
            row.remove(tile)
    g(game)["lp"][region(game, region_name)] = [tile]
    return tile


def test_c8_1_c8_3_c8_5_perform_a_shape_take_the_tile_and_the_tokens():
    """C-8.1, C-8.3, C-8.5."""
    game = fresh()
    p = game.current_player
    tile = put_tile(game, "Girona", "LP01")  # shape 3-2-1
    g(game)["lp_tokens"][region(game, "Girona")] = 2  # others' tokens lying there
    set_team(game, p, [5, 5, 5, 4, 4, 3])
    game.apply("move Girona")
    assert "special perform LP01 tower 5,5,5/4,4/3" in [a.text for a in game.legal_actions()]
    game.apply("special perform LP01 tower 5,5,5/4,4/3")
    assert g(game)["performed"][p] == [[tile, region(game, "Girona")]]
    assert g(game)["collected"][p][region(game, "Girona")] == 2
    assert g(game)["lp_tokens"][region(game, "Girona")] == 1  # C-4.8: own token stays
    assert tile not in g(game)["lp"][region(game, "Girona")]


def test_c8_2_c8_4_an_exhibition_needing_two_skills_in_exactly_its_levels():
    """C-8.2, C-8.4."""
    game = fresh()
    p = game.current_player
    put_tile(game, "Girona", "LP22")  # balance + mix, 5 levels
    set_team(game, p, [8, 8, 7, 7, 6, 6, 5, 4, 4, 3, 2])
    set_ranks(game, p, balance=2, mix=2)
    game.apply("move Girona")
    assert rejection(game, "special perform LP22 tower 8,8/7/6/5/4") == "illegal-tower"
    # Legal, but four levels and no Mix: does not complete the tile.
    assert rejection(game, "special perform LP22 tower 8,8/7/6/5") == "does-not-complete"
    game.apply("special perform LP22 tower 8,8,7/6,6/5/4/3")  # 5 levels, Mix 1 + Balance 2
    assert len(g(game)["performed"][p]) == 1


def test_c8_6_performing_needs_the_pawn_in_the_tiles_region_and_a_tile_is_taken_once():
    """C-8.6."""
    game = fresh()
    p = game.current_player
    put_tile(game, "Girona", "LP01")
    set_team(game, p, [5, 5, 5, 4, 4, 3])
    game.apply("move Lleida")
    assert rejection(game, "special perform LP01 tower 5,5,5/4,4/3") == "tile-not-here"
    play_round_of_ends_except(game, p)
    game.apply("special move Girona")
    play_round_of_ends_except(game, p)
    game.apply("special perform LP01 tower 5,5,5/4,4/3")
    play_round_of_ends_except(game, p)
    assert rejection(game, "special perform LP01 tower 5,5,5/4,4/3") == "tile-not-here"


# ---- C-9 festivals -------------------------------------------------------------------------


def compete(game, player, where: str | None, tower):
    g(game)["pawns"][player] = -1 if where is None else region(game, where)
    g(game)["towers"][player] = tower


def test_c9_1_festivals_only_at_the_end_of_rounds_three_to_ten():
    """C-9.1."""
    from castell_dsl.runtime.simulation import play_game

    game = play_game(load_rules("castell"), 4, 2, ["random"] * 4, record_events=True)
    rounds = [e["round"] for e in game.events if e["type"] == "festival"]
    assert rounds and min(rounds) == 3 and max(rounds) == 10
    assert sorted(set(rounds)) == list(range(3, 11))


def test_c9_2_requirements_region_sizes_and_four_levels():
    """C-9.2."""
    game, fest = festival_game()
    tall = [[6, 6, 6], [5, 5, 5], [4, 4], [2]]
    compete(game, 0, "Barcelona", tall)  # competes
    compete(game, 1, "Girona", tall)  # wrong region
    compete(game, 2, "Barcelona", [[6, 6, 6], [5, 5], [4]])  # three levels, no 2
    compete(game, 3, None, tall)  # a pawn that never moved
    game.logic.run_festival(game, 0, fest, [6, 2])
    assert g(game)["best"] == [8, 0, 0, 0]  # 4 levels + three 6s + one 2 (C-9.3)


def test_c9_3_best_tower_score_only_rises():
    """C-9.3."""
    game, fest = festival_game()
    g(game)["best"][0] = 12
    compete(game, 0, "Barcelona", [[6, 6, 6], [5, 5, 5], [4, 4], [2]])
    game.logic.run_festival(game, 0, fest, [6, 2])
    assert g(game)["best"][0] == 12


def test_c9_4_prizes_two_winners_tied_share_first_and_the_next_place_is_skipped():
    """C-9.4."""
    game, fest = festival_game()
    high = [[6, 6, 6], [5, 5, 5], [4, 4], [2]]  # score 4 + 3 + 1 = 8
    low = [[6, 6], [5], [4], [2]]  # score 4 + 2 + 1 = 7
    compete(game, 0, "Barcelona", high)
    compete(game, 1, "Barcelona", high)
    compete(game, 2, "Barcelona", low)
    compete(game, 3, "Girona", high)  # not competing: nothing
    game.logic.run_festival(game, 0, fest, [6, 2])
    names = game.logic.prize_names
    prizes = [[names[i] for i in p] for p in g(game)["prizes"]]
    assert prizes == [["trophy"], ["trophy"], ["ribbon"], []]  # places 1, 1, 3


def test_c9_5_size_token_tie_broken_by_tower_score():
    """C-9.5."""
    game, fest = festival_game()
    compete(game, 0, "Barcelona", [[6, 6, 6], [5, 5], [4], [3], [2]])  # three 6s, score 8
    compete(game, 1, "Barcelona", [[6, 6, 6], [5, 5], [4], [2]])  # three 6s, score 7
    game.logic.run_festival(game, 0, fest, [6])
    assert g(game)["size_tokens"][0] == [[6, region(game, "Barcelona")]]
    assert g(game)["size_tokens"][1] == []


def test_c9_5_size_token_still_tied_nobody_takes_it():
    """C-9.5."""
    game, fest = festival_game()
    same = [[6, 6, 6], [5, 5, 5], [4, 4], [2]]
    compete(game, 0, "Barcelona", same)
    compete(game, 1, "Barcelona", [[6, 6, 6], [5, 5, 5], [3, 3], [2]])
    game.logic.run_festival(game, 0, fest, [6])
    assert g(game)["size_tokens"][:2] == [[], []]


def test_c9_5_the_most_matching_castellers_claims_the_token():
    """C-9.5."""
    game, fest = festival_game()
    compete(game, 0, "Barcelona", [[7, 7, 7], [6, 6], [5], [2]])  # one 2
    compete(game, 1, "Barcelona", [[6, 6], [5], [2, 2], [1]])  # two 2s
    game.logic.run_festival(game, 0, fest, [2])
    assert g(game)["size_tokens"][1] == [[2, region(game, "Barcelona")]]


# ---- C-10 end of game scoring --------------------------------------------------------------


def test_c10_scoring_categories_on_a_hand_built_end_state():
    """C-10.1 five categories; C-10.2 best tower; C-10.3 region variety counting all three
    kinds of items; C-10.4 prizes; C-10.5 size tokens; C-10.6 local performances."""
    game = fresh(2)
    logic = game.logic
    state = g(game)
    b, gi, ll, ta = (region(game, n) for n in ("Barcelona", "Girona", "Lleida", "Tarragona"))
    state["best"][0] = 11
    state["size_tokens"][0] = [[5, b], [5, gi], [7, gi]]  # 2 + 1 + 2 = 5 (C-10.5)
    state["collected"][0][ll] = 2  # collected tokens: an item in Lleida
    lp07 = logic.tile_names.index("LP07")
    state["performed"][0] = [[lp07, ta]]  # a tile from Tarragona's row
    names = logic.prize_names
    state["prizes"][0] = [names.index("trophy"), names.index("medal"), names.index("ribbon")]
    scores = game.result()["players"][0]
    assert scores["categories"] == {
        "best_tower": 11,
        "region_variety": 5,  # Barcelona, Girona, Lleida, Tarragona: 4 regions → 5
        "prizes": 9,
        "size_tokens": 5,
        "local_performances": 7 + 2,
    }
    assert scores["total"] == 11 + 5 + 9 + 5 + 9


def test_c10_3_region_variety_table():
    """C-10.3."""
    rules = load_rules("castell")
    assert dict(rules.get("table", "region_variety").entries) == {
        1: 0, 2: 1, 3: 3, 4: 5, 5: 7, 6: 10, 7: 14,
    }  # fmt: skip


# ---- notation, explain and illegal actions --------------------------------------------------


def test_actions_have_one_canonical_text_form():
    game = fresh()
    assert game.parse("MOVE girona").text == "move Girona"
    assert game.parse("recruit 7 3").text == "recruit 3 7"
    assert game.parse("tower 5,6,6/4").text == "tower 6,6,5/4"
    assert game.parse("special perform lp07 tower 4,8,8,8/7,7,7/6,6/5/4").text == (
        "special perform LP07 tower 8,8,8,4/7,7,7/6,6/5/4"
    )


@pytest.mark.parametrize(
    "text, code",
    [
        ("fly Girona", "unknown-action"),
        ("move Gerona", "bad-syntax"),
        ("recruit x", "bad-syntax"),
        ("tower 5,x/4", "bad-syntax"),
        ("special dance", "bad-syntax"),
        ("end now", "bad-syntax"),
        ("", "empty"),
    ],
)
def test_unreadable_actions_are_explained(text, code):
    assert fresh().explain(text).code == code


def test_an_illegal_action_never_changes_the_state():
    game = fresh()
    before = game.state_hash()
    with pytest.raises(ActionError) as info:
        game.apply("recruit 3")
    assert info.value.code == "no-pawn"
    assert game.state_hash() == before and game.log == []


def test_tower_rules_from_the_rule_file_equal_the_standard_ones(castell_tower_rules):
    assert tower_rules(load_rules("castell")) == castell_tower_rules


def test_c1_3_a_game_in_progress_names_no_winners():
    """C-1.3: the winner is decided when the game ends; before that `result()` says the game
    is in progress, names no winners, and says who leads."""
    game = fresh(2)
    g(game)["best"] = [5, 8]
    result = game.result()
    assert result["over"] is False and result["winners"] == [] and result["leaders"] == [1]
