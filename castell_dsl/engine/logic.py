"""`GameLogic`: what a mechanics module implements so the engine can run its game.

The engine owns the flow (rounds, steps, turns, per-turn limits, granted actions, chance,
scoring, the log); a `GameLogic` owns the meaning: the initial state of its part of the game,
its automatic steps, and for each action kind the options a player has, whether a given action
is allowed and why not, and what it does. It sees the game through the `Game` object it is
handed (state, random generator, event emitter) and keeps its own data under `state["g"]`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .actions import Action, Rejection

if TYPE_CHECKING:
    from ..language.ruleset import Record, RuleSet
    from .game import Game


class GameLogic(ABC):
    """The interface between the generic engine and one game's mechanics."""

    rules: RuleSet
    #: Automatic steps by name (`step refill` in a rule file calls `steps["refill"](game)`).
    steps: Mapping[str, Callable[[Game], None]]

    @abstractmethod
    def initial_state(self, game: Game) -> dict[str, Any]:
        """The mechanics' part of a new game's state (JSON data), before any step runs."""

    @abstractmethod
    def options(self, game: Game, player: int, kind: str, spec: Record) -> list[Action]:
        """The actions of `kind` the player may take now: a finite, useful list.

        For open-ended actions (any legal tower) this is a selection (e.g. the solver's best
        towers); `check` accepts every legal action, listed or not. `spec` is the action's entry
        in the turn block (its limit and parameters). `game.granted` tells whether this action
        was granted by an earlier one (e.g. a free special action).
        """

    @abstractmethod
    def check(self, game: Game, player: int, action: Action, spec: Record) -> Rejection | None:
        """None if the player may take `action` now; otherwise why not."""

    @abstractmethod
    def apply(self, game: Game, player: int, action: Action, spec: Record) -> str | None:
        """Carry out a checked action. Return the kind of an action it grants at once, if any."""

    @abstractmethod
    def parse(self, kind: str, text: str) -> Action:
        """Read the arguments of an action of `kind` (text after the first word).

        Raise `ActionSyntaxError` with a message saying what was expected.
        """

    @abstractmethod
    def facts(self, game: Game, player: int) -> dict[str, Any]:
        """The values scoring expressions read for one player (the mechanics' `facts`)."""

    def view(self, game: Game) -> dict[str, Any]:
        """What every player can see, with names rather than indices, for front-ends."""
        return {}

    def report(self, game: Game) -> dict[str, Any]:
        """Extra facts for a finished game's result (e.g. which scenario objectives were met).

        Included in `Game.result()` under "report" when not empty.
        """
        return {}

    def heuristic(self, game: Game, player: int) -> float:
        """How good the position is for `player`, for bots that look one move ahead.

        The default is the player's score if the game ended now (the rule file's scoring);
        a mechanics may add positional terms. Bots compare it between players.
        """
        return float(game.score_of(player))

    def notation(self) -> list[str]:
        """Example actions in this game's notation, one per line, for a player's `help`."""
        return []

    def hints(self, game: Game, player: int) -> list[str]:
        """Advice for a human player (`hint` in `castell play`): lines of text."""
        return []

    def render(self, game: Game, viewer: int | None) -> list[Any]:
        """Renderables (rich) showing the table to `viewer`, for the terminal front-end.

        The default shows `view()` as text; a mechanics draws its own board.
        """
        import json

        return [json.dumps(self.view(game), indent=1)]
