"""One command dispatcher (issue 28, item 4): the play commands are one registry in the
contract (`castell_dsl.contract.COMMANDS`), and the terminal, JSON-lines and web front-ends
offer that same set, each command working on each (the web: tests/web/test_commands.py).

The set each front-end offers is read from the front-end itself (what the terminal's `help`
lists, what the JSON-lines reader accepts, what the web's `hello` announces and its reader
accepts), so a command added to the registry that a front-end drops fails here. `ANSWERS`
says what each command answers; it must name every registered command.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from castell_jsonl import parse_message, run_session
from castell_terminal.app import TerminalApp
from rich.console import Console

from castell_dsl.contract import COMMANDS, dispatch
from castell_dsl.contract.protocol import ProtocolError
from castell_dsl.runtime.loading import load_rules
from castell_dsl.runtime.session import Session

#: The protocol message each command answers with on a fresh Castell game, seed 3, where
#: seat 0 (you) has just moved to Girona (so `undo` has an action to take back).
ANSWERS = {
    "help": "help",
    "hint": "hint",
    "undo": "undone",
    "board": "board",
    "actions": "actions",
    "log": "log",
    "check": "checked",
    "save": "saved",
    "quit": "saved",
}
#: Each command's arguments, as a JSON message gives them.
ARGUMENTS: dict[str, dict[str, str]] = {"check": {"action": "end"}, "help": {"topic": "rules"}}


@pytest.fixture(autouse=True)
def save_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CASTELL_SAVE_DIR", str(tmp_path / "saves"))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "saves"


def _session() -> Session:
    session = Session(load_rules("castell"), 2, 3, ["you", "random"])
    session.play_bots()
    session.apply("move Girona")
    return session


def test_the_table_of_answers_covers_the_registry() -> None:
    assert list(ANSWERS) == COMMANDS.names()


@pytest.mark.parametrize("name", COMMANDS.names())
def test_each_command_is_one_handler_answering_a_protocol_message(name: str) -> None:
    answer = dispatch(_session(), name, ARGUMENTS.get(name))
    assert answer.message["type"] == ANSWERS[name], answer.message
    assert answer.stop == (name == "quit")
    assert answer.changed == (name == "undo")


def test_the_dispatcher_refuses_with_stable_codes_and_changes_nothing() -> None:
    session = _session()
    log = list(session.game.log)
    for name, arguments, code in [
        ("explode", {}, "bad-message"),
        ("undo", {"path": "x"}, "bad-message"),
        ("save", {"path": 5}, "bad-message"),
        ("check", {}, "bad-message"),
        ("help", {"topic": "no-such-topic"}, "no-topic"),
        ("save", {"path": "/nonexistent-dir/x.json"}, "save-failed"),
    ]:
        message = dispatch(session, name, arguments).message
        assert (message["type"], message["code"]) == ("error", code), (name, message)
    assert dispatch(session, "check", {"action": "end"}, seat=1).message["code"] == "not-your-turn"
    assert session.game.log == log


# ---- JSON lines -----------------------------------------------------------------------------
def test_jsonl_accepts_exactly_the_registry() -> None:
    for name in COMMANDS.names():
        assert parse_message(json.dumps({"command": name, **ARGUMENTS.get(name, {})}))
    with pytest.raises(ProtocolError):
        parse_message(json.dumps({"command": "name", "name": "x"}))  # the web table's own


@pytest.mark.parametrize("name", COMMANDS.names())
def test_each_command_works_over_jsonl(name: str, tmp_path: Path) -> None:
    arguments = dict(ARGUMENTS.get(name, {}))
    if name in ("save", "quit"):
        arguments["path"] = str(tmp_path / f"{name}.json")
    lines = [json.dumps({"action": "move Girona"}), json.dumps({"command": name, **arguments})]
    out = io.StringIO()
    code = run_session(_fresh(), io.StringIO("\n".join(lines) + "\n"), out)
    messages = [json.loads(line) for line in out.getvalue().splitlines()]
    moved = max(i for i, m in enumerate(messages) if m.get("event", {}).get("type") == "action")
    answers = [m for m in messages[moved:] if m["type"] not in ("state", "event")]
    assert answers[0]["type"] == ANSWERS[name], answers
    assert code == 0
    if name in ("save", "quit"):
        assert Path(arguments["path"]).is_file()


def _fresh() -> Session:
    return Session(load_rules("castell"), 2, 3, ["you", "random"])


# ---- the terminal ---------------------------------------------------------------------------
def _terminal(lines: list[str]) -> str:
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, highlight=False, color_system=None)
    stdin = io.StringIO("".join(x + "\n" for x in lines))
    TerminalApp(_fresh(), stdin=stdin, console=console).run()
    return out.getvalue()


def test_the_terminal_help_lists_the_registry_and_completion_offers_it() -> None:
    out = _terminal(["help"])
    listed = [line.split()[0] for line in out.split("Commands:\n", 1)[1].splitlines()[:20]]
    assert [w for w in listed if w in ANSWERS][: len(ANSWERS)] == COMMANDS.names()
    for command in COMMANDS:
        assert f"  {command.usage()}" in out
    app = TerminalApp(_fresh(), stdin=io.StringIO(""), console=Console(file=io.StringIO()))
    assert set(COMMANDS.names()) <= set(app.completion_words())


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("help towers", "Towers"),
        ("hint", "Next:"),
        ("undo", "Took back 1 action(s)."),
        ("board", "the whole table"),
        ("actions", "recruit: 1 6"),
        ("log", "seat 0 (you): move Girona"),
        ("check end", "end: allowed now"),
        ("check recruit 99", "Not allowed:"),
        ("save mid.json", "Saved to mid.json"),
        ("quit", "Continue with: castell play --load"),
    ],
)
def test_each_command_works_in_the_terminal(line: str, shown: str) -> None:
    assert shown in _terminal(["move Girona", line])


# ---- front-ends import the contract ---------------------------------------------------------
#: The play front-ends' modules that drive a `PlaySession`, which import only the contract
#: (the package root's `hookimpl`, and the contract's own base: the bounded JSON reader,
#: `visible` text). Every module of every front-end, the web server's lobby, replays, assets
#: and workers included, is held to the contract by tests/engine/test_layering.py
#: (`test_front_end_packages_import_only_the_contract`), which also reads type-only imports.
CONTRACT_ONLY = [
    "castell_terminal/__init__.py",
    "castell_terminal/app.py",
    "castell_terminal/pager.py",
    "castell_terminal/prompt.py",
    "castell_terminal/visible.py",
    "castell_jsonl/__init__.py",
    "castell_web/matches.py",
    "castell_web/connections.py",
    "castell_web/guard.py",
]


@pytest.mark.parametrize("name", CONTRACT_ONLY)
def test_the_play_front_ends_import_only_the_contract(name: str) -> None:
    import ast

    import castell_terminal

    path = Path(castell_terminal.__file__).resolve().parent.parent / name
    imported: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    core = {m for m in imported if m.split(".")[0] == "castell_dsl"}
    allowed = (
        "castell_dsl",
        "castell_dsl.contract",
        "castell_dsl.language.text",
        "castell_dsl.safejson",
    )
    wrong = sorted(
        m for m in core if m not in allowed and not m.startswith("castell_dsl.contract.")
    )
    assert not wrong, f"{name} imports {wrong}"
