"""Item 1: a variant file given by path works on every command, and diffs item by item."""

from __future__ import annotations

import json
import re

from castell_dsl.language.diff import diff_entries, render_entry
from castell_dsl.runtime.loading import load_report


def test_a_variant_by_path_loads_and_is_named_as_given(workdir):
    report = load_report("castell", ("./eight-rounds.castell",))
    assert report.ok, [d.message for d in report.diagnostics]
    assert report.rules is not None and report.rules.game.rounds == 8
    assert report.rules.variants == ("./eight-rounds.castell",)


def test_a_missing_variant_file_is_reported_at_the_command_line(workdir):
    report = load_report("castell", ("./nope.castell",))
    [diag] = report.diagnostics
    assert diag.code == "E0274" and diag.span.path == "<command line>"
    assert "does not exist" in diag.message


def test_an_unknown_variant_name_is_not_blamed_on_the_base_file(workdir):
    [diag] = load_report("castell", ("shortseason",)).diagnostics
    assert diag.span.path == "<command line>" and "short-season" in (diag.hint or "")


def test_validate_with_a_variant_path(workdir, run):
    result = run("validate", "--variant", "./eight-rounds.castell")
    assert result.exit_code == 0, result.output
    result = run("validate", "castell", "--variant", "./only-rounds.castell", "-q")
    assert result.exit_code == 1 and "only-rounds.castell:3" in result.output


def _changes(output: str) -> list[str]:
    """The diff's lines without their `FILE:LINE: ` prefix (every line must have one)."""
    located = [re.match(r"^(\S+\.castell):(\d+): (.*)$", line) for line in output.splitlines()]
    assert all(located), output
    return [m.group(3) for m in located if m]


def test_rules_show_a_file_that_extends_diffs_against_its_base(workdir, run):
    result = run("rules", "show", "./eight-rounds.castell", "--diff")
    assert result.exit_code == 0, result.output
    lines = _changes(result.output)
    assert "~ game.rounds: 10 → 8" in lines
    assert "~ calendar.space[8].value.round: 9 → 8" in lines
    assert "- calendar.space[10]: {value: {round: 10, back: II, size_tokens: 2}, when: -}" in lines
    assert max(map(len, lines)) < 200  # item by item, not a 1,000-character line


def test_rules_show_variant_path_diffs_against_the_rules(workdir, run):
    by_path = run("rules", "show", "--variant", "./eight-rounds.castell", "--diff")
    by_file = run("rules", "show", "./eight-rounds.castell", "--diff")
    assert by_path.exit_code == 0 and by_path.output == by_file.output


def test_named_definitions_are_added_and_removed_by_name(workdir, run):
    (workdir / "tiles.castell").write_text(
        'extends "castell"\nremove performance LP15\n'
        "performance LP33 { shape [2, 1] points 2 }\n"
        "override components { local_performances: 32 }\n"
        "override prize_chart { 2: [trophy, medal] }\n"
    )
    result = run("rules", "show", "tiles.castell", "--diff")
    assert result.exit_code == 0, result.output
    assert "tiles.castell:2: - performance LP15" in result.output.splitlines()
    lines = _changes(result.output)
    assert "- performance LP15" in lines
    assert any(line.startswith("+ performance LP33: {shape: [2, 1]") for line in lines)
    assert "~ prize_chart.2: [trophy] → [trophy, medal]" in lines
    data = json.loads(run("rules", "show", "tiles.castell", "--diff", "--format", "json").output)
    assert data["base"].endswith("castell.castell")
    ops = {(c["op"], c["path"]) for c in data["changes"]}
    assert ("remove", "performance LP15") in ops and ("add", "performance LP33") in ops
    added = next(c for c in data["changes"] if c["path"] == "performance LP33")
    assert added["new"]["shape"] == [2, 1] and "old" not in added
    assert added["keys"] == ["local_performances", "LP33"]


def test_diff_entries_of_maps_and_lists():
    base = {"t": {"1": 0, "2": 1}, "l": [{"a": 1}, {"a": 2}, {"a": 3}]}
    changed = {"t": {"1": 0, "3": 4}, "l": [{"a": 1}, {"a": 5}, {"a": 3}, {"a": 4}]}
    lines = [render_entry(e) for e in diff_entries(base, changed)]
    assert lines == ["- t.2: 1", "+ t.3: 4", "~ l[1].a: 2 → 5", "+ l[3]: {a: 4}"]


def test_a_standalone_file_without_variants_has_nothing_to_diff(workdir, run):
    result = run("rules", "show", "castell", "--diff")
    assert result.exit_code == 2 and "nothing to compare" in result.output


def test_simulate_plays_a_variant_given_by_path(workdir, run):
    result = run(
        "simulate", "--variant", "./eight-rounds.castell", "--games", "2", "--players", "2",
        "--bots", "greedy", "--format", "json", "--no-progress",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [g["rounds"] for g in data["games"]] == [8, 8]
