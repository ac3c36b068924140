"""A concrete syntax tree: lark's parse tree with every token kept, and the comments placed.

The language's own parser (`language/parser.py`) turns text straight into the abstract syntax
tree and drops what a formatter must keep: punctuation, whether a label was quoted, comments
(the grammar ignores them). This module parses the same grammar with `keep_all_tokens`, collects
comments through lark's `lexer_callbacks`, and attaches each comment to a token:

- a *trailing* comment (code before it on its line) to the last token before it;
- a *continuation* (a comment alone on the next line, starting in the same column as a
  trailing comment) to the same token, so a comment that wraps stays a wrapped comment;
- any other comment, on a line of its own, as a *leading* comment of the next token (or of the
  end of the file).

Only text that the language parser accepted is given to this parser, so it never reports
errors of its own.
"""

from __future__ import annotations

import bisect
import threading
from dataclasses import dataclass, field
from functools import cache

from lark import Lark, Token, Tree

from ..language import parser_tables
from ..language.source import split_lines
from ..resources import grammar_path


@dataclass(frozen=True)
class Comment:
    text: str
    line: int
    column: int
    #: The source line before this comment is blank (kept as one blank line when formatting).
    blank_before: bool


@dataclass
class Concrete:
    """A parsed rule file with its tokens and comments."""

    tree: Tree
    lines: list[str]
    #: Token start position -> comments ending that token's line (first) and their continuations.
    trailing: dict[int, list[Comment]] = field(default_factory=dict)
    #: Token start position -> comments on lines of their own just before the token.
    leading: dict[int, list[Comment]] = field(default_factory=dict)
    #: Comments after the last token.
    final: list[Comment] = field(default_factory=list)
    #: Start positions of tokens that are the first token on their source line.
    line_starts: set[int] = field(default_factory=set)

    def blank_before(self, tok: Token) -> bool:
        """Whether the source line before this token's line is blank."""
        line = tok.line or 1
        return line >= 2 and not self.lines[line - 2].strip()


_LOCK = threading.Lock()
_SINK: list[Token] = []


@cache
def _parser() -> Lark:
    """The concrete-syntax parser: loaded from its shipped tables, or built from the grammar
    when they do not match it (`language/parser_tables.py`); comments go to `_SINK`."""
    grammar = grammar_path().read_text(encoding="utf-8")
    callbacks = {"COMMENT": _SINK.append}
    loaded = parser_tables.load(grammar, kind="concrete", lexer_callbacks=callbacks)
    if loaded is not None:
        return loaded
    return parser_tables.build(grammar, parser_tables.CONCRETE_OPTIONS, lexer_callbacks=callbacks)


def leaves(tree: Tree | Token) -> list[Token]:
    """Every token under `tree`, in source order (iteratively: expressions can nest deeply)."""
    out: list[Token] = []
    stack: list[Tree | Token] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Token):
            out.append(node)
        else:
            stack.extend(reversed(node.children))
    return out


def parse_concrete(text: str) -> Concrete:
    """Parse text the language parser has accepted; raise lark's exception otherwise."""
    with _LOCK:
        _SINK.clear()
        tree = _parser().parse(text)
        raw = list(_SINK)
        _SINK.clear()
    lines = split_lines(text)
    concrete = Concrete(tree, lines)
    tokens = leaves(tree)
    starts = [t.start_pos or 0 for t in tokens]
    last_line = 0
    for tok in tokens:
        if tok.line != last_line:
            concrete.line_starts.add(tok.start_pos or 0)
            last_line = tok.line or 0
    previous: tuple[int, Comment] | None = None  # (token, comment) of the last trailing comment
    for raw_comment in raw:
        line, column = raw_comment.line or 1, raw_comment.column or 1
        comment = Comment(
            str(raw_comment).rstrip(),
            line,
            column,
            line >= 2 and not lines[line - 2].strip(),
        )
        index = bisect.bisect_left(starts, raw_comment.start_pos or 0)
        before = tokens[index - 1] if index > 0 else None
        if before is not None and before.end_line == line:
            key = before.start_pos or 0
            concrete.trailing.setdefault(key, []).append(comment)
            previous = (key, comment)
            continue
        if (
            previous is not None
            and previous[1].line == line - 1
            and previous[1].column == column
            and before is not None
            and (before.start_pos or 0) == previous[0]
        ):
            concrete.trailing[previous[0]].append(comment)
            previous = (previous[0], comment)
            continue
        previous = None
        if index < len(tokens):
            concrete.leading.setdefault(starts[index], []).append(comment)
        else:
            concrete.final.append(comment)
    return concrete
