"""Castell's automatic steps: what `step deal`, `refill`, `turn_wheel` and `festivals` in the
rule file do (C-3, C-6.5, C-7.1, C-9). The rule file says when they run; the engine runs them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import towers
from .tables import Tables, calendar_spaces
from .views import view

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext


def _draw(game: GameContext) -> int | None:
    """Draw one casteller from the bag (its size index), or None if the bag is empty."""
    return game.rng.draw(game.own("bag"))


def deal(t: Tables, game: GameContext) -> None:
    """C-3: fill the regions, place the wheel tiles, deal the calendar, the local
    performances and each player's castellers."""
    g = game.state["g"]
    rng = game.rng
    per_region = t.per_region[game.players]
    regions = game.own("regions")
    for region in range(len(t.regions)):
        for _ in range(per_region):
            i = _draw(game)
            if i is not None:
                regions[region][i] += 1
    if t.random_wheel:
        rng.shuffle(game.own("wheel"))
    # Calendar: tiles sorted by back, each group shuffled, dealt in calendar order (C-3.3).
    spaces = calendar_spaces(t.rules, game.players)
    by_back: dict[str, list[int]] = {}
    for i, tile in enumerate(t.festivals):
        by_back.setdefault(tile.back, []).append(i)
    for group in by_back.values():
        rng.shuffle(group)
    tokens = list(t.size_token_pool)
    rng.shuffle(tokens)
    calendar = []
    for space in spaces:
        festival = by_back[space.back].pop()
        numbers = [tokens.pop() for _ in range(space.size_tokens)]
        calendar.append([space.round, festival, numbers])
    g["calendar"] = calendar
    # Local performances: shuffle, two per region row, the rest back in the box (C-3.4).
    tiles = list(range(len(t.tiles)))
    rng.shuffle(tiles)
    lp = game.own("lp")
    for region in range(len(t.regions)):
        lp[region] = [tiles.pop() for _ in range(t.lp_per_region)]
    # Each player's team (C-3.5).
    teams = game.own("teams")
    for player in range(game.players):
        for _ in range(t.team_draw):
            i = _draw(game)
            if i is not None:
                teams[player][i] += 1
    if game.observed:
        game.emit({"type": "deal", "view": view(t, game)})


def refill(t: Tables, game: GameContext) -> None:
    """C-7.1: top each region up to its setup count, in the fixed order, while the bag lasts."""
    g = game.state["g"]
    target = t.per_region[game.players]
    drawn = []
    regions = game.own("regions")
    for region in t.refill_order:
        counts = regions[region]
        while sum(counts) < target:
            i = _draw(game)
            if i is None:
                break
            counts[i] += 1
            drawn.append([t.regions[region], t.low + i])
    if game.observed:
        game.emit({"type": "refill", "drawn": drawn, "bag": sum(g["bag"])})


def turn_wheel(t: Tables, game: GameContext) -> None:
    """C-6.5: the wheel turns one slot."""
    g = game.state["g"]
    g["wheel_turns"] = (g["wheel_turns"] + t.turn_step) % len(t.wheel_tiles)
    if game.observed:
        game.emit({"type": "wheel", "slots": t.wheel_view(g)})


def festivals(t: Tables, game: GameContext) -> None:
    """C-9: every festival of this round."""
    g = game.state["g"]
    for space_index, (rnd, festival, numbers) in enumerate(g["calendar"]):
        if rnd == game.state["round"]:
            run_festival(t, game, space_index, festival, numbers)


def run_festival(
    t: Tables, game: GameContext, space: int, festival: int, numbers: list[int]
) -> None:
    """C-9.2 … C-9.5: competitors, tower scores, best tower scores, prizes by the chart and
    size tokens."""
    g = game.state["g"]
    region = t.festival_region[festival]
    scores: dict[int, int] = {}
    for player in range(game.players):
        tower = g["towers"][player]
        if g["pawns"][player] != region or tower is None:
            continue
        if not towers.meets_festival(tower, numbers, t.min_levels):
            continue
        scores[player] = towers.tower_score(tower, numbers, t.tower_rules)
    improved = []
    for player, score in scores.items():
        if score > g["best"][player]:
            game.own("best")[player] = score
            improved.append(player)
    row = t.prize_chart[game.players]
    prizes = {}
    for player, place in places(t, scores).items():
        if place <= len(row):
            game.own("prizes", player).append(row[place - 1])
            prizes[player] = t.prize_names[row[place - 1]]
    contenders = token_contenders(t, game, region, numbers, scores)
    claimed = {}
    for number in numbers:
        counts = {
            p: sum(1 for level in g["towers"][p] for x in level if x == number) for p in contenders
        }
        winner = token_winner(t, counts, contenders)
        if winner is not None:
            game.own("size_tokens", winner).append([number, region])
            claimed[str(number)] = winner
    if game.observed:
        game.emit(
            {
                "type": "festival",
                "round": game.state["round"],
                "festival": t.festivals[festival].name,
                "region": t.regions[region],
                "sizes": list(numbers),
                "scores": {str(p): s for p, s in scores.items()},
                "prizes": {str(p): name for p, name in prizes.items()},
                "size_tokens": claimed,
                "best_improved": improved,
            }
        )


def places(t: Tables, scores: dict[int, int]) -> dict[int, int]:
    """Each competitor's place by tower score (C-9.4, `prize_ties`): tied players share a
    place; with `share_and_skip` a place is 1 + the number of strictly better scores (1, 1, 3),
    with `share_no_skip` 1 + the number of distinct better scores (1, 1, 2)."""
    if t.prize_ties == "share_no_skip":
        better = sorted(set(scores.values()), reverse=True)
        return {p: 1 + better.index(score) for p, score in scores.items()}
    return {p: 1 + sum(1 for s in scores.values() if s > score) for p, score in scores.items()}


def token_contenders(
    t: Tables, game: GameContext, region: int, numbers: list[int], scores: dict[int, int]
) -> dict[int, int]:
    """The players contesting a festival's size tokens, with their tower scores there (C-9.5,
    `size_token_contenders`): the competitors, or every player whose pawn is in the region
    with a tower, whether it qualifies or not."""
    if t.token_contenders == "competitors":
        return scores
    g = game.state["g"]
    return {
        p: towers.tower_score(g["towers"][p], numbers, t.tower_rules)
        for p in range(game.players)
        if g["pawns"][p] == region and g["towers"][p] is not None
    }


def token_winner(t: Tables, counts: dict[int, int], scores: dict[int, int]) -> int | None:
    """The contender who claims a size token: most matching castellers (at least one); on a
    tie the higher tower score at this festival (`size_token_tie higher_tower_score`); still
    tied, nobody (C-9.5)."""
    if not counts:
        return None
    most = max(counts.values())
    if most == 0:
        return None
    tied = [p for p, c in counts.items() if c == most]
    if len(tied) == 1:
        return tied[0]
    if t.token_tie != "higher_tower_score":
        return None
    top = max(scores[p] for p in tied)
    leaders = [p for p in tied if scores[p] == top]
    return leaders[0] if len(leaders) == 1 else None
