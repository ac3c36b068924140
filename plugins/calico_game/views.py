"""What front-ends see of a Calico game: JSON-ready public data, a terminal drawing of each
quilt, and the positional terms of the bot heuristic.

Everything on a Calico table is public (quilts, hands, market, cats, design goals), except
face-down goals in the family game (K-8.1), which show as face down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from castell_dsl.contract import ByWidth, GameContext

from .tables import EMPTY

if TYPE_CHECKING:
    from rich.text import Text

    from .tables import CalicoTables


def _patch(logic: CalicoTables, patch: int) -> dict[str, str]:
    return {
        "colour": logic.colours[logic.colour_of[patch]],
        "pattern": logic.patterns[logic.pattern_of[patch]],
    }


def _cat(logic: CalicoTables, g: dict, cat: int) -> dict[str, Any]:
    record = logic.rules.named("cat")[logic.cat_names[cat]]
    out: dict[str, Any] = {"name": record.name, "points": record.points, "dots": record.dots}
    if record.group is not None:
        out["group"] = record.group
    else:
        out["shape"] = [list(cell) for cell in record.shape]
    out["patterns"] = [logic.patterns[p] for p, c in enumerate(g["pattern_cat"]) if c == cat]
    return out


def _cells(logic: CalicoTables, g: dict, player: int) -> list[dict[str, Any]]:
    return [cell_view(logic, g, player, cell) for cell in range(len(g["quilts"][player]))]


def cell_view(logic: CalicoTables, g: dict, player: int, cell: int) -> dict[str, Any]:
    """One hex of a quilt: its place, and its patch, cat token and button, or its design goal
    (reads `quilts`, `tokens`, `buttons` at that cell and the seat's `goals`)."""
    value = g["quilts"][player][cell]
    col, row = logic.cell_xy[cell]
    item: dict[str, Any] = {"col": col, "row": row}
    if value >= 0:
        item.update(_patch(logic, value))
        item["edge"] = cell in logic.edge_cells
        token = g["tokens"][player][cell]
        button = g["buttons"][player][cell]
        item["cat"] = logic.cat_names[token] if token >= 0 else None
        item["button"] = logic.colours[button] if button >= 0 else None
    elif cell in logic.goal_cells:
        goals = g["goals"][player]
        space = logic.goal_cells.index(cell)
        item["goal_space"] = space + 1
        placed = space < len(goals)
        item["goal"] = (
            logic.goal_names[goals[space]] if placed and not logic.goals_face_down else None
        )
    return item


def public_view(
    logic: CalicoTables,
    game: GameContext,
    seats: list[dict[str, Any]] | None = None,
    *,
    cats: list[dict[str, Any]] | None = None,
    quilt: dict[str, Any] | None = None,
    market: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Quilts (every hex with colour and pattern), market, hands, cats with their patterns,
    design goals, buttons and cat tokens: names, not indices. `seats`, `cats` and `quilt` are
    those parts when the caller has them already (`encoding.tracked_view`, equal to what
    `seat_view`, `cats_view` and `quilt_view` build), and so is `market`."""
    g = game.state["g"]
    if seats is None:
        seats = [seat_view(logic, game, p) for p in range(game.players)]
    return {
        "quilt": quilt_view(logic) if quilt is None else quilt,
        "bag": sum(g["bag"]),
        "removed": sum(g["removed"]),
        "market": market_view(logic, g) if market is None else market,
        "cats": cats_view(logic, g) if cats is None else cats,
        "seats": seats,
    }


def quilt_view(logic: CalicoTables) -> dict[str, Any]:
    """The quilt's shape: columns, rows and the design-goal spaces (the rule set's)."""
    return {
        "columns": logic.columns,
        "rows": logic.rows,
        "goal_spaces": [list(logic.cell_xy[c]) for c in logic.goal_cells],
    }


def market_view(logic: CalicoTables, g: dict) -> list[dict[str, Any]]:
    """The market's patches, by slot."""
    return [{"slot": i + 1, **_patch(logic, x)} for i, x in enumerate(g["market"])]


def cats_view(logic: CalicoTables, g: dict) -> list[dict[str, Any]]:
    """The cats in play, each with the patterns it is on."""
    return [_cat(logic, g, c) for c in g["cats"]]


def seat_view(
    logic: CalicoTables, game: GameContext, p: int, cells: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """One seat's part of the public view: its board, hand, goals, quilt and what it scored
    (`cells`: the quilt's hexes when the caller has them, equal to `_cells`')."""
    g = game.state["g"]
    return {
        **seat_head(logic, g, p),
        "cells": _cells(logic, g, p) if cells is None else cells,
        **seat_scoring(logic, game, p),
    }


def seat_head(logic: CalicoTables, g: dict, p: int) -> dict[str, Any]:
    """A seat's board, hand and design goals: `seat_view`'s keys before the quilt (reads
    `boards`, `hands`, `goals` and `revealed` of the seat)."""
    board = g["boards"][p]
    choosing = logic.goals_chosen and not g["goals"][p]
    return {
        "seat": p,
        "board": logic.boards[board] if board >= 0 else None,
        "hand": hand_view(logic, g, p),
        "goals": [None if logic.goals_face_down else logic.goal_names[i] for i in g["goals"][p]],
        "goals_face_down": logic.goals_face_down,
        "revealed_goals": [logic.goal_names[i] for i in g["revealed"][p]] if choosing else [],
    }


def hand_view(logic: CalicoTables, g: dict, p: int) -> list[dict[str, str]]:
    """A seat's hand of patches."""
    return [_patch(logic, x) for x in g["hands"][p]]


def seat_scoring(logic: CalicoTables, game: GameContext, p: int) -> dict[str, Any]:
    """What a seat has scored so far: `seat_view`'s keys after the quilt (the mechanics'
    facts, which read the seat's `quilts`, `tokens`, `buttons`, `rainbows` and `goals`)."""
    facts = logic.facts(game, p)
    return {
        "cat_tokens": facts["cat_tokens"],
        "buttons": facts["buttons"],
        "goals_met": {
            "one_way": facts["goals_one_way"],
            "both_ways": facts["goals_both_ways"],
        },
    }


# ---- the terminal drawing -----------------------------------------------------------------------


def _patch_text(logic: CalicoTables, patch: int, token: bool = False, button: bool = False) -> Text:
    """A patch as four styled characters: cat-token mark, colour letter, pattern letter,
    button mark."""
    from rich.text import Text

    colour = logic.rules.named("colour")[logic.colours[logic.colour_of[patch]]]
    pattern = logic.rules.named("pattern")[logic.patterns[logic.pattern_of[patch]]]
    body = f"{'*' if token else ' '}{colour.letter}{pattern.letter}{'o' if button else ' '}"
    return Text(body, style=colour.style)


def quilt_text(logic: CalicoTables, g: dict, player: int) -> Text:
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


def _legend(logic: CalicoTables) -> Text:
    from rich.text import Text

    text = Text("colours ", style="dim")
    for name, colour in logic.rules.named("colour").items():
        text.append(f" {colour.letter} ", style=colour.style)
        text.append(f" {name}  ")
    text.append("\npatterns ", style="dim")
    text.append("  ".join(f"{p.letter} {name}" for name, p in logic.rules.named("pattern").items()))
    text.append("\n* cat token   o button   G1.. design goals   .. empty", style="dim")
    return text


#: Below this many columns the table is drawn compactly (an 80-column terminal).
WIDE = 100

#: What each scenario objective (K-8.4) counts, in words.
OBJECTIVE_WORDS = {
    "score": "score",
    "rainbow": "rainbow button",
    "each_cat": "a token of every cat",
    "cat_tokens": "cat tokens",
    "tokens_of_one_cat": "tokens of one cat",
    "buttons_of_one_colour": "buttons of one colour",
    "goals": "design goals met",
    "goals_both_ways": "design goals met both ways",
}


def scenario_lines(logic: CalicoTables, game: GameContext, player: int) -> Text | None:
    """The scenario's objectives (K-8.4) with the player's progress: `score 12/58`, met ones
    ticked; None when the game is not a scenario."""
    from rich.text import Text

    report = logic.report(game).get("scenario")
    if not report:
        return None
    mine = next(p for p in report["players"] if p["seat"] == player)
    text = Text(f"{report['title']} objectives: ", style="bold")
    for i, objective in enumerate(mine["objectives"]):
        words = OBJECTIVE_WORDS.get(objective["objective"], objective["objective"])
        if i:
            text.append(", ")
        mark = "✓ " if objective["met"] else ""
        text.append(
            f"{mark}{words} {objective['value']}/{objective['needed']}",
            style="green" if objective["met"] else "",
        )
    if mine["passed"]:
        text.append("  (all met)", style="bold green")
    return text


def render(logic: CalicoTables, game: GameContext, viewer: int | None) -> list[Any]:
    """The table as one renderable that lays itself out for the width it is given: every
    quilt in its panel on a wide screen; on 80 columns the cats, the market, the viewer's
    quilt beside its details and a line for each other seat."""
    return [
        ByWidth(
            WIDE,
            lambda: full_board(logic, game, viewer),
            lambda: compact_board(logic, game, viewer),
        )
    ]


def _head(logic: CalicoTables, game: GameContext, view: dict, compact: bool = False) -> Text:
    from rich.text import Text

    g = game.state["g"]
    head = Text(
        "" if compact else f"Round {game.state['round']}/{game.rounds}   bag {view['bag']}\n"
    )
    for cat in view["cats"]:
        want = f"group of {cat['group']}+" if "group" in cat else f"shape of {len(cat['shape'])}"
        head.append(f"{cat['name']}", style="bold")
        head.append(f" {cat['points']} pts, {want}: {', '.join(cat['patterns'])}\n")
    head.append("market (slot 1 farthest from the bag): ")
    for slot, patch in enumerate(g["market"], 1):
        head.append(f"{slot} ")
        head.append_text(_patch_text(logic, patch))
        head.append(" ")
    if compact:
        head.append(f"  bag {view['bag']}")
    return head


def _details(logic: CalicoTables, game: GameContext, p: int, info: dict) -> Text:
    """A seat's hand, design goals (met or not), cats, buttons and score now."""
    from rich.text import Text

    g = game.state["g"]
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
            shown = "to choose: " + ", ".join(info["revealed_goals"]) if i == 0 else "(see G1)"
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
    lines.append(f"\nbuttons: {', '.join(info['buttons']) or '-'}")
    lines.append(f"\nscore now: {game.score_of(p)}")
    return lines


def _title(game: GameContext, p: int, info: dict, viewer: int | None) -> str:
    you = " (you)" if viewer == p else ""
    turn = " <- to play" if game.current_player == p else ""
    return f"seat {p}{you}: {info['board']} board{turn}"


def full_board(logic: CalicoTables, game: GameContext, viewer: int | None) -> list[Any]:
    """Cats, market, then each player's quilt, hand, design goals, tokens and buttons (and
    the scenario's objectives), and a legend."""
    from rich.console import Group
    from rich.panel import Panel

    g = game.state["g"]
    view = public_view(logic, game)
    out: list[Any] = [_head(logic, game, view)]
    for p, info in enumerate(view["seats"]):
        parts: list[Any] = [quilt_text(logic, g, p), _details(logic, game, p, info)]
        objectives = scenario_lines(logic, game, p)
        if objectives is not None:
            parts.append(objectives)
        title = _title(game, p, info, viewer)
        out.append(Panel(Group(*parts), title=title, expand=False))
    out.append(_legend(logic))
    return out


def compact_board(logic: CalicoTables, game: GameContext, viewer: int | None) -> list[Any]:
    """For 80 columns: cats and market, the viewer's quilt (else the player to move) with its
    details beside it, the scenario's objectives, a line for every other seat, a short
    legend."""
    from rich.table import Table
    from rich.text import Text

    g = game.state["g"]
    view = public_view(logic, game)
    me = viewer if viewer is not None else game.current_player
    me = 0 if me is None else me
    out: list[Any] = [_head(logic, game, view, compact=True)]
    info = view["seats"][me]
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column()
    details = Text(_title(game, me, info, viewer) + "\n", style="bold")
    details.append_text(_details(logic, game, me, info))
    quilt = quilt_text(logic, g, me)
    quilt.rstrip()
    grid.add_row(quilt, details)
    out.append(grid)
    objectives = scenario_lines(logic, game, me)
    if objectives is not None:
        out.append(objectives)
    for p, other in enumerate(view["seats"]):
        if p == me:
            continue
        turn = " <- to play" if game.current_player == p else ""
        out.append(
            Text(
                f"seat {p}: {other['board']} board, score {game.score_of(p)}, cats "
                f"{', '.join(other['cat_tokens']) or '-'}, buttons "
                f"{', '.join(other['buttons']) or '-'}{turn} (board: every quilt)"
            )
        )
    letters = (
        " ".join(f"{c.letter}={name}" for name, c in logic.rules.named("colour").items())
        + "; "
        + " ".join(f"{p.letter}={name}" for name, p in logic.rules.named("pattern").items())
    )
    out.append(Text(letters + "; * cat o button", style="dim"))
    return out


# ---- heuristic ------------------------------------------------------------------------------


def progress(logic: CalicoTables, g: dict, player: int) -> float:
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
