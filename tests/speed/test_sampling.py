"""`Game.sample_legal` against the listing it replaces: the same actions, equally likely.

The random bot draws through `sample_legal`, which asks each action kind open now for its
candidates (`GameLogic.count_candidates`), draws one uniformly, builds only that one
(`candidate`) and draws again when it is not an action now (rejection sampling). That is a
uniform draw among the legal actions exactly when, in every position, the candidates that are
actions are the listing: each listed action once, in the listing's order, nothing else. These
tests walk seeded games of both bundled games and check that in every position reached, for
every index of the draw (C-4.2 … C-4.8 in Castell, K-4 in Calico: every action kind of a
turn). Calico's candidates are all actions (it counts exactly), so its draw is a single one,
the very draw `legal[rng.below(len(legal))]` makes; Castell's performances and towers are
candidates confirmed by a search only when drawn.
"""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from castell_dsl.contract import Action, Rng, seed_state
from castell_dsl.engine.game import Game
from castell_dsl.runtime.games import start_game
from castell_dsl.runtime.loading import load_rules


class Redrawn(Exception):
    """The sampler asked a `Script` for one more draw than it holds."""


class Script:
    """A stand-in generator whose `below(n)` answers chosen indices in turn (recording each
    `n`); asked for another, it raises `Redrawn`."""

    def __init__(self, *indices: int) -> None:
        self.indices = list(indices)
        self.bounds: list[int] = []

    def below(self, n: int) -> int:
        self.bounds.append(n)
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if not self.indices:
            raise Redrawn
        return self.indices.pop(0)


#: Castell with its special action and towers required: those kinds are counted exactly
#: (`count_options`) until taken, since whether they have an action decides whether the turn
#: may end.
REQUIRED = """extends "castell"

override turn main {
  action move    { limit 1 }
  action recruit { limit 1  up_to 2 }
  action train   { limit 1 }
  action special { limit 1  recruit_up_to 1  move_to any  places_pawn true  required true }
  action tower   { required true }
  action end     { ends_turn true }
}
"""


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


def draw_space(position: Game) -> list[Action | None]:
    """What each index of the sampler's draw yields in `position`: the action, or None when
    that candidate is not an action now and the sampler draws again."""
    probe = Script(0)
    with contextlib.suppress(Redrawn):
        position.clone().sample_legal(probe)  # type: ignore[arg-type]
    total = probe.bounds[0]
    space: list[Action | None] = []
    for index in range(total):
        script = Script(index)
        try:
            space.append(position.clone().sample_legal(script))  # type: ignore[arg-type]
        except Redrawn:
            space.append(None)
        assert set(script.bounds) == {total}, "every draw is over the same candidates"
    return space


def agrees(position: Game) -> list[Action | None]:
    """Check that `position`'s candidates are its listing; return them."""
    legal = position.clone().legal_actions()
    assert legal, "a player to move always has an action"
    space = draw_space(position)
    actions = [a for a in space if a is not None]
    assert actions == legal, "the candidates that are actions are the listing, in order"
    assert [a.text for a in actions] == [a.text for a in legal]
    # With a real generator: the first candidate drawn that is an action, and the same
    # generator state afterwards as that many draws.
    a, b = Rng({"rng": 12345}), Rng({"rng": 12345})
    drawn = position.clone().sample_legal(a)
    expected = None
    while expected is None:
        expected = space[b.below(len(space))]
    assert drawn == expected
    assert a.store == b.store
    return space


@pytest.mark.parametrize(
    ("rules_name", "players", "seed"),
    [("castell", 4, 1), ("castell", 2, 7), ("castell", 3, 11), ("calico", 4, 3), ("calico", 1, 5)],
)
def test_the_candidates_that_are_actions_are_the_listing(
    rules_name: str, players: int, seed: int
) -> None:
    confirmed = 0
    for position in positions(rules_name, players, seed):
        space = agrees(position)
        confirmed += None in space
    if rules_name == "calico":
        assert confirmed == 0, "Calico counts exactly: one draw, as from the listing"
    else:
        assert confirmed, "Castell leaves some performances and towers to be confirmed"


def test_required_kinds_are_counted_exactly_and_agree(tmp_path) -> None:
    """A variant requiring the special action and towers: until taken they are counted
    exactly, and the draw still matches the listing index by index (C-4.2, C-4.7, C-5.6)."""
    variant = tmp_path / "required.castell"
    variant.write_text(REQUIRED)
    for seed in (2, 5):
        for position in positions(str(variant), 3, seed, limit=150):
            agrees(position)


@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_castell_candidates_agree_on_random_games(seed: int, players: int) -> None:
    for position in positions("castell", players, seed, limit=60)[::3]:
        agrees(position)


def test_a_logic_counting_exactly_draws_once_as_from_the_listing() -> None:
    """Every candidate an action: the sampler's one draw is the listing's draw."""
    for position in positions("calico", 2, 9, limit=40):
        legal = position.clone().legal_actions()
        a, b = Rng({"rng": 777}), Rng({"rng": 777})
        assert position.clone().sample_legal(a) == legal[b.below(len(legal))]
        assert a.store == b.store


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
