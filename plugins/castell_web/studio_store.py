"""The studio's variants: saved texts with their history, who may change them, and the rules a
match of one is played with.

A variant is created by the page that first saves it and gets two things: an id (its
read-only link, `/studio/v/{id}`, which anyone may open) and an edit token that only that page
holds (the database keeps its hash, as it keeps seats' token hashes). Saving a new version
needs the token; reading, downloading, analysing and playing need only the id. Every text is
a stranger's: held to the rule-file size cap here, and compiled only through
`studio_text` (installed `extends`, no `include`).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

from castell_dsl.contract import RuleSet
from castell_dsl.contract.services import FrontendServices

from .limits import Limits
from .store import SqliteStore
from .studio_text import MAX_TEXT, NotPlayable, compile_text

#: A variant's name: letters, digits, spaces and a little punctuation, as a file name allows.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.\-]{0,59}")
#: The shape of a variant id and of an edit token (`secrets.token_urlsafe`).
ID = re.compile(r"[A-Za-z0-9_\-]{8,64}")


class StudioRefused(ValueError):
    """A request about variants that cannot be done; the message says why, for people."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def checked_text(text: Any) -> str:
    if not isinstance(text, str):
        raise StudioRefused("'text' is the variant's rule text")
    if len(text) > MAX_TEXT:
        raise StudioRefused(f"a variant is at most {MAX_TEXT:,} characters (a rule file's size)")
    return text


def checked_name(name: Any) -> str:
    if not isinstance(name, str) or not NAME.fullmatch(name.strip()):
        raise StudioRefused(
            "'name' is 1 to 60 letters, digits, spaces, '-', '_' or '.', starting with a letter "
            "or digit"
        )
    return name.strip()


def checked_id(value: Any, what: str = "variant") -> str:
    if not isinstance(value, str) or not ID.fullmatch(value):
        raise StudioRefused(f"no such {what}", 404)
    return value


@dataclass
class Saved:
    id: str
    version: int
    token: str | None = None  # only when the variant was just created


class Variants:
    """The variants in the server's store (an in-memory SQLite store when it has none)."""

    def __init__(self, services: FrontendServices, store: SqliteStore, limits: Limits) -> None:
        self.services = services
        self.store = store
        self.limits = limits

    def save(self, request: Any) -> Saved:
        """`{name, text}` creates a variant; `{id, token, text, name?}` adds a version."""
        if not isinstance(request, dict):
            raise StudioRefused("send a JSON object: {name, text} or {id, token, text}")
        unknown = sorted(str(k)[:40] for k in request if k not in ("id", "token", "name", "text"))
        if unknown:
            raise StudioRefused(f"unknown field '{unknown[0]}' (fields: id, token, name, text)")
        text = checked_text(request.get("text"))
        rules_hash = self._hash_of(text)
        variant_id = request.get("id")
        if variant_id is None:
            name = checked_name(request.get("name"))
            if self.store.studio_count() >= self.limits.studio_variants:
                raise StudioRefused(
                    f"this server keeps {self.limits.studio_variants:,} variants, its most", 503
                )
            variant_id, token = secrets.token_urlsafe(9), secrets.token_urlsafe(24)
            self.store.studio_create(variant_id, name, _hash(token))
            version = self.store.studio_add_version(
                variant_id, text, rules_hash, self.limits.studio_versions
            )
            return Saved(variant_id, version, token)
        variant_id = checked_id(variant_id)
        found = self.store.studio_variant(variant_id)
        given = request.get("token")
        if found is None:
            raise StudioRefused("no such variant", 404)
        if not isinstance(given, str) or not secrets.compare_digest(_hash(given[:100]), found[1]):
            raise StudioRefused("this page may read this variant, not change it", 403)
        if request.get("name") is not None:
            self.store.studio_rename(variant_id, checked_name(request.get("name")))
        version = self.store.studio_add_version(
            variant_id, text, rules_hash, self.limits.studio_versions
        )
        return Saved(variant_id, version)

    def _hash_of(self, text: str) -> str | None:
        try:
            return compile_text(self.services, text).rules.hash
        except NotPlayable:
            return None

    def get(self, variant_id: Any, version: Any = None) -> dict[str, Any]:
        """A variant as the page opens it: name, the version's text, and the history."""
        variant_id = checked_id(variant_id)
        found = self.store.studio_variant(variant_id)
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise StudioRefused("'version' is a version number")
        text = self.store.studio_text(variant_id, version) if found is not None else None
        if found is None or text is None:
            raise StudioRefused("no such variant", 404)
        history = [
            {"version": n, "hash": h, "saved": saved}
            for n, h, saved in self.store.studio_versions(variant_id)
        ]
        return {
            "id": variant_id,
            "name": found[0],
            "version": text[0],
            "text": text[1],
            "history": history,
        }

    def rules_for_match(self, variant_id: Any) -> tuple[RuleSet, dict[str, Any]]:
        """The compiled rules of a variant's newest version and the `studio` part of the
        match's rules identity (the text itself: a restarted server and the bots' workers
        compile it again, and its hash must agree)."""
        found = self.get(variant_id)
        try:
            compiled = compile_text(self.services, found["text"])
        except NotPlayable as exc:
            raise StudioRefused(str(exc)) from None
        return compiled.rules, {
            "id": found["id"],
            "version": found["version"],
            "name": found["name"],
            "text": found["text"],
        }


def rules_from_studio(services: FrontendServices, identity: dict[str, Any]) -> RuleSet:
    """The rules of a match of a studio variant, from its stored identity: the text compiled
    again with the studio's loader, and checked to be the rules the match was played with.
    ValueError (with a sentence) otherwise."""
    studio = identity.get("studio")
    if not isinstance(studio, dict) or not isinstance(studio.get("text"), str):
        raise ValueError("the match's studio variant is not readable")
    try:
        rules = compile_text(services, checked_text(studio["text"])).rules
    except (NotPlayable, StudioRefused) as exc:
        raise ValueError(str(exc)) from None
    expected = identity.get("content_hash", identity.get("hash"))
    if expected not in (rules.content_hash, rules.hash):
        raise ValueError("the studio variant compiles to other rules on this server now")
    return rules
