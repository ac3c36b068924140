"""Hex geometry of a Calico quilt: neighbours, groups, rotations and shape matching (K-1.3, K-5).

Quilt coordinates are (col, row) on a grid whose odd rows are shifted half a hex to the right
("odd-r" offset coordinates, K-1.2). Shapes are compared in axial coordinates (q, r), where a
translation is plain addition and a rotation by 60 degrees is (q, r) -> (-r, q + r), so a
shape's six rotations, brought to a canonical position, can be compared as tuples.

Cells of a quilt are numbered `row * columns + col`; tables built here are indexed that way and
computed once per rule set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

Cell = tuple[int, int]


def offset_neighbours(col: int, row: int) -> list[Cell]:
    """The six neighbours of (col, row) in quilt coordinates, in K-1.3's order."""
    if row % 2 == 0:
        deltas = ((-1, -1), (0, -1), (-1, 0), (1, 0), (-1, 1), (0, 1))
    else:
        deltas = ((0, -1), (1, -1), (-1, 0), (1, 0), (0, 1), (1, 1))
    return [(col + dc, row + dr) for dc, dr in deltas]


def neighbour_table(columns: int, rows: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index, the indices of its neighbours on the grid."""
    table = []
    for row in range(rows):
        for col in range(columns):
            table.append(
                tuple(
                    r * columns + c
                    for c, r in offset_neighbours(col, row)
                    if 0 <= c < columns and 0 <= r < rows
                )
            )
    return tuple(table)


def ring_cells(columns: int, rows: int) -> set[Cell]:
    """The outer ring of the grid, where the pre-printed edge patches go (K-1.2)."""
    return {
        (c, r)
        for r in range(rows)
        for c in range(columns)
        if r in (0, rows - 1) or c in (0, columns - 1)
    }


def to_axial(col: int, row: int) -> Cell:
    """Odd-r offset coordinates to axial (q, r)."""
    return col - (row - (row & 1)) // 2, row


def normalise(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """A shape moved so its smallest cell is at the origin: equal tuples, equal shapes."""
    ordered = sorted(cells)
    q0, r0 = ordered[0]
    return tuple((q - q0, r - r0) for q, r in ordered)


def rotations(cells: Iterable[Cell]) -> tuple[tuple[Cell, ...], ...]:
    """The distinct normalised rotations (by 60 degrees, six times) of an axial shape."""
    current = list(cells)
    seen: list[tuple[Cell, ...]] = []
    for _ in range(6):
        form = normalise(current)
        if form not in seen:
            seen.append(form)
        current = [(-r, q + r) for q, r in current]
    return tuple(seen)


def shape_forms(offset_cells: Sequence[Sequence[int]]) -> tuple[tuple[Cell, ...], ...]:
    """A shape written in quilt coordinates, as its rotations in normalised axial form."""
    return rotations(to_axial(c, r) for c, r in offset_cells)


def is_connected(offset_cells: Sequence[Sequence[int]]) -> bool:
    """True when the cells (quilt coordinates) form one edge-connected piece."""
    cells = {(c, r) for c, r in offset_cells}
    if not cells:
        return False
    start = next(iter(cells))
    seen = {start}
    frontier = [start]
    while frontier:
        col, row = frontier.pop()
        for nb in offset_neighbours(col, row):
            if nb in cells and nb not in seen:
                seen.add(nb)
                frontier.append(nb)
    return len(seen) == len(cells)


def flood(
    start: int, neighbours: Sequence[Sequence[int]], same: Callable[[int], bool]
) -> list[int]:
    """The edge-connected cells reachable from `start` through cells where `same` holds."""
    group = [start]
    seen = {start}
    i = 0
    while i < len(group):
        for nb in neighbours[group[i]]:
            if nb not in seen and same(nb):
                seen.add(nb)
                group.append(nb)
        i += 1
    return group


def matches_exactly(axial: Iterable[Cell], forms: tuple[tuple[Cell, ...], ...]) -> bool:
    """The group (axial cells) is exactly one of the shape's rotations, anywhere."""
    return normalise(axial) in forms


def contains_shape(axial: Iterable[Cell], forms: tuple[tuple[Cell, ...], ...]) -> bool:
    """Some rotation of the shape, moved somewhere, lies inside the group (axial cells)."""
    cells = set(axial)
    for form in forms:
        if len(form) > len(cells):
            continue
        # The form's first cell is its origin; try it on every cell of the group.
        for q, r in cells:
            if all((q + dq, r + dr) in cells for dq, dr in form):
                return True
    return False
