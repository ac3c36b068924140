"""Every answer of a fixed set of tower queries, one line each: the solver's identity check.

    python benchmarks/solver_dump.py [--search python|compiled] [--out FILE] [--games 30]
                                     [--random 6000]

The queries are those of `--games` seeded random 4-player games of the standard rules (every
`best_festival_tower` / `complete_shape` / `complete_exhibition` / `tallest_tower` call that
reaches the solver) and `--random` seeded random queries of every kind, teams of 0-30
castellers and ranks 0-5, spread over three rule variants (standard, Mix spread 2, eight sizes
with other score weights). Each is answered cold (query memo emptied) by the search named by
`--search` (`solver.use_search_backend`), and printed with its answer (levels, score, uses).
The last line is the count of queries and the SHA-256 of the lines above it.

A change to the search must leave the dump byte-identical, for both searches:
`tests/castell/test_solver_dump.py` holds the reference digest of the default dump (recorded
before the tower search became one source) and compares it on every run of the slow tier.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "castell"))

import brute_force as bf  # a test helper, importable through the sys.path line above
from castell_game import solver

from castell_dsl.runtime.loading import load_rules
from castell_dsl.runtime.simulation import play_game

QUERIES = ("best_festival_tower", "complete_shape", "complete_exhibition", "tallest_tower")
VARIANTS = {
    name: bf.SEARCH_VARIANTS[name] for name in ("standard", "mix spread 2", "eight sizes, weighted")
}


def game_queries(games: int) -> list[tuple]:
    """Every tower question of `games` seeded random 4-player games: (kind, args)."""
    rules = load_rules("castell")
    calls: list[tuple] = []
    originals = {name: getattr(solver, name) for name in QUERIES}

    def recorder(name, function):
        def recorded(*args):
            calls.append((name, (list(args[0]), dict(args[1]), *args[2:])))
            return function(*args)

        return recorded

    try:
        for name, function in originals.items():
            setattr(solver, name, recorder(name, function))
        for seed in range(games):
            play_game(rules, 4, 100 + seed, ["random"] * 4)
    finally:
        for name, function in originals.items():
            setattr(solver, name, function)
    return calls


def random_queries(count: int, seed: int = 2026) -> Iterator[tuple]:
    """`count` seeded random queries of every kind over `VARIANTS`: (kind, args)."""
    rng = random.Random(seed)
    names = sorted(VARIANTS)
    for i in range(count):
        rules = VARIANTS[names[i % len(names)]]
        team = [rng.choice(rules.sizes) for _ in range(rng.randint(0, 30))]
        rank_max = rng.choice((1, 3, 5))
        ranks = {skill: rng.randint(0, rank_max) for skill in bf.SKILLS}
        kind = QUERIES[rng.randrange(len(QUERIES))]
        if kind == "best_festival_tower":
            sizes = rng.sample(rules.sizes, rng.randint(0, 3))
            args: tuple = (team, ranks, rules, sizes, rng.randint(1, 7))
        elif kind == "complete_shape":
            widths = sorted((rng.randint(1, 6) for _ in range(rng.randint(1, 7))), reverse=True)
            args = (team, ranks, rules, widths)
        elif kind == "complete_exhibition":
            needs = rng.sample(bf.SKILLS, rng.randint(1, 3))
            args = (team, ranks, rules, needs, rng.randint(1, 7))
        else:
            args = (team, ranks, rules)
        yield kind, args


def dump_lines(games: int, randoms: int) -> Iterator[str]:
    """One line per query: its kind, team, ranks and other arguments, and the answer."""
    queries = [*game_queries(games), *random_queries(randoms)]
    for kind, (team, ranks, rules, *rest) in queries:
        solver.clear_cache()
        found = getattr(solver, kind)(team, ranks, rules, *rest)
        answer = None if found is None else (found.levels, found.score, sorted(found.uses.items()))
        ranked = sorted(ranks.items())
        yield f"{kind} {sorted(team)} {ranked} {rules.sizes} {rest} -> {answer}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--search", choices=("python", "compiled"), default=None)
    parser.add_argument("--out", type=Path, default=None, help="write the lines to FILE")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--random", type=int, default=6000)
    args = parser.parse_args(argv)
    if args.search:
        solver.use_search_backend(args.search)
    digest = hashlib.sha256()
    lines = []
    for line in dump_lines(args.games, args.random):
        digest.update(line.encode() + b"\n")
        lines.append(line)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} queries, search {solver.search_backend()}, sha256 {digest.hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
