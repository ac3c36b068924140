"""Item 2: a problem a variant causes in inherited rules is reported in the variant."""

from __future__ import annotations

import json

from castell_dsl.language.diagnostics import (
    Diagnostic,
    Severity,
    Span,
    render_github,
    render_text,
)
from castell_dsl.runtime.loading import load_report


def test_eight_rounds_alone_points_at_the_variant_with_a_calendar_fix(workdir):
    report = load_report("only-rounds.castell")
    assert not report.ok
    assert {d.code for d in report.diagnostics} == {"E0211"}
    for diag in report.diagnostics:
        assert diag.span.path == "only-rounds.castell" and diag.span.line == 3
        assert "rounds 8" in report.source_lines("only-rounds.castell")[diag.span.line - 1]
        assert "override calendar {" in (diag.hint or "")
        assert diag.notes and all(s.path.endswith("castell.castell") for s, _ in diag.notes)
        assert all("calendar" in note for _, note in diag.notes)
    # the four inherited spaces after round 8 are all named: lines 145-148 of the base
    assert sorted(s.line for d in report.diagnostics for s, _ in d.notes) == [145, 146, 147, 148]


def test_the_same_through_a_variant_option(workdir):
    report = load_report("castell", ("./only-rounds.castell",))
    assert {d.span.path for d in report.diagnostics} == {"only-rounds.castell"}


def test_adding_a_tile_asks_for_the_components_total_in_the_variant(workdir, run):
    [diag] = load_report("extra-tile.castell").diagnostics
    assert diag.code == "E0250" and diag.span.path == "extra-tile.castell"
    assert diag.span.line == 3
    assert "override components { local_performances: 33 }" in (diag.hint or "")
    [(where, _note)] = diag.notes
    assert where.path.endswith("castell.castell")
    result = run("validate", "extra-tile.castell")
    assert result.exit_code == 1
    assert "extra-tile.castell:3:1: error[E0250]" in result.output
    assert "= note: " in result.output and "castell.castell:" in result.output


def test_json_reports_the_inherited_place_as_related(workdir, run):
    result = run("validate", "extra-tile.castell", "--format", "json")
    [diag] = json.loads(result.output)["files"][0]["diagnostics"]
    [related] = diag["related"]
    assert related["path"].endswith("castell.castell") and related["line"] == 19
    assert "inherited" in related["message"]


def test_github_annotations_name_the_variant_relative_to_the_checkout(workdir, run):
    result = run("validate", "only-rounds.castell", "--format", "github")
    lines = result.output.splitlines()
    assert lines
    assert all(line.startswith("::error file=only-rounds.castell,line=3,") for line in lines)


def test_a_github_annotation_outside_the_checkout_goes_to_the_validated_file():
    diag = Diagnostic("E0211", Severity.ERROR, "bad", Span("/site/base.castell", 9, 2, 9, 3))
    line = render_github(diag, fallback="my.castell")
    assert line.startswith("::error file=my.castell,line=1,") and "/site/base.castell:9" in line
    assert render_github(diag).startswith("::error file=/site/base.castell,line=9")


def test_notes_are_rendered_as_note_lines():
    note = (Span("base.castell", 4, 1, 4, 2), "inherited from here")
    diag = Diagnostic("E0211", Severity.ERROR, "bad", Span("v.castell", 1, 1, 1, 2), notes=(note,))
    text = render_text(diag, ["override x"])
    assert text.splitlines()[-1].strip() == "= note: base.castell:4:1: inherited from here"


def test_problems_not_caused_by_the_variant_stay_where_they_are(workdir):
    # the variant's own mistake is reported in the variant; nothing is moved into it
    (workdir / "typo.castell").write_text('extends "castell"\noverride game { rounds 0 }\n')
    report = load_report("typo.castell")
    assert all(d.span.path == "typo.castell" for d in report.diagnostics)
    assert all(not d.notes for d in report.diagnostics)


def test_valid_variants_are_unaffected(workdir):
    for name in ("short-season", "generous-prizes", "no-regions"):
        assert load_report("castell", (name,)).ok


def test_calico_a_removed_board_is_blamed_on_the_remove(workdir):
    (workdir / "three.castell").write_text('extends "calico"\nremove board green\n')
    report = load_report("three.castell")
    assert {d.span.path for d in report.diagnostics} == {"three.castell"}
    hints = {d.hint for d in report.diagnostics}
    assert "`override components { boards: 3 }`, or add or remove boards" in hints
    assert any("edge_patches: 72" in (h or "") for h in hints)


def test_a_diagnostic_already_in_the_variant_keeps_its_hint(workdir):
    (workdir / "short.castell").write_text('extends "calico"\noverride game { rounds 20 }\n')
    [diag] = [d for d in load_report("short.castell").diagnostics if d.code == "E0250"]
    assert diag.span.path == "short.castell" and not diag.notes
    assert (diag.hint or "").startswith("one patch is placed per round")


# ---- a file's verdict and locations are its own ------------------------------------------------

#: Changes that break something inherited, each as one variant file's text (after `extends`).
BREAKING = [
    "override tower {\n  sizes 1..8\n  width_limit 3\n  mix_spread 1\n  width_step 1\n}",
    "override game { players 2..5 }",
    "override setup {\n  castellers_per_region { 2: 3, 3: 4, 4: 5 }\n  team 40\n"
    "  special_tokens 7\n  performances_per_region 2\n"
    "  refill_order [Barcelona, Girona, Lleida, Tarragona, Terrassa, Valls, Vilafranca]\n}",
    "override bag { 1..10: 2 }",
    "override size_tokens { 1..10: 1 }",
    "remove region Girona",
    "remove prize medal",
    "remove festival girona_2",
    "override wheel {\n  tiles [balance, base, mix, strength, width, special, special]\n"
    "  sectors [Barcelona, Girona, Lleida, Tarragona, Terrassa, Valls, Vilafranca]\n"
    "  shared_sectors []\n  placement random\n  turn_step 1\n  start_position 0\n"
    "  grants { special: special }\n}",
    'override skill mix { title "Mix"  max_rank 0  relaxes mixed_sizes }',
    "override performance_rules { exhibition_levels at_least }\nremove skill width",
]


def test_every_problem_a_change_causes_is_reported_in_the_changed_file(tmp_path, monkeypatch):
    """Whatever a variant breaks in the (valid) base it extends, each diagnostic points into
    the variant: the base alone has none, so every one is the variant's doing. (Before, a
    check that named no concern left its error at the base's line, listed under the variant.)"""
    monkeypatch.chdir(tmp_path)
    assert load_report("castell").diagnostics == []
    for number, patch in enumerate(BREAKING):
        path = tmp_path / f"v{number}.castell"
        path.write_text(f'extends "castell"\n\n{patch}\n', encoding="utf-8")
        report = load_report(path)
        assert report.diagnostics, patch
        for diag in report.diagnostics:
            assert diag.span.path == path.name, (patch, diag.span, diag.message)
            assert diag.span.line >= 3


def test_a_problem_named_by_no_check_goes_to_the_change_its_message_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "sizes.castell"
    path.write_text('extends "castell"\n\n' + BREAKING[0] + "\n", encoding="utf-8")
    report = load_report(path)
    assert {(d.code, d.span.line) for d in report.diagnostics} == {("E0211", 4)}  # `sizes 1..8`
    assert all(
        d.notes and d.notes[0][0].path.endswith("castell.castell") for d in report.diagnostics
    )


def test_a_files_verdict_does_not_depend_on_the_files_validated_with_it(tmp_path, monkeypatch, run):
    """Two variants of a broken base of the user's: each lists the base's problem and fails,
    alone or together, in any order, with the same diagnostics (the path of each says where)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "base.castell").write_text(
        'extends "castell"\n\ntable unused { 1: 1 }\noverride game { rounds 0 }\n'
    )
    for name in ("a", "b"):
        (tmp_path / f"{name}.castell").write_text(
            'extends "./base.castell"\n\noverride prize trophy { points 6 }\n'
        )

    def files(*names):
        out = run("validate", *names, "--format", "json")
        assert out.exit_code == 1
        return {f["path"]: f for f in json.loads(out.output)["files"]}

    alone = {name: files(name)[name] for name in ("a.castell", "b.castell")}
    together = files("a.castell", "b.castell")
    backwards = files("b.castell", "a.castell")
    for name in ("a.castell", "b.castell"):
        assert alone[name] == together[name] == backwards[name]
        assert not alone[name]["ok"]
        assert {d["path"] for d in alone[name]["diagnostics"]} == {"base.castell"}
