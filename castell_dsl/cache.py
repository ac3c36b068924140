"""A small persistent cache for expensive, pure answers (e.g. "can this tile be completed?").

Answers are stored as JSON under the user's cache directory ($CASTELL_CACHE_DIR, or
$XDG_CACHE_HOME/castell-dsl, or ~/.cache/castell-dsl), keyed by a hash of everything the answer
depends on, so a stale entry can never be read for a changed question. The cache is an
optimisation only: if the directory cannot be written, nothing breaks and nothing is cached.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

_LOADED: dict[str, dict[str, Any]] = {}
#: Entries kept per cache file; beyond it the file starts afresh (answers are cheap to redo).
MAX_ENTRIES = 10_000


def cache_dir() -> Path:
    explicit = os.environ.get("CASTELL_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "castell-dsl"


def key_of(*parts: Any) -> str:
    """A stable key for JSON-able parts."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _path(name: str) -> Path:
    return cache_dir() / f"{name}.json"


def _entries(name: str) -> dict[str, Any]:
    entries = _LOADED.get(name)
    if entries is None:
        try:
            entries = json.loads(_path(name).read_text())
            if not isinstance(entries, dict):
                entries = {}
        except (OSError, ValueError):
            entries = {}
        _LOADED[name] = entries
    return entries


def get(name: str, key: str) -> Any:
    return _entries(name).get(key)


def put_many(name: str, items: dict[str, Any]) -> None:
    """Store answers and write the file atomically (best effort)."""
    if not items:
        return
    entries = _entries(name)
    if len(entries) + len(items) > MAX_ENTRIES:
        entries.clear()
    entries.update(items)
    try:
        directory = cache_dir()
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=directory)
        with os.fdopen(fd, "w") as handle:
            json.dump(entries, handle)
        os.replace(tmp, _path(name))
    except OSError:
        return
