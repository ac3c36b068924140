"""The tower questions several actions and the hints ask: which tower completes a local
performance tile, which is the best tower for a festival (C-8.3, C-8.4, C-9.2, C-9.3).

The answers come from the solver, memoised on (team counts, ranks, question): bots ask the
same question many times while a player's team and ranks stay the same. Cheap necessary
conditions are checked first: most positions of a game fail them (ranks start at 0), and they
cost a few operations instead of a search.

A random draw among the legal actions asks these only for the performance or tower it drew
(`Game.sample_legal` draws candidates and confirms the one drawn), so no question is asked
just to count the actions.
"""

from __future__ import annotations

import itertools

from . import solver, towers
from .tables import Tables

#: Entries kept in the memo before it starts afresh: enough for the positions of many games,
#: small enough that a long simulation's memory stays flat.
MEMO_SIZE = 8_000


class TowerQuestions:
    """The solver's answers for one rule set, with their memo and pre-checks."""

    def __init__(self, tables: Tables):
        self.t = tables
        relaxes = {s.relaxes: i for i, s in enumerate(tables.rules.named("skill").values())}
        self._rank_of = {rel: relaxes.get(rel) for rel in towers.RELAXATIONS}
        self._memo: dict[tuple, tuple | None] = {}
        #: Per local performance tile, what `_completing` reads, out of the records once:
        #: (shape or None, its castellers, exhibition skill indices and names, points).
        self._tile_facts = [
            (
                None if r.shape is None else tuple(r.shape),
                0 if r.shape is None else sum(r.shape),
                tuple(tables.skill_index[x] for x in r.exhibition or ()),
                tuple(r.exhibition or ()),
                r.points,
            )
            for r in tables.tiles
        ]

    def forget(self) -> None:
        """Forget every memoised answer, so the next questions reach the solver (tests that
        record the solver's queries, and benchmarks of cold questions, need that whatever
        games this process played before)."""
        self._memo.clear()

    def completing_tower(self, g: dict, player: int, tile: int) -> tuple | None:
        """A tower completing local performance `tile` for the player (C-8.3, C-8.4)."""
        shape, castellers, skill_indices, skills, points = self._tile_facts[tile]
        if shape is not None:
            if castellers > sum(g["teams"][player]) or not self._shape_possible(g, player, shape):
                return None
            return self._solve(g, player, ("shape", shape))
        ranks = g["ranks"][player]
        for i in skill_indices:
            if ranks[i] == 0:
                return None  # an exhibition uses every listed skill (C-8.4): rank 0 cannot
        highest = self.max_levels(g, player)
        if points > highest:
            return None
        # `exhibition_levels`: exactly its points, or the lowest tower of at least that many.
        tallest = points if self.t.exhibition_levels == "exactly" else highest
        for levels in range(points, tallest + 1):
            found = self._solve(g, player, ("exhibition", skills, levels))
            if found is not None:
                return found
        return None

    def best_tower_for(self, g: dict, player: int, numbers: tuple[int, ...]) -> tuple | None:
        """The solver's best tower for a festival with these size numbers (C-9.2, C-9.3)."""
        t = self.t
        team = g["teams"][player]
        if t.min_levels > self.max_levels(g, player) or any(
            not 0 <= n - t.low < len(team) or not team[n - t.low] for n in numbers
        ):
            return None  # fewer levels than the festival needs, or a size missing (C-9.2)
        return self._solve(g, player, ("festival", tuple(numbers), t.min_levels))

    def max_levels(self, g: dict, player: int) -> int:
        """An upper bound on a tower's levels: fewer castellers each level up except with
        Balance; distinct smallest numbers except with Strength."""
        team = g["teams"][player]
        by_width = (
            self._width(g, player)
            + self._rank(g, player, "equal_count")
            + (1 if self._rank(g, player, "wide_bottom") else 0)
        )
        by_size = sum(1 for c in team if c) + self._rank(g, player, "equal_size")
        return min(by_width, by_size, sum(team))

    def _solve(self, g: dict, player: int, query: tuple) -> tuple | None:
        key = (tuple(g["teams"][player]), tuple(g["ranks"][player]), query)
        memo = self._memo
        if key in memo:
            return memo[key]
        t = self.t
        team = t._team_list(g, player)
        ranks = t._ranks(g, player)
        kind = query[0]
        if kind == "festival":
            sol = solver.best_festival_tower(team, ranks, t.tower_rules, query[1], query[2])
        elif kind == "shape":
            sol = solver.complete_shape(team, ranks, t.tower_rules, query[1])
        else:
            sol = solver.complete_exhibition(team, ranks, t.tower_rules, query[1], query[2])
        levels = None if sol is None else sol.levels
        if len(memo) > MEMO_SIZE:
            memo.clear()  # start afresh: a long simulation's memory stays flat
        memo[key] = levels
        return levels

    def _rank(self, g: dict, player: int, relaxation: str) -> int:
        index = self._rank_of[relaxation]
        return 0 if index is None else g["ranks"][player][index]

    def _width(self, g: dict, player: int) -> int:
        rules = self.t.tower_rules
        return rules.width_limit + self._rank(g, player, "wider") * rules.width_step

    def _shape_possible(self, g: dict, player: int, shape: tuple) -> bool:
        width = self._width(g, player)
        if max(shape[1:], default=0) > width:
            return False
        if shape[0] > width and not self._rank(g, player, "wide_bottom"):
            return False
        equal = sum(1 for a, b in itertools.pairwise(shape) if a == b)
        if equal > self._rank(g, player, "equal_count"):
            return False
        return len(shape) <= self.max_levels(g, player)
