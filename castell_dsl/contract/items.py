"""Items: what a rule set defines that players may use, for `castell analyze`'s rule coverage.

A designer asks whether every tile, skill, goal or cat is ever used, always used, or never
reachable. The core cannot know what those are in a game, so a `GameLogic` describes them:

- `items()`: the rule set's items, each an `Item` (a kind in words, "skill", and the name the
  rule file gives it), in a fixed order: the analysis refers to them by index.
- `item_marks(game, player)`: which items are OPEN to the player now (on offer, reachable),
  TAKEN (the player has it) or COMPLETED (scored, finished, at its highest rank), as
  `(index, bits)` pairs; the analysis reads it at the end of each of the player's turns and
  once more when the game is over, and keeps, per game and player, every bit ever seen.
- `shared_item_marks(game)`: the marks that hold for every player (a tile dealt to the table,
  a prize the chart offers), read once when the game is over.
- `action_items(game, player, action)`: the items an action takes, read just before it is
  applied (what a state no longer shows afterwards: which wheel tile was trained, which special
  action a token paid for); `item_action_kinds()` names the kinds it can answer for (None:
  every kind), so the analysis does not ask about the others.
- `item_lints()`: items the mechanics can prove unusable without playing (a tile no team can
  complete under the rule set's bag and reachable ranks), as `(index, reason)` pairs.

All five default to nothing: a game that describes no items still gets every other section of
the report, and its coverage section says that the mechanics describes none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .actions import Action
    from .logic import GameContext

#: The item was on offer to the player (it could have taken it, or may soon).
OPEN = 1
#: The player took it (holds it, visited it, chose it, trained it).
TAKEN = 2
#: The player completed it (performed it, met it, raised it to its highest rank).
COMPLETED = 4


@dataclass(frozen=True)
class Item:
    """One thing a rule set defines that players may use: its kind in words and its name."""

    kind: str
    name: str

    @property
    def key(self) -> str:
        """`kind:name`, unique within a rule set (the report's key)."""
        return f"{self.kind}:{self.name}"


class ItemTable(Protocol):
    """A game's items and its readings of a position, kept apart from its `GameLogic`:
    `ItemsFromTable` answers the logic's coverage methods from one (`logic.coverage`)."""

    items: tuple[Item, ...]
    #: The action kinds `taken_by` can name items for (for any other it names none).
    action_kinds: frozenset[str]

    def marks(self, game: GameContext, player: int) -> Iterable[tuple[int, int]]: ...
    def shared(self, game: GameContext) -> Iterable[tuple[int, int]]: ...
    def taken_by(self, action: Action) -> Iterable[int]: ...
    def lints(self) -> Iterable[tuple[int, str]]: ...


class ItemsFromTable:
    """A `GameLogic` mixin (list it before `GameLogic`): the rule coverage's five methods
    answered by the logic's `coverage`, an `ItemTable`."""

    coverage: ItemTable

    def items(self) -> tuple[Item, ...]:
        return self.coverage.items

    def item_marks(self, game: GameContext, player: int) -> Iterable[tuple[int, int]]:
        return self.coverage.marks(game, player)

    def shared_item_marks(self, game: GameContext) -> Iterable[tuple[int, int]]:
        return self.coverage.shared(game)

    def action_items(self, game: GameContext, player: int, action: Action) -> Iterable[int]:
        return self.coverage.taken_by(action)

    def item_action_kinds(self) -> frozenset[str] | None:
        return self.coverage.action_kinds

    def item_lints(self) -> Iterable[tuple[int, str]]:
        return self.coverage.lints()


__all__ = ["COMPLETED", "OPEN", "TAKEN", "Item", "ItemTable", "ItemsFromTable"]
