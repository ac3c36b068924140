"""The library API (documented in the README).

    from castell_dsl import load_rules, new_game, make_bot

A game's own questions (Castell's towers) are that game's API (`castell_game.api`): the core
package never names a game.
"""

from __future__ import annotations

from collections.abc import Sequence

from .engine.game import Game
from .language.ruleset import RuleSet
from .runtime.bots import make_bot
from .runtime.games import start_game
from .runtime.loading import default_rules, load_rules

__all__ = ["load_rules", "make_bot", "new_game"]


def new_game(
    rules: str | RuleSet | None = None,
    players: int = 4,
    seed: int = 0,
    variants: Sequence[str] = (),
    *,
    record_events: bool = True,
) -> Game:
    """A new game of `rules` (a name, a path or a loaded `RuleSet`; None for the default
    game) with `players` players."""
    ruleset = load_rules(default_rules() if rules is None else rules, tuple(variants))
    return start_game(ruleset, players, seed, record_events=record_events)
