"""The protocol's messages, built in one place (docs/protocol.md).

`castell play --frontend jsonl` and the web server speak the same messages: `hello`, `state`,
`event`, `error`, `hint`, `undone`, `result`. Over WebSocket a few fields and messages are
added (`version`, the connection's `seat`, `joined`/`left`, `checked`), never changed, so a
client of one can read the other. This module depends only on the public game API
(`PlayableGame`), so the JSON-lines front-end can import it too.
"""

from __future__ import annotations

import json
from typing import Any

PROTOCOL = 1

#: The largest message a client may send (bytes of UTF-8); larger ones are refused.
MAX_MESSAGE = 64 * 1024


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


def presence(kind: str, seat: int | None, online: list[int], watchers: int) -> dict[str, Any]:
    """`joined` or `left`: a seat (None for a spectator) came or went; who is here now."""
    return {"type": kind, "seat": seat, "online": online, "watchers": watchers}


def checked(text: str, rejection: Any | None) -> dict[str, Any]:
    """Answer to `check`: would this action be accepted now? (Nothing is played.)"""
    out: dict[str, Any] = {"type": "checked", "action": text, "ok": rejection is None}
    if rejection is not None:
        out.update(rejection.to_json())
    return out


def read_client(text: str) -> dict[str, Any]:
    """A client's line as a message: a JSON object, or the bare text of an action.

    Raises `ProtocolError` when it cannot be read.
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise ProtocolError("too-large", f"messages are limited to {MAX_MESSAGE // 1024} KiB")
    stripped = text.strip()
    if not stripped.startswith("{"):
        return {"action": stripped}
    try:
        message = json.loads(stripped)
    except json.JSONDecodeError as exc:
        raise ProtocolError("bad-json", str(exc)) from None
    if not isinstance(message, dict):
        raise ProtocolError("bad-message", "a message is a JSON object")
    return message
