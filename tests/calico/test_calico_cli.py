"""Calico through the command line and the front-end views: validate, rules show, simulate
(jsonl with the goals/cats/buttons categories), a scenario, save and replay, view and render."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from castell_dsl.cli import cli

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_validate_the_calico_rules_and_variants():
    variants = sorted(
        str(p) for p in (ROOT / "rules" / "calico" / "variants").glob("*.castell")
        if 'extends "calico"' in p.read_text()
    )  # fmt: skip
    assert len(variants) == 14  # beginner, family, low-luck, solo, scenario-1 … scenario-10
    result = run("validate", str(ROOT / "rules" / "calico" / "calico.castell"), *variants)
    assert result.exit_code == 0, result.output
    assert "0 errors, 0 warnings" in result.output


def test_rules_show_json_lists_the_content():
    result = run("rules", "show", "calico", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["cats"]) == 10 and len(data["boards"]) == 4
    assert {g["name"] for g in data["goals"]} >= {"all_different", "aa_bb_c_d"}
    assert data["game"]["rounds"] == 22


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_simulate_jsonl_has_goals_cats_and_buttons(players):
    result = run(
        "simulate", "--rules", "calico", "--players", str(players), "--games", "2",
        "--format", "jsonl",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 2
    for line in lines:
        assert line["rounds"] == 22
        for p in line["players"]:
            assert list(p["categories"]) == ["goals", "cats", "buttons"]


def test_simulate_a_scenario_solo_then_replay_its_save(tmp_path):
    result = run(
        "simulate", "--rules", "calico", "--variant", "scenario-3", "--players", "1",
        "--games", "2", "--save", str(tmp_path), "--format", "jsonl",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    save = tmp_path / "game-00000.json"
    record = json.loads(save.read_text())
    assert record["result"]["report"]["scenario"]["number"] == 3
    replayed = run("replay", str(save))
    assert replayed.exit_code == 0, replayed.output
    assert "verified: 44 actions reproduce the saved state (finished)" in replayed.output


def test_view_is_json_ready_and_names_everything(table):
    game = table.game(players=2, variants=())
    full = json.loads(json.dumps(game.view()))
    assert full["players"] == 2  # the engine's part stays apart from the table
    view = full["table"]
    assert len(view["market"]) == 3 and view["bag"] == 108 - 2 * 2 - 3
    assert {len(c["patterns"]) for c in view["cats"]} == {2}
    seat = view["seats"][0]
    assert len(seat["cells"]) == 49 and len(seat["hand"]) == 2
    edge = [c for c in seat["cells"] if c.get("edge")]
    assert len(edge) == 24 and {"colour", "pattern"} <= set(edge[0])
    assert len(seat["revealed_goals"]) == 4 and seat["goals"] == []
    assert [c["goal_space"] for c in seat["cells"] if "goal_space" in c] == [1, 2, 3]


def test_render_draws_each_quilt_with_colour_and_pattern_letters(table):
    from rich.console import Console

    game = table.play_out(table.game(players=2, seed=9))
    console = Console(width=100, record=True, color_system=None)
    for renderable in game.logic.render(game, 0):
        console.print(renderable)
    text = console.export_text()
    assert "seat 0 (you)" in text and "seat 1" in text
    assert " G1 " in text and "G1 at 3,2" in text  # the goal space, and its goal
    assert "patterns D dots" in text  # the legend
    # Each hex is four characters; odd rows start half a hex (two characters) further right.
    from calico_game.views import quilt_text

    lines = quilt_text(game.logic, game.state["g"], 0).plain.splitlines()
    row0, row1 = lines[1], lines[2]
    first = {i for i, ch in enumerate(row0) if ch.isalpha()}
    second = {i for i, ch in enumerate(row1) if ch.isalpha()}
    assert min(second) - min(first) == 2
    g = game.state["g"]
    quilt = g["quilts"][0]
    for col in range(7):
        patch = quilt[col]
        colour = game.rules.named("colour")[game.logic.colours[game.logic.colour_of[patch]]]
        pattern = game.rules.named("pattern")[game.logic.patterns[game.logic.pattern_of[patch]]]
        assert row0[3 + 4 * col + 1 : 3 + 4 * col + 3] == colour.letter + pattern.letter
