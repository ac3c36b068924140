"""Castell at the table, drawn for a terminal (rich): what a player sitting there sees.

The regions with their castellers, pawns, adjacency, local performance tiles and tokens; the
wheel (which tile each region and the shared slot can train this round); the festival calendar
with its size tokens; every player's team, skills, tokens, items per region, best tower score
and current tower drawn as a tower.
"""

from __future__ import annotations

from typing import Any

from .notation import draw_tower


def _counts(counts: dict[str, int]) -> str:
    parts = []
    for number, n in sorted(counts.items(), key=lambda kv: int(kv[0])):
        parts.append(number if n == 1 else f"{n}x{number}")
    return " ".join(parts) if parts else "-"


def tile_text(logic: Any, name: str) -> str:
    tile = logic.tiles[logic.tile_names.index(name)]
    if tile.shape is not None:
        return f"{name} shape {'-'.join(map(str, tile.shape))} ({tile.points})"
    skills = "+".join(logic.titles[s] for s in tile.exhibition)
    return f"{name} {skills} x{tile.points} levels ({tile.points})"


def render(logic: Any, game: Any, viewer: int | None) -> list[Any]:
    from rich.table import Table
    from rich.text import Text

    view = game.logic.view(game)
    state = game.state["g"]
    out: list[Any] = []
    pawn_names = {p: f"P{p}" for p in range(game.players)}

    regions = Table(title="Regions", title_justify="left", expand=False)
    for column in ("region", "castellers", "pawns", "adjacent", "local performances", "tokens"):
        regions.add_column(column)
    for r in view["regions"]:
        regions.add_row(
            r["name"],
            _counts(r["castellers"]),
            " ".join(pawn_names[p] for p in r["pawns"]) or "",
            ", ".join(r["adjacent"]),
            "\n".join(tile_text(logic, t) for t in r["local_performances"]) or "-",
            str(r["special_tokens"] or ""),
        )
    out.append(regions)

    trainable = set()
    if viewer is not None and viewer == game.current_player:
        trainable = set(logic.actions["train"].trainable(game, viewer))
    wheel = Text("Wheel: ")
    for sector, tile in view["wheel"].items():
        style = (
            "bold green" if tile in trainable and _sector_open(logic, state, viewer, sector) else ""
        )
        wheel.append(f"{sector}={tile}", style=style)
        wheel.append("  ")
    out.append(wheel)

    calendar = Text("Festivals: ")
    for space in view["calendar"]:
        here = space["round"] == game.round
        label = (
            f"R{space['round']} {space['region']} {space['back']} "
            f"[{','.join(map(str, space['size_tokens']))}]"
        )
        calendar.append(
            label, style="bold yellow" if here else ("dim" if space["round"] < game.round else "")
        )
        calendar.append("  ")
    out.append(calendar)

    players = Table(title="Players", title_justify="left")
    for column in ("seat", "pawn", "team", "skills", "tokens", "items", "best", "tower"):
        players.add_column(column)
    for t in view["teams"]:
        skills = (
            " ".join(f"{logic.titles[s][:2]}{rank}" for s, rank in t["ranks"].items() if rank)
            or "-"
        )
        items: dict[str, list[str]] = {}
        for number, region_name in t["size_tokens"]:
            items.setdefault(region_name, []).append(f"size {number}")
        for tile, region_name in t["performances"]:
            items.setdefault(region_name, []).append(tile)
        for region_name, count in t["collected"].items():
            items.setdefault(region_name, []).append(f"{count} token{'s' if count > 1 else ''}")
        if t["prizes"]:
            items.setdefault("prizes", []).extend(t["prizes"])
        seat = f"{t['seat']}" + (" ◀" if t["seat"] == game.current_player else "")
        players.add_row(
            seat,
            t["pawn"] or "-",
            _counts(t["team"]),
            skills,
            str(t["special_tokens"]),
            "\n".join(f"{k}: {', '.join(v)}" for k, v in items.items()) or "-",
            str(t["best_tower_score"]),
            "\n".join(draw_tower(t["tower"])) if t["tower"] else "-",
        )
    out.append(players)
    return out


def _sector_open(logic: Any, state: dict, viewer: int | None, sector: str) -> bool:
    if viewer is None:
        return False
    pawn = state["pawns"][viewer]
    if pawn < 0:
        return False
    index = logic.sectors.index(sector)
    return index == logic.sector_of_region[pawn] or index in logic.shared_sectors


def hints(logic: Any, game: Any, player: int) -> list[str]:
    """The solver's best festival tower for the player's next festival, and the local
    performances they can complete now (with the towers)."""
    from .notation import format_levels

    state = game.state["g"]
    lines = []
    upcoming = [s for s in state["calendar"] if s[0] >= game.round]
    if upcoming:
        first_round = upcoming[0][0]
        for rnd, festival, numbers in (s for s in upcoming if s[0] == first_round):
            where = logic.regions[logic.festival_region[festival]]
            sizes = ",".join(map(str, numbers))
            levels = logic.questions.best_tower_for(state, player, tuple(numbers))
            when = "this round" if rnd == game.round else f"round {rnd}"
            if levels is None:
                lines.append(
                    f"Festival in {where} ({when}, sizes {sizes}): no tower of your team "
                    f"qualifies yet (it needs {logic.min_levels} levels and every size)"
                )
            else:
                from . import towers

                score = towers.tower_score(levels, numbers, logic.tower_rules)
                lines.append(
                    f"Festival in {where} ({when}, sizes {sizes}): best tower "
                    f"tower {format_levels(levels)} scores {score} (your best is "
                    f"{state['best'][player]})"
                )
    else:
        lines.append("No festival is left.")
    pawn = state["pawns"][player]
    if pawn < 0:
        lines.append(
            "Place your pawn first (move REGION), then you can recruit, train and perform."
        )
        return lines
    for tile in state["lp"][pawn]:
        levels = logic.questions.completing_tower(state, player, tile)
        name = logic.tile_names[tile]
        if levels is None:
            lines.append(f"{tile_text(logic, name)}: not possible with your team and skills yet")
        else:
            lines.append(
                f"{tile_text(logic, name)}: special perform {name} tower {format_levels(levels)}"
            )
    if not state["lp"][pawn]:
        lines.append(f"No local performance is left in {logic.regions[pawn]}.")
    return lines


def narrate(event: dict[str, Any]) -> list[Any]:
    """How Castell's own events read at the table: a festival's results, a tile performed."""
    kind = event["type"]
    if kind == "performance":
        return [
            f"  seat {event['player']} performs {event['tile']} in {event['region']} "
            f"({event['points']} points, {event['tokens_collected']} token(s) collected)"
        ]
    if kind != "festival":
        return []
    from rich.table import Table

    sizes = ",".join(map(str, event["sizes"]))
    if not event["scores"]:
        return [f"Festival in {event['region']} (sizes {sizes}): nobody competed"]
    table = Table(title=f"Festival in {event['region']} (sizes {sizes})", title_justify="left")
    for column in ("seat", "tower score", "prize", "size tokens"):
        table.add_column(column)
    for seat, score in sorted(event["scores"].items(), key=lambda kv: -kv[1]):
        tokens = [n for n, winner in event["size_tokens"].items() if str(winner) == seat]
        table.add_row(
            f"seat {seat}", str(score), event["prizes"].get(seat, "-"), ", ".join(tokens) or "-"
        )
    return [table]
