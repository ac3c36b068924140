"""Syntax errors: the first error per file, the expected tokens in words, friendly messages."""

from __future__ import annotations

import pytest

from castell_dsl.language.diagnostics import Diagnostics
from castell_dsl.language.parser import parse
from castell_dsl.language.source import Source


def first(text: str):
    diags = Diagnostics()
    assert parse(Source("x.castell", text), diags) is None
    assert len(diags) == 1
    d = diags.items[0]
    return d.code, d.span.line, d.span.column, d.message, d.hint


def test_missing_comma_in_a_list():
    code, line, col, message, _hint = first("region A { adjacent [B C] }")
    assert (code, line, col) == ("E0104", 1, 24)
    assert message == "missing comma between list items before 'C'"


def test_missing_comma_in_a_map():
    code, line, col, message, _ = first("prize_chart { 2: [trophy]\n 3: [medal] }")
    assert (code, line, col) == ("E0104", 2, 2)
    assert message == "missing comma between map entries before '3'"


def test_missing_comma_between_arguments():
    code, line, col, _, _ = first("scoring { category x = lookup(t 1, 0) }")
    assert (code, line, col) == ("E0104", 1, 33)


def test_missing_closing_brace_points_at_the_opening_one():
    code, line, col, message, hint = first(
        "game castell {\n  rounds 10\n\nregion A { adjacent [] }\n"
    )
    assert (code, line, col) == ("E0111", 1, 14)
    assert message == "'{' is never closed"
    assert hint == "add '}' where this block ends"


def test_stray_closing_brace():
    code, line, col, _, _ = first("game { rounds 10 } }")
    assert (code, line, col) == ("E0112", 1, 20)


def test_missing_value():
    code, line, col, message, _ = first("game {\n  rounds\n}\n")
    assert (code, line, col) == ("E0105", 3, 1)
    assert message == "missing value after 'rounds': found '}'"


def test_misspelt_keyword_gets_did_you_mean():
    code, line, col, _message, hint = first("round {\n  step festivals whn round >= 3\n}")
    assert (code, line, col) == ("E0113", 2, 18)
    assert hint == "did you mean 'when'?"


def test_unterminated_string():
    assert first('game { title "Castell }')[:3] == ("E0102", 1, 14)


def test_unexpected_character():
    code, line, col, message, _ = first("game { rounds 10; }")
    assert (code, line, col) == ("E0101", 1, 17)
    assert message == "unexpected character ';'"


def test_generic_error_names_the_expected_tokens_in_words():
    code, _, _, message, _ = first("region A { adjacent [B, C }")
    assert code == "E0100"
    assert message == "expected ',' or ']', found '}'"


@pytest.mark.parametrize(
    "text",
    [
        "# a comment\ngame castell { rounds 10 } # trailing\n",
        'include "a.castell"\nextends "castell"\n',
        "x { a: [1, 2,], b: -3..-1, 4..5: {} }\n",
        "scoring { category x = sum(t.points for t in tiles if t.points >= 2) }\n",
        "round { step s when not (round in [1, 2]) and players != 3 or rounds % 2 == 0 }\n",
        'name "with \\"escaped\\" quotes"\n',
    ],
)
def test_valid_syntax_parses(text):
    diags = Diagnostics()
    assert parse(Source("ok.castell", text), diags) is not None, list(diags)
