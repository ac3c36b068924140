"""Views of a Castell rule set that the mechanics reads often, computed once per rule set."""

from __future__ import annotations

from functools import lru_cache

from castell_dsl.language.ruleset import Record, RuleSet

from .towers import TowerRules


@lru_cache(maxsize=64)
def tower_rules(rules: RuleSet) -> TowerRules:
    """The tower parameters of a rule set, for the checker and the solver."""
    tower = rules.one("tower")
    skills = rules.named("skill")
    low, high = tower.sizes
    return TowerRules(
        sizes=tuple(range(low, high + 1)),
        width_limit=tower.width_limit,
        skills=tuple(skills),
        relaxations={skill.relaxes: name for name, skill in skills.items()},
        titles={name: skill.title for name, skill in skills.items()},
        mix_spread=tower.mix_spread,
        width_step=tower.width_step,
        score_per_level=rules.one("festival_rules").score_per_level,
        score_per_match=rules.one("festival_rules").score_per_match,
    )


def calendar_spaces(rules: RuleSet, players: int) -> list[Record]:
    """The calendar spaces in use with `players` players, in calendar order (C-3.3)."""
    game = rules.game
    env = {"players": players, "round": 0, "rounds": game.rounds}
    return [
        item.value for item in rules.one("calendar").space if item.when is None or item.when(env)
    ]
