"""`castell fmt` keeps the rules hash for every text the language accepts, whatever characters
its comments and strings hold (issue 27, point 11).

A comment runs to the end of its line (`#[^\\n]*`) and a string holds anything but a quote,
a backslash (except in an escape) or a line feed, so both may hold a lone carriage return, a
form feed, U+0085, U+2028, control characters, private-use and astral characters. The parser
numbers lines at line feeds only; the formatter once split lines with `str.splitlines`, which
also splits at those, so it took an expression's text from the wrong line and changed the
rules or broke the file. These fuzzers draw from the full character range.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_fmt_properties import ROOT, compiled_hash, fmt, syntax

from castell_dsl.language.diagnostics import Diagnostics
from castell_dsl.language.parser import parse
from castell_dsl.language.source import Source

#: Any character a comment may hold (every code point but a line feed and lone surrogates).
COMMENT_TEXT = st.text(st.characters(exclude_characters="\n", exclude_categories=("Cs",)))
#: Any string body: characters but a quote, a backslash or a line feed, and escapes.
STRING_TEXT = st.lists(
    st.characters(exclude_characters='"\\\n', exclude_categories=("Cs",))
    | st.sampled_from(['\\"', "\\\\", "\\n", "\\t", "\\x"]),
    max_size=12,
).map("".join)
#: The characters `str.splitlines` splits at besides a line feed.
LINE_BREAKERS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"

BASE = "rules/castell/castell.castell"
BASE_TEXT = (ROOT / BASE).read_text(encoding="utf-8")


def parses(text: str) -> bool:
    return parse(Source("x.castell", text), Diagnostics()) is not None


@st.composite
def commented_castell(draw: st.DrawFn) -> str:
    """Castell's rules with comments of any characters added (on lines of their own, after
    code, and inside the multi-line scoring expressions, whose text is part of the hash), and
    its title a string of any characters."""
    lines = BASE_TEXT.split("\n")
    title = draw(STRING_TEXT)
    lines = [line.replace('title "Castell"', f'title "{title}"') for line in lines]
    for _ in range(draw(st.integers(1, 6))):
        where = draw(st.integers(0, len(lines) - 1))
        text = draw(COMMENT_TEXT | st.sampled_from(list(LINE_BREAKERS)).map(lambda c: f"a{c}b"))
        line = lines[where]
        if "#" not in line and '"' not in line and line.strip() and draw(st.booleans()):
            lines[where] = f"{line}  #{text}"
        else:
            lines.insert(where, f"# {text}")
    return "\n".join(lines)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commented_castell())
@example(BASE_TEXT.replace("# C-10.5", "# C-10.5\r}") + "\n")
@example(BASE_TEXT.replace('title "Castell"', 'title "Cas\u2028te\x0cll"'))
def test_comments_and_strings_of_any_characters_keep_the_rules(text: str) -> None:
    if not parses(text):  # only texts the language accepts
        return
    formatted = fmt(text)
    assert parses(formatted)
    assert syntax(formatted) == syntax(text)
    assert fmt(formatted) == formatted
    assert compiled_hash(formatted, BASE) == compiled_hash(text, BASE)


@st.composite
def small_files(draw: st.DrawFn) -> str:
    """Small files of every shape the formatter lays out, with comments and strings of any
    characters between and inside them."""
    comment = COMMENT_TEXT.map(lambda c: f"#{c}")
    gap = st.sampled_from([" ", "\n", "\n\n", "\t"]) | comment.map(lambda c: f" {c}\n")
    string = STRING_TEXT.map(lambda s: f'"{s}"')
    parts = [
        "game", "g", "{", "title", draw(string), "}",
        "region", draw(string), "{", "adjacent", "[", draw(string), ",", "b", "]", "}",
        "scoring", "{", "category", "a", "=", "count", "(", "x", ")",
        "+", "lookup", "(", "t", ",", draw(string), ",", "0", ")", "}",
    ]  # fmt: skip
    return "".join(p + draw(gap) for p in parts) + draw(comment | st.just(""))


@settings(max_examples=150, deadline=None)
@given(small_files())
def test_small_files_keep_their_syntax_and_format_once(text: str) -> None:
    if not parses(text):
        return
    formatted = fmt(text)
    assert syntax(formatted) == syntax(text)
    assert fmt(formatted) == formatted


def test_a_formatted_bundled_file_with_line_breakers_in_comments(tmp_path: Path) -> None:
    """Every character `str.splitlines` breaks at, in a comment inside a multi-line expression
    (the case that once changed the rules)."""
    for char in LINE_BREAKERS:
        text = BASE_TEXT.replace("# C-10.5", f"# C-10.5 {char} ) + 1")
        assert parses(text), repr(char)
        formatted = fmt(text)
        assert compiled_hash(formatted, BASE) == compiled_hash(text, BASE), repr(char)
