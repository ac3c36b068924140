# cython: language_level=3, cdivision=True
"""The tower solver's search, compiled: `solver._searcher` line for line on C integers.

Optional (`setup.py` builds it when Cython and a C compiler are there); `solver.py` falls back
to its own search when this module is missing, when ``CASTELL_SOLVER=python``, or when a query
does not fit the ranges below (`Unsupported`). Why each bound holds, and the tie-break, are
said once, in `solver.py`: this file keeps the same names, the same order of steps and the
same results (tuples ``(score, matches, -uses, chain)``, memo entries exact results or an int
bound), so that every answer is the Python search's. `tests/castell/test_compiled_search.py`
compares the two.

Integers are C ``long long``: every count, rank, weight and limit of a query must lie within
``LIMIT`` (2**30), so that no bound can overflow (scores stay below 2**62), and positions fit a
64-bit mask (at most ``MAX_POSITIONS`` numbers). Python sequences read here (pattern tables,
the shape, the Width uses) keep Python's bounds checks.
"""

from libc.stdint cimport uint64_t
from cpython.object cimport PyObject_RichCompareBool, Py_GT, Py_LT

ctypedef long long ll

cdef enum:
    MAXK = 63  # positions (numbers) at most: one bit each in a uint64_t

#: What this module supports, for `solver.py`'s checks.
MAX_POSITIONS = MAXK
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
    """The search of one setup (`solver._Setup`), called with a query's team facts
    (`solver._Query`): the best `_Result`, or None. Not shared between threads at once (the
    solver's pool hands each search its own)."""

    # The setup's facts.
    cdef object shape
    cdef list eq_after
    cdef tuple tri
    cdef bint exact
    cdef ll n_levels, w_level, w_match, wmax, k0, need_mask
    cdef ll balance_rank, base_rank, mix_rank, strength_rank, limit, step, by_width
    cdef ll K
    cdef ll vals[MAXK]
    cdef ll reach_mix[MAXK]
    cdef ll reach_plain[MAXK]
    cdef ll lo_mix[MAXK + 1]
    cdef ll lo_plain[MAXK + 1]
    cdef ll reach_lo[MAXK + 1]
    # The team's facts, bound by `__call__`.
    cdef ll counts[MAXK]
    cdef ll pres[MAXK]
    cdef ll dist_below[MAXK + 1]
    cdef ll cast_below[MAXK + 1]
    cdef ll match[MAXK]
    cdef ll match_below[MAXK + 1]
    cdef ll mpos_below[MAXK + 1]
    cdef ll match_upto[MAXK]
    cdef ll mpos_upto[MAXK]
    cdef list need_w
    cdef tuple tri_root
    cdef list plain_t
    cdef list mixed_t
    cdef uint64_t req_mask
    cdef ll n_sizes, d, lo_req
    cdef bint sized, scarce
    cdef dict memo

    def __init__(self, su):
        tb = su.tb
        cdef ll K = len(tb.vals)
        if K > MAXK:
            raise Unsupported(K)
        self.K = K
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
        self.limit = _small(tb.limit)
        self.step = _small(tb.step)
        self.by_width = 0 if su.shape is None else 2
        if su.shape is not None:
            for c in su.shape:
                _small(c)
        for x in su.eq_after:
            _small(x)
        for x in self.tri:
            _small(x)
        cdef ll p
        for p in range(K):
            self.vals[p] = _small(tb.vals[p])
            self.reach_mix[p] = su.reach[p]
            self.reach_plain[p] = tb.one[p]
        for p in range(K + 1):
            self.lo_mix[p] = tb.lo_mix[p]
            self.lo_plain[p] = tb.lo_plain[p]
            self.reach_lo[p] = su.reach_lo[p]
        self.memo = {}

    def __call__(self, q):
        """One search: bind the team's facts, search from the root, empty the memo."""
        cdef ll K = self.K
        cdef ll p, total = 0
        counts = q.counts
        for p in range(K):
            self.counts[p] = _small(counts[p])
            total += self.counts[p]
        if total > LIMIT:
            raise Unsupported(total)
        pres = q.pres
        self.d = len(pres)
        for p in range(self.d):
            self.pres[p] = pres[p]
        dist_below, match_below, mpos_below = q.dist_below, q.match_below, q.mpos_below
        for p in range(K + 1):
            self.dist_below[p] = dist_below[p]
            self.match_below[p] = match_below[p]
            self.mpos_below[p] = mpos_below[p]
        match, match_upto, mpos_upto = q.match, q.match_upto, q.mpos_upto
        for p in range(K):
            self.match[p] = match[p]
            self.match_upto[p] = match_upto[p]
            self.mpos_upto[p] = mpos_upto[p]
        self.scarce = q.scarce
        if self.scarce:
            cast_below = q.cast_below
            for p in range(K + 1):
                self.cast_below[p] = cast_below[p]
            self.tri_root = tuple(q.tri_root)
        else:
            self.tri_root = ()
        self.need_w = q.need_w
        self.plain_t, self.mixed_t = q.plain_t, q.mixed_t
        self.req_mask = q.req_mask
        self.n_sizes = q.n_sizes
        # The lowest position a bottom level may start on (see `solver._searcher`'s `run`).
        self.lo_req = self.reach_lo[_bit_length(self.req_mask)]
        self.sized = self.req_mask != 0
        try:
            return self.best_from_bottom()
        finally:
            self.memo.clear()
            self.plain_t = self.mixed_t = self.need_w = None

    cdef inline ll _most(self, ll a, ll balance) except? -1:
        """`solver._most_levels` of `a` castellers with `balance` Balance uses."""
        if a <= balance:
            return a
        return balance + <ll>self.tri_root[a - balance]

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
        """`solver._searcher`'s `expand`, step for step."""
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
                lvc = a if a <= balance_left else balance_left + <ll>self.tri_root[a - balance_left]
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
                    w1 = <ll>self.need_w[n]
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
        return self._most(a, self.balance_rank)

    cdef object best_from_bottom(self):
        """`solver._searcher`'s `best_from_bottom` (with `bottom_positions` inline)."""
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
                    lvc = self._most(a, balance_rank)
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
                        lvc = self._most(a, balance_rank)
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
                        w0 = <ll>self.need_w[n]
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

