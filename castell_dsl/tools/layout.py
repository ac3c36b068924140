"""Output lines, and the last pass of the formatter: comments, blank lines, comment alignment.

The formatter (`formatter.py`) decides where code goes and produces `Line`s that remember the
source tokens they print. This pass then puts every comment back: leading comments on lines of
their own before the line that prints their token, trailing comments at the end of the line that
prints theirs, aligned in one column per group of lines (a table's rows, a block's entries).
Blank lines are the author's: one is kept wherever the source had at least one between two
entries or comments, never after an opening brace or before a closing one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import count

from lark import Token

from .cst import Comment, Concrete

#: Lines are wrapped at this many columns.
WIDTH = 100
#: Spaces per level of nesting.
INDENT = 2

_GROUPS = count(1)


def new_group() -> int:
    """A fresh comment-alignment group."""
    return next(_GROUPS)


@dataclass
class Line:
    indent: int
    text: str
    toks: list[Token]
    group: int = field(default_factory=new_group)
    #: "code"; "open" (ends in an opening bracket); "close" (starts with a closing one);
    #: "cont" (continues the expression of the line before).
    kind: str = "code"

    @property
    def width(self) -> int:
        return self.indent + len(self.text)


def emit(lines: list[Line], concrete: Concrete) -> str:
    """The final text: `lines` with every comment of `concrete` put back."""
    out: list[tuple[str, list[Comment], int]] = []  # (text, trailing comments, group)
    previous_kind = "open"  # nothing before the first line: no blank line there
    previous_line_kind = "open"
    for line in lines:
        first = line.toks[0] if line.toks else None
        comment_indent = line.indent + (INDENT if line.kind == "close" else 0)
        for tok in line.toks:
            for comment in concrete.leading.get(tok.start_pos or 0, ()):
                hoisted = tok is not first
                if comment.blank_before and previous_kind != "open" and not hoisted and out:
                    out.append(("", [], 0))
                out.append((" " * comment_indent + comment.text, [], 0))
                previous_kind = "comment"
        if (
            first is not None
            and line.kind not in ("close", "cont")
            and previous_kind != "open"
            and (first.start_pos or 0) in concrete.line_starts
            and concrete.blank_before(first)
            and out
            and out[-1][0] != ""
        ):
            out.append(("", [], 0))
        trailing = [c for tok in line.toks for c in concrete.trailing.get(tok.start_pos or 0, ())]
        # A `when` continued after a block's closing brace: its lines depend on where its
        # comments were, so aligning their comments with the brace's line would not survive a
        # second pass (formatting must be idempotent); they keep their comments to themselves.
        after_close = line.kind == "cont" and previous_line_kind in ("close", "after-close")
        group = new_group() if after_close else line.group
        out.append((" " * line.indent + line.text, trailing, group))
        previous_line_kind = "after-close" if after_close else line.kind
        previous_kind = line.kind
    if concrete.final:
        for comment in concrete.final:
            if comment.blank_before and out:
                out.append(("", [], 0))
            out.append((comment.text, [], 0))
    return _place_trailing(out)


def _place_trailing(out: list[tuple[str, list[Comment], int]]) -> str:
    columns: dict[int, int] = {}
    for text, trailing, group in out:
        if trailing:
            columns[group] = max(columns.get(group, 0), len(text.rstrip()) + 2)
    result: list[str] = []
    for text, trailing, group in out:
        if not trailing:
            result.append(text.rstrip())
            continue
        code = text.rstrip()
        column = columns[group]
        if column + len(trailing[0].text) > WIDTH:  # the column would push it past the margin
            column = max(len(code) + 2, WIDTH - len(trailing[0].text))
        result.append(code.ljust(column) + trailing[0].text)
        result.extend(" " * column + c.text for c in trailing[1:])
    while result and not result[-1]:
        result.pop()
    return "\n".join(result) + "\n"
