"""The built-in bots, registered like any plugin's: random (and greedy and mcts).

Each factory declares the range of every setting (`ranges`, read by
`castell_dsl.runtime.bots.make_bot`): a spec from the command line, a config or a save outside
them is refused with a message. The bounds keep one decision within seconds (MCTS: at most
20,000 iterations or 60 s a move) while leaving far more than any useful strength.
"""

from __future__ import annotations

from castell_dsl import hookimpl
from castell_dsl.contract import BotFactory

#: (low, high) of each setting, per bot.
RANGES: dict[str, dict[str, tuple[float, float]]] = {
    "random": {},
    "greedy": {"max_actions": (1, 1_000)},
    "mcts": {
        "iterations": (1, 20_000),  # the default 0 means "not given": 60, or as `time` allows
        "time": (0.0, 60.0),
        "c": (0.0, 100.0),
        "rollout": (0, 1_000),
        "scale": (0.001, 1_000.0),
    },
}

#: The tighter ranges `castell serve` accepts from the network (BotFactory.served): a decision
#: within them takes about a second on one core, so strangers cannot fill the server's bot
#: workers with minute-long moves.
SERVED: dict[str, dict[str, tuple[float, float]]] = {
    "random": {},
    "greedy": {"max_actions": (1, 100)},
    "mcts": {"iterations": (1, 2_000), "time": (0.0, 2.0), "rollout": (0, 50)},
}


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
            ranges=RANGES["random"],
            served=SERVED["random"],
        ),
        BotFactory(
            "greedy",
            "one ply: the action whose result the mechanics' heuristic rates best",
            lambda rules, seat, seed, **settings: GreedyBot(seed, **settings),
            {"max_actions": 12},
            RANGES["greedy"],
            SERVED["greedy"],
        ),
        BotFactory(
            "mcts",
            "Monte Carlo tree search with determinised chance and heuristic evaluation",
            lambda rules, seat, seed, **settings: MCTSBot(seed, **settings),
            {"iterations": 0, "time": 0.0, "c": 0.3, "rollout": 0, "scale": 4.0},
            RANGES["mcts"],
            SERVED["mcts"],
        ),
    ]
