"""What a game family contributes to the compiler and the engine: `Mechanics`.

A rule file's `game` block names its mechanics (`mechanics NAME`). The mechanics is found
through the `register_mechanics` plugin hook — nothing in the core imports a game by name — and
gives the compiler what it needs to read that game's rule files, and the engine what it needs
to run them:

- for the compiler: the game's own `kinds` (schema), the `facts` scoring expressions may use,
  the automatic `steps` and the `actions` (with their parameters) rule files may name, counters
  for `components` totals, and extra `check`s;
- its own diagnostic `codes` (code → title), so its checks report in the same vocabulary as
  the compiler's without the core knowing them;
- for the engine: `build(rules)`, which precompiles the rule set into a `GameLogic`
  (see `castell_dsl.contract.logic`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .logic import GameLogic

if TYPE_CHECKING:
    from ..language.diagnostics import Diagnostics
    from ..language.ruleset import RuleSet
    from ..language.schema import Field, Kind


@dataclass
class Mechanics(ABC):
    """What a game family contributes. Subclass it: give the fields (as dataclass defaults or
    to the constructor) and implement `build`; override `check` to add rule checks."""

    name: str
    description: str
    kinds: Mapping[str, Kind]
    facts: Mapping[str, str]
    steps: tuple[str, ...]
    actions: Mapping[str, Mapping[str, Field]]
    counters: Mapping[str, Callable[[RuleSet], int]] = field(default_factory=dict)
    #: Diagnostic codes this mechanics' checks report (code → one-line title), e.g.
    #: `{"E0260": "tile that no team could ever complete"}`. Registered when the mechanics is.
    codes: Mapping[str, str] = field(default_factory=dict)

    def check(self, rules: RuleSet, diags: Diagnostics) -> None:
        """Game-specific semantic checks, run after the generic ones found no error.

        The default has none; a mechanics overrides this to add its own.
        """
        return None

    @abstractmethod
    def build(self, rules: RuleSet) -> GameLogic:
        """Precompile `rules` into the `GameLogic` the engine runs."""
