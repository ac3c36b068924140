"""The special action (C-4.7, C-4.8): spend a token to recruit, move or perform a local
performance, then place the token in the pawn's region. A special action granted by training
(C-4.6) spends no token and places none.

`Special` is the handler of the `special` kind; its three options are handlers of their own,
so that each option's writing, choices, checks and effect stay together: the recruit and move
options are `Recruit` and `Move` made for the special action, `Perform` is the local
performance (C-8).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from castell_dsl.contract import Action, ActionSyntaxError, Rejection
from castell_dsl.language.ruleset import Record

from . import towers
from .actions import NO_PAWN, Handler, Move, Recruit, Tower
from .notation import format_levels, parse_levels
from .questions import TowerQuestions
from .tables import Tables

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext


class Perform(Handler):
    """C-8.3, C-8.4: build a tower that completes a tile of the pawn's region's row, take the
    tile and the special tokens lying there."""

    kind = "special"

    def __init__(self, tables: Tables, questions: TowerQuestions, tower: Tower):
        super().__init__(tables)
        self.questions = questions
        self.tower = tower

    def action(self, tile: int, levels: tuple) -> Action:
        return Action(
            "special",
            ("perform", tile, levels),
            f"special perform {self.t.tile_names[tile]} tower {format_levels(levels)}",
        )

    def parse(self, text: str) -> Action:
        parts = text.split(None, 2)
        if len(parts) != 3 or parts[1].lower() != "tower":
            raise ActionSyntaxError(
                "write `special perform TILE tower LEVELS`, e.g. "
                "`special perform LP07 tower 8,8,8,8/7,7,7/6,6/5/4`"
            )
        tile = self.t.tile_index.get(parts[0].lower())
        if tile is None:
            raise ActionSyntaxError(f"there is no local performance tile '{parts[0]}'")
        return self.action(tile, parse_levels(parts[2]))

    def options(self, game: GameContext, player: int, spec: Record) -> list[Action]:
        g = game.state["g"]
        pawn = g["pawns"][player]
        if pawn < 0:
            return []
        out = []
        for tile in g["lp"][pawn]:
            levels = self.questions.completing_tower(g, player, tile)
            if levels is not None:
                out.append(self.action(tile, levels))
        return out

    def candidates(self, game: GameContext, player: int, spec: Record) -> int:
        """One candidate per tile in the pawn's region's row; `candidate` searches for its
        completing tower only when it is drawn."""
        g = game.state["g"]
        pawn = g["pawns"][player]
        return 0 if pawn < 0 else len(g["lp"][pawn])

    def candidate(self, game: GameContext, player: int, spec: Record, index: int) -> Action | None:
        g = game.state["g"]
        tile = g["lp"][g["pawns"][player]][index]
        levels = self.questions.completing_tower(g, player, tile)
        return None if levels is None else self.action(tile, levels)

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        t = self.t
        g = game.state["g"]
        tile, levels = action.args[1], action.args[2]
        pawn = g["pawns"][player]
        if pawn < 0:
            return Rejection("no-pawn", NO_PAWN)
        if tile not in g["lp"][pawn]:
            here = ", ".join(t.tile_names[x] for x in g["lp"][pawn]) or "none left"
            return Rejection(
                "tile-not-here",
                f"{t.tile_names[tile]} is not in {t.regions[pawn]}'s row (there: {here})",
            )
        rejection = self.tower.refusal(g, player, levels)
        if rejection is not None:
            return rejection
        record = t.tiles[tile]
        result = towers.check(levels, t._ranks(g, player), t.tower_rules)
        missing = towers.tile_shortfall(levels, result, record, t.exhibition_levels, t.titles)
        return None if missing is None else Rejection("does-not-complete", missing)

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        t = self.t
        g = game.state["g"]
        tile, levels = action.args[1], action.args[2]
        region = g["pawns"][player]
        game.own("lp", region).remove(tile)
        game.own("performed", player).append([tile, region])
        lp_tokens = game.own("lp_tokens")
        taken = lp_tokens[region]
        game.own("collected", player)[region] += taken
        lp_tokens[region] = 0
        if game.observed:
            game.emit(
                {
                    "type": "performance",
                    "player": player,
                    "tile": t.tile_names[tile],
                    "region": t.regions[region],
                    "tower": format_levels(levels),
                    "points": t.tiles[tile].points,
                    "tokens_collected": taken,
                }
            )
        return None


@dataclass(frozen=True, slots=True)
class SpecialOption:
    """One option of the special action, its three answers together: how it is written (the
    text after its word), why it is refused, and its effect (the token is `Special`'s)."""

    parse: Callable[[str], Action]
    check: Callable[[GameContext, int, Action, Record], Rejection | None]
    apply: Callable[[GameContext, int, Action, Record], object]


class Special(Handler):
    """The `special` kind: a token's cost and placement around one of three options."""

    kind = "special"

    def __init__(self, tables: Tables, questions: TowerQuestions, tower: Tower):
        super().__init__(tables)
        self.recruit = Recruit(tables, special=True)
        self.move = Move(tables, special=True)
        self.perform = Perform(tables, questions, tower)
        #: Each option's writing, refusal and effect, by the option's word (`action.args[0]`).
        self.by_option: dict[str, SpecialOption] = {
            "recruit": SpecialOption(self.recruit.parse, self._recruit_refusal, self._recruit),
            "move": SpecialOption(self.move.parse, self._move_refusal, self._move),
            "perform": SpecialOption(self.perform.parse, self.perform.check, self._perform),
        }
        regions = range(len(tables.regions))
        #: The special move's targets with `move_to any`, by pawn (-1: not placed yet).
        self._any_but = {p: tuple(r for r in regions if r != p) for p in (-1, *regions)}

    def parse(self, text: str) -> Action:
        words = text.split(None, 1)
        option = words[0].lower() if words else ""
        rest = words[1] if len(words) > 1 else ""
        found = self.by_option.get(option)
        if found is None:
            raise ActionSyntaxError(
                "special takes one of: `special recruit N`, `special move REGION`, "
                "`special perform TILE tower LEVELS`"
            )
        return found.parse(rest)

    def options(self, game: GameContext, player: int, spec: Record) -> list[Action]:
        g = game.state["g"]
        if not game.granted and g["tokens"][player] <= 0:
            return []
        pawn = g["pawns"][player]
        out: list[Action] = []
        if pawn >= 0:
            out.extend(self.recruit.shared_choices(g["regions"][pawn], spec.recruit_up_to))
        out.extend(self.move.action(r) for r in self._move_targets(pawn, spec))
        out.extend(self.perform.options(game, player, spec))
        return out

    def count(self, game: GameContext, player: int, spec: Record) -> int:
        n = self._recruits_and_moves(game, player, spec)
        return 0 if n is None else n + self.perform.count(game, player, spec)

    def nth(self, game: GameContext, player: int, spec: Record, index: int) -> Action:
        """The options in `options`' order: recruits, moves, performances."""
        action = self._recruit_or_move(game, player, spec, index)
        if isinstance(action, Action):
            return action
        return self.perform.options(game, player, spec)[action]

    def candidates(self, game: GameContext, player: int, spec: Record) -> int:
        """`count`, with the performances as candidates (`Perform.candidates`)."""
        n = self._recruits_and_moves(game, player, spec)
        return 0 if n is None else n + self.perform.candidates(game, player, spec)

    def _recruits_and_moves(self, game: GameContext, player: int, spec: Record) -> int | None:
        """How many recruit and move options there are; None without a token to spend."""
        g = game.state["g"]
        if not game.granted and g["tokens"][player] <= 0:
            return None
        pawn = g["pawns"][player]
        n = len(self._move_targets(pawn, spec))
        if pawn >= 0:
            n += self.recruit.count_choices(g["regions"][pawn], spec.recruit_up_to)
        return n

    def candidate(self, game: GameContext, player: int, spec: Record, index: int) -> Action | None:
        action = self._recruit_or_move(game, player, spec, index)
        if isinstance(action, Action):
            return action
        return self.perform.candidate(game, player, spec, action)

    def _recruit_or_move(
        self, game: GameContext, player: int, spec: Record, index: int
    ) -> Action | int:
        """Option `index` if it is a recruit or a move (they come first, in that order);
        otherwise its index among what follows, the performances."""
        g = game.state["g"]
        pawn = g["pawns"][player]
        if pawn >= 0:
            region = g["regions"][pawn]
            recruits = self.recruit.count_choices(region, spec.recruit_up_to)
            if index < recruits:
                return self.recruit.nth_choice(region, spec.recruit_up_to, index)
            index -= recruits
        targets = self._move_targets(pawn, spec)
        if index < len(targets):
            return self.move.action(targets[index])
        return index - len(targets)

    def _move_targets(self, pawn: int, spec: Record) -> Sequence[int]:
        if pawn < 0 and not spec.places_pawn:
            return ()  # C-4.3/C-4.7 b: the move action places the pawn first
        if spec.move_to == "any" or pawn < 0:
            return self._any_but[pawn]
        return self.t.adjacent[pawn]

    def check(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        g = game.state["g"]
        if not game.granted and g["tokens"][player] <= 0:
            return Rejection("no-token", "you have no special action token left")
        return self.by_option[action.args[0]].check(game, player, action, spec)

    def _recruit_refusal(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        return self.recruit.refusal(game.state["g"], player, action.args[1], spec.recruit_up_to)

    def _move_refusal(
        self, game: GameContext, player: int, action: Action, spec: Record
    ) -> Rejection | None:
        g = game.state["g"]
        if g["pawns"][player] < 0 and not spec.places_pawn:
            return Rejection(
                "no-pawn",
                "a special move moves a pawn on the board: place yours with `move` first",
            )
        return self.move.refusal(g, player, action.args[1], spec.move_to == "adjacent")

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> str | None:
        g = game.state["g"]
        granted = game.granted
        if not granted:
            game.own("tokens")[player] -= 1
        self.by_option[action.args[0]].apply(game, player, action, spec)
        if not granted:
            game.own("lp_tokens")[g["pawns"][player]] += 1
        return None

    def _recruit(self, game: GameContext, player: int, action: Action, spec: Record) -> None:
        self.recruit.take(game, player, action.args[1])

    def _move(self, game: GameContext, player: int, action: Action, spec: Record) -> None:
        game.own("pawns")[player] = action.args[1]

    def _perform(self, game: GameContext, player: int, action: Action, spec: Record) -> None:
        self.perform.apply(game, player, action, spec)
