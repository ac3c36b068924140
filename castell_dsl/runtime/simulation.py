"""Playing many games between bots: one game, a batch, and the statistics of a batch.

Game `i` of a simulation with seed `S` uses seed `S + i`, and each bot's own generator is seeded
from its game's seed and seat, so a result depends only on (rules, players, bots, seed, i):
the same lines come out whatever the number of jobs or the machine that ran them.
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from ..contract import Action
from ..engine.game import Game
from ..language.ruleset import RuleSet
from .bots import finish_bots, make_bot
from .games import start_game
from .loading import load_rules
from .saves import save_record, write_save
from .workers import worker_pool, workers_inherit_memory


@dataclass(frozen=True)
class SimulationSpec:
    """Everything that determines a batch of games (picklable: sent to worker processes)."""

    rules: str
    variants: tuple[str, ...]
    players: int
    bots: tuple[str, ...]
    seed: int
    games: int
    save_dir: str | None = None

    def game_seed(self, index: int) -> int:
        return self.seed + index


def play_game(
    rules: RuleSet,
    players: int,
    seed: int,
    bots: Sequence[str],
    *,
    record_events: bool = False,
    max_actions: int = 1_000_000,
    on_decision: Callable[[Game, Action], None] | None = None,
) -> Game:
    """Play one game to the end between bots (`bots[i]` plays seat i). `on_decision(game,
    action)` is called with each chosen action just before it is applied (trajectories)."""
    game = start_game(rules, players, seed, record_events=record_events)
    seats = [make_bot(spec, rules, seat, seed) for seat, spec in enumerate(bots)]
    count = 0
    try:
        while not game.is_over():
            player = game.current_player
            assert player is not None  # a game in progress always has a player to act
            action = seats[player].choose(game)
            if on_decision is not None:
                on_decision(game, action)
            game.apply(action)
            count += 1
            if count > max_actions:
                raise RuntimeError(f"game with seed {seed} did not end after {max_actions} actions")
    finally:
        finish_bots(seats, game)
    return game


def game_line(index: int, seed: int, game: Game, bots: Sequence[str]) -> dict[str, Any]:
    """One finished game as a JSON-lines record (the stable `--format jsonl` contract)."""
    result = game.result()
    return {
        "game": index,
        "seed": seed,
        "rounds": result["rounds"],
        "winners": result["winners"],
        "actions": len(game.log),
        "players": [
            {
                "seat": p["seat"],
                "bot": bots[p["seat"]],
                "total": p["total"],
                "categories": p["categories"],
            }
            for p in result["players"]
        ],
    }


def final_facts(game: Game) -> list[dict[str, Any]]:
    """Each player's final facts, as data: a list fact as {item: how many}, a number as is
    (other values are left out). Generic: the facts are whatever the mechanics exposes."""
    out = []
    for player in range(game.players):
        facts: dict[str, Any] = {}
        for name, value in game.logic.facts(game, player).items():
            if isinstance(value, bool):
                facts[name] = int(value)
            elif isinstance(value, (int, float)):
                facts[name] = value
            elif isinstance(value, (list, tuple)):
                counts: dict[str, int] = {}
                for item in value:
                    key = getattr(item, "name", None) or str(item)
                    counts[key] = counts.get(key, 0) + 1
                facts[name] = counts
        out.append(facts)
    return out


_WORKER_RULES: dict[tuple[str, tuple[str, ...]], RuleSet] = {}


def worker_rules(rules: str, variants: tuple[str, ...]) -> RuleSet:
    """The rule set a worker process plays, loaded once per process (a paired run plays a few
    rule sets in turn, so each stays loaded)."""
    key = (rules, variants)
    found = _WORKER_RULES.get(key)
    if found is None:
        if len(_WORKER_RULES) >= 8:
            _WORKER_RULES.clear()
        found = _WORKER_RULES[key] = load_rules(rules, variants)
    return found


class DecisionRecorder(Protocol):
    """Follows one game's decisions (`castell simulate --trajectories`: the RL encoding)."""

    def decision(self, game: Game, action: Action) -> None: ...
    def finish(self, game: Game) -> list[dict[str, Any]]: ...


#: Makes a game's recorder from (rule set, players, game seed); it must pickle (a class or a
#: module-level function): workers run it.
RecorderFactory = Callable[[RuleSet, int, int], DecisionRecorder]


def run_one(
    spec: SimulationSpec, index: int, recorder: RecorderFactory | None = None
) -> dict[str, Any]:
    """Play game `index` of a batch and return its record (runs in any process). With a
    `recorder`, the record also holds the rows it made of the game's decisions under
    "trajectory" (the caller takes them out before printing the record)."""
    rules = worker_rules(spec.rules, spec.variants)
    seed = spec.game_seed(index)
    follower = None if recorder is None else recorder(rules, spec.players, seed)
    game = play_game(
        rules, spec.players, seed, spec.bots,
        on_decision=None if follower is None else follower.decision,
    )  # fmt: skip
    line = game_line(index, seed, game, spec.bots)
    if follower is not None:
        line["trajectory"] = follower.finish(game)
    if spec.save_dir is not None:
        write_save(
            Path(spec.save_dir) / f"game-{index:05d}.json", save_record(game, list(spec.bots))
        )
    return line


def _run_chunk(task: Callable[[int], Any], indices: Sequence[int]) -> list[Any]:
    return [task(i) for i in indices]


#: The most games in one chunk of a parallel run. Each chunk costs the parent and a worker
#: about half a millisecond of CPU (a submission, a pickled answer, a few thread wake-ups), so
#: chunks of a few games waste a few per cent of a batch's CPU; this many keep that cost
#: below one in a thousand while the window of chunks in flight stays small in memory.
LARGEST_CHUNK = 64


def chunks_of(
    games: int, chunk: int, largest: int | None = None, workers: int = 1, first: int = 0
) -> Iterator[range]:
    """The batch's games in chunks, lazily: `--games 10**12` is a plan, never a list.

    With `largest`, the chunks grow from `chunk` games (the first results come out at once)
    by doubling up to `largest`, and near the end shrink again, each at most a `4 * workers`-th
    of the games left and never below `chunk` (guided self-scheduling): few chunks in all, and
    no worker left with a long chunk while the others have nothing to do. Without `largest`,
    every chunk has `chunk` games. The plan starts at game `first`. Which game a worker plays
    never changes its record: only the cost of handing the games out depends on the plan."""
    chunk = max(1, chunk)
    size, start = chunk, first
    while start < games:
        if largest is not None:
            share = (games - start) // (4 * max(1, workers))
            step = max(chunk, min(size, largest, share))
            size = min(2 * size, max(largest, chunk))
        else:
            step = chunk
        yield range(start, min(start + step, games))
        start += step


def _in_order(submit: Callable[[range], Any], plan: Iterator[range], window: int) -> Iterator:
    """Submit the plan's chunks keeping at most `window` in flight; yield their futures in
    game order. Memory stays bounded by the window, whatever the number of games."""
    pending: deque[Any] = deque()
    for indices in itertools.islice(plan, window):
        pending.append(submit(indices))
    while pending:
        future = pending.popleft()
        following = next(plan, None)
        if following is not None:
            pending.append(submit(following))
        yield future


def run_tasks(
    task: Callable[[int], Any],
    games: int,
    jobs: int = 1,
    scheduler: str | Any | None = None,
    chunk: int = 8,
    largest: int = LARGEST_CHUNK,
) -> Iterator[Any]:
    """`task(i)` for every game `i` in `range(games)`, yielded in game order: in this process,
    on `jobs` local processes, or on a Dask cluster (`scheduler`: an address or a client from
    `connect_scheduler`). `task` must pickle (a module-level function, or a `partial` of one
    over picklable data): it is what a worker runs. Every batch of games, a simulation's or a
    paired comparison's, runs through here. Workers take the games in chunks of `chunk` to
    `largest` (`chunks_of`); give `largest=chunk` when a record is large (memory holds the
    window of chunks in flight)."""
    if scheduler is not None:
        yield from _run_dask(task, games, scheduler, chunk, largest=largest)
        return
    if jobs <= 1:
        for index in range(games):
            yield task(index)
        return
    first = 0
    if games > 0 and workers_inherit_memory():
        # Forked workers start as copies of this process: once it has played the first game,
        # every cache a game fills (the rule set, the mechanics' logic, a bot's tables) is
        # filled once, here, instead of once in each worker.
        yield task(0)
        first = 1
    if first >= games:
        return
    # Stopped early (an error, Ctrl-C, a consumer that had enough), the workers are stopped
    # too; killed, they exit by themselves (`runtime/workers.py`).
    with worker_pool(jobs) as pool:
        futures = _in_order(
            lambda indices: pool.submit(_run_chunk, task, indices),
            chunks_of(games, chunk, largest, workers=jobs, first=first), window=4 * jobs,
        )  # fmt: skip
        for future in futures:
            yield from future.result()


def run_batch(
    spec: SimulationSpec, jobs: int = 1, chunk: int = 8, recorder: RecorderFactory | None = None
) -> Iterator[dict[str, Any]]:
    """Yield every game's record, in game order, using `jobs` local processes. A recorder's
    records hold every decision, so their chunks stay at `chunk` games (memory)."""
    task = partial(run_one, spec, recorder=recorder)
    largest = chunk if recorder is not None else LARGEST_CHUNK
    return run_tasks(task, spec.games, jobs, chunk=chunk, largest=largest)


class SchedulerError(Exception):
    """The Dask scheduler cannot be used: the message says why and how to start one."""


#: Seconds to wait for a Dask scheduler to answer.
CONNECT_TIMEOUT = 3.0

HOW_TO_START = (
    "start one with `dask scheduler` (it prints its tcp:// address) and a worker with "
    "`dask worker ADDRESS`, each where castell-dsl is installed"
)


def connect_scheduler(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A Dask client for `address`, or SchedulerError within `timeout` seconds."""
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        raise SchedulerError('Dask is not installed: pip install "castell-dsl[dask]"')
    from dask.distributed import Client

    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SchedulerError(
            f"cannot reach the Dask scheduler at {address} ({reason[:200]}); {HOW_TO_START}"
        ) from None


def _run_dask(
    task: Callable[[int], Any],
    games: int,
    scheduler: str | Any,
    chunk: int = 8,
    window: int = 64,
    largest: int | None = None,
) -> Iterator[Any]:
    """The chunks on a Dask cluster, `window` in flight; the plan's tail is cut for a quarter
    of the window's worth of workers (the cluster's size is not known here)."""
    client = connect_scheduler(scheduler) if isinstance(scheduler, str) else scheduler
    with client:
        futures = _in_order(
            lambda indices: client.submit(_run_chunk, task, indices, pure=False),
            chunks_of(games, chunk, largest, workers=max(1, window // 4)), window,
        )  # fmt: skip
        for future in futures:
            yield from future.result()


def run_batch_dask(
    spec: SimulationSpec,
    scheduler: str | Any,
    chunk: int = 8,
    window: int = 64,
    recorder: RecorderFactory | None = None,
) -> Iterator[dict]:
    """The same batch on a Dask cluster (`pip install ".[dask]"`), results in game order.
    `scheduler` is an address or a client from `connect_scheduler`."""
    task = partial(run_one, spec, recorder=recorder)
    largest = chunk if recorder is not None else LARGEST_CHUNK
    return _run_dask(task, spec.games, scheduler, chunk, window, largest)


# ---- statistics -------------------------------------------------------------------------------


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (sound for small n and extreme rates)."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Summary:
    """Running statistics of a batch, updated game by game."""

    players: int
    bots: Sequence[str]
    games: int = 0
    wins: list[float] = field(default_factory=list)
    sole_wins: list[int] = field(default_factory=list)
    categories: dict[str, list[list[int]]] = field(default_factory=dict)
    totals: list[list[int]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)
    elapsed: float = 0.0

    def __post_init__(self) -> None:
        self.wins = [0.0] * self.players
        self.sole_wins = [0] * self.players
        self.totals = [[] for _ in range(self.players)]

    def add(self, line: dict[str, Any]) -> None:
        self.games += 1
        winners = line["winners"]
        for seat in winners:
            self.wins[seat] += 1 / len(winners)
        if len(winners) == 1:
            self.sole_wins[winners[0]] += 1
        for p in line["players"]:
            self.totals[p["seat"]].append(p["total"])
            for name, value in p["categories"].items():
                self.categories.setdefault(name, [[] for _ in range(self.players)])
                self.categories[name][p["seat"]].append(value)
        self.actions.append(line.get("actions", 0))
        self.rounds.append(line["rounds"])
        self.elapsed = time.perf_counter() - self.started

    def to_json(self) -> dict[str, Any]:
        n = self.games

        def stats(values: list[int]) -> dict[str, float]:
            if not values:
                return {"mean": 0.0, "sd": 0.0}
            sd = statistics.pstdev(values) if len(values) > 1 else 0.0
            return {"mean": round(statistics.fmean(values), 3), "sd": round(sd, 3)}

        seats = []
        for seat in range(self.players):
            low, high = wilson_interval(self.wins[seat], n)
            seats.append(
                {
                    "seat": seat,
                    "bot": self.bots[seat],
                    "win_rate": round(self.wins[seat] / n, 4) if n else 0.0,
                    "win_rate_95": [round(low, 4), round(high, 4)],
                    "total": stats(self.totals[seat]),
                    "categories": {
                        name: stats(values[seat]) for name, values in self.categories.items()
                    },
                }
            )
        return {
            "games": n,
            "seats": seats,
            "rounds": stats(self.rounds),
            "actions_per_game": stats(self.actions),
            "seconds": round(self.elapsed, 3),
            "games_per_second": round(n / self.elapsed, 2) if self.elapsed else None,
            "actions_per_second": round(sum(self.actions) / self.elapsed) if self.elapsed else None,
        }


def simulate(
    spec: SimulationSpec,
    jobs: int = 1,
    scheduler: str | Any | None = None,
    on_line: Callable[[dict[str, Any]], None] | None = None,
    recorder: RecorderFactory | None = None,
) -> Summary:
    """Run a batch, calling `on_line` for each finished game (in order); return the summary.
    `recorder` follows each game's decisions (`run_one`)."""
    summary = Summary(spec.players, spec.bots)
    lines = (
        run_batch_dask(spec, scheduler, recorder=recorder)
        if scheduler
        else run_batch(spec, jobs, recorder=recorder)
    )
    for line in lines:
        summary.add(line)
        if on_line is not None:
            on_line(line)
    return summary
