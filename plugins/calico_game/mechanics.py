"""The Calico mechanics: what `game { mechanics calico }` in a rule file refers to."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from castell_dsl.contract import Diagnostics, Field, GameLogic, Kind, Mechanics, RuleSet

from .schema import ACTIONS, FACTS, KINDS, STEPS


def _patches(rules: RuleSet) -> int:
    """The box's patch tiles: every colour with every pattern, `copies` times (K-1.1)."""
    colours = len(rules.named("colour"))
    patterns = len(rules.named("pattern"))
    return colours * patterns * rules.one("bag").copies


def _edge_patches(rules: RuleSet) -> int:
    """Patches printed on the boards' edges (K-1.2); they never go in the bag."""
    return sum(len(board.edge) for board in rules.named("board").values())


#: Calico's own diagnostic codes (the language's are in castell_dsl.language.diagnostics).
CODES = {
    "W0281": "cat that setup never draws",
}


@dataclass
class CalicoMechanics(Mechanics):
    name: str = "calico"
    description: str = "Calico: hex quilts, design goals, cats and buttons (K-1 … K-8)"
    kinds: Mapping[str, Kind] = field(default_factory=lambda: dict(KINDS))
    facts: Mapping[str, str] = field(default_factory=lambda: dict(FACTS))
    steps: tuple[str, ...] = STEPS
    actions: Mapping[str, Mapping[str, Field]] = field(default_factory=lambda: dict(ACTIONS))
    counters: Mapping[str, Callable[[RuleSet], int]] = field(
        default_factory=lambda: {"patches": _patches, "edge_patches": _edge_patches}
    )
    codes: Mapping[str, str] = field(default_factory=lambda: dict(CODES))

    def check(self, rules: RuleSet, diags: Diagnostics) -> None:
        from .checks import check_calico

        check_calico(rules, diags)

    def build(self, rules: RuleSet) -> GameLogic:
        from .logic import CalicoLogic

        return CalicoLogic(rules)
