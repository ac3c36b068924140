# cython: language_level=3, cdivision=True
"""The tower solver's per-team steps, compiled: `solver._python_answerer` (the prefilter
`_holds_sizes` and `_impossible`, the team's facts `_prepare` and the search
`_python_searcher`) and `solver._counts`, line for line on C integers.

Optional (`setup.py` builds it when Cython and a C compiler are there); `solver.py` falls back
to its own steps when this module is missing, when ``CASTELL_SOLVER=python``, or when a query
does not fit the ranges below (`Unsupported`). Why each bound holds, and the tie-break, are
said once, in `solver.py`: this file keeps the same names, the same order of steps and the
same results (tuples ``(score, matches, -uses, chain)``, memo entries exact results or an int
bound, pattern tables built by `solver._patterns` and cached under the same keys), so that
every answer is the Python one's. `tests/castell/test_compiled_search.py` compares the two.
What is left in Python around it is per query and shared: the setup, the query memo, and the
re-check of every answer by `towers.legal_accountings`.

Integers are C ``long long``: every count, rank, weight and limit of a query must lie within
``LIMIT`` (2**30), so that no bound can overflow (scores stay below 2**62), and positions fit a
64-bit mask (at most ``MAXK``, 63, numbers); the search recurses once per level, so a team
that could stack more than ``MAX_LEVELS`` (200) levels goes to the Python search. Python
sequences read here (pattern tables, the shape, Balance uses per level) keep Python's bounds
checks.
"""

from libc.stdint cimport uint64_t
from cpython.object cimport PyObject_RichCompareBool, Py_GT, Py_LT
from libc.math cimport sqrt

ctypedef long long ll

cdef enum:
    MAXK = 63  # positions (numbers) at most: one bit each in a uint64_t
    # Levels a team may stack at most (`_most_levels`): the search recurses once per level on
    # the C stack, which a thread may have small; taller teams go to the Python search.
    MAX_LEVELS = 200

#: The largest count, rank, weight or limit this module takes (see the module docstring).
LIMIT = 1 << 30

cdef ll _BALANCE_BIT = 1
cdef ll _STRENGTH_BIT = 2
cdef ll _MIX_BIT = 4
cdef ll _WIDTH_BIT = 8
cdef ll _BASE_BIT = 16
cdef ll _NEG = -(1 << 60)
cdef tuple _ZERO = (0, 0, 0, ())


class Unsupported(ValueError):
    """The setup or team does not fit this module's integer ranges: use the Python search."""


cdef extern from *:
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil


cdef inline int _bit_length(uint64_t x) noexcept:
    return 0 if x == 0 else 64 - __builtin_clzll(x)



cdef inline ll _small(object x) except? -1:
    """A Python int within +-LIMIT as a C integer."""
    cdef ll v
    try:
        v = x
    except OverflowError:
        raise Unsupported(x) from None
    if v > LIMIT or v < -LIMIT:
        raise Unsupported(x)
    return v


cdef inline ll _isqrt(ll n) noexcept:
    """The integer square root of 0 <= n < 2**62 (`math.isqrt`)."""
    cdef ll r = <ll>sqrt(<double>n)
    while r * r > n:
        r -= 1
    while (r + 1) * (r + 1) <= n:
        r += 1
    return r


cdef inline ll _most_levels(ll castellers, ll balance) noexcept:
    """`solver._most_levels`, its triangular roots computed (`solver._tri_root`'s formula)."""
    if castellers <= balance:
        return castellers
    return balance + (_isqrt(8 * (castellers - balance) + 1) - 1) // 2


cdef inline bint _any_held(ll *counts, ll lo, ll hi) noexcept:
    """Does a position in ``lo..hi - 1`` hold castellers (``any(counts[lo:hi])``)?"""
    cdef ll p
    for p in range(lo, hi):
        if counts[p]:
            return True
    return False


cdef inline ll _fewest_uses(ll need, ll balance_floor, ll levels, ll width, ll numbers_below) noexcept:
    cdef ll balance = balance_floor if balance_floor else need & _BALANCE_BIT
    if levels - width + 1 > balance:
        balance = levels - width + 1
    cdef ll strength = 1 if need & _STRENGTH_BIT else 0
    if levels - numbers_below > strength:
        strength = levels - numbers_below
    return balance + strength + __builtin_popcountll(<uint64_t>(need & (_MIX_BIT | _WIDTH_BIT)))


cdef inline bint _beats(
    ll s, ll m, ll u, object chain, ll rs, ll rm, ll ru, object rchain
) except -1:
    """``(s, m, u, chain) > (rs, rm, ru, rchain)``, as Python compares the result tuples."""
    if s != rs:
        return s > rs
    if m != rm:
        return m > rm
    if u != ru:
        return u > ru
    return PyObject_RichCompareBool(chain, rchain, Py_GT)


cdef class Searcher:
    """The answer of one setup's queries (`solver._Setup`), called with a team's counts and
    the festival sizes: the best `_Result`, or None. Not shared between threads at once (the
    solver's pool hands each query its own)."""

    # The setup's facts.
    cdef object shape
    cdef list eq_after
    cdef tuple tri
    cdef bint exact
    cdef ll n_levels, w_level, w_match, wmax, k0, need_mask
    cdef ll balance_rank, base_rank, mix_rank, strength_rank, limit, step, by_width
    cdef ll K, maxwin, cast_gate, spread, shape_sum, cache_max
    cdef object su, tb, patterns, window_tables
    cdef tuple no_patterns
    cdef ll win[MAXK]
    cdef ll vals[MAXK]
    cdef ll reach_mix[MAXK]
    cdef ll reach_plain[MAXK]
    cdef ll lo_mix[MAXK + 1]
    cdef ll lo_plain[MAXK + 1]
    cdef ll reach_lo[MAXK + 1]
    # The team's facts, made by `__call__` (`prepare`).
    cdef ll counts[MAXK]
    cdef ll pres[MAXK]
    cdef ll dist_below[MAXK + 1]
    cdef ll cast_below[MAXK + 1]
    cdef ll match[MAXK]
    cdef ll match_below[MAXK + 1]
    cdef ll mpos_below[MAXK + 1]
    cdef ll match_upto[MAXK]
    cdef ll mpos_upto[MAXK]
    cdef list plain_t
    cdef list mixed_t
    cdef uint64_t req_mask
    cdef ll n_sizes, d, lo_req
    cdef bint sized, scarce
    cdef dict memo

    def __init__(self, su, patterns, window_tables, tuple no_patterns, ll cache_max):
        """The search of setup `su`; `patterns` and `window_tables` are `solver._patterns` and
        `solver._window_tables`, which build a pattern table the cache (`su.cache`, emptied
        past `cache_max` entries) does not hold yet, `no_patterns` the table of a number the
        team does not hold (`solver._NO_PATTERNS`)."""
        tb = su.tb
        cdef ll K = len(tb.vals)
        if K > MAXK:
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
        cdef ll p
        for p in range(K):
            self.vals[p] = _small(tb.vals[p])
            self.reach_mix[p] = su.reach[p]
            self.reach_plain[p] = tb.one[p]
            self.win[p] = tb.win[p]
        for p in range(K + 1):
            self.lo_mix[p] = tb.lo_mix[p]
            self.lo_plain[p] = tb.lo_plain[p]
            self.reach_lo[p] = su.reach_lo[p]
        self.memo = {}

    def __call__(self, tuple counts, size_bits):
        """One query of team `counts` (by position) and festival sizes `size_bits` (a bit per
        position, -1 for a size that is no number): `solver._python_answer`'s steps, the
        prefilter, the team's facts and the search; the best `_Result` or None."""
        cdef ll K = self.K
        cdef ll p, total = 0
        if len(counts) != K:
            raise Unsupported(len(counts))
        for p in range(K):
            self.counts[p] = _small(counts[p])
            total += self.counts[p]
        if total > LIMIT or _most_levels(total, self.balance_rank) > MAX_LEVELS:
            raise Unsupported(total)
        if size_bits < 0:
            return None  # a size that is no casteller number (`solver._holds_sizes`)
        if size_bits >> K:
            raise Unsupported(size_bits)  # not a set of this rule set's positions
        cdef uint64_t req_mask = size_bits
        cdef uint64_t rest = req_mask
        while rest:  # `solver._holds_sizes`
            if not self.counts[_bit_length(rest & (~rest + 1)) - 1]:
                return None
            rest &= rest - 1
        if self.impossible(req_mask, total):
            return None
        self.prepare(counts, req_mask)
        try:
            return self.best_from_bottom()
        finally:
            self.memo.clear()
            self.plain_t = self.mixed_t = None

    cdef bint impossible(self, uint64_t req_mask, ll total) except -1:
        """`solver._impossible` (with `_shape_unfillable`)."""
        cdef ll K = self.K, k0 = self.k0, wmax = self.wmax, maxwin = self.maxwin
        cdef ll i, j, p, c, held = 0, widest = 0, prev = 0, w, slack, cap, up, hi, lo, top
        cdef ll by_count[MAXK]
        shape = self.shape
        if shape is not None:
            if self.shape_sum > total:
                return True
            slack = self.mix_rank + self.strength_rank
            for i in range(K):  # sorted(counts, reverse=True), by insertion
                c = self.counts[i]
                j = i
                while j and by_count[j - 1] < c:
                    by_count[j] = by_count[j - 1]
                    j -= 1
                by_count[j] = c
            for i in range(slack, len(shape)):
                if i - slack >= K or by_count[i - slack] < <ll>shape[i]:
                    return True
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
        if k0 > _most_levels(total, self.balance_rank):
            return True
        cdef bint has_base = self.base_rank >= 1
        cdef ll extra = 1 if has_base and widest > self.limit else 0
        if k0 > (widest if widest < wmax else wmax) + self.balance_rank + extra:
            return True
        if k0 > held + self.strength_rank:
            return True
        if req_mask:
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

    cdef int prepare(self, tuple counts, uint64_t req_mask) except -1:
        """`solver._prepare` (with `_size_positions` and `_pattern_tables`) into this search's
        arrays; the Width uses are `_need_w`, the castellers bound `_most_levels`."""
        cdef ll K = self.K, p, c, held = 0, total = 0, m = 0, mp, spread = self.spread, L
        cdef ll ascending[MAXK]
        self.req_mask = req_mask
        self.n_sizes = __builtin_popcountll(req_mask)
        self.dist_below[0] = 0
        for p in range(K):
            c = self.counts[p]
            if c:
                ascending[held] = p
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
        # The pattern tables (`solver._pattern_tables`): cached per rules and weights.
        cdef dict cache = self.su.cache
        if len(cache) > self.cache_max:
            cache.clear()
        cdef list plain_t = [self.no_patterns] * K
        cdef list mixed_t
        cdef ll i
        if self.mix_rank < 1:
            for i in range(held):
                p = ascending[i]
                c = self.counts[p]
                key = (c * K + p) * 2 + self.match[p]
                table = cache.get(key)
                if table is None:
                    table = cache[key] = self.patterns(
                        self.tb, p, (c,), self.match[p], self.w_level, self.w_match
                    )
                plain_t[p] = table
            mixed_t = plain_t
        else:
            mixed_t = [self.no_patterns] * K
            for i in range(held):
                p = ascending[i]
                c = self.counts[p]
                L = self.win[p]
                wkey = ()
                if L == 2:
                    if self.counts[p + 1]:
                        wkey = (p, c, self.counts[p + 1], (req_mask >> p) & 3)
                elif L > 2 and _any_held(self.counts, p + 1, p + L):
                    wkey = (p, counts[p : p + L], (req_mask >> p) & ((1 << L) - 1))
                if wkey:
                    pair = cache.get(wkey)
                    if pair is None:
                        pair = cache[wkey] = self.window_tables(
                            self.tb, self.su, p, counts, req_mask
                        )
                    plain_t[p], mixed_t[p] = pair
                else:
                    key = (c * K + p) * 2 + self.match[p]
                    table = cache.get(key)
                    if table is None:
                        table = cache[key] = self.patterns(
                            self.tb, p, (c,), self.match[p], self.w_level, self.w_match
                        )
                    plain_t[p] = mixed_t[p] = table
        self.plain_t, self.mixed_t = plain_t, mixed_t
        for i in range(held):  # highest first (`solver._Query.pres`)
            self.pres[i] = ascending[held - 1 - i]
        # The lowest position a bottom level may start on (`solver._python_searcher`'s `run`).
        self.lo_req = self.reach_lo[_bit_length(req_mask)]
        self.sized = req_mask != 0
        return 0

    cdef inline ll need_w(self, ll n) noexcept:
        """The Width uses of a level `n` wide (`solver._Tables.width_uses`)."""
        return 0 if n <= self.limit else (n - self.limit + self.step - 1) // self.step


    cdef object expand(
        self,
        ll lpos,
        ll free,
        ll width,
        ll balance_left,
        ll strength_left,
        ll mix_left,
        uint64_t miss,
        ll k,
        ll above_base,
        ll need,
        ll lmax,
        ll alpha,
    ):
        """`solver._python_searcher`'s `expand`, step for step."""
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
                return None
            if type(sub) is int:
                if <ll>sub <= alpha:
                    return None
            else:
                return sub
        cdef object result
        cdef ll rs = 0, rm = 0, ru = 0  # result's score, matches, -uses (when not None)
        cdef object rchain = ()
        cdef ll thr
        if miss or need or k or (above_base and width <= self.limit):
            result = None
            thr = alpha
        else:
            result = _ZERO
            thr = alpha if alpha > 0 else 0
        cdef bint exact = self.exact
        if exact and not k:
            memo[key] = result
            return result
        cdef ll cap, c
        if above_base:
            cap = width - 1 if width <= self.wmax else self.wmax
        else:
            cap = width if balance_left else width - 1
        shape = self.shape
        if shape is not None:
            c = <ll>shape[self.n_levels - k]
            if c > cap:
                memo[key] = result
                return result
        else:
            c = cap
        cdef ll nk = k - 1 if k else 0
        cdef ll lcap = k if exact and k < lmax else lmax
        cdef ll lv0 = cap - 1 + balance_left
        if lv0 > lcap - 1:
            lv0 = lcap - 1
        cdef list tables
        cdef ll *reach
        cdef ll *reach_lo
        if mix_left:
            tables = self.mixed_t
            reach = self.reach_mix
            reach_lo = self.lo_mix
        else:
            tables = self.plain_t
            reach = self.reach_plain
            reach_lo = self.lo_plain
        cdef ll least = -1
        cdef bint top_only = lmax == 1
        cdef ll mt = 0
        cdef bint sized = self.sized, scarce = self.scarce
        cdef ll w_level = self.w_level, w_match = self.w_match
        cdef ll d = self.d
        cdef ll *dist_below = self.dist_below
        cdef ll first = lpos if free else lpos - 1
        cdef ll last = d - (nk - strength_left) if nk > strength_left else d
        cdef ll lo
        if miss:
            lo = reach_lo[_bit_length(miss)]
            if d - dist_below[lo] < last:
                last = d - dist_below[lo]
        cdef ll lvc = 0
        cdef ll i, p, dl, lv, a, ub, cnt, mbp = 0, mpp = 0, mq = 0, used
        cdef ll n, top, topc, c0, gs, gm, group, ns, nb, lm, nF, hold, ubs, u, nmk, nm, w1
        cdef ll cs, cm, cu
        cdef bint mixed, plain
        cdef uint64_t bits, nmiss
        cdef tuple table, seqs, seq, opt, chain
        cdef ll start = d - dist_below[first + 1]
        if last < 0:  # as Python slices ``pres[start:last]`` (not reached: see solver.py)
            last = d + last if d + last > 0 else 0
        for i in range(start, last):
            p = self.pres[i]
            dl = dist_below[p]
            lv = dl + strength_left
            if lv > lv0:
                lv = lv0
            if scarce:
                a = self.cast_below[p]
                if strength_left:
                    a += (free if p == lpos else self.counts[p]) - 1
                lvc = _most_levels(a, balance_left)
                if lv > lvc:
                    lv = lvc
            if sized:
                mt = self.match_upto[p]
                if mt > cap * (self.mpos_upto[p] + strength_left):
                    mt = cap * (self.mpos_upto[p] + strength_left)
                ub = w_level * (1 + lv) + w_match * mt
            else:
                ub = w_level * (1 + lv)
            if ub < thr:
                break
            if (
                result is not None
                and ub <= rs
                and mt <= rm
                and rchain
                and <ll>rchain[0][0] > self.vals[p + reach[p] - 1]
            ):
                if least < 0:
                    least = _fewest_uses(
                        need, 0, k, cap + 1 if above_base else width, dist_below[lpos]
                    )
                if -ru <= least:
                    break
            if p == lpos:
                table = self.plain_t[p]
                if shape is None:
                    seq = (<tuple>table[0])[c if c < free else free]
                else:
                    seq = (<tuple>table[2])[c] if c <= free else ()
                cnt = free
            else:
                table = tables[p]
                seqs = table[self.by_width + (0 if mix_left and p + reach[p] > lpos else 1)]
                if c < len(seqs):
                    seq = seqs[c]
                else:
                    seq = () if self.by_width else seqs[len(seqs) - 1]
                cnt = self.counts[p]
            plain = table[4]
            if sized:
                mbp = self.match_below[p]
                mpp = self.mpos_below[p]
                mq = self.match[p]
            used = 0
            for opt in seq:
                n = opt[0]
                top = opt[1]
                topc = opt[2]
                if top < lpos:
                    ns = strength_left
                elif top > lpos or topc > free:
                    continue
                else:
                    ns = strength_left - 1
                group = opt[9]
                if group:
                    if group == used:
                        continue
                    used = group
                nb = balance_left - 1 if n == width else balance_left
                if n + nb <= nk:
                    break
                c0 = opt[3]
                gs = opt[4]
                bits = opt[7]
                if not top_only:
                    lv = n - 1 + nb
                    if lv > dl + ns:
                        lv = dl + ns
                        if nk > lv:
                            continue
                    lm = lv
                    if scarce and lv > lvc:
                        lv = lvc
                        if nk > lv:
                            continue
                    nmiss = miss & ~bits
                    if nmiss >> p:
                        continue
                    if exact and lv > nk:
                        lv = nk
                    nF = cnt - c0
                    if sized:
                        mt = mbp + nF * mq
                        if mt > n * (mpp + ns):
                            mt = n * (mpp + ns)
                        hold = n * lv - <ll>self.tri[lv - nb if lv > nb else 0]
                        if mt > hold:
                            mt = hold
                        ubs = gs + w_level * lv + w_match * mt
                    else:
                        ubs = gs + w_level * lv
                    if ubs < thr:
                        if plain:
                            break
                        continue
                u = 0
                nmk = need
                if ns != strength_left:
                    u = 1
                    nmk &= ~_STRENGTH_BIT
                if nb != balance_left:
                    u += 1
                    nmk &= ~_BALANCE_BIT
                mixed = opt[6]
                if mixed:
                    nm = mix_left - 1
                    u += 1
                    nmk &= ~_MIX_BIT
                else:
                    nm = mix_left
                if above_base:
                    w1 = self.need_w(n)
                    if width <= self.limit + w1 * self.step:
                        continue
                    if w1:
                        u += w1
                        nmk &= ~_WIDTH_BIT
                    elif nmk & _WIDTH_BIT:
                        continue
                gm = opt[5]
                lvl = opt[8]
                if top_only:
                    if miss & ~bits or nmk:
                        continue
                    chain = (lvl, ())
                    if result is None or _beats(gs, gm, -u, chain, rs, rm, ru, rchain):
                        result = (gs, gm, -u, chain)
                        rs, rm, ru, rchain = gs, gm, -u, chain
                        if gs > thr:
                            thr = gs
                    continue
                if (
                    result is not None
                    and ubs == rs
                    and gm + mt <= rm
                    and self._cannot_win_tie(
                        rm, ru, rchain, gm + mt, lvl, u, nmk, <ll>self.eq_after[k],
                        lv if w_level else 0, n, dl,
                    )
                ):
                    continue
                if not lm:
                    if nmiss or nmk or nk:
                        continue
                    sub = _ZERO
                else:
                    sub = self.expand(p, nF, n, nb, ns, nm, nmiss, nk, 0, nmk, lm, thr - gs)
                    if sub is None:
                        continue
                cs = gs + <ll>sub[0]
                cm = gm + <ll>sub[1]
                cu = <ll>sub[2] - u
                chain = (lvl, sub[3])
                if result is None or _beats(cs, cm, cu, chain, rs, rm, ru, rchain):
                    result = (cs, cm, cu, chain)
                    rs, rm, ru, rchain = cs, cm, cu, chain
                    if cs > thr:
                        thr = cs
        if result is None or rs < alpha:
            memo[key] = alpha
            return None
        memo[key] = result
        return result

    cdef bint _cannot_win_tie(
        self, ll rm, ll ru, object rchain, ll matches, object level, ll uses, ll need,
        ll balance_floor, ll levels, ll width, ll numbers_below,
    ) except -1:
        """`solver._cannot_win_tie` of the best so far (its matches, -uses and chain)."""
        if matches != rm:
            return matches < rm
        cdef ll fewest = uses + _fewest_uses(need, balance_floor, levels, width, numbers_below)
        if fewest != -ru:
            return fewest > -ru
        return bool(rchain) and PyObject_RichCompareBool(level, rchain[0], Py_LT)

    cdef ll levels_above_bottom(self, ll p, ll left) except? -1:
        cdef ll a = self.cast_below[p] + left if self.strength_rank else self.cast_below[p]
        return _most_levels(a, self.balance_rank)

    cdef object best_from_bottom(self):
        """`solver._python_searcher`'s `best_from_bottom` (with `bottom_positions` inline)."""
        cdef ll k0 = self.k0, w_level = self.w_level, w_match = self.w_match
        cdef ll balance_rank = self.balance_rank, strength_rank = self.strength_rank
        cdef ll base_rank = self.base_rank, wmax = self.wmax, limit = self.limit
        cdef bint exact = self.exact, scarce = self.scarce, sized = self.sized
        cdef ll floor = w_level * k0 + w_match * self.n_sizes
        shape = self.shape
        cdef ll target0 = <ll>shape[0] if shape is not None else 0
        cdef ll kcap = k0 - 1 if exact else self.K + strength_rank
        cdef ll base_min = limit + 1 if base_rank else (1 << 30)
        cdef ll n_bases = 2 if base_rank else 1
        cdef ll order_ub[MAXK]
        cdef ll order_p[MAXK]
        cdef ll n_order = 0
        cdef ll least = -1
        cdef ll i, j, p, w, lv, ub, a, lvc, tight, balance
        cdef ll *dist_below = self.dist_below
        # bottom_positions
        if exact and not sized:
            for i in range(self.d):
                p = self.pres[i]
                if dist_below[p] + strength_rank >= k0 - 1:
                    if scarce and self.levels_above_bottom(p, self.counts[p] - 1) < k0 - 1:
                        continue
                    order_ub[n_order] = floor
                    order_p[n_order] = p
                    n_order += 1
            if not self.mix_rank:
                balance = self.need_mask & _BALANCE_BIT
                if <ll>self.eq_after[k0] > balance:
                    balance = <ll>self.eq_after[k0]
                least = __builtin_popcountll(<uint64_t>(self.need_mask & ~_BALANCE_BIT)) + balance
        else:
            for i in range(self.d - dist_below[self.lo_req]):
                p = self.pres[i]
                w = target0 or len(<tuple>(<tuple>self.mixed_t[p])[2]) - 1
                if w > wmax and not (base_rank and w > limit):
                    if target0:
                        continue
                    w = wmax
                lv = (w if w <= wmax else wmax + 1) - 1 + balance_rank
                if lv > dist_below[p] + strength_rank:
                    lv = dist_below[p] + strength_rank
                if lv > kcap:
                    lv = kcap
                ub = w_level * (1 + lv) + w_match * self.match_upto[p]
                if scarce:
                    a = self.cast_below[p] + self.counts[p] - 1 if strength_rank else self.cast_below[p]
                    lvc = _most_levels(a, balance_rank)
                    if lvc < lv:
                        tight = w_level * (1 + lvc) + w_match * self.match_upto[p]
                        if tight < floor:
                            continue
                        ub = tight
                if ub < floor:
                    continue
                j = n_order
                while j and order_ub[j - 1] < ub:
                    order_ub[j] = order_ub[j - 1]
                    order_p[j] = order_p[j - 1]
                    j -= 1
                order_ub[j] = ub
                order_p[j] = p
                n_order += 1
        # best_from_bottom
        cdef object result = None
        cdef ll rs = 0, rm = 0, ru = 0
        cdef object rchain = ()
        cdef ll best_s = _NEG
        cdef ll pub, dlr, cb, ab, mq, mc, mlv, based, width, lm, mt, u, nmk, w0
        cdef ll n, c0, gs, gm, cs, cm, cu
        cdef bint mixed
        cdef uint64_t bits, nmiss
        cdef tuple table, heads, opt, chain
        for i in range(n_order):
            pub = order_ub[i]
            p = order_p[i]
            if pub < best_s or (result is not None and -ru <= least):
                break
            table = self.mixed_t[p]
            if not target0:
                heads = table[1]
                heads = heads[len(heads) - 1]
            else:
                heads = table[3][target0] if target0 < len(table[3]) else ()
            dlr = dist_below[p] + strength_rank
            cb = self.cast_below[p] if scarce else 0
            ab = cb + self.counts[p] if strength_rank else cb
            mq = self.match[p]
            mc = self.match_below[p] + self.counts[p] * mq
            mlv = self.mpos_below[p] + strength_rank
            for opt in heads:
                n = opt[0]
                if n + balance_rank < k0:
                    break
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
                    lm = width - 1 + balance_rank
                    if lm > dlr:
                        lm = dlr
                    if k0 - 1 > lm:
                        continue
                    lv = lm if lm < kcap else kcap
                    if scarce:
                        a = ab - c0 if strength_rank else ab
                        lvc = _most_levels(a, balance_rank)
                        if lvc < lv:
                            if k0 - 1 > lvc:
                                continue
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
                    u = 1 if mixed else 0
                    nmk = self.need_mask & ~_MIX_BIT if mixed else self.need_mask
                    if based:
                        u += 1
                        nmk &= ~_BASE_BIT
                    else:
                        w0 = self.need_w(n)
                        if w0:
                            u += w0
                            nmk &= ~_WIDTH_BIT
                        if nmk & (_BASE_BIT | _WIDTH_BIT):
                            continue
                    if (
                        result is not None
                        and ub == best_s
                        and gm + mt <= rm
                        and self._cannot_win_tie(
                            rm, ru, rchain, gm + mt, lvl, u, nmk, <ll>self.eq_after[k0],
                            lv if w_level else 0, width, dist_below[p],
                        )
                    ):
                        continue
                    nmiss = self.req_mask & ~bits
                    if nmiss >> p:
                        continue
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
                    if sub is None:
                        continue
                    cs = gs + <ll>sub[0]
                    cm = gm + <ll>sub[1]
                    cu = <ll>sub[2] - u
                    chain = (lvl, sub[3])
                    if result is None or _beats(cs, cm, cu, chain, rs, rm, ru, rchain):
                        result = (cs, cm, cu, chain)
                        rs, rm, ru, rchain = cs, cm, cu, chain
                        best_s = cs
        return result



def team_counts(team, dict index, fallback):
    """`solver._counts`: the team's counts by number position (`index`: number -> position),
    as a tuple; `fallback` (that function) answers when a casteller is not a size (its error)
    or the numbers are too many for this module."""
    if type(team) is not list and type(team) is not tuple:
        team = list(team)
    cdef ll K = len(index)
    if K > MAXK:
        return fallback(team, index)
    cdef ll counts[MAXK]
    cdef ll p
    for p in range(K):
        counts[p] = 0
    for x in team:
        if type(x) is not int:
            return fallback(team, index)
        at = index.get(x)
        if at is None:
            return fallback(team, index)
        counts[<ll>at] += 1
    return tuple([counts[p] for p in range(K)])
