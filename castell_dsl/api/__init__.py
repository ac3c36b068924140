"""The library API (docs/api.md; every name is also importable from `castell_dsl` itself).

    from castell_dsl import load_rules, new_game, make_bot, save_game, load_game
    from castell_dsl import list_games, list_variants, simulate

- rules and games: `load_rules`, `new_game` (with `observers`), `make_bot`;
- saves: `save_game`, `load_game`, `save_data` (the `castell-save/3` format);
- the catalogue: `list_games`, `list_variants` (what is installed: the web lobby, `castell
  rules list` and the RL environments read the same);
- batches: `simulate` (the records of `castell simulate`);
- observing: the `GameObserver` protocol, the `ObservedGame` it sees and the event types.

A game's own questions (Castell's towers) are that game's API (`castell_game.api`): the core
package never names a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..contract import Action, ActionError, Rejection
from ..engine.game import Game
from ..language.diagnostics import RuleError
from ..language.ruleset import RuleSet
from ..runtime.bots import BotSpecError, make_bot
from ..runtime.games import GameSetupError, start_game
from ..runtime.loading import default_rules, load_rules
from ..runtime.saves import SaveError
from .catalogue import GameInfo, VariantInfo, list_games, list_variants
from .observers import (
    CORE_EVENTS,
    GameEvent,
    GameObserver,
    ObservedGame,
    ObserverWarning,
    guard_all,
)
from .saves import load_game, save_data, save_game
from .simulation import Simulation, simulate

__all__ = [
    "CORE_EVENTS",
    "Action",
    "ActionError",
    "BotSpecError",
    "Game",
    "GameEvent",
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


def new_game(
    rules: str | RuleSet | None = None,
    players: int = 4,
    seed: int = 0,
    variants: Sequence[str] = (),
    *,
    record_events: bool = True,
    observers: Iterable[GameObserver] = (),
) -> Game:
    """A new game of `rules` (a name, a path or a loaded `RuleSet`; None for the default
    game) with `players` players.

    `observers` are called as `observer(game, event)` for every event, in order, from the
    game's `start` on (`castell_dsl.api.observers`: the event types, and why an observer
    cannot change the game). Raises `RuleError` for rules that do not load and
    `GameSetupError` for options the rules refuse (a player count, a variant's limits).
    """
    ruleset = load_rules(default_rules() if rules is None else rules, tuple(variants))
    return start_game(
        ruleset, players, seed, record_events=record_events, observers=guard_all(observers)
    )
