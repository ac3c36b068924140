"""Who sits where, beyond the seats' kinds: players' names, the per-turn clock, the stand-in bot
and the seats left to it, and which actions of the log a stand-in played (docs/web.md, "Seats").

All of it comes from the network (a creation request, a player naming themself) or from the
store, so it is checked here, with bounds, and kept as plain JSON (`to_json`/`from_json`) that
is stored in the same write as the log.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

#: A player's name: at most this many characters, printable, no control or format characters.
MAX_NAME = 24
#: The per-turn clock's range, in seconds.
CLOCK_RANGE = (2.0, 3600.0)
#: The stand-in when the creator names none.
DEFAULT_STAND_IN = "greedy"


class SeatingError(ValueError):
    """A name, clock or seat request that cannot be accepted; the message says why."""


def clean_name(value: Any) -> str | None:
    """A player's name as given (surrounding spaces dropped; None for none), or SeatingError."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise SeatingError("a name is text")
    name = " ".join(value.split())
    if not name:
        return None
    if len(name) > MAX_NAME:
        raise SeatingError(f"a name has at most {MAX_NAME} characters")
    if any(unicodedata.category(c)[0] == "C" for c in name):
        raise SeatingError("a name cannot contain control or format characters")
    return name


def clean_clock(value: Any) -> float | None:
    """Seconds per turn (None: no clock), or SeatingError."""
    if value is None or value == 0:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value:
        raise SeatingError("'clock' is a number of seconds per turn")
    low, high = CLOCK_RANGE
    if not low <= value <= high:
        raise SeatingError(f"'clock' is from {low:g} to {high:g} seconds per turn, or 0 for none")
    return float(value)


@dataclass
class Seating:
    """The seats' state that the log does not hold."""

    names: list[str | None]
    clock: float | None = None
    stand_in: str = DEFAULT_STAND_IN
    #: Seats whose turns the stand-in plays until their player takes them back.
    away: list[bool] = field(default_factory=list)
    #: When the current person's turn runs out (seconds since the epoch), and which turn that
    #: is (`[turns begun, seat]`): a restart keeps the remaining time of that turn only.
    deadline: float | None = None
    deadline_turn: list[int] | None = None
    #: Indexes in the log of the actions a stand-in played.
    stood_in: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.away:
            self.away = [False] * len(self.names)

    def to_json(self) -> dict[str, Any]:
        return {
            "names": list(self.names),
            "clock": self.clock,
            "stand_in": self.stand_in,
            "away": list(self.away),
            "deadline": self.deadline,
            "deadline_turn": self.deadline_turn,
            "stood_in": list(self.stood_in),
        }

    @classmethod
    def from_json(cls, data: Any, seats: int) -> Seating:
        """A stored seating (an empty one for a match stored before seats had names)."""
        data = data if isinstance(data, dict) else {}
        names = [clean_name(n) for n in (data.get("names") or [])][:seats]
        names += [None] * (seats - len(names))
        away = [bool(a) for a in (data.get("away") or [])][:seats]
        away += [False] * (seats - len(away))
        deadline = data.get("deadline")
        turn = data.get("deadline_turn")
        return cls(
            names=names,
            clock=clean_clock(data.get("clock")),
            stand_in=str(data.get("stand_in") or DEFAULT_STAND_IN),
            away=away,
            deadline=float(deadline) if isinstance(deadline, (int, float)) else None,
            deadline_turn=[int(x) for x in turn] if isinstance(turn, list) else None,
            stood_in=[int(x) for x in (data.get("stood_in") or [])],
        )

    def label(self, seat: int, spec: str) -> str:
        """How every page names a seat: its player's name, else `seat N` (a person) or
        `seat N (greedy)` (a bot); never "you", which each page adds for its own seat."""
        name = self.names[seat] if seat < len(self.names) else None
        if name:
            return name
        return f"seat {seat}" if spec == "you" else f"seat {seat} ({spec})"

    def trim(self, log_length: int) -> None:
        """Forget stand-in marks beyond the log (after an undo)."""
        self.stood_in = [n for n in self.stood_in if n < log_length]
