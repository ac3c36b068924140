"""`ActionHandler`: one kind of action, and everything a game says about it, in one object.

A game's rule file names its action kinds (`move`, `recruit`, `place`, `take`, …); the game's
mechanics gives each kind one handler, which answers the engine's five questions about it:

- `parse`: how an action of this kind is written (the text after the kind's word);
- `options`: which actions of this kind the player has now (with `nth`, one of them alone);
- `count`: how many there are, without listing them (with `candidates`/`candidate`, for
  `Game.sample_legal`'s uniform draw);
- `check`: whether the player may take a given one now, and why not;
- `apply`: what it does.

Why a handler per kind rather than one method per question on the logic: the four answers
about one kind change together (a new parameter changes how it is written, listed, checked
and applied), so they are kept together, as a move is one object in boardgame.io. A game
registers its handlers declaratively, in `GameLogic.handlers` (build the table with
`handler_table`), and `GameLogic`'s own `parse`, `options`, `check`, `apply`, … route each
question to the handler of its kind: no game writes its own dispatch, and a kind that has a
handler has every answer (an abstract method left out is a `TypeError` when it is made).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .actions import Action, Rejection

if TYPE_CHECKING:
    from ..language.ruleset import Record
    from .logic import GameContext


class ActionHandler(ABC):
    """The parse, options, count, check and apply of one action kind (`kind`).

    `spec` is the action's entry in the rule file's turn block (its limit and parameters);
    `game.granted` tells whether the action was granted by an earlier one. Every action a
    handler makes carries its canonical text: logs and replays depend on it.
    """

    #: The action kind this handler answers for: the first word of its actions' text.
    kind: str

    @abstractmethod
    def parse(self, text: str) -> Action:
        """The action written `text` (the words after the kind, stripped).

        Raise `ActionSyntaxError` saying what was expected; a `ValueError` from a notation
        helper is reported too, with the kind in front (`Game.parse` makes both an
        `ActionError`, the one exception its callers catch)."""

    @abstractmethod
    def options(self, game: GameContext, player: int, spec: Record) -> list[Action]:
        """The actions of this kind the player may take now: a finite, useful list (for an
        open-ended kind, a selection; `check` accepts every legal action, listed or not)."""

    def count(self, game: GameContext, player: int, spec: Record) -> int:
        """`len(options(...))`, ideally without building the list: a random playout counts
        far more options than it takes. Override it with `nth`, and keep both exactly in
        agreement with `options` (the same actions, in the same order)."""
        return len(self.options(game, player, spec))

    def nth(self, game: GameContext, player: int, spec: Record, index: int) -> Action:
        """`options(game, player, spec)[index]`, built alone (see `count`)."""
        return self.options(game, player, spec)[index]

    def candidates(self, game: GameContext, player: int, spec: Record) -> int:
        """How many candidates `candidate` answers for: a cheap bound on the options when
        confirming one costs a search (is there a tower for this festival?). `count` by
        default, every candidate then being an action (see `GameLogic.count_candidates`)."""
        return self.count(game, player, spec)

    def candidate(self, game: GameContext, player: int, spec: Record, index: int) -> Action | None:
        """Candidate `index`, or None when it is not an action now; the actions among the
        candidates, in index order, are exactly `options`, each once."""
        return self.nth(game, player, spec, index)

    @abstractmethod
    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        """None if the player may take `action` now; otherwise why not."""

    @abstractmethod
    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        """Carry out a checked action; return the kind of an action it grants at once, if any."""


def handler_table(*handlers: ActionHandler) -> Mapping[str, ActionHandler]:
    """`GameLogic.handlers` from a game's handlers: each kind once (two handlers claiming one
    kind are a mistake in the game, reported when its logic is built, not a silent winner)."""
    table: dict[str, ActionHandler] = {}
    for handler in handlers:
        if handler.kind in table:
            raise ValueError(f"two handlers for the action kind '{handler.kind}'")
        table[handler.kind] = handler
    return table


def counts_options(handlers: Mapping[str, ActionHandler]) -> tuple[bool, bool]:
    """Whether some handler counts its options itself (`count`) and whether some has
    candidates that may not be actions (`candidates`): how `Game.sample_legal` draws."""
    values = list(handlers.values())
    counts = any(type(h).count is not ActionHandler.count for h in values)
    candidates = any(type(h).candidates is not ActionHandler.candidates for h in values)
    return counts, candidates
