"""A witness of what rule-file syntax says, matched against a compiled rule set's JSON.

`Reader(source).says(node, data)` is true when the JSON value `data` is what the syntax `node`
(of a file whose text is `source`) says: scalars equal, lists item by item, maps key by key
(range keys expanded; a multiset listed item by item counted), a block's fields by key, a
repeated field's entries and a step sequence's steps in the order written, `when` conditions
and expressions by their text. It reads syntax and JSON directly — not the loader's merge nor
the compiler's conversion — so tests use it as an independent check of both.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from castell_dsl.language import syntax as s


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


def expanded(items: tuple[s.MapItem, ...]) -> list[tuple[Any, s.Value]]:
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
            items = expanded(node.items)
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
                self.says_entries(group, data) for group in groups(node.entries)
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


def groups(entries: tuple[s.Entry, ...]) -> list[list[s.Entry]]:
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


def definition_json(rules_json: dict, json_key: str, named: bool, label: str | None) -> Any:
    value = rules_json.get(json_key)
    if not named:
        return value
    return next((d for d in value or [] if d.get("name") == label), None)
