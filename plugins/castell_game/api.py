"""Castell's tower questions as a library API: the JSON contracts of `castell tower`.

    from castell_game.api import check_tower, best_tower

They belong to the Castell game, not to the engine: the core package knows no towers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from castell_dsl.contract import RuleSet

from . import solver, towers
from .arguments import (
    TowerArgumentError,
    checked_count,
    checked_levels,
    checked_needs,
    checked_numbers,
    checked_ranks,
    most_castellers,
    tower_rule_set,
)
from .tables import tower_rules

__all__ = ["RULES", "TowerArgumentError", "best_tower", "check_tower"]

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
    with `needs` or `shape`), the JSON contract of `castell tower check`. Arguments that cannot
    be used (a float, a rank above the skill's max_rank, a rule set without towers) raise
    `TowerArgumentError`, a ValueError (`arguments.py`).
    """
    rule_set = tower_rule_set(rules)
    return towers.check_tower_dict(
        checked_levels(levels, most_castellers(rule_set)),
        checked_ranks(ranks, rule_set),
        tower_rules(rule_set),
        checked_needs(needs, rule_set),
        checked_numbers(shape, "shape") if shape is not None else None,
    )


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
    least `min_levels` levels; with `shape` or `needs`, a tower completing that tile. Arguments
    are checked as for `check_tower`.
    """
    rule_set = tower_rule_set(rules)
    return best_tower_checked(
        tower_rules(rule_set),
        checked_numbers(team, "team", limit=most_castellers(rule_set)),
        checked_ranks(ranks, rule_set),
        checked_numbers(sizes, "sizes"),
        checked_count(min_levels, "min_levels"),
        checked_numbers(shape, "shape") if shape is not None else None,
        checked_needs(needs, rule_set),
    )


def best_tower_checked(
    rules: Any,
    team: list[int],
    ranks: dict[str, int],
    sizes: list[int],
    min_levels: int,
    shape: list[int] | None,
    needs: list[str] | None,
) -> dict[str, Any]:
    """`best_tower` on checked arguments (the command line checks its own first). A tower
    cannot have more levels, or a shape more castellers, than the team has castellers: such
    a question is answered without a search (whose tables would grow with the number)."""
    if min_levels > len(team) or (shape is not None and sum(shape) > len(team)):
        return {"found": False, "score": None, "levels": None, "uses": None}
    return solver.best_tower_dict(team, ranks, rules, tuple(sizes), min_levels, shape, needs)
