"""How long `mcts:time=T` thinks per decision: the spread over many decisions of real games.

    python benchmarks/mcts_time.py [--time 0.5] [--decisions 20]

Prints the median, minimum and maximum seconds per decision and the iterations run; the
target for `time=0.5` is 0.4 to 0.7 s on every decision. Not a test: wall time depends on the
machine's load.
"""

from __future__ import annotations

import argparse
import statistics
import time

from castell_dsl import load_rules, make_bot, new_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=0.5)
    parser.add_argument("--decisions", type=int, default=20)
    args = parser.parse_args()
    rules = load_rules("castell")
    game = new_game(rules, players=4, seed=11, record_events=False)
    bots = [make_bot(f"mcts:time={args.time}", rules, seat, game.seed) for seat in range(4)]
    spent: list[float] = []
    iterations: list[int] = []
    while len(spent) < args.decisions and not game.is_over():
        seat = game.current_player
        assert seat is not None
        if len(game.legal_actions()) == 1:
            game.apply(game.legal_actions()[0])
            continue
        started = time.perf_counter()
        action = bots[seat].choose(game)
        spent.append(time.perf_counter() - started)
        iterations.append(getattr(bots[seat], "last_iterations", 0))
        game.apply(action)
    inside = sum(0.8 * args.time <= s <= 1.4 * args.time for s in spent)
    print(
        f"mcts:time={args.time}: {len(spent)} decisions, median {statistics.median(spent):.3f} s, "
        f"min {min(spent):.3f} s, max {max(spent):.3f} s; within {0.8 * args.time:.2f} to "
        f"{1.4 * args.time:.2f} s: {inside}/{len(spent)}; iterations median "
        f"{statistics.median(iterations):.0f}"
    )


if __name__ == "__main__":
    main()
