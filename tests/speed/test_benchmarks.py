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


def test_solver_counts_reads_callgrind_totals_and_its_child_runs(tmp_path, monkeypatch, capsys):
    """`benchmarks/solver_counts.py`: the totals line (trailing zero events left out, as
    callgrind writes it), its child program under plain Python, and a clear refusal without
    valgrind (the suite never needs valgrind)."""
    import subprocess

    import solver_counts

    out = tmp_path / "x.callgrind"
    out.write_text("version: 1\nevents: Ir I1mr D1mr D1mw\nfn=f\n1 5 1\ntotals: 120 7\n")
    assert solver_counts.totals(out) == {"Ir": 120, "I1mr": 7, "D1mr": 0, "D1mw": 0}
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", solver_counts.CHILD, str(root), "1"], check=True)
    monkeypatch.setattr(solver_counts.shutil, "which", lambda name: None)
    assert solver_counts.main([]) == 2
    assert "needs valgrind" in capsys.readouterr().err
