"""Calico action notation: one reader and one writer for logs, saves, tests and the prompt.

    place pink/vines 2,2          a hand patch (colour/pattern) onto quilt hex col 2, row 2
    take yellow/dots              a market patch (the one farthest from the bag, if two match)
    take yellow/dots@3            the patch in market slot 3 (slot 1 is farthest from the bag)
    goals all_different aa_bb_cc aaa_bbb     design goals for the goal spaces, in their order

Names are the rule file's (lower case, `_` between words); `-` is read as `_`, so
`dark-blue/dots` works too. The canonical text is what `format_*` writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from castell_dsl.contract import ActionSyntaxError
from castell_dsl.language.diagnostics import did_you_mean


def _name(text: str) -> str:
    return text.strip().lower().replace("-", "_")


def _lookup(word: str, index: Mapping[str, int], what: str, example: str) -> int:
    key = _name(word)
    if key in index:
        return index[key]
    hint = did_you_mean(key, index) or f"{what}s: {', '.join(index)}"
    raise ActionSyntaxError(f"unknown {what} '{word}' ({hint}); write e.g. {example}")


def parse_patch(
    text: str, colours: Mapping[str, int], patterns: Mapping[str, int], npatterns: int
) -> int:
    """`pink/vines` -> the patch number (colour * patterns + pattern)."""
    colour, sep, pattern = text.partition("/")
    if not sep or not colour or not pattern:
        raise ActionSyntaxError(f"'{text}' is not a patch; write colour/pattern, e.g. pink/vines")
    c = _lookup(colour, colours, "colour", "pink/vines")
    p = _lookup(pattern, patterns, "pattern", "pink/vines")
    return c * npatterns + p


def parse_cell(text: str) -> tuple[int, int]:
    """`3,2` -> (3, 2): column then row."""
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
        raise ActionSyntaxError(
            f"'{text}' is not a hex; write column,row (0-based), e.g. place pink/vines 2,2"
        )
    return int(parts[0]), int(parts[1])


def parse_place(
    text: str, colours: Mapping[str, int], patterns: Mapping[str, int], npatterns: int
) -> tuple[int, tuple[int, int]]:
    """`pink/vines 3,2` (or `pink/vines 3 2`) -> (patch, (col, row))."""
    words = text.split(None, 1)
    if len(words) != 2:
        raise ActionSyntaxError("write place colour/pattern col,row, e.g. place pink/vines 2,2")
    patch = parse_patch(words[0], colours, patterns, npatterns)
    cell_text = words[1].strip()
    if "," not in cell_text:
        cell_text = ",".join(cell_text.split())
    return patch, parse_cell(cell_text)


def parse_take(
    text: str, colours: Mapping[str, int], patterns: Mapping[str, int], npatterns: int
) -> tuple[int, int | None]:
    """`yellow/dots` -> (patch, None); `yellow/dots@3` -> (patch, 2): a 0-based slot."""
    text = text.strip()
    if not text or len(text.split()) != 1:
        raise ActionSyntaxError("write take colour/pattern, e.g. take yellow/dots")
    patch_text, sep, slot_text = text.partition("@")
    patch = parse_patch(patch_text, colours, patterns, npatterns)
    if not sep:
        return patch, None
    if (
        not (slot_text.isascii() and slot_text.isdigit())
        or len(slot_text) > 3
        or int(slot_text) < 1
    ):
        raise ActionSyntaxError(
            f"'{slot_text}' is not a market slot; slots count from 1, farthest from the bag "
            "(take yellow/dots@2)"
        )
    return patch, int(slot_text) - 1


def parse_goals(text: str, goals: Mapping[str, int]) -> tuple[int, ...]:
    """`all_different aa_bb_cc aaa_bbb` -> goal indices, in goal-space order."""
    words = text.replace(",", " ").split()
    if not words:
        raise ActionSyntaxError(
            "name a design goal for each goal space, e.g. goals all_different aa_bb_cc aaa_bbb"
        )
    return tuple(
        _lookup(word, goals, "design goal", "goals all_different aa_bb_cc aaa_bbb")
        for word in words
    )


def format_cell(col: int, row: int) -> str:
    return f"{col},{row}"


def format_take(patch_name: str, slot: int | None) -> str:
    return f"take {patch_name}" if slot is None else f"take {patch_name}@{slot + 1}"


def format_goals(names: Sequence[str]) -> str:
    return "goals " + " ".join(names)
