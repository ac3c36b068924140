"""Invariants of every Calico game (property tests over random seeded games, 1 to 4 players).

K-1.1 (the 108 bag patches are conserved: bag + market + hands + placed + out of the game;
edge patches are printed on the boards and counted apart), K-3.4 (every quilt full after 22
turns each), K-7.1 (total = goals + cats + buttons), and the engine's guarantees: replaying the
log and resuming from JSON reproduce the state exactly.
"""

from __future__ import annotations

import json

from calico_game.checks import bag_player_counts
from hypothesis import given
from hypothesis import strategies as st

from castell_dsl import load_rules, new_game
from castell_dsl.engine.game import Game
from castell_dsl.runtime.bots import make_bot
from castell_dsl.runtime.simulation import play_game

RULES = load_rules("calico")
VARIANT_RULES = {
    v: load_rules("calico", v)
    for v in [(), ("beginner",), ("family",), ("low-luck",), ("scenario-5",)]
}


def bag_patches(game: Game) -> int:
    g = game.state["g"]
    edge = game.logic.edge_cells
    placed = sum(
        1 for quilt in g["quilts"] for cell, v in enumerate(quilt) if v >= 0 and cell not in edge
    )
    return (
        sum(g["bag"])
        + sum(g["removed"])
        + len(g["market"])
        + sum(len(hand) for hand in g["hands"])
        + placed
    )


@given(players=st.integers(1, 4), seed=st.integers(0, 2**31))
def test_k_1_1_k_3_4_k_7_1_invariants_hold_in_random_games(players, seed):
    """K-1.1, K-3.4, K-7.1."""
    game = play_game(RULES, players, seed, ["random"] * players)
    g = game.state["g"]
    assert bag_patches(game) == 108
    assert game.is_over() and game.round == 22
    for seat in range(players):
        assert -1 not in g["quilts"][seat]  # every board full
        edge = [v for c, v in enumerate(g["quilts"][seat]) if c in game.logic.edge_cells]
        assert edge == [v for c, v in enumerate(game.logic.board_quilts[g["boards"][seat]])
                        if c in game.logic.edge_cells]  # fmt: skip
    result = game.result()
    for p in result["players"]:
        assert set(p["categories"]) == {"goals", "cats", "buttons"}
        assert p["total"] == sum(p["categories"].values())
    assert json.loads(json.dumps(game.view()))["table"]["seats"][0]["cells"]


@given(
    variant=st.sampled_from(list(VARIANT_RULES)),
    players=st.integers(1, 4),
    seed=st.integers(0, 2**31),
)
def test_k_1_1_patches_are_conserved_move_by_move_in_every_variant(variant, players, seed):
    """K-1.1, K-8.2."""
    rules = VARIANT_RULES[variant]
    players = min(players, bag_player_counts(rules)[-1])  # low-luck: one or two (K-8.2)
    game = new_game(rules, players, seed, record_events=False)
    bots = [make_bot("random", rules, s, seed) for s in range(players)]
    while not game.is_over():
        game.apply(bots[game.current_player].choose(game))
        assert bag_patches(game) == 108
    assert all(-1 not in quilt for quilt in game.state["g"]["quilts"])


@given(players=st.integers(1, 4), seed=st.integers(0, 2**31), stop=st.integers(0, 120))
def test_json_round_trip_and_replay_reproduce_the_state(players, seed, stop, round_trip):
    game = round_trip(RULES, players, seed, stop)
    clone = game.clone()
    assert clone.state == game.state and clone.state is not game.state
