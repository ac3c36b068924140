"""The bots' Castell evaluation is memoised on what it reads; these tests hold the memo keys
to what the values really depend on.

`views.facts_parts` names the parts of the state a player's scoring facts read (C-10: best
tower, size tokens, collected tokens, performances, prizes, special tokens, team), and the
score is memoised on them: so facts must read nothing else. `heuristic.evaluate_all` keys a
position on every player's parts and the calendar's near spaces: its memoised values must be
those computed afresh.
"""

from __future__ import annotations

import copy

import pytest
from castell_game import heuristic, views

from castell_dsl.runtime.games import start_game
from castell_dsl.runtime.loading import load_rules
from castell_dsl.runtime.simulation import play_game


def positions(seed: int) -> list:
    """Every 7th position of a seeded random 4-player game."""
    game = play_game(load_rules("castell"), 4, seed, ["random"] * 4)
    out = []
    replay = start_game(game.rules, 4, seed, record_events=False)
    for i, text in enumerate(game.log):
        if i % 7 == 0:
            out.append(replay.clone())
        replay.apply(text)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_facts_read_only_their_parts(seed: int) -> None:
    """Swap in everything else of another position: each player's facts stay."""
    games = positions(seed)
    others = positions(seed + 100)
    for game, other in zip(games, others, strict=False):
        mixed = game.clone()
        mixed.state = copy.deepcopy(other.state)
        g, mg = game.state["g"], mixed.state["g"]
        for player in range(4):
            for name in views.FACTS_READ:
                mg[name][player] = copy.deepcopy(g[name][player])
            assert views.facts_parts(mg, player) == views.facts_parts(g, player)
            assert game.logic.facts(mixed, player) == game.logic.facts(game, player)
            assert mixed.score_of(player) == game.score_of(player)


def test_memoised_values_are_the_values_computed_afresh() -> None:
    logic = None
    for game in positions(3) + positions(4):
        logic = game.logic
        memoised = heuristic.evaluate_all(logic, game)
        assert memoised == heuristic.evaluate_all(logic, game)  # now from the memo
        fresh = [heuristic.position_value(logic, game, p) for p in range(game.players)]
        for table in (logic.evaluations, logic.shared_evaluations, logic.position_evaluations,
                      logic.scores):  # fmt: skip
            table.clear()
        assert memoised == fresh == [heuristic.position_value(logic, game, p) for p in range(4)]
    assert logic is not None
