"""Every example placement a player reads (the README, the players' page, `help`'s notation,
the parser's own messages) targets a hex a patch can ever go to: not a design-goal space and
not the pre-printed edge (K-1.2, K-3.2)."""

from __future__ import annotations

import re
from pathlib import Path

from castell_dsl.runtime.loading import load_rules

ROOT = Path(__file__).resolve().parents[2]
PLACE = re.compile(r"place [a-z_-]+/[a-z]+ (\d+)[, ](\d+)")


def example_texts() -> list[str]:
    from calico_game import notation

    rules = load_rules("calico")
    from castell_dsl.runtime.games import start_game

    logic = start_game(rules, 2, 1).logic
    return [
        (ROOT / "README.md").read_text(),
        (ROOT / "plugins" / "calico_game" / "pages" / "calico.md").read_text(),
        "\n".join(logic.notation()),
        Path(notation.__file__).read_text(),
    ]


def test_example_placements_target_hexes_a_patch_can_go_to():
    rules = load_rules("calico")
    quilt = rules.one("quilt")
    columns, rows = quilt.columns, quilt.rows
    goals = {tuple(cell) for cell in quilt.goal_spaces}
    edge = {(c, r) for c in range(columns) for r in range(rows)} - {
        (c, r) for c in range(1, columns - 1) for r in range(1, rows - 1)
    }
    found = [(int(c), int(r)) for text in example_texts() for c, r in PLACE.findall(text)]
    assert len(found) >= 5
    for cell in found:
        assert cell not in goals, f"an example places a patch on the design-goal space {cell}"
        assert cell not in edge, f"an example places a patch on the quilt's edge {cell}"
