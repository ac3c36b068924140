"""The tower solver's per-team steps, in one source that runs as plain Python or compiled.

A query (`solver._query`) is set up in `solver.py` (per rules, per ranks and question); what
depends on the team is here: the prefilter (`Searcher.impossible`), the team's facts
(`Searcher.prepare`) and the branch and bound (`Searcher.best_from_bottom`, `Searcher.expand`),
and the team's counts (`team_counts`). Why each bound holds, and the tie-break, are said once,
in `solver.py`'s docstring.

One source, two builds (Cython's pure-Python mode): this file is plain Python, and
`tower_search.pxd` beside it gives its C types (``long long`` integers, arrays, inline
steps). `setup.py` compiles it into the extension `castell_game.tower_search` when Cython and a
C compiler are there; the import system then prefers the extension to this file. `solver.py`
uses the compiled module when it is built and loads this file as plain Python otherwise (and
for `use_search_backend("python")`, so the tests compare the two builds of one source).
`COMPILED` says which build a module object is.

Integers are C ``long long`` when compiled: every count, rank, weight and limit of a query
must lie within `LIMIT` (2**30) so that no bound can overflow (scores stay below 2**62), and
positions fit a 64-bit mask (at most `MAXK`, 63, numbers); the search recurses once per level,
so a team that could stack more than `MAX_LEVELS` (200) levels is refused too. A query beyond
these ranges raises `Unsupported` in both builds, and `solver.py` answers it with the plain
Python build, whose integers have no range. Python sequences read here (pattern tables, the
shape, Balance uses per level) keep Python's bounds checks.

Search results are tuples ``(score, matches, -uses, chain)``, chain ``(level, rest)`` or ``()``;
memo entries are exact results or an int bound ("no completion scores that much").
"""

from __future__ import annotations

#: Which build this module object is: the compiled extension or this file run as Python.
COMPILED = not __file__.endswith((".py", ".pyc"))

#: The largest count, rank, weight or limit a query may hold (see the module docstring).
LIMIT = 1 << 30
#: Positions (numbers) at most: one bit each in a 64-bit mask.
MAXK = 63
#: Levels a team may stack at most: the search recurses once per level, on the C stack when
#: compiled, which a thread may have small.
MAX_LEVELS = 200

#: One bit per relaxation, Balance, Strength, Mix, Width, Base: a set of them is a mask (the
#: exhibition skills a tower still has to use). `solver.py` reads them from here.
SKILL_BITS = (1, 2, 4, 8, 16)
_BALANCE_BIT, _STRENGTH_BIT, _MIX_BIT, _WIDTH_BIT, _BASE_BIT = SKILL_BITS
_NEG = -(1 << 60)
# The empty completion: the tower stops here.
_ZERO = (0, 0, 0, ())


class Unsupported(ValueError):
    """The setup or team does not fit the integer ranges of the module docstring."""


def _small(x):
    """`x` as an integer; when compiled, within +-LIMIT, else `Unsupported` (its C range)."""
    if COMPILED and (x > LIMIT or x < -LIMIT):
        raise Unsupported(x)
    return x


def _zeros(n):
    """A list of `n` zeros (when compiled, copied into a C array of that length)."""
    return [0] * n


def _bit_length(x):
    """`int.bit_length` of a mask of at most 63 bits, as a loop both builds run fast."""
    n = 0
    while x:
        x >>= 1
        n += 1
    return n


def _popcount(x):
    """The set bits of a small mask (the exhibition skills in it)."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def _most_levels(castellers, balance):
    """The most levels `castellers` castellers can stack with at most `balance` Balance uses.

    Safe bound (C-5.4, C-6.2): going down from the top, widths never shrink and stay equal
    only with a Balance use, and every level holds at least one casteller. So m levels with at
    most b equal neighbours hold at least b + 1 + 2 + ... + (m - b) = b + T(m - b) castellers
    (the b equalities among the width-1 levels on top; T the triangular numbers), and m
    castellers when m <= b + 1. Base, Mix, Strength and Width change which numbers and how
    wide, not this count. The largest r with T(r) <= x is (isqrt(8x + 1) - 1) // 2, from a
    table for the teams a game has.
    """
    if castellers <= balance:
        return castellers
    x = castellers - balance
    if x < _TRI_ROOTS:
        return balance + _TRI_ROOT[x]
    return balance + (_isqrt(8 * x + 1) - 1) // 2


def _isqrt(x):
    """`math.isqrt` of x >= 0, by Newton's method on integers (both builds, any size)."""
    r = x
    y = (r + 1) // 2
    while y < r:
        r = y
        y = (r + x // r) // 2
    return r


def _tri_roots(n):
    """The largest r with r(r + 1) / 2 <= x, for x below `n` (a table of `_most_levels`)."""
    return [(_isqrt(8 * x + 1) - 1) // 2 for x in range(n)]


#: `_tri_roots` of the teams a game has (a C array when compiled).
_TRI_ROOTS = 512
_TRI_ROOT = _tri_roots(_TRI_ROOTS)


def _fewest_uses(need, balance_floor, levels, width, numbers_below):
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
    return balance + strength + (need >> 2 & 1) + (need >> 3 & 1)  # Mix, Width


def _better(first, rs, rm, ru, rchain, gs, gm, u, level, sub):
    """The result of a level (score `gs`, matches `gm`, `u` uses) under the completion `sub`,
    when it is the `first` or beats the best so far (`rs`, `rm`, `ru`, `rchain`); else None
    (no tuple is built for a loser), and None when `sub` is (no completion above it)."""
    if sub is None:
        return None
    cs, cm, cu = sub[0], sub[1], sub[2]
    cs += gs
    cm += gm
    cu -= u
    chain = (level, sub[3])
    if first or _beats(cs, cm, cu, chain, rs, rm, ru, rchain):
        return (cs, cm, cu, chain)
    return None


def _beats(s, m, u, chain, rs, rm, ru, rchain):
    """``(s, m, u, chain) > (rs, rm, ru, rchain)``, as Python compares the result tuples,
    without building the first one (tie-break order: score, matches, -uses, levels)."""
    if s != rs:
        return s > rs
    if m != rm:
        return m > rm
    if u != ru:
        return u > ru
    return chain > rchain


def _cannot_win_tie(
    first, ub, rs, rm, ru, rchain, matches, level, uses, need, balance_floor, levels, width, below
):
    """Can an option whose score is at most `ub` not beat the best so far (score `rs`, matches
    `rm`, -uses `ru` and chain; none when `first`)? Asked of an option that can at best tie it
    on score and on matches (tie-break 1, 2), so that its bounds are lookups.

    Its most `matches` (tie-break 2), its fewest uses: `uses` already charged plus
    `_fewest_uses` of the `levels` above it a tie takes (3), then its level against the best's
    bottom-most differing level, `level` being compared with the best's level at this height (4).
    """
    if first or ub != rs or matches > rm:
        return False
    if matches != rm:
        return matches < rm
    fewest = uses + _fewest_uses(need, balance_floor, levels, width, below)
    if fewest != -ru:
        return fewest > -ru
    return bool(rchain) and level < rchain[0]


class Searcher:
    """The answer of one setup's queries (`solver._Setup`), called with a team's counts and
    the festival sizes: the best result tuple, or None. Not shared between threads at once
    (the solver's pool hands each query its own)."""

    def __init__(self, su, patterns, window_tables, no_patterns, cache_max):
        """The search of setup `su`; `patterns` and `window_tables` are `solver._patterns` and
        `solver._window_tables`, which build a pattern table the cache (`su.cache`, emptied
        past `cache_max` entries) does not hold yet, `no_patterns` the table of a number the
        team does not hold (`solver._NO_PATTERNS`)."""
        tb = su.tb
        K = len(tb.vals)
        if COMPILED and K > MAXK:
            raise Unsupported(K)
        self.K = K
        self.su, self.tb = su, tb
        self.patterns, self.window_tables, self.cache_max = patterns, window_tables, cache_max
        self.no_patterns = no_patterns
        self.shape = su.shape
        self.eq_after = su.eq_after
        self.tri = tuple(su.tri)
        self.exact = su.exact
        self.n_levels = _small(su.n_levels)
        self.w_level = _small(su.w_level)
        self.w_match = _small(su.w_match)
        self.wmax = _small(su.wmax)
        self.k0 = _small(su.k0)
        self.need_mask = _small(su.need_mask)
        self.balance_rank = _small(su.balance)
        self.base_rank = _small(su.base)
        self.mix_rank = _small(su.mix)
        self.strength_rank = _small(su.strength)
        self.maxwin = _small(su.maxwin)
        self.cast_gate = _small(su.cast_gate)
        self.limit = _small(tb.limit)
        self.step = _small(tb.step)
        if self.step < 1:
            raise Unsupported(tb.step)
        self.spread = tb.spread if self.mix_rank >= 1 else 0
        self.by_width = 0 if su.shape is None else 2
        self.shape_sum = 0
        if su.shape is not None:
            for c in su.shape:
                self.shape_sum += _small(c)
        for x in su.eq_after:
            _small(x)
        for x in self.tri:
            _small(x)
        # Fixed-size arrays (C arrays of MAXK (+ 1) when compiled, filled from the lists; as
        # long as the positions need in plain Python): the setup's, the team's facts, scratch.
        size = K if K > MAXK else MAXK
        self.vals, self.win = _zeros(size), _zeros(size)
        self.reach_mix, self.reach_plain = _zeros(size), _zeros(size)
        self.lo_mix, self.lo_plain = _zeros(size + 1), _zeros(size + 1)
        self.reach_lo = _zeros(size + 1)
        self.counts, self.pres, self.match = _zeros(size), _zeros(size), _zeros(size)
        self.match_upto, self.mpos_upto = _zeros(size), _zeros(size)
        self.dist_below, self.cast_below = _zeros(size + 1), _zeros(size + 1)
        self.match_below, self.mpos_below = _zeros(size + 1), _zeros(size + 1)
        self.ascending, self.by_count = _zeros(size), _zeros(size)
        self.order_ub, self.order_p = _zeros(size), _zeros(size)
        for p in range(K):
            self.vals[p] = _small(tb.vals[p])
            self.reach_mix[p] = su.reach[p]
            self.reach_plain[p] = tb.one[p]
            self.win[p] = tb.win[p]
        for p in range(K + 1):
            self.lo_mix[p] = tb.lo_mix[p]
            self.lo_plain[p] = tb.lo_plain[p]
            self.reach_lo[p] = su.reach_lo[p]
        self.plain_t = self.mixed_t = None
        self.req_mask = self.n_sizes = self.d = self.lo_req = 0
        self.sized = self.scarce = False
        self.memo = {}

    def __call__(self, counts, size_bits):
        """One query of team `counts` (by position) and festival sizes `size_bits` (a bit per
        position, -1 for a size that is no number): the prefilter, the team's facts and the
        search; the best result or None."""
        K = self.K
        if len(counts) != K:
            raise Unsupported(len(counts))
        total = self.load_counts(counts)
        if COMPILED and (total > LIMIT or _most_levels(total, self.balance_rank) > MAX_LEVELS):
            raise Unsupported(total)
        if size_bits < 0:
            return None  # a size that is no casteller number (`solver._size_bits`)
        if size_bits >> K:
            raise Unsupported(size_bits)  # not a set of this rule set's positions
        req_mask = size_bits
        if self.lacks_size(req_mask) or self.impossible(req_mask, total):
            return None
        self.prepare(counts, req_mask)
        try:
            return self.best_from_bottom()
        finally:
            self.memo.clear()
            self.plain_t = self.mixed_t = None

    def load_counts(self, counts):
        """The team's counts into `self.counts` (when compiled, each within the C range):
        their total."""
        total = 0
        for p in range(self.K):
            self.counts[p] = _small(counts[p])
            total += self.counts[p]
        return total

    # --- The prefilter: cheap necessary conditions, before any table is built -----------------

    def lacks_size(self, req_mask):
        """Does the team lack a festival size? (C-9.2: the tower must hold one of each.)"""
        rest = req_mask
        while rest:
            if not self.counts[_bit_length(rest & (~rest + 1)) - 1]:
                return True
            rest &= rest - 1
        return False

    def shape_unfillable(self, total):
        """Can the team not fill the shape (C-8.3)? It needs as many castellers, and the i-th
        widest level needs the i-th largest count, give or take a Mix level or a second level
        on one number (Strength)."""
        shape = self.shape
        if self.shape_sum > total:
            return True
        K = self.K
        slack = self.mix_rank + self.strength_rank
        by_count = self.by_count
        for i in range(K):  # sorted(counts, reverse=True), by insertion
            c = self.counts[i]
            j = i
            while j and by_count[j - 1] < c:
                by_count[j] = by_count[j - 1]
                j -= 1
            by_count[j] = c
        for i in range(slack, len(shape)):
            if i - slack >= K or by_count[i - slack] < shape[i]:
                return True
        return False

    def widest_level(self):
        """The widest level the team can form (one Mix window's castellers), and how many
        numbers it holds."""
        K, maxwin = self.K, self.maxwin
        held = widest = prev = 0
        if maxwin == 1:
            for p in range(K):
                c = self.counts[p]
                if c:
                    held += 1
                    if c > widest:
                        widest = c
        elif maxwin == 2:
            for p in range(K):
                c = self.counts[p]
                if c:
                    held += 1
                    if prev + c > widest:
                        widest = prev + c
                prev = c
        else:
            for p in range(K):
                if self.counts[p]:
                    held += 1
                w = 0
                top = p + maxwin if p + maxwin < K else K
                for j in range(p, top):
                    w += self.counts[j]
                if w > widest:
                    widest = w
        return widest, held

    def impossible(self, req_mask, total):
        """Does a cheap necessary condition rule out every tower of `k0` levels (C-5, C-6.3a)?

        Most impossible game queries stop here, before any pattern table is built. The team's
        castellers stack at most `_most_levels` levels; levels narrow except with Balance, from
        at most the widest level the team can form (a Base bottom wider than the limit adds
        one); each level's smallest number is new except with Strength; the level of the
        highest festival number bounds the levels from it up the same way (at most as wide as
        the castellers within a Mix window of that number, below it as many levels as numbers
        held above it, except with Strength); a shape must fit the counts.
        """
        K, k0, wmax = self.K, self.k0, self.wmax
        if self.shape is not None and self.shape_unfillable(total):
            return True
        widest, held = self.widest_level()
        if k0 > _most_levels(total, self.balance_rank):
            return True
        has_base = self.base_rank >= 1
        extra = 1 if has_base and widest > self.limit else 0
        if k0 > (widest if widest < wmax else wmax) + self.balance_rank + extra:
            return True
        if k0 > held + self.strength_rank:
            return True
        if req_mask:
            maxwin = self.maxwin
            hi = _bit_length(req_mask) - 1
            lo = hi - maxwin + 1 if hi >= maxwin else 0
            w = 0
            top = hi + maxwin if hi + maxwin < K else K
            for j in range(lo, top):
                w += self.counts[j]
            cap = wmax + 1 if has_base else wmax
            up = (w if w < cap else cap) + self.balance_rank
            for j in range(hi + 1, K):
                if self.counts[j]:
                    up += 1
            if k0 > up + self.strength_rank:
                return True
        return False

    # --- The team's facts: built once, so that the search's bounds are lookups ---------------

    def prepare(self, counts, req_mask):
        """The team's facts the search reads, built once so that its bounds are lookups:
        positions held (`pres`, highest first), castellers and matches below each position,
        the pattern tables, the lowest position a bottom may start on. Plain loops over the
        positions: a small query that comes cold pays for each distinct step it takes
        (`benchmarks/solver_counts.py`)."""
        self.req_mask = req_mask
        self.n_sizes = _popcount(req_mask)
        held = self.count_positions()
        self.match_positions(req_mask)
        self.pattern_tables(counts, req_mask, held)
        for i in range(held):  # highest first: pres[d - dist_below[p + 1]:] are those <= p
            self.pres[i] = self.ascending[held - 1 - i]
        # The lowest position a bottom level may start on: every level above it holds numbers
        # no larger than its smallest, so its window must reach the highest required number.
        self.lo_req = self.reach_lo[_bit_length(req_mask)]
        self.sized = req_mask != 0
        return 0

    def count_positions(self):
        """The positions holding castellers (`ascending`), how many are below each one
        (`dist_below`), and, for a team small for its ranks (`scarce`, see
        `solver._Setup.cast_gate`), the castellers below each one; returns how many held."""
        K = self.K
        held = total = 0
        self.dist_below[0] = 0
        for p in range(K):
            c = self.counts[p]
            if c:
                self.ascending[held] = p
                held += 1
                total += c
            self.dist_below[p + 1] = held
        self.d = held
        self.scarce = total < self.cast_gate
        if self.scarce:
            self.cast_below[0] = 0
            total = 0
            for p in range(K):
                total += self.counts[p]
                self.cast_below[p + 1] = total
        return held

    def match_positions(self, req_mask):
        """The festival facts per position: matching castellers and festival positions below
        it (`match_below`, `mpos_below`) and up to its Mix window (`match_upto`, `mpos_upto`)."""
        K, spread = self.K, self.spread
        m = 0
        self.match_below[0] = self.mpos_below[0] = 0
        for p in range(K):
            self.match[p] = (req_mask >> p) & 1
            self.mpos_below[p + 1] = self.mpos_below[p] + self.match[p]
            if self.match[p]:
                m += self.counts[p]
            self.match_below[p + 1] = m
        mp = self.mpos_below[K]
        for p in range(K):
            if p + 1 + spread <= K:
                self.match_upto[p] = self.match_below[p + 1 + spread]
                self.mpos_upto[p] = self.mpos_below[p + 1 + spread]
            else:
                self.match_upto[p] = m
                self.mpos_upto[p] = mp

    def pattern_tables(self, counts, req_mask, held):
        """Each held position's tables of single-number levels (`plain_t`) and of every
        level, Mix levels too (`mixed_t`; the same without a Mix rank), from the cache per
        rules and weights, keyed by the counts they read (teams of one game share most of
        them; one lookup per position: a Mix window's entry holds both of its tables). A state
        with no Mix use left, or a level of the number the level below left over (Strength),
        only needs the first."""
        K = self.K
        cache = self.su.cache
        if len(cache) > self.cache_max:
            cache.clear()
        plain_t = [self.no_patterns] * K
        if self.mix_rank < 1:
            for i in range(held):
                p = self.ascending[i]
                plain_t[p] = self.plain_table(cache, p)
            self.plain_t = self.mixed_t = plain_t
            return 0
        mixed_t = [self.no_patterns] * K
        for i in range(held):
            p = self.ascending[i]
            L = self.win[p]
            wkey = ()
            if L == 2:
                if self.counts[p + 1]:
                    wkey = (p, self.counts[p], self.counts[p + 1], (req_mask >> p) & 3)
            elif L > 2 and self.window_held(p + 1, p + L):
                wkey = (p, counts[p : p + L], (req_mask >> p) & ((1 << L) - 1))
            if wkey:
                pair = cache.get(wkey)
                if pair is None:
                    pair = cache[wkey] = self.window_tables(self.tb, self.su, p, counts, req_mask)
                plain_t[p], mixed_t[p] = pair
            else:
                plain_t[p] = mixed_t[p] = self.plain_table(cache, p)
        self.plain_t, self.mixed_t = plain_t, mixed_t
        return 0

    def plain_table(self, cache, p):
        """The single-number pattern table of position `p` (cached as in `solver`)."""
        c = self.counts[p]
        key = (c * self.K + p) * 2 + self.match[p]
        table = cache.get(key)
        if table is None:
            table = cache[key] = self.patterns(
                self.tb, p, (c,), self.match[p], self.w_level, self.w_match
            )
        return table

    def window_held(self, lo, hi):
        """Does a position in ``lo..hi - 1`` hold castellers (``any(counts[lo:hi])``)? A loop,
        which compiles to C, where `any` of a generator would not."""
        for p in range(lo, hi):  # noqa: SIM110
            if self.counts[p]:
                return True
        return False

    def need_w(self, n):
        """The Width uses of a level `n` wide (C-6.3: one per `step` beyond the limit)."""
        return 0 if n <= self.limit else (n - self.limit + self.step - 1) // self.step

    # --- The search: a state's best completion ------------------------------------------------

    def expand(
        self,
        lpos,
        free,
        width,
        balance_left,
        strength_left,
        mix_left,
        miss,
        k,
        above_base,
        need,
        lmax,
        alpha,
    ):
        """The best completion above a level, in the state of its arguments: the position of
        the level's smallest number, castellers of that number still free, the level's width,
        Balance / Strength / Mix uses left, required numbers still missing (a bit per
        position), levels still needed, above a Base bottom?, exhibition skills still needed;
        `lmax` is the levels still possible (>= the levels needed), `alpha` the score to beat.

        Returns a result, exact whenever its score >= `alpha`; None when no completion
        reaches `alpha` (or none exists). States are memoised. The state is normalised first:
        budgets beyond the `lmax` levels still possible never bind, and each level touching
        number `lpos` takes a Strength use and at most `width` castellers. Then the positions
        from the highest (`positions_from`), each bounded (`position_bound`) before its
        options (`options_on`) are bounded (`option_bound`), charged (`charge`) and searched
        above.
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
        memo = self.memo
        sub = memo.get(key, memo)
        if sub is not memo:
            if sub is None:
                return None  # no completion at all
            if type(sub) is int:
                bound = sub
                if bound <= alpha:
                    return None  # nothing here reaches `sub`, so nothing reaches alpha
            else:
                return sub
        rs = rm = ru = 0  # the best result's score, matches, -uses (when not None)
        rchain = ()
        if miss or need or k or (above_base and width <= self.limit):
            result = None
            thr = alpha  # the score to beat
        else:
            result = _ZERO  # the tower may stop here
            thr = alpha if alpha > 0 else 0
        exact = self.exact
        if exact and not k:
            memo[key] = result
            return result
        cap = self.level_cap(width, balance_left, above_base)
        shape = self.shape
        if shape is not None:
            c = shape[self.n_levels - k]  # the shape's width for this level
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
            tables = self.mixed_t
            reach = self.reach_mix
        else:
            tables = self.plain_t
            reach = self.reach_plain
        least = -1  # fewest uses of any completion here, computed when first needed
        top_only = lmax == 1  # at most one more level: each option is the top level
        sized = self.sized
        w_level, w_match = self.w_level, self.w_match
        start, last = self.positions_from(lpos, free, nk, strength_left, miss, mix_left)
        for i in range(start, last):
            p = self.pres[i]
            dl = self.dist_below[p]
            lv, lvc, mt = self.position_bound(p, lpos, free, cap, lv0, strength_left, balance_left)
            ub = w_level * (1 + lv) + w_match * mt
            if ub < thr:
                break
            if result is not None and ub <= rs and mt <= rm and rchain:
                best_top = rchain[0][0]  # the largest number of the best's level here
                if best_top > self.vals[p + reach[p] - 1]:
                    # Every option from here down can at most tie the best on score and
                    # matches, and its level is lexicographically smaller (its largest number
                    # is): it wins only with fewer uses than the fewest any completion needs.
                    if least < 0:
                        least = _fewest_uses(
                            need, 0, k, cap + 1 if above_base else width, self.dist_below[lpos]
                        )
                    if -ru <= least:
                        break
            seq = self.options_on(p, lpos, free, c, tables, reach[p], mix_left)
            cnt = free if p == lpos else self.counts[p]
            plain = tables[p][4] if p != lpos else self.plain_t[p][4]
            used = 0  # dominance run of the last usable mixed level
            for opt in seq:
                n = opt[0]
                top = opt[1]
                topc = opt[2]
                # A level of number lpos needs Strength, and only the free ones are left.
                if top < lpos:
                    ns = strength_left
                elif top > lpos or topc > free:
                    continue
                else:
                    ns = strength_left - 1
                group = opt[9]
                if group:
                    if group == used:
                        continue  # the rest of its dominance run cannot do better
                    used = group
                nb = balance_left - 1 if n == width else balance_left  # as wide: Balance
                if n + nb <= nk:
                    break  # too narrow for the levels still needed (and so are the rest)
                c0 = opt[3]
                gs = opt[4]
                bits = opt[7]
                nmiss = miss & ~bits
                lv = lm = ubs = 0
                if not top_only:
                    if nmiss >> p:
                        continue  # a required number above this level is still missing
                    lm, lv = self.option_levels(n, nb, ns, dl, lvc, nk)
                    if lv < 0:
                        continue  # too few smaller numbers or castellers left above it
                    mt = self.option_matches(p, n, nb, ns, lv, cnt - c0) if sized else 0
                    ubs = gs + w_level * lv + w_match * mt
                    if ubs < thr:
                        if plain:
                            break  # the bound never grows along a plain list
                        continue
                u, nmk = self.charge(
                    n, opt[6], ns, nb, width, strength_left, balance_left, above_base, need
                )
                if u < 0:
                    continue  # this level cannot be charged on this state (C-6.3a)
                gm = opt[5]
                lvl = opt[8]
                if top_only:
                    # Nothing fits above this level: it completes the tower or nothing.
                    if nmiss or nmk:
                        continue
                    sub = _ZERO
                elif ubs == rs and _cannot_win_tie(  # (only a tie on score can lose; no call else)
                    result is None, ubs, rs, rm, ru, rchain, gm + mt, lvl, u, nmk,
                    self.eq_after[k], lv if w_level else 0, n, dl,
                ):  # fmt: skip
                    continue
                elif not lm:
                    # No level fits above: the tower stops here, if that meets the query.
                    if nmiss or nmk or nk:
                        continue
                    sub = _ZERO
                else:
                    nm = mix_left - 1 if opt[6] else mix_left
                    sub = self.expand(p, cnt - c0, n, nb, ns, nm, nmiss, nk, 0, nmk, lm, thr - gs)
                better = _better(result is None, rs, rm, ru, rchain, gs, gm, u, lvl, sub)
                if better is not None:
                    result = better
                    rs, rm, ru, rchain = better
                    if rs > thr:
                        thr = rs
        if result is None or rs < alpha:
            memo[key] = alpha
            return None
        memo[key] = result
        return result

    def level_cap(self, width, balance_left, above_base):
        """The widest level above one `width` wide: as wide only with Balance (C-6.2); above
        a Base bottom, within the Width limit and narrower than the bottom (C-6.3)."""
        if above_base:
            return width - 1 if width <= self.wmax else self.wmax
        return width if balance_left else width - 1

    def positions_from(self, lpos, free, nk, strength_left, miss, mix_left):
        """The range of `pres` indices to try, from the highest position: lpos itself only
        with Strength, from the castellers the level below left free; none so low that fewer
        numbers are left below than the levels still needed need, or that a missing required
        number is out of reach."""
        d = self.d
        first = lpos if free else lpos - 1
        last = d - (nk - strength_left) if nk > strength_left else d
        if miss:
            # Two statements, not a conditional expression: compiled, the arrays stay C arrays.
            if mix_left:  # noqa: SIM108
                lo = self.lo_mix[_bit_length(miss)]
            else:
                lo = self.lo_plain[_bit_length(miss)]
            if d - self.dist_below[lo] < last:
                last = d - self.dist_below[lo]
        start = d - self.dist_below[first + 1]
        if last < 0:  # as Python slices ``pres[start:last]`` (not reached: see solver.py)
            last = d + last if d + last > 0 else 0
        return start, last

    def position_bound(self, p, lpos, free, cap, lv0, strength_left, balance_left):
        """What any option from position `p` down can reach: (levels, levels the castellers
        allow, matches). One level + what widths, numbers left and (for a scarce team)
        castellers allow (`_most_levels` of those below p, and with Strength those of p the
        option leaves); matches up to p's window, at most `cap` a level and one level per
        festival number except with Strength. Each shrinks from p down."""
        lv = self.dist_below[p] + strength_left
        if lv > lv0:
            lv = lv0
        lvc = 0
        if self.scarce:
            a = self.cast_below[p]
            if strength_left:
                a += (free if p == lpos else self.counts[p]) - 1
            lvc = _most_levels(a, balance_left)
            if lv > lvc:
                lv = lvc
        mt = 0
        if self.sized:
            mt = self.match_upto[p]
            if mt > cap * (self.mpos_upto[p] + strength_left):
                mt = cap * (self.mpos_upto[p] + strength_left)
        return lv, lvc, mt

    def options_on(self, p, lpos, free, c, tables, reach_p, mix_left):
        """The levels to try on position `p`, at most `c` wide (exactly `c` for a shape). On
        lpos, single-number levels of its free castellers; with a Mix use left, only a level
        reaching lpos can be unusable, so below that only the first of a dominance run is
        needed. A table lists by cap (0: every pattern, 1: the dominance heads), then by exact
        width (2, 3), see `solver._patterns`."""
        if p == lpos:
            table = self.plain_t[p]
            if self.shape is None:
                return table[0][c if c < free else free]
            return table[2][c] if c <= free else ()
        seqs = tables[p][self.by_width + (0 if mix_left and p + reach_p > lpos else 1)]
        if c < len(seqs):
            return seqs[c]
        return () if self.by_width else seqs[len(seqs) - 1]  # c is wider than any level on p

    def option_levels(self, n, nb, ns, dl, lvc, nk):
        """The levels above an option `n` wide, at most: (by widths and numbers, also by
        castellers and the exact height); the second -1 when fewer than the `nk` still needed
        fit (too few smaller numbers, or castellers, left)."""
        lv = n - 1 + nb
        if lv > dl + ns:
            lv = dl + ns
            if nk > lv:
                return lv, -1
        lm = lv
        if self.scarce and lv > lvc:
            lv = lvc
            if nk > lv:
                return lm, -1
        if self.exact and lv > nk:
            lv = nk
        return lm, lv

    def option_matches(self, p, n, nb, ns, lv, left):
        """The matches an option on `p`, `n` wide, can have above it: the matching castellers
        left (`left` of p's), at most `n` per level and one level per festival number except
        with Strength, at most what `lv` levels hold (narrowing by one except with Balance)."""
        mt = self.match_below[p] + left * self.match[p]
        if mt > n * (self.mpos_below[p] + ns):
            mt = n * (self.mpos_below[p] + ns)
        hold = n * lv - self.tri[lv - nb if lv > nb else 0]
        if mt > hold:
            mt = hold
        return mt

    def charge(self, n, mixed, ns, nb, width, strength_left, balance_left, above_base, need):
        """Charge the relaxations a level `n` wide needs on this state (C-6.3a): (uses,
        exhibition skills still needed), uses -1 when it cannot be charged (above a Base bottom,
        the bottom would not really be a Base level, or Width is needed and only this level
        could use it)."""
        u = 0
        nmk = need
        if ns != strength_left:
            u = 1
            nmk &= ~_STRENGTH_BIT
        if nb != balance_left:
            u += 1
            nmk &= ~_BALANCE_BIT
        if mixed:
            u += 1
            nmk &= ~_MIX_BIT
        if above_base:
            w1 = self.need_w(n)
            if width <= self.limit + w1 * self.step:
                return -1, nmk
            if w1:
                u += w1
                nmk &= ~_WIDTH_BIT
            elif nmk & _WIDTH_BIT:
                return -1, nmk
        return u, nmk

    # --- The search's root: every bottom level ------------------------------------------------

    def best_from_bottom(self):
        """The root: every bottom level, as a plain level (Width uses fit it) or as a Base level.

        Every tower that meets the query scores at least `floor` (its levels, one casteller of
        each festival size), so searches never look below it. Positions come best-first from
        `bottom_positions`, and on a position the widest bottoms first (`bottom_bound`,
        `charge_bottom`), so that a good tower prunes the rest early.
        """
        k0, w_level = self.k0, self.w_level
        balance_rank, strength_rank, wmax = self.balance_rank, self.strength_rank, self.wmax
        floor = w_level * k0 + self.w_match * self.n_sizes
        shape = self.shape
        target0 = shape[0] if shape is not None else 0
        kcap = k0 - 1 if self.exact else self.K + strength_rank
        base_min = self.limit + 1 if self.base_rank else (1 << 30)
        n_bases = 2 if self.base_rank else 1
        n_order, least = self.bottom_positions(floor, target0, kcap)
        result = None
        rs = rm = ru = 0
        rchain = ()
        best_s = _NEG
        for i in range(n_order):
            pub = self.order_ub[i]
            p = self.order_p[i]
            if pub < best_s or (result is not None and -ru <= least):
                break
            table = self.mixed_t[p]
            if not target0:
                heads = table[1]
                heads = heads[len(heads) - 1]  # every bottom, widest first
            else:
                heads = table[3][target0] if target0 < len(table[3]) else ()
            for opt in heads:
                n = opt[0]
                if n + balance_rank < k0:
                    break  # too narrow for the levels needed above it (and so are the rest)
                c0 = opt[3]
                gs = opt[4]
                gm = opt[5]
                mixed = opt[6]
                bits = opt[7]
                lvl = opt[8]
                for based in range(n_bases):
                    if based:
                        if n < base_min:
                            break
                        width = n if n <= wmax else wmax + 1
                    else:
                        if n > wmax:
                            continue
                        width = n
                    lm = width - 1 + balance_rank  # levels above it, at most
                    if lm > self.dist_below[p] + strength_rank:
                        lm = self.dist_below[p] + strength_rank
                    if k0 - 1 > lm:
                        continue  # too few levels possible above it
                    lv, mt = self.bottom_bound(p, width, lm, kcap, c0)
                    if lv < 0:
                        continue  # too few castellers for the levels needed above it
                    ub = gs + w_level * lv + self.w_match * mt
                    if ub < best_s or ub < floor:
                        continue
                    u, nmk = self.charge_bottom(n, mixed, based)
                    if u < 0:
                        continue  # Base needs a Base bottom; Width is fixed by this level
                    if _cannot_win_tie(
                        result is None, ub, best_s, rm, ru, rchain, gm + mt, lvl, u, nmk,
                        self.eq_after[k0], lv if w_level else 0, width, self.dist_below[p],
                    ):  # fmt: skip
                        continue
                    nmiss = self.req_mask & ~bits
                    if nmiss >> p:
                        continue  # a required number above the bottom is missed
                    sub = self.expand(
                        p,
                        self.counts[p] - c0,
                        width,
                        balance_rank,
                        strength_rank,
                        self.mix_rank - 1 if mixed else self.mix_rank,
                        nmiss,
                        k0 - 1,
                        based,
                        nmk,
                        lm,
                        (best_s if best_s > floor else floor) - gs,
                    )
                    better = _better(result is None, rs, rm, ru, rchain, gs, gm, u, lvl, sub)
                    if better is not None:
                        result = better
                        rs, rm, ru, rchain = better
                        best_s = rs
        return result

    def levels_above_bottom(self, p, left):
        """The most levels the castellers allow above a bottom on p that leaves `left` of
        p's castellers (`_most_levels`: those below p, and with Strength those left)."""
        a = self.cast_below[p] + left if self.strength_rank else self.cast_below[p]
        return _most_levels(a, self.balance_rank)

    def bottom_positions(self, floor, target0, kcap):
        """The positions a bottom level may start on, best first, into `order_p` with an upper
        bound for every bottom there in `order_ub`; returns how many, and the fewest uses any
        answer has when known (-1: not known)."""
        k0, strength_rank, balance_rank = self.k0, self.strength_rank, self.balance_rank
        n_order = 0
        if self.exact and not self.sized:
            # Every tower that meets the query scores `floor`: positions from the highest that
            # leave enough smaller numbers and castellers for the levels above. Without Mix
            # levels these come in descending lexicographic order, so once the best uses no
            # more skills than any tower must (one per exhibition skill, Balance for a shape's
            # equal neighbours) the rest lose.
            for i in range(self.d):
                p = self.pres[i]
                if self.dist_below[p] + strength_rank >= k0 - 1:
                    if self.scarce and self.levels_above_bottom(p, self.counts[p] - 1) < k0 - 1:
                        continue
                    self.order_ub[n_order] = floor
                    self.order_p[n_order] = p
                    n_order += 1
            if self.mix_rank:
                return n_order, -1
            balance = self.need_mask & _BALANCE_BIT
            if self.eq_after[k0] > balance:
                balance = self.eq_after[k0]
            least = _popcount(self.need_mask & ~_BALANCE_BIT) + balance
            return n_order, least
        wmax, limit, w_level, w_match = self.wmax, self.limit, self.w_level, self.w_match
        for i in range(self.d - self.dist_below[self.lo_req]):
            p = self.pres[i]
            w = target0 or len(self.mixed_t[p][2]) - 1  # the widest bottom on p
            if w > wmax and not (self.base_rank and w > limit):
                if target0:
                    continue
                w = wmax
            lv = (w if w <= wmax else wmax + 1) - 1 + balance_rank
            if lv > self.dist_below[p] + strength_rank:
                lv = self.dist_below[p] + strength_rank
            if lv > kcap:
                lv = kcap
            ub = w_level * (1 + lv) + w_match * self.match_upto[p]
            if self.scarce:
                lvc = self.levels_above_bottom(p, self.counts[p] - 1)
                if lvc < lv:
                    tight = w_level * (1 + lvc) + w_match * self.match_upto[p]
                    if tight < floor:
                        continue
                    ub = tight
            if ub < floor:
                continue
            # Insert by descending bound, after the equal ones (higher positions come first):
            # a few positions, so no sort is needed.
            j = n_order
            while j and self.order_ub[j - 1] < ub:
                self.order_ub[j] = self.order_ub[j - 1]
                self.order_p[j] = self.order_p[j - 1]
                j -= 1
            self.order_ub[j] = ub
            self.order_p[j] = p
            n_order += 1
        return n_order, -1

    def bottom_bound(self, p, width, lm, kcap, c0):
        """What the levels above a bottom `width` wide on `p` (taking `c0` of its castellers)
        can reach: (levels, matches), levels -1 when too few castellers are left for the
        levels needed above it (a scarce team)."""
        strength_rank = self.strength_rank
        lv = lm if lm < kcap else kcap
        if self.scarce:
            lvc = self.levels_above_bottom(p, self.counts[p] - c0)
            if lvc < lv:
                if self.k0 - 1 > lvc:
                    return -1, 0
                lv = lvc
        mt = 0
        if self.sized:
            mq = self.match[p]
            mt = self.match_below[p] + (self.counts[p] - c0) * mq
            mlv = self.mpos_below[p] + strength_rank  # levels above that can hold sizes
            if mt > width * (lv if lv < mlv else mlv):
                mt = width * (lv if lv < mlv else mlv)
        return lv, mt

    def charge_bottom(self, n, mixed, based):
        """Charge Mix, and Base or the Width uses a bottom `n` wide needs (C-6.3a): (uses,
        exhibition skills still needed), uses -1 when Base or Width is still needed and this
        plain bottom fixes them unused."""
        u = 1 if mixed else 0
        nmk = self.need_mask & ~_MIX_BIT if mixed else self.need_mask
        if based:
            return u + 1, nmk & ~_BASE_BIT
        w0 = self.need_w(n)
        if w0:
            u += w0
            nmk &= ~_WIDTH_BIT
        if nmk & (_BASE_BIT | _WIDTH_BIT):
            return -1, nmk
        return u, nmk


def team_counts(team, index):
    """The counts of `team` (a list or tuple) by number position (`index`: number ->
    position), as a tuple; None when a casteller is not one of the game's sizes (the solver
    names it in its error, C-5.1).

    One plain loop (a type test and an index per casteller): `True` or ``3.0`` must not count
    as a number although they hash as one.
    """
    counts = [0] * len(index)
    for x in team:
        if type(x) is not int:
            return None
        at = index.get(x)
        if at is None:
            return None
        counts[at] += 1
    return tuple(counts)
