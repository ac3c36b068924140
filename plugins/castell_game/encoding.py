"""Castell's public view for a reader that follows one game step by step (the RL
observations): `GameLogic.tracked_view`. An action changes one region and one team at most
(a move, a recruit, a tower), so each region's and each team's part, the wheel, the calendar
and the shared sectors are memoised with a copy of the state they are built from, and shared
(the very same objects) with the previous view while that state is unchanged. The state is
compared with `==` on its small lists of numbers, which runs in C; only a changed part is
built again, by the same functions as `view` (`views.py`). `tests/rl/test_tracking.py`
checks that the result always equals `view`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .views import calendar_view, region_view, table_view, team_view

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext

    from .tables import Tables

#: The per-seat lists of the state `views.team_view` reads (`g[name][seat]`).
TEAM_STATE = (
    "pawns", "teams", "ranks", "tokens", "towers", "best", "prizes", "size_tokens", "performed",
    "collected",
)  # fmt: skip


def _copied(value: Any) -> Any:
    """A copy of nested lists of numbers, so that the state changing in place later never
    changes the memo's copy (faster than `copy.deepcopy` for such data)."""
    if type(value) is list:
        return [_copied(item) if type(item) is list else item for item in value]
    return value


def tracked_view(t: Tables, game: GameContext, memo: dict[Any, Any]) -> dict[str, Any]:
    """`views.view`, its parts memoised in `memo` (see the module docstring)."""
    g = game.state["g"]
    # Regions: a region shows its castellers, local tiles, tokens and the pawns on it.
    on: list[list[int]] = [[] for _ in t.regions]
    for p, at in enumerate(g["pawns"]):
        if at >= 0:
            on[at].append(p)
    parts = memo.setdefault("regions", [None] * len(t.regions))
    castellers, tiles, tokens = g["regions"], g["lp"], g["lp_tokens"]
    regions = []
    for r, found in enumerate(parts):
        if (
            found is None
            or found[0] != castellers[r]
            or found[1] != tiles[r]
            or found[2] != tokens[r]
            or found[3] != on[r]
        ):
            found = parts[r] = (
                list(castellers[r]), list(tiles[r]), tokens[r], on[r], region_view(t, g, r),
            )  # fmt: skip
        regions.append(found[4])
    # Teams: each reads the seat's entries of TEAM_STATE (nested lists: copied deeply).
    team_parts = memo.setdefault("teams", [None] * game.players)
    teams = []
    for p, found in enumerate(team_parts):
        inputs = [g[name][p] for name in TEAM_STATE]
        if found is None or found[0] != inputs:
            found = team_parts[p] = ([_copied(x) for x in inputs], team_view(t, g, p))
        teams.append(found[1])
    calendar = memo.get("calendar")
    if calendar is None or calendar[0] != g["calendar"]:
        calendar = memo["calendar"] = (_copied(g["calendar"]), calendar_view(t, g))
    wheel = memo.get("wheel")
    if wheel is None or wheel[0] != g["wheel"] or wheel[1] != g["wheel_turns"]:
        wheel = memo["wheel"] = (list(g["wheel"]), g["wheel_turns"], t.wheel_view(g))
    shared = memo.get("shared_sectors")
    if shared is None:
        shared = memo["shared_sectors"] = [t.sectors[s] for s in t.shared_sectors]
    return table_view(t, g, regions, calendar[1], teams, wheel=wheel[2], shared=shared)
