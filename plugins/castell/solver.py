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

Speed. States are memoised per query. Options are tried best-first; an option is skipped when an
upper bound (levels that the widths, the numbers left and the Balance/Strength ranks allow, plus
the matching castellers still free) cannot reach the best score so far, or can at most tie it
and then cannot win the tie-break. The score to beat is passed down (branch and bound), so a
memo entry is either an exact value or the fact "nothing here reaches score X", reused only for
a target >= X. A dominance rule halves the options: among mixed levels of the same width, the
one with more of the larger number is never worse (see the pattern set-up).

Tie-break (deterministic, applied in this order):
  1. higher score (festival score: ``score_per_level`` per level + ``score_per_match`` per
     casteller whose number is a festival size; for `tallest_tower`: levels);
  2. more castellers matching the festival sizes (helps win size tokens, C-9.5);
  3. fewer total skill uses (of the cheapest accounting that meets the query: for plain queries
     this is the total of `towers.check`'s ``uses``);
  4. the lexicographically largest tower, comparing levels bottom-up, each level as the tuple of
     its numbers in descending order (so wider and higher-numbered low levels win).

Queries are memoised whole with `functools.lru_cache` on hashable arguments (team counts by
number, ranks in `TowerRules.skills` order, sizes, ...); `clear_cache` empties it. Every returned
tower is re-checked with `towers.check`, and its `uses` are check's `uses`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from castell_plugins.castell.towers import TowerRules, check, tower_score

# Exhibition skill bits (internal).
_B, _S, _M, _W, _BASE = 1, 2, 4, 8, 16


@dataclass(frozen=True, slots=True)
class Solution:
    """A solver answer: the tower (levels bottom first), its festival score and check's uses."""

    levels: tuple[tuple[int, ...], ...]
    score: int
    uses: dict[str, int]


@lru_cache(maxsize=64)
def _lookups(rules: TowerRules) -> tuple[dict[int, int], dict[str, int]]:
    """Per-rules tables for argument conversion: number -> position, skill -> exhibition bit."""
    bit_of = {"equal_count": _B, "equal_size": _S, "mixed_sizes": _M, "wider": _W}
    bit_of["wide_bottom"] = _BASE
    by_skill = {skill: bit_of[rid] for rid, skill in rules.relaxations.items()}
    return {v: i for i, v in enumerate(rules.sizes)}, by_skill


def _counts(team: Iterable[int], rules: TowerRules) -> tuple[int, ...]:
    index = _lookups(rules)[0]
    counts = [0] * len(rules.sizes)
    for x in team:
        i = index.get(x)
        if i is None or type(x) is not int:
            raise ValueError(f"casteller number {x!r} is not one of the game's sizes")
        counts[i] += 1
    return tuple(counts)


def _rank_tuple(ranks: Mapping[str, int], rules: TowerRules) -> tuple[int, ...]:
    return tuple(max(0, ranks.get(s, 0)) for s in rules.skills)


def _need_mask(needs: Iterable[str] | None, rules: TowerRules) -> int | None:
    """Bits of the exhibition skills; None when a skill grants no relaxation (never usable)."""
    if needs is None:
        return 0
    by_skill = _lookups(rules)[1]
    mask = 0
    for skill in needs:
        if skill not in rules.skills:
            raise ValueError(f"unknown skill {skill!r}; known: {', '.join(rules.skills)}")
        bit = by_skill.get(skill)
        if bit is None:
            return None
        mask |= bit
    return mask


def clear_cache() -> None:
    """Forget memoised queries (benchmarks use it to time cold queries)."""
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
) -> tuple[tuple[int, ...], ...] | None:
    """One memoised search; returns the best tower's levels or None (proof that none exists).

    Constraints: includes a casteller of every number in `sizes`; at least `min_levels` levels;
    exactly `n_levels` levels and/or exactly `shape` when given; one accounting uses every skill
    in `need_mask`. Objective: `w_level` per level + `w_match` per casteller numbered in `sizes`.
    """
    plan = rules._plan
    ranks = dict(zip(rules.skills, rank_t, strict=True))

    def rank(skill: str | None) -> int:
        return ranks.get(skill, 0) if skill is not None else 0

    rb, rbase, rm, rs, rw = (
        rank(plan.bal),
        rank(plan.base),
        rank(plan.mix),
        rank(plan.strg),
        rank(plan.wid),
    )
    vals = rules.sizes
    K = len(vals)
    limit, step = plan.limit, plan.step
    wmax = limit + rw * step
    has_base = rbase >= 1
    spread = plan.spread if rm >= 1 else 0

    sizes_set = frozenset(sizes)
    pos = {v: i for i, v in enumerate(vals)}
    req_mask = 0
    req_bit = [0] * K
    for s in sizes_set:
        if s not in pos or counts[pos[s]] == 0:
            return None
        req_bit[pos[s]] = 1 << pos[s]
        req_mask |= 1 << pos[s]
    match = [1 if v in sizes_set else 0 for v in vals]

    exact = n_levels is not None or shape is not None
    if shape is not None:
        if n_levels is not None and n_levels != len(shape):
            return None
        n_levels = len(shape)
        if not shape or min(shape) < 1:
            return None
    if exact:
        if n_levels < 1 or n_levels < min_levels:
            return None
        k0 = n_levels
    else:
        k0 = max(min_levels, 1)

    # Patterns: every level whose smallest number is at position p, with full team counts:
    # (n, top position, castellers at top, castellers at p, score gain, matches, mixed, required
    # bits, level tuple, nxt). Sorted by n, gain, level, all descending: a width cap is a start
    # index (starts[p][cap]) and likely winners come first.
    pats: list[list[tuple]] = []
    starts: list[list[int]] = []
    for p in range(K):
        out: list[tuple] = []
        if counts[p]:
            window = [q for q in range(p, K) if vals[q] - vals[p] <= spread]
            ranges = [range(1, counts[p] + 1)] + [range(counts[q] + 1) for q in window[1:]]
            for cs in product(*ranges):
                n = m = bits = top = 0
                lvl: tuple[int, ...] = ()
                for j, c in enumerate(cs):
                    if c:
                        q = window[j]
                        n += c
                        top = j
                        if match[q]:
                            m += c
                        bits |= req_bit[q]
                        lvl = (vals[q],) * c + lvl
                out.append(
                    (n, window[top], cs[top], cs[0], w_level + w_match * m, m, top > 0, bits, lvl)
                )
            out.sort(key=lambda t: (t[0], t[4], t[8]), reverse=True)
            # Dominance: among mixed levels of one width, the one with more of the larger
            # number leaves more castellers of number p free, scores no less (unless p is a
            # festival size and p+1 is not) and is lexicographically larger: only the first
            # *usable* level of such a group matters. `nxt` is the index after its group.
            dominated = len(window) == 2 and match[p] <= match[window[1]]
            nxt = len(out)
            for i in range(len(out) - 1, -1, -1):
                t = out[i]
                same_group = (
                    dominated
                    and t[6]
                    and i + 1 < len(out)
                    and out[i + 1][6]
                    and out[i + 1][0] == t[0]
                )
                if not same_group:
                    nxt = i + 1
                out[i] = (*t, nxt)
        pats.append(out)
        st = [len(out)] * ((out[0][0] if out else 0) + 2)
        for i in range(len(out) - 1, -1, -1):
            st[out[i][0]] = i
        for cap in range(1, len(st)):
            if st[cap] > st[cap - 1]:
                st[cap] = st[cap - 1]
        starts.append(st)

    # Prefix facts for bounds: positions below p holding castellers; matching castellers below p.
    dist_below = [0] * (K + 1)
    match_below = [0] * (K + 1)
    for p in range(K):
        dist_below[p + 1] = dist_below[p] + (1 if counts[p] else 0)
        match_below[p + 1] = match_below[p] + (counts[p] if match[p] else 0)
    # Matching castellers a level with smallest position <= p and everything above can hold.
    match_upto = [match_below[min(K, p + 1 + spread)] for p in range(K)]

    def wneed(n: int) -> int:
        return 0 if n <= limit else (n - limit + step - 1) // step

    need_w = [wneed(n) for n in range(max(sum(counts), wmax) + 2)]

    # Lower bounds on uses still to come: one per exhibition skill not yet used; a shape's
    # equal neighbours need Balance (eq_after[k]: equal pairs above the level k levels from
    # the top of the shape).
    popcount = [bin(i).count("1") for i in range(32)]
    eq_after = [0] * (k0 + 2)
    if shape is not None:
        for kk in range(1, len(shape) + 1):
            d = len(shape) - kk
            eq_after[kk] = sum(1 for i in range(d + 1, len(shape)) if shape[i] == shape[i - 1])

    memo: dict[tuple, tuple | None] = {}
    NEG = -(1 << 60)
    zero = (0, 0, 0, ())

    def best(
        lpos: int,
        free: int,
        width: int,
        bb: int,
        sb: int,
        mb: int,
        miss: int,
        k: int,
        wflag: int,
        nmask: int,
        alpha: int,
    ) -> tuple | None:
        """Best completion above a level (smallest number at position lpos, width castellers).

        Returns (score, matches, -uses, chain of levels), exact whenever its score >= `alpha`;
        None when no completion reaches `alpha` (or none exists). Memo entries are exact
        results or, as an int, a bound: "no completion scores that much".
        """
        if not sb:
            free = 0  # castellers of number lpos can only be used with Strength
        # Levels still possible: widths shrink unless Balance; each level's smallest number is a
        # new, smaller number (that the team holds) unless Strength. Budgets beyond never bind.
        lmax = width - 1 + bb
        if lmax > dist_below[lpos] + sb:
            lmax = dist_below[lpos] + sb
        if bb > lmax:
            bb = lmax
        if sb > lmax:
            sb = lmax
        if mb > lmax:
            mb = lmax
        if free > width * sb:
            # Each level touching number lpos takes a Strength use and <= width castellers.
            free = width * sb
        key = (lpos, free, width, bb, sb, mb, miss, k, wflag, nmask)
        result = memo.get(key, memo)
        if result is not memo:
            if type(result) is not int:
                return result
            if result <= alpha:
                return None  # known: nothing here reaches `alpha`
        return expand(lpos, free, width, bb, sb, mb, miss, k, wflag, nmask, lmax, key, alpha)

    def expand(
        lpos: int,
        free: int,
        width: int,
        bb: int,
        sb: int,
        mb: int,
        miss: int,
        k: int,
        wflag: int,
        nmask: int,
        lmax: int,
        key: tuple,
        alpha: int,
    ) -> tuple | None:
        """`best` for a normalised state that the memo cannot answer."""
        result = None
        if k > lmax:
            memo[key] = None
            return None
        if miss:
            hi = miss.bit_length() - 1
            if hi > lpos or (hi == lpos and not free):
                memo[key] = None
                return None
        if not miss and not nmask and not k and (not wflag or width > limit):
            result = zero
        if exact and not k:
            memo[key] = result
            return result
        best_s = result[0] if result is not None else NEG
        thr = alpha if alpha > best_s else best_s
        cap = width
        if wflag and cap > wmax:
            cap = wmax
        target = shape[n_levels - k] if shape is not None else 0
        if target > cap:
            memo[key] = result
            return result
        lcap = k if exact and k < lmax else lmax
        c = target or cap
        for p in range(lpos, -1, -1):
            # Any option from here down: one level + what widths/sizes allow + all matches left.
            lv = cap - 1 + bb
            if lv > dist_below[p] + sb:
                lv = dist_below[p] + sb
            if lv > lcap - 1:
                lv = lcap - 1
            if w_level * (1 + lv) + w_match * match_upto[p] < thr:
                break
            plist = pats[p]
            st = starts[p]
            i = st[c] if c < len(st) else 0
            end = len(plist)
            while i < end:
                n, top, topc, c0, gs, gm, mixed, bits, lvl, nxt = plist[i]
                i += 1
                if target and n != target:
                    break
                if top >= lpos:
                    if top > lpos or topc > free or not sb:
                        continue
                    strong = 1
                else:
                    strong = 0
                i = nxt  # the rest of its dominance group cannot do better
                nb, ns, nm, u, nmk = bb, sb, mb, 0, nmask
                if n == width:
                    if not nb:
                        continue
                    nb -= 1
                    u = 1
                    nmk &= ~_B
                if strong:
                    ns -= 1
                    u += 1
                    nmk &= ~_S
                if mixed:
                    if not nm:
                        continue
                    nm -= 1
                    u += 1
                    nmk &= ~_M
                if wflag:
                    w1 = need_w[n]
                    if width <= limit + w1 * step:
                        continue  # the bottom would not really be a Base level
                    if w1:
                        u += w1
                        nmk &= ~_W
                    elif nmk & _W:
                        continue  # Width is needed, and only this level could use it
                nF = (free if p == lpos else counts[p]) - c0
                nk = k - 1 if k else 0
                # Local bound: this level + what the child could add at most.
                lv = n - 1 + nb
                if lv > dist_below[p] + ns:
                    lv = dist_below[p] + ns
                lm = lv
                if exact and lv > nk:
                    lv = nk
                mt = match_below[p] + (nF if match[p] else 0)
                if mt > n * lv:
                    mt = n * lv
                ubs = gs + w_level * lv + w_match * mt
                if ubs < thr:
                    continue
                if result is not None and ubs == result[0]:
                    # It can at best tie on score: compare what it could reach on the rest of
                    # the tie-break (matches, fewest uses, then this level against the best's).
                    if gm + mt < result[1]:
                        continue
                    if gm + mt == result[1]:
                        lb = u + popcount[nmk & 14] + (eq_after[k] if eq_after[k] else nmk & 1)
                        if -lb < result[2] or (
                            -lb == result[2] and result[3] and lvl < result[3][0]
                        ):
                            continue
                # The child state, normalised as in `best`, looked up here: most are memo hits.
                if not ns:
                    nF = 0
                if nb > lm:
                    nb = lm
                if ns > lm:
                    ns = lm
                if nm > lm:
                    nm = lm
                if nF > n * ns:
                    nF = n * ns
                nmiss = miss & ~bits
                ckey = (p, nF, n, nb, ns, nm, nmiss, nk, 0, nmk)
                sub = memo.get(ckey, memo)
                if sub is memo:
                    sub = expand(p, nF, n, nb, ns, nm, nmiss, nk, 0, nmk, lm, ckey, thr - gs)
                elif type(sub) is int:
                    if sub <= thr - gs:
                        continue
                    sub = expand(p, nF, n, nb, ns, nm, nmiss, nk, 0, nmk, lm, ckey, thr - gs)
                if sub is None:
                    continue
                cand = (gs + sub[0], gm + sub[1], sub[2] - u, (lvl, sub[3]))
                if result is None or cand > result:
                    result = cand
                    best_s = cand[0]
                    if best_s > thr:
                        thr = best_s
        if result is None or result[0] < alpha:
            memo[key] = alpha if alpha > NEG else None
            return None
        memo[key] = result
        return result

    # Root: the bottom level, as a plain level (Width uses fit it) or as a Base level. Options
    # are tried best-first (by upper bound) so that a good tower prunes the rest early.
    roots = []
    target0 = shape[0] if shape is not None else 0
    for p in range(K - 1, -1, -1):
        for i, (n, _top, _topc, c0, gs, gm, mixed, bits, lvl, _nxt) in enumerate(pats[p]):
            if target0 and n != target0:
                continue
            if i and pats[p][i - 1][9] > i:
                continue  # dominated by the head of its group (every level fits at the root)
            nm = rm - (1 if mixed else 0)
            mix_u = 1 if mixed else 0
            nmk0 = need_mask & ~(_M if mixed else 0)
            nF = counts[p] - c0
            for based in (False, True):
                if based:
                    if not has_base or n <= limit:
                        continue
                    u = mix_u + 1
                    nmk = nmk0 & ~_BASE
                    width = min(n, wmax + 1)
                    wflag = 1
                else:
                    if n > wmax:
                        continue
                    w0 = need_w[n]
                    u = mix_u + w0
                    nmk = nmk0 & ~_W if w0 else nmk0
                    if nmk & (_BASE | _W):
                        continue  # Base needs a Base bottom; Width is fixed by this level
                    width = n
                    wflag = 0
                lv = min(width - 1 + rb, dist_below[p] + rs, k0 - 1 if exact else K + rs)
                mt = min(match_below[p] + (nF if match[p] else 0), width * lv)
                ub = gs + w_level * lv + w_match * mt
                roots.append(
                    (
                        ub,
                        gs,
                        gm,
                        u,
                        lvl,
                        (p, nF, width, rb, rs, nm, req_mask & ~bits, k0 - 1, wflag, nmk),
                    )
                )
    roots.sort(key=lambda r: r[0], reverse=True)
    result = None
    best_s = NEG
    for ub, gs, gm, u, lvl, state in roots:
        if ub < best_s:
            break
        if result is not None and ub == best_s:
            lb = u + popcount[state[9] & 14] + (eq_after[k0] if eq_after[k0] else state[9] & 1)
            if (gm + match_below[K], -lb, lvl) < (result[1], result[2], result[3][0]):
                continue
        sub = best(*state, best_s - gs if best_s > NEG else NEG)
        if sub is None:
            continue
        cand = (gs + sub[0], gm + sub[1], sub[2] - u, (lvl, sub[3]))
        if result is None or cand > result:
            result = cand
            best_s = cand[0]
    if result is None:
        return None
    levels = []
    chain = result[3]
    while chain:
        levels.append(chain[0])
        chain = chain[1]
    return tuple(levels)


def _solution(
    levels: tuple[tuple[int, ...], ...] | None,
    ranks: Mapping[str, int],
    rules: TowerRules,
    sizes: Iterable[int],
) -> Solution | None:
    if levels is None:
        return None
    result = check(levels, ranks, rules)
    if not result.legal or result.uses is None:
        raise AssertionError(f"solver built an illegal tower {levels!r}: {result.reason}")
    return Solution(levels, tower_score(levels, sizes, rules), dict(result.uses))


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
    sizes_t = tuple(sorted(set(sizes)))
    mask = _need_mask(needs, rules)
    if mask is None:
        return None
    w_level, w_match = (1, 0) if tallest else (rules.score_per_level, rules.score_per_match)
    levels = _query(
        _counts(team, rules),
        _rank_tuple(ranks, rules),
        rules,
        sizes_t,
        min_levels,
        n_levels,
        tuple(shape) if shape is not None else None,
        mask,
        w_level,
        w_match,
    )
    return _solution(levels, ranks, rules, sizes_t)


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
