"""Every bundled variant differs from its base exactly where its file says so.

For each variant file of each game, the compiled rule set (base + variant, as `--variant NAME`
loads it) is compared with the base, through the rule set's JSON (what the engine runs and the
hash is taken of), against what the file *says*, read from its syntax:

- every difference lies inside something the file removes, adds, or overrides (a field, a named
  entry, a map key; a whole ordered block);
- everything the file gives is compiled as written: each field, key or named entry an override
  gives has the value written, an ordered block (a round) the steps written in the order
  written, a new definition what it says, a removed one is gone.

The check of "as written" matches syntax against JSON directly (`tests/rule_witness.py`), not
through the loader's merge or the compiler's conversion, so it is an independent witness of
both. It is
what would have caught short-season's festivals scored before the turns (C-4.0).

Rules covered: C-4.0 and every bundled variant: short-season, generous-prizes, no-regions
(C-6.4); Calico's beginner and family (K-2.1, K-8.1), low-luck (K-8.2), solo (K-8.3), scenarios
(K-8.4).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rule_witness import Reader, definition_json, expanded, groups

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


# ---- the variants -----------------------------------------------------------------------------


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
                assert definition_json(after, kind.key, kind.named, label) is None
        elif isinstance(item, s.Entry):
            kind = kinds[item.key]
            said.add((item.key, item.label, None))
            found = definition_json(after, kind.key, kind.named, item.label)
            assert item.value is not None and reader.says(item.value, found), item.key
        elif isinstance(item, s.Override):
            kind = kinds[item.kind]
            label = item.label if kind.named else None
            found = definition_json(after, kind.key, kind.named, label)
            body = item.body
            if kind.body.entries == "ordered":
                said.add((item.kind, label, None))
                assert reader.says(body, found), f"{item.kind} is not what the file says"
            elif isinstance(body, s.MapValue):
                for key, value in expanded(body.items):
                    said.add((item.kind, label, str(key)))
                    if isinstance(found, dict):
                        assert reader.says(value, found[str(key)]), (item.kind, key)
                if isinstance(found, list):  # a multiset: the whole map is what is said
                    said.add((item.kind, label, None))
            else:
                assert isinstance(body, s.Block)
                for group in groups(body.entries):
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
