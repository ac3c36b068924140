"""Front-ends: a way to play (terminal, JSON lines, a browser), and the session it drives.

A `Frontend` (registered through `register_frontends`) shows a game to people, or to another
program, and feeds their actions back. It drives a `PlaySession` — the game, who sits in each
seat, bots moving, undo, saving — so front-ends differ only in how they talk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .actions import Action
from .bots import PlayableGame

if TYPE_CHECKING:
    from .commands import CommandResult

#: A listener for a game's events: `(game, event)`; events are JSON-ready dicts with a `type`.
Observer = Callable[[PlayableGame, dict[str, Any]], None]

#: The seat spec of a person at the keyboard (every other spec names a bot).
HUMAN = "you"


class UndoError(Exception):
    """Nothing to take back, with the reason in words."""


class SaveFailed(Exception):
    """A game that could not be saved where asked, with the file and the reason in words (the
    runtime's `SaveWriteError` is one); the game goes on."""


@dataclass
class SaveOutcome:
    """Where a game was saved (None: nowhere) and every place that was tried and failed."""

    path: Path | str | None
    failures: list[str] = field(default_factory=list)

    @property
    def saved(self) -> bool:
        return self.path is not None

    def describe(self) -> str:
        """In words, for the player: where it went, and why not where they asked."""
        tried = "; ".join(self.failures)
        if self.path is None:
            return f"the game could not be saved anywhere: {tried}"
        if self.failures:
            return f"saved to {self.path} (could not save where asked: {tried})"
        return f"saved to {self.path}"


class Topic(Protocol):
    """A section of a game's players' page."""

    @property
    def slug(self) -> str: ...
    @property
    def heading(self) -> str: ...
    @property
    def text(self) -> str: ...


class HelpTopics(Protocol):
    """A game's players' page, as `help TOPIC` reads it (the runtime's `HelpPage`)."""

    def names(self) -> list[str]: ...
    def topic(self, name: str) -> Topic | None: ...


class PlaySession(Protocol):
    """A game being played: seats, bots, turn history for undo, saving.

    Front-ends drive it: they play its bots (`play_bots`), apply the actions people type
    (`apply`) and run the play commands (`command`: help, hint, undo, board, actions, log,
    check, save, quit; `castell_dsl.contract.commands`) on it. The runtime's `Session` is
    the one implementation; a front-end whose saving differs wraps it.
    """

    @property
    def game(self) -> PlayableGame: ...
    @property
    def seats(self) -> list[str]: ...
    @property
    def observers(self) -> list[Observer]:
        """Listeners a front-end adds for the game's events (kept across undos)."""
        ...

    @property
    def turn_starts(self) -> list[tuple[int, int]]:
        """(log length, player) at the start of each turn so far."""
        ...

    @property
    def log_seats(self) -> list[int]:
        """The seat that took each action of the log, kept as the game is played."""
        ...

    @property
    def humans(self) -> list[int]: ...
    def is_human(self, player: int | None) -> bool: ...
    def describe_seat(self, player: int) -> str: ...
    def play_bots(self) -> int | None:
        """Let bots move until a person must decide; that person's seat, or None at the end."""
        ...

    def apply(self, action: Action | str) -> Action: ...
    def undo(self) -> int: ...
    def save(self, path: str | None = None) -> Path | str:
        """Save (to `path`, or where the session saves); where it went. `SaveFailed` if not."""
        ...

    def save_somewhere(self, path: str | None = None) -> SaveOutcome:
        """Save for `quit` and the end of input: where asked, else anywhere; never raises."""
        ...

    def log_entries(self) -> list[tuple[int | None, str]]: ...
    def help_page(self) -> HelpTopics | None: ...
    def command(
        self, name: str, arguments: Mapping[str, Any] | None = None, seat: int | None = None
    ) -> CommandResult:
        """Run a play command (`castell_dsl.contract.commands.dispatch`)."""
        ...


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
