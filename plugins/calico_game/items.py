"""What Calico's rule coverage counts (`castell analyze`, `castell_dsl.contract.items`).

The items, by kind, in rule-file order: each patch colour and patch pattern, design goal, cat
and button. What OPEN, TAKEN and COMPLETED mean for each (read at the end of each of the
player's turns and at the end of the game; "taken" for patches is read from the actions):

| kind | open | taken | completed |
|---|---|---|---|
| patch colour, pattern | one in the market or the player's hand | placed one (K-5) | — |
| design goal | revealed to the player (K-2.2) | chosen for a space | met, either way (K-4.1) |
| cat | in play this game (K-2.3) | earned a token (K-5.4) | — |
| button | always | earned (K-6) | — |
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from castell_dsl.contract import COMPLETED, OPEN, TAKEN, Action, Item

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext

    from .tables import CalicoTables


class CalicoItems:
    """The item table of one rule set, and the readings of a position against it."""

    def __init__(self, logic: CalicoTables):
        self.logic = logic
        items: list[Item] = []

        def kind(name: str, names: Iterable[str]) -> int:
            start = len(items)
            items.extend(Item(name, n) for n in names)
            return start

        self.colour0 = kind("patch colour", logic.colours)
        self.pattern0 = kind("patch pattern", logic.patterns)
        self.goal0 = kind("design goal", logic.goal_names)
        self.cat0 = kind("cat", logic.cat_names)
        self.button0 = kind("button", logic.button_names)
        self.items = tuple(items)

    def _patch(self, patch: int, bits: int) -> Iterator[tuple[int, int]]:
        yield self.colour0 + self.logic.colour_of[patch], bits
        yield self.pattern0 + self.logic.pattern_of[patch], bits

    def marks(self, game: GameContext, player: int) -> Iterator[tuple[int, int]]:
        logic = self.logic
        g = game.state["g"]
        for patch in (*g["market"], *g["hands"][player]):
            yield from self._patch(patch, OPEN)
        for goal in g["revealed"][player]:
            yield self.goal0 + goal, OPEN
        results = logic.goal_results(g, player)
        for goal, result in zip(g["goals"][player], results or [0] * len(g["goals"][player]),
                                strict=True):  # fmt: skip
            yield self.goal0 + goal, OPEN | TAKEN | (COMPLETED if result else 0)
        for cat in g["tokens"][player]:
            if cat >= 0:
                yield self.cat0 + cat, OPEN | TAKEN
        for colour in g["buttons"][player]:
            if colour >= 0:
                yield self.button0 + logic.colour_button[colour], OPEN | TAKEN
        for button in g["rainbows"][player]:
            yield self.button0 + button, OPEN | TAKEN

    def shared(self, game: GameContext) -> Iterator[tuple[int, int]]:
        """Open to every player: the cats in play and every button."""
        for cat in game.state["g"]["cats"]:
            yield self.cat0 + cat, OPEN
        for button in range(len(self.logic.button_names)):
            yield self.button0 + button, OPEN

    def lints(self) -> tuple[()]:
        return ()

    #: The kinds `taken_by` names items for.
    action_kinds = frozenset({"place"})

    def taken_by(self, action: Action) -> Iterator[int]:
        if action.kind == "place":
            for index, _bits in self._patch(action.args[0], TAKEN):
                yield index
