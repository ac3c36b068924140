"""The JSON-lines front-end: `castell play --frontend jsonl` (docs/protocol.md).

One JSON object per line. The engine writes `hello`, then for every decision of a seat
marked `you` a `state` message (the table, whose turn, the legal actions) and waits for one
line from the program: an action (`{"action": "move Girona"}`, or the bare text) or a command
(`{"command": "save", "path": "…"}`, `{"command": "quit"}`). Events (`{"type": "event", …}`)
report what happens, errors (`{"type": "error", …}`) refused input, and `result` the end.
Bots play the other seats. So a bot or a user interface in any language can play.

The other end is a program we do not control, so no line it sends can end the session: a
line that is not JSON, not an object, of the wrong types, too long or too deeply nested gets
an `error` reply with a stable code and the session waits for the next line; a save that
cannot be written is an `error` too. `quit` and the end of input save where asked, else
wherever they can, and say where (or, if nowhere, exactly why).
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from castell_dsl import hookimpl

#: Longest line read from the program; the rest of a longer line is read and discarded.
MAX_LINE = 64 * 1024
#: Deepest nesting of a message (a message is one level deep).
MAX_DEPTH = 8
#: Longest action text.
MAX_ACTION = 1_000
COMMANDS = ("save", "quit", "undo", "hint")
USAGE = 'send {"action": TEXT} or {"command": "save"|"quit"|"undo"|"hint"} ("path" for save/quit)'


class ProtocolError(Exception):
    """A line the protocol refuses: `code` is stable (docs/protocol.md), `message` says why."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _write(out: TextIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message, separators=(",", ":")) + "\n")
    out.flush()


def read_line(stdin: TextIO) -> str | None:
    """One line from the program (None at the end of input); ProtocolError('too-long') for a
    line over MAX_LINE characters, after reading and discarding the rest of it."""
    line = stdin.readline(MAX_LINE + 1)
    if not line:
        return None
    if len(line) > MAX_LINE and not line.endswith("\n"):
        while (rest := stdin.readline(MAX_LINE)) and not rest.endswith("\n"):
            pass
        raise ProtocolError("too-long", f"a line is at most {MAX_LINE:,} characters")
    return line


def parse_message(line: str) -> dict[str, Any]:
    """A line as a checked message: {"action": str} or {"command": str[, "path": str]}.
    Raises ProtocolError (bad-json, bad-message) for anything else."""
    from castell_dsl.runtime.safejson import JsonLimitError, loads_bounded

    text = line.strip()
    if not text:
        raise ProtocolError("bad-message", f"empty line: {USAGE}")
    if text[0] not in "{[":
        message: Any = {"action": text}
    else:
        try:
            message = loads_bounded(text, max_chars=MAX_LINE, max_depth=MAX_DEPTH)
        except JsonLimitError as exc:
            raise ProtocolError("bad-json", str(exc)) from None
    if not isinstance(message, dict):
        raise ProtocolError("bad-message", f"a message is a JSON object: {USAGE}")
    keys = set(message)
    if keys == {"action"}:
        action = message["action"]
        if not isinstance(action, str):
            raise ProtocolError("bad-message", "'action' must be a string")
        if len(action) > MAX_ACTION:
            raise ProtocolError("bad-message", f"'action' is at most {MAX_ACTION} characters")
        return message
    if "command" in keys and keys <= {"command", "path"}:
        command = message["command"]
        if not isinstance(command, str) or command not in COMMANDS:
            shown = command if isinstance(command, str) else type(command).__name__
            raise ProtocolError(
                "bad-message", f"unknown command {str(shown)[:40]!r}: {', '.join(COMMANDS)}"
            )
        if "path" in message:
            if command not in ("save", "quit"):
                raise ProtocolError("bad-message", f"'{command}' takes no 'path'")
            if not isinstance(message["path"], str):
                raise ProtocolError("bad-message", "'path' must be a string (a file name)")
        return message
    unknown = sorted(str(k)[:40] for k in keys - {"action", "command", "path"})
    detail = f"unknown field '{unknown[0]}'" if unknown else "one of 'action' or 'command'"
    raise ProtocolError("bad-message", f"{detail}: {USAGE}")


def _final_save(session: Any, stdout: TextIO, reason: str, path: str | None = None) -> int:
    """Save for quit/end of input wherever possible and say where; 1 if nowhere."""
    outcome = session.save_somewhere(path)
    if outcome.path is None:
        _write(stdout, {"type": "error", "code": "save-failed", "message": outcome.describe()})
        return 1
    reply: dict[str, Any] = {"type": "saved", "path": str(outcome.path), "reason": reason}
    if outcome.failures:
        reply["failed"] = outcome.failures
    _write(stdout, reply)
    return 0


def run_session(session: Any, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    from castell_dsl.contract import ActionError, UndoError
    from castell_dsl.runtime.saves import SaveError

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
        try:
            line = read_line(stdin)
            if line is None:
                return _final_save(session, stdout, "end of input")
            message = parse_message(line)
        except ProtocolError as exc:
            _write(stdout, {"type": "error", "code": exc.code, "message": exc.message})
            continue
        command = message.get("command")
        if command == "quit":
            return _final_save(session, stdout, "quit", message.get("path"))
        if command == "save":
            try:
                path = session.save(message.get("path"))
            except SaveError as exc:
                _write(stdout, {"type": "error", "code": "save-failed", "message": str(exc)})
                continue
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
        try:
            session.apply(message["action"])
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
