"""Compiled rule objects: immutable records and the rule set that holds them.

A `RuleSet` is what the compiler produces and what the engine, the mechanics and every command
read. It is immutable: variants produce a new rule set (`with_record`), they never edit one in
place. Its canonical JSON form is what `castell rules show` prints and what its `hash` is taken
of, so a saved game can prove which rules it was played under.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .diagnostics import Span

if TYPE_CHECKING:
    from .schema import Kind


class FrozenMap(Mapping):
    """A read-only map that remembers where it, and each of its keys, was written."""

    __slots__ = ("_data", "span", "spans")

    def __init__(self, data: dict, span: Span, spans: Mapping[Any, Span] | None = None):
        self._data = data
        self.span = span
        self.spans = spans if spans is not None else {}

    def __getitem__(self, key: Any) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def get(self, key: Any, default: Any = None) -> Any:
        return self._data.get(key, default)

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"


class Record:
    """One definition (or one nested block) after compilation: read-only fields by attribute.

    `record.adjacent` reads field `adjacent`; `record.spans["adjacent"]` is where its value was
    written, for diagnostics that point back into the rule file.
    """

    __slots__ = ("fields", "kind", "name", "span", "spans")

    def __init__(
        self,
        kind: str,
        name: str | None,
        fields: Mapping[str, Any],
        span: Span,
        spans: Mapping[str, Span] | None = None,
    ):
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "fields", fields)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "spans", spans if spans is not None else MappingProxyType({}))

    def __getattr__(self, key: str) -> Any:
        try:
            return self.fields[key]
        except KeyError:
            raise AttributeError(f"{self.kind} has no field '{key}'") from None

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("rule records are immutable")

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    def replace(self, **changes: Any) -> Record:
        fields = dict(self.fields)
        fields.update(changes)
        return Record(self.kind, self.name, MappingProxyType(fields), self.span, self.spans)

    def __repr__(self) -> str:
        label = f" {self.name}" if self.name else ""
        return f"<{self.kind}{label} {dict(self.fields)!r}>"


@dataclass(frozen=True, eq=False)
class RuleSet:
    """A complete, checked rule set: every definition of one game, variants applied."""

    name: str
    mechanics: str
    kinds: Mapping[str, Kind]
    definitions: Mapping[str, Any]  # kind -> Record / value (singletons) or {name: Record}
    sources: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    _json_cache: dict = field(default_factory=dict, compare=False, repr=False)

    # -- reading --
    def one(self, kind: str) -> Any:
        """The singleton definition of `kind` (a Record, or the value of a map-bodied kind)."""
        return self.definitions[kind]

    def all(self, kind: str) -> tuple[Record, ...]:
        """Every definition of a named kind, in file order."""
        value = self.definitions.get(kind)
        return tuple(value.values()) if value else ()

    def named(self, kind: str) -> Mapping[str, Record]:
        return self.definitions.get(kind) or MappingProxyType({})

    def get(self, kind: str, name: str) -> Record | None:
        return self.named(kind).get(name)

    def has(self, kind: str) -> bool:
        return kind in self.definitions

    @property
    def game(self) -> Record:
        return self.definitions["game"]

    def __iter__(self) -> Iterator[str]:
        return iter(self.definitions)

    # -- changing (variants) --
    def with_definition(self, kind: str, value: Any, name: str | None = None) -> RuleSet:
        """A copy with one definition replaced (or added); `name` for named kinds."""
        defs = dict(self.definitions)
        if name is None:
            defs[kind] = value
        else:
            group = dict(defs.get(kind) or {})
            group[name] = value
            defs[kind] = MappingProxyType(group)
        return RuleSet(
            self.name, self.mechanics, self.kinds, MappingProxyType(defs), self.sources,
            self.variants,
        )  # fmt: skip

    def with_variants(self, variants: tuple[str, ...]) -> RuleSet:
        return RuleSet(
            self.name, self.mechanics, self.kinds, self.definitions, self.sources, variants
        )

    # -- JSON and hash --
    def to_json(self) -> dict[str, Any]:
        """The canonical JSON form: one key per kind, collections as lists, in file order."""
        cached = self._json_cache.get("json")
        if cached is not None:
            return cached
        out: dict[str, Any] = {"name": self.name, "variants": list(self.variants)}
        for kind_name, value in self.definitions.items():
            kind = self.kinds[kind_name]
            if kind.named:
                out[kind.key] = [kind.to_json(r) for r in value.values()]
            else:
                out[kind.key] = kind.to_json(value)
        self._json_cache["json"] = out
        return out

    @property
    def hash(self) -> str:
        """The rule set's identity: its canonical JSON, name and variants included."""
        return self._hashed("hash", self.to_json())

    @property
    def content_hash(self) -> str:
        """The hash of what the rules say, whatever they are called and whichever files or
        variants said it: two rule sets with the same content hash play the same games.
        (A variant that restates its base compiles to the base's content hash.)"""
        data = {k: v for k, v in self.to_json().items() if k not in ("name", "variants")}
        return self._hashed("content_hash", data)

    @property
    def legacy_hash(self) -> str:
        """The hash saves of formats castell-save/1 and /2 recorded: the JSON with every map's
        keys sorted, so blind to the order of named entries (a turn's actions, scoring
        categories), which the engine does see. Read old saves with it; record `hash`."""
        cached = self._json_cache.get("legacy_hash")
        if cached is None:
            text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
            cached = "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
            self._json_cache["legacy_hash"] = cached
        return cached

    def _hashed(self, key: str, data: dict[str, Any]) -> str:
        cached = self._json_cache.get(key)
        if cached is None:
            cached = canonical_digest(data)
            self._json_cache[key] = cached
        return cached


def canonical_digest(data: dict[str, Any]) -> str:
    """SHA-256 of a rule set's JSON in its canonical text: the kinds in sorted order (each kind
    is independent of the others), everything inside in its compiled order. A record's fields
    come in schema order; a map's keys, named entries (a turn's actions, scoring categories) and
    lists in the order the engine uses them, so two rule sets that differ only in an order the
    engine sees never share a hash."""
    ordered = {key: data[key] for key in sorted(data)}
    text = json.dumps(ordered, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
