"""Tower legality: the one implementation of C-5 / C-6 / C-6.3a that the engine relies on.

Every tower question in the game (may I build this tower? does it complete that tile? what does
it score at this festival?) goes through this module, so there is exactly one reading of the
accounting rule C-6.3a. The exact solver (`solver.py`) builds towers and then re-checks them here.

No game number lives in this module: the width limit, the casteller numbers, the Mix spread, the
Width step and the score weights all come from a `TowerRules` compiled from the rule file.

Accounting (C-6.3a), levels bottom first:

- Mix: one use per level whose largest and smallest number differ by 1..`mix_spread`; a larger
  spread is illegal.
- Strength: one use per adjacent pair where the upper level's largest number equals the lower
  level's smallest number; larger is illegal.
- Balance: one use per adjacent pair with equally many castellers; more castellers above is
  illegal.
- Width / Base: the width limit is ``W = width_limit + w * width_step`` for ``w`` Width uses. Two
  accountings exist: the bottom level is not a Base level (every level must fit, so ``w`` is the
  fewest uses that fit the bottom level, which is the widest), or it is a Base level (one Base use;
  ``w`` fits level 2). A Base accounting only exists when the bottom level really is wider than
  the ``W`` of that accounting: a skill is used only when the tower needs it (C-6.3), so a tower
  whose bottom fits never "uses" Base, e.g. for an exhibition.
- A tower is legal when one accounting stays within every rank. `TowerCheck.uses` is the legal
  accounting with fewer total uses; on equal totals the one without a Base use.

Reason codes (`TowerCheck.reason_code`, stable: tools match on them). The first problem is
reported: structural problems scanning levels bottom-up (per level in the order listed), then
rank shortfalls scanning levels bottom-up (per level: width, mix, strength, balance).

Structural (illegal whatever the ranks):
  ``empty-tower``        the tower has no levels
  ``empty-level``        a level has no castellers
  ``unknown-size``       a casteller that is not an int in `TowerRules.sizes`
  ``mixed-spread``       a level's numbers differ by more than `TowerRules.mix_spread`
  ``larger-than-below``  a level's largest number exceeds the smallest number of the level below
  ``wider-than-below``   a level has more castellers than the level below
Rank shortfalls (also used when the rule set offers no skill for that relaxation):
  ``needs-width``        a level is wider than the width limit the Width rank allows
                         (on level 1 when no Base accounting helps, on level 2 when the bottom
                         is a Base level and level 2 is still too wide)
  ``needs-base``         the bottom level is too wide, the rule set has no Width relaxation and
                         the Base rank is 0
  ``needs-mix``          one Mix use more than the Mix rank
  ``needs-strength``     one Strength use more than the Strength rank
  ``needs-balance``      one Balance use more than the Balance rank
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from castell_dsl.contract import Record, short_repr

#: The five relaxations of C-6.2, named after the rule file's skills (Balance, Base, Mix,
#: Strength, Width). Each value is the relaxation id that a rule file's ``relaxes`` field names,
#: so a variant may give a relaxation to a skill of any name; the engine and the solver only ever
#: speak of the relaxation, through these constants.
BALANCE = "equal_count"  # a level as wide as the level below
BASE = "wide_bottom"  # the bottom level beyond the width limit
MIX = "mixed_sizes"  # a level of numbers that differ by at most `TowerRules.mix_spread`
STRENGTH = "equal_size"  # a level whose largest number equals the smallest one below
WIDTH = "wider"  # the width limit raised by `TowerRules.width_step` per use

#: Every relaxation id a rule set may map to a skill, in this fixed order.
RELAXATIONS: tuple[str, ...] = (BALANCE, BASE, MIX, STRENGTH, WIDTH)

#: Every reason code `check` can report, structural ones first.
REASON_CODES: tuple[str, ...] = (
    "empty-tower",
    "empty-level",
    "unknown-size",
    "mixed-spread",
    "larger-than-below",
    "wider-than-below",
    "needs-width",
    "needs-base",
    "needs-mix",
    "needs-strength",
    "needs-balance",
)


class FrozenMap(Mapping[str, str]):
    """An immutable, hashable str -> str mapping.

    `TowerRules` is an `functools.lru_cache` key for the solver, so its mappings must hash; a
    `types.MappingProxyType` does not, and a dict would let a caller change cached rules.
    """

    __slots__ = ("_data", "_hash")

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        data = dict(items.items() if isinstance(items, Mapping) else items)
        self._data = data
        self._hash = hash(frozenset(data.items()))

    def __getitem__(self, key: str) -> str:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._data == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"

    def __reduce__(self) -> tuple[type[FrozenMap], tuple[tuple[tuple[str, str], ...]]]:
        return (FrozenMap, (tuple(self._data.items()),))


class _Plan:
    """Facts derived once from a `TowerRules`, so `check` does no per-call set-up.

    `balance`, `base`, `mix`, `strength` and `width` name the skill that grants each relaxation
    (None: the rule set does not offer it).
    """

    __slots__ = (
        "balance",
        "base",
        "contiguous",
        "limit",
        "mix",
        "size_set",
        "skills",
        "smax",
        "smin",
        "spread",
        "step",
        "strength",
        "titles",
        "width",
        "zero",
    )

    def __init__(self, rules: TowerRules) -> None:
        skill_for = rules.relaxations.get
        self.balance: str | None = skill_for(BALANCE)
        self.base: str | None = skill_for(BASE)
        self.mix: str | None = skill_for(MIX)
        self.strength: str | None = skill_for(STRENGTH)
        self.width: str | None = skill_for(WIDTH)
        self.skills = rules.skills
        self.size_set = frozenset(rules.sizes)
        self.smin = min(rules.sizes)
        self.smax = max(rules.sizes)
        self.contiguous = len(self.size_set) == self.smax - self.smin + 1
        self.limit = rules.width_limit
        self.step = rules.width_step
        self.spread = rules.mix_spread
        self.titles = rules.titles
        self.zero = dict.fromkeys(rules.skills, 0)


@dataclass(frozen=True, slots=True)
class TowerRules:
    """Tower parameters compiled from a rule set (C-5, C-6, C-9.3).

    `relaxations` maps relaxation ids (`RELAXATIONS`) to skill names; a relaxation missing from
    the map is unavailable. Each skill grants at most one relaxation, because a rank counts the
    uses of one relaxation (C-5.5). Mappings are stored as `FrozenMap` so the rules can key caches.
    """

    sizes: tuple[int, ...]
    width_limit: int
    skills: tuple[str, ...]
    relaxations: Mapping[str, str]
    titles: Mapping[str, str]
    mix_spread: int
    width_step: int
    score_per_level: int
    score_per_match: int
    _plan: _Plan = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        sizes = tuple(sorted(self.sizes))
        if not sizes or len(set(sizes)) != len(sizes):
            raise ValueError("sizes must be a non-empty set of distinct casteller numbers")
        if self.width_limit < 1:
            raise ValueError("width_limit must be at least 1")
        if self.width_step < 1:
            raise ValueError("width_step must be at least 1")
        if self.mix_spread < 0:
            raise ValueError("mix_spread must not be negative")
        if self.score_per_level < 0 or self.score_per_match < 0:
            raise ValueError("score weights must not be negative")
        skills = tuple(self.skills)
        if len(set(skills)) != len(skills):
            raise ValueError("skills must be distinct")
        relaxations = FrozenMap(self.relaxations)
        for rid, skill in relaxations.items():
            if rid not in RELAXATIONS:
                raise ValueError(f"unknown relaxation {rid!r}; known: {', '.join(RELAXATIONS)}")
            if skill not in skills:
                raise ValueError(f"relaxation {rid!r} names unknown skill {skill!r}")
        if len(set(relaxations.values())) != len(relaxations):
            raise ValueError("each skill may grant at most one relaxation")
        titles = FrozenMap(self.titles)
        object.__setattr__(self, "sizes", sizes)
        object.__setattr__(self, "skills", skills)
        object.__setattr__(self, "relaxations", relaxations)
        object.__setattr__(self, "titles", titles)
        object.__setattr__(self, "_plan", _Plan(self))
        object.__setattr__(
            self,
            "_hash",
            hash(
                (
                    sizes,
                    self.width_limit,
                    skills,
                    relaxations,
                    titles,
                    self.mix_spread,
                    self.width_step,
                    self.score_per_level,
                    self.score_per_match,
                )
            ),
        )

    def __hash__(self) -> int:
        # Cached: the rules are hashed on every solver query (lru_cache key).
        return self._hash

    def __getstate__(self) -> tuple[object, ...]:
        # Pickle only the public fields; the plan and hash are rebuilt (e.g. on a dask worker).
        return (
            self.sizes,
            self.width_limit,
            self.skills,
            self.relaxations,
            self.titles,
            self.mix_spread,
            self.width_step,
            self.score_per_level,
            self.score_per_match,
        )

    def __setstate__(self, state: tuple[object, ...]) -> None:
        names = (
            "sizes",
            "width_limit",
            "skills",
            "relaxations",
            "titles",
            "mix_spread",
            "width_step",
            "score_per_level",
            "score_per_match",
        )
        for name, value in zip(names, state, strict=True):
            object.__setattr__(self, name, value)
        self.__post_init__()

    def title(self, skill: str) -> str:
        """Display title of a skill (falls back to the skill name)."""
        return self.titles.get(skill, skill)


@dataclass(frozen=True, slots=True)
class TowerCheck:
    """Outcome of `check`.

    `uses` is the chosen accounting (None when illegal); `accountings` holds every legal
    accounting, because a skill exhibition (C-8.4) may be met by one that is not the cheapest.
    `level` is the 1-based level (from the bottom) that `reason` is about.
    """

    legal: bool
    uses: dict[str, int] | None
    reason: str | None = None
    reason_code: str | None = None
    level: int | None = None
    accountings: tuple[dict[str, int], ...] = ()
    height: int = 0


def _uses(
    plan: _Plan, balance: int, base: int, mix: int, strength: int, width: int
) -> dict[str, int]:
    # Copy an all-zero dict and fill the few non-zero entries: the cheapest way to build it.
    # `check` counts a use only of a relaxation the rule set offers (it found the tower
    # illegal otherwise), so each skill below is there when its count is not zero.
    uses = plan.zero.copy()
    if balance:
        assert plan.balance is not None
        uses[plan.balance] = balance
    if base:
        assert plan.base is not None
        uses[plan.base] = base
    if mix:
        assert plan.mix is not None
        uses[plan.mix] = mix
    if strength:
        assert plan.strength is not None
        uses[plan.strength] = strength
    if width:
        assert plan.width is not None
        uses[plan.width] = width
    return uses


def check(
    levels: Sequence[Sequence[int]], ranks: Mapping[str, int], rules: TowerRules
) -> TowerCheck:
    """Is the tower legal under `ranks` (C-5.1-C-5.4, C-6.2, C-6.3, C-6.3a)?

    `levels` lists casteller numbers per level, bottom first; `ranks` maps skill name to rank
    (a missing skill has rank 0). This runs on every tower action, so the legal path is a single
    plain loop (`legal_accountings`); any problem is handed to `_diagnose`, which finds the
    first one in words.
    """
    found = legal_accountings(levels, ranks, rules)
    if found is None:
        return _diagnose(levels, ranks, rules)
    return TowerCheck(True, found[0], None, None, None, found[1], len(levels))


def legal_accountings(
    levels: Sequence[Sequence[int]], ranks: Mapping[str, int], rules: TowerRules
) -> tuple[dict[str, int], tuple[dict[str, int], ...]] | None:
    """The legal path of `check`: (the chosen accounting, every legal accounting) of a legal
    tower, or None when it is not legal (`check` then says why). Each dict is new.

    For callers that only need the uses of a tower they expect to be legal (the solver re-checks
    every tower it returns), without building a `TowerCheck`.
    """
    plan = rules._plan
    h = len(levels)
    if not h:
        return None
    mix = strength = balance = 0
    prev_lo = prev_n = 0
    contiguous = plan.contiguous
    smin = plan.smin
    smax = plan.smax
    spread = plan.spread
    first = True
    for level in levels:
        n = len(level)
        ints = True
        # The smallest and largest numbers, as min() and max() pick them (the first of equal
        # ones), in plain comparisons: builtins cost more for levels this short.
        if n == 1:
            lo = hi = level[0]
        elif n == 2:
            a, b = level
            if b < a:
                lo, hi = b, a
            elif b > a:
                lo, hi = a, b
            else:
                lo = hi = a
        elif n:
            lo = hi = level[0]
            for x in level:
                if x < lo:
                    lo = x
                elif x > hi:
                    hi = x
                if type(x) is not int:
                    ints = False
        else:
            return None
        if contiguous:
            if lo < smin or hi > smax or (type(lo) is not int) or (type(hi) is not int):
                return None
            if not ints:
                return None
        else:
            size_set = plan.size_set
            for x in level:
                if type(x) is not int or x not in size_set:
                    return None
        if hi != lo:
            if hi - lo > spread:
                return None
            mix += 1
        if first:
            first = False
        else:
            if hi >= prev_lo:
                if hi > prev_lo:
                    return None
                strength += 1
            if n >= prev_n:
                if n > prev_n:
                    return None
                balance += 1
        prev_lo = lo
        prev_n = n

    get = ranks.get
    if mix and (plan.mix is None or mix > get(plan.mix, 0)):
        return None
    if strength and (plan.strength is None or strength > get(plan.strength, 0)):
        return None
    if balance and (plan.balance is None or balance > get(plan.balance, 0)):
        return None

    n0 = len(levels[0])
    limit = plan.limit
    if n0 <= limit:
        uses = _uses(plan, balance, 0, mix, strength, 0)
        return uses, (uses,)

    step = plan.step
    width_rank = get(plan.width, 0) if plan.width is not None else 0
    w0 = (n0 - limit + step - 1) // step
    plain = _uses(plan, balance, 0, mix, strength, w0) if w0 <= width_rank else None
    based = None
    if plan.base is not None and get(plan.base, 0) >= 1:
        n1 = len(levels[1]) if h > 1 else 0
        w1 = (n1 - limit + step - 1) // step if n1 > limit else 0
        if w1 <= width_rank and n0 > limit + w1 * step:
            based = _uses(plan, balance, 1, mix, strength, w1)
    if plain is None:
        if based is None:
            return None
        return based, (based,)
    if based is None:
        return plain, (plain,)
    # Fewer total uses wins; on equal totals the accounting without a Base use (C-6.3a).
    chosen = based if w0 > 1 + w1 else plain
    return chosen, (plain, based)


def _castellers(n: int) -> str:
    return "1 casteller" if n == 1 else f"{n} castellers"


def _plural(k: int, word: str) -> str:
    return f"{k} {word} use" if k == 1 else f"{k} {word} uses"


def _shortfall(rules: TowerRules, skill: str | None, k: int, ranks: Mapping[str, int]) -> str:
    """The tail of a rank-shortfall message for the k-th use of a relaxation's skill."""
    if skill is None:
        return "no skill in this rule set allows that"
    title = rules.title(skill)
    rank = ranks.get(skill, 0)
    if k == 1:
        return f"that needs {title}, and your {title} rank is {rank}"
    return f"that is {title} use {k}, and your {title} rank is {rank}"


def _illegal(code: str, level: int | None, reason: str, h: int) -> TowerCheck:
    return TowerCheck(False, None, reason, code, level, (), h)


def _diagnose(
    levels: Sequence[Sequence[int]], ranks: Mapping[str, int], rules: TowerRules
) -> TowerCheck:
    """Find the first problem of an illegal tower, in plain words (slow path, clarity first)."""
    plan = rules._plan
    h = len(levels)
    if not h:
        return _illegal("empty-tower", None, "the tower has no levels", 0)

    # Structural problems, bottom-up.
    for i, level in enumerate(levels):
        no = i + 1
        if not level:
            return _illegal("empty-level", no, f"level {no} has no castellers", h)
        for x in level:
            if type(x) is not int or x not in plan.size_set:
                return _illegal(
                    "unknown-size",
                    no,
                    f"level {no} has a casteller numbered {short_repr(x)}, which is not a "
                    "casteller number in this game",
                    h,
                )
        lo, hi = min(level), max(level)
        if hi - lo > plan.spread:
            return _illegal(
                "mixed-spread",
                no,
                f"level {no} mixes castellers numbered {lo} and {hi}, which differ by "
                f"{hi - lo}; a level may mix numbers that differ by at most {plan.spread}",
                h,
            )
        if i:
            below = levels[i - 1]
            if hi > min(below):
                return _illegal(
                    "larger-than-below",
                    no,
                    f"level {no} has a casteller numbered {hi}, larger than the smallest "
                    f"casteller ({min(below)}) on level {i} below it",
                    h,
                )
            if len(level) > len(below):
                return _illegal(
                    "wider-than-below",
                    no,
                    f"level {no} has {_castellers(len(level))}, more than the {len(below)} on "
                    f"level {i} below it",
                    h,
                )

    # Rank shortfalls, bottom-up: width (levels 1-2), then mix, strength, balance per level.
    limit, step = plan.limit, plan.step
    width_rank = ranks.get(plan.width, 0) if plan.width is not None else 0
    base_rank = ranks.get(plan.base, 0) if plan.base is not None else 0
    wmax = limit + width_rank * step
    n0 = len(levels[0])
    n1 = len(levels[1]) if h > 1 else 0
    width_problem: TowerCheck | None = None
    if n0 > wmax:
        base_fits = n1 <= wmax
        if plan.base is not None and base_rank >= 1 and base_fits:
            pass  # the bottom is a Base level and the rest fits
        elif plan.base is not None and base_rank >= 1:
            w1 = (n1 - limit + step - 1) // step
            base_title = rules.title(plan.base)
            if plan.width is None:
                tail = "and no skill in this rule set allows a wider level"
            else:
                width_title = rules.title(plan.width)
                tail = (
                    f"so that needs {_plural(w1, width_title)}, and your {width_title} rank is "
                    f"{width_rank}"
                )
            width_problem = _illegal(
                "needs-width",
                2,
                f"level 2 has {n1} castellers, more than the width limit of {limit}: only the "
                f"bottom level can be a {base_title} level, {tail}",
                h,
            )
        else:
            head = f"level 1 has {n0} castellers, more than the width limit of {limit}"
            w0 = (n0 - limit + step - 1) // step
            base = plan.base
            base_helps = base is not None and base_fits
            if plan.width is not None:
                width_title = rules.title(plan.width)
                needs = f"{head}: that needs {_plural(w0, width_title)}"
                if base is not None and base_helps:
                    base_title = rules.title(base)
                    msg = (
                        f"{needs} or {base_title}, and your {width_title} rank is {width_rank} "
                        f"and your {base_title} rank is {base_rank}"
                    )
                else:
                    msg = f"{needs}, and your {width_title} rank is {width_rank}"
                width_problem = _illegal("needs-width", 1, msg, h)
            elif base_helps:
                width_problem = _illegal(
                    "needs-base", 1, f"{head}: {_shortfall(rules, plan.base, 1, ranks)}", h
                )
            else:
                width_problem = _illegal(
                    "needs-width",
                    1,
                    f"{head}, and no skill in this rule set allows a wider level",
                    h,
                )

    def over(skill: str | None, k: int) -> bool:
        return skill is None or k > ranks.get(skill, 0)

    mix = strength = balance = 0
    for i, level in enumerate(levels):
        no = i + 1
        if width_problem is not None and width_problem.level == no:
            return width_problem
        lo, hi = min(level), max(level)
        if hi != lo:
            mix += 1
            if over(plan.mix, mix):
                return _illegal(
                    "needs-mix",
                    no,
                    f"level {no} mixes castellers numbered {lo} and {hi}: "
                    + _shortfall(rules, plan.mix, mix, ranks),
                    h,
                )
        if i:
            below = levels[i - 1]
            if hi == min(below):
                strength += 1
                if over(plan.strength, strength):
                    return _illegal(
                        "needs-strength",
                        no,
                        f"level {no} has a casteller numbered {hi}, the same as the smallest "
                        f"casteller on level {i} below it: "
                        + _shortfall(rules, plan.strength, strength, ranks),
                        h,
                    )
            if len(level) == len(below):
                balance += 1
                if over(plan.balance, balance):
                    return _illegal(
                        "needs-balance",
                        no,
                        f"level {no} has {_castellers(len(level))}, as many as level {i} below "
                        "it: " + _shortfall(rules, plan.balance, balance, ranks),
                        h,
                    )
    raise AssertionError(f"check found the tower {levels!r} illegal but no reason for it")


def meets_shape(levels: Sequence[Sequence[int]], shape: Sequence[int]) -> bool:
    """Does the tower have exactly `shape` castellers per level, bottom to top (C-8.3)?

    Legality is a separate question (`check`): a tile is completed by a legal tower of the shape.
    """
    if len(levels) != len(shape):
        return False
    return all(len(level) == n for level, n in zip(levels, shape, strict=True))


def meets_exhibition(
    check_result: TowerCheck, needs: Iterable[str], n_levels: int | None = None
) -> bool:
    """Does a checked tower complete a skill exhibition (C-8.4, C-6.3a)?

    One legal accounting must use every skill in `needs` at once (not one accounting per
    skill), and with `n_levels` the tower must have exactly that many levels.
    """
    if not check_result.legal:
        return False
    if n_levels is not None and check_result.height != n_levels:
        return False
    needs = tuple(needs)
    return any(all(acc.get(s, 0) >= 1 for s in needs) for acc in check_result.accountings)


def tile_shortfall(
    levels: Sequence[Sequence[int]],
    check_result: TowerCheck,
    tile: Record,
    exhibition_levels: str,
    titles: Mapping[str, str] | None = None,
) -> str | None:
    """Why a checked tower does not complete a local performance tile, or None if it does
    (C-8.3, C-8.4): the one place that says what completing a tile means, for the special
    action and `castell tower check --tile`.

    A shape tile needs exactly its shape. An exhibition needs one legal accounting that uses
    every listed skill, in a tower of exactly its points in levels, or at least that many when
    the rule set's `exhibition_levels` is `at_least`.
    """
    if tile.shape is not None:
        if meets_shape(levels, tile.shape):
            return None
        shape = "-".join(map(str, tile.shape))
        return f"{tile.name} needs the shape {shape} (castellers per level, bottom first)"
    if exhibition_levels == "exactly":
        completes = meets_exhibition(check_result, tile.exhibition, tile.points)
    else:
        completes = check_result.height >= tile.points and meets_exhibition(
            check_result, tile.exhibition
        )
    if completes:
        return None
    named = titles or {}
    skills = " and ".join(named.get(s, s) for s in tile.exhibition)
    how_many = exhibition_levels.replace("_", " ")
    return f"{tile.name} needs a tower of {how_many} {tile.points} levels that uses {skills}"


def tower_score(levels: Sequence[Sequence[int]], sizes: Iterable[int], rules: TowerRules) -> int:
    """Festival tower score (C-9.3): per level, plus per casteller whose number is in `sizes`.

    A casteller counts once even when two size tokens show its number.
    """
    wanted = frozenset(sizes)
    matches = sum(1 for level in levels for x in level if x in wanted) if wanted else 0
    return rules.score_per_level * len(levels) + rules.score_per_match * matches


def meets_festival(levels: Sequence[Sequence[int]], sizes: Iterable[int], min_levels: int) -> bool:
    """Can the tower compete at a festival (C-9.2)?

    It needs at least one casteller of each listed number and at least `min_levels` levels; the
    pawn-in-region condition is the engine's business. Legality is checked by `check`.
    """
    if len(levels) < min_levels:
        return False
    present = {x for level in levels for x in level}
    return all(s in present for s in sizes)


def check_tower_dict(
    levels: Sequence[Sequence[int]],
    ranks: Mapping[str, int],
    rules: TowerRules,
    needs: Iterable[str] | None = None,
    shape: Sequence[int] | None = None,
    n_levels: int | None = None,
) -> dict:
    """The stable JSON contract for a tower check.

    ``{"legal": true, "uses": {...every skill...}, "reason": null}`` or ``{"legal": false,
    "uses": null, "reason": "..."}``. With `needs` or `shape` a ``"meets"`` key says whether the
    tower completes that exhibition (`needs`, exactly `n_levels` levels when given) and/or shape.
    """
    result = check(levels, ranks, rules)
    out: dict = {
        "legal": result.legal,
        "uses": dict(result.uses) if result.uses is not None else None,
        "reason": result.reason,
    }
    if needs is not None or shape is not None:
        meets = result.legal
        if meets and shape is not None:
            meets = meets_shape(levels, shape)
        if meets and needs is not None:
            meets = meets_exhibition(result, needs, n_levels)
        out["meets"] = meets
    return out
