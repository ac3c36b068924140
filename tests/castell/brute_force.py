"""Brute-force oracle for the tower rules (C-5, C-6.3a, C-8.3, C-8.4, C-9.2, C-9.3).

Independent of `towers.check` and the solver on purpose: it enumerates every tower a small team
can stack and judges each with its own literal transcription of C-6.3a, so property tests can
compare the fast code against it. It reads only the public fields of a `TowerRules`.

Interpretation shared with `towers.py` (documented there): a Base accounting exists only when the
bottom level is wider than the width limit of that accounting (a skill is used only when the tower
needs it, C-6.3).

Exponential; meant for teams of up to about 12 castellers. `make_rules` (the standard tower
parameters, spelled out) lives here too so every test module can import it by one name.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence

from castell_game.towers import TowerRules

Tower = tuple[tuple[int, ...], ...]

SKILLS = ("balance", "base", "mix", "strength", "width")


def make_rules(**overrides: object) -> TowerRules:
    """The standard tower rules (C-5.3 width 3, numbers 1-10, Mix spread 1), with overrides."""
    values: dict[str, object] = {
        "sizes": tuple(range(1, 11)),
        "width_limit": 3,
        "skills": SKILLS,
        "relaxations": {
            "equal_count": "balance",
            "wide_bottom": "base",
            "mixed_sizes": "mix",
            "equal_size": "strength",
            "wider": "width",
        },
        "titles": {s: s.title() for s in SKILLS},
        "mix_spread": 1,
        "width_step": 1,
        "score_per_level": 1,
        "score_per_match": 1,
    }
    values.update(overrides)
    return TowerRules(**values)


#: Rule variants the two builds of the tower search are compared under (test_compiled_search.py)
#: and the solver dump asks (benchmarks/solver_dump.py, its first three).
SEARCH_VARIANTS = {
    "standard": make_rules(),
    "mix spread 2": make_rules(mix_spread=2),
    "eight sizes, weighted": make_rules(
        sizes=(1, 2, 3, 5, 6, 8, 9, 10), score_per_level=2, score_per_match=3
    ),
    "width 2, step 2": make_rules(width_limit=2, width_step=2),
}


BALANCE, BASE, MIX, STRENGTH, WIDTH = (
    "equal_count",
    "wide_bottom",
    "mixed_sizes",
    "equal_size",
    "wider",
)


def examples(n: int) -> int:
    """Hypothesis example count: `n` times ``CASTELL_HYPOTHESIS_SCALE`` (default 1)."""
    return n * max(1, int(os.environ.get("CASTELL_HYPOTHESIS_SCALE", "1")))


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def accountings(levels: Sequence[Sequence[int]], ranks: Mapping[str, int], rules) -> list[dict]:
    """Every legal accounting of the tower (skill name -> uses), per C-6.3a; [] if illegal."""
    if not levels or any(not level for level in levels):
        return []
    if any(x not in rules.sizes for level in levels for x in level):
        return []
    relax = dict(rules.relaxations)

    uses_by_relaxation = {BALANCE: 0, MIX: 0, STRENGTH: 0}
    for level in levels:
        spread = max(level) - min(level)
        if spread > rules.mix_spread:
            return []
        if spread >= 1:
            uses_by_relaxation[MIX] += 1
    for lower, upper in itertools.pairwise(levels):
        if max(upper) > min(lower):
            return []
        if max(upper) == min(lower):
            uses_by_relaxation[STRENGTH] += 1
        if len(upper) > len(lower):
            return []
        if len(upper) == len(lower):
            uses_by_relaxation[BALANCE] += 1

    result = []
    for bottom_is_base in (False, True):
        counted = dict(uses_by_relaxation)
        non_base = levels[1:] if bottom_is_base else levels
        widest = max((len(level) for level in non_base), default=0)
        w = _ceil_div(max(0, widest - rules.width_limit), rules.width_step)
        counted[WIDTH] = w
        counted[BASE] = 1 if bottom_is_base else 0
        if bottom_is_base and len(levels[0]) <= rules.width_limit + w * rules.width_step:
            continue  # the bottom fits: it is not a Base level
        ok = True
        for rid, n in counted.items():
            if n == 0:
                continue
            skill = relax.get(rid)
            if skill is None or n > ranks.get(skill, 0):
                ok = False
        if ok:
            uses = dict.fromkeys(rules.skills, 0)
            for rid, n in counted.items():
                if n:
                    uses[relax[rid]] += n
            result.append(uses)
    return result


def is_legal(levels: Sequence[Sequence[int]], ranks: Mapping[str, int], rules) -> bool:
    return bool(accountings(levels, ranks, rules))


def chosen_uses(levels: Sequence[Sequence[int]], ranks: Mapping[str, int], rules) -> dict | None:
    """The accounting check() must report: fewest total uses, then no Base use."""
    accs = accountings(levels, ranks, rules)
    if not accs:
        return None
    base_skill = rules.relaxations.get(BASE)
    return min(accs, key=lambda u: (sum(u.values()), u.get(base_skill, 0) if base_skill else 0))


def _sub_multisets(counter: Counter, below: tuple[int, ...] | None, spread: int) -> Iterator:
    """Every non-empty level from `counter` whose numbers fit under `below` (<= its smallest,
    no more castellers) and differ by at most `spread` (the only pruning: C-5/C-6.3a says any
    other level makes the tower illegal)."""
    cap_size = min(below) if below else None
    cap_n = len(below) if below else None
    numbers = sorted(x for x in counter if cap_size is None or x <= cap_size)
    for lo in numbers:
        window = [x for x in numbers if lo <= x <= lo + spread]
        ranges = [range(1 if x == lo else 0, counter[x] + 1) for x in window]
        for cs in itertools.product(*ranges):
            n = sum(cs)
            if cap_n is not None and n > cap_n:
                continue
            level = tuple(
                sorted((x for x, c in zip(window, cs, strict=True) for _ in range(c)), reverse=True)
            )
            yield level


def all_towers(team: Iterable[int], rules) -> Iterator[Tower]:
    """Every tower (as sorted-descending level tuples, bottom first) that could be legal."""
    counter = Counter(team)

    def rec(counter: Counter, tower: list) -> Iterator[Tower]:
        below = tower[-1] if tower else None
        for level in _sub_multisets(counter, below, rules.mix_spread):
            rest = counter - Counter(level)
            tower.append(level)
            yield tuple(tower)
            yield from rec(rest, tower)
            tower.pop()

    yield from rec(counter, [])


def festival_score(levels: Sequence[Sequence[int]], sizes: Iterable[int], rules) -> int:
    wanted = set(sizes)
    matches = sum(1 for level in levels for x in level if x in wanted)
    return rules.score_per_level * len(levels) + rules.score_per_match * matches


def _matches(levels: Sequence[Sequence[int]], sizes: Iterable[int]) -> int:
    wanted = set(sizes)
    return sum(1 for level in levels for x in level if x in wanted)


def best_tower(
    team: Iterable[int],
    ranks: Mapping[str, int],
    rules,
    sizes: Iterable[int] = (),
    min_levels: int = 1,
    n_levels: int | None = None,
    shape: Sequence[int] | None = None,
    needs: Iterable[str] | None = None,
) -> tuple[int, Tower] | None:
    """(score, tower) of the solver's documented optimum, by exhaustive enumeration.

    Tie-break: score, matching castellers, fewer total uses (of the cheapest legal accounting
    meeting `needs`), lexicographically largest tower.
    """
    sizes = tuple(set(sizes))
    needs = tuple(needs) if needs is not None else ()
    best_key = None
    best = None
    for tower in all_towers(team, rules):
        if len(tower) < min_levels:
            continue
        if n_levels is not None and len(tower) != n_levels:
            continue
        if shape is not None and [len(level) for level in tower] != list(shape):
            continue
        present = {x for level in tower for x in level}
        if any(s not in present for s in sizes):
            continue
        accs = [a for a in accountings(tower, ranks, rules) if all(a[s] >= 1 for s in needs)]
        if not accs:
            continue
        uses = min(sum(a.values()) for a in accs)
        score = festival_score(tower, sizes, rules)
        key = (score, _matches(tower, sizes), -uses, tower)
        if best_key is None or key > best_key:
            best_key, best = key, (score, tower)
    return best


def tallest(team: Iterable[int], ranks: Mapping[str, int], rules) -> int:
    """Most levels of any legal tower (0 for an empty team)."""
    return max((len(t) for t in all_towers(team, rules) if is_legal(t, ranks, rules)), default=0)
