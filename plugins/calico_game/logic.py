"""Calico's game logic: what its step and actions mean (K-2 … K-8).

The engine runs the flow (the start step, the goal-choosing turns, 22 rounds of one turn per
player with `place` then `take`); this module says what `deal` does, which placements, takes
and goal arrangements are possible, why an action is refused, what each does — including the
cats and buttons a placement earns at that moment (K-5.4, K-6.1) — and the facts the rule
file's scoring reads. Every number and name comes from the rule set, precompiled here into
index tables once per rule set.

State layout (`state["g"]`; patches are numbers `colour * patterns + pattern`, colours,
patterns, boards, goals, cats and buttons are indices in rule-file order, hexes are
`row * columns + col`):
    bag[patch]              patches of each kind in the bag
    removed[patch]          patches out of the game (low-luck sets, solo discards)
    market                  patches, farthest from the bag first (slot 1 is market[0])
    cats                    the cats in play
    pattern_cat[pattern]    the cat each pattern belongs to (K-2.3)
    boards[seat]            each player's board
    quilts[seat][hex]       a patch, EMPTY, or GOAL_SPACE; edge patches are printed there
    hands[seat]             patches in hand
    revealed[seat]          design goals a player may choose from (K-2.2)
    goals[seat]             design goals on the goal spaces, in `goal_spaces` order
    tokens[seat][hex]       the cat whose token lies on that patch, or -1 (K-5.4)
    buttons[seat][hex]      the colour of the button on that patch, or -1 (K-6.1)
    rainbows[seat]          rainbow-type buttons earned (K-6.2)

Conservation: bag + removed + market + hands + placed patches is the box's patch count (the
edge patches are printed on the boards and never counted with them).
"""

from __future__ import annotations

from itertools import permutations
from pathlib import Path
from typing import Any

from castell_dsl.contract import (
    Action,
    ActionSyntaxError,
    GameContext,
    GameLogic,
    ItemsFromTable,
    PlayableGame,
    Rejection,
    Step,
)
from castell_dsl.language.ruleset import Record, RuleSet

from . import goals, hexes, notation
from .checks import bag_player_counts
from .items import CalicoItems

#: A hex with no patch yet.
EMPTY = -1
#: A hex that holds a design goal.
GOAL_SPACE = -2


class CalicoLogic(ItemsFromTable, GameLogic):
    """A Calico rule set precompiled into index tables; the state lives in the game."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        # Patches.
        self.colours: list[str] = list(rules.named("colour"))
        self.patterns: list[str] = list(rules.named("pattern"))
        self.colour_index = {name: i for i, name in enumerate(self.colours)}
        self.pattern_index = {name: i for i, name in enumerate(self.patterns)}
        self.ncolours = len(self.colours)
        self.npatterns = len(self.patterns)
        self.npatches = self.ncolours * self.npatterns
        self.patch_names = [f"{c}/{p}" for c in self.colours for p in self.patterns]
        self.colour_of = [i // self.npatterns for i in range(self.npatches)]
        self.pattern_of = [i % self.npatterns for i in range(self.npatches)]
        bag = rules.one("bag")
        self.copies = bag.copies
        self.remove_sets = dict(bag.remove_sets)
        self.player_counts = bag_player_counts(rules)
        self.bag_source = _bag_source(rules)
        # The quilt.
        quilt = rules.one("quilt")
        self.columns, self.rows = quilt.columns, quilt.rows
        self.ncells = self.columns * self.rows
        self.neighbours = hexes.neighbour_table(self.columns, self.rows)
        self.cell_xy = [(i % self.columns, i // self.columns) for i in range(self.ncells)]
        self.cell_text = [notation.format_cell(c, r) for c, r in self.cell_xy]
        #: Place actions by patch (a list by cell), made once: a turn lists dozens of them.
        #: Take and goals actions likewise, by their arguments.
        self._placements: dict[int, list[Action]] = {}
        self._takes: dict[tuple[int, int | None], Action] = {}
        self._goal_choices: dict[tuple[int, ...], Action] = {}
        self.axial = [hexes.to_axial(c, r) for c, r in self.cell_xy]
        self.goal_cells = [row * self.columns + col for col, row in quilt.goal_spaces]
        self.boards: list[str] = list(rules.named("board"))
        self.board_quilts: list[list[int]] = []
        for board in rules.named("board").values():
            cells = [EMPTY] * self.ncells
            for edge in board.edge:
                col, row = edge.at
                cells[row * self.columns + col] = (
                    self.colour_index[edge.colour] * self.npatterns
                    + self.pattern_index[edge.pattern]
                )
            for cell in self.goal_cells:
                cells[cell] = GOAL_SPACE
            self.board_quilts.append(cells)
        self.edge_cells = frozenset(
            r * self.columns + c for c, r in hexes.ring_cells(self.columns, self.rows)
        )
        # Design goals.
        self.goal_names: list[str] = list(rules.named("goal"))
        self.goal_index = {name: i for i, name in enumerate(self.goal_names)}
        goals = list(rules.named("goal").values())
        self.goal_counts = [tuple(sorted(g.counts, reverse=True)) for g in goals]
        self.goal_match: str = rules.one("goal_rules").match
        # Cats.
        cats = list(rules.named("cat").values())
        self.cat_names: list[str] = [c.name for c in cats]
        self.cat_index = {name: i for i, name in enumerate(self.cat_names)}
        self.cat_dots = [c.dots for c in cats]
        self.cat_points = [c.points for c in cats]
        self.cat_group: list[int | None] = [c.group for c in cats]
        self.cat_forms: list[tuple | None] = [
            hexes.shape_forms(c.shape) if c.shape is not None else None for c in cats
        ]
        self.cat_shape_size = [len(c.shape) if c.shape is not None else 0 for c in cats]
        cat_rules = rules.one("cat_rules")
        self.patterns_per_cat = cat_rules.patterns_per_cat
        self.shape_exact = cat_rules.shape_match == "exact"
        self.patterns_may_touch = cat_rules.patterns_may_touch
        # Buttons: one per colour (named after it) and rainbow-type buttons.
        buttons = rules.named("button")
        self.button_names: list[str] = list(buttons)
        button_index = {name: i for i, name in enumerate(self.button_names)}
        self.colour_button = [button_index[c] for c in self.colours]
        self.colour_threshold = [buttons[c].group for c in self.colours]
        self.button_points = [b.points for b in buttons.values()]
        self.rainbow_buttons = [
            (i, b.each_colour, b.limit)
            for i, b in enumerate(buttons.values())
            if b.each_colour is not None
        ]
        # Setup and market.
        setup = rules.one("setup")
        self.random_boards = setup.boards == "random"
        self.hand_size = dict(setup.hand)
        self.cat_draw = list(setup.cat_dots)
        self.fixed_cats = [self.cat_index[c] for c in setup.cats] if setup.cats else None
        self.fixed_goals = [self.goal_index[g] for g in setup.goals] if setup.goals else None
        self.reveal = setup.reveal
        self.goals_chosen = setup.goal_placement == "choose"
        self.goals_face_down = setup.goals_face_down
        market = rules.one("market")
        self.market_size = dict(market.size)
        self.discard = market.discard_after_take
        self.discard_nearest = market.discard_from == "nearest"
        self.scenario: Record | None = rules.one("scenario") if rules.has("scenario") else None
        self.steps: dict[str, Step] = {"deal": self.deal}
        #: The rule coverage's items (items.py reads the tables above).
        self.coverage = CalicoItems(self)

    # ---- helpers ------------------------------------------------------------------------------
    def _draw(self, game: GameContext) -> int | None:
        """One patch from the bag, or None when the bag is empty."""
        return game.rng.draw(game.state["g"]["bag"])

    def _refill_market(self, game: GameContext) -> list[int]:
        g = game.state["g"]
        size = self.market_size[game.players]
        drawn = []
        while len(g["market"]) < size:
            patch = self._draw(game)
            if patch is None:
                break
            g["market"].append(patch)
            drawn.append(patch)
        return drawn

    def quilt_full(self, g: dict, player: int) -> bool:
        return EMPTY not in g["quilts"][player]

    def pattern_group(self, quilt: list[int], cell: int) -> list[int]:
        """The hexes edge-connected to `cell` through patches of its pattern (K-5.1)."""
        pattern = self.pattern_of[quilt[cell]]
        pattern_of = self.pattern_of
        return hexes.flood(
            cell, self.neighbours, lambda c: quilt[c] >= 0 and pattern_of[quilt[c]] == pattern
        )

    def colour_group(self, quilt: list[int], cell: int) -> list[int]:
        """The hexes edge-connected to `cell` through patches of its colour (K-6.1)."""
        colour = self.colour_of[quilt[cell]]
        colour_of = self.colour_of
        return hexes.flood(
            cell, self.neighbours, lambda c: quilt[c] >= 0 and colour_of[quilt[c]] == colour
        )

    # ---- setup (K-2) --------------------------------------------------------------------------
    def initial_state(self, game: GameContext) -> dict[str, Any]:
        """The empty table; refuses a player count the bag is not made up for (K-8.2), which
        only a game's creation knows."""
        n = game.players
        if n not in self.player_counts:
            counts = self.player_counts
            raise ValueError(
                f"{self.rules.game.title} with {self.bag_source} is for {counts.start} to "
                f"{counts.stop - 1} players, not {n}"
            )
        return {
            "bag": [self.copies] * self.npatches,
            "removed": [0] * self.npatches,
            "market": [],
            "cats": [],
            "pattern_cat": [-1] * self.npatterns,
            "boards": [-1] * n,
            "quilts": [[] for _ in range(n)],
            "hands": [[] for _ in range(n)],
            "revealed": [[] for _ in range(n)],
            "goals": [[] for _ in range(n)],
            "tokens": [[-1] * self.ncells for _ in range(n)],
            "buttons": [[-1] * self.ncells for _ in range(n)],
            "rainbows": [[] for _ in range(n)],
        }

    def deal(self, game: GameContext) -> None:
        """K-2: boards, cats and their patterns, design goals, the bag, hands and market."""
        g = game.state["g"]
        rng = game.rng
        n = game.players
        # Boards (K-1.2).
        order = list(range(len(self.boards)))
        if self.random_boards:
            rng.shuffle(order)
        for seat in range(n):
            g["boards"][seat] = order[seat]
            g["quilts"][seat] = list(self.board_quilts[order[seat]])
        # Cats: named, or one drawn from each dot group (K-2.1, K-2.2).
        if self.fixed_cats is not None:
            cats = list(self.fixed_cats)
        else:
            cats = []
            for dots in self.cat_draw:
                pool = [i for i, d in enumerate(self.cat_dots) if d == dots and i not in cats]
                cats.append(rng.choice(pool))
        g["cats"] = cats
        # Pattern tiles: shuffled, `patterns_per_cat` on each cat (K-2.3).
        tiles = list(range(self.npatterns))
        rng.shuffle(tiles)
        for slot, pattern in enumerate(tiles):
            g["pattern_cat"][pattern] = cats[slot // self.patterns_per_cat]
        # Design goals (K-2.1, K-2.2, K-8.4).
        spaces = len(self.goal_cells)
        for seat in range(n):
            if self.fixed_goals is not None:
                offered = list(self.fixed_goals)
            else:
                offered = list(range(len(self.goal_names)))
                rng.shuffle(offered)
                offered = offered[: self.reveal]
            g["revealed"][seat] = offered
            if not self.goals_chosen:
                g["goals"][seat] = offered[:spaces]
        # Low-luck (K-8.2): whole sets stay in the box.
        sets = self.remove_sets[n]
        if sets:
            for patch in range(self.npatches):
                g["bag"][patch] -= sets
                g["removed"][patch] += sets
        # Hands, then the market (K-2.4).
        for seat in range(n):
            for _ in range(self.hand_size[n]):
                drawn = self._draw(game)
                if drawn is not None:
                    g["hands"][seat].append(drawn)
        self._refill_market(game)
        if game.observed:
            game.emit({"type": "deal", "view": self.view(game)})

    # ---- actions: parsing ---------------------------------------------------------------------
    def parse(self, kind: str, text: str) -> Action:
        text = text.strip()
        if kind == "place":
            patch, (col, row) = notation.parse_place(
                text, self.colour_index, self.pattern_index, self.npatterns
            )
            return self._place_action(patch, col, row)
        if kind == "take":
            patch, slot = notation.parse_take(
                text, self.colour_index, self.pattern_index, self.npatterns
            )
            return self._take_action(patch, slot)
        if kind == "goals":
            return self._goals_action(notation.parse_goals(text, self.goal_index))
        raise ActionSyntaxError(f"unknown action '{kind}'")

    def _place_action(self, patch: int, col: int, row: int) -> Action:
        return Action(
            "place",
            (patch, col, row),
            f"place {self.patch_names[patch]} {notation.format_cell(col, row)}",
        )

    def _take_action(self, patch: int, slot: int | None) -> Action:
        return Action("take", (patch, slot), notation.format_take(self.patch_names[patch], slot))

    def _goals_action(self, goals: tuple[int, ...]) -> Action:
        return Action("goals", goals, notation.format_goals([self.goal_names[i] for i in goals]))

    # The listings' actions, made once per arguments (only arguments the rules allow reach
    # these, so the memos stay as small as the market and the goal tiles; parsed text makes
    # its own actions).
    def _listed_take(self, patch: int, slot: int | None) -> Action:
        action = self._takes.get((patch, slot))
        if action is None:
            action = self._takes[patch, slot] = self._take_action(patch, slot)
        return action

    def _listed_goals(self, goals: tuple[int, ...]) -> Action:
        action = self._goal_choices.get(goals)
        if action is None:
            action = self._goal_choices[goals] = self._goals_action(goals)
        return action

    # ---- actions: options ---------------------------------------------------------------------
    def options(self, game: GameContext, player: int, kind: str, spec: Record) -> list[Action]:
        g = game.state["g"]
        if kind == "place":
            return self._place_options(g, player)
        if kind == "take":
            return self._take_options(g, player, spec)
        if kind == "goals":
            return self._goal_options(g, player)
        return []

    def count_options(self, game: GameContext, player: int, kind: str, spec: Record) -> int:
        """`len(options)`; placements by arithmetic (distinct patches in hand times empty cells),
        the short lists by listing them."""
        if kind == "place":
            g = game.state["g"]
            hand = g["hands"][player]
            return len(set(hand)) * g["quilts"][player].count(EMPTY)
        return len(self.options(game, player, kind, spec))

    def nth_option(
        self, game: GameContext, player: int, kind: str, spec: Record, index: int
    ) -> Action:
        """`options(...)[index]`; a placement made alone: patches in hand order, first copy
        of each, then empty cells in order."""
        if kind != "place":
            return self.options(game, player, kind, spec)[index]
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
            name = self.patch_names[patch]
            row = self._placements[patch] = [
                Action("place", (patch, col, r), f"place {name} {text}")
                for (col, r), text in zip(self.cell_xy, self.cell_text, strict=True)
            ]
        return row

    def _place_options(self, g: dict, player: int) -> list[Action]:
        quilt = g["quilts"][player]
        empty = [i for i, v in enumerate(quilt) if v == EMPTY]
        out: list[Action] = []
        for patch in dict.fromkeys(g["hands"][player]):
            out += map(self._placement_row(patch).__getitem__, empty)
        return out

    def _take_options(self, g: dict, player: int, spec: Record) -> list[Action]:
        if not spec.take_when_full and self.quilt_full(g, player):
            return []  # K-3.4 [default]: no market step on the turn that fills the quilt
        market = g["market"]
        out = []
        seen = set()
        for slot, patch in enumerate(market):
            if self.discard and market.count(patch) > 1:
                # Which copy is taken decides which patch is discarded (K-8.3).
                out.append(self._listed_take(patch, slot))
            elif patch not in seen:
                out.append(self._listed_take(patch, None))
            seen.add(patch)
        return out

    def _goal_options(self, g: dict, player: int) -> list[Action]:
        if not self.goals_chosen or g["goals"][player]:
            return []
        spaces = len(self.goal_cells)
        return [self._listed_goals(p) for p in permutations(g["revealed"][player], spaces)]

    # ---- actions: checking --------------------------------------------------------------------
    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        g = game.state["g"]
        if action.kind == "place":
            return self._check_place(g, player, *action.args)
        if action.kind == "take":
            return self._check_take(g, player, action.args[0], action.args[1], spec)
        if action.kind == "goals":
            return self._check_goals(g, player, action.args)
        return Rejection("unknown-action", f"'{action.kind}' is not a Calico action")

    def _check_place(
        self, g: dict, player: int, patch: int, col: int, row: int
    ) -> Rejection | None:
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            return Rejection(
                "off-quilt",
                f"{col},{row} is not on the quilt (columns 0-{self.columns - 1}, "
                f"rows 0-{self.rows - 1})",
            )
        cell = row * self.columns + col
        value = g["quilts"][player][cell]
        if value == GOAL_SPACE:
            return Rejection("goal-space", f"{col},{row} holds a design goal")
        if value != EMPTY:
            what = "an edge patch" if cell in self.edge_cells else "a patch"
            return Rejection(
                "occupied", f"{col},{row} already holds {what} ({self.patch_names[value]})"
            )
        hand = g["hands"][player]
        if patch not in hand:
            shown = ", ".join(self.patch_names[p] for p in hand) or "nothing"
            return Rejection(
                "not-in-hand",
                f"you have no {self.patch_names[patch]} in hand (your hand: {shown})",
            )
        return None

    def _check_take(
        self, g: dict, player: int, patch: int, slot: int | None, spec: Record
    ) -> Rejection | None:
        if not spec.take_when_full and self.quilt_full(g, player):
            return Rejection(
                "quilt-full", "your quilt is full: there is no market step on your last turn"
            )
        market = g["market"]
        shown = ", ".join(f"{i + 1}: {self.patch_names[p]}" for i, p in enumerate(market))
        if slot is not None:
            if slot >= len(market):
                return Rejection(
                    "no-such-slot",
                    f"the market has {len(market)} slot(s) (market: {shown or 'empty'})",
                )
            if market[slot] != patch:
                return Rejection(
                    "wrong-slot",
                    f"slot {slot + 1} holds {self.patch_names[market[slot]]}, not "
                    f"{self.patch_names[patch]} (market: {shown})",
                )
            return None
        if patch not in market:
            return Rejection(
                "not-in-market",
                f"the market has no {self.patch_names[patch]} (market: {shown or 'empty'})",
            )
        return None

    def _check_goals(self, g: dict, player: int, goals: tuple[int, ...]) -> Rejection | None:
        if not self.goals_chosen:
            return Rejection("goals-fixed", "in this setup your design goals are placed for you")
        if g["goals"][player]:
            return Rejection("goals-placed", "your design goals are already placed")
        spaces = len(self.goal_cells)
        if len(goals) != spaces:
            return Rejection(
                "wrong-count",
                f"name {spaces} design goals, one for each goal space in order "
                f"({', '.join(self.cell_text[c] for c in self.goal_cells)})",
            )
        if len(set(goals)) != len(goals):
            return Rejection("duplicate-goal", "each design goal tile can be placed only once")
        offered = g["revealed"][player]
        for goal in goals:
            if goal not in offered:
                shown = ", ".join(self.goal_names[i] for i in offered)
                return Rejection(
                    "not-revealed",
                    f"{self.goal_names[goal]} is not one of your design goals ({shown})",
                )
        return None

    # ---- actions: applying --------------------------------------------------------------------
    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        g = game.state["g"]
        if action.kind == "place":
            patch, col, row = action.args
            self._place(game, g, player, patch, row * self.columns + col)
        elif action.kind == "take":
            self._take(game, g, player, action.args[0], action.args[1])
        elif action.kind == "goals":
            g["goals"][player] = list(action.args)
        return None

    def _place(self, game: GameContext, g: dict, player: int, patch: int, cell: int) -> None:
        """K-3.2: place the patch, then take the cat token and buttons it earns."""
        g["hands"][player].remove(patch)
        quilt = g["quilts"][player]
        quilt[cell] = patch
        cat = self._attracted_cat(g, player, quilt, cell)
        if cat is not None:
            g["tokens"][player][cell] = cat
            if game.observed:
                game.emit({"type": "cat", "player": player, "cat": self.cat_names[cat],
                           "at": self.cell_text[cell]})  # fmt: skip
        if self._earns_button(g, player, quilt, cell):
            colour = self.colour_of[patch]
            g["buttons"][player][cell] = colour
            if game.observed:
                game.emit({"type": "button", "player": player, "colour": self.colours[colour],
                           "at": self.cell_text[cell]})  # fmt: skip
            for rainbow in self._new_rainbows(g, player):
                if game.observed:
                    game.emit({"type": "button", "player": player,
                               "button": self.button_names[rainbow]})  # fmt: skip

    def _attracted_cat(self, g: dict, player: int, quilt: list[int], cell: int) -> int | None:
        """The cat the group of the new patch attracts now, if any (K-5.1, K-5.3, K-5.4)."""
        pattern = self.pattern_of[quilt[cell]]
        cat = g["pattern_cat"][pattern]
        group = self.pattern_group(quilt, cell)
        tokens = g["tokens"][player]
        if any(tokens[c] >= 0 for c in group):
            return None  # this group already attracted its cat: growing earns nothing
        if not self.cat_condition(cat, group):
            return None
        if not self.patterns_may_touch and self._touches_attracted(g, player, quilt, group, cat):
            return None
        return cat

    def cat_condition(self, cat: int, group: list[int]) -> bool:
        """Whether a group (hex numbers) meets the cat's condition (K-5.2, K-5.3)."""
        need = self.cat_group[cat]
        if need is not None:
            return len(group) >= need
        forms = self.cat_forms[cat]
        assert forms is not None
        axial = [self.axial[c] for c in group]
        if self.shape_exact:
            return len(group) == self.cat_shape_size[cat] and hexes.matches_exactly(axial, forms)
        return hexes.contains_shape(axial, forms)

    def _touches_attracted(
        self, g: dict, player: int, quilt: list[int], group: list[int], cat: int
    ) -> bool:
        """The literal K-5.4 reading: the group touches a group of the cat's other pattern
        that already attracted this cat."""
        pattern = self.pattern_of[quilt[group[0]]]
        others = {p for p, c in enumerate(g["pattern_cat"]) if c == cat and p != pattern}
        tokens = g["tokens"][player]
        seen: set[int] = set(group)
        for cell in group:
            for nb in self.neighbours[cell]:
                value = quilt[nb]
                if nb in seen or value < 0 or self.pattern_of[value] not in others:
                    continue
                other = self.pattern_group(quilt, nb)
                seen.update(other)
                if any(tokens[c] == cat for c in other):
                    return True
        return False

    def _earns_button(self, g: dict, player: int, quilt: list[int], cell: int) -> bool:
        """K-6.1: the colour group of the new patch reaches its size with no button in it."""
        group = self.colour_group(quilt, cell)
        buttons = g["buttons"][player]
        if any(buttons[c] >= 0 for c in group):
            return False  # grown, or joined to a group with a button: nothing new
        return len(group) >= self.colour_threshold[self.colour_of[quilt[cell]]]

    def _new_rainbows(self, g: dict, player: int) -> list[int]:
        """K-6.2: rainbow-type buttons now due (one per full round of every colour's buttons,
        up to the button's limit)."""
        counts = [0] * self.ncolours
        for colour in g["buttons"][player]:
            if colour >= 0:
                counts[colour] += 1
        held = g["rainbows"][player]
        new = []
        for index, each, limit in self.rainbow_buttons:
            due = min(counts) // each
            if limit is not None:
                due = min(due, limit)
            for _ in range(due - held.count(index)):
                held.append(index)
                new.append(index)
        return new

    def _take(self, game: GameContext, g: dict, player: int, patch: int, slot: int | None) -> None:
        """K-3.3: take a market patch, then refill; K-8.3: first discard from the end the
        rule file's `discard_from` names."""
        market = g["market"]
        if slot is None:
            slot = market.index(patch)
        market.pop(slot)
        g["hands"][player].append(patch)
        discarded = []
        for _ in range(self.discard):
            if market:
                out = market.pop(-1 if self.discard_nearest else 0)
                g["removed"][out] += 1
                discarded.append(out)
        drawn = self._refill_market(game)
        if game.observed:
            game.emit(
                {
                    "type": "market",
                    "player": player,
                    "taken": self.patch_names[patch],
                    "discarded": [self.patch_names[p] for p in discarded],
                    "drawn": [self.patch_names[p] for p in drawn],
                    "bag": sum(g["bag"]),
                }
            )

    # ---- scoring ------------------------------------------------------------------------------
    def goal_results(self, g: dict, player: int) -> list[int]:
        """For each goal space: 0 unmet, 1 met by colour or by pattern, 2 both (K-4.1)."""
        if not g["goals"][player]:
            return []
        quilt = g["quilts"][player]
        out = []
        for cell, goal in zip(self.goal_cells, g["goals"][player], strict=True):
            values = [quilt[nb] for nb in self.neighbours[cell]]
            if any(v < 0 for v in values):
                out.append(0)
                continue
            want = self.goal_counts[goal]
            by_colour = _profile([self.colour_of[v] for v in values])
            by_pattern = _profile([self.pattern_of[v] for v in values])
            match = self.goal_match
            out.append(goals.meets(by_colour, want, match) + goals.meets(by_pattern, want, match))
        return out

    def facts(self, game: GameContext, player: int) -> dict[str, Any]:
        g = game.state["g"]
        one_way: list[str] = []
        both_ways: list[str] = []
        if not self.goals_face_down:  # K-8.1: face-down goals score nothing
            for goal, result in zip(g["goals"][player], self.goal_results(g, player), strict=True):
                if result == 1:
                    one_way.append(self.goal_names[goal])
                elif result == 2:
                    both_ways.append(self.goal_names[goal])
        buttons = [self.button_names[self.colour_button[c]] for c in g["buttons"][player] if c >= 0]
        buttons.extend(self.button_names[i] for i in g["rainbows"][player])
        return {
            "goals_one_way": one_way,
            "goals_both_ways": both_ways,
            "cat_tokens": [self.cat_names[c] for c in g["tokens"][player] if c >= 0],
            "buttons": buttons,
        }

    def report(self, game: GameContext) -> dict[str, Any]:
        """A scenario game's objectives, met or not, per player (K-8.4, K-8.5)."""
        if self.scenario is None:
            return {}
        from .scenarios import scenario_report

        return {"scenario": scenario_report(self, game, self.scenario)}

    def outcome(self, report: dict[str, Any]) -> list[str]:
        """A scenario's verdict in words, per player (K-8.4)."""
        from .scenarios import outcome_lines
        from .views import OBJECTIVE_WORDS

        return outcome_lines(report, OBJECTIVE_WORDS)

    def heuristic(self, game: GameContext, player: int) -> float:
        """The score now, plus half the value of buttons and group cats that buttonless,
        tokenless groups are growing towards: a one-move-ahead bot builds towards them."""
        from .views import progress

        return float(game.score_of(player)) + progress(self, game.state["g"], player)

    def hints(self, game: PlayableGame, player: int) -> list[str]:
        """The best few placements and takes for the player to move, each with what it earns
        now and why the take helps next turn (see `hints`)."""
        from .hints import hint_lines

        return hint_lines(self, game, player)

    # ---- views --------------------------------------------------------------------------------
    def legend(self) -> dict[str, Any]:
        """The design goals (K-4): title, the counts of alike patches among the six
        neighbours, the points one way and both ways; the colours and patterns in order."""
        goals = {
            name: {
                "title": goal.title,
                "counts": list(goal.counts),
                "one_way": goal.one_way,
                "both_ways": goal.both_ways,
            }
            for name, goal in self.rules.named("goal").items()
        }
        return {"goals": goals, "colours": list(self.colours), "patterns": list(self.patterns)}

    def notation(self) -> list[str]:
        return [
            "goals all_different aa_bb_cc aaa_bbb   (your goals for the spaces, in order)",
            "place pink/vines 2,2                   (a hand patch, then column,row)",
            "take yellow/dots                       (a market patch)",
        ]

    def view(self, game: GameContext) -> dict[str, Any]:
        from .views import public_view

        return public_view(self, game)

    def tracked_view(self, game: GameContext, memo: dict[Any, Any]) -> dict[str, Any]:
        from .encoding import tracked_view  # the RL observations' view (encoding.py)

        return tracked_view(self, game, memo)

    def render(self, game: GameContext, viewer: int | None) -> list[Any]:
        from .views import render

        return render(self, game, viewer)


def _bag_source(rules: RuleSet) -> str:
    """Who narrowed the player counts, for the refusal: the variant whose file gave the bag
    its `players`, or that file."""
    bag = rules.one("bag")
    path = bag.spans.get("players", bag.span).path
    stem = Path(path).stem
    return f"variant '{stem}'" if stem in rules.variants else f"the bag of {path}"


def _profile(kinds: list[int]) -> tuple[int, ...]:
    """How many of each kind, largest first: [3, 3, 1, 1, 1, 1] -> (4, 2)."""
    counts: dict[int, int] = {}
    for k in kinds:
        counts[k] = counts.get(k, 0) + 1
    return tuple(sorted(counts.values(), reverse=True))
