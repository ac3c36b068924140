"""Variants: rule files that patch a rule set, and plugins that adjust a compiled one.

`--variant NAME` finds either a variant rule file (`variants/NAME.castell` beside the rule set,
which `extends` the rules it changes) or a variant registered by a plugin. Several may be combined;
they apply in the order given. Two variants that change the same definition are an error that
names both — silently letting the last one win would make a combination mean something nobody
chose.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..language.ruleset import RuleSet


class VariantConflict(Exception):
    """Two variants change the same definition: the message names both."""

    def __init__(self, first: str, second: str, what: str):
        self.first, self.second, self.what = first, second, what
        super().__init__(
            f"variants '{first}' and '{second}' both change {what}; choose one of them"
        )


@dataclass
class Variant:
    """A variant implemented in code (registered through the `register_variants` hook)."""

    name: str
    description: str
    applies_to: tuple[str, ...]  # rule set names (the `game NAME` label), e.g. ("castell",)
    #: What the variant changes: `adjust(editor, options)` replaces definitions through the
    #: editor (each change recorded as this variant's).
    adjust: Callable[[RulesEditor, dict[str, Any]], None]
    #: Rule IDs this variant implements, for documentation and `castell plugins`.
    rule_ids: tuple[str, ...] = ()


@dataclass
class RulesEditor:
    """Changes to an immutable rule set, each recorded with who made it."""

    rules: RuleSet
    origin: str = "options"
    touched: dict[tuple[str, str | None], str] = field(default_factory=dict)
    changed: bool = False

    def replace(self, kind: str, value: Any, name: str | None = None) -> None:
        """Replace definition `kind` (or `kind name` in a collection) with `value`."""
        key = (kind, name)
        other = self.touched.get(key) or self.touched.get((kind, "*"))
        if other is not None and other != self.origin:
            shown = f"{kind} {name}" if name else kind
            raise VariantConflict(_plain(other), _plain(self.origin), shown)
        self.touched[key] = self.origin
        self.rules = self.rules.with_definition(kind, value, name)
        self.changed = True


def _plain(origin: str) -> str:
    return origin.removeprefix("variant:")
