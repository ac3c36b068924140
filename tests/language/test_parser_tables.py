"""The parser tables shipped beside the grammar (`language/parser_tables.py`): current, lossless,
the same parser as one built from the grammar, and never used when they do not match it."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput
from lark.grammar import Rule
from lark.lexer import TerminalDef

from castell_dsl.language import parser as parser_module
from castell_dsl.language import parser_tables
from castell_dsl.language.diagnostics import Diagnostics
from castell_dsl.language.parser import _ToSyntax, parse
from castell_dsl.language.source import Source
from castell_dsl.resources import grammar_path, parser_tables_path
from castell_dsl.tools import cst

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR = grammar_path().read_text(encoding="utf-8")
RULE_FILES = sorted((ROOT / "rules").rglob("*.castell"))
#: Rule files that do not parse, or parse only just: the hostile corpus and the examples.
OTHER_FILES = sorted((ROOT / "tests" / "security" / "corpus").rglob("*.castell")) + sorted(
    (ROOT / "docs" / "examples").rglob("*.castell")
)
#: Syntax errors of every kind the parser words (tests/language/test_syntax_errors.py).
BROKEN = [
    "region A { adjacent [B C] }",
    "prize_chart { 2: [trophy]\n 3: [medal] }",
    "scoring { category x = lookup(t 1, 0) }",
    "game castell {\n  rounds 10\n\nregion A { adjacent [] }\n",
    "game { rounds 10 } }",
    "game {\n  rounds\n}\n",
    "round {\n  step festivals whn round >= 3\n}",
    "game { x: }",
    "game { y = 1 + }",
    "x { y = (1 + 2 }",
    "]",
    'game { title "open',
    "game { rounds 10 } @",
    "game { rounds 1234567890123456789012 }",
    "override region A { x 1 \nremove region B",
    "game { rounds 10",
    "x = ",
]


@pytest.fixture(scope="module")
def built() -> Lark:
    return parser_tables.build(GRAMMAR)


@pytest.fixture(scope="module")
def loaded() -> Lark:
    parser = parser_tables.load(GRAMMAR)
    assert parser is not None, "the shipped tables do not load; see test_the_shipped_tables_..."
    return parser


@pytest.mark.parametrize("kind", sorted(parser_tables.KINDS))
def test_the_shipped_tables_are_what_generating_them_writes(kind):
    """Edited the grammar, or upgraded lark? Run `python -m castell_dsl.language.parser_tables`
    (until then the parser is built from the grammar: slower, never wrong)."""
    shipped = parser_tables_path(kind).read_text(encoding="utf-8")
    assert shipped == parser_tables.generate(GRAMMAR, kind)


@pytest.mark.parametrize("kind", sorted(parser_tables.KINDS))
def test_generating_writes_the_same_file_whatever_the_hash_seed(kind):
    """lark numbers states and symbols in set order, which changes with the hash seed; the
    canonical numbering makes the file the same in every process."""
    code = (
        "import hashlib; from castell_dsl.language import parser_tables as t; "
        "from castell_dsl.resources import grammar_path; "
        f"print(hashlib.sha256(t.generate(grammar_path().read_text(), {kind!r}).encode())"
        ".hexdigest())"
    )
    digests = set()
    for seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
        )
        digests.add(out.stdout.strip())
    assert digests == {hashlib.sha256(parser_tables_path(kind).read_bytes()).hexdigest()}


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (1 == True and (1,) != [1] matter here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(
            _same(k1, k2) and _same(a[k1], b[k2]) for k1, k2 in zip(a, b, strict=True)
        )
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _round_trip(value: Any) -> Any:
    return parser_tables.decode(json.dumps(parser_tables.encode(value)))


def test_the_encoding_is_lossless_on_what_lark_serialises(built):
    data, memo = built.memo_serialize([TerminalDef, Rule])
    assert _same(_round_trip(data), data)
    assert _same(_round_trip(memo), memo)


@pytest.mark.parametrize(
    "value",
    [
        {1: "a", 2: ("b", 3)},
        {"#tuple": [1]},
        {"#pairs": 1, "x": 2},
        {(1, 2): {3: (4, (5,))}},
        [(), (True, None), {}, {"": 0}],
        {"a": [1, {2: [3]}], "b": {"#c": False}},
        (1, [2], {"k": (3,)}),
    ],
)
def test_the_encoding_is_lossless_on_what_json_lacks(value):
    assert _same(_round_trip(value), value)


def test_the_encoding_refuses_what_it_cannot_keep():
    with pytest.raises(TypeError):
        parser_tables.encode({1.5})


def test_the_shipped_tables_are_the_parser_in_use(loaded):
    assert parser_tables.load(GRAMMAR) is not None
    assert parser_module._parser().source_path == "<deserialized>"
    assert cst._parser().source_path == "<deserialized>"  # the formatter's, `concrete`


def _concrete(parser_of, text: str) -> tuple:
    """What the formatter's parser gives: the outcome and the comments its callback saw."""
    comments: list[Token] = []
    parser = parser_of(comments.append)
    outcome = _outcome(parser, text)
    return outcome, [(str(c), c.line, c.column, c.start_pos) for c in comments]


@pytest.mark.slow  # every rule file and corpus entry, through two parsers
def test_the_concrete_tables_parse_and_collect_comments_as_a_built_parser_does():
    """The formatter's and language server's parser (every token kept, comments through a
    lexer callback given at load time): the same trees, errors and comments, on every rule
    file, the hostile corpus, the examples and the broken texts."""

    def loaded_with(sink):
        parser = parser_tables.load(GRAMMAR, kind="concrete", lexer_callbacks={"COMMENT": sink})
        assert parser is not None
        return parser

    def built_with(sink):
        options = parser_tables.CONCRETE_OPTIONS
        return parser_tables.build(GRAMMAR, options, lexer_callbacks={"COMMENT": sink})

    texts = [p.read_text(encoding="utf-8") for p in RULE_FILES]
    texts += [p.read_bytes().decode("utf-8", errors="replace") for p in OTHER_FILES] + BROKEN
    seen = 0
    for text in texts:
        expected = _concrete(built_with, text)
        assert _concrete(loaded_with, text) == expected, text[:80]
        seen += len(expected[1])
    assert seen > 100  # the rule files' comments were collected


def _shape(root: Tree | Token) -> list[tuple]:
    """Everything a parse tree says, in order: rules, tokens and their types, and every
    position (without recursion: the hostile corpus nests deeply)."""
    out: list[tuple] = []
    stack: list[Tree | Token] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Token):
            out.append(
                ("token", node.type, str(node), node.start_pos, node.end_pos,
                 node.line, node.column, node.end_line, node.end_column)
            )  # fmt: skip
            continue
        meta = node.meta
        where = tuple(
            getattr(meta, name, None)
            for name in ("line", "column", "end_line", "end_column", "start_pos", "end_pos")
        )
        out.append(("tree", str(node.data), len(node.children), where))
        stack.extend(reversed(node.children))
    return out


def _outcome(parser: Lark, text: str) -> tuple | list[tuple]:
    try:
        tree = parser.parse(text)
    except UnexpectedInput as exc:
        token = getattr(exc, "token", None)
        return (
            type(exc).__name__, exc.line, exc.column, exc.pos_in_stream,
            str(token) if token is not None else None,
            getattr(token, "type", None),
            sorted(getattr(exc, "expected", None) or ()),
            sorted(getattr(exc, "accepts", None) or ()),
        )  # fmt: skip
    return _shape(tree)


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rule_file_parses_to_the_same_tree_as_with_a_built_parser(path, built, loaded):
    text = path.read_text(encoding="utf-8")
    assert _outcome(loaded, text) == _outcome(built, text)
    syntax = _ToSyntax(str(path)).transform(loaded.parse(text))
    assert syntax == _ToSyntax(str(path)).transform(built.parse(text))


def test_other_files_and_syntax_errors_parse_and_fail_alike(built, loaded):
    texts = [p.read_bytes().decode("utf-8", errors="replace") for p in OTHER_FILES] + BROKEN
    assert len(texts) > len(BROKEN)
    for text in texts:
        assert _outcome(loaded, text) == _outcome(built, text), text[:80]


def _diagnostics(text: str) -> list[tuple]:
    diags = Diagnostics()
    parse(Source("x.castell", text), diags)
    return [(d.code, d.span, d.message, d.hint) for d in diags.items]


def test_syntax_errors_are_reported_alike(built, monkeypatch):
    """The messages read the parser (expected tokens, terminals, `match_examples`, re-lexing):
    the same diagnostics whichever parser it is."""
    texts = BROKEN + [p.read_bytes().decode("utf-8", errors="replace") for p in OTHER_FILES]
    with_loaded = [_diagnostics(text) for text in texts]
    monkeypatch.setattr(parser_module, "_parser", lambda: built)
    assert [_diagnostics(text) for text in texts] == with_loaded
    assert any(with_loaded)


def _doc() -> dict[str, Any]:
    return parser_tables.decode(parser_tables_path().read_text(encoding="utf-8"))


def _write(path: Path, doc: dict[str, Any]) -> Path:
    path.write_text(
        "{" + ",\n".join(f"{json.dumps(k)}:{parser_tables._dumps(v)}" for k, v in doc.items())
        + "}\n"
    )  # fmt: skip
    return path


@pytest.mark.parametrize(
    "field, value",
    [
        ("grammar_sha256", "0" * 64),  # a developer edited the grammar
        ("lark", "0.0.1"),  # another lark is installed
        ("options", {**parser_tables.OPTIONS, "propagate_positions": False}),
        ("format", "castell-parser-tables/0"),
    ],
)
def test_tables_for_another_grammar_lark_or_options_are_not_used(tmp_path, field, value):
    doc = _doc()
    assert parser_tables.load(GRAMMAR, _write(tmp_path / "ok.json", doc)) is not None
    doc[field] = value
    assert parser_tables.load(GRAMMAR, _write(tmp_path / "t.json", doc)) is None


def test_tables_for_an_edited_grammar_are_not_used():
    assert parser_tables.load(GRAMMAR + "\n// an edit\n") is None


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x80\x81 not text",
        b"[1, 2, 3]",
        b'{"format": "castell-parser-tables/1"',
        b"[" * 10_000 + b"]" * 10_000,
        b'{"a": 1' + b" " * (parser_tables.MAX_CHARS + 1) + b"}",
        b'{"#pairs": [[[1], 2]]}',
    ],
    ids=["empty", "binary", "not-an-object", "truncated", "deep", "huge", "bad-pairs"],
)
def test_damaged_tables_are_not_used(tmp_path, content):
    path = tmp_path / "castell.tables.json"
    path.write_bytes(content)
    assert parser_tables.load(GRAMMAR, path) is None


def test_tables_with_a_damaged_body_are_not_used(tmp_path):
    doc = _doc()
    doc["data"] = {"parser": {}}
    assert parser_tables.load(GRAMMAR, _write(tmp_path / "t.json", doc)) is None
    assert parser_tables.load(GRAMMAR, tmp_path / "missing.json") is None


def test_the_command_checks_and_writes(tmp_path, monkeypatch, capsys):
    """Every kind's file is written; `--check` fails while any one of them is stale."""
    targets = {kind: tmp_path / f"{kind}.tables.json" for kind in parser_tables.KINDS}
    monkeypatch.setattr(parser_tables, "parser_tables_path", lambda kind="language": targets[kind])
    assert parser_tables.main(["--check"]) == 1
    assert parser_tables.main([]) == 0
    for kind, target in targets.items():
        assert target.read_text(encoding="utf-8") == parser_tables.generate(GRAMMAR, kind)
    assert parser_tables.main(["--check"]) == 0
    targets["concrete"].write_text("{}", encoding="utf-8")
    capsys.readouterr()
    assert parser_tables.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert f"{targets['language']} is up to date" in out
    assert f"{targets['concrete']} is out of date" in out
