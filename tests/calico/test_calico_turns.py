"""Turns, action notation and refusals (K-3)."""

from __future__ import annotations

import pytest

from castell_dsl.contract import ActionError


def rejection(game, text: str) -> str:
    reason = game.explain(text)
    assert reason is not None, f"{text} should be refused"
    return reason.code


def test_k_3_1_turns_go_round_from_the_first_player(table):
    """K-3.1."""
    game = table.game(players=3, seed=4)
    first = game.state["first_player"]
    seen = []
    for _ in range(6):
        seen.append(game.current_player)
        game.apply(game.legal_actions()[0])  # place
        game.apply(game.legal_actions()[0])  # take
    assert seen == [(first + i) % 3 for i in range(6)]


def test_k_3_1_each_turn_is_place_then_take(table):
    """K-3.1."""
    game = table.game(players=2)
    assert {a.kind for a in game.legal_actions()} == {"place"}
    market = table.g(game)["market"]
    take = f"take {game.logic.patch_names[market[0]]}"
    assert rejection(game, take) == "too-early"
    game.apply(game.legal_actions()[0])
    assert {a.kind for a in game.legal_actions()} == {"take"}
    assert rejection(game, game.log[-1]) == "limit-reached"  # one placement per turn


def test_k_3_2_a_patch_goes_from_hand_to_an_empty_hex(table):
    """K-3.2."""
    game = table.game()
    g = table.g(game)
    logic = game.logic
    hand = [logic.patch_names[p] for p in g["hands"][0]]
    cell = g["quilts"][0].index(-1)
    col, row = logic.cell_xy[cell]
    game.apply(f"place {hand[0]} {col},{row}")
    assert g["quilts"][0][cell] == table.patch(game, hand[0])
    assert len(g["hands"][0]) == 1


def test_k_3_2_refusals_have_stable_codes_and_plain_messages(table):
    """K-3.2."""
    game = table.game()
    g = table.g(game)
    logic = game.logic
    hand = logic.patch_names[g["hands"][0][0]]
    assert rejection(game, f"place {hand} 0,0") == "occupied"  # an edge patch
    assert rejection(game, f"place {hand} 3,2") == "goal-space"
    assert rejection(game, f"place {hand} 9,1") == "off-quilt"
    missing = next(n for i, n in enumerate(logic.patch_names) if i not in g["hands"][0])
    empty = logic.cell_text[g["quilts"][0].index(-1)]
    reason = game.explain(f"place {missing} {empty}")
    assert reason.code == "not-in-hand" and "your hand" in reason.message
    assert rejection(game, "place pink/vines") == "bad-syntax"
    assert "did you mean" in game.explain("place pnk/vines 1,1").message
    assert rejection(game, "place pink 1,1") == "bad-syntax"
    assert rejection(game, "place pink/vines a,b") == "bad-syntax"
    with pytest.raises(ActionError) as info:
        game.apply("place pink/vines 3,2")
    assert info.value.code == "goal-space"


def test_k_3_3_take_a_market_patch_and_refill_from_the_bag(table):
    """K-3.3."""
    game = table.game(players=2)
    g = table.g(game)
    game.apply(game.legal_actions()[0])
    player = game.current_player
    bag = sum(g["bag"])
    wanted = g["market"][1]
    absent = next(n for i, n in enumerate(game.logic.patch_names) if i not in g["market"])
    assert rejection(game, f"take {absent}") == "not-in-market"
    game.apply(f"take {game.logic.patch_names[wanted]}")
    assert wanted in g["hands"][player] and len(g["hands"][player]) == 2
    assert len(g["market"]) == 3
    assert sum(g["bag"]) == bag - 1  # one patch drawn to refill; never from the bag directly


def test_k_3_3_duplicate_market_patches_need_no_slot_in_the_normal_game(table):
    """K-3.3."""
    game = table.game()
    g = table.g(game)
    game.apply(game.legal_actions()[0])
    same = table.patch(game, "pink/dots")
    g["market"] = [same, table.patch(game, "green/ferns"), same]
    game.invalidate()
    texts = [a.text for a in game.legal_actions()]
    assert texts == ["take pink/dots", "take green/ferns"]
    game.apply("take pink/dots@3")  # a slot may still be named
    assert g["market"][:2] == [same, table.patch(game, "green/ferns")]


def test_k_3_4_the_game_ends_with_full_quilts_and_no_last_market_step(table):
    """K-3.4."""
    game = table.play_out(table.game(players=2, seed=3))
    g = table.g(game)
    assert game.is_over() and game.round == 22
    for seat in range(2):
        assert -1 not in g["quilts"][seat]
        assert len(g["hands"][seat]) == 1  # the unplayable last patch; it scores nothing
    places = sum(1 for a in game.log if a.startswith("place"))
    takes = sum(1 for a in game.log if a.startswith("take"))
    assert places == 44 and takes == 42  # 22 placements each, 21 takes each


def test_k_3_4_take_when_full_option_keeps_the_last_market_step(table, tmp_path):
    """K-3.4."""
    path = tmp_path / "full.castell"
    path.write_text(
        'extends "calico"\n'
        "override setup { cats [Millie, Tibbit, Coconut]  goals [all_different, aa_bb_cc, "
        "aaa_bbb]  goal_placement in_order }\n"
        "override turn main {\n"
        "  action place { limit 1  required true }\n"
        "  action take { limit 1  required true  after [place]  take_when_full true }\n"
        "}\n"
    )
    from castell_dsl import load_rules, new_game

    game = table.play_out(new_game(load_rules(path), 1, 0))
    assert sum(1 for a in game.log if a.startswith("take")) == 22
    assert len(table.g(game)["hands"][0]) == 2


def test_action_text_round_trips_through_parse(table):
    game = table.game()
    for action in game.legal_actions():
        assert game.parse(action.text) == action
    assert game.parse("place Dark-Blue/Dots 1 1").text == "place dark_blue/dots 1,1"
    assert game.parse("take light-blue/ferns@2").text == "take light_blue/ferns@2"
    assert game.parse("goals aaa_bbb, aa_bb_cc all_different").text == (
        "goals aaa_bbb aa_bb_cc all_different"
    )
    assert rejection(game, "take pink/dots@0") == "bad-syntax"
    assert rejection(game, "goals all_diferent") == "bad-syntax"


def test_k_3_1_listed_actions_are_made_once_and_parsed_text_makes_its_own(table):
    """K-3.1: a listing hands out the same action objects every time (a random playout lists
    every placement after every move), equal to the actions their text parses to; text from
    outside never enters those memos, so strangers' slots cannot grow them."""
    game = table.game(players=2, seed=3)
    places = game.legal_actions()
    game.invalidate()
    again = game.legal_actions()
    assert again == places and all(a is b for a, b in zip(again, places, strict=True))
    assert all(game.parse(a.text) == a for a in places)
    game.apply(places[0])
    takes = game.legal_actions()
    assert {a.kind for a in takes} == {"take"}
    game.invalidate()
    assert all(a is b for a, b in zip(game.legal_actions(), takes, strict=True))
    memo = dict(game.logic.handlers["take"]._takes)
    patch = game.logic.patch_names[table.g(game)["market"][0]]
    far = game.parse(f"take {patch}@999")
    assert far.args[1] == 998 and game.logic.handlers["take"]._takes == memo
