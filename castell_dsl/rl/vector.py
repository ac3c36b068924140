"""`n` games stepped together, as NumPy arrays: `castell_dsl.rl.vector_env(n, …)` (docs/rl.md).

    from castell_dsl.rl import vector_env
    venv = vector_env(64, "castell", players=2, seed=0)
    obs, mask, player = venv.reset()                  # (64, N) float32, (64, A) int8, (64,) int
    while training:
        actions = policy(obs, mask)                   # one legal id per game
        obs, mask, player, rewards, done = venv.step(actions)

Each slot holds one game of the same `GameSpec` (ids, observations and returns are exactly the
PettingZoo environment's). A row of `obs`/`mask` is the observation and the legal mask of the
seat to act in that game (`player[i]`), as `CastellEnv.observe` gives it to that seat. `step`
applies one engine action per game; `rewards[i]` (one column per seat) is zero until game `i`
ends, then that game's returns (`GameSpec.returns`), with `done[i]` True. A finished game is
replaced at once by a new one (auto-reset): the row then shows the new game's first position.
Seeds: slot `i` starts with `seed + i`, and each new game takes the next unused seed (`seed +
n`, `seed + n + 1`, … in the order games end, slots in index order within a step), so a run is
reproducible from its first seed. Observations are kept up to date by the `Tracker`
(`tracking.py`), the masks come from the codec's ids of the engine's legal actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine.game import Game
from .codec import action_id
from .spec import GameSpec, game_spec
from .tracking import Tracker


class _Slot:
    """One game of the batch with what follows it: its tracker and legal ids."""

    def __init__(self, spec: GameSpec, game: Game):
        self.tracker = Tracker(spec.observation)
        self.start(spec, game)

    def start(self, spec: GameSpec, game: Game) -> None:
        self.game = game
        self.tracker.reset(game)
        self.legal: dict[int, Any] = spec.codec.assign(game.legal_actions())


class VectorEnv:
    """`n` games of one `GameSpec` (see the module docstring)."""

    def __init__(self, spec: GameSpec, n: int, seed: int = 0):
        if n < 1:
            raise ValueError(f"a vector environment holds at least one game, not {n}")
        self.spec = spec
        self.n = n
        self.first_seed = seed
        self.observations = np.zeros((n, spec.observation.size), np.float32)
        self.masks = np.zeros((n, spec.codec.size), np.int8)
        self.players = np.zeros(n, np.int64)
        self._slots: list[_Slot] = []
        self._next_seed = seed
        #: The seed of the game each slot plays now.
        self.seeds: list[int] = []

    def _new_game(self) -> tuple[Game, int]:
        seed = self._next_seed
        self._next_seed += 1
        return self.spec.new_game(seed), seed

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start `n` new games (seeds `seed`, `seed + 1`, …): observations, masks, players."""
        self._next_seed = self.first_seed if seed is None else seed
        self._slots = []
        self.seeds = []
        for i in range(self.n):
            game, game_seed = self._new_game()
            self._slots.append(_Slot(self.spec, game))
            self.seeds.append(game_seed)
            self._fill(i)
        return self.observations, self.masks, self.players

    def _fill(self, i: int) -> None:
        """Row `i` of the observations and masks: the seat to act in slot `i`'s game."""
        slot = self._slots[i]
        player = slot.game.current_player
        assert player is not None  # a game in a slot is never over (auto-reset)
        schema = self.spec.observation
        row = self.observations[i]
        row[:] = slot.tracker.vector
        row[: schema.players] = 0.0
        row[player] = 1.0
        row[schema.players] = 1.0
        mask = self.masks[i]
        mask[:] = 0
        mask[list(slot.legal)] = 1
        self.players[i] = player

    def step(
        self, actions: Sequence[int] | np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action per game: observations, masks, players, rewards `(n, seats)`, done.

        The arrays are the environment's own, overwritten by the next call: copy what you
        keep. An id whose mask entry is 0 raises ValueError naming the game."""
        if not self._slots:
            raise RuntimeError("call reset() before step()")
        if len(actions) != self.n:
            raise ValueError(f"step takes {self.n} actions (one per game), not {len(actions)}")
        rewards = np.zeros((self.n, self.spec.players), np.float32)
        done = np.zeros(self.n, bool)
        chosen = []
        for i, slot in enumerate(self._slots):  # every id checked before any game moves
            index = action_id(actions[i])
            action = slot.legal.get(index)
            if action is None:
                raise ValueError(
                    f"game {i}: action {index} ({self.spec.codec.label(index)}) is not legal "
                    "now; pick one whose mask entry is 1 (no game was stepped)"
                )
            chosen.append(action)
        for i, slot in enumerate(self._slots):
            game = slot.game
            game.apply(chosen[i])
            if game.is_over():
                rewards[i] = self.spec.returns(game)
                done[i] = True
                game, self.seeds[i] = self._new_game()
                slot.start(self.spec, game)
            else:
                slot.tracker.update(game)
                slot.legal = self.spec.codec.assign(game.legal_actions())
            self._fill(i)
        return self.observations, self.masks, self.players, rewards, done

    def games(self) -> list[Game]:
        """The engine's games in the slots now (read them, do not change them)."""
        return [slot.game for slot in self._slots]

    def legal_texts(self, i: int) -> dict[int, str]:
        """Id -> action text of game `i`'s seat to act."""
        return {index: a.text for index, a in self._slots[i].legal.items()}


def vector_env(
    n: int,
    rules: str | None = None,
    players: int = 2,
    variants: Sequence[str] = (),
    seed: int = 0,
    *,
    reward: str = "win",
    budget: int | None = None,
) -> VectorEnv:
    """`n` games of `rules` (a rule set name or path; the installed default rule set when
    None) with `players` seats, stepped together; call `reset()` first. `reward` and `budget`
    are `env`'s."""
    from .explore import DEFAULT_BUDGET

    spec = game_spec(rules, players, variants, reward=reward, budget=budget or DEFAULT_BUDGET)
    return VectorEnv(spec, n, seed)
