"""Every rule file shown in the README, the docs and the players' pages compiles as written.

A block fenced ```castell is a complete rule file (a variant that `extends` an installed rule
set, or a standalone game of an installed mechanics) and must load without an error: a reader
who copies it gets a working variant. Excerpts and sketches are fenced without the language
name. (The tutorial's ```castell file=… blocks, some broken on purpose, are run by
tests/authoring/test_tutorial.py; the example game's by tests/plugins/test_third_party_game.py.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from castell_dsl.runtime.loading import load_report

ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "plugins").glob("*/pages/*.md")),
    *sorted((ROOT / "plugins").glob("*/reference.md")),
]
BLOCK = re.compile(r"^```castell\n(.*?)^```", re.S | re.M)


def _blocks() -> list[tuple[str, int, str]]:
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            if re.search(r'extends "pebbles"|mechanics pebbles', match.group(1)):
                continue  # the example game is not installed in this environment
            line = text.count("\n", 0, match.start()) + 2
            out.append((str(page.relative_to(ROOT)), line, match.group(1)))
    return out


BLOCKS = _blocks()


def test_the_readme_and_the_castell_page_show_a_variant():
    pages = {page for page, _, _ in BLOCKS}
    assert {"README.md", "plugins/castell_game/pages/castell.md"} <= pages


@pytest.mark.parametrize(("page", "line", "text"), BLOCKS, ids=[f"{p}:{n}" for p, n, _ in BLOCKS])
def test_rule_example_compiles(page, line, text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "example.castell"
    path.write_text(text, encoding="utf-8")
    report = load_report(path)
    assert report.ok, [f"{page}:{line}: {d.code} {d.message}" for d in report.diagnostics]
