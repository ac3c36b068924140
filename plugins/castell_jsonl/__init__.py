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

import sys
from typing import Any, TextIO

from castell_dsl import hookimpl
from castell_dsl.runtime import protocol as m
from castell_dsl.runtime.protocol import ProtocolError

#: Longest line read from the program (the protocol's message cap); the rest of a longer
#: line is read and discarded.
MAX_LINE = m.MAX_MESSAGE
#: Longest action text.
MAX_ACTION = 1_000
COMMANDS = ("save", "quit", "undo", "hint")
USAGE = 'send {"action": TEXT} or {"command": "save"|"quit"|"undo"|"hint"} ("path" for save/quit)'


def _write(out: TextIO, message: dict[str, Any]) -> None:
    out.write(m.encode(message) + "\n")
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
    if not line.strip():
        raise ProtocolError("bad-message", f"empty line: {USAGE}")
    try:
        message = m.read_client(line)
    except ProtocolError as exc:
        if exc.code == "bad-message":
            raise ProtocolError("bad-message", f"{exc.message}: {USAGE}") from None
        raise
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
        _write(stdout, m.error("save-failed", outcome.describe()))
        return 1
    extra = {"failed": outcome.failures} if outcome.failures else {}
    _write(stdout, m.saved(str(outcome.path), reason, **extra))
    return 0


def run_session(session: Any, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    from castell_dsl.contract import ActionError, UndoError
    from castell_dsl.runtime.saves import SaveError

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    session.observers.append(lambda game, event: _write(stdout, m.event(event)))
    game = session.game
    _write(stdout, m.hello(game, session.seats))
    while (player := session.play_bots()) is not None:
        game = session.game
        _write(stdout, m.state(game, player))
        try:
            line = read_line(stdin)
            if line is None:
                return _final_save(session, stdout, "end of input")
            message = parse_message(line)
        except ProtocolError as exc:
            _write(stdout, m.error(exc.code, exc.message))
            continue
        command = message.get("command")
        if command == "quit":
            return _final_save(session, stdout, "quit", message.get("path"))
        if command == "save":
            try:
                path = session.save(message.get("path"))
            except SaveError as exc:
                _write(stdout, m.error("save-failed", str(exc)))
                continue
            _write(stdout, m.saved(str(path), "save"))
            continue
        if command == "undo":
            try:
                _write(stdout, m.undone(session.undo()))
            except UndoError as exc:
                _write(stdout, m.error("nothing-to-undo", str(exc)))
            continue
        if command == "hint":
            _write(stdout, m.hint(game.logic.hints(game, player)))
            continue
        try:
            session.apply(message["action"])
        except ActionError as exc:
            _write(stdout, m.rejection(exc.rejection))
    _write(stdout, m.result(session.game))
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
