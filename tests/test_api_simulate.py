"""`simulate(...)`: the records of `castell simulate` from a program, refused up front the way
the command refuses (one check for simulate, compare, analyze and the API)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from castell_dsl import GameSetupError, RuleError, load_game, simulate
from castell_dsl.api import BotSpecError
from castell_dsl.cli import cli

#: The summary's clock readings: the only figures that differ between two identical runs.
TIMED = {"seconds", "games_per_second", "actions_per_second"}


def untimed(summary: dict) -> dict:
    return {key: value for key, value in summary.items() if key not in TIMED}


def command(*args: str) -> str:
    result = CliRunner().invoke(cli, ["simulate", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_records_are_the_commands_for_the_same_seed():
    """C-10.1, K-7.1: the same games, byte for byte, as the jsonl and json formats print."""
    options = ["--games", "3", "--players", "2", "--bots", "greedy,random", "--seed", "11"]
    run = simulate("castell", games=3, players=2, bots="greedy,random", seed=11)
    jsonl = [json.loads(line) for line in command(*options, "--format", "jsonl").splitlines()]
    assert run.records == jsonl
    document = json.loads(command(*options, "--format", "json"))
    assert run.to_json()["games"] == document["games"]
    assert untimed(run.summary) == untimed(document["summary"])
    assert [r["seed"] for r in run.records] == [11, 12, 13]


def test_bots_as_a_list_variants_and_a_callback():
    heard: list[int] = []
    run = simulate(
        "calico",
        games=2,
        players=2,
        bots=["random", "greedy"],
        variants=["beginner"],
        seed=4,
        on_record=lambda record: heard.append(record["game"]),
    )
    assert heard == [0, 1]
    options = ["--rules", "calico", "--variant", "beginner", "--games", "2", "--players", "2"]
    lines = command(*options, "--bots", "random,greedy", "--seed", "4", "--format", "jsonl")
    assert run.records == [json.loads(line) for line in lines.splitlines()]


def test_saves_written_by_a_simulation_load_as_its_games(tmp_path):
    run = simulate("castell", games=2, players=2, seed=3, save_dir=str(tmp_path))
    for record in run.records:
        game = load_game(tmp_path / f"game-{record['game']:05d}.json")
        assert game.result()["winners"] == record["winners"]
        assert len(game.log) == record["actions"]


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"players": 9}, GameSetupError, "2 to 4 players"),
        ({"players": 10**30}, GameSetupError, "players"),
        ({"bots": "greedy,random,mcts"}, GameSetupError, "3 bots for 2 players"),
        ({"bots": "nobody"}, BotSpecError, "nobody"),
        ({"bots": "mcts:iterations=1000000000"}, BotSpecError, "iterations"),
        ({"rules": "no-such-game"}, RuleError, "no-such-game"),
    ],
)
def test_options_it_cannot_use_are_refused_before_any_game(options, error, message):
    played: list[dict] = []
    arguments = {"rules": "castell", "games": 2, "players": 2, **options}
    with pytest.raises(error, match=message):
        simulate(**arguments, on_record=played.append)
    assert played == []


def test_the_mechanics_refusal_comes_first_too():
    """K-8.2: the low-luck variant is for one or two players."""
    with pytest.raises(GameSetupError, match="is for 1 to 2 players, not 3"):
        simulate("calico", games=1, players=3, variants=["low-luck"])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--players", str(10**30)], "players"),
        (["--players", "2", "--bots", "nobody"], "nobody"),
        (["--players", "2", "--bots", "greedy,greedy,greedy"], "3 bots for 2 players"),
    ],
)
def test_simulate_compare_and_analyze_refuse_alike(options, message):
    """One check before any game: the same refusal (exit 2) from the three commands."""
    runs = {
        "simulate": ["simulate", "--games", "2", *options],
        "compare": ["compare", "castell", "castell+short-season", "--games", "2", *options],
        "analyze": ["analyze", "castell", "--games", "2", *options],
    }
    said = {}
    for name, argv in runs.items():
        result = CliRunner().invoke(cli, argv)
        assert result.exit_code == 2, (name, result.output)
        assert message in result.output, (name, result.output)
        said[name] = result.output.split("error: ", 1)[1].replace("castell: ", "")
    assert said["simulate"] == said["analyze"]  # one rule set: no label
    assert said["compare"].endswith(said["simulate"])  # two: the contender is named first


def test_a_tournament_refuses_a_huge_player_count_before_sizing_anything():
    result = CliRunner().invoke(
        cli, ["tournament", "--bots", "greedy,random", "--players", str(10**30), "--games", "2"]
    )
    assert result.exit_code == 2, result.output
    assert "is for 2 to 4 players" in result.output


def test_one_bot_in_a_list_seats_it_everywhere():
    run = simulate("castell", games=1, players=3, bots=["greedy"], seed=2)
    assert [p["bot"] for p in run.records[0]["players"]] == ["greedy"] * 3
