"""A small persistent cache for expensive answers (e.g. a tower that completes a tile).

Answers are stored as JSON under the user's own cache directory ($CASTELL_CACHE_DIR, or
$XDG_CACHE_HOME/castell-dsl, or ~/.cache/castell-dsl), keyed by a hash of everything the answer
depends on, so a stale entry is never read for a changed question.

A cache file is *untrusted input*: on a shared machine another user may have created the
directory, and any process of ours may have been interrupted mid-write. So:

- the directory is created 0700, and a directory that is not ours, or that others can write, is
  not used at all (nothing is read from it or written to it);
- a file is read within a size cap and a nesting cap, must match the schema (a version, and a
  map of 64-hex-digit keys to entries that the caller's `validate` accepts); anything else is
  ignored as if absent and rebuilt on the next write;
- writes go to a temporary file that replaces the cache atomically, under an `fcntl` lock during
  which the current file is re-read and merged, so concurrent writers do not lose entries;
- callers never let an entry decide a verdict: an entry is a hint (a witness) that the caller
  re-checks, or it is recomputed (see `plugins/castell/checks.py`).

The cache is an optimisation only: when it cannot be used, nothing breaks and nothing is cached.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .language.source import NotRegularFile, read_capped
from .safejson import JsonLimitError, loads_bounded

#: Entries kept per cache file; beyond it the file starts afresh (answers are cheap to redo).
MAX_ENTRIES = 10_000
#: Largest cache file read; a bigger one is ignored (MAX_ENTRIES small entries fit easily).
MAX_CACHE_BYTES = 4_000_000
#: Deepest nesting of a cache file (an entry is a few levels deep).
MAX_JSON_NESTING = 32
#: Version of the file layout; a file of another version is ignored.
VERSION = 1

_KEY = re.compile(r"[0-9a-f]{64}")
_NAME = re.compile(r"[a-z][a-z0-9_-]{0,40}")
_LOADED: dict[str, dict[str, Any]] = {}

Validator = Callable[[Any], bool]


def cache_dir() -> Path:
    """Where cache files live; whether it may be used is `usable_dir`'s question."""
    explicit = os.environ.get("CASTELL_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "castell-dsl"


def _safe_dir(path: Path) -> bool:
    """Ours, a real directory (not a symlink to one), and writable by nobody else."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return False
    return not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def usable_dir(create: bool = False) -> Path | None:
    """The cache directory if it is safe to use (created 0700 when `create`), else None."""
    directory = cache_dir()
    if create and not os.path.lexists(directory):
        try:
            directory.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            directory.mkdir(mode=0o700)
        except FileExistsError:
            pass  # another process made it: check it like any other
        except OSError:
            return None
    return directory if _safe_dir(directory) else None


def key_of(*parts: Any) -> str:
    """A stable key for JSON-able parts."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _path(directory: Path, name: str) -> Path:
    if not _NAME.fullmatch(name):
        raise ValueError(f"bad cache name {name!r}")
    return directory / f"{name}.json"


def _read(directory: Path, name: str, validate: Validator) -> dict[str, Any]:
    """The valid entries of a cache file; {} for a missing, oversized or malformed file."""
    try:
        data = read_capped(_path(directory, name), MAX_CACHE_BYTES)
        document = loads_bounded(data, max_chars=MAX_CACHE_BYTES, max_depth=MAX_JSON_NESTING)
    except (OSError, NotRegularFile, JsonLimitError):
        return {}
    if not isinstance(document, dict) or document.get("version") != VERSION:
        return {}
    entries = document.get("entries")
    if not isinstance(entries, dict) or len(entries) > MAX_ENTRIES:
        return {}
    out: dict[str, Any] = {}
    for key, value in entries.items():
        try:
            ok = _KEY.fullmatch(key) is not None and validate(value)
        except Exception:  # a validator must not turn a bad file into a crash
            ok = False
        if ok:
            out[key] = value
    return out


def _entries(name: str, validate: Validator) -> dict[str, Any]:
    entries = _LOADED.get(name)
    if entries is None:
        directory = usable_dir()
        entries = _read(directory, name, validate) if directory is not None else {}
        _LOADED[name] = entries
    return entries


def get(name: str, key: str, validate: Validator) -> Any:
    """The entry for `key` if the cache holds a valid one, else None.

    `validate` checks the shape of an entry; the caller still re-checks what the entry claims.
    """
    return _entries(name, validate).get(key)


@contextlib.contextmanager
def _locked(directory: Path, name: str) -> Iterator[None]:
    """An exclusive `fcntl` lock on the cache file's lock file (no lock where there is none)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: atomic replace alone (a concurrent entry may be lost)
        yield
        return
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(directory / f".{name}.lock", flags, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def put_many(name: str, items: dict[str, Any], validate: Validator) -> None:
    """Store entries: under a lock, re-read the file, merge, and replace it atomically.

    Best effort: any OS error leaves the cache as it was. Entries that `validate` rejects are
    not written (a bug upstream must not poison the file for later runs).
    """
    items = {k: v for k, v in items.items() if _KEY.fullmatch(k) and validate(v)}
    if not items:
        return
    directory = usable_dir(create=True)
    if directory is None:
        return
    try:
        with _locked(directory, name):
            entries = _read(directory, name, validate)
            if len(entries) + len(items) > MAX_ENTRIES:
                entries.clear()
            entries.update(items)
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    json.dump({"version": VERSION, "entries": entries}, handle)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, _path(directory, name))
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
    except OSError:
        return
    _LOADED[name] = entries
