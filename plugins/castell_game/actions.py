"""Castell's action kinds, one handler each (the contract's `ActionHandler`): how an action
is written, which ones a player has, why one is refused and what it does (C-4.3 … C-4.5, C-5.6).

A handler keeps the questions of its kind together, so a new action is one new class listed
in `CastellLogic.handlers`; the contract's `GameLogic` routes the engine's questions to it.
The special action and its options are in `special.py`. Every handler makes its actions'
canonical text itself: the log and replays depend on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from castell_dsl.contract import Action, ActionHandler, ActionSyntaxError, Rejection
from castell_dsl.language.ruleset import Record

from . import towers
from .notation import format_levels, parse_levels, parse_numbers
from .questions import MEMO_SIZE, TowerQuestions
from .tables import Tables

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext

NO_PAWN = "place your pawn first: your first move puts it anywhere"


class Handler(ActionHandler):
    """A Castell action kind's handler (`ActionHandler`), reading the rule set's tables.

    `parse` may raise `NotationError` (a `ValueError`) from the notation helpers: the engine
    reports it with the kind in front, as it does every game's."""

    def __init__(self, tables: Tables):
        self.t = tables


class Move(Handler):
    """C-4.3: move the pawn to an adjacent region (the first move puts it anywhere). With
    `special=True`, the special action's move option (C-4.7 b)."""

    def __init__(self, tables: Tables, special: bool = False):
        super().__init__(tables)
        self.kind = "special" if special else "move"
        # Made once: the random bot lists them often.
        self._actions = [
            Action("special", ("move", r), f"special move {name}")
            if special
            else Action("move", (r,), f"move {name}")
            for r, name in enumerate(tables.regions)
        ]

    def action(self, region: int) -> Action:
        return self._actions[region]

    def parse(self, text: str) -> Action:
        return self.action(self.region(text))

    def region(self, text: str) -> int:
        """The region named `text` (any case), or a syntax error naming the regions."""
        t = self.t
        region = t.region_lower.get(text.strip().lower())
        if region is None:
            from castell_dsl.language.diagnostics import did_you_mean

            hint = did_you_mean(text.strip(), t.regions)
            raise ActionSyntaxError(
                f"'{text.strip()}' is not a region"
                + (f"; {hint}" if hint else f" (regions: {', '.join(t.regions)})")
            )
        return region

    def options(self, game: GameContext, player: int, spec: Record) -> list[Action]:
        pawn = game.state["g"]["pawns"][player]
        targets = range(len(self.t.regions)) if pawn < 0 else self.t.adjacent[pawn]
        return [self._actions[r] for r in targets]

    def count(self, game: GameContext, player: int, spec: Record) -> int:
        pawn = game.state["g"]["pawns"][player]
        return len(self.t.regions) if pawn < 0 else len(self.t.adjacent[pawn])

    def nth(self, game: GameContext, player: int, spec: Record, index: int) -> Action:
        pawn = game.state["g"]["pawns"][player]
        return self._actions[index if pawn < 0 else self.t.adjacent[pawn][index]]

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        return self.refusal(game.state["g"], player, action.args[0], adjacent_only=True)

    def refusal(self, g: dict, player: int, region: int, adjacent_only: bool) -> Rejection | None:
        """Why the pawn may not go to `region`, if it may not."""
        t = self.t
        pawn = g["pawns"][player]
        if pawn == region:
            return Rejection("already-there", f"your pawn is already in {t.regions[region]}")
        if adjacent_only and pawn >= 0 and region not in t.adjacent[pawn]:
            near = ", ".join(t.regions[r] for r in t.adjacent[pawn])
            return Rejection(
                "not-adjacent",
                f"{t.regions[region]} is not adjacent to {t.regions[pawn]} (adjacent: {near})",
            )
        return None

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        game.own("pawns")[player] = action.args[0]
        return None


class Recruit(Handler):
    """C-4.4: take up to `up_to` castellers from the pawn's region into the team. With
    `special=True`, the special action's recruit option (C-4.7 a)."""

    def __init__(self, tables: Tables, special: bool = False):
        super().__init__(tables)
        self.special = special
        self.kind = "special" if special else "recruit"
        self._choices: dict[tuple, list[Action]] = {}
        #: Actions by their (ascending) numbers, made once: there are few of them.
        self._made: dict[tuple[int, ...], Action] = {}

    def action(self, numbers: tuple[int, ...]) -> Action:
        numbers = tuple(sorted(numbers))
        made = self._made.get(numbers)
        if made is not None:
            return made
        if len(self._made) > MEMO_SIZE:
            self._made.clear()
        made = self._made[numbers] = self._make(numbers)
        return made

    def _make(self, numbers: tuple[int, ...]) -> Action:
        text = " ".join(map(str, numbers))
        if self.special:
            return Action("special", ("recruit", numbers), "special recruit " + text)
        return Action("recruit", numbers, "recruit " + text)

    def parse(self, text: str) -> Action:
        return self.action(parse_numbers(text))

    def options(self, game: GameContext, player: int, spec: Record) -> list[Action]:
        g = game.state["g"]
        pawn = g["pawns"][player]
        if pawn < 0:
            return []
        return self.choices(g["regions"][pawn], spec.up_to)

    def count(self, game: GameContext, player: int, spec: Record) -> int:
        g = game.state["g"]
        pawn = g["pawns"][player]
        return 0 if pawn < 0 else self.count_choices(g["regions"][pawn], spec.up_to)

    def nth(self, game: GameContext, player: int, spec: Record, index: int) -> Action:
        g = game.state["g"]
        return self.nth_choice(g["regions"][g["pawns"][player]], spec.up_to, index)

    def count_choices(self, counts: list[int], up_to: int) -> int:
        """`len(choices(counts, up_to))`, by arithmetic for the rules' limits (1 and 2): p
        numbers present give p singles, p(p-1)/2 mixed pairs and a double of each number
        present twice."""
        # Counted by `list.count`, in C: a random playout counts these at every decision.
        present = len(counts) - counts.count(0)
        if up_to == 1:
            return present
        if up_to == 2:
            doubles = present - counts.count(1)  # counts are never negative
            return present + present * (present - 1) // 2 + doubles
        return len(self.shared_choices(counts, up_to))

    def nth_choice(self, counts: list[int], up_to: int, index: int) -> Action:
        """`choices(counts, up_to)[index]`, made alone for limits 1 and 2. The listing's order
        (`_combos`, depth first): for each number present in turn, the single, the double if
        there are two, then the pairs with each larger number present."""
        if up_to > 2:
            return self.shared_choices(counts, up_to)[index]
        low = self.t.low
        present = [i for i, c in enumerate(counts) if c]
        for a, i in enumerate(present):
            if index == 0:
                return self.action((low + i,))
            if up_to == 1:
                index -= 1
                continue
            index -= 1
            if counts[i] > 1:
                if index == 0:
                    return self.action((low + i, low + i))
                index -= 1
            larger = len(present) - a - 1
            if index < larger:
                return self.action((low + i, low + present[a + 1 + index]))
            index -= larger
        raise IndexError("recruit choice index out of range")

    def choices(self, counts: list[int], up_to: int) -> list[Action]:
        """Recruit actions for a region's castellers, made once per (contents, limit)."""
        return list(self.shared_choices(counts, up_to))

    def shared_choices(self, counts: list[int], up_to: int) -> list[Action]:
        """`choices` without the copy: the memo's own list, which callers must not change."""
        key = (tuple(counts), up_to)
        found = self._choices.get(key)
        if found is None:
            found = [self.action(c) for c in self._combos(counts, up_to)]
            if len(self._choices) > MEMO_SIZE:
                self._choices.clear()
            self._choices[key] = found
        return found

    def _combos(self, counts: list[int], up_to: int) -> list[tuple[int, ...]]:
        """Every multiset of 1..up_to castellers that `counts` can supply (sizes ascending)."""
        low = self.t.low
        out: list[tuple[int, ...]] = []

        def extend(start: int, chosen: list[int], left: list[int]) -> None:
            if chosen:
                out.append(tuple(chosen))
            if len(chosen) == up_to:
                return
            for i in range(start, len(left)):
                if left[i]:
                    left[i] -= 1
                    chosen.append(low + i)
                    extend(i, chosen, left)
                    chosen.pop()
                    left[i] += 1

        extend(0, [], list(counts))
        return out

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        return self.refusal(game.state["g"], player, action.args, spec.up_to)

    def refusal(self, g: dict, player: int, numbers: tuple, up_to: int) -> Rejection | None:
        """Why the player may not recruit `numbers`, if they may not."""
        t = self.t
        pawn = g["pawns"][player]
        if pawn < 0:
            return Rejection("no-pawn", NO_PAWN)
        if not numbers:
            return Rejection("bad-syntax", "recruit at least one casteller")
        if len(numbers) > up_to:
            return Rejection("too-many", f"you may recruit up to {up_to} casteller(s)")
        counts = list(g["regions"][pawn])
        for n in numbers:
            i = n - t.low
            if not 0 <= i < len(counts) or counts[i] == 0:
                return Rejection(
                    "not-available",
                    f"{t.regions[pawn]} has no casteller {n} to recruit "
                    f"(it has: {t.casteller_names(g['regions'][pawn])})",
                )
            counts[i] -= 1
        return None

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        self.take(game, player, action.args)
        return None

    def take(self, game: GameContext, player: int, numbers: tuple) -> None:
        """Move `numbers` from the pawn's region into the player's team."""
        low = self.t.low
        region = game.own("regions", game.state["g"]["pawns"][player])
        team = game.own("teams", player)
        for n in numbers:
            region[n - low] -= 1
            team[n - low] += 1


class Train(Handler):
    """C-4.5, C-4.6: train the tile in the pawn's region's slot or a shared slot of the wheel;
    a skill tile raises that skill's rank, a granting tile (Special) grants an action."""

    kind = "train"

    def __init__(self, tables: Tables):
        super().__init__(tables)
        self._actions = {
            tile: Action("train", (tile,), f"train {tile}")
            for tile in {*tables.skills, *tables.grants}
        }

    def parse(self, text: str) -> Action:
        name = text.strip().lower()
        if name not in self._actions:
            raise ActionSyntaxError(
                f"'{text.strip()}' is not a skill; train one of: {', '.join(sorted(self._actions))}"
            )
        return self._actions[name]

    def options(self, game: GameContext, player: int, spec: Record) -> list[Action]:
        return [self._actions[tile] for tile in self.trainable(game, player)]

    def count(self, game: GameContext, player: int, spec: Record) -> int:
        return len(self.trainable(game, player))

    def nth(self, game: GameContext, player: int, spec: Record, index: int) -> Action:
        return self._actions[self.trainable(game, player)[index]]

    def trainable(self, game: GameContext, player: int) -> list[str]:
        """The tiles the player may train now (C-4.5): their pawn's region's slot and the
        shared (All Regions) slots; skills at their highest rank and duplicates left out."""
        t = self.t
        g = game.state["g"]
        pawn = g["pawns"][player]
        if pawn < 0:
            return []
        out = []
        for sector in (t.sector_of_region[pawn], *t.shared_sectors):
            tile = t.tile_at(g, sector)
            if tile in out:
                continue
            if tile in t.grants:
                out.append(tile)
                continue
            skill = t.skill_index[tile]
            if g["ranks"][player][skill] < t.max_rank[skill]:
                out.append(tile)
        return out

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        t = self.t
        g = game.state["g"]
        tile = action.args[0]
        options = self.trainable(game, player)
        if tile in options:
            return None
        if g["pawns"][player] < 0:
            return Rejection("no-pawn", NO_PAWN)
        skill = t.skill_index.get(tile)
        if skill is not None and g["ranks"][player][skill] >= t.max_rank[skill]:
            return Rejection("max-rank", f"your {t.titles[tile]} rank is already the highest")
        where = t.regions[g["pawns"][player]]
        shown = ", ".join(options) if options else "nothing"
        return Rejection(
            "not-on-wheel",
            f"{tile} is not on the wheel where you can train it ({where}'s slot"
            f"{' or a shared slot' if t.shared_sectors else ''}); you can train: {shown}",
        )

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        t = self.t
        tile = action.args[0]
        if tile in t.grants:
            return t.grants[tile]
        game.own("ranks", player)[t.skill_index[tile]] += 1
        return None


class Tower(Handler):
    """C-5, C-5.6: build (or rebuild) the player's tower from their team."""

    kind = "tower"

    def __init__(self, tables: Tables, questions: TowerQuestions):
        super().__init__(tables)
        self.questions = questions

    @staticmethod
    def action(levels: tuple) -> Action:
        return Action("tower", (levels,), f"tower {format_levels(levels)}")

    def parse(self, text: str) -> Action:
        return self.action(parse_levels(text))

    def options(self, game: GameContext, player: int, spec: Record) -> list[Action]:
        """The solver's best tower for each festival at the end of this round in the region
        where the player's pawn stands (C-9.2, C-9.3): the towers that can score now. Any
        other legal tower can still be built by writing it (`tower 6,6,6/5,5/4/3`)."""
        return [self.action(levels) for levels in self.towers(game, player)]

    def nth(self, game: GameContext, player: int, spec: Record, index: int) -> Action:
        return self.action(self.towers(game, player)[index])

    def candidates(self, game: GameContext, player: int, spec: Record) -> int:
        """One candidate per festival this round where the pawn stands: whether it is an
        action (a best tower exists and is not the current one) is left to `candidate`."""
        return len(self.festivals(game, player))

    def candidate(self, game: GameContext, player: int, spec: Record, index: int) -> Action | None:
        g = game.state["g"]
        levels = self.questions.best_tower_for(g, player, self.festivals(game, player)[index])
        if levels is None or levels == self._current(g, player):
            return None
        return self.action(levels)

    def towers(self, game: GameContext, player: int) -> list[tuple]:
        """The levels of the towers `options` offers, in its order."""
        g = game.state["g"]
        current = self._current(g, player)
        out: list[tuple] = []
        for numbers in self.festivals(game, player):
            levels = self.questions.best_tower_for(g, player, numbers)
            if levels is not None and levels != current:
                out.append(levels)
        return out

    def festivals(self, game: GameContext, player: int) -> list[tuple[int, ...]]:
        """The size numbers of each festival at the end of this round in the region where
        the player's pawn stands, in the calendar's order (none before the pawn is placed)."""
        t = self.t
        g = game.state["g"]
        pawn = g["pawns"][player]
        if pawn < 0:
            return []
        rnd_now = game.state["round"]
        return [
            tuple(numbers)
            for rnd, festival, numbers in g["calendar"]
            if rnd == rnd_now and t.festival_region[festival] == pawn
        ]

    @staticmethod
    def _current(g: dict, player: int) -> tuple | None:
        current = g["towers"][player]
        return None if current is None else tuple(tuple(level) for level in current)

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        return self.refusal(game.state["g"], player, action.args[0])

    def refusal(self, g: dict, player: int, levels: tuple) -> Rejection | None:
        """Why the player may not build `levels`: castellers missing or an illegal tower."""
        t = self.t
        need = [0] * len(t.sizes)
        for level in levels:
            for n in level:
                i = n - t.low
                if 0 <= i < len(need):
                    need[i] += 1
        team = g["teams"][player]
        for i, count in enumerate(need):
            if count > team[i]:
                return Rejection(
                    "not-in-team",
                    f"the tower needs {count} casteller(s) {t.low + i} and your team has {team[i]}",
                )
        result = towers.check(levels, t._ranks(g, player), t.tower_rules)
        if not result.legal:
            return Rejection("illegal-tower", result.reason or "the tower is not legal")
        return None

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        game.own("towers")[player] = [list(level) for level in action.args[0]]
        return None
