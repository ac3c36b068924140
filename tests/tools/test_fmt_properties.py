"""Formatting never changes meaning, and formatting twice changes nothing.

Two sources of input: the bundled rule files with their whitespace and comments mutated (these
compile, so the compiled rule sets' hashes must agree), and rule files generated from the
grammar (these rarely compile, so their syntax trees, without source positions, must agree).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from castell_dsl.language.compiler import compile_rules
from castell_dsl.language.diagnostics import Diagnostics, Span
from castell_dsl.language.loader import Loader
from castell_dsl.language.parser import KEYWORDS, parse
from castell_dsl.language.source import Source
from castell_dsl.runtime.loading import find_mechanics, mechanics_names, rule_path
from castell_dsl.tools.formatter import format_text

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted(
    p.relative_to(ROOT).as_posix()
    for pattern in ("rules/**/*.castell", "docs/examples/**/*.castell")
    for p in ROOT.glob(pattern)
)


def fmt(text: str) -> str:
    result = format_text(text)
    assert result.text is not None, result.diagnostics
    return result.text


def strip_spans(node: object) -> object:
    """A syntax tree as plain data without positions, for comparing meaning."""
    if isinstance(node, Span):
        return None
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (
            type(node).__name__,
            tuple(
                (f.name, strip_spans(getattr(node, f.name)))
                for f in dataclasses.fields(node)
                if not f.name.endswith("span") and f.name != "path"
            ),
        )
    if isinstance(node, tuple | list):
        return tuple(strip_spans(n) for n in node)
    return node


def syntax(text: str) -> object:
    tree = parse(Source("x.castell", text), Diagnostics())
    assert tree is not None
    return strip_spans(tree)


def compiled_hash(text: str, path: str) -> str | None:
    """Compile text as if it were the file at `path` (its includes and bases resolve from
    there); from text, so no cache keyed by file size and time can answer for another text."""
    diags = Diagnostics()
    defs = Loader(rule_path(), diags).load_text(text, str(ROOT / path))
    if defs is None or diags.has_errors:
        return None
    rules = compile_rules(defs, diags, find_mechanics, mechanics_names())
    return rules.hash if rules is not None and not diags.has_errors else None


@pytest.mark.parametrize("path", BUNDLED)
def test_formatting_a_bundled_file_keeps_its_rule_set(path):
    original = (ROOT / path).read_text(encoding="utf-8")
    formatted = fmt(original)
    assert fmt(formatted) == formatted
    assert syntax(formatted) == syntax(original)
    before = compiled_hash(original, path)
    assert before is not None or "pebbles" in path  # its game is an example, not installed
    assert compiled_hash(formatted, path) == before


# ---- mutated bundled files --------------------------------------------------------------------

_CODE_AND_COMMENT = re.compile(r'^((?:[^"#]|"(?:[^"\\\n]|\\.)*")*)(#.*)?$')


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, str]:
    """A bundled file with its indentation, spaces between tokens, blank lines and comments
    changed at random (never inside a string, never so that two tokens touch)."""
    path = draw(st.sampled_from(BUNDLED))
    out = []
    for line in (ROOT / path).read_text(encoding="utf-8").splitlines():
        match = _CODE_AND_COMMENT.match(line)
        assert match is not None
        code, comment = match.group(1), match.group(2) or ""
        pieces = re.split(r'("(?:[^"\\\n]|\\.)*")', code.strip())
        spaced = "".join(
            p if i % 2 else re.sub(r" +", lambda _m: " " * draw(st.integers(1, 4)), p)
            for i, p in enumerate(pieces)
        )
        indent = " " * draw(st.integers(0, 6))
        if code.strip() and not comment and draw(st.integers(0, 9)) == 0:
            comment = "# added"
        if draw(st.integers(0, 14)) == 0:
            out.append(indent + "# a comment of its own")
        if draw(st.integers(0, 14)) == 0:
            out.append("")
        out.append((indent + spaced + ("  " + comment if comment else "")).rstrip())
    return path, "\n".join(out) + "\n"


@settings(max_examples=30)
@given(mutated())
def test_mutated_bundled_files_format_to_the_same_rule_set(case):
    path, text = case
    formatted = fmt(text)
    assert fmt(formatted) == formatted
    assert syntax(formatted) == syntax(text)
    assert formatted.count("#") >= text.count("#") - text.count('"#')
    assert compiled_hash(formatted, path) == compiled_hash(text, path)


# ---- rule files generated from the grammar ----------------------------------------------------

NAMES = st.sampled_from(["a", "bee", "c_1", "region", "points", "x"]).filter(
    lambda n: n not in KEYWORDS
)
GAPS = st.sampled_from([" ", "  ", "\n", "\n\n", " # note\n", "\n  # own line\n", "\t"])


def tokens(draw: st.DrawFn, parts: list[str]) -> str:
    """Join tokens with random whitespace and comments between them."""
    return "".join(p + (draw(GAPS) if i < len(parts) - 1 else "") for i, p in enumerate(parts))


@st.composite
def values(draw: st.DrawFn, depth: int = 0) -> list[str]:
    kinds = ["int", "str", "name", "bool", "range"] + (
        ["list", "block", "map"] if depth < 3 else []
    )
    kind = draw(st.sampled_from(kinds))
    if kind == "int":
        return [str(draw(st.integers(-50, 50)))]
    if kind == "str":
        return ['"' + draw(st.sampled_from(["", "x y", 'q\\"', "#no comment"])) + '"']
    if kind == "name":
        return [draw(NAMES)]
    if kind == "bool":
        return [draw(st.sampled_from(["true", "false"]))]
    if kind == "range":
        return [f"{draw(st.integers(-3, 3))}..{draw(st.integers(4, 9))}"]
    if kind == "list":
        items = draw(st.lists(values(depth + 1), max_size=4))
        body = [t for i, item in enumerate(items) for t in ([","] if i else []) + item]
        return ["[", *body, *([","] if items and draw(st.booleans()) else []), "]"]
    if kind == "map":
        items = draw(st.lists(values(depth + 1), min_size=1, max_size=3))
        body: list[str] = []
        for i, item in enumerate(items):
            body += ([","] if i else []) + [draw(NAMES), ":", *item]
        return ["{", *body, "}"]
    return ["{", *[t for e in draw(st.lists(entries(depth + 1), max_size=3)) for t in e], "}"]


def operand(tokens: list[str]) -> list[str]:
    return tokens if len(tokens) == 1 else ["(", *tokens, ")"]


@st.composite
def expressions(draw: st.DrawFn, depth: int = 0) -> list[str]:
    if depth > 2:
        return [draw(st.sampled_from(["1", "x", '"s"', "true"]))]
    form = draw(st.sampled_from(["atom", "binary", "not", "neg", "call", "gen", "paren", "index"]))
    sub = expressions(depth + 1)
    if form == "atom":
        return [draw(st.sampled_from(["1", "x", '"s"', "false"]))]
    if form == "binary":  # operands in parentheses: `a == b == c` and `a - not b` do not parse
        op = draw(st.sampled_from(["+", "-", "*", "//", "%", "==", "<=", "in", "and", "or"]))
        return [*operand(draw(sub)), op, *operand(draw(sub))]
    if form == "not":
        return ["not", *draw(sub)]
    if form == "neg":
        return ["-", *operand(draw(sub))]
    if form == "call":
        return [draw(NAMES), "(", *draw(sub), ",", *draw(sub), ")"]
    if form == "gen":
        return ["sum", "(", *draw(sub), "for", "p", "in", *draw(sub), "if", *draw(sub), ")"]
    if form == "index":
        return [draw(NAMES), "[", *draw(sub), "]", ".", draw(NAMES)]
    return ["(", *draw(sub), ")"]


@st.composite
def entries(draw: st.DrawFn, depth: int = 0) -> list[str]:
    key = draw(NAMES)
    form = draw(st.sampled_from(["plain", "labelled", "expr"]))
    when = ["when", *draw(expressions())] if draw(st.integers(0, 3)) == 0 else []
    if form == "plain":
        return [key, *draw(values(depth)), *when]
    if form == "labelled":
        body = draw(values(depth).filter(lambda v: v[0] == "{"))
        return [key, draw(st.sampled_from(['"label x"', "lbl"])), *body, *when]
    return [key, *([draw(NAMES)] if draw(st.booleans()) else []), "=", *draw(expressions())]


@st.composite
def rule_files(draw: st.DrawFn) -> str:
    parts: list[str] = []
    if draw(st.booleans()):
        parts += ["extends", '"castell"']
    for entry in draw(st.lists(entries(), min_size=1, max_size=5)):
        parts += entry
    if draw(st.booleans()):
        parts += ["override", draw(NAMES), "{", draw(NAMES), "1", "}"]
    if draw(st.booleans()):
        parts += ["remove", draw(NAMES), draw(NAMES), ",", '"b c"']
    return tokens(draw, parts) + draw(st.sampled_from(["", "\n", "\n# last\n"]))


@given(rule_files())
@example(  # a `when` continued after a block's `}`, with comments: aligned once, not twice
    'extends "castell" a "label x" { a 0 when a ( a ( 1 + 1 , sum ( 1 for p in 1 if 1 ) ) , '
    "sum ( 1 for p in ( 1 ) if 1 + 1 ) ) } when # note\n( ( 1 ) ) + ( ( a ( 1 , 1 ) ) + "
    '( ( 1 ) )\n) # note\nremove a a , "b c"'
)
def test_generated_rule_files_keep_their_syntax_and_format_once(text):
    formatted = fmt(text)
    assert syntax(formatted) == syntax(text)
    assert fmt(formatted) == formatted
    assert formatted.count("# note") + formatted.count("# own line") == text.count(
        "# note"
    ) + text.count("# own line")
