"""Hostile save files: a corpus and a fuzzer (defect class 2).

Nothing in a save is trusted: every field is covered by the state hash, recomputed on load, or
validated. Whatever a save holds, reading and replaying it either succeeds or raises
`SaveError` with a message naming the file and the field — never another exception, never a
hang, never a RecursionError — within a time measured against a baseline in the same test,
and within a memory cap.
"""

from __future__ import annotations

import copy
import json
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castell_dsl.cli import main
from castell_dsl.runtime.loading import load_rules
from castell_dsl.runtime.saves import MAX_SAVE_BYTES, SaveError, read_save, replay, save_record
from castell_dsl.runtime.session import Session

#: A hostile input may take at most this many times the baseline (a valid save's replay).
TIME_FACTOR = 25
#: Peak memory (tracemalloc) of reading any one hostile save.
MEMORY_CAP = 3 * MAX_SAVE_BYTES


@pytest.fixture(scope="module")
def valid() -> dict[str, Any]:
    rules = load_rules("castell")
    session = Session(rules, 2, 5, ["random", "greedy"])
    for _ in range(15):
        session.bot_move()
    return json.loads(json.dumps(save_record(session.game, session.seats)))


def _edit(record: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(record)
    *parents, last = path.split(".")
    node = out
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is _DELETE:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


_DELETE = object()

#: (field path, hostile value, words the message must contain).
FIELD_CORPUS: list[tuple[str, Any, str]] = [
    ("options.seed", "5", "'options.seed' must be an integer"),
    ("options.seed", 1.5, "'options.seed' must be an integer"),
    ("options.seed", True, "'options.seed' must be an integer"),
    ("options.seed", 2**80, "'options.seed' must fit in 64 bits"),
    ("options.seed", None, "'options.seed' must be an integer"),
    ("options.players", "2", "'options.players' must be an integer"),
    ("options.players", 0, "'options.players' must be from 1"),
    ("options.players", 10**9, "'options.players' must be from 1"),
    ("options.players", 7, "'seats' names 2 seats for 7 players"),
    ("options.extra", 1, "unknown field 'options.extra'"),
    ("options", [], "'options' must be an object"),
    ("seats", ["you"], "names 1 seats for 2 players"),
    ("seats", [5, "you"], "'seats[0]' must be a string"),
    ("seats", ["mcts:iterations=1000000000", "you"], "'iterations' must be from 1 to 20000"),
    ("seats", ["mcts:time=1e9", "you"], "'time' must be from"),
    ("seats", ["mcts:c=nan", "you"], "'c' must be a finite number"),
    ("seats", ["no-such-bot", "you"], "unknown bot 'no-such-bot'"),
    ("seats", ["random:depth=3", "you"], "has no setting 'depth'"),
    ("seats", "you,you", "'seats' must be a list"),
    ("actions", "end", "'actions' must be a list"),
    ("actions.0", 7, "'actions[0]' must be an action text"),
    ("actions.0", "x" * 5000, "'actions[0]' must be an action text"),
    ("actions.0", "recruit " + "9" * 5000, "must be an action text"),
    ("actions.3", "tower 9,9,9,9,9,9,9,9/9/9/9/9/9", "not legal when replayed"),
    ("actions.3", "move " + "Girona " * 100, "not legal when replayed"),
    ("actions.3", "recruit " + "9" * 990, "not legal when replayed"),
    ("state_hash", 12, "'state_hash' must be a hash"),
    ("state_hash", "sha256:0", "does not reach the saved state"),
    ("over", "yes", "'over' must be true or false"),
    ("result", [1, 2], "'result' must be an object or null"),
    ("rules", "castell", "'rules' must be an object"),
    ("rules.content_hash", 5, "'rules.content_hash' must be a hash"),
    ("rules.content_hash", _DELETE, "must name the rule set and its hash"),
    ("rules.content_hash", "sha256:0", "have changed since this game was saved"),
    ("rules.name", {"a": 1}, "'rules.name' must be a string"),
    ("rules.given", {}, "'rules.given' must hold a 'name' or a 'file'"),
    ("rules.given", [], "'rules.given' must be an object"),
    ("rules.given.name", "../castell", "must be a name, not a path"),
    ("rules.given.name", "/etc/passwd", "must be a name, not a path"),
    ("rules.given.name", "no-such-game", "cannot load the rules"),
    (
        "rules.given",
        {"file": {"on": "working directory", "path": "/etc/passwd"}},
        "must be a relative path without '..'",
    ),
    (
        "rules.given",
        {"file": {"on": "rule path", "beside": "castell", "path": "../../etc/passwd"}},
        "must be a relative path without '..'",
    ),
    (
        "rules.given",
        {"file": {"on": "the moon", "path": "x.castell"}},
        "'rules.given.file.on' must be one of",
    ),
    (
        "rules.given",
        {"file": {"on": "elsewhere", "path": 5}},
        "'rules.given.file.path' must be a string",
    ),
    (
        "rules.given",
        {"file": {"on": "elsewhere", "path": "gone.castell"}},
        "is not found in the working directory or beside the save",
    ),
    ("rules.variants", [{"name": 5}], "'rules.variants[0].name' must be a string"),
    ("rules.variants", [{"name": "no-such"}], "cannot load the rules"),
    ("rules.variants", [{"name": "./x.castell"}], "must be a name, not a path"),
    ("rules.variants", [{}], "'rules.variants[0]' must hold a 'name' or a 'file'"),
    ("rules.files", [["x"]], "'rules.files[0]' must be an object"),
    (
        "rules.files",
        [{"on": "rule path", "beside": "castell", "path": "..\\x"}],
        "must be a relative path",
    ),
    ("rules.files", [{"on": "rule path", "path": "x.castell"}], "must hold a 'beside' or a 'dir'"),
    ("rules.files", [{"on": "rule path", "dir": "../etc", "path": "x"}], "must be a name"),
    ("format", "castell-save/99", "not a Castell DSL save file"),
    ("actions", _DELETE, "has no 'actions'"),
    ("sneaky", 1, "unknown field 'sneaky'"),
]


def _raw_corpus(valid: dict[str, Any]) -> list[tuple[str, bytes, str]]:
    """Whole files that are not a save at all: (label, bytes, words the message contains)."""
    text = json.dumps(valid)
    return [
        ("empty", b"", "not JSON"),
        ("truncated", text[: len(text) // 2].encode(), "not JSON"),
        ("array", b"[]", "holds a JSON object"),
        ("string", b'"castell"', "holds a JSON object"),
        ("number", b"5", "holds a JSON object"),
        ("null", b"null", "holds a JSON object"),
        ("deep array", b"[" * 100_000 + b"]" * 100_000, "nested more than"),
        ("deep in a field", text.replace('"result": null', '"result": ' + "[" * 100_000).encode(),
         "nested more than"),
        ("deep objects", b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "nested more than"),
        ("huge integer", text.replace('"seed": 5', '"seed": ' + "9" * 5_000).encode(),
         "digits is too long"),
        ("huge negative", text.replace('"seed": 5', '"seed": -' + "9" * 100_000).encode(),
         "digits is too long"),
        ("NaN", text.replace('"seed": 5', '"seed": NaN').encode(), "not a JSON number"),
        ("Infinity", text.replace('"seed": 5', '"seed": -Infinity').encode(), "not a JSON number"),
        ("not UTF-8", b'{"format": "\xff\xfe"}', "not UTF-8"),
        ("binary", bytes(range(256)) * 10, "not"),
        ("too large", b" " * (MAX_SAVE_BYTES + 10), "too large"),
    ]  # fmt: skip


def _outcome(path: Path) -> tuple[str, float, int]:
    """Read and replay a save: ("ok" or the SaveError message, seconds, peak bytes)."""
    tracemalloc.start()
    started = time.process_time()
    try:
        replay(read_save(path))
        outcome = "ok"
    except SaveError as exc:
        outcome = str(exc)
    finally:
        elapsed = time.process_time() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return outcome, elapsed, peak


def _baseline(valid: dict[str, Any], tmp_path: Path) -> float:
    path = tmp_path / "valid.json"
    path.write_text(json.dumps(valid))
    times = []
    for _ in range(3):
        outcome, elapsed, _peak = _outcome(path)
        assert outcome == "ok"
        times.append(elapsed)
    return max(min(times), 1e-3)


@pytest.mark.parametrize("field, value, words", FIELD_CORPUS, ids=[f[0] for f in FIELD_CORPUS])
def test_each_hostile_field_is_a_located_save_error(valid, tmp_path, field, value, words):
    baseline = _baseline(valid, tmp_path)
    path = tmp_path / "save.json"
    path.write_text(json.dumps(_edit(valid, field, value)))
    outcome, elapsed, peak = _outcome(path)
    assert outcome != "ok" and words in outcome, outcome
    if "'" in words and "must" in words:
        assert outcome.startswith(f"{path}: "), outcome  # located: the file, then the field
    assert elapsed <= TIME_FACTOR * baseline, (elapsed, baseline)
    assert peak <= MEMORY_CAP


def test_each_hostile_file_is_a_clean_save_error(valid, tmp_path):
    baseline = _baseline(valid, tmp_path)
    worst = 0.0
    for label, data, words in _raw_corpus(valid):
        path = tmp_path / "save.json"
        path.write_bytes(data)
        outcome, elapsed, peak = _outcome(path)
        assert outcome != "ok" and words in outcome, (label, outcome[:300])
        assert outcome.startswith(str(path)), (label, outcome[:300])
        # Big files take time to read at all: scale the cap by the file's size in MB.
        allowance = TIME_FACTOR * baseline * max(1.0, len(data) / 1_000_000)
        assert elapsed <= allowance, (label, elapsed, baseline)
        assert peak <= MEMORY_CAP, (label, peak)
        worst = max(worst, elapsed / baseline)
    print(f"worst hostile save: {worst:.1f}x the baseline")


def test_result_over_and_seats_in_the_file_are_never_believed(valid, tmp_path):
    """`result` and `over` are recomputed: a save that claims a finished game won by seat 1
    replays as the game in progress it really is."""
    forged = _edit(valid, "over", True)
    forged["result"] = {"winners": [1], "players": [], "rounds": 10}
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    game = replay(read_save(path))
    assert not game.is_over()
    result = CliRunner().invoke(
        __import__("castell_dsl.cli", fromlist=["cli"]).cli,
        ["replay", str(path), "--format", "json"],
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["over"] is False


def test_a_billion_iteration_seat_is_refused_by_play_load(valid, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    path = tmp_path / "slow.json"
    path.write_text(json.dumps(_edit(valid, "seats", ["you", "mcts:iterations=1000000000"])))
    started = time.process_time()
    code = main(["play", "--load", str(path)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "'iterations' must be from 1 to 20000" in err
    assert time.process_time() - started < 100 * _baseline(valid, tmp_path)


# ---- the fuzzer -------------------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


def _paths(node: Any, prefix: str = "") -> list[str]:
    out = []
    items = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else []
    )
    for key, value in items:
        path = f"{prefix}{key}"
        out.append(path)
        if isinstance(value, (dict, list)) and len(out) < 400:
            out.extend(_paths(value, path + "."))
    return out


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_save_records_give_a_game_or_a_save_error(valid, tmp_path, data):
    """Replace one to three fields anywhere in a valid save by arbitrary JSON (or delete
    them): the outcome is a replayed game or a SaveError, within the time cap."""
    baseline = _baseline(valid, tmp_path)
    record = valid
    paths = [p for p in _paths(valid) if not p.startswith("actions.") or p < "actions.2"]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        value = data.draw(st.one_of(JSON, st.just(_DELETE)))
        try:
            record = _edit(record, path, value)
        except (KeyError, IndexError, TypeError, ValueError):
            continue  # an earlier edit removed the place
    target = tmp_path / "fuzzed.json"
    target.write_text(json.dumps(record))
    outcome, elapsed, peak = _outcome(target)
    assert elapsed <= TIME_FACTOR * 8 * baseline, (elapsed, baseline)  # may compile variants
    assert peak <= MEMORY_CAP
    if outcome == "ok":
        return
    assert outcome  # a message


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(blob=st.binary(max_size=2_000) | st.text(max_size=2_000).map(str.encode))
def test_fuzzed_bytes_are_a_save_error(tmp_path, blob):
    path = tmp_path / "blob.json"
    path.write_bytes(blob)
    with pytest.raises(SaveError):
        replay(read_save(path))
