"""Reading JSON from files and programs we do not trust: size, depth and numbers bounded.

`json.loads` alone is not safe on hostile input. A document nested 100,000 deep exhausts the
recursion limit (a `RecursionError`, or worse, deep inside the C scanner); a 5,000-digit number
raises the `ValueError` of Python's int-string limit; `NaN` and `Infinity` are accepted although
they are not JSON; and nothing bounds the size. Saves, the JSON-lines protocol and the caches
read through `loads_bounded`, which turns every one of these into a `JsonLimitError` whose
message says what was wrong, before or instead of the parser failing in its own way. (So do the
parser tables shipped with the package, `language/parser_tables.py`: trusted, but read the same
way, so a damaged file is a clean fallback too.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

#: Nesting deeper than any save or protocol message needs (a save is about 4 deep).
MAX_DEPTH = 64

#: Digits of an integer: game seeds and counts need far fewer than Python's 4,300 limit.
MAX_INT_DIGITS = 40

#: One step of the depth scan: skip strings and every character that is not a bracket or a
#: quote, then take a run of opening brackets, a run of closing ones, a quote that opens no
#: string (it is never closed), or the end. Possessive (`*+`): nothing is tried twice.
_STEP = re.compile(r'(?:"(?:[^"\\]|\\.)*+"|[^\[\]{}"])*+(?:([\[{]+)|([\]}]+)|(")|\Z)', re.DOTALL)
#: The rest of the scan after a quote that opens no string: no later quote opens one either.
_RUNS = re.compile(r"([\[{]+)|([\]}]+)")


class JsonLimitError(ValueError):
    """The text is not JSON, or is JSON beyond the limits; the message says which."""


def nesting_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """The deepest nesting of arrays and objects in `text`, counted without recursion and
    stopping as soon as `limit` is exceeded (brackets inside strings do not count; a closing
    bracket too many counts as none). Linear in the length of `text`.

    A quote that opens no string (no closing quote follows) is skipped, and then no later
    quote can open one: every later quote is escaped by a backslash the failed string's scan
    passed, and a string starting there would scan the same remaining characters the same way,
    again to the end. So the rest is read as brackets only, where trying each later quote as a
    string again (as the scan once did) took quadratic time: 15 s for a quote and 40,000
    backslash-quote pairs (80 KB).
    """
    depth = deepest = 0
    scan: re.Pattern[str] | None = _STEP
    start = 0
    while scan is not None:
        steps, scan = scan.finditer(text, start), None
        for match in steps:
            kind = match.lastindex  # 1: opening run, 2: closing run, 3: a lone quote, None: end
            if kind == 1:
                depth += match.end(1) - match.start(1)
                if depth > deepest:
                    deepest = depth
                    if deepest > limit:
                        return max(limit, 0) + 1  # where a bracket-by-bracket count stops
            elif kind == 2:
                depth = max(0, depth - (match.end(2) - match.start(2)))
            elif kind == 3:
                scan, start = _RUNS, match.end()
                break
    return deepest


def _refuse_constant(name: str) -> Any:
    raise JsonLimitError(f"'{name}' is not a JSON number")


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise JsonLimitError(f"a number of {digits} digits is too long (at most {MAX_INT_DIGITS})")
    return int(text)


def loads_bounded(
    text: str | bytes,
    *,
    max_chars: int,
    max_depth: int = MAX_DEPTH,
    object_hook: Callable[[dict[str, Any]], Any] | None = None,
) -> Any:
    """Parse JSON text within limits; raise `JsonLimitError` (never `RecursionError`,
    never the int-string `ValueError`) when the text is not JSON or exceeds a limit.
    `object_hook` is `json.loads`'s: it replaces each object, innermost first."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonLimitError(f"not UTF-8 text (byte {exc.start})") from None
    if len(text) > max_chars:
        raise JsonLimitError(f"{len(text):,} characters is too long (at most {max_chars:,})")
    depth = nesting_depth(text, max_depth)
    if depth > max_depth:
        raise JsonLimitError(f"nested more than {max_depth} levels deep")
    try:
        return json.loads(
            text,
            parse_int=_bounded_int,
            parse_constant=_refuse_constant,
            object_hook=object_hook,
        )
    except JsonLimitError:
        raise
    except json.JSONDecodeError as exc:
        raise JsonLimitError(
            f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    except (ValueError, RecursionError) as exc:  # belt and braces: the scan should prevent it
        raise JsonLimitError(f"not usable JSON ({exc})") from None
