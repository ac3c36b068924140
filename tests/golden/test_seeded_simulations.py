"""Golden: seeded bot games of every bundled game reach exactly the same end states.

This is the proof that a refactoring changed no behaviour: 200 random-bot games of each game
(plus a few greedy ones, which exercise the heuristics and the one-ply look-ahead) are played
from fixed seeds, and each game's final state hash and action count are compared with the
recorded ones. Regenerate only for a deliberate change of behaviour, and say why in the commit:
`CASTELL_UPDATE_GOLDEN=1 pytest tests/golden/test_seeded_simulations.py`.

Rules covered: all of them indirectly (C-1 … C-10 and K-1 … K-9 through complete games).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from castell_dsl import load_rules
from castell_dsl.runtime.simulation import play_game

GOLDEN = Path(__file__).with_name("simulations.json")

BATCHES = {
    "castell-4p-random": ("castell", (), 4, "random", 200),
    "castell-2p-greedy": ("castell", (), 2, "greedy", 10),
    "calico-4p-random": ("calico", (), 4, "random", 200),
    "calico-1p-greedy": ("calico", (), 1, "greedy", 10),
}


def _digest(name: str) -> list[str]:
    rules_name, variants, players, bot, games = BATCHES[name]
    rules = load_rules(rules_name, variants)
    out = []
    for seed in range(games):
        game = play_game(rules, players, seed, [bot] * players)
        text = f"{game.state_hash()} {len(game.log)} {json.dumps(game.result(), sort_keys=True)}"
        out.append(hashlib.sha256(text.encode()).hexdigest()[:16])
    return out


@pytest.mark.parametrize("name", sorted(BATCHES))
def test_seeded_games_end_exactly_as_recorded(name):
    got = _digest(name)
    if os.environ.get("CASTELL_UPDATE_GOLDEN"):
        recorded = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
        recorded[name] = got
        GOLDEN.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    recorded = json.loads(GOLDEN.read_text())
    assert got == recorded[name]
