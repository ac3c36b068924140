"""Token spacing for the few places the formatter joins tokens itself (a `remove` list).

Expressions are not respaced: their text is part of the compiled rule set (see
`formatter._Formatter.expression`).
"""

from __future__ import annotations

from lark import Token


def join_line(tokens: list[Token]) -> str:
    """Tokens on one line: a space between two, none before a comma."""
    out: list[str] = []
    for i, tok in enumerate(tokens):
        if i and tok != ",":
            out.append(" ")
        out.append(str(tok))
    return "".join(out)
