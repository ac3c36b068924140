"""`castell simulate`: reproducible lines, jobs, Dask, saves, configuration files."""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from castell_dsl.cli import cli
from castell_dsl.runtime.simulation import (
    SimulationSpec,
    chunks_of,
    run_batch,
    run_batch_dask,
    run_one,
    run_tasks,
    wilson_interval,
)
from castell_dsl.runtime.workers import workers_inherit_memory


def simulate(*args: str):
    return CliRunner().invoke(cli, ["simulate", *args])


def test_jsonl_lines_are_the_documented_contract_and_reproducible():
    """C-10.1: total is the sum of the categories; the same seed gives the same bytes."""
    first = simulate("--games", "3", "--players", "3", "--seed", "9", "--format", "jsonl")
    second = simulate("--games", "3", "--players", "3", "--seed", "9", "--format", "jsonl")
    assert first.exit_code == 0
    assert first.stdout == second.stdout
    lines = [json.loads(line) for line in first.stdout.splitlines()]
    assert [line["game"] for line in lines] == [0, 1, 2]
    assert [line["seed"] for line in lines] == [9, 10, 11]
    for line in lines:
        assert line["rounds"] == 10
        assert set(line["players"][0]["categories"]) == {
            "best_tower", "region_variety", "prizes", "size_tokens", "local_performances",
        }  # fmt: skip
        for p in line["players"]:
            assert p["total"] == sum(p["categories"].values())
            assert p["bot"] == "random"


def test_results_are_identical_for_any_number_of_jobs():
    spec = SimulationSpec("castell", (), 2, ("greedy", "random"), 4, 6)
    assert list(run_batch(spec, jobs=1)) == list(run_batch(spec, jobs=2, chunk=2))


@given(
    games=st.integers(0, 3_000),
    chunk=st.integers(1, 16),
    largest=st.one_of(st.none(), st.integers(1, 128)),
    workers=st.integers(1, 8),
)
def test_a_plan_hands_out_every_game_once_in_order(games, chunk, largest, workers):
    """The chunks of a parallel run cover the games exactly, in order; the first has `chunk`
    games (the first results come out at once), none has more than `largest` (memory) or,
    but the last, fewer than `chunk`."""
    plan = list(chunks_of(games, chunk, largest, workers))
    assert [i for part in plan for i in part] == list(range(games))
    if plan:
        assert len(plan[0]) == min(chunk, games)
    biggest = chunk if largest is None else max(chunk, largest)
    assert all(chunk <= len(part) <= biggest for part in plan[:-1])


def test_a_guided_plan_makes_few_chunks_and_a_short_tail():
    """2,000 games on two workers: a few dozen chunks (each costs a hand-over), the last ones
    of `chunk` games, so no worker is left alone with a long one."""
    sizes = [len(part) for part in chunks_of(2_000, 8, 64, workers=2)]
    assert len(sizes) <= 60
    assert max(sizes) == 64
    assert sizes[-8:-1] == [8] * 7
    assert sizes[-1] <= 8


def test_results_are_identical_whatever_the_chunks():
    """Chunks that grow and shrink (1 to 8 games) give the same records, in the same order,
    as one process."""
    spec = SimulationSpec("castell", (), 2, ("random", "random"), 11, 40)
    task = partial(run_one, spec)
    assert list(run_tasks(task, 40, jobs=2, chunk=1, largest=8)) == list(run_batch(spec))


def _where_played(index: int) -> tuple[int, int]:
    return index, os.getpid()


def test_forked_workers_inherit_the_first_game_played_here():
    """With forked workers, this process plays game 0 before the pool starts (every cache a
    game fills is then the workers' too, not filled again in each), the workers the rest;
    the records still come in game order."""
    records = list(run_tasks(_where_played, 30, jobs=2, chunk=2))
    assert [index for index, _ in records] == list(range(30))
    here = os.getpid()
    if workers_inherit_memory():
        assert records[0][1] == here
    assert all(pid != here for _, pid in records[1:])


def test_the_same_batch_on_a_dask_local_cluster():
    from dask.distributed import LocalCluster

    spec = SimulationSpec("castell", (), 2, ("random", "random"), 2, 4)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False) as cluster:
        dask_lines = list(run_batch_dask(spec, cluster.scheduler_address, chunk=2))
    assert dask_lines == list(run_batch(spec))


def test_save_dir_writes_replayable_saves(tmp_path):
    result = simulate("--games", "2", "--players", "2", "--save", str(tmp_path), "--format",
                      "jsonl")  # fmt: skip
    assert result.exit_code == 0
    saves = sorted(tmp_path.glob("game-*.json"))
    assert len(saves) == 2
    replayed = CliRunner().invoke(cli, ["replay", str(saves[0]), "--format", "json"])
    data = json.loads(replayed.stdout)
    assert data["verified"] is True and data["over"] is True
    assert data["players"][0]["bot"] == "random"


def test_text_summary_table(monkeypatch):
    result = simulate("--games", "4", "--players", "2", "--bots", "greedy,random")
    assert result.exit_code == 0
    assert "win rate" in result.stdout and "greedy" in result.stdout
    assert "games/s" in result.stdout


def test_tournament_config_with_override(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("t.yaml").write_text(
        "players: 2\nbots: [greedy, {name: random}]\ngames: 2\nseed: 3\nformat: jsonl\n"
    )
    result = simulate("--config", "t.yaml", "--games", "1")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 1 and lines[0]["seed"] == 3
    assert [p["bot"] for p in lines[0]["players"]] == ["greedy", "random"]
    Path("bad.yaml").write_text("games: many\n")
    bad = simulate("--config", "bad.yaml")
    assert bad.exit_code == 2
    assert "bad.yaml:1: 'games' must be a positive whole number, got 'many'" in bad.stderr


def test_usage_errors():
    assert simulate("--bots", "random,random,random", "--players", "2").exit_code == 2
    assert "unknown bot 'wizard'" in simulate("--bots", "wizard").stderr
    assert simulate("--players", "5").exit_code == 2


def test_replay_detects_a_tampered_or_truncated_save(tmp_path):
    simulate("--games", "1", "--players", "2", "--save", str(tmp_path), "--format", "jsonl")
    save = tmp_path / "game-00000.json"
    record = json.loads(save.read_text())
    record["options"]["seed"] += 1  # another seed: the log no longer fits the game
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record))
    result = CliRunner().invoke(cli, ["replay", str(tampered)])
    assert result.exit_code == 1
    assert "castell replay: error:" in result.stderr
    truncated = tmp_path / "truncated.json"
    truncated.write_text(save.read_text()[: len(save.read_text()) // 2])
    result = CliRunner().invoke(cli, ["replay", str(truncated)])
    assert result.exit_code == 1
    assert "truncated or not JSON" in result.stderr
    record = json.loads(save.read_text())
    record["state_hash"] = "sha256:0"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(record))
    result = CliRunner().invoke(cli, ["replay", str(edited)])
    assert "does not reach the saved state" in result.stderr


def test_wilson_interval_is_sound():
    low, high = wilson_interval(80, 100)
    assert 0.70 < low < 0.80 < high < 0.88
    assert wilson_interval(0, 0) == (0.0, 0.0)


def test_text_summary_names_the_seats_and_says_random_seats_are_random():
    result = simulate("--games", "2", "--players", "2")
    assert result.exit_code == 0, result.output
    assert "Seats: 0 random, 1 random" in result.stdout
    assert "default random seats" in result.stdout and "--bots greedy" in result.stdout
    assert "ran on 1 local process" in result.stdout and "job(s)" not in result.stdout
    chosen = simulate("--games", "2", "--players", "2", "--bots", "greedy,random")
    assert "Seats: 0 greedy, 1 random" in chosen.stdout
    assert "default random seats" not in chosen.stdout


def test_text_summary_reports_the_dask_cluster():
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False) as cluster:
        result = simulate(
            "--games", "2", "--players", "2", "--scheduler", cluster.scheduler_address
        )
    assert result.exit_code == 0, result.output
    assert "ran on a Dask cluster of 2 workers, 2 threads" in result.stdout
