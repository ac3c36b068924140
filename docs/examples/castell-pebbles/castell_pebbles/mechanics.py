"""What `game { mechanics pebbles }` means to the compiler: the schema, facts, steps, actions,
this game's own diagnostic code and the check that reports it.

The schema is structure, not content: a `heaps` block with a count and a range of sizes, and a
`take` action with a `most` parameter. The numbers themselves are in `rules/pebbles.castell`
and its variants.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from castell_dsl.contract import (
    Diagnostics,
    Field,
    GameLogic,
    Integer,
    IntRange,
    Kind,
    Mechanics,
    RuleSet,
    Struct,
)

#: The largest heap a rule file may deal: the board draws a heap as one row of pebbles.
MAX_HEAP = 20

KINDS = {
    "heaps": Kind(
        "heaps",
        Struct(
            "heaps",
            {
                "count": Field(Integer(1, 26), example="3", doc="heaps on the table, A to Z"),
                # Typed loosely on purpose: the game's own check says why a size is wrong.
                "sizes": Field(IntRange(0, 999), example="3..7", doc="pebbles in a new heap"),
            },
        ),
        "heaps",
        required=True,
        doc="the heaps on the table and how many pebbles a new one holds",
    )
}

#: What scoring expressions may read, per player.
FACTS = {"pebbles": "int", "emptied": "int"}

#: The automatic step a rule file may schedule: deal every empty heap again.
STEPS = ("restock",)

#: The one action, with its parameter (`action take { most 3 }`).
ACTIONS = {
    "take": {
        "most": Field(Integer(min=1), example="3", doc="most pebbles taken in one action"),
    }
}

#: This game's diagnostic codes, registered with the mechanics (the core knows none of them).
CODES = {"E0901": "heap size out of range"}


@dataclass
class PebblesMechanics(Mechanics):
    name: str = "pebbles"
    description: str = "Pebbles: a Nim with heaps dealt at random"
    kinds: Any = field(default_factory=lambda: dict(KINDS))
    facts: Any = field(default_factory=lambda: dict(FACTS))
    steps: tuple[str, ...] = STEPS
    actions: Any = field(default_factory=lambda: dict(ACTIONS))
    codes: Any = field(default_factory=lambda: dict(CODES))

    def check(self, rules: RuleSet, diags: Diagnostics) -> None:
        """A heap must hold at least one pebble (an empty heap could never be taken, so the
        game could stall) and at most `MAX_HEAP` (the board draws it on one row)."""
        heaps = rules.one("heaps")
        low, high = heaps.sizes
        if low < 1 or high > MAX_HEAP:
            diags.error(
                "E0901",
                f"heap sizes {low}..{high} are out of range: a heap holds 1 to {MAX_HEAP} pebbles",
                heaps.spans.get("sizes", heaps.span),
                f"for example `sizes {max(low, 1)}..{min(max(high, 1), MAX_HEAP)}`",
            )

    def build(self, rules: RuleSet) -> GameLogic:
        from .logic import PebblesLogic

        return PebblesLogic(rules)
