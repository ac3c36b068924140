"""The kinds every game has, whatever its mechanics: the engine reads these.

- `game`: title, player range, number of rounds, the mechanics module, how the first player is
  chosen.
- `components`: declared totals (what the box holds), checked against the definitions.
- `table NAME { key: value, ... }`: a lookup table for scoring expressions.
- `start { step ... }` and `round { step ... turns ... }`: what happens once at the start and in
  every round, in order, each step optionally `when condition`.
- `turn NAME { action NAME { limit 1 ... } ... }`: what a player may do on a turn.
- `scoring { category NAME = expression ... tiebreak = expression }`: end-of-game scoring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from . import syntax as s
from .diagnostics import Span, did_you_mean
from .ruleset import Record
from .schema import (
    INVALID,
    Boolean,
    ConvertContext,
    Expression,
    ExpressionSlot,
    Field,
    FieldType,
    Integer,
    IntRange,
    Kind,
    ListOf,
    MapOf,
    Struct,
    Symbol,
    Text,
)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of `start` or `round`: an automatic step, or a phase of player turns."""

    kind: str  # "step" or "turns"
    name: str
    when: ExpressionSlot | None
    span: Span
    name_span: Span


class StepSequence(FieldType):
    """`{ step refill when round >= 3   turns main   step festivals }`, order kept."""

    expects = "a block of `step NAME` and `turns NAME` entries"
    #: One sequence: an `override` gives the whole of it, and the order written is the order
    #: run (`FieldType.merge` replaces it whole).
    entries = "ordered"

    def __init__(self, kind: str):
        self.kind = kind

    def convert(self, node, ctx: ConvertContext, where: str) -> Any:
        if isinstance(node, s.MapValue) and not node.items:
            node = s.Block((), node.span)
        if not isinstance(node, s.Block):
            return self.type_error(node, ctx, where)
        steps: list[Step] = []
        ok = True
        for entry in node.entries:
            if entry.key not in ("step", "turns"):
                ctx.diags.error(
                    "E0202",
                    f"{where} holds `step NAME` and `turns NAME` entries, not '{entry.key}'",
                    entry.key_span,
                    did_you_mean(entry.key, ("step", "turns")),
                )
                ok = False
                continue
            if (
                entry.label is not None
                or entry.expr is not None
                or not (isinstance(entry.value, s.Scalar) and entry.value.kind == "symbol")
            ):
                ctx.diags.error(
                    "E0210",
                    f"write `{entry.key} NAME` in {where}",
                    entry.span,
                    "for example `step refill when round >= 3`",
                )
                ok = False
                continue
            when = None
            if entry.condition is not None:
                when = ExpressionSlot(entry.condition, "bool", "condition", f"condition in {where}")
                ctx.expressions.append((when, entry))
            steps.append(
                Step(entry.key, str(entry.value.value), when, entry.span, entry.value.span)
            )
        return tuple(steps) if ok else INVALID

    def to_json(self, value):
        return [
            {"kind": st.kind, "name": st.name, "when": st.when.source if st.when else None}
            for st in value
        ]


#: Fields every action entry of a `turn` block may have; mechanics add their own parameters.
ACTION_FIELDS: Mapping[str, Field] = {
    "limit": Field(
        Integer(min=0), required=False, doc="most times per turn; absent means no limit"
    ),
    "required": Field(Boolean(), required=False, default=False, doc="must be taken, if possible"),
    "ends_turn": Field(Boolean(), required=False, default=False, doc="taking it ends the turn"),
    "after": Field(
        ListOf(Symbol()), required=False, default=(), doc="actions that must come first"
    ),
}


class ActionSpec(FieldType):
    """`action NAME { limit 1 ... }` in a turn; the mechanics says which actions exist."""

    expects = "a block { limit N ... }"

    def __init__(self, actions: Mapping[str, Mapping[str, Field]]):
        self.actions = actions

    def convert(self, node, ctx, where):
        raise AssertionError("ActionSpec converts labelled entries only")

    def convert_labelled(self, entry: s.Entry, ctx: ConvertContext, where: str) -> Any:
        name = entry.label
        assert name is not None
        params = self.actions.get(name)
        if params is None:
            ctx.diags.error(
                "E0220",
                f"unknown action '{name}'",
                entry.label_span or entry.span,
                did_you_mean(name, self.actions)
                or "actions of this mechanics: " + ", ".join(self.actions),
            )
            return INVALID
        struct = Struct("action", {**ACTION_FIELDS, **params})
        return struct.convert_named(entry.value, ctx, f"action {name}", name, entry.label_span)

    def to_json(self, value: Record):
        out: dict[str, Any] = {}
        for key, v in value.fields.items():
            if isinstance(v, tuple):
                v = list(v)
            out[key] = v
        return out


class TurnBody(Struct):
    """A turn: its actions, each converted with the mechanics' parameters for that action."""

    def __init__(self, actions: Mapping[str, Mapping[str, Field]]):
        self.spec = ActionSpec(actions)
        super().__init__("turn", {"action": Field(self.spec, labelled=True, required=True)})

    def convert_named(self, node, ctx, where, name, name_span):
        if isinstance(node, s.MapValue) and not node.items:
            node = s.Block((), node.span)
        if not isinstance(node, s.Block):
            return self.type_error(node, ctx, where)
        actions: dict[str, Record] = {}
        ok = True
        for entry in node.entries:
            if entry.key != "action":
                ctx.diags.error(
                    "E0202",
                    f"{where} holds `action NAME {{ ... }}` entries, not '{entry.key}'",
                    entry.key_span,
                    did_you_mean(entry.key, ("action",)),
                )
                ok = False
                continue
            if entry.label is None or not isinstance(entry.value, (s.Block, s.MapValue)):
                ctx.diags.error("E0206", f"write `action NAME {{ ... }}` in {where}", entry.span)
                ok = False
                continue
            if entry.label in actions:
                ctx.diags.error(
                    "E0204",
                    f"{where} lists action '{entry.label}' twice",
                    entry.label_span or entry.span,
                )
                ok = False
                continue
            value = self.spec.convert_labelled(entry, ctx, where)
            if value is INVALID:
                ok = False
                continue
            actions[entry.label] = value
        if not ok:
            return INVALID
        for action_name, record in actions.items():
            for before in record.after:
                if before not in actions:
                    ctx.diags.error(
                        "E0220",
                        f"action {action_name} comes after '{before}', which this turn lacks",
                        record.spans.get("after", record.span),
                        did_you_mean(before, actions),
                    )
                    ok = False
        if not ok:
            return INVALID
        return Record(
            "turn", name, MappingProxyType({"action": MappingProxyType(actions)}), node.span
        )

    def to_json(self, value: Record):
        return {
            "name": value.name,
            "actions": {k: self.spec.to_json(v) for k, v in value.action.items()},
        }


def core_kinds(actions: Mapping[str, Mapping[str, Field]]) -> dict[str, Kind]:
    """The core kinds, with the turn schema built from the mechanics' actions."""
    game = Struct(
        "game",
        {
            "title": Field(Text(), example='"My Game"'),
            "players": Field(IntRange(1, 16), example="2..4"),
            "rounds": Field(Integer(1, 10_000), example="10"),
            "mechanics": Field(Symbol(), example="castell"),
            "first_player": Field(
                Symbol(("random", "first_seat")),
                required=False,
                default="random",
                doc="random: drawn with the game's seed",
            ),
        },
    )
    scoring = Struct(
        "scoring",
        {
            "category": Field(Expression("number", "scoring"), labelled=True),
            "tiebreak": Field(Expression("number", "scoring"), repeated=True, required=False),
        },
    )
    return {
        "game": Kind("game", game, "game", required=True, doc="title, players, rounds, mechanics"),
        "components": Kind(
            "components", MapOf(Symbol(), Integer(min=0)), "components", doc="declared totals"
        ),
        "table": Kind("table", MapOf(_TableKey(), Integer()), "tables", named=True),
        "start": Kind("start", StepSequence("start"), "start", doc="steps run once at the start"),
        "round": Kind("round", StepSequence("round"), "round", required=True),
        "turn": Kind("turn", TurnBody(actions), "turns", named=True),
        "scoring": Kind("scoring", scoring, "scoring", required=True),
    }


class _TableKey(FieldType):
    expects = "a number or a name"

    def convert(self, node, ctx, where):
        if isinstance(node, s.Scalar) and node.kind in ("int", "symbol", "str"):
            return node.value
        return self.type_error(node, ctx, where)


#: Names an expression in a `when` condition may use.
CONDITION_VARIABLES: Mapping[str, str] = MappingProxyType(
    {"round": "int", "rounds": "int", "players": "int"}
)
