"""Every Python example in the README and the docs runs as written.

A ```python block is executed in a fresh namespace (blocks of one page run in order, sharing
nothing). A block that shows the contents of a file in a package, which cannot run on its own
(relative imports), is fenced ```py instead: it is shown, not run. So an example a reader
copies works, and an API change that breaks one fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _blocks() -> list[tuple[str, int, str]]:
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            out.append((str(page.relative_to(ROOT)), line, match.group(1)))
    return out


BLOCKS = _blocks()


def test_the_readme_has_a_runnable_game_loop():
    readme = [code for page, _, code in BLOCKS if page == "README.md"]
    assert any("while not game.is_over()" in code and "make_bot" in code for code in readme)


@pytest.mark.parametrize(("page", "line", "code"), BLOCKS, ids=[f"{p}:{n}" for p, n, _ in BLOCKS])
def test_python_block_runs(page, line, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, f"{page}:{line}", "exec"), {"__name__": "__docs__"})
