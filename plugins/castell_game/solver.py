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
2. Prefilter (`tower_search.Searcher.lacks_size`, `.impossible`): cheap necessary conditions
   on the team reject most impossible queries before any table is built: required numbers
   present; levels allowed by the castellers and the Balance rank (`_most_levels`), by the
   widest level the team can form, the Balance rank and a Base bottom, and by the distinct
   numbers and the Strength rank, also from the highest festival number up; a shape's widths
   against the counts.
3. Setup per team (`Searcher.prepare`): the pattern tables of every position the team holds
   (`_patterns`, cached per rules on the counts they use, since they repeat across teams) and
   the prefix facts the bounds read.
4. Search (`Searcher.best_from_bottom`, `Searcher.expand`): branch and bound over levels,
   bottom-up.

Steps 2-4 are `tower_search.py`, one source in two builds: compiled (C integers, when setup.py
found Cython and a C compiler) and the same file run as plain Python (`_plain_search`); the
same steps, the same answers.

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

import importlib.util
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise, product
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

from castell_dsl.contract import short_repr
from castell_game import tower_search as _tower_search
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
_BALANCE_BIT, _STRENGTH_BIT, _MIX_BIT, _WIDTH_BIT, _BASE_BIT = _tower_search.SKILL_BITS
_BIT_OF = {
    BALANCE: _BALANCE_BIT,
    STRENGTH: _STRENGTH_BIT,
    MIX: _MIX_BIT,
    WIDTH: _WIDTH_BIT,
    BASE: _BASE_BIT,
}
# Triangular numbers: r levels narrowing by one each below n hold n * r - _TRI[r] castellers.
_TRI = tuple(r * (r + 1) // 2 for r in range(64))
# A search result: (score, matches, -uses, chain of levels (level, rest of the chain) or ()).
_Result = tuple[int, int, int, tuple]
# The pattern table of a number the team does not hold (see `_patterns`).
_NO_PATTERNS: tuple[tuple, tuple, tuple, tuple, bool] = (((),), ((),), ((),), ((),), True)
# Width caps that index a pattern table directly (wider caps fall back to the whole table).
_PAD_CAPS = 8
# Pattern tables kept per rules and score weights before that cache starts afresh.
_PATTERN_CACHE_MAX = 50_000
# Query setups (`_Setup`) kept per rules before that cache starts afresh.
_SETUP_CACHE_MAX = 4096

# A query's per-team steps (`tower_search.py`): one source, compiled by setup.py when Cython
# and a C compiler are there (the import system then prefers the extension to the .py file).
# `_compiled` is that build, or None; `_plain_search()` the same file run as plain Python,
# which answers when it is not built, with `CASTELL_SOLVER=python` (or
# `use_search_backend("python")`), and for a query beyond the compiled integer ranges.
_compiled: ModuleType | None = _tower_search if _tower_search.COMPILED else None
_plain: ModuleType | None = None if _tower_search.COMPILED else _tower_search


def _plain_search() -> ModuleType:
    """`tower_search.py` run as plain Python: the module itself when it is not compiled, else
    the source file beside the extension loaded under a name of its own (once)."""
    global _plain
    if _plain is None:
        path = Path(_tower_search.__file__).with_name("tower_search.py")
        spec = importlib.util.spec_from_file_location("castell_game._tower_search_plain", path)
        if spec is None or spec.loader is None:  # pragma: no cover - the file ships
            raise ImportError(f"no plain tower search at {path}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _plain = module
    return _plain


class _NeverRaised(Exception):
    """Stands for `tower_search.Unsupported` when the compiled search is not there."""


_Unsupported: type[Exception] = _compiled.Unsupported if _compiled is not None else _NeverRaised
_python_only = _compiled is None or os.environ.get("CASTELL_SOLVER") == "python"
_backend = "python" if _python_only else "compiled"


def search_backend() -> str:
    """Which search answers queries: ``"compiled"`` (`tower_search`, when built and not
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
        "one",
        "patterns",
        "rank_at",
        "setups",
        "skills",
        "spread",
        "step",
        "vals",
        "win",
        "zeros",
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
        self.patterns: dict[tuple[int, int], dict] = {}
        self.setups: dict[tuple, _Setup | None] = {}


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

    `tower_search.Searcher.pattern_tables` caches the tables per rules and score weights on
    exactly these arguments: a table is the same for every team with the same counts in the window.
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
    """Team counts by number position (`tower_search.team_counts` of the search in use); a
    ValueError names a casteller that is not a size (C-5.1)."""
    if type(team) is not list and type(team) is not tuple:
        team = list(team)
    search = _compiled if _compiled is not None and _backend == "compiled" else _plain_search()
    counts: tuple[int, ...] | None = search.team_counts(team, index)
    if counts is not None:
        return counts
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
    (`cache`, see `tower_search.Searcher.pattern_tables`); `cast_gate`, the team size below
    which castellers may bound the levels more than the widths do; `answerers`, the pool of
    `_answer`.
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
    # widths: only then does the search bound levels by castellers too (`Searcher.scarce`).
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


# --- Arguments and pattern tables a query hands the search ---------------------------------------


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


def _window_tables(
    tb: _Tables, su: _Setup, p: int, counts: tuple[int, ...], req_mask: int
) -> tuple[tuple, tuple]:
    """The pattern tables of position `p` whose Mix window holds castellers above p: its
    single-number levels (from the cache too, keyed as in `Searcher.plain_table`) and every
    level."""
    L = tb.win[p]
    c, m = counts[p], req_mask >> p & 1
    key = (c * len(counts) + p) * 2 + m
    plain = su.cache.get(key)
    if plain is None:
        plain = su.cache[key] = _patterns(tb, p, (c,), m, su.w_level, su.w_match)
    bits = (req_mask >> p) & ((1 << L) - 1)
    return plain, _patterns(tb, p, counts[p : p + L], bits, su.w_level, su.w_match)


# --- The per-team steps: `tower_search`, compiled or plain Python ------------------------------

# What answers a setup's queries: (team counts, festival size bits) -> the best result or None.
_Answer = Callable[[tuple[int, ...], int], "_Result | None"]


def _answer(counts: tuple[int, ...], su: _Setup, size_bits: int) -> _Result | None:
    """The prefilter, the team's facts and the search of one query (`tower_search.Searcher`):
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
        return _searcher(_plain_search(), su)(counts, size_bits)
    finally:
        pool.append(answer)


def _answerer(su: _Setup) -> _Answer:
    """The answer of setup `su`'s queries: the compiled build when it is there and on
    (`search_backend`) and the setup fits its integer ranges, else the plain Python build."""
    if _compiled is not None and _backend == "compiled":
        try:
            return _searcher(_compiled, su)
        except _Unsupported:
            pass
    return _searcher(_plain_search(), su)


def _searcher(search: ModuleType, su: _Setup) -> _Answer:
    """`su`'s `Searcher` of one build of `tower_search`, handed the pattern tables' makers."""
    answer: _Answer = search.Searcher(
        su, _patterns, _window_tables, _NO_PATTERNS, _PATTERN_CACHE_MAX
    )
    return answer


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
