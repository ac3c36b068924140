"""Variants and modes: family, low-luck, solo and the ten scenarios (K-8)."""

from __future__ import annotations

import pytest

from castell_dsl import load_rules, new_game
from castell_dsl.language.diagnostics import RuleError

AROUND_3_2 = [(2, 1), (3, 1), (2, 2), (4, 2), (2, 3), (3, 3)]
COLOURS = ["dark_blue", "light_blue", "green", "yellow", "pink", "purple"]


def test_k_8_1_family_goals_are_face_down_and_score_nothing(table):
    """K-8.1."""
    game = table.game(players=2, variants=("family",))
    g = table.g(game)
    assert [game.logic.cat_names[c] for c in g["cats"]] == ["Millie", "Tibbit", "Coconut"]
    assert {a.kind for a in game.legal_actions()} == {"place"}  # beginner setup: no choice
    table.clear(game)
    for (col, row), colour in zip(AROUND_3_2, COLOURS, strict=True):
        table.set_cell(game, 0, f"{colour}/dots", col, row)  # all different by colour
    assert game.logic.goal_results(g, 0)[0] == 1  # met on the board...
    assert game.scores()[0]["categories"]["goals"] == 0  # ...but face down: nothing
    seat = game.view()["table"]["seats"][0]
    assert seat["goals"] == [None, None, None] and seat["goals_face_down"]
    beginner = table.game(players=2, variants=("beginner",))
    table.clear(beginner)
    for (col, row), colour in zip(AROUND_3_2, COLOURS, strict=True):
        table.set_cell(beginner, 0, f"{colour}/dots", col, row)
    assert beginner.scores()[0]["categories"]["goals"] == 10


def test_k_8_2_low_luck_leaves_72_patches_for_two_players(table):
    """K-8.2."""
    game = new_game(load_rules("calico", ("low-luck",)), 2, 3)
    g = table.g(game)
    in_play = sum(g["bag"]) + len(g["market"]) + sum(len(h) for h in g["hands"])
    assert in_play == 72
    assert sum(g["removed"]) == 36 and set(g["removed"]) == {1}  # one full set
    assert table.play_out(game).is_over()


@pytest.mark.parametrize("players", [3, 4])
def test_k_8_2_low_luck_refuses_three_or_four_players_when_the_game_is_created(players):
    """K-8.2: a two-player variant (solo may use it); the refusal names it and its counts."""
    rules = load_rules("calico", ("low-luck",))
    refusal = rf"variant 'low-luck' is for 1 to 2 players, not {players}"
    with pytest.raises(ValueError, match=refusal):
        new_game(rules, players, 3)
    assert new_game(load_rules("calico"), players, 3).state["g"]["removed"] == [0] * 36


def test_k_8_3_solo_is_one_player_only():
    """K-8.3."""
    rules = load_rules("calico", ("solo",))
    assert rules.game.players == (1, 1)
    with pytest.raises(ValueError):
        new_game(rules, 2, 0)


def test_k_8_3_solo_market_discards_the_farthest_slides_and_refills_two(table):
    """K-8.3."""
    game = new_game(load_rules("calico", ("solo", "beginner")), 1, 8)
    g = table.g(game)
    game.apply(game.legal_actions()[0])
    a, b, c = (table.patch(game, t) for t in ("pink/dots", "green/ferns", "yellow/vines"))
    g["market"] = [a, b, c]  # slot 1 (a) is farthest from the bag
    game.invalidate()
    bag = sum(g["bag"])
    game.apply("take yellow/vines")
    assert g["market"][0] == b  # a left the game; b slid to the far end
    assert len(g["market"]) == 3 and sum(g["bag"]) == bag - 2
    assert g["removed"][a] == 1
    assert table.play_out(game).is_over()


def test_k_8_3_solo_discard_end_is_the_rule_files(table, diagnose):
    """K-8.3: `discard_from` (solo: farthest [default]) decides which patch leaves the game;
    `nearest` discards the one beside the bag instead."""
    assert load_rules("calico", ("solo",)).one("market").discard_from == "farthest"
    text = (
        'extends "calico"\noverride game { players 1 }\n'
        "override market { discard_after_take 1  discard_from nearest }\n"
    )
    report = diagnose(text, "near.castell", ("beginner",))
    assert report.ok, report.diagnostics
    game = new_game(report.rules, 1, 8)
    g = table.g(game)
    game.apply(game.legal_actions()[0])
    a, b, c = (table.patch(game, t) for t in ("pink/dots", "green/ferns", "yellow/vines"))
    g["market"] = [a, b, c]
    game.invalidate()
    game.apply("take pink/dots")
    assert g["market"][0] == b and g["removed"][c] == 1 and g["removed"][a] == 0


def test_k_8_3_solo_duplicates_name_their_slot(table):
    """K-8.3."""
    game = new_game(load_rules("calico", ("solo", "beginner")), 1, 8)
    g = table.g(game)
    game.apply(game.legal_actions()[0])
    a, b = (table.patch(game, t) for t in ("pink/dots", "green/ferns"))
    g["market"] = [a, b, a]
    game.invalidate()
    texts = [x.text for x in game.legal_actions()]
    assert texts == ["take pink/dots@1", "take green/ferns", "take pink/dots@3"]
    game.apply("take pink/dots@3")
    assert g["market"][0] == b  # the far pink patch left the game, green/ferns slid over
    assert g["removed"][a] == 1 and a in g["hands"][0]


def test_k_8_3_solo_combines_with_low_luck_and_a_scenario(table):
    """K-8.3."""
    rules = load_rules("calico", ("solo", "low-luck", "scenario-2"))
    game = table.play_out(new_game(rules, 1, 4))
    g = table.g(game)
    assert sum(g["removed"]) == 36 + 21  # a set, then one discard per take
    assert "report" in game.result()


def test_k_8_2_family_and_beginner_cannot_both_set_up_the_game():
    """K-8.2."""
    with pytest.raises(RuleError) as info:
        load_rules("calico", ("family", "beginner"))
    assert "E0273" in str(info.value)


SCENARIOS = {
    1: (["all_different", "aa_bb_cc", "aaa_bbb"], ["Millie", "Tibbit", "Coconut"]),
    3: (["all_different", "aa_bb_cc", "aa_bb_c_d"], ["Millie", "Rumi", "Coconut"]),
    6: (["aaaa_bb", "aaa_bbb", "aa_bb_cc"], ["Tibbit", "Tecolote", "Almond"]),
    10: (["aaa_bbb", "aaa_bb_c", "aa_bb_c_d"], ["Tibbit", "Tecolote", "Gwenivere"]),
}


@pytest.mark.parametrize("number", list(SCENARIOS))
def test_k_8_4_a_scenario_fixes_goals_and_cats_and_the_player_places_the_goals(table, number):
    """K-8.4."""
    goals, cats = SCENARIOS[number]
    game = new_game(load_rules("calico", (f"scenario-{number}",)), 1, number)
    g = table.g(game)
    assert [game.logic.cat_names[c] for c in g["cats"]] == cats
    options = game.legal_actions()
    assert len(options) == 6  # the three goals in any order on the three spaces
    assert {tuple(sorted(game.logic.goal_names[i] for i in a.args)) for a in options} == {
        tuple(sorted(goals))
    }


def test_k_8_4_k_8_5_a_finished_scenario_game_reports_its_objectives(table):
    """K-8.4, K-8.5."""
    game = table.play_out(new_game(load_rules("calico", ("scenario-3",)), 1, 2))
    report = game.result()["report"]["scenario"]
    assert report["number"] == 3
    (seat,) = report["players"]
    names = [o["objective"] for o in seat["objectives"]]
    assert names == ["goals", "each_cat", "rainbow", "score"]
    total = game.result()["players"][0]["total"]
    score = seat["objectives"][3]
    assert score["value"] == total and score["needed"] == 60
    assert score["met"] == (total >= 60)
    assert seat["passed"] == all(o["met"] for o in seat["objectives"])
    plain = table.play_out(table.game())
    assert "report" not in plain.result()  # K-8.5: only scenario objectives are reported


def test_k_8_4_objectives_measure_goals_cats_buttons_and_score(table):
    """K-8.4."""
    game = new_game(load_rules("calico", ("scenario-6",)), 1, 1)
    game.apply(game.legal_actions()[0])
    g = table.g(game)
    logic = game.logic
    table.clear(game)
    g["goals"][0] = [logic.goal_index[n] for n in ("aaaa_bb", "aaa_bbb", "aa_bb_cc")]
    # AAAA-BB at (3,2) both ways; AAA-BBB at (4,3) and AA-BB-CC at (2,4) by colour only.
    cells = {
        (2, 1): "pink/dots", (3, 1): "pink/dots", (2, 2): "pink/dots", (4, 2): "pink/dots",
        (2, 3): "green/ferns", (3, 3): "green/ferns",
        (5, 2): "pink/vines", (5, 3): "pink/vines", (4, 4): "green/vines", (5, 4): "green/vines",
        (1, 3): "green/dots", (1, 4): "yellow/dots", (3, 4): "yellow/dots",
        (1, 5): "purple/dots", (2, 5): "purple/dots",
    }  # fmt: skip
    for (col, row), text in cells.items():
        table.set_cell(game, 0, text, col, row)
    assert logic.goal_results(g, 0) == [2, 1, 1]
    g["buttons"][0][:6] = list(range(6))
    g["rainbows"][0] = [logic.button_names.index("rainbow")]
    report = logic.report(game)["scenario"]["players"][0]
    met = {o["objective"]: o["met"] for o in report["objectives"]}
    assert met == {"goals": True, "goals_both_ways": True, "rainbow": True, "score": False}
    goals = report["objectives"][0]
    assert (goals["at_least"], goals["needed"], goals["value"]) == (2, 3, 3)  # [default]
    assert report["objectives"][3]["value"] == 14 + 8 + 7 + 7 * 3
    assert report["passed"] is False
    from calico_game.scenarios import measures

    g["tokens"][0][10] = logic.cat_index["Tibbit"]
    g["tokens"][0][11] = logic.cat_index["Tibbit"]
    g["buttons"][0][20] = logic.colour_index["pink"]
    values = measures(logic, game, 0)
    assert values["cat_tokens"] == 2 and values["tokens_of_one_cat"] == 2
    assert values["each_cat"] == 1 and values["buttons_of_one_colour"] == 2
    assert values["goals_both_ways"] == 1 and values["goals"] == 3


def test_k_8_4_two_goals_plus_one_both_ways_is_the_scenario_files_reading(table, diagnose):
    """K-8.4: scenario 6's "2 goals + 1 both ways" is `plus goals_both_ways` [default], three
    goals met; without `plus` the report needs two goals, overlapping the one both ways."""
    shipped = new_game(load_rules("calico", ("scenario-6",)), 1, 1)
    text = (
        'extends "calico"\nscenario { number 6  title "Overlapping"\n'
        "  objective goals { at_least 2 }  objective goals_both_ways { at_least 1 } }\n"
    )
    report = diagnose(text, "overlap.castell", ("beginner",))
    assert report.ok, report.diagnostics
    overlapping = new_game(report.rules, 1, 1)
    for game in (shipped, overlapping):
        game.apply(game.legal_actions()[0])
        table.clear(game)
        g = table.g(game)
        g["goals"][0] = [game.logic.goal_index[n] for n in ("aaaa_bb", "aaa_bbb", "aa_bb_cc")]
        # AAAA-BB at (3,2) both ways, AAA-BBB at (4,3) by colour only, AA-BB-CC unmet.
        cells = {
            (2, 1): "pink/dots", (3, 1): "pink/dots", (2, 2): "pink/dots", (4, 2): "pink/dots",
            (2, 3): "green/ferns", (3, 3): "green/ferns",
            (5, 2): "pink/vines", (5, 3): "pink/vines",
            (4, 4): "green/vines", (5, 4): "green/vines",
        }  # fmt: skip
        for (col, row), patch in cells.items():
            table.set_cell(game, 0, patch, col, row)
        assert game.logic.goal_results(g, 0) == [2, 1, 0]
    need = {}
    for name, game in (("shipped", shipped), ("overlapping", overlapping)):
        (seat,) = game.logic.report(game)["scenario"]["players"]
        goals = {o["objective"]: o for o in seat["objectives"]}["goals"]
        need[name] = (goals["plus"], goals["needed"], goals["value"], goals["met"])
    assert need["shipped"] == ("goals_both_ways", 3, 2, False)
    assert need["overlapping"] == (None, 2, 2, True)
