"""`Game.sample_legal` against the listing it replaces: the same actions, the same draw.

The random bot and MCTS rollouts draw through `sample_legal`, which counts each action kind
(`GameLogic.count_options`) and builds only the action drawn (`nth_option`). Every seeded
result stays byte-identical only if, in every position, the counted form is the listing
exactly: the same actions in the same order, so that one draw of the generator picks the same
action as `legal[rng.below(len(legal))]`. These tests walk seeded games of both bundled games
and check that in every position reached, for every index.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from castell_dsl.contract import Rng, seed_state
from castell_dsl.engine.game import Game
from castell_dsl.runtime.games import start_game
from castell_dsl.runtime.loading import load_rules


class Fixed:
    """A stand-in generator whose `below(n)` answers a chosen index (and records `n`)."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.bounds: list[int] = []

    def below(self, n: int) -> int:
        self.bounds.append(n)
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return self.index


def positions(rules_name: str, players: int, seed: int, limit: int = 400) -> list[Game]:
    """Copies of every position of a seeded random game (the listing's own draws)."""
    rules = load_rules(rules_name)
    game = start_game(rules, players, seed, record_events=False)
    rng = Rng({"rng": seed_state(seed)})
    out = []
    while not game.is_over() and len(out) < limit:
        out.append(game.clone())
        legal = game.legal_actions()
        game.apply(legal[rng.below(len(legal))])
    return out


def agrees(position: Game) -> None:
    legal = position.clone().legal_actions()
    assert legal, "a player to move always has an action"
    for index in range(len(legal)):
        fresh = position.clone()  # nothing listed yet: the counted path
        fixed = Fixed(index)
        drawn = fresh.sample_legal(fixed)  # type: ignore[arg-type]
        assert fixed.bounds == [len(legal)], "one draw, over exactly the listed actions"
        assert drawn == legal[index]
        assert drawn.text == legal[index].text
    # And with a real generator: the same action and the same generator state afterwards.
    a, b = Rng({"rng": 12345}), Rng({"rng": 12345})
    assert position.clone().sample_legal(a) == legal[b.below(len(legal))]
    assert a.store == b.store


@pytest.mark.parametrize(
    ("rules_name", "players", "seed"),
    [("castell", 4, 1), ("castell", 2, 7), ("castell", 3, 11), ("calico", 4, 3), ("calico", 1, 5)],
)
def test_counted_actions_are_the_listing(rules_name: str, players: int, seed: int) -> None:
    for position in positions(rules_name, players, seed):
        agrees(position)


@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_counted_castell_agrees_on_random_games(seed: int, players: int) -> None:
    for position in positions("castell", players, seed, limit=60)[::3]:
        agrees(position)


def test_a_sampled_action_is_applied_without_a_second_check() -> None:
    """The drawn action is known legal, like a listed one: `apply` takes it as it is."""
    game = start_game(load_rules("castell"), 4, 2, record_events=False)
    action = game.sample_legal(Rng({"rng": 99}))
    game._check = None  # type: ignore[method-assign,assignment]  # would fail if called
    game.apply(action)


def test_sampling_a_finished_game_fails_like_an_empty_listing() -> None:
    game = start_game(load_rules("castell"), 2, 3, record_events=False)
    rng = Rng({"rng": 1})
    while not game.is_over():
        game.apply(game.sample_legal(rng))
    with pytest.raises(ValueError):
        game.sample_legal(rng)
