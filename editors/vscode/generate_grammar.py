"""Generate syntaxes/castell.tmLanguage.json from grammar/castell.lark.

The lark grammar is the single source of the syntax: the keywords and operators here are read
from it, so a keyword added to the language is highlighted after `python
editors/vscode/generate_grammar.py`, and `tests/tools/test_editor_grammar.py` fails until the
committed file is regenerated.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LARK = HERE.parents[1] / "grammar" / "castell.lark"
OUTPUT = HERE / "syntaxes" / "castell.tmLanguage.json"

#: How each keyword of the grammar is highlighted; a keyword not listed is `keyword.other`.
ROLES = {
    "include": "keyword.control.directive",
    "extends": "keyword.control.directive",
    "override": "keyword.control.directive",
    "remove": "keyword.control.directive",
    "when": "keyword.control.conditional",
    "if": "keyword.control.conditional",
    "for": "keyword.control.loop",
    "in": "keyword.operator.word",
    "and": "keyword.operator.logical",
    "or": "keyword.operator.logical",
    "not": "keyword.operator.logical",
    "true": "constant.language.boolean",
    "false": "constant.language.boolean",
}


def keywords(grammar: str) -> list[str]:
    """The words the grammar writes as literals (`"when"`), in the order they first appear."""
    code = "\n".join(line.split("//", 1)[0] for line in grammar.splitlines())
    found = re.findall(r'"([a-z]+)"', code)
    return list(dict.fromkeys(found))


def operators(grammar: str) -> list[str]:
    """The operator spellings of the COMPARE, PLUS, MINUS and MUL_OP terminals."""
    out: list[str] = []
    for name in ("COMPARE", "MUL_OP", "PLUS", "MINUS"):
        match = re.search(rf"^{name}:(.*)$", grammar, re.MULTILINE)
        if match is None:
            raise SystemExit(f"{LARK}: no terminal {name}")
        out += re.findall(r'"([^"]+)"', match.group(1))
    return sorted(set(out), key=lambda op: (-len(op), op))


def grammar_json(grammar: str) -> dict:
    words = keywords(grammar)
    by_role: dict[str, list[str]] = {}
    for word in words:
        by_role.setdefault(ROLES.get(word, "keyword.other"), []).append(word)
    keyword_patterns = [
        {"match": rf"\b({'|'.join(ws)})\b", "name": f"{role}.castell"}
        for role, ws in sorted(by_role.items())
    ]
    ops = "|".join(re.escape(op) for op in operators(grammar))
    name = r"[A-Za-z_][A-Za-z0-9_]*"
    not_keyword = rf"(?!(?:{'|'.join(words)})\b)"
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Castell",
        "scopeName": "source.castell",
        "fileTypes": ["castell"],
        "comment": "Generated from grammar/castell.lark by editors/vscode/generate_grammar.py.",
        "patterns": [
            {"include": "#comment"},
            {"include": "#string"},
            {"include": "#keywords"},
            {"include": "#definition"},
            {"include": "#call"},
            {"include": "#number"},
            {"include": "#punctuation"},
        ],
        "repository": {
            "comment": {"match": "#.*$", "name": "comment.line.number-sign.castell"},
            "string": {
                "begin": '"',
                "end": '"|$',
                "name": "string.quoted.double.castell",
                "patterns": [{"match": r"\\.", "name": "constant.character.escape.castell"}],
            },
            "keywords": {"patterns": keyword_patterns},
            "definition": {
                "comment": "The key that starts an entry: a kind of definition or a field.",
                "match": rf"^\s*({not_keyword}{name})\b",
                "captures": {"1": {"name": "entity.name.tag.castell"}},
            },
            "call": {
                "match": rf"\b({not_keyword}{name})(?=\()",
                "captures": {"1": {"name": "entity.name.function.castell"}},
            },
            "number": {"match": r"\b[0-9]+\b", "name": "constant.numeric.integer.castell"},
            "punctuation": {
                "patterns": [
                    {"match": r"\.\.", "name": "keyword.operator.range.castell"},
                    {"match": rf"{ops}|=", "name": "keyword.operator.castell"},
                    {"match": "[{}]", "name": "punctuation.section.block.castell"},
                    {"match": r"[\[\]]", "name": "punctuation.section.brackets.castell"},
                    {"match": "[(),:.]", "name": "punctuation.separator.castell"},
                ]
            },
        },
    }


def render() -> str:
    return json.dumps(grammar_json(LARK.read_text(encoding="utf-8")), indent=2) + "\n"


def main() -> int:
    OUTPUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(HERE.parents[1])}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
