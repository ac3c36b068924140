"""The speed budget, measured in one run: `python benchmarks/run.py [--quick] [--json FILE]`.

Prints a table and writes JSON (default `benchmarks/results/latest.json`). Every figure that
has a natural baseline is reported with it, measured in the same run, and as a ratio — these
machines are shared and noisy, so ratios travel better than absolute times (and in-process
throughputs are timed in CPU time, see `cpu`).

- parse + compile rules/castell/castell.castell: cold (a new process) and warm (in process, without
  and with the cache);
- `castell validate rules/` and `castell --help` as processes (baseline: `python -c pass`), with
  bytecode written as `pip install` does (see `process_env`);
- the tower solver, best festival tower at 10/11/20/30/40 castellers, every rank 3 (baseline:
  brute force at 10 and 11), with the search the solver uses (the compiled one when built), and
  10/11 castellers again with the Python search when the compiled one ran;
- random playouts, games/s and actions/s, 2/3/4 players, Castell and Calico (baselines: a
  hand-written tic-tac-toe in OpenSpiel's style, `tictactoe.py`, and a minimal hand-written
  Castell loop doing the same draws and moves, `handwritten.py`);
- MCTS iterations per second (4-player Castell), in a process of its own;
- peak memory of 100- and 1,000-game simulations (it must not grow);
- RL environments (random legal steps/s, CPU time) against PettingZoo's tictactoe_v3 and
  connect_four_v3, `rl_envs.py`.

Targets (issues "speed budget" and "Speed, second round"): random 4-player Castell ≥ 300
games/s and ≥ 1.0x the tic-tac-toe's actions/s, MCTS ≥ 10,000 iterations/s, best festival
tower at 11 castellers ≥ 100x brute force, ≤ 5 ms solver median at 30 castellers, ≤ 50 ms warm
parse + compile, ≤ 300 ms `castell validate rules/`, ≤ 150 ms `castell --help`, random
4-player Calico ≥ 400 games/s, flat simulation memory.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: The clock of in-process throughputs (playouts, tic-tac-toe, MCTS): this process's CPU
#: time, which other agents' load on a shared machine barely moves, where wall time swings by
#: half. Commands run as processes, and the 2-job simulation, are timed by the wall clock.
cpu = time.process_time
sys.path.insert(0, str(Path(__file__).resolve().parent))


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


#: How commands are timed as processes, printed under the table and kept in the JSON.
PROCESS_NOTE = (
    "processes run as an installed user's: with bytecode (PYTHONDONTWRITEBYTECODE is dropped "
    "for them, and an untimed first run writes it), without CASTELL_* settings"
)


def process_env() -> dict[str, str]:
    """The environment commands are timed in: what a user who installed the package has.

    `pip install` compiles every module to bytecode, so a user's `castell` never compiles
    source at start-up. A shell (or sandbox) with PYTHONDONTWRITEBYTECODE set would make each
    timed run compile all of castell_dsl, lark and the plugins again (about 70 ms here), a
    cost no installed user pays; the variable is dropped for the child, so the untimed warm-up
    run writes the bytecode (into `__pycache__`, as any first run does) and the timed runs
    read it. CASTELL_* settings (a cache directory, disabled plugins) are dropped too.
    """
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("CASTELL_") and k != "PYTHONDONTWRITEBYTECODE"
    }


def process_time(args: list[str], repeat: int) -> float:
    """Median wall time of a command, in seconds, in `process_env()` after one untimed run."""
    env = process_env()

    def run() -> None:
        # From a neutral directory: `python -m` would otherwise import the checkout in the
        # current directory before the one on PYTHONPATH (`run.py` may time another tree).
        subprocess.run(args, check=True, capture_output=True, env=env, cwd=tempfile.gettempdir())

    run()  # warm the OS caches, and write the bytecode an installed package has
    return median_time(run, repeat)


def bench_language(repeat: int) -> dict:
    from castell_dsl.language.diagnostics import Diagnostics
    from castell_dsl.language.parser import parse
    from castell_dsl.language.source import Source
    from castell_dsl.runtime.loading import load_report, load_rules

    path = ROOT / "rules" / "castell" / "castell.castell"
    text = path.read_text()
    cold = subprocess.run(
        [sys.executable, "-c",
         "import time; t = time.perf_counter(); "
         "from castell_dsl.runtime.loading import load_report; "
         f"load_report({str(path)!r}); print(time.perf_counter() - t)"],
        check=True, capture_output=True, text=True, cwd=tempfile.gettempdir(),
    )  # fmt: skip
    from castell_dsl.language import loader

    def parse_and_compile() -> None:
        loader._PARSED.clear()  # no parse cache: read, parse and compile every time
        load_report(path)

    load_report(path)
    warm_parse = median_time(lambda: parse(Source("castell.castell", text), Diagnostics()), repeat)
    warm = median_time(parse_and_compile, repeat)
    load_rules(path)
    cached = median_time(lambda: load_rules(path), repeat)
    return {
        "cold_load_s": float(cold.stdout.strip().splitlines()[-1]),
        "warm_parse_ms": warm_parse * 1000,
        "warm_parse_compile_ms": warm * 1000,
        "cached_load_ms": cached * 1000,
    }


def bench_processes(repeat: int) -> dict:
    castell = [sys.executable, "-m", "castell_dsl"]
    baseline = process_time([sys.executable, "-c", "pass"], repeat)
    validate = process_time([*castell, "validate", "-q", str(ROOT / "rules")], repeat)
    help_ = process_time([*castell, "--help"], repeat)
    return {
        "python_startup_ms": baseline * 1000,
        "validate_ms": validate * 1000,
        "help_ms": help_ * 1000,
        "note": PROCESS_NOTE,
    }


def bench_solver(teams: int) -> list[dict]:
    import bench_towers

    return bench_towers.bench_solver(teams, 2018, 11)


def bench_solver_python(teams: int) -> list[dict]:
    """The brute-force rows (10, 11 castellers) with the Python search, when the compiled one
    is what `bench_solver` timed (else nothing: those rows were the Python search's)."""
    import bench_towers
    from castell_game import solver

    if solver.search_backend() != "compiled":
        return []
    previous = solver.use_search_backend("python")
    try:
        return bench_towers.bench_solver(teams, 2018, 11, sizes=(10, 11))
    finally:
        solver.use_search_backend(previous)


def bench_playouts(games: int, rules_name: str, player_counts: tuple[int, ...]) -> list[dict]:
    from castell_dsl.runtime.loading import load_rules
    from castell_dsl.runtime.simulation import play_game

    rules = load_rules(rules_name)
    rows = []
    for players in player_counts:
        play_game(rules, players, 10_000, ["random"] * players)  # warm caches
        start = cpu()
        actions = 0
        for seed in range(games):
            actions += len(play_game(rules, players, seed, ["random"] * players).log)
        elapsed = cpu() - start
        row = {
            "rules": rules_name,
            "players": players,
            "games": games,
            "games_per_s": games / elapsed,
            "actions_per_s": actions / elapsed,
            "actions_per_game": actions / games,
        }
        if rules_name == "castell":
            import handwritten

            start = cpu()
            base_actions = sum(handwritten.play(players, seed) for seed in range(games))
            base = base_actions / (cpu() - start)
            row["handwritten_actions_per_s"] = base
            row["engine_vs_handwritten"] = row["actions_per_s"] / base
        rows.append(row)
    return rows


def bench_tictactoe(games: int) -> dict:
    """Random tic-tac-toe games, actions per second: OpenSpiel's own Python game through
    pyspiel (`pyspiel`, if OpenSpiel is installed), and `tictactoe.py`'s hand-written ones in
    its style, the numpy board (`openspiel`, if numpy is installed) and a plain list board."""
    import tictactoe

    out: dict = {"games": games}
    players: list[tuple[str, Any]] = [
        ("list", lambda seed: tictactoe.play(seed, tictactoe.ListState))
    ]
    if tictactoe.np is not None:
        players.insert(0, ("openspiel", lambda seed: tictactoe.play(seed, tictactoe.State)))
    game = tictactoe.openspiel_game()
    if game is not None:
        players.insert(0, ("pyspiel", lambda seed: tictactoe.play(seed, game.new_initial_state)))
    for name, play in players:
        play(0)
        start = cpu()
        actions = sum(play(seed) for seed in range(games))
        out[f"{name}_actions_per_s"] = actions / (cpu() - start)
    return out


def yardstick(ttt: dict) -> tuple[str, float]:
    """The tic-tac-toe the playouts are compared with: OpenSpiel's own when installed, else
    the hand-written one in its style (numpy board, else list board)."""
    for name in ("pyspiel", "openspiel", "list"):
        if f"{name}_actions_per_s" in ttt:
            return name, ttt[f"{name}_actions_per_s"]
    raise KeyError("no tic-tac-toe was timed")


#: The commands whose `--jobs 2` is timed against one job (`bench_scaling`): random 4-player
#: Castell games, a workload large enough that start-up does not hide the scaling. The
#: tournament rates bots, so it needs two different ones: random and greedy (much slower, hence
#: fewer games). A command this checkout does not have is skipped with a message.
SCALING_COMMANDS: dict[str, list[str]] = {
    "simulate": ["simulate", "-p", "4", "--bots", "random", "--no-progress"],
    "compare": ["compare", "castell", "castell+short-season", "-p", "4", "--bots", "random"],
    "analyze": ["analyze", "castell", "-p", "4", "--bots", "random", "--no-skill",
                "--no-progress"],
    "tournament": ["tournament", "--bots", "random,greedy", "-p", "4"],
}  # fmt: skip
#: Games per command for `bench_scaling` (full run); `--quick` plays a tenth.
SCALING_GAMES = {"simulate": 2000, "compare": 2000, "analyze": 2000, "tournament": 200}


def run_command(args: list[str]) -> tuple[float, float]:
    """Run a `castell` command as a process in `process_env()`: (wall seconds, CPU seconds of
    it and every process it waited for, its workers included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "castell_dsl", *args], check=True, capture_output=True,
        env=process_env(), cwd=tempfile.gettempdir(),
    )  # fmt: skip
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu_s


def run_side_by_side(argss: list[list[str]]) -> float:
    """Run several `castell` commands as processes at the same time: the CPU seconds of all
    of them (`run_command`'s measure)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env, where = process_env(), tempfile.gettempdir()
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "castell_dsl", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=where,
        )
        for args in argss
    ]
    codes = [process.wait() for process in processes]
    if any(codes):
        raise subprocess.CalledProcessError(max(codes), argss[0])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def command_exists(name: str) -> bool:
    """Whether this checkout's `castell` has command `name` (`castell NAME --help` works)."""
    result = subprocess.run(
        [sys.executable, "-m", "castell_dsl", name, "--help"], capture_output=True,
        env=process_env(), cwd=tempfile.gettempdir(),
    )  # fmt: skip
    return result.returncode == 0


def bench_scaling(quick: bool, repeat: int = 2) -> dict:
    """`--jobs 2` against one job for simulate, compare, analyze and tournament, each a
    process as a user runs it, on `SCALING_GAMES` games (`--quick`: a tenth).

    Two figures per command:

    - **wall**: the 1-job run's wall time over the 2-job run's, each the fastest of `repeat`
      interleaved runs (the least disturbed). This is the speed-up a user sees, and the
      target (≥ 1.7x); on a machine whose cores are busy with other work it cannot be met,
      whatever the code does, since the second worker has no core of its own. The load
      average is printed beside it.
    - **cpu**: what the same two runs would take on two free cores, from CPU time (which
      other processes' load barely moves): the 1-job run's CPU over the fixed start-up (the
      command's CPU at 2 games) plus half the rest of the 2-job run's CPU (`cpu2 - fixed`,
      shared by two workers). It is below 2 by the start-up and by what the parallel run
      costs more than the serial one (forking, sending results, merging), which is what
      the code can change.

    Beside them, a control that tells the machine's share of that from the code's: the same
    games as two 1-job processes at once (the first half and, with `--seed`, the second),
    with no pool at all. Its CPU less one start-up over the 1-job run's is `contention`, what
    two processes running at the same time cost more per game on this machine (shared caches,
    the hypervisor, other work switching in); the 2-job run's CPU less that is
    `pool_overhead_s`, what the pool itself costs (forking, handing out games, sending the
    records back, merging). Neither enters the two figures above.
    """
    out: dict[str, Any] = {"load_before": os.getloadavg()[0], "commands": {}}
    for name, args in SCALING_COMMANDS.items():
        if not command_exists(name):
            out["commands"][name] = {"skipped": f"this checkout has no `castell {name}`"}
            continue
        games = max(2, SCALING_GAMES[name] // (10 if quick else 1))
        run_command([*args, "-n", "2"])  # warm the OS caches and the bytecode
        fixed = min(run_command([*args, "-n", "2"])[1] for _ in range(2))
        runs: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
        side_by_side: list[float] = []
        half = games // 2
        for _ in range(1 if quick else repeat):
            for jobs in (1, 2):
                runs[jobs].append(run_command([*args, "-n", str(games), "-j", str(jobs)]))
            side_by_side.append(run_side_by_side([
                [*args, "-n", str(half)], [*args, "-n", str(games - half), "--seed", str(half)],
            ]))  # fmt: skip
        wall1, wall2 = (min(w for w, _ in runs[j]) for j in (1, 2))
        cpu1, cpu2 = (min(c for _, c in runs[j]) for j in (1, 2))
        together = min(side_by_side) - fixed  # the same games, two processes, one start-up
        out["commands"][name] = {
            "games": games,
            "bots": args[args.index("--bots") + 1],
            "wall_1_job_s": wall1,
            "wall_2_jobs_s": wall2,
            "speedup_wall": wall1 / wall2,
            "cpu_1_job_s": cpu1,
            "cpu_2_jobs_s": cpu2,
            "fixed_cpu_s": fixed,
            "speedup_cpu": cpu1 / (fixed + max(0.0, cpu2 - fixed) / 2),
            "cpu_ratio": cpu2 / cpu1,
            "side_by_side_cpu_s": min(side_by_side),
            "contention": together / cpu1,
            "pool_overhead_s": cpu2 - together,
            "load": os.getloadavg()[0],
        }
    return out


def bench_startup(repeat: int) -> dict:
    """A command's fixed start-up: `castell simulate -n 1` as a process (the interpreter, the
    imports, loading the rules, one game), wall time (median) and CPU time (fastest), beside
    `python -c pass`."""
    castell = [sys.executable, "-m", "castell_dsl"]
    baseline = process_time([sys.executable, "-c", "pass"], repeat)
    args = ["simulate", "-n", "1", "--no-progress"]
    wall = process_time([*castell, *args], repeat)
    cpu_s = min(run_command(args)[1] for _ in range(repeat))
    return {"python_startup_ms": baseline * 1000, "simulate_1_wall_ms": wall * 1000,
            "simulate_1_cpu_ms": cpu_s * 1000}  # fmt: skip


def bench_analyze(games: int) -> dict:
    """`castell analyze` against `castell simulate` of the same random 4-player Castell games
    in this process, CPU time (the target: the analysis costs at most 1.3x the games). Both
    run three times, interleaved, and each keeps its fastest run: on a shared machine a run
    can be slowed by a fifth by other work, and the fastest is the least disturbed."""
    from castell_dsl.runtime.analysis.report import analyze
    from castell_dsl.runtime.paired import parse_contender
    from castell_dsl.runtime.simulation import SimulationSpec, simulate

    seed = 700_000
    spec = SimulationSpec("castell", (), 4, ("random",) * 4, seed, games)
    castell = parse_contender("castell")
    times: dict[str, list[float]] = {"simulate": [], "analyze": []}
    for _ in range(3):
        gc.collect()
        start = time.process_time()
        simulate(spec)
        times["simulate"].append(time.process_time() - start)
        gc.collect()
        start = time.process_time()
        analyze(castell, None, 4, ["random"] * 4, seed, games, skill=False)
        times["analyze"].append(time.process_time() - start)
    simulate_s, analyze_s = min(times["simulate"]), min(times["analyze"])
    return {"games": games, "simulate_s": simulate_s, "analyze_s": analyze_s,
            "ratio": analyze_s / simulate_s}  # fmt: skip


def mcts_positions(moves: int, players: int = 4) -> list:
    """Positions of a 4-player Castell game played by greedy bots: the first player's turns
    (a fixed seed, so every run and every version searches the same positions)."""
    from castell_dsl.runtime.bots import make_bot
    from castell_dsl.runtime.games import start_game
    from castell_dsl.runtime.loading import load_rules

    rules = load_rules("castell")
    probe = start_game(rules, players, 7, record_events=False)
    bots = [make_bot("greedy", rules, s, 7) for s in range(players)]
    positions = []
    while not probe.is_over() and len(positions) < moves:
        if probe.current_player == 0 and len(probe.legal_actions()) > 1:
            positions.append(probe.clone())
        probe.apply(bots[probe.current_player].choose(probe))
    return positions


def bench_mcts(moves: int, iterations: int = 200) -> dict:
    """MCTS iterations per second in 4-player Castell, `iterations` per move."""
    from castell_bots.mcts import MCTSBot

    positions = mcts_positions(moves)
    bot = MCTSBot(3, iterations=iterations)
    start = cpu()
    for position in positions:
        bot.choose(position)
    elapsed = cpu() - start
    return {
        "players": 4,
        "moves": len(positions),
        "iterations_per_move": iterations,
        "iterations_per_s": iterations * len(positions) / elapsed,
    }


def bench_mcts_alone(moves: int) -> dict:
    """`bench_mcts` in a process of its own, as a game's bot runs: after this script's other
    rows its heap holds thousands of games' memos, and the search's many small objects then
    cost the garbage collector more (about a tenth, varying from run to run)."""
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import run; "
        "print(json.dumps(run.bench_mcts(int(sys.argv[2]))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(Path(__file__).resolve().parent), str(moves)],
        check=True, capture_output=True, text=True, cwd=tempfile.gettempdir(),
    )  # fmt: skip
    return json.loads(result.stdout.strip().splitlines()[-1])


def bench_memory(small: int, large: int) -> dict:
    """Peak memory of `simulate` and of `analyze` (no ladder) for a small and a large batch,
    each in a process of its own: both keep aggregates, not games."""
    runs = {
        "": "simulate(SimulationSpec('castell', (), 4, ('random',) * 4, 0, n))",
        "analyze_": "analyze(parse_contender('castell'), None, 4, ['random'] * 4, 0, n, "
        "skill=False)",
    }
    out = {}
    for prefix, call in runs.items():
        code = (
            "import resource, sys; "
            "from castell_dsl.runtime.simulation import SimulationSpec, simulate; "
            "from castell_dsl.runtime.analysis.report import analyze; "
            "from castell_dsl.runtime.paired import parse_contender; "
            f"n = int(sys.argv[1]); {call}; "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
        )
        for n in (small, large):
            result = subprocess.run(
                [sys.executable, "-c", code, str(n)], check=True, capture_output=True, text=True
            )
            out[f"{prefix}peak_rss_mb_{n}_games"] = int(result.stdout.strip()) / 1024
        out[f"{prefix}growth_ratio"] = (
            out[f"{prefix}peak_rss_mb_{large}_games"] / out[f"{prefix}peak_rss_mb_{small}_games"]
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description="Castell DSL speed budget")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (smoke test)")
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "latest.json"))
    args = parser.parse_args()
    quick = args.quick
    started = time.perf_counter()
    report: dict = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()} ({platform.platform()})",
    }
    report["language"] = bench_language(5 if quick else 20)
    report["processes"] = bench_processes(3 if quick else 10)
    report["solver"] = bench_solver(10 if quick else 50)
    report["solver_python"] = bench_solver_python(10 if quick else 50)
    games = 20 if quick else 150
    report["tictactoe"] = bench_tictactoe(500 if quick else 4000)
    report["playouts"] = bench_playouts(games, "castell", (2, 3, 4))
    try:
        from castell_dsl.runtime.loading import load_rules

        load_rules("calico")
        report["playouts"] += bench_playouts(max(10, games // 3), "calico", (1, 4))
    except Exception as exc:  # Calico is optional for this benchmark
        report["calico_error"] = str(exc)
    ttt = report["tictactoe"]
    ttt["yardstick"], rate = yardstick(ttt)
    for row in report["playouts"]:
        row["vs_tictactoe"] = row["actions_per_s"] / rate
        if "openspiel_actions_per_s" in ttt:
            row["vs_tictactoe_replica"] = row["actions_per_s"] / ttt["openspiel_actions_per_s"]
    report["startup"] = bench_startup(3 if quick else 10)
    report["scaling"] = bench_scaling(quick)
    report["analyze"] = bench_analyze(100 if quick else 1000)
    report["mcts"] = bench_mcts_alone(5 if quick else 20)
    report["memory"] = bench_memory(20 if quick else 100, 100 if quick else 1000)
    from rl_envs import bench_rl_envs  # RL environments vs PettingZoo's (benchmarks/rl_envs.py)

    report["rl_envs"] = bench_rl_envs(1.0 if quick else 4.0)
    report["seconds"] = time.perf_counter() - started
    path = Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1))
    print_table(report)
    print(f"\nJSON written to {path}")
    return 0


def startup_rows(r: dict) -> list[tuple[str, str, str, str]]:
    """The start-up row (`bench_startup`)."""
    st = r.get("startup")
    if not st:
        return []
    return [
        ("castell simulate -n 1 (process: start-up)",
         f"{st['simulate_1_wall_ms']:.0f} ms ({st['simulate_1_cpu_ms']:.0f} ms CPU)", "low",
         f"python -c pass {st['python_startup_ms']:.0f} ms")
    ]  # fmt: skip


def scaling_rows(r: dict) -> list[tuple[str, str, str, str]]:
    """The `--jobs 2` rows (`bench_scaling`), a skipped command's with its reason."""
    sc = r.get("scaling")
    if not sc:
        return []
    rows = []
    for name, row in sc["commands"].items():
        if "skipped" in row:
            rows.append((f"castell {name} --jobs 2", "skipped", "≥ 1.7x", row["skipped"]))
            continue
        rows.append(
            (f"castell {name} --jobs 2, {row['games']} 4-player games ({row['bots']})",
             f"x{row['speedup_wall']:.2f} wall, x{row['speedup_cpu']:.2f} CPU", "≥ 1.7x",
             f"1 job {row['wall_1_job_s']:.1f} s, 2 jobs {row['wall_2_jobs_s']:.1f} s wall; "
             f"CPU 2 jobs/1 job x{row['cpu_ratio']:.3f}, of which two 1-job processes side by "
             f"side x{row['contention']:.3f} and the pool {row['pool_overhead_s']:+.2f} s; "
             f"load {row['load']:.1f} on {os.cpu_count()} cores")
        )  # fmt: skip
    return rows


def print_table(r: dict) -> None:
    lang, proc, mem = r["language"], r["processes"], r["memory"]
    solver = {row["castellers"]: row for row in r["solver"]}
    rows = [
        ("parse + compile castell, cold process", f"{lang['cold_load_s'] * 1000:.0f} ms", "", ""),
        ("parse castell (warm, in process)", f"{lang['warm_parse_ms']:.1f} ms", "", ""),
        ("parse + compile castell (warm, no cache)", f"{lang['warm_parse_compile_ms']:.1f} ms",
         "≤ 50 ms", ""),
        ("load castell (warm, cached)", f"{lang['cached_load_ms']:.2f} ms", "", ""),
        ("castell validate rules/ (process)", f"{proc['validate_ms']:.0f} ms", "≤ 300 ms",
         f"python -c pass {proc['python_startup_ms']:.0f} ms"),
        ("castell --help (process)", f"{proc['help_ms']:.0f} ms", "≤ 150 ms",
         f"python -c pass {proc['python_startup_ms']:.0f} ms"),
    ]  # fmt: skip
    python_rows = [(row["castellers"], row) for row in r.get("solver_python", [])]
    shown = [(size, solver[size]) for size in (10, 11, 20, 30, 40) if size in solver]
    for size, row in [*shown, *python_rows]:
        speedup = row.get("speedup_median")
        ratio = f"{speedup:.0f}x faster than brute force" if speedup else ""
        search = f" ({row['search']} search)" if "search" in row else ""
        rows.append(
            (f"best festival tower, {size} castellers{search}",
             f"{row['solver_median_ms']:.2f} ms median",
             {30: "≤ 5 ms", 11: "≥ 100x brute force"}.get(size, ""), ratio)
        )  # fmt: skip
    ttt = r["tictactoe"]
    name, rate = yardstick(ttt)
    label = {"pyspiel": "OpenSpiel's python_tic_tac_toe", "openspiel": "numpy board",
             "list": "list board"}[name]  # fmt: skip
    others = [f"{what} {ttt[f'{key}_actions_per_s']:,.0f}/s"
              for key, what in (("openspiel", "hand-written, numpy board"),
                                ("list", "hand-written, list board"))
              if key != name and f"{key}_actions_per_s" in ttt]  # fmt: skip
    rows.append(
        ("random tic-tac-toe (yardstick)", f"{rate:,.0f} actions/s ({label})", "",
         ", ".join(others))
    )  # fmt: skip
    for p in r["playouts"]:
        base = f"{p['vs_tictactoe']:.2f}x tic-tac-toe"
        if "vs_tictactoe_replica" in p and name == "pyspiel":
            base += f" ({p['vs_tictactoe_replica']:.2f}x the numpy replica)"
        if "engine_vs_handwritten" in p:
            base += (
                f", {p['engine_vs_handwritten']:.2f}x hand-written Castell "
                f"({p['handwritten_actions_per_s']:,.0f}/s)"
            )
        target = {
            ("castell", 4): "≥ 300 g/s, ≥ 1.0x ttt",
            ("calico", 4): "≥ 400 g/s",
        }.get((p["rules"], p["players"]), "")
        rows.append(
            (f"random {p['rules']}, {p['players']} players",
             f"{p['games_per_s']:.1f} games/s, {p['actions_per_s']:,.0f} actions/s",
             target, base)
        )  # fmt: skip
    rows += startup_rows(r) + scaling_rows(r)
    an = r["analyze"]
    rows.append(
        (f"castell analyze, {an['games']} random 4-player games (--no-skill)",
         f"{an['analyze_s']:.2f} s CPU", "≤ 1.3x simulate",
         f"simulate {an['simulate_s']:.2f} s: x{an['ratio']:.2f}")
    )  # fmt: skip
    mcts = r["mcts"]
    rows.append(
        (f"MCTS, 4-player Castell, {mcts['iterations_per_move']} iterations/move",
         f"{mcts['iterations_per_s']:,.0f} iterations/s", "≥ 10,000", "")
    )  # fmt: skip
    for prefix, what in (("", "simulation"), ("analyze_", "analysis")):
        keys = [k for k in mem if k.startswith(f"{prefix}peak")]
        if keys:
            rows.append(
                (f"{what} peak memory", " → ".join(f"{mem[k]:.0f} MB" for k in keys), "flat",
                 f"growth x{mem[f'{prefix}growth_ratio']:.2f}")
            )  # fmt: skip
    from rl_envs import rl_rows

    rows += rl_rows(r)
    width = max(len(row[0]) for row in rows)
    print(f"Castell DSL benchmarks — {r['date']} — {r['machine']}")
    print(f"{'measure':<{width}}  {'result':<40}  {'target':<22}  baseline / ratio")
    for name, value, target, base in rows:
        print(f"{name:<{width}}  {value:<40}  {target:<22}  {base}")
    print(f"(benchmark run took {r['seconds']:.0f} s; {proc.get('note', PROCESS_NOTE)})")


if __name__ == "__main__":
    sys.exit(main())
