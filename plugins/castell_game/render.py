"""Castell at the table, drawn for a terminal (rich): what a player sitting there sees.

The regions with their castellers, pawns, adjacency, local performance tiles and tokens; the
wheel (which tile each region and the shared slot can train this round); the festival calendar
with its size tokens; every player's team, skills, tokens, items per region, best tower score
and current tower drawn as a tower.
"""

from __future__ import annotations

from typing import Any

from castell_dsl.contract import ByWidth

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


#: Below this many columns the table is drawn compactly (an 80-column terminal): no adjacency
#: column but the viewer's own moves, upcoming festivals only, towers in notation.
WIDE = 100


def unique_abbreviations(titles: dict[str, str], shortest: int = 2) -> dict[str, str]:
    """Each skill's shortest prefix of its title (at least `shortest` letters) that no other
    title starts with: Balance and Base become `Bal` and `Bas`, Mix `Mi`. A title that is a
    prefix of another is shown in full."""
    out = {}
    lowered = {name: title.lower() for name, title in titles.items()}
    for name, title in titles.items():
        others = [t for n, t in lowered.items() if n != name]
        size = shortest
        while size < len(title) and any(t.startswith(title[:size].lower()) for t in others):
            size += 1
        out[name] = title[:size]
    return out


def skills_text(logic: Any, ranks: dict[str, int], full: bool = False) -> str:
    """A team's skill ranks: `Bal1 Bas2` (unique abbreviations) or `Balance 1, Base 2`."""
    if full:
        return ", ".join(f"{logic.titles[s]} {r}" for s, r in ranks.items() if r) or "-"
    short = unique_abbreviations(logic.titles)
    return " ".join(f"{short[s]}{r}" for s, r in ranks.items() if r) or "-"


def render(logic: Any, game: Any, viewer: int | None) -> list[Any]:
    """The table as one renderable that lays itself out for the width it is given: full
    tables on a wide screen, a compact view on 80 columns (the terminal's `board` shows the
    full tables whatever the terminal's size)."""
    return [
        ByWidth(
            WIDE,
            lambda: full_board(logic, game, viewer),
            lambda: compact_board(logic, game, viewer),
        )
    ]


def _wheel(logic: Any, game: Any, viewer: int | None, view: dict) -> Any:
    from rich.text import Text

    state = game.state["g"]
    trainable = set()
    if viewer is not None and viewer == game.current_player:
        trainable = set(logic.train.trainable(game, viewer))
    wheel = Text("Wheel: ")
    for sector, tile in view["wheel"].items():
        style = (
            "bold green" if tile in trainable and _sector_open(logic, state, viewer, sector) else ""
        )
        wheel.append(f"{sector}={tile}", style=style)
        wheel.append("  ")
    return wheel


def _calendar(game: Any, view: dict, upcoming_only: bool = False, most: int = 0) -> Any:
    from rich.text import Text

    calendar = Text("Festivals: ")
    spaces = [s for s in view["calendar"] if not upcoming_only or s["round"] >= game.round]
    shown = spaces[:most] if most else spaces
    for space in shown:
        here = space["round"] == game.round
        label = (
            f"R{space['round']} {space['region']} {space['back']} "
            f"[{','.join(map(str, space['size_tokens']))}]"
        )
        calendar.append(
            label, style="bold yellow" if here else ("dim" if space["round"] < game.round else "")
        )
        calendar.append("  ")
    if len(spaces) > len(shown):
        calendar.append(f"… {len(spaces) - len(shown)} more", style="dim")
    if not spaces:
        calendar.append("none left", style="dim")
    return calendar


def _items(t: dict) -> dict[str, list[str]]:
    items: dict[str, list[str]] = {}
    for number, region_name in t["size_tokens"]:
        items.setdefault(region_name, []).append(f"size {number}")
    for tile, region_name in t["performances"]:
        items.setdefault(region_name, []).append(tile)
    for region_name, count in t["collected"].items():
        items.setdefault(region_name, []).append(f"{count} token{'s' if count > 1 else ''}")
    if t["prizes"]:
        items.setdefault("prizes", []).extend(t["prizes"])
    return items


def full_board(logic: Any, game: Any, viewer: int | None) -> list[Any]:
    """Every table in full: regions with adjacency, the wheel, the whole calendar, players
    with their items and towers drawn."""
    from rich.table import Table

    view = game.logic.view(game)
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
    out.append(_wheel(logic, game, viewer, view))
    out.append(_calendar(game, view))

    players = Table(title="Players", title_justify="left")
    for column in ("seat", "pawn", "team", "skills", "tokens", "items", "best", "tower"):
        players.add_column(column)
    for t in view["teams"]:
        items = _items(t)
        seat = f"{t['seat']}" + (" ◀" if t["seat"] == game.current_player else "")
        players.add_row(
            seat,
            t["pawn"] or "-",
            _counts(t["team"]),
            skills_text(logic, t["ranks"], full=True),
            str(t["special_tokens"]),
            "\n".join(f"{k}: {', '.join(v)}" for k, v in items.items()) or "-",
            str(t["best_tower_score"]),
            "\n".join(draw_tower(t["tower"])) if t["tower"] else "-",
        )
    out.append(players)
    return out


def compact_board(logic: Any, game: Any, viewer: int | None) -> list[Any]:
    """The table for 80 columns: a line per region (with its wheel tile) and per player, the
    next festivals, the shared wheel slot and where the viewer's pawn can move."""
    from rich.table import Table
    from rich.text import Text

    view = game.logic.view(game)
    state = game.state["g"]
    trainable = set()
    if viewer is not None and viewer == game.current_player:
        trainable = set(logic.train.trainable(game, viewer))
    out: list[Any] = []
    regions = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold dim")
    for column in ("region", "castellers", "pawns", "wheel", "local performances", "tok"):
        regions.add_column(column, overflow="fold")
    names = {r["name"] for r in view["regions"]}
    for r in view["regions"]:
        tiles = " ".join(_tile_short(logic, x) for x in r["local_performances"]) or "-"
        tile = view["wheel"].get(r["name"], "")
        open_here = tile in trainable and _sector_open(logic, state, viewer, r["name"])
        regions.add_row(
            r["name"],
            _counts(r["castellers"]),
            " ".join(f"P{p}" for p in r["pawns"]),
            Text(str(tile or ""), style="bold green" if open_here else ""),
            tiles,
            str(r["special_tokens"] or ""),
        )
    out.append(regions)
    line = _calendar(game, view, upcoming_only=True, most=1)  # the wheel follows on its line
    line.append(" | ", style="dim")
    for sector, tile in view["wheel"].items():
        if sector not in names:
            open_here = tile in trainable and _sector_open(logic, state, viewer, sector)
            line.append(f"Wheel {sector.replace('_', ' ')}: ")
            line.append(str(tile), style="bold green" if open_here else "")
            line.append(". ")
    if viewer is not None:
        team = view["teams"][viewer]
        here = next((r for r in view["regions"] if r["name"] == team["pawn"]), None)
        if here is not None:
            line.append(f"From {here['name']} you can move to: {', '.join(here['adjacent'])}")
    out.append(line)
    players = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold dim")
    for column in ("seat", "team", "skills", "tok", "tower"):
        players.add_column(column, overflow="fold")
    for t in view["teams"]:
        seat = f"P{t['seat']}" + (" ◀" if t["seat"] == game.current_player else "")
        players.add_row(
            seat,
            _counts(t["team"]),
            skills_text(logic, t["ranks"]),
            str(t["special_tokens"]),
            _tower_short(t["tower"], mine=t["seat"] == viewer),
        )
    out.append(players)
    return out


def _tower_short(levels: Any, mine: bool) -> str:
    """The viewer's own tower in notation; another seat's as its height (board: in full)."""
    from .notation import format_levels

    if not levels:
        return "-"
    return format_levels(levels) if mine else f"{len(levels)} levels"


def _tile_short(logic: Any, name: str) -> str:
    """A tile in a few characters for 80 columns: `LP09 54321=7` (a shape's level widths, all
    single digits, run together) or `LP26 Mi+St=5` (an exhibition's skills); `board` shows it
    in full."""
    tile = logic.tiles[logic.tile_names.index(name)]
    if tile.shape is not None:
        joiner = "" if all(w < 10 for w in tile.shape) else "-"
        return f"{name} {joiner.join(map(str, tile.shape))}={tile.points}"
    short = unique_abbreviations(logic.titles)
    return f"{name} {'+'.join(short[s] for s in tile.exhibition)}={tile.points}"


def _sector_open(logic: Any, state: dict, viewer: int | None, sector: str) -> bool:
    if viewer is None:
        return False
    pawn = state["pawns"][viewer]
    if pawn < 0:
        return False
    index = logic.sectors.index(sector)
    return index == logic.sector_of_region[pawn] or index in logic.shared_sectors


def _not_now(game: Any, text: str) -> str | None:
    """Why the engine refuses `text` now (None: it is legal): a hint proposes legal moves only."""
    try:
        rejection = game.explain(text)
    except Exception as exc:  # an unreadable proposal is a refusal, never a crash of `hint`
        return str(exc)
    return None if rejection is None else rejection.message


def hints(logic: Any, game: Any, player: int) -> list[str]:
    """The solver's best festival tower for the player's next festival, and the local
    performances they can complete now (with the towers). Only moves the engine accepts now
    are proposed; anything left out says why (C-9.2 for festivals, C-4.7/C-4.9 for the
    special action)."""
    from .notation import format_levels

    state = game.state["g"]
    lines = []
    proposed = next_action(logic, game, player)
    if proposed is not None:
        lines.append(f"Next: {proposed[0]} — {proposed[1]}")
    pawn = state["pawns"][player]
    upcoming = [s for s in state["calendar"] if s[0] >= game.round]
    if upcoming:
        first_round = upcoming[0][0]
        for rnd, festival, numbers in (s for s in upcoming if s[0] == first_round):
            where_index = logic.festival_region[festival]
            where = logic.regions[where_index]
            sizes = ",".join(map(str, numbers))
            levels = logic.questions.best_tower_for(state, player, tuple(numbers))
            when = "this round" if rnd == game.round else f"round {rnd}"
            head = f"Festival in {where} ({when}, sizes {sizes})"
            if levels is None:
                lines.append(
                    f"{head}: left out, no tower of your team qualifies yet (it needs "
                    f"{logic.min_levels} levels and a casteller of every size)"
                )
                continue
            from . import towers

            score = towers.tower_score(levels, numbers, logic.tower_rules)
            text = f"tower {format_levels(levels)}"
            why = _not_now(game, text)
            best = f"scores {score} (your best is {state['best'][player]})"
            if why is None:
                lines.append(f"{head}: best {text} {best}")
            else:
                lines.append(f"{head}: best tower {format_levels(levels)} {best}; not now: {why}")
            if pawn != where_index:
                at = logic.regions[pawn] if pawn >= 0 else "not on the board"
                lines.append(
                    f"  you compete only with your pawn in {where} at the festival (C-9.2); "
                    f"your pawn is {'in ' + at if pawn >= 0 else at}"
                )
        later = [s for s in upcoming if s[0] != first_round]
        if later:
            names = ", ".join(
                f"R{rnd} {logic.regions[logic.festival_region[f]]}" for rnd, f, _n in later[:3]
            )
            more = f" and {len(later) - 3} more" if len(later) > 3 else ""
            lines.append(
                f"Later festivals ({names}{more}) are left out: the hint plans for the next "
                "festival round only; your team will change before them."
            )
    else:
        lines.append("No festival is left.")
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
            continue
        text = f"special perform {name} tower {format_levels(levels)}"
        why = _not_now(game, text)
        if why is None:
            lines.append(f"{tile_text(logic, name)}: {text}")
        else:
            lines.append(
                f"{tile_text(logic, name)}: your team can complete it "
                f"(tower {format_levels(levels)}), but not now: {why}"
            )
    if not state["lp"][pawn]:
        lines.append(f"No local performance is left in {logic.regions[pawn]}.")
    return lines


#: The kinds of action `next_action` weighs: the steps towards a festival (C-4).
PROPOSED_KINDS = ("move", "recruit", "train", "tower")


def next_action(logic: Any, game: Any, player: int) -> tuple[str, str] | None:
    """The next useful action for `player` and why, or None (not their turn, or nothing but
    ending the turn and specials). Each legal move, recruit, training and tower is tried on a
    copy and rated with the bots' evaluation (`heuristic`); the best one is proposed with a
    reason read from the table: the festival a region hosts or leads to, the festival sizes
    castellers match, the skill a training raises, what a tower scores."""
    if game.is_over() or game.current_player != player:
        return None
    best: tuple[float, Any] | None = None
    for action in game.legal_actions():
        if action.kind not in PROPOSED_KINDS:
            continue
        trial = game.clone()
        trial.apply(action)
        value = logic.heuristic(trial, player)
        if best is None or value > best[0]:
            best = (value, action)
    if best is None:
        return None
    action = best[1]
    return action.text, _reason(logic, game, player, action)


def _reason(logic: Any, game: Any, player: int, action: Any) -> str:
    """Why `next_action` proposes `action`, in words."""
    state = game.state["g"]
    festivals = [
        (rnd, logic.regions[logic.festival_region[f]], list(numbers))
        for rnd, f, numbers in state["calendar"]
        if rnd >= game.round
    ]
    sizes = sorted({n for _r, _w, numbers in festivals for n in numbers})
    words = action.text.split()
    if action.kind == "move":
        region = words[-1]
        here = [f for f in festivals if f[1] == region]
        if here:
            rnd, _where, numbers = here[0]
            return (
                f"{region} hosts the festival of round {rnd} (sizes "
                f"{', '.join(map(str, numbers))}): compete there with your pawn (C-9.2)"
            )
        index = logic.regions.index(region)
        near = [f for f in festivals if logic.regions.index(f[1]) in logic.adjacent[index]]
        if near:
            rnd, where, _numbers = near[0]
            return f"{region} is next to {where}, whose festival is in round {rnd}"
        wanted = [n for n in sizes if state["regions"][index][n - logic.low]]
        if wanted:
            return f"castellers of the festivals' sizes wait there: {', '.join(map(str, wanted))}"
        return "its castellers and local performances suit your team best"
    if action.kind == "recruit":
        numbers = [int(w) for w in words[1:]]
        matching = [n for n in numbers if n in sizes]
        if matching:
            rnd, where, _numbers = next(f for f in festivals if set(matching) & set(f[2]))
            return (
                f"size{'s' if len(matching) > 1 else ''} {', '.join(map(str, matching))} for the "
                f"festival in {where} "
                f"(round {rnd}): a qualifying tower needs a casteller of every size (C-9.2)"
            )
        team = sum(state["teams"][player]) + len(numbers)
        return f"a team of {team} builds taller towers"
    if action.kind == "train":
        skill = words[-1]
        if skill not in logic.titles:
            return "a trained Special tile gives a free special action (C-4.6)"
        rank = state["ranks"][player][logic.skill_index[skill]]
        return f"{logic.titles[skill]} {rank} → {rank + 1}: your towers may use it once more"
    if action.kind == "tower":
        return "it is your best tower for this round's festival"
    return "the bots' evaluation rates it best"


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
