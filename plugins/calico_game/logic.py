"""Calico's game logic: what its step and actions mean (K-2 … K-8).

The engine runs the flow (the start step, the goal-choosing turns, 22 rounds of one turn per
player with `place` then `take`); `CalicoLogic` says what `deal` does (K-2) and which facts the
rule file's scoring reads, and declares one handler per action kind (`actions.py`: which
placements, takes and goal arrangements are possible, why one is refused, what each does —
including the cats and buttons a placement earns at that moment, K-5.4, K-6.1). Every number
and name comes from the rule set, precompiled into index tables once per rule set
(`tables.py`); the public view and board are `views.py`, the hints `hints.py`. The imports
point one way: tables ← actions, views, hints ← logic ← mechanics.

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

from typing import Any

from castell_dsl.contract import (
    GameContext,
    GameLogic,
    ItemsFromTable,
    PlayableGame,
    RuleSet,
    Step,
    handler_table,
)

from .actions import Goals, Place, Take
from .hints import hint_lines
from .items import CalicoItems
from .scenarios import outcome_lines, scenario_report
from .tables import CalicoTables
from .views import OBJECTIVE_WORDS, progress, public_view, render


class CalicoLogic(CalicoTables, ItemsFromTable, GameLogic):
    """A Calico rule set's tables (`CalicoTables`) and its action handlers; the state lives
    in the game."""

    def __init__(self, rules: RuleSet):
        super().__init__(rules)
        #: The placing handler, whose effects the hints try on copies of a game.
        self.placing = Place(self)
        #: The handler of each action kind; the contract's `GameLogic` routes the engine's
        #: questions (parse, options, check, apply, …) to them.
        self.handlers = handler_table(self.placing, Take(self), Goals(self))
        self.steps: dict[str, Step] = {"deal": self.deal}
        #: The rule coverage's items (items.py reads the tables).
        self.coverage = CalicoItems(self)

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
                drawn = self.draw_patch(game)
                if drawn is not None:
                    g["hands"][seat].append(drawn)
        self.refill_market(game)
        if game.observed:
            game.emit({"type": "deal", "view": self.view(game)})

    # ---- scoring ------------------------------------------------------------------------------
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
        return {"scenario": scenario_report(self, game, self.scenario)}

    def outcome(self, report: dict[str, Any]) -> list[str]:
        """A scenario's verdict in words, per player (K-8.4)."""
        return outcome_lines(report, OBJECTIVE_WORDS)

    def heuristic(self, game: GameContext, player: int) -> float:
        """The score now, plus half the value of buttons and group cats that buttonless,
        tokenless groups are growing towards: a one-move-ahead bot builds towards them."""
        return float(game.score_of(player)) + progress(self, game.state["g"], player)

    def hints(self, game: PlayableGame, player: int) -> list[str]:
        """The best few placements and takes for the player to move, each with what it earns
        now and why the take helps next turn (see `hints`)."""
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
        return public_view(self, game)

    def tracked_parts(self, game: GameContext, memo: dict[Any, Any]) -> list[Any]:
        from .encoding import tracked_parts  # the RL observations' view (encoding.py)

        return tracked_parts(self, game, memo)

    def render(self, game: GameContext, viewer: int | None) -> list[Any]:
        return render(self, game, viewer)
