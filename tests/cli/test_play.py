"""`castell play` with scripted input: a full game, illegal entries, undo, save and load,
hints, end of input, configuration files, and the JSON-lines front-end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from castell_dsl.cli import cli
from castell_dsl.runtime.saves import read_save


@pytest.fixture(autouse=True)
def save_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("CASTELL_SAVE_DIR", str(tmp_path / "saves"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "saves"


def only_save(directory: Path) -> Path:
    """The one save file in `directory` (quit saves each game to a file of its own)."""
    (found,) = directory.glob("*.json")
    return found


def play(*args: str, input: str):
    return CliRunner().invoke(cli, ["play", *args], input=input)


def test_a_full_game_to_the_end_with_piped_input():
    """C-1.2: ten rounds of `end` finish the game; the final scores table is printed."""
    result = play("--players", "you,random", "--seed", "3", input="end\n" * 10)
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.stdout
    assert "Winner:" in result.stdout
    assert result.stdout.count("seat 0 (you)> end") == 10


def test_an_illegal_entry_is_explained_and_changes_nothing(save_dir):
    result = play("--players", "you,random", "--seed", "3", input="recruit 3\nmove Atlantis\n")
    assert result.exit_code == 0
    assert "Not allowed: place your pawn first" in result.stdout
    assert "(no-pawn)" in result.stdout
    assert "'Atlantis' is not a region" in result.stdout
    record = read_save(only_save(save_dir))
    assert not any(a.startswith("recruit") for a in record["actions"][:1])


def test_numbers_pick_listed_actions():
    result = play("--players", "you,random", "--seed", "3", input="2\n")
    assert "seat 0 (you): move Girona" in result.stdout


def test_undo_takes_back_this_turn_then_the_previous_one(save_dir):
    result = play(
        "--players", "you,random", "--seed", "3",
        input="move Girona\nundo\nundo\nmove Lleida\nend\nundo\nundo\nquit\n",
    )  # fmt: skip
    assert "Took back 1 action(s)." in result.stdout
    assert "nothing to take back: this is your first turn" in result.stdout
    record = read_save(only_save(save_dir))
    # The bot moves first with this seed. After our `end` and its reply, the first undo takes
    # back to the start of our first turn; the second has nothing left of ours to take back.
    assert "move Lleida" not in record["actions"]
    assert record["actions"][-1] == "end"  # the bot's opening turn is all that is left


def test_save_then_load_continues_identically(tmp_path):
    first = play("--players", "you,random", "--seed", "5",
                 input="move Girona\nend\nmove Terrassa\nsave mid.json\n")  # fmt: skip
    assert "Saved to mid.json" in first.stdout
    resumed = play("--load", "mid.json", input="end\n" * 9 + "end\n")
    straight = play("--players", "you,random", "--seed", "5",
                    input="move Girona\nend\nmove Terrassa\n" + "end\n" * 10)  # fmt: skip
    assert resumed.exit_code == 0 and straight.exit_code == 0

    def final(result) -> str:
        return result.stdout[result.stdout.index("Final scores") :]

    assert final(resumed) == final(straight)


def test_hint_shows_the_solver_towers():
    result = play("--players", "you,random", "--seed", "3", input="move Girona\nhint\n")
    assert "Festival in Vilafranca (round 3, sizes 1)" in result.stdout
    assert "LP19" in result.stdout


def test_end_of_input_mid_game_saves_and_exits_cleanly(save_dir):
    result = play("--players", "you,greedy", "--seed", "8", input="move Girona\n")
    assert result.exit_code == 0
    assert "End of input: game saved to" in result.stdout
    record = read_save(only_save(save_dir))
    assert record["actions"][-1] == "move Girona" or "move Girona" in record["actions"]
    assert record["seats"] == ["you", "greedy"]


def test_hot_seat_two_humans_and_a_bot():
    result = play("--players", "you,you,random", "--seed", "1", input="end\nend\n")
    assert "seat 0 (you)>" in result.stdout or "seat 1 (you)>" in result.stdout
    assert result.stdout.count("(you)> end") == 2


def test_bad_players_are_usage_errors():
    result = play("--players", "you,dragon", input="")
    assert result.exit_code == 2
    assert "unknown bot 'dragon'" in result.stderr
    result = play("--players", "you", input="")
    assert result.exit_code == 2
    assert "for 2 to 4 players, not 1" in result.stderr


def test_config_file_and_command_line_override(tmp_path):
    Path("game.yaml").write_text("players: [you, random]\nseed: 4\n")
    result = play("--config", "game.yaml", "--seed", "5", input="")
    assert "seed 5" in result.stdout
    Path("bad.yaml").write_text("players: [you, random]\nseeed: 4\n")
    result = play("--config", "bad.yaml", input="")
    assert result.exit_code == 2
    assert "bad.yaml:2: unknown key 'seeed'; did you mean 'seed'?" in result.stderr


def test_shipped_example_configs_are_valid():
    from castell_dsl.cli.options import read_config

    root = Path(__file__).resolve().parents[2] / "examples"
    assert read_config(str(root / "game.yaml"), "play")["seed"] == 2026
    assert read_config(str(root / "tournament.yaml"), "simulate")["bots"].startswith("greedy")


def test_jsonl_frontend_protocol():
    lines = [
        json.dumps({"action": "recruit 3"}),
        "move Girona",
        json.dumps({"command": "hint"}),
        json.dumps({"command": "quit", "path": "j.json"}),
    ]
    result = play("--frontend", "jsonl", "--players", "you,random", "--seed", "3",
                  input="\n".join(lines) + "\n")  # fmt: skip
    messages = [json.loads(line) for line in result.stdout.splitlines()]
    assert messages[0]["type"] == "hello" and messages[0]["seats"] == ["you", "random"]
    states = [m for m in messages if m["type"] == "state"]
    assert "move Girona" in states[0]["legal_actions"]
    errors = [m for m in messages if m["type"] == "error"]
    assert errors[0]["code"] == "no-pawn"
    assert any(m["type"] == "hint" for m in messages)
    assert messages[-1] == {"type": "saved", "path": "j.json", "reason": "quit"}
