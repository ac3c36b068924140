"""Golden: `castell compare`'s JSON report for fixed seeds, byte for byte.

The proof that the paired-seed machinery `compare` shares with `castell analyze`
(`castell_dsl/runtime/paired.py`) changes no figure of a comparison: the same games under each
rule set, the same means, intervals and paired differences. Regenerate only for a deliberate
change of behaviour, and say why in the commit:
`CASTELL_UPDATE_GOLDEN=1 pytest tests/golden/test_compare_report.py`.

Rules covered: C-1 … C-10 indirectly, through complete games of Castell and two variants
(no-regions, generous-prizes).
"""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from castell_dsl.cli import cli

GOLDEN = Path(__file__).with_name("compare.json")

ARGS = ["compare", "castell", "castell+no-regions", "castell+generous-prizes", "--games", "6",
        "--players", "3", "--bots", "random", "--seed", "11", "--format", "json"]  # fmt: skip


def test_the_compare_report_is_as_recorded():
    result = CliRunner().invoke(cli, ARGS, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    if os.environ.get("CASTELL_UPDATE_GOLDEN"):
        GOLDEN.write_text(result.output)
    assert result.output == GOLDEN.read_text()
