"""Golden test: one full seeded 4-player game between random bots — its event log and result.

Regenerate after an intended change of the rules or the engine with:
    CASTELL_UPDATE_GOLDEN=1 pytest tests/castell/test_golden_game.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from castell_dsl import load_rules
from castell_dsl.runtime.simulation import play_game

GOLDEN = Path(__file__).parent / "golden" / "game-4p-seed-42.json"


def test_seeded_game_reproduces_the_golden_event_log_and_result():
    game = play_game(load_rules("castell"), 4, 42, ["random"] * 4, record_events=True)
    data = {
        "rules_hash": game.rules.hash,
        "actions": game.log,
        "events": game.events,
        "result": game.result(),
    }
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if os.environ.get("CASTELL_UPDATE_GOLDEN"):
        GOLDEN.write_text(text)
    expected = json.loads(GOLDEN.read_text())
    assert data["rules_hash"] == expected["rules_hash"], "the rules changed: regenerate"
    assert data["actions"] == expected["actions"]
    assert data["events"] == expected["events"]
    assert data["result"] == expected["result"]
