"""Exact tower solver: the best festival tower, shape completion, exhibitions (C-5, C-6, C-8, C-9).

Bots and hints ask "what is the best tower I can build?" many times per turn, so the solver is
exact *and* fast. It never enumerates permutations; it searches over the team's counts by number.

Search. Levels are built bottom-up. A level's numbers lie in ``[m, m + mix_spread]`` where ``m``
is its smallest number, and every level above uses numbers ``<= m`` (equal only with Strength, and
then only castellers of number ``m`` the lower level left over). So after a level the rest of the
search depends only on a small state: the position of ``m``, how many castellers of number ``m``
are still free (numbers below ``m`` are all still free), how many castellers the level has, the
remaining Balance / Strength / Mix uses, the levels still needed (minimum or exact height, or the
shape index), the required numbers not yet included, the exhibition skills not yet used, and
whether the level is a Base bottom whose width limit the next level fixes. Width and Base only
concern the first two levels (levels are never wider than the level below), so the root
enumerates the bottom level as a Base level or not and charges the Width uses there (or on level
2 above a Base bottom).

Speed. States are memoised per query. Bottom levels are tried best-first (by position, from an
upper bound for every bottom there); an option is skipped when an upper bound (levels that the
widths, the numbers left and the Balance/Strength ranks allow; matching castellers still free,
at most one level's worth per festival number without Strength and at most what those levels
hold) cannot reach the best score so far, or can at most tie it and then cannot win the
tie-break (fewest uses: one per exhibition skill still needed, and the Balance / Strength uses
that the levels needed for the tie take; without Mix levels the options come in descending
lexicographic order, which ends a search early). The score to beat is passed down (branch and
bound), starting from the least score any answer has (its levels and one casteller per
festival size), so a memo entry is either an exact value or the fact "nothing here reaches
score X", reused only for a target >= X. A dominance rule halves the options: among mixed
levels of the same width, the one with more of the larger number is never worse (see
`_patterns`). A level with no room above it is settled in place, without a child search.

Games ask many small queries, each for a new team, so the set-up around the search matters as
much as the search: everything that depends only on the rules is built once per `TowerRules`
(`_Tables`), pattern tables are cached per rules on the counts of the numbers they use (they
repeat across teams), and cheap necessary conditions (required numbers present; levels allowed
by the widest level the team can form, the Balance rank and a Base bottom, and by the distinct
numbers and the Strength rank, also from the highest festival number up; a shape's widths
against the ranks and the counts) reject most impossible queries before any table is built.

Tie-break (deterministic, applied in this order):
  1. higher score (festival score: ``score_per_level`` per level + ``score_per_match`` per
     casteller whose number is a festival size; for `tallest_tower`: levels);
  2. more castellers matching the festival sizes (helps win size tokens, C-9.5);
  3. fewer total skill uses (of the cheapest accounting that meets the query: for plain queries
     this is the total of `towers.check`'s ``uses``);
  4. the lexicographically largest tower, comparing levels bottom-up, each level as the tuple of
     its numbers in descending order (so wider and higher-numbered low levels win).
The answer is the maximum of this total order, so it does not depend on the search order.

Queries are memoised whole with `functools.lru_cache` on hashable arguments (team counts by
number, ranks in `TowerRules.skills` order, sizes, ...); `clear_cache` empties it. Every returned
tower is re-checked with `towers.check`, and its `uses` are check's `uses`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, compress, pairwise, product
from operator import add, mul

from castell_plugins.castell.towers import TowerRules, check

from castell_dsl.language.text import short_repr

# Exhibition skill bits (internal).
_B, _S, _M, _W, _BASE = 1, 2, 4, 8, 16
_BIT_OF = {
    "equal_count": _B,
    "equal_size": _S,
    "mixed_sizes": _M,
    "wider": _W,
    "wide_bottom": _BASE,
}
# Set bits per exhibition mask (lower bounds on the uses still to come).
_POPCOUNT = tuple(bin(i).count("1") for i in range(32))
_NEG = -(1 << 60)
# Triangular numbers: r levels narrowing by one each below n hold n * r - _TRI[r] castellers.
_TRI = tuple(r * (r + 1) // 2 for r in range(64))
_ZERO = (0, 0, 0, ())
# The pattern table of a number the team does not hold (see `_patterns`).
_NO_PATTERNS: tuple[tuple, tuple, tuple, tuple, bool] = (((),), ((),), ((),), ((),), True)
# Width caps that index a pattern table directly (wider caps fall back to the whole table).
_PAD_CAPS = 8
# Pattern tables kept per rules and score weights before that cache starts afresh.
_PATTERN_CACHE_MAX = 50_000


@dataclass(frozen=True, slots=True)
class Solution:
    """A solver answer: the tower (levels bottom first), its festival score and check's uses."""

    levels: tuple[tuple[int, ...], ...]
    score: int
    uses: dict[str, int]


class _Tables:
    """What a query needs that depends only on the rules: built once per `TowerRules`.

    Argument conversion (number -> position, skill -> exhibition bit), where each relaxation's
    rank sits in the rank tuple, the Mix window of each position, the Width uses per level width,
    and the pattern tables (`_patterns`) per score weights, keyed by the counts of the window
    they use: they repeat across the teams of a game.
    """

    __slots__ = (
        "by_skill",
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
        "skills",
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
        self.by_skill = {skill: _BIT_OF[rid] for rid, skill in rules.relaxations.items()}
        at = {skill: i for i, skill in enumerate(rules.skills)}
        # Rank tuple positions of Balance, Base, Mix, Strength, Width (-1: no such skill).
        self.rank_at = tuple(
            -1 if s is None else at[s] for s in (plan.bal, plan.base, plan.mix, plan.strg, plan.wid)
        )
        self.limit = plan.limit
        self.step = plan.step
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

    def width_uses(self, n: int) -> list[int]:
        """Width uses per level width (index), for widths up to at least `n`."""
        if len(self.need_w) <= n:
            limit, step = self.limit, self.step
            self.need_w = [
                0 if w <= limit else (w - limit + step - 1) // step for w in range(2 * n + 2)
            ]
        return self.need_w


@lru_cache(maxsize=64)
def _tables(rules: TowerRules) -> _Tables:
    return _Tables(rules)


def _patterns(
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
    bounds of `_query` never grow along a list, and a list is in descending lexicographic order.

    Dominance: among mixed levels of one width, the one with more of the larger number leaves
    more castellers of number p free, scores no less (unless p is a festival size and p+1 is
    not) and is lexicographically larger: only the first *usable* level of such a group
    matters. Such a run of patterns shares a nonzero `group` id; the ``heads_*`` lists keep only
    the first pattern of each run, for where every level is usable (the bottom, and numbers
    below the window of the level underneath).

    `_query` caches the tables per rules and score weights on exactly these arguments: a table
    is the same for every team with the same counts in the window.
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
    # Widths descend along both lists, so the patterns at most c wide are a suffix of a list
    # and those exactly c wide a slice. The cap lists run to at least _PAD_CAPS entries, so
    # that a usual cap is a plain index.
    widest = pats[0][0]
    by_cap: list[tuple] = []
    by_width: list[tuple] = []
    for source in (tuple(pats), tuple(heads)):
        start = [len(source)] * (widest + 1)  # start[c]: the first pattern at most c wide
        for i in range(len(source) - 1, -1, -1):
            start[source[i][0]] = i
        for c in range(1, widest + 1):
            start[c] = min(start[c], start[c - 1])
        caps = range(max(widest + 1, _PAD_CAPS))
        by_cap.append(tuple(source[start[c if c < widest else widest] :] for c in caps))
        exact = [source[start[c] : start[c - 1]] for c in range(1, widest + 1)]
        by_width.append(((), *exact))
    return by_cap[0], by_cap[1], by_width[0], by_width[1], not any(t[6] for t in pats)


def _counts(team: Iterable[int], index: Mapping[int, int]) -> tuple[int, ...]:
    """Team counts by number position; a ValueError names a casteller that is not a size."""
    if type(team) is not list and type(team) is not tuple:
        team = list(team)
    if set(map(type, team)) <= {int}:
        counts = [0] * len(index)
        try:
            for i in map(index.__getitem__, team):
                counts[i] += 1
            return tuple(counts)
        except KeyError:
            pass
    bad = next(x for x in team if type(x) is not int or x not in index)
    raise ValueError(f"casteller number {short_repr(bad)} is not one of the game's sizes")


def _need_mask(needs: Iterable[str], rules: TowerRules, tb: _Tables) -> int | None:
    """Bits of the exhibition skills; None when a skill grants no relaxation (never usable)."""
    mask = 0
    for skill in needs:
        if skill not in rules.skills:
            raise ValueError(f"unknown skill {short_repr(skill)}; known: {', '.join(rules.skills)}")
        bit = tb.by_skill.get(skill)
        if bit is None:
            return None
        mask |= bit
    return mask


def clear_cache() -> None:
    """Forget memoised queries (benchmarks use it to time cold queries).

    The per-rules tables (`_Tables`, pattern tables included) are kept: they hold no answers,
    only facts derived from the rules and from the counts of one to ``mix_spread + 1`` numbers.
    """
    _query.cache_clear()


@lru_cache(maxsize=8192)
def _query(
    counts: tuple[int, ...],
    rank_t: tuple[int, ...],
    rules: TowerRules,
    sizes: tuple[int, ...],
    min_levels: int,
    n_levels: int | None,
    shape: tuple[int, ...] | None,
    need_mask: int,
    w_level: int,
    w_match: int,
) -> tuple[tuple[tuple[int, ...], ...], int] | None:
    """One memoised search: the best tower's levels and how many of its castellers are numbered
    in `sizes`, or None (proof that no tower meets the query).

    Constraints: includes a casteller of every number in `sizes`; at least `min_levels` levels;
    exactly `n_levels` levels and/or exactly `shape` when given; one accounting uses every skill
    in `need_mask`. Objective: `w_level` per level + `w_match` per casteller numbered in `sizes`.
    """
    tb = _tables(rules)
    a_bal, a_base, a_mix, a_strg, a_wid = tb.rank_at
    rb = rank_t[a_bal] if a_bal >= 0 else 0
    rbase = rank_t[a_base] if a_base >= 0 else 0
    rm = rank_t[a_mix] if a_mix >= 0 else 0
    rs = rank_t[a_strg] if a_strg >= 0 else 0
    rw = rank_t[a_wid] if a_wid >= 0 else 0
    K = len(counts)
    limit, step = tb.limit, tb.step
    wmax = limit + rw * step
    has_base = rbase >= 1
    total = sum(counts)

    # Cheap necessary conditions first: most impossible queries stop here, before any table.
    if need_mask and (
        (need_mask & _B and not rb)
        or (need_mask & _S and not rs)
        or (need_mask & _M and not rm)
        or (need_mask & _W and not rw)
        or (need_mask & _BASE and not has_base)
    ):
        return None  # an exhibition skill with rank 0 cannot be used
    index = tb.index
    req_mask = 0
    for s in sizes:
        i = index.get(s)
        if i is None or not counts[i]:
            return None
        req_mask |= 1 << i
    exact = n_levels is not None or shape is not None
    if shape is not None:
        if n_levels is not None and n_levels != len(shape):
            return None
        n_levels = len(shape)
        if not shape or min(shape) < 1 or sum(shape) > total:
            return None
        equal = 0
        for below, above in pairwise(shape):
            if above >= below:
                if above > below:
                    return None  # wider than the level below
                equal += 1
        if equal > rb or max(shape[1:], default=0) > wmax or (shape[0] > wmax and not has_base):
            return None
    if exact:
        if n_levels < 1 or n_levels < min_levels:
            return None
        k0 = n_levels
    else:
        k0 = max(min_levels, 1)
    # Levels (C-6.3a): widths shrink except with Balance, from at most the widest level the
    # team can form (a Base bottom adds one level); each level's smallest number is new except
    # with Strength.
    maxwin = tb.maxwin if rm else 1
    if maxwin == 1:
        widest = max(counts)
    elif maxwin == 2:
        widest = max(map(add, counts, (*counts[1:], 0)))
    else:
        widest = max(sum(counts[p : p + maxwin]) for p in range(K))
    if widest > limit and has_base:
        if k0 > min(widest, wmax) + rb + 1:
            return None
    elif k0 > min(widest, wmax) + rb:
        return None
    if k0 > K - counts.count(0) + rs:
        return None
    if req_mask:
        # The level holding the highest festival number: levels from it up as above; levels
        # below it have still higher smallest numbers, except with Strength.
        hi = req_mask.bit_length() - 1
        w = sum(counts[max(0, hi - maxwin + 1) : hi + maxwin])
        up = min(w, wmax + 1 if has_base else wmax) + rb
        if k0 > up + K - 1 - hi - counts[hi + 1 :].count(0) + rs:
            return None
    if shape is not None:
        # A shape's i-th widest level is on its own number holding that many castellers,
        # except a Mix level or a second level on a number (Strength): it needs the i-th
        # largest count, give or take those.
        slack = rm + rs
        by_count = sorted(counts, reverse=True)
        for i in range(slack, len(shape)):
            if i - slack >= K or by_count[i - slack] < shape[i]:
                return None

    # Pattern tables per position: `plain_t` (single-number levels) and `mixed_t` (every
    # level, Mix levels included; the plain table when no Mix level is possible). A state with
    # no Mix use left, or a level of the number the level below left over (Strength), only
    # needs the plain one. The same pass gathers the prefix facts for the bounds, per position
    # p: positions below p holding castellers (`dist_below`), matching castellers below p
    # (`match_below`) and festival-size positions below p (`mpos_below`).
    spread_on = rm >= 1
    win = tb.win
    cache = tb.patterns.get((w_level, w_match))
    if cache is None or len(cache) > _PATTERN_CACHE_MAX:
        cache = tb.patterns[w_level, w_match] = {}
    pres = list(compress(tb.positions, counts))  # positions holding castellers
    d = len(pres)
    dist_below = list(accumulate(map(bool, counts), initial=0))
    if req_mask:
        match = [req_mask >> p & 1 for p in tb.positions]
        match_below = list(accumulate(map(mul, counts, match), initial=0))
        mpos_below = list(accumulate(match, initial=0))
        m = match_below[-1]
        mp = mpos_below[-1]
    else:
        match = tb.zeros_k
        match_below = mpos_below = tb.zeros_k1
        m = mp = 0
    plain_t = [_NO_PATTERNS] * K
    for p in pres:
        c = counts[p]
        key = (c * K + p) * 2 + match[p]
        table = cache.get(key)
        if table is None:
            table = cache[key] = _patterns(tb, p, (c,), match[p], w_level, w_match)
        plain_t[p] = table
    if spread_on:
        mixed_t = plain_t[:]
        for p in pres:
            L = win[p]
            if L > 1 and any(counts[p + 1 : p + L]):
                wkey = (p, counts[p : p + L], (req_mask >> p) & ((1 << L) - 1))
                table = cache.get(wkey)
                if table is None:
                    table = cache[wkey] = _patterns(tb, p, wkey[1], wkey[2], w_level, w_match)
                mixed_t[p] = table
    else:
        mixed_t = plain_t
    pres.reverse()  # pres[d - dist_below[p + 1]:] lists the positions <= p, from the highest
    # Positions a level with smallest number at p can reach: p .. p + reach[p] - 1.
    reach_plain = tb.one
    reach_mix = win if spread_on else tb.one
    # Matching castellers, and festival-size positions, that a level with smallest position
    # <= p and everything above can hold.
    if not req_mask:
        match_upto = mpos_upto = tb.zeros_k
    elif not spread_on:
        match_upto = match_below[1:]
        mpos_upto = mpos_below[1:]
    else:
        spread = rules._plan.spread
        match_upto = [*match_below[1 + spread :], *[m] * spread] if spread < K else [m] * K
        mpos_upto = [*mpos_below[1 + spread :], *[mp] * spread] if spread < K else [mp] * K
    need_w = tb.need_w
    if len(need_w) <= total or len(need_w) <= wmax:
        need_w = tb.width_uses(max(total, wmax))

    # Lower bounds on uses still to come: one per exhibition skill not yet used; a shape's
    # equal neighbours need Balance (eq_after[k]: equal pairs above the level k levels from
    # the top of the shape).
    popcount = _POPCOUNT
    # Levels above an option are at most `wmax` wide (see `_TRI`).
    tri = _TRI if wmax < len(_TRI) else tuple(r * (r + 1) // 2 for r in range(wmax + 1))
    vals = tb.vals
    sized = req_mask != 0  # festival sizes: matches count
    eq_after = [0] * (k0 + 2)
    if shape is not None:
        for kk in range(2, len(shape) + 1):
            lo = len(shape) - kk
            eq_after[kk] = eq_after[kk - 1] + (shape[lo + 1] == shape[lo])

    memo: dict[tuple, tuple | int | None] = {}
    zero = _ZERO

    def expand(key: tuple, lmax: int, alpha: int) -> tuple | None:
        """Best completion above a level: the state `key` is (position of its smallest number,
        castellers of that number still free, its width, Balance / Strength / Mix uses left,
        required numbers still missing, levels still needed, above a Base bottom?, exhibition
        skills still needed), normalised by the caller (budgets clipped to `lmax`, the levels
        still possible, which are >= the levels needed; no missing number above it).

        Returns (score, matches, -uses, chain of levels), exact whenever its score >= `alpha`;
        None when no completion reaches `alpha` (or none exists). Memo entries are exact
        results or, as an int, a bound "no completion scores that much"; callers look the memo
        up first.
        """
        lpos, free, width, bb, sb, mb, miss, k, wflag, nmask = key
        if miss or nmask or k or (wflag and width <= limit):
            result = None
            thr = alpha  # the score to beat
        else:
            result = zero  # the tower may stop here
            thr = alpha if alpha > 0 else 0
        if exact and not k:
            memo[key] = result
            return result
        # Widest level possible: as wide as this one only with Balance; above a Base bottom,
        # within the Width limit and narrower than the bottom.
        cap = (width - 1 if width <= wmax else wmax) if wflag else (width if bb else width - 1)
        if shape is not None:
            c = shape[n_levels - k]  # the shape's width for this level
            if c > cap:
                memo[key] = result
                return result
        else:
            c = cap
        nk = k - 1 if k else 0
        lcap = k if exact and k < lmax else lmax
        lv0 = cap - 1 + bb  # levels above an option, at most
        if lv0 > lcap - 1:
            lv0 = lcap - 1
        if mb:
            tables, reach, reach_lo = mixed_t, reach_mix, tb.lo_mix
        else:
            tables, reach, reach_lo = plain_t, reach_plain, tb.lo_plain
        least = -1  # fewest uses of any completion here, computed when first needed
        top_only = lmax == 1  # at most one more level: each option is the top level
        mt = 0  # matches bound (no festival sizes: none)
        # The positions to try, from the highest: lpos itself only with Strength, from the
        # castellers the level below left free; none so low that fewer numbers are left below
        # than the levels still needed need, or that a missing required number is out of reach.
        first = lpos if free else lpos - 1
        last = d - (nk - sb) if nk > sb else d
        if miss:
            lo = reach_lo[miss.bit_length()]
            if d - dist_below[lo] < last:
                last = d - dist_below[lo]
        for p in pres[d - dist_below[first + 1] : last]:
            dl = dist_below[p]
            # Any option from here down: one level + what widths/sizes allow + the matches.
            lv = dl + sb
            if lv > lv0:
                lv = lv0
            if sized:
                # Matches: each number is on one level at most, except with Strength.
                mt = match_upto[p]
                if mt > cap * (mpos_upto[p] + sb):
                    mt = cap * (mpos_upto[p] + sb)
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
                # only with fewer uses. None has fewer than the fewest any completion needs:
                # one per exhibition skill still needed, and Balance / Strength for the `k`
                # levels still needed beyond what the width and the smaller numbers allow.
                if least < 0:
                    bal = nmask & 1
                    sr = nmask >> 1 & 1
                    if k:
                        if k - (cap if wflag else width - 1) > bal:
                            bal = k - (cap if wflag else width - 1)
                        if k - dist_below[lpos] > sr:
                            sr = k - dist_below[lpos]
                    least = bal + sr + popcount[nmask & 12]
                if -result[2] <= least:
                    break
            # The options on p: at most c wide (exactly c for a shape). On lpos, single-number
            # levels of its free castellers; with a Mix use left, only a level reaching lpos can
            # be unusable, so below that only the first of a dominance run is needed.
            if p == lpos:
                tab = plain_t[p]
                if shape is None:
                    seq = tab[0][c if c < free else free]
                else:
                    seq = tab[2][c] if c <= free else ()
                cnt = free
            else:
                tab = tables[p]
                full = mb and p + reach[p] > lpos
                if shape is None:
                    seqs = tab[0] if full else tab[1]
                    try:
                        seq = seqs[c]
                    except IndexError:  # c is wider than any level on p
                        seq = seqs[-1]
                else:
                    seqs = tab[2] if full else tab[3]
                    seq = seqs[c] if c < len(seqs) else ()
                cnt = counts[p]
            plain = tab[4]
            if sized:
                mbp = match_below[p]
                mpp = mpos_below[p]
                mq = match[p]
            used = 0  # dominance run of the last usable mixed level
            for n, top, topc, c0, gs, gm, mixed, bits, lvl, group in seq:
                if top < lpos:
                    ns = sb
                    u = 0
                    nmk = nmask
                elif top > lpos or topc > free:
                    continue  # number lpos needs Strength, and only the free ones are left
                else:
                    ns = sb - 1
                    u = 1
                    nmk = nmask & ~_S
                if group:
                    if group == used:
                        continue  # the rest of its dominance run cannot do better
                    used = group
                if n == width:  # `cap` allows it only with Balance
                    nb = bb - 1
                    u += 1
                    nmk &= ~_B
                else:
                    nb = bb
                if n + nb <= nk:
                    break  # too narrow for the levels still needed (and so are the rest)
                if mixed:
                    nm = mb - 1
                    u += 1
                    nmk &= ~_M
                else:
                    nm = mb
                if wflag:
                    w1 = need_w[n]
                    if width <= limit + w1 * step:
                        continue  # the bottom would not really be a Base level
                    if w1:
                        u += w1
                        nmk &= ~_W
                    elif nmk & _W:
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
                # Local bound: this level + what the child could add at most.
                lv = n - 1 + nb
                if lv > dl + ns:
                    lv = dl + ns
                    if nk > lv:
                        continue  # too few smaller numbers left for the levels still needed
                lm = lv
                nmiss = miss & ~bits
                if nmiss >> p:
                    continue  # a required number above this level is still missing
                if exact and lv > nk:
                    lv = nk
                nF = cnt - c0
                if sized:
                    # Matches above: the matching castellers left; at most n per level and
                    # one level per festival number except with Strength; at most what `lv`
                    # levels hold, which narrow by one each except with Balance.
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
                if result is not None and ubs == result[0]:
                    # It can at best tie on score: compare what it could reach on the rest of
                    # the tie-break (matches, fewest uses, then this level against the best's).
                    if gm + mt < result[1]:
                        continue
                    if gm + mt == result[1]:
                        # Fewest uses: the exhibition skills not yet used, a shape's equal
                        # neighbours, and, as a tie needs all `lv` levels, the Balance and
                        # Strength uses that many levels take beyond the width and the
                        # smaller numbers.
                        bal = eq_after[k] if eq_after[k] else nmk & 1
                        sr = nmk >> 1 & 1
                        if w_level:
                            if lv - n + 1 > bal:
                                bal = lv - n + 1
                            if lv - dl > sr:
                                sr = lv - dl
                        lb = u + bal + sr + popcount[nmk & 12]
                        if -lb < result[2] or (
                            -lb == result[2] and result[3] and lvl < result[3][0]
                        ):
                            continue
                if not lm:
                    # No level fits above: the tower stops here, if that meets the query.
                    if nmiss or nmk or nk:
                        continue
                    sub = zero
                else:
                    # The child state, normalised: budgets beyond the levels possible never
                    # bind, and each level touching number p takes a Strength use and <= n
                    # castellers.
                    if nb > lm:
                        nb = lm
                    if ns > lm:
                        ns = lm
                    if nm > lm:
                        nm = lm
                    if nF > n * ns:
                        nF = n * ns
                    ckey = (p, nF, n, nb, ns, nm, nmiss, nk, 0, nmk)
                    sub = memo.get(ckey, memo)
                    if sub is memo:
                        sub = expand(ckey, lm, thr - gs)
                    elif type(sub) is int:
                        if sub <= thr - gs:
                            continue  # known: nothing above reaches what this option needs
                        sub = expand(ckey, lm, thr - gs)
                    if sub is None:
                        continue
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

    # Root: the bottom level, as a plain level (Width uses fit it) or as a Base level. Every
    # tower that meets the query scores at least `floor` (its levels, one casteller of each
    # festival size), so searches never look below it. Positions are tried best-first by an
    # upper bound for every bottom on them (one level + what widths/sizes allow + the matches
    # up to its window), and on a position the widest bottoms first, so that a good tower
    # prunes the rest early.
    floor = w_level * k0 + w_match * len(sizes)
    target0 = shape[0] if shape is not None else 0
    kcap = k0 - 1 if exact else K + rs
    base_min = limit + 1 if has_base else 1 << 30  # narrowest bottom that can be a Base level
    bases = (0, 1) if has_base else (0,)
    least = -1  # with it, fewer uses than the best's cannot be reached: stop (see below)
    if exact and not sized:
        # Every tower that meets the query scores `floor`: positions from the highest that
        # leave enough smaller numbers for the levels above. Without Mix levels these come in
        # descending lexicographic order, so once the best uses no more skills than any tower
        # must (one per exhibition skill, Balance for a shape's equal neighbours) the rest lose.
        order = [(floor, p) for p in pres if dist_below[p] + rs >= k0 - 1]
        if not rm:
            least = popcount[need_mask & ~_B] + max(need_mask & _B, eq_after[k0])
    else:
        order = []
        for p in pres:
            w = target0 or len(mixed_t[p][2]) - 1  # the widest bottom on p
            if w > wmax and not (has_base and w >= base_min):
                if target0:
                    continue
                w = wmax
            lv = (w if w <= wmax else wmax + 1) - 1 + rb
            if lv > dist_below[p] + rs:
                lv = dist_below[p] + rs
            if lv > kcap:
                lv = kcap
            ub = w_level * (1 + lv) + w_match * match_upto[p]
            if ub >= floor:
                order.append((ub, p))
        order.sort(reverse=True)
    result = None
    best_s = _NEG
    for pub, p in order:
        if pub < best_s or (result is not None and -result[2] <= least):
            break
        tab = mixed_t[p]
        heads = tab[1][-1] if not target0 else tab[3][target0] if target0 < len(tab[3]) else ()
        dlr = dist_below[p] + rs  # levels above a bottom on p, by the numbers left
        mq = match[p]
        mc = match_below[p] + counts[p] * mq
        mlv = mpos_below[p] + rs  # levels above that can hold festival sizes
        for n, _top, _topc, c0, gs, gm, mixed, bits, lvl, _group in heads:
            if n + rb < k0:
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
                lm = width - 1 + rb  # levels above it, at most
                if lm > dlr:
                    lm = dlr
                if k0 - 1 > lm:
                    continue  # too few levels possible above it
                lv = lm if lm < kcap else kcap
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
                u = 1 if mixed else 0
                nmk = need_mask & ~_M if mixed else need_mask
                if based:
                    u += 1
                    nmk &= ~_BASE
                else:
                    w0 = need_w[n]
                    if w0:
                        u += w0
                        nmk &= ~_W
                    if nmk & (_BASE | _W):
                        continue  # Base needs a Base bottom; Width is fixed by this level
                if result is not None and ub == best_s:
                    # At best a tie on score: the same tie-break bounds as in `expand`.
                    bal = eq_after[k0] if eq_after[k0] else nmk & 1
                    sr = nmk >> 1 & 1
                    if w_level:
                        if lv - width + 1 > bal:
                            bal = lv - width + 1
                        if lv - dist_below[p] > sr:
                            sr = lv - dist_below[p]
                    lb = u + bal + sr + popcount[nmk & 12]
                    if (gm + mt, -lb, lvl) < (result[1], result[2], result[3][0]):
                        continue
                # The child state, normalised as in `expand`.
                nmiss = req_mask & ~bits
                if nmiss >> p:
                    continue  # a required number above the bottom is missed
                nb = rb if rb < lm else lm
                ns = rs if rs < lm else lm
                nm = rm - 1 if mixed else rm
                if nm > lm:
                    nm = lm
                nF = counts[p] - c0
                if nF > width * ns:
                    nF = width * ns
                ckey = (p, nF, width, nb, ns, nm, nmiss, k0 - 1, based, nmk)
                alpha = (best_s if best_s > floor else floor) - gs
                sub = memo.get(ckey, memo)
                if sub is memo or (type(sub) is int and sub > alpha):
                    sub = expand(ckey, lm, alpha)
                elif type(sub) is int:
                    continue
                if sub is None:
                    continue
                cand = (gs + sub[0], gm + sub[1], sub[2] - u, (lvl, sub[3]))
                if result is None or cand > result:
                    result = cand
                    best_s = cand[0]
    # `expand` refers to itself through its closure: drop that reference so that the search's
    # tables are freed at once rather than left to the cyclic garbage collector.
    expand = None
    if result is None:
        return None
    levels = []
    chain = result[3]
    while chain:
        levels.append(chain[0])
        chain = chain[1]
    return tuple(levels), result[1]


def _solution(
    found: tuple[tuple[tuple[int, ...], ...], int] | None,
    ranks: Mapping[str, int],
    rules: TowerRules,
) -> Solution | None:
    """The Solution of a `_query` answer: check's uses, and the festival score (C-9.3) from
    the search's count of castellers numbered in the sizes."""
    if found is None:
        return None
    levels, matches = found
    result = check(levels, ranks, rules)
    if not result.legal or result.uses is None:
        raise AssertionError(f"solver built an illegal tower {levels!r}: {result.reason}")
    score = rules.score_per_level * len(levels) + rules.score_per_match * matches
    return Solution(levels, score, dict(result.uses))


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
    sizes_t = tuple(sorted(set(sizes))) if sizes else ()
    if needs is None:
        mask = 0
    else:
        mask = _need_mask(needs, rules, tb)
        if mask is None:
            return None
    w_level, w_match = (1, 0) if tallest else (rules.score_per_level, rules.score_per_match)
    rank_t = tuple(map(ranks.get, tb.skills, tb.zeros))
    if rank_t and min(rank_t) < 0:
        rank_t = tuple(r if r > 0 else 0 for r in rank_t)
    found = _query(
        _counts(team, tb.index),
        rank_t,
        rules,
        sizes_t,
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
