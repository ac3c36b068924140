"""The JSON-lines front-end: `castell play --frontend jsonl` (docs/protocol.md).

One JSON object per line. The engine writes `hello`, then for every decision of a seat
marked `you` a `state` message (the table, whose turn, the legal actions) and waits for one
line from the program: an action (`{"action": "move Girona"}`, or the bare text) or a command
(`{"command": "save", "path": "…"}`, `{"command": "quit"}`). Events (`{"type": "event", …}`)
report what happens, errors (`{"type": "error", …}`) refused input, and `result` the end.
Bots play the other seats. So a bot or a user interface in any language can play.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from castell_dsl import hookimpl


def _write(out: TextIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message, separators=(",", ":")) + "\n")
    out.flush()


def run_session(session: Any, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    from castell_dsl.contract import ActionError, UndoError

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    session.observers.append(lambda game, event: _write(stdout, {"type": "event", "event": event}))
    game = session.game
    _write(
        stdout,
        {
            "type": "hello",
            "protocol": 1,
            "game": game.rules.game.title,
            "rules_hash": game.rules.hash,
            "players": game.players,
            "seats": session.seats,
            "seed": game.seed,
        },
    )
    while (player := session.play_bots()) is not None:
        game = session.game
        _write(
            stdout,
            {
                "type": "state",
                "player": player,
                "round": game.round,
                "legal_actions": [a.text for a in game.legal_actions()],
                "view": game.view(),
            },
        )
        line = stdin.readline()
        if not line:
            path = session.save()
            _write(stdout, {"type": "saved", "path": str(path), "reason": "end of input"})
            return 0
        try:
            message = (
                json.loads(line) if line.lstrip().startswith("{") else {"action": line.strip()}
            )
        except json.JSONDecodeError as exc:
            _write(stdout, {"type": "error", "code": "bad-json", "message": str(exc)})
            continue
        command = message.get("command")
        if command == "quit":
            path = session.save(message.get("path"))
            _write(stdout, {"type": "saved", "path": str(path), "reason": "quit"})
            return 0
        if command == "save":
            path = session.save(message.get("path"))
            _write(stdout, {"type": "saved", "path": str(path), "reason": "save"})
            continue
        if command == "undo":
            try:
                _write(stdout, {"type": "undone", "actions": session.undo()})
            except UndoError as exc:
                _write(stdout, {"type": "error", "code": "nothing-to-undo", "message": str(exc)})
            continue
        if command == "hint":
            _write(stdout, {"type": "hint", "lines": game.logic.hints(game, player)})
            continue
        if command is not None or "action" not in message:
            _write(
                stdout,
                {"type": "error", "code": "bad-message",
                 "message": "send {\"action\": TEXT} or {\"command\": save|quit|undo|hint}"},
            )  # fmt: skip
            continue
        try:
            session.apply(str(message["action"]))
        except ActionError as exc:
            _write(stdout, {"type": "error", **exc.rejection.to_json()})
    _write(stdout, {"type": "result", "result": session.game.result()})
    return 0


@hookimpl
def register_frontends() -> list[Any]:
    from castell_dsl.contract import Frontend

    return [
        Frontend(
            "jsonl",
            "JSON lines on stdin/stdout, for programs in any language (docs/protocol.md)",
            lambda session: run_session(session),
        )
    ]
