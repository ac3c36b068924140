"""Schemas: what kinds of definition a game uses, and the type of every field.

The language itself is generic (entries, blocks, maps, lists, expressions). A schema gives a
block its meaning: which keys it may hold, what each value must be, which values name other
definitions, and what is required. The core schema (`core_kinds.py`) covers what every game has
(`game`, `components`, `table`, `start`, `round`, `turn`, `scoring`); a mechanics plugin supplies
the kinds of its own game (Castell's `region`, `skill`, `wheel`…, Calico's `board`, `cat`…).

Each field type converts one syntax node into a plain Python value (int, str, bool, tuple,
read-only mapping, `Record`, compiled expression) and reports precise diagnostics when it cannot.
Conversion never stops at the first problem: every value of every definition is checked.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, TypeVar, cast

from . import syntax as s
from .diagnostics import Diagnostics, Span, did_you_mean
from .ruleset import FrozenMap, Record


class _Invalid:
    """Marker for a value that failed to convert (already reported)."""

    def __repr__(self) -> str:
        return "INVALID"


INVALID: Any = _Invalid()


@dataclass(frozen=True, slots=True)
class PendingRef:
    """A name that must refer to a definition of one of `kinds` (checked after conversion)."""

    name: str
    kinds: tuple[str, ...]
    span: Span
    extra: tuple[str, ...] = ()


@dataclass
class ConvertContext:
    """What conversion needs besides the node: where to report, what to check later."""

    diags: Diagnostics
    refs: list[PendingRef] = field(default_factory=list)
    by_players: list[tuple[Any, Span, str]] = field(default_factory=list)
    expressions: list[tuple[Any, Any]] = field(default_factory=list)


# ---- field types ------------------------------------------------------------------------------


class FieldType(ABC):
    """Converts a syntax node to a value. Subclasses say what they expect, in words.

    A field type also says what `override` does to a value of its type (`merge`): that is the
    language's override semantics, stated once per type (docs/language.md, "What a patch does").
    """

    expects: str = "a value"
    #: How `override` treats a value of this type: "value" (replaced whole), "keyed" (entries
    #: identified by a key or name, merged one by one in place), "ordered" (a sequence, replaced
    #: whole: the order written is the order run).
    entries: str = "value"

    @abstractmethod
    def convert(self, node: s.Value, ctx: ConvertContext, where: str) -> Any:
        """The value of `node`, or INVALID after reporting why it cannot be one."""

    def merge(self, old: s.Value, new: s.Value, ctx: ConvertContext, where: str) -> Any:
        """What `override` leaves when it gives `new` for the inherited `old` (syntax, before
        conversion), or INVALID after reporting why it cannot. A plain value, a list and an
        ordered sequence are replaced whole; keyed blocks and maps override this."""
        return new

    def to_json(self, value: Any) -> Any:
        return value

    def type_error(self, node: Any, ctx: ConvertContext, where: str, hint: str | None = None):
        found = node.describe() if hasattr(node, "describe") else "an expression"
        if hint is None and isinstance(node, s.Scalar) and node.kind == "str":
            text = str(node.value)
            if text.lstrip("-").isdigit() and isinstance(self, Integer):
                hint = "remove the quotes: numbers are written without them"
            elif text.isidentifier() and isinstance(self, (Symbol, Ref)):
                hint = f"remove the quotes: write {text}"
        ctx.diags.error("E0210", f"{where} must be {self.expects}, found {found}", node.span, hint)
        return INVALID


class Integer(FieldType):
    def __init__(self, min: int | None = None, max: int | None = None):
        self.min, self.max = min, max
        if min is not None and max is not None:
            self.expects = f"a whole number from {min} to {max}"
        elif min is not None:
            self.expects = f"a whole number of at least {min}"
        else:
            self.expects = "a whole number"

    def convert(self, node, ctx, where):
        if not (isinstance(node, s.Scalar) and node.kind == "int"):
            return self.type_error(node, ctx, where)
        value = cast(int, node.value)  # a scalar of kind "int" holds an int
        if (self.min is not None and value < self.min) or (
            self.max is not None and value > self.max
        ):
            ctx.diags.error("E0211", f"{where} must be {self.expects}, found {value}", node.span)
            return INVALID
        return value


class Boolean(FieldType):
    expects = "true or false"

    def convert(self, node, ctx, where):
        if not (isinstance(node, s.Scalar) and node.kind == "bool"):
            return self.type_error(node, ctx, where)
        return node.value


class Text(FieldType):
    expects = "a string in double quotes"

    def convert(self, node, ctx, where):
        if not (isinstance(node, s.Scalar) and node.kind == "str"):
            hint = None
            if isinstance(node, s.Scalar) and node.kind == "symbol":
                hint = f'write "{node.value}"'
            return self.type_error(node, ctx, where, hint)
        return node.value


class Symbol(FieldType):
    """A bare name; optionally one of a fixed set of choices."""

    def __init__(self, choices: tuple[str, ...] | None = None):
        self.choices = choices
        self.expects = (
            "one of " + ", ".join(choices) if choices else "a name (letters, digits and _)"
        )

    def convert(self, node, ctx, where):
        if not (isinstance(node, s.Scalar) and node.kind == "symbol"):
            return self.type_error(node, ctx, where)
        if self.choices is not None and node.value not in self.choices:
            ctx.diags.error(
                "E0211",
                f"{where} must be {self.expects}, found {node.value}",
                node.span,
                did_you_mean(str(node.value), self.choices),
            )
            return INVALID
        return node.value


class Ref(FieldType):
    """A name of a definition of one of `kinds`, or one of `extra` names."""

    def __init__(self, *kinds: str, extra: tuple[str, ...] = ()):
        self.kinds = kinds
        self.extra = extra
        self.expects = f"the name of a {' or '.join(kinds)}"

    def convert(self, node, ctx, where):
        if not (isinstance(node, s.Scalar) and node.kind == "symbol"):
            return self.type_error(node, ctx, where)
        ctx.refs.append(PendingRef(str(node.value), self.kinds, node.span, self.extra))
        return node.value


class IntRange(FieldType):
    """`low..high`, both ends included."""

    def __init__(self, min: int | None = None, max: int | None = None):
        self.bound = Integer(min, max)
        self.expects = "a range such as 2..4"

    def convert(self, node, ctx, where):
        if isinstance(node, s.Scalar) and node.kind == "int":
            number = cast(int, node.value)  # a scalar of kind "int" holds an int
            node = s.RangeValue(number, number, node.span)
        if not isinstance(node, s.RangeValue):
            return self.type_error(node, ctx, where)
        if node.low > node.high:
            ctx.diags.error(
                "E0213",
                f"{where}: the range {node.low}..{node.high} is empty",
                node.span,
                f"write {node.high}..{node.low}",
            )
            return INVALID
        for end in (node.low, node.high):
            if self.bound.convert(s.Scalar(end, "int", node.span), ctx, where) is INVALID:
                return INVALID
        return (node.low, node.high)

    def to_json(self, value):
        return {"min": value[0], "max": value[1]}


class ListOf(FieldType):
    def __init__(
        self,
        item: FieldType,
        min_len: int = 0,
        max_len: int | None = None,
        unique: bool = False,
    ):
        self.item, self.min_len, self.max_len, self.unique = item, min_len, max_len, unique
        self.expects = f"a list of {item.expects.removeprefix('a ').removeprefix('an ')}"

    def convert(self, node, ctx, where):
        if not isinstance(node, s.ListValue):
            hint = None
            if isinstance(node, s.Scalar):
                hint = f"put it in brackets: [{_source_like(node)}]"
            return self.type_error(node, ctx, where, hint)
        n = len(node.items)
        if n < self.min_len or (self.max_len is not None and n > self.max_len):
            bound = (
                f"exactly {self.min_len}"
                if self.max_len == self.min_len
                else f"at least {self.min_len}"
                if self.max_len is None
                else f"{self.min_len} to {self.max_len}"
            )
            ctx.diags.error("E0211", f"{where} must have {bound} items, found {n}", node.span)
            return INVALID
        out = []
        seen: dict[Any, Span] = {}
        ok = True
        for i, item in enumerate(node.items):
            value = self.item.convert(item, ctx, f"item {i + 1} of {where}")
            if value is INVALID:
                ok = False
                continue
            if self.unique:
                key = value if not isinstance(value, list) else tuple(value)
                if key in seen:
                    ctx.diags.error(
                        "E0212",
                        f"{where} lists {value} twice",
                        item.span,
                        f"first listed at line {seen[key].line}",
                    )
                    ok = False
                seen[key] = item.span
            out.append(value)
        return tuple(out) if ok else INVALID

    def to_json(self, value):
        return [self.item.to_json(v) for v in value]


class MapOf(FieldType):
    """`{ key: value, ... }`. With integer keys, a range key (`1..10: 15`) sets every key in it."""

    def __init__(self, key: FieldType, value: FieldType, min_len: int = 0):
        self.key, self.value, self.min_len = key, value, min_len
        self.expects = f"a map from {_bare(key.expects)} to {_bare(value.expects)}"

    def convert(self, node, ctx, where):
        if isinstance(node, s.Block) and not node.entries:
            node = s.MapValue((), node.span)  # `{}` is an empty map as well as an empty block
        if not isinstance(node, s.MapValue):
            return self.type_error(node, ctx, where, "write `{ key: value, key: value }`")
        out: dict[Any, Any] = {}
        spans: dict[Any, Span] = {}
        ok = True
        for item in node.items:
            keys: list[Any]
            if isinstance(item.key, s.RangeValue) and isinstance(self.key, Integer):
                if item.key.low > item.key.high:
                    ctx.diags.error("E0213", f"{where}: the range key is empty", item.key.span)
                    ok = False
                    continue
                if item.key.high - item.key.low > 10_000:
                    ctx.diags.error(
                        "E0211", f"{where}: the range key covers too many keys", item.key.span
                    )
                    ok = False
                    continue
                keys = []
                for k in range(item.key.low, item.key.high + 1):
                    conv = self.key.convert(
                        s.Scalar(k, "int", item.key.span), ctx, f"key of {where}"
                    )
                    if conv is INVALID:
                        ok = False
                        break
                    keys.append(conv)
                else:
                    pass
            else:
                k = self.key.convert(item.key, ctx, f"key of {where}")
                if k is INVALID:
                    ok = False
                    continue
                keys = [k]
            value = self.value.convert(item.value, ctx, f"{where}[{_key_text(item.key)}]")
            if value is INVALID:
                ok = False
                continue
            for k in keys:
                if k in out:
                    ctx.diags.error(
                        "E0212",
                        f"{where} has key {k} twice",
                        item.key.span,
                        f"first given at line {spans[k].line}",
                    )
                    ok = False
                out[k] = value
                spans[k] = item.key.span
        if ok and len(out) < self.min_len:
            ctx.diags.error(
                "E0211", f"{where} must have at least {self.min_len} entries", node.span
            )
            ok = False
        return FrozenMap(out, node.span, spans) if ok else INVALID

    entries = "keyed"

    def merge(self, old, new, ctx, where):
        """Each key given replaces that key's value where it stands; a new key goes after the
        others. A range key stands for every key it covers (`1..10: 3`, then `5: 4`)."""
        old, new = _as_map(old), _as_map(new)
        if not isinstance(new, s.MapValue) or not isinstance(old, s.MapValue):
            return _override_type_error(self, old, new, ctx, where)
        items = merge_keyed(_expand_map(old.items), _expand_map(new.items), _map_key)
        return s.MapValue(items, old.span)

    def to_json(self, value):
        return {str(k): self.value.to_json(v) for k, v in value.items()}


class ByPlayers(MapOf):
    """A map keyed by player count; every player count the game allows must have an entry."""

    def __init__(self, value: FieldType):
        super().__init__(Integer(1, 99), value)
        self.expects = f"a map from player count to {_bare(value.expects)}"

    def convert(self, node, ctx, where):
        result = super().convert(node, ctx, where)
        if result is not INVALID:
            ctx.by_players.append((result, node.span, where))
        return result


class Multiset(MapOf):
    """Counts of items: `{ 1..10: 15 }` is fifteen of each number from 1 to 10.

    `json_list` renders it as the full list of items (thirty size tokens), otherwise as the map.
    """

    def __init__(self, key: FieldType, json_list: bool = False):
        super().__init__(key, Integer(min=0))
        self.json_list = json_list
        self.expects = f"counts such as {{ 1..10: 15 }} ({_bare(key.expects)}: how many)"

    def to_json(self, value):
        if self.json_list:
            return [k for k, n in value.items() for _ in range(n)]
        return super().to_json(value)


class Struct(FieldType):
    """A block of named fields (`{ rounds 10  players 2..4 }`), converted to a `Record`."""

    def __init__(
        self,
        kind: str,
        fields: Mapping[str, Field],
        doc: str = "",
        one_of: tuple[OneOf, ...] = (),
    ):
        self.kind = kind
        self.fields = dict(fields)
        self.doc = doc
        self.one_of = one_of
        self.expects = "a block { ... }"

    entries = "keyed"

    def convert(self, node, ctx, where):
        return self.convert_named(node, ctx, where, None, None)

    def merge(self, old, new, ctx, where):
        """Each field given replaces that field where it stands, a new one goes after the
        others. A repeated field (`space`, `tiebreak`) is one ordered sequence: the entries
        given replace all of the inherited ones, in the order written. A named field
        (`category NAME`, `action NAME`) is keyed by its name."""
        old, new = _as_block(old), _as_block(new)
        if not isinstance(new, s.Block) or not isinstance(old, s.Block):
            return _override_type_error(self, old, new, ctx, where)
        return s.Block(merge_keyed(old.entries, new.entries, self.entry_identity), old.span)

    def entry_identity(self, entry: s.Entry) -> tuple[str, str | None]:
        """What an `override` entry replaces: a field, a named entry, or a whole sequence."""
        spec = self.fields.get(entry.key)
        if spec is not None and spec.repeated:
            return (entry.key, None)
        if spec is not None and not spec.labelled:
            return (entry.key, None)
        return (entry.key, entry.label)

    def convert_named(
        self, node, ctx: ConvertContext, where: str, name: str | None, name_span: Span | None
    ) -> Any:
        if isinstance(node, s.MapValue) and not node.items:
            node = s.Block((), node.span)
        if not isinstance(node, s.Block):
            return self.type_error(node, ctx, where, "write a block: { key value ... }")
        values: dict[str, Any] = {}
        spans: dict[str, Span] = {}
        ok = True
        present: set[str] = set()
        for entry in node.entries:
            present.add(entry.key)
            spec = self.fields.get(entry.key)
            if spec is None:
                ctx.diags.error(
                    "E0202",
                    f"{where} has no field '{entry.key}'",
                    entry.key_span,
                    did_you_mean(entry.key, self.fields) or _fields_hint(self.fields),
                )
                ok = False
                continue
            value = spec.convert_entry(entry, ctx, f"'{entry.key}' in {where}")
            if value is INVALID:
                ok = False
                continue
            if spec.repeated:
                values.setdefault(entry.key, []).append(value)
                spans.setdefault(entry.key, entry.span)
            elif spec.labelled:
                bucket = values.setdefault(entry.key, {})
                if entry.label in bucket:
                    ctx.diags.error(
                        "E0204",
                        f"{where} defines {entry.key} '{entry.label}' twice",
                        entry.label_span or entry.span,
                        f"first defined at line {spans[f'{entry.key} {entry.label}'].line}",
                    )
                    ok = False
                    continue
                bucket[entry.label] = value
                spans[f"{entry.key} {entry.label}"] = entry.span
                spans.setdefault(entry.key, entry.span)
            else:
                if entry.key in values:
                    ctx.diags.error(
                        "E0205",
                        f"{where} sets '{entry.key}' twice",
                        entry.key_span,
                        f"first set at line {spans[entry.key].line}; remove one",
                    )
                    ok = False
                    continue
                values[entry.key] = value
                spans[entry.key] = entry.value_span
        for key, spec in self.fields.items():
            if key in values:
                if spec.repeated:
                    values[key] = tuple(values[key])
                elif spec.labelled:
                    values[key] = MappingProxyType(values[key])
                continue
            if spec.required and key not in present:
                at = name_span or node.span
                ctx.diags.error(
                    "E0203",
                    f"{where} needs '{key}' ({spec.type.expects})",
                    at,
                    f"add `{key} {spec.example}`" if spec.example else spec.doc or None,
                )
                ok = False
            else:
                values[key] = spec.empty()
        for choice in self.one_of:
            given = [f for f in choice.fields if f in present]
            if len(given) != 1:
                listed = " and ".join(f"`{f}`" for f in choice.fields)
                # Point at a field that was given, preferring one from an override (another
                # file than the block's): that is usually the change that broke the rule.
                given_at = [spans[f] for f in given if f in spans]
                given_at.sort(key=lambda span: span.path == node.span.path)
                ctx.diags.error(
                    "E0210" if given else "E0203",
                    f"{where} needs exactly one of {listed}",
                    given_at[0] if given_at else node.span,
                    choice.hint or None,
                )
                ok = False
        if not ok:
            return INVALID
        return Record(self.kind, name, MappingProxyType(values), node.span, MappingProxyType(spans))

    def to_json(self, value: Record):
        out: dict[str, Any] = {}
        if value.name is not None:
            out["name"] = value.name
        for key, spec in self.fields.items():
            v = value.fields.get(key)
            out[key] = spec.to_json(v)
        return out


@dataclass(frozen=True)
class OneOf:
    """A block must give exactly one of these fields (a tile is a shape or an exhibition)."""

    fields: tuple[str, ...]
    hint: str = ""


class Expression(FieldType):
    """An expression after `=`, compiled later (once every definition is known)."""

    def __init__(self, result: str = "number", scope: str = "scoring"):
        self.result = result
        self.scope = scope
        self.expects = "an expression after '='" if result != "bool" else "a condition"

    def convert(self, node, ctx, where):
        return self.type_error(node, ctx, where, "write `key = expression`")

    def to_json(self, value):
        return value.source if value is not None else None


# ---- fields -----------------------------------------------------------------------------------


@dataclass
class Field:
    """One key of a block: its type and how it may be written."""

    type: FieldType
    required: bool = True
    default: Any = None
    repeated: bool = False  # may appear many times, in order (`step ...` in a round)
    labelled: bool = False  # written `key label value`; a map from label to value
    conditional: bool = False  # may carry `when condition`
    doc: str = ""
    example: str = ""

    def empty(self) -> Any:
        if self.repeated:
            return ()
        if self.labelled:
            return MappingProxyType({})
        return self.default

    def convert_entry(self, entry: s.Entry, ctx: ConvertContext, where: str) -> Any:
        if entry.condition is not None and not self.conditional:
            ctx.diags.error(
                "E0208",
                f"{where} cannot have a `when` condition",
                entry.condition.span,
                "conditions go on round steps and calendar spaces",
            )
            return INVALID
        if self.labelled and entry.label is None:
            ctx.diags.error(
                "E0206",
                f"{where} needs a name, as in `{entry.key} NAME {{ ... }}`",
                entry.key_span,
            )
            return INVALID
        if not self.labelled and entry.label is not None and not isinstance(self.type, Expression):
            ctx.diags.error(
                "E0207",
                f"{where} takes no name; found '{entry.label}'",
                entry.label_span or entry.span,
            )
            return INVALID
        if isinstance(self.type, Expression):
            if entry.expr is None:
                assert entry.value is not None
                return self.type.type_error(entry.value, ctx, where, "write `key = expression`")
            holder = ExpressionSlot(entry.expr, self.type.result, self.type.scope, where)
            ctx.expressions.append((holder, entry))
            value: Any = holder
        else:
            if entry.expr is not None:
                ctx.diags.error(
                    "E0210",
                    f"{where} must be {self.type.expects}, not an expression",
                    entry.expr.span,
                    "remove the '='",
                )
                return INVALID
            assert entry.value is not None
            value = self.type.convert(entry.value, ctx, where)
            if value is INVALID:
                return INVALID
        if self.conditional:
            slot = None
            if entry.condition is not None:
                slot = ExpressionSlot(entry.condition, "bool", "condition", f"condition of {where}")
                ctx.expressions.append((slot, entry))
            return Conditional(value, slot, entry.span, entry.label)
        return value

    def to_json(self, value: Any) -> Any:
        if self.repeated:
            return [self._item_json(v) for v in value]
        if self.labelled:
            return {k: self._item_json(v) for k, v in value.items()}
        return None if value is None else self._item_json(value)

    def _item_json(self, v: Any) -> Any:
        if isinstance(v, Conditional):
            out = {"value": self.type.to_json(v.value)}
            if v.label is not None:
                out["name"] = v.label
            out["when"] = v.when.source if v.when is not None else None
            return out
        if isinstance(v, ExpressionSlot):
            return v.source
        return self.type.to_json(v)


class ExpressionSlot:
    """An expression awaiting compilation; after compiling, `.compiled` is a callable."""

    __slots__ = ("compiled", "node", "result", "scope", "source", "where")

    def __init__(self, node: s.Expr, result: str, scope: str, where: str):
        self.node = node
        self.result = result
        self.scope = scope
        self.where = where
        self.source: str = ""
        self.compiled: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        assert self.compiled is not None
        return self.compiled(*args)

    def __repr__(self) -> str:
        return f"<expr {self.source}>"


@dataclass(frozen=True, slots=True)
class Conditional:
    """A value with an optional `when` condition (round steps, calendar spaces)."""

    value: Any
    when: ExpressionSlot | None
    span: Span
    label: str | None = None


# ---- kinds ------------------------------------------------------------------------------------


@dataclass
class Kind:
    """A kind of top-level definition.

    `named` kinds are collections (`region Barcelona { ... }`, many of them, each named);
    others are singletons (`game { ... }`). `body` is a `Struct` for blocks, or any field type
    (a map, for `table` or `prize_chart`). `key` is the key in the compiled rule set's JSON.
    """

    name: str
    body: FieldType
    key: str
    named: bool = False
    required: bool = False
    doc: str = ""

    def to_json(self, value: Any) -> Any:
        """JSON for one definition of this kind (a record, or a map-bodied value)."""
        if isinstance(self.body, Struct):
            return self.body.to_json(value)
        if self.named:
            return {"name": value.name, "entries": self.body.to_json(value.entries)}
        return self.body.to_json(value)


def _bare(text: str) -> str:
    return text.removeprefix("a ").removeprefix("an ")


def _key_text(key: s.Scalar | s.RangeValue) -> str:
    if isinstance(key, s.RangeValue):
        return f"{key.low}..{key.high}"
    return str(key.value)


def _source_like(node: s.Scalar) -> str:
    if node.kind == "str":
        return f'"{node.value}"'
    if node.kind == "bool":
        return str(node.value).lower()
    return str(node.value)


def _fields_hint(fields: Mapping[str, Field]) -> str:
    return "fields here: " + ", ".join(fields)


# ---- override semantics -----------------------------------------------------------------------

T = TypeVar("T")


def merge_keyed(
    old: Iterable[T], new: Iterable[T], identity: Callable[[T], Hashable]
) -> tuple[T, ...]:
    """Keyed override: the entries of `new` with one identity replace every entry of `old` with
    that identity, at the place of the first of them; identities `old` lacks follow, in the order
    `new` first gives them. Entries `new` does not name keep their place."""
    given: dict[Hashable, list[T]] = {}
    for entry in new:
        given.setdefault(identity(entry), []).append(entry)
    out: list[T] = []
    placed: set[Hashable] = set()
    for entry in old:
        key = identity(entry)
        if key not in given:
            out.append(entry)
        elif key not in placed:
            out.extend(given[key])
            placed.add(key)
    for key, entries in given.items():
        if key not in placed:
            out.extend(entries)
    return tuple(out)


#: Range keys wider than this are not expanded for an override (conversion refuses them).
_MAX_RANGE_KEYS = 10_000


def _expand_map(items: Iterable[s.MapItem]) -> list[s.MapItem]:
    out: list[s.MapItem] = []
    for item in items:
        key = item.key
        if isinstance(key, s.RangeValue) and 0 <= key.high - key.low <= _MAX_RANGE_KEYS:
            out.extend(
                s.MapItem(s.Scalar(k, "int", key.span), item.value, item.span)
                for k in range(key.low, key.high + 1)
            )
        else:
            out.append(item)
    return out


def _map_key(item: s.MapItem) -> Hashable:
    key = item.key
    if isinstance(key, s.RangeValue):
        return ("range", key.low, key.high)
    return (key.kind, key.value)


def _as_block(node: s.Value) -> s.Value:
    return s.Block((), node.span) if isinstance(node, s.MapValue) and not node.items else node


def _as_map(node: s.Value) -> s.Value:
    return s.MapValue((), node.span) if isinstance(node, s.Block) and not node.entries else node


def _override_type_error(
    typ: FieldType, old: s.Value, new: s.Value, ctx: ConvertContext, where: str
) -> Any:
    shape = "a map { key: value, ... }" if isinstance(old, s.MapValue) else "a block { ... }"
    ctx.diags.error(
        "E0210",
        f"override of {where} must be {shape}, like the original",
        new.span,
        f"{where} is {typ.expects}",
    )
    return INVALID


class Graph(ListOf):
    """A list of neighbours that must form a symmetric, connected graph over `kind`.

    Declared once per node (`region A { adjacent [B, C] }`); the compiler checks that every
    edge is written on both sides and that every node can be reached from every other.
    """

    def __init__(self, kind: str):
        super().__init__(Ref(kind), unique=True)
        self.kind = kind
        self.expects = f"a list of {kind} names"


class GameSchema(Protocol):
    """What the compiler needs of a game's mechanics to read its rule files.

    `castell_dsl.contract.Mechanics` satisfies it; the language layer names only this protocol,
    so it depends on nothing above it.
    """

    name: str
    kinds: Mapping[str, Kind]
    #: Facts scoring expressions may read, with their types (`"int"`, `"list"`, …).
    facts: Mapping[str, str]
    #: Automatic steps a rule file may name (`step refill`).
    steps: tuple[str, ...]
    #: Actions a turn block may name, with their parameters.
    actions: Mapping[str, Mapping[str, Field]]
    #: Counters for `components` totals, by component name.
    counters: Mapping[str, Callable[[Any], int]]

    def check(self, rules: Any, diags: Diagnostics) -> None: ...
