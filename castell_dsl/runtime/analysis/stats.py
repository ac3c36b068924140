"""Running aggregates with exact sums, and their 95% intervals.

Every figure of an analysis is folded game by game into one of these, so memory stays flat in
the number of games. Sums are exact (Python integers, or fractions where a value is not an
integer: a shared win is worth 1/k), so the result does not depend on the order of floating
point additions: the same games give the same report byte for byte, whatever ran them.

Intervals (95%): a mean's is Student's t with n - 1 degrees of freedom (`t_quantile`), a
rate's is Wilson's score interval (sound for small n and rates near 0 or 1), a difference of
two independent means' is Welch's (t with the Welch-Satterthwaite degrees of freedom).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..compare import t_quantile
from ..simulation import wilson_interval

Number = int | Fraction


def exact(value: float | int | Fraction) -> Number:
    """A value as an exact number (a float's exact binary value)."""
    if isinstance(value, (int, Fraction)):
        return value
    return Fraction(value)


def _round(value: float | Fraction | int | None, digits: int = 4) -> float | None:
    return None if value is None else round(float(value), digits)


@dataclass
class Moments:
    """Count, exact sum and sum of squares of values; `scale` divides every value (a per-game
    mean over P players is added as its integer sum, with scale P).

    Integers are summed as integers and other values as fractions, apart: once a fraction
    is in a sum, every later addition would be a (slow) fraction addition."""

    scale: int = 1
    n: int = 0
    whole: int = 0
    whole_squares: int = 0
    part: Fraction = field(default_factory=Fraction)
    part_squares: Fraction = field(default_factory=Fraction)
    low: Number | None = None
    high: Number | None = None

    def add(self, value: Number) -> None:
        self.n += 1
        if type(value) is int:
            self.whole += value
            self.whole_squares += value * value
        else:
            self.part += value
            self.part_squares += value * value
        if self.low is None or value < self.low:
            self.low = value
        if self.high is None or value > self.high:
            self.high = value

    def extend(self, values: list[Number]) -> None:
        """`add` each value; integers in one pass of built-ins (a game's per-player values)."""
        if not values:
            return
        total = sum(values)
        if not isinstance(total, int):
            for value in values:
                self.add(value)
            return
        self.n += len(values)
        self.whole += total
        self.whole_squares += int(sum([v * v for v in values]))  # all integers: exact
        low, high = min(values), max(values)
        if self.low is None or low < self.low:
            self.low = low
        if self.high is None or high > self.high:
            self.high = high

    @property
    def total(self) -> Number:
        return self.whole + self.part if self.part else self.whole

    @property
    def squares(self) -> Number:
        return self.whole_squares + self.part_squares if self.part_squares else self.whole_squares

    def mean(self) -> Fraction | None:
        return Fraction(self.total, self.n * self.scale) if self.n else None

    def variance(self) -> Fraction | None:
        if self.n < 2:
            return None
        ss = Fraction(self.squares) - Fraction(self.total) ** 2 / self.n
        return ss / ((self.n - 1) * self.scale * self.scale)

    def summary(self) -> dict[str, Any]:
        """n, mean, sd, min, max and the 95% t interval of the mean."""
        mean = self.mean()
        var = self.variance()
        sd = math.sqrt(var) if var is not None else None
        low = high = None
        if mean is not None and sd is not None:
            half = t_quantile(self.n - 1) * sd / math.sqrt(self.n)
            low, high = float(mean) - half, float(mean) + half
        return {
            "n": self.n,
            "mean": _round(mean),
            "sd": _round(sd),
            "min": _round(None if self.low is None else Fraction(self.low, self.scale)),
            "max": _round(None if self.high is None else Fraction(self.high, self.scale)),
            "ci95": [_round(low), _round(high)],
        }


def paired_summary(moments: Moments) -> dict[str, Any]:
    """A paired difference's summary: the mean difference, its t interval, and whether the
    interval excludes 0 (`significant`)."""
    out = moments.summary()
    low, high = out["ci95"]
    out["significant"] = low is not None and high is not None and (low > 0 or high < 0)
    return out


@dataclass
class Rate:
    """Successes (possibly fractional: a shared win) out of n trials; whole successes are
    counted apart from fractional ones, as in `Moments`."""

    n: int = 0
    whole: int = 0
    part: Fraction = field(default_factory=Fraction)

    def add(self, hit: Number, weight: int = 1) -> None:
        self.n += weight
        if type(hit) is int:
            self.whole += hit
        else:
            self.part += hit

    @property
    def hits(self) -> Number:
        return self.whole + self.part if self.part else self.whole

    def value(self) -> float | None:
        return float(Fraction(self.hits) / self.n) if self.n else None

    def summary(self) -> dict[str, Any]:
        """n, the rate and its 95% Wilson interval."""
        if not self.n:
            return {"n": 0, "rate": None, "ci95": [None, None]}
        low, high = wilson_interval(float(self.hits), self.n)
        return {"n": self.n, "rate": _round(self.value()), "ci95": [_round(low), _round(high)]}


def welch(a: Moments, b: Moments) -> dict[str, Any]:
    """mean(a) - mean(b) with Welch's 95% interval (two independent samples)."""
    ma, mb, va, vb = a.mean(), b.mean(), a.variance(), b.variance()
    if ma is None or mb is None:
        return {"difference": None, "ci95": [None, None]}
    diff = float(ma - mb)
    if va is None or vb is None:
        return {"difference": _round(diff), "ci95": [None, None]}
    sa, sb = float(va) / a.n, float(vb) / b.n
    se = math.sqrt(sa + sb)
    if se == 0:
        return {"difference": _round(diff), "ci95": [_round(diff), _round(diff)]}
    df = (sa + sb) ** 2 / (sa**2 / (a.n - 1) + sb**2 / (b.n - 1))
    half = t_quantile(max(1, int(df))) * se
    return {"difference": _round(diff), "ci95": [_round(diff - half), _round(diff + half)]}


@dataclass
class Histogram:
    """How often each value occurred (scores are integers, so this stays small)."""

    counts: Counter = field(default_factory=Counter)

    def add(self, value: Number) -> None:
        self.counts[value] += 1

    def extend(self, values: list[Number]) -> None:
        self.counts.update(values)

    def summary(self) -> list[list[float]]:
        """[value, count] pairs, ascending."""
        return [[float(v), c] for v, c in sorted(self.counts.items())]


class ByteCounts:
    """How many times each byte of equal-length byte strings was non-zero, for many strings.

    The rule coverage adds, per game and player, which of a few hundred items were open,
    taken, completed: item by item in Python, that loop cost a sixth of a random game. Here a
    string is one integer (a byte per item, 1 where the item counts), and strings are summed
    as integers: each byte is then a lane that counts its item, and no lane carries into its
    neighbour while fewer than 256 strings are summed. Before a lane could pass 255 the lanes
    are read into the counts and start again from zero, so adding a string (or the sum of a
    game's players' strings) is one integer addition."""

    #: Strings summed before the lanes are read (a lane holds at most 255).
    LANE_LIMIT = 255

    def __init__(self, width: int):
        self.width = width
        self.totals = [0] * width
        self.lanes = 0
        self.pending = 0

    def add(self, mask: int, most: int = 1) -> None:
        """Add each byte of `mask` to its item's count: a string of 1s and 0s, or a sum of
        such strings, `most` of them (no byte of it is more than `most`)."""
        if self.pending + most > self.LANE_LIMIT:
            self._flush()
        self.lanes += mask
        self.pending += most

    def _flush(self) -> None:
        totals = self.totals
        for index, count in enumerate(self.lanes.to_bytes(self.width, "big")):
            if count:
                totals[index] += count
        self.lanes = self.pending = 0

    def counts(self) -> list[int]:
        """Each item's count, in item order."""
        self._flush()
        return list(self.totals)
