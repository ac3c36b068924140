"""The built-in bots, registered like any plugin's: random (and greedy and mcts)."""

from __future__ import annotations

from castell_dsl import hookimpl
from castell_dsl.contract import BotFactory


@hookimpl
def register_bots() -> list[BotFactory]:
    from .greedy import GreedyBot
    from .mcts import MCTSBot
    from .random_bot import RandomBot

    return [
        BotFactory(
            "random",
            "uniformly among the legal actions",
            lambda rules, seat, seed: RandomBot(seed),
        ),
        BotFactory(
            "greedy",
            "one ply: the action whose result the mechanics' heuristic rates best",
            lambda rules, seat, seed, **settings: GreedyBot(seed, **settings),
            {"max_actions": 12},
        ),
        BotFactory(
            "mcts",
            "Monte Carlo tree search with determinised chance and heuristic evaluation",
            lambda rules, seat, seed, **settings: MCTSBot(seed, **settings),
            {"iterations": 60, "time": 0.0, "c": 0.3, "rollout": 0, "scale": 4.0},
        ),
    ]
