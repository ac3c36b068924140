"""The observation kept up to date step by step: the fast path of `ObservationSchema.public`.

`ObservationSchema.public(view)` flattens the whole public view every step (`flatten.py`), a
Python walk over every node of the view: for Calico's two 49-hex quilts that is about 750 nodes,
nine-tenths of an environment step. But one engine action changes a few nodes of the view (a
recruit: one region's castellers and one team). A `Tracker` keeps the previous view and the
vector built from it, and after each action:

1. builds the view (`Game.view(memo)`, the contract's single source of what a seat sees; a
   game's `GameLogic.tracked_view` may hand back unchanged parts as the very objects of the
   previous view, which step 2 skips by identity: Castell and Calico do, `encoding.py`);
2. walks the new view and the previous one together, top down, and skips every subtree that is
   equal to the previous one (`==` on JSON data runs in C, a few hundred times faster than the
   Python walk);
3. where a subtree differs and cannot be descended into (a value, a multiset, a dict whose keys
   changed, a list whose length changed), zeroes the features the old subtree set and writes
   those of the new one, with the same flattening rules (`flatten.py`), straight into the
   vector.

So the vector is exactly `ObservationSchema.public(view)`, feature by feature
(`tests/rl/test_tracking.py` checks it on random positions of Castell and Calico), and a
step costs the view plus the walk of what changed. Paths are disjoint by construction (a
child's path extends its parent's by `.key` or `[i]`), which is why replacing one subtree's
features never touches another's; a rule set whose view had dict keys containing `.` or `[`
could make two paths spell the same feature, and would then be flattened by the reference path
instead (`Tracker.exact` is then False).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

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


class Tracker:
    """The public part of the observation of one game, updated by the view's differences."""

    def __init__(self, schema: ObservationSchema):
        self.schema = schema
        self._index = schema._index
        self.vector = np.zeros(schema.size, np.float32)
        self._view: dict[str, Any] | None = None
        #: False once a view shows a dict key that could make two paths collide; from then on
        #: every update is the reference flattening of the whole view (still exact).
        self.exact = True
        #: Dict keys seen so far that cannot make two paths spell one feature.
        self._plain: set[Any] = set()

    def reset(self, view: dict[str, Any]) -> np.ndarray:
        """Forget the previous game: the vector of `view`, built in full."""
        self.vector[:] = 0.0
        self._view = None
        return self.update(view)

    def update(self, view: dict[str, Any]) -> np.ndarray:
        """The public vector of `view` (`ObservationSchema.public`), changed in place.

        The returned array is the tracker's own, overwritten by the next update: copy it to
        keep it (`ObservationSchema.for_seat` does)."""
        old = self._view
        if old is None:
            self.vector[:] = 0.0
            self._write(view, "", True)
        elif self.exact:
            self._diff(view, old, "")
        if not self.exact:  # the reference flattening, whose order settles any collision
            self.vector[:] = self.schema.public(view)
        self._view = view
        return self.vector

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
