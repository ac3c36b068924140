"""Trajectories for offline learning: `castell simulate --trajectories FILE.jsonl` (docs/rl.md).

The simulation plays its games as always (`runtime/simulation.py`: the same bots, seeds,
workers and order, whatever `--jobs`); a `TrajectoryRecorder` follows each game and turns every
decision into a row in the environments' encoding (`GameSpec`: the same ids, observations and
returns as `env` and `vector_env`). The file is JSON lines:

- line 1, the header: `{"trajectories": 1, "rules", "variants", "players", "reward",
  "observation_size", "action_count", "features", "codec"}` (`features`: the observation's
  feature names; `codec`: the generic codec's `to_json()`, when the game uses it);
- then one row per decision, games in order, decisions in play order:
  `{"game", "seed", "step", "seat", "observation": {"index": […], "value": […]}, "legal": […],
  "action", "text", "reward", "done"}`: the observation of the seat to act (its non-zero
  features), the legal ids (the mask's ones), the id of the action the bot chose (`null` if it
  chose an action the codec has no id for now, which the shipped bots never do), its text,
  and the reward.

Rewards are the environments': 0 except on each seat's last decision of a game (`done` true),
which carries that seat's return (`win`: the winners share 1), so a game's rewards sum to its
returns, seat by seat. `decode_row` gives a row back as NumPy arrays.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..contract import Action
from ..engine.game import Game
from ..language.ruleset import RuleSet
from .spec import GameSpec, game_spec
from .tracking import Tracker

#: The format's version, the header's "trajectories" field.
FORMAT = 1


class TrajectoryRecorder:
    """Follows one game's decisions (a `runtime.simulation.DecisionRecorder`)."""

    def __init__(self, rules: RuleSet, players: int, seed: int, reward: str = "win"):
        self.spec = game_spec(rules, players, reward=reward)
        self.seed = seed
        self.tracker = Tracker(self.spec.observation)
        self.rows: list[dict[str, Any]] = []
        self._started = False

    def decision(self, game: Game, action: Action) -> None:
        """The row of `action`, chosen by the seat to act in `game` (not applied yet)."""
        public = self.tracker.update(game) if self._started else self.tracker.reset(game)
        self._started = True
        seat = game.current_player
        assert seat is not None  # a decision is made by the seat to act
        observation = self.spec.observation.for_seat(public, seat, True)
        legal = self.spec.codec.assign(game.legal_actions())
        chosen = next((i for i, a in legal.items() if a.text == action.text), None)
        nonzero = np.flatnonzero(observation)
        self.rows.append(
            {
                "seed": self.seed,
                "step": len(self.rows),
                "seat": seat,
                "observation": {
                    "index": nonzero.tolist(),
                    "value": observation[nonzero].tolist(),
                },
                "legal": sorted(legal),
                "action": chosen,
                "text": action.text,
                "reward": 0.0,
                "done": False,
            }
        )

    def finish(self, game: Game) -> list[dict[str, Any]]:
        """The rows, each seat's last one carrying its return and `done`."""
        returns = self.spec.returns(game)
        last: dict[int, dict[str, Any]] = {}
        for row in self.rows:
            last[row["seat"]] = row
        for seat, row in last.items():
            row["reward"] = returns[seat]
            row["done"] = True
        return self.rows


def header(spec: GameSpec, rules_name: str) -> dict[str, Any]:
    """The file's first line: what the rows' numbers mean."""
    to_json = getattr(spec.codec, "to_json", None)
    return {
        "trajectories": FORMAT,
        "rules": rules_name,
        "variants": list(spec.variants),
        "players": spec.players,
        "reward": spec.reward,
        "observation_size": spec.observation.size,
        "action_count": spec.codec.size,
        "features": list(spec.observation.names),
        "codec": to_json() if to_json is not None else None,
    }


def decode_row(
    row: dict[str, Any], head: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray, int | None, float, bool]:
    """A row as (observation float32[N], mask int8[A], action id, reward, done)."""
    observation = np.zeros(head["observation_size"], np.float32)
    observation[row["observation"]["index"]] = row["observation"]["value"]
    mask = np.zeros(head["action_count"], np.int8)
    mask[row["legal"]] = 1
    return observation, mask, row["action"], float(row["reward"]), bool(row["done"])


class TrajectoryWriter:
    """The file `castell simulate --trajectories` writes: the header, then each game's rows
    as its record arrives (in game order, so the file is the same whatever `--jobs`)."""

    def __init__(self, path: str, rules: RuleSet, players: int, rules_name: str):
        self.spec = game_spec(rules, players)
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed by `close`)
        self.file.write(json.dumps(header(self.spec, rules_name)) + "\n")

    def write(self, line: dict[str, Any]) -> None:
        """Write the rows of one game's record, taking them out of the record."""
        for row in line.pop("trajectory", ()):
            self.file.write(json.dumps({"game": line["game"], **row}) + "\n")

    def close(self) -> None:
        self.file.close()

    @property
    def recorder(self) -> type[TrajectoryRecorder]:
        """The recorder factory the simulation runs in each game (it pickles: a class)."""
        return TrajectoryRecorder
