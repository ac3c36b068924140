"""One error boundary: every command, given bad arguments, ends with a located message and
exit code 1 or 2 — never "internal error", never a traceback (defect classes 3 and 5)."""

from __future__ import annotations

import io
import itertools
import json
import time
import tracemalloc
from pathlib import Path

import pytest

from castell_dsl.cli import main
from castell_dsl.runtime.simulation import SimulationSpec, chunks_of, run_batch


@pytest.fixture
def files(tmp_path, monkeypatch):
    """Hostile files in a directory of our own; the user's directories are in tmp too."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("CASTELL_SAVE_DIR", str(tmp_path / "saves"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "deep.json").write_text("[" * 100_000)
    (tmp_path / "huge.json").write_text('{"format": "castell-save/2", "seed": ' + "9" * 6000 + "}")
    (tmp_path / "types.json").write_text(
        json.dumps({"format": "castell-save/2", "rules": {"name": "castell", "hash": "h"},
                    "options": {"players": "2", "seed": 0}, "actions": [], "state_hash": "h"})
    )  # fmt: skip
    (tmp_path / "bad.yaml").write_text("games: [1, 2\n")
    (tmp_path / "empty").mkdir()
    return tmp_path


CORPUS: list[list[str]] = [
    ["nosuch"],
    ["--bogus"],
    ["validate", "/nonexistent"],
    ["validate", "/dev/null"],
    ["validate", "empty"],
    ["validate", "--format", "xml"],
    ["rules", "show", "nosuch"],
    ["rules", "show", "castell", "--variant", "nosuch"],
    ["rules", "show", "/dev/zero"],
    ["rules", "show", "x" * 5000],
    ["rules", "show", "empty"],
    ["rules", "list", "--format", "xml"],
    ["simulate", "--games", "0"],
    ["simulate", "--games", "10**12"],
    ["simulate", "--games", "1000000000000", "--bots", "nosuch"],
    ["simulate", "--players", "9"],
    ["simulate", "--players", "99999999999999999999999999"],
    ["simulate", "--rules", "calico", "--variant", "low-luck", "--players", "4", "--games", "1"],
    ["simulate", "--rules", "calico", "--variant", "low-luck", "--players", "3", "--games", "1"],
    ["simulate", "--bots", "mcts:iterations=1000000000"],
    ["simulate", "--bots", "mcts:iterations=0"],
    ["simulate", "--bots", "mcts:iterations=1.5"],
    ["simulate", "--bots", "mcts:time=nan"],
    ["simulate", "--bots", "mcts:c=inf"],
    ["simulate", "--bots", "mcts:rollout=-1"],
    ["simulate", "--bots", "greedy:max_actions=100000000"],
    ["simulate", "--bots", "mcts:" + "x=1," * 100],
    ["simulate", "--bots", "random,random,random"],
    ["simulate", "--seed", "9" * 5000],
    ["simulate", "--save", "a-file/x", "--games", "1"],
    ["simulate", "--save", "a-file", "--games", "1"],
    ["simulate", "--scheduler", "tcp://127.0.0.1:1", "--games", "1"],
    ["simulate", "--scheduler", "not an address", "--games", "1"],
    ["simulate", "--jobs", "0"],
    ["simulate", "--config", "/nonexistent"],
    ["simulate", "--config", "empty"],
    ["simulate", "--config", "bad.yaml"],
    ["simulate", "--rules", "/dev/null"],
    ["simulate", "--rules", "a-file"],
    ["replay", "/nonexistent"],
    ["replay", "empty"],
    ["replay", "/dev/null"],
    ["replay", "/dev/zero"],
    ["replay", "deep.json"],
    ["replay", "huge.json"],
    ["replay", "types.json"],
    ["replay", "a-file"],
    ["replay", "deep.json", "--rules", "/nonexistent"],
    ["play", "--players", "you,nosuch"],
    ["play", "--players", "you,mcts:iterations=1000000000"],
    ["play", "--players", "you,you,you,you,you,you"],
    ["play", "--players", "you"],
    ["play", "--load", "/nonexistent"],
    ["play", "--load", "deep.json"],
    ["play", "--load", "huge.json"],
    ["play", "--load", "types.json"],
    ["play", "--load", "/dev/zero"],
    ["play", "--frontend", "nosuch"],
    ["play", "--rules", "calico", "--variant", "low-luck", "--players", "you,random,random,random"],
    ["play", "--rules", "/dev/null"],
    ["play", "--rules", "nosuch"],
    ["play", "--seed", "x"],
    ["play", "--save-to", "x" * 5000 + "/" + "y"],
    ["play", "--config", "bad.yaml"],
    ["plugins", "--format", "xml"],
    ["tower", "--bogus"],
]


def _run(argv: list[str], capsys) -> tuple[int, str, float, int]:
    capsys.readouterr()
    tracemalloc.start()
    started = time.perf_counter()
    code = main(argv)
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    out = capsys.readouterr()
    return code, out.out + out.err, elapsed, peak


def test_every_command_with_bad_arguments_fails_cleanly(files, capsys):
    baseline = min(_run(["rules", "show", "castell"], capsys)[2] for _ in range(2))
    worst_time, worst_memory = 0.0, 0
    for argv in CORPUS:
        code, output, elapsed, peak = _run(argv, capsys)
        shown = " ".join(a[:40] for a in argv)
        assert code in (1, 2), (shown, code, output[-500:])
        assert "internal error" not in output and "Traceback" not in output, (shown, output)
        assert output.strip(), shown  # a message, not silence
        if "--scheduler" not in argv:  # connecting waits for the timeout, by design
            assert elapsed <= 40 * baseline, (shown, elapsed, baseline)
            worst_time = max(worst_time, elapsed / baseline)
        worst_memory = max(worst_memory, peak)
        assert peak <= 128 * 1024 * 1024, (shown, peak)
    print(f"CLI corpus: {len(CORPUS)} cases, worst {worst_time:.1f}x, peak {worst_memory:,} B")


def test_the_messages_say_what_is_wrong(files, capsys):
    expected = {
        ("simulate", "--bots", "mcts:iterations=1000000000"): "must be from 1 to 20000",
        ("simulate", "--rules", "calico", "--variant", "low-luck", "--players", "4"):
            "is for 1 to 2 players, not 4",
        ("simulate", "--scheduler", "tcp://127.0.0.1:1"): "dask scheduler",
        ("replay", "types.json"): "types.json: 'options.players' must be an integer",
        ("replay", "deep.json"): "nested more than",
        ("replay", "huge.json"): "digits is too long",
        ("play", "--players", "you,you,you,you,you,you"): "is for 2 to 4 players",
    }  # fmt: skip
    for argv, words in expected.items():
        code, output, _elapsed, _peak = _run([*argv, "--games", "1"] if argv[0] == "simulate"
                                             else list(argv), capsys)  # fmt: skip
        assert code in (1, 2) and words in output, (argv, output)


def test_an_unreachable_scheduler_is_refused_within_a_few_seconds(files, capsys):
    baseline = _run(["rules", "show", "castell"], capsys)[2]
    code, output, elapsed, _peak = _run(
        ["simulate", "--scheduler", "tcp://127.0.0.1:1", "--games", "1"], capsys
    )
    assert code == 2 and "`dask scheduler`" in output
    from castell_dsl.runtime.simulation import CONNECT_TIMEOUT

    assert elapsed <= CONNECT_TIMEOUT + 40 * baseline


def test_a_huge_batch_is_a_plan_not_a_list():
    """`--games 10**12`: the chunks are produced lazily and the first games come out at once,
    with memory bounded by the window of work in flight."""
    plan = chunks_of(10**12, 8)
    assert next(plan) == range(0, 8)
    small = SimulationSpec("castell", (), 2, ("random", "random"), 0, 4)
    started = time.perf_counter()
    list(run_batch(small, jobs=2))
    baseline = time.perf_counter() - started
    huge = SimulationSpec("castell", (), 2, ("random", "random"), 0, 10**12)
    tracemalloc.start()
    started = time.perf_counter()
    lines = list(itertools.islice(run_batch(huge, jobs=2), 4))
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert [line["game"] for line in lines] == [0, 1, 2, 3]
    assert lines == list(run_batch(small, jobs=1))  # same games, whatever runs them
    assert elapsed <= 20 * baseline + 5 * baseline  # the window's chunks finish, no more
    assert peak <= 32 * 1024 * 1024


def test_bot_settings_in_range_still_work(files, capsys):
    code, output, _e, _p = _run(
        ["simulate", "--games", "1", "--players", "2", "--bots",
         "mcts:iterations=5,greedy:max_actions=3", "--format", "jsonl"],
        capsys,
    )  # fmt: skip
    assert code == 0, output


def test_config_bots_go_through_the_same_checks(files, capsys):
    Path("t.yaml").write_text("bots:\n  - {name: mcts, iterations: 1000000000}\n  - random\n")
    code, output, _e, _p = _run(["simulate", "--config", "t.yaml", "--players", "2"], capsys)
    assert code == 2 and "must be from 1 to 20000" in output
