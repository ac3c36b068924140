"""The protocol's messages, built in one place (docs/protocol.md).

`castell play --frontend jsonl` and the web server speak the same messages, built here for
both: `hello`, `state`, `event`, `error`, `hint`, `undone`, `saved`, `result`. Over WebSocket a
few fields and messages are added (`version`, the connection's `seat`, `joined`/`left`,
`checked`), never changed, so a client of one can read the other. It depends only on the
public game API (`PlayableGame`), so every front-end can use it.
"""

from __future__ import annotations

import json
from typing import Any

from ..safejson import JsonLimitError, loads_bounded

PROTOCOL = 1

#: The largest message a client may send (bytes of UTF-8); larger ones are refused.
MAX_MESSAGE = 64 * 1024
#: The deepest nesting of a client's message (a message is one or two levels deep).
MAX_DEPTH = 8


class ProtocolError(Exception):
    """A client message that cannot be read or may not be sent: answered with an `error`."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def to_message(self) -> dict[str, Any]:
        return error(self.code, self.message)


def encode(message: dict[str, Any]) -> str:
    """One message as compact JSON (one line, as the JSON-lines protocol wants)."""
    return json.dumps(message, separators=(",", ":"))


def hello(game: Any, seats: list[str], **extra: Any) -> dict[str, Any]:
    """The first message: which game, whose seats, which seed (the jsonl fields first)."""
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "game": game.rules.game.title,
        "rules_hash": game.rules.hash,
        "players": game.players,
        "seats": list(seats),
        "seed": game.seed,
        **extra,
    }


def state(game: Any, player: int | None, *, legal: bool = True, **extra: Any) -> dict[str, Any]:
    """The table and, for the seat that must decide, its legal actions.

    `player` is whose decision it is (None once the game is over). `legal=False` leaves the
    actions out: a spectator, or another seat than the one to move, sees the table only.
    """
    deciding = legal and player is not None
    return {
        "type": "state",
        "player": player,
        "round": game.round,
        "legal_actions": [a.text for a in game.legal_actions()] if deciding else [],
        "view": game.view(),
        **extra,
    }


def event(event: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "event", "event": event, **extra}


def error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """Refused input; nothing changed. `code` is stable (a game's rejection codes, or the
    protocol's own: bad-json, bad-message, too-large, rate-limited, spectator, not-your-turn)."""
    return {"type": "error", "code": code, "message": message, **extra}


def rejection(rejection: Any, **extra: Any) -> dict[str, Any]:
    """A game's `Rejection` (its stable code and sentence) as an `error`."""
    return {"type": "error", **rejection.to_json(), **extra}


def hint(lines: list[str], **extra: Any) -> dict[str, Any]:
    return {"type": "hint", "lines": list(lines), **extra}


def undone(actions: int, **extra: Any) -> dict[str, Any]:
    return {"type": "undone", "actions": actions, **extra}


def result(game: Any, **extra: Any) -> dict[str, Any]:
    return {"type": "result", "result": game.result(), **extra}


def saved(path: str, reason: str, **extra: Any) -> dict[str, Any]:
    """A save was written (`save`, `quit`, or the end of input) and where."""
    return {"type": "saved", "path": path, "reason": reason, **extra}


def presence(kind: str, seat: int | None, online: list[int], watchers: int) -> dict[str, Any]:
    """`joined` or `left`: a seat (None for a spectator) came or went; who is here now."""
    return {"type": kind, "seat": seat, "online": online, "watchers": watchers}


def checked(text: str, rejection: Any | None) -> dict[str, Any]:
    """Answer to `check`: would this action be accepted now? (Nothing is played.)"""
    out: dict[str, Any] = {"type": "checked", "action": text, "ok": rejection is None}
    if rejection is not None:
        out.update(rejection.to_json())
    return out


def read_client(text: str, *, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """A client's line as a message: a JSON object, or the bare text of an action.

    Bounded like every read of outside data: at most `MAX_MESSAGE` bytes and `max_depth`
    levels of nesting, numbers within Python's limits. Raises `ProtocolError` (`too-large`,
    `bad-json`, `bad-message`) when it cannot be read; what a message may contain is each
    front-end's to check.
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise ProtocolError("too-large", f"messages are limited to {MAX_MESSAGE // 1024} KiB")
    stripped = text.strip()
    if not stripped:
        raise ProtocolError("bad-message", "an empty message")
    if stripped[0] not in "{[":
        return {"action": stripped}
    try:
        message = loads_bounded(stripped, max_chars=MAX_MESSAGE, max_depth=max_depth)
    except JsonLimitError as exc:
        raise ProtocolError("bad-json", str(exc)) from None
    if not isinstance(message, dict):
        raise ProtocolError("bad-message", "a message is a JSON object")
    return message
