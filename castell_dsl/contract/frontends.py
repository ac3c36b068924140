"""Front-ends: a way to play (terminal, JSON lines, a browser), and the session it drives.

A `Frontend` (registered through `register_frontends`) shows a game to people, or to another
program, and feeds their actions back. It drives a `PlaySession` — the game, who sits in each
seat, bots moving, undo, saving — so front-ends differ only in how they talk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .actions import Action
from .bots import PlayableGame

#: A listener for a game's events: `(game, event)`; events are JSON-ready dicts with a `type`.
Observer = Callable[[PlayableGame, dict[str, Any]], None]


class PlaySession(Protocol):
    """A game being played: seats, bots, turn history for undo, saving."""

    game: PlayableGame
    seats: list[str]
    observers: list[Observer]
    turn_starts: list[tuple[int, int]]
    save_path: Path

    def is_human(self, player: int | None) -> bool: ...
    def describe_seat(self, player: int) -> str: ...
    def play_bots(self) -> int | None:
        """Let bots move until a person must decide; that person's seat, or None at the end."""
        ...

    def apply(self, action: Action | str) -> Action: ...
    def undo(self) -> int: ...
    def save(self, path: str | None = None) -> Path: ...


@dataclass
class Frontend:
    """A way to play: `run(session)` plays the session to its end and returns an exit code."""

    name: str
    description: str
    run: Callable[[PlaySession], int]


@dataclass(frozen=True)
class WebAssets:
    """How a game draws itself in a browser: the ES modules of one mechanics.

    The web front-end names no game: for a match whose rule set uses `mechanics`, it serves
    `directory` under `/games/{mechanics}/` and imports `entry` from there, which exports
    `render(view, svg, context)`. A mechanics without assets plays through a generic page
    (the legal actions as buttons, the view as a tree), so assets are optional.
    """

    #: The mechanics name rule files give in `game { mechanics NAME }`.
    mechanics: str
    #: The folder of static files (JavaScript modules, CSS, images) served as they are.
    directory: Path
    #: The module, relative to `directory`, that exports `render`.
    entry: str = "render.js"


class ByWidth:
    """A renderable that draws itself for the width it is given: `wide()` on a console at
    least `min_width` columns wide, `narrow()` below (a game's full table on a big screen, its
    compact one on 80 columns). rich finds `__rich_console__` by name, so the contract needs
    no rich; the two callables return what the game's renderer would (strings, rich objects).
    """

    def __init__(
        self, min_width: int, wide: Callable[[], list[Any]], narrow: Callable[[], list[Any]]
    ) -> None:
        self.min_width, self.wide, self.narrow = min_width, wide, narrow

    def __rich_console__(self, console: Any, options: Any) -> Iterator[Any]:
        yield from (self.wide if options.max_width >= self.min_width else self.narrow)()


class UndoError(Exception):
    """Nothing to take back, with the reason in words."""
