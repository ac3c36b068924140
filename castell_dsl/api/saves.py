"""Saving and loading games from a program, in the `castell-save/3` format of `castell play`,
`castell replay` and the web server (`runtime/saves.py`; docs/security.md).

A save is the rules as played, the options, the seats and the action log, with the hash of
the state reached. It is portable and private by construction: installed rules are named by
name and a user's rule file by a path relative to where it was played, each with its content
hash, never by an absolute path of the machine that wrote it. Loading replays the log and
verifies that hash, so a loaded game is the saved game exactly, or a `SaveError` says why not.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..engine.game import Game
from ..runtime.saves import read_save, replay, save_record, write_save
from .observers import GameObserver, guard_all


def save_game(
    game: Game,
    path: str | os.PathLike[str],
    *,
    seats: Sequence[str] | None = None,
    make_parents: bool = False,
) -> Path:
    """Write `game` to the save file `path` (atomically) and return its path.

    `seats` says who played each seat (`"you"` or a bot spec such as `"greedy"`), so that
    `castell play --load` seats the bots again; without it the save names no seats. The
    directory must exist unless `make_parents`. Raises `SaveWriteError` (a `SaveError`) with
    the file and the reason when it cannot be written.
    """
    return write_save(path, save_data(game, seats), make_parents=make_parents)


def load_game(
    source: str | os.PathLike[str] | Mapping[str, Any],
    *,
    rules: str | None = None,
    installed_only: bool = False,
    observers: Iterable[GameObserver] = (),
    record_events: bool = True,
) -> Game:
    """The game a save holds: a save file's path, or a record as `castell-save/3` JSON.

    The log is replayed under the rules the save names and the state it reaches is checked
    against the save's hash. A user's rule file is looked for in the working directory and
    beside the save; `rules` names the rule file to use instead (rules moved elsewhere: they
    must still compile to the saved rules). `installed_only` loads only installed rule sets and
    variants by name and never opens a file the save names (for a save from a stranger).
    `observers` hear what happens after loading, not the replay; `game.events` holds the
    replayed game's events unless `record_events=False`. Raises `SaveError` naming
    what is wrong: an unreadable or altered file, rules that changed (which file), an action
    that is not legal.
    """
    if isinstance(source, Mapping):
        record, beside = dict(source), None
    else:
        record, beside = read_save(source), Path(source).parent
    game = replay(
        record,
        record_events=record_events,
        rules_path=rules,
        beside=beside,
        installed_only=installed_only,
    )
    game.observers.extend(guard_all(observers))
    return game


def save_data(game: Game, seats: Sequence[str] | None = None) -> dict[str, Any]:
    """The save of `game` as JSON data (what `save_game` writes): to send or store elsewhere,
    and to give back to `load_game`."""
    return save_record(game, list(seats) if seats else None)


__all__ = ["load_game", "save_data", "save_game"]
