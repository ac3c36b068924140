"""The random bot: uniformly among the legal actions, with its own seeded generator."""

from __future__ import annotations

from typing import Any

from castell_dsl.engine.rng import Rng, seed_state


class RandomBot:
    name = "random"

    def __init__(self, seed: int):
        self._store = {"rng": seed_state(seed)}
        self._rng = Rng(self._store)

    def choose(self, game: Any) -> Any:
        actions = game.legal_actions()
        return actions[self._rng.below(len(actions))]
