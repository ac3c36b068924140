"""Ratings from a round robin: every seat order of the bots, Bradley-Terry with bootstrap intervals.

`castell tournament --bots random,greedy,mcts -n 60` seats the bots in every *lineup*: every
ordered choice of `players` different bots (with fewer bots than seats, every sequence that
seats at least two of them), so each pairing meets in every seat order and no bot profits from
a seat. The games are played in *rounds*: round `r` plays seed `S + r` under every lineup, the
paired-seed design of `compare` (`runtime/paired.py`), so lineups differ only in who sits where.
One task plays one round and returns its records, through `simulation.run_tasks`, the one runner
of every batch: the same lines come out for any `--jobs` or a Dask cluster.

A game of several players is read as its pairwise results: for two seats held by different bots,
a winner beats a non-winner; otherwise the higher total wins, and equal totals are a draw (half
a win each). The Bradley-Terry model (P(i beats j) = p_i / (p_i + p_j)) is fitted to those
counts by Hunter's MM iterations, with half a win each way between every two bots as a prior (no
rating is infinite when a bot never loses), and reported on the Elo scale (400·log10 p, mean
1500). The 95% intervals are percentiles of the ratings refitted on rounds resampled with
replacement (whole rounds, keeping the pairing), from a generator seeded by the tournament's
seed: the same options give the same JSON, byte for byte.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from .simulation import play_game, run_tasks, worker_rules

#: Bootstrap resamples for the rating intervals.
BOOTSTRAP = 200
#: Bradley-Terry fit: MM iterations at most, and the change in log-strength that stops them.
MAX_ITERATIONS = 1_000
TOLERANCE = 1e-9
#: The most lineups a tournament plays (12 bots in 4 seats are 11,880).
MAX_LINEUPS = 5_000


class TournamentError(ValueError):
    """A tournament that cannot be played as asked (the message says why)."""


def lineups(bots: int, players: int) -> list[tuple[int, ...]]:
    """Every seat order: ordered choices of `players` different bots out of `bots`; with fewer
    bots than seats, every sequence of bots in which at least two different ones sit."""
    if bots < 2:
        raise TournamentError("a tournament needs at least two bots")
    if bots >= players:
        found = list(itertools.permutations(range(bots), players))
    else:
        found = [
            order for order in itertools.product(range(bots), repeat=players) if len(set(order)) > 1
        ]
    if len(found) > MAX_LINEUPS:
        raise TournamentError(
            f"{bots} bots in {players} seats make {len(found):,} seat orders "
            f"(at most {MAX_LINEUPS:,}): seat fewer bots"
        )
    return found


@dataclass(frozen=True)
class TournamentSpec:
    """Everything that determines a tournament (picklable: sent to worker processes)."""

    rules: str
    variants: tuple[str, ...]
    players: int
    #: The bots as the user named them (labels), and the specs that seat them (a program's
    #: spec carries the agent options, runtime/agents.py).
    labels: tuple[str, ...]
    specs: tuple[str, ...]
    seed: int
    rounds: int

    @property
    def lineups(self) -> list[tuple[int, ...]]:
        return lineups(len(self.specs), self.players)

    def round_seed(self, index: int) -> int:
        return self.seed + index


def rounds_for(games: int, bots: int, players: int) -> int:
    """The rounds that play at least `games` games (each round plays every lineup once)."""
    return max(1, math.ceil(games / len(lineups(bots, players))))


def play_round(spec: TournamentSpec, index: int) -> list[dict[str, Any]]:
    """Round `index`: seed `S + index` under every lineup; per game, who sat where, the
    winners and the totals (compact: the statistics need no more)."""
    rules = worker_rules(spec.rules, spec.variants)
    seed = spec.round_seed(index)
    records = []
    for lineup in spec.lineups:
        game = play_game(rules, spec.players, seed, [spec.specs[b] for b in lineup])
        result = game.result()
        records.append(
            {
                "lineup": list(lineup),
                "winners": result["winners"],
                "totals": [p["total"] for p in result["players"]],
            }
        )
    return records


def run_rounds(
    spec: TournamentSpec, jobs: int = 1, scheduler: str | Any | None = None
) -> Iterator[list[dict[str, Any]]]:
    """Each round's records, in round order (`simulation.run_tasks`)."""
    return run_tasks(partial(play_round, spec), spec.rounds, jobs, scheduler, chunk=1)


# ---- statistics --------------------------------------------------------------------------------


def pairwise(record: dict[str, Any], bots: int) -> list[list[float]]:
    """A game's wins of bot i over bot j (draws half each), for seats of different bots."""
    wins = [[0.0] * bots for _ in range(bots)]
    lineup, winners, totals = record["lineup"], set(record["winners"]), record["totals"]
    for a, b in itertools.combinations(range(len(lineup)), 2):
        i, j = lineup[a], lineup[b]
        if i == j:
            continue
        if (a in winners) != (b in winners):
            first = a in winners
        elif totals[a] != totals[b]:
            first = totals[a] > totals[b]
        else:
            wins[i][j] += 0.5
            wins[j][i] += 0.5
            continue
        if first:
            wins[i][j] += 1
        else:
            wins[j][i] += 1
    return wins


def add_into(total: list[list[float]], more: list[list[float]]) -> None:
    for row, extra in zip(total, more, strict=True):
        for j, value in enumerate(extra):
            row[j] += value


def bradley_terry(wins: Sequence[Sequence[float]], prior: float = 0.5) -> list[float]:
    """Elo-scale ratings (mean 1500) of the Bradley-Terry strengths fitted to `wins[i][j]`
    (Hunter's MM algorithm), with `prior` wins each way between every two bots."""
    n = len(wins)
    w = [[wins[i][j] + (prior if i != j else 0.0) for j in range(n)] for i in range(n)]
    strength = [1.0] * n
    for _ in range(MAX_ITERATIONS):
        updated = []
        for i in range(n):
            won = sum(w[i])
            denominator = sum(
                (w[i][j] + w[j][i]) / (strength[i] + strength[j]) for j in range(n) if j != i
            )
            updated.append(won / denominator if denominator else strength[i])
        scale = math.exp(sum(math.log(s) for s in updated) / n)
        updated = [s / scale for s in updated]
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(updated, strength, strict=True))
        strength = updated
        if change < TOLERANCE:
            break
    return [1500 + 400 * math.log10(s) for s in strength]


@dataclass
class Standings:
    """A tournament's running tallies, round by round (the rounds' pairwise counts are kept
    for the bootstrap: bots² numbers a round)."""

    labels: Sequence[str]
    players: int
    rounds: int = 0
    games: int = 0

    def __post_init__(self) -> None:
        k = len(self.labels)
        self.per_round: list[list[list[float]]] = []
        self.played = [0] * k
        self.won = [0.0] * k
        self.score = [0.0] * k

    def add(self, records: list[dict[str, Any]]) -> None:
        k = len(self.labels)
        wins = [[0.0] * k for _ in range(k)]
        for record in records:
            add_into(wins, pairwise(record, k))
            winners = record["winners"]
            for seat, bot in enumerate(record["lineup"]):
                self.played[bot] += 1
                self.score[bot] += record["totals"][seat]
                if seat in winners:
                    self.won[bot] += 1 / len(winners)
            self.games += 1
        self.per_round.append(wins)
        self.rounds += 1

    def totals(self, rounds: Sequence[int] | None = None) -> list[list[float]]:
        k = len(self.labels)
        total = [[0.0] * k for _ in range(k)]
        for index in range(self.rounds) if rounds is None else rounds:
            add_into(total, self.per_round[index])
        return total

    def to_json(self, seed: int, bootstrap: int = BOOTSTRAP) -> dict[str, Any]:
        k = len(self.labels)
        wins = self.totals()
        ratings = bradley_terry(wins)
        rng = random.Random(seed)
        samples: list[list[float]] = [[] for _ in range(k)]
        for _ in range(bootstrap if self.rounds > 1 else 0):
            chosen = [rng.randrange(self.rounds) for _ in range(self.rounds)]
            for i, rating in enumerate(bradley_terry(self.totals(chosen))):
                samples[i].append(rating)
        rows = []
        for i, label in enumerate(self.labels):
            low, high = _percentiles(samples[i]) if samples[i] else (ratings[i], ratings[i])
            rows.append(
                {
                    "bot": label,
                    "rating": round(ratings[i], 1),
                    "rating_95": [round(low, 1), round(high, 1)],
                    "games": self.played[i],
                    "win_rate": round(self.won[i] / self.played[i], 4) if self.played[i] else 0.0,
                    "mean_total": round(self.score[i] / self.played[i], 3)
                    if self.played[i]
                    else 0.0,
                }
            )
        order = sorted(range(k), key=lambda i: (-ratings[i], i))
        table = []
        for i in range(k):
            row: dict[str, Any] = {}
            for j in range(k):
                met = wins[i][j] + wins[j][i]
                row[self.labels[j]] = round(wins[i][j] / met, 4) if i != j and met else None
            table.append({"bot": self.labels[i], "against": row})
        return {
            "games": self.games,
            "rounds": self.rounds,
            "players": self.players,
            "seed": seed,
            "bootstrap": bootstrap if self.rounds > 1 else 0,
            "ratings": [rows[i] for i in order],
            "pairwise": [table[i] for i in order],
            "encounters": [
                {"bot": self.labels[i], "against": {self.labels[j]: wins[i][j] for j in range(k)}}
                for i in order
            ],
        }


def _percentiles(values: list[float], level: float = 0.95) -> tuple[float, float]:
    ordered = sorted(values)
    tail = (1 - level) / 2
    last = len(ordered) - 1
    return ordered[round(tail * last)], ordered[round((1 - tail) * last)]


def run_tournament(
    spec: TournamentSpec,
    jobs: int = 1,
    scheduler: str | Any | None = None,
    on_round: Callable[[list[dict[str, Any]]], None] | None = None,
) -> Standings:
    """Play every round (in round order, whatever runs them) into the standings."""
    standings = Standings(spec.labels, spec.players)
    for records in run_rounds(spec, jobs, scheduler):
        standings.add(records)
        if on_round is not None:
            on_round(records)
    return standings
