"""The play commands, defined once: a registry of commands, each one handler.

`help`, `hint`, `undo`, `board`, `actions`, `log`, `check`, `save` and `quit` are what a
player can ask of a game besides playing an action. Each is a `Command`: a name, its arguments,
a sentence of help and a handler that runs it on a `PlaySession` and returns a structured
result, a protocol message (`castell_dsl.contract.protocol`: `hint`, `undone`, `saved` …, or an
`error` with a stable code). Front-ends only translate: the terminal reads `save FILE` and
prints the result with rich, the JSON-lines front-end reads `{"command": "save", "path":
FILE}` and writes the message as it is, the web server reads the same over a WebSocket and
play.js draws it. So every front-end offers the same commands, listed by `COMMANDS`, and a
command works the same way on each (docs/protocol.md has the table of commands by front-end).

Like an action in boardgame.io, a command is one function; `dispatch` is the only place
that looks one up, checks its arguments and who may ask, and turns a refusal into an
`error` message. The handlers read the session through the `PlaySession` protocol only, so
a front-end whose saving differs (the web server keeps its matches itself and offers a save
as a download) hands in a session whose `save` differs, not a command of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import protocol as m
from .actions import Action
from .bots import PlayableGame
from .frontends import (
    HelpTopics,
    Observer,
    PlaySession,
    SaveFailed,
    SaveOutcome,
    UndoError,
)


class CommandError(Exception):
    """A command refused, changing nothing: a stable code and a sentence for people."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Argument:
    """An argument of a command: its field in a JSON message (`path`), how the terminal
    writes it (`FILE`), and whether it may be left out."""

    name: str
    metavar: str
    help: str
    required: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "metavar": self.metavar,
            "help": self.help,
            "required": self.required,
        }


@dataclass(frozen=True)
class Request:
    """One command as asked: by which seat (None: a spectator, or a front-end that has only
    the seat to play), with which arguments (each a string, by `Argument.name`)."""

    seat: int | None = None
    arguments: Mapping[str, str] = field(default_factory=dict)

    def get(self, name: str) -> str | None:
        return self.arguments.get(name)


@dataclass(frozen=True)
class CommandResult:
    """What a command answered: a protocol message (its `type` says how to draw it), whether
    the game changed (front-ends redraw, a server stores and tells everyone) and whether the
    session ends (`quit`; `failed` then says the exit is a failure)."""

    message: dict[str, Any]
    changed: bool = False
    stop: bool = False

    @property
    def failed(self) -> bool:
        return self.message.get("type") == "error"


Handler = Callable[["PlaySession", Request], CommandResult]


@dataclass(frozen=True)
class Command:
    """A play command: the one handler that runs it, and what may ask it.

    `turn`: only the seat to play may ask (undo, check); `seated`: spectators may not (a
    hint is advice for a seat); `changes`: it may change the game (front-ends redraw)."""

    name: str
    help: str
    handler: Handler
    arguments: tuple[Argument, ...] = ()
    turn: bool = False
    seated: bool = False
    changes: bool = False

    def usage(self) -> str:
        """How the terminal writes it: `save [FILE]`, `check ACTION`."""
        words = [self.name]
        for argument in self.arguments:
            words.append(argument.metavar if argument.required else f"[{argument.metavar}]")
        return " ".join(words)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "help": self.help,
            "arguments": [a.to_json() for a in self.arguments],
            "usage": self.usage(),
        }


class Commands:
    """The registry: commands by name, in the order help lists them."""

    def __init__(self) -> None:
        self._commands: dict[str, Command] = {}

    def register(self, command: Command) -> Command:
        if command.name in self._commands:
            raise ValueError(f"the command {command.name!r} is already registered")
        self._commands[command.name] = command
        return command

    def command(
        self, name: str, help: str, *arguments: Argument, **flags: bool
    ) -> Callable[[Handler], Handler]:
        """Decorator: register the function as the handler of command `name`."""

        def register(handler: Handler) -> Handler:
            self.register(Command(name, help, handler, tuple(arguments), **flags))
            return handler

        return register

    def get(self, name: str) -> Command | None:
        return self._commands.get(name)

    def names(self) -> list[str]:
        return list(self._commands)

    def __iter__(self) -> Iterator[Command]:
        return iter(self._commands.values())

    def __contains__(self, name: object) -> bool:
        return name in self._commands

    def to_json(self) -> list[dict[str, Any]]:
        """Every command with its arguments and help (the web's `hello` sends it)."""
        return [c.to_json() for c in self]

    def check_arguments(self, name: str, arguments: Mapping[str, Any]) -> Command:
        """The command `name`, its arguments checked (names known, strings, required ones
        given); CommandError `bad-message` otherwise."""
        command = self.get(name)
        if command is None:
            raise CommandError("bad-message", f"unknown command {name[:40]!r}: {self.usage()}")
        known = {a.name for a in command.arguments}
        for key, value in arguments.items():
            if key not in known:
                takes = ", ".join(f"'{k}'" for k in sorted(known)) or "no argument"
                raise CommandError("bad-message", f"'{name}' takes {takes}, not '{key[:40]}'")
            if not isinstance(value, str):
                raise CommandError("bad-message", f"'{key}' must be a string")
        for argument in command.arguments:
            if argument.required and not arguments.get(argument.name):
                raise CommandError(
                    "bad-message", f"'{name}' needs '{argument.name}': {command.usage()}"
                )
        return command

    def usage(self) -> str:
        return ", ".join(self.names())


#: The play commands every front-end offers.
COMMANDS = Commands()


def dispatch(
    session: PlaySession,
    name: str,
    arguments: Mapping[str, Any] | None = None,
    seat: int | None = None,
) -> CommandResult:
    """Run command `name` for `seat` (None: whoever is to play) on `session`.

    Never raises for anything a player or a program sends: an unknown command, a wrong
    argument, a seat that may not ask, or a refusal by the handler is an `error` message with
    a stable code, and nothing changed.
    """
    try:
        command = COMMANDS.check_arguments(name, arguments or {})
        player = session.game.current_player
        asker = player if seat is None else seat
        if command.turn and (player is None or asker != player):
            if player is None:
                raise CommandError("game-over", "the game is over")
            raise CommandError("not-your-turn", f"it is {session.describe_seat(player)}'s turn")
        return command.handler(session, Request(asker, dict(arguments or {})))
    except CommandError as exc:
        return CommandResult(m.error(exc.code, exc.message))


class SessionWrapper:
    """A `PlaySession` that hands everything to another one: a front-end whose saving (or
    anything else) differs subclasses it and overrides that, so the play commands still run
    their one handler on it (the web server's `TableSession` saves as a download)."""

    def __init__(self, inner: PlaySession) -> None:
        self.inner = inner

    @property
    def game(self) -> PlayableGame:
        return self.inner.game

    @property
    def seats(self) -> list[str]:
        return self.inner.seats

    @property
    def observers(self) -> list[Observer]:
        return self.inner.observers

    @property
    def turn_starts(self) -> list[tuple[int, int]]:
        return self.inner.turn_starts

    @property
    def log_seats(self) -> list[int]:
        return self.inner.log_seats

    @property
    def humans(self) -> list[int]:
        return self.inner.humans

    def is_human(self, player: int | None) -> bool:
        return self.inner.is_human(player)

    def describe_seat(self, player: int) -> str:
        return self.inner.describe_seat(player)

    def play_bots(self) -> int | None:
        return self.inner.play_bots()

    def apply(self, action: Action | str) -> Action:
        return self.inner.apply(action)

    def undo(self) -> int:
        return self.inner.undo()

    def save(self, path: str | None = None) -> Path | str:
        return self.inner.save(path)

    def save_somewhere(self, path: str | None = None) -> SaveOutcome:
        return self.inner.save_somewhere(path)

    def log_entries(self) -> list[tuple[int | None, str]]:
        return self.inner.log_entries()

    def help_page(self) -> HelpTopics | None:
        return self.inner.help_page()

    def command(
        self, name: str, arguments: Mapping[str, Any] | None = None, seat: int | None = None
    ) -> CommandResult:
        """The play command on this session (not the inner one: its overrides count)."""
        return dispatch(self, name, arguments, seat)


# ---- the commands ------------------------------------------------------------------------------
TOPIC = Argument("topic", "TOPIC", "a section of the game's players' page (`rules` …)")
FILE = Argument("path", "FILE", "the file to save to")
ACTION = Argument("action", "ACTION", "an action in the game's notation", required=True)


@COMMANDS.command("help", "this text; help TOPIC: a topic of the rules", TOPIC)
def help_command(session: PlaySession, request: Request) -> CommandResult:
    """No topic: the commands, the game's notation and its topics; a topic: that section of
    the game's players' page."""
    page = session.help_page()
    topic = (request.get("topic") or "").strip()
    if not topic:
        return CommandResult(
            {
                "type": "help",
                "topic": None,
                "commands": COMMANDS.to_json(),
                "notation": list(session.game.logic.notation()),
                "topics": page.names() if page is not None else [],
            }
        )
    if page is None:
        raise CommandError("no-topic", "This game has no players' page to read topics from.")
    found = page.topic(topic)
    if found is None:
        raise CommandError(
            "no-topic", f"No topic '{topic[:40]}'. Topics: {', '.join(page.names())}"
        )
    return CommandResult(
        {"type": "help", "topic": found.slug, "heading": found.heading, "text": found.text}
    )


def hint_lines(game: PlayableGame, seat: int) -> list[str]:
    """The game's advice for `seat` (`GameLogic.hints`): what the hint command answers, and
    what a server's worker works out for it away from the event loop."""
    return list(game.logic.hints(game, seat))


@COMMANDS.command("hint", "advice for your move", seated=True)
def hint_command(session: PlaySession, request: Request) -> CommandResult:
    game = session.game
    if game.is_over():
        raise CommandError("game-over", "the game is over")
    if request.seat is None:
        raise CommandError("spectator", "hints are for players")
    return CommandResult(m.hint(hint_lines(game, request.seat)))


@COMMANDS.command(
    "undo", "take back your actions of this turn (or your last turn)", turn=True, changes=True
)
def undo_command(session: PlaySession, request: Request) -> CommandResult:
    try:
        count = session.undo()
    except UndoError as exc:
        raise CommandError("nothing-to-undo", str(exc)) from None
    return CommandResult(m.undone(count), changed=True)


@COMMANDS.command("board", "the whole table and every seat's score by category")
def board_command(session: PlaySession, request: Request) -> CommandResult:
    game = session.game
    return CommandResult(
        {
            "type": "board",
            "player": game.current_player,
            "round": game.round,
            "rounds": game.rounds,
            "view": game.view(),
            "scores": game.scores(),
        }
    )


@COMMANDS.command("actions", "every legal action, numbered")
def actions_command(session: PlaySession, request: Request) -> CommandResult:
    game = session.game
    legal = [] if game.is_over() else [a.text for a in game.legal_actions()]
    return CommandResult({"type": "actions", "player": game.current_player, "legal_actions": legal})


@COMMANDS.command("log", "the actions so far, with the seat that took each")
def log_command(session: PlaySession, request: Request) -> CommandResult:
    entries = [{"seat": seat, "action": text} for seat, text in session.log_entries()]
    return CommandResult({"type": "log", "entries": entries})


@COMMANDS.command(
    "check", "would this action be accepted now? (nothing is played)", ACTION, turn=True
)
def check_command(session: PlaySession, request: Request) -> CommandResult:
    text = request.get("action") or ""
    return CommandResult(m.checked(text, session.game.explain(text)))


@COMMANDS.command("save", "save the game", FILE)
def save_command(session: PlaySession, request: Request) -> CommandResult:
    try:
        where = session.save(request.get("path"))
    except SaveFailed as exc:  # the game goes on; the player can try elsewhere
        raise CommandError("save-failed", str(exc)) from None
    return CommandResult(m.saved(str(where), "save"))


@COMMANDS.command("quit", "save and stop", FILE)
def quit_command(session: PlaySession, request: Request) -> CommandResult:
    """Save where asked, else wherever the session can (`save_somewhere`), and stop; an
    `error` (and a failed exit) only when the game could be saved nowhere."""
    return save_and_stop(session, "quit", request.get("path"))


def save_and_stop(session: PlaySession, reason: str, path: str | None = None) -> CommandResult:
    """`quit`, and what a front-end does at the end of its input (`reason`: "end of input"):
    save wherever possible and say where, or why nowhere (an `error`: a failed exit)."""
    outcome = session.save_somewhere(path)
    if outcome.path is None:
        return CommandResult(m.error("save-failed", outcome.describe()), stop=True)
    extra = {"failed": outcome.failures} if outcome.failures else {}
    return CommandResult(m.saved(str(outcome.path), reason, **extra), stop=True)
