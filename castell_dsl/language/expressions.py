"""Expressions: compiled once into closures, type-checked against what they may name.

Scoring categories, tie-breaks and `when` conditions are expressions. They are compiled when the
rule set is compiled — names resolved, types checked, functions looked up — into plain Python
closures, so that nothing walks the syntax tree during a game and nothing is ever `eval`ed.

An expression sees a *scope*: the per-player facts a mechanics module exposes for scoring
(`best_tower_score`, `size_tokens` …), the rule set's tables and named collections
(`prize[p].points`), and for conditions the round number and player count.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from . import syntax as s
from .diagnostics import Diagnostics, Span, did_you_mean

# Types are small strings: "int", "bool", "str", "list", "list:<kind>", "record:<kind>",
# "table", "collection:<kind>", "any".
Env = Mapping[str, Any]
Fn = Callable[[Env], Any]


class ExpressionError(Exception):
    """A run-time failure of a compiled expression (a division by zero, a table without that
    key): an error of the rule file, located at the expression, never an internal error. The
    command line prints it as a diagnostic (`E0293`)."""

    code = "E0293"

    def __init__(self, message: str, span: Span):
        super().__init__(f"{span.path}:{span.line}:{span.column}: {message}")
        self.span = span
        self.reason = message

    def __reduce__(self) -> tuple[Any, ...]:  # raised in a worker process, reported by its parent
        return (type(self), (self.reason, self.span))

    def diagnostic(self) -> Any:
        from .diagnostics import Diagnostic, Severity

        return Diagnostic(
            self.code,
            Severity.ERROR,
            f"{self.reason} (while a game was played)",
            self.span,
            "the expression fails for some position of a game: guard it with a condition, "
            "or use lookup(table, key, default)",
        )


#: Failures of Python operations an expression may hit at run time, turned into
#: ExpressionError at the expression that failed.
_RUN_TIME_FAILURES = (ArithmeticError, LookupError, TypeError, ValueError, RecursionError)


@dataclass(frozen=True)
class Scope:
    """What names an expression may use, with their types.

    `variables` are read from the environment at run time (facts, round, players);
    `constants` are fixed by the rule set (tables, collections) and folded in at compile time.
    """

    variables: Mapping[str, str]
    constants: Mapping[str, tuple[str, Any]]
    field_types: Mapping[str, Mapping[str, str]]  # kind -> field -> type, for `.field`
    broken: frozenset[str] = frozenset()  # defined but invalid (reported already): stay quiet


_FUNCTIONS = {
    # name: (min args, max args, description)
    "count": (1, 1, "count(list): how many items"),
    "distinct": (1, 1, "distinct(list): how many different items"),
    "sum": (1, 1, "sum(list): the total of a list of numbers"),
    "min": (1, 99, "min(list) or min(a, b, …): the smallest (0 for an empty list)"),
    "max": (1, 99, "max(list) or max(a, b, …): the largest (0 for an empty list)"),
    "lookup": (3, 3, "lookup(table, key, default): the table's value, or default if absent"),
    "any": (1, 1, "any(list): true if some item is true"),
    "all": (1, 1, "all(list): true if every item is true"),
}
_GENERATOR_FUNCTIONS = ("count", "sum", "min", "max", "any", "all", "distinct")

_ARITH = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": operator.floordiv,
    "%": operator.mod,
}
_COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


#: Deepest expression accepted; real ones are under 10. Deeper input is refused before the
#: (recursive) compiler sees it, so no input can exhaust the Python stack.
MAX_DEPTH = 100


def expression_depth(node: s.Expr) -> int:
    """The nesting depth of an expression, measured without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(node, 1)]
    while stack:
        current, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return deepest
        for attr in getattr(current, "__slots__", ()):
            child = getattr(current, attr)
            children = child if isinstance(child, tuple) else (child,)
            for c in children:
                if hasattr(c, "span") and not isinstance(c, Span):
                    stack.append((c, depth + 1))
    return deepest


def _located(fn: Fn, span: Span) -> Fn:
    """`fn`, with any failure of a Python operation reported as an ExpressionError at `span`
    (the whole expression; a division by zero is reported at its own operator)."""

    def evaluate(env: Env) -> Any:
        try:
            return fn(env)
        except ExpressionError:
            raise
        except _RUN_TIME_FAILURES as exc:
            message = f"the expression failed: {type(exc).__name__}: {exc}"
            raise ExpressionError(message, span) from None

    return evaluate


#: Largest constant folded when looking for a division by zero (a bound on the work).
_FOLD_LIMIT = 10**60


def constant_value(node: s.Expr) -> int | None:
    """The value of an integer expression made only of literals (`2 - 2`, `-(3 % 3)`), or
    None when it reads anything else, so `validate` can refuse a constant division by zero."""
    if isinstance(node, s.Literal):
        value = node.value
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(node, s.Unary) and node.op == "-":
        inner = constant_value(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, s.Binary) and node.op in _ARITH:
        left, right = constant_value(node.left), constant_value(node.right)
        if left is None or right is None or (node.op in ("//", "%") and right == 0):
            return None
        value = _ARITH[node.op](left, right)
        return value if abs(value) <= _FOLD_LIMIT else None
    return None


class ExpressionCompiler:
    def __init__(self, scope: Scope, diags: Diagnostics):
        self.scope = scope
        self.diags = diags

    def compile(self, node: s.Expr, expected: str) -> Fn | None:
        """Compile `node`; report problems and return None if it cannot be compiled."""
        result = self._compile(node, {})
        if result is None:
            return None
        fn, typ = result
        if expected == "bool" and typ not in ("bool", "any"):
            self._error(node.span, f"expected a condition (true or false), found {_words(typ)}")
            return None
        if expected == "number" and typ not in ("int", "any"):
            self._error(node.span, f"expected a number, found {_words(typ)}")
            return None
        return _located(fn, node.span)

    def _error(self, span: Span, message: str, code: str = "E0292", hint: str | None = None):
        self.diags.error(code, message, span, hint)

    def _compile(self, node: s.Expr, local: dict[str, str]) -> tuple[Fn, str] | None:
        method = getattr(self, f"_c_{type(node).__name__}")
        return method(node, local)

    # -- atoms --
    def _c_Literal(self, node: s.Literal, local):
        value = node.value
        typ = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "str"
        return (lambda env: value), typ

    def _c_NameRef(self, node: s.NameRef, local):
        name = node.name
        if name in local:
            return (lambda env: env[name]), local[name]
        if name in self.scope.variables:
            return (lambda env: env[name]), self.scope.variables[name]
        if name in self.scope.constants:
            typ, value = self.scope.constants[name]
            return (lambda env: value), typ
        if name in self.scope.broken:
            return None
        known = list(local) + list(self.scope.variables) + list(self.scope.constants)
        self._error(
            node.span,
            f"unknown name '{name}'",
            "E0220",
            did_you_mean(name, known) or ("names here: " + ", ".join(sorted(known))),
        )
        return None

    def _c_ListExpr(self, node: s.ListExpr, local):
        parts = [self._compile(item, local) for item in node.items]
        if any(p is None for p in parts):
            return None
        fns = [p[0] for p in parts if p is not None]
        literals = [item for item in node.items if isinstance(item, s.Literal)]
        if len(literals) == len(node.items):
            constant = tuple(item.value for item in literals)
            return (lambda env: constant), "list"
        return (lambda env: tuple(f(env) for f in fns)), "list"

    # -- operators --
    def _c_Unary(self, node: s.Unary, local):
        inner = self._compile(node.operand, local)
        if inner is None:
            return None
        fn, typ = inner
        if node.op == "-":
            if not self._expect(typ, "int", node.operand.span, "'-'"):
                return None
            return (lambda env: -fn(env)), "int"
        if not self._expect(typ, "bool", node.operand.span, "'not'"):
            return None
        return (lambda env: not fn(env)), "bool"

    def _c_Binary(self, node: s.Binary, local):
        left = self._compile(node.left, local)
        right = self._compile(node.right, local)
        if left is None or right is None:
            return None
        lf, lt = left
        rf, rt = right
        op = node.op
        if op in _ARITH:
            if not (
                self._expect(lt, "int", node.left.span, f"'{op}'")
                and self._expect(rt, "int", node.right.span, f"'{op}'")
            ):
                return None
            fn = _ARITH[op]
            if op in ("//", "%"):
                span = node.span
                if constant_value(node.right) == 0:
                    self._error(
                        node.right.span,
                        f"division by zero: the right of '{op}' is always 0",
                        "E0293",
                        "divide by a number that cannot be 0",
                    )
                    return None

                def divide(env, lf=lf, rf=rf, fn=fn):
                    divisor = rf(env)
                    if divisor == 0:
                        raise ExpressionError("division by zero", span)
                    return fn(lf(env), divisor)

                return divide, "int"
            return (lambda env: fn(lf(env), rf(env))), "int"
        if op in _COMPARE:
            fn = _COMPARE[op]
            if op in ("<", "<=", ">", ">=") and not (
                self._expect(lt, "int", node.left.span, f"'{op}'")
                and self._expect(rt, "int", node.right.span, f"'{op}'")
            ):
                return None
            return (lambda env: fn(lf(env), rf(env))), "bool"
        if op in ("in", "not_in"):
            if not rt.startswith("list") and rt != "any":
                self._error(node.right.span, f"'in' needs a list on its right, found {_words(rt)}")
                return None
            if op == "in":
                return (lambda env: lf(env) in rf(env)), "bool"
            return (lambda env: lf(env) not in rf(env)), "bool"
        if op in ("and", "or"):
            if not (
                self._expect(lt, "bool", node.left.span, f"'{op}'")
                and self._expect(rt, "bool", node.right.span, f"'{op}'")
            ):
                return None
            if op == "and":
                return (lambda env: lf(env) and rf(env)), "bool"
            return (lambda env: lf(env) or rf(env)), "bool"
        raise AssertionError(op)

    def _expect(self, typ: str, want: str, span: Span, what: str) -> bool:
        if typ == want or typ == "any":
            return True
        self._error(span, f"{what} needs {_words(want)}, found {_words(typ)}")
        return False

    # -- indexing and attributes --
    def _c_Index(self, node: s.Index, local):
        target = self._compile(node.target, local)
        index = self._compile(node.index, local)
        if target is None or index is None:
            return None
        tf, tt = target
        xf, _ = index
        span = node.span
        if tt.startswith("collection:"):
            kind = tt.split(":", 1)[1]

            def get_record(env):
                name = xf(env)
                collection = tf(env)
                if name not in collection:
                    raise ExpressionError(f"no {kind} named '{name}'", span)
                return collection[name]

            return get_record, f"record:{kind}"
        if tt == "table":

            def get_entry(env):
                table = tf(env)
                key = xf(env)
                if key not in table:
                    raise ExpressionError(
                        f"the table has no entry for {key}; use lookup(table, key, default)", span
                    )
                return table[key]

            return get_entry, "int"
        if tt.startswith("list") or tt == "any":
            return (lambda env: tf(env)[xf(env)]), "any"
        self._error(node.target.span, f"{_words(tt)} cannot be indexed with [ ]")
        return None

    def _c_Attribute(self, node: s.Attribute, local):
        target = self._compile(node.target, local)
        if target is None:
            return None
        tf, tt = target
        if not tt.startswith("record:"):
            self._error(node.span, f"{_words(tt)} has no fields")
            return None
        kind = tt.split(":", 1)[1]
        fields = self.scope.field_types.get(kind, {})
        if node.name not in fields:
            self._error(
                node.span,
                f"a {kind} has no field '{node.name}'",
                "E0220",
                did_you_mean(node.name, fields),
            )
            return None
        name = node.name
        return (lambda env: tf(env).fields[name]), fields[name]

    # -- calls --
    def _c_Call(self, node: s.Call, local):
        spec = _FUNCTIONS.get(node.function)
        if spec is None:
            self._error(
                node.name_span,
                f"unknown function '{node.function}'",
                "E0290",
                did_you_mean(node.function, _FUNCTIONS)
                or "functions: " + ", ".join(sorted(_FUNCTIONS)),
            )
            return None
        lo, hi, doc = spec
        if not lo <= len(node.args) <= hi:
            self._error(
                node.span, f"{node.function}() takes {_arity(lo, hi)}", "E0291", f"usage: {doc}"
            )
            return None
        args = [self._compile(a, local) for a in node.args]
        if any(a is None for a in args):
            return None
        fns = [a[0] for a in args if a is not None]
        types = [a[1] for a in args if a is not None]
        name = node.function
        if name == "lookup":
            if types[0] != "table":
                self._error(
                    node.args[0].span, f"lookup() needs a table first, found {_words(types[0])}"
                )
                return None
            tf, kf, df = fns
            return (lambda env: tf(env).get(kf(env), df(env))), "int"
        if name in ("min", "max") and len(fns) > 1:
            for t, a in zip(types, node.args, strict=True):
                if not self._expect(t, "int", a.span, f"{name}()"):
                    return None
            pick = min if name == "min" else max
            return (lambda env: pick(f(env) for f in fns)), "int"
        (f,) = fns
        (t,) = types
        if not (t.startswith("list") or t == "any"):
            self._error(node.args[0].span, f"{name}() needs a list, found {_words(t)}")
            return None
        return _reducer(name, f), _result_type(name)

    def _c_Generator(self, node: s.Generator, local):
        if node.function not in _GENERATOR_FUNCTIONS:
            self._error(
                node.name_span,
                f"'{node.function}(… for …)' is not a reduction",
                "E0290",
                "reductions: " + ", ".join(_GENERATOR_FUNCTIONS),
            )
            return None
        iterable = self._compile(node.iterable, local)
        if iterable is None:
            return None
        itf, itt = iterable
        if not (itt.startswith("list") or itt == "any"):
            self._error(node.iterable.span, f"'for … in' needs a list, found {_words(itt)}")
            return None
        elem_type = f"record:{itt.split(':', 1)[1]}" if itt.startswith("list:") else "any"
        inner = dict(local)
        inner[node.var] = elem_type
        element = self._compile(node.element, inner)
        cond = self._compile(node.condition, inner) if node.condition is not None else None
        if element is None or (node.condition is not None and cond is None):
            return None
        ef, _ = element
        var = node.var
        if cond is None:

            def items(env):
                scope = dict(env)
                out = []
                for x in itf(env):
                    scope[var] = x
                    out.append(ef(scope))
                return out
        else:
            cf = cond[0]

            def items(env):
                scope = dict(env)
                out = []
                for x in itf(env):
                    scope[var] = x
                    if cf(scope):
                        out.append(ef(scope))
                return out

        return _reducer(node.function, items), _result_type(node.function)


def _reducer(name: str, items: Fn) -> Fn:
    if name == "count":
        return lambda env: len(items(env))
    if name == "distinct":
        return lambda env: len(set(items(env)))
    if name == "sum":
        return lambda env: sum(items(env))
    if name == "min":
        return lambda env: min(items(env), default=0)
    if name == "max":
        return lambda env: max(items(env), default=0)
    if name == "any":
        return lambda env: any(items(env))
    if name == "all":
        return lambda env: all(items(env))
    raise AssertionError(name)


def _result_type(name: str) -> str:
    return "bool" if name in ("any", "all") else "int"


def _arity(lo: int, hi: int) -> str:
    if lo == hi:
        return f"{lo} argument{'s' if lo != 1 else ''}"
    return f"{lo} to {hi} arguments"


def _words(typ: str) -> str:
    if typ.startswith("record:"):
        return f"a {typ.split(':', 1)[1]}"
    if typ.startswith("collection:"):
        return f"the {typ.split(':', 1)[1]} collection"
    if typ.startswith("list"):
        return "a list"
    return {
        "int": "a number",
        "bool": "true or false",
        "str": "text",
        "table": "a table",
        "any": "a value",
    }.get(typ, typ)


def expression_source(source_text: str, span: Span) -> str:
    """The text of an expression as written (single line, for JSON and messages)."""
    from .source import split_lines

    lines = split_lines(source_text)
    if span.line == span.end_line:
        return lines[span.line - 1][span.column - 1 : span.end_column - 1]
    parts = [lines[span.line - 1][span.column - 1 :]]
    parts.extend(lines[span.line : span.end_line - 1])
    parts.append(lines[span.end_line - 1][: span.end_column - 1])
    return " ".join(p.strip() for p in parts)
