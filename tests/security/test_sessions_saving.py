"""No session dies on a failed save or a bad message (defect class 4).

`save` to a missing directory, to a directory, a non-string path over JSON lines, an
unwritable `--save-to` or save directory used to end the game with "internal error" and
nothing saved. Now the player is told and the game goes on, and `quit` or the end of input
saves somewhere it can, or says exactly where it could not. Any malformed JSON-lines message
gets a protocol `error` reply and the session continues.
"""

from __future__ import annotations

import io
import json
import time
import tracemalloc
from pathlib import Path

import pytest
from castell_jsonl import MAX_LINE, run_session
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castell_dsl.cli import cli
from castell_dsl.runtime.loading import load_rules
from castell_dsl.runtime.saves import SaveWriteError, read_save
from castell_dsl.runtime.session import Session

#: Every `type` the engine may send (docs/protocol.md).
TYPES = {"hello", "state", "event", "error", "hint", "undone", "saved", "result"}
QUIT = '{"command": "quit"}'


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A home of our own: the save directory, data directory and home are all in tmp."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("CASTELL_SAVE_DIR", str(tmp_path / "saves"))
    (tmp_path / "home").mkdir()
    (tmp_path / "a-file").write_text("not a directory")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _only_save(directory: Path) -> Path:
    """The one save file in `directory` (quit saves each game to a file of its own)."""
    (found,) = directory.glob("*.json")
    return found


def _session(save_path: Path | None = None) -> Session:
    return Session(load_rules("castell"), 2, 3, ["you", "random"], save_path=save_path)


def _jsonl(session: Session, lines: list[str]) -> tuple[int, list[dict]]:
    out = io.StringIO()
    code = run_session(session, io.StringIO("".join(line + "\n" for line in lines)), out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


# ---- saving -----------------------------------------------------------------------------------

BAD_TARGETS = ["missing-dir/x.json", ".", "a-file/x.json", "", "x" * 5000]


@pytest.mark.parametrize("target", BAD_TARGETS)
def test_a_failed_save_raises_save_write_error_naming_why(home, target):
    with pytest.raises(SaveWriteError):
        _session().save(target)


@pytest.mark.parametrize("target", [5, None, ["x"], {"a": 1}, True])
def test_a_non_string_path_over_json_lines_is_a_protocol_error(home, target):
    session = _session()
    code, replies = _jsonl(session, [json.dumps({"command": "save", "path": target}), QUIT])
    errors = [r for r in replies if r["type"] == "error"]
    assert errors and errors[0]["code"] == "bad-message" and "'path'" in errors[0]["message"]
    assert replies[-1]["type"] == "saved" and code == 0


@pytest.mark.parametrize("target", BAD_TARGETS)
def test_json_lines_save_failures_are_replies_and_the_game_goes_on(home, target):
    session = _session()
    code, replies = _jsonl(
        session, [json.dumps({"command": "save", "path": target}), "move Girona", QUIT]
    )
    failed = [r for r in replies if r.get("code") == "save-failed"]
    assert failed and failed[0]["message"]
    assert "move Girona" in session.game.log  # the game went on after the failure
    assert replies[-1]["type"] == "saved" and code == 0


def test_quit_to_an_unwritable_place_falls_back_and_says_so(home):
    session = _session(save_path=home / "a-file" / "game.json")
    code, replies = _jsonl(session, ["move Girona"])  # then the end of input
    assert code == 0
    saved = replies[-1]
    assert saved["type"] == "saved" and saved["reason"] == "end of input"
    assert Path(saved["path"]).parent == home / "saves"  # the game's own file there
    assert Path(saved["path"]).name.startswith("castell-3-")
    assert "a-file" in saved["failed"][0]
    assert read_save(saved["path"])["actions"][-1] == "move Girona"


def test_everything_unwritable_falls_back_to_a_file_of_ones_own(home, monkeypatch):
    monkeypatch.setenv("CASTELL_SAVE_DIR", str(home / "a-file" / "saves"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "a-file" / "data"))
    outcome = _session(save_path=home / "a-file" / "g.json").save_somewhere()
    assert outcome.path is not None and outcome.path.parent == home / "home"
    assert outcome.path.name.startswith("castell-game-")
    assert (outcome.path.stat().st_mode & 0o077) == 0  # only the user can read it
    assert len(outcome.failures) == 3


def test_when_nothing_is_writable_it_says_exactly_where_it_tried(home, monkeypatch):
    monkeypatch.setenv("CASTELL_SAVE_DIR", str(home / "a-file" / "s"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "a-file" / "d"))
    monkeypatch.setenv("HOME", str(home / "a-file" / "h"))
    import tempfile

    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(home / "a-file" / "t"))
    session = _session(save_path=home / "a-file" / "g.json")
    code, replies = _jsonl(session, [QUIT])
    assert code == 1
    assert replies[-1]["code"] == "save-failed"
    message = replies[-1]["message"]
    for place in ("g.json", "/s/", "/d/", "/h", "/t"):
        assert place in message, message


@pytest.mark.parametrize(
    "line",
    ["save missing-dir/x.json", "save .", "save a-file/x.json", "save " + "y" * 5000],
)
def test_terminal_save_failures_are_told_and_the_game_goes_on(home, line):
    result = CliRunner().invoke(
        cli, ["play", "--players", "you,random", "--seed", "3"], input=f"{line}\nmove Girona\n"
    )
    assert result.exit_code == 0, result.output
    assert "Not saved:" in result.stdout
    assert "internal error" not in result.output
    assert read_save(_only_save(home / "saves"))["actions"][-1] == "move Girona"


def test_an_unwritable_save_to_warns_and_quit_still_saves(home):
    result = CliRunner().invoke(
        cli,
        ["play", "--players", "you,random", "--seed", "3", "--save-to", "a-file/g.json"],
        input="move Girona\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "warning: --save-to" in result.stderr
    assert "Could not save where asked" in result.stdout
    assert read_save(_only_save(home / "saves"))["actions"][-1] == "move Girona"


def test_an_unwritable_simulate_save_directory_is_a_clean_error(home):
    result = CliRunner().invoke(cli, ["simulate", "--games", "1", "--save", "a-file/x"])
    assert result.exit_code == 1
    assert "--save a-file/x" in result.stderr and "internal error" not in result.output


# ---- the JSON-lines protocol: corpus ----------------------------------------------------------

PROTOCOL_CORPUS: list[tuple[str, str]] = [
    ("{not json", "bad-json"),
    ("{}", "bad-message"),
    ("[]", "bad-message"),
    ("[1, 2, 3]", "bad-message"),
    ('{"action": 5}', "bad-message"),
    ('{"action": null}', "bad-message"),
    ('{"action": ["move", "Girona"]}', "bad-message"),
    ('{"action": {"text": "end"}}', "bad-message"),
    ('{"action": "' + "x" * 2000 + '"}', "bad-message"),
    ('{"command": 5}', "bad-message"),
    ('{"command": "explode"}', "bad-message"),
    ('{"command": "undo", "path": "x"}', "bad-message"),
    ('{"command": "save", "path": 5}', "bad-message"),
    ('{"command": "save", "path": "a-file/x.json"}', "save-failed"),
    ('{"command": "save", "path": "."}', "save-failed"),
    ('{"action": "end", "command": "quit"}', "bad-message"),
    ('{"action": "end", "extra": 1}', "bad-message"),
    ('{"a": ' * 5_000 + "1" + "}" * 5_000, "bad-json"),
    ("[" * 60_000, "bad-json"),
    ('{"action": ' + "9" * 5_000 + "}", "bad-json"),
    ('{"action": NaN}', "bad-json"),
    ('{"action": "end"} trailing', "bad-json"),
    ("x" * (MAX_LINE + 10), "too-long"),
    ("{" + " " * (3 * MAX_LINE) + "}", "too-long"),
    ("   ", "bad-message"),
    ("recruit " + "9" * 990, "bad-syntax"),
    ("\x00\x01\x02", "unknown-action"),
]


def _error_codes(replies: list[dict]) -> list[str]:
    return [r["code"] for r in replies if r["type"] == "error"]


def _baseline_session_seconds() -> float:
    """A short valid session (hello, a move, a hint, quit): the yardstick for time caps."""
    times = []
    for _ in range(3):
        started = time.process_time()
        code, replies = _jsonl(_session(), ['{"command": "hint"}', "move Girona", QUIT])
        times.append(time.process_time() - started)
        assert code == 0 and replies[-1]["type"] == "saved"
    return max(min(times), 1e-3)


def test_every_malformed_message_gets_its_error_and_the_session_goes_on(home):
    baseline = _baseline_session_seconds()
    tracemalloc.start()
    started = time.process_time()
    session = _session()
    lines = [line for line, _code in PROTOCOL_CORPUS]
    code, replies = _jsonl(session, [*lines, "move Girona", QUIT])
    elapsed = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert code == 0
    assert {r["type"] for r in replies} <= TYPES
    got = _error_codes(replies)
    assert got == [expected for _line, expected in PROTOCOL_CORPUS], got
    assert "move Girona" in session.game.log
    assert replies[-1]["type"] == "saved"
    assert elapsed <= 100 * baseline, (elapsed, baseline)  # 27 lines, some of 64 KB
    assert peak <= 64 * MAX_LINE + 32 * 1024 * 1024
    print(f"protocol corpus: {elapsed / baseline:.1f}x the baseline, peak {peak:,} bytes")


# ---- the JSON-lines protocol: fuzzer ----------------------------------------------------------

MESSAGES = st.one_of(
    st.text(max_size=200).filter(lambda t: "\n" not in t and "\r" not in t),
    st.dictionaries(
        st.sampled_from(["action", "command", "path", "x"]),
        st.none()
        | st.booleans()
        | st.integers()
        | st.text(max_size=40)
        | st.sampled_from(["save", "quit", "undo", "hint", "end", "move Girona"])
        | st.lists(st.integers(), max_size=3),
        max_size=3,
    ).map(json.dumps),
    st.recursive(st.integers() | st.text(max_size=5), st.lists, max_leaves=30).map(json.dumps),
)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(lines=st.lists(MESSAGES, max_size=12))
def test_fuzzed_message_streams_never_end_a_session_badly(home, lines):
    baseline = _baseline_session_seconds()
    started = time.process_time()
    session = _session()
    lines = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    code, replies = _jsonl(session, lines)
    elapsed = time.process_time() - started
    assert code in (0, 1)
    assert replies[0]["type"] == "hello"
    assert {r["type"] for r in replies} <= TYPES
    assert replies[-1]["type"] in ("saved", "result", "error")
    # each line costs at most a move, a hint or a save: a few baselines for the whole stream
    assert elapsed <= 30 * baseline * max(1, len(lines)), (elapsed, baseline)
