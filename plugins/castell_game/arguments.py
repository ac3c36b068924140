"""The tower questions' arguments, checked once for the API and the command line.

`check_tower` and `best_tower` are called by programs with whatever they hold: a rank of
2**30 (the search's tables grow with a rank), a float where a count is meant (the compiled
search truncated it, the Python search used it as it was), a `min_levels` of 10**30 (an
overflow), a Calico rule set (no tower at all). Every argument is checked here, the same way
for both searches, and a wrong one is a `TowerArgumentError` (a ValueError) saying which and
why; only checked values reach `towers` and `solver`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from castell_dsl.contract import RuleSet

#: Most castellers in a team or a tower asked about when the rule set does not say how many
#: its bag holds. The search's tables grow faster than the team (10,000 castellers of one
#: number took 800 MB; 1,000 of every number, 400 MB), so a team is at most the bag.
MAX_CASTELLERS = 1_000


def most_castellers(rule_set: RuleSet) -> int:
    """The largest team or tower worth asking about: the castellers the game's bag holds
    (`components { castellers: N }`), else MAX_CASTELLERS."""
    components = rule_set.one("components") if rule_set.has("components") else None
    bag = components.get("castellers") if isinstance(components, Mapping) else None
    if isinstance(bag, int) and not isinstance(bag, bool) and bag > 0:
        return bag
    return MAX_CASTELLERS


class TowerArgumentError(ValueError):
    """An argument of a tower question that cannot be used; the message says which."""


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def tower_rule_set(rules: Any) -> RuleSet:
    """The rule set to ask about: a Castell rule set, or the name or path of one."""
    from castell_dsl import load_rules

    rule_set = load_rules(rules) if isinstance(rules, str) else rules
    if not isinstance(rule_set, RuleSet):
        raise TowerArgumentError(
            f"rules must be a rule set or its name, not {type(rules).__name__}"
        )
    if not rule_set.has("tower") or not rule_set.has("skill"):
        raise TowerArgumentError(
            f"{rule_set.name} is a {rule_set.mechanics} rule set: towers are Castell's"
        )
    return rule_set


def checked_ranks(ranks: Any, rule_set: RuleSet) -> dict[str, int]:
    """Skill ranks by lower-case skill name, each a whole number from 0 to its max_rank."""
    if ranks is None:
        return {}
    if not isinstance(ranks, Mapping):
        raise TowerArgumentError("ranks are a mapping of skill names to whole numbers")
    skills = rule_set.named("skill")
    out: dict[str, int] = {}
    for name, rank in ranks.items():
        if name not in skills:
            raise TowerArgumentError(
                f"unknown skill {str(name)[:40]!r} (skills: {', '.join(skills)})"
            )
        highest = skills[name].max_rank
        if not _integer(rank):
            raise TowerArgumentError(f"the rank of {name} must be a whole number, not {rank!r:.40}")
        if not 0 <= rank <= highest:
            raise TowerArgumentError(f"the rank of {name} is from 0 to {highest}, not {rank}")
        out[name] = rank
    return out


def checked_numbers(values: Any, what: str, *, limit: int = MAX_CASTELLERS) -> list[int]:
    """A list of whole numbers (casteller numbers, sizes, castellers per level)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TowerArgumentError(f"{what} is a list of whole numbers")
    out = []
    for value in values:
        if not _integer(value):
            raise TowerArgumentError(f"{what} holds {value!r:.40}, which is not a whole number")
        out.append(value)
        if len(out) > limit:
            raise TowerArgumentError(f"{what} has more than {limit:,} entries")
    return out


def checked_levels(levels: Any, limit: int = MAX_CASTELLERS) -> list[list[int]]:
    """A tower, bottom level first: lists of casteller numbers (legality is the checker's)."""
    if isinstance(levels, (str, bytes)) or not isinstance(levels, Sequence):
        raise TowerArgumentError("levels is a list of levels, each a list of casteller numbers")
    out, total = [], 0
    for number, level in enumerate(levels, 1):
        checked = checked_numbers(level, f"level {number}", limit=limit)
        total += len(checked)
        if total > limit:
            raise TowerArgumentError(f"a tower of more than {limit:,} castellers")
        out.append(checked)
    return out


def checked_count(value: Any, what: str, low: int = 1) -> int:
    if not _integer(value) or value < low:
        raise TowerArgumentError(f"{what} is a whole number of at least {low}, not {value!r:.40}")
    return value


def checked_needs(needs: Any, rule_set: RuleSet) -> list[str] | None:
    if needs is None:
        return None
    if isinstance(needs, (str, bytes)) or not isinstance(needs, Iterable):
        raise TowerArgumentError("needs is a list of skill names")
    skills = rule_set.named("skill")
    out = []
    for name in needs:
        if name not in skills:
            raise TowerArgumentError(
                f"unknown skill {str(name)[:40]!r} (skills: {', '.join(skills)})"
            )
        out.append(name)
    return out
