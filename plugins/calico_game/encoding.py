"""Calico's public view in parts, for a reader that follows one game step by step (the RL
observations): `GameLogic.tracked_parts`. A step changes little — a placement one hex of one
quilt, that seat's hand and what it scored; a take a hand, the market and the bag — so the
state each part is built from is kept in the memo as a copy, compared with `==` (on lists of
numbers, in C), and only the parts whose state changed are handed over, built by the same
functions as `view` (`views.py`). A hex's part carries its inputs as its key, so the reader
flattens each (hex, patch, token, button) once. `tests/rl/test_tracking.py` checks that the
parts always make up `view`."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import partial
from typing import TYPE_CHECKING, Any

from .views import cats_view, cell_view, hand_view, market_view, quilt_view, seat_head, seat_scoring

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext

    from .tables import CalicoTables

Part = tuple[str, Hashable, Callable[[], Any]]

#: The per-seat lists of the state a seat's hexes read (`views.cell_view`), its scoring
#: (`views.seat_scoring`), and the rest of its part (`views.seat_head`).
CELL_STATE = ("quilts", "tokens", "buttons", "goals")
SCORING_STATE = ("quilts", "tokens", "buttons", "rainbows", "goals")
HEAD_STATE = ("boards", "goals", "revealed")


def _changed(memo: dict[Any, Any], name: Any, now: Any) -> bool:
    """Whether `now` differs from what `memo` holds under `name`; keeps a copy of it if so
    (lists of numbers, or lists of them, copied one level down too)."""
    if name in memo and memo[name] == now:
        return False
    memo[name] = [list(x) if type(x) is list else x for x in now] if type(now) is list else now
    return True


def tracked_parts(logic: CalicoTables, game: GameContext, memo: dict[Any, Any]) -> list[Part]:
    """The parts of `views.public_view` whose state changed since the previous call."""
    g = game.state["g"]
    first = not memo
    parts: list[Part] = []
    if first:
        parts.append(("quilt", None, lambda: quilt_view(logic)))
        parts.append(("seats#", None, lambda: game.players))
    for name in ("bag", "removed"):
        total = sum(g[name])
        if _changed(memo, name, total):
            parts.append((name, total, partial(_value, total)))
    if _changed(memo, "market", g["market"]):
        parts.append(("market", tuple(g["market"]), lambda: market_view(logic, g)))
    if _changed(memo, "cats", g["cats"]) | _changed(memo, "pattern_cat", g["pattern_cat"]):
        parts.append(("cats", None, lambda: cats_view(logic, g)))
    changed = {name: _changed(memo, name, g[name]) for name in ("hands", *SCORING_STATE)}
    changed.update((name, _changed(memo, name, g[name])) for name in ("boards", "revealed"))
    for p in range(game.players):
        seat = f"seats[{p}]"
        if first:
            parts.append((f"{seat}.cells#", None, partial(_value, len(g["quilts"][p]))))
        if changed["hands"] and _changed(memo, ("hand", p), g["hands"][p]):
            parts.append((f"{seat}.hand", tuple(g["hands"][p]), partial(hand_view, logic, g, p)))
        if any(changed[name] for name in HEAD_STATE) and _changed(
            memo, ("head", p), [g[name][p] for name in HEAD_STATE]
        ):
            parts.append((seat, None, partial(_head, logic, g, p)))
        if any(changed[name] for name in SCORING_STATE) and _changed(
            memo, ("scoring", p), [g[name][p] for name in SCORING_STATE]
        ):
            parts.extend(_scoring_parts(logic, game, p))
        if first or any(changed[name] for name in CELL_STATE):
            parts.extend(_cell_parts(logic, g, p, memo))
    return parts


def _value(value: Any) -> Any:
    """A part already built (`partial(_value, x)` builds `x`)."""
    return value


def _head(logic: CalicoTables, g: dict, p: int) -> dict[str, Any]:
    """`seat_head` but its hand, which is a part of its own (it changes every turn)."""
    head = seat_head(logic, g, p)
    del head["hand"]
    return head


def _scoring_parts(logic: CalicoTables, game: GameContext, p: int) -> list[Part]:
    """A seat's scoring, one part per key: the facts are worked out once, here."""
    scoring = seat_scoring(logic, game, p)
    return [(f"seats[{p}].{key}", None, partial(_value, value)) for key, value in scoring.items()]


def _cell_parts(logic: CalicoTables, g: dict, p: int, memo: dict[Any, Any]) -> list[Part]:
    """Seat `p`'s hexes whose inputs changed (`CELL_STATE`), each keyed by those inputs: the
    seat's lists are compared with their copies as wholes first, item by item only if not
    equal."""
    cells: set[int] = set()
    for name in ("quilts", "tokens", "buttons"):
        now = g[name][p]
        before = memo.get((name, p))
        if before is None or len(before) != len(now):
            cells.update(range(len(now)))
        elif before != now:
            cells.update(c for c, (a, b) in enumerate(zip(now, before, strict=True)) if a != b)
        else:
            continue
        memo[(name, p)] = list(now)
    goals = tuple(g["goals"][p])
    if memo.get(("goals", p)) != goals:
        memo[("goals", p)] = goals
        cells.update(logic.goal_cells)
    quilt, tokens, buttons = g["quilts"][p], g["tokens"][p], g["buttons"][p]
    goal_cells = logic.goal_cells
    return [
        (
            f"seats[{p}].cells[{cell}]",
            (quilt[cell], tokens[cell], buttons[cell], goals if cell in goal_cells else None),
            partial(cell_view, logic, g, p, cell),
        )
        for cell in sorted(cells)
    ]
