"""`castell simulate --trajectories FILE`: every decision in the environments' encoding
(docs/rl.md, "Trajectories"). The rows decode back to the reference observation and mask of
the replayed game, the action ids are legal under the masks and name the actions played, each
game's rewards sum to its returns seat by seat, and the file is the same for a seed whatever
`--jobs`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy", reason="numpy missing: pip install 'castell-dsl[rl]'")

from castell_dsl.cli import cli  # noqa: E402
from castell_dsl.rl import game_spec  # noqa: E402
from castell_dsl.rl.trajectories import decode_row  # noqa: E402


def record(tmp_path, name: str, *args: str) -> tuple[dict, list[dict], list[dict]]:
    path = tmp_path / name
    result = CliRunner().invoke(
        cli, ["simulate", "--trajectories", str(path), "--format", "jsonl", *args]
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert all("trajectory" not in line for line in lines)  # the records stay the contract
    head, *rows = [json.loads(line) for line in path.read_text().splitlines()]
    return head, rows, lines


@pytest.mark.parametrize(
    ("rules", "players", "bots"), [("castell", 3, "random,greedy,random"), ("calico", 2, "random")]
)
def test_rows_decode_to_the_replayed_games(tmp_path, rules, players, bots):
    head, rows, lines = record(
        tmp_path, "t.jsonl", "--rules", rules, "-n", "2", "-p", str(players), "--seed", "4",
        "--bots", bots,
    )  # fmt: skip
    spec = game_spec(rules, players)
    assert head["trajectories"] == 1 and head["players"] == players
    assert head["observation_size"] == spec.observation.size
    assert head["action_count"] == spec.codec.size
    assert head["features"] == list(spec.observation.names)
    for line in lines:
        game = spec.new_game(line["seed"])
        mine = [row for row in rows if row["game"] == line["game"]]
        assert len(mine) == line["actions"]
        totals = [0.0] * players
        for step, row in enumerate(mine):
            observation, mask, action, reward, _done = decode_row(row, head)
            assert row["step"] == step and row["seat"] == game.current_player
            np.testing.assert_array_equal(observation, spec.observe(game, row["seat"]))
            np.testing.assert_array_equal(mask, spec.mask(game))
            assert mask[action] == 1
            chosen = spec.codec.assign(game.legal_actions())[action]
            assert chosen.text == row["text"]
            game.apply(chosen)
            totals[row["seat"]] += reward
        assert game.is_over()
        assert totals == pytest.approx(spec.returns(game))  # `win`: the winners share 1
        assert sum(totals) == pytest.approx(1.0)
        assert sorted(w for w in range(players) if totals[w] > 0) == line["winners"]
        done = [row["seat"] for row in mine if row["done"]]
        assert sorted(done) == list(range(players))  # each seat's last decision


def test_the_file_is_the_same_whatever_jobs(tmp_path):
    args = ("-n", "4", "-p", "2", "--seed", "11")
    one = record(tmp_path, "one.jsonl", *args)
    two = record(tmp_path, "two.jsonl", *args, "--jobs", "2")
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    assert one[2] == two[2]
    other = record(tmp_path, "other.jsonl", "-n", "4", "-p", "2", "--seed", "12")
    assert other[1] != one[1]


def test_an_unwritable_file_is_a_clear_error(tmp_path):
    target = tmp_path / "missing-dir" / "t.jsonl"
    result = CliRunner().invoke(
        cli, ["simulate", "-n", "1", "-p", "2", "--trajectories", str(target)]
    )
    assert result.exit_code != 0
    assert "--trajectories" in result.output and "Traceback" not in result.output
