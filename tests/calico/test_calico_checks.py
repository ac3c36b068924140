"""Calico's rule checks: a rule file that compiles but could not be played is refused, with a
stable code and a position (K-1 … K-8 as data)."""

from __future__ import annotations

import pytest

from castell_dsl.language.diagnostics import CODES

BEGINNER = (
    "override setup { cats [Millie, Tibbit, Coconut]  goals [all_different, aa_bb_cc, aaa_bbb]"
    "  goal_placement in_order }\n"
)


def errors(report) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in report.diagnostics if d.is_error]


def only_code(report) -> str:
    found = errors(report)
    assert found, "expected an error"
    codes = {code for code, _ in found}
    assert len(codes) == 1, found
    (code,) = codes
    assert code in CODES
    return code


@pytest.mark.parametrize(
    ("patch", "code", "words"),
    [
        # K-1.1: the declared box disagrees with the bag.
        ("override bag { copies 2 }", "E0250", "108 patches"),
        # K-1.2: an edge patch off the ring, a hole in the ring, a goal space on the ring.
        (
            "override board blue { edge { at [3, 3]  colour pink  pattern vines } }\n"
            "override components { edge_patches: 73 }",
            "E0211",
            "not on the outer ring",
        ),
        ("override quilt { goal_spaces [[3, 2], [4, 3], [0, 4]] }", "E0211", "goal space"),
        ("override game { rounds 20 }", "E0250", "22 empty spaces"),
        # K-4.2: counts must describe six neighbours.
        ("override goal aa_bb_cc { counts [2, 2, 1] }", "E0250", "counts 5 neighbours"),
        # K-5.2: a shape in two pieces, a cat with no condition.
        ("override cat Rumi { shape [[0, 0], [2, 0], [3, 0]] }", "E0231", "not one connected"),
        ("remove cat Millie\ncat Millie { points 3  dots 1 }", "E0203", "exactly one of"),
        # K-2.3: two patterns on each of three cats is six patterns.
        ("override cat_rules { patterns_per_cat 3 }", "E0250", "need 9 patterns"),
        ("override setup { cats [Millie, Tibbit] }", "E0250", "need 4 patterns"),
        ("override setup { cat_dots [3, 3, 3] }", "E0250", "3 dot(s)"),
        ("override setup { reveal 7 }", "E0211", "reveals 7"),
        # K-6: a colour without its button.
        ("remove button pink", "E0203", "colour pink has no button"),
        ("override button rainbow { group 3 }", "E0210", "exactly one of"),
        # K-8.2, K-8.3: a bag too small for the draws, a market that discards everything.
        ("override bag { remove_sets { 1..4: 1 } }", "E0250", "draws 95 patches"),
        ("override market { discard_after_take 3 }", "E0211", "discards 3"),
        ("override market { discard_after_take 1 }", "E0203", "from which end"),
        # K-8.2: a bag for some player counts must give each of them its sets.
        ("override bag { remove_sets { 1..2: 1 } }", "E0241", "no entry for 3, 4 players"),
        ("override bag { players 1..2  remove_sets { 1: 1 } }", "E0241", "no entry for 2"),
        ("override bag { players 5..6 }", "E0211", "the bag is for 5 to 6 players"),
        # Letters must tell patches apart in views.
        ('override pattern vines { letter "D" }', "E0212", "letter 'D'"),
    ],
)
def test_inconsistent_rule_files_are_refused(diagnose, patch, code, words):
    report = diagnose('extends "calico"\n' + patch + "\n", "bad.castell")
    assert code in CODES
    assert any(c == code and words in m for c, m in errors(report)), errors(report)


def test_a_board_with_a_hole_in_its_ring_is_refused(diagnose):
    text = (
        'extends "calico"\nremove board blue\nboard blue { title "Blue"\n'
        "  edge { at [0, 0]  colour pink  pattern vines }\n}\n"
        "override components { edge_patches: 73 }\n"
    )
    report = diagnose(text, "hole.castell")
    assert only_code(report) == "E0203"
    assert "board blue has no edge patch at [1, 0]" in errors(report)[0][1]


@pytest.mark.parametrize(
    ("objectives", "code"),
    [
        ("objective rainbw {}", "E0220"),
        ("objective score {}", "E0203"),
        ("objective rainbow { at_least 2 }", "E0202"),
        ("objective goals_both_ways { at_least 4 }", "E0211"),
        (
            "objective goals { at_least 2  plus goals_both_ways }  "
            "objective goals_both_ways { at_least 2 }",
            "E0211",
        ),
        ("objective goals { at_least 2  plus goals_both_ways }", "E0203"),
        ("objective score { at_least 2  plus goals_both_ways }", "E0202"),
    ],
)
def test_k_8_4_scenario_objectives_must_be_well_formed(diagnose, objectives, code):
    """K-8.4: including `plus`, which must be on `goals`, name an objective that is there, and
    leave the sum within the quilt's goal spaces."""
    text = f'extends "calico"\nscenario {{ number 1  title "x"  {objectives} }}\n'
    report = diagnose(text, "scenario.castell")
    assert only_code(report) == code


def test_every_shipped_calico_file_validates_cleanly():
    from pathlib import Path

    from castell_dsl.runtime.loading import load_report

    root = Path(__file__).resolve().parents[2] / "rules" / "calico"
    files = [root / "calico.castell", *sorted((root / "variants").glob("*.castell"))]
    for path in files:
        text = path.read_text()
        if path.name != "calico.castell" and 'extends "calico"' not in text:
            continue
        report = load_report(path)
        assert report.ok and not report.diagnostics, (path, report.diagnostics)


def test_every_default_is_marked_in_the_rule_file():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "rules" / "calico"
    text = (root / "calico.castell").read_text()
    for line in (
        "first_player random",
        "boards random",
        "cat_dots [1, 2, 3]",
        "shape_match exact",
        "patterns_may_touch true",
        "take_when_full false",
        "each_colour 1  limit 1",
    ):
        near = [i for i, t in enumerate(text.splitlines()) if line in t]
        assert near, line
        lines = text.splitlines()
        window = " ".join(lines[max(0, near[0] - 1) : near[0] + 1])
        assert "[default]" in window, line


def test_k_8_2_a_bag_without_sets_for_three_and_four_says_how_to_limit_it(diagnose):
    """K-8.2: low-luck written without `players` is refused at load time, located at the map,
    with a hint naming the field that limits the bag to the counts it covers."""
    report = diagnose(
        'extends "calico"\noverride bag {\n  remove_sets { 1..2: 1 }\n}\n', "luck.castell"
    )
    assert only_code(report) == "E0241"
    (diag,) = [d for d in report.diagnostics if d.is_error]
    assert diag.span.line == 3 and "players 1..2" in diag.hint
