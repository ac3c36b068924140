"""Fixtures for the Calico tests: games whose quilts, cats and hands are arranged by hand.

`table` gives a `Table`: it makes games (beginner setup by default, so nothing is chosen at
random but the boards, the pattern tiles and the bag), clears quilts, gives cats their
patterns, and places patches through the real `place` action (its check, then its apply), so
cats and buttons are awarded exactly as in play.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from castell_dsl import load_rules, new_game
from castell_dsl.engine.game import Game

HERE = Path(__file__).resolve().parent


class Table:
    """Arranging Calico games by hand (see the module docstring)."""

    boards_file = HERE / "calico-boards.json"

    def rules(self, variants: tuple[str, ...] = ()) -> Any:
        return load_rules("calico", variants)

    def game(self, players: int = 1, variants: tuple[str, ...] = ("beginner",), seed: int = 0):
        return new_game(self.rules(variants), players, seed)

    def g(self, game: Game) -> dict:
        return game.state["g"]

    def patch(self, game: Game, text: str) -> int:
        colour, pattern = text.split("/")
        logic = game.logic
        return logic.colour_index[colour] * logic.npatterns + logic.pattern_index[pattern]

    def cell(self, game: Game, col: int, row: int) -> int:
        return row * game.logic.columns + col

    def clear(self, game: Game, player: int = 0) -> None:
        """Every hex but the goal spaces empty (edge patches too), no tokens, no buttons."""
        g = self.g(game)
        logic = game.logic
        g["quilts"][player] = [
            -2 if cell in logic.goal_cells else -1 for cell in range(logic.ncells)
        ]
        g["tokens"][player] = [-1] * logic.ncells
        g["buttons"][player] = [-1] * logic.ncells
        g["rainbows"][player] = []

    def assign(self, game: Game, **cats: list[str]) -> None:
        """Put these cats in play with these patterns: `assign(game, Millie=["dots", "ferns"])`.
        Patterns not named go to the first cat named."""
        g = self.g(game)
        logic = game.logic
        names = list(cats)
        g["cats"] = [logic.cat_index[n] for n in names]
        g["pattern_cat"] = [logic.cat_index[names[0]]] * logic.npatterns
        for name, patterns in cats.items():
            for pattern in patterns:
                g["pattern_cat"][logic.pattern_index[pattern]] = logic.cat_index[name]

    def set_cell(self, game: Game, player: int, text: str, col: int, row: int) -> None:
        """Write a patch onto a hex directly: no cats, no buttons (for design goals)."""
        self.g(game)["quilts"][player][self.cell(game, col, row)] = self.patch(game, text)

    def put(self, game: Game, player: int, text: str, col: int, row: int) -> None:
        """Place a patch with the real `place` action (checked, then applied)."""
        self.g(game)["hands"][player].append(self.patch(game, text))
        action = game.logic.parse("place", f"{text} {col},{row}")
        spec = game.rules.get("turn", "main").action["place"]
        rejection = game.logic.check(game, player, action, spec)
        assert rejection is None, rejection
        game.logic.apply(game, player, action, spec)

    def tokens(self, game: Game, player: int = 0) -> list[str]:
        return game.logic.facts(game, player)["cat_tokens"]

    def buttons(self, game: Game, player: int = 0) -> list[str]:
        return game.logic.facts(game, player)["buttons"]

    def play_out(self, game: Game) -> Game:
        """Finish a game with the random bot."""
        from castell_dsl.runtime.bots import make_bot

        bots = [make_bot("random", game.rules, s, game.seed) for s in range(game.players)]
        while not game.is_over():
            game.apply(bots[game.current_player].choose(game))
        return game


@pytest.fixture(scope="session")
def table() -> Table:
    return Table()
