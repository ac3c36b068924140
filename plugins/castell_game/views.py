"""What a Castell position shows: the facts scoring reads per player (C-10) and the public
view front-ends draw, with names rather than the state's indices."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .items import regions_with_items
from .tables import Tables

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext


#: The per-player lists of the state `facts` reads (`g[name][player]`), and nothing else.
FACTS_READ = ("best", "size_tokens", "collected", "performed", "prizes", "tokens", "teams")


def facts_parts(g: dict, player: int) -> tuple:
    """The parts of the state `facts` reads for one player: equal parts, equal facts (and
    so an equal score), which lets the bots' evaluation memoise the score on them."""
    return tuple(g[name][player] for name in FACTS_READ)


def facts(t: Tables, game: GameContext, player: int) -> dict[str, Any]:
    """The values the rule file's scoring expressions read for one player (schema FACTS):
    read from `facts_parts` only."""
    g = game.state["g"]
    regions = regions_with_items(t, g, player)
    return {
        "best_tower_score": g["best"][player],
        "regions_with_items": [t.regions[r] for r in sorted(regions)],
        "prizes": [t.prize_names[p] for p in g["prizes"][player]],
        "size_tokens": [n for n, _r in g["size_tokens"][player]],
        "performances": [t.tile_names[x] for x, _r in g["performed"][player]],
        "collected_tokens": sum(g["collected"][player]),
        "special_tokens": g["tokens"][player],
        "team_size": sum(g["teams"][player]),
    }


def view(t: Tables, game: GameContext) -> dict[str, Any]:
    """Everything every player can see."""
    g = game.state["g"]
    return table_view(
        t,
        g,
        regions=[region_view(t, g, r) for r in range(len(t.regions))],
        calendar=calendar_view(t, g),
        teams=[team_view(t, g, p) for p in range(game.players)],
    )


def table_view(
    t: Tables,
    g: dict,
    regions: list[dict],
    calendar: list[dict],
    teams: list[dict],
    *,
    wheel: dict[str, str] | None = None,
    shared: list[str] | None = None,
) -> dict[str, Any]:
    """The view around its large parts, built by the functions below (or memoised by
    `encoding.tracked_view`)."""
    return {
        "regions": regions,
        "wheel": t.wheel_view(g) if wheel is None else wheel,
        "shared_sectors": [t.sectors[s] for s in t.shared_sectors] if shared is None else shared,
        "calendar": calendar,
        "bag": sum(g["bag"]),
        "teams": teams,
    }


def _counts(t: Tables, row: list[int]) -> dict[str, int]:
    return {str(t.low + i): c for i, c in enumerate(row) if c}


def region_view(t: Tables, g: dict, r: int) -> dict[str, Any]:
    """Region `r`: its castellers, pawns, local performance tiles and special tokens."""
    return {
        "name": t.regions[r],
        "adjacent": [t.regions[a] for a in t.adjacent[r]],
        "castellers": _counts(t, g["regions"][r]),
        "pawns": [p for p, at in enumerate(g["pawns"]) if at == r],
        "local_performances": [t.tile_names[x] for x in g["lp"][r]],
        "special_tokens": g["lp_tokens"][r],
    }


def calendar_view(t: Tables, g: dict) -> list[dict[str, Any]]:
    """The festivals still to come, by round."""
    return [
        {
            "round": rnd,
            "festival": t.festivals[f].name,
            "region": t.regions[t.festival_region[f]],
            "back": t.festivals[f].back,
            "size_tokens": list(numbers),
        }
        for rnd, f, numbers in g["calendar"]
    ]


def team_view(t: Tables, g: dict, p: int) -> dict[str, Any]:
    """Seat `p`'s team, pawn, ranks, tokens, tower and what it won."""
    return {
        "seat": p,
        "pawn": t.regions[g["pawns"][p]] if g["pawns"][p] >= 0 else None,
        "team": _counts(t, g["teams"][p]),
        "ranks": t._ranks(g, p),
        "special_tokens": g["tokens"][p],
        "tower": g["towers"][p],
        "best_tower_score": g["best"][p],
        "prizes": [t.prize_names[i] for i in g["prizes"][p]],
        "size_tokens": [[n, t.regions[r]] for n, r in g["size_tokens"][p]],
        "performances": [[t.tile_names[x], t.regions[r]] for x, r in g["performed"][p]],
        "collected": {t.regions[r]: c for r, c in enumerate(g["collected"][p]) if c},
    }
