"""Exact tower solver: the best festival tower, shape completion, exhibitions (C-5, C-6, C-8, C-9).

Bots and hints ask "what is the best tower I can build?" many times per turn, so the solver is
exact *and* fast. It never enumerates permutations; it searches over the team's counts by number.

Vocabulary. The solver speaks of the five relaxations of C-6.2 by the rule file's skill names,
the constants `BALANCE`, `BASE`, `MIX`, `STRENGTH`, `WIDTH` of `towers`; a rule set may give them
to skills of any name. Sets of them (exhibition skills still to use) are bit masks of
`_BALANCE_BIT` ... `_WIDTH_BIT`, and ranks are read once per query into a `_Ranks`.

A query runs in four steps (`_query`):

1. Setup per ranks and question (`_setup`): what does not depend on the team (ranks by
   relaxation, the levels needed, width limits, Mix reach, a shape's Balance uses, what answers
   its queries, `_answerer`) is built once per (ranks, question) and memoised with the rules'
   tables; the question alone rules out an exhibition skill with rank 0, contradictory heights
   and a shape the ranks forbid.
2. Prefilter (`_holds_sizes`, `_impossible`): cheap necessary conditions on the team reject
   most impossible queries before any table is built: required numbers present; levels allowed
   by the castellers and the Balance rank (`_most_levels`), by the widest level the team can
   form, the Balance rank and a Base bottom, and by the distinct numbers and the Strength rank,
   also from the highest festival number up; a shape's widths against the counts.
3. Setup per team (`_prepare`): the pattern tables of every position the team holds
   (`_patterns`, cached per rules on the counts they use, since they repeat across teams) and
   the prefix facts the bounds read, gathered in one `_Query`.
4. Search (`_python_searcher`): branch and bound over levels, bottom-up.

Steps 2-4 have a compiled twin (`compiled_search.pyx`, optional), which `_answerer` uses when it
is built: the same steps on C integers, the same answers.

Small queries pay for every distinct step they take (a game asks thousands of them, and a
benchmark times each cold), so the per-query steps are plain loops over a few lists, with
nothing rebuilt that the rules, ranks or question already determine.

Search. A level's numbers lie in ``[m, m + mix_spread]`` where ``m`` is its smallest number, and
every level above uses numbers ``<= m`` (equal only with Strength, and then only castellers of
number ``m`` the lower level left over). So after a level the rest of the search depends only on
a small state (`expand`): the position of ``m``, how many castellers of number ``m`` are still
free (numbers below ``m`` are all still free), how many castellers the level has, the remaining
Balance / Strength / Mix uses, the levels still needed (minimum or exact height, or the shape
index), the required numbers not yet included, the exhibition skills not yet used, and whether
the level is a Base bottom whose width limit the next level fixes. Width and Base only concern
the first two levels (levels are never wider than the level below), so the root
(`best_from_bottom`) enumerates the bottom level as a Base level or not and charges the Width uses
there (or on level 2 above a Base bottom).

Speed. States are memoised per query. Bottom levels are tried best-first (by position, from an
upper bound for every bottom there, the castellers' included);
within a state, positions from the highest, and on each position the options of `_patterns`
(widest, best-scoring first). An option is skipped when an upper bound (levels that the widths,
the numbers left and the Balance/Strength ranks allow, and for a team small for its ranks the
castellers left, `_most_levels` and `_Setup.cast_gate`; matching castellers still free, at most
one level's worth per festival number without Strength and at most what those levels hold)
cannot reach the best score so far, or can at most tie it and then cannot win the rest of the
tie-break (`_cannot_win_tie`, with the uses bound
`_fewest_uses`). The score to beat is passed down (branch and bound), starting from the least
score any answer has (its levels and one casteller per festival size), so a memo entry is either
an exact value or the fact "nothing here reaches score X", reused only for a target >= X. A
dominance rule halves the options: among mixed levels of the same width, the one with more of
the larger number is never worse (see `_patterns`). A level with no room above it is settled in
place, without a child search.

Tie-break (deterministic, applied in this order):
  1. higher score (festival score: ``score_per_level`` per level + ``score_per_match`` per
     casteller whose number is a festival size; for `tallest_tower`: levels);
  2. more castellers matching the festival sizes (helps win size tokens, C-9.5);
  3. fewer total skill uses (of the cheapest accounting that meets the query: for plain queries
     this is the total of `towers.check`'s ``uses``);
  4. the lexicographically largest tower, comparing levels bottom-up, each level as the tuple of
     its numbers in descending order (so wider and higher-numbered low levels win).
The search compares candidates as ``(score, matches, -uses, chain of levels)`` tuples, which is
this order; the answer is its maximum, so it does not depend on the search order.

Queries are memoised whole with `functools.lru_cache` on hashable arguments (team counts by
number, ranks in `TowerRules.skills` order, the sizes as a bit per number, ...); `clear_cache`
empties it (the per-rules caches hold no answers). Every returned tower is re-checked by the
legal path of `towers.check` (`towers.legal_accountings`), and its `uses` are check's `uses`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise, product
from typing import NamedTuple

from castell_dsl.contract import short_repr
from castell_game.towers import (
    BALANCE,
    BASE,
    MIX,
    RELAXATIONS,
    STRENGTH,
    WIDTH,
    TowerRules,
    check,
    legal_accountings,
)

# One bit per relaxation: a set of them is the exhibition skills a tower still has to use.
_BALANCE_BIT, _STRENGTH_BIT, _MIX_BIT, _WIDTH_BIT, _BASE_BIT = 1, 2, 4, 8, 16
_BIT_OF = {
    BALANCE: _BALANCE_BIT,
    STRENGTH: _STRENGTH_BIT,
    MIX: _MIX_BIT,
    WIDTH: _WIDTH_BIT,
    BASE: _BASE_BIT,
}
# Set bits per mask of exhibition skills (each one still to use is at least one use to come).
_POPCOUNT = tuple(bin(i).count("1") for i in range(32))
_NEG = -(1 << 60)
# Triangular numbers: r levels narrowing by one each below n hold n * r - _TRI[r] castellers.
_TRI = tuple(r * (r + 1) // 2 for r in range(64))
_TRI_ROOT = tuple((math.isqrt(8 * x + 1) - 1) // 2 for x in range(512))
# A search result: (score, matches, -uses, chain of levels (level, rest of the chain) or ()).
_Result = tuple[int, int, int, tuple]
# The empty completion: the tower stops here.
_ZERO: _Result = (0, 0, 0, ())
# The pattern table of a number the team does not hold (see `_patterns`).
_NO_PATTERNS: tuple[tuple, tuple, tuple, tuple, bool] = (((),), ((),), ((),), ((),), True)
# Width caps that index a pattern table directly (wider caps fall back to the whole table).
_PAD_CAPS = 8
# Pattern tables kept per rules and score weights before that cache starts afresh.
_PATTERN_CACHE_MAX = 50_000
# Query setups (`_Setup`) kept per rules before that cache starts afresh.
_SETUP_CACHE_MAX = 4096

# The compiled twin of a query's per-team steps (`compiled_search.pyx`, optional: built when
# Cython and a C compiler are there). It answers exactly as `_python_answerer`;
# `CASTELL_SOLVER=python` (or `use_search_backend("python")`) keeps to the Python steps.
try:
    from castell_game import compiled_search as _compiled
except ImportError:  # not built: the Python search answers every query
    _compiled = None  # type: ignore[assignment]


class _NeverRaised(Exception):
    """Stands for `compiled_search.Unsupported` when the compiled search is not there."""


_Unsupported: type[Exception] = _compiled.Unsupported if _compiled is not None else _NeverRaised
_python_only = _compiled is None or os.environ.get("CASTELL_SOLVER") == "python"
_backend = "python" if _python_only else "compiled"


def search_backend() -> str:
    """Which search answers queries: ``"compiled"`` (`compiled_search`, when built and not
    turned off by ``CASTELL_SOLVER=python``) or ``"python"``. Both give the same answers."""
    return _backend


def use_search_backend(name: str) -> str:
    """Answer queries with the ``"python"`` or the ``"compiled"`` search from now on (tests
    compare them; a ValueError when it is not built); the previous backend is returned. Every
    query memo and per-rules table is dropped, so no search built for the other one is reused.
    """
    global _backend
    if name not in ("python", "compiled"):
        raise ValueError(f"unknown search backend {short_repr(name)}; known: python, compiled")
    if name == "compiled" and _compiled is None:
        raise ValueError("the compiled search is not built (see the README's Speed section)")
    previous, _backend = _backend, name
    _query.cache_clear()
    _TABLES_BY_ID.clear()
    _tables_of.cache_clear()
    return previous


@dataclass(frozen=True, slots=True)
class Solution:
    """A solver answer: the tower (levels bottom first), its festival score and check's uses."""

    levels: tuple[tuple[int, ...], ...]
    score: int
    uses: dict[str, int]


class _Tables:
    """What a query needs that depends only on the rules: built once per `TowerRules`.

    Argument conversion (number -> position, skill -> relaxation bit), where each relaxation's
    rank sits in the rank tuple, the Mix window of each position, the Width uses per level width,
    the pattern tables (`_patterns`) per score weights, keyed by the counts of the window they
    use (they repeat across the teams of a game), and the query setups (`_setup`) per ranks and
    question.
    """

    __slots__ = (
        "bit_of_skill",
        "index",
        "limit",
        "lo_mix",
        "lo_plain",
        "maxwin",
        "need_w",
        "one",
        "patterns",
        "positions",
        "rank_at",
        "setups",
        "size_positions",
        "skills",
        "spread",
        "step",
        "vals",
        "win",
        "zeros",
        "zeros_k",
        "zeros_k1",
    )

    def __init__(self, rules: TowerRules) -> None:
        plan = rules._plan
        vals = rules.sizes
        self.vals = vals
        self.index = {v: i for i, v in enumerate(vals)}
        self.skills = rules.skills
        self.zeros = (0,) * len(rules.skills)
        self.bit_of_skill = {skill: _BIT_OF[rid] for rid, skill in rules.relaxations.items()}
        at = {skill: i for i, skill in enumerate(rules.skills)}
        # Rank tuple position of each relaxation's skill, in `RELAXATIONS` order (-1: none).
        relaxations = rules.relaxations
        self.rank_at = tuple(
            at[relaxations[rid]] if rid in relaxations else -1 for rid in RELAXATIONS
        )
        self.limit = plan.limit
        self.step = plan.step
        self.spread = plan.spread
        # Numbers a Mix level with smallest number at position p may hold: positions p..p+win-1.
        self.win = tuple(
            sum(1 for q in range(p, len(vals)) if vals[q] - vals[p] <= plan.spread)
            for p in range(len(vals))
        )
        self.maxwin = max(self.win)
        # The lowest position whose level (one number; a Mix window) reaches position h - 1.
        self.lo_plain = tuple(max(0, h - 1) for h in range(len(vals) + 1))
        self.lo_mix = tuple(
            next(p for p in range(len(vals)) if p + self.win[p] >= h) for h in range(len(vals) + 1)
        )
        self.one = (1,) * len(vals)
        self.positions = tuple(range(len(vals)))
        self.zeros_k = (0,) * len(vals)
        self.zeros_k1 = (0,) * (len(vals) + 1)
        self.need_w: list[int] = []
        self.patterns: dict[tuple[int, int], dict] = {}
        self.setups: dict[tuple, _Setup | None] = {}
        self.size_positions: dict[tuple[int, int], tuple[list[int], list[int], list[int]]] = {}

    def width_uses(self, n: int) -> list[int]:
        """Width uses per level width (index), for widths up to at least `n`."""
        if len(self.need_w) <= n:
            limit, step = self.limit, self.step
            self.need_w = [
                0 if w <= limit else (w - limit + step - 1) // step for w in range(2 * n + 2)
            ]
        return self.need_w


# The tables of the rules objects last used, by identity: (rules, tables); the entry holds the
# rules, so their id is not reused while it is there.
_TABLES_BY_ID: dict[int, tuple[TowerRules, _Tables]] = {}


def _tables(rules: TowerRules) -> _Tables:
    """The `_Tables` of `rules`, shared by equal rules (`_tables_of`); looked up by identity
    first, which needs no hashing of the rules."""
    entry = _TABLES_BY_ID.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    tb = _tables_of(rules)
    if len(_TABLES_BY_ID) >= 64:
        _TABLES_BY_ID.clear()
    _TABLES_BY_ID[id(rules)] = (rules, tb)
    return tb


@lru_cache(maxsize=64)
def _tables_of(rules: TowerRules) -> _Tables:
    return _Tables(rules)


class _Ranks(NamedTuple):
    """A query's ranks by relaxation (`RELAXATIONS` order): the search never needs skill names."""

    balance: int
    base: int
    mix: int
    strength: int
    width: int


def _ranks(tb: _Tables, rank_t: tuple[int, ...]) -> _Ranks:
    """The ranks of `rank_t` (in `TowerRules.skills` order) by relaxation; 0 where none."""
    return _Ranks._make([rank_t[i] if i >= 0 else 0 for i in tb.rank_at])


def _patterns(
    tb: _Tables, p: int, wc: tuple[int, ...], mbits: int, w_level: int, w_match: int
) -> tuple[tuple, tuple, tuple, tuple, bool]:
    """Every level whose smallest number is at position `p`, ready to iterate (see
    `_window_patterns`, which builds them for any window).

    A window of one number (no Mix level) or two (the Mix spread of the standard rules) is
    built in order by `_single_patterns` / `_pair_patterns` instead: the same tables (a test
    compares them with `_window_patterns` on every small window), at about half the cost or
    less. A new team brings new windows, and their tables are a large part of a small query.
    """
    if len(wc) == 1:
        return _single_patterns(tb.vals[p], p, wc[0], mbits & 1, w_level, w_match)
    if len(wc) == 2:
        v0, v1 = tb.vals[p], tb.vals[p + 1]
        return _pair_patterns(v0, v1, p, wc, mbits & 1, mbits >> 1 & 1, w_level, w_match)
    return _window_patterns(tb, p, wc, mbits, w_level, w_match)


def _window_patterns(
    tb: _Tables, p: int, wc: tuple[int, ...], mbits: int, w_level: int, w_match: int
) -> tuple[tuple, tuple, tuple, tuple, bool]:
    """Every level whose smallest number is at position `p`, ready to iterate.

    `wc` holds the team's counts of positions p, p+1, ... (the Mix window; one position without
    Mix) and `mbits` which of them are festival sizes (bit j: position p+j). A pattern is
    (n, top position, castellers at top, castellers at p, score gain, matches, mixed, required
    bits, level tuple, group). Patterns are sorted by n, gain, level, all descending (likely
    winners first) and returned as (by_cap, heads_by_cap, by_width, heads_by_width, plain):
    ``by_cap[c]`` holds the patterns with n <= c (the last entry all of them), ``by_width[w]``
    those with n == w (for shapes). `plain` says that no pattern mixes numbers: then the upper
    bounds of the search never grow along a list, and a list is in descending lexicographic order.

    Dominance: among mixed levels of one width, the one with more of the larger number leaves
    more castellers of number p free, scores no less (unless p is a festival size and p+1 is
    not) and is lexicographically larger: only the first *usable* level of such a group
    matters. Such a run of patterns shares a nonzero `group` id; the ``heads_*`` lists keep only
    the first pattern of each run, for where every level is usable (the bottom, and numbers
    below the window of the level underneath).

    `_pattern_tables` caches the tables per rules and score weights on exactly these arguments:
    a table is the same for every team with the same counts in the window.
    """
    vals = tb.vals
    out: list[tuple] = []
    for cs in product(range(1, wc[0] + 1), *(range(c + 1) for c in wc[1:])):
        n = m = bits = top = 0
        lvl: tuple[int, ...] = ()
        for j, c in enumerate(cs):
            if c:
                n += c
                top = j
                if mbits >> j & 1:
                    m += c
                    bits |= 1 << (p + j)
                lvl = (vals[p + j],) * c + lvl
        out.append((n, p + top, cs[top], cs[0], w_level + w_match * m, m, top > 0, bits, lvl))
    out.sort(key=lambda t: (t[0], t[4], t[8]), reverse=True)
    dominated = len(wc) == 2 and (mbits & 1) <= (mbits >> 1 & 1)
    pats = []
    heads = []
    group = 0
    for i, t in enumerate(out):
        if dominated and t[6] and i and out[i - 1][6] and out[i - 1][0] == t[0]:
            pats.append((*t, group))  # same run as the pattern before
            continue
        group = i + 1 if dominated and t[6] else 0
        pats.append((*t, group))
        heads.append(pats[-1])
    return _indexed(tuple(pats), tuple(heads))


def _indexed(pats: tuple, heads: tuple) -> tuple[tuple, tuple, tuple, tuple, bool]:
    """The table of `_window_patterns` from its patterns and the dominance heads among them,
    both sorted as it sorts them.

    Widths descend along both lists, so the patterns at most c wide are a suffix of a list and
    those exactly c wide a slice. The cap lists run to at least _PAD_CAPS entries, so that a
    usual cap is a plain index."""
    widest = pats[0][0]
    by_cap: list[tuple] = []
    by_width: list[tuple] = []
    for source in (pats, heads) if len(heads) < len(pats) else (pats,):
        start = [len(source)] * (widest + 1)  # start[c]: the first pattern at most c wide
        for i in range(len(source) - 1, -1, -1):
            start[source[i][0]] = i
        for c in range(1, widest + 1):
            if start[c] > start[c - 1]:
                start[c] = start[c - 1]
        caps = [source[s:] for s in start]
        if widest + 1 < _PAD_CAPS:
            caps += [source] * (_PAD_CAPS - widest - 1)
        by_cap.append(tuple(caps))
        by_width.append(((), *[source[start[c] : start[c - 1]] for c in range(1, widest + 1)]))
    if len(by_cap) == 1:  # no dominance run: the heads are every pattern
        by_cap.append(by_cap[0])
        by_width.append(by_width[0])
    return by_cap[0], by_cap[1], by_width[0], by_width[1], not any(t[6] for t in pats)


def _single_patterns(
    v: int, p: int, c: int, m: int, w_level: int, w_match: int
) -> tuple[tuple, tuple, tuple, tuple, bool]:
    """`_window_patterns` of a window of one number `v` at position `p`, held `c` times (a
    festival size when `m`): the levels of c, c - 1, ..., 1 castellers, in that order, none
    mixed, so no dominance run."""
    if m:
        bit = 1 << p
        pats = tuple(
            [
                (k, p, k, k, w_level + w_match * k, k, False, bit, (v,) * k, 0)
                for k in range(c, 0, -1)
            ]
        )
    else:
        pats = tuple([(k, p, k, k, w_level, 0, False, 0, (v,) * k, 0) for k in range(c, 0, -1)])
    by_cap = ((), *[pats[c - w :] for w in range(1, c + 1)])
    if c + 1 < _PAD_CAPS:
        by_cap += (pats,) * (_PAD_CAPS - c - 1)
    by_width = ((), *[pats[c - w : c - w + 1] for w in range(1, c + 1)])
    return by_cap, by_cap, by_width, by_width, True


def _pair_patterns(
    v0: int,
    v1: int,
    p: int,
    wc: tuple[int, ...],
    m0: int,
    m1: int,
    w_level: int,
    w_match: int,
) -> tuple[tuple, tuple, tuple, tuple, bool]:
    """`_window_patterns` of a window of two numbers, `v0` at position `p` and `v1` above it,
    held `wc` times (festival sizes per `m0`, `m1`), generated in its order instead of sorted.

    A level takes a (>= 1) of v0 and b of v1. Widths n descend; within one width the gain is
    linear in b (with slope ``w_match * (m1 - m0)``) and the level tuple grows with b (it
    starts with b copies of the larger number), so the order is b descending unless the slope
    is negative, and never a tie. A dominance run (`_window_patterns`) is the mixed levels of
    one width, in that order, when p + 1 is a festival size or p is not."""
    c0, c1 = wc
    rising = w_match * (m1 - m0) >= 0
    dominated = m0 <= m1
    bit0 = m0 << p
    bit1 = bit0 | (m1 << (p + 1))
    pats: list[tuple] = []
    heads: list[tuple] = []
    group = 0
    widest = c0 + c1
    # Every width 1..widest has a level (and so a head, the first of its width): the levels of
    # width n are pats[p_at[n] : p_at[n - 1]], the heads heads[h_at[n] : h_at[n - 1]].
    p_at = [0] * (widest + 1)
    h_at = [0] * (widest + 1)
    for n in range(widest, 0, -1):
        p_at[n] = len(pats)
        h_at[n] = len(heads)
        b_lo = n - c0 if n > c0 else 0
        b_hi = c1 if c1 < n - 1 else n - 1
        in_run = False  # the previous level of this width was mixed, in a dominance run
        for b in range(b_hi, b_lo - 1, -1) if rising else range(b_lo, b_hi + 1):
            a = n - b
            m = a * m0 + b * m1
            head = True  # the first of its dominance run, or in none
            if b:
                if not dominated:
                    group = 0
                elif in_run:
                    head = False  # same run, same group as the level before
                else:
                    group = len(pats) + 1
                    in_run = True
                lvl = (v1,) * b + (v0,) * a
                t = (n, p + 1, b, a, w_level + w_match * m, m, True, bit1, lvl, group)
            else:
                in_run = False
                t = (n, p, a, a, w_level + w_match * m, m, False, bit0, (v0,) * a, 0)
            pats.append(t)
            if head:
                heads.append(t)
    p_at[0] = len(pats)
    h_at[0] = len(heads)
    pats_t, heads_t = tuple(pats), tuple(heads)
    pad = _PAD_CAPS - widest - 1
    by_cap = ((), *[pats_t[p_at[c] :] for c in range(1, widest + 1)], *[pats_t] * pad)
    by_width = ((), *[pats_t[p_at[c] : p_at[c - 1]] for c in range(1, widest + 1)])
    if len(heads_t) == len(pats_t):
        return by_cap, by_cap, by_width, by_width, c1 == 0
    heads_cap = ((), *[heads_t[h_at[c] :] for c in range(1, widest + 1)], *[heads_t] * pad)
    heads_width = ((), *[heads_t[h_at[c] : h_at[c - 1]] for c in range(1, widest + 1)])
    return by_cap, heads_cap, by_width, heads_width, c1 == 0


def _counts(team: Iterable[int], index: Mapping[int, int]) -> tuple[int, ...]:
    """Team counts by number position; a ValueError names a casteller that is not a size.

    One plain loop (a type test and an index per casteller): small queries pay for every
    distinct step, and `True` or ``3.0`` must not count as a number although they hash as one.
    """
    if type(team) is not list and type(team) is not tuple:
        team = list(team)
    counts = [0] * len(index)
    try:
        for x in team:
            if type(x) is not int:
                break
            counts[index[x]] += 1
        else:
            return tuple(counts)
    except KeyError:
        pass
    bad = next(x for x in team if type(x) is not int or x not in index)
    raise ValueError(f"casteller number {short_repr(bad)} is not one of the game's sizes")


def _need_mask(needs: Iterable[str], rules: TowerRules, tb: _Tables) -> int | None:
    """The relaxation bits of the exhibition skills; None when a skill grants no relaxation (it
    can never be used, C-6.3)."""
    mask = 0
    for skill in needs:
        if skill not in rules.skills:
            raise ValueError(f"unknown skill {short_repr(skill)}; known: {', '.join(rules.skills)}")
        bit = tb.bit_of_skill.get(skill)
        if bit is None:
            return None
        mask |= bit
    return mask


def clear_cache() -> None:
    """Forget memoised queries (benchmarks use it to time cold queries).

    The per-rules tables (`_Tables`: pattern tables and query setups included) are kept: they
    hold no answers, only facts derived from the rules, from the ranks and question of a query
    (not its team), and from the counts of one to ``mix_spread + 1`` numbers.
    """
    _query.cache_clear()


@lru_cache(maxsize=8192)
def _query(
    counts: tuple[int, ...],
    rank_t: tuple[int, ...],
    tb: _Tables,
    size_bits: int,
    min_levels: int,
    n_levels: int | None,
    shape: tuple[int, ...] | None,
    need_mask: int,
    w_level: int,
    w_match: int,
) -> tuple[tuple[tuple[int, ...], ...], int] | None:
    """One memoised search: the best tower's levels and how many of its castellers are numbered
    in the festival sizes, or None (proof that no tower meets the query).

    The sizes come as `size_bits` (`_size_bits`: a bit per position, -1 for a number that is
    not a size). Constraints: includes a casteller of every size; at least `min_levels` levels;
    exactly `n_levels` levels and/or exactly `shape` when given; one accounting uses every skill
    in `need_mask`. Objective: `w_level` per level + `w_match` per casteller numbered in `sizes`.
    `tb` stands for the rules (`_tables` gives equal rules the same one).
    """
    su = _setup(tb, rank_t, min_levels, n_levels, shape, need_mask, w_level, w_match)
    if su is None:
        return None
    found = _answer(counts, su, size_bits)
    if found is None:
        return None
    levels = []
    chain = found[3]
    while chain:
        levels.append(chain[0])
        chain = chain[1]
    return tuple(levels), found[1]


# --- Setup per ranks and question: what no team changes -----------------------------------------


class _Setup:
    """What a query needs that depends on the rules, the ranks and the question, not the team.

    A game asks the same few questions under the same few rank tuples for team after team, so
    this is built once per (ranks, question) by `_setup` and memoised with the rules' tables;
    every field is a function of that key alone, so reusing it cannot change an answer.

    The ranks by relaxation (`balance` ... `strength`); the levels every answer has (`k0`;
    exactly that many when `exact`, and then `n_levels` is `k0`, else 0); the shape if any, with
    `eq_after[k]` the equal neighbours among its top `k` levels (each a Balance use); the width
    limit without Width (`limit`) and under the Width rank (`wmax`); the widest Mix window
    (`maxwin`, 1 without Mix); each position's reach (`reach`: `tb.win` or `tb.one`) and
    `reach_lo[h]`, the lowest position whose level reaches position h - 1; the triangular
    numbers the bounds read (`tri`, up to `wmax`); the pattern cache of the score weights
    (`cache`, see `_pattern_tables`); `cast_gate`, the team size below which castellers may
    bound the levels more than the widths do; `answerers`, the pool of `_answer`.
    """

    __slots__ = (
        "answerers",
        "balance",
        "base",
        "cache",
        "cast_gate",
        "eq_after",
        "exact",
        "k0",
        "limit",
        "maxwin",
        "mix",
        "n_levels",
        "need_mask",
        "reach",
        "reach_lo",
        "shape",
        "strength",
        "tb",
        "tri",
        "w_level",
        "w_match",
        "wmax",
    )

    balance: int
    base: int
    cache: dict
    cast_gate: int
    eq_after: list[int]
    exact: bool
    k0: int
    limit: int
    maxwin: int
    mix: int
    n_levels: int
    need_mask: int
    reach: tuple[int, ...]
    reach_lo: tuple[int, ...]
    answerers: list
    shape: tuple[int, ...] | None
    strength: int
    tb: _Tables
    tri: Sequence[int]
    w_level: int
    w_match: int
    wmax: int


def _setup(
    tb: _Tables,
    rank_t: tuple[int, ...],
    min_levels: int,
    n_levels: int | None,
    shape: tuple[int, ...] | None,
    need_mask: int,
    w_level: int,
    w_match: int,
) -> _Setup | None:
    """The `_Setup` of a question under `rank_t`, memoised per rules (the cache starts afresh
    past `_SETUP_CACHE_MAX`); None when no team can meet it (see `_new_setup`)."""
    key = (rank_t, min_levels, n_levels, shape, need_mask, w_level, w_match)
    setups = tb.setups
    try:
        return setups[key]
    except KeyError:
        pass
    if len(setups) >= _SETUP_CACHE_MAX:
        setups.clear()
    su = setups[key] = _new_setup(
        tb, _ranks(tb, rank_t), min_levels, n_levels, shape, need_mask, w_level, w_match
    )
    return su


def _new_setup(
    tb: _Tables,
    ranks: _Ranks,
    min_levels: int,
    n_levels: int | None,
    shape: tuple[int, ...] | None,
    need_mask: int,
    w_level: int,
    w_match: int,
) -> _Setup | None:
    """Build a `_Setup`; None when the question rules out every team by itself: an exhibition
    skill of rank 0, contradictory heights, or a shape the ranks forbid (`_shape_ruled_out`)."""
    if need_mask and _lacks_exhibition_rank(need_mask, ranks):
        return None
    k0 = _levels_needed(min_levels, n_levels, shape)
    if k0 is None:
        return None
    wmax = tb.limit + ranks.width * tb.step
    if shape is not None and _shape_ruled_out(shape, ranks, wmax):
        return None
    su = _Setup()
    su.balance, su.base, su.mix, su.strength = ranks.balance, ranks.base, ranks.mix, ranks.strength
    su.k0, su.shape, su.need_mask, su.w_level, su.w_match, su.wmax = (
        k0,
        shape,
        need_mask,
        w_level,
        w_match,
        wmax,
    )
    su.tb, su.limit = tb, tb.limit
    su.exact = n_levels is not None or shape is not None
    su.n_levels = k0 if su.exact else 0
    spread_on = ranks.mix >= 1
    su.maxwin = tb.maxwin if spread_on else 1
    su.reach = tb.win if spread_on else tb.one
    su.reach_lo = tb.lo_mix if spread_on else tb.lo_plain
    # Levels above an option are at most `wmax` wide (see `_TRI`).
    su.tri = _TRI if wmax < len(_TRI) else tuple(r * (r + 1) // 2 for r in range(wmax + 1))
    # Levels narrow from at most wmax + 1 wide (a Base bottom), so with fewer castellers than
    # balance + wmax + (wmax - 1) + ... + 1 the castellers may allow fewer levels than the
    # widths: only then does the search bound levels by castellers too (`_Query.scarce`).
    su.cast_gate = ranks.balance + _TRI[wmax] if wmax < len(_TRI) else 1 << 30
    su.eq_after = eq_after = [0] * (k0 + 2)
    if shape is not None:
        for kk in range(2, len(shape) + 1):
            lo = len(shape) - kk
            eq_after[kk] = eq_after[kk - 1] + (shape[lo + 1] == shape[lo])
    cache = tb.patterns.get((w_level, w_match))
    if cache is None:
        cache = tb.patterns[w_level, w_match] = {}
    su.cache = cache
    su.answerers = []
    return su


def _lacks_exhibition_rank(need_mask: int, ranks: _Ranks) -> bool:
    """Does an exhibition skill have rank 0? It could not be used at all (C-6.3, C-8.4)."""
    return bool(
        (need_mask & _BALANCE_BIT and not ranks.balance)
        or (need_mask & _STRENGTH_BIT and not ranks.strength)
        or (need_mask & _MIX_BIT and not ranks.mix)
        or (need_mask & _WIDTH_BIT and not ranks.width)
        or (need_mask & _BASE_BIT and not ranks.base)
    )


def _levels_needed(
    min_levels: int, n_levels: int | None, shape: tuple[int, ...] | None
) -> int | None:
    """The levels every answer has: exactly that many for a height or a shape (C-8.3, C-8.4),
    at least that many otherwise (C-9.2); None when the height constraints contradict."""
    if shape is not None:
        if n_levels is not None and n_levels != len(shape):
            return None
        n_levels = len(shape)
    if n_levels is None:
        return max(min_levels, 1)
    if n_levels < 1 or n_levels < min_levels:
        return None
    return n_levels


def _shape_ruled_out(shape: tuple[int, ...], ranks: _Ranks, wmax: int) -> bool:
    """Do the ranks alone forbid `shape` (C-8.3)? Widths never grow upwards (C-5.4) and stay
    equal only with Balance; only the bottom may exceed the Width limit, with Base."""
    if min(shape) < 1:
        return True
    equal = 0
    for below, above in pairwise(shape):
        if above >= below:
            if above > below:
                return True  # wider than the level below
            equal += 1
    return (
        equal > ranks.balance
        or max(shape[1:], default=0) > wmax
        or (shape[0] > wmax and ranks.base < 1)
    )


# --- Prefilter: cheap necessary conditions on the team, before any table is built ---------------


def _size_bits(sizes: Iterable[int], tb: _Tables) -> int:
    """The festival sizes as a bit per number position; -1 when one is not a casteller number
    (no tower can include it, C-9.2). Order and repeats do not matter, so equal questions
    share a memo entry."""
    bits = 0
    index = tb.index
    for s in sizes:
        i = index.get(s)
        if i is None:
            return -1
        bits |= 1 << i
    return bits


def _holds_sizes(size_bits: int, counts: tuple[int, ...]) -> bool:
    """Does the team hold a casteller of every festival size (C-9.2)? Without one no tower
    can compete."""
    if size_bits < 0:
        return False
    while size_bits:
        low = size_bits & -size_bits
        if not counts[low.bit_length() - 1]:
            return False
        size_bits ^= low
    return True


def _impossible(counts: tuple[int, ...], su: _Setup, req_mask: int) -> bool:
    """Does a cheap necessary condition rule out every tower of `su.k0` levels (C-5, C-6.3a)?

    Most impossible game queries stop here, before any pattern table is built. The team's
    castellers stack at most `_most_levels` levels; levels narrow except with Balance, from at
    most the widest level the team can form (a Base bottom adds one level); each level's
    smallest number is new except with Strength; the level of the highest festival number
    bounds the levels from it up the same way; a shape must fit the counts.
    """
    if su.shape is not None and _shape_unfillable(counts, su):
        return True
    k0, wmax, maxwin = su.k0, su.wmax, su.maxwin
    # One pass: the castellers, the numbers the team holds, its widest level in a Mix window.
    total = held = widest = 0
    if maxwin == 1:
        for c in counts:
            if c:
                total += c
                held += 1
                if c > widest:
                    widest = c
    elif maxwin == 2:
        prev = 0
        for c in counts:
            if c:
                total += c
                held += 1
                if prev + c > widest:
                    widest = prev + c
            prev = c
    else:
        total = sum(counts)
        held = len(counts) - counts.count(0)
        widest = max(sum(counts[p : p + maxwin]) for p in range(len(counts)))
    if k0 > _most_levels(total, su.balance, _tri_root(total)):
        return True
    has_base = su.base >= 1
    # A Base bottom wider than the limit adds a level above the widest plain one.
    extra = 1 if has_base and widest > su.limit else 0
    if k0 > (widest if widest < wmax else wmax) + su.balance + extra:
        return True
    if k0 > held + su.strength:
        return True
    if req_mask:
        # The level holding the highest festival number: levels from it up as above (it is
        # at most as wide as the castellers within a Mix window of that number); levels below
        # it have still higher smallest numbers (as many as the numbers held above it), except
        # with Strength.
        hi = req_mask.bit_length() - 1
        lo = hi - maxwin + 1 if hi >= maxwin else 0
        w = 0
        for c in counts[lo : hi + maxwin]:
            w += c
        cap = wmax + 1 if has_base else wmax
        up = (w if w < cap else cap) + su.balance
        for c in counts[hi + 1 :]:
            if c:
                up += 1
        if k0 > up + su.strength:
            return True
    return False


def _shape_unfillable(counts: tuple[int, ...], su: _Setup) -> bool:
    """Can the team not fill `su.shape` (C-8.3)? It needs as many castellers, and the i-th
    widest level needs the i-th largest count, give or take a Mix level or a second level on
    one number (Strength)."""
    shape = su.shape
    assert shape is not None
    if sum(shape) > sum(counts):
        return True
    slack = su.mix + su.strength
    by_count = sorted(counts, reverse=True)
    return any(
        i - slack >= len(counts) or by_count[i - slack] < shape[i] for i in range(slack, len(shape))
    )


# --- Setup per team: the tables of the positions it holds -----------------------------------------


class _Query:
    """The per-team facts the search of one query reads, computed once (`_prepare`).

    Per position p (of `TowerRules.sizes`): `plain_t[p]` / `mixed_t[p]` the pattern tables of
    single-number levels / every level (Mix levels too, when the Mix rank allows them);
    `dist_below[p]` / `cast_below[p]` the positions holding castellers / the castellers below p
    (with `tri_root`, the table `_most_levels` reads, long enough for the team, and `scarce`:
    whether the search bounds levels by castellers, see `_Setup.cast_gate`); `match_below[p]` /
    `mpos_below[p]` the matching castellers / festival positions below p; `match_upto[p]` /
    `mpos_upto[p]` the same for everything a level with smallest position <= p and the levels
    above can hold. `pres` lists the positions holding castellers, highest first; `need_w` the
    Width uses per level width, for widths up to the team's size at least.
    """

    __slots__ = (
        "cast_below",
        "counts",
        "dist_below",
        "match",
        "match_below",
        "match_upto",
        "mixed_t",
        "mpos_below",
        "mpos_upto",
        "n_sizes",
        "need_w",
        "plain_t",
        "pres",
        "req_mask",
        "scarce",
        "tri_root",
    )

    cast_below: list[int]
    counts: tuple[int, ...]
    dist_below: list[int]
    match: Sequence[int]
    match_below: Sequence[int]
    match_upto: Sequence[int]
    mixed_t: list[tuple]
    mpos_below: Sequence[int]
    mpos_upto: Sequence[int]
    n_sizes: int
    need_w: list[int]
    plain_t: list[tuple]
    pres: list[int]
    req_mask: int
    scarce: bool
    tri_root: Sequence[int]


def _prepare(counts: tuple[int, ...], su: _Setup, tb: _Tables, req_mask: int) -> _Query:
    """The per-team facts of `_Query`: built once, so that the search's bounds are lookups.

    Plain loops over the positions rather than itertools: a small query pays for each distinct
    step it takes, far more than for the few iterations. C helpers (`accumulate`, `compress`,
    `map` with `operator` functions, `list.count`) run fewer bytecodes but are code the rest of
    a program seldom runs, so a query that comes cold (after other work, as a game's or the
    benchmark's do) pays for their instruction-cache misses: with them, a cold query of 11
    castellers had about a quarter more instruction-cache misses and 5% more instructions
    (`benchmarks/solver_counts.py`)."""
    q = _Query()
    q.counts, q.req_mask = counts, req_mask
    q.n_sizes = req_mask.bit_count()
    K = len(counts)
    positions = tb.positions
    pres: list[int] = []
    dist_below = [0] * (K + 1)
    held = total = 0
    for p in positions:
        c = counts[p]
        if c:
            pres.append(p)
            held += 1
            total += c
        dist_below[p + 1] = held
    q.dist_below = dist_below
    q.scarce = scarce = total < su.cast_gate
    if scarce:
        q.cast_below = cast_below = [0] * (K + 1)
        total = 0
        for p in positions:
            total += counts[p]
            cast_below[p + 1] = total
        q.tri_root = _TRI_ROOT if total < len(_TRI_ROOT) else _tri_root(total)
    else:
        q.cast_below, q.tri_root = [], ()  # not read
    if req_mask:
        match, q.mpos_below, q.mpos_upto = _size_positions(tb, su, req_mask)
        q.match = match
        q.match_below = match_below = [0] * (K + 1)
        m = 0
        for p in positions:
            if match[p]:
                m += counts[p]
            match_below[p + 1] = m
        if su.mix < 1:
            q.match_upto = match_below[1:]
        else:
            spread = tb.spread
            q.match_upto = [*match_below[1 + spread :], *[m] * spread] if spread < K else [m] * K
    else:
        q.match = q.match_upto = q.mpos_upto = tb.zeros_k
        q.match_below = q.mpos_below = tb.zeros_k1
    q.plain_t, q.mixed_t = _pattern_tables(tb, su, counts, pres, q.match, req_mask)
    pres.reverse()  # pres[d - dist_below[p + 1]:] lists the positions <= p, from the highest
    q.pres = pres
    need_w = tb.need_w
    if len(need_w) <= total or len(need_w) <= su.wmax:
        need_w = tb.width_uses(max(total, su.wmax))
    q.need_w = need_w
    return q


def _size_positions(
    tb: _Tables, su: _Setup, req_mask: int
) -> tuple[list[int], list[int], list[int]]:
    """The festival positions of `_Query` (`match`, `mpos_below`, `mpos_upto`): they depend on
    the sizes and the Mix rank, not the team, so they are cached per rules."""
    spread = tb.spread if su.mix >= 1 else 0
    key = (req_mask, spread)
    found = tb.size_positions.get(key)
    if found is not None:
        return found
    K = len(tb.vals)
    match = [req_mask >> p & 1 for p in tb.positions]
    mpos_below = [0] * (K + 1)
    for p in tb.positions:
        mpos_below[p + 1] = mpos_below[p] + match[p]
    mp = mpos_below[K]
    mpos_upto = [*mpos_below[1 + spread :], *[mp] * spread] if spread < K else [mp] * K
    if len(tb.size_positions) >= _SETUP_CACHE_MAX:
        tb.size_positions.clear()
    found = tb.size_positions[key] = (match, mpos_below, mpos_upto)
    return found


def _pattern_tables(
    tb: _Tables,
    su: _Setup,
    counts: tuple[int, ...],
    pres: list[int],
    match: Sequence[int],
    req_mask: int,
) -> tuple[list[tuple], list[tuple]]:
    """The pattern tables per position: single-number levels, and every level (Mix levels
    included; the same as the first when no Mix level is possible). A state with no Mix use
    left, or a level of the number the level below left over (Strength), only needs the first.

    Tables are cached per rules and score weights on the counts they read, since teams of one
    game share most of them (one lookup per position: a Mix window's entry holds both of its
    tables); the cache starts afresh when it grows past `_PATTERN_CACHE_MAX`.
    """
    cache = su.cache
    if len(cache) > _PATTERN_CACHE_MAX:
        cache.clear()
    w_level, w_match = su.w_level, su.w_match
    K = len(counts)
    plain_t = [_NO_PATTERNS] * K
    if su.mix < 1:
        for p in pres:
            c = counts[p]
            key = (c * K + p) * 2 + match[p]
            table = cache.get(key)
            if table is None:
                table = cache[key] = _patterns(tb, p, (c,), match[p], w_level, w_match)
            plain_t[p] = table
        return plain_t, plain_t
    win = tb.win
    mixed_t = [_NO_PATTERNS] * K
    for p in pres:
        c = counts[p]
        L = win[p]
        if L == 2:
            wkey: tuple = (p, c, counts[p + 1], req_mask >> p & 3) if counts[p + 1] else ()
        elif L > 2 and any(counts[p + 1 : p + L]):
            wkey = (p, counts[p : p + L], (req_mask >> p) & ((1 << L) - 1))
        else:
            wkey = ()
        if wkey:
            pair = cache.get(wkey)
            if pair is None:
                pair = cache[wkey] = _window_tables(tb, su, p, counts, req_mask)
            plain_t[p], mixed_t[p] = pair
        else:
            key = (c * K + p) * 2 + match[p]
            table = cache.get(key)
            if table is None:
                table = cache[key] = _patterns(tb, p, (c,), match[p], w_level, w_match)
            plain_t[p] = mixed_t[p] = table
    return plain_t, mixed_t


def _window_tables(
    tb: _Tables, su: _Setup, p: int, counts: tuple[int, ...], req_mask: int
) -> tuple[tuple, tuple]:
    """The pattern tables of position `p` whose Mix window holds castellers above p: its
    single-number levels (from the cache too, keyed as in `_pattern_tables`) and every level."""
    L = tb.win[p]
    c, m = counts[p], req_mask >> p & 1
    key = (c * len(counts) + p) * 2 + m
    plain = su.cache.get(key)
    if plain is None:
        plain = su.cache[key] = _patterns(tb, p, (c,), m, su.w_level, su.w_match)
    bits = (req_mask >> p) & ((1 << L) - 1)
    return plain, _patterns(tb, p, counts[p : p + L], bits, su.w_level, su.w_match)


# --- The tie-break bound, and the options of one position ---------------------------------------


def _most_levels(castellers: int, balance: int, tri_root: Sequence[int]) -> int:
    """The most levels `castellers` castellers can stack with at most `balance` Balance uses.

    Safe bound (C-5.4, C-6.2): going down from the top, widths never shrink and stay equal
    only with a Balance use, and every level holds at least one casteller. So m levels with at
    most b equal neighbours hold at least b + 1 + 2 + ... + (m - b) = b + _TRI[m - b] castellers
    (the b equalities among the width-1 levels on top), and m castellers when m <= b + 1. Base,
    Mix, Strength and Width change which numbers and how wide, not this count. `tri_root[x]` is
    the largest r with _TRI[r] <= x (`_TRI_ROOT`, or a longer one for a larger team).
    """
    if castellers <= balance:
        return castellers
    return balance + tri_root[castellers - balance]


def _tri_root(n: int) -> tuple[int, ...]:
    """`_TRI_ROOT` long enough for `n` castellers."""
    if n < len(_TRI_ROOT):
        return _TRI_ROOT
    return tuple((math.isqrt(8 * x + 1) - 1) // 2 for x in range(n + 1))


def _fewest_uses(need: int, balance_floor: int, levels: int, width: int, numbers_below: int) -> int:
    """A lower bound on the skill uses of `levels` more levels on a level `width` wide with
    `numbers_below` distinct numbers below its own (C-6.3a).

    One use per exhibition skill still in `need`; Balance for every level beyond the ``width -
    1`` that narrowing by one leaves room for (and at least `balance_floor`, a shape's equal
    neighbours); Strength for every level beyond the smaller numbers left. With `levels` 0 only
    the exhibition skills count.
    """
    balance = balance_floor if balance_floor else need & _BALANCE_BIT
    if levels - width + 1 > balance:
        balance = levels - width + 1
    strength = 1 if need & _STRENGTH_BIT else 0
    if levels - numbers_below > strength:
        strength = levels - numbers_below
    return balance + strength + _POPCOUNT[need & (_MIX_BIT | _WIDTH_BIT)]


def _cannot_win_tie(
    best: _Result,
    matches: int,
    level: tuple[int, ...],
    uses: int,
    need: int,
    balance_floor: int,
    levels: int,
    width: int,
    numbers_below: int,
) -> bool:
    """Can an option that at best ties `best` on score not beat it on the rest of the tie-break?

    Its most `matches` (tie-break 2), its fewest uses: `uses` already charged plus
    `_fewest_uses` of the `levels` above it a tie takes (3), then its level against the best's
    bottom-most differing level, `level` being compared with the best's level at this height (4).
    """
    if matches != best[1]:
        return matches < best[1]
    fewest = uses + _fewest_uses(need, balance_floor, levels, width, numbers_below)
    if fewest != -best[2]:
        return fewest > -best[2]
    return bool(best[3]) and level < best[3][0]


# --- Search -------------------------------------------------------------------------------------

# A search state (see `expand`): (position of the level's smallest number, castellers of that
# number still free, the level's width, Balance / Strength / Mix uses left, required numbers
# still missing, levels still needed, above a Base bottom?, exhibition skills still needed).
_State = tuple[int, int, int, int, int, int, int, int, int, int]


# What answers a setup's queries: (team counts, festival size bits) -> the best result or None.
_Answer = Callable[[tuple[int, ...], int], "_Result | None"]


def _answer(counts: tuple[int, ...], su: _Setup, size_bits: int) -> _Result | None:
    """The prefilter, the team's facts and the search of one query (see the module docstring):
    the best `_Result`, or None when no tower meets the query.

    What answers depends only on the setup, so it is built once per setup (`_answerer`) and
    kept in a pool on it: a query takes one out and puts it back, so two queries running at
    once (threads) never share one.
    """
    pool = su.answerers
    try:
        answer = pool.pop()
    except IndexError:
        answer = _answerer(su)
    try:
        return answer(counts, size_bits)
    except _Unsupported:  # a team beyond the compiled search's integer ranges
        return _python_answerer(su)(counts, size_bits)
    finally:
        pool.append(answer)


def _answerer(su: _Setup) -> _Answer:
    """The answer of setup `su`'s queries: the compiled one when it is there and on
    (`search_backend`) and the setup fits its integer ranges, else `_python_answerer`."""
    if _compiled is not None and _backend == "compiled":
        try:
            return _compiled.Searcher(
                su, _patterns, _window_tables, _NO_PATTERNS, _PATTERN_CACHE_MAX
            )
        except _Unsupported:
            pass
    return _python_answerer(su)


def _python_answerer(su: _Setup) -> _Answer:
    """The answer of setup `su`'s queries in Python: the prefilter (`_holds_sizes`,
    `_impossible`), the team's facts (`_prepare`) and the search (`_python_searcher`)."""
    tb = su.tb
    search = _python_searcher(su)

    def answer(counts: tuple[int, ...], size_bits: int) -> _Result | None:
        if size_bits and not _holds_sizes(size_bits, counts):
            return None
        if _impossible(counts, su, size_bits):
            return None
        return search(_prepare(counts, su, tb, size_bits))

    return answer


def _python_searcher(su: _Setup) -> Callable[[_Query], _Result | None]:
    """The search of setup `su` (see `_answer`), as a function of a query's team facts.

    The pieces are closures, because the search runs them for every state and option: the
    setup's facts are bound once here, the team's by `run` (into the same cells) at the start
    of every search, with a fresh memo. `best_from_bottom` is the root (every bottom level,
    best positions first, from `bottom_positions`), `expand` the best completion of a state,
    through the memo (positions from the highest, and on each the levels that fit). The levels
    of one position are a loop inside `expand`, not a function: a call per position costs more
    than a tenth of a small game query; for the same reason a state is normalised and looked
    up in the memo by `expand` itself, not by a function in front of it.
    """
    tb = su.tb
    shape, tri, eq_after, exact, n_levels = su.shape, su.tri, su.eq_after, su.exact, su.n_levels
    w_level, w_match, wmax, k0, need_mask = su.w_level, su.w_match, su.wmax, su.k0, su.need_mask
    balance_rank, base_rank, mix_rank, strength_rank = su.balance, su.base, su.mix, su.strength
    limit, step, vals = tb.limit, tb.step, tb.vals
    reach_mix, reach_plain, lo_mix, lo_plain = su.reach, tb.one, tb.lo_mix, tb.lo_plain
    reach_lo = su.reach_lo
    by_width = 0 if shape is None else 2  # which pattern lists a level's options come from
    # The team's facts, bound by `run` for each search (see `_Query`).
    counts: tuple[int, ...] = ()
    need_w: list[int] = []
    pres: list[int] = []
    dist_below: list[int] = []
    cast_below: list[int] = []
    tri_root: Sequence[int] = ()
    plain_t: list[tuple] = []
    mixed_t: list[tuple] = []
    match: Sequence[int] = ()
    match_below: Sequence[int] = ()
    mpos_below: Sequence[int] = ()
    match_upto: Sequence[int] = ()
    mpos_upto: Sequence[int] = ()
    req_mask = n_sizes = d = lo_req = 0
    sized = scarce = False
    memo: dict[_State, _Result | int | None] = {}

    def expand(
        lpos: int,
        free: int,
        width: int,
        balance_left: int,
        strength_left: int,
        mix_left: int,
        miss: int,
        k: int,
        above_base: int,
        need: int,
        lmax: int,
        alpha: int,
    ) -> _Result | None:
        """The best completion above a level, in the state of its arguments (see `_State`);
        `lmax` is the levels still possible (>= the levels needed).

        Returns a `_Result`, exact whenever its score >= `alpha`; None when no completion
        reaches `alpha` (or none exists). States are memoised: entries are exact results or,
        as an int, a bound "no completion scores that much". The state is normalised first:
        budgets beyond the `lmax` levels still possible never bind, and each level touching
        number `lpos` takes a Strength use and at most `width` castellers.
        """
        if balance_left > lmax:
            balance_left = lmax
        if strength_left > lmax:
            strength_left = lmax
        if mix_left > lmax:
            mix_left = lmax
        if free > width * strength_left:
            free = width * strength_left
        key = (lpos, free, width, balance_left, strength_left, mix_left, miss, k, above_base, need)
        sub = memo.get(key, memo)
        if sub is not memo:
            if sub is None:
                return None  # no completion at all
            if type(sub) is int:
                if sub <= alpha:
                    return None  # nothing here reaches `sub`, so nothing reaches alpha
            else:
                return sub  # type: ignore[return-value]
        result: _Result | None
        if miss or need or k or (above_base and width <= limit):
            result = None
            thr = alpha  # the score to beat
        else:
            result = _ZERO  # the tower may stop here
            thr = alpha if alpha > 0 else 0
        if exact and not k:
            memo[key] = result
            return result
        # Widest level possible: as wide as this one only with Balance; above a Base bottom,
        # within the Width limit and narrower than the bottom.
        if above_base:
            cap = width - 1 if width <= wmax else wmax
        else:
            cap = width if balance_left else width - 1
        if shape is not None:
            c = shape[n_levels - k]  # the shape's width for this level
            if c > cap:
                memo[key] = result
                return result
        else:
            c = cap
        nk = k - 1 if k else 0
        lcap = k if exact and k < lmax else lmax
        lv0 = cap - 1 + balance_left  # levels above an option, at most
        if lv0 > lcap - 1:
            lv0 = lcap - 1
        if mix_left:
            tables, reach, reach_lo = mixed_t, reach_mix, lo_mix
        else:
            tables, reach, reach_lo = plain_t, reach_plain, lo_plain
        least = -1  # fewest uses of any completion here, computed when first needed
        top_only = lmax == 1  # at most one more level: each option is the top level
        mt = 0  # matches bound (no festival sizes: none)
        # The positions to try, from the highest: lpos itself only with Strength, from the
        # castellers the level below left free; none so low that fewer numbers are left below
        # than the levels still needed need, or that a missing required number is out of reach.
        first = lpos if free else lpos - 1
        last = d - (nk - strength_left) if nk > strength_left else d
        if miss:
            lo = reach_lo[miss.bit_length()]
            if d - dist_below[lo] < last:
                last = d - dist_below[lo]
        lvc = 0  # levels above an option on p by the castellers (read for a scarce team)
        for p in pres[d - dist_below[first + 1] : last]:
            dl = dist_below[p]
            # Any option from here down: one level + what widths/castellers/sizes allow + the
            # matches (each shrinks from p down, so the first that fails ends the loop).
            lv = dl + strength_left
            if lv > lv0:
                lv = lv0
            if scarce:
                # `_most_levels` of the castellers below p, and with Strength those of p the
                # option leaves (it takes one at least).
                a = cast_below[p]
                if strength_left:
                    a += (free if p == lpos else counts[p]) - 1
                lvc = a if a <= balance_left else balance_left + tri_root[a - balance_left]
                if lv > lvc:
                    lv = lvc
            if sized:
                # Matches: each number is on one level at most, except with Strength.
                mt = match_upto[p]
                if mt > cap * (mpos_upto[p] + strength_left):
                    mt = cap * (mpos_upto[p] + strength_left)
                ub = w_level * (1 + lv) + w_match * mt
            else:
                ub = w_level * (1 + lv)
            if ub < thr:
                break
            if (
                result is not None
                and ub <= result[0]
                and mt <= result[1]
                and result[3]
                and result[3][0][0] > vals[p + reach[p] - 1]
            ):
                # Every option from here down can at most tie the best on score and matches,
                # and its level is lexicographically smaller (its largest number is): it wins
                # only with fewer uses than the fewest any completion needs.
                if least < 0:
                    least = _fewest_uses(
                        need, 0, k, cap + 1 if above_base else width, dist_below[lpos]
                    )
                if -result[2] <= least:
                    break
            # The options on p: at most c wide (exactly c for a shape). On lpos, single-number
            # levels of its free castellers; with a Mix use left, only a level reaching lpos can
            # be unusable, so below that only the first of a dominance run is needed.
            # A table lists by cap (0: every pattern, 1: the dominance heads), then by exact
            # width (2, 3), see `_patterns`.
            if p == lpos:
                table = plain_t[p]
                if shape is None:
                    seq = table[0][c if c < free else free]
                else:
                    seq = table[2][c] if c <= free else ()
                cnt = free
            else:
                table = tables[p]
                seqs = table[by_width + (0 if mix_left and p + reach[p] > lpos else 1)]
                try:
                    seq = seqs[c]
                except IndexError:  # c is wider than any level on p
                    seq = () if by_width else seqs[-1]
                cnt = counts[p]
            plain = table[4]
            if sized:
                mbp = match_below[p]
                mpp = mpos_below[p]
                mq = match[p]
            # Each option on p: bound what it can reach, charge its skill uses, search above.
            used = 0  # dominance run of the last usable mixed level
            for n, top, topc, c0, gs, gm, mixed, bits, lvl, group in seq:
                # A level of number lpos needs Strength, and only the free ones are left.
                if top < lpos:
                    ns = strength_left
                elif top > lpos or topc > free:
                    continue
                else:
                    ns = strength_left - 1
                if group:
                    if group == used:
                        continue  # the rest of its dominance run cannot do better
                    used = group
                nb = balance_left - 1 if n == width else balance_left  # as wide: Balance
                if n + nb <= nk:
                    break  # too narrow for the levels still needed (and so are the rest)
                if not top_only:
                    # Local bound: this level + what the child could add at most (before the
                    # uses are charged: most options stop here).
                    lv = n - 1 + nb
                    if lv > dl + ns:
                        lv = dl + ns
                        if nk > lv:
                            continue  # too few smaller numbers left for the levels still needed
                    lm = lv
                    if scarce and lv > lvc:
                        lv = lvc
                        if nk > lv:
                            continue  # too few castellers left for the levels still needed
                    nmiss = miss & ~bits
                    if nmiss >> p:
                        continue  # a required number above this level is still missing
                    if exact and lv > nk:
                        lv = nk
                    nF = cnt - c0
                    if sized:
                        # Matches above: the matching castellers left; at most n per level and
                        # one level per festival number except with Strength; at most what
                        # `lv` levels hold, which narrow by one each except with Balance.
                        mt = mbp + nF * mq
                        if mt > n * (mpp + ns):
                            mt = n * (mpp + ns)
                        hold = n * lv - tri[lv - nb if lv > nb else 0]
                        if mt > hold:
                            mt = hold
                        ubs = gs + w_level * lv + w_match * mt
                    else:
                        ubs = gs + w_level * lv
                    if ubs < thr:
                        if plain:
                            break  # the bound never grows along a plain list
                        continue
                # Charge the relaxations this level needs on this state (C-6.3a).
                u = 0
                nmk = need
                if ns != strength_left:
                    u = 1
                    nmk &= ~_STRENGTH_BIT
                if nb != balance_left:
                    u += 1
                    nmk &= ~_BALANCE_BIT
                if mixed:
                    nm = mix_left - 1
                    u += 1
                    nmk &= ~_MIX_BIT
                else:
                    nm = mix_left
                if above_base:
                    w1 = need_w[n]
                    if width <= limit + w1 * step:
                        continue  # the bottom would not really be a Base level
                    if w1:
                        u += w1
                        nmk &= ~_WIDTH_BIT
                    elif nmk & _WIDTH_BIT:
                        continue  # Width is needed, and only this level could use it
                if top_only:
                    # Nothing fits above this level: it completes the tower or nothing.
                    if miss & ~bits or nmk:
                        continue
                    cand = (gs, gm, -u, (lvl, ()))
                    if result is None or cand > result:
                        result = cand
                        if gs > thr:
                            thr = gs
                    continue
                if (
                    result is not None
                    and ubs == result[0]
                    and gm + mt <= result[1]
                    and _cannot_win_tie(
                        result, gm + mt, lvl, u, nmk, eq_after[k], lv if w_level else 0, n, dl
                    )
                ):
                    continue
                if not lm:
                    # No level fits above: the tower stops here, if that meets the query.
                    if nmiss or nmk or nk:
                        continue
                    sub = _ZERO
                else:
                    found = expand(p, nF, n, nb, ns, nm, nmiss, nk, 0, nmk, lm, thr - gs)
                    if found is None:
                        continue
                    sub = found
                cand = (gs + sub[0], gm + sub[1], sub[2] - u, (lvl, sub[3]))
                if result is None or cand > result:
                    result = cand
                    if cand[0] > thr:
                        thr = cand[0]
        if result is None or result[0] < alpha:
            memo[key] = alpha
            return None
        memo[key] = result
        return result

    def levels_above_bottom(p: int, left: int) -> int:
        """The most levels the castellers allow above a bottom on p that leaves `left` of
        p's castellers (`_most_levels`: those below p, and with Strength those left)."""
        a = cast_below[p] + left if strength_rank else cast_below[p]
        return a if a <= balance_rank else balance_rank + tri_root[a - balance_rank]

    def bottom_positions(floor: int, kcap: int) -> tuple[list[tuple[int, int]], int]:
        """The positions a bottom level may start on, best first, each with an upper bound for
        every bottom there: one level + what widths/sizes/castellers allow (`_most_levels` of
        the castellers below, and with Strength those of p the bottom leaves) + the matches up
        to its window; and the fewest uses any answer has when known (-1: not known, see
        `best_from_bottom`)."""
        if exact and not sized:
            # Every tower that meets the query scores `floor`: positions from the highest that
            # leave enough smaller numbers and castellers for the levels above. Without Mix
            # levels these come in descending lexicographic order, so once the best uses no more
            # skills than any tower must (one per exhibition skill, Balance for a shape's equal
            # neighbours) the rest lose.
            order = []
            for p in pres:
                if dist_below[p] + strength_rank >= k0 - 1:
                    if scarce and levels_above_bottom(p, counts[p] - 1) < k0 - 1:
                        continue
                    order.append((floor, p))
            if mix_rank:
                return order, -1
            balance = max(need_mask & _BALANCE_BIT, eq_after[k0])
            return order, _POPCOUNT[need_mask & ~_BALANCE_BIT] + balance
        target0 = shape[0] if shape is not None else 0
        order = []
        for p in pres[: d - dist_below[lo_req]]:
            w = target0 or len(mixed_t[p][2]) - 1  # the widest bottom on p
            if w > wmax and not (base_rank and w > limit):
                if target0:
                    continue
                w = wmax
            lv = (w if w <= wmax else wmax + 1) - 1 + balance_rank
            if lv > dist_below[p] + strength_rank:
                lv = dist_below[p] + strength_rank
            if lv > kcap:
                lv = kcap
            ub = w_level * (1 + lv) + w_match * match_upto[p]
            if scarce:
                a = cast_below[p] + counts[p] - 1 if strength_rank else cast_below[p]
                lvc = a if a <= balance_rank else balance_rank + tri_root[a - balance_rank]
                if lvc < lv:
                    tight = w_level * (1 + lvc) + w_match * match_upto[p]
                    if tight < floor:
                        continue
                    ub = tight
            if ub < floor:
                continue
            # Insert by descending bound, after the equal ones (higher positions come first):
            # a few positions, so no sort is needed.
            i = len(order)
            while i and order[i - 1][0] < ub:
                i -= 1
            order.insert(i, (ub, p))
        return order, -1

    def best_from_bottom() -> _Result | None:
        """The root: every bottom level, as a plain level (Width uses fit it) or as a Base level.

        Every tower that meets the query scores at least `floor` (its levels, one casteller of
        each festival size), so searches never look below it. Positions come best-first from
        `bottom_positions`, and on a position the widest bottoms first, so that a good tower
        prunes the rest early.
        """
        floor = w_level * k0 + w_match * n_sizes
        target0 = shape[0] if shape is not None else 0
        kcap = k0 - 1 if exact else len(counts) + strength_rank
        base_min = limit + 1 if base_rank else 1 << 30  # narrowest bottom that can be a Base level
        bases = (0, 1) if base_rank else (0,)
        order, least = bottom_positions(floor, kcap)
        result: _Result | None = None
        best_s = _NEG
        for pub, p in order:
            if pub < best_s or (result is not None and -result[2] <= least):
                break
            table = mixed_t[p]
            if not target0:
                heads = table[1][-1]  # every bottom, widest first
            else:
                heads = table[3][target0] if target0 < len(table[3]) else ()
            dlr = dist_below[p] + strength_rank  # levels above a bottom on p, by numbers left
            # The castellers for the levels above (for a scarce team): those below p, with
            # Strength those of p the bottom leaves.
            cb = cast_below[p] if scarce else 0
            ab = cb + counts[p] if strength_rank else cb
            mq = match[p]
            mc = match_below[p] + counts[p] * mq
            mlv = mpos_below[p] + strength_rank  # levels above that can hold festival sizes
            for n, _top, _topc, c0, gs, gm, mixed, bits, lvl, _group in heads:
                if n + balance_rank < k0:
                    break  # too narrow for the levels needed above it (and so are the rest)
                for based in bases:
                    if based:
                        if n < base_min:
                            break
                        width = n if n <= wmax else wmax + 1
                    else:
                        if n > wmax:
                            continue
                        width = n
                    lm = width - 1 + balance_rank  # levels above it, at most
                    if lm > dlr:
                        lm = dlr
                    if k0 - 1 > lm:
                        continue  # too few levels possible above it
                    lv = lm if lm < kcap else kcap
                    if scarce:
                        a = ab - c0 if strength_rank else ab
                        lvc = a if a <= balance_rank else balance_rank + tri_root[a - balance_rank]
                        if lvc < lv:
                            if k0 - 1 > lvc:
                                continue  # too few castellers for the levels needed above it
                            lv = lvc
                    if sized:
                        mt = mc - c0 * mq
                        if mt > width * (lv if lv < mlv else mlv):
                            mt = width * (lv if lv < mlv else mlv)
                        ub = gs + w_level * lv + w_match * mt
                    else:
                        mt = 0
                        ub = gs + w_level * lv
                    if ub < best_s or ub < floor:
                        continue
                    # Charge Mix, and Base or the Width uses this bottom needs (C-6.3a).
                    u = 1 if mixed else 0
                    nmk = need_mask & ~_MIX_BIT if mixed else need_mask
                    if based:
                        u += 1
                        nmk &= ~_BASE_BIT
                    else:
                        w0 = need_w[n]
                        if w0:
                            u += w0
                            nmk &= ~_WIDTH_BIT
                        if nmk & (_BASE_BIT | _WIDTH_BIT):
                            continue  # Base needs a Base bottom; Width is fixed by this level
                    if (
                        result is not None
                        and ub == best_s
                        and gm + mt <= result[1]
                        and _cannot_win_tie(
                            result,
                            gm + mt,
                            lvl,
                            u,
                            nmk,
                            eq_after[k0],
                            lv if w_level else 0,
                            width,
                            dist_below[p],
                        )
                    ):
                        continue
                    nmiss = req_mask & ~bits
                    if nmiss >> p:
                        continue  # a required number above the bottom is missed
                    sub = expand(
                        p,
                        counts[p] - c0,
                        width,
                        balance_rank,
                        strength_rank,
                        mix_rank - 1 if mixed else mix_rank,
                        nmiss,
                        k0 - 1,
                        based,
                        nmk,
                        lm,
                        (best_s if best_s > floor else floor) - gs,
                    )
                    if sub is None:
                        continue
                    cand = (gs + sub[0], gm + sub[1], sub[2] - u, (lvl, sub[3]))
                    if result is None or cand > result:
                        result = cand
                        best_s = cand[0]
        return result

    def run(q: _Query) -> _Result | None:
        """One search: bind the team's facts, search from the root, empty the memo."""
        nonlocal counts, need_w, pres, dist_below, cast_below, tri_root, plain_t, mixed_t
        nonlocal match, match_below, mpos_below, match_upto, mpos_upto, req_mask, n_sizes, d
        nonlocal lo_req, sized, scarce
        counts, need_w, pres, dist_below = q.counts, q.need_w, q.pres, q.dist_below
        cast_below, tri_root, scarce = q.cast_below, q.tri_root, q.scarce
        plain_t, mixed_t = q.plain_t, q.mixed_t
        match, match_below, mpos_below = q.match, q.match_below, q.mpos_below
        match_upto, mpos_upto = q.match_upto, q.mpos_upto
        req_mask, n_sizes = q.req_mask, q.n_sizes
        d = len(pres)
        # The lowest position a bottom level may start on: every level above it holds numbers
        # no larger than its smallest, so its window must reach the highest required number.
        lo_req = reach_lo[req_mask.bit_length()]
        sized = req_mask != 0  # festival sizes: matches count
        try:
            return best_from_bottom()
        finally:
            memo.clear()

    return run


def _solution(
    found: tuple[tuple[tuple[int, ...], ...], int] | None,
    ranks: Mapping[str, int],
    rules: TowerRules,
) -> Solution | None:
    """The Solution of a `_query` answer: check's uses (the tower re-checked by the legal path
    of `towers.check`, which gives a new dict), and the festival score (C-9.3) from the
    search's count of castellers numbered in the sizes."""
    if found is None:
        return None
    levels, matches = found
    accounted = legal_accountings(levels, ranks, rules)
    if accounted is None:
        reason = check(levels, ranks, rules).reason
        raise AssertionError(f"solver built an illegal tower {levels!r}: {reason}")
    score = rules.score_per_level * len(levels) + rules.score_per_match * matches
    return Solution(levels, score, accounted[0])


def _solve(
    team: Iterable[int],
    ranks: Mapping[str, int],
    rules: TowerRules,
    sizes: Iterable[int] = (),
    min_levels: int = 1,
    n_levels: int | None = None,
    shape: Sequence[int] | None = None,
    needs: Iterable[str] | None = None,
    tallest: bool = False,
) -> Solution | None:
    tb = _tables(rules)
    size_bits = _size_bits(sizes, tb) if sizes else 0
    mask: int | None
    if needs is None:
        mask = 0
    else:
        mask = _need_mask(needs, rules, tb)
        if mask is None:
            return None
    w_level, w_match = (1, 0) if tallest else (rules.score_per_level, rules.score_per_match)
    rank_t = tuple(map(ranks.get, tb.skills, tb.zeros))
    for r in rank_t:
        if r < 0:
            rank_t = tuple(r if r > 0 else 0 for r in rank_t)
            break
    if _backend == "compiled":
        counts = _compiled.team_counts(team, tb.index, _counts)
    else:
        counts = _counts(team, tb.index)
    found = _query(
        counts,
        rank_t,
        tb,
        size_bits,
        min_levels,
        n_levels,
        tuple(shape) if shape is not None else None,
        mask,
        w_level,
        w_match,
    )
    return _solution(found, ranks, rules)


def best_festival_tower(
    team: Iterable[int],
    ranks: Mapping[str, int],
    rules: TowerRules,
    sizes: Iterable[int] = (),
    min_levels: int = 1,
) -> Solution | None:
    """The highest-scoring legal tower that can compete at a festival (C-9.2, C-9.3).

    It includes a casteller of each number in `sizes` and has at least `min_levels` levels; the
    score is levels plus castellers matching `sizes` (weighted by the rules). With no sizes the
    score is the number of levels. None when no such tower exists.
    """
    return _solve(team, ranks, rules, sizes, min_levels)


def complete_shape(
    team: Iterable[int], ranks: Mapping[str, int], rules: TowerRules, shape: Sequence[int]
) -> Solution | None:
    """A legal tower with exactly `shape` castellers per level, bottom to top (C-8.3).

    None is a proof that the team and ranks cannot build it.
    """
    return _solve(team, ranks, rules, shape=shape)


def complete_exhibition(
    team: Iterable[int],
    ranks: Mapping[str, int],
    rules: TowerRules,
    needs: Iterable[str],
    n_levels: int,
) -> Solution | None:
    """A legal tower of exactly `n_levels` levels with one accounting using every skill in
    `needs` (C-8.4, C-6.3a), or None when none exists."""
    return _solve(team, ranks, rules, n_levels=n_levels, needs=needs)


def tallest_tower(
    team: Iterable[int], ranks: Mapping[str, int], rules: TowerRules
) -> Solution | None:
    """The legal tower with the most levels; None only for an empty team (one casteller is
    always a legal one-level tower). `score` is the festival score without sizes."""
    return _solve(team, ranks, rules, tallest=True)


def best_tower_dict(
    team: Iterable[int],
    ranks: Mapping[str, int],
    rules: TowerRules,
    sizes: Iterable[int] = (),
    min_levels: int = 1,
    shape: Sequence[int] | None = None,
    needs: Iterable[str] | None = None,
    n_levels: int | None = None,
) -> dict:
    """The stable JSON contract for a solver query.

    ``{"found": true, "score": 9, "levels": [[6, 6, 6], [5, 5], [4], [3]], "uses": {...}}`` or
    ``{"found": false, "score": null, "levels": null, "uses": null}``. All given constraints hold
    together: festival `sizes` and `min_levels`, an exact `shape`, exhibition `needs` (with
    `n_levels` exactly that many levels; without it any height >= `min_levels`). The tower
    maximises the festival score for `sizes`, and `score` is that score.
    """
    solution = _solve(team, ranks, rules, sizes, min_levels, n_levels, shape, needs)
    if solution is None:
        return {"found": False, "score": None, "levels": None, "uses": None}
    return {
        "found": True,
        "score": solution.score,
        "levels": [list(level) for level in solution.levels],
        "uses": dict(solution.uses),
    }
