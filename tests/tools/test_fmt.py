"""`castell fmt`: the layout it produces, the comments it keeps, and the command's exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from castell_dsl.cli import cli
from castell_dsl.tools.formatter import format_text

ROOT = Path(__file__).resolve().parents[2]


def fmt(text: str) -> str:
    result = format_text(text)
    assert result.text is not None, result.diagnostics
    return result.text


def test_indentation_and_spacing_are_canonical():
    source = 'game   g{\ntitle    "G"\n      players 2 .. 4\n  rounds -  3 }\n'
    assert fmt(source) == 'game g {\n  title "G"\n  players 2..4\n  rounds -3\n}\n'


def test_one_line_blocks_stay_on_one_line_and_rows_align_as_a_table():
    source = (
        "region A {adjacent [B,C]}\n"
        "region Bee { adjacent [A] }  # the bee\n"
        "region C { adjacent [A] } # see\n"
    )
    assert fmt(source) == (
        "region A   { adjacent [B, C] }\n"
        "region Bee { adjacent [A] }  # the bee\n"
        "region C   { adjacent [A] }  # see\n"
    )


def test_fields_line_up_while_rows_name_the_same_fields():
    source = (
        "cat A { points 3 dots 1 group 3 }\n"
        "cat Bb { points 11 dots 3 shape [[0, 0]] }\n"
        'cat C { title "x" }\n'
    )
    assert fmt(source) == (
        "cat A  { points 3   dots 1  group 3 }\n"
        "cat Bb { points 11  dots 3  shape [[0, 0]] }\n"
        'cat C  { title "x" }\n'
    )


def test_a_blank_line_ends_a_table_and_is_kept_once():
    source = "a 1\nbb 2\n\n\n\nprize x { points 1 }\nprize yy { points 2 }\n"
    assert fmt(source) == "a 1\nbb 2\n\nprize x  { points 1 }\nprize yy { points 2 }\n"


def test_every_comment_is_kept_where_it_belongs():
    source = (
        "# header\n"
        "\n"
        "game g {   # the game\n"
        "  # leading\n"
        "  rounds 3 # three\n"
        "           # and a wrapped comment\n"
        "  # before the brace\n"
        "}\n"
        "# at the end\n"
    )
    assert fmt(source) == (
        "# header\n"
        "\n"
        "game g {  # the game\n"
        "  # leading\n"
        "  rounds 3  # three\n"
        "            # and a wrapped comment\n"
        "  # before the brace\n"
        "}\n"
        "# at the end\n"
    )


def test_user_line_breaks_in_lists_are_kept_and_long_lists_wrap():
    source = "x {\n  order [a, b,\n     c]\n}\n"
    assert fmt(source) == "x {\n  order [\n    a, b,\n    c,\n  ]\n}\n"
    long = "t [" + ", ".join(f"name_{i}" for i in range(20)) + "]\n"
    out = fmt(long)
    assert max(len(line) for line in out.splitlines()) <= 100
    assert out.startswith("t [\n  name_0, name_1,") and out.endswith("\n]\n")
    assert fmt(out) == out


def test_a_block_too_long_for_one_line_is_broken_one_entry_per_line():
    source = "x { " + "  ".join(f"field_{i} {i}" for i in range(12)) + " }\n"
    out = fmt(source)
    assert out.splitlines()[:3] == ["x {", "  field_0 0", "  field_1 1"]


def test_expressions_are_kept_as_written_and_only_reindented():
    """An expression's text is part of the compiled rule set (and its hash)."""
    source = (
        "scoring {\n"
        "  category a=2*(x+1)\n"
        "  category long_name = sum(p.points for p in l if p.points>-1)\n"
        "     + f(a)[2]   # wrapped\n"
        "  tiebreak = not a in [1,2]\n"
        "}\n"
    )
    assert fmt(source) == (
        "scoring {\n"
        "  category a         = 2*(x+1)\n"
        "  category long_name = sum(p.points for p in l if p.points>-1)\n"
        "                       + f(a)[2]  # wrapped\n"
        "  tiebreak = not a in [1,2]\n"
        "}\n"
    )


def test_comments_inside_an_expression_stay_inside_it():
    source = "scoring {\n  category a = 1 +  # one\n   # more\n      2\n}\n"
    assert fmt(source) == (
        "scoring {\n  category a = 1 +  # one\n               # more\n               2\n}\n"
    )


def test_conditions_line_up_and_follow_multi_line_blocks():
    source = (
        "round {\n  step refill when round in [3, 5]\n  turns main\n"
        "  step festivals when round >= 3\n}\n"
        "space {\n a 1\n}   when players >= 3\n"
    )
    assert fmt(source) == (
        "round {\n"
        "  step refill    when round in [3, 5]\n"
        "  turns main\n"
        "  step festivals when round >= 3\n"
        "}\n"
        "space {\n  a 1\n} when players >= 3\n"
    )


def test_directives_and_string_labels():
    source = 'extends  "castell"\ninclude "x.castell"\nremove performance LP07 ,"LP 21"\n'
    assert fmt(source) == (
        'extends "castell"\ninclude "x.castell"\nremove performance LP07, "LP 21"\n'
    )


def test_a_syntax_error_is_reported_and_nothing_is_formatted():
    result = format_text("game g {\n  rounds\n", "bad.castell")
    assert result.text is None
    assert [d.code for d in result.diagnostics] == ["E0111"]


@pytest.mark.parametrize(
    "path",
    sorted(
        p.relative_to(ROOT).as_posix()
        for p in (*ROOT.glob("rules/**/*.castell"), *ROOT.glob("docs/examples/**/*.castell"))
    ),
)
def test_bundled_rule_files_are_formatted(path):
    """The bundled files are kept in the canonical layout (`castell fmt --check` in CI)."""
    text = (ROOT / path).read_text(encoding="utf-8")
    assert fmt(text) == text


# ---- the command -----------------------------------------------------------------------------


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules" / "deep").mkdir(parents=True)
    (tmp_path / "rules" / "ok.castell").write_text('extends "castell"\n')
    (tmp_path / "rules" / "deep" / "messy.castell").write_text('extends   "castell"\n')
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(cli, ["fmt", *args])


def test_check_lists_files_that_would_change_and_exits_1(files):
    result = run("--check")
    assert result.exit_code == 1, result.output
    assert "would reformat rules/deep/messy.castell" in result.stdout
    assert "ok.castell" not in result.stdout
    assert (files / "rules/deep/messy.castell").read_text() == 'extends   "castell"\n'


def test_diff_prints_a_unified_diff_and_changes_nothing(files):
    result = run("--diff", "rules/deep")
    assert result.exit_code == 0, result.output
    assert '-extends   "castell"\n+extends "castell"' in result.stdout
    assert (files / "rules/deep/messy.castell").read_text() == 'extends   "castell"\n'


def test_formatting_rewrites_files_and_then_check_passes(files):
    assert run().exit_code == 0
    assert (files / "rules/deep/messy.castell").read_text() == 'extends "castell"\n'
    assert run("--check").exit_code == 0


def test_a_file_with_a_syntax_error_is_reported_and_left_unchanged(files):
    bad = files / "rules" / "bad.castell"
    bad.write_text("game g {\n")
    result = run("rules")
    assert result.exit_code == 2
    assert "error[E0111]" in result.stderr
    assert bad.read_text() == "game g {\n"
    assert (files / "rules/deep/messy.castell").read_text() == 'extends "castell"\n'


def test_standard_input_is_formatted_to_standard_output():
    result = CliRunner().invoke(cli, ["fmt", "-"], input="game  g { rounds 3 }")
    assert result.exit_code == 0
    assert result.stdout == "game g { rounds 3 }\n"


def test_missing_paths_are_usage_errors(files):
    assert run("nope.castell").exit_code == 2
