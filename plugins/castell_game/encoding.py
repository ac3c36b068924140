"""Castell's public view for a reader that follows one game step by step (the RL
observations): `GameLogic.tracked_view`. An action changes one region and one team at most
(a move, a recruit, a tower), so each region's and each team's part, and the calendar, are
memoised under the state they are built from (`repr` of those state slices: small lists of
numbers) and shared with the previous view while it is unchanged. `tests/rl/test_tracking.py`
checks that it always equals `view`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .views import calendar_view, region_view, table_view, team_view

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext

    from .tables import Tables


def _memoised(memo: dict[Any, Any], name: Any, inputs: str, build: Callable[[], Any]) -> Any:
    found = memo.get(name)
    if found is None or found[0] != inputs:
        found = memo[name] = (inputs, build())
    return found[1]


def tracked_view(t: Tables, game: GameContext, memo: dict[Any, Any]) -> dict[str, Any]:
    """`views.view`, regions, teams and the calendar memoised in `memo`."""
    g = game.state["g"]
    pawns = g["pawns"]
    regions = [
        _memoised(
            memo,
            ("region", r),
            repr((g["regions"][r], [p for p, at in enumerate(pawns) if at == r], g["lp"][r],
                  g["lp_tokens"][r])),
            lambda r=r: region_view(t, g, r),
        )
        for r in range(len(t.regions))
    ]  # fmt: skip
    teams = [
        _memoised(
            memo,
            ("team", p),
            repr(tuple(g[name][p] for name in TEAM_STATE)),
            lambda p=p: team_view(t, g, p),
        )
        for p in range(game.players)
    ]
    calendar = _memoised(memo, "calendar", repr(g["calendar"]), lambda: calendar_view(t, g))
    return table_view(t, g, regions, calendar, teams)


#: The per-seat lists of the state `views.team_view` reads (`g[name][seat]`).
TEAM_STATE = (
    "pawns", "teams", "ranks", "tokens", "towers", "best", "prizes", "size_tokens", "performed",
    "collected",
)  # fmt: skip
