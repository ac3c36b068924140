"""The Castell mechanics: what `game { mechanics castell }` in a rule file refers to."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from castell_dsl.contract import Mechanics
from castell_dsl.language.diagnostics import Diagnostics
from castell_dsl.language.ruleset import RuleSet

from .schema import ACTIONS, FACTS, KINDS, STEPS

#: Castell's own diagnostic codes (the language's are in castell_dsl.language.diagnostics).
CODES = {
    "E0260": "tile that no team could ever complete",
    "W0261": "prize chart row with more places than players",
    "W0262": "prize that is never awarded",
    "W0263": "calendar space whose festival is never held",
    "W0264": "festival tile that is never drawn",
    "W0265": "skill that can never be trained",
    "W0266": "size tokens that no festival ever gives",
}


def _castellers(rules: RuleSet) -> int:
    return sum(rules.one("bag").values())


def _board_skill_tiles(rules: RuleSet) -> int:
    return len(rules.one("wheel").tiles)


def _special_tokens(rules: RuleSet) -> int:
    return rules.game.players[1] * rules.one("setup").special_tokens


@dataclass
class CastellMechanics(Mechanics):
    name: str = "castell"
    description: str = "Castell: regions, skills and human towers (C-1 … C-10)"
    kinds: Any = field(default_factory=lambda: dict(KINDS))
    facts: Any = field(default_factory=lambda: dict(FACTS))
    steps: tuple[str, ...] = STEPS
    actions: Any = field(default_factory=lambda: dict(ACTIONS))
    counters: Any = field(
        default_factory=lambda: {
            "castellers": _castellers,
            "board_skill_tiles": _board_skill_tiles,
            "special_tokens": _special_tokens,
        }
    )
    codes: Any = field(default_factory=lambda: dict(CODES))

    def check(self, rules: RuleSet, diags: Diagnostics) -> None:
        from .checks import check_castell

        check_castell(rules, diags)

    def build(self, rules: RuleSet) -> Any:
        from .logic import CastellLogic

        return CastellLogic(rules)
