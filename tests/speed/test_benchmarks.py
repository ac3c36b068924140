"""The benchmark script's parts run and report what the README's table reads (no timing is
asserted: speed lives in `benchmarks/`, and a busy machine must not fail the suite)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import run  # benchmarks/run.py, importable through the line above


def test_the_yardstick_is_openspiels_own_tic_tac_toe_when_installed() -> None:
    ttt = run.bench_tictactoe(5)
    name, rate = run.yardstick(ttt)
    assert rate > 0 and ttt["list_actions_per_s"] > 0
    if importlib.util.find_spec("pyspiel") is None:
        assert name in ("openspiel", "list")
    else:
        assert name == "pyspiel"


def test_playouts_and_mcts_report_their_rows() -> None:
    (row,) = run.bench_playouts(2, "castell", (2,))
    assert row["games"] == 2 and row["actions_per_game"] > 20
    assert row["handwritten_actions_per_s"] > 0
    mcts = run.bench_mcts(1, iterations=5)
    assert mcts["moves"] == 1 and mcts["iterations_per_s"] > 0
