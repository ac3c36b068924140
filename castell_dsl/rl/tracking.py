"""The observation kept up to date step by step: the fast path of `ObservationSchema.public`.

`ObservationSchema.public(view)` flattens the whole public view every step (`flatten.py`), a
Python walk over every node of the view: for Calico's two 49-hex quilts that is about 750 nodes,
many times an environment step's cost. But one engine action changes a few features (a recruit:
one region's castellers and one team). A `Tracker` follows one game and keeps its vector:

1. **Parts** (the fast path, for a game whose `GameLogic.tracked_parts` gives them: Castell and
   Calico, their `encoding.py`). The game compares its state with copies kept in the memo
   (`==` on lists of numbers, in C) and hands over only the parts of the table that changed,
   each at its path with a key and a builder. The tracker zeroes the features the part's path
   set before and writes the new part's, which it flattens once per (path, key) and keeps
   (`_features`): most parts recur (a hex with a given patch, a hand, a market), so a step
   usually costs the game's comparisons and a few item writes into the vector, no view and no
   walk. The engine's part of the view (round, whose turn, what this turn used) is compared
   key by key (`engine_part`).
2. **The view's differences** (any other game): builds the view (`Game.view(memo)`; a game's
   `GameLogic.tracked_view` may hand back unchanged parts as the very objects of the previous
   view), walks it and the previous one together top down, skips every subtree that is equal
   (by identity, or `==` in C), and where a subtree differs and cannot be descended into (a
   value, a multiset, a dict whose keys changed, a list whose length changed) zeroes the
   features the old subtree set and writes those of the new one.

Either way the vector is exactly `ObservationSchema.public(view)`, feature by feature
(`tests/rl/test_tracking.py` checks it on random positions of Castell and Calico, and the
view-difference path on a game without parts). Paths are disjoint by construction (a child's
path extends its parent's by `.key` or `[i]`), which is why replacing one part's features never
touches another's; a rule set whose view had dict keys containing `.`, `[`, `=` or `#` could
make two paths spell the same feature, and is then flattened by the reference path instead
(`Tracker.exact` is then False).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..engine.game import Game
from .observation import ObservationSchema

_SCALARS = frozenset({int, float, bool, str, type(None)})


def _is_container(value: Any) -> bool:
    kind = type(value)
    if kind in _SCALARS:
        return False
    return kind is dict or kind is list or kind is tuple or isinstance(value, Mapping)


def _positional(value: list | tuple) -> bool:
    """True for a list the flattening treats item by item (a list of objects or lists)."""
    return any(map(_is_container, value))


#: Flattened parts kept per tracker before the cache starts afresh (a bound on memory).
CACHE_LIMIT = 50_000

#: Characters that, in a dict key, could make two paths spell one feature.
_ODD = (".", "[", "=", "#")


def engine_part(game: Game) -> dict[str, Any]:
    """The engine's part of `Game.view` (everything but "table"), built from the same state:
    `tests/rl/test_tracking.py` checks it against `Game.view` at every step it follows."""
    state = game.state
    turn = state["turn"]
    return {
        "round": state["round"],
        "rounds": game.plan.rounds,
        "players": game.players,
        "current_player": None if turn is None else turn["order"][turn["pos"]],
        "turn_actions_used": dict(turn["used"]) if turn else {},
        "pending_grant": turn["grants"][0] if turn and turn["grants"] else None,
        "over": state["phase"] == "over",
    }


class _OddKey(Exception):
    """A dict key that could make two paths spell one feature (see `_ODD`)."""


def _flat(value: Any, path: str, out: dict[str, float]) -> None:
    """`flatten._walk` with types tested by identity first (several times faster on JSON
    data); a dict key from `_ODD` raises `_OddKey`."""
    kind = type(value)
    if kind is int or kind is float or kind is bool:
        out[path] = float(value)
    elif kind is dict or (kind is not list and kind is not tuple and isinstance(value, Mapping)):
        prefix = f"{path}." if path else ""
        for key, item in value.items():
            text = str(key)
            if "." in text or "[" in text or "=" in text or "#" in text:
                raise _OddKey(text)
            _flat(item, f"{prefix}{text}", out)
    elif kind is list or kind is tuple:
        out[f"{path}#"] = float(len(value))
        if _positional(value):
            for i, item in enumerate(value):
                _flat(item, f"{path}[{i}]", out)
        else:
            for item in value:
                key = f"{path}[]={item}"
                out[key] = out.get(key, 0.0) + 1.0
    else:  # a string, None, anything else by its text
        out[f"{path}={value}"] = 1.0


class Tracker:
    """The public part of the observation of one game, kept up to date (module docstring)."""

    def __init__(self, schema: ObservationSchema):
        self.schema = schema
        self._index = schema._index
        self.vector = np.zeros(schema.size, np.float32)
        #: The game's memo (`tracked_parts`, `tracked_view`), kept for the game followed.
        self.memo: dict[Any, Any] = {}
        #: False once a view shows a dict key that could make two paths collide; from then on
        #: every update is the reference flattening of the whole view (still exact).
        self.exact = True
        self._started = False
        # The parts path: what each part's path set (indices), the engine's part, the cache.
        self._set: dict[str, tuple[int, ...]] = {}
        self._engine: dict[str, Any] | None = None
        self._made: dict[tuple[str, Any], tuple[tuple[int, ...], tuple[float, ...]]] = {}
        # The view-differences path: the previous view, and dict keys known to be plain.
        self._view: dict[str, Any] | None = None
        self._plain: set[Any] = set()

    def reset(self, game: Game) -> np.ndarray:
        """Follow `game` from now on (a new game, or one not followed before): its vector."""
        self._started = False
        return self.update(game)

    def update(self, game: Game) -> np.ndarray:
        """The public vector of `game` now (`ObservationSchema.public(game.view())`), changed
        in place. The returned array is the tracker's own, overwritten by the next update:
        copy it to keep it (`ObservationSchema.for_seat` does)."""
        if not self._started:
            self._started = True
            self.vector[:] = 0.0
            self.memo.clear()
            self._set.clear()
            self._engine = None
            self._view = None
        if self.exact:
            parts = game.logic.tracked_parts(game, self.memo)
            if parts is None:
                self._follow_view(game.view(self.memo))
            else:
                self._follow_parts(game, parts)
        if not self.exact:  # the reference flattening, whose order settles any collision
            self.vector[:] = self.schema.public(game.view())
        return self.vector

    # ---- parts ------------------------------------------------------------------------------
    def _follow_parts(self, game: Game, parts: list[tuple[str, Any, Any]]) -> None:
        vector = self.vector
        engine = engine_part(game)
        before = self._engine
        if before is None:
            self._write(engine, "", True)
        else:
            for key, value in engine.items():
                old = before[key]
                if value is not old and (type(value) is not type(old) or value != old):
                    self._write(old, key, False)
                    self._write(value, key, True)
        self._engine = engine
        made = self._made
        written = self._set
        index = self._index
        for path, key, build in parts:
            old_indices = written.get(path)
            if old_indices:
                for i in old_indices:
                    vector[i] = 0.0
            found = made.get((path, key)) if key is not None else None
            if found is None:
                flat: dict[str, float] = {}
                try:
                    _flat(build(), f"table.{path}", flat)
                except _OddKey:
                    self.exact = False
                    return
                pairs = [(index[name], value) for name, value in flat.items() if name in index]
                found = (tuple(i for i, _ in pairs), tuple(v for _, v in pairs))
                if key is not None:
                    if len(made) >= CACHE_LIMIT:
                        made.clear()
                    made[(path, key)] = found
            indices, values = found
            for i, value in zip(indices, values, strict=True):
                vector[i] = value
            written[path] = indices

    # ---- the view's differences -------------------------------------------------------------
    def _follow_view(self, view: dict[str, Any]) -> None:
        old = self._view
        if old is None:
            self._write(view, "", True)
        else:
            self._diff(view, old, "")
        self._view = view

    # ---- the walk ---------------------------------------------------------------------------
    def _diff(self, new: Any, old: Any, path: str) -> None:
        """Bring the features of the subtree at `path` from `old`'s to `new`'s."""
        kind = type(new)
        if kind is dict and type(old) is dict and new.keys() == old.keys():
            prefix = f"{path}." if path else ""
            for key, item in new.items():
                before = old[key]
                # Equal subtrees are skipped here, without a call: shared ones (the game's
                # `tracked_view`) by identity, others by `==`, which runs in C.
                if item is before or (type(item) is type(before) and item == before):
                    continue
                self._diff(item, before, f"{prefix}{key}")
            return
        if (
            (kind is list or kind is tuple)
            and type(old) in (list, tuple)
            and len(new) == len(old)
            and new
            and _positional(new)
            and _positional(old)
        ):
            for i, (item, before) in enumerate(zip(new, old, strict=True)):
                if item is before or (type(item) is type(before) and item == before):
                    continue
                self._diff(item, before, f"{path}[{i}]")
            return
        if kind is type(old) and new == old:
            return
        self._write(old, path, False)
        self._write(new, path, True)

    def _write(self, value: Any, path: str, keep: bool) -> None:
        """Set the features `value` has under `path` (`keep`), or zero them: the
        rules of `flatten.features`, written straight into the vector."""
        kind = type(value)
        index = self._index
        if kind is int or kind is float or kind is bool:  # one feature, the commonest case
            i = index.get(path)
            if i is not None:
                self.vector[i] = float(value) if keep else 0.0
            return
        if kind is dict or (kind is not list and kind is not tuple and isinstance(value, Mapping)):
            prefix = f"{path}." if path else ""
            plain = self._plain
            for key, item in value.items():
                if key not in plain:
                    text = str(key)
                    if "." in text or "[" in text or "=" in text or "#" in text:
                        self.exact = False  # two paths might spell one feature from now on
                    plain.add(key)
                self._write(item, f"{prefix}{key}", keep)
            return
        if kind is list or kind is tuple:
            vector = self.vector
            i = index.get(f"{path}#")
            if i is not None:
                vector[i] = float(len(value)) if keep else 0.0
            if _positional(value):
                for n, item in enumerate(value):
                    self._write(item, f"{path}[{n}]", keep)
                return
            counts: dict[str, float] = {}
            for item in value:  # a multiset: counted by text, as `flatten` does
                key = f"{path}[]={item}"
                counts[key] = counts.get(key, 0.0) + 1.0
            for key, count in counts.items():
                i = index.get(key)
                if i is not None:
                    vector[i] = count if keep else 0.0
            return
        i = index.get(f"{path}={value}")  # a string, None, anything else by its text
        if i is not None:
            self.vector[i] = 1.0 if keep else 0.0
