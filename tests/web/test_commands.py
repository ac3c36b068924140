"""One command dispatcher over the WebSocket (issue 28, item 4): the web offers the play
commands of the contract's registry (its `hello` lists them, its reader accepts them) beside
the table's own (`name`, `seat`), and each answers what the registry's handler answers. The
terminal and JSON lines: tests/plugins/test_one_dispatcher.py."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
pytest.importorskip("starlette")
pytest.importorskip("httpx")

from castell_web.matches import TABLE_COMMANDS, read_message  # noqa: E402
from castell_web.store import SqliteStore  # noqa: E402

from castell_dsl.contract import COMMANDS  # noqa: E402

from .support import web_app  # noqa: E402

with warnings.catch_warnings():  # starlette's notice about httpx's successor
    warnings.filterwarnings("ignore", message=".*httpx.*")
    from starlette.testclient import TestClient

#: What each play command answers (an `error` with this code where the web refuses it).
ANSWERS = {
    "help": "help",
    "hint": "hint",
    "undo": "undone",
    "board": "board",
    "actions": "actions",
    "log": "log",
    "check": "checked",
    "save": "save-unavailable",
    "quit": "saved",
}
ARGUMENTS: dict[str, dict[str, str]] = {"check": {"action": "end"}, "help": {"topic": "rules"}}


def _until(ws: Any, kinds: set[str]) -> dict[str, Any]:
    for _ in range(500):
        message = json.loads(ws.receive_text())
        if message["type"] in kinds:
            return message
    raise AssertionError(f"none of {kinds}")


def _until_mine(ws: Any) -> dict[str, Any]:
    for _ in range(500):
        message = json.loads(ws.receive_text())
        if message["type"] == "state" and message["legal_actions"]:
            return message
    raise AssertionError("never my turn")


def test_the_web_offers_the_registry_and_each_command_works(tmp_path: Path) -> None:
    """Each play command over the WebSocket answers what the registry's handler answers
    (drawn by play.js); `save` is the server's download once the match is over (the seed
    it holds tells future draws), `quit` leaves the table whose match the server keeps."""
    assert list(ANSWERS) == COMMANDS.names()
    store = SqliteStore(tmp_path / "server.db")
    with TestClient(web_app(store, rate=(200, 100))) as client:
        body = {"rules": "castell", "players": ["you", "random"], "seed": 3}
        match = client.post("/api/matches", json=body).json()
        token = match["seats"][0]["token"]
        with client.websocket_connect(f"/ws/matches/{match['id']}?token={token}") as ws:
            hello = _until(ws, {"hello"})
            assert [c["name"] for c in hello["commands"]] == [*COMMANDS.names(), *TABLE_COMMANDS]
            for name in COMMANDS.names():
                read_message({"command": name, **ARGUMENTS.get(name, {})})
            _until_mine(ws)
            ws.send_text(json.dumps({"action": "move Girona"}))
            _until_mine(ws)
            for name in COMMANDS.names():
                ws.send_text(json.dumps({"command": name, **ARGUMENTS.get(name, {})}))
                answer = _until(ws, {ANSWERS[name], "error"})
                if answer["type"] == "error":
                    assert answer["code"] == ANSWERS[name], (name, answer)
                    continue
                assert answer["type"] == ANSWERS[name], (name, answer)
                if name == "quit":
                    assert answer["path"] == f"/api/matches/{match['id']}"
                if name == "undo":
                    assert answer["actions"] == 1 and answer["seat"] == 0
            ws.send_text(json.dumps({"command": "save", "path": "/etc/passwd"}))
            assert _until(ws, {"error"})["code"] == "bad-message"  # no path from the network
            for wrong in ({"command": "hint", "topic": "rules"}, {"command": "check"}):
                ws.send_text(json.dumps(wrong))  # only a command's own arguments, the required
                assert _until(ws, {"error"})["code"] == "bad-message"
        with client.websocket_connect(f"/ws/matches/{match['id']}") as watcher:
            _until(watcher, {"state"})
            for name in ("help", "board", "actions", "log"):  # spectators may read the table
                watcher.send_text(json.dumps({"command": name}))
                assert _until(watcher, {ANSWERS[name], "error"})["type"] == ANSWERS[name]
            for name in ("hint", "undo", "check"):
                watcher.send_text(json.dumps({"command": name, **ARGUMENTS.get(name, {})}))
                assert _until(watcher, {"error"})["code"] == "spectator"
    store.close()
