"""Save files: a game as rules identity + options + action log, verified on replay.

A save holds what fully describes a game — the rule set (name, variants, hash), the options
(players, seed), who played which seat, the action log — plus the hash of the state it reached,
so a replay proves it reproduces the game exactly. Files are written atomically (a temporary
file renamed over the target), so a crash never leaves half a save.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..contract import ActionError
from ..engine.game import Game
from ..language.diagnostics import RuleError
from ..language.ruleset import RuleSet
from .games import start_game
from .loading import load_rules

SAVE_FORMAT = "castell-save/1"
REQUIRED = ("format", "rules", "options", "actions", "state_hash")


def rules_identity(rules: RuleSet) -> dict[str, Any]:
    """How saves name a rule set: its name, source file, variants and content hash."""
    return {
        "name": rules.name,
        "source": rules.sources[0] if rules.sources else rules.name,
        "hash": rules.hash,
        "variants": list(rules.variants),
    }


class SaveError(Exception):
    """A save file that cannot be used; the message names what is wrong."""


def save_record(game: Game, seats: list[str] | None = None) -> dict[str, Any]:
    return {
        "format": SAVE_FORMAT,
        "rules": rules_identity(game.rules),
        "options": {"players": game.players, "seed": game.seed},
        "seats": list(seats) if seats is not None else None,
        "actions": list(game.log),
        "over": game.is_over(),
        "state_hash": game.state_hash(),
        "result": game.result() if game.is_over() else None,
    }


def write_save(path: str | os.PathLike, record: dict[str, Any]) -> Path:
    """Write atomically: a temporary file in the same directory, then a rename."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(record, handle, indent=1)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def read_save(path: str | os.PathLike) -> dict[str, Any]:
    """Read and check the structure of a save file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"{path}: cannot read the save file ({exc})") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise SaveError(
            f"{path}: the save file is truncated or not JSON ({exc.msg} at {where})"
        ) from None
    if not isinstance(record, dict):
        raise SaveError(f"{path}: a save file holds a JSON object")
    if record.get("format") != SAVE_FORMAT:
        raise SaveError(
            f"{path}: not a Castell DSL save file (format {record.get('format')!r}, "
            f"expected {SAVE_FORMAT!r})"
        )
    missing = [key for key in REQUIRED if key not in record]
    if missing:
        raise SaveError(f"{path}: the save file has no '{missing[0]}' (truncated or edited?)")
    rules = record["rules"]
    options = record["options"]
    if not isinstance(rules, dict) or not {"name", "hash"} <= set(rules):
        raise SaveError(f"{path}: 'rules' must name the rule set and its hash")
    if not isinstance(options, dict) or not {"players", "seed"} <= set(options):
        raise SaveError(f"{path}: 'options' must give 'players' and 'seed'")
    if not isinstance(record["actions"], list) or not all(
        isinstance(a, str) for a in record["actions"]
    ):
        raise SaveError(f"{path}: 'actions' must be a list of action texts")
    return record


def replay(record: dict[str, Any], *, verify: bool = True, record_events: bool = False) -> Game:
    """Rebuild a game from a save record by replaying its log; verify the state it reaches."""
    info = record["rules"]
    try:
        rules = load_rules(info.get("source") or info["name"], tuple(info.get("variants") or ()))
    except RuleError:
        try:
            rules = load_rules(info["name"], tuple(info.get("variants") or ()))
        except RuleError as exc:
            raise SaveError(f"cannot load the rules '{info['name']}': {exc}") from None
    if rules.hash != info["hash"]:
        raise SaveError(
            f"the rules '{info['name']}' have changed since this game was saved "
            f"(saved {info['hash'][:19]}…, now {rules.hash[:19]}…)"
        )
    options = record["options"]
    try:
        game = start_game(
            rules, int(options["players"]), int(options["seed"]), record_events=record_events
        )
    except (TypeError, ValueError) as exc:
        raise SaveError(f"bad options in the save file: {exc}") from None
    for number, text in enumerate(record["actions"], 1):
        try:
            game.apply(text)
        except ActionError as exc:
            raise SaveError(
                f"action {number} ('{text}') is not legal when replayed: "
                f"{exc.rejection.message} — the save file was altered or truncated"
            ) from None
    if verify and game.state_hash() != record["state_hash"]:
        raise SaveError(
            "replaying the actions does not reach the saved state (state hash differs): "
            "the save file was altered"
        )
    return game
