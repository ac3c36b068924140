"""The lobby: which games are installed, creating matches, and rebuilding them after a restart.

Creation requests come from the network, so every field is checked here, strictly: a rule set
and its variants are chosen by name among the installed ones only (never a path: the
host's `Catalogue.load_installed`), seats are bot specs within the tighter ranges a server
accepts (`BotFactory.served`), and the seed is a whole number (not `true`, not `1.0`).
"""

from __future__ import annotations

import functools
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from castell_dsl.contract import HUMAN, RuleSet
from castell_dsl.contract.services import (
    BotSpecError,
    Catalogue,
    FrontendServices,
    NotInstalled,
    Shadowed,
)
from castell_dsl.language.diagnostics import RuleError

from .bots import BotPool
from .limits import Limits
from .matches import Match, token_hash
from .refusals import Refused, stored_rules
from .seating import Seating, SeatingError, clean_clock, clean_name
from .store import MatchStore, StoredMatch

log = logging.getLogger("castell_web")

#: The fields of a creation request.
FIELDS = frozenset({"rules", "variants", "players", "seed", "names", "clock", "stand_in", "studio"})
#: Longest seat entry ("you", "empty" or a bot spec, which the host bounds at 200
#: characters; an allowed program's `cmd:COMMAND` holds a path).
MAX_SEAT = 200
#: A seat the creator leaves open: an invite link whose turns the stand-in plays meanwhile.
EMPTY_SEAT = "empty"


def players_phrase(title: str, low: int, high: int) -> str:
    """`Castell is for 2 to 4 players`, `Calico (solo) is for 1 player`."""
    if low == high:
        return f"{title} is for {low} player{'s' if low != 1 else ''}"
    return f"{title} is for {low} to {high} players"


@functools.cache
def catalogue(services: Catalogue) -> tuple[dict[str, Any], ...]:
    """The installed games for the lobby, from the library's catalogue (`list_games`,
    `list_variants`: installed names only, loaded from the installed files): rule set, title,
    player range, variants (in natural order) and the player range of each variant that
    changes it, the default game first. Computed once per process (the installed games do not
    change while it runs)."""
    out = []
    for game in services.list_games():
        variants = services.list_variants(game.name)
        out.append(
            {
                "rules": game.name,
                "title": game.title,
                "players": list(game.players),
                "variant_players": {
                    v.name: list(v.players)
                    for v in variants
                    if v.players is not None and v.players != game.players
                },
                "mechanics": game.mechanics,
                "variants": [v.name for v in variants],
            }
        )
    return tuple(out)


def load_named_rules(services: Catalogue, rules_name: Any, variants: Any) -> RuleSet:
    """Installed rules chosen by name over the network (Refused otherwise: the message depends
    only on what is installed, never on what else exists on the server's disk)."""
    try:
        return services.load_installed(rules_name, variants)
    except NotInstalled as exc:
        raise Refused(f"{exc} (see /api/games)") from None
    except Shadowed as exc:  # the operator's problem: logged in full, not told to the client
        log.error("%s", exc)
        raise Refused("this rule set cannot be loaded on this server now") from None
    except RuleError as exc:  # the installed rules with these variants (say what, not where)
        reasons = "; ".join(d.message for d in exc.diagnostics if d.is_error)
        raise Refused(f"{rules_name} cannot be played with these variants: {reasons}") from None


def _checked_request(request: Any) -> tuple[Any, Any, list[str], int | None]:
    """(rules, variants, seats, seed) of a creation request, every field's type checked."""
    if not isinstance(request, dict):
        raise Refused("send a JSON object: {rules, variants, players, seed}")
    unknown = sorted(str(key)[:40] for key in request if key not in FIELDS)
    if unknown:
        raise Refused(f"unknown field '{unknown[0]}' (fields: {', '.join(sorted(FIELDS))})")
    variants = request.get("variants")
    if variants is None:
        variants = []
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise Refused("'variants' is a list of variant names")
    players = request.get("players")
    if (
        not isinstance(players, list)
        or not players
        or not all(isinstance(p, str) and 0 < len(p) <= MAX_SEAT for p in players)
    ):
        raise Refused(
            '\'players\' is a list of seats: "you", "empty" or a bot (random, greedy, mcts)'
        )
    seed = request.get("seed")
    if seed is not None and (
        not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**31
    ):
        raise Refused("'seed' is a whole number from 0 to 2**31 - 1")
    return request.get("rules"), variants, [p.strip() for p in players], seed


@dataclass
class NewMatch:
    """A match just created: the match and its seats' tokens (shown once, never stored)."""

    match: Match
    tokens: list[str | None]


class Lobby:
    """Every match on this server, by id, kept in memory and in the store."""

    def __init__(
        self,
        services: FrontendServices,
        store: MatchStore | None,
        bots: BotPool,
        limits: Limits | None = None,
    ):
        self.services = services
        self.store = store
        self.bots = bots
        self.limits = limits or Limits()
        self.matches: dict[str, Match] = {}
        #: The studio's variants (`studio_store.Variants`), when the server has a studio:
        #: a creation request's `studio` names one by its id.
        self.studio: Any = None

    def create(self, request: Any) -> NewMatch:
        """Check a creation request and start the match (synchronous: run it in a thread)."""
        rules_name, variants, seats, seed = _checked_request(request)
        if len(self.matches) >= self.limits.matches:
            raise Refused(f"this server holds {self.limits.matches:,} matches, its most")
        seating = self._seating(request, len(seats))
        studio = request.get("studio")
        if studio is not None:
            rules, studio_identity = self._studio_rules(studio, rules_name, variants)
        else:
            rules = load_named_rules(self.services, rules_name, variants)
            studio_identity = None
        low, high = rules.game.players
        if not low <= len(seats) <= high:
            title = rules.game.title + (f" ({', '.join(variants)})" if variants else "")
            raise Refused(f"{players_phrase(title, low, high)}, not {len(seats)}")
        seating.away = [kind == EMPTY_SEAT for kind in seats]
        seats = [HUMAN if kind == EMPTY_SEAT else kind for kind in seats]
        try:
            for spec in [*seats, seating.stand_in]:
                if spec != HUMAN:
                    self.services.check_bot_spec(
                        spec, served=True, allowed_commands=self.limits.agent_commands
                    )
            if seed is None:
                seed = secrets.randbelow(2**31)
            session = self.services.new_session(rules, len(seats), seed, seats)
        except (BotSpecError, ValueError) as exc:
            raise Refused(str(exc)) from None
        tokens = [secrets.token_urlsafe(24) if s == HUMAN else None for s in session.seats]
        identity = self.services.rules_identity(rules)
        if studio_identity is not None:
            identity["studio"] = studio_identity
        record = StoredMatch(
            id=secrets.token_urlsafe(6),
            rules=identity,
            players=len(seats),
            seed=seed,
            seats=session.seats,
            token_hashes=[token_hash(t) if t else None for t in tokens],
            actions=list(session.game.log),
            seating=seating.to_json(),
        )
        match = Match(self.store, record, session, rules.game.mechanics, self.bots)
        if self.store is not None:
            self.store.create(record)
        self.matches[record.id] = match
        return NewMatch(match, tokens)

    def _studio_rules(
        self, studio: Any, rules_name: Any, variants: Any
    ) -> tuple[RuleSet, dict[str, Any]]:
        """The rules of a stored studio variant named by its id (never a path or a text)."""
        from .studio_store import StudioRefused

        if self.studio is None:
            raise Refused("this server has no studio")
        if rules_name is not None or variants:
            raise Refused("a match of a studio variant names no 'rules' or 'variants'")
        try:
            rules, identity = self.studio.rules_for_match(studio)
        except StudioRefused as exc:
            raise Refused(str(exc)) from None
        return rules, identity

    @staticmethod
    def _seating(request: dict[str, Any], seats: int) -> Seating:
        """The request's names, clock and stand-in, checked."""
        names = request.get("names") or []
        if not isinstance(names, list) or len(names) > seats:
            raise Refused("'names' is a list of the seats' players' names (or null)")
        stand_in = request.get("stand_in") or "greedy"
        if not isinstance(stand_in, str) or not 0 < len(stand_in) <= MAX_SEAT:
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
        """Rebuild every stored match by replaying its log. A match that cannot be rebuilt is
        quarantined (kept in the store, never loaded again) and reported; the others load."""
        problems: list[str] = []
        if self.store is None:
            return problems
        before = {match_id for match_id, _ in self.store.quarantined()}
        for record in self.store.load_all():
            try:
                self.matches[record.id] = self._rebuild(record)
            except Exception as exc:  # one broken match must not stop the server
                self.store.quarantine(record.id, f"cannot be rebuilt: {exc}")
        for match_id, reason in self.store.quarantined():
            if match_id not in before:
                problems.append(f"match {match_id} quarantined: {reason}")
        if before:
            problems.append(f"{len(before)} match(es) quarantined earlier are not loaded")
        return problems

    def _rebuild(self, record: StoredMatch) -> Match:
        rules = stored_rules(self.services, record.rules)
        session = self.services.new_session(
            rules, record.players, record.seed, record.seats, log=record.actions
        )
        return Match(self.store, record, session, rules.game.mechanics, self.bots)

    def get(self, match_id: str) -> Match:
        match = self.matches.get(match_id)
        if match is None:
            raise KeyError(match_id)
        return match

    def save(self, match_id: str) -> dict[str, Any]:
        match = self.get(match_id)
        return self.services.save_record(match.game, match.session.seats)
