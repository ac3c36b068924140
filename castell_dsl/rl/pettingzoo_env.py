"""A PettingZoo AEC environment for any rule set: `castell_dsl.rl.env(rules, players, …)`.

Agents are `player_0 … player_{n-1}` (seat numbers). The agent to act is the engine's current
player; one engine action is one step, so a Calico turn is two steps of the same agent (place,
then take) and a Castell turn is as many steps as actions, ending with `end`. An observation is
`{"observation": float32 vector, "action_mask": int8 vector}` (`observation.py`, `codec.py`);
the mask is the engine's legal actions encoded, all zeros for an agent not to act. Rewards come
at the end only, from the engine's result (`GameSpec.returns`: `win` by default). Chance is the
game's: `reset(seed=s)` plays game seed `s`; a reset without a seed plays the next seed (the
constructor's `seed`, or a random one, then +1 per reset), so a run is reproducible from its
first seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.game import Game
from .codec import action_id
from .spec import GameSpec, game_spec
from .tracking import Tracker


class CastellEnv(AECEnv):
    """The AEC environment of one `GameSpec` (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "castell_dsl_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(self, spec: GameSpec, seed: int | None = None, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}")
        self.spec = spec
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(spec.players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        size = spec.observation.size
        space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (spec.codec.size,), np.int8),
            }
        )
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(spec.codec.size) for a in self.possible_agents}
        self._next_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.game: Game | None = None
        self._legal: dict[int, Any] = {}
        self._tracker = Tracker(spec.observation)
        self._public: np.ndarray | None = None
        self._fresh = True

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ---- the episode --------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._next_seed = seed
        self.seed_used = self._next_seed
        self._next_seed += 1
        self.game = self.spec.new_game(self.seed_used)
        self._fresh = True
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_action()

    def _after_action(self) -> None:
        game = self.game
        assert game is not None
        self._public = None
        if game.is_over():
            self._legal = {}
            for agent, value in zip(self.agents, self.spec.returns(game), strict=True):
                self.rewards[agent] = value
                self.terminations[agent] = True
                self.infos[agent] = {"result": game.result()}
            self.agent_selection = self.agents[0]
            return
        self._legal = self.spec.codec.assign(game.legal_actions())
        player = game.current_player
        assert player is not None  # a game not over always has a player to act
        self.agent_selection = self.possible_agents[player]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = action_id(action)
        chosen = self._legal.get(index)
        if chosen is None:
            raise ValueError(
                f"{agent}: action {index} ({self.spec.codec.label(index)}) is not "
                "legal now; pick one whose action_mask entry is 1"
            )
        assert self.game is not None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.game.apply(chosen)
        self._after_action()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ---- what an agent sees -------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None
        seat = self.agent_name_mapping[agent]
        if self._public is None:
            tracker = self._tracker
            self._public = tracker.reset(self.game) if self._fresh else tracker.update(self.game)
            self._fresh = False
        to_move = self.game.current_player == seat
        mask = np.zeros(self.spec.codec.size, np.int8)
        if to_move and self._legal:
            mask[list(self._legal)] = 1
        return {
            "observation": self.spec.observation.for_seat(self._public, seat, to_move),
            "action_mask": mask,
        }

    def legal_texts(self) -> dict[int, str]:
        """Id -> action text for the agent to act (for people reading a policy's choices)."""
        return {i: a.text for i, a in self._legal.items()}

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        text = self.spec.render(self.game, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None


def env(
    rules: str | None = None,
    players: int = 4,
    variants: Sequence[str] = (),
    seed: int | None = None,
    *,
    render_mode: str | None = None,
    reward: str = "win",
    budget: int | None = None,
) -> CastellEnv:
    """A PettingZoo AEC environment of `rules` (a rule set name or path; None: the installed
    default rule set, `default_rules()`) with `players` seats.

    `variants` are the rule set's variants (`("short-season",)`), `seed` the first game's seed,
    `reward` how the result becomes returns (`win`, `score`, `margin`), `budget` the
    exploration's games (ids depend on it; the default is `explore.DEFAULT_BUDGET`).
    """
    from .explore import DEFAULT_BUDGET

    spec = game_spec(rules, players, variants, reward=reward, budget=budget or DEFAULT_BUDGET)
    return CastellEnv(spec, seed=seed, render_mode=render_mode)
