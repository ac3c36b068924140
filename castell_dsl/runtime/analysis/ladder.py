"""The skill ladder: bots of increasing strength, each rung against the one below.

Rung `k` (say `mcts:iterations=50`) plays `games` games against rung `k - 1`
(`mcts:iterations=25`) on the paired-seed machinery's runner: game `i` uses seed `S + i`, and
seat `s` plays the higher rung when `s + i` is even, so seats rotate between the rungs from
game to game (in a 4-player game two seats play each rung). A rung *beats* the one below when
the 95% Wilson interval of its share of the wins lies above its fair share (the share of the
seats it held: one half over an even number of games). Solo games play each seed with both
bots and compare the scores (a paired t interval).

`--budget` bounds the ladder in CPU seconds summed over processes: before a rung, one game
is played here and timed, and the rung runs only if that time times its games fits what is
left; otherwise it is skipped and the report says so, with the estimate. So every rung that is
played is played in full, and the report is the same for any `--jobs` when nothing is skipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from itertools import pairwise
from typing import Any

from ..simulation import play_game, run_tasks, worker_rules
from .stats import Moments, Rate, paired_summary

#: The default rungs: random, greedy, then MCTS at doubling budgets.
DEFAULT_RUNGS = ("random", "greedy", "mcts:iterations=25", "mcts:iterations=50")
#: Ladder games per rung: `--games`, at most this many.
MAX_LADDER_GAMES = 40


def ladder_seats(higher: str, lower: str, players: int, index: int) -> list[str]:
    """Seat `s` of game `index` plays `higher` when `s + index` is even."""
    return [higher if (s + index) % 2 == 0 else lower for s in range(players)]


def ladder_game(
    higher: str, lower: str, rules: str, variants: tuple[str, ...], players: int, seed: int,
    index: int,
) -> list[Any]:  # fmt: skip
    """One ladder game's record: [higher's win share, higher's seats, mean score difference
    between a higher seat and a lower seat] (solo: the higher bot's score minus the lower's on
    the same seed)."""
    loaded = worker_rules(rules, variants)
    game_seed = seed + index
    if players == 1:
        high = play_game(loaded, 1, game_seed, [higher]).score_of(0)
        low = play_game(loaded, 1, game_seed, [lower]).score_of(0)
        return [0, 1, high - low]
    bots = ladder_seats(higher, lower, players, index)
    game = play_game(loaded, players, game_seed, bots)
    winners = game.result()["winners"]
    mine = [s for s in range(players) if bots[s] == higher]
    theirs = [s for s in range(players) if bots[s] != higher]
    share = Fraction(sum(1 for s in winners if s in mine), len(winners))
    totals = [game.score_of(s) for s in range(players)]
    diff = Fraction(sum(totals[s] for s in mine), len(mine)) - Fraction(
        sum(totals[s] for s in theirs), len(theirs)
    )
    return [share, len(mine), diff]


def _shifted(task: Callable[[int], Any], index: int) -> Any:
    return task(index + 1)


def run_ladder(
    targets: Sequence[tuple[str, tuple[str, ...]]],
    players: int,
    seed: int,
    games: int,
    budget: float,
    rungs: Sequence[str] = DEFAULT_RUNGS,
    jobs: int = 1,
    scheduler: Any = None,
    on_game: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """The ladder for each rule set in `targets` (rules, variants), rung by rung: for each
    rung, every rule set, so that a budget that runs out cuts the same rungs from all."""
    games = min(games, MAX_LADDER_GAMES)
    left = budget
    out: list[dict[str, Any]] = [
        {"games_per_rung": games, "budget_seconds": budget, "rungs": []} for _ in targets
    ]
    for lower, higher in pairwise(rungs):
        for target, ladder in zip(targets, out, strict=True):
            task = partial(ladder_game, higher, lower, *target, players, seed)
            started = time.process_time()
            first = task(0)
            spent = time.process_time() - started
            estimate = spent * games
            row: dict[str, Any] = {"lower": lower, "higher": higher, "games": games}
            if estimate > left:
                row.update(
                    played=False, skipped=f"about {estimate:.0f} s, {max(left, 0):.0f} s left"
                )
                ladder["rungs"].append(row)
                continue
            left -= estimate
            records = [first]
            if on_game:
                on_game()
            for record in run_tasks(partial(_shifted, task), games - 1, jobs, scheduler):
                records.append(record)
                if on_game:
                    on_game()
            row.update(played=True, **_rung_summary(records, players))
            ladder["rungs"].append(row)
    return out


def _rung_summary(records: list[list[Any]], players: int) -> dict[str, Any]:
    wins = Rate()
    seats = 0
    diff = Moments()
    for share, mine, difference in records:
        wins.add(share)
        seats += mine
        diff.add(difference)
    if players == 1:
        summary = paired_summary(diff)
        return {
            "higher_win_share": Rate().summary(),
            "fair_share": None,
            "score_difference": summary,
            "beats_lower": summary["ci95"][0] is not None and summary["ci95"][0] > 0,
        }
    fair = seats / (len(records) * players)
    stat = wins.summary()
    return {
        "higher_win_share": stat,
        "fair_share": round(fair, 4),
        "score_difference": diff.summary(),
        "beats_lower": stat["ci95"][0] is not None and stat["ci95"][0] > fair,
    }


__all__ = ["DEFAULT_RUNGS", "ladder_game", "ladder_seats", "run_ladder"]
