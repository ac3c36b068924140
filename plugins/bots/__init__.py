"""The built-in bots, registered like any plugin's: random (and greedy and mcts)."""

from __future__ import annotations

from typing import Any

from castell_dsl import hookimpl


@hookimpl
def register_bots() -> list[Any]:
    from castell_dsl.bots import BotFactory

    from .random_bot import RandomBot

    return [
        BotFactory(
            "random",
            "uniformly among the legal actions",
            lambda rules, seat, seed: RandomBot(seed),
        ),
    ]
