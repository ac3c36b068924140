"""Golden tests: the exact text `castell validate` prints for three typical mistakes.

Regenerate after an intended change of wording with:
    CASTELL_UPDATE_GOLDEN=1 pytest tests/language/test_golden_rendering.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from castell_dsl.cli import cli

GOLDEN = Path(__file__).parent / "golden"

MISTAKES = {
    "missing_comma": (
        'extends "castell"\n'
        "# Two new prizes for a bigger festival.\n"
        "prize rosette { points 2 }\n"
        "override prize_chart { 4: [trophy, medal ribbon] }\n"
    ),
    "misspelt_region": (
        'extends "castell"\noverride region Girona {\n  adjacent [Barcelona, Terasa]\n}\n'
    ),
    "unclosed_block": (
        'extends "castell"\n'
        "override festival_rules {\n"
        "  min_levels 5\n"
        "\n"
        "override game { rounds 8 }\n"
    ),
}


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_validate_text_rendering_is_stable(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path(f"{name}.castell").write_text(MISTAKES[name])
    result = CliRunner().invoke(cli, ["validate", f"{name}.castell"])
    assert result.exit_code == 1
    golden = GOLDEN / f"{name}.txt"
    if os.environ.get("CASTELL_UPDATE_GOLDEN"):
        golden.write_text(result.output)
    assert result.output == golden.read_text()
