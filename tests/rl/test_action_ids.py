"""Action ids are integers: a non-integral id is refused, never truncated and played
(issue 27, point 13). An agent's float output of 3.7 must not become action 3."""

from __future__ import annotations

import pytest
from rl_support import need

np = pytest.importorskip("numpy", reason="numpy missing: pip install 'castell-dsl[rl]'")

from castell_dsl.rl.codec import action_id  # noqa: E402

NOT_IDS = [
    3.7,
    3.0,
    np.float64(2.0),
    np.float32(1.5),
    "3",
    b"3",
    None,
    True,
    np.bool_(True),
    np.array([1, 2]),
    np.array(2.5),
    complex(1, 0),
    [1],
]
IDS = [3, np.int64(3), np.int8(3), np.uint16(3), np.array(3)]


@pytest.mark.parametrize("value", IDS, ids=repr)
def test_integers_are_ids(value) -> None:
    assert action_id(value) == 3 and type(action_id(value)) is int


@pytest.mark.parametrize("value", NOT_IDS, ids=repr)
def test_anything_else_is_refused(value) -> None:
    with pytest.raises(TypeError, match="integer"):
        action_id(value)


@pytest.mark.parametrize("value", NOT_IDS, ids=repr)
def test_the_pettingzoo_environment_refuses_and_plays_nothing(value) -> None:
    need("pettingzoo")
    from castell_dsl.rl import env

    environment = env("castell", 2, seed=3)
    environment.reset(seed=3)
    legal = np.flatnonzero(environment.observe(environment.agent_selection)["action_mask"])
    game = environment.unwrapped.game
    before = list(game.log)
    target = value if not isinstance(value, float) else float(legal[0]) + 0.5
    with pytest.raises(TypeError):
        environment.step(target)
    assert game.log == before
    environment.step(int(legal[0]))  # an integer id plays
    assert len(game.log) == len(before) + 1


def test_the_openspiel_game_refuses_and_plays_nothing() -> None:
    need("pyspiel")
    import pyspiel

    import castell_dsl.rl.openspiel  # noqa: F401  (registers the game)

    state = pyspiel.load_game("castell_dsl(rules=castell,players=2,seed=3)").new_initial_state()
    legal = state.legal_actions()
    history = state.history()
    with pytest.raises((TypeError, ValueError)):
        state.apply_action(float(legal[0]) + 0.5)  # type: ignore[arg-type]
    assert state.history() == history
