"""The tower solver's answers are those recorded before its search became one source (C-5,
C-6.3a, C-8.3, C-8.4, C-9.2, C-9.3).

`benchmarks/solver_dump.py` asks 6,131 queries (every tower question of 30 seeded games and
6,000 seeded random queries of every kind over three rule variants) and digests every answer.
`REFERENCE` is that digest as main answered before the change that made `tower_search.py` the
one source of the Python search and the compiled one (then two hand-kept twins, which gave it
alike); both builds of the one source must still give it, byte for byte. The dump runs in a
process of its own: which game questions reach the solver depends on what the game's memos
already hold.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from castell_game import solver

DUMP = Path(__file__).resolve().parents[2] / "benchmarks" / "solver_dump.py"
SEARCH_BACKENDS = ["python", "compiled"] if solver._compiled is not None else ["python"]
#: Queries and SHA-256 of the default dump, recorded on main at e72b65a (both searches).
REFERENCE = (
    "6131 queries, search {}, sha256 "
    "26b1e7c78c7c21ec53e17fdde65746fba47ce3017a831c0b42849815d5cdb9af"
)


@pytest.mark.slow
@pytest.mark.parametrize("backend", SEARCH_BACKENDS)
def test_every_dumped_answer_is_the_recorded_one(backend):
    shown = subprocess.run(
        [sys.executable, str(DUMP), "--search", backend],
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.strip() == REFERENCE.format(backend)
