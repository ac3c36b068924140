"""Castell's tower questions as a library API: the JSON contracts of `castell tower`.

    from castell_game.api import check_tower, best_tower

They belong to the Castell game, not to the engine: the core package knows no towers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from castell_dsl import load_rules
from castell_dsl.contract import RuleSet

from . import solver, towers
from .tables import tower_rules

#: The rule set whose tower rules the API uses unless told otherwise.
RULES = "castell"


def check_tower(
    levels: Sequence[Sequence[int]],
    ranks: Mapping[str, int] | None = None,
    *,
    needs: Iterable[str] | None = None,
    shape: Sequence[int] | None = None,
    rules: str | RuleSet = RULES,
) -> dict[str, Any]:
    """Is a tower legal? `levels` bottom first; `ranks` by lower-case skill name (missing: 0).

    Returns `{"legal": bool, "uses": {skill: n} | None, "reason": str | None}` (plus `"meets"`
    with `needs` or `shape`), the JSON contract of `castell tower check`.
    """
    rule_set = tower_rules(load_rules(rules))
    return towers.check_tower_dict(levels, dict(ranks or {}), rule_set, needs, shape)


def best_tower(
    team: Sequence[int],
    ranks: Mapping[str, int] | None = None,
    sizes: Sequence[int] = (),
    min_levels: int = 1,
    *,
    shape: Sequence[int] | None = None,
    needs: Iterable[str] | None = None,
    rules: str | RuleSet = RULES,
) -> dict[str, Any]:
    """The best tower from a team: the JSON contract of `castell tower best`.

    Maximises levels + castellers whose number is in `sizes`, including each of `sizes` and at
    least `min_levels` levels; with `shape` or `needs`, a tower completing that tile.
    """
    rule_set = tower_rules(load_rules(rules))
    return solver.best_tower_dict(
        list(team), dict(ranks or {}), rule_set, tuple(sizes), min_levels, shape, needs
    )
