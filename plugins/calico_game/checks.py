"""Calico's own rule checks, run after the generic ones pass.

They catch rule files that compile but could not be played as written: a board whose edge
patches leave a hole in the outer ring or sit inside it, a design goal whose counts cannot
describe six neighbours, a shape cat whose hexes do not touch, a setup that puts more or fewer
patterns on the cats than there are, a bag too small for the game's draws, a scenario objective
that is not one of K-8.4's, a bag with no set count for a player count it is for (and a bag
made up for player counts the game does not allow), a discarding market that does not say
from which end.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from castell_dsl.language.diagnostics import Diagnostics, Span, did_you_mean
from castell_dsl.language.ruleset import Record, RuleSet

from . import hexes
from .schema import COUNTED_OBJECTIVES, OBJECTIVES

#: Neighbours of an inner hex: the six a design goal looks at (K-4.1). Geometry, not content.
HEX_SIDES = 6


def check_calico(rules: RuleSet, diags: Diagnostics) -> None:
    _check_letters(rules, diags)
    _check_quilt(rules, diags)
    _check_boards(rules, diags)
    _check_goals(rules, diags)
    _check_cats(rules, diags)
    _check_buttons(rules, diags)
    _check_bag(rules, diags)
    _check_setup(rules, diags)
    _check_draws(rules, diags)
    _check_scenario(rules, diags)
    if not diags.has_errors:
        _lint_cats(rules, diags)


def _lint_cats(rules: RuleSet, diags: Diagnostics) -> None:
    """W0281: when setup draws a cat from each dot group it lists (K-2.2), a cat of a dot group
    it never lists never comes into play (its points and shape are dead rules)."""
    setup = rules.one("setup")
    if setup.cats is not None:
        return  # the cats are chosen by name (a scenario, the beginner game): by design
    for name, cat in rules.named("cat").items():
        if cat.dots not in setup.cat_dots:
            diags.warning(
                "W0281",
                f"cat {name} is never drawn: setup draws cats with {_listed(setup.cat_dots)} "
                f"dots, and {name} has {cat.dots}",
                _span(cat, "dots"),
                "add its dot group to `cat_dots`, or remove the cat",
                concerns=[("setup", None, "cat_dots")],
            )


def _listed(numbers: Iterable[int]) -> str:
    return ", ".join(map(str, sorted(set(numbers))))


def _span(record: Record, name: str) -> Span:
    return record.spans.get(name, record.span)


def _check_letters(rules: RuleSet, diags: Diagnostics) -> None:
    for kind in ("colour", "pattern"):
        seen: dict[str, str] = {}
        for name, record in rules.named(kind).items():
            letter = record.letter
            if len(letter) != 1:
                diags.error(
                    "E0211",
                    f"{kind} {name} has letter '{letter}'; a letter is one character",
                    _span(record, "letter"),
                    "views draw every patch as a colour letter and a pattern letter",
                )
            elif letter in seen:
                diags.error(
                    "E0212",
                    f"{kind}s {seen[letter]} and {name} both use the letter '{letter}'",
                    _span(record, "letter"),
                    f"give each {kind} its own letter, or views cannot tell them apart",
                )
            seen.setdefault(letter, name)


def _inner_cells(quilt: Record) -> set[tuple[int, int]]:
    ring = hexes.ring_cells(quilt.columns, quilt.rows)
    every = {(c, r) for r in range(quilt.rows) for c in range(quilt.columns)}
    return every - ring


def _check_quilt(rules: RuleSet, diags: Diagnostics) -> None:
    quilt = rules.one("quilt")
    inner = _inner_cells(quilt)
    for col, row in quilt.goal_spaces:
        if (col, row) not in inner:
            diags.error(
                "E0211",
                f"goal space [{col}, {row}] is not an inner hex of the "
                f"{quilt.columns} x {quilt.rows} quilt",
                _span(quilt, "goal_spaces"),
                "a design goal needs six neighbours: put it off the outer ring (K-1.2)",
            )
    empty = len(inner) - len(set(map(tuple, quilt.goal_spaces)) & inner)
    rounds = rules.game.rounds
    if empty != rounds:
        diags.error(
            "E0250",
            f"the quilt has {empty} empty spaces, but the game has {rounds} rounds",
            _span(rules.game, "rounds"),
            f"one patch is placed per round until the quilt is full (K-3.4): rounds {empty}",
            concerns=[("quilt", None, None)],
            patch_hint=f"`override game {{ rounds {empty} }}`: one patch is placed per round "
            "until the quilt is full (K-3.4)",
        )


def _check_boards(rules: RuleSet, diags: Diagnostics) -> None:
    quilt = rules.one("quilt")
    ring = hexes.ring_cells(quilt.columns, quilt.rows)
    for name, board in rules.named("board").items():
        placed: dict[tuple[int, int], Record] = {}
        for edge in board.edge:
            cell = (edge.at[0], edge.at[1])
            if cell not in ring:
                diags.error(
                    "E0211",
                    f"board {name} has an edge patch at [{cell[0]}, {cell[1]}], which is not "
                    f"on the outer ring of the {quilt.columns} x {quilt.rows} quilt",
                    _span(edge, "at"),
                    "edge patches are pre-printed on the outer ring (K-1.2)",
                )
            elif cell in placed:
                diags.error(
                    "E0212",
                    f"board {name} has two edge patches at [{cell[0]}, {cell[1]}]",
                    _span(edge, "at"),
                    f"the first is at line {placed[cell].span.line}",
                )
            placed.setdefault(cell, edge)
        missing = sorted(ring - set(placed), key=lambda c: (c[1], c[0]))
        if missing:
            shown = ", ".join(f"[{c}, {r}]" for c, r in missing[:6])
            more = f" and {len(missing) - 6} more" if len(missing) > 6 else ""
            diags.error(
                "E0203",
                f"board {name} has no edge patch at {shown}{more}",
                board.span,
                "every hex of the outer ring holds a pre-printed patch (K-1.2)",
            )
    boards = len(rules.named("board"))
    most = rules.game.players[1]
    if boards < most:
        diags.error(
            "E0250",
            f"the game is for up to {most} players, but there are {boards} boards",
            _span(rules.game, "players"),
            "every player needs a quilt board",
            concerns=[("board", None, None)],
            patch_hint=f"every player needs a quilt board: keep {most} boards, or "
            f"`override game {{ players {rules.game.players[0]}..{boards} }}`",
        )


def _check_goals(rules: RuleSet, diags: Diagnostics) -> None:
    kinds = min(len(rules.named("colour")), len(rules.named("pattern")))
    for name, goal in rules.named("goal").items():
        total = sum(goal.counts)
        if total != HEX_SIDES:
            diags.error(
                "E0250",
                f"goal {name} counts {total} neighbours, but a hex has {HEX_SIDES}",
                _span(goal, "counts"),
                "the counts describe the six patches around the goal (K-4.2)",
            )
        if len(goal.counts) > kinds and rules.one("goal_rules").match == "exact":
            diags.error(
                "E0211",
                f"goal {name} needs {len(goal.counts)} different kinds, but there are only "
                f"{kinds} colours or patterns",
                _span(goal, "counts"),
            )
        if goal.both_ways < goal.one_way:
            diags.error(
                "E0211",
                f"goal {name} is worth less both ways ({goal.both_ways}) than one way "
                f"({goal.one_way})",
                _span(goal, "both_ways"),
                "meeting it both ways scores the higher value (K-4.1)",
            )


def _check_cats(rules: RuleSet, diags: Diagnostics) -> None:
    for name, cat in rules.named("cat").items():
        if cat.shape is not None and not hexes.is_connected(cat.shape):
            diags.error(
                "E0231",
                f"the shape of cat {name} is not one connected group of hexes",
                _span(cat, "shape"),
                "cells are [col, row] with odd rows shifted right; every hex must touch another",
            )


def _cats_in_play(rules: RuleSet) -> int:
    setup = rules.one("setup")
    return len(setup.cats) if setup.cats is not None else len(setup.cat_dots)


def _check_buttons(rules: RuleSet, diags: Diagnostics) -> None:
    colours = rules.named("colour")
    for name, button in rules.named("button").items():
        if button.group is not None and name not in colours:
            diags.error(
                "E0220",
                f"button {name} is earned by a group, but there is no colour {name}",
                button.span,
                did_you_mean(name, colours) or "a colour's button is named after the colour",
            )
    buttons = rules.named("button")
    for name, colour in colours.items():
        record = buttons.get(name)
        if record is None or record.group is None:
            diags.error(
                "E0203",
                f"colour {name} has no button",
                colour.span,
                f"add `button {name} {{ points 3  group 3 }}` (K-6.1)",
            )


def bag_player_counts(rules: RuleSet) -> range:
    """The player counts a game may start with: the game's, narrowed by the bag's `players`
    (K-8.2: the low-luck bag is for one or two players)."""
    low, high = rules.game.players
    bag = rules.one("bag")
    if bag.players is not None:
        low, high = max(low, bag.players[0]), min(high, bag.players[1])
    return range(low, high + 1)


def _check_bag(rules: RuleSet, diags: Diagnostics) -> None:
    """Every player count the bag is for says how many sets leave the box (K-8.2); a bag for
    player counts the game does not allow could never be played."""
    bag = rules.one("bag")
    game_low, game_high = rules.game.players
    counts = bag_player_counts(rules)
    if bag.players is not None and not counts:
        low, high = bag.players
        diags.error(
            "E0211",
            f"the bag is for {low} to {high} players, but the game is for {game_low} to "
            f"{game_high}",
            _span(bag, "players"),
            "no player count could start a game: make the two ranges overlap",
        )
        return
    missing = [n for n in counts if n not in bag.remove_sets]
    if missing:
        shown = ", ".join(map(str, missing))
        diags.error(
            "E0241",
            f"bag remove_sets has no entry for {shown} player{'s' if missing != [1] else ''}",
            _span(bag, "remove_sets"),
            f"add `{missing[0]}: 0`, or say which player counts the bag is for with "
            f"`players {counts.start}..{missing[0] - 1}`"
            if missing[0] > counts.start
            else f"add `{missing[0]}: 0`",
        )


def _check_setup(rules: RuleSet, diags: Diagnostics) -> None:
    setup = rules.one("setup")
    cat_rules = rules.one("cat_rules")
    patterns = len(rules.named("pattern"))
    in_play = _cats_in_play(rules)
    if in_play * cat_rules.patterns_per_cat != patterns:
        diags.error(
            "E0250",
            f"{in_play} cats with {cat_rules.patterns_per_cat} patterns each need "
            f"{in_play * cat_rules.patterns_per_cat} patterns, but there are {patterns}",
            _span(setup, "cats" if setup.cats is not None else "cat_dots"),
            "every pattern belongs to exactly one cat (K-2.3)",
        )
    if setup.cats is None:
        by_dots: dict[int, int] = {}
        for cat in rules.named("cat").values():
            by_dots[cat.dots] = by_dots.get(cat.dots, 0) + 1
        wanted: dict[int, int] = {}
        for dots in setup.cat_dots:
            wanted[dots] = wanted.get(dots, 0) + 1
        for dots, count in wanted.items():
            if by_dots.get(dots, 0) < count:
                diags.error(
                    "E0250",
                    f"setup draws {count} cat(s) with {dots} dot(s), but "
                    f"{by_dots.get(dots, 0)} cat(s) have {dots} dot(s)",
                    _span(setup, "cat_dots"),
                )
    spaces = len(rules.one("quilt").goal_spaces)
    goals = len(rules.named("goal"))
    if setup.goals is not None and len(setup.goals) != spaces:
        diags.error(
            "E0250",
            f"setup gives {len(setup.goals)} design goals for {spaces} goal spaces",
            _span(setup, "goals"),
            "each goal space holds one design goal",
        )
    if setup.goals is None and not spaces <= setup.reveal <= goals:
        diags.error(
            "E0211",
            f"setup reveals {setup.reveal} design goals; it must be from {spaces} (the goal "
            f"spaces) to {goals} (the goals)",
            _span(setup, "reveal"),
        )
    bag = rules.one("bag")
    for players, sets in bag.remove_sets.items():
        if sets >= bag.copies:
            diags.error(
                "E0211",
                f"with {players} player(s) the bag loses {sets} of its {bag.copies} sets",
                bag.remove_sets.spans.get(players, _span(bag, "remove_sets")),
                "at least one set must stay in the bag",
            )
    market = rules.one("market")
    for players, size in market.size.items():
        if market.discard_after_take >= size:
            diags.error(
                "E0211",
                f"the market discards {market.discard_after_take} patch(es) after each take, "
                f"but holds {size} with {players} player(s)",
                _span(market, "discard_after_take"),
                "a take leaves size - 1 patches; discard fewer than the market holds",
            )
    if market.discard_after_take and market.discard_from is None:
        diags.error(
            "E0203",
            f"the market discards {market.discard_after_take} patch(es) after each take, but "
            "does not say from which end",
            _span(market, "discard_after_take"),
            "add `discard_from farthest` (K-8.3: the patch farthest from the bag)",
        )


def _take_spec(rules: RuleSet) -> Any:
    for turn in rules.named("turn").values():
        spec = turn.action.get("take")
        if spec is not None:
            return spec
    return None


def _check_draws(rules: RuleSet, diags: Diagnostics) -> None:
    """The bag must hold every patch a game draws, for every player count."""
    bag = rules.one("bag")
    setup = rules.one("setup")
    market = rules.one("market")
    kinds = len(rules.named("colour")) * len(rules.named("pattern"))
    take = _take_spec(rules)
    rounds = rules.game.rounds
    takes_per_player = rounds if take is not None and take.take_when_full else rounds - 1
    if take is None:
        takes_per_player = 0
    for players in bag_player_counts(rules):
        if players not in bag.remove_sets or players not in setup.hand:
            continue  # reported as a player count without an entry
        if players not in market.size:
            continue
        have = (bag.copies - bag.remove_sets[players]) * kinds
        need = (
            players * setup.hand[players]
            + market.size[players]
            + players * takes_per_player * (1 + market.discard_after_take)
        )
        if need > have:
            diags.error(
                "E0250",
                f"with {players} player(s) a game draws {need} patches, but the bag holds {have}",
                _span(bag, "remove_sets"),
                "remove fewer sets for this player count, or allow fewer players",
            )


def _check_scenario(rules: RuleSet, diags: Diagnostics) -> None:
    if not rules.has("scenario"):
        return
    scenario = rules.one("scenario")
    spaces = len(rules.one("quilt").goal_spaces)
    for name, objective in scenario.objective.items():
        where = scenario.spans.get(f"objective {name}", scenario.span)
        if name not in OBJECTIVES:
            diags.error(
                "E0220",
                f"unknown scenario objective '{name}'",
                where,
                did_you_mean(name, OBJECTIVES) or "objectives: " + ", ".join(OBJECTIVES),
            )
            continue
        counted = name in COUNTED_OBJECTIVES
        if counted and objective.at_least is None:
            diags.error(
                "E0203",
                f"objective {name} needs `at_least N`",
                where,
                f"write `objective {name} {{ at_least 2 }}` (K-8.4)",
            )
        elif not counted and objective.at_least is not None:
            diags.error(
                "E0202",
                f"objective {name} takes no `at_least`",
                where,
                f"write `objective {name} {{}}`",
            )
        elif name in ("goals", "goals_both_ways") and objective.at_least > spaces:
            diags.error(
                "E0211",
                f"objective {name} asks for {objective.at_least} design goals, but a quilt "
                f"has {spaces} goal spaces",
                where,
            )
        if objective.plus is not None:
            _check_plus(scenario, name, objective, spaces, where, diags)


def _check_plus(
    scenario: Record, name: str, objective: Record, spaces: int, where: Span, diags: Diagnostics
) -> None:
    """`objective goals { at_least N  plus goals_both_ways }`: N goals beyond those the other
    objective asks for, so the other must be there and the sum must fit the quilt."""
    if name != "goals":
        diags.error(
            "E0202",
            f"objective {name} takes no `plus`",
            where,
            "only `goals` adds another objective's count: `objective goals { at_least 2  "
            "plus goals_both_ways }`",
        )
        return
    other = scenario.objective.get(objective.plus)
    if other is None or other.at_least is None:
        diags.error(
            "E0203",
            f"objective {name} adds the count of {objective.plus}, but the scenario has no "
            f"{objective.plus} objective",
            where,
            f"add `objective {objective.plus} {{ at_least 1 }}`, or drop `plus`",
        )
        return
    if objective.at_least is not None and objective.at_least + other.at_least > spaces:
        diags.error(
            "E0211",
            f"the scenario asks for {objective.at_least} design goals plus {other.at_least} "
            f"{objective.plus}, but a quilt has {spaces} goal spaces",
            where,
            "with `plus`, `goals` counts goals met beyond those the other objective asks for",
        )
