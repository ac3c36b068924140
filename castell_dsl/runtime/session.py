"""The play session front-ends drive: seats, bots, undo, saving.

A front-end (registered by a plugin through `register_frontends`, see `castell_dsl.contract`)
shows a game to people, or to another program, and feeds their actions back. It drives a
`Session`: the game, who sits in each seat (a person, "you", or a bot), and what every front-end
needs — letting bots move, taking back moves, saving. Front-ends differ only in how they talk;
the rules of play live here, and the play commands (`castell_dsl.contract.commands`) run on it.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..contract import (
    HUMAN,
    Action,
    ActionError,
    Bot,
    CommandResult,
    HelpTopics,
    Observer,
    PlayableGame,
    Rejection,
    SaveOutcome,
    UndoError,
    dispatch,
)
from ..engine.game import Game
from ..language.ruleset import RuleSet
from .bots import finish_bots, make_bot
from .games import start_game
from .saves import SaveError, SaveWriteError, read_save, replay, save_record, write_save

#: Longest file name a player may give to `save` (any longer is a mistake or an attack).
MAX_PATH_CHARS = 4096


def save_dir() -> Path:
    """Where `quit` and the end of input save games: $CASTELL_SAVE_DIR, or the user's data
    directory ($XDG_DATA_HOME/castell)."""
    base = os.environ.get("CASTELL_SAVE_DIR")
    if base is None:
        base = os.path.join(_data_home(), "castell")
    return Path(base)


def game_file_name(rules_name: str, seed: int, started: float | None = None) -> str:
    """A save file name of its own for one game: `<rules>-<seed>-<YYYYmmdd-HHMMSS>.json`, so
    quitting one game never overwrites another (the time is when the session started)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(started))
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in rules_name)[:60] or "game"
    return f"{safe}-{seed}-{stamp}.json"


def default_save_path(
    rules_name: str = "game", seed: int = 0, started: float | None = None
) -> Path:
    """Where `quit` and the end of input save a new game: its own file in `save_dir()`."""
    return save_dir() / game_file_name(rules_name, seed, started)


def _data_home() -> str:
    return os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")


def check_save_path(path: Any) -> Path:
    """A file name given by a player or a program, as a Path (SaveWriteError if it cannot be
    one: not a string, empty, too long, a NUL byte)."""
    if isinstance(path, Path):
        path = str(path)
    if not isinstance(path, str):
        raise SaveWriteError(f"a file name to save to must be a string, not {type(path).__name__}")
    if not path.strip():
        raise SaveWriteError("a file name to save to cannot be empty")
    if len(path) > MAX_PATH_CHARS:
        raise SaveWriteError(f"a file name of {len(path):,} characters is too long")
    if "\0" in path:
        raise SaveWriteError("a file name cannot contain a NUL character")
    return Path(os.path.expanduser(path))


def save_problem(path: Path) -> str | None:
    """Why a game could not be saved at `path` (checked without writing), or None."""
    if path.is_dir():
        return f"{path} is a directory"
    parent = path.parent
    if not parent.is_dir():
        what = "is not a directory" if parent.exists() else "does not exist"
        return f"the directory {parent} {what}"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"the directory {parent} is not writable"
    return None


class Session:
    """A game being played: seats, bots, turn history for undo, saving.

    The session builds its game itself, replaying any log with its observer attached from the
    first event, so it always knows where each turn began (for `undo`) — for a new game, a
    loaded one, or one rebuilt after an undo alike.
    """

    def __init__(
        self,
        rules: RuleSet,
        players: int,
        seed: int,
        seats: Sequence[str],
        log: Sequence[str] = (),
        save_path: Path | None = None,
    ):
        if len(seats) != players:
            raise ValueError(f"{len(seats)} seats for {players} players")
        self.seats = list(seats)
        self.started = time.time()
        #: Where `quit` saves: the loaded file, `--save-to`, or a new file for this game.
        self.save_path = save_path or default_save_path(rules.name, seed, self.started)
        #: The seat that took each action of the log (for `log`), kept by the observer.
        self.log_seats: list[int] = []
        self.observers: list[Observer] = []
        self.bots: dict[int, Bot] = {
            seat: make_bot(spec, rules, seat, seed)
            for seat, spec in enumerate(self.seats)
            if spec != HUMAN
        }
        self.turn_starts: list[tuple[int, int]] = []  # (log length, player) at each turn start
        self.game = self._replay(rules, players, seed, log)

    @classmethod
    def load(cls, path: str | os.PathLike, seats: Sequence[str] | None = None) -> Session:
        """Continue a saved game (a save file from `save`, `quit` or `castell simulate`)."""
        record = read_save(path)
        game = replay(record, verify=True, beside=Path(path).parent)
        chosen = list(seats) if seats else list(record.get("seats") or [HUMAN] * game.players)
        if not seats:  # a save may come from anywhere: it never starts a program by itself
            for seat, spec in enumerate(chosen):
                if spec.strip().partition(":")[0].strip() == "cmd":
                    raise SaveError(
                        f"{path}: seat {seat} is a program ({spec.strip()[:80]}); a save never "
                        "starts one: name the seats with --players"
                    )
        return cls(game.rules, game.players, game.seed, chosen, game.log, Path(path))

    def _replay(self, rules: RuleSet, players: int, seed: int, log: Sequence[str]) -> Game:
        self.turn_starts = []
        self.log_seats = []
        game = start_game(rules, players, seed, record_events=False, observers=[self._observe])
        for text in log:
            game.apply(text)
        return game

    def _observe(self, game: PlayableGame, event: dict[str, Any]) -> None:
        if event["type"] == "turn":
            self.turn_starts.append((len(game.log), event["player"]))
        elif event["type"] == "action":
            self.log_seats.append(event["player"])
        for observer in self.observers:
            observer(game, event)

    def is_human(self, player: int | None) -> bool:
        return player is not None and self.seats[player] == HUMAN

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s == HUMAN]

    def describe_seat(self, player: int) -> str:
        spec = self.seats[player]
        return f"seat {player} ({'you' if spec == HUMAN else spec})"

    def log_entries(self) -> list[tuple[int | None, str]]:
        """The action log with the seat that took each action (None if not known)."""
        seats: list[int | None] = list(self.log_seats)
        seats += [None] * (len(self.game.log) - len(seats))
        return list(zip(seats, self.game.log, strict=False))

    def help_page(self) -> HelpTopics | None:
        """The game's players' page (`castell_dsl.runtime.pages.HelpPage`), or None when its
        plugin registers none: `help rules` and `help TOPIC` print its sections."""
        from .pages import page_for

        return page_for(self.game.rules)

    def command(
        self, name: str, arguments: Mapping[str, Any] | None = None, seat: int | None = None
    ) -> CommandResult:
        """Run a play command (help, hint, undo, board, actions, log, check, save, quit) for
        `seat`: the one dispatcher every front-end uses (`castell_dsl.contract.commands`)."""
        return dispatch(self, name, arguments, seat)

    # ---- playing ------------------------------------------------------------------------------
    def bot_move(self, bot: Bot | None = None) -> Action:
        """Let the bot in the current seat choose and play (or `bot`, standing in for the
        person in that seat: the web server's clock and empty seats)."""
        player = self.game.current_player
        assert player is not None and (bot is not None or player in self.bots), "not a bot's turn"
        action = (bot or self.bots[player]).choose(self.game)
        return self.game.apply(action)

    def play_bots(self) -> int | None:
        """Let bots move until a person must decide; return that person's seat (None at the
        end of the game). Every front-end's loop starts here."""
        while not self.game.is_over():
            player = self.game.current_player
            if self.is_human(player):
                return player
            self.bot_move()
        finish_bots(list(self.bots.values()), self.game)  # a program hears the result, exits
        return None

    def undo(self) -> int:
        """Take back the current player's actions of this turn; with one human, if none were
        taken yet, back to the start of that person's previous turn. Returns how many actions
        were taken back."""
        player = self.game.current_player
        if player is None:
            raise UndoError("the game is over")
        log_length = len(self.game.log)
        start = self.turn_starts[-1][0] if self.turn_starts else 0
        if log_length > start:
            cut = start
        elif len(self.humans) == 1:
            earlier = [n for n, p in self.turn_starts[:-1] if p == player]
            if not earlier:
                raise UndoError("nothing to take back: this is your first turn")
            cut = earlier[-1]
        else:
            raise UndoError("nothing of yours to take back this turn")
        old = self.game
        observers, self.observers = self.observers, []  # do not re-announce replayed events
        try:
            self.game = self._replay(old.rules, old.players, old.seed, old.log[:cut])
        finally:
            self.observers = observers
        return log_length - cut

    def apply(self, action: Action | str) -> Action:
        """Play a person's action (raises `ActionError`, changing nothing, if illegal or
        unreadable: a mechanics' parser that fails in its own way is a refusal too)."""
        try:
            return self.game.apply(action)
        except ActionError:
            raise
        except (ValueError, TypeError, LookupError, OverflowError) as exc:
            text = action if isinstance(action, str) else getattr(action, "text", str(action))
            rejection = Rejection("bad-syntax", f"cannot read '{text[:80]}': {exc}")
            raise ActionError(rejection, text) from None

    def save(self, path: str | os.PathLike | None = None) -> Path:
        """Save to `path` (or the session's save path); SaveWriteError (the contract's
        `SaveFailed`, which the `save` command answers as `save-failed`), naming the file and
        why, if it cannot be written. Nothing else fails: the game goes on either way."""
        target = check_save_path(path) if path is not None else self.save_path
        record = save_record(self.game, self.seats)
        ours = target.absolute().parent == save_dir().absolute()
        return write_save(target, record, make_parents=ours)

    def save_somewhere(self, path: str | os.PathLike | None = None) -> SaveOutcome:
        """Save for `quit` and the end of input, where losing the game is worst: where asked
        (or the session's save path), else the user's data directory, else a new file of
        the user's own in their home or temporary directory. Never raises; the outcome says
        where the game went and why not where asked."""
        outcome = SaveOutcome(None)
        record = save_record(self.game, self.seats)
        try:
            first = check_save_path(path) if path is not None else self.save_path
        except SaveWriteError as exc:
            outcome.failures.append(str(exc))
            first = None
        name = game_file_name(self.game.rules.name, self.game.seed, self.started)
        mine = save_dir() / name
        fallback = Path(_data_home()) / "castell" / name
        tried: set[Path] = set()
        ours = {mine.absolute(), fallback.absolute()}  # files in directories we create
        for target in (first, mine, fallback):
            if target is None or target.absolute() in tried:
                continue
            tried.add(target.absolute())
            try:
                outcome.path = write_save(target, record, make_parents=target.absolute() in ours)
                return outcome
            except SaveWriteError as exc:
                outcome.failures.append(str(exc))
        for directory in (Path.home(), Path(tempfile.gettempdir())):
            try:  # mkstemp: a new file only this user can read, never one that exists
                fd, name = tempfile.mkstemp(prefix="castell-game-", suffix=".json", dir=directory)
                os.close(fd)
                outcome.path = write_save(name, record)
                return outcome
            except (OSError, SaveWriteError) as exc:
                outcome.failures.append(f"{directory}: {exc}")
        return outcome


def parse_seats(text: str, players: int | None = None) -> list[str]:
    """`you,greedy,mcts:iterations=300` → seats; one entry and `players` repeats it."""
    seats = [s.strip() for s in text.split(",") if s.strip()]
    if players is not None and len(seats) == 1 and players > 1:
        seats = seats * players
    return seats
