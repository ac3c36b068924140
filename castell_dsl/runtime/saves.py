"""Save files: a game as rules identity + options + action log, verified on replay.

A save holds what fully describes a game — the rules exactly as played, the options (players,
seed), who played which seat, the action log — plus the hash of the state it reached, so a
replay proves it reproduces the game exactly. Files are written atomically (a temporary file
renamed over the target), so a crash never leaves half a save.

A save is input from anywhere (a mail attachment, a hand-edited file), so nothing in it is
trusted: every field is either covered by the state hash (options and actions: replaying them
must reach it), recomputed on load (`over` and `result` are what the replay reaches, never what
the file says), or validated (`seats` are bot specs within their factories' ranges). Types are
checked with messages that name the file and the field (`save.json: 'options.seed' must be an
integer`); the file's size and JSON nesting are bounded before it is parsed.

Format `castell-save/3` records the rules as played, portably and privately: what was given
(an installed rule set's name, or a rule file), each variant (by name, or as a file), every file
read with its content hash, and the rules' `content_hash` (what they say, order included). A
file is named without any absolute path of the machine that wrote the save: on the rule path as
`DIR/REL` (DIR the rule directory's own name: `castell/variants/short-season.castell`), else
relative to the working directory, else by its name alone. On replay an installed rule set is
found by name; a user's file beside the save or in the working directory (or given with
`--rules FILE`). The rules must compile to the recorded `content_hash`, and a refusal names the
file that changed. Saves of the earlier formats (`castell-save/2`, absolute paths, and `/1`,
the base file only) are still read, against the hash they recorded (`RuleSet.legacy_hash`).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from ..contract import ActionError, SaveFailed
from ..contract.services import SaveError
from ..engine.game import Game
from ..language.diagnostics import RuleError
from ..language.loader import RULE_SUFFIX, is_path_like
from ..language.ruleset import RuleSet
from ..safejson import JsonLimitError, loads_bounded
from .bots import BotSpecError, check_bot_spec
from .games import start_game
from .loading import FileIdentity, file_sha256, load_rules, provenance, rule_path

SAVE_FORMAT = "castell-save/3"
OLD_FORMATS = ("castell-save/2", "castell-save/1")
REQUIRED = ("format", "rules", "options", "actions", "state_hash")
KNOWN = frozenset(REQUIRED) | {"seats", "over", "result"}

#: Limits on a save file: far above any real game (a Castell game is a few hundred actions).
MAX_SAVE_BYTES = 16 * 1024 * 1024
MAX_ACTIONS = 100_000
MAX_TEXT = 1_000
MAX_FILES = 1_000
MAX_PLAYERS = 64
SEED_RANGE = (-(2**63), 2**63 - 1)
HUMAN = "you"


class SaveWriteError(SaveError, SaveFailed):
    """A save could not be written; the message names the file and why."""


def rules_identity(rules: RuleSet) -> dict[str, Any]:
    """How saves name a rule set: the rules exactly as played (see the module docstring)."""
    identity: dict[str, Any] = {"name": rules.name, "content_hash": rules.content_hash}
    origin = provenance(rules)
    if origin is None:  # built without the loader (e.g. from text): the name is all we know
        identity["given"] = {"name": rules.name}
        identity["variants"] = [{"name": name} for name in rules.variants]
        identity["files"] = []
        return identity
    if origin.bundled is not None:
        identity["given"] = {"name": origin.bundled}
    else:
        identity["given"] = {"file": _portable(origin.file)}
    variants: list[dict[str, Any]] = []
    for name, file in origin.variants:
        if file is None:  # a plugin's code variant
            variants.append({"name": name})
        elif is_path_like(name):  # given as a path: only the file, never the path as typed
            variants.append({"file": _portable(file)})
        else:
            variants.append({"name": name, "file": _portable(file)})
    identity["variants"] = variants
    identity["files"] = [_portable(f) for f in origin.files]
    return identity


#: Where a save says a file was: on the rule path, under the working directory, elsewhere.
PLACES = ("rule path", "working directory", "elsewhere")


def _portable(file: FileIdentity) -> dict[str, Any]:
    """A file as a save names it, with no absolute path (see the module docstring).

    A file on the rule path is named relative to its rule directory, and the directory by a
    rule set it holds (`beside`: found again as that rule set is, wherever it is installed),
    or, holding none, by its own name (`dir`).
    """
    path = Path(file.path)
    out: dict[str, Any]
    search = rule_path()
    for directory in search.directories:
        root = directory.resolve()
        if root in path.parents:
            relative = path.relative_to(root).as_posix()
            holds = sorted(p.stem for p in directory.glob(f"*{RULE_SUFFIX}"))
            anchor = {"beside": holds[0]} if holds else {"dir": root.name}
            out = {"on": "rule path", **anchor, "path": relative}
            break
    else:
        cwd = Path.cwd().resolve()
        if cwd in path.parents:
            out = {"on": "working directory", "path": path.relative_to(cwd).as_posix()}
        else:
            out = {"on": "elsewhere", "path": path.name}
    out["sha256"] = file.sha256
    return out


def shown(file: dict[str, Any]) -> str:
    """How a save's file is named in messages: `castell/variants/short-season.castell`."""
    anchor = file.get("beside") or file.get("dir")
    return f"{anchor}/{file['path']}" if anchor else file["path"]


def _local(file: dict[str, Any], beside: Path | None) -> Path | None:
    """Where a file a save names is on this machine, if anywhere: one on the rule path in the
    rule directory of the rule set it was beside (or of its directory's name); a user's one
    under the working directory or beside the save (also by its name alone there)."""
    relative = PurePosixPath(file["path"])
    if file["on"] == "rule path":
        search = rule_path()
        if file.get("beside"):
            found = search.find_rules(file["beside"])
            directories = [found.parent] if found is not None else []
        else:
            directories = [d for d in search.directories if d.resolve().name == file.get("dir")]
        for directory in directories:
            candidate = directory / relative
            if candidate.is_file():
                return candidate
        return None
    bases = [Path.cwd(), *([beside] if beside is not None else [])]
    for candidate in [b / relative for b in bases] + [b / relative.name for b in bases]:
        if candidate.is_file():
            return candidate
    return None


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


def write_save(
    path: str | os.PathLike, record: dict[str, Any], *, make_parents: bool = False
) -> Path:
    """Write atomically: a temporary file in the same directory, then a rename.

    The target's directory must exist unless `make_parents` (for the default save directory
    and `simulate --save`): a typo in `save ~/gmaes/x.json` should be told, not create a tree.
    Any failure is a `SaveWriteError` naming the file; nothing is left behind.
    """
    import json

    try:
        target = Path(os.fspath(path))
        if "\0" in str(target):
            raise SaveWriteError(f"{str(target)!r}: a file name cannot contain a NUL character")
        if target.is_dir():
            raise SaveWriteError(f"{target}: is a directory; give a file name to save to")
        if make_parents:
            target.parent.mkdir(parents=True, exist_ok=True)
        elif not target.parent.is_dir():
            what = "is not a directory" if target.parent.exists() else "does not exist"
            raise SaveWriteError(f"{target}: the directory {target.parent} {what}")
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except SaveWriteError:
        raise
    except (OSError, ValueError) as exc:
        raise SaveWriteError(f"{path}: cannot save here ({_reason(exc)})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(record, handle, indent=1)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except (OSError, ValueError) as exc:
        Path(tmp).unlink(missing_ok=True)
        raise SaveWriteError(f"{target}: cannot save here ({_reason(exc)})") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


# ---- reading ----------------------------------------------------------------------------------


def read_save(path: str | os.PathLike) -> dict[str, Any]:
    """Read a save file and check every field's type and range (SaveError otherwise)."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SAVE_BYTES + 1)
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save file") from None
    except IsADirectoryError:
        raise SaveError(f"{path}: is a directory, not a save file") from None
    except (OSError, ValueError) as exc:
        raise SaveError(f"{path}: cannot read the save file ({_reason(exc)})") from None
    if len(data) > MAX_SAVE_BYTES:
        raise SaveError(f"{path}: too large for a save file (over {MAX_SAVE_BYTES:,} bytes)")
    try:
        record = loads_bounded(data, max_chars=MAX_SAVE_BYTES)
    except JsonLimitError as exc:
        raise SaveError(f"{path}: the save file is truncated or not JSON: {exc}") from None
    return check_record(record, str(path))


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any, limit: int = MAX_TEXT) -> bool:
    return isinstance(value, str) and len(value) <= limit and "\0" not in value


@dataclass
class _Checker:
    where: str

    def fail(self, field: str, what: str, value: Any = None) -> SaveError:
        shown = f" (got {_type_name(value)})" if value is not None or what else ""
        return SaveError(f"{self.where}: '{field}' must be {what}{shown}")

    def mapping(self, value: Any, field: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, "an object", value)
        return value

    def text(self, value: Any, field: str, *, optional: bool = False) -> None:
        if optional and value is None:
            return
        if not _text(value):
            raise self.fail(field, f"a string of at most {MAX_TEXT} characters", value)

    def digest(self, value: Any, field: str, *, optional: bool = False) -> None:
        """A hash is a short string; a wrong one is found by comparing (and says so)."""
        if optional and value is None:
            return
        if not isinstance(value, str) or len(value) > 100:
            raise self.fail(field, "a hash ('sha256:…', at most 100 characters)", value)

    def name(self, value: Any, field: str) -> None:
        """An installed rule set's or variant's name: never something read as a path."""
        self.text(value, field)
        if is_path_like(value):
            raise SaveError(f"{self.where}: '{field}' must be a name, not a path")

    def file(self, value: Any, field: str) -> None:
        """A file as castell-save/3 names it: where it was, a relative path, its hash."""
        entry = self.mapping(value, field)
        if entry.get("on") not in PLACES:
            raise self.fail(
                f"{field}.on", "one of " + ", ".join(map(repr, PLACES)), entry.get("on")
            )
        self.text(entry.get("path"), f"{field}.path")
        if entry["on"] == "rule path":
            anchors = [key for key in ("beside", "dir") if key in entry]
            if len(anchors) != 1:
                raise SaveError(f"{self.where}: '{field}' must hold a 'beside' or a 'dir'")
            self.name(entry[anchors[0]], f"{field}.{anchors[0]}")
        relative = PurePosixPath(entry["path"])
        if (
            relative.is_absolute()
            or ".." in relative.parts
            or "\\" in entry["path"]
            or not (relative.parts)
        ):
            raise SaveError(f"{self.where}: '{field}.path' must be a relative path without '..'")
        self.digest(entry.get("sha256"), f"{field}.sha256", optional=True)

    def listing(self, value: Any, field: str, limit: int) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(field, "a list", value)
        if len(value) > limit:
            raise SaveError(
                f"{self.where}: '{field}' has {len(value):,} entries (at most {limit:,})"
            )
        return value


def check_record(record: Any, where: str = "save file") -> dict[str, Any]:
    """Check a save record's structure, every field's type and range; return it unchanged.
    Nothing here is trusted later without this (see the module docstring)."""
    check = _Checker(where)
    if not isinstance(record, dict):
        raise SaveError(f"{where}: a save file holds a JSON object, not {_type_name(record)}")
    fmt = record.get("format")
    if fmt != SAVE_FORMAT and fmt not in OLD_FORMATS:
        raise SaveError(
            f"{where}: not a Castell DSL save file (format {str(fmt)[:40]!r}, "
            f"expected {SAVE_FORMAT!r} or {', '.join(map(repr, OLD_FORMATS))})"
        )
    missing = [key for key in REQUIRED if key not in record]
    if missing:
        raise SaveError(f"{where}: the save file has no '{missing[0]}' (truncated or edited?)")
    unknown = sorted(str(key)[:40] for key in record if key not in KNOWN)
    if unknown:
        raise SaveError(
            f"{where}: unknown field '{unknown[0]}' (fields: {', '.join(sorted(KNOWN))})"
        )

    rules = check.mapping(record["rules"], "rules")
    digest = "content_hash" if fmt == SAVE_FORMAT else "hash"
    for key in ("name", digest):
        if key not in rules:
            raise SaveError(f"{where}: 'rules' must name the rule set and its hash ('{key}')")
    check.text(rules["name"], "rules.name")
    check.digest(rules[digest], f"rules.{digest}")
    if fmt == SAVE_FORMAT:
        _check_rules_v3(check, rules)
    elif fmt == "castell-save/2":
        _check_rules_v2(check, rules)
    else:
        check.text(rules.get("source"), "rules.source", optional=True)
        variants = check.listing(rules.get("variants") or [], "rules.variants", MAX_FILES)
        for i, name in enumerate(variants):
            check.text(name, f"rules.variants[{i}]")

    options = check.mapping(record["options"], "options")
    for key in ("players", "seed"):
        if key not in options:
            raise SaveError(f"{where}: 'options' must give 'players' and 'seed' (no '{key}')")
    extra = sorted(str(k)[:40] for k in options if k not in ("players", "seed"))
    if extra:
        raise SaveError(f"{where}: unknown field 'options.{extra[0]}'")
    players, seed = options["players"], options["seed"]
    if not _integer(players):
        raise check.fail("options.players", "an integer", players)
    if not 1 <= players <= MAX_PLAYERS:
        raise SaveError(
            f"{where}: 'options.players' must be from 1 to {MAX_PLAYERS}, not {players}"
        )
    if not _integer(seed):
        raise check.fail("options.seed", "an integer", seed)
    if not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise SaveError(f"{where}: 'options.seed' must fit in 64 bits")

    seats = record.get("seats")
    if seats is not None:
        check.listing(seats, "seats", MAX_PLAYERS)
        if len(seats) != players:
            raise SaveError(f"{where}: 'seats' names {len(seats)} seats for {players} players")
        for i, spec in enumerate(seats):
            check.text(spec, f"seats[{i}]")
            if spec.strip() != HUMAN:
                try:
                    check_bot_spec(spec)
                except BotSpecError as exc:
                    raise SaveError(f"{where}: 'seats[{i}]': {exc}") from None

    actions = check.listing(record["actions"], "actions", MAX_ACTIONS)
    for i, text in enumerate(actions):
        if not _text(text):
            raise check.fail(
                f"actions[{i}]", f"an action text of at most {MAX_TEXT} characters", text
            )
    check.digest(record["state_hash"], "state_hash")
    # `over` and `result` are recomputed by the replay; only their types are checked here.
    if "over" in record and not isinstance(record["over"], bool):
        raise check.fail("over", "true or false", record["over"])
    if record.get("result") is not None and not isinstance(record["result"], dict):
        raise check.fail("result", "an object or null", record["result"])
    return record


def _check_rules_v3(check: _Checker, rules: dict[str, Any]) -> None:
    given = check.mapping(rules.get("given"), "rules.given")
    if ("name" in given) == ("file" in given):
        raise SaveError(f"{check.where}: 'rules.given' must hold a 'name' or a 'file'")
    if "name" in given:
        check.name(given["name"], "rules.given.name")
    else:
        check.file(given["file"], "rules.given.file")
    variants = check.listing(rules.get("variants", []), "rules.variants", MAX_FILES)
    for i, variant in enumerate(variants):
        variant = check.mapping(variant, f"rules.variants[{i}]")
        if "name" not in variant and "file" not in variant:
            raise SaveError(f"{check.where}: 'rules.variants[{i}]' must hold a 'name' or a 'file'")
        if "name" in variant:
            check.name(variant["name"], f"rules.variants[{i}].name")
        if "file" in variant:
            check.file(variant["file"], f"rules.variants[{i}].file")
    files = check.listing(rules.get("files", []), "rules.files", MAX_FILES)
    for i, entry in enumerate(files):
        check.file(entry, f"rules.files[{i}]")


def _check_rules_v2(check: _Checker, rules: dict[str, Any]) -> None:
    file = rules.get("file")
    if file is not None:
        file = check.mapping(file, "rules.file")
        check.text(file.get("path"), "rules.file.path")
        if not os.path.isabs(file["path"]):
            raise SaveError(f"{check.where}: 'rules.file.path' must be an absolute path")
        check.digest(file.get("sha256"), "rules.file.sha256", optional=True)
        check.text(file.get("bundled"), "rules.file.bundled", optional=True)
    variants = check.listing(rules.get("variants", []), "rules.variants", MAX_FILES)
    for i, variant in enumerate(variants):
        variant = check.mapping(variant, f"rules.variants[{i}]")
        check.text(variant.get("name"), f"rules.variants[{i}].name")
        check.text(variant.get("path"), f"rules.variants[{i}].path", optional=True)
        check.digest(variant.get("sha256"), f"rules.variants[{i}].sha256", optional=True)
    files = check.listing(rules.get("files", []), "rules.files", MAX_FILES)
    for i, entry in enumerate(files):
        entry = check.mapping(entry, f"rules.files[{i}]")
        check.text(entry.get("path"), f"rules.files[{i}].path")
        check.digest(entry.get("sha256"), f"rules.files[{i}].sha256", optional=True)


# ---- replaying --------------------------------------------------------------------------------


def variant_names(record: dict[str, Any]) -> tuple[str, ...]:
    """The variants a save names, as names (a variant given as a file by its file's path)."""
    variants = record["rules"].get("variants") or []
    return tuple(v if isinstance(v, str) else v.get("name") or v["file"]["path"] for v in variants)


def _legacy_candidates(info: dict[str, Any], fmt: str) -> list[str]:
    """Where to find the rules a castell-save/1 or /2 names, best first."""
    if fmt == "castell-save/1":
        return [c for c in (info.get("source"), info["name"]) if c]
    file = info.get("file")
    if file is None:
        return [info["name"]]
    out = []
    if file.get("bundled"):  # by name first, so a game that moved is still found (and named)
        out.append(file["bundled"])
    if Path(file["path"]).is_file():
        out.append(file["path"])
    if not out:
        raise SaveError(
            f"the rule file this game was played with, {file['path']}, no longer exists "
            "(replay it with --rules FILE naming where it is now)"
        )
    return out


def _what_changed(info: dict[str, Any], fmt: str, beside: Path | None) -> str:
    """Which file differs between the save and this machine, by content hash, in words."""
    saved: dict[str, tuple[Path | None, str | None]] = {}  # as the save names it
    if fmt == SAVE_FORMAT:
        for entry in info.get("files") or []:
            saved[shown(entry)] = (_local(entry, beside), entry.get("sha256"))
    else:
        named = [*(info.get("files") or []), *(info.get("variants") or [])]
        for entry in named:
            if isinstance(entry, dict) and entry.get("path"):
                saved[entry["path"]] = (Path(entry["path"]), entry.get("sha256"))
    changes = []
    for name, (local, digest) in saved.items():
        now = file_sha256(local) if local is not None else None
        if now is None:
            changes.append(f"{name} is not found here")
        elif digest is not None and now != digest:
            changes.append(f"{name} changed (saved {digest[:19]}…, now {now[:19]}…)")
    if changes:
        return "; ".join(changes)
    if fmt == "castell-save/1":
        return (
            "this is a castell-save/1 file, which names only the base rule file: if the game "
            "was played with a file that extends it, replay it with --rules FILE"
        )
    return (
        "the rule files are unchanged, so a plugin (a code variant) or "
        "Castell DSL itself now compiles them differently"
    )


def _v3_target(
    info: dict[str, Any], beside: Path | None, installed_only: bool, rules_path: str | None
) -> tuple[str, tuple[str, ...]]:
    """The rules (a name, or a local file's path; `rules_path` if given) and variants a
    castell-save/3 names."""

    def found(file: dict[str, Any], what: str) -> str:
        if installed_only:
            raise SaveError(
                f"the {what} this game was played with is a file ({shown(file)}), not an "
                "installed rule set or variant: only installed ones are loaded here"
            )
        local = _local(file, beside)
        if local is None:
            raise SaveError(
                f"the {what} this game was played with, {shown(file)}, is not found in the "
                "working directory or beside the save (replay it with --rules FILE naming "
                "where it is now)"
            )
        return str(local.resolve())

    given = info["given"]
    if rules_path is not None:
        target = rules_path
    else:
        target = given["name"] if "name" in given else found(given["file"], "rule file")
    variants = tuple(
        v["name"] if "name" in v else found(v["file"], "variant file")
        for v in info.get("variants") or []
    )
    return target, variants


def load_saved_rules(
    record: dict[str, Any],
    rules_path: str | None = None,
    *,
    beside: str | os.PathLike | None = None,
    installed_only: bool = False,
) -> RuleSet:
    """The rule set a save was played with, refused (SaveError) unless it compiles to the same
    rules; the refusal says which file changed.

    `rules_path` is the rule file to use instead of the one the save names; `beside` the save
    file's directory, where a user's rule file is looked for too; `installed_only` loads only
    installed rule sets and variants by name (a server reading a stranger's save never opens a
    file it names).
    """
    return rules_from_identity(
        record["rules"], record["format"], rules_path, beside=beside, installed_only=installed_only
    )


def rules_from_identity(
    info: dict[str, Any],
    fmt: str = SAVE_FORMAT,
    rules_path: str | None = None,
    *,
    beside: str | os.PathLike | None = None,
    installed_only: bool = False,
) -> RuleSet:
    """The rule set a checked `rules_identity` (of save format `fmt`) names: see
    `load_saved_rules`."""
    near = Path(beside) if beside is not None else None
    if fmt == SAVE_FORMAT:
        target, variants = _v3_target(info, near, installed_only, rules_path)
        candidates = [target]
        recorded, matches = info["content_hash"], (lambda r: r.content_hash)
    else:
        variants = tuple(v if isinstance(v, str) else v["name"] for v in info.get("variants") or [])
        if installed_only and (rules_path or any(is_path_like(v) for v in variants)):
            raise SaveError("this save names rule files, not installed rule sets")
        candidates = [rules_path] if rules_path else _legacy_candidates(info, fmt)
        if installed_only:
            candidates = [c for c in candidates if not is_path_like(c)]
        recorded, matches = info["hash"], (lambda r: r.legacy_hash)
    loaded: RuleSet | None = None
    errors = []
    for candidate in candidates:
        try:
            rules = load_rules(candidate, variants)
        except RuleError as exc:
            errors.append(f"{candidate}: {exc}")
            continue
        if matches(rules) == recorded:
            return rules
        loaded = loaded or rules
    if loaded is None:
        why = "; ".join(errors) or "not found"
        raise SaveError(f"cannot load the rules '{info['name']}': {why}")
    why = (  # a server never looks at the files a stranger's save names, not even to hash them
        "the installed rules differ from those it was played with"
        if installed_only
        else _what_changed(info, fmt, near)
    )
    raise SaveError(
        f"the rules '{info['name']}' have changed since this game was saved "
        f"(saved {recorded[:19]}…, now {matches(loaded)[:19]}…): {why}"
    )


def replay(
    record: dict[str, Any],
    *,
    verify: bool = True,
    record_events: bool = False,
    rules_path: str | None = None,
    beside: str | os.PathLike | None = None,
    installed_only: bool = False,
) -> Game:
    """Rebuild a game from a save record by replaying its log; verify the state it reaches.

    `rules_path` names the rule file to use instead of the one the save records (an old save,
    or rules moved elsewhere); the compiled rules must still be the same. `beside` and
    `installed_only`: see `load_saved_rules`.
    """
    record = check_record(record, "save")
    rules = load_saved_rules(record, rules_path, beside=beside, installed_only=installed_only)
    options = record["options"]
    try:
        game = start_game(rules, options["players"], options["seed"], record_events=record_events)
    except ValueError as exc:
        raise SaveError(f"bad options in the save file: {exc}") from None
    for number, text in enumerate(record["actions"], 1):
        try:
            game.apply(text)
        except ActionError as exc:
            raise SaveError(
                f"action {number} ('{text[:80]}') is not legal when replayed: "
                f"{exc.rejection.message} — the save file was altered or truncated"
            ) from None
        except (ValueError, TypeError, LookupError) as exc:  # a mechanics' parser refusing
            raise SaveError(
                f"action {number} ('{text[:80]}') cannot be read: {exc} — the save file was altered"
            ) from None
    if verify and game.state_hash() != record["state_hash"]:
        raise SaveError(
            "replaying the actions does not reach the saved state (state hash differs): "
            "the save file was altered"
        )
    return game


__all__ = [
    "SAVE_FORMAT",
    "FileIdentity",
    "SaveError",
    "SaveWriteError",
    "check_record",
    "load_saved_rules",
    "read_save",
    "replay",
    "rules_from_identity",
    "rules_identity",
    "save_record",
    "write_save",
]
