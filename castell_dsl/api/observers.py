"""Observing a game: what an observer is, the events it hears, and why it cannot change the game.

An observer is any callable `observer(game, event)`, handed to `new_game(..., observers=[...])`
or `load_game(..., observers=[...])`. The engine tells it every event as it happens, in order:

- `start` — the game is set up: `players`, `seed`, `first_player`;
- `round` — a round begins: `round`;
- `turn` — a player's turn begins: `player`, `round`;
- `action` — an action was accepted: `player`, `action` (its canonical text, as in the log),
  `round`; the game's own events for what it did follow;
- `end` — the game is over: `result` (as `Game.result()`).

A game adds its own events between these (Castell's `deal`, `refill`, `wheel`, `festival`, …;
Calico's `cat`, `button`, …): each has a `type`, and `game.narrate(event)` says it in words
the way the front-ends do, so an observer need not know a game to print what happened.

An observer watches; it does not play. It receives a read-only `ObservedGame` (reads only:
no `apply`, no state), and its own deep copy of each event, so nothing it does to either
reaches the game, the log or another observer. An exception it raises is reported as an
`ObserverWarning` naming it, and the game goes on: an observer that fails cannot leave a game
half-way through an action.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, Protocol, TypedDict

from ..contract import Observer
from ..engine.game import Game
from ..language.ruleset import RuleSet

#: The events every game emits, whatever its mechanics (the engine's own), in the order of a game.
CORE_EVENTS = ("start", "round", "turn", "action", "end")


class StartEvent(TypedDict):
    type: Literal["start"]
    players: int
    seed: int
    first_player: int


class RoundEvent(TypedDict):
    type: Literal["round"]
    round: int


class TurnEvent(TypedDict):
    type: Literal["turn"]
    player: int
    round: int


class ActionEvent(TypedDict):
    type: Literal["action"]
    player: int
    action: str
    round: int


class EndEvent(TypedDict):
    type: Literal["end"]
    result: dict[str, Any]


#: What an observer receives: one of the engine's events above, or a game's own (a JSON-ready
#: mapping with a `type`). Read `event["type"]` first.
GameEvent = Mapping[str, Any]


class ObserverWarning(UserWarning):
    """An observer raised an exception; the game went on without it for that event."""


class ObservedGame:
    """What an observer sees of a game: reads only, each answer a copy.

    It is called while the engine is in the middle of an action (between the action being
    accepted and its effects, for `action`), so it offers what is safe to read at any moment:
    no listing or checking of actions, which would compute and remember them half-way.
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game):
        self._game = game

    @property
    def rules(self) -> RuleSet:
        """The rule set being played (immutable)."""
        return self._game.rules

    @property
    def players(self) -> int:
        return self._game.players

    @property
    def seed(self) -> int:
        return self._game.seed

    @property
    def round(self) -> int:
        return self._game.round

    @property
    def rounds(self) -> int:
        return self._game.rounds

    @property
    def current_player(self) -> int | None:
        return self._game.current_player

    @property
    def log(self) -> tuple[str, ...]:
        """The actions accepted so far, in their canonical text."""
        return tuple(self._game.log)

    def is_over(self) -> bool:
        return self._game.is_over()

    def view(self) -> dict[str, Any]:
        """The public view of the table (`Game.view()`), a copy."""
        return copy.deepcopy(self._game.view())

    def result(self) -> dict[str, Any]:
        """Scores and winners so far (`Game.result()`), a copy."""
        return copy.deepcopy(self._game.result())

    def state_hash(self) -> str:
        return self._game.state_hash()

    def narrate(self, event: GameEvent) -> list[Any]:
        """The event in words, as the front-ends print it (the mechanics' `narrate`)."""
        return list(self._game.logic.narrate(self._game, copy.deepcopy(dict(event))))

    def __repr__(self) -> str:
        return f"<ObservedGame {self._game.rules.name} round {self.round}/{self.rounds}>"


class GameObserver(Protocol):
    """Anything called as `observer(game, event)`: a function, a bound method, an object with
    `__call__`. What it returns is ignored."""

    def __call__(self, game: ObservedGame, event: GameEvent, /) -> object: ...


def _name(observer: Callable[..., object]) -> str:
    return getattr(observer, "__qualname__", None) or type(observer).__qualname__


def guarded(observer: GameObserver) -> Observer:
    """The engine-side listener for `observer`: a read-only game, a copied event, and an
    exception turned into an `ObserverWarning`."""
    if not callable(observer):
        raise TypeError(f"an observer is a callable observer(game, event), not {observer!r}")
    name = _name(observer)

    def listen(game: Any, event: dict[str, Any]) -> None:
        try:
            observer(ObservedGame(game), copy.deepcopy(event))
        except Exception as exc:  # an observer's failure is its own, never the game's
            warnings.warn(
                f"observer {name} failed on a {event.get('type')!r} event: "
                f"{type(exc).__name__}: {exc}",
                ObserverWarning,
                stacklevel=2,
            )

    return listen


def guard_all(observers: Iterable[GameObserver]) -> list[Observer]:
    return [guarded(observer) for observer in observers]


__all__ = [
    "CORE_EVENTS",
    "ActionEvent",
    "EndEvent",
    "GameEvent",
    "GameObserver",
    "ObservedGame",
    "ObserverWarning",
    "RoundEvent",
    "StartEvent",
    "TurnEvent",
    "guard_all",
    "guarded",
]
