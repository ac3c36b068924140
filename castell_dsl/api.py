"""The library API (documented in the README).

    from castell_dsl import load_rules, new_game, check_tower, best_tower

`check_tower` and `best_tower` answer Castell's tower questions through the Castell mechanics
found for the rule set (a plugin), so the core package never imports a game by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .engine.game import Game, logic_for
from .language.ruleset import RuleSet
from .loading import load_rules


def new_game(
    rules: str | RuleSet = "castell",
    players: int = 4,
    seed: int = 0,
    variants: Sequence[str] = (),
    *,
    record_events: bool = True,
) -> Game:
    """A new game of `rules` (a name, a path or a loaded `RuleSet`) with `players` players."""
    ruleset = load_rules(rules, tuple(variants))
    return Game(ruleset, players, seed, record_events=record_events)


def _tower_logic(rules: str | RuleSet) -> Any:
    logic = logic_for(load_rules(rules))
    if not hasattr(logic, "check_tower_dict"):
        raise TypeError(f"the mechanics of {logic.rules.name} has no towers")
    return logic


def check_tower(
    levels: Sequence[Sequence[int]],
    ranks: Mapping[str, int] | None = None,
    *,
    needs: Iterable[str] | None = None,
    shape: Sequence[int] | None = None,
    rules: str | RuleSet = "castell",
) -> dict[str, Any]:
    """Is a tower legal? `levels` bottom first; `ranks` by lower-case skill name (missing: 0).

    Returns `{"legal": bool, "uses": {skill: n} | None, "reason": str | None}` (plus `"meets"`
    with `needs` or `shape`), the JSON contract of `castell tower check`.
    """
    return _tower_logic(rules).check_tower_dict(levels, dict(ranks or {}), needs, shape)


def best_tower(
    team: Sequence[int],
    ranks: Mapping[str, int] | None = None,
    sizes: Sequence[int] = (),
    min_levels: int = 1,
    *,
    shape: Sequence[int] | None = None,
    needs: Iterable[str] | None = None,
    rules: str | RuleSet = "castell",
) -> dict[str, Any]:
    """The best tower from a team: the JSON contract of `castell tower best`.

    Maximises levels + castellers whose number is in `sizes`, including each of `sizes` and at
    least `min_levels` levels; with `shape` or `needs`, a tower completing that tile.
    """
    return _tower_logic(rules).best_tower_dict(
        list(team), dict(ranks or {}), tuple(sizes), min_levels, shape, needs
    )
