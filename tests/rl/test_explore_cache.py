"""A cached exploration is checked before it shapes a codec (docs/security.md, "caches").

The exploration behind the generic codec and observation is cached in the user's cache
directory; an entry of the wrong shape, or one recorded for other rules, is ignored and the
exploration is played again, so a damaged or planted cache cannot change action ids.
"""

from __future__ import annotations

import json

from castell_dsl import cache, load_rules
from castell_dsl.rl import explore as ex
from castell_dsl.runtime.games import start_game

RULES = load_rules("castell", ("short-season",))


def _start(seed: int):
    return start_game(RULES, 2, seed, record_events=False)


def test_a_real_exploration_is_valid_and_altered_ones_are_not():
    found = ex.explore(RULES, 2, _start, budget=2).to_json()
    assert ex.valid_exploration(found, RULES.hash, 2, 2)
    assert not ex.valid_exploration(found, RULES.hash, 3, 2)  # recorded for other players
    assert not ex.valid_exploration({**found, "kinds": "move"}, RULES.hash, 2, 2)
    assert not ex.valid_exploration({**found, "first_seen": {"move": {"move X": "0"}}},
                                    RULES.hash, 2, 2)  # fmt: skip
    assert not ex.valid_exploration({**found, "extra": 1}, RULES.hash, 2, 2)


def test_a_planted_entry_is_ignored_and_the_exploration_played_again(tmp_path, monkeypatch):
    monkeypatch.setenv("CASTELL_CACHE_DIR", str(tmp_path))
    cache._LOADED.clear()
    ex._MEMORY.clear()
    key = cache.key_of("rl-explore", ex.VERSION, RULES.hash, 2, 3)
    planted = {"rules_hash": RULES.hash, "players": 2, "budget": 3, "kinds": ["move"],
               "first_seen": {"move": {"move Nowhere": 0}}, "together": {"move": [[0]]},
               "max_length": 1, "features": {"x": [0, 1], "y": "bad"}}  # fmt: skip
    (tmp_path / "rl_explore.json").write_text(
        json.dumps({"version": cache.VERSION, "entries": {key: planted}})
    )
    tmp_path.chmod(0o700)
    found = ex.explore(RULES, 2, _start, budget=3)
    assert "move Nowhere" not in found.first_seen.get("move", {})
    assert found.max_length > 1
    cache._LOADED.clear()
    ex._MEMORY.clear()
