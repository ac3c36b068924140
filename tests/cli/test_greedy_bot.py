"""The greedy bot never skips a turn it could use: over many seeded games it never ends a
turn having taken no action while another legal action existed (C-4.2: each of the four
actions may be taken once a turn; `end` passes), and it stays deterministic."""

from __future__ import annotations

import pytest

from castell_dsl.runtime.bots import make_bot
from castell_dsl.runtime.games import start_game
from castell_dsl.runtime.loading import load_rules


def greedy_first_actions(players: int, seed: int) -> list[tuple[str, int]]:
    """(chosen action, number of legal actions) for every first action of a greedy turn."""
    rules = load_rules("castell")
    game = start_game(rules, players, seed, record_events=False)
    bots = [make_bot("greedy", rules, seat, seed) for seat in range(players)]
    seen = []
    while not game.is_over():
        player = game.current_player
        assert player is not None
        action = bots[player].choose(game)
        if game.actions_this_turn == 0:
            seen.append((action.text, len(game.legal_actions())))
        game.apply(action)
    return seen


@pytest.mark.parametrize("seed", range(6))
def test_greedy_never_opens_a_turn_with_end_when_it_could_act(seed):
    players = 2 + seed % 3
    for text, legal in greedy_first_actions(players, seed):
        assert not (text == "end" and legal > 1), f"seed {seed}: greedy skipped a turn"


def test_greedy_is_deterministic():
    assert greedy_first_actions(2, 11) == greedy_first_actions(2, 11)
