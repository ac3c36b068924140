"""Every diagnostic code is documented where its users look, and nothing else is.

The language's codes (`castell_dsl.language.diagnostics.CODES` before any game registers its
own) are the table of docs/language.md; each game's own codes (its mechanics' `codes`) are the
table of its reference page. A code added to one and not the other fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from castell_dsl.runtime.plugins import registries

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| ([EW]\d{4}) \|", re.M)


def documented(path: Path) -> set[str]:
    return set(ROW.findall(path.read_text(encoding="utf-8")))


def language_codes() -> set[str]:
    from castell_dsl.language import diagnostics

    games = {code for m in registries().mechanics.values() for code in getattr(m, "codes", {})}
    return set(diagnostics.CODES) - games


def test_the_language_reference_lists_exactly_the_languages_codes():
    assert documented(ROOT / "docs" / "language.md") == language_codes()


@pytest.mark.parametrize("game", ["castell", "calico"])
def test_each_games_reference_lists_exactly_its_own_codes(game):
    mechanics = registries().mechanics[game]
    page = ROOT / "plugins" / f"{game}_game" / "reference.md"
    assert documented(page) == set(getattr(mechanics, "codes", {}))
