"""MCTS strength at equal thinking time: this version against a previous commit's.

    python benchmarks/mcts_strength.py [--previous REV] [--time 0.02] [--games 40] [--changed]

The search is the same algorithm in both versions — for a given number of iterations the two
make the same choices (`--check` verifies it on the benchmark positions) — so at equal
thinking time the faster one simply searches more. The previous version is taken from git
(`git archive REV`) into a temporary directory and its iterations per second measured there,
in a process of its own, on the same positions as this version's (`run.mcts_positions`).
Then 2-player Castell games are played, seats alternating, between this version and the
previous one, each limited to the iterations its probe makes in `--time` seconds of CPU time:
both at equal thinking time, measured the same way in the same run, which other processes'
load barely moves. (With `--wall` this version thinks `--time` seconds of the wall clock
instead, its own deadline, as a game's bot does; on a busy machine that leaves it a fraction
of the iterations the previous version's CPU-time rate grants it.) Prints the win rate of this
version with a 95% Wilson interval (a shared win counts half).

With `--changed` the search itself differs between the versions (the same iterations no
longer make the same choices), so the previous version's own `MCTSBot` plays: its
`plugins/castell_bots/mcts.py` is loaded from the exported tree, and both bots think `--time`
seconds a move (the wall clock, the bots' own deadline), in `--jobs` processes.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

#: Run in a process with the version under test first on the path: its MCTS's iterations
#: per second (CPU time) on the benchmark positions, and its choices there.
PROBE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import run
from castell_bots.mcts import MCTSBot
positions = run.mcts_positions(int(sys.argv[2]))
bot = MCTSBot(3, iterations=int(sys.argv[3]))
start = time.process_time()
choices = [bot.choose(p).text for p in positions]
elapsed = time.process_time() - start
print(json.dumps({"rate": int(sys.argv[3]) * len(positions) / elapsed, "choices": choices}))
"""


def probe(tree: Path, moves: int, iterations: int) -> dict:
    """Iterations per second and choices of the MCTS in source tree `tree`."""
    paths = f"{tree}:{tree / 'plugins'}"
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(ROOT / "benchmarks"), str(moves), str(iterations)],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": paths, "PATH": "/usr/bin:/bin"},
        cwd=tempfile.gettempdir(),
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def export(rev: str, into: Path) -> Path:
    """The source tree of commit `rev`, unpacked into `into`."""
    archive = into / "previous.tar"
    with archive.open("wb") as handle:
        subprocess.run(["git", "archive", rev], check=True, stdout=handle, cwd=ROOT)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    tree = into / "tree"
    # Compiled modules are built by `pip install`, not kept in git: a module of this
    # checkout's build serves `rev` too when `rev`'s source of it is the same (else `rev`
    # runs that module in plain Python, and its rate is the slower for it).
    package = Path("plugins") / "castell_game"
    for built in (ROOT / package).glob("*.so"):
        name = built.name.split(".")[0]
        for suffix in (".py", ".pyx"):
            source = package / (name + suffix)
            theirs, ours = tree / source, ROOT / source
            if theirs.is_file() and ours.is_file() and theirs.read_bytes() == ours.read_bytes():
                shutil.copy2(built, tree / package / built.name)
    return tree


def _match_game(job: tuple[str, float, int, int]) -> float:
    """One 2-player game, the previous version's MCTS (from file `old_path`) against this
    version's, both `seconds` a move; this version in `seat`. Its share of the win."""
    import importlib.util

    from castell_bots.mcts import MCTSBot

    from castell_dsl.runtime.bots import bot_seed
    from castell_dsl.runtime.games import start_game
    from castell_dsl.runtime.loading import load_rules

    old_path, seconds, seed, seat = job
    spec = importlib.util.spec_from_file_location("previous_mcts", old_path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["previous_mcts"] = module
    spec.loader.exec_module(module)
    rules = load_rules("castell")
    game = start_game(rules, 2, seed, record_events=False)
    bots = [
        (MCTSBot if s == seat else module.MCTSBot)(bot_seed(seed, s), time=seconds)
        for s in range(2)
    ]
    while not game.is_over():
        player = game.current_player
        assert player is not None
        game.apply(bots[player].choose(game))
    winners = game.result()["winners"]
    return 1 / len(winners) if seat in winners else 0.0


def changed_match(args: argparse.Namespace, previous: Path) -> tuple[float, int]:
    """This version's wins (a shared win counts half) against the previous version's own
    MCTS, seats alternating, both thinking `args.time` seconds a move."""
    from multiprocessing import Pool

    old_path = str(previous / "plugins" / "castell_bots" / "mcts.py")
    jobs = [(old_path, args.time, args.seed + i, i % 2) for i in range(args.games)]
    with Pool(args.jobs) as pool:
        return sum(pool.map(_match_game, jobs, chunksize=1)), args.games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--previous", default="HEAD~1", help="the commit to compare with")
    parser.add_argument("--time", type=float, default=0.02, help="seconds per move")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--moves", type=int, default=15, help="positions for the rates")
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--check", action="store_true", help="also compare the choices")
    parser.add_argument(
        "--wall",
        action="store_true",
        help="this version thinks --time seconds of the wall clock (not its CPU-time rate)",
    )
    parser.add_argument("--json", dest="json_path")
    parser.add_argument(
        "--changed", action="store_true", help="the search differs: play the previous MCTS"
    )
    args = parser.parse_args()

    from castell_dsl.runtime.simulation import SimulationSpec, run_batch, wilson_interval

    with tempfile.TemporaryDirectory() as tmp:
        previous = export(args.previous, Path(tmp))
        old = probe(previous, args.moves, 200)
        new = probe(ROOT, args.moves, 200)
        if args.changed:
            start = time.perf_counter()
            wins, n = changed_match(args, previous)
            low, high = wilson_interval(wins, n)
            print(
                f"MCTS {new['rate']:,.0f} it/s vs {args.previous} {old['rate']:,.0f} it/s "
                f"(200 iterations a move); both {args.time} s a move: this version's win rate "
                f"over {n} 2-player games {wins / n:.1%} (95% {low:.1%}-{high:.1%}), "
                f"{time.perf_counter() - start:.0f} s"
            )
            if args.json_path:
                report = {
                    "previous": args.previous,
                    "changed": True,
                    "seconds_per_move": args.time,
                    "previous_iterations_per_s": round(old["rate"]),
                    "iterations_per_s": round(new["rate"]),
                    "games": n,
                    "win_rate": round(wins / n, 3),
                    "win_rate_95": [round(low, 3), round(high, 3)],
                }
                Path(args.json_path).write_text(json.dumps(report, indent=1) + "\n")
            return 0
    same = old["choices"] == new["choices"]
    if args.check and not same:
        print("the two versions choose differently at 200 iterations a move")
        return 1
    old_iterations = max(1, round(old["rate"] * args.time))
    new_iterations = max(1, round(new["rate"] * args.time))
    # With --wall, `time` alone: as many iterations as fit in the wall-clock time; else the
    # iterations this version's probe makes in `time` CPU seconds.
    mine = f"mcts:time={args.time}" if args.wall else f"mcts:iterations={new_iterations}"
    theirs = f"mcts:iterations={old_iterations}"
    wins = 0.0
    half = args.games // 2
    start = time.perf_counter()
    for seats, seat, count, offset in (
        ((mine, theirs), 0, half, 0),
        ((theirs, mine), 1, args.games - half, half),
    ):
        spec = SimulationSpec("castell", (), 2, seats, args.seed + offset, count)
        for line in run_batch(spec, jobs=args.jobs):
            if seat in line["winners"]:
                wins += 1 / len(line["winners"])
    low, high = wilson_interval(wins, args.games)
    report = {
        "previous": args.previous,
        "seconds_per_move": args.time,
        "previous_iterations_per_s": round(old["rate"]),
        "iterations_per_s": round(new["rate"]),
        "previous_iterations_per_move": old_iterations,
        "iterations_per_move": None if args.wall else new_iterations,
        "clock": "wall" if args.wall else "cpu",
        "same_choices_at_equal_iterations": same,
        "games": args.games,
        "win_rate": round(wins / args.games, 3),
        "win_rate_95": [round(low, 3), round(high, 3)],
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(
        f"MCTS {new['rate']:,.0f} it/s vs {args.previous} {old['rate']:,.0f} it/s "
        f"(same choices at equal iterations: {same}); at {args.time} s a move the previous "
        f"version makes {old_iterations} iterations"
        + ("" if args.wall else f", this one {new_iterations}")
        + ". This version's win rate over "
        f"{args.games} 2-player games: {wins / args.games:.1%} (95% {low:.1%}-{high:.1%})"
    )
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
