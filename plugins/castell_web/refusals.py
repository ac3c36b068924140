"""What the server refuses, and the one refusal both the lobby and the bots' workers meet:
rules a stored match names that are not installed (or have changed) on this server.

Its own module so that the match, the lobby and the bot pool import it and none of them
imports another to reach it (the web package's imports form no circle).
"""

from __future__ import annotations

from typing import Any

from castell_dsl.contract import RuleSet
from castell_dsl.contract.services import FrontendServices, SaveError


class Refused(Exception):
    """A request the server will not carry out; the message says why, for people."""


def stored_rules(services: FrontendServices, identity: dict[str, Any]) -> RuleSet:
    """The installed rules a stored match (or a worker's `Work`) names by its rules identity,
    by installed names only; Refused when they are not installed or changed since. A studio
    variant's identity holds its text, compiled again with the studio's confined loader."""
    if "studio" in identity:
        from .studio_store import rules_from_studio

        try:
            return rules_from_studio(services, identity)
        except ValueError as exc:
            raise Refused(str(exc)) from None
    fmt = services.save_format if "content_hash" in identity else "castell-save/2"
    try:
        return services.rules_from_identity(identity, fmt, installed_only=True)
    except SaveError as exc:
        raise Refused(str(exc)) from None
