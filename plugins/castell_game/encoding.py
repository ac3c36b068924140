"""Castell's public view in parts, for a reader that follows one game step by step (the RL
observations): `GameLogic.tracked_parts`. An action changes little (a move one pawn, a
recruit one region's castellers and one team, a tower one team's tower and tokens), so each
entry of the state a part reads is kept in the memo as a copy, compared with `==` (on small
lists of numbers, in C: each entry once for every seat, seat by seat only when it differs),
and only the parts whose entries changed are handed over, one per key of a region's or a
team's view, built by the same functions as `view` (`views.py`) and keyed by what they read,
so that the reader flattens each recurring value once. `tests/rl/test_tracking.py` checks
that the parts always make up `view`."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import partial
from typing import TYPE_CHECKING, Any

from .views import calendar_view, region_view, team_view

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext

    from .tables import Tables

Part = tuple[str, Hashable, Callable[[], Any]]

#: What each key of `views.team_view` reads: the state's per-seat entry `g[name][seat]`
#: (None: the key never changes).
TEAM_READS: dict[str, str | None] = {
    "seat": None, "pawn": "pawns", "team": "teams", "ranks": "ranks", "special_tokens": "tokens",
    "tower": "towers", "best_tower_score": "best", "prizes": "prizes",
    "size_tokens": "size_tokens", "performances": "performed", "collected": "collected",
}  # fmt: skip

#: What each key of `views.region_view` reads: the state's per-region entry `g[name][region]`
#: ("on": the seats whose pawn is on the region; None: the key never changes).
REGION_READS: dict[str, str | None] = {
    "name": None, "adjacent": None, "castellers": "regions", "pawns": "on",
    "local_performances": "lp", "special_tokens": "lp_tokens",
}  # fmt: skip


def _frozen(value: Any) -> Hashable:
    """Nested lists of numbers as nested tuples (a part's key)."""
    if type(value) is list:
        return tuple(_frozen(item) if type(item) is list else item for item in value)
    return value


def _copied(value: Any) -> Any:
    """A copy of nested lists of numbers, so that the state changing in place later never
    changes the memo's copy (faster than `copy.deepcopy` for such data)."""
    if type(value) is list:
        return [_copied(item) if type(item) is list else item for item in value]
    return value


def _value(value: Any) -> Any:
    """A part already built (`partial(_value, x)` builds `x`)."""
    return value


def _entry(build: Callable[[Tables, dict, int], dict[str, Any]], key: str, *args: Any) -> Any:
    """One key of a region's or a team's view (`build(*args)[key]`)."""
    return build(*args)[key]


def _changed_entries(memo: dict[Any, Any], name: str, rows: list[Any]) -> list[int]:
    """The indices whose entry of `rows` differs from the copy in `memo` (all the first
    time); the copy is brought up to date."""
    before = memo.get(name)
    if before is not None and len(before) == len(rows):
        if before == rows:
            return []
        changed = [i for i, (a, b) in enumerate(zip(rows, before, strict=True)) if a != b]
    else:
        changed = list(range(len(rows)))
    memo[name] = _copied(rows)
    return changed


def tracked_parts(t: Tables, game: GameContext, memo: dict[Any, Any]) -> list[Part]:
    """The parts of `views.view` whose state changed since the previous call."""
    g = game.state["g"]
    first = not memo
    parts: list[Part] = []
    if first:
        parts.append(("regions#", None, lambda: len(t.regions)))
        parts.append(("teams#", None, lambda: game.players))
        parts.append(("shared_sectors", None, lambda: [t.sectors[s] for s in t.shared_sectors]))
    on: list[list[int]] = [[] for _ in t.regions]
    for p, at in enumerate(g["pawns"]):
        if at >= 0:
            on[at].append(p)
    region_state = {"regions": g["regions"], "lp": g["lp"], "lp_tokens": g["lp_tokens"], "on": on}
    for key, name in REGION_READS.items():
        if name is None and not first:
            continue
        rows = region_state[name] if name is not None else []
        regions = range(len(t.regions)) if name is None else _changed_entries(memo, name, rows)
        for r in regions:
            parts.append(
                (
                    f"regions[{r}].{key}",
                    None if name is None else _frozen(rows[r]),
                    partial(_entry, region_view, key, t, g, r),
                )
            )
    for key, name in TEAM_READS.items():
        if name is None and not first:
            continue
        seats = range(game.players) if name is None else _changed_entries(memo, name, g[name])
        for p in seats:
            parts.append(
                (
                    f"teams[{p}].{key}",
                    None if name is None else _frozen(g[name][p]),
                    partial(_entry, team_view, key, t, g, p),
                )
            )
    if _changed_entries(memo, "calendar", [g["calendar"]]):
        parts.append(("calendar", None, lambda: calendar_view(t, g)))
    if _changed_entries(memo, "wheel", [g["wheel"], g["wheel_turns"]]):
        parts.append(("wheel", _frozen(memo["wheel"]), lambda: t.wheel_view(g)))
    bag = sum(g["bag"])
    if _changed_entries(memo, "bag", [bag]):
        parts.append(("bag", bag, partial(_value, bag)))
    return parts
