"""The conversion of lark's parse tree into syntax nodes (`parser._ToSyntax`): a method for every
rule, and the same nodes, spans and failures as lark's own non-recursive transformer gives."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from lark import Transformer_NonRecursive, Tree, v_args
from lark.exceptions import UnexpectedInput, VisitError

from castell_dsl.language.parser import _NumberTooLarge, _parser, _ToSyntax

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "rules").rglob("*.castell")) + sorted(
    (ROOT / "docs" / "examples").rglob("*.castell")
)
CORPUS = sorted((ROOT / "tests" / "security" / "corpus").rglob("*.castell"))


def _via_lark() -> type:
    """The same methods in lark's `Transformer_NonRecursive` with `v_args(meta=True,
    inline=True)`: how the conversion was written before it had its own loop."""
    skip = {"__init__", "transform", "__dict__", "__weakref__", "__module__", "__qualname__"}
    methods = {name: f for name, f in vars(_ToSyntax).items() if name not in skip}

    def __init__(self: Any, path: str) -> None:
        Transformer_NonRecursive.__init__(self)
        self.path = path

    cls = type("ViaLark", (Transformer_NonRecursive,), {**methods, "__init__": __init__})
    return v_args(meta=True, inline=True)(cls)


_ViaLark = _via_lark()


def test_every_rule_that_makes_a_node_has_a_method():
    """Rules marked `?` without an alias (`?body`, `?atom`) are inlined, `_item` too."""
    rules = _parser().rules
    names = {
        str(rule.alias or rule.origin.name)
        for rule in rules
        if (rule.alias or not rule.options.expand1) and not rule.origin.name.startswith("_")
    }
    assert len(names) > 30
    assert {name for name in names if not callable(getattr(_ToSyntax, name, None))} == set()


def _flat(node: Any) -> list:
    """A syntax tree as a flat list (without recursion: the corpus nests deeply)."""
    out: list = []
    stack = [node]
    while stack:
        item = stack.pop()
        if dataclasses.is_dataclass(item):
            out.append(type(item).__name__)
            stack.extend(reversed([getattr(item, f.name) for f in dataclasses.fields(item)]))
        elif isinstance(item, tuple):
            out.append(("tuple", len(item)))
            stack.extend(reversed(item))
        else:
            out.append((type(item).__name__, item))
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_same_syntax_as_lark_transformer_gives(path):
    tree = _parser().parse(path.read_text(encoding="utf-8"))
    assert _ToSyntax(str(path)).transform(tree) == _ViaLark(str(path)).transform(tree)


def test_the_same_syntax_for_the_hostile_corpus():
    compared = 0
    for path in CORPUS:
        try:
            tree = _parser().parse(path.read_bytes().decode("utf-8", errors="replace"))
        except UnexpectedInput:
            continue
        try:
            expected = _ViaLark(str(path)).transform(tree)
        except VisitError as exc:  # a number too long: the same failure
            with pytest.raises(VisitError) as raised:
                _ToSyntax(str(path)).transform(tree)
            assert type(raised.value.orig_exc) is type(exc.orig_exc) is _NumberTooLarge
            assert raised.value.orig_exc.token == exc.orig_exc.token
            continue
        assert _flat(_ToSyntax(str(path)).transform(tree)) == _flat(expected)
        compared += 1
    assert compared > 0


def test_a_failure_in_a_method_is_lark_visit_error_naming_the_rule():
    tree = _parser().parse("x " + "9" * 30)
    with pytest.raises(VisitError) as raised:
        _ToSyntax("x.castell").transform(tree)
    assert raised.value.rule == "integer"
    assert isinstance(raised.value.orig_exc, _NumberTooLarge)
    assert isinstance(raised.value.obj, Tree)
