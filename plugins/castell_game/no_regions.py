"""The No Regions variant (C-3.2, C-4.5, C-6.4), for advanced players.

The skill wheel is turned to its other side, where the All Regions slot is a No Regions slot:
a player may train only the tile in their pawn's region's slot. Implemented as a plugin, the
way a third party would: a code variant flips the wheel's side in the compiled rules, and the
`adjust_choices` hook keeps the training choices to the pawn's own region.
"""

from __future__ import annotations

from typing import Any

from castell_dsl import hookimpl

NAME = "no-regions"
#: The name the wheel's extra sector takes on this side of the wheel.
BLANK_SECTOR = "no_regions"


def flip_wheel(editor: Any, options: dict[str, Any]) -> None:
    """Turn the wheel to its No Regions side: shared sectors become one blank sector."""
    wheel = editor.rules.one("wheel")
    shared = set(wheel.shared_sectors)
    sectors = tuple(BLANK_SECTOR if s in shared else s for s in wheel.sectors)
    editor.replace(
        "wheel",
        wheel.replace(
            sectors=sectors,
            shared_sectors=(),
            blank_sectors=(*wheel.blank_sectors, BLANK_SECTOR) if shared else wheel.blank_sectors,
        ),
    )


@hookimpl
def register_variants() -> list[Any]:
    from castell_dsl.contract import Variant

    return [
        Variant(
            NAME,
            "advanced skill wheel: train only the tile in your pawn's region's slot",
            applies_to=("castell",),
            adjust=flip_wheel,
            rule_ids=("C-3.2", "C-4.5", "C-6.4"),
        )
    ]


@hookimpl
def adjust_choices(game: Any, player: int, action: str, choices: list[Any]) -> None:
    """With No Regions, training comes only from the pawn's region's sector (C-6.4)."""
    if action != "train" or NAME not in game.variants:
        return
    regions = set(game.logic.regions)
    choices[:] = [sector for sector in choices if sector in regions]
