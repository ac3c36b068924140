"""Calico's rule set precompiled into index tables, once per rule set (K-1 … K-8).

`CalicoTables` holds every number and name the mechanics reads, as lists indexed by patch,
hex, cat, goal and button, and the questions about a quilt that the actions, the views, the
hints and the scoring all ask (which hexes form a group, whether a group meets a cat's
condition, which goals are met). It imports nothing else of the game but its notation and
geometry, so `logic.py`, `actions.py`, `views.py` and `hints.py` all build on it and none of
them needs another: the package's imports form no circle.

See `logic.py` for the state layout (`state["g"]`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from castell_dsl.contract import GameContext, Record, RuleSet

from . import goals, hexes, notation
from .checks import bag_player_counts

#: A hex with no patch yet.
EMPTY = -1
#: A hex that holds a design goal.
GOAL_SPACE = -2


class Placing(Protocol):
    """The placing handler (`actions.Place`), as the hints try it on copies of a game."""

    def place(self, game: GameContext, g: dict, player: int, patch: int, cell: int) -> None: ...


class CalicoTables:
    """A Calico rule set's index tables and the quilt questions asked of them."""

    # What the logic built on these tables (`CalicoLogic`) adds and the views, hints and
    # scenarios read of it, declared here so that those modules need not import the logic,
    # not even for its type: the package's imports form no circle.
    placing: Placing
    facts: Callable[[GameContext, int], dict[str, Any]]
    report: Callable[[GameContext], dict[str, Any]]
    heuristic: Callable[[GameContext, int], float]

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

    # ---- the bag and the quilt -----------------------------------------------------------------
    def draw_patch(self, game: GameContext) -> int | None:
        """One patch from the bag, or None when the bag is empty."""
        return game.rng.draw(game.state["g"]["bag"])

    def refill_market(self, game: GameContext) -> list[int]:
        g = game.state["g"]
        size = self.market_size[game.players]
        drawn = []
        while len(g["market"]) < size:
            patch = self.draw_patch(game)
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
