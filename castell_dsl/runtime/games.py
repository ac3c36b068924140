"""Starting a game: the engine handed its rule set, the mechanics' logic and the plugins' ears.

The engine's `Game` fetches nothing. This is where the runtime finds, for a rule set, the
mechanics plugin that builds its logic (once per rule set), and attaches the `game_event` hook
implementations as observers, so plugins hear every game that any command plays.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from ..contract import GameLogic, Observer
from ..engine.game import Game, player_count_problem
from ..language.ruleset import RuleSet
from .plugins import get_plugins, registries


class MechanicsNotFound(LookupError):
    """The rule set names a mechanics that no installed plugin provides."""


class GameSetupError(ValueError):
    """The rules or their mechanics refuse these options (e.g. Calico's low-luck variant
    with 3 or 4 players): an expected failure with a message, not a bug."""


def check_players(rules: RuleSet, players: int) -> None:
    """Refuse a player count the rules do not allow, before anything else is set up (the
    engine's one check: `engine.game.player_count_problem`)."""
    problem = player_count_problem(rules, players)
    if problem is not None:
        raise GameSetupError(problem)


@lru_cache(maxsize=64)
def logic_for(rules: RuleSet) -> GameLogic:
    """The mechanics' compiled logic for a rule set (built once per rule set)."""
    mechanics = registries().mechanics.get(rules.mechanics)
    if mechanics is None:
        raise MechanicsNotFound(
            f"the rules need mechanics '{rules.mechanics}', which no installed plugin provides"
        )
    return mechanics.build(rules)


def start_game(
    rules: RuleSet,
    players: int,
    seed: int,
    *,
    record_events: bool = True,
    observers: Iterable[Observer] = (),
) -> Game:
    """A new game of `rules`, its events heard by `observers` and by `game_event` plugins."""
    plugins = get_plugins()
    listeners = list(observers)
    hook = plugins.hook_caller("game_event")
    if hook is not None:

        def tell_plugins(game: Any, event: dict[str, Any]) -> None:
            hook(game=game, event=event)

        listeners.append(tell_plugins)
    logic = logic_for(rules)
    try:
        return Game(
            rules,
            logic,
            players,
            seed,
            record_events=record_events,
            observers=listeners,
        )
    except GameSetupError:
        raise
    except ValueError as exc:  # the engine's or the mechanics' refusal of these options
        message = str(exc)
        title = str(rules.game.title)
        raise GameSetupError(
            message if message.startswith(title) else f"{title}: {message}"
        ) from exc
