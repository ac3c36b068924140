"""Where matches are kept: a small `MatchStore` interface and its SQLite implementation.

A match is fully described by its rules identity, options, seats and action log (see
`castell_dsl.runtime.saves`), so that is all a store keeps; a restarted server rebuilds each
match by replaying its log. Seats keep a hash of their token, never the token: a copy of the
database does not let anyone act for a player. Anything that implements `MatchStore` (a
PostgreSQL table, a key-value store) can replace SQLite when one machine is not enough.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol


@dataclass
class StoredMatch:
    """One match as stored: enough to rebuild it exactly."""

    id: str
    rules: dict[str, Any]  # saves.rules_identity: name, source, hash, variants
    players: int
    seed: int
    seats: list[str]  # "you" or a bot spec, per seat
    token_hashes: list[str | None]  # sha256 of each `you` seat's token
    actions: list[str] = field(default_factory=list)
    version: int = 0
    created: float = field(default_factory=time.time)
    over: bool = False
    #: The seats' state beyond the log (`castell_web.seating.Seating.to_json`): names, the
    #: clock and its deadline, seats left to the stand-in, actions a stand-in played.
    seating: dict[str, Any] = field(default_factory=dict)


class MatchStore(Protocol):
    """What the server needs of its storage. Every call is small and synchronous."""

    def create(self, match: StoredMatch) -> None: ...
    def load_all(self) -> list[StoredMatch]: ...
    def set_log(
        self,
        match_id: str,
        actions: list[str],
        version: int,
        over: bool,
        seating: dict[str, Any] | None = None,
    ) -> None:
        """Record the match's whole action log (after an action, or shorter after an undo),
        and its seating when given, in one write."""
        ...

    def close(self) -> None: ...


def default_db_path() -> Path:
    """$XDG_DATA_HOME/castell/server.db (~/.local/share/castell/server.db)."""
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(data) / "castell" / "server.db"


SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    token_hashes TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    over INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    seating TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS actions (
    match_id TEXT NOT NULL REFERENCES matches(id),
    n INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (match_id, n)
);
"""


class SqliteStore:
    """Matches in one SQLite file (stdlib `sqlite3`, WAL journal: a crash loses nothing that
    was committed). The log is stored one row per action, so an action is one small insert."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(matches)")}
        if "seating" not in columns:  # a database made before seats had names and clocks
            self._db.execute("ALTER TABLE matches ADD COLUMN seating TEXT NOT NULL DEFAULT '{}'")
        # Rows already stored per match, so appending one action is one insert.
        self._lengths: dict[str, int] = {}

    def create(self, match: StoredMatch) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO matches (id, rules, players, seed, seats, token_hashes, version, "
                "over, created, seating) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match.id,
                    json.dumps(match.rules),
                    match.players,
                    match.seed,
                    json.dumps(match.seats),
                    json.dumps(match.token_hashes),
                    match.version,
                    int(match.over),
                    match.created,
                    json.dumps(match.seating),
                ),
            )
            self._write_actions(match.id, match.actions, 0)
            self._lengths[match.id] = len(match.actions)

    def _write_actions(self, match_id: str, actions: list[str], start: int) -> None:
        self._db.executemany(
            "INSERT INTO actions VALUES (?, ?, ?)",
            [(match_id, n, actions[n]) for n in range(start, len(actions))],
        )

    def set_log(
        self,
        match_id: str,
        actions: list[str],
        version: int,
        over: bool,
        seating: dict[str, Any] | None = None,
    ) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN")
            known = self._lengths.get(match_id)
            if known is None:
                (known,) = self._db.execute(
                    "SELECT COUNT(*) FROM actions WHERE match_id = ?", (match_id,)
                ).fetchone()
            if known > len(actions):  # an undo: the log got shorter
                self._db.execute(
                    "DELETE FROM actions WHERE match_id = ? AND n >= ?", (match_id, len(actions))
                )
                known = len(actions)
            self._write_actions(match_id, actions, known)
            self._db.execute(
                "UPDATE matches SET version = ?, over = ? WHERE id = ?",
                (version, int(over), match_id),
            )
            if seating is not None:
                self._db.execute(
                    "UPDATE matches SET seating = ? WHERE id = ?", (json.dumps(seating), match_id)
                )
            self._lengths[match_id] = len(actions)

    def load_all(self) -> list[StoredMatch]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, rules, players, seed, seats, token_hashes, version, over, created, "
                "seating FROM matches ORDER BY created"
            ).fetchall()
            out = []
            for row in rows:
                actions = [
                    text
                    for (text,) in self._db.execute(
                        "SELECT text FROM actions WHERE match_id = ? ORDER BY n", (row[0],)
                    )
                ]
                self._lengths[row[0]] = len(actions)
                out.append(
                    StoredMatch(
                        id=row[0],
                        rules=json.loads(row[1]),
                        players=row[2],
                        seed=row[3],
                        seats=json.loads(row[4]),
                        token_hashes=json.loads(row[5]),
                        actions=actions,
                        version=row[6],
                        over=bool(row[7]),
                        created=row[8],
                        seating=json.loads(row[9]),
                    )
                )
        return out

    def close(self) -> None:
        with self._lock:
            self._db.close()
