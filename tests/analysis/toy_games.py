"""Toy games with known answers for `castell analyze`, defined here (no plugin installed).

One mechanics, `toyrace`, whose `toy { mode N }` block picks the game:
- mode 0, "seat 0 always wins": each round seat 0 gains 2 points, every other seat 1;
- mode 1, "coin flip": after the last round one player, drawn by chance, gains 1 point;
- mode 2, "decided early": after round 1 a player drawn by chance gains 100 points, after
  later rounds a drawn player gains 1.
Each turn the player takes one card (`take a` or `take b`, the only actions, which score
nothing); the logic describes three items, the cards `a`, `b` and `never`, which no game ever
offers: the dead item.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from castell_dsl.contract import (
    OPEN,
    Action,
    ActionSyntaxError,
    Field,
    GameContext,
    GameLogic,
    Integer,
    Item,
    Kind,
    Mechanics,
    Record,
    RuleSet,
    Struct,
)

CARDS = ("a", "b", "never")


class RaceLogic(GameLogic):
    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.mode = rules.one("toy").mode
        self.steps = {"award": self.award}
        self._take = {c: Action("take", (c,), f"take {c}") for c in CARDS}

    def initial_state(self, game: GameContext) -> dict[str, Any]:
        return {"points": [0] * game.players}

    def award(self, game: GameContext) -> None:
        points = game.state["g"]["points"]
        if self.mode == 0:
            for seat in range(game.players):
                points[seat] += 2 if seat == 0 else 1
        elif self.mode == 1:
            if game.round == game.rounds:
                points[game.rng.below(game.players)] += 1
        else:
            points[game.rng.below(game.players)] += 100 if game.round == 1 else 1

    def options(self, game: GameContext, player: int, kind: str, spec: Record) -> list[Action]:
        return [self._take["a"], self._take["b"]]

    def check(self, game: GameContext, player: int, action: Action, spec: Record):
        return None if action.args[0] in ("a", "b") else self._refuse()

    def _refuse(self):
        from castell_dsl.contract import Rejection

        return Rejection("no-card", "only a and b can be taken")

    def apply(self, game: GameContext, player: int, action: Action, spec: Record) -> None:
        return None

    def parse(self, kind: str, text: str) -> Action:
        card = text.strip()
        if card not in self._take:
            raise ActionSyntaxError("take a or b")
        return self._take[card]

    def facts(self, game: GameContext, player: int) -> dict[str, Any]:
        return {"points": game.state["g"]["points"][player]}

    def items(self) -> tuple[Item, ...]:
        return tuple(Item("card", c) for c in CARDS)

    def item_marks(self, game: GameContext, player: int):
        return [(0, OPEN), (1, OPEN)]

    def action_items(self, game: GameContext, player: int, action: Action):
        return [CARDS.index(action.args[0])]

    def item_lints(self):
        return [(2, "no action offers it")]


@dataclass
class RaceMechanics(Mechanics):
    name: str = "toyrace"
    description: str = "a race whose winner the rule file's mode decides"
    kinds: Any = field(
        default_factory=lambda: {
            "toy": Kind("toy", Struct("toy", {"mode": Field(Integer(0, 2))}), "toy", required=True)
        }
    )
    facts: Any = field(default_factory=lambda: {"points": "int"})
    steps: tuple[str, ...] = ("award",)
    actions: Any = field(default_factory=lambda: {"take": {}})

    def build(self, rules: RuleSet) -> GameLogic:
        return RaceLogic(rules)


def rules_text(mode: int, rounds: int = 4) -> str:
    return f"""\
game race {{
  title "Toy race"
  players 1..4
  rounds {rounds}
  mechanics toyrace
  first_player random
}}

toy {{ mode {mode} }}

round {{
  turns main
  step award
}}

turn main {{
  action take {{ limit 1  required true }}
}}

scoring {{
  category points = points
}}
"""
