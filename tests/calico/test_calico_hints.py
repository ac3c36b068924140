"""Hints for a human player (`hint` in `castell play`): the best few placements and takes,
each with what it earns in words, never an illegal action (K-3.2, K-3.3, K-5.4, K-6.1, K-4.1).
"""

from __future__ import annotations

from calico_game.hints import suggestions
from hypothesis import given, settings
from hypothesis import strategies as st

from castell_dsl import load_rules, new_game
from castell_dsl.engine.game import Game
from castell_dsl.runtime.bots import make_bot

VARIANTS = {
    v: load_rules("calico", v) for v in [(), ("beginner",), ("family",), ("solo", "low-luck")]
}


def _position(variant: tuple[str, ...], players: int, seed: int, stop: int) -> Game:
    rules = VARIANTS[variant]
    players = min(players, rules.game.players[1])
    game = new_game(rules, players, seed, record_events=False)
    bots = [make_bot("random", rules, s, seed) for s in range(players)]
    for _ in range(stop):
        if game.is_over():
            break
        game.apply(bots[game.current_player].choose(game))
    return game


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(list(VARIANTS)),
    players=st.integers(1, 4),
    seed=st.integers(0, 2**31),
    stop=st.integers(0, 90),
)
def test_k_3_2_k_3_3_every_hinted_move_is_legal_on_random_positions(variant, players, seed, stop):
    """K-3.2, K-3.3 (and K-2.2 for goal arrangements, K-3.4 for the last turn): each hinted
    action is legal when its turn comes, checked by the engine (`explain`)."""
    game = _position(variant, players, seed, stop)
    if game.is_over():
        assert game.logic.hints(game, 0) == ["The game is over."]
        return
    player = game.current_player
    found = suggestions(game.logic, game, player)
    assert found and len(found) <= 3
    lines = game.logic.hints(game, player)
    assert len(lines) == len(found)
    for line, suggestion in zip(lines, found, strict=True):
        trial = game.clone()
        for action in suggestion.actions:
            assert action.text in line
            assert trial.explain(action.text) is None, (action.text, line)
            trial.apply(action.text)
    values = [s.value for s in found]
    assert values == sorted(values, reverse=True)


def _arranged(table, hand: list[str], placed: dict[tuple[int, int], str]) -> Game:
    """A one-player beginner game on its first placement, with a cleared quilt, these patches
    on it and this hand; dots and ferns are Millie's (a group of 3)."""
    game = table.game()
    table.clear(game)
    table.assign(game, Millie=["dots", "ferns"], Tibbit=["flowers", "vines"])
    g = table.g(game)
    for (col, row), text in placed.items():
        table.set_cell(game, 0, text, col, row)
    g["hands"][0] = [table.patch(game, text) for text in hand]
    game.invalidate()
    return game


def test_k_6_1_a_button_one_patch_away_is_the_first_hint(table):
    """K-6.1: two pink patches side by side and a pink patch in hand: the first hint places it
    beside them and says it earns the pink button."""
    game = _arranged(
        table, ["pink/vines", "green/stripes"], {(2, 5): "pink/quatrefoil", (3, 5): "pink/stripes"}
    )
    first = suggestions(game.logic, game, 0)[0]
    place = first.actions[0]
    assert place.text.startswith("place pink/vines")
    assert "+3 now: earns the pink button (+3)" in first.text()
    trial = game.clone()
    trial.apply(place)
    assert table.buttons(trial) == ["pink"]


def test_k_5_4_a_cat_one_patch_away_is_the_first_hint(table):
    """K-5.4: two dots patches side by side and a dots patch in hand: the first hint completes
    Millie's group of three and says so."""
    game = _arranged(
        table, ["yellow/stripes", "purple/dots"], {(2, 5): "green/dots", (3, 5): "pink/dots"}
    )
    first = suggestions(game.logic, game, 0)[0]
    assert first.actions[0].text.startswith("place purple/dots")
    assert "+3 now: attracts Millie (+3)" in first.text()
    assert first.actions[1].kind == "take"


def test_k_4_1_a_hint_beside_a_goal_says_which_ways_stay_open(table):
    """K-4.1: a placement around a design goal says whether the goal can still be met."""
    game = _arranged(table, ["pink/dots", "pink/dots"], {})
    texts = [s.text() for s in suggestions(game.logic, game, 0, count=50)]
    assert any("keeps All different at 3,2 possible both ways" in t for t in texts)


def test_hints_are_for_the_player_to_move(table):
    """Another player's `hint` says it is not their turn instead of advising a move."""
    game = table.game(players=2)
    other = 1 - game.current_player
    assert game.logic.hints(game, other) == [
        "It is not your turn: hints are for the move you are about to make."
    ]
