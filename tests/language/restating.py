"""Helpers for the override-semantics tests: rule sets compiled from files, and definitions
restated as `override` patches, with their entries in any order.

Every bundled rule file and the example game (docs/examples/castell-pebbles, compiled here with
its mechanics imported from the example, not installed) are compiled through the language layer
itself (`Loader` + `compile_rules`), so a restatement is compiled exactly like its base.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from castell_dsl.language import syntax as s
from castell_dsl.language.compiler import compile_rules, schema_kinds
from castell_dsl.language.diagnostics import Diagnostics, Span
from castell_dsl.language.loader import Loader, RulePath
from castell_dsl.language.parser import parse
from castell_dsl.language.ruleset import RuleSet
from castell_dsl.language.schema import Kind, Struct
from castell_dsl.language.source import Source

ROOT = Path(__file__).resolve().parents[2]
PEBBLES = ROOT / "docs" / "examples" / "castell-pebbles"


@dataclass(frozen=True)
class Game:
    """A rule set to restate: its name, its file, where its rules live, its mechanics."""

    name: str
    path: Path
    directories: tuple[Path, ...]
    find_mechanics: Callable

    def compile(self, path: Path) -> RuleSet:
        diags = Diagnostics()
        defs = Loader(RulePath(list(self.directories)), diags).load(path)
        rules = compile_rules(defs, diags, self.find_mechanics)
        errors = [d for d in diags.items if d.is_error]
        assert rules is not None and not errors, [f"{d.span}: {d.message}" for d in errors]
        return rules

    @property
    def base(self) -> RuleSet:
        return _compiled(self)

    @property
    def kinds(self) -> dict[str, Kind]:
        mechanics = self.find_mechanics(self.base.mechanics)
        return schema_kinds(mechanics)

    def variants(self) -> list[Path]:
        return sorted((self.path.parent / "variants").glob("*.castell"))


@cache
def _compiled(game: Game) -> RuleSet:
    return game.compile(game.path)


def games() -> list[Game]:
    """Castell, Calico (installed) and Pebbles (the example, from its folder)."""
    from castell_dsl.runtime.loading import find_mechanics, rule_path

    installed = tuple(rule_path().directories)
    out = [
        Game(name, rule_path().find_rules(name), installed, find_mechanics)
        for name in ("castell", "calico")
    ]
    if str(PEBBLES) not in sys.path:
        sys.path.insert(0, str(PEBBLES))
    from castell_pebbles.mechanics import PebblesMechanics

    mechanics = PebblesMechanics()
    rules_dir = PEBBLES / "castell_pebbles" / "rules"
    out.append(
        Game("pebbles", rules_dir / "pebbles.castell", (rules_dir,), {"pebbles": mechanics}.get)
    )
    return out


def span_text(text: str, span: Span) -> str:
    """The exact text of a span (lines and columns 1-based, end exclusive)."""
    lines = text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[: span.line - 1]) + span.column - 1
    end = sum(len(line) for line in lines[: span.end_line - 1]) + span.end_column - 1
    return text[start:end]


@dataclass(frozen=True)
class Written:
    """A top-level item of a rule file, with its text."""

    item: s.Item
    text: str
    source: str

    @property
    def kind(self) -> str:
        item = self.item
        return item.key if isinstance(item, s.Entry) else getattr(item, "kind", "")

    @property
    def label(self) -> str | None:
        return getattr(self.item, "label", None)

    @property
    def body(self) -> s.Value:
        if isinstance(self.item, s.Override):
            return self.item.body
        assert isinstance(self.item, s.Entry) and self.item.value is not None
        return self.item.value

    def head(self) -> str:
        return f"override {self.kind}" + (f" {self.label}" if self.label else "")

    def restated(self, order: Sequence[int] | None = None) -> str:
        """`override KIND [NAME] { … }` giving this definition's entries (in `order`)."""
        return f"{self.head()} {body_text(self.body, self.source, order)}"


def written_items(path: Path) -> list[Written]:
    text = path.read_text(encoding="utf-8")
    tree = parse(Source(str(path), text), Diagnostics())
    assert tree is not None
    return [Written(item, span_text(text, item.span), text) for item in tree.items]


def definitions(path: Path) -> list[Written]:
    """The definitions a file writes (entries and overrides, not directives)."""
    return [w for w in written_items(path) if isinstance(w.item, (s.Entry, s.Override))]


def parts(body: s.Value) -> list[Span]:
    """The spans of a block's entries or a map's items, as written."""
    if isinstance(body, s.Block):
        return [e.span for e in body.entries]
    if isinstance(body, s.MapValue):
        return [i.span for i in body.items]
    raise AssertionError(f"not a block or map: {body!r}")


def body_text(body: s.Value, source: str, order: Sequence[int] | None = None) -> str:
    """A block or map rewritten from its entries' own text, in `order` (as written if None)."""
    texts = [span_text(source, span) for span in parts(body)]
    if order is not None:
        texts = [texts[i] for i in order]
    joiner = ", " if isinstance(body, s.MapValue) else "\n  "
    return "{\n  " + joiner.join(texts) + "\n}" if texts else "{ }"


def entry_identities(kind: Kind, body: s.Value) -> list[tuple[str, str | None, bool]]:
    """For each entry of a body: (key, name, ordered?) as the schema declares them."""
    if isinstance(body, s.MapValue):
        return [(repr(i.key), None, False) for i in body.items]
    assert isinstance(body, s.Block)
    if kind.body.entries == "ordered":
        return [(e.key, None, True) for e in body.entries]
    assert isinstance(kind.body, Struct)
    out = []
    for entry in body.entries:
        spec = kind.body.fields.get(entry.key)
        out.append((entry.key, entry.label, bool(spec is not None and spec.repeated)))
    return out


def restates_the_same(kind: Kind, written: Written, order: Sequence[int]) -> bool:
    """Whether writing the entries in `order` says the same as writing them as they are: by the
    declared semantics, only the relative order of ordered entries (a step sequence, a
    repeated field) can change what a definition says."""
    texts = [" ".join(span_text(written.source, sp).split()) for sp in parts(written.body)]
    ids = entry_identities(kind, written.body)
    if kind.body.entries == "ordered":
        return [texts[i] for i in order] == texts
    for key in {k for k, _label, ordered in ids if ordered}:
        before = [texts[i] for i in range(len(ids)) if ids[i][0] == key]
        after = [texts[i] for i in order if ids[i][0] == key]
        if before != after:
            return False
    return True
