"""Count what a cold solver query costs, exactly: instructions and cache misses under callgrind.

    python benchmarks/solver_counts.py [--tree PATH ...] [--queries 16]

The 11-castellers row of `bench_towers.py` times each query right after the brute force has
run, on a shared machine whose load moves a run's median by a fifth: too noisy to see a change
of a few per cent. This runs the same interleaving (tables warm, then each query cold, after
the brute force) under valgrind's callgrind with its cache simulation, and counts only inside
`best_festival_tower` (collection is toggled by a C function wrapped around it,
`functools.lru_cache(maxsize=0)`, which caches nothing). With the hash seed fixed the counts
are the same on every run, so two checkouts compare by them: instructions (Ir), first-level
instruction-cache misses (I1mr) and data-cache misses (D1mr + D1mw) per query. A query that
comes cold pays for the instruction-cache misses of every distinct code path it takes, so
fewer bytecodes is not always faster (see `Searcher.prepare` in `castell_game/tower_search.py`).

Each tree is counted twice, with 0 and with `--queries` cold queries, and the difference is
divided by the queries, so imports and warm-up cancel out. Needs valgrind (Debian: `apt-get
install valgrind`); takes about a minute per tree. Not a test, and not in `run.py`: it
measures work, not time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EVENTS = ("Ir", "I1mr", "D1mr", "D1mw")

# The child: the 11-castellers queries of `bench_towers.bench_solver`, the first `n` of them
# cold after the brute force, as that row times them.
CHILD = """
import functools, random, sys
tree, n = sys.argv[1], int(sys.argv[2])
sys.path[:0] = [tree, tree + "/plugins", tree + "/tests/castell"]
import brute_force as bf
from castell_game import solver
query = functools.lru_cache(maxsize=0)(solver.best_festival_tower)
rules = bf.make_rules()
ranks = dict.fromkeys(rules.skills, 3)
rng = random.Random("2018-11")
queries = [
    ([rng.choice(rules.sizes) for _ in range(11)], tuple(rng.sample(rules.sizes, 2)))
    for _ in range(50)
]
for team, sizes in queries:
    solver.best_festival_tower(team, ranks, rules, sizes, 4)  # the per-rules tables, warm
for team, sizes in queries[:n]:
    solver.clear_cache()
    query(team, ranks, rules, sizes, 4)
    bf.best_tower(team, ranks, rules, sizes, 4)
"""


def totals(path: Path) -> dict[str, int]:
    """The event totals of a callgrind output file."""
    events: list[str] = []
    for line in path.read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith(("totals:", "summary:")) and events:
            values = [*map(int, line.split()[1:]), *[0] * len(events)]  # trailing 0s left out
            return dict(zip(events, values[: len(events)], strict=True))
    raise SystemExit(f"solver_counts: no totals in {path}")


def count(tree: Path, queries: int, workdir: Path) -> dict[str, float]:
    """Per-query counts of `tree`: the runs with `queries` and with 0 cold queries, subtracted."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed user runs it
    # One untimed run first, so that bytecode is written and neither counted run compiles.
    subprocess.run([sys.executable, "-c", CHILD, str(tree), "1"], env=env, check=True)
    runs = []
    for n in (0, queries):
        out = workdir / f"{tree.name}-{n}.callgrind"
        command = [
            "valgrind", "--tool=callgrind", "--cache-sim=yes",
            "--toggle-collect=uncached_lru_cache_wrapper", f"--callgrind-out-file={out}",
            sys.executable, "-c", CHILD, str(tree), str(n),
        ]  # fmt: skip
        runs.append((subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL), out))
    for process, _ in runs:
        if process.wait():
            raise SystemExit("solver_counts: valgrind failed")
    none, some = (totals(out) for _, out in runs)
    return {event: (some.get(event, 0) - none.get(event, 0)) / queries for event in EVENTS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tree", type=Path, action="append",
        help="a checkout to count (repeat to compare; default: this one)",
    )  # fmt: skip
    parser.add_argument("--queries", type=int, default=16, help="cold queries counted (16)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("solver_counts: needs valgrind (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    trees = [tree.resolve() for tree in args.tree or [ROOT]]
    print(f"per cold 11-castellers query, {args.queries} queries, inside best_festival_tower")
    print(f"{'tree':<32} {'Ir':>10} {'I1 misses':>10} {'D1 misses':>10}")
    with tempfile.TemporaryDirectory() as workdir:
        for tree in trees:
            c = count(tree, args.queries, Path(workdir))
            misses = c["D1mr"] + c["D1mw"]
            print(f"{str(tree)[-32:]:<32} {c['Ir']:10.0f} {c['I1mr']:10.0f} {misses:10.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
