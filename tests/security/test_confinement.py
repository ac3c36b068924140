"""`include` and `extends` read only inside the rule path and the rule file's own tree.

A rule file from a pull request is validated in CI and the log is public: reading /etc/passwd
and showing its first line in a syntax error would publish it. See docs/security.md.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from castell_dsl.language.diagnostics import Diagnostics
from castell_dsl.language.loader import Loader, RulePath
from castell_dsl.runtime.loading import load_report, rule_path

SECRET = "top-secret-line: do not print me"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A project directory with rules, and a secret file next to (outside) it."""
    monkeypatch.delenv("CASTELL_ALLOW_OUTSIDE_RULE_PATH", raising=False)
    (tmp_path / "secret.castell").write_text(SECRET + "\n")
    root = tmp_path / "project"
    (root / "sub").mkdir(parents=True)
    monkeypatch.chdir(root)
    return root


def _load(path: Path, **kwargs):
    diags = Diagnostics()
    loader = Loader(RulePath([rule_path().find_rules("castell").parent]), diags, **kwargs)
    loader.load(path)
    return diags


def _assert_refused(report_diags, shown: str) -> None:
    diags = list(report_diags)
    assert diags and diags[0].code == "E0271", [(d.code, d.message) for d in diags]
    assert "outside the rule path" in diags[0].message and shown in diags[0].message
    assert "CASTELL_ALLOW_OUTSIDE_RULE_PATH=1" in (diags[0].hint or "")
    assert diags[0].span.line >= 1
    for d in diags:
        assert "root:" not in d.message and SECRET not in d.message


@pytest.mark.parametrize(
    "line, shown",
    [
        ('include "/etc/passwd"', "/etc/passwd"),
        ('include "../secret.castell"', "../secret.castell"),
        ('include "sub/../../secret.castell"', "sub/../../secret.castell"),
        ('include "/dev/zero"', "/dev/zero"),
    ],
)
def test_include_outside_is_refused_without_reading(project, line, shown):
    path = project / "rules.castell"
    path.write_text(f'extends "castell"\n{line}\n')
    report = load_report(path)
    assert report.rules is None
    _assert_refused(report.diagnostics, shown)
    assert not any(SECRET in "\n".join(src.lines) for src in report.sources.values())


@pytest.mark.parametrize("target", ["/etc/passwd", "../secret.castell"])
def test_extends_outside_is_refused(project, target):
    path = project / "variant.castell"
    path.write_text(f'extends "{target}"\n')
    _assert_refused(load_report(path).diagnostics, target)


def test_a_symlink_pointing_outside_is_refused(project):
    (project / "sub" / "link.castell").symlink_to(project.parent / "secret.castell")
    path = project / "rules.castell"
    path.write_text('extends "castell"\ninclude "sub/link.castell"\n')
    _assert_refused(load_report(path).diagnostics, "sub/link.castell")


def test_files_inside_the_tree_are_read(project):
    (project / "sub" / "extra.castell").write_text('override game { title "Shared" }\n')
    (project / "sub" / "more.castell").write_text('include "../sub/extra.castell"\n')
    path = project / "rules.castell"
    path.write_text('extends "castell"\ninclude "sub/more.castell"\n')
    report = load_report(path)
    assert report.ok, [(d.code, d.message) for d in report.diagnostics]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_without_blocking(project):
    os.mkfifo(project / "sub" / "pipe.castell")
    path = project / "rules.castell"
    path.write_text('extends "castell"\ninclude "sub/pipe.castell"\n')
    diags = load_report(path).diagnostics
    assert diags[0].code == "E0271" and "not a regular file" in diags[0].message


def test_a_directory_is_refused(project):
    (project / "sub" / "dir.castell").mkdir()
    path = project / "rules.castell"
    path.write_text('extends "castell"\ninclude "sub/dir.castell"\n')
    diags = load_report(path).diagnostics
    assert diags[0].code == "E0271" and "not a regular file" in diags[0].message


def test_opting_in_reads_outside_files(project, monkeypatch):
    path = project / "rules.castell"
    path.write_text('extends "castell"\ninclude "../secret.castell"\n')
    assert _load(path).items[0].code == "E0271"
    opted = _load(path, allow_outside=True)
    assert opted.items and opted.items[0].code != "E0271"  # read (and then a syntax error)
    monkeypatch.setenv("CASTELL_ALLOW_OUTSIDE_RULE_PATH", "1")
    assert _load(path).items[0].code != "E0271"


def test_a_rules_path_directory_is_inside(project, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "common.castell").write_text('override game { title "Shared" }\n')
    path = project / "rules.castell"
    path.write_text(f'extends "castell"\ninclude "{shared / "common.castell"}"\n')
    diags = Diagnostics()
    Loader(RulePath([rule_path().find_rules("castell").parent, shared]), diags).load(path)
    assert not diags.has_errors, [(d.code, d.message) for d in diags]


def test_include_fan_out_is_bounded(project):
    """Each file includes the next twice: 2**20 expansions without a cap on includes."""
    for i in range(20):
        nxt = f"f{i + 1}.castell"
        (project / f"f{i}.castell").write_text(f'include "{nxt}"\ninclude "{nxt}"\n')
    (project / "f20.castell").write_text("# leaf\n")
    path = project / "rules.castell"
    path.write_text('extends "castell"\ninclude "f0.castell"\n')
    codes = [d.code for d in load_report(path).diagnostics]
    assert "E0270" in codes
