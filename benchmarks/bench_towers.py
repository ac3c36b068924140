"""Benchmark the exact tower solver (and the checker) against the brute-force oracle.

    python benchmarks/bench_towers.py [--json out.json] [--teams 50] [--seed 2018]

For random teams of 10, 12, 20, 30 and 40 castellers (numbers 1-10, fixed seed), every rank 3,
festival sizes = two random numbers, at least 4 levels: the median and p90 time of a *cold*
`best_festival_tower` (query cache cleared before every query), and where the brute-force
enumerator of tests/castell/brute_force.py finishes (teams up to --brute-max castellers) its
median time, the speed-up, and a check that both find the same score. One process, one core.
The target is a median under 5 ms at 30 castellers. It also times `check` on a 4-level tower.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "castell"))

import brute_force as bf  # a test helper, importable through the sys.path line above
from castell_plugins.castell.solver import best_festival_tower, clear_cache
from castell_plugins.castell.towers import check

TEAM_SIZES = (10, 12, 20, 30, 40)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def bench_solver(n_teams: int, seed: int, brute_max: int) -> list[dict]:
    rules = bf.make_rules()
    ranks = dict.fromkeys(rules.skills, 3)
    rows = []
    for size in TEAM_SIZES:
        rng = random.Random(f"{seed}-{size}")
        queries = [
            ([rng.choice(rules.sizes) for _ in range(size)], tuple(rng.sample(rules.sizes, 2)))
            for _ in range(n_teams)
        ]
        solver_ms = []
        brute_ms = []
        agree = True
        for team, sizes in queries:
            clear_cache()
            start = time.perf_counter()
            solution = best_festival_tower(team, ranks, rules, sizes, 4)
            solver_ms.append((time.perf_counter() - start) * 1000)
            if size <= brute_max:
                start = time.perf_counter()
                expected = bf.best_tower(team, ranks, rules, sizes, 4)
                brute_ms.append((time.perf_counter() - start) * 1000)
                got = None if solution is None else solution.score
                agree &= got == (None if expected is None else expected[0])
        row = {
            "castellers": size,
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
            start = time.perf_counter()
            for _ in range(repeat):
                check(tower, ranks, rules)
            best = min(best, (time.perf_counter() - start) / repeat * 1e6)
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
    args = parser.parse_args(argv)

    rows = bench_solver(args.teams, args.seed, args.brute_max)
    checks = bench_check()

    header = (
        f"{'castellers':>10} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} "
        f"{'brute ms':>9} {'speed-up':>9} {'agree':>6}"
    )
    print("best_festival_tower, cold queries, every rank 3, 2 festival sizes, >= 4 levels")
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
    for name, value in checks.items():
        print(f"{name}: {value:.2f} us")

    if args.json:
        payload = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "seed": args.seed,
            "solver": rows,
            "check": checks,
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n")
    return 0 if all(row.get("scores_agree", True) for row in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
