"""Definitions to a checked, immutable `RuleSet`.

The compiler reads the `game` block to find the mechanics, takes the schema (core kinds plus
the mechanics' kinds), converts every definition, then runs the checks that need the whole rule
set: references, graphs, player-count coverage, component totals, expressions, and finally the
mechanics' own checks. Every problem is reported; nothing stops at the first.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from . import syntax as s
from .core_kinds import CONDITION_VARIABLES, StepSequence, core_kinds
from .diagnostics import Diagnostics, Span, did_you_mean, known_names_hint
from .expressions import MAX_DEPTH as MAX_EXPRESSION_DEPTH
from .expressions import (
    ExpressionCompiler,
    ExpressionError,
    Scope,
    expression_depth,
    expression_source,
)
from .loader import Definition, Definitions
from .ruleset import Record, RuleSet
from .schema import (
    INVALID,
    Boolean,
    ConvertContext,
    Field,
    GameSchema,
    Graph,
    Integer,
    Kind,
    ListOf,
    Multiset,
    Ref,
    Struct,
    Symbol,
    Text,
)

MechanicsLookup = Callable[[str], GameSchema | None]
KEYWORDS = ("extends", "include", "override", "remove")


def compile_rules(
    defs: Definitions,
    diags: Diagnostics,
    find_mechanics: MechanicsLookup,
    mechanics_names: Iterable[str] = (),
    name: str | None = None,
) -> RuleSet | None:
    """Compile resolved definitions; return None (with diagnostics) if there is any error."""
    game_def = defs.items.get(("game", None)) or next(
        (d for (kind, _), d in defs.items.items() if kind == "game"), None
    )
    first_file = defs.files[0] if defs.files else "<rules>"
    if game_def is None:
        diags.error(
            "E0209",
            "no `game` block: every rule set needs one",
            Span.point(first_file),
            'start with `game NAME { title "…" players 2..4 rounds 10 mechanics castell }`, '
            'or with `extends "castell"` to make a variant',
        )
        return None
    ctx = ConvertContext(diags)
    game_entry = effective_entry(game_def, core_kinds({}).get("game"), ctx)
    if game_entry is INVALID:
        return None
    mechanics = _find_mechanics(game_entry, diags, find_mechanics, mechanics_names)
    if mechanics is None:
        return None
    kinds = schema_kinds(mechanics)
    converted: dict[str, Any] = {}
    ok = True
    broken: set[str] = set()  # names of definitions that failed: no cascade of errors
    for definition in defs.items.values():
        entry = effective_entry(definition, kinds.get(definition.kind), ctx)
        value = INVALID if entry is INVALID else _convert_definition(entry, kinds, ctx, converted)
        if value is INVALID:
            ok = False
            broken.update(n for n in (definition.kind, definition.label) if n)
    for kind_name, kind in kinds.items():
        if kind.required and kind_name not in converted and kind_name not in broken:
            diags.error(
                "E0203",
                f"the rule set needs a `{kind_name}` definition",
                game_def.entry.key_span,
                kind.doc or None,
            )
            ok = False
    # The game first, then the other definitions in the order the files give them.
    definitions = {}
    for kind_name in ["game", *converted]:
        if kind_name in converted and kind_name not in definitions:
            value = converted[kind_name]
            definitions[kind_name] = MappingProxyType(value) if isinstance(value, dict) else value
    rule_name = name or game_def.label or (defs.files[0] if defs.files else "rules")
    rules = RuleSet(
        rule_name,
        mechanics.name,
        MappingProxyType(kinds),
        MappingProxyType(definitions),
        tuple(defs.files),
    )
    _check_references(rules, ctx, diags, broken)
    _check_graphs(rules, diags)
    _check_by_players(rules, ctx, diags)
    _check_steps(rules, mechanics, diags, broken)
    used = _compile_expressions(rules, ctx, mechanics, defs, diags, broken)
    _check_table_coverage(rules, ctx, mechanics, diags)
    _check_components(rules, mechanics, diags, broken)
    _warn_unused_tables(rules, used, diags)
    _warn_dead_conditions(rules, ctx, diags)
    _warn_constant_categories(rules, mechanics, diags)
    _warn_dead_actions(rules, diags)
    _warn_turnless_round(rules, diags)
    if not ok or diags.has_errors:
        return None
    mechanics.check(rules, diags)
    return None if diags.has_errors else rules


def schema_kinds(mechanics: GameSchema) -> dict[str, Kind]:
    """Every kind of definition a rule set of this mechanics may hold: the core's and its own."""
    kinds = core_kinds(mechanics.actions)
    kinds.update(mechanics.kinds)
    return kinds


def effective_entry(definition: Definition, kind: Kind | None, ctx: ConvertContext) -> Any:
    """A definition as its overrides leave it: each override merged into the entry in the order
    applied, by the rule of the kind's body (`FieldType.merge`: keyed entries one by one in
    place, ordered sequences and plain values whole). INVALID (reported) if an override does
    not fit; the entry as written if the kind is unknown (conversion reports that)."""
    entry = definition.entry
    if kind is None or entry.value is None:
        return entry
    where = f"{definition.kind} {definition.label}" if definition.label else definition.kind
    for patch in definition.patches:
        merged = kind.body.merge(entry.value, patch.override.body, ctx, where)
        if merged is INVALID:
            return INVALID
        entry = replace(entry, value=merged)
    return entry


def _find_mechanics(
    entry: s.Entry,
    diags: Diagnostics,
    find_mechanics: MechanicsLookup,
    mechanics_names: Iterable[str],
) -> GameSchema | None:
    block = entry.value
    if not isinstance(block, s.Block):
        diags.error("E0210", "game must be a block { ... }", entry.span)
        return None
    named = [e for e in block.entries if e.key == "mechanics"]
    if not named:
        diags.error(
            "E0203",
            "game needs 'mechanics' (the game family's Python module, e.g. castell)",
            entry.label_span or entry.key_span,
            f"add `mechanics NAME`; {known_names_hint('mechanics', mechanics_names)}",
        )
        return None
    value = named[0].value
    if not (isinstance(value, s.Scalar) and value.kind == "symbol"):
        diags.error("E0210", "game mechanics must be a name", named[0].value_span)
        return None
    mechanics = find_mechanics(str(value.value))
    if mechanics is None:
        names = list(mechanics_names)
        diags.error(
            "E0221",
            f"unknown mechanics '{value.value}'",
            value.span,
            did_you_mean(str(value.value), names) or known_names_hint("mechanics", names),
        )
    return mechanics


def _convert_definition(
    entry: s.Entry, kinds: Mapping[str, Kind], ctx: ConvertContext, out: dict[str, Any]
) -> Any:
    kind = kinds.get(entry.key)
    if kind is None:
        hint = did_you_mean(entry.key, list(kinds) + list(KEYWORDS)) or known_names_hint(
            "kinds", kinds
        )
        ctx.diags.error("E0201", f"unknown kind of definition '{entry.key}'", entry.key_span, hint)
        return INVALID
    if entry.condition is not None:
        ctx.diags.error(
            "E0208", f"a {entry.key} definition cannot have a condition", entry.condition.span
        )
        return INVALID
    if kind.named and entry.label is None:
        ctx.diags.error(
            "E0206",
            f"a {entry.key} needs a name: `{entry.key} NAME {{ ... }}`",
            entry.key_span,
        )
        return INVALID
    if not kind.named and entry.label is not None and entry.key != "game":
        ctx.diags.error(
            "E0207",
            f"there is one {entry.key}: it takes no name",
            entry.label_span or entry.key_span,
            f"write `{entry.key} {{ ... }}`",
        )
        return INVALID
    if entry.value is None:
        ctx.diags.error(
            "E0210", f"a {entry.key} is {kind.body.expects}, not an expression", entry.span
        )
        return INVALID
    where = f"{entry.key} {entry.label}" if entry.label else entry.key
    if isinstance(kind.body, Struct):
        label = entry.label if kind.named else None
        value = kind.body.convert_named(entry.value, ctx, where, label, entry.label_span)
    else:
        value = kind.body.convert(entry.value, ctx, where)
        if value is not INVALID and kind.named:
            value = Record(entry.key, entry.label, MappingProxyType({"entries": value}), entry.span)
    if value is INVALID:
        return INVALID
    if kind.named:
        out.setdefault(entry.key, {})[entry.label] = value
    else:
        out[entry.key] = value
    return value


# ---- whole-rule-set checks --------------------------------------------------------------------


def _check_references(
    rules: RuleSet, ctx: ConvertContext, diags: Diagnostics, broken: set[str]
) -> None:
    for ref in ctx.refs:
        if ref.name in ref.extra or ref.name in broken:
            continue
        if any(rules.get(kind, ref.name) is not None for kind in ref.kinds):
            continue
        what = " or ".join(ref.kinds)
        candidates = [n for kind in ref.kinds for n in rules.named(kind)] + list(ref.extra)
        diags.error(
            "E0220",
            f"unknown {what} '{ref.name}'",
            ref.span,
            did_you_mean(ref.name, candidates) or known_names_hint(f"{what}s", candidates),
            concerns=[(kind, ref.name, None) for kind in ref.kinds],
            patch_hint=(
                f"the inherited rules name {what} '{ref.name}': keep it, or override what names it"
            ),
        )


def _graph_fields(rules: RuleSet) -> Iterable[tuple[str, str, Graph]]:
    for kind_name, kind in rules.kinds.items():
        if kind.named and isinstance(kind.body, Struct):
            for field_name, spec in kind.body.fields.items():
                if isinstance(spec.type, Graph):
                    yield kind_name, field_name, spec.type


def _check_graphs(rules: RuleSet, diags: Diagnostics) -> None:
    """Adjacency declared on each node must be symmetric and connect every node."""
    for kind_name, field_name, graph in _graph_fields(rules):
        nodes = rules.named(graph.kind)
        if not nodes:
            continue
        edges: dict[str, set[str]] = {n: set() for n in nodes}
        # A node listing an unknown name probably misspells a neighbour: its missing edges are
        # a consequence of that error (reported already), not another one.
        suspect = {
            r.name
            for r in rules.named(kind_name).values()
            if any(other not in nodes for other in r.fields[field_name])
        }
        for record in rules.named(kind_name).values():
            for other in record.fields[field_name]:
                if other == record.name:
                    diags.error(
                        "E0230",
                        f"{kind_name} {record.name} lists itself in '{field_name}'",
                        record.spans.get(field_name, record.span),
                    )
                    continue
                if other not in nodes:
                    continue  # reported as an unknown reference
                edges[record.name].add(other)
        for record in rules.named(kind_name).values():
            for other in record.fields[field_name]:
                if (
                    other in edges
                    and record.name not in edges[other]
                    and other != record.name
                    and other not in suspect
                ):
                    diags.error(
                        "E0230",
                        f"{kind_name} {record.name} lists {other} in '{field_name}', "
                        f"but {other} does not list {record.name}",
                        record.spans.get(field_name, record.span),
                        f"add {record.name} to {other}'s {field_name} list "
                        f"(line {nodes[other].span.line}), or remove {other} here",
                    )
        start = next(iter(nodes))
        seen = {start}
        frontier = [start]
        while frontier:
            node = frontier.pop()
            for nxt in edges[node] | {n for n, e in edges.items() if node in e}:
                if nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        for node_name, record in nodes.items():
            if node_name not in seen:
                diags.error(
                    "E0231",
                    f"{graph.kind} {node_name} cannot be reached from {start}",
                    record.span,
                    f"give {node_name} a neighbour in '{field_name}'",
                )


def _check_by_players(rules: RuleSet, ctx: ConvertContext, diags: Diagnostics) -> None:
    game = rules.definitions.get("game")
    if not isinstance(game, Record):
        return
    low, high = game.players
    for mapping, span, where in ctx.by_players:
        missing = [n for n in range(low, high + 1) if n not in mapping]
        if missing:
            shown = ", ".join(map(str, missing))
            diags.error(
                "E0241",
                f"{where} has no entry for {shown} player{'s' if missing != [1] else ''}",
                span,
                f"the game is for {low} to {high} players; add `{missing[0]}: …`",
                concerns=[("game", None, "players")],
                patch_hint=(
                    f"the game is now for {low} to {high} players: override {where} with "
                    f"`{missing[0]}: …`"
                ),
            )


def _check_steps(
    rules: RuleSet, mechanics: GameSchema, diags: Diagnostics, broken: set[str]
) -> None:
    for kind_name in ("start", "round"):
        steps = rules.definitions.get(kind_name) or ()
        for step in steps:
            if step.kind == "step" and step.name not in mechanics.steps:
                diags.error(
                    "E0220",
                    f"unknown step '{step.name}'",
                    step.name_span,
                    did_you_mean(step.name, mechanics.steps)
                    or known_names_hint(f"steps of {mechanics.name}", mechanics.steps),
                )
            if step.kind == "turns" and step.name in broken:
                continue  # its turn did not compile: reported there, not again here
            if step.kind == "turns" and rules.get("turn", step.name) is None:
                names = list(rules.named("turn"))
                diags.error(
                    "E0220",
                    f"unknown turn '{step.name}'",
                    step.name_span,
                    did_you_mean(step.name, names) or known_names_hint("turns", names),
                )


def _field_type_name(spec: Field) -> str:
    t = spec.type
    if isinstance(t, Integer):
        return "int"
    if isinstance(t, Boolean):
        return "bool"
    if isinstance(t, (Text, Symbol, Ref)):
        return "str"
    if isinstance(t, (ListOf, Multiset)):
        return "list"
    return "any"


def build_scope(
    rules: RuleSet, mechanics: GameSchema, scope: str, broken: Iterable[str] = ()
) -> Scope:
    """The names an expression of `scope` ("scoring" or "condition") may use."""
    constants: dict[str, tuple[str, Any]] = {}
    field_types: dict[str, dict[str, str]] = {}
    for kind_name, kind in rules.kinds.items():
        if kind_name == "table":
            for table_name, record in rules.named("table").items():
                constants[table_name] = ("table", record.entries)
        elif kind.named:
            constants[kind_name] = (f"collection:{kind_name}", rules.named(kind_name))
            if isinstance(kind.body, Struct):
                field_types[kind_name] = {
                    f: _field_type_name(spec) for f, spec in kind.body.fields.items()
                }
    variables = dict(mechanics.facts) if scope == "scoring" else dict(CONDITION_VARIABLES)
    return Scope(
        MappingProxyType(variables), MappingProxyType(constants), field_types, frozenset(broken)
    )


def _compile_expressions(
    rules: RuleSet,
    ctx: ConvertContext,
    mechanics: GameSchema,
    defs: Definitions,
    diags: Diagnostics,
    broken: set[str],
) -> set[str]:
    """Compile every expression slot; return the table names expressions use."""
    scopes = {
        name: build_scope(rules, mechanics, name, broken) for name in ("scoring", "condition")
    }
    used: set[str] = set()
    shallow = []
    for slot, entry in ctx.expressions:
        if expression_depth(slot.node) > MAX_EXPRESSION_DEPTH:
            diags.error(
                "E0106",
                f"expression nested deeper than {MAX_EXPRESSION_DEPTH} levels",
                slot.node.span,
                "split it, or use sum(…)/count(…) over a list",
            )
            continue
        shallow.append((slot, entry))
    ctx.expressions[:] = shallow
    for slot, _entry in ctx.expressions:
        source = defs.sources.get(slot.node.span.path)
        slot.source = expression_source(source.text, slot.node.span) if source else ""
        compiler = ExpressionCompiler(scopes[slot.scope], diags)
        slot.compiled = compiler.compile(slot.node, slot.result)
        used.update(_names_in(slot.node))
    return used


def _table_counts(node: Any) -> Iterable[tuple[str, str]]:
    """(table, fact) pairs for `lookup(table, count(fact), d)` and `table[count(fact)]`."""
    if isinstance(node, s.Call) and node.function == "lookup" and len(node.args) == 3:
        table, key = node.args[0], node.args[1]
        if (
            isinstance(table, s.NameRef)
            and isinstance(key, s.Call)
            and key.function == "count"
            and len(key.args) == 1
            and isinstance(key.args[0], s.NameRef)
        ):
            yield table.name, key.args[0].name
    if isinstance(node, s.Index) and isinstance(node.target, s.NameRef):
        key = node.index
        if (
            isinstance(key, s.Call)
            and key.function == "count"
            and len(key.args) == 1
            and isinstance(key.args[0], s.NameRef)
        ):
            yield node.target.name, key.args[0].name
    if isinstance(node, tuple):
        for item in node:
            yield from _table_counts(item)
    elif hasattr(node, "__slots__") and not isinstance(node, (str, Span)):
        for attr in node.__slots__:
            yield from _table_counts(getattr(node, attr))


def _check_table_coverage(
    rules: RuleSet, ctx: ConvertContext, mechanics: GameSchema, diags: Diagnostics
) -> None:
    """A table indexed by how many of a kind a player has must cover 1..(how many exist).

    `lookup(region_variety, count(regions_with_items), 0)`: `regions_with_items` is a list of
    regions, so the count runs up to the number of regions and every value needs a row.
    """
    reported: set[str] = set()
    for slot, _entry in ctx.expressions:
        for table_name, fact in _table_counts(slot.node):
            typ = mechanics.facts.get(fact, "")
            table = rules.get("table", table_name)
            if table is None or not typ.startswith("list:") or table_name in reported:
                continue
            kind = typ.split(":", 1)[1]
            size = len(rules.named(kind))
            missing = [n for n in range(1, size + 1) if n not in table.entries]
            if missing:
                reported.add(table_name)
                shown = ", ".join(map(str, missing))
                diags.error(
                    "E0240",
                    f"table {table_name} has no entry for {shown}",
                    table.entries.span,
                    f"it is indexed by the number of {kind}s a player has, so it must cover "
                    f"1..{size}",
                    concerns=[(kind, None, None)],
                    patch_hint=f"`override table {table_name} {{ {missing[0]}: … }}`: it must "
                    f"cover 1..{size}, the number of {kind}s",
                )


def _names_in(node: Any) -> Iterable[str]:
    if isinstance(node, s.NameRef):
        yield node.name
    elif isinstance(node, tuple):
        for item in node:
            yield from _names_in(item)
    elif hasattr(node, "__slots__") and not isinstance(node, (str, Span)):
        for attr in node.__slots__:
            yield from _names_in(getattr(node, attr))


def count_component(rules: RuleSet, mechanics: GameSchema, name: str) -> int | None:
    """How many of component `name` the rule set defines (None if it does not know `name`)."""
    if name in mechanics.counters:
        return mechanics.counters[name](rules)
    for kind_name, kind in rules.kinds.items():
        if name not in (kind_name, kind.key):
            continue
        value = rules.definitions.get(kind_name)
        if value is None:
            return 0
        if kind.named:
            return len(value)
        if isinstance(kind.body, Multiset):
            return sum(value.values())
    return None


def _counted_kinds(rules: RuleSet, name: str) -> list[str]:
    """The kinds of definition component `name` counts; a mechanics' counter may count
    anything, so for one every kind but `components` itself."""
    counted = [k for k, kind in rules.kinds.items() if name in (k, kind.key)]
    return counted or [k for k in rules.kinds if k != "components"]


def _check_components(
    rules: RuleSet, mechanics: GameSchema, diags: Diagnostics, broken: set[str]
) -> None:
    declared = rules.definitions.get("components")
    if not declared:
        return
    broken_keys = {kind.key for name, kind in rules.kinds.items() if name in broken} | broken
    for name, total in declared.items():
        if name in broken_keys:
            continue  # some of these definitions did not compile: their count means nothing
        try:
            actual = count_component(rules, mechanics, name)
        except (KeyError, AttributeError, TypeError):
            continue  # the definitions it counts are broken, and reported already
        if actual is None:
            known = list(mechanics.counters) + [
                k.key for k in rules.kinds.values() if k.named or isinstance(k.body, Multiset)
            ]
            diags.error(
                "E0220",
                f"unknown component '{name}'",
                declared.spans.get(name, declared.span),
                did_you_mean(name, known) or known_names_hint("components", known),
            )
        elif actual != total:
            diags.error(
                "E0250",
                f"components declares {total} {name}, but the rules define {actual}",
                declared.spans.get(name, declared.span),
                f"change the total to {actual}, or add or remove {name}",
                concerns=[(k, None, None) for k in _counted_kinds(rules, name)],
                patch_hint=f"`override components {{ {name}: {actual} }}`, or add or remove {name}",
            )


def _warn_unused_tables(rules: RuleSet, used: set[str], diags: Diagnostics) -> None:
    for table_name, record in rules.named("table").items():
        if table_name not in used:
            diags.warning(
                "W0301",
                f"table {table_name} is never used",
                record.span,
                "use it in a scoring expression, or remove it",
            )


def _warn_dead_conditions(rules: RuleSet, ctx: ConvertContext, diags: Diagnostics) -> None:
    """A `when` condition false for every round and player count can never apply."""
    game = rules.definitions.get("game")
    if not isinstance(game, Record):
        return
    low, high = game.players
    rounds = game.rounds
    combos = list(itertools.product(range(1, min(rounds, 200) + 1), range(low, high + 1)))
    for slot, _entry in ctx.expressions:
        if slot.scope != "condition" or slot.compiled is None:
            continue
        try:
            alive = any(
                slot.compiled({"round": r, "rounds": rounds, "players": p}) for r, p in combos
            )
        except ExpressionError:
            continue
        if not alive:
            diags.warning(
                "W0303",
                f"condition `{slot.source}` is false in every round for every player count",
                slot.node.span,
                f"the game has rounds 1..{rounds} and {low} to {high} players",
                concerns=[("game", None, "rounds"), ("game", None, "players")],
            )


def _warn_constant_categories(rules: RuleSet, mechanics: GameSchema, diags: Diagnostics) -> None:
    """A scoring category that reads no fact of the player is the same number for everyone: it
    never changes who wins (and if it is 0, it never scores)."""
    scoring = rules.definitions.get("scoring")
    if not isinstance(scoring, Record):
        return
    for name, slot in scoring.category.items():
        if slot.compiled is None or set(_names_in(slot.node)) & set(mechanics.facts):
            continue
        try:
            value = slot.compiled({})
        except (ExpressionError, KeyError, TypeError, ArithmeticError):
            continue  # an expression that fails without facts is reported where it runs
        never = "it never scores" if value == 0 else "it never changes who wins"
        diags.warning(
            "W0304",
            f"category {name} reads nothing of the player: it is {value} for everyone, so {never}",
            slot.node.span,
            "read a fact of the player (" + ", ".join(sorted(mechanics.facts)) + "), or remove it",
        )


def _warn_turnless_round(rules: RuleSet, diags: Diagnostics) -> None:
    """A round without a `turns` entry: nobody ever plays. (An `override round` gives the whole
    round, so leaving `turns` out of one is the likely cause.)"""
    steps = rules.definitions.get("round") or ()
    if steps and not any(step.kind == "turns" for step in steps):
        diags.warning(
            "W0306",
            "the round has no `turns` entry: no player ever takes a turn",
            steps[0].span,
            "an `override round { … }` gives the whole round, in order: list its `turns` too",
            concerns=[("round", None, None)],
        )


def _warn_dead_actions(rules: RuleSet, diags: Diagnostics) -> None:
    """An action with `limit 0`, or after one that can never be taken, is never offered."""
    for turn in rules.named("turn").values():
        actions = turn.action
        dead = {name for name, spec in actions.items() if spec.limit == 0}
        changed = True
        while changed:  # an action after a dead one is dead too
            more = {n for n, spec in actions.items() if n not in dead and set(spec.after) & dead}
            changed = bool(more)
            dead |= more
        for name in [n for n in actions if n in dead]:
            spec = actions[name]
            if spec.limit == 0:
                why, where = "its limit is 0", spec.spans.get("limit", spec.span)
            else:
                first = next(a for a in spec.after if a in dead)
                why, where = f"it comes after {first}, which can never be taken", spec.span
            diags.warning(
                "W0305",
                f"action {name} of turn {turn.name} can never be taken: {why}",
                where,
                "remove the action, or give it a limit above 0",
            )


__all__ = [
    "Graph",
    "StepSequence",
    "build_scope",
    "compile_rules",
    "count_component",
    "effective_entry",
    "schema_kinds",
]
