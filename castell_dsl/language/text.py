"""Making untrusted text safe to print: control characters become visible, values stay short.

Rule files, variants and configs come from strangers, and what we print from them ends up in a
terminal or in a public CI log. A terminal obeys escape sequences: an OSC 52 sequence writes the
reader's clipboard, a CSI sequence clears the screen or moves the cursor over earlier output, a
bare carriage return overwrites a line so that an error seems to say something else. So every
piece of such text is passed through `visible` before it is printed, and every value quoted in a
message goes through `short_repr`, so that no single value can make a message huge (or slow to
build: `repr` of a YAML alias bomb is exponential).
"""

from __future__ import annotations

import reprlib
from typing import Any

#: Control characters shown as their escape: C0 (except the layout ones kept on request), DEL,
#: C1 (0x80-0x9f: 0x9b is a one-byte CSI), and the Unicode line and bidi controls that reorder or
#: break what a reader sees (U+2028/2029, U+202A-202E, U+2066-2069, U+200E/200F, U+061C).
_INVISIBLE = (
    {chr(c) for c in range(0x00, 0x20)}
    | {chr(0x7F)}
    | {chr(c) for c in range(0x80, 0xA0)}
    | {"\u2028", "\u2029", "\u200e", "\u200f", "\u061c"}
    | {chr(c) for c in range(0x202A, 0x202F)}
    | {chr(c) for c in range(0x2066, 0x206A)}
)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code == 0x1B:
        return "\\x1b"
    if code == 0x0D:
        return "\\r"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def visible(text: str, keep_newlines: bool = False, keep_tabs: bool = True) -> str:
    """`text` with every control character replaced by a visible escape such as ``\\x1b``.

    An escape sequence thereby loses its introducer and prints as plain characters. Newlines are
    escaped unless `keep_newlines` (a multi-line message rendered on purpose); tabs are kept
    unless `keep_tabs` is false, since they only move the cursor forward.
    """
    if text.isascii() and text.isprintable():
        return text  # the common case, with no per-character work
    out = []
    for ch in text:
        if ch in _INVISIBLE and not ((ch == "\n" and keep_newlines) or (ch == "\t" and keep_tabs)):
            out.append(_escape(ch))
        else:
            out.append(ch)
    return "".join(out)


_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxlist = _REPR.maxtuple = _REPR.maxset = _REPR.maxdict = 6
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlong = 40


def short_repr(value: Any, limit: int = 80) -> str:
    """A `repr` of `value` of at most `limit` characters, safe to print.

    `reprlib` stops descending after a few levels and items, so the cost is bounded even for a
    value that shares sub-structures exponentially (a YAML alias bomb), unlike `repr`, which
    would expand all of them. Control characters are made visible.
    """
    try:
        text = _REPR.repr(value)
    except Exception:  # a hostile __repr__ (values come from plugins too): say what it is
        text = f"<{type(value).__name__}>"
    text = visible(text)
    if len(text) > limit:
        text = text[: max(0, limit - 1)] + "…"
    return text
