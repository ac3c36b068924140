"""docs/rl.md's examples run as written, and so do the example and the benchmark, with tiny
settings.

The page's blocks are fenced ```python rl (highlighted as Python) rather than ```python, so the
general docs test (tests/docs/test_code_blocks.py) leaves them to this one, which skips without
the extras outside CI. Blocks of the page run in order in one namespace.
"""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

from rl_support import need

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```python rl\n(.*?)^```", re.S | re.M)


def test_docs_rl_blocks_run(tmp_path, monkeypatch):
    need("pettingzoo")
    need("pyspiel")
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    blocks = BLOCK.findall(text)
    assert len(blocks) >= 4
    namespace: dict = {"__name__": "__docs__"}
    for code in blocks:
        exec(compile(code, "docs/rl.md", "exec"), namespace)


def test_example_trains_and_evaluates(monkeypatch):
    need("pettingzoo")
    sys.path.insert(0, str(ROOT / "examples" / "rl"))
    try:
        module = runpy.run_path(str(ROOT / "examples" / "rl" / "masked_linear_policy.py"))
        out = module["main"](["--episodes", "5", "--eval", "3"])
    finally:
        sys.path.pop(0)
    assert set(out) == {"learnt", "random"}
    assert all(0.0 <= v <= 1.0 for v in out.values())


def test_benchmark_runs(tmp_path):
    need("pettingzoo")
    need("pyspiel")
    module = runpy.run_path(str(ROOT / "benchmarks" / "rl_steps.py"))
    rows = module["main"](["--seconds", "0.05", "--json", str(tmp_path / "rl.json")])
    assert all(r["engine"] > 0 and r["pettingzoo"] > 0 and r["openspiel"] > 0 for r in rows)
