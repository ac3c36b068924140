"""Playing many games between bots from a program: the records `castell simulate` prints.

`simulate(...)` runs the very batch the command runs (`runtime.simulation`: game `i` has seed
`seed + i`, results identical for any number of processes or a Dask cluster) and returns its
records: `records` are the lines of `castell simulate --format jsonl`, and `to_json()` is the
document of `--format json`. `check_run` is the one check of a run's options before any game
is played, which `simulate`, `compare` and `analyze` share, so they refuse the same things with
the same messages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..language.loader import is_path_like
from ..language.ruleset import RuleSet
from ..runtime.bots import make_bot
from ..runtime.games import GameSetupError, check_players, start_game
from ..runtime.loading import default_rules, load_rules
from ..runtime.paired import bots_for
from ..runtime.simulation import SimulationSpec
from ..runtime.simulation import simulate as run_batch


def check_run(
    rules: RuleSet,
    players: int,
    bots: str | Sequence[str],
    seed: int,
    *,
    adjust_seats: Callable[[list[str]], list[str]] | None = None,
) -> list[str]:
    """The bot spec of every seat, once nothing a run could not use is found before any game
    is played: a player count the rules do not allow, a number of bots that is not one per
    seat, a bot spec that is unknown or out of its ranges (`BotSpecError`), or options the
    mechanics refuses (`GameSetupError`: Calico's low-luck with 3 or 4 players).

    `bots` is one spec per seat, or the command line's comma-separated text of them; one spec
    alone, in a list or as text, seats it everywhere. `adjust_seats` rewrites the seats' specs
    before they are checked (the command line's agent options written into a program's spec).
    """
    check_players(rules, players)  # first: a huge count is refused before seats are made
    if isinstance(bots, str):
        seats = bots_for(bots, players)
    else:
        seats = list(bots) * players if len(bots) == 1 else list(bots)
    if adjust_seats is not None:
        seats = adjust_seats(seats)
    if len(seats) != players:
        raise GameSetupError(f"--bots names {len(seats)} bots for {players} players")
    for seat, spec in enumerate(seats):
        make_bot(spec, rules, seat, 0)
    start_game(rules, players, seed, record_events=False)
    return seats


@dataclass(frozen=True)
class Simulation:
    """A finished batch: every game's record, in game order, and the batch's summary."""

    records: list[dict[str, Any]]
    summary: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """What `castell simulate --format json` prints."""
        return {"games": self.records, "summary": self.summary}


def simulate(
    rules: str | None = None,
    *,
    games: int = 100,
    players: int = 4,
    bots: str | Sequence[str] = "random",
    seed: int = 0,
    variants: Sequence[str] = (),
    jobs: int = 1,
    scheduler: str | None = None,
    save_dir: str | None = None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
) -> Simulation:
    """Play `games` games of `rules` (an installed name or a rule file's path; None for the
    default game) between `bots` and return their records.

    `bots` is one spec for every seat (`"greedy"`), one per seat (`["greedy", "mcts"]`), or
    the command line's comma-separated form (`"greedy,mcts"`). Game `i` uses seed `seed + i`.
    `jobs` local processes or a Dask `scheduler` address give the same records; `save_dir`
    writes each game's save file there; `on_record` is called with each record as its game
    finishes (in game order). Raises `RuleError`, `GameSetupError` or `BotSpecError` before
    any game is played when the options cannot be used.
    """
    if games < 1:
        raise ValueError(f"games is at least 1, not {games}")
    name = default_rules() if rules is None else rules
    if is_path_like(name):  # workers in other directories load the same file
        name = str(Path(name).resolve())
    chosen = tuple(variants)
    seats = check_run(load_rules(name, chosen), players, bots, seed)
    spec = SimulationSpec(name, chosen, players, tuple(seats), seed, games, save_dir)
    records: list[dict[str, Any]] = []

    def keep(record: dict[str, Any]) -> None:
        records.append(record)
        if on_record is not None:
            on_record(record)

    summary = run_batch(spec, jobs=jobs, scheduler=scheduler, on_line=keep)
    return Simulation(records, summary.to_json())


__all__ = ["Simulation", "check_run", "simulate"]
