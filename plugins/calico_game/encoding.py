"""Calico's public view for a reader that follows one game step by step (the RL observations):
`GameLogic.tracked_view`. A step changes one seat at most (a placement, a take), so each seat's
part — its 49-hex quilt, most of the view — is memoised under the state it is built from and
shared with the previous view while that state is unchanged; the rest (market, cats, bag) is
small and built each time. `tests/rl/test_tracking.py` checks that it always equals `view`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .views import public_view, seat_view

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext

    from .logic import CalicoLogic


def seat_inputs(logic: CalicoLogic, g: dict, p: int) -> tuple:
    """Everything of the state `seat_view` reads for seat `p` (the rest is the rule set's):
    equal inputs, equal part."""
    return (
        g["boards"][p],
        tuple(g["hands"][p]),
        tuple(g["goals"][p]),
        tuple(g["revealed"][p]),
        tuple(g["quilts"][p]),
        tuple(g["tokens"][p]),
        tuple(g["buttons"][p]),
        tuple(g["rainbows"][p]),
    )


def tracked_view(logic: CalicoLogic, game: GameContext, memo: dict[Any, Any]) -> dict[str, Any]:
    """`public_view`, each seat's part memoised in `memo` under `seat_inputs`."""
    g = game.state["g"]
    seats = []
    for p in range(game.players):
        inputs = seat_inputs(logic, g, p)
        found = memo.get(("seat", p))
        if found is None or found[0] != inputs:
            found = memo[("seat", p)] = (inputs, seat_view(logic, game, p))
        seats.append(found[1])
    return public_view(logic, game, seats)
