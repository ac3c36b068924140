"""Calico's public view for a reader that follows one game step by step (the RL observations):
`GameLogic.tracked_view`. A step changes one seat at most (a placement, a take), so each
seat's part — its 49-hex quilt, most of the view — is memoised with a copy of the state it is
built from (`SEAT_STATE`) and shared (the very same object) with the previous view while that
state is unchanged, and so are each hex of a quilt, the cats, the market and the quilt's
shape. The state is compared with `==` on its lists of numbers, which runs in C; a changed
part is built again by the same functions as `view` (`views.py`). `tests/rl/test_tracking.py`
checks that it always equals `view`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .views import cats_view, cell_view, market_view, public_view, quilt_view, seat_view

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext

    from .tables import CalicoTables

#: The per-seat lists of the state `views.seat_view` reads (`g[name][seat]`): flat lists of
#: numbers, or a number.
SEAT_STATE = ("boards", "hands", "goals", "revealed", "quilts", "tokens", "buttons", "rainbows")


def tracked_view(logic: CalicoTables, game: GameContext, memo: dict[Any, Any]) -> dict[str, Any]:
    """`public_view`, its seats, cats and quilt shape memoised in `memo`."""
    g = game.state["g"]
    parts = memo.setdefault("seats", [None] * game.players)
    seats = []
    for p, found in enumerate(parts):
        inputs = [g[name][p] for name in SEAT_STATE]
        if found is None or found[0] != inputs:
            copied = [list(x) if isinstance(x, list) else x for x in inputs]
            found = parts[p] = (copied, seat_view(logic, game, p, _cells(logic, g, p, memo)))
        seats.append(found[1])
    cats = memo.get("cats")
    if cats is None or cats[0] != g["cats"] or cats[1] != g["pattern_cat"]:
        cats = memo["cats"] = (list(g["cats"]), list(g["pattern_cat"]), cats_view(logic, g))
    quilt = memo.get("quilt")
    if quilt is None:
        quilt = memo["quilt"] = quilt_view(logic)
    market = memo.get("market")
    if market is None or market[0] != g["market"]:
        market = memo["market"] = (list(g["market"]), market_view(logic, g))
    return public_view(logic, game, seats, cats=cats[2], quilt=quilt, market=market[1])


def _cells(logic: CalicoTables, g: dict, p: int, memo: dict[Any, Any]) -> list[dict[str, Any]]:
    """Seat `p`'s hexes, each memoised with what `cell_view` reads of it: a placement changes
    one hex, and the others stay the same objects."""
    quilt, tokens, buttons, goals = g["quilts"][p], g["tokens"][p], g["buttons"][p], g["goals"][p]
    found = memo.get(("cells", p))
    if found is None or len(found) != len(quilt):
        found = memo[("cells", p)] = [None] * len(quilt)
        memo.pop(("quilt", p), None)
    goals_now = tuple(goals)
    out = []
    changed = False
    for cell, known in enumerate(found):
        inputs = (quilt[cell], tokens[cell], buttons[cell], goals_now)
        if known is None or known[0] != inputs:
            known = found[cell] = (inputs, cell_view(logic, g, p, cell))
            changed = True
        out.append(known[1])
    previous = memo.get(("quilt", p))
    if previous is not None and not changed:
        return previous  # the same list: a reader skips the whole quilt by identity
    memo[("quilt", p)] = out
    return out
