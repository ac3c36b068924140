"""Benchmark the exact tower solver (and the checker) against the brute-force oracle.

    python benchmarks/bench_towers.py [--json out.json] [--teams 50] [--seed 2018] [--games 50]
                                      [--search python|compiled]

For random teams of 10, 11, 12, 20, 30 and 40 castellers (numbers 1-10, fixed seed), every rank 3,
festival sizes = two random numbers, at least 4 levels: the median and p90 time of a *cold*
`best_festival_tower` (query cache cleared before every query), and where the brute-force
enumerator of tests/castell/brute_force.py finishes (teams up to --brute-max castellers) its
median time, the speed-up, and a check that both find the same score. One process, one core;
the garbage collector is paused while the solver is timed, as `timeit` does (collected once
per row, not before every query: see `gc_paused`), and times are this process's CPU time
(other load on a shared machine moves wall time by half).
The target is a median under 5 ms at 30 castellers. It also times `check` on a 4-level tower.
`--search` picks the tower search (`solver.use_search_backend`; default: the compiled one when
it is built), and the output names the one timed.

Game queries: the small queries a game really asks (teams of 7-25, mostly low ranks). The
benchmark plays --games seeded random 4-player games of the standard rules, records every
`best_festival_tower` / `complete_shape` / `complete_exhibition` call that reaches the solver
(the game logic memoises repeated questions), then answers each recorded query cold (cache
cleared before it), best of --repeat runs per query: median microseconds per query and total
milliseconds per 1000 queries, overall and per kind.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "castell"))

import brute_force as bf  # a test helper, importable through the sys.path line above
from castell_game import solver
from castell_game.solver import best_festival_tower, clear_cache
from castell_game.towers import check

from castell_dsl.runtime.loading import load_rules
from castell_dsl.runtime.simulation import play_game

TEAM_SIZES = (10, 11, 12, 20, 30, 40)
GAME_QUERIES = ("best_festival_tower", "complete_shape", "complete_exhibition")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


@contextmanager
def gc_paused(collect: bool = True) -> Iterator[None]:
    """Keep the cyclic garbage collector off while timing, as `timeit` does (a collection owed
    to the brute force's garbage would otherwise land in one solver call); with `collect`,
    collect first.

    The solver rows time each query in ``gc_paused(collect=False)``, after one collection per
    row: a full collection before every query walks the whole heap and leaves the solver's
    tables and code out of the CPU caches, which made the median small query about a third
    slower (for the previous solver as for this one) without being part of its work.
    """
    enabled = gc.isenabled()
    if collect:
        gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def bench_solver(
    n_teams: int, seed: int, brute_max: int, sizes: tuple[int, ...] = TEAM_SIZES
) -> list[dict]:
    rules = bf.make_rules()
    ranks = dict.fromkeys(rules.skills, 3)
    rows = []
    for size in sizes:
        rng = random.Random(f"{seed}-{size}")
        queries = [
            ([rng.choice(rules.sizes) for _ in range(size)], tuple(rng.sample(rules.sizes, 2)))
            for _ in range(n_teams)
        ]
        solver_ms = []
        brute_ms = []
        agree = True
        gc.collect()
        for team, sizes in queries:
            clear_cache()
            with gc_paused(collect=False):
                start = time.process_time()
                solution = best_festival_tower(team, ranks, rules, sizes, 4)
                solver_ms.append((time.process_time() - start) * 1000)
            if size <= brute_max:
                start = time.process_time()
                expected = bf.best_tower(team, ranks, rules, sizes, 4)
                brute_ms.append((time.process_time() - start) * 1000)
                got = None if solution is None else solution.score
                agree &= got == (None if expected is None else expected[0])
        row = {
            "castellers": size,
            "search": solver.search_backend(),
            "teams": n_teams,
            "solver_median_ms": statistics.median(solver_ms),
            "solver_p90_ms": percentile(solver_ms, 0.9),
            "solver_max_ms": max(solver_ms),
        }
        if brute_ms:
            row["brute_median_ms"] = statistics.median(brute_ms)
            row["speedup_median"] = row["brute_median_ms"] / row["solver_median_ms"]
            row["scores_agree"] = agree
        rows.append(row)
    return rows


def record_game_queries(n_games: int, seed: int) -> list[tuple]:
    """The solver queries of `n_games` seeded random 4-player games: (function name, team,
    ranks, tower rules, further arguments), in the order the games asked them; recording them
    changes nothing the games do."""
    rules = load_rules("castell")
    calls: list[tuple] = []
    originals = {name: getattr(solver, name) for name in GAME_QUERIES}

    def recorder(name: str, function):
        def recorded(team, ranks, tower_rules, *args):
            calls.append((name, tuple(team), dict(ranks), tower_rules, args))
            return function(team, ranks, tower_rules, *args)

        return recorded

    try:
        for name, function in originals.items():
            setattr(solver, name, recorder(name, function))
        for game in range(n_games):
            play_game(rules, 4, seed + game, ["random"] * 4)
    finally:
        for name, function in originals.items():
            setattr(solver, name, function)
    return calls


def bench_game_queries(n_games: int, seed: int, repeat: int) -> dict:
    calls = record_game_queries(n_games, seed)
    best = [float("inf")] * len(calls)
    with gc_paused():
        for _ in range(repeat):
            for i, (name, team, ranks, tower_rules, args) in enumerate(calls):
                function = getattr(solver, name)
                clear_cache()
                start = time.process_time()
                function(list(team), ranks, tower_rules, *args)
                best[i] = min(best[i], time.process_time() - start)
    out = {
        "games": n_games,
        "queries": len(calls),
        "median_us": statistics.median(best) * 1e6,
        "ms_per_1000": sum(best) / len(best) * 1e6,
        "kinds": {},
    }
    for kind in GAME_QUERIES:
        times = [t for (name, *_), t in zip(calls, best, strict=True) if name == kind]
        if times:
            out["kinds"][kind] = {
                "queries": len(times),
                "median_us": statistics.median(times) * 1e6,
                "ms_per_1000": sum(times) / len(times) * 1e6,
            }
    return out


def bench_check(repeat: int = 20000) -> dict:
    rules = bf.make_rules()
    legal = [[6, 6, 6], [5, 5], [4], [3]]
    wide = [[8, 8, 8, 8], [7, 7, 7], [6, 5], [4]]
    ranks = {"balance": 1, "width": 1, "mix": 1}
    out = {}
    for name, tower in (("check_4_levels_us", legal), ("check_4_levels_width_mix_us", wide)):
        assert check(tower, ranks, rules).legal
        best = float("inf")
        for _ in range(5):
            start = time.process_time()
            for _ in range(repeat):
                check(tower, ranks, rules)
            best = min(best, (time.process_time() - start) / repeat * 1e6)
        out[name] = best
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    parser.add_argument("--teams", type=int, default=50, help="teams per size (default 50)")
    parser.add_argument("--seed", type=int, default=2018)
    parser.add_argument(
        "--brute-max", type=int, default=12, help="largest team brute force runs on (12)"
    )
    parser.add_argument(
        "--games", type=int, default=50, help="random games whose queries are timed (50)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per game query, best (3)")
    parser.add_argument(
        "--search",
        choices=("python", "compiled"),
        help="the tower search to time (default: compiled when built)",
    )
    args = parser.parse_args(argv)
    if args.search:
        solver.use_search_backend(args.search)

    # Game queries first: the brute force below leaves a fragmented heap that slows the small
    # queries down by a fifth.
    games = bench_game_queries(args.games, args.seed, args.repeat)
    rows = bench_solver(args.teams, args.seed, args.brute_max)
    checks = bench_check()

    header = (
        f"{'castellers':>10} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} "
        f"{'brute ms':>9} {'speed-up':>9} {'agree':>6}"
    )
    print(
        "best_festival_tower, cold queries, every rank 3, 2 festival sizes, >= 4 levels "
        f"({solver.search_backend()} search)"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        brute = f"{row['brute_median_ms']:9.1f}" if "brute_median_ms" in row else f"{'-':>9}"
        ratio = f"{row['speedup_median']:8.0f}x" if "speedup_median" in row else f"{'-':>9}"
        agree = str(row.get("scores_agree", "-"))
        print(
            f"{row['castellers']:>10} {row['solver_median_ms']:10.2f} "
            f"{row['solver_p90_ms']:8.2f} {row['solver_max_ms']:8.2f} {brute} {ratio} {agree:>6}"
        )
    print()
    print(
        f"game queries: {games['queries']} from {games['games']} seeded random 4-player games, "
        f"cold, best of {args.repeat}"
    )
    print(f"{'query':>20} {'count':>6} {'median us':>10} {'ms / 1000':>10}")
    for kind, row in [("all", games), *games["kinds"].items()]:
        print(f"{kind:>20} {row['queries']:>6} {row['median_us']:10.1f} {row['ms_per_1000']:10.1f}")
    print()
    for name, value in checks.items():
        print(f"{name}: {value:.2f} us")

    if args.json:
        payload = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "seed": args.seed,
            "search": solver.search_backend(),
            "solver": rows,
            "game_queries": games,
            "check": checks,
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
    return 0 if all(row.get("scores_agree", True) for row in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
