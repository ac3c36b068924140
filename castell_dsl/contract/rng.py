"""The game's random generator: seeded, tiny, and its whole state is one integer.

Every chance event (bag draws, shuffles, the first player) goes through this generator, whose
state lives in the game state (`state["rng"]`). So a game is reproducible from its seed and
action log, a saved state resumes exactly, and a search bot can re-determinise a cloned game
by reseeding it. SplitMix64 is used: fast in pure Python, well distributed, and the same on
every platform and Python version (unlike `random.Random`'s internals).
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


def seed_state(seed: int) -> int:
    """The generator state for a user-facing seed (any integer)."""
    return _mix(seed & _MASK)


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """Draws from a generator whose state is stored in a mutable mapping under `key`.

    Keeping the state in the game state (not in this object) is what makes saving, cloning and
    replaying exact.
    """

    __slots__ = ("key", "store")

    def __init__(self, store: dict, key: str = "rng"):
        self.store = store
        self.key = key

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        state = (self.store[self.key] + _GAMMA) & _MASK
        self.store[self.key] = state
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def draw(self, counts: MutableSequence[int]) -> int | None:
        """Draw one item from a bag held as counts per kind: its kind, or None if empty."""
        if not any(counts):
            return None
        kind = self.weighted_index(counts)
        counts[kind] -= 1
        return kind

    def weighted_index(self, counts: Sequence[int]) -> int:
        """An index drawn with probability proportional to `counts` (a draw from a bag)."""
        total = sum(counts)
        r = self.below(total)
        for i, c in enumerate(counts):
            if r < c:
                return i
            r -= c
        raise AssertionError("unreachable: counts changed during the draw")
