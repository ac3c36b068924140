"""Castell DSL: board games written in a small declarative rules language.

The public API (docs/api.md; the README's "Library API"):

- `load_rules(name_or_path, variants=())` → a compiled, immutable `RuleSet` (`RuleError`,
  with diagnostics, when the rules are broken);
- `new_game(rules=None, players=4, seed=0, variants=(), observers=())` → a `Game` to play
  through `current_player`, `legal_actions()`, `apply(action)`, `explain(action)`,
  `result()`, …; an illegal action raises `ActionError`, whose `rejection` is a `Rejection`;
- `make_bot(spec, rules, seat, game_seed)` → a built-in or plugin bot (`"greedy"`,
  `"mcts:iterations=200"`) whose `choose(game)` returns an `Action`;
- `save_game(game, path)`, `load_game(path)`, `save_data(game)`: the `castell-save/3` format;
- `list_games()`, `list_variants(game)`: the installed games and their variants;
- `simulate(rules, games=…, bots=…)`: the records `castell simulate` prints;
- `hookimpl`, the marker for plugin hook implementations (see `castell_dsl.hookspecs`); the
  types plugins implement are in `castell_dsl.contract`.

Importing this package is cheap: every name but `hookimpl` loads on first use (PEP 562), from
the module that defines it, so `castell --help` and plugins that only import `hookimpl` stay
fast, and `from castell_dsl import Action` does not load the runtime.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

__version__ = "0.1.0"

hookimpl = pluggy.HookimplMarker("castell_dsl")

if TYPE_CHECKING:
    from .api import (
        BotSpecError,
        Game,
        GameInfo,
        GameObserver,
        GameSetupError,
        ObservedGame,
        ObserverWarning,
        Simulation,
        VariantInfo,
        list_games,
        list_variants,
        load_game,
        load_rules,
        make_bot,
        new_game,
        save_data,
        save_game,
        simulate,
    )
    from .contract.actions import Action, ActionError, Rejection
    from .language.diagnostics import RuleError
    from .language.ruleset import RuleSet
    from .runtime.saves import SaveError

#: Where each lazily exported name is defined (the types from their own light modules).
_WHERE = {
    "Action": "contract.actions",
    "ActionError": "contract.actions",
    "Rejection": "contract.actions",
    "RuleError": "language.diagnostics",
    "RuleSet": "language.ruleset",
    "SaveError": "runtime.saves",
    "BotSpecError": "api",
    "Game": "api",
    "GameSetupError": "api",
    "ObserverWarning": "api",
    "GameInfo": "api",
    "GameObserver": "api",
    "ObservedGame": "api",
    "Simulation": "api",
    "VariantInfo": "api",
    "list_games": "api",
    "list_variants": "api",
    "load_game": "api",
    "load_rules": "api",
    "make_bot": "api",
    "new_game": "api",
    "save_data": "api",
    "save_game": "api",
    "simulate": "api",
}

__all__ = [
    "Action",
    "ActionError",
    "BotSpecError",
    "Game",
    "GameInfo",
    "GameObserver",
    "GameSetupError",
    "ObservedGame",
    "ObserverWarning",
    "Rejection",
    "RuleError",
    "RuleSet",
    "SaveError",
    "Simulation",
    "VariantInfo",
    "__version__",
    "hookimpl",
    "list_games",
    "list_variants",
    "load_game",
    "load_rules",
    "make_bot",
    "new_game",
    "save_data",
    "save_game",
    "simulate",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'castell_dsl' has no attribute '{name}'")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # found once: later lookups do not come back here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})
