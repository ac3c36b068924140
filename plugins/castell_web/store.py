"""Where matches are kept: a small `MatchStore` interface and its SQLite implementation.

A match is fully described by its rules identity, options, seats and action log (as a
castell-save names them), so that is all a store keeps; a restarted server rebuilds each
match by replaying its log. Seats keep a hash of their token, never the token: a copy of the
database does not let anyone act for a player, and the file is created readable by its owner
only. Anything that implements `MatchStore` (a PostgreSQL table, a key-value store) can replace
SQLite when one machine is not enough.

A database is input too (copied, restored from a backup, damaged by a full disk): every row is
checked as it is read, and a row that cannot be a match is quarantined (kept, reported, never
loaded again) while the others load. A file that is not a database is a `StoreError` naming it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from castell_dsl.safejson import JsonLimitError, loads_bounded

#: Largest JSON column of a row (rules identity, seats, token hashes, seating), in characters.
MAX_COLUMN = 256 * 1024
#: Most actions and longest action of a stored match (as for saves).
MAX_ACTIONS, MAX_TEXT, MAX_PLAYERS = 100_000, 1_000, 64


class StoreError(Exception):
    """The database cannot be used (not a database, unreadable): the message names the file."""


class DamagedRow(Exception):
    """A stored row that cannot be a match; the message says which field."""


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
    def load_all(self) -> list[StoredMatch]:
        """Every match not quarantined; a row that cannot be read is quarantined instead."""
        ...

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

    def quarantine(self, match_id: str, reason: str) -> None:
        """Never load this match again (it stays stored, with the reason, for inspection)."""
        ...

    def quarantined(self) -> list[tuple[str, str]]:
        """(match id, reason) of every quarantined match."""
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
CREATE TABLE IF NOT EXISTS quarantine (
    match_id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS studio_variants (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    edit_hash TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS studio_versions (
    variant_id TEXT NOT NULL REFERENCES studio_variants(id),
    n INTEGER NOT NULL,
    text TEXT NOT NULL,
    rules_hash TEXT,
    saved REAL NOT NULL,
    PRIMARY KEY (variant_id, n)
);
CREATE TABLE IF NOT EXISTS studio_analyses (
    key TEXT PRIMARY KEY,
    report TEXT NOT NULL,
    created REAL NOT NULL
);
"""


def _create_private(path: Path) -> None:
    """Create the database file (and its directory) readable by the owner only; SQLite gives
    its journal files the database file's mode. An existing file is used as it is."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        fd = os.open(
            path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600
        )
    except FileExistsError:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(f"{path}: not a regular file") from None
        return
    os.close(fd)


def _json_column(value: Any, what: str) -> Any:
    if not isinstance(value, str):
        raise DamagedRow(f"'{what}' is not JSON text")
    try:
        return loads_bounded(value, max_chars=MAX_COLUMN, max_depth=8)
    except JsonLimitError as exc:
        raise DamagedRow(f"'{what}': {exc}") from None


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _row_match(row: tuple[Any, ...], actions: list[Any]) -> StoredMatch:
    """A stored row as a match, every field checked (DamagedRow saying which is not)."""
    match_id, rules, players, seed, seats, token_hashes, version, over, created, seating = row
    rules = _json_column(rules, "rules")
    if not (
        isinstance(rules, dict)
        and isinstance(rules.get("name"), str)
        and isinstance(rules.get("content_hash", rules.get("hash")), str)
        and isinstance(rules.get("variants", []), list)
        and all(isinstance(v, (str, dict)) for v in rules.get("variants", []))
    ):
        raise DamagedRow("'rules' is not a rules identity (name, hash, variants)")
    if not _integer(players) or not 1 <= players <= MAX_PLAYERS:
        raise DamagedRow("'players' is not a number of players")
    if not _integer(seed):
        raise DamagedRow("'seed' is not an integer")
    seats = _json_column(seats, "seats")
    if not (isinstance(seats, list) and len(seats) == players):
        raise DamagedRow("'seats' does not list one seat per player")
    if not all(isinstance(spec, str) and len(spec) <= 200 for spec in seats):
        raise DamagedRow("'seats' holds something other than seat specs")
    token_hashes = _json_column(token_hashes, "token_hashes")
    if not (isinstance(token_hashes, list) and len(token_hashes) == players) or not all(
        t is None or (isinstance(t, str) and len(t) <= 100) for t in token_hashes
    ):
        raise DamagedRow("'token_hashes' does not list one token hash (or null) per player")
    if not _integer(version) or version < 0 or not _integer(over):
        raise DamagedRow("'version' or 'over' is not a number")
    if not isinstance(created, (int, float)) or isinstance(created, bool):
        raise DamagedRow("'created' is not a time")
    if len(actions) > MAX_ACTIONS or not all(
        isinstance(t, str) and len(t) <= MAX_TEXT for t in actions
    ):
        raise DamagedRow("its action log holds something other than action texts")
    seating = _json_column(seating, "seating")
    if not isinstance(seating, dict):
        raise DamagedRow("'seating' is not an object")
    return StoredMatch(
        id=match_id,
        rules=rules,
        players=players,
        seed=seed,
        seats=seats,
        token_hashes=token_hashes,
        actions=actions,
        version=version,
        over=bool(over),
        created=float(created),
        seating=seating,
    )


class SqliteStore:
    """Matches in one SQLite file (stdlib `sqlite3`, WAL journal: a crash loses nothing that
    was committed). The log is stored one row per action, so an action is one small insert."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        try:
            if str(path) != ":memory:":
                _create_private(self.path)
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        except OSError as exc:
            raise StoreError(f"{path}: cannot open the database ({exc.strerror or exc})") from None
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open the database ({exc})") from None
        try:
            self._db.execute("PRAGMA schema_version").fetchone()  # reads the file's header
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(matches)")}
            if "seating" not in columns:  # a database made before seats had names and clocks
                self._db.execute(
                    "ALTER TABLE matches ADD COLUMN seating TEXT NOT NULL DEFAULT '{}'"
                )
        except sqlite3.Error as exc:
            self._db.close()
            raise StoreError(f"{path}: not a usable SQLite database ({exc})") from None
        self._lock = threading.Lock()
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
        try:
            with self._lock:
                ids = self._db.execute(
                    "SELECT id FROM matches WHERE id NOT IN (SELECT match_id FROM quarantine) "
                    "ORDER BY created"
                ).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot read the matches ({exc})") from None
        out = []
        for (match_id,) in ids:
            try:
                out.append(self._load_one(match_id))
            except (DamagedRow, sqlite3.Error, ValueError) as exc:
                self.quarantine(str(match_id), f"damaged row: {exc}")
        return out

    def _load_one(self, match_id: Any) -> StoredMatch:
        if not isinstance(match_id, str) or not 0 < len(match_id) <= 64:
            raise DamagedRow("'id' is not a match id")
        with self._lock:
            row = self._db.execute(
                "SELECT id, rules, players, seed, seats, token_hashes, version, over, created, "
                "seating FROM matches WHERE id = ?",
                (match_id,),
            ).fetchone()
            actions = [
                text
                for (text,) in self._db.execute(
                    "SELECT text FROM actions WHERE match_id = ? ORDER BY n LIMIT ?",
                    (match_id, MAX_ACTIONS + 1),
                )
            ]
        match = _row_match(tuple(row), actions)
        self._lengths[match_id] = len(actions)
        return match

    def quarantine(self, match_id: str, reason: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO quarantine VALUES (?, ?, ?)",
                (match_id, reason[:1000], time.time()),
            )

    def quarantined(self) -> list[tuple[str, str]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT match_id, reason FROM quarantine ORDER BY at"
            ).fetchall()
        return [(str(match_id), str(reason)) for match_id, reason in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ---- the studio's variants (`castell_web.studio_store`) --------------------------------------

    def studio_create(self, variant_id: str, name: str, edit_hash: str) -> None:
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO studio_variants VALUES (?, ?, ?, ?)",
                (variant_id, name, edit_hash, time.time()),
            )

    def studio_count(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM studio_variants").fetchone()
        return int(count)

    def studio_add_version(
        self, variant_id: str, text: str, rules_hash: str | None, keep: int
    ) -> int:
        """Append a version (its number); only the newest `keep` versions are kept."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            (last,) = self._db.execute(
                "SELECT COALESCE(MAX(n), 0) FROM studio_versions WHERE variant_id = ?",
                (variant_id,),
            ).fetchone()
            n = int(last) + 1
            self._db.execute(
                "INSERT INTO studio_versions VALUES (?, ?, ?, ?, ?)",
                (variant_id, n, text, rules_hash, time.time()),
            )
            self._db.execute(
                "DELETE FROM studio_versions WHERE variant_id = ? AND n <= ?",
                (variant_id, n - keep),
            )
        return n

    def studio_variant(self, variant_id: str) -> tuple[str, str] | None:
        """(name, edit token hash) of a stored variant, None if there is none."""
        with self._lock:
            row = self._db.execute(
                "SELECT name, edit_hash FROM studio_variants WHERE id = ?", (variant_id,)
            ).fetchone()
        return None if row is None else (row[0], row[1])

    def studio_rename(self, variant_id: str, name: str) -> None:
        with self._lock, self._db:
            self._db.execute("UPDATE studio_variants SET name = ? WHERE id = ?", (name, variant_id))

    def studio_versions(self, variant_id: str) -> list[tuple[int, str | None, float]]:
        """(number, rules hash, time saved) of each kept version, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT n, rules_hash, saved FROM studio_versions WHERE variant_id = ? ORDER BY n",
                (variant_id,),
            ).fetchall()
        return [(row[0], row[1], row[2]) for row in rows]

    def studio_text(self, variant_id: str, n: int | None = None) -> tuple[int, str] | None:
        """(number, text) of version `n` (the newest if None) of a variant."""
        with self._lock:
            if n is None:
                row = self._db.execute(
                    "SELECT n, text FROM studio_versions WHERE variant_id = ? "
                    "ORDER BY n DESC LIMIT 1",
                    (variant_id,),
                ).fetchone()
            else:
                row = self._db.execute(
                    "SELECT n, text FROM studio_versions WHERE variant_id = ? AND n = ?",
                    (variant_id, n),
                ).fetchone()
        return None if row is None else (row[0], row[1])

    def studio_analysis(self, key: str) -> str | None:
        """A stored analysis report (its JSON text), by its key."""
        with self._lock:
            row = self._db.execute(
                "SELECT report FROM studio_analyses WHERE key = ?", (key,)
            ).fetchone()
        return None if row is None else row[0]

    def studio_keep_analysis(self, key: str, report: str, keep: int) -> None:
        """Store a report; only the newest `keep` reports are kept."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT OR REPLACE INTO studio_analyses VALUES (?, ?, ?)",
                (key, report, time.time()),
            )
            self._db.execute(
                "DELETE FROM studio_analyses WHERE key NOT IN "
                "(SELECT key FROM studio_analyses ORDER BY created DESC LIMIT ?)",
                (keep,),
            )
