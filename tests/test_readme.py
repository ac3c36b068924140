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
