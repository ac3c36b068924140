"""The lobby: which games are installed, creating matches, and rebuilding them after a restart.

Creation requests come from the network, so every field is checked here: a rule set is named
from the installed ones only (never a path), variants by plain names, seats by bot specs.
"""

from __future__ import annotations

import functools
import re
import secrets
from dataclasses import dataclass
from typing import Any

from castell_dsl.runtime.loading import load_rules
from castell_dsl.runtime.saves import (
    SAVE_FORMAT,
    SaveError,
    rules_from_identity,
    rules_identity,
    save_record,
)
from castell_dsl.runtime.session import HUMAN, Session

from .matches import Match, Refused, token_hash
from .seating import Seating, SeatingError, clean_clock, clean_name
from .store import MatchStore, StoredMatch

VARIANT_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
#: A seat the creator leaves open: an invite link whose turns the stand-in plays meanwhile.
EMPTY_SEAT = "empty"


def natural_key(name: str) -> list[Any]:
    """Sort key that reads numbers as numbers: scenario-2 before scenario-10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def players_phrase(title: str, low: int, high: int) -> str:
    """`Castell is for 2 to 4 players`, `Calico (solo) is for 1 player`."""
    if low == high:
        return f"{title} is for {low} player{'s' if low != 1 else ''}"
    return f"{title} is for {low} to {high} players"


def _available_variants(rules_name: str) -> list[str]:
    from castell_dsl.runtime.loading import rule_path
    from castell_dsl.runtime.plugins import registries

    path = rule_path()
    found = path.find_rules(rules_name)
    names = set(path.variant_names([found] if found else []))
    for name, variant in registries().variants.items():
        if not variant.applies_to or rules_name in variant.applies_to:
            names.add(name)
    return sorted(names, key=natural_key)


@functools.cache
def catalogue() -> tuple[dict[str, Any], ...]:
    """The installed games for the lobby: rule set, title, player range, variants (in natural
    order) and the player range of each variant that changes it, the default game first.
    Computed once per process (the installed games do not change while it runs)."""
    from castell_dsl.language.diagnostics import RuleError
    from castell_dsl.runtime.loading import default_rules, rule_path

    out = []
    for name in rule_path().rule_names():
        try:
            rules = load_rules(name)
        except RuleError:
            continue
        low, high = rules.game.players
        variants = _available_variants(name)
        ranges = {}
        for variant in variants:
            try:
                changed = load_rules(name, (variant,)).game.players
            except RuleError:
                continue
            if tuple(changed) != (low, high):
                ranges[variant] = list(changed)
        out.append(
            {
                "rules": name,
                "title": rules.game.title,
                "players": [low, high],
                "variant_players": ranges,
                "mechanics": rules.game.mechanics,
                "variants": variants,
            }
        )
    try:
        first = default_rules()
    except Exception:  # no default named: the order stays alphabetical
        first = None
    out.sort(key=lambda game: (game["rules"] != first, game["rules"]))
    return tuple(out)


@dataclass
class NewMatch:
    """A match just created: the match and its seats' tokens (shown once, never stored)."""

    match: Match
    tokens: list[str | None]


class Lobby:
    """Every match on this server, by id, kept in memory and in the store."""

    def __init__(self, store: MatchStore | None):
        self.store = store
        self.matches: dict[str, Match] = {}

    def create(self, request: dict[str, Any]) -> NewMatch:
        """Check a creation request and start the match (synchronous: run it in a thread)."""
        from castell_dsl.language.diagnostics import RuleError
        from castell_dsl.runtime.bots import BotSpecError, check_bot_spec
        from castell_dsl.runtime.loading import rule_path

        rules_name = request.get("rules")
        if not isinstance(rules_name, str) or rules_name not in rule_path().rule_names():
            raise Refused(f"unknown game {rules_name!r}: see /api/games")
        variants = request.get("variants") or []
        if not isinstance(variants, list) or not all(
            isinstance(v, str) and VARIANT_NAME.match(v) for v in variants
        ):
            raise Refused("'variants' is a list of variant names")
        players = request.get("players")
        if (
            not isinstance(players, list)
            or not players
            or not all(isinstance(p, str) and 0 < len(p) <= 80 for p in players)
        ):
            raise Refused(
                '\'players\' is a list of seats: "you", "empty" or a bot (random, greedy, mcts)'
            )
        seed = request.get("seed")
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**31:
            raise Refused("'seed' is a whole number from 0 to 2**31 - 1")
        seating = self._seating(request, len(players))
        try:
            rules = load_rules(rules_name, tuple(variants))
        except RuleError as exc:
            raise Refused(f"cannot load {rules_name} with {variants}: {exc}") from None
        low, high = rules.game.players
        if not low <= len(players) <= high:
            title = rules.game.title + (f" ({', '.join(variants)})" if variants else "")
            raise Refused(f"{players_phrase(title, low, high)}, not {len(players)}")
        kinds = [p.strip() for p in players]
        seating.away = [kind == EMPTY_SEAT for kind in kinds]
        kinds = [HUMAN if kind == EMPTY_SEAT else kind for kind in kinds]
        try:
            check_bot_spec(seating.stand_in)
            session = Session(rules, len(players), seed, kinds)
        except (BotSpecError, ValueError) as exc:
            raise Refused(str(exc)) from None
        tokens = [secrets.token_urlsafe(24) if s == HUMAN else None for s in session.seats]
        record = StoredMatch(
            id=secrets.token_urlsafe(6),
            rules=rules_identity(rules),
            players=len(players),
            seed=seed,
            seats=session.seats,
            token_hashes=[token_hash(t) if t else None for t in tokens],
            actions=list(session.game.log),
            seating=seating.to_json(),
        )
        match = Match(self.store, record, session, rules.game.mechanics)
        if self.store is not None:
            self.store.create(record)
        self.matches[record.id] = match
        return NewMatch(match, tokens)

    @staticmethod
    def _seating(request: dict[str, Any], seats: int) -> Seating:
        """The request's names, clock and stand-in, checked."""
        names = request.get("names") or []
        if not isinstance(names, list) or len(names) > seats:
            raise Refused("'names' is a list of the seats' players' names (or null)")
        stand_in = request.get("stand_in") or "greedy"
        if not isinstance(stand_in, str) or not 0 < len(stand_in) <= 80:
            raise Refused("'stand_in' is a bot (random, greedy, mcts) to play timed-out turns")
        try:
            cleaned = [clean_name(n) for n in names]
            return Seating(
                names=cleaned + [None] * (seats - len(cleaned)),
                clock=clean_clock(request.get("clock")),
                stand_in=stand_in.strip(),
            )
        except SeatingError as exc:
            raise Refused(str(exc)) from None

    def restore(self) -> list[str]:
        """Rebuild every stored match by replaying its log; returns the problems, per match."""
        problems: list[str] = []
        if self.store is None:
            return problems
        for record in self.store.load_all():
            try:
                self.matches[record.id] = self._rebuild(record)
            except Exception as exc:  # one broken match must not stop the server
                problems.append(f"match {record.id}: cannot be restored ({exc})")
        return problems

    def _rebuild(self, record: StoredMatch) -> Match:
        info = record.rules
        fmt = SAVE_FORMAT if "content_hash" in info else "castell-save/2"
        try:
            rules = rules_from_identity(info, fmt, installed_only=True)
        except SaveError as exc:
            raise Refused(str(exc)) from None
        session = Session(rules, record.players, record.seed, record.seats, log=record.actions)
        return Match(self.store, record, session, rules.game.mechanics)

    def get(self, match_id: str) -> Match:
        match = self.matches.get(match_id)
        if match is None:
            raise KeyError(match_id)
        return match

    def save(self, match_id: str) -> dict[str, Any]:
        match = self.get(match_id)
        return save_record(match.game, match.session.seats)
