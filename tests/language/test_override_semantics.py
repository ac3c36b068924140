"""What a patch does to each kind of block (docs/language.md, "What a patch does").

A patch's `override` merges by the rule of the block it changes: entries of a *keyed* block
(a record's fields, named entries such as `category NAME` and `action NAME`, a map's keys)
replace the inherited entry with the same key where it stands; an *ordered* block (a step
sequence, a repeated field such as `space`) is replaced whole, in the order written, because the
order written is the order run. The properties here would catch any silent change:

- restating any definition of any bundled rule file, of any bundled variant and of the example
  game verbatim compiles to the same rule set (the same content hash);
- restating a random subset of definitions with their keyed entries in any order changes
  nothing, and with ordered entries reordered changes the rule set exactly when the order of
  distinguishable entries changed.

Rules covered: C-4.0 (the round's order: turns, then festivals) and every definition of the
Castell (C-1 … C-10) and Calico (K-1 … K-8) rule files, as data.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from restating import (
    Game,
    definitions,
    entry_identities,
    games,
    restates_the_same,
    written_items,
)
from rule_witness import Reader, definition_json

from castell_dsl.language import syntax as s
from castell_dsl.language.diagnostics import Diagnostics
from castell_dsl.language.parser import parse
from castell_dsl.language.source import Source

GAMES = games()
CASES = [
    pytest.param(game, written, id=f"{game.name}:{written.head().removeprefix('override ')}")
    for game in GAMES
    for written in definitions(game.path)
]


def restate(tmp_path, game: Game, *overrides: str, extends: str | None = None):
    path = tmp_path / "restated.castell"
    target = extends or game.name
    path.write_text(f'extends "{target}"\n\n' + "\n\n".join(overrides) + "\n", encoding="utf-8")
    return game.compile(path)


@pytest.mark.parametrize(("game", "written"), CASES)
def test_restating_a_definition_verbatim_changes_nothing(tmp_path, game, written):
    restated = restate(tmp_path, game, written.restated())
    assert restated.content_hash == game.base.content_hash
    assert restated.to_json() == game.base.to_json()


VARIANT_CASES = [
    pytest.param(game, path, id=f"{game.name}+{path.stem}")
    for game in GAMES
    for path in game.variants()
]


@pytest.mark.parametrize(("game", "variant"), VARIANT_CASES)
def test_restating_a_variants_own_definitions_changes_nothing(tmp_path, game, variant):
    """A file that extends a bundled variant file and restates each of its overrides and new
    definitions compiles to the variant's rule set."""
    expected = game.compile(variant)
    for written in definitions(variant):
        restated = restate(tmp_path, game, written.restated(), extends=str(variant))
        assert restated.content_hash == expected.content_hash, written.text


def test_the_cases_cover_every_bundled_file_and_the_example_game():
    names = {game.name for game in GAMES}
    assert names == {"castell", "calico", "pebbles"}
    assert len(CASES) > 60  # every definition of the three base files
    assert {p.stem for _, p in (c.values for c in VARIANT_CASES)} >= {
        "short-season", "generous-prizes", "no-regions", "solo", "scenario-3", "big-heaps",
    }  # fmt: skip


def test_the_round_is_run_in_the_order_written(tmp_path):
    """C-4.0: turns, then festivals. A round restated in another order is another round."""
    castell = GAMES[0]
    rules = restate(
        tmp_path,
        castell,
        "override round {\n  step festivals when round >= 3\n  turns main\n"
        "  step turn_wheel when round >= 2\n}",
    )
    assert [(st.kind, st.name) for st in rules.one("round")] == [
        ("step", "festivals"),
        ("turns", "main"),
        ("step", "turn_wheel"),
    ]


def test_short_season_scores_festivals_after_the_turns():
    """The bundled short-season variant (C-4.0): its festivals come after the players' turns,
    as in the base game, and refill is its only change to the round."""
    from castell_dsl.runtime.loading import load_rules

    base = [(st.kind, st.name) for st in load_rules("castell").one("round")]
    short = load_rules("castell", ("short-season",)).one("round")
    order = [("step", "refill"), ("step", "turn_wheel"), ("turns", "main"), ("step", "festivals")]
    assert base == order
    assert [(st.kind, st.name) for st in short] == order


# ---- keyed and ordered entries, by kind of block ----------------------------------------------


def test_a_keyed_field_is_replaced_where_it_stands_and_a_new_one_follows(tmp_path):
    castell = GAMES[0]
    rules = restate(tmp_path, castell, "override scoring {\n  category prizes = 0\n}")
    categories = list(rules.one("scoring").category)
    assert categories == list(castell.base.one("scoring").category)  # same place
    assert rules.one("scoring").category["prizes"].source == "0"


def test_a_repeated_field_is_one_sequence_replaced_whole(tmp_path):
    castell = GAMES[0]
    rules = restate(
        tmp_path,
        castell,
        "override calendar {\n  space { round 10 back II size_tokens 2 }\n"
        "  space { round 3 back I size_tokens 1 }\n}",
    )
    assert [c.value.round for c in rules.one("calendar").space] == [10, 3]


def test_a_map_key_is_replaced_where_it_stands(tmp_path):
    """`size_tokens { 1..10: 3 }` then `{ 6: 4, 5: 2 }`: keys 5 and 6 keep their places (a
    map's order is the order its items are laid out in, e.g. the size-token pool)."""
    castell = GAMES[0]
    rules = restate(tmp_path, castell, "override size_tokens { 6: 4, 5: 2 }")
    assert list(rules.one("size_tokens").items()) == [
        (n, {5: 2, 6: 4}.get(n, 3)) for n in range(1, 11)
    ]


def test_a_named_entry_keeps_its_place(tmp_path):
    castell = GAMES[0]
    rules = restate(tmp_path, castell, "override turn main {\n  action move { limit 2 }\n}")
    actions = rules.get("turn", "main").action
    assert list(actions) == list(castell.base.get("turn", "main").action)
    assert actions["move"].limit == 2


def test_a_nested_block_or_map_is_a_value_replaced_whole(tmp_path):
    """Override merges one level: `castellers_per_region` inside `setup` is a field's value."""
    castell = GAMES[0]
    path = tmp_path / "v.castell"
    path.write_text('extends "castell"\noverride setup { castellers_per_region { 2: 4 } }\n')
    from castell_dsl.runtime.loading import load_report

    report = load_report(path)
    assert [d.code for d in report.diagnostics if d.is_error] == ["E0241"]  # no 3, 4 players
    assert castell.base.one("setup").castellers_per_region[3] == 4


def test_an_override_of_another_shape_is_a_located_error(tmp_path):
    from castell_dsl.runtime.loading import load_report

    path = tmp_path / "v.castell"
    path.write_text('extends "castell"\n\noverride prize_chart { rounds 3 }\n')
    report = load_report(path)
    (diag,) = [d for d in report.diagnostics if d.is_error]
    assert diag.code == "E0210" and "map" in diag.message
    assert (diag.span.path, diag.span.line) == ("v.castell", 3) or diag.span.line == 3


# ---- random restatements ----------------------------------------------------------------------

KIND_CASES = [
    (game, written)
    for game in GAMES[:2]
    for written in definitions(game.path)
    if isinstance(written.body, (s.Block, s.MapValue)) and written.body != ()
]


def _has_ordered_entries(game: Game, written) -> bool:
    kind = game.kinds[written.kind]
    ids = entry_identities(kind, written.body)
    return sum(ordered for _key, _label, ordered in ids) >= 2


@st.composite
def restatements(draw):
    """One to five definitions of a game, each with its entries in a drawn order; in half of
    the cases one of them holds ordered entries (a round, a calendar, a board's edges)."""
    game = draw(st.sampled_from(GAMES[:2]))
    pool = [w for g, w in KIND_CASES if g is game]
    chosen = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4, unique_by=id))
    if draw(st.booleans()):
        ordered = [w for w in pool if _has_ordered_entries(game, w) and w not in chosen]
        chosen.append(draw(st.sampled_from(ordered)))
    orders = []
    for written in chosen:
        n = len(written.body.entries if isinstance(written.body, s.Block) else written.body.items)
        orders.append(draw(st.permutations(range(n))))
    return game, chosen, orders


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(restatements())
def test_restating_with_entries_in_any_order(tmp_path, case):
    """Keyed entries in any order: no change. Ordered entries reordered: a change, exactly when
    the order of entries that differ changed."""
    game, chosen, orders = case
    kinds = game.kinds
    same = all(
        restates_the_same(kinds[w.kind], w, order) for w, order in zip(chosen, orders, strict=True)
    )
    texts = [w.restated(order) for w, order in zip(chosen, orders, strict=True)]
    restated = restate(tmp_path, game, *texts)
    assert (restated.content_hash == game.base.content_hash) == same
    # And each definition is what its restatement says, ordered entries in the order written.
    text = (tmp_path / "restated.castell").read_text(encoding="utf-8")
    tree = parse(Source("restated.castell", text), Diagnostics())
    assert tree is not None
    data = restated.to_json()
    for item in tree.items:
        if isinstance(item, s.Override):
            kind = kinds[item.kind]
            found = definition_json(data, kind.key, kind.named, item.label)
            assert Reader(text).says(item.body, found), f"{item.kind} {item.label or ''}"


def test_the_property_sees_both_outcomes():
    """A guard on the generator: reordering an ordered block is a change, a keyed one none."""
    castell = GAMES[0]
    kinds = castell.kinds
    by_kind = {w.kind: w for w in definitions(castell.path)}
    assert not restates_the_same(kinds["round"], by_kind["round"], [3, 0, 1, 2])
    assert restates_the_same(kinds["game"], by_kind["game"], [4, 3, 2, 1, 0])
    assert not restates_the_same(kinds["calendar"], by_kind["calendar"], [1, 0, *range(2, 12)])


def test_written_items_keep_directives_apart():
    items = written_items(GAMES[0].variants()[0])
    assert isinstance(items[0].item, s.Extends)


def test_the_hash_sees_every_order_the_engine_sees(tmp_path, monkeypatch):
    """Two rule files that differ only in the order of a turn's actions play different games
    (the actions are offered in that order), so their hashes differ. The hash saves used to
    record (`legacy_hash`, every map's keys sorted) did not tell them apart."""
    from castell_dsl.runtime.loading import load_rules
    from castell_dsl.runtime.simulation import play_game

    base = GAMES[0].path.read_text(encoding="utf-8")
    move = next(line for line in base.splitlines(keepends=True) if "action move " in line)
    recruit = next(line for line in base.splitlines(keepends=True) if "action recruit " in line)
    swapped = base.replace(move, "\0").replace(recruit, move).replace("\0", recruit)
    (tmp_path / "swapped.castell").write_text(swapped, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    ours, theirs = load_rules("castell"), load_rules("./swapped.castell")
    assert list(theirs.get("turn", "main").action)[:2] == ["recruit", "move"]
    assert ours.legacy_hash == theirs.legacy_hash
    assert ours.content_hash != theirs.content_hash and ours.hash != theirs.hash
    games = [play_game(r, 4, 1, ["random"] * 4).state_hash() for r in (ours, theirs)]
    assert games[0] != games[1]
