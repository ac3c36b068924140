"""The PettingZoo AEC environment passes PettingZoo's own API test for Castell, Calico and
variants, replays deterministically from its seed, and hands out the engine's result."""

from __future__ import annotations

import pytest
from rl_support import need

np = pytest.importorskip("numpy", reason="numpy missing: pip install 'castell-dsl[rl]'")

CASES = [
    ("castell", 4, ()),
    ("calico", 2, ()),
    ("castell", 2, ("short-season",)),
    ("calico", 1, ("solo",)),
]


# PettingZoo warns about every dict observation (its own classic games' action-mask form too).
@pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize(("rules", "players", "variants"), CASES)
def test_api_test_passes(rules, players, variants):
    need("pettingzoo")
    from pettingzoo.test import api_test

    from castell_dsl.rl import env

    api_test(env(rules, players, variants, seed=3, render_mode="ansi"), num_cycles=400)


def test_seed_test_passes():
    need("pettingzoo")
    from pettingzoo.test import seed_test

    from castell_dsl.rl import env

    seed_test(lambda: env("castell", 2, ("short-season",)), num_cycles=100)


def play(aec, seed: int) -> tuple[list[str], dict[str, float]]:
    """A masked random game; the log and each agent's total reward."""
    rng = np.random.default_rng(seed)
    aec.reset(seed=seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _info = aec.last()
        totals[agent] += reward
        assert obs["observation"].shape == aec.observation_space(agent)["observation"].shape
        if terminated or truncated:
            aec.step(None)
            continue
        assert obs["observation"][aec.agent_name_mapping[agent]] == 1.0  # its seat feature
        legal = np.flatnonzero(obs["action_mask"])
        aec.step(int(rng.choice(legal)))
    return list(aec.game.log), totals


def test_rewards_are_the_engines_result_and_the_log_replays():
    need("pettingzoo")
    from castell_dsl import new_game
    from castell_dsl.rl import env

    aec = env("castell", 2, ("short-season",), seed=0)
    log, totals = play(aec, 7)
    replay = new_game("castell", 2, 7, ("short-season",), record_events=False)
    for text in log:
        replay.apply(text)
    result = replay.result()
    assert result["over"]
    winners = result["winners"]
    assert totals == {f"player_{p}": (1 / len(winners) if p in winners else 0.0) for p in range(2)}
    assert play(aec, 7)[0] == log  # the seed fixes chance: the same moves give the same game


def test_only_the_agent_to_act_has_a_mask_and_illegal_ids_are_refused():
    need("pettingzoo")
    from castell_dsl.rl import env

    aec = env("calico", 2, seed=1, render_mode="ansi")
    aec.reset()
    acting = aec.agent_selection
    other = next(a for a in aec.agents if a != acting)
    assert aec.observe(acting)["action_mask"].sum() == len(aec.game.legal_actions())
    assert aec.observe(other)["action_mask"].sum() == 0
    illegal = int(np.flatnonzero(aec.observe(acting)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal now"):
        aec.step(illegal)
    assert "market" in aec.render()
    texts = aec.legal_texts()
    assert all(t.startswith("goals ") for t in texts.values())


def test_score_rewards():
    need("pettingzoo")
    from castell_dsl.rl import env

    aec = env("calico", 1, ("solo",), seed=0, reward="score")
    _log, totals = play(aec, 0)
    assert totals["player_0"] == aec.game.result()["players"][0]["total"]
