"""When a design goal is met (K-4.2), under the reading the rule file's `goal_rules` names.

A goal's `counts` split the six patches around it into groups: AAA-BBB is two groups of three.
The six patches' colours (or patterns) give their own split, the profile: six patches of two
colours, four and two, have the profile (4, 2).

- `exact` [default]: each group is a different colour (pattern), so the profile must be the
  goal's counts exactly: (3, 3) meets AAA-BBB, (6) meets nothing.
- `merged`: groups may share a colour, so the profile must be the goal's groups merged, each
  colour's patches being a union of whole groups: (6) meets AAA-BBB, AA-BB-CC and AAAA-BB, and
  every profile meets All different (six groups of one).

`still_possible` answers for a goal whose neighbours are not all placed (the hints): whether
some way of filling the empty spaces would meet it.
"""

from __future__ import annotations

from functools import cache
from itertools import product


def meets(profile: tuple[int, ...], want: tuple[int, ...], match: str) -> bool:
    """Whether six patches with this profile meet a goal of these counts (both largest first)."""
    if match == "exact":
        return profile == want
    return _merges_into(want, profile)


@cache
def _merges_into(want: tuple[int, ...], profile: tuple[int, ...]) -> bool:
    """Whether the parts of `want` can be grouped so that the groups' sums are `profile`."""
    if sum(want) != sum(profile):
        return False
    for owners in product(range(len(profile)), repeat=len(want)):
        sums = [0] * len(profile)
        for part, owner in zip(want, owners, strict=True):
            sums[owner] += part
        if sums == list(profile):
            return True
    return False


@cache
def still_possible(have: tuple[int, ...], want: tuple[int, ...], match: str) -> bool:
    """Whether patches placed so far (`have`: how many of each kind, largest first) can still
    grow, as the empty neighbours are filled, into a profile that meets the goal."""
    if match == "exact":
        # Each kind needs its own part of the goal at least as large (largest with largest).
        return len(have) <= len(want) and all(c <= w for c, w in zip(have, want, strict=False))
    # Merged: the kinds placed take disjoint groups of the goal's parts summing to at least
    # what they hold; the parts left over can go to kinds not placed yet, or to them.
    for owners in product(range(len(have) + 1), repeat=len(want)):
        sums = [0] * (len(have) + 1)
        for part, owner in zip(want, owners, strict=True):
            sums[owner] += part
        if all(s >= c for s, c in zip(sums, have, strict=False)):
            return True
    return False


__all__ = ["meets", "still_possible"]
