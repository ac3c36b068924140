"""A name means the installed rule set, wherever a command runs (docs/language.md, "Names and
paths").

An argument is a path only when it looks like one: it contains a path separator or ends in
`.castell`. Anything else is a rule set's (or a variant's) name, looked up on the rule path
only. Every test here runs in a directory that holds decoys with the installed names — a
directory `castell/`, files `calico`, `short-season`, `solo` and `greedy` of garbage — and every
interface that takes rules must still mean the installed ones: the CLI's commands, the library
API, configuration files and the RL environments. (The web server resolves names from the
network among installed rule sets only: tests/web.)
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from castell_dsl import load_rules, new_game
from castell_dsl.cli import cli
from castell_dsl.runtime.loading import load_report

INSTALLED = {}


@pytest.fixture
def decoys(tmp_path, monkeypatch):
    """A working directory whose entries share the installed names."""
    (tmp_path / "castell").mkdir()
    (tmp_path / "castell" / "castell.castell").write_text("not rules {{{\n")
    for name in ("calico", "short-season", "solo", "no-regions"):
        (tmp_path / name).write_text("garbage {\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def installed_hash(name: str, variants: tuple[str, ...] = ()) -> str:
    key = (name, variants)
    if key not in INSTALLED:
        INSTALLED[key] = load_rules(name, variants).hash
    return INSTALLED[key]


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_rules_show_means_the_installed_rule_sets(decoys):
    for name in ("castell", "calico"):
        result = run("rules", "show", name)
        assert result.exit_code == 0, result.output
        assert result.output.splitlines()[0] == f"# {name} ({installed_hash(name)})"
    result = run("rules", "show", "castell", "--variant", "short-season", "--format", "json")
    assert json.loads(result.output)["game"]["rounds"] == 8


def test_a_path_is_a_path_when_it_looks_like_one(decoys):
    result = run("rules", "show", "./calico")
    assert result.exit_code == 1 and "calico:1:" in result.output
    result = run("rules", "show", "castell/castell.castell")
    assert result.exit_code == 1 and "castell/castell.castell:1:" in result.output


def test_a_file_without_the_look_of_a_path_is_not_read_and_the_hint_says_how(decoys):
    (decoys / "mygame").write_text('extends "castell"\n')
    report = load_report("mygame")
    (diag,) = report.diagnostics
    assert diag.code == "E0271" and "no rule set named 'mygame'" in diag.message
    assert "write ./mygame" in (diag.hint or "")
    assert load_report("./mygame").ok


def test_validate_simulate_compare_and_diff_take_names(decoys):
    assert run("validate", "castell", "calico", "-q").exit_code == 0
    assert run("validate", "castell", "--variant", "short-season", "-q").exit_code == 0
    result = run("simulate", "--rules", "calico", "--variant", "solo", "-n", "2",
                 "--players", "1", "--format", "jsonl", "--no-progress")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 2
    result = run("compare", "castell", "castell+short-season", "-n", "2", "--format", "json")
    assert result.exit_code == 0, result.output
    hashes = [r["hash"] for r in json.loads(result.stdout)["rule_sets"]]
    assert hashes == [installed_hash("castell"), installed_hash("castell", ("short-season",))]
    diff = run("rules", "show", "castell", "--variant", "short-season", "--diff")
    assert diff.exit_code == 0 and "game.rounds: 10 → 8" in diff.output


def test_the_library_api_takes_names(decoys):
    assert load_rules("calico", ("solo",)).hash == installed_hash("calico", ("solo",))
    game = new_game("castell", players=2, variants=("no-regions",))
    assert game.rules.hash == installed_hash("castell", ("no-regions",))


def test_a_configuration_file_names_installed_rules(decoys):
    (decoys / "game.yaml").write_text(
        "rules: castell\nvariants: [short-season]\nplayers: 2\nbots: [random]\nseed: 3\n"
    )
    result = run("simulate", "--config", "game.yaml", "-n", "1", "--format", "jsonl",
                 "--no-progress")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["rounds"] == 8


def test_rl_environments_take_names(decoys):
    pytest.importorskip("pettingzoo")
    from castell_dsl.rl import env, game_spec

    spec = game_spec("calico", 2, ("low-luck",))
    assert spec.rules.hash == installed_hash("calico", ("low-luck",))
    aec = env("castell", players=2, variants=("short-season",), seed=0)
    aec.reset()
    assert aec.unwrapped.game.rules.hash == installed_hash("castell", ("short-season",))
