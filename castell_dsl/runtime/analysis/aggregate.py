"""Folding game records (`measure.py`) into one rule set's sections, and paired differences.

`RuleSetAggregate.add` takes one game's record and updates running aggregates only
(`stats.py`); nothing of a game is kept. `sections()` turns them into the report's JSON
sections (without verdicts: `verdicts.py` reads these). `PairedAggregate` folds, game by
game, the difference between a variant's record and the base's for the same seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import pairwise
from typing import Any

from ...contract import COMPLETED, OPEN, TAKEN, Item
from .stats import Histogram, Moments, Number, Rate, paired_summary, welch


def _rate(n: int, hits: Number) -> dict[str, Any]:
    rate = Rate(n)
    rate.add(hits, weight=0)
    return rate.summary()


def _share(winners: Sequence[int]) -> Fraction | int:
    return 1 if len(winners) == 1 else Fraction(1, len(winners))


class ItemTally:
    """One item's counts over the games (see `contract/items.py` for what the marks mean).

    Plain counters, not `Rate`s: a game adds a mark per player and item, so this is the
    aggregate's innermost loop."""

    __slots__ = ("completed", "games_open", "games_taken", "lost", "lost_n", "open", "taken",
                 "won", "won_n")  # fmt: skip

    def __init__(self) -> None:
        self.games_open = 0
        self.games_taken = 0
        self.open = 0
        self.taken = 0
        self.completed = 0
        #: Win credit (and count) of the players it was open to who took it / who did not.
        self.won: Number = 0
        self.won_n = 0
        self.lost: Number = 0
        self.lost_n = 0


class RuleSetAggregate:
    """Everything one rule set's games add up to."""

    def __init__(self, players: int, rounds: int, items: Sequence[Item]):
        self.players = players
        self.rounds = rounds
        self.items = list(items)
        self.games = 0
        self.seat_wins = [Rate() for _ in range(players)]
        self.position_wins = [Rate() for _ in range(players)]
        self.seat_scores = [Moments() for _ in range(players)]
        self.position_scores = [Moments() for _ in range(players)]
        self.total_histogram = Histogram()
        self.outcomes: dict[str, Rate] = {}
        self.shared = Rate()
        self.tied_top = Rate()
        self.tiebreak = Rate()
        self.margin = Moments()
        self.leader_wins = [Rate() for _ in range(rounds)]
        self.lead_changes = Moments()
        self.comebacks = Rate()
        self.length = {name: Moments() for name in ("rounds", "turns", "actions")}
        self.legal = Moments()
        self.legal_by_round: dict[int, Moments] = {}
        self.legal_by_kind: dict[str, Moments] = {}
        self.kind_seen: dict[str, int] = {}
        self.categories: dict[str, Moments] = {}
        self.category_histograms: dict[str, Histogram] = {}
        self.category_winners: dict[str, Moments] = {}
        self.category_others: dict[str, Moments] = {}
        self.totals = Moments()
        self.tallies = [ItemTally() for _ in self.items]

    # ---- folding ------------------------------------------------------------------------------
    def add(self, record: dict[str, Any]) -> None:
        self.games += 1
        players = self.players
        winners = record["winners"]
        first = record["first"]
        share = _share(winners)
        totals = record["totals"]
        winner_set = set(winners)
        for seat in range(players):
            won = share if seat in winner_set else 0
            position = (seat - first) % players
            self.seat_wins[seat].add(won)
            self.position_wins[position].add(won)
            self.seat_scores[seat].add(totals[seat])
            self.position_scores[position].add(totals[seat])
        self.total_histogram.extend(totals)
        self.totals.extend(totals)
        for name, flags in (record.get("outcomes") or {}).items():
            rate = self.outcomes.setdefault(name, Rate())
            for flag in flags:
                rate.add(1 if flag else 0)
        self._decisiveness(record, winners, totals)
        self._drama(record["leaders"], winner_set)
        for name in self.length:
            self.length[name].add(record[name])
        self._branching(record["branching"])
        self._scores(record["categories"], winner_set)
        if record.get("items") is not None:
            self._items(record["items"], winner_set, share)

    def _decisiveness(self, record: dict[str, Any], winners: list[int], totals: list) -> None:
        if self.players < 2:
            return
        self.shared.add(1 if len(winners) > 1 else 0)
        self.tied_top.add(1 if record["tied_top"] else 0)
        self.tiebreak.add(1 if record["tied_top"] and len(winners) == 1 else 0)
        best_other = max((t for s, t in enumerate(totals) if s not in winners), default=None)
        top = max(totals)
        self.margin.add(top - best_other if best_other is not None else 0)

    def _drama(self, leaders: list[list[int]], winners: set[int]) -> None:
        if self.players < 2 or not leaders:
            return
        for k, lead in enumerate(leaders[: self.rounds]):
            hit = sum(1 for s in lead if s in winners)
            self.leader_wins[k].add(Fraction(hit, len(lead)) if hit and len(lead) > 1 else hit)
        changes = sum(1 for a, b in pairwise(leaders) if a != b)
        self.lead_changes.add(changes)
        middle = leaders[(len(leaders) - 1) // 2]
        self.comebacks.add(0 if winners & set(middle) else 1)

    def _branching(self, samples: list[list[Any]]) -> None:
        for rnd, kinds in samples:
            total = sum(kinds.values())
            self.legal.add(total)
            self.legal_by_round.setdefault(rnd, Moments()).add(total)
            for kind, count in kinds.items():
                self.kind_seen[kind] = self.kind_seen.get(kind, 0) + 1
                self.legal_by_kind.setdefault(kind, Moments()).add(count)

    def _scores(self, categories: dict[str, list], winners: set[int]) -> None:
        for name, values in categories.items():
            moments = self.categories.get(name)
            if moments is None:
                moments = self.categories[name] = Moments()
                self.category_histograms[name] = Histogram()
                self.category_winners[name] = Moments()
                self.category_others[name] = Moments()
            moments.extend(values)
            self.category_histograms[name].extend(values)
            self.category_winners[name].extend([v for s, v in enumerate(values) if s in winners])
            self.category_others[name].extend([v for s, v in enumerate(values) if s not in winners])

    def _items(self, marks: list[bytes], winners: set[int], share: Number) -> None:
        """`marks`: per player, a byte per item (`measure.measure_game`)."""
        tallies = self.tallies
        seen_open: set[int] = set()
        seen_taken: set[int] = set()
        for seat, marked in enumerate(marks):
            won = share if seat in winners else 0
            for index, bits in enumerate(marked):
                if not bits:
                    continue
                tally = tallies[index]
                if bits & OPEN:
                    tally.open += 1
                    seen_open.add(index)
                    if bits & TAKEN:
                        tally.won_n += 1
                        if won:
                            tally.won += won
                    else:
                        tally.lost_n += 1
                        if won:
                            tally.lost += won
                if bits & TAKEN:
                    tally.taken += 1
                    seen_taken.add(index)
                if bits & COMPLETED:
                    tally.completed += 1
        for index in seen_open:
            tallies[index].games_open += 1
        for index in seen_taken:
            tallies[index].games_taken += 1

    # ---- sections -----------------------------------------------------------------------------
    def sections(self, lints: Sequence[tuple[int, str]], sample_every: int) -> dict[str, Any]:
        players = self.players
        balance: dict[str, Any] = {
            "fair_win_rate": round(1 / players, 4),
            "seats": [
                {"seat": s, "win_rate": self.seat_wins[s].summary(),
                 "score": self.seat_scores[s].summary()}
                for s in range(players)
            ],
            "positions": [
                {"position": p, "win_rate": self.position_wins[p].summary(),
                 "score": self.position_scores[p].summary()}
                for p in range(players)
            ],
            "score_distribution": self.total_histogram.summary(),
            "outcomes": {name: rate.summary() for name, rate in sorted(self.outcomes.items())},
        }  # fmt: skip
        decisiveness = {
            "shared_wins": self.shared.summary(),
            "tied_on_points": self.tied_top.summary(),
            "decided_by_tiebreak": self.tiebreak.summary(),
            "margin": self.margin.summary(),
        }
        drama = {
            "leader_after_round_wins": [
                {"round": k + 1, **rate.summary()} for k, rate in enumerate(self.leader_wins)
            ],
            "lead_changes": self.lead_changes.summary(),
            "comebacks": self.comebacks.summary(),
        }
        n = max(1, self.legal.n)
        length = {
            **{name: m.summary() for name, m in self.length.items()},
            "branching": {
                "sample": f"one decision in {sample_every}, counted on a copy of the game",
                "decisions_sampled": self.legal.n,
                "legal_actions": self.legal.summary(),
                "by_round": [
                    {"round": r, **m.summary()} for r, m in sorted(self.legal_by_round.items())
                ],
                "by_kind": [
                    {"kind": kind, "share_of_decisions": round(self.kind_seen[kind] / n, 4),
                     **m.summary()}
                    for kind, m in self.legal_by_kind.items()
                ],
            },
        }  # fmt: skip
        mean_total = self.totals.mean()
        categories = []
        for name, m in self.categories.items():
            mean = m.mean()
            separation = welch(self.category_winners[name], self.category_others[name])
            var = m.variance()
            sd = float(var) ** 0.5 if var else 0.0
            diff = separation["difference"]
            categories.append(
                {
                    "category": name,
                    **m.summary(),
                    "share_of_total": (
                        round(float(mean / mean_total), 4)
                        if mean is not None and mean_total
                        else None
                    ),
                    "winners_minus_others": separation,
                    "separation": round(diff / sd, 4) if diff is not None and sd else 0.0,
                    "distribution": self.category_histograms[name].summary(),
                }
            )
        scores = {"total": self.totals.summary(), "categories": categories}
        return {
            "balance": balance,
            "decisiveness": decisiveness,
            "drama": drama,
            "length": length,
            "scores": scores,
            "coverage": self._coverage(lints),
        }

    def _coverage(self, lints: Sequence[tuple[int, str]]) -> dict[str, Any]:
        if not self.items:
            return {"described": False, "items": [], "lints": []}
        rows = []
        for item, tally in zip(self.items, self.tallies, strict=True):
            take = Rate(tally.open, tally.taken)
            rows.append(
                {
                    "kind": item.kind,
                    "name": item.name,
                    "games_open": tally.games_open,
                    "games_taken": tally.games_taken,
                    "open": tally.open,
                    "taken": tally.taken,
                    "completed": tally.completed,
                    "taken_when_open": take.summary(),
                    "win_rate_taken": _rate(tally.won_n, tally.won),
                    "win_rate_not_taken": _rate(tally.lost_n, tally.lost),
                }
            )
        return {
            "described": True,
            "items": rows,
            "lints": [
                {"kind": self.items[i].kind, "name": self.items[i].name, "reason": why}
                for i, why in lints
            ],
        }


def game_metrics(record: dict[str, Any], players: int) -> dict[str, Number]:
    """The per-game figures whose paired difference `--against` reports. The scores are the
    players' sums: a mean per player once divided by `players` (`PairedAggregate` does)."""
    totals = record["totals"]
    winners = record["winners"]
    out: dict[str, Number] = {"score.total": sum(totals)}
    for name, values in record["categories"].items():
        out[f"score.{name}"] = sum(values)
    for name in ("rounds", "turns", "actions"):
        out[f"length.{name}"] = record[name]
    if players >= 2:
        first = record["first"]
        out["balance.first_player_wins"] = _share(winners) if first in winners else 0
        out["decisiveness.shared_win"] = 1 if len(winners) > 1 else 0
        out["decisiveness.decided_by_tiebreak"] = (
            1 if record["tied_top"] and len(winners) == 1 else 0
        )
        others = [t for s, t in enumerate(totals) if s not in winners]
        out["decisiveness.margin"] = max(totals) - max(others) if others else 0
        leaders = record["leaders"]
        out["drama.lead_changes"] = sum(1 for a, b in pairwise(leaders) if a != b)
    return out


class PairedAggregate:
    """Paired differences (variant - base), game by game, of `game_metrics`."""

    def __init__(self, players: int):
        self.players = players
        self.differences: dict[str, Moments] = {}

    def add(self, base: dict[str, Any], other: dict[str, Any]) -> None:
        ours = game_metrics(other, self.players)
        theirs = game_metrics(base, self.players)
        for name in ours.keys() & theirs.keys():
            moments = self.differences.get(name)
            if moments is None:
                scale = self.players if name.startswith("score.") else 1
                moments = self.differences[name] = Moments(scale)
            moments.add(ours[name] - theirs[name])

    def summary(self) -> dict[str, Any]:
        return {name: paired_summary(m) for name, m in sorted(self.differences.items())}


__all__ = ["PairedAggregate", "RuleSetAggregate", "game_metrics"]
