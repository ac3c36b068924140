"""Text to syntax tree, with syntax errors a person can act on.

The grammar is data (`grammar/castell.lark`); the LALR parser lark builds from it (about 40 ms)
is generated once and shipped beside it as JSON (`parser_tables.py`), and loaded in a few
milliseconds when it was generated from this very grammar and lark. Nothing is cached on disk at
run time: lark's cache is a pickle, and a pickle read from a place another user can write is
code that user runs (see docs/security.md). The transformer turns lark's parse tree into the
nodes of `syntax.py`, each with its span, without recursion.

Syntax errors become diagnostics: the expected tokens in words, the common mistakes (missing
comma, missing brace, missing value) recognised with lark's `match_examples`, and a "did you
mean" when a misspelt keyword is the likely cause.
"""

from __future__ import annotations

import difflib
import gc
from functools import cache
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from ..resources import grammar_path
from . import parser_tables
from . import syntax as s
from .diagnostics import Diagnostics, Span
from .source import MAX_INT_DIGITS, Source, check_nesting, open_brackets, split_lines

KEYWORDS = (
    "include", "extends", "override", "remove", "when", "for", "in", "if", "and", "or", "not",
    "true", "false",
)  # fmt: skip

#: Words for terminals in "expected ..." messages.
_TERMINAL_WORDS = {
    "NAME": "a name",
    "STRING": "a string",
    "INT": "a number",
    "MINUS": "'-'",
    "PLUS": "'+'",
    "MUL_OP": "an operator",
    "COMPARE": "a comparison",
    "$END": "the end of the file",
}

#: Typical mistakes, recognised by the parser state they leave it in (lark's match_examples).
_EXAMPLES: dict[str, list[str]] = {
    "missing-value": [
        "x }",
        "x { y }",
        "x ]",
        "x { y ]",
        "x { y: }",
        "x { y: 1, z: }",
        "x { y = }",
        "x = }",
    ],
    "missing-expression": [
        "x { y when }",
        "x { y = 1 + }",
        "x { y = (1 + 2 }",
    ],
    "stray-close": [
        "}",
        "x 1 }",
        "x { } }",
        "]",
        "x { y 1 } ]",
    ],
}

_MESSAGES = {
    "missing-value": ("E0105", "missing value", "every key needs a value, e.g. `rounds 10`"),
    "missing-expression": ("E0105", "missing expression", None),
    "stray-close": (
        "E0112",
        "closing bracket without a matching opening one",
        "remove it, or add the opening bracket it was meant to close",
    ),
}


def _span(path: str, meta: Any) -> Span:
    return Span(path, meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_span(path: str, tok: Token) -> Span:
    """A token's span (lark always sets positions on tokens it lexed)."""
    line, column = tok.line or 1, tok.column or 1
    return Span(path, line, column, tok.end_line or line, tok.end_column or column + 1)


class _NumberTooLarge(Exception):
    def __init__(self, token: Token):
        self.token = token


class _ToSyntax:
    """Turns lark's parse tree into `syntax` nodes, without recursion (deep input is safe).

    A method per grammar rule (or alias) is called with the node's positions (lark's `meta`)
    and its children already converted, as lark's `Transformer_NonRecursive` with
    `v_args(meta=True, inline=True)` would call it; a failure in one is raised as lark's
    `VisitError`, as there. The loop is our own because lark's looks each method up through
    `v_args`, which wraps it anew for every node: that was half of the conversion's time.
    """

    def __init__(self, path: str):
        self.path = path

    def transform(self, tree: Tree) -> Any:
        """The syntax node for `tree`: its nodes in reverse postfix order, then built bottom-up
        on a stack (tokens are kept as they are)."""
        order: list[Tree | Token] = []
        pending: list[Tree | Token] = [tree]
        while pending:
            node = pending.pop()
            order.append(node)
            if isinstance(node, Tree):
                pending += node.children
        stack: list[Any] = []
        for node in reversed(order):
            if not isinstance(node, Tree):
                stack.append(node)
                continue
            size = len(node.children)
            args = stack[-size:] if size else []
            if size:
                del stack[-size:]
            try:
                stack.append(getattr(self, node.data)(node.meta, *args))
            except Exception as exc:
                raise VisitError(node.data, node, exc) from exc
        (result,) = stack
        return result

    def _int(self, tok: Token) -> int:
        if len(tok) > MAX_INT_DIGITS:
            raise _NumberTooLarge(tok)
        return int(tok)

    # -- top level --
    def start(self, meta, *items):
        return tuple(items)

    def include(self, meta, path):
        return s.Include(_unquote(path), _span(self.path, meta))

    def extends(self, meta, target):
        return s.Extends(_unquote(target), _span(self.path, meta))

    def override(self, meta, kind, *rest):
        label = label_span = None
        if len(rest) == 2:
            (label, label_span), body = rest
        else:
            (body,) = rest
        return s.Override(
            str(kind), _tok_span(self.path, kind), label, label_span, body, _span(self.path, meta)
        )

    def remove(self, meta, kind, *labels):
        return s.Remove(
            str(kind), _tok_span(self.path, kind), tuple(labels), _span(self.path, meta)
        )

    def label(self, meta, tok):
        text = _unquote(tok) if tok.type == "STRING" else str(tok)
        return (text, _tok_span(self.path, tok))

    # -- entries --
    def plain_entry(self, meta, key, value, condition=None):
        return s.Entry(
            str(key), _tok_span(self.path, key), None, None, value, None, condition,
            _span(self.path, meta),
        )  # fmt: skip

    def labelled_entry(self, meta, key, label, body, condition=None):
        return s.Entry(
            str(key), _tok_span(self.path, key), label[0], label[1], body, None, condition,
            _span(self.path, meta),
        )  # fmt: skip

    def expr_entry(self, meta, key, *rest):
        if len(rest) == 2:
            (label, label_span), expr = rest
        else:
            label = label_span = None
            (expr,) = rest
        return s.Entry(
            str(key), _tok_span(self.path, key), label, label_span, None, expr, None,
            _span(self.path, meta),
        )  # fmt: skip

    def condition(self, meta, expr):
        return expr

    # -- values --
    def integer(self, meta, *toks):
        value = self._int(toks[-1])
        return s.Scalar(-value if len(toks) == 2 else value, "int", _span(self.path, meta))

    def string(self, meta, tok):
        return s.Scalar(_unquote(tok), "str", _span(self.path, meta))

    def symbol(self, meta, tok):
        return s.Scalar(str(tok), "symbol", _span(self.path, meta))

    def true(self, meta):
        return s.Scalar(True, "bool", _span(self.path, meta))

    def false(self, meta):
        return s.Scalar(False, "bool", _span(self.path, meta))

    def range(self, meta, low, high):
        return s.RangeValue(low.value, high.value, _span(self.path, meta))

    def list(self, meta, *items):
        return s.ListValue(tuple(items), _span(self.path, meta))

    def block(self, meta, *entries):
        return s.Block(tuple(entries), _span(self.path, meta))

    def map(self, meta, *items):
        return s.MapValue(tuple(items), _span(self.path, meta))

    def map_item(self, meta, key, value):
        return s.MapItem(key, value, _span(self.path, meta))

    # -- expressions --
    def or_(self, meta, *parts):
        return self._chain("or", parts, meta)

    def and_(self, meta, *parts):
        return self._chain("and", parts, meta)

    def _chain(self, op, parts, meta):
        node = parts[0]
        for part in parts[1:]:
            node = s.Binary(op, node, part, _span(self.path, meta))
        return node

    def not_(self, meta, operand):
        return s.Unary("not", operand, _span(self.path, meta))

    def compare(self, meta, left, op=None, right=None):
        if op is None:
            return left
        return s.Binary(str(op), left, right, _span(self.path, meta))

    def in_(self, meta, left, right):
        return s.Binary("in", left, right, _span(self.path, meta))

    def not_in(self, meta, left, right):
        return s.Binary("not_in", left, right, _span(self.path, meta))

    def arith(self, meta, first, *rest):
        node = first
        for op, operand in zip(rest[::2], rest[1::2], strict=True):
            node = s.Binary(str(op), node, operand, _span(self.path, meta))
        return node

    def neg(self, meta, _minus, operand):
        return s.Unary("-", operand, _span(self.path, meta))

    def index(self, meta, target, idx):
        return s.Index(target, idx, _span(self.path, meta))

    def attribute(self, meta, target, name):
        return s.Attribute(target, str(name), _span(self.path, meta))

    def number(self, meta, tok):
        return s.Literal(self._int(tok), _span(self.path, meta))

    def text(self, meta, tok):
        return s.Literal(_unquote(tok), _span(self.path, meta))

    def name(self, meta, tok):
        return s.NameRef(str(tok), _span(self.path, meta))

    def call(self, meta, name, *args):
        args = tuple(a for a in args if a is not None)
        return s.Call(str(name), args, _span(self.path, meta), _tok_span(self.path, name))

    def generator(self, meta, name, element, var, iterable, condition=None):
        return s.Generator(
            str(name), element, str(var), iterable, condition, _span(self.path, meta),
            _tok_span(self.path, name),
        )  # fmt: skip

    def list_expr(self, meta, *items):
        return s.ListExpr(tuple(i for i in items if i is not None), _span(self.path, meta))


def _unquote(tok: str) -> str:
    body = tok[1:-1]
    if "\\" not in body:
        return body
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


@cache
def _parser() -> Lark:
    """The parser from the tables shipped beside the grammar, or built from the grammar when
    they are not for this grammar (never lark's `cache=True`: a pickle in the shared
    temporary directory)."""
    grammar = grammar_path().read_text(encoding="utf-8")
    return parser_tables.load(grammar) or parser_tables.build(grammar)


def parse(source: Source, diags: Diagnostics) -> s.RuleFile | None:
    """Parse one source file; on failure report the first syntax error and return None."""
    if not source.text.strip() or not _has_content(source.text):
        diags.error(
            "E0110",
            "empty rule file",
            Span.point(source.path),
            'a rule file starts with a `game` block, or with `extends "castell"` for a variant',
        )
        return None
    if not check_nesting(source, diags):
        return None
    # The parse builds a few objects per byte and no reference cycles; the cyclic garbage
    # collector, run again and again as they accumulate, made a large file's parse grow faster
    # than its size (8x the input took 14x the time). It is paused for the parse only.
    paused = gc.isenabled()
    gc.disable()
    try:
        items = _ToSyntax(source.path).transform(_parser().parse(source.text))
    except (UnexpectedInput, VisitError) as exc:
        _report_syntax_error(source, exc, diags)
        return None
    finally:
        if paused:
            gc.enable()
    return s.RuleFile(source.path, items)


def _has_content(text: str) -> bool:
    return any(line.strip() and not line.strip().startswith("#") for line in split_lines(text))


# ---- syntax errors ----------------------------------------------------------------------------


def _describe_terminal(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    try:
        pattern = _parser().get_terminal(name).pattern
    except KeyError:
        return name.lower()
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return name.lower()


def _expected_words(expected) -> str:
    words = sorted({_describe_terminal(e) for e in expected})
    if len(words) > 6:
        # Long lists do not help a person; name the common groups.
        keep = [w for w in words if w in ("a name", "a number", "a string", "'}'", "']'", "','")]
        words = keep or words[:6]
        return ", ".join(words) + " or another token"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _found_words(tok: Token) -> str:
    if tok.type == "$END":
        return "the end of the file"
    return f"'{tok}'" if len(tok) <= 30 else f"'{tok[:27]}...'"


_TOP_LEVEL_KEYWORDS = {"OVERRIDE", "REMOVE", "INCLUDE", "EXTENDS"}
_VALUE_STARTS = {"NAME", "INT", "STRING", "MINUS", "LSQB", "LBRACE", "TRUE", "FALSE"}


def _report_syntax_error(
    source: Source, exc: UnexpectedInput | VisitError, diags: Diagnostics
) -> None:
    path = source.path
    if isinstance(exc, VisitError):
        if not isinstance(exc.orig_exc, _NumberTooLarge):
            raise exc.orig_exc
        tok = exc.orig_exc.token
        diags.error(
            "E0109",
            f"number with {len(tok)} digits is too large",
            _tok_span(path, tok),
            f"numbers in rule files have at most {MAX_INT_DIGITS} digits",
        )
        return
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        ch = source.text[pos] if pos < len(source.text) else ""
        span = Span(path, exc.line, exc.column, exc.line, exc.column + 1)
        if ch == '"':
            diags.error(
                "E0102", "unterminated string", span, "close the string with '\"' on the same line"
            )
        else:
            shown = repr(ch) if ch.isprintable() and ch.strip() else f"U+{ord(ch):04X}"
            diags.error(
                "E0101",
                f"unexpected character {shown}",
                span,
                "names use letters, digits and '_'; text goes in double quotes",
            )
        return
    if isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    ):
        _report_eof(source, diags, getattr(exc, "expected", set()))
        return
    assert isinstance(exc, UnexpectedToken)
    tok = exc.token
    span = _tok_span(path, tok)
    expected_names = set(exc.accepts or exc.expected)
    previous = _tokens_before(source, tok)
    if tok.type in _TOP_LEVEL_KEYWORDS:
        opener = _unclosed_bracket(Source(source.path, source.text[: tok.start_pos]))
        if opener is not None:
            ch, line, column = opener
            closer = {"{": "}", "[": "]", "(": ")"}[ch]
            diags.error(
                "E0111",
                f"'{ch}' is not closed before '{tok}' on line {tok.line}",
                Span(path, line, column, line, column + 1),
                f"add '{closer}' where this block ends",
            )
            return
    if "COMMA" in expected_names and tok.type in _VALUE_STARTS:
        where = {"[": "list items", "{": "map entries", "(": "arguments"}.get(
            _innermost_bracket(source.text[: tok.start_pos]), "items"
        )
        diags.error(
            "E0104",
            f"missing comma between {where} before {_found_words(tok)}",
            span,
            "separate items with ','",
        )
        return
    try:
        label = exc.match_examples(_parser().parse, _EXAMPLES, use_accepts=True)
    except Exception:  # classification is a nicety; never let it hide the real error
        label = None
    expected = _expected_words(expected_names)
    if label is not None:
        code, message, hint = _MESSAGES[label]
        if label.startswith("missing-"):
            after = previous[-1] if previous else None
            where = f" after '{after}'" if after is not None else ""
            message = f"{message}{where}: found {_found_words(tok)}"
        diags.error(code, message, span, hint)
        return
    keyword_hint = _misspelt_keyword(previous)
    if keyword_hint is not None:
        kw_tok, suggestion = keyword_hint
        diags.error(
            "E0113",
            f"unexpected {_found_words(tok)}: '{kw_tok}' is not a keyword",
            _tok_span(path, kw_tok),
            f"did you mean '{suggestion}'?",
        )
        return
    diags.error("E0100", f"expected {expected}, found {_found_words(tok)}", span)


def _report_eof(source: Source, diags: Diagnostics, expected) -> None:
    """Point at the bracket that was never closed, which is where the mistake usually is."""
    opener = _unclosed_bracket(source)
    lines = split_lines(source.text) or [""]
    last_line = len(lines)
    end = Span(source.path, last_line, len(lines[-1]) + 1, last_line, len(lines[-1]) + 2)
    if opener is not None:
        ch, line, column = opener
        closer = {"{": "}", "[": "]", "(": ")"}[ch]
        diags.error(
            "E0111",
            f"'{ch}' is never closed",
            Span(source.path, line, column, line, column + 1),
            f"add '{closer}' where this block ends",
        )
        return
    words = _expected_words(expected) if expected else "more input"
    diags.error("E0103", f"unexpected end of file: expected {words}", end)


def _unclosed_bracket(source: Source) -> tuple[str, int, int] | None:
    still_open = open_brackets(source.text)
    return still_open[-1] if still_open else None


def _tokens_before(source: Source, err: Token, count: int = 4) -> list[Token]:
    """The last few tokens before the error token (re-lexed; errors in lexing give none)."""
    try:
        tokens = list(_parser().lex(source.text[: err.start_pos]))
    except UnexpectedInput:
        return []
    return tokens[-count:]


def _innermost_bracket(text: str) -> str:
    still_open = open_brackets(text)
    return still_open[-1][0] if still_open else ""


def _misspelt_keyword(previous: list[Token]) -> tuple[Token, str] | None:
    """If a name just before the error is a near-miss of a keyword, return it and the keyword.

    `step refill whn round >= 2` parses `whn round` as an entry and fails at `>=`; the real
    mistake is the misspelt `when` two tokens earlier.
    """
    for tok in reversed(previous):
        if tok.type != "NAME" or tok in KEYWORDS:
            continue
        close = difflib.get_close_matches(str(tok), KEYWORDS, n=1, cutoff=0.75)
        if close:
            return tok, close[0]
    return None
