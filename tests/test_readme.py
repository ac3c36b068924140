"""The README's set-up commands are the ones CI runs, and its examples are real."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.*?)```", text, flags=re.S)


def test_ci_runs_the_readme_test_command_verbatim():
    test_command = readme_blocks()[1].strip()
    assert "pytest" in test_command
    assert test_command in (ROOT / ".ci" / "run").read_text()


def test_the_readme_is_for_users_and_the_speed_log_is_in_docs():
    """The README's Speed section keeps the table and a paragraph; the log of the speed work
    (what changed each round, what was tried) lives in docs/performance.md."""
    text = (ROOT / "README.md").read_text()
    speed = text[text.index("## Speed\n") : text.index("\n## ", text.index("## Speed\n") + 1)]
    prose = [line for line in speed.splitlines() if line and not line.startswith("|")]
    assert len(prose) <= 20, "the README's Speed section is a table and a paragraph"
    assert "docs/performance.md" in speed
    log = (ROOT / "docs" / "performance.md").read_text()
    assert "What changed this round" in log and "What changed this round" not in text
