"""The tower questions several actions and the hints ask: which tower completes a local
performance tile, which is the best tower for a festival (C-8.3, C-8.4, C-9.2, C-9.3).

The answers come from the solver, memoised on (team counts, ranks, question): bots ask the
same question many times while a player's team and ranks stay the same. Cheap necessary
conditions are checked first: most positions of a game fail them (ranks start at 0), and they
cost a few operations instead of a search.

Counting the legal actions (`Game.sample_legal`) only needs to know *whether* a tower exists,
not which is best, and that has a cheap sufficient condition: a team only grows and ranks only
rise, so a tower the solver found for the same question a moment ago (after a recruit the
team's key is new and the memo misses) is very often still buildable and legal. Such a
*witness* is re-checked exactly as a player's written tower would be (`towers.check` with the
player's ranks, and the castellers in the team) before it answers "yes"; without one that
passes, the solver answers. So the count is exact and the search runs only when the action
is drawn.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import cast

from . import solver, towers
from .tables import Tables

#: Entries kept in each memo before it starts afresh: enough for the positions of many games,
#: small enough that a long simulation's memory stays flat.
MEMO_SIZE = 8_000
#: Towers kept per question as witnesses that it has an answer (the newest first).
WITNESSES = 4


class TowerQuestions:
    """The solver's answers for one rule set, with their memo and pre-checks."""

    def __init__(self, tables: Tables):
        self.t = tables
        relaxes = {s.relaxes: i for i, s in enumerate(tables.rules.named("skill").values())}
        self._rank_of = {rel: relaxes.get(rel) for rel in towers.RELAXATIONS}
        self._memo: dict[tuple, tuple | None] = {}
        #: query -> [(levels, castellers needed as (size index, count) pairs)], newest first.
        self._witnesses: dict[tuple, list[tuple[tuple, tuple[tuple[int, int], ...]]]] = {}

    def completing_tower(self, g: dict, player: int, tile: int) -> tuple | None:
        """A tower completing local performance `tile` for the player (C-8.3, C-8.4)."""
        return cast("tuple | None", self._completing(g, player, tile, self._solve))

    def can_complete(self, g: dict, player: int, tile: int) -> bool:
        """Whether `completing_tower` has an answer, found without a search when a witness
        still holds (see the module's docstring)."""
        return self._completing(g, player, tile, self._exists) is not None

    def festival_possible(self, g: dict, player: int, numbers: tuple[int, ...]) -> bool:
        """Whether `best_tower_for` has an answer (a witness or the solver says)."""
        return self._festival(g, player, numbers, self._exists) is not None

    def _completing(
        self, g: dict, player: int, tile: int, ask: Callable[[dict, int, tuple], object]
    ) -> object:
        t = self.t
        record = t.tiles[tile]
        if record.shape is not None:
            if sum(record.shape) > sum(g["teams"][player]) or not self._shape_possible(
                g, player, record.shape
            ):
                return None
            return ask(g, player, ("shape", tuple(record.shape)))
        ranks = g["ranks"][player]
        if any(ranks[t.skill_index[s]] == 0 for s in record.exhibition):
            return None  # an exhibition uses every listed skill (C-8.4): rank 0 cannot
        highest = self.max_levels(g, player)
        if record.points > highest:
            return None
        # `exhibition_levels`: exactly its points, or the lowest tower of at least that many.
        tallest = record.points if t.exhibition_levels == "exactly" else highest
        skills = tuple(record.exhibition)
        for levels in range(record.points, tallest + 1):
            found = ask(g, player, ("exhibition", skills, levels))
            if found is not None:
                return found
        return None

    def best_tower_for(self, g: dict, player: int, numbers: tuple[int, ...]) -> tuple | None:
        """The solver's best tower for a festival with these size numbers (C-9.2, C-9.3)."""
        return cast("tuple | None", self._festival(g, player, numbers, self._solve))

    def _festival(
        self,
        g: dict,
        player: int,
        numbers: tuple[int, ...],
        ask: Callable[[dict, int, tuple], object],
    ) -> object:
        t = self.t
        team = g["teams"][player]
        if t.min_levels > self.max_levels(g, player) or any(
            not 0 <= n - t.low < len(team) or not team[n - t.low] for n in numbers
        ):
            return None  # fewer levels than the festival needs, or a size missing (C-9.2)
        return ask(g, player, ("festival", tuple(numbers), t.min_levels))

    def _exists(self, g: dict, player: int, query: tuple) -> bool | None:
        """True if `query` has an answer, else None (the shape `_solve`'s callers test)."""
        team = g["teams"][player]
        memo = self._memo
        key = (tuple(team), tuple(g["ranks"][player]), query)
        if key in memo:
            return None if memo[key] is None else True
        witnesses = self._witnesses.get(query)
        if witnesses:
            ranks = None
            for levels, need in witnesses:
                if all(team[i] >= c for i, c in need):
                    if ranks is None:
                        ranks = self.t._ranks(g, player)
                    if self._answers(levels, ranks, query):
                        return True
        return None if self._solve(g, player, query) is None else True

    def _answers(self, levels: tuple, ranks: dict[str, int], query: tuple) -> bool:
        """Whether a tower found for `query` answers it under `ranks`: legal, and for an
        exhibition still using its skills. Its shape, height and numbers are its own, so the
        festival and shape conditions hold as they did when it was found."""
        result = towers.check(levels, ranks, self.t.tower_rules)
        if not result.legal:
            return False
        return query[0] != "exhibition" or towers.meets_exhibition(result, query[1])

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
            memo.clear()
            self._witnesses.clear()
        memo[key] = levels
        if levels is not None:
            low = t.low
            need: dict[int, int] = {}
            for level in levels:
                for n in level:
                    need[n - low] = need.get(n - low, 0) + 1
            found = self._witnesses.setdefault(query, [])
            found.insert(0, (levels, tuple(need.items())))
            del found[WITNESSES:]
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
