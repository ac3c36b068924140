"""The random bot: uniformly among the legal actions."""

from __future__ import annotations

from castell_dsl.contract import Action, PlayableGame, decision_rng


class RandomBot:
    name = "random"

    def __init__(self, seed: int):
        self.seed = seed

    def choose(self, game: PlayableGame) -> Action:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        return actions[decision_rng(self.seed, game).below(len(actions))]
