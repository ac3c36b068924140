"""Tower legality checker (towers.py): C-5.1-C-5.4, C-6.2, C-6.3, C-6.3a, C-8.3, C-8.4, C-9.2,
C-9.3. Property tests compare `check` with the independent oracle in brute_force.py."""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterable

import brute_force as bf
import pytest
from brute_force import SKILLS, make_rules
from castell_game.towers import (
    REASON_CODES,
    TowerRules,
    check,
    check_tower_dict,
    meets_exhibition,
    meets_festival,
    meets_shape,
    tower_score,
)
from hypothesis import given, settings
from hypothesis import strategies as st

ZERO = dict.fromkeys(SKILLS, 0)


def uses(**nonzero: int) -> dict[str, int]:
    return {**ZERO, **nonzero}


def legal_uses(levels, ranks, rules) -> dict[str, int]:
    result = check(levels, ranks, rules)
    assert result.legal, result.reason
    return result.uses


def code_of(levels, ranks, rules) -> tuple[str | None, int | None]:
    result = check(levels, ranks, rules)
    assert not result.legal
    assert result.uses is None and result.accountings == ()
    return result.reason_code, result.level


# --- C-5: the base rules, with every rank 0 ----------------------------------------------------


def test_c5_plain_tower_is_legal_and_uses_nothing(castell_tower_rules):
    """C-5.1-C-5.4: same numbers per level, smaller and narrower going up, width <= 3."""
    assert legal_uses([[6, 6, 6], [5, 5], [4]], {}, castell_tower_rules) == ZERO
    assert legal_uses([[9]], {}, castell_tower_rules) == ZERO


def test_c5_1_mixed_level_needs_mix(castell_tower_rules):
    """C-5.1 / C-6.2 Mix: a level mixing 6 and 5 needs Mix (one use per mixed level)."""
    assert code_of([[6, 5], [4]], {}, castell_tower_rules) == ("needs-mix", 1)
    assert legal_uses([[6, 5], [4]], {"mix": 1}, castell_tower_rules) == uses(mix=1)
    tower = [[7, 6, 6], [5, 4], [3]]
    assert code_of(tower, {"mix": 1}, castell_tower_rules) == ("needs-mix", 2)
    assert legal_uses(tower, {"mix": 2}, castell_tower_rules) == uses(mix=2)


def test_c6_3a_mix_spread_of_two_is_illegal_whatever_the_rank(castell_tower_rules):
    """C-6.3a: sizes differing by more than 1 on one level are illegal even with Mix 3."""
    assert code_of([[7, 5]], {"mix": 3}, castell_tower_rules) == ("mixed-spread", 1)
    assert code_of([[9, 9], [6, 4]], {"mix": 3}, castell_tower_rules) == ("mixed-spread", 2)


def test_c6_2_mixed_level_is_smaller_by_its_extremes(castell_tower_rules):
    """C-6.2 Mix: a mixed level is smaller when its largest is below the smallest below it."""
    assert legal_uses([[7, 6], [5, 4]], {"mix": 2, "balance": 1}, castell_tower_rules) == uses(
        mix=2, balance=1
    )
    # Largest above (6) equals the smallest below (6): Strength.
    assert code_of([[7, 6], [6, 5]], {"mix": 2, "balance": 1}, castell_tower_rules) == (
        "needs-strength",
        2,
    )


def test_c5_2_larger_above_is_illegal(castell_tower_rules):
    """C-5.2: a larger casteller above is illegal even with Strength."""
    ranks = dict.fromkeys(SKILLS, 3)
    assert code_of([[5, 5], [6]], ranks, castell_tower_rules) == ("larger-than-below", 2)


def test_c6_2_strength_on_equal_numbers(castell_tower_rules):
    """C-6.2 Strength: equal numbers on adjacent levels take one Strength use per pair."""
    assert code_of([[5, 5], [5]], {}, castell_tower_rules) == ("needs-strength", 2)
    assert legal_uses([[5, 5], [5]], {"strength": 1}, castell_tower_rules) == uses(strength=1)
    tower = [[5, 5, 5], [5, 5], [4]]
    assert legal_uses(tower, {"strength": 1}, castell_tower_rules) == uses(strength=1)
    tower = [[5, 5, 5], [5, 5], [5]]
    assert code_of(tower, {"strength": 1}, castell_tower_rules) == ("needs-strength", 3)
    assert legal_uses(tower, {"strength": 2}, castell_tower_rules) == uses(strength=2)


def test_c5_3_width_limit_and_width_rank(castell_tower_rules):
    """C-5.3 / C-6.2 Width: a level of 4 needs one Width use; Width 2 allows a level of 5."""
    assert code_of([[4, 4, 4, 4]], {}, castell_tower_rules) == ("needs-width", 1)
    assert legal_uses([[4, 4, 4, 4]], {"width": 1}, castell_tower_rules) == uses(width=1)
    five = [[8] * 5, [7] * 4, [6] * 3]
    assert legal_uses(five, {"width": 2}, castell_tower_rules) == uses(width=2)
    assert code_of(five, {"width": 1}, castell_tower_rules) == ("needs-width", 1)
    assert code_of([[8] * 6, [7]], {"width": 2}, castell_tower_rules) == ("needs-width", 1)


def test_c5_4_wider_above_is_illegal_and_equal_needs_balance(castell_tower_rules):
    """C-5.4 / C-6.2 Balance: more castellers above is illegal; as many needs Balance."""
    ranks = dict.fromkeys(SKILLS, 3)
    assert code_of([[6, 6], [5, 5, 5]], ranks, castell_tower_rules) == ("wider-than-below", 2)
    assert code_of([[6, 6], [5, 5]], {}, castell_tower_rules) == ("needs-balance", 2)
    assert legal_uses([[6, 6], [5, 5]], {"balance": 1}, castell_tower_rules) == uses(balance=1)


def test_c6_2_balance_on_the_top_level(castell_tower_rules):
    """C-6.2 Balance: a single casteller on a single casteller (the top pair) is one use."""
    tower = [[6, 6, 6], [5, 5], [4], [3]]
    assert code_of(tower, {}, castell_tower_rules) == ("needs-balance", 4)
    assert legal_uses(tower, {"balance": 1}, castell_tower_rules) == uses(balance=1)


def test_c6_2_base_widens_the_bottom_only(castell_tower_rules):
    """C-6.2 Base: the bottom may exceed the width limit with one Base use."""
    tower = [[9] * 7, [8, 8, 8], [7]]
    assert legal_uses(tower, {"base": 1}, castell_tower_rules) == uses(base=1)
    assert code_of(tower, {}, castell_tower_rules) == ("needs-width", 1)


def test_c6_3a_base_on_a_level_that_is_not_the_bottom_is_illegal(castell_tower_rules):
    """C-6.3a: only the bottom can be a Base level; a too-wide level 2 needs Width."""
    tower = [[9] * 5, [8] * 4, [7]]
    result = check(tower, {"base": 3, "balance": 3}, castell_tower_rules)
    assert (result.reason_code, result.level) == ("needs-width", 2)
    assert legal_uses(tower, {"base": 1, "width": 1}, castell_tower_rules) == uses(base=1, width=1)
    # Level 2 as wide as a Base bottom: Balance plus Width for level 2.
    tower = [[9] * 4, [8] * 4, [7]]
    assert code_of(tower, {"base": 1, "balance": 1}, castell_tower_rules) == ("needs-width", 2)


def test_c6_3a_width_and_base_tie_prefers_no_base(castell_tower_rules):
    """C-6.3a uses rule: Width 1 and Base 1 both account for a bottom of 4 (1 use each); on
    equal totals the accounting without a Base use is reported; both are legal accountings."""
    tower = [[6] * 4, [5, 5], [4]]
    result = check(tower, {"width": 1, "base": 1}, castell_tower_rules)
    assert result.uses == uses(width=1)
    assert uses(base=1) in result.accountings and uses(width=1) in result.accountings
    # With only Base, Base is the accounting.
    assert legal_uses(tower, {"base": 1}, castell_tower_rules) == uses(base=1)


def test_c6_3a_fewer_total_uses_wins(castell_tower_rules):
    """C-6.3a: a bottom of 5 is Width 2 (2 uses) or Base (1 use): Base is reported."""
    tower = [[6] * 5, [5, 5], [4]]
    assert legal_uses(tower, {"width": 2, "base": 1}, castell_tower_rules) == uses(base=1)


def test_c6_3a_a_bottom_that_fits_is_not_a_base_level(castell_tower_rules):
    """C-6.3, C-6.3a: a skill is used only when the tower needs it: no Base accounting
    when the bottom fits."""
    result = check([[6, 6, 6], [5, 5], [4]], {"base": 1}, castell_tower_rules)
    assert result.accountings == (ZERO,)
    assert not meets_exhibition(result, ["base"])


def test_c6_3a_base_bottom_with_width_above(castell_tower_rules):
    """C-6.3a: Base bottom, level 2 of 4 needs one Width use; the plain reading needs Width 3."""
    tower = [[9] * 6, [8] * 4, [7]]
    result = check(tower, {"base": 1, "width": 3}, castell_tower_rules)
    assert result.uses == uses(base=1, width=1)
    assert set(map(json.dumps, result.accountings)) == {
        json.dumps(uses(width=3)),
        json.dumps(uses(base=1, width=1)),
    }


# --- Reasons ---------------------------------------------------------------------------------


def test_c6_3_exact_reason_strings(castell_tower_rules):
    """C-6.3: the first problem in plain words, levels counted from the bottom."""
    reason = check([[6, 6, 6], [5, 5], [4, 4], [3]], {"balance": 0}, castell_tower_rules).reason
    assert reason == (
        "level 3 has 2 castellers, as many as level 2 below it: that needs Balance, and your "
        "Balance rank is 0"
    )
    reason = check([[6, 6, 6], [5, 5, 5], [4, 4, 4]], {"balance": 1}, castell_tower_rules).reason
    assert reason == (
        "level 3 has 3 castellers, as many as level 2 below it: that is Balance use 2, and your "
        "Balance rank is 1"
    )
    reason = check([[6, 4]], {"mix": 3}, castell_tower_rules).reason
    assert reason == (
        "level 1 mixes castellers numbered 4 and 6, which differ by 2; a level may mix numbers "
        "that differ by at most 1"
    )
    reason = check([[6, 6], [7]], {}, castell_tower_rules).reason
    assert reason == (
        "level 2 has a casteller numbered 7, larger than the smallest casteller (6) on level 1 "
        "below it"
    )
    reason = check([[6] * 5, [5]], {"width": 1}, castell_tower_rules).reason
    assert reason == (
        "level 1 has 5 castellers, more than the width limit of 3: that needs 2 Width uses or "
        "Base, and your Width rank is 1 and your Base rank is 0"
    )
    reason = check([[6, 6], [5]], {}, castell_tower_rules).reason
    assert reason is None


def test_c6_3_structural_problems_come_before_rank_shortfalls(castell_tower_rules):
    """C-6.3 reasons: a structural problem higher up beats a rank shortfall lower down."""
    tower = [[6, 5], [4, 4, 4]]  # level 1 needs Mix (rank 0), level 2 is wider than level 1
    assert code_of(tower, {}, castell_tower_rules) == ("wider-than-below", 2)


@pytest.mark.parametrize(
    ("levels", "code", "level"),
    [
        ([], "empty-tower", None),
        ([[5], []], "empty-level", 2),
        ([[11]], "unknown-size", 1),
        ([[5, 0]], "unknown-size", 1),
        ([[5.0]], "unknown-size", 1),
        ([[True]], "unknown-size", 1),
    ],
)
def test_c5_structural_reason_codes(castell_tower_rules, levels, code, level):
    """C-5: malformed towers get stable codes."""
    assert code_of(levels, dict.fromkeys(SKILLS, 3), castell_tower_rules) == (code, level)


def test_unavailable_relaxation_is_explained():
    """C-6.2 with a rule set lacking Balance: equal counts can never be accounted for."""
    rules = make_rules(relaxations={"equal_size": "strength", "wider": "width"})
    result = check([[6, 6], [5, 5]], dict.fromkeys(SKILLS, 3), rules)
    assert result.reason_code == "needs-balance"
    assert result.reason.endswith("no skill in this rule set allows that")
    result = check([[6] * 4], {"base": 3}, rules)
    assert result.reason_code == "needs-width"
    result = check([[6] * 4], {"width": 1}, rules)
    assert result.legal


def test_width_step_variant():
    """C-6.3a with a variant Width step of 2: one use widens the limit by 2."""
    rules = make_rules(width_step=2)
    assert check([[6] * 5], {"width": 1}, rules).uses == uses(width=1)
    assert check([[6] * 6], {"width": 1}, rules).reason_code == "needs-width"


# --- C-8 / C-9 helpers -------------------------------------------------------------------------


def test_c8_3_meets_shape():
    """C-8.3: exactly the pictured number of castellers per level, bottom to top."""
    assert meets_shape([[6, 6, 6], [5, 5], [4]], [3, 2, 1])
    assert not meets_shape([[6, 6, 6], [5, 5], [4]], [3, 2])
    assert not meets_shape([[6, 6, 6], [5, 5], [4]], [3, 1, 1])


def test_c8_4_exhibition_needs_two_skills_in_one_accounting(castell_tower_rules):
    """C-8.4 / C-6.3a: one accounting must use every listed skill at once, with exactly the
    tile's number of levels."""
    tower = [[6, 6, 5], [4, 4, 4]]
    result = check(tower, {"balance": 1, "mix": 1}, castell_tower_rules)
    assert meets_exhibition(result, ["balance", "mix"], 2)
    assert not meets_exhibition(result, ["balance", "mix"], 3)
    assert not meets_exhibition(result, ["balance", "strength"], 2)
    assert meets_exhibition(result, [], None)
    # Base and Width each have an accounting here, but not one accounting using both.
    result = check([[6] * 4, [5, 5], [4]], {"width": 1, "base": 1}, castell_tower_rules)
    assert meets_exhibition(result, ["base"], 3)
    assert meets_exhibition(result, ["width"], 3)
    assert not meets_exhibition(result, ["base", "width"], 3)
    # Here the Base accounting also uses Width.
    result = check([[9] * 6, [8] * 4, [7]], {"base": 1, "width": 1}, castell_tower_rules)
    assert meets_exhibition(result, ["base", "width"], 3)
    # An illegal tower meets nothing.
    result = check([[6, 6], [5, 5]], {}, castell_tower_rules)
    assert not meets_exhibition(result, [], None)


def test_c9_3_tower_score(castell_tower_rules):
    """C-9.3: 1 per level + 1 per casteller whose number is a festival size."""
    tower = [[6, 6, 6], [5, 5], [4], [3]]
    assert tower_score(tower, (), castell_tower_rules) == 4
    assert tower_score(tower, (6, 5), castell_tower_rules) == 9
    assert tower_score(tower, (6, 6), castell_tower_rules) == 7  # a casteller counts once
    weighted = make_rules(score_per_level=2, score_per_match=3)
    assert tower_score(tower, (4,), weighted) == 11


def test_c9_2_meets_festival():
    """C-9.2: one casteller of each size shown and at least the minimum number of levels."""
    tower = [[6, 6, 6], [5, 5], [4], [3]]
    assert meets_festival(tower, (6, 3), 4)
    assert not meets_festival(tower, (6, 3), 5)
    assert not meets_festival(tower, (7,), 1)
    assert meets_festival(tower, (), 1)


def test_check_tower_dict_contract(castell_tower_rules):
    """The stable JSON contract of a check (C-6.3, C-8.3, C-8.4)."""
    out = check_tower_dict([[6, 6, 6], [5, 5], [4], [3]], {"balance": 1}, castell_tower_rules)
    assert out == {"legal": True, "uses": uses(balance=1), "reason": None}
    assert list(out["uses"]) == list(SKILLS)
    out = check_tower_dict([[6, 6], [5, 5]], {}, castell_tower_rules, shape=[2, 2])
    assert out["legal"] is False and out["uses"] is None and out["meets"] is False
    assert out["reason"].startswith("level 2 has 2 castellers")
    out = check_tower_dict(
        [[6, 6, 5], [4, 4, 4]], {"balance": 1, "mix": 1}, castell_tower_rules, needs=["mix"]
    )
    assert out["meets"] is True
    out = check_tower_dict([[6, 6], [5]], {}, castell_tower_rules, shape=[2, 1], needs=["mix"])
    assert out["meets"] is False
    json.dumps(out)


def test_tower_rules_are_hashable_immutable_and_validated(castell_tower_rules):
    """The rules key the solver's caches: hashable, equal by value, picklable, checked."""
    assert hash(castell_tower_rules) == hash(make_rules())
    assert castell_tower_rules == make_rules()
    assert pickle.loads(pickle.dumps(castell_tower_rules)) == castell_tower_rules
    with pytest.raises(AttributeError):
        castell_tower_rules.width_limit = 4
    with pytest.raises(TypeError):
        castell_tower_rules.relaxations["wider"] = "mix"
    assert castell_tower_rules.relaxations["wider"] == "width"
    with pytest.raises(ValueError, match="unknown relaxation"):
        make_rules(relaxations={"fly": "width"})
    with pytest.raises(ValueError, match="unknown skill"):
        make_rules(relaxations={"wider": "jump"})
    with pytest.raises(ValueError, match="at most one relaxation"):
        make_rules(relaxations={"wider": "width", "wide_bottom": "width"})
    assert isinstance(castell_tower_rules, TowerRules)


# --- Properties against the brute-force oracle ---------------------------------------------------

ranks_st = st.fixed_dictionaries({s: st.integers(0, 3) for s in SKILLS})


@st.composite
def near_towers(draw: st.DrawFn) -> list[list[int]]:
    """Towers that are mostly almost legal, with occasional structural faults (numbers 0-11,
    empty levels, wider or larger levels, spreads of 2)."""
    levels = []
    lo = draw(st.integers(3, 11))
    n = draw(st.integers(1, 7))
    for _ in range(draw(st.integers(1, 6))):
        lo = draw(st.integers(max(0, lo - 3), min(11, lo + 1)))
        spread = draw(st.sampled_from([0, 0, 0, 1, 1, 2]))
        n = draw(st.integers(max(0, n - 2), n + 1))
        extra = [lo + draw(st.integers(0, spread)) for _ in range(max(0, n - 1))]
        levels.append([lo, *extra] if n else [])
    return levels


def assert_agrees(levels: list[list[int]], ranks: dict[str, int], rules: TowerRules) -> None:
    result = check(levels, ranks, rules)
    accounts = bf.accountings(levels, ranks, rules)
    assert result.legal == bool(accounts), (levels, ranks, result)
    if result.legal:
        assert result.uses == bf.chosen_uses(levels, ranks, rules)
        assert sorted(json.dumps(a) for a in result.accountings) == sorted(
            json.dumps(a) for a in accounts
        )
        assert result.reason is None and result.reason_code is None
    else:
        assert result.reason and result.reason_code in REASON_CODES
        assert result.level is None or 1 <= result.level <= len(levels)


@settings(max_examples=bf.examples(600), deadline=None)
@given(levels=near_towers(), ranks=ranks_st)
def test_c6_3a_checker_agrees_with_brute_force_on_random_towers(levels, ranks):
    """C-5.1-C-5.4, C-6.2, C-6.3a: check() == the oracle's literal accounting."""
    assert_agrees(levels, ranks, make_rules())


@settings(max_examples=bf.examples(100), deadline=None)
@given(team=st.lists(st.integers(1, 10), max_size=7), ranks=ranks_st)
def test_c6_3a_checker_agrees_on_every_tower_of_a_team(team, ranks):
    """C-6.3a: exhaustively, every tower a small team can stack."""
    rules = make_rules()
    for tower in bf.all_towers(team, rules):
        assert_agrees([list(level) for level in tower], ranks, rules)


VARIANTS = {
    "spread2": make_rules(mix_spread=2),
    "step2-limit2": make_rules(width_step=2, width_limit=2),
    "no-base": make_rules(
        relaxations={
            "equal_count": "balance",
            "mixed_sizes": "mix",
            "equal_size": "strength",
            "wider": "width",
        }
    ),
    "gaps": make_rules(sizes=(1, 2, 3, 5, 6, 8, 9, 10)),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(max_examples=bf.examples(60), deadline=None)
@given(levels=near_towers(), ranks=ranks_st)
def test_c6_3a_checker_agrees_under_variant_rules(variant, levels, ranks):
    """C-6.3a with variant numbers (spread, step, missing Base, gaps in the sizes)."""
    assert_agrees(levels, ranks, VARIANTS[variant])


def _iter_levels(levels: Iterable[Iterable[int]]) -> list[list[int]]:
    return [list(level) for level in levels]


@settings(max_examples=bf.examples(100), deadline=None)
@given(levels=near_towers(), sizes=st.lists(st.integers(1, 10), max_size=2))
def test_c9_helpers_agree_with_brute_force(levels, sizes):
    """C-9.2 / C-9.3: score and festival test against plain recomputation."""
    rules = make_rules()
    assert tower_score(levels, sizes, rules) == bf.festival_score(levels, sizes, rules)
    present = {x for level in _iter_levels(levels) for x in level}
    assert meets_festival(levels, sizes, 4) == (
        len(levels) >= 4 and all(s in present for s in sizes)
    )
