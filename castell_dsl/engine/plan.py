"""A rule set's flow, precompiled once: steps with their conditions, turn kinds with limits.

The engine reads the `start`, `round`, `turn` and `scoring` blocks of a rule set through this
plan instead of the records themselves, so nothing on the hot path looks up a record field or
evaluates a condition from its syntax.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..contract import Action
from ..language.ruleset import Record, RuleSet


@dataclass(frozen=True, slots=True)
class StepPlan:
    kind: str  # "step" or "turns"
    name: str
    when: Callable[[dict], bool] | None


@dataclass(frozen=True, slots=True)
class ActionPlan:
    kind: str
    spec: Record
    limit: int | None
    required: bool
    ends_turn: bool
    after: tuple[str, ...]
    #: The action object of an ending action (`end`), made once: not None exactly when
    #: `ends_turn` is true.
    ender: Action | None


@dataclass(frozen=True)
class Plan:
    """A rule set's flow, precompiled once: steps with their conditions, turn kinds."""

    start: tuple[StepPlan, ...]
    round: tuple[StepPlan, ...]
    turns: dict[str, tuple[ActionPlan, ...]]
    rounds: int
    first_player: str
    categories: tuple[tuple[str, Callable[[dict], Any]], ...]
    tiebreaks: tuple[Callable[[dict], Any], ...]
    by_kind: dict[str, dict[str, ActionPlan]]  # turn name -> action kind -> plan
    #: turn name -> its ending actions' plans (`ends_turn`), which decide when a turn is over.
    enders: dict[str, tuple[ActionPlan, ...]]


@lru_cache(maxsize=64)
def plan_for(rules: RuleSet) -> Plan:
    def steps(kind: str) -> tuple[StepPlan, ...]:
        return tuple(
            StepPlan(st.kind, st.name, st.when.compiled if st.when is not None else None)
            for st in (rules.definitions.get(kind) or ())
        )

    turns = {}
    for name, record in rules.named("turn").items():
        turns[name] = tuple(
            ActionPlan(
                kind,
                spec,
                spec.limit,
                spec.required,
                spec.ends_turn,
                tuple(spec.after),
                Action(kind, (), kind) if spec.ends_turn else None,
            )
            for kind, spec in record.action.items()
        )
    scoring = rules.one("scoring")
    return Plan(
        steps("start"),
        steps("round"),
        turns,
        rules.game.rounds,
        rules.game.first_player,
        tuple((name, slot.compiled) for name, slot in scoring.category.items()),
        tuple(slot.compiled for slot in scoring.tiebreak),
        {name: {a.kind: a for a in plans} for name, plans in turns.items()},
        {name: tuple(a for a in plans if a.ends_turn) for name, plans in turns.items()},
    )
