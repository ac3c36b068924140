"""Bot strength, measured: greedy vs random and MCTS vs greedy in 2-player Castell.

    python benchmarks/bot_strength.py [--games 200] [--mcts mcts] [--jobs 2] [--json out.json]

Seats alternate (each bot plays first in half of the games); a shared win counts half. Prints
each pairing's win rate with a 95% Wilson interval, the settings and the time taken. The
README's figures come from this command.
"""

from __future__ import annotations

import argparse
import json
import time

from castell_dsl.runtime.simulation import SimulationSpec, run_batch, wilson_interval


def match(a: str, b: str, games: int, seed: int, jobs: int) -> dict:
    wins = 0.0
    half = games // 2
    start = time.perf_counter()
    for seats, mine, count, offset in (((a, b), 0, half, 0), ((b, a), 1, games - half, half)):
        spec = SimulationSpec("castell", (), 2, seats, seed + offset, count)
        for line in run_batch(spec, jobs=jobs):
            if mine in line["winners"]:
                wins += 1 / len(line["winners"])
    low, high = wilson_interval(wins, games)
    return {
        "bot": a,
        "opponent": b,
        "games": games,
        "win_rate": round(wins / games, 3),
        "win_rate_95": [round(low, 3), round(high, 3)],
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--mcts-games", type=int, default=100)
    parser.add_argument("--mcts", default="mcts", help="MCTS settings, e.g. mcts:iterations=60")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", dest="json_path")
    args = parser.parse_args()
    results = [
        match("greedy", "random", args.games, args.seed, args.jobs),
        match(args.mcts, "greedy", args.mcts_games, args.seed, args.jobs),
    ]
    for r in results:
        low, high = r["win_rate_95"]
        print(
            f"{r['bot']:>24} vs {r['opponent']:<8} {r['games']:4d} games  "
            f"win rate {r['win_rate']:.1%}  (95% {low:.1%}-{high:.1%})  {r['seconds']} s"
        )
    if args.json_path:
        with open(args.json_path, "w") as handle:
            json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main()
