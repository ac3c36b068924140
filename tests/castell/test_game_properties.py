"""Invariants that hold in every game (property tests over random seeded games).

The normal suite plays a bounded number of games; `HYPOTHESIS_PROFILE=long` plays thousands.
Rules: C-2 (castellers and tokens conserved), C-4.2 (each action at most once per turn),
C-9.1 (festivals in rounds 3-10), C-6.3 (every tower legal for its owner's ranks), C-10.1
(total = sum of categories), and the engine's replay guarantees.
"""

from __future__ import annotations

from castell_game import towers
from castell_game.tables import tower_rules
from hypothesis import given
from hypothesis import strategies as st

from castell_dsl import load_rules, new_game
from castell_dsl.engine.game import Game
from castell_dsl.runtime.bots import make_bot

RULES = load_rules("castell")
TOWER_RULES = tower_rules(RULES)
LIMITED = {"move", "recruit", "train", "special"}


def conserved(game: Game) -> None:
    g = game.state["g"]
    castellers = sum(g["bag"]) + sum(map(sum, g["regions"])) + sum(map(sum, g["teams"]))
    assert castellers == 150
    tokens = sum(g["tokens"]) + sum(g["lp_tokens"]) + sum(map(sum, g["collected"]))
    assert tokens == 7 * game.players


def play_checked(players: int, seed: int) -> Game:
    game = new_game(RULES, players, seed, record_events=True)
    bots = [make_bot("random", RULES, s, seed) for s in range(players)]
    used: dict[str, int] = {}
    turn_owner = None
    while not game.is_over():
        player = game.current_player
        if player != turn_owner or (game.events and game.events[-1]["type"] == "turn"):
            used, turn_owner = {}, player
        action = bots[player].choose(game)
        granted = game.view()["pending_grant"] is not None
        game.apply(action)
        if action.kind in LIMITED and not granted:
            used[action.kind] = used.get(action.kind, 0) + 1
            assert used[action.kind] == 1, f"{action.kind} twice in a turn"  # C-4.2
        if action.kind == "tower":
            ranks = dict(zip(game.logic.skills, game.state["g"]["ranks"][player], strict=True))
            assert towers.check(action.args[0], ranks, TOWER_RULES).legal  # C-6.3
        conserved(game)
    return game


@given(players=st.integers(2, 4), seed=st.integers(0, 2**31))
def test_invariants_hold_in_random_games(players, seed):
    game = play_checked(players, seed)
    festival_rounds = {e["round"] for e in game.events if e["type"] == "festival"}
    assert festival_rounds <= set(range(3, 11))  # C-9.1
    for p in game.result()["players"]:
        assert p["total"] == sum(p["categories"].values())  # C-10.1


@given(players=st.integers(2, 4), seed=st.integers(0, 2**31), stop=st.integers(0, 400))
def test_json_round_trip_and_replay_reproduce_the_state(players, seed, stop, round_trip):
    round_trip(RULES, players, seed, stop)


def test_clone_is_independent():
    game = new_game(RULES, 3, 5, record_events=False)
    copy = game.clone()
    copy.apply(copy.legal_actions()[0])
    assert copy.state_hash() != game.state_hash()
    assert game.log == []
