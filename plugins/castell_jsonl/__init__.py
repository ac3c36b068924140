"""The JSON-lines front-end: `castell play --frontend jsonl` (docs/protocol.md).

One JSON object per line. The engine writes `hello`, then for every decision of a seat
marked `you` a `state` message (the table, whose turn, the legal actions) and waits for one
line from the program: an action (`{"action": "move Girona"}`, or the bare text) or one of the
play commands every front-end offers (`castell_dsl.contract.COMMANDS`: `{"command": "save",
"path": "…"}`, `{"command": "check", "action": "end"}`, `{"command": "quit"}` …), whose answer
from the one dispatcher is written as it is. Events (`{"type": "event", …}`)
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
from castell_dsl.contract import COMMANDS, ActionError, CommandError, PlaySession
from castell_dsl.contract import protocol as m
from castell_dsl.contract.commands import save_and_stop
from castell_dsl.contract.protocol import ProtocolError

#: Longest line read from the program (the protocol's message cap); the rest of a longer
#: line is read and discarded.
MAX_LINE = m.MAX_MESSAGE
#: Longest action text (an action to play, or to `check`).
MAX_ACTION = 1_000
USAGE = (
    'send {"action": TEXT} or {"command": NAME} with its arguments '
    f"(commands: {COMMANDS.usage()}; docs/protocol.md)"
)


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
    """A line as a checked message: {"action": str}, or {"command": NAME, ARGUMENT: str …}
    with a command of the registry (`castell_dsl.contract.COMMANDS`) and only its
    arguments. Raises ProtocolError (bad-json, bad-message) for anything else."""
    if not line.strip():
        raise ProtocolError("bad-message", f"empty line: {USAGE}")
    try:
        message = m.read_client(line)
    except ProtocolError as exc:
        if exc.code == "bad-message":
            raise ProtocolError("bad-message", f"{exc.message}: {USAGE}") from None
        raise
    action = message.get("action")
    if "action" in message and (not isinstance(action, str) or len(action) > MAX_ACTION):
        if not isinstance(action, str):
            raise ProtocolError("bad-message", "'action' must be a string")
        raise ProtocolError("bad-message", f"'action' is at most {MAX_ACTION} characters")
    if set(message) == {"action"}:
        return message
    if "command" in message:
        command = message["command"]
        if not isinstance(command, str):
            raise ProtocolError("bad-message", f"'command' is a name: {USAGE}")
        arguments = {k: v for k, v in message.items() if k != "command"}
        try:
            COMMANDS.check_arguments(command, arguments)
        except CommandError as exc:
            raise ProtocolError(exc.code, exc.message) from None
        return message
    unknown = sorted(str(k)[:40] for k in set(message) - {"action"})
    detail = f"unknown field '{unknown[0]}'" if unknown else "one of 'action' or 'command'"
    raise ProtocolError("bad-message", f"{detail}: {USAGE}")


def run_session(
    session: PlaySession, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Play `session` over JSON lines: actions are applied, commands go to the one
    dispatcher (`PlaySession.command`) and its answer is written as it is."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    session.observers.append(lambda game, event: _write(stdout, m.event(event)))
    _write(stdout, m.hello(session.game, session.seats))
    while (player := session.play_bots()) is not None:
        _write(stdout, m.state(session.game, player))
        try:
            line = read_line(stdin)
            if line is None:
                return _stop(stdout, save_and_stop(session, "end of input").message)
            message = parse_message(line)
        except ProtocolError as exc:
            _write(stdout, m.error(exc.code, exc.message))
            continue
        if "command" in message:
            arguments = {k: v for k, v in message.items() if k != "command"}
            answer = session.command(message["command"], arguments, player)
            if answer.stop:
                return _stop(stdout, answer.message)
            _write(stdout, answer.message)
            continue
        try:
            session.apply(message["action"])
        except ActionError as exc:
            _write(stdout, m.rejection(exc.rejection))
    _write(stdout, m.result(session.game))
    return 0


def _stop(stdout: TextIO, message: dict[str, Any]) -> int:
    """The last message (where the game was saved, or why nowhere) and the exit code."""
    _write(stdout, message)
    return 1 if message["type"] == "error" else 0


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
