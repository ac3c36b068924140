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
#: A tower found for a question: its levels, the castellers it needs as (size index, count)
#: pairs, the numbers it holds and its widths (what `_fits` compares).
Witness = tuple[tuple, tuple[tuple[int, int], ...], frozenset[int], tuple[int, ...]]
#: Answers kept as witnesses for questions they were not found for.
POOL = 16


class TowerQuestions:
    """The solver's answers for one rule set, with their memo and pre-checks."""

    def __init__(self, tables: Tables):
        self.t = tables
        relaxes = {s.relaxes: i for i, s in enumerate(tables.rules.named("skill").values())}
        self._rank_of = {rel: relaxes.get(rel) for rel in towers.RELAXATIONS}
        self._memo: dict[tuple, tuple | None] = {}
        #: query -> witnesses for it, newest first.
        self._witnesses: dict[tuple, list[Witness]] = {}
        #: (team, ranks, tile or festival numbers) -> whether a tower answers it.
        self._answered: dict[tuple, bool] = {}
        #: Keys of questions known to have an answer (found by `_find_any`, not the best).
        self._possible: set[tuple] = set()
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
        #: The latest answers to any question, newest first (witnesses for other questions).
        self._pool: list[Witness] = []

    def completing_tower(self, g: dict, player: int, tile: int) -> tuple | None:
        """A tower completing local performance `tile` for the player (C-8.3, C-8.4)."""
        return cast("tuple | None", self._completing(g, player, tile, self._solve))

    def can_complete(self, g: dict, player: int, tile: int) -> bool:
        """Whether `completing_tower` has an answer, found without a search when a witness
        still holds (see the module's docstring). Four in five fail the pre-checks, which
        cost less than a memo key would."""
        return self._completing(g, player, tile, self._exists) is not None

    def festival_possible(self, g: dict, player: int, numbers: tuple[int, ...]) -> bool:
        """Whether `best_tower_for` has an answer (a witness or the solver says), memoised
        whole like `can_complete`."""
        key = (tuple(g["teams"][player]), tuple(g["ranks"][player]), numbers)
        known = self._answered.get(key)
        if known is None:
            known = self._festival(g, player, numbers, self._exists) is not None
            self._make_room()
            self._answered[key] = known
        return known

    def _completing(
        self, g: dict, player: int, tile: int, ask: Callable[[dict, int, tuple], object]
    ) -> object:
        shape, castellers, skill_indices, skills, points = self._tile_facts[tile]
        if shape is not None:
            if castellers > sum(g["teams"][player]) or not self._shape_possible(g, player, shape):
                return None
            return ask(g, player, ("shape", shape))
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
        if key in self._possible:
            return True
        ranks = None
        for witness in self._witnesses.get(query, ()):
            if all(team[i] >= c for i, c in witness[1]):
                if ranks is None:
                    ranks = self.t._ranks(g, player)
                if self._answers(witness[0], ranks, query):
                    return True
        # Any recent answer to another question will do if its shape fits this one.
        fits = self._fits
        for witness in self._pool:
            if fits(witness, query) and all(team[i] >= c for i, c in witness[1]):
                if ranks is None:
                    ranks = self.t._ranks(g, player)
                if self._answers(witness[0], ranks, query):
                    return True
        return None if self._find_any(g, player, query, key) is None else True

    def _find_any(self, g: dict, player: int, query: tuple, key: tuple) -> tuple | None:
        """Some tower answering `query` (`solver.any_tower`: the search stops at the first),
        kept as a witness; the memo keeps only a None, which is the exact answer too."""
        t = self.t
        team = t._team_list(g, player)
        ranks = t._ranks(g, player)
        kind = query[0]
        if kind == "festival":
            sol = solver.any_tower(team, ranks, t.tower_rules, query[1], query[2])
        elif kind == "shape":
            sol = solver.any_tower(team, ranks, t.tower_rules, shape=query[1])
        else:
            sol = solver.any_tower(team, ranks, t.tower_rules, n_levels=query[2], needs=query[1])
        self._make_room()
        if sol is None:
            self._memo[key] = None
            return None
        self._possible.add(key)
        self._remember(query, sol.levels)
        return sol.levels

    def _make_room(self) -> None:
        """Start a memo afresh when it is full (memory stays flat); each has its own bound,
        so that the many cheap whole answers do not push out the searches' results."""
        if len(self._memo) + len(self._possible) > MEMO_SIZE:
            self._memo.clear()
            self._possible.clear()
            self._witnesses.clear()
            self._pool.clear()
        if len(self._answered) > MEMO_SIZE:
            self._answered.clear()

    def _remember(self, query: tuple, levels: tuple) -> None:
        """Keep a tower found for `query` as a witness, for it and in the shared pool."""
        low = self.t.low
        need: dict[int, int] = {}
        for level in levels:
            for n in level:
                need[n - low] = need.get(n - low, 0) + 1
        numbers = frozenset(n for level in levels for n in level)
        witness = (levels, tuple(need.items()), numbers, tuple(map(len, levels)))
        found = self._witnesses.setdefault(query, [])
        found.insert(0, witness)
        del found[WITNESSES:]
        self._pool.insert(0, witness)
        del self._pool[POOL:]

    @staticmethod
    def _fits(witness: Witness, query: tuple) -> bool:
        """Whether a tower's own structure meets `query` (its legality aside): enough levels
        and the numbers for a festival, the shape, or the exhibition's height."""
        kind = query[0]
        if kind == "festival":
            return len(witness[0]) >= query[2] and witness[2].issuperset(query[1])
        if kind == "shape":
            return witness[3] == query[1]
        return len(witness[0]) == query[2]

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
        self._make_room()
        self._memo[key] = levels
        if levels is not None:
            self._remember(query, levels)
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
