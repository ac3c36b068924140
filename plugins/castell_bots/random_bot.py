"""The random bot: uniformly among the legal actions."""

from __future__ import annotations

from castell_dsl.contract import Action, PlayableGame, decision_rng


class RandomBot:
    name = "random"

    def __init__(self, seed: int):
        self.seed = seed

    def choose(self, game: PlayableGame) -> Action:
        # `sample_legal` makes the draw `legal[rng.below(len(legal))]` would, without listing
        # the actions when the mechanics counts them (the generator is this decision's own,
        # so drawing when only one action is legal changes nothing).
        return game.sample_legal(decision_rng(self.seed, game))
