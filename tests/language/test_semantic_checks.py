"""Each semantic check of the compiler: a small bad file and the exact diagnostic.

The files extend the bundled Castell rules and break one thing, as a variant author would.
"""

from __future__ import annotations

import pytest

from castell_dsl.runtime.loading import rule_path


def bundled_line(text: str) -> int:
    """The line of rules/castell/castell.castell that contains `text` (so tests survive edits)."""
    lines = rule_path().find_rules("castell").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def only(report, code):
    found = [d for d in report.diagnostics if d.code == code]
    assert found, f"no {code} in {[(d.code, d.message) for d in report.diagnostics]}"
    return found


def test_the_bundled_castell_rules_compile_without_diagnostics(diagnose):
    """C-2: every component of the box is defined and the declared totals match."""
    from castell_dsl.runtime.loading import load_report

    report = load_report("castell")
    assert report.ok, report.diagnostics
    assert report.diagnostics == []


def test_unknown_region_reference_E0220(diagnose, codes):
    report = diagnose(
        'extends "castell"\noverride region Girona { adjacent [Barcelona, Terrasa] }\n'
    )
    assert ("E0220", 2, 47) in codes(report)
    (diag,) = [d for d in report.diagnostics if d.code == "E0220"]
    assert diag.message == "unknown region 'Terrasa'"
    assert diag.hint == "did you mean 'Terrassa'?"


def test_unknown_skill_in_an_exhibition_E0220(diagnose, codes):
    report = diagnose('extends "castell"\noverride performance LP17 { exhibition [balanse] }\n')
    assert codes(report) == [("E0220", 2, 41)]
    assert report.diagnostics[0].hint == "did you mean 'balance'?"


def test_unknown_table_in_an_expression_E0220(diagnose, codes):
    report = diagnose(
        'extends "castell"\n'
        "override scoring {\n"
        "  category region_variety = lookup(variety, count(regions_with_items), 0)\n"
        "}\n"
    )
    errors = [c for c in codes(report) if c[0].startswith("E")]
    assert errors == [("E0220", 3, 36)]


def test_unknown_kind_E0201_suggests_a_keyword(diagnose, codes):
    report = diagnose('extends "castell"\noverid game { rounds 6 }\n')
    assert codes(report) == [("E0201", 2, 1)]
    assert report.diagnostics[0].hint == "did you mean 'override'?"


def test_duplicate_definition_E0204(diagnose, codes):
    report = diagnose('extends "castell"\nprize trophy { points 4 }\n')
    assert codes(report) == [("E0204", 2, 7)]
    assert "override prize trophy" in report.diagnostics[0].hint


def test_duplicate_definition_in_one_file_E0204(diagnose, codes):
    text = 'extends "castell"\nprize star { points 4 }\nprize star { points 2 }\n'
    report = diagnose(text)
    assert ("E0204", 3, 7) in codes(report)


def test_duplicate_field_E0205(diagnose, codes):
    report = diagnose('extends "castell"\noverride prize trophy { points 4 points 5 }\n')
    assert codes(report) == [("E0205", 2, 34)]


def test_asymmetric_adjacency_E0230(diagnose, codes):
    report = diagnose(
        'extends "castell"\noverride region Girona { adjacent [Barcelona, Terrassa, Lleida] }\n'
    )
    assert codes(report) == [("E0230", 2, 35)]
    diag = report.diagnostics[0]
    assert diag.message == (
        "region Girona lists Lleida in 'adjacent', but Lleida does not list Girona"
    )


def test_unreachable_region_E0231(diagnose, codes):
    report = diagnose(
        'extends "castell"\nregion Andorra { adjacent [] }\n'
        "override components { regions: 8 }\n"
        "override setup { refill_order [Barcelona, Girona, Lleida, Tarragona, Terrassa, Valls,"
        " Vilafranca, Andorra] }\n"
        "override wheel { sectors [Barcelona, Girona, Lleida, Tarragona, Terrassa, Valls,"
        " Vilafranca, Andorra, all_regions]  tiles [balance, balance, base, mix, strength, width,"
        " special, special, mix] }\n"
        "override components { board_skill_tiles: 9 }\n"
    )
    assert ("E0231", 2, 16) in codes(report)


def test_region_variety_table_with_a_gap_E0240(diagnose, codes):
    """C-10.3: the table must cover 1..number of regions."""
    report = diagnose(
        'extends "castell"\nremove table region_variety\n'
        "table region_variety { 1: 0, 2: 1, 3: 3, 5: 7, 6: 10, 7: 14 }\n"
    )
    assert codes(report) == [("E0240", 3, 22)]
    assert report.diagnostics[0].message == "table region_variety has no entry for 4"


def test_player_count_without_setup_numbers_E0241(diagnose, codes):
    """C-3.1: a player count in range needs its setup numbers and prize row."""
    report = diagnose('extends "castell"\noverride game { players 2..5 }\n')
    # Caused by the variant's `players 2..5`: reported there, the inherited tables as notes.
    found = [c for c in codes(report) if c[0] == "E0241"]
    assert found == [("E0241", 2, 17), ("E0241", 2, 17)]
    blamed = [d for d in report.diagnostics if d.code == "E0241"]
    notes = [(s.line, s.column) for d in blamed for s, _ in d.notes]
    assert notes == [
        (bundled_line("castellers_per_region {"), 25),
        (bundled_line("prize_chart {"), 13),
    ]
    messages = [d.message for d in report.diagnostics if d.code == "E0241"]
    assert messages == [
        "'castellers_per_region' in setup has no entry for 5 players",
        "prize_chart has no entry for 5 players",
    ]


def test_component_count_disagrees_with_declared_total_E0250(diagnose, codes):
    """C-2: the bag must hold 150 castellers."""
    report = diagnose('extends "castell"\noverride bag { 10: 14 }\n')
    # Caused by the variant's bag: reported at its `10: 14`, the inherited total as a note.
    assert codes(report) == [("E0250", 2, 16)]
    [diag] = report.diagnostics
    assert diag.message == "components declares 150 castellers, but the rules define 149"
    assert [(s.line, s.column) for s, _ in diag.notes] == [(bundled_line("castellers: 150"), 3)]
    assert diag.hint == "`override components { castellers: 149 }`, or add or remove castellers"


def test_type_error_string_where_a_number_goes_E0210(diagnose, codes):
    report = diagnose('extends "castell"\noverride game { rounds "6" }\n')
    assert codes(report) == [("E0210", 2, 24)]
    assert report.diagnostics[0].hint == "remove the quotes: numbers are written without them"


def test_value_out_of_range_E0211(diagnose, codes):
    report = diagnose('extends "castell"\noverride skill mix { max_rank 100 }\n')
    assert codes(report) == [("E0211", 2, 31)]


def test_tile_no_team_could_ever_complete_E0260(diagnose, codes):
    """C-8.3: a 6-level shape with a bottom of 8 needs more Width than rank 3 gives."""
    report = diagnose('extends "castell"\noverride performance LP16 { shape [8, 8, 7, 2, 1] }\n')
    assert codes(report) == [("E0260", 2, 35)]


def test_exhibition_needing_more_levels_than_sizes_E0260(diagnose, codes):
    """C-8.4: an exhibition of 30 levels cannot be built from numbers 1..10."""
    report = diagnose('extends "castell"\noverride performance LP32 { points 30 }\n')
    assert codes(report) == [("E0260", 2, 36)]


def test_cyclic_extends_E0270(diagnose, codes, rule_file):
    rule_file('extends "b.castell"\n', "a.castell")
    report = diagnose('extends "a.castell"\n', "b.castell")
    assert codes(report)[0][0] == "E0270"
    assert "cyclic extends" in report.diagnostics[0].message


def test_cyclic_include_E0270(diagnose, codes, rule_file):
    rule_file('include "bad.castell"\n', "part.castell")
    report = diagnose('extends "castell"\ninclude "part.castell"\n')
    assert ("E0270", 1, 1) in codes(report)


def test_unknown_mechanics_E0221(diagnose, codes):
    report = diagnose('game x { title "X" players 2..4 rounds 3 mechanics castel }\n')
    assert codes(report) == [("E0221", 1, 52)]
    assert report.diagnostics[0].hint == "did you mean 'castell'?"


def test_no_game_block_E0209(diagnose, codes):
    report = diagnose("region A { adjacent [] }\n")
    assert codes(report) == [("E0209", 1, 1)]


def test_override_of_an_undefined_definition_E0272(diagnose, codes):
    report = diagnose('extends "castell"\noverride region Madrid { adjacent [] }\n')
    assert codes(report) == [("E0272", 2, 17)]


def test_remove_of_an_undefined_definition_E0272(diagnose, codes):
    report = diagnose('extends "castell"\nremove performance LP99\n')
    assert codes(report) == [("E0272", 2, 20)]


def test_every_semantic_error_is_reported_in_one_run(diagnose, codes):
    report = diagnose(
        'extends "castell"\n'
        "override region Girona { adjacent [Barcelona, Terrasa] }\n"
        'override game { rounds "10" }\n'
        "override prize medal { points -1 }\n"
        "frobnicate { }\n"
    )
    assert {c for c, _, _ in codes(report)} >= {"E0220", "E0210", "E0211", "E0201"}


@pytest.mark.parametrize(
    "text, code",
    [
        ('extends "castell"\noverride game { turns 3 }\n', "E0202"),
        ('extends "castell"\nregion { adjacent [] }\n', "E0206"),
        ('extends "castell"\noverride round { step refil when round >= 3 }\n', "E0220"),
        ('extends "castell"\noverride scoring { category x = frobnicate(1) }\n', "E0290"),
        ('extends "castell"\noverride scoring { category x = count(1, 2) }\n', "E0291"),
        ('extends "castell"\noverride scoring { category x = best_tower_score and 1 }\n', "E0292"),
        ('extends "castell"\noverride game { players 4..2 }\n', "E0213"),
        ('extends "castell"\noverride bag { 1: 15, 1: 15 }\n', "E0212"),
        ('extends "castell"\noverride prize trophy { points 5 when players > 2 }\n', "E0208"),
    ],
)
def test_structural_codes(diagnose, codes, text, code):
    report = diagnose(text)
    assert code in [c for c, _, _ in codes(report)], report.diagnostics


def test_a_condition_that_never_holds_is_a_warning_W0303(diagnose, codes):
    report = diagnose(
        'extends "castell"\noverride round { step refill  turns main  '
        "step festivals when round > 10 }\n"
    )
    # The festivals never run, so no calendar space is ever scored (W0263, Castell's lint).
    assert [c for c in codes(report) if c[0] == "W0303"] == [("W0303", 2, 63)]
    assert report.rules is not None


def test_an_unused_table_is_a_warning_W0301(diagnose, codes):
    report = diagnose('extends "castell"\ntable bonus { 1: 2 }\n')
    assert codes(report) == [("W0301", 2, 1)]
    assert report.rules is not None
