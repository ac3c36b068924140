"""The fast observation (`tracking.Tracker`, fed by the games' `tracked_view`) equals the
reference flattening (`ObservationSchema.public(game.view())`) feature for feature, on random
positions of Castell and Calico games followed step by step, with positions skipped between
updates (an agent need not observe every step) and trackers reused across games."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy", reason="numpy missing: pip install 'castell-dsl[rl]'")

from castell_dsl.rl import game_spec  # noqa: E402
from castell_dsl.rl.tracking import Tracker  # noqa: E402

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
)
def test_tracked_vector_equals_the_reference(case, seed, stride):
    rules, players, variants = case
    spec = game_spec(rules, players, variants)
    tracker = Tracker(spec.observation)
    memo: dict = {}
    for game_seed in (seed, seed + 1):  # the same tracker and memo across two games
        game = spec.new_game(game_seed)
        memo.clear()
        tracker.reset(game.view(memo))
        step = 0
        while True:
            if step % stride == 0 or game.is_over():
                fast = tracker.update(game.view(memo))
                reference = spec.observation.public(game.view())
                np.testing.assert_array_equal(fast, reference, err_msg=f"step {step}")
            if game.is_over():
                break
            legal = game.legal_actions()
            game.apply(legal[(seed * 7919 + step * 104729) % len(legal)])
            step += 1
