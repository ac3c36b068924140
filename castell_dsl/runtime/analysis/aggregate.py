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
from .stats import ByteCounts, Histogram, Moments, Number, Rate, paired_summary, welch


def _rate(n: int, hits: Number) -> dict[str, Any]:
    rate = Rate(n)
    rate.add(hits, weight=0)
    return rate.summary()


def _balance_index(rates: list[float | None]) -> float | None:
    """1 - the largest difference between two seats' win rates (Ludii's Balance): 1 is even."""
    known = [r for r in rates if r is not None]
    if len(known) < 2:
        return None
    return round(1 - (max(known) - min(known)), 4)


def _share(winners: Sequence[int]) -> Fraction | int:
    return 1 if len(winners) == 1 else Fraction(1, len(winners))


#: Byte tables that turn a player's marks (a byte of OPEN | TAKEN | COMPLETED bits per item)
#: into a byte per item that is 1 where a condition holds.
def _table(keep: Any) -> bytes:
    return bytes(1 if keep(b) else 0 for b in range(256))


WAS_OPEN = _table(lambda b: b & OPEN)
WAS_TAKEN = _table(lambda b: b & TAKEN)
WAS_COMPLETED = _table(lambda b: b & COMPLETED)
OPEN_TAKEN = _table(lambda b: b & OPEN and b & TAKEN)
OPEN_NOT_TAKEN = _table(lambda b: b & OPEN and not b & TAKEN)


class ItemCounts:
    """The rule coverage's counts over the games, for every item at once (`ByteCounts`)."""

    def __init__(self, width: int):
        names = ("open", "taken", "completed", "games_open", "games_taken", "won_n", "lost_n",
                 "won", "lost")  # fmt: skip
        self.counts = {name: ByteCounts(width) for name in names}
        #: Win credit of shared wins, which are fractions: item by item (rare).
        self.won_shared: dict[int, Number] = {}
        self.lost_shared: dict[int, Number] = {}

    def add_game(self, marks: list[bytes], winners: set[int], share: Number) -> None:
        """Fold one game's marks, a string per player: the players' masks are summed (a byte
        lane per item, at most one per player) and each sum is added to its count once."""
        c = self.counts
        opened_sum = taken_sum = completed_sum = took_sum = passed_sum = 0
        won_sum = lost_sum = 0
        any_open = any_taken = 0
        for seat, marked in enumerate(marks):
            opened = int.from_bytes(marked.translate(WAS_OPEN), "big")
            taken = int.from_bytes(marked.translate(WAS_TAKEN), "big")
            took = marked.translate(OPEN_TAKEN)
            passed = marked.translate(OPEN_NOT_TAKEN)
            took_mask, passed_mask = int.from_bytes(took, "big"), int.from_bytes(passed, "big")
            opened_sum += opened
            taken_sum += taken
            completed_sum += int.from_bytes(marked.translate(WAS_COMPLETED), "big")
            took_sum += took_mask
            passed_sum += passed_mask
            if seat in winners:
                if share == 1:
                    won_sum += took_mask
                    lost_sum += passed_mask
                else:
                    for shared, which in ((self.won_shared, took), (self.lost_shared, passed)):
                        for index, bit in enumerate(which):
                            if bit:
                                shared[index] = shared.get(index, 0) + share
            any_open |= opened
            any_taken |= taken
        seats = len(marks)
        for name, total in (
            ("open", opened_sum),
            ("taken", taken_sum),
            ("completed", completed_sum),
            ("won_n", took_sum),
            ("lost_n", passed_sum),
            ("won", won_sum),
            ("lost", lost_sum),
        ):
            if total:
                c[name].add(total, seats)
        c["games_open"].add(any_open)
        c["games_taken"].add(any_taken)

    def rows(self) -> dict[str, list[Number]]:
        out: dict[str, list[Number]] = {name: list(bc.counts()) for name, bc in self.counts.items()}
        for name, shared in (("won", self.won_shared), ("lost", self.lost_shared)):
            for index, credit in shared.items():
                out[name][index] += credit
        return out


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
        self.item_counts = ItemCounts(len(self.items))

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
            self.item_counts.add_game(record["items"], winner_set, share)

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
        for rate, lead in zip(self.leader_wins, leaders[: self.rounds], strict=False):
            if len(lead) == 1:  # one leader (most rounds): a whole hit or none
                rate.add(1 if lead[0] in winners else 0)
                continue
            hit = sum(1 for s in lead if s in winners)
            rate.add(Fraction(hit, len(lead)) if hit else 0)
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
            "balance_index": _balance_index([r.value() for r in self.seat_wins]),
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
            return {"described": False, "items": [], "lints": [], "warnings": []}
        counts = self.item_counts.rows()
        rows = []
        for index, item in enumerate(self.items):
            n = {name: values[index] for name, values in counts.items()}
            rows.append(
                {
                    "kind": item.kind,
                    "name": item.name,
                    "games_open": n["games_open"],
                    "games_taken": n["games_taken"],
                    "open": n["open"],
                    "taken": n["taken"],
                    "completed": n["completed"],
                    "taken_when_open": _rate(int(n["open"]), n["won_n"]),
                    "win_rate_taken": _rate(int(n["won_n"]), n["won"]),
                    "win_rate_not_taken": _rate(int(n["lost_n"]), n["lost"]),
                }
            )
        return {
            "described": True,
            "warnings": [],
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
