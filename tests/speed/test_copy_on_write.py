"""Copies of a position share the state a logic declares copy-on-write (`GameLogic.
copy_on_write`) until they change it through `GameContext.own`.

Castell declares every part of its state but the calendar (which is `shared_state`): a copy
made by `Game.copier` holds the same lists as the other copies of its position, and the first
change of one (an action or a step: C-4 moves, recruiting, training, C-5 special actions,
C-8 performances, C-6 towers, C-7.1 refills, C-9 festivals) copies it first. That is sound
only while every change in place goes through `own`. These tests hold the mechanics to it
over whole games: at every position, each legal action is applied to a copy and must give
exactly the position `clone` + `apply` gives, while the position the copies share (read back
from a fresh copy) and the game itself stay unchanged; copies of copies (whose values are
partly their own, partly shared) are checked the same way. Calico declares nothing: its
copies take the general path (everything but the scalars read back), checked alike.
"""

from __future__ import annotations

import json

import pytest

from castell_dsl.runtime.bots import make_bot
from castell_dsl.runtime.games import start_game
from castell_dsl.runtime.loading import load_rules


def _text(state: dict) -> str:
    return json.dumps(state)  # keys in order: a copy must keep them as `clone` does


def _check_copies(game, depth: int) -> None:
    """Each legal action applied to a copy is `clone` + `apply`; nothing shared changes."""
    before = _text(game.state)
    make = game.copier()
    assert _text(make().state) == before
    for action in game.legal_actions():
        copy = make()
        copy.apply(action)
        reference = game.clone(keep_log=False)
        reference.apply(action)
        assert _text(copy.state) == _text(reference.state), action.text
        if depth > 1 and not copy.is_over():
            _check_copies(copy, depth - 1)
        assert _text(make().state) == before, f"{action.text} changed the copies' shared state"
        assert _text(game.state) == before, f"{action.text} changed the game copied"


@pytest.mark.parametrize(
    ("rules_name", "players", "bot", "seed"),
    [("castell", 4, "random", 1), ("castell", 2, "greedy", 2), ("castell", 3, "random", 3),
     ("calico", 2, "random", 4)],
)  # fmt: skip
def test_copies_change_only_what_they_own(rules_name: str, players: int, bot: str, seed: int):
    rules = load_rules(rules_name)
    game = start_game(rules, players, seed, record_events=False)
    if rules_name == "castell":
        assert "teams" in game.logic.copy_on_write
    bots = [make_bot(bot, rules, s, seed) for s in range(players)]
    turns = 0
    while not game.is_over():
        # Every position one level deep, every fourth two levels (a copy of a copy).
        _check_copies(game, 2 if turns % 4 == 0 else 1)
        player = game.current_player
        assert player is not None
        game.apply(bots[player].choose(game))
        turns += 1
    assert turns > 20


def test_a_copy_owns_an_item_and_shares_the_rest() -> None:
    """`own(key, index)` copies the value's list and that item only: the other items stay
    the very objects the other copies hold (C-4.3: recruiting changes one region and one
    team)."""
    rules = load_rules("castell")
    game = start_game(rules, 4, 5, record_events=False)
    make = game.copier()
    a, b = make(), make()
    assert a.state["g"]["teams"] is b.state["g"]["teams"]
    team = a.own("teams", 1)
    assert a.state["g"]["teams"] is not b.state["g"]["teams"]
    assert team is not b.state["g"]["teams"][1] and team == b.state["g"]["teams"][1]
    assert a.state["g"]["teams"][0] is b.state["g"]["teams"][0]
    team[0] += 1
    assert b.state["g"]["teams"][1][0] == team[0] - 1
    assert a.own("teams", 1) is team  # owned once
    whole = a.own("teams")
    assert whole == a.state["g"]["teams"] and whole[0] is not b.state["g"]["teams"][0]
    # A game that is not a copy owns everything already: `own` hands its values out.
    assert game.own("teams") is game.state["g"]["teams"]
    assert game.own("teams", 2) is game.state["g"]["teams"][2]
