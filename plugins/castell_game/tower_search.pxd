# The C types of `tower_search.py` (Cython's pure-Python mode: this file augments that one when
# setup.py compiles it; plain Python never reads it). Integers are long long, masks of
# positions unsigned 64-bit, the per-position facts C arrays of MAXK (63) + 1 entries, and the
# search's steps C methods (inline where small) returning C tuples. Ranges: see the module
# docstring of tower_search.py. Cython's default directives stay: Python sequences keep their
# bounds checks, and integer division its Python (floor) meaning, so the compiled build
# computes what the plain one does.

cimport cython

ctypedef long long ll
ctypedef unsigned long long mask

cdef ll _BALANCE_BIT, _STRENGTH_BIT, _MIX_BIT, _WIDTH_BIT, _BASE_BIT, _NEG
cdef tuple _ZERO

cdef ll _small(object x) except? -1

@cython.locals(n=ll)
cdef ll _bit_length(mask x) noexcept

@cython.locals(n=ll)
cdef ll _popcount(mask x) noexcept

@cython.locals(x=ll)
cdef ll _most_levels(ll castellers, ll balance) noexcept

@cython.locals(r=ll, y=ll)
cdef ll _isqrt(ll x) noexcept

cdef ll _TRI_ROOTS
cdef ll _TRI_ROOT[512]

@cython.locals(balance=ll, strength=ll)
cdef ll _fewest_uses(ll need, ll balance_floor, ll levels, ll width, ll numbers_below) noexcept

@cython.locals(cs=ll, cm=ll, cu=ll, chain=tuple)
cdef tuple _better(
    bint first, ll rs, ll rm, ll ru, object rchain, ll gs, ll gm, ll u, object level, tuple sub
)

cdef bint _beats(ll s, ll m, ll u, object chain, ll rs, ll rm, ll ru, object rchain) except -1

@cython.locals(fewest=ll)
cdef bint _cannot_win_tie(
    bint first, ll ub, ll rs, ll rm, ll ru, object rchain, ll matches, object level, ll uses,
    ll need, ll balance_floor, ll levels, ll width, ll below,
) except -1


@cython.final
cdef class Searcher:
    # The setup's facts.
    cdef object shape
    cdef list eq_after
    cdef tuple tri
    cdef bint exact
    cdef ll K, n_levels, w_level, w_match, wmax, k0, need_mask
    cdef ll balance_rank, base_rank, mix_rank, strength_rank, limit, step, by_width
    cdef ll maxwin, cast_gate, spread, shape_sum, cache_max
    cdef object su, tb, patterns, window_tables
    cdef tuple no_patterns
    cdef ll vals[63]
    cdef ll win[63]
    cdef ll reach_mix[63]
    cdef ll reach_plain[63]
    cdef ll lo_mix[64]
    cdef ll lo_plain[64]
    cdef ll reach_lo[64]
    # The team's facts (`prepare`).
    cdef ll counts[63]
    cdef ll pres[63]
    cdef ll match[63]
    cdef ll match_upto[63]
    cdef ll mpos_upto[63]
    cdef ll dist_below[64]
    cdef ll cast_below[64]
    cdef ll match_below[64]
    cdef ll mpos_below[64]
    cdef list plain_t, mixed_t
    cdef mask req_mask
    cdef ll n_sizes, d, lo_req
    cdef bint sized, scarce
    cdef dict memo
    # Scratch space.
    cdef ll ascending[63]
    cdef ll by_count[63]
    cdef ll order_ub[63]
    cdef ll order_p[63]

    @cython.locals(total=ll, p=ll)
    cdef ll load_counts(self, tuple counts) except *  # (`except? -1` trips Cython 3.3.1 here)

    @cython.locals(i=ll, j=ll, c=ll, K=ll, slack=ll)
    cdef bint shape_unfillable(self, ll total) except -1

    @cython.locals(K=ll, maxwin=ll, held=ll, widest=ll, prev=ll, p=ll, c=ll, w=ll, top=ll, j=ll)
    cdef (ll, ll) widest_level(self) noexcept

    @cython.locals(
        rest=mask, K=ll, k0=ll, wmax=ll, widest=ll, held=ll, has_base=bint, extra=ll,
        maxwin=ll, hi=ll, lo=ll, w=ll, top=ll, j=ll, cap=ll, up=ll,
    )
    cdef bint impossible(self, mask req_mask, ll total) except -1

    @cython.locals(rest=mask)
    cdef bint lacks_size(self, mask req_mask) noexcept

    @cython.locals(held=ll, i=ll)
    cdef int prepare(self, tuple counts, mask req_mask) except -1

    @cython.locals(K=ll, held=ll, total=ll, p=ll, c=ll)
    cdef ll count_positions(self) noexcept

    @cython.locals(K=ll, spread=ll, m=ll, mp=ll, p=ll)
    cdef void match_positions(self, mask req_mask) noexcept

    @cython.locals(K=ll, i=ll, p=ll, L=ll, plain_t=list, mixed_t=list, cache=dict)
    cdef int pattern_tables(self, tuple counts, mask req_mask, ll held) except -1

    @cython.locals(c=ll, key=ll)
    cdef object plain_table(self, dict cache, ll p)

    @cython.locals(p=ll)
    cdef inline bint window_held(self, ll lo, ll hi) noexcept

    cdef inline ll need_w(self, ll n) noexcept

    @cython.locals(
        rs=ll, rm=ll, ru=ll, thr=ll, bound=ll, exact=bint, cap=ll, c=ll, nk=ll, lcap=ll,
        lv0=ll, tables=list, reach=cython.p_longlong, least=ll, top_only=bint, sized=bint,
        w_level=ll, w_match=ll, start=ll, last=ll, i=ll, p=ll, dl=ll, lv=ll, lvc=ll, mt=ll,
        ub=ll, cnt=ll, plain=bint, used=ll, n=ll, top=ll, topc=ll, ns=ll, group=ll, nb=ll,
        c0=ll, gs=ll, gm=ll, bits=mask, nmiss=mask, lm=ll, ubs=ll, u=ll, nmk=ll, nm=ll,
        seq=tuple, opt=tuple, best_top=ll, better=tuple,
    )
    cdef object expand(
        self, ll lpos, ll free, ll width, ll balance_left, ll strength_left, ll mix_left,
        mask miss, ll k, ll above_base, ll need, ll lmax, ll alpha,
    )

    cdef inline ll level_cap(self, ll width, ll balance_left, ll above_base) noexcept

    @cython.locals(d=ll, first=ll, last=ll, lo=ll, start=ll)
    cdef inline (ll, ll) positions_from(
        self, ll lpos, ll free, ll nk, ll strength_left, mask miss, ll mix_left
    ) noexcept

    @cython.locals(lv=ll, lvc=ll, a=ll, mt=ll)
    cdef inline (ll, ll, ll) position_bound(
        self, ll p, ll lpos, ll free, ll cap, ll lv0, ll strength_left, ll balance_left
    ) noexcept

    @cython.locals(table=tuple, seqs=tuple)
    cdef inline tuple options_on(
        self, ll p, ll lpos, ll free, ll c, list tables, ll reach_p, ll mix_left
    )

    @cython.locals(lv=ll, lm=ll)
    cdef inline (ll, ll) option_levels(self, ll n, ll nb, ll ns, ll dl, ll lvc, ll nk) noexcept

    @cython.locals(mt=ll, hold=ll)
    cdef inline ll option_matches(self, ll p, ll n, ll nb, ll ns, ll lv, ll left) noexcept

    @cython.locals(u=ll, nmk=ll, w1=ll)
    cdef inline (ll, ll) charge(
        self, ll n, bint mixed, ll ns, ll nb, ll width, ll strength_left, ll balance_left,
        ll above_base, ll need,
    ) noexcept

    @cython.locals(
        k0=ll, w_level=ll, balance_rank=ll, strength_rank=ll, wmax=ll, floor=ll, target0=ll,
        kcap=ll, base_min=ll, n_bases=ll, n_order=ll, least=ll, rs=ll, rm=ll, ru=ll,
        best_s=ll, i=ll, pub=ll, p=ll, n=ll, c0=ll, gs=ll, gm=ll, mixed=bint, bits=mask,
        based=ll, width=ll, lm=ll, lv=ll, mt=ll, ub=ll, u=ll, nmk=ll, nmiss=mask,
        table=tuple, heads=tuple, opt=tuple, better=tuple,
    )
    cdef object best_from_bottom(self)

    @cython.locals(a=ll)
    cdef inline ll levels_above_bottom(self, ll p, ll left) noexcept

    @cython.locals(
        k0=ll, strength_rank=ll, balance_rank=ll, n_order=ll, i=ll, p=ll, balance=ll,
        least=ll, wmax=ll, limit=ll, w_level=ll, w_match=ll, w=ll, lv=ll, ub=ll, lvc=ll,
        tight=ll, j=ll,
    )
    cdef (ll, ll) bottom_positions(self, ll floor, ll target0, ll kcap) except *

    @cython.locals(strength_rank=ll, lv=ll, lvc=ll, mt=ll, mq=ll, mlv=ll)
    cdef inline (ll, ll) bottom_bound(self, ll p, ll width, ll lm, ll kcap, ll c0) noexcept

    @cython.locals(u=ll, nmk=ll, w0=ll)
    cdef inline (ll, ll) charge_bottom(self, ll n, bint mixed, ll based) noexcept
