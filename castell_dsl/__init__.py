"""Castell DSL: board games written in a small declarative rules language.

The public API (documented in the README):

- `load_rules(name_or_path, variants=())` → a compiled, immutable `RuleSet`;
- `new_game(rules=None, players=4, seed=0, variants=())` → a `Game` to play through
  `current_player`, `legal_actions()`, `apply(action)`, `explain(action)`, `result()`, …;
- `make_bot(spec, rules, seat, game_seed)` → a built-in or plugin bot (`"greedy"`,
  `"mcts:iterations=200"`) whose `choose(game)` returns an action;
- `hookimpl`, the marker for plugin hook implementations (see `castell_dsl.hookspecs`); the
  types plugins implement are in `castell_dsl.contract`.

Importing this package is cheap: everything else loads on first use, so `castell --help` and
plugins that only import `hookimpl` stay fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

__version__ = "0.1.0"

hookimpl = pluggy.HookimplMarker("castell_dsl")

__all__ = [
    "__version__",
    "hookimpl",
    "load_rules",
    "make_bot",
    "new_game",
]

if TYPE_CHECKING:
    from .api import load_rules, make_bot, new_game

_LAZY = {"load_rules", "new_game", "make_bot"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'castell_dsl' has no attribute '{name}'")
