"""The random bot: uniformly among the legal actions."""

from __future__ import annotations

from castell_dsl.contract import Action, PlayableGame, decision_rng


class RandomBot:
    name = "random"

    def __init__(self, seed: int):
        self.seed = seed

    def choose(self, game: PlayableGame) -> Action:
        # `sample_legal` draws uniformly among the legal actions without listing them when
        # the mechanics counts them (the generator is this decision's own, so the draws it
        # takes change nothing else).
        return game.sample_legal(decision_rng(self.seed, game))
