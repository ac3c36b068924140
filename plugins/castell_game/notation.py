"""Tower notation: `6,6,6/5,5/4/3` — levels bottom first, separated by `/`.

One reader and one writer, used by actions (`tower …`, `special perform LP07 tower …`), the
`castell tower` command, logs and save files, so a tower is written the same way everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence

Levels = tuple[tuple[int, ...], ...]


class NotationError(ValueError):
    """A tower written wrongly; the message says how to write it."""


def parse_levels(text: str) -> Levels:
    """`"5,5,5/4,4/3"` → ((5, 5, 5), (4, 4), (3,)). Spaces are ignored."""
    text = text.replace(" ", "")
    if not text:
        raise NotationError("a tower is written bottom first, e.g. 5,5,5/4,4/3")
    levels = []
    for i, part in enumerate(text.split("/"), 1):
        if not part:
            raise NotationError(f"level {i} is empty; write levels like 5,5,5/4,4/3")
        numbers = []
        for item in part.split(","):
            if not (item.isascii() and item.isdigit()) or len(item) > 3:
                raise NotationError(
                    f"'{item[:20]}' in level {i} is not a casteller number; "
                    "write levels like 5,5,5/4,4/3"
                )
            numbers.append(int(item))
        levels.append(tuple(sorted(numbers, reverse=True)))
    return tuple(levels)


def format_levels(levels: Sequence[Sequence[int]]) -> str:
    """((5, 5, 5), (4, 4), (3,)) → `"5,5,5/4,4/3"` (each level largest number first)."""
    return "/".join(",".join(str(x) for x in sorted(level, reverse=True)) for level in levels)


def parse_numbers(text: str, what: str = "casteller numbers") -> tuple[int, ...]:
    """`"3 7"` or `"3,7"` → (3, 7)."""
    items = text.replace(",", " ").split()
    if not items or not all(i.isascii() and i.isdigit() and len(i) <= 3 for i in items):
        raise NotationError(f"expected {what}, e.g. 3 7")
    return tuple(int(item) for item in items)


def draw_tower(levels: Sequence[Sequence[int]], *, width: int | None = None) -> list[str]:
    """Lines drawing a tower, top level first, each level centred over the wider ones below.

    >>> print("\\n".join(draw_tower([(6, 6, 6), (5, 5), (4,)])))
         [4]
       [5] [5]
     [6] [6] [6]
    """
    if not levels:
        return ["(no tower)"]
    cells = [" ".join(f"[{x}]" for x in sorted(level, reverse=True)) for level in levels]
    widest = width or max(len(c) for c in cells)
    lines = []
    for i in range(len(cells) - 1, -1, -1):
        pad = (widest - len(cells[i])) // 2
        lines.append(f"{' ' * pad}{cells[i]}".rstrip())
    return lines
