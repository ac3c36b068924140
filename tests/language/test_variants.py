"""Variants as files: extend, override, add and remove definitions; combine; conflicts."""

from __future__ import annotations

import pytest

from castell_dsl.language.diagnostics import RuleError
from castell_dsl.runtime.loading import load_report, load_rules


def test_extending_file_overrides_fields_and_keeps_the_rest(diagnose):
    report = diagnose(
        'extends "castell"\n'
        "override game { rounds 8 }\n"
        "override prize_chart { 2: [trophy, medal] }\n"
        "override round { step refill when round in [3, 5, 7] step turn_wheel when round >= 2"
        " turns main step festivals when round >= 3 }\n"
        "override calendar { space { round 3 back I size_tokens 1 } }\n"
    )
    assert report.ok, report.diagnostics
    rules = report.rules
    assert rules.game.rounds == 8
    assert rules.game.title == "Castell"  # merged, not replaced
    assert list(rules.one("prize_chart")[2]) == ["trophy", "medal"]
    assert list(rules.one("prize_chart")[4]) == ["trophy", "medal", "ribbon"]


def test_removing_two_tiles_and_declaring_the_new_total(diagnose):
    report = diagnose(
        'extends "castell"\nremove performance LP07, LP21\n'
        "override components { local_performances: 30 }\n"
    )
    assert report.ok, report.diagnostics
    names = list(report.rules.named("performance"))
    assert len(names) == 30 and "LP07" not in names and "LP21" not in names


def test_bundled_variant_file_is_found_by_name():
    rules = load_rules("castell", variants=("short-season",))
    assert rules.game.rounds == 8
    assert rules.variants == ("short-season",)
    assert len(rules.named("performance")) == 30


def test_two_compatible_variants_combine_in_order():
    rules = load_rules("castell", variants=("short-season", "generous-prizes"))
    assert rules.game.rounds == 8
    assert rules.get("prize", "trophy").points == 7


def test_two_variants_changing_the_same_thing_conflict_naming_both(tmp_path, monkeypatch):
    monkeypatch.setenv("CASTELL_RULES_PATH", str(tmp_path))
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "stingy.castell").write_text(
        'extends "castell"\noverride prize trophy { points 1 }\n'
    )
    report = load_report("castell", ("generous-prizes", "stingy"))
    assert report.rules is None
    (diag,) = [d for d in report.diagnostics if d.code == "E0273"]
    assert "'generous-prizes'" in diag.message and "'stingy'" in diag.message


def test_unknown_variant_is_an_error_with_a_suggestion():
    report = load_report("castell", ("short-seasn",))
    assert [d.code for d in report.diagnostics] == ["E0274"]
    assert report.diagnostics[0].hint == "did you mean 'short-season'?"


def test_load_rules_raises_with_the_diagnostics():
    with pytest.raises(RuleError) as info:
        load_rules("castell", variants=("nope",))
    assert info.value.diagnostics[0].code == "E0274"


def test_include_splices_definitions(rule_file, diagnose):
    rule_file("prize rosette { points 2 }\n", "extra.castell")
    report = diagnose(
        'extends "castell"\ninclude "extra.castell"\n'
        "override prize_chart { 4: [trophy, medal, rosette] }\n"
    )
    assert report.ok, report.diagnostics
    assert report.rules.get("prize", "rosette").points == 2


def test_an_included_file_cannot_extend(rule_file, diagnose):
    rule_file('extends "castell"\n', "part.castell")
    report = diagnose('extends "castell"\ninclude "part.castell"\n')
    assert [d.code for d in report.diagnostics] == ["E0275"]


def test_rule_set_hash_changes_with_content_only():
    a = load_rules("castell")
    b = load_rules("castell", variants=("generous-prizes",))
    assert a.hash != b.hash
    assert a.hash == load_report("castell").rules.hash


def test_a_name_follows_the_users_rule_path_within_one_process(tmp_path, monkeypatch):
    """The compiled-rules cache: the same name under another `CASTELL_RULES_PATH` is the
    other directory's file, not the one loaded first (nor a `Shadowed` error after it)."""
    first, second = tmp_path / "first", tmp_path / "second"
    for directory, text in (
        (first, 'extends "castell"\noverride prize_chart { 2: [trophy, medal] }\n'),
        (second, 'extends "castell"\n'),
    ):
        directory.mkdir()
        (directory / "mine.castell").write_text(text)
    monkeypatch.setenv("CASTELL_RULES_PATH", str(first))
    loaded_first = load_rules("mine")
    monkeypatch.setenv("CASTELL_RULES_PATH", str(second))
    loaded_second = load_rules("mine")
    assert loaded_first.sources[-1].endswith("first/mine.castell")
    assert loaded_second.sources[-1].endswith("second/mine.castell")
    assert loaded_first.content_hash != loaded_second.content_hash
