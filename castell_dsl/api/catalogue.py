"""The installed games and their variants: one catalogue for programmers, the web lobby,
`castell rules list` and the RL environments.

A game here is an installed rule set — a rule file on the rule path (the game plugins' rule
directories and `CASTELL_RULES_PATH`) — named as `load_rules` and `new_game` take it. Its
variants are the variant files beside it and the plugins' code variants that apply to it.
Everything is looked up by installed name only and loaded from the installed files
(`runtime.installed`), so the same catalogue can answer a stranger on a network: it never
opens a path it was given, because it is given none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..language.diagnostics import RuleError
from ..language.ruleset import RuleSet
from ..runtime.installed import (
    NotInstalled,
    Shadowed,
    installed_rule_sets,
    installed_variants,
    load_installed,
)
from ..runtime.plugins import registries

#: How much of a rule file's head is read for its summary.
_HEAD_BYTES = 4096
#: Longest summary kept.
_MAX_SUMMARY = 400


@dataclass(frozen=True)
class GameInfo:
    """An installed game: `name` is what `load_rules`, `new_game` and `list_variants` take."""

    name: str
    title: str
    mechanics: str
    players: tuple[int, int]
    variants: tuple[str, ...]
    default: bool = False
    summary: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "mechanics": self.mechanics,
            "players": list(self.players),
            "variants": list(self.variants),
            "default": self.default,
            "summary": self.summary,
        }


@dataclass(frozen=True)
class VariantInfo:
    """A variant of an installed game: a file beside it (`kind="file"`) or a plugin's code
    variant (`kind="code"`). `players` is the player range with this variant alone (None if
    it does not load alone: some variants only combine with others)."""

    name: str
    game: str
    kind: Literal["file", "code"]
    summary: str
    players: tuple[int, int] | None
    rule_ids: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "kind": self.kind,
            "summary": self.summary,
            "players": list(self.players) if self.players is not None else None,
            "rule_ids": list(self.rule_ids),
        }


@dataclass(frozen=True)
class Catalogue:
    """The playable games, and the installed rule sets that do not load (name → why)."""

    games: tuple[GameInfo, ...]
    problems: dict[str, str] = field(default_factory=dict)


def natural_key(name: str) -> list[Any]:
    """Sort key that reads numbers as numbers: scenario-2 before scenario-10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def file_summary(path: Path) -> str:
    """The first paragraph of a rule file's leading comment, on one line (bounded)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(_HEAD_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ""
    words: list[str] = []
    for line in head.splitlines():
        stripped = line.strip()
        if not stripped.startswith("#"):
            break
        text = stripped.lstrip("#").strip()
        if not text:
            if words:
                break
            continue
        words.append(text)
    summary = " ".join(words)
    return summary if len(summary) <= _MAX_SUMMARY else summary[: _MAX_SUMMARY - 1] + "…"


def _load(name: str, variants: tuple[str, ...] = ()) -> RuleSet:
    return load_installed(name, list(variants))


#: The diagnostic of a variant file that extends another rule set (found in a user's rule
#: directory shared by several games): not a variant of this game.
FOR_ANOTHER_GAME = "E0274"


class _AnotherGamesVariant(Exception):
    """A variant file found beside a game that `extends` another rule set (E0274)."""


def _players_with(game: str, variant: str) -> tuple[int, int] | None:
    """The player range of `game` with `variant` alone: None if it does not load alone,
    `_AnotherGamesVariant` if it is another rule set's variant."""
    try:
        low, high = _load(game, (variant,)).game.players
    except RuleError as exc:
        if any(d.code == FOR_ANOTHER_GAME for d in exc.diagnostics):
            raise _AnotherGamesVariant(variant) from None
        return None
    except (NotInstalled, Shadowed, ValueError):
        return None
    return (low, high)


def _variants_of(game: str) -> dict[str, tuple[Path | None, tuple[int, int] | None]]:
    """The installed variants of `game` (file or None for a code variant) with their player
    ranges, in natural order, without the variants of other rule sets."""
    out: dict[str, tuple[Path | None, tuple[int, int] | None]] = {}
    known = installed_variants(game)
    for name in sorted(known, key=natural_key):
        try:
            out[name] = (known[name], _players_with(game, name))
        except _AnotherGamesVariant:
            continue
    return out


def _problem(exc: Exception) -> str:
    if isinstance(exc, RuleError):
        errors = [d.message for d in exc.diagnostics if d.is_error]
        return errors[0] if errors else str(exc)
    return str(exc)


def _default_name() -> str | None:
    from ..runtime.loading import default_rules

    try:
        return default_rules()
    except RuleError:  # no game names a default, and more than one is installed
        return None


def scan() -> Catalogue:
    """Every installed rule set: the playable games (the default first, then by name) and
    why each of the others does not load."""
    first = _default_name()
    games: list[GameInfo] = []
    problems: dict[str, str] = {}
    for name in installed_rule_sets():
        try:
            rules = _load(name)
        except (RuleError, NotInstalled, Shadowed) as exc:
            problems[name] = _problem(exc)
            continue
        low, high = rules.game.players
        games.append(
            GameInfo(
                name=name,
                title=str(rules.game.title),
                mechanics=rules.game.mechanics,
                players=(low, high),
                variants=tuple(_variants_of(name)),
                default=name == first,
                summary=file_summary(Path(rules.sources[0])) if rules.sources else "",
            )
        )
    games.sort(key=lambda game: (not game.default, game.name))
    return Catalogue(tuple(games), problems)


def list_games() -> list[GameInfo]:
    """The installed games that load, the default game first."""
    return list(scan().games)


def list_variants(game: str) -> list[VariantInfo]:
    """The variants of the installed game `game` (a name from `list_games`), in natural order
    (scenario-2 before scenario-10). Raises `LookupError` for a game that is not installed."""
    installed = installed_rule_sets()
    if not isinstance(game, str) or game not in installed:
        names = ", ".join(installed) or "none"
        raise LookupError(f"no installed game is called {game!r}: installed are {names}")
    code = registries().variants
    out = []
    for name, (file, players) in _variants_of(game).items():
        if file is not None:
            out.append(VariantInfo(name, game, "file", file_summary(file), players))
        else:
            variant = code[name]
            out.append(
                VariantInfo(
                    name, game, "code", variant.description, players, tuple(variant.rule_ids)
                )
            )
    return out


__all__ = [
    "Catalogue",
    "GameInfo",
    "VariantInfo",
    "file_summary",
    "list_games",
    "list_variants",
    "natural_key",
    "scan",
]
