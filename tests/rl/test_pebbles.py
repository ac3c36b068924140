"""The third-party example game, Pebbles (docs/examples/castell-pebbles), through both
interfaces: nothing in castell_dsl.rl knows it, so this is the generic fallback's proof.

The game is pip-installed from a copy into a throw-away virtual environment that sees this
environment's packages through a .pth file (as tests/plugins/test_third_party_game.py does), and
a script runs there: PettingZoo's api_test, the codec check over 200 fresh random games, and an
OpenSpiel game played by OpenSpiel's MCTS to the end with the engine's result as its returns.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from rl_support import need
from venvs import venv_with

#: Installs the example game into a fresh virtual environment.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "castell-pebbles"

SCRIPT = r"""
import sys, warnings
sys.path.insert(0, sys.argv[1])
warnings.simplefilter("ignore", UserWarning)
import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from pettingzoo.test import api_test
import castell_dsl.rl.openspiel
from castell_dsl.rl import env, game_spec
from test_codec import check_codec

for players, variants in [(3, ()), (2, ("big-heaps",))]:
    api_test(env("pebbles", players, variants, seed=1, render_mode="ansi"), num_cycles=300)
    assert check_codec(game_spec("pebbles", players, variants)) > 1000
game = pyspiel.load_game("castell_dsl(rules=pebbles,players=3)")
bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)))
state = game.new_initial_state()
while not state.is_terminal():
    state.apply_action(bot.step(state))
winners = state.engine.result()["winners"]
assert state.returns() == [1 / len(winners) if p in winners else 0.0 for p in range(3)]
print("pebbles ok", game.num_distinct_actions(), state.returns())
"""


def test_pebbles_through_both_interfaces(tmp_path):
    need("pettingzoo")
    need("pyspiel")
    python = venv_with(EXAMPLE, tmp_path)
    out = subprocess.run(
        [str(python), "-c", SCRIPT, str(Path(__file__).parent)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    assert "pebbles ok" in out.stdout
