"""The paired-seed machinery: the same games under several rule sets, game by game.

`castell compare` and `castell analyze` both ask what a rule change does to play. Each rule set
(a *contender*) plays the same games: game `i` of every one uses seed `S + i` and the same bots
in the same seats. One task plays game `i` under every contender and returns their records
together, so a consumer receives each game's tuple at once, in game order, whatever the
number of processes or a Dask cluster (`simulation.run_tasks`). A consumer can then fold the
paired difference of game `i` into a running aggregate and drop the records: memory stays
flat in the number of games.

What a game's record holds is the consumer's choice: a *measure*, a module-level function
`measure(rules, players, seed, bots, index) -> record` (it runs in worker processes, so it must
pickle by name). `compare` records the game's line with its final facts; `analyze` records the
compact per-game figures of `analysis.measure`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..language.loader import is_path_like
from ..language.ruleset import RuleSet
from .simulation import run_tasks, worker_rules

#: What a game's record is, per rule set: `measure(rules, players, seed, bots, index)`.
Measure = Callable[[RuleSet, int, int, tuple[str, ...], int], Any]


@dataclass(frozen=True)
class Contender:
    """One rule set to compare: as the user wrote it, and as rules + variants."""

    label: str
    rules: str
    variants: tuple[str, ...]


def _as_file(text: str) -> str:
    """A path (it looks like one: loading.resolve_rules_path) made absolute; a name as it is."""
    return str(Path(text).resolve()) if is_path_like(text) else text


def parse_contender(text: str) -> Contender:
    """`castell`, `rules/x.castell`, `./variant.castell` (a file that extends),
    `castell+short-season`, `castell+./eight-rounds.castell+generous-prizes`.

    Names and paths are told apart as everywhere (a path contains a separator or ends in
    `.castell`); a path that names an existing file is whole even if it holds a `+`. Files are
    made absolute, so workers elsewhere (another directory, a Dask worker on the same file
    system) load the same file."""
    if "+" not in text or (is_path_like(text) and Path(text).is_file()):
        return Contender(text, _as_file(text), ())
    rules, *variants = text.split("+")
    return Contender(text, _as_file(rules), tuple(_as_file(v) for v in variants if v))


def with_variants(contender: Contender, variants: Sequence[str]) -> Contender:
    """`contender` with more variants (`--variant`, names or paths) applied after its own."""
    if not variants:
        return contender
    label = "+".join([contender.label, *variants])
    return Contender(label, contender.rules, contender.variants + tuple(map(_as_file, variants)))


@dataclass(frozen=True)
class PairedSpec:
    """Everything that determines a paired run (picklable: sent to worker processes)."""

    contenders: tuple[Contender, ...]
    players: int
    bots: tuple[str, ...]
    seed: int
    games: int

    def game_seed(self, index: int) -> int:
        return self.seed + index


def play_paired(spec: PairedSpec, measure: Measure, index: int) -> list[Any]:
    """Game `index` under every contender: their records, in the contenders' order."""
    seed = spec.game_seed(index)
    return [
        measure(worker_rules(c.rules, c.variants), spec.players, seed, spec.bots, index)
        for c in spec.contenders
    ]


def run_paired(
    spec: PairedSpec,
    measure: Measure,
    jobs: int = 1,
    scheduler: str | Any | None = None,
) -> Iterator[list[Any]]:
    """Each game's records under every contender, in game order (`simulation.run_tasks`)."""
    return run_tasks(partial(play_paired, spec, measure), spec.games, jobs, scheduler)


def bots_for(spec: str, players: int) -> list[str]:
    """`--bots` as one spec per seat: one name seats it everywhere."""
    seats = [b.strip() for b in spec.split(",") if b.strip()]
    return seats * players if len(seats) == 1 else seats


__all__ = [
    "Contender",
    "Measure",
    "PairedSpec",
    "bots_for",
    "parse_contender",
    "play_paired",
    "run_paired",
    "with_variants",
]
