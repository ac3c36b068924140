"""Castell's game logic: the engine's entry points into the Castell mechanics (C-3 … C-10).

The engine runs the flow (rounds, steps, turns, limits, the free special action gained from
training); `CastellLogic` is the rule set's index tables (`tables.py`, built once per rule set)
plus its action handlers, one per kind (`actions.py`, `special.py`), declared in `handlers`:
the contract's `GameLogic` routes `parse`, `options`, `check` and `apply` to them. The
automatic steps are in `steps.py`, the tower questions in `questions.py`, the facts and the
public view in `views.py`, the bots' evaluation in `heuristic.py`. The state (`state["g"]`)
is a few flat lists of integers so that copying it for search is cheap.

State layout (indices: regions, casteller sizes and skills in rule-file order):
    bag[size]                     castellers in the bag
    regions[region][size]         castellers on the board
    teams[player][size]           each player's team
    pawns[player]                 region index, or -1 before the first move
    ranks[player][skill]          skill ranks
    tokens[player]                special action tokens in hand
    lp_tokens[region]             special tokens lying on the local performance area
    collected[player][region]     tokens collected by performing there
    wheel[slot]                   board skill tile (index into the wheel's tiles) in each slot
    wheel_turns                   how far the wheel has turned
    lp[region]                    local performance tiles (indices) still in that row
    performed[player]             [tile, region] pairs taken
    calendar                      [round, festival, [size numbers]] per space in use
    towers[player]                current tower (levels bottom first) or None
    best[player]                  best tower score
    prizes[player]                prize indices won
    size_tokens[player]           [number, region] pairs won
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from castell_dsl.contract import GameLogic, ItemsFromTable, handler_table
from castell_dsl.language.ruleset import RuleSet

from . import solver, steps, towers, views
from .actions import Move, Recruit, Tower, Train
from .heuristic import evaluate, evaluate_all
from .items import CastellItems
from .questions import TowerQuestions
from .special import Special
from .tables import Tables

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext, PlayableGame


class CastellLogic(Tables, ItemsFromTable, GameLogic):
    """A rule set's tables, its tower questions and its action handlers."""

    #: The calendar is dealt at the start and never changes (C-3): copies share it.
    shared_state = ("calendar",)
    #: The rest of the state a search's copies share until they change it (every change in
    #: place takes its value through `game.own`): a turn changes two or three of them.
    copy_on_write = ("bag", "regions", "teams", "pawns", "ranks", "tokens", "lp_tokens",
                     "collected", "wheel", "lp", "performed", "towers", "best", "prizes",
                     "size_tokens")  # fmt: skip

    def __init__(self, rules: RuleSet):
        super().__init__(rules)
        self.questions = TowerQuestions(self)
        tower = Tower(self, self.questions)
        #: The training handler, which the board's drawing asks what may be trained.
        self.train = Train(self)
        #: The handler of each action kind the rule file's turn may offer; the contract's
        #: `GameLogic` routes the engine's questions (parse, options, check, …) to them.
        self.handlers = handler_table(
            Move(self), Recruit(self), self.train, Special(self, self.questions, tower), tower
        )
        self.coverage = CastellItems(self)
        self.steps = {
            "deal": partial(steps.deal, self),
            "refill": self.refill,
            "turn_wheel": partial(steps.turn_wheel, self),
            "festivals": partial(steps.festivals, self),
        }

    # ---- setup and steps ----------------------------------------------------------------------
    def initial_state(self, game: GameContext) -> dict[str, Any]:
        n = game.players
        nsizes, nregions = len(self.sizes), len(self.regions)
        return {
            "bag": list(self.bag),
            "regions": [[0] * nsizes for _ in range(nregions)],
            "teams": [[0] * nsizes for _ in range(n)],
            "pawns": [-1] * n,
            "ranks": [[0] * len(self.skills) for _ in range(n)],
            "tokens": [self.start_tokens] * n,
            "lp_tokens": [0] * nregions,
            "collected": [[0] * nregions for _ in range(n)],
            "wheel": list(range(len(self.wheel_tiles))),
            "wheel_turns": self.start_position,
            "lp": [[] for _ in range(nregions)],
            "performed": [[] for _ in range(n)],
            "calendar": [],
            "towers": [None] * n,
            "best": [0] * n,
            "prizes": [[] for _ in range(n)],
            "size_tokens": [[] for _ in range(n)],
        }

    def refill(self, game: GameContext) -> None:
        """C-7.1 (`steps.refill`), also run directly on hand-built states."""
        steps.refill(self, game)

    def run_festival(
        self, game: GameContext, space: int, festival: int, numbers: list[int]
    ) -> None:
        """One festival (`steps.run_festival`), also run directly on hand-built states."""
        steps.run_festival(self, game, space, festival, numbers)

    # ---- tower questions (the library API and `castell tower`) -------------------------------
    def check_tower_dict(self, levels, ranks, needs=None, shape=None) -> dict[str, Any]:
        return towers.check_tower_dict(levels, ranks, self.tower_rules, needs, shape)

    def tile_shortfall(self, levels, ranks, tile) -> str | None:
        """Why `levels` does not complete `tile` under these ranks (None: it does; C-8)."""
        result = towers.check(levels, ranks, self.tower_rules)
        if not result.legal:
            return result.reason
        return towers.tile_shortfall(levels, result, tile, self.exhibition_levels, self.titles)

    def best_tower_dict(self, team, ranks, sizes=(), min_levels=1, shape=None, needs=None):
        return solver.best_tower_dict(
            team, ranks, self.tower_rules, tuple(sizes), min_levels, shape, needs
        )

    # ---- bots, front-ends, scoring ------------------------------------------------------------
    def heuristic(self, game: GameContext, player: int) -> float:
        return evaluate(self, game, player)

    def heuristics(self, game: GameContext) -> list[float]:
        return evaluate_all(self, game)

    def notation(self) -> list[str]:
        return [
            "move Girona            recruit 3 7            train balance",
            "special recruit 4      special move Lleida    tower 6,6,6/5,5/4/3",
            "special perform LP07 tower 8,8,8,8/7,7,7/6,6/5/4      end",
        ]

    def legend(self) -> dict[str, Any]:
        """The local performance tiles (C-8): a shape's castellers per level, bottom first, or
        an exhibition's skills (by title); the points; a sentence for a tooltip."""
        tiles = {}
        for tile in self.tiles:
            if tile.shape is not None:
                widths = ", ".join(map(str, tile.shape))
                text = (
                    f"{tile.name}: a tower of {len(tile.shape)} levels of {widths} castellers "
                    f"(bottom first), {tile.points} points"
                )
                skills = None
            else:
                skills = [self.titles[s] for s in tile.exhibition]
                text = (
                    f"{tile.name}: an exhibition using {' and '.join(skills)}, a tower of "
                    f"{tile.points} levels, {tile.points} points"
                )
            tiles[tile.name] = {
                "shape": list(tile.shape) if tile.shape is not None else None,
                "exhibition": skills,
                "points": tile.points,
                "text": text,
            }
        return {"tiles": tiles, "skills": dict(self.titles)}

    def hints(self, game: PlayableGame, player: int) -> list[str]:
        from .render import hints

        return hints(self, game, player)

    def narrate(self, game: GameContext, event: dict[str, Any]) -> list[Any]:
        from .render import narrate

        return narrate(event)

    def render(self, game: GameContext, viewer: int | None) -> list[Any]:
        from .render import render

        return render(self, game, viewer)

    def facts(self, game: GameContext, player: int) -> dict[str, Any]:
        return views.facts(self, game, player)

    def view(self, game: GameContext) -> dict[str, Any]:
        return views.view(self, game)

    def tracked_parts(self, game: GameContext, memo: dict[Any, Any]) -> list[Any]:
        from .encoding import tracked_parts  # the RL observations' view (encoding.py)

        return tracked_parts(self, game, memo)
