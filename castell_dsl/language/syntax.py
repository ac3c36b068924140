"""The syntax tree of a rule file: plain, immutable data with a source span on every node.

The parser produces these nodes; the loader and the compiler read them. Keeping spans on every
node is what lets a semantic error (or a run-time surprise) point at the exact line and column
of the rule file that caused it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .diagnostics import Span
from .text import short_repr

# ---- values -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scalar:
    """An integer, string, bare name (symbol) or boolean."""

    value: int | str | bool
    kind: str  # "int", "str", "symbol", "bool"
    span: Span

    def describe(self) -> str:
        return {
            "int": f"the number {self.value}",
            "str": f"the text {short_repr(self.value)}",
            "symbol": f"the name {self.value}",
            "bool": f"{str(self.value).lower()}",
        }[self.kind]


@dataclass(frozen=True, slots=True)
class RangeValue:
    low: int
    high: int
    span: Span

    def describe(self) -> str:
        return f"the range {self.low}..{self.high}"


@dataclass(frozen=True, slots=True)
class ListValue:
    items: tuple[Value, ...]
    span: Span

    def describe(self) -> str:
        return "a list"


@dataclass(frozen=True, slots=True)
class MapItem:
    key: Scalar | RangeValue
    value: Value
    span: Span


@dataclass(frozen=True, slots=True)
class MapValue:
    items: tuple[MapItem, ...]
    span: Span

    def describe(self) -> str:
        return "a map"


@dataclass(frozen=True, slots=True)
class Block:
    entries: tuple[Entry, ...]
    span: Span

    def describe(self) -> str:
        return "a block"


Value = Scalar | RangeValue | ListValue | MapValue | Block

# ---- expressions ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Literal:
    value: int | str | bool
    span: Span


@dataclass(frozen=True, slots=True)
class NameRef:
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class Call:
    function: str
    args: tuple[Expr, ...]
    span: Span
    name_span: Span


@dataclass(frozen=True, slots=True)
class Generator:
    """`f(expr for var in iterable if cond)`: a reduction over a list."""

    function: str
    element: Expr
    var: str
    iterable: Expr
    condition: Expr | None
    span: Span
    name_span: Span


@dataclass(frozen=True, slots=True)
class ListExpr:
    items: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Index:
    target: Expr
    index: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class Attribute:
    target: Expr
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-" or "not"
    operand: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class Binary:
    op: str  # + - * // % == != < <= > >= in not_in and or
    left: Expr
    right: Expr
    span: Span


Expr = Literal | NameRef | Call | Generator | ListExpr | Index | Attribute | Unary | Binary

# ---- entries and directives -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """`key [label] value [when cond]` or `key [label] = expr`."""

    key: str
    key_span: Span
    label: str | None
    label_span: Span | None
    value: Value | None
    expr: Expr | None
    condition: Expr | None
    span: Span

    @property
    def value_span(self) -> Span:
        if self.value is not None:
            return self.value.span
        assert self.expr is not None
        return self.expr.span


@dataclass(frozen=True, slots=True)
class Include:
    path: str
    span: Span


@dataclass(frozen=True, slots=True)
class Extends:
    target: str
    span: Span


@dataclass(frozen=True, slots=True)
class Override:
    kind: str
    kind_span: Span
    label: str | None
    label_span: Span | None
    body: Block | MapValue
    span: Span


@dataclass(frozen=True, slots=True)
class Remove:
    kind: str
    kind_span: Span
    labels: tuple[tuple[str, Span], ...]
    span: Span


Item = Entry | Include | Extends | Override | Remove


@dataclass(frozen=True, slots=True)
class RuleFile:
    path: str
    items: tuple[Item, ...]
