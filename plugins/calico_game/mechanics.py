"""The Calico mechanics: what `game { mechanics calico }` in a rule file refers to."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from castell_dsl.contract import Mechanics
from castell_dsl.language.diagnostics import Diagnostics
from castell_dsl.language.ruleset import RuleSet

from .schema import ACTIONS, FACTS, KINDS, STEPS


def _patches(rules: RuleSet) -> int:
    """The box's patch tiles: every colour with every pattern, `copies` times (K-1.1)."""
    colours = len(rules.named("colour"))
    patterns = len(rules.named("pattern"))
    return colours * patterns * rules.one("bag").copies


def _edge_patches(rules: RuleSet) -> int:
    """Patches printed on the boards' edges (K-1.2); they never go in the bag."""
    return sum(len(board.edge) for board in rules.named("board").values())


@dataclass
class CalicoMechanics(Mechanics):
    name: str = "calico"
    description: str = "Calico: hex quilts, design goals, cats and buttons (K-1 … K-8)"
    kinds: Any = field(default_factory=lambda: dict(KINDS))
    facts: Any = field(default_factory=lambda: dict(FACTS))
    steps: tuple[str, ...] = STEPS
    actions: Any = field(default_factory=lambda: dict(ACTIONS))
    counters: Any = field(
        default_factory=lambda: {"patches": _patches, "edge_patches": _edge_patches}
    )

    def check(self, rules: RuleSet, diags: Diagnostics) -> None:
        from .checks import check_calico

        check_calico(rules, diags)

    def build(self, rules: RuleSet) -> Any:
        from .logic import CalicoLogic

        return CalicoLogic(rules)
