"""A minimal hand-written Castell playout: the baseline the engine is measured against.

It plays random games with the same structure as the engine's random playouts — the same bag,
the same draws (the same SplitMix64 generator), seven regions, pawns, recruiting, training,
special moves, refills, a turn ended by `end` — in plain Python with no rules language, no
plugins, no action objects and no tower solver. The ratio "engine actions per second / this
loop's actions per second" says what the generality costs.
"""

from __future__ import annotations

import random

from castell_dsl.contract import Rng, seed_state

ADJACENT = [
    [1, 4, 6], [0, 4], [5, 3, 4], [2, 5, 6], [2, 6, 0, 1], [2, 3, 6], [5, 3, 0, 4],
]  # fmt: skip
SIZES = 10


def play(players: int, seed: int) -> int:
    """Play one random game; return the number of actions taken."""
    state = {"rng": seed_state(seed)}
    rng = Rng(state)
    bag = [15] * SIZES
    per_region = {2: 3, 3: 4, 4: 5}[players]

    def draw() -> int | None:
        if not any(bag):
            return None
        i = rng.weighted_index(bag)
        bag[i] -= 1
        return i

    regions = [[0] * SIZES for _ in range(7)]
    for region in regions:
        for _ in range(per_region):
            i = draw()
            if i is not None:
                region[i] += 1
    teams = [[0] * SIZES for _ in range(players)]
    for team in teams:
        for _ in range(7):
            i = draw()
            if i is not None:
                team[i] += 1
    pawns = [-1] * players
    ranks = [[0] * 5 for _ in range(players)]
    tokens = [7] * players
    chooser = random.Random(seed)
    actions = 0
    for rnd in range(1, 11):
        if rnd in (3, 5, 7, 9):
            for region in regions:
                while sum(region) < per_region:
                    i = draw()
                    if i is None:
                        break
                    region[i] += 1
        for player in range(players):
            used: set[str] = set()
            while True:
                options: list[tuple] = [("end",)]
                pawn = pawns[player]
                if "move" not in used:
                    targets = range(7) if pawn < 0 else ADJACENT[pawn]
                    options += [("move", r) for r in targets]
                if pawn >= 0 and "recruit" not in used:
                    region = regions[pawn]
                    present = [i for i, c in enumerate(region) if c]
                    options += [("recruit", i) for i in present]
                    options += [
                        ("recruit", i, j)
                        for a, i in enumerate(present)
                        for j in present[a:]
                        if i != j or region[i] > 1
                    ]
                if pawn >= 0 and "train" not in used:
                    options += [("train", s) for s in range(2) if ranks[player][s] < 3]
                if "special" not in used and tokens[player]:
                    options += [("special", r) for r in range(7) if r != pawn]
                choice = options[chooser.randrange(len(options))]
                actions += 1
                kind = choice[0]
                if kind == "end":
                    break
                used.add(kind)
                if kind == "move":
                    pawns[player] = choice[1]
                elif kind == "recruit":
                    for i in choice[1:]:
                        regions[pawns[player]][i] -= 1
                        teams[player][i] += 1
                elif kind == "train":
                    ranks[player][choice[1]] += 1
                else:
                    tokens[player] -= 1
                    pawns[player] = choice[1]
    return actions
