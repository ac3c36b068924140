"""Copies of a position share the state a game declares unchanging (`GameLogic.shared_state`).

Castell declares its calendar (C-3: dealt at the start, never changed): `Game.copier`'s
copies hold the very same calendar object instead of a copy of it, which is sound only while
nothing writes into it. These tests hold the mechanics to that, over whole games of every
action kind and every round's steps (C-9 festivals read the calendar), and check that a copy
is otherwise the position `clone` makes, keys in the same order, and independent of it.
"""

from __future__ import annotations

import copy
import json

import pytest

from castell_dsl.runtime.bots import make_bot
from castell_dsl.runtime.games import start_game
from castell_dsl.runtime.loading import load_rules


@pytest.mark.parametrize(("players", "bot", "seed"), [(4, "random", 1), (2, "greedy", 2),
                                                       (3, "random", 3)])  # fmt: skip
def test_castell_never_changes_its_calendar_after_the_start(players: int, bot: str, seed: int):
    rules = load_rules("castell")
    game = start_game(rules, players, seed, record_events=False)
    assert game.logic.shared_state == ("calendar",)
    calendar = game.state["g"]["calendar"]
    frozen = copy.deepcopy(calendar)
    bots = [make_bot(bot, rules, s, seed) for s in range(players)]
    while not game.is_over():
        player = game.current_player
        assert player is not None
        game.apply(bots[player].choose(game))
        assert game.state["g"]["calendar"] is calendar and calendar == frozen


def test_copies_share_the_calendar_and_are_otherwise_clones() -> None:
    rules = load_rules("castell")
    game = start_game(rules, 4, 5, record_events=False)
    bots = [make_bot("random", rules, s, 5) for s in range(4)]
    for _ in range(40):
        game.apply(bots[game.current_player].choose(game))  # type: ignore[index]
    make = game.copier()
    a, b = make(), make()
    assert a.state["g"]["calendar"] is game.state["g"]["calendar"]
    assert json.dumps(a.state) == json.dumps(game.clone(keep_log=False).state)  # order too
    a.apply(a.legal_actions()[0])
    assert json.dumps(b.state) == json.dumps(game.state)  # the other copy and the game
    assert a.state["g"] is not b.state["g"] and a.state["turn"] is not b.state["turn"]
