"""The pre-commit hook works as written: `.pre-commit-hooks.yaml` defines `castell-validate`
(`language: python`, `entry: castell validate`, `files: \\.castell$`), the entry names this
distribution's console script, and running the entry as pre-commit does (the entry's words
plus the changed files) passes a good rule file and fails a broken one. No network: the
entry is run from this environment."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from castell_dsl.cli import cli

ROOT = Path(__file__).resolve().parents[2]
GOOD = (ROOT / "rules" / "castell" / "variants" / "short-season.castell").read_text()
BROKEN = 'extends "castell"\noverride game { rounds }\n'


def hook(name: str = "castell-validate") -> dict:
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    return hooks[name]


def test_the_formatter_hook_checks_layout_with_the_installed_command():
    definition = hook("castell-fmt")
    assert definition["entry"] == "castell fmt --check"
    assert definition["language"] == "python"
    assert re.compile(definition["files"]).search("rules/calico/calico.castell")


def test_the_hook_definition():
    definition = hook()
    assert definition["id"] == "castell-validate"
    assert definition["language"] == "python"
    assert definition["entry"] == "castell validate"
    files = re.compile(definition["files"])
    assert files.search("rules/castell/castell.castell")
    assert not files.search("README.md") and not files.search("x.castell.bak")
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert definition["entry"].split()[0] in scripts  # installed with the package


def test_this_repositorys_config_runs_the_same_command():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    (local,) = config["repos"]
    assert local["repo"] == "local"
    (own,) = local["hooks"]
    assert own["entry"] == hook()["entry"] and own["files"] == hook()["files"]


@pytest.fixture
def rule_files(tmp_path):
    good, broken = tmp_path / "good.castell", tmp_path / "broken.castell"
    good.write_text(GOOD)
    broken.write_text(BROKEN)
    return good, broken


def test_the_entry_validates_the_files_it_is_given(rule_files):
    good, broken = rule_files
    words = hook()["entry"].split()[1:]
    assert CliRunner().invoke(cli, [*words, str(good)]).exit_code == 0
    failed = CliRunner().invoke(cli, [*words, str(good), str(broken)])
    assert failed.exit_code == 1 and "broken.castell:2" in failed.output


@pytest.mark.skipif(shutil.which("castell") is None, reason="the castell script is not on PATH")
def test_the_entry_as_a_command(rule_files):
    good, broken = rule_files
    entry = hook()["entry"].split()
    assert subprocess.run([*entry, str(good)], capture_output=True).returncode == 0
    assert subprocess.run([*entry, str(broken)], capture_output=True).returncode == 1
