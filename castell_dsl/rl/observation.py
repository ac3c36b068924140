"""A fixed-size numeric observation per seat, generated from the rule set's public view.

The contract says what a seat may see: `Game.view()` is "everything a player at the table can
see" (the engine's part — round, whose turn, what this turn used — and the mechanics' part under
"table"). Castell hides only the bag's order (the view shows its size); Calico hides face-down
goals (shown as face down). So an observation is that view flattened, plus who is looking: no
seat sees more than the view, and a future game with private information would need a view per
seat in the contract first (docs/rl.md says so).

Flattening is generic, by the shape of the JSON (`flatten.features`):

- a number or a boolean at path `p` is the feature `p` with that value;
- a string `s` (or null) at `p` is the one-hot feature `p=s`;
- a list of plain values (names, numbers) at `p` is a multiset: feature `p[]=v` counts the
  copies of `v`, and `p#` is the length;
- a list of objects or lists is positional: item `i` is flattened under `p[i]`, and `p#` is the
  length;
- a dict is flattened key by key (`p.key`).

The layout (`ObservationSchema.names`) is every feature the exploration (`explore.py`) met that
took more than one value there — constant ones (a region's name, its adjacency) carry no
information — sorted by name, after `players` seat one-hot features and a `to_move` flag. A
feature a later state shows but the exploration never met has no place and is left out; the
layout depends only on the rule set, the player count and the exploration budget, so the same
observation index means the same thing in every game of that rule set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .flatten import features

if TYPE_CHECKING:
    from .explore import Exploration


class ObservationSchema:
    """The observation layout of one rule set and player count (see the module docstring)."""

    def __init__(self, exploration: Exploration):
        self.players = exploration.players
        informative = sorted(k for k, (low, high) in exploration.features.items() if low != high)
        head = [f"seat={p}" for p in range(self.players)] + ["to_move"]
        #: Feature names, in observation order.
        self.names: tuple[str, ...] = tuple(head + informative)
        self.size = len(self.names)
        self._offset = len(head)
        self._index = {name: i + self._offset for i, name in enumerate(informative)}
        #: The range each feature took in the exploration (for scaling), seat features [0, 1].
        ranges = exploration.features
        self.low = np.array([0.0] * len(head) + [ranges[k][0] for k in informative], np.float32)
        self.high = np.array([1.0] * len(head) + [ranges[k][1] for k in informative], np.float32)

    def public(self, view: dict[str, Any]) -> np.ndarray:
        """The part every seat shares: the view's features, seat features zero."""
        vector = np.zeros(self.size, np.float32)
        index = self._index
        for key, value in features(view).items():
            i = index.get(key)
            if i is not None:
                vector[i] = value
        return vector

    def for_seat(self, public: np.ndarray, seat: int, to_move: bool) -> np.ndarray:
        """`public` as `seat` observes it: a copy with its seat and turn features set."""
        vector = public.copy()
        vector[seat] = 1.0
        vector[self.players] = 1.0 if to_move else 0.0
        return vector

    def observe(self, view: dict[str, Any], seat: int) -> np.ndarray:
        """The observation of `seat` of a game whose view is `view`."""
        return self.for_seat(self.public(view), seat, view.get("current_player") == seat)

    def describe(self) -> list[str]:
        """The layout, one line per feature: its index, name and explored range."""
        return [
            f"{i:5d}  {name}  [{self.low[i]:g}, {self.high[i]:g}]"
            for i, name in enumerate(self.names)
        ]
