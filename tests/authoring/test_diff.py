"""`castell rules show --diff` shows every change, order included, with the file and line that
made it (docs/variants.md, "See what it changes").

Rules covered: C-4.0 (the round's order), C-3.4 (the tiles in the box, in order), C-3.3 (the
calendar).
"""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from castell_dsl.language.diff import diff_entries, render_entry

ROUND_REGROUPED = """extends "castell"

override round {
  step refill     when round in [3, 5, 7, 9]
  step turn_wheel when round >= 2
  step festivals  when round >= 3
  turns main
}
"""


def test_a_step_moved_in_the_round_is_shown_where_it_was_written(workdir, run):
    """The short-season defect, as a diff: the festivals step written before the turns."""
    (workdir / "regrouped.castell").write_text(ROUND_REGROUPED)
    result = run("rules", "show", "regrouped.castell", "--diff")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "regrouped.castell:6: ~ round: step festivals moved before turns main"
    ]
    data = json.loads(
        run("rules", "show", "regrouped.castell", "--diff", "--format", "json").output
    )
    (move,) = data["changes"]
    assert move["op"] == "move" and move["item"] == "step festivals"
    assert move["before"] == "turns main" and move["at"]["line"] == 6


def test_a_definition_removed_and_defined_again_has_moved(workdir, run):
    """Restating a tile after removing it puts it last: the tiles' order is the box's."""
    (workdir / "last.castell").write_text(
        'extends "castell"\nremove performance LP07\n'
        "performance LP07 { shape [4, 3, 2, 1, 1]  points 7 }\n"
    )
    result = run("rules", "show", "last.castell", "--diff")
    assert result.output.splitlines() == [
        "last.castell:3: ~ local_performances: performance LP07 moved after performance LP32"
    ]


def test_a_calendar_space_moved_is_one_move(workdir, run):
    spaces = [
        "space { round 4  back I  size_tokens 1 }",
        "space { round 3  back I  size_tokens 1 }",
        "space { round 5  back I  size_tokens 1 }",
        "space { round 5  back I  size_tokens 1 } when players >= 3",
        "space { round 6  back I  size_tokens 1 }",
        "space { round 6  back I  size_tokens 1 } when players >= 3",
        "space { round 7  back II  size_tokens 2 }",
        "space { round 8  back II  size_tokens 2 }",
        "space { round 9  back II  size_tokens 2 }",
        "space { round 9  back II  size_tokens 2 } when players >= 3",
        "space { round 10  back II  size_tokens 2 }",
        "space { round 10  back II  size_tokens 2 } when players >= 3",
    ]
    (workdir / "swap.castell").write_text(
        'extends "castell"\noverride calendar {\n  ' + "\n  ".join(spaces) + "\n}\n"
    )
    result = run("rules", "show", "swap.castell", "--diff")
    assert result.output.splitlines() == [
        "swap.castell:3: ~ calendar.space[1]: moved to calendar.space[0]"
    ]


def test_every_line_of_a_variants_diff_names_its_line(workdir, run):
    result = run("rules", "show", "castell", "--variant", "short-season", "--diff")
    lines = result.output.splitlines()
    assert len(lines) > 10
    assert all(re.match(r"^\S*short-season\.castell:\d+: [~+-] ", line) for line in lines)
    assert not any("round" in line and "moved" in line for line in lines)  # turns, then festivals


def test_named_items_reordered():
    a = {"l": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}
    b = {"l": [{"name": "c"}, {"name": "a"}, {"name": "b"}]}
    assert [render_entry(e) for e in diff_entries(a, b)] == ["~ l: c moved before a"]
    b = {"l": [{"name": "b"}, {"name": "c"}, {"name": "a"}]}
    assert [render_entry(e) for e in diff_entries(a, b)] == ["~ l: a moved after c"]


# ---- every change is shown --------------------------------------------------------------------

names = st.sampled_from(["a", "b", "c", "d"])
scalars = st.one_of(st.integers(-3, 3), st.booleans(), names, st.none())
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(names, inner, max_size=4),
        st.lists(st.fixed_dictionaries({"name": names, "v": inner}), max_size=4),
    ),
    max_leaves=20,
)


@given(st.dictionaries(names, values, max_size=4), st.dictionaries(names, values, max_size=4))
def test_a_diff_is_empty_exactly_when_nothing_changed(a, b):
    """Nothing changed (equal JSON, lists in order) ⇔ no entry; and every entry is rendered."""
    entries = diff_entries(a, b)
    assert (entries == []) == (a == b)
    assert all(render_entry(e) for e in entries)


@given(st.lists(names, unique=True, min_size=2, max_size=4).flatmap(
    lambda order: st.tuples(st.just(order), st.permutations(order))
))  # fmt: skip
def test_a_reordering_of_named_items_is_shown_as_moves_only(case):
    order, permuted = case
    a = {"l": [{"name": n} for n in order]}
    b = {"l": [{"name": n} for n in permuted]}
    entries = diff_entries(a, b)
    assert {e["op"] for e in entries} <= {"move"}
    assert (entries == []) == (list(order) == list(permuted))
