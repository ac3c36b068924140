"""Every bundled variant differs from its base exactly where its file says so.

For each variant file of each game, the compiled rule set (base + variant, as `--variant NAME`
loads it) is compared with the base, through the rule set's JSON (what the engine runs and the
hash is taken of), against what the file *says*, read from its syntax:

- every difference lies inside something the file removes, adds, or overrides (a field, a named
  entry, a map key; a whole ordered block);
- everything the file gives is compiled as written: each field, key or named entry an override
  gives has the value written, an ordered block (a round) the steps written in the order
  written, a new definition what it says, a removed one is gone.

The check of "as written" matches syntax against JSON directly (`says` below), not through the
loader's merge or the compiler's conversion, so it is an independent witness of both. It is
what would have caught short-season's festivals scored before the turns (C-4.0).

Rules covered: C-4.0 and every bundled variant: short-season, generous-prizes, no-regions
(C-6.4); Calico's beginner and family (K-2.1, K-8.1), low-luck (K-8.2), solo (K-8.3), scenarios
(K-8.4).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from castell_dsl.language import syntax as s
from castell_dsl.language.core_kinds import TurnBody
from castell_dsl.language.diagnostics import Diagnostics
from castell_dsl.language.diff import diff_entries
from castell_dsl.language.parser import parse
from castell_dsl.language.source import Source
from castell_dsl.runtime.loading import load_rules, rule_path

GAMES = ("castell", "calico")
VARIANTS = [
    pytest.param(game, path, id=f"{game}+{path.stem}")
    for game in GAMES
    for path in sorted((rule_path().find_rules(game).parent / "variants").glob("*.castell"))
]


# ---- what syntax says, matched against JSON ---------------------------------------------------


def _text(source: str, span) -> str:
    lines = source.splitlines()
    if span.line == span.end_line:
        return lines[span.line - 1][span.column - 1 : span.end_column - 1]
    parts = [lines[span.line - 1][span.column - 1 :], *lines[span.line : span.end_line - 1]]
    parts.append(lines[span.end_line - 1][: span.end_column - 1])
    return " ".join(parts)


def _same_text(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return a is b
    return " ".join(a.split()) == " ".join(b.split())


def _expanded(items: tuple[s.MapItem, ...]) -> list[tuple[Any, s.Value]]:
    out = []
    for item in items:
        if isinstance(item.key, s.RangeValue):
            out.extend((k, item.value) for k in range(item.key.low, item.key.high + 1))
        else:
            out.append((item.key.value, item.value))
    return out


class Reader:
    """Matches what a rule file's syntax says against the compiled JSON."""

    def __init__(self, source: str):
        self.source = source

    def says(self, node: s.Value, data: Any) -> bool:
        if isinstance(node, s.Scalar):
            if data == {"min": node.value, "max": node.value}:  # `players 1`: the range 1..1
                return True
            return data == node.value and type(data) is type(node.value)
        if isinstance(node, s.RangeValue):
            return data in ({"min": node.low, "max": node.high}, [node.low, node.high])
        if isinstance(node, s.ListValue):
            return (
                isinstance(data, list)
                and len(data) == len(node.items)
                and all(self.says(n, d) for n, d in zip(node.items, data, strict=True))
            )
        if isinstance(node, s.MapValue):
            items = _expanded(node.items)
            if isinstance(data, list):  # a multiset listed item by item
                wanted = {k: v.value for k, v in items if isinstance(v, s.Scalar)}
                return Counter(data) == Counter({k: n for k, n in wanted.items() if n})
            return (
                isinstance(data, dict)
                and len(data) == len(items)
                and all(str(k) in data and self.says(v, data[str(k)]) for k, v in items)
            )
        if isinstance(node, s.Block):
            if isinstance(data, list):  # a step sequence: kind, name, condition, in order
                return len(data) == len(node.entries) and all(
                    self.says_step(e, d) for e, d in zip(node.entries, data, strict=True)
                )
            return isinstance(data, dict) and all(
                self.says_entries(group, data) for group in _groups(node.entries)
            )
        raise AssertionError(f"unexpected syntax {node!r}")

    def says_step(self, entry: s.Entry, data: dict) -> bool:
        value = entry.value
        return (
            data["kind"] == entry.key
            and isinstance(value, s.Scalar)
            and data["name"] == value.value
            and _same_text(data["when"], self.condition(entry))
        )

    def condition(self, entry: s.Entry) -> str | None:
        return _text(self.source, entry.condition.span) if entry.condition else None

    def says_entry(self, entry: s.Entry, data: Any) -> bool:
        if isinstance(data, dict) and set(data) >= {"value", "when"} and "when" in data:
            if not _same_text(data["when"], self.condition(entry)):
                return False
            data = data["value"]
        elif entry.condition is not None:
            return False
        if entry.expr is not None:
            return isinstance(data, str) and _same_text(data, _text(self.source, entry.expr.span))
        assert entry.value is not None
        return self.says(entry.value, data)

    def says_entries(self, group: list[s.Entry], data: dict) -> bool:
        """One field's entries: a single value, a named entry, or a repeated sequence."""
        key = group[0].key
        if key not in data and key == "action":
            key = "actions"  # a turn's actions are listed under "actions"
        if key not in data:
            return False
        value = data[key]
        labels = [e.label for e in group]
        if all(labels):
            return isinstance(value, dict) and all(
                e.label in value and self.says_entry(e, value[e.label]) for e in group
            )
        if isinstance(value, list) and (
            len(group) > 1 or not isinstance(group[0].value, s.ListValue)
        ):
            return len(value) == len(group) and all(
                self.says_entry(e, d) for e, d in zip(group, value, strict=True)
            )
        return len(group) == 1 and self.says_entry(group[0], value)


def _groups(entries: tuple[s.Entry, ...]) -> list[list[s.Entry]]:
    """Entries grouped by key (a named entry alone), in the order first written."""
    groups: dict[tuple[str, str | None], list[s.Entry]] = {}
    for entry in entries:
        groups.setdefault((entry.key, entry.label), []).append(entry)
    by_key: dict[str, list[s.Entry]] = {}
    out = []
    for (key, label), group in groups.items():
        if label is not None:
            out.append(group)
        elif key in by_key:
            by_key[key].extend(group)
        else:
            by_key[key] = group
            out.append(group)
    return out


# ---- the variants -----------------------------------------------------------------------------


def _definition(rules_json: dict, json_key: str, named: bool, label: str | None) -> Any:
    value = rules_json.get(json_key)
    if not named:
        return value
    return next((d for d in value or [] if d.get("name") == label), None)


@pytest.mark.parametrize(("game", "path"), VARIANTS)
def test_a_bundled_variant_changes_exactly_what_its_file_says(game: str, path: Path):
    base = load_rules(game)
    variant = load_rules(game, (path.stem,))
    before, after = base.to_json(), variant.to_json()
    text = path.read_text(encoding="utf-8")
    tree = parse(Source(str(path), text), Diagnostics())
    assert tree is not None
    reader = Reader(text)
    kinds = variant.kinds
    said: set[tuple[str, str | None, str | None]] = set()  # (kind, name, field or None: whole)
    for item in tree.items:
        if isinstance(item, s.Remove):
            kind = kinds[item.kind]
            for label, _span in item.labels or ((None, None),):
                said.add((item.kind, label, None))
                assert _definition(after, kind.key, kind.named, label) is None
        elif isinstance(item, s.Entry):
            kind = kinds[item.key]
            said.add((item.key, item.label, None))
            found = _definition(after, kind.key, kind.named, item.label)
            assert item.value is not None and reader.says(item.value, found), item.key
        elif isinstance(item, s.Override):
            kind = kinds[item.kind]
            label = item.label if kind.named else None
            found = _definition(after, kind.key, kind.named, label)
            body = item.body
            if kind.body.entries == "ordered":
                said.add((item.kind, label, None))
                assert reader.says(body, found), f"{item.kind} is not what the file says"
            elif isinstance(body, s.MapValue):
                for key, value in _expanded(body.items):
                    said.add((item.kind, label, str(key)))
                    if isinstance(found, dict):
                        assert reader.says(value, found[str(key)]), (item.kind, key)
                if isinstance(found, list):  # a multiset: the whole map is what is said
                    said.add((item.kind, label, None))
            else:
                assert isinstance(body, s.Block)
                for group in _groups(body.entries):
                    field = group[0].key
                    said.add((item.kind, label, "actions" if isinstance(kind.body, TurnBody)
                              else field))  # fmt: skip
                    assert reader.says_entries(group, found), f"{item.kind}.{field}"
    names = {kind.key: name for name, kind in kinds.items() if kind.named}
    singles = {kind.key: name for name, kind in kinds.items() if not kind.named}
    for change in diff_entries(before, after):
        keys = change["keys"]
        if keys[0] in names:
            where = (names[keys[0]], keys[1] if len(keys) > 1 else None, _field(keys, 2))
        else:
            where = (singles[keys[0]], None, _field(keys, 1))
        covered = (*where[:2], None) in said or where in said
        assert covered, f"{change['path']} changed, but {path.name} does not say so"


def _field(keys: list, at: int) -> str | None:
    return str(keys[at]) if len(keys) > at else None


def test_the_reader_catches_a_reordered_round():
    """The witness itself: a round written in one order does not match its JSON in another."""
    text = "round {\n  step refill\n  turns main\n  step festivals when round >= 3\n}\n"
    tree = parse(Source("r.castell", text), Diagnostics())
    assert tree is not None
    (entry,) = tree.items
    assert isinstance(entry, s.Entry) and entry.value is not None
    steps = [
        {"kind": "step", "name": "refill", "when": None},
        {"kind": "turns", "name": "main", "when": None},
        {"kind": "step", "name": "festivals", "when": "round >= 3"},
    ]
    reader = Reader(text)
    assert reader.says(entry.value, steps)
    assert not reader.says(entry.value, [steps[0], steps[2], steps[1]])
    assert not reader.says(entry.value, [steps[0], steps[1], {**steps[2], "when": None}])
