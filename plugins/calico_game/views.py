"""What front-ends see of a Calico game: JSON-ready public data, a terminal drawing of each
quilt, and the positional terms of the bot heuristic.

Everything on a Calico table is public (quilts, hands, market, cats, design goals), except
face-down goals in the family game (K-8.1), which show as face down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from castell_dsl.contract import GameContext

from .logic import EMPTY

if TYPE_CHECKING:
    from rich.text import Text

    from .logic import CalicoLogic


def _patch(logic: CalicoLogic, patch: int) -> dict[str, str]:
    return {
        "colour": logic.colours[logic.colour_of[patch]],
        "pattern": logic.patterns[logic.pattern_of[patch]],
    }


def _cat(logic: CalicoLogic, g: dict, cat: int) -> dict[str, Any]:
    record = logic.rules.named("cat")[logic.cat_names[cat]]
    out: dict[str, Any] = {"name": record.name, "points": record.points, "dots": record.dots}
    if record.group is not None:
        out["group"] = record.group
    else:
        out["shape"] = [list(cell) for cell in record.shape]
    out["patterns"] = [logic.patterns[p] for p, c in enumerate(g["pattern_cat"]) if c == cat]
    return out


def _cells(logic: CalicoLogic, g: dict, player: int) -> list[dict[str, Any]]:
    quilt = g["quilts"][player]
    tokens = g["tokens"][player]
    buttons = g["buttons"][player]
    goals = g["goals"][player]
    out = []
    for cell, value in enumerate(quilt):
        col, row = logic.cell_xy[cell]
        item: dict[str, Any] = {"col": col, "row": row}
        if value >= 0:
            item.update(_patch(logic, value))
            item["edge"] = cell in logic.edge_cells
            item["cat"] = logic.cat_names[tokens[cell]] if tokens[cell] >= 0 else None
            item["button"] = logic.colours[buttons[cell]] if buttons[cell] >= 0 else None
        elif cell in logic.goal_cells:
            space = logic.goal_cells.index(cell)
            item["goal_space"] = space + 1
            placed = space < len(goals)
            item["goal"] = (
                logic.goal_names[goals[space]] if placed and not logic.goals_face_down else None
            )
        out.append(item)
    return out


def public_view(logic: CalicoLogic, game: GameContext) -> dict[str, Any]:
    """Quilts (every hex with colour and pattern), market, hands, cats with their patterns,
    design goals, buttons and cat tokens: names, not indices."""
    g = game.state["g"]
    facts = [logic.facts(game, p) for p in range(game.players)]
    players = []
    for p in range(game.players):
        board = g["boards"][p]
        choosing = logic.goals_chosen and not g["goals"][p]
        players.append(
            {
                "seat": p,
                "board": logic.boards[board] if board >= 0 else None,
                "hand": [_patch(logic, x) for x in g["hands"][p]],
                "goals": [
                    None if logic.goals_face_down else logic.goal_names[i] for i in g["goals"][p]
                ],
                "goals_face_down": logic.goals_face_down,
                "revealed_goals": [logic.goal_names[i] for i in g["revealed"][p]]
                if choosing
                else [],
                "cells": _cells(logic, g, p),
                "cat_tokens": facts[p]["cat_tokens"],
                "buttons": facts[p]["buttons"],
                "goals_met": {
                    "one_way": facts[p]["goals_one_way"],
                    "both_ways": facts[p]["goals_both_ways"],
                },
            }
        )
    return {
        "quilt": {
            "columns": logic.columns,
            "rows": logic.rows,
            "goal_spaces": [list(logic.cell_xy[c]) for c in logic.goal_cells],
        },
        "bag": sum(g["bag"]),
        "removed": sum(g["removed"]),
        "market": [{"slot": i + 1, **_patch(logic, x)} for i, x in enumerate(g["market"])],
        "cats": [_cat(logic, g, c) for c in g["cats"]],
        "seats": players,
    }


# ---- the terminal drawing -----------------------------------------------------------------------


def _patch_text(logic: CalicoLogic, patch: int, token: bool = False, button: bool = False) -> Text:
    """A patch as four styled characters: cat-token mark, colour letter, pattern letter,
    button mark."""
    from rich.text import Text

    colour = logic.rules.named("colour")[logic.colours[logic.colour_of[patch]]]
    pattern = logic.rules.named("pattern")[logic.patterns[logic.pattern_of[patch]]]
    body = f"{'*' if token else ' '}{colour.letter}{pattern.letter}{'o' if button else ' '}"
    return Text(body, style=colour.style)


def quilt_text(logic: CalicoLogic, g: dict, player: int) -> Text:
    """One quilt as rows of four-character hexes, odd rows indented by half a hex."""
    from rich.text import Text

    quilt = g["quilts"][player]
    tokens = g["tokens"][player]
    buttons = g["buttons"][player]
    text = Text("   " + "".join(f" {c:<3}" for c in range(logic.columns)) + "\n", style="dim")
    for row in range(logic.rows):
        text.append(f"{row:>2} ", style="dim")
        if row % 2:
            text.append("  ")
        for col in range(logic.columns):
            cell = row * logic.columns + col
            value = quilt[cell]
            if value >= 0:
                text.append_text(_patch_text(logic, value, tokens[cell] >= 0, buttons[cell] >= 0))
            elif cell in logic.goal_cells:
                text.append(f" G{logic.goal_cells.index(cell) + 1} ", style="bold reverse")
            else:
                text.append(" .. ", style="dim")
        text.append("\n")
    return text


def _legend(logic: CalicoLogic) -> Text:
    from rich.text import Text

    text = Text("colours ", style="dim")
    for name, colour in logic.rules.named("colour").items():
        text.append(f" {colour.letter} ", style=colour.style)
        text.append(f" {name}  ")
    text.append("\npatterns ", style="dim")
    text.append("  ".join(f"{p.letter} {name}" for name, p in logic.rules.named("pattern").items()))
    text.append("\n* cat token   o button   G1.. design goals   .. empty", style="dim")
    return text


def render(logic: CalicoLogic, game: GameContext, viewer: int | None) -> list[Any]:
    """Rich renderables for the terminal: cats, market, then each player's quilt, hand,
    design goals, tokens and buttons, and a legend."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    g = game.state["g"]
    view = public_view(logic, game)
    out: list[Any] = []
    head = Text(f"Round {game.state['round']}/{game.rounds}   bag {view['bag']}\n")
    for cat in view["cats"]:
        want = f"group of {cat['group']}+" if "group" in cat else f"shape of {len(cat['shape'])}"
        head.append(f"{cat['name']}", style="bold")
        head.append(f" {cat['points']} pts, {want}: {', '.join(cat['patterns'])}\n")
    head.append("market (slot 1 farthest from the bag): ")
    for slot, patch in enumerate(g["market"], 1):
        head.append(f"{slot} ")
        head.append_text(_patch_text(logic, patch))
        head.append(" ")
    out.append(head)
    for p, info in enumerate(view["seats"]):
        lines = Text("hand: ")
        for patch in g["hands"][p]:
            lines.append_text(_patch_text(logic, patch))
            lines.append(" ")
        for i, cell in enumerate(logic.goal_cells):
            col, row = logic.cell_xy[cell]
            name = info["goals"][i] if i < len(info["goals"]) else None
            if info["goals_face_down"] and i < len(info["goals"]):
                shown = "face down"
            elif name is None:
                shown = "to choose: " + ", ".join(info["revealed_goals"])
            else:
                title = logic.rules.named("goal")[name].title
                met = (
                    " (met both ways)"
                    if name in info["goals_met"]["both_ways"]
                    else " (met)"
                    if name in info["goals_met"]["one_way"]
                    else ""
                )
                shown = f"{title}{met}"
            lines.append(f"\nG{i + 1} at {col},{row}: {shown}")
        lines.append(f"\ncats: {', '.join(info['cat_tokens']) or '-'}")
        lines.append(f"   buttons: {', '.join(info['buttons']) or '-'}")
        lines.append(f"   score now: {game.score_of(p)}")
        you = " (you)" if viewer == p else ""
        turn = " <- to play" if game.current_player == p else ""
        title = f"seat {p}{you}: {info['board']} board{turn}"
        out.append(Panel(Group(quilt_text(logic, g, p), lines), title=title, expand=False))
    out.append(_legend(logic))
    return out


# ---- heuristic ------------------------------------------------------------------------------


def progress(logic: CalicoLogic, g: dict, player: int) -> float:
    """Half the points of buttons and group cats, in proportion to how far buttonless,
    tokenless groups with room to grow have come towards them."""
    quilt = g["quilts"][player]
    buttons = g["buttons"][player]
    tokens = g["tokens"][player]
    neighbours = logic.neighbours
    total = 0.0
    seen_colour: set[int] = set()
    seen_pattern: set[int] = set()
    for cell, value in enumerate(quilt):
        if value < 0:
            continue
        if cell not in seen_colour:
            group = logic.colour_group(quilt, cell)
            seen_colour.update(group)
            colour = logic.colour_of[value]
            need = logic.colour_threshold[colour]
            if (
                len(group) < need
                and not any(buttons[c] >= 0 for c in group)
                and any(quilt[n] == EMPTY for c in group for n in neighbours[c])
            ):
                points = logic.button_points[logic.colour_button[colour]]
                total += 0.5 * points * len(group) / need
        if cell not in seen_pattern:
            group = logic.pattern_group(quilt, cell)
            seen_pattern.update(group)
            cat = g["pattern_cat"][logic.pattern_of[value]]
            need = logic.cat_group[cat] if cat >= 0 else None
            if (
                need
                and len(group) < need
                and not any(tokens[c] >= 0 for c in group)
                and any(quilt[n] == EMPTY for c in group for n in neighbours[c])
            ):
                total += 0.5 * logic.cat_points[cat] * len(group) / need
    return total
