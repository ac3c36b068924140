"""`castell validate`: formats, exit codes and the stable JSON contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from castell_dsl.cli import cli, main


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_default_validates_the_bundled_rules_when_there_is_no_rules_dir(in_tmp):
    result = run("validate")
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.output


def test_directories_are_searched_recursively(in_tmp):
    (in_tmp / "rules" / "deep").mkdir(parents=True)
    (in_tmp / "rules" / "deep" / "ok.castell").write_text('extends "castell"\n')
    (in_tmp / "rules" / "bad.castell").write_text('extends "castell"\noverride game { rounds 0 }\n')
    result = run("validate", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [f["path"] for f in data["files"]] == ["rules/bad.castell", "rules/deep/ok.castell"]
    assert data["ok"] is False


def test_json_contract(in_tmp):
    Path("x.castell").write_text('extends "castell"\noverride game { rounds 0 }\n')
    result = run("validate", "x.castell", "--format", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "ok": False,
        "files": [
            {
                "path": "x.castell",
                "ok": False,
                "diagnostics": [
                    {
                        "code": "E0211",
                        "severity": "error",
                        "message": (
                            "'rounds' in game castell must be a whole number from 1 to 10000,"
                            " found 0"
                        ),
                        "path": "x.castell",
                        "line": 2,
                        "column": 24,
                        "end_line": 2,
                        "end_column": 25,
                        "hint": None,
                        "related": [],
                    }
                ],
            }
        ],
    }


def test_github_annotations(in_tmp):
    Path("x.castell").write_text('extends "castell"\noverride game { rounds 0 }\n')
    result = run("validate", "x.castell", "--format", "github")
    assert result.exit_code == 1
    assert result.output.startswith("::error file=x.castell,line=2,col=24,")
    assert "::[E0211] 'rounds' in game castell must be" in result.output


def test_warnings_pass_unless_strict(in_tmp):
    Path("w.castell").write_text('extends "castell"\ntable unused { 1: 2 }\n')
    assert run("validate", "w.castell").exit_code == 0
    strict = run("validate", "--strict", "w.castell", "--format", "json")
    assert strict.exit_code == 1
    assert json.loads(strict.output)["files"][0]["ok"] is False


def test_missing_path_is_a_usage_error(in_tmp, capsys):
    assert main(["validate", "nope.castell"]) == 2
    assert "no such file or directory: nope.castell" in capsys.readouterr().err


def test_unknown_option_is_a_usage_error(in_tmp, capsys):
    assert main(["validate", "--frobnicate"]) == 2


def test_rules_show_json_has_the_documented_keys():
    """C-2: 7 regions, 5 skills, 32 local performances, 14 festivals, 30 size tokens, 150
    castellers in the bag."""
    result = run("rules", "show", "castell", "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert len(data["regions"]) == 7
    assert len(data["skills"]) == 5
    assert len(data["local_performances"]) == 32
    assert len(data["festivals"]) == 14
    assert len(data["size_tokens"]) == 30
    assert sum(data["bag"].values()) == 150


def test_rules_show_diff_shows_what_a_variant_changes():
    result = run("rules", "show", "castell", "--variant", "generous-prizes", "--diff")
    assert result.exit_code == 0
    assert "~ prize trophy.points: 5 → 7" in result.output


def test_rules_show_of_a_broken_file_prints_diagnostics_and_exits_1(in_tmp):
    Path("x.castell").write_text("game {")
    result = run("rules", "show", "x.castell")
    assert result.exit_code == 1
    assert "E0111" in result.output


def test_python_m_castell_dsl_works(in_tmp):
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "castell_dsl", "validate", "-q"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr


def test_the_script_exits_with_the_commands_code_and_everything_frozen(monkeypatch):
    """`run()` (the `castell` script) moves everything alive out of the collector's view
    before exiting, so the interpreter's last collections do not walk it; `main()` does not."""
    import gc

    import castell_dsl.cli as cli_module

    monkeypatch.setattr(cli_module, "main", lambda: 3)
    before = gc.get_freeze_count()
    try:
        with pytest.raises(SystemExit) as exited:
            cli_module.run()
        assert exited.value.code == 3
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()


def test_a_process_prints_the_same_report_as_main(in_tmp, capsys):
    """Exiting without the last collections changes nothing a user sees."""
    import subprocess
    import sys

    rules = Path(__file__).resolve().parents[2] / "rules"
    out = subprocess.run(
        [sys.executable, "-m", "castell_dsl", "validate", str(rules)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert main(["validate", str(rules)]) == out.returncode == 0
    assert capsys.readouterr().out == out.stdout and out.stderr == ""
