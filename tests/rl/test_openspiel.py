"""The OpenSpiel game: loads by name with parameters, passes OpenSpiel's random simulation
test, and OpenSpiel's MCTS plays a full game against this project's MCTS bot with returns that
are the engine's result."""

from __future__ import annotations

import pytest
from rl_support import need


def load(text: str):
    need("pyspiel")
    import pyspiel

    import castell_dsl.rl.openspiel  # noqa: F401  (registers the game)

    return pyspiel.load_game(text)


def test_load_game_with_parameters():
    game = load("castell_dsl(rules=calico,players=2)")
    assert game.num_players() == 2
    assert game.num_distinct_actions() == game.spec.codec.size
    assert game.observation_tensor_shape() == [game.spec.observation.size]
    state = game.new_initial_state()
    assert state.legal_actions() == sorted(game.spec.codec.assign(state.engine.legal_actions()))
    assert len(state.observation_tensor(state.current_player())) == game.spec.observation.size
    text = state.action_to_string(state.current_player(), state.legal_actions()[0])
    assert text.startswith("goals ")
    solo = load("castell_dsl(rules=calico,players=1,variants=solo)")
    assert solo.spec.variants == ("solo",)


def test_random_simulation_test():
    import pyspiel

    game = load("castell_dsl(rules=castell,players=2,variants=short-season)")
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("rules", ["castell(variants=short-season)", "calico"])
def test_openspiel_mcts_against_this_projects_mcts(rules):
    import numpy as np
    from open_spiel.python.algorithms import mcts

    from castell_dsl import make_bot, new_game
    from castell_dsl.rl import encode

    name, _, extra = rules.partition("(")
    params = f"rules={name},players=2" + (f",{extra.rstrip(')')}" if extra else "")
    game = load(f"castell_dsl({params})")
    theirs = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)))
    state = game.new_initial_state()
    ours = make_bot("mcts:iterations=20", game.spec.rules, 1, state.engine.seed)
    while not state.is_terminal():
        if state.current_player() == 0:
            action = theirs.step(state)
        else:
            chosen = ours.choose(state.engine)
            action = encode(game.spec.codec, chosen, state.engine.legal_actions())
        state.apply_action(action)
    # The engine's own result, from a replay of the log: the returns are exactly its winners.
    replay = new_game(game.spec.rules, 2, state.engine.seed, record_events=False)
    for text in state.engine.log:
        replay.apply(text)
    winners = replay.result()["winners"]
    assert state.returns() == [1 / len(winners) if p in winners else 0.0 for p in range(2)]
    assert sum(state.returns()) == pytest.approx(1.0)


def test_the_default_rule_set_comes_from_the_plugins():
    """Without `rules`, the game plays the installed default rule set (issue 28: no game is
    named in the core's RL layer)."""
    from castell_dsl.runtime.loading import default_rules

    game = load("castell_dsl(players=2)")
    assert game.get_parameters()["rules"] == default_rules()
    assert game.spec.rules.hash == load(f"castell_dsl(rules={default_rules()})").spec.rules.hash
