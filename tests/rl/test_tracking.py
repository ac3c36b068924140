"""The fast observation (`tracking.Tracker`) equals the reference flattening
(`ObservationSchema.public(game.view())`) feature for feature, on random positions of Castell
and Calico games followed step by step, with positions skipped between updates (an agent need
not observe every step) and trackers reused across games: by the games' parts
(`GameLogic.tracked_parts`, their `encoding.py`), and by the view's differences (the path of a
game without parts, taken here by hiding the parts)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy", reason="numpy missing: pip install 'castell-dsl[rl]'")

from castell_dsl.rl import game_spec  # noqa: E402
from castell_dsl.rl.tracking import Tracker, engine_part  # noqa: E402

CASES = [
    ("castell", 2, ()),
    ("castell", 4, ()),
    ("castell", 3, ("short-season",)),
    ("calico", 2, ()),
    ("calico", 4, ()),
    ("calico", 1, ("solo",)),
]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(0, 10_000),
    stride=st.integers(1, 4),
    by_parts=st.booleans(),
)
def test_tracked_vector_equals_the_reference(case, seed, stride, by_parts):
    rules, players, variants = case
    spec = game_spec(rules, players, variants)
    tracker = Tracker(spec.observation)
    for game_seed in (seed, seed + 1):  # the same tracker across two games
        game = spec.new_game(game_seed)
        if not by_parts:  # the game as one without parts: its views' differences
            game.logic = _WithoutParts(game.logic)
        tracker.reset(game)
        step = 0
        while True:
            if step % stride == 0 or game.is_over():
                fast = tracker.update(game)
                view = game.view()
                reference = spec.observation.public(view)
                np.testing.assert_array_equal(fast, reference, err_msg=f"step {step}")
                assert engine_part(game) == {k: v for k, v in view.items() if k != "table"}
            if game.is_over():
                break
            legal = game.legal_actions()
            game.apply(legal[(seed * 7919 + step * 104729) % len(legal)])
            step += 1
    assert tracker.exact


class _WithoutParts:
    """A game's logic that gives no parts (`tracked_parts` is None), all else delegated."""

    def __init__(self, logic):
        self._logic = logic

    def tracked_parts(self, game, memo):
        return None

    def __getattr__(self, name):
        return getattr(self._logic, name)


@pytest.mark.parametrize("rules, players", [("castell", 4), ("calico", 2)])
def test_the_parts_are_used_and_a_missed_change_is_caught(rules, players, monkeypatch):
    """The games give parts (so the fast path is what the test above checks), and a part not
    handed over when its state changes makes the vector differ from the reference: the test
    above can fail."""
    spec = game_spec(rules, players)
    game = spec.new_game(3)
    assert game.logic.tracked_parts(game, {})
    original = type(game.logic).tracked_parts

    def forgetful(self, game, memo):  # from the second position on: no seat's or team's part
        parts = original(self, game, memo)
        return [p for p in parts if not p[0].startswith(("teams[", "seats["))]

    tracker = Tracker(spec.observation)
    tracker.reset(game)  # the first position in full
    monkeypatch.setattr(type(game.logic), "tracked_parts", forgetful)
    differs = False
    for step in range(60):
        legal = game.legal_actions()
        game.apply(legal[step * 31 % len(legal)])
        fast = tracker.update(game)
        differs |= not np.array_equal(fast, spec.observation.public(game.view()))
    assert differs
