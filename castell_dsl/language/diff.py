"""What one rule set changes relative to another, item by item, and where each change was written.

`diff_entries(base, changed)` compares two rule sets' canonical JSON — what the engine runs —
so a change is reported whatever file, variant or plugin made it, and nothing is reported that
the engine would not see. Each change is an entry:

- `{"op": "change", "path": "game.rounds", "keys": [...], "old": 10, "new": 8}`;
- `{"op": "add", …, "new": …}` and `{"op": "remove", …, "old": …}`;
- `{"op": "move", "path": "round", "keys": [...], "item": "step festivals",
  "before": "turns main"}` (or `"after"`, or both None: the only item kept in place): an item
  of an ordered list that is still there but stands elsewhere. Order is part of the rules
  (docs/language.md, "What a patch does"), so a move is a change like any other.

Maps are compared key by key. Lists of named items (definitions, a round's steps) are matched
by name, then their order is compared: the items outside the longest common order have moved.
Other lists are aligned by content, item by item (an inserted calendar space is one addition;
a space that moved is a move); short lists of plain values are shown whole.

`locate(entries, defs, kinds)` adds where each change was written (`"at": {"path", "line",
"column"}`), from the loader's record of which patch changed which definition and field.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from .diagnostics import Span
from .loader import Definitions
from .ruleset import Record, RuleSet

#: Longest list of plain values (names, numbers) shown whole in a diff line, in characters;
#: a longer one (a calendar, a wheel) is compared item by item.
SHORT_LIST = 60


def diff_entries(base: Any, changed: Any, kinds: Mapping[str, str] | None = None) -> list[dict]:
    """What `changed` changes relative to `base` (rule sets' JSON), one entry per change.

    `kinds` maps a rule set's JSON keys to kind names, so a top-level named definition is
    shown as `performance LP33` (see the module docstring for the entries).
    """
    out: list[dict] = []
    top = {k: v for k, v in (base or {}).items() if k != "variants"}
    new = {k: v for k, v in (changed or {}).items() if k != "variants"}
    _diff(top, new, [], "", out, dict(kinds or {}))
    return out


def _entry(op: str, keys: list, where: str, old: Any = None, new: Any = None) -> dict:
    entry: dict[str, Any] = {"op": op, "path": where, "keys": list(keys)}
    if op != "add":
        entry["old"] = old
    if op != "remove":
        entry["new"] = new
    return entry


def _named(items: list) -> bool:
    names = [i.get("name") for i in items if isinstance(i, dict)]
    return (
        len(names) == len(items)
        and all(isinstance(n, str) for n in names)
        and len(set(names)) == len(names)
    )


def _label(item: dict, kind: str | None) -> str:
    """How a named item is shown: `step festivals`, `performance LP07`, `LP07`."""
    prefix = kind or (item.get("kind") if isinstance(item.get("kind"), str) else None)
    return f"{prefix} {item['name']}" if prefix else str(item["name"])


def _diff(a: Any, b: Any, keys: list, where: str, out: list[dict], kinds: dict[str, str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            sub = f"{where}.{key}" if where else str(key)
            if key not in b:
                out.append(_entry("remove", [*keys, key], sub, old=a[key]))
            elif key not in a:
                out.append(_entry("add", [*keys, key], sub, new=b[key]))
            else:
                _diff(a[key], b[key], [*keys, key], sub, out, kinds)
        return
    if isinstance(a, list) and isinstance(b, list):
        if a == b:
            return
        if (a or b) and _named(a) and _named(b):
            _diff_named(a, b, keys, where, out, kinds)
            return
        plain = all(not isinstance(v, (dict, list)) for v in a + b)
        if plain and max(len(flat_text(a)), len(flat_text(b))) <= SHORT_LIST:
            out.append(_entry("change", keys, where, old=a, new=b))
            return
        _diff_aligned(a, b, keys, where, out, kinds)
        return
    if a != b:
        out.append(_entry("change", keys, where, old=a, new=b))


def _diff_named(
    a: list, b: list, keys: list, where: str, out: list[dict], kinds: dict[str, str]
) -> None:
    """Named items: added, removed and changed by name, then moved by order."""
    kind = kinds.get(str(keys[0])) if len(keys) == 1 else None
    olds = {i["name"]: i for i in a}
    news = {i["name"]: i for i in b}
    for name in list(olds) + [n for n in news if n not in olds]:
        sub = f"{kind} {name}" if kind else f"{where}.{name}"
        if name not in news:
            out.append(_entry("remove", [*keys, name], sub, old=olds[name]))
        elif name not in olds:
            out.append(_entry("add", [*keys, name], sub, new=news[name]))
        else:
            _diff(olds[name], news[name], [*keys, name], sub, out, kinds)
    before = [n for n in olds if n in news]
    after = [n for n in news if n in olds]
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    kept = {after[j + k] for _, j, size in matcher.get_matching_blocks() for k in range(size)}
    for position, name in enumerate(after):
        if name in kept:
            continue
        following = next((n for n in after[position + 1 :] if n in kept), None)
        preceding = next((n for n in reversed(after[:position]) if n in kept), None)
        entry: dict[str, Any] = {
            "op": "move",
            "path": where or kind or "",
            "keys": [*keys, name],
            "item": _label(news[name], kind),
            "before": _label(news[following], kind) if following else None,
            "after": _label(news[preceding], kind) if preceding and not following else None,
        }
        out.append(entry)


def _diff_aligned(
    a: list, b: list, keys: list, where: str, out: list[dict], kinds: dict[str, str]
) -> None:
    """Unnamed items aligned by content: an item found again elsewhere has moved; the rest of
    a replaced run is compared pairwise, then added or removed."""
    canon_a = [json.dumps(v, sort_keys=True) for v in a]
    canon_b = [json.dumps(v, sort_keys=True) for v in b]
    matcher = difflib.SequenceMatcher(None, canon_a, canon_b, autojunk=False)
    opcodes = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    gone = [i for _, i1, i2, _, _ in opcodes for i in range(i1, i2)]
    came = [j for _, _, _, j1, j2 in opcodes for j in range(j1, j2)]
    moved: dict[int, int] = {}  # old index -> new index
    for i in gone:
        j = next((j for j in came if canon_b[j] == canon_a[i] and j not in moved.values()), None)
        if j is not None:
            moved[i] = j
    arrived = set(moved.values())
    for i, j in moved.items():
        out.append(
            {
                "op": "move",
                "path": f"{where}[{i}]",
                "keys": [*keys, j],
                "item": f"{where}[{i}]",
                "to": f"{where}[{j}]",
            }
        )
    for _op, i1, i2, j1, j2 in opcodes:
        olds = [i for i in range(i1, i2) if i not in moved]
        news = [j for j in range(j1, j2) if j not in arrived]
        for i, j in zip(olds, news, strict=False):
            _diff(a[i], b[j], [*keys, i], f"{where}[{i}]", out, kinds)
        for i in olds[len(news) :]:
            out.append(_entry("remove", [*keys, i], f"{where}[{i}]", old=a[i]))
        for j in news[len(olds) :]:
            out.append(_entry("add", [*keys, j], f"{where}[{j}]", new=b[j]))


# ---- where each change was written ------------------------------------------------------------


def locate(
    entries: Iterable[dict],
    changed: RuleSet,
    defs: Definitions | None = None,
    base_files: Iterable[str] = (),
) -> list[dict]:
    """The entries, each with `at` (`{"path", "line", "column"}`): where the change was written.

    First the compiled rule set is followed along the entry's keys to the deepest value that
    remembers where it was written (a field, a map key, a calendar space, a step), if that is
    in a patch (a file not among `base_files`); else, for a removal or anything the compiled
    values do not place, where the loader recorded the patch that changed the definition or
    field (`Definitions.changes`).
    """
    base = set(base_files)
    kinds = {kind.key: (name, kind.named) for name, kind in changed.kinds.items()}
    recorded = _recorded(defs)
    out = []
    for entry in entries:
        keys = entry["keys"]
        # A removed item is not in `changed`: place it by the list (or map) that held it.
        span = _written_at(changed, keys[:-1] if entry["op"] == "remove" else keys)
        if span is None or span.path in base:
            kind, named = kinds.get(str(keys[0]), (str(keys[0]), False))
            rest = list(keys[1:])
            label = str(rest.pop(0)) if named and rest else None
            field = _syntax_field(str(rest[0])) if rest else "*"
            span = (
                recorded.get((kind, label, field))
                or recorded.get((kind, label, "*"))
                or recorded.get((kind, label, None))
            )
        if span is not None:
            entry = {**entry, "at": {"path": span.path, "line": span.line, "column": span.column}}
        out.append(entry)
    return out


def _recorded(defs: Definitions | None) -> dict[tuple[str, str | None, str | None], Span]:
    """The loader's record of changes: by field, by definition (field None); a singleton with
    a name (`game castell`) is found by its kind alone too."""
    out: dict[tuple[str, str | None, str | None], Span] = {}
    for (kind, label, field), (_origin, span) in (defs.changes if defs else {}).items():
        for name in {label, None} if label is not None else {None}:
            out[(kind, name, field)] = span
            out.setdefault((kind, name, None), span)
    return out


def _written_at(rules: RuleSet, keys: list) -> Span | None:
    """The span of the deepest compiled value on the path `keys`, if any."""
    kind = next((name for name, k in rules.kinds.items() if k.key == str(keys[0])), None)
    if kind is None or kind not in rules.definitions:
        return None
    value: Any = rules.definitions[kind]
    best = getattr(value, "span", None)
    for key in keys[1:]:
        value, span = _step(value, key)
        best = span or getattr(value, "span", None) or best
        if value is None:
            break
    return best if isinstance(best, Span) else None


def _step(value: Any, key: Any) -> tuple[Any, Span | None]:
    """One key down a compiled value: (the child, where the child was written if known)."""
    if isinstance(value, Record):
        name = _syntax_field(str(key)) if str(key) not in value.fields else str(key)
        return value.fields.get(name), value.spans.get(name)
    if isinstance(value, Mapping):
        found = next((k for k in value if str(k) == str(key)), None)
        if found is None:
            return None, None
        spans = getattr(value, "spans", {})
        return value[found], spans.get(found)
    if isinstance(value, (tuple, list)):
        if isinstance(key, int) and 0 <= key < len(value):
            return value[key], None
        named = [v for v in value if getattr(v, "name", None) == key]
        return (named[0], None) if named else (None, None)
    if key in ("value", "when") and hasattr(value, "when"):  # a value with a condition
        child = getattr(value, key)
        node = getattr(child, "node", None)
        return child, getattr(node, "span", None)
    return None, None


def _syntax_field(json_key: str) -> str:
    """The rule file's key for a JSON key (a turn's `actions` are written `action NAME`)."""
    return "action" if json_key == "actions" else json_key


# ---- text -------------------------------------------------------------------------------------


def render_entry(entry: dict) -> str:
    """One change as a line: `~ game.rounds: 10 → 8`, `+ performance LP33 {…}`, `- …`,
    `~ round: step festivals moved before turns main`, prefixed with `FILE:LINE: ` when the
    entry says where it was written."""
    at = entry.get("at")
    prefix = f"{at['path']}:{at['line']}: " if at else ""
    return prefix + _change_text(entry)


def _change_text(entry: dict) -> str:
    op = entry["op"]
    if op == "move":
        if "to" in entry:
            return f"~ {entry['item']}: moved to {entry['to']}"
        if entry.get("before"):
            return f"~ {entry['path']}: {entry['item']} moved before {entry['before']}"
        if entry.get("after"):
            return f"~ {entry['path']}: {entry['item']} moved after {entry['after']}"
        return f"~ {entry['path']}: {entry['item']} moved"
    if op == "change":
        return f"~ {entry['path']}: {flat_text(entry['old'])} → {flat_text(entry['new'])}"
    if op == "add":
        value = entry["new"]
        if isinstance(value, dict) and "name" in value:
            value = {k: v for k, v in value.items() if k != "name" and v is not None}
        return f"+ {entry['path']}: {flat_text(value)}"
    old = entry["old"]
    named = isinstance(old, dict) and "name" in old and entry["path"].endswith(str(old["name"]))
    return f"- {entry['path']}" if named else f"- {entry['path']}: {flat_text(old)}"


def flat_text(value: Any) -> str:
    """A JSON value on one line: `{round: 4, back: I}`, `[trophy, medal]`, `-` for null."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flat_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flat_text(v) for v in value) + "]"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


__all__ = ["SHORT_LIST", "diff_entries", "flat_text", "locate", "render_entry"]
