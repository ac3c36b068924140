"""Calico's action kinds, one handler each (the contract's `ActionHandler`): how a placement,
a take and a choice of design goals are written, which ones a player has, why one is refused
and what it does, including the cats and buttons a placement earns at that moment (K-2.2,
K-3 … K-6). `CalicoLogic.handlers` lists them; the contract's `GameLogic` routes the
engine's questions to them, so no code here asks which kind an action is.

Each handler reads the rule set's tables (`tables.py`) and makes its actions' canonical
text itself: the log and replays depend on it. The listings' actions are made once per
arguments (only arguments the rules allow reach those memos, so they stay as small as the
quilt, the market and the goal tiles); parsed text makes its own actions.
"""

from __future__ import annotations

from itertools import permutations

from castell_dsl.contract import Action, ActionHandler, GameContext, Record, Rejection

from . import notation
from .tables import EMPTY, GOAL_SPACE, CalicoTables


class Place(ActionHandler):
    """K-3.2: a patch from the hand onto an empty hex of the player's quilt; the cat token
    (K-5.4) and buttons (K-6.1, K-6.2) it earns are taken at once."""

    kind = "place"

    def __init__(self, tables: CalicoTables):
        self.t = tables
        #: Place actions by patch (a list by cell), made once: a turn lists dozens of them.
        self._placements: dict[int, list[Action]] = {}

    def parse(self, text: str) -> Action:
        t = self.t
        patch, (col, row) = notation.parse_place(text, t.colour_index, t.pattern_index, t.npatterns)
        return Action(
            "place",
            (patch, col, row),
            f"place {t.patch_names[patch]} {notation.format_cell(col, row)}",
        )

    def options(self, game: GameContext, player: int, spec: Record) -> list[Action]:
        return self._place_options(game.state["g"], player)

    def count(self, game: GameContext, player: int, spec: Record) -> int:
        """`len(options)` by arithmetic: distinct patches in hand times empty cells."""
        g = game.state["g"]
        hand = g["hands"][player]
        return len(set(hand)) * g["quilts"][player].count(EMPTY)

    def nth(self, game: GameContext, player: int, spec: Record, index: int) -> Action:
        """`options(...)[index]` made alone: patches in hand order, first copy of each, then
        empty cells in order."""
        g = game.state["g"]
        quilt = g["quilts"][player]
        empty = [i for i, v in enumerate(quilt) if v == EMPTY]
        patches = list(dict.fromkeys(g["hands"][player]))
        which, cell = divmod(index, len(empty))
        return self._placement(patches[which], empty[cell])

    def _placement(self, patch: int, cell: int) -> Action:
        return self._placement_row(patch)[cell]

    def _placement_row(self, patch: int) -> list[Action]:
        """The place actions of `patch`, by cell, made all at once when first needed: a
        listing takes every empty cell of each patch in hand."""
        row = self._placements.get(patch)
        if row is None:
            name = self.t.patch_names[patch]
            row = self._placements[patch] = [
                Action("place", (patch, col, r), f"place {name} {text}")
                for (col, r), text in zip(self.t.cell_xy, self.t.cell_text, strict=True)
            ]
        return row

    def _place_options(self, g: dict, player: int) -> list[Action]:
        quilt = g["quilts"][player]
        empty = [i for i, v in enumerate(quilt) if v == EMPTY]
        out: list[Action] = []
        for patch in dict.fromkeys(g["hands"][player]):
            out += map(self._placement_row(patch).__getitem__, empty)
        return out

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        return self._check_place(game.state["g"], player, *action.args)

    def _check_place(
        self, g: dict, player: int, patch: int, col: int, row: int
    ) -> Rejection | None:
        if not (0 <= col < self.t.columns and 0 <= row < self.t.rows):
            return Rejection(
                "off-quilt",
                f"{col},{row} is not on the quilt (columns 0-{self.t.columns - 1}, "
                f"rows 0-{self.t.rows - 1})",
            )
        cell = row * self.t.columns + col
        value = g["quilts"][player][cell]
        if value == GOAL_SPACE:
            return Rejection("goal-space", f"{col},{row} holds a design goal")
        if value != EMPTY:
            what = "an edge patch" if cell in self.t.edge_cells else "a patch"
            return Rejection(
                "occupied", f"{col},{row} already holds {what} ({self.t.patch_names[value]})"
            )
        hand = g["hands"][player]
        if patch not in hand:
            shown = ", ".join(self.t.patch_names[p] for p in hand) or "nothing"
            return Rejection(
                "not-in-hand",
                f"you have no {self.t.patch_names[patch]} in hand (your hand: {shown})",
            )
        return None

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        patch, col, row = action.args
        self.place(game, game.state["g"], player, patch, row * self.t.columns + col)
        return None

    def place(self, game: GameContext, g: dict, player: int, patch: int, cell: int) -> None:
        """K-3.2: place the patch, then take the cat token and buttons it earns."""
        g["hands"][player].remove(patch)
        quilt = g["quilts"][player]
        quilt[cell] = patch
        cat = self._attracted_cat(g, player, quilt, cell)
        if cat is not None:
            g["tokens"][player][cell] = cat
            if game.observed:
                game.emit({"type": "cat", "player": player, "cat": self.t.cat_names[cat],
                           "at": self.t.cell_text[cell]})  # fmt: skip
        if self._earns_button(g, player, quilt, cell):
            colour = self.t.colour_of[patch]
            g["buttons"][player][cell] = colour
            if game.observed:
                game.emit({"type": "button", "player": player, "colour": self.t.colours[colour],
                           "at": self.t.cell_text[cell]})  # fmt: skip
            for rainbow in self._new_rainbows(g, player):
                if game.observed:
                    game.emit({"type": "button", "player": player,
                               "button": self.t.button_names[rainbow]})  # fmt: skip

    def _attracted_cat(self, g: dict, player: int, quilt: list[int], cell: int) -> int | None:
        """The cat the group of the new patch attracts now, if any (K-5.1, K-5.3, K-5.4)."""
        pattern = self.t.pattern_of[quilt[cell]]
        cat = g["pattern_cat"][pattern]
        group = self.t.pattern_group(quilt, cell)
        tokens = g["tokens"][player]
        if any(tokens[c] >= 0 for c in group):
            return None  # this group already attracted its cat: growing earns nothing
        if not self.t.cat_condition(cat, group):
            return None
        if not self.t.patterns_may_touch and self._touches_attracted(g, player, quilt, group, cat):
            return None
        return cat

    def _touches_attracted(
        self, g: dict, player: int, quilt: list[int], group: list[int], cat: int
    ) -> bool:
        """The literal K-5.4 reading: the group touches a group of the cat's other pattern
        that already attracted this cat."""
        pattern = self.t.pattern_of[quilt[group[0]]]
        others = {p for p, c in enumerate(g["pattern_cat"]) if c == cat and p != pattern}
        tokens = g["tokens"][player]
        seen: set[int] = set(group)
        for cell in group:
            for nb in self.t.neighbours[cell]:
                value = quilt[nb]
                if nb in seen or value < 0 or self.t.pattern_of[value] not in others:
                    continue
                other = self.t.pattern_group(quilt, nb)
                seen.update(other)
                if any(tokens[c] == cat for c in other):
                    return True
        return False

    def _earns_button(self, g: dict, player: int, quilt: list[int], cell: int) -> bool:
        """K-6.1: the colour group of the new patch reaches its size with no button in it."""
        group = self.t.colour_group(quilt, cell)
        buttons = g["buttons"][player]
        if any(buttons[c] >= 0 for c in group):
            return False  # grown, or joined to a group with a button: nothing new
        return len(group) >= self.t.colour_threshold[self.t.colour_of[quilt[cell]]]

    def _new_rainbows(self, g: dict, player: int) -> list[int]:
        """K-6.2: rainbow-type buttons now due (one per full round of every colour's buttons,
        up to the button's limit)."""
        counts = [0] * self.t.ncolours
        for colour in g["buttons"][player]:
            if colour >= 0:
                counts[colour] += 1
        held = g["rainbows"][player]
        new = []
        for index, each, limit in self.t.rainbow_buttons:
            due = min(counts) // each
            if limit is not None:
                due = min(due, limit)
            for _ in range(due - held.count(index)):
                held.append(index)
                new.append(index)
        return new


class Take(ActionHandler):
    """K-3.3: a patch from the market into the hand, then the market refilled (K-3.4: none on
    the turn that fills the quilt, unless the rules say `take_when_full`; K-8.3: discards)."""

    kind = "take"

    def __init__(self, tables: CalicoTables):
        self.t = tables
        #: Listed take actions by (patch, slot), made once.
        self._takes: dict[tuple[int, int | None], Action] = {}

    def parse(self, text: str) -> Action:
        t = self.t
        patch, slot = notation.parse_take(text, t.colour_index, t.pattern_index, t.npatterns)
        return self._action(patch, slot)

    def _action(self, patch: int, slot: int | None) -> Action:
        return Action("take", (patch, slot), notation.format_take(self.t.patch_names[patch], slot))

    def _listed(self, patch: int, slot: int | None) -> Action:
        action = self._takes.get((patch, slot))
        if action is None:
            action = self._takes[patch, slot] = self._action(patch, slot)
        return action

    def options(self, game: GameContext, player: int, spec: Record) -> list[Action]:
        return self._take_options(game.state["g"], player, spec)

    def _take_options(self, g: dict, player: int, spec: Record) -> list[Action]:
        if not spec.take_when_full and self.t.quilt_full(g, player):
            return []  # K-3.4 [default]: no market step on the turn that fills the quilt
        market = g["market"]
        out = []
        seen = set()
        for slot, patch in enumerate(market):
            if self.t.discard and market.count(patch) > 1:
                # Which copy is taken decides which patch is discarded (K-8.3).
                out.append(self._listed(patch, slot))
            elif patch not in seen:
                out.append(self._listed(patch, None))
            seen.add(patch)
        return out

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        return self._check_take(game.state["g"], player, action.args[0], action.args[1], spec)

    def _check_take(
        self, g: dict, player: int, patch: int, slot: int | None, spec: Record
    ) -> Rejection | None:
        if not spec.take_when_full and self.t.quilt_full(g, player):
            return Rejection(
                "quilt-full", "your quilt is full: there is no market step on your last turn"
            )
        market = g["market"]
        shown = ", ".join(f"{i + 1}: {self.t.patch_names[p]}" for i, p in enumerate(market))
        if slot is not None:
            if slot >= len(market):
                return Rejection(
                    "no-such-slot",
                    f"the market has {len(market)} slot(s) (market: {shown or 'empty'})",
                )
            if market[slot] != patch:
                return Rejection(
                    "wrong-slot",
                    f"slot {slot + 1} holds {self.t.patch_names[market[slot]]}, not "
                    f"{self.t.patch_names[patch]} (market: {shown})",
                )
            return None
        if patch not in market:
            return Rejection(
                "not-in-market",
                f"the market has no {self.t.patch_names[patch]} (market: {shown or 'empty'})",
            )
        return None

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        self.take(game, game.state["g"], player, action.args[0], action.args[1])
        return None

    def take(self, game: GameContext, g: dict, player: int, patch: int, slot: int | None) -> None:
        """K-3.3: take a market patch, then refill; K-8.3: first discard from the end the
        rule file's `discard_from` names."""
        market = g["market"]
        if slot is None:
            slot = market.index(patch)
        market.pop(slot)
        g["hands"][player].append(patch)
        discarded = []
        for _ in range(self.t.discard):
            if market:
                out = market.pop(-1 if self.t.discard_nearest else 0)
                g["removed"][out] += 1
                discarded.append(out)
        drawn = self.t.refill_market(game)
        if game.observed:
            game.emit(
                {
                    "type": "market",
                    "player": player,
                    "taken": self.t.patch_names[patch],
                    "discarded": [self.t.patch_names[p] for p in discarded],
                    "drawn": [self.t.patch_names[p] for p in drawn],
                    "bag": sum(g["bag"]),
                }
            )


class Goals(ActionHandler):
    """K-2.2: the player's design goals onto the goal spaces, in order, from those revealed
    to them (only when the setup lets players choose)."""

    kind = "goals"

    def __init__(self, tables: CalicoTables):
        self.t = tables
        #: Listed goal arrangements by goals, made once.
        self._goal_choices: dict[tuple[int, ...], Action] = {}

    def parse(self, text: str) -> Action:
        return self._action(notation.parse_goals(text, self.t.goal_index))

    def _action(self, goals: tuple[int, ...]) -> Action:
        return Action("goals", goals, notation.format_goals([self.t.goal_names[i] for i in goals]))

    def _listed(self, goals: tuple[int, ...]) -> Action:
        action = self._goal_choices.get(goals)
        if action is None:
            action = self._goal_choices[goals] = self._action(goals)
        return action

    def options(self, game: GameContext, player: int, spec: Record) -> list[Action]:
        return self._goal_options(game.state["g"], player)

    def _goal_options(self, g: dict, player: int) -> list[Action]:
        if not self.t.goals_chosen or g["goals"][player]:
            return []
        spaces = len(self.t.goal_cells)
        return [self._listed(p) for p in permutations(g["revealed"][player], spaces)]

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        return self._check_goals(game.state["g"], player, action.args)

    def _check_goals(self, g: dict, player: int, goals: tuple[int, ...]) -> Rejection | None:
        if not self.t.goals_chosen:
            return Rejection("goals-fixed", "in this setup your design goals are placed for you")
        if g["goals"][player]:
            return Rejection("goals-placed", "your design goals are already placed")
        spaces = len(self.t.goal_cells)
        if len(goals) != spaces:
            return Rejection(
                "wrong-count",
                f"name {spaces} design goals, one for each goal space in order "
                f"({', '.join(self.t.cell_text[c] for c in self.t.goal_cells)})",
            )
        if len(set(goals)) != len(goals):
            return Rejection("duplicate-goal", "each design goal tile can be placed only once")
        offered = g["revealed"][player]
        for goal in goals:
            if goal not in offered:
                shown = ", ".join(self.t.goal_names[i] for i in offered)
                return Rejection(
                    "not-revealed",
                    f"{self.t.goal_names[goal]} is not one of your design goals ({shown})",
                )
        return None

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        game.state["g"]["goals"][player] = list(action.args)
        return None
