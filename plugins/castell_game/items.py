"""What Castell's rule coverage counts (`castell analyze`, `castell_dsl.contract.items`).

The items, by kind, in rule-file order: each local performance tile, skill, board skill
(wheel) tile, region, festival location tile, prize, size token number, and the three special
actions (C-4.7). What OPEN, TAKEN and COMPLETED mean for each (read at the end of each turn
of the player's, and at the end of the game):

| kind | open | taken | completed |
|---|---|---|---|
| local performance tile | dealt to a region's row | performed (C-8) | performed |
| skill | its tile faces the pawn, or rank > 0 | rank ≥ 1 | at its highest rank |
| wheel tile | faces the pawn's region's sector or a shared one (C-4.5) | trained | — |
| region | always | the pawn stood there | the player has items there (C-10.3) |
| festival | on this game's calendar | competed (C-9.2): its round, pawn there, tower fits | — |
| prize | in the prize chart for this player count | won | — |
| size token | a festival of the calendar offers that number | won | — |
| special action | the players start with tokens | taken (C-4.7) | — |
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from castell_dsl.contract import COMPLETED, OPEN, TAKEN, Action, Item

from . import towers

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext

    from .tables import Tables

SPECIAL_OPTIONS = ("recruit", "move", "perform")


class CastellItems:
    """The item table of one rule set, and the readings of a position against it."""

    def __init__(self, t: Tables):
        self.t = t
        items: list[Item] = []

        def kind(name: str, names: Iterable[str]) -> int:
            start = len(items)
            items.extend(Item(name, str(n)) for n in names)
            return start

        self.tile0 = kind("local performance tile", t.tile_names)
        self.skill0 = kind("skill", t.skills)
        self.wheel_names = list(dict.fromkeys(t.wheel_tiles))
        self.wheel0 = kind("wheel tile", self.wheel_names)
        self.region0 = kind("region", t.regions)
        self.festival0 = kind("festival", [f.name for f in t.festivals])
        self.prize0 = kind("prize", t.prize_names)
        self.numbers = sorted(set(t.size_token_pool))
        self.number0 = kind("size token", self.numbers)
        self.special0 = kind("special action", SPECIAL_OPTIONS)
        self.items = tuple(items)
        self.wheel_index = {name: self.wheel0 + i for i, name in enumerate(self.wheel_names)}
        self.number_index = {n: self.number0 + i for i, n in enumerate(self.numbers)}
        self._by_round: tuple[list, dict[int, list[tuple[int, list[int]]]]] | None = None
        #: Per wheel slot's tile: its wheel tile item and the skill it trains (or None).
        self.slot_items = [(self.wheel_index[n], t.skill_index.get(n)) for n in t.wheel_tiles]
        #: Per region: the sectors whose tiles face a pawn standing there (C-4.5).
        self.sectors_facing = {
            region: (sector, *t.shared_sectors) for region, sector in t.sector_of_region.items()
        }

    def marks(self, game: GameContext, player: int) -> list[tuple[int, int]]:
        """During the game only what can change from turn to turn is read (what faces the
        pawn, the pawn's region, a festival of this round); what is dealt at the start and
        only grows (the tiles in the rows, the calendar, ranks, prizes, size tokens, items
        held in regions) is read once, when the game is over: it was open from the start,
        or it is held at the end. Five marks a turn instead of seventy keep the analysis'
        cost to a fraction of the game's. (The tile facing a sector is `Tables.tile_at`,
        read here through the slot's precomputed items: this runs at every turn's end.)"""
        t = self.t
        g = game.state["g"]
        pawn = g["pawns"][player]
        out: list[tuple[int, int]] = []
        if pawn >= 0:
            ranks = g["ranks"][player]
            max_rank = t.max_rank
            slots = g["wheel"]
            turned = g["wheel_turns"]
            count = len(slots)
            slot_items = self.slot_items
            skill0 = self.skill0
            for sector in self.sectors_facing[pawn]:
                wheel_item, skill = slot_items[slots[(sector + turned) % count]]
                out.append((wheel_item, OPEN))
                if skill is not None and ranks[skill] < max_rank[skill]:
                    out.append((skill0 + skill, OPEN))
            out.append((self.region0 + pawn, OPEN | TAKEN))
            tower = g["towers"][player]
            if tower is not None:
                for festival, numbers in self._festivals(g["calendar"], game.state["round"]):
                    if pawn == t.festival_region[festival] and towers.meets_festival(
                        tower, numbers, t.min_levels
                    ):
                        out.append((self.festival0 + festival, OPEN | TAKEN))
        if game.is_over():
            out.extend(self._final(game, g, player))
        return out

    def _festivals(self, calendar: list, now: int) -> list[tuple[int, list[int]]]:
        """This round's festivals of a game's calendar, grouped by round once per game (the
        calendar is dealt at the start and never changes: the cache holds the list itself,
        so a later game's calendar is never taken for it)."""
        cached = self._by_round
        if cached is None or cached[0] is not calendar:
            by_round: dict[int, list[tuple[int, list[int]]]] = {}
            for rnd, festival, numbers in calendar:
                by_round.setdefault(rnd, []).append((festival, numbers))
            cached = self._by_round = (calendar, by_round)
        return cached[1].get(now, [])

    def _final(self, game: GameContext, g: dict, player: int) -> Iterator[tuple[int, int]]:
        """What the player holds at the end."""
        t = self.t
        for tile, _region in g["performed"][player]:
            yield self.tile0 + tile, OPEN | TAKEN | COMPLETED
        for skill, rank in enumerate(g["ranks"][player]):
            if rank:
                done = COMPLETED if rank >= t.max_rank[skill] else 0
                yield self.skill0 + skill, OPEN | TAKEN | done
        for region in regions_with_items(t, g, player):
            yield self.region0 + region, OPEN | COMPLETED
        for prize in g["prizes"][player]:
            yield self.prize0 + prize, OPEN | TAKEN
        for number, _region in g["size_tokens"][player]:
            yield self.number_index[number], OPEN | TAKEN

    def shared(self, game: GameContext) -> Iterator[tuple[int, int]]:
        """What was open to every player: the tiles dealt to the rows (still there, or
        performed by someone), every region, the calendar's festivals and size tokens, the
        prizes the chart pays for this player count, and the special actions when the
        players start with tokens."""
        t = self.t
        g = game.state["g"]
        for row in g["lp"]:
            for tile in row:
                yield self.tile0 + tile, OPEN
        for performed in g["performed"]:
            for tile, _region in performed:
                yield self.tile0 + tile, OPEN
        for region in range(len(t.regions)):
            yield self.region0 + region, OPEN
        for _rnd, festival, numbers in g["calendar"]:
            yield self.festival0 + festival, OPEN
            for number in numbers:
                yield self.number_index[number], OPEN
        for prize in t.prize_chart.get(game.players, ()):
            yield self.prize0 + prize, OPEN
        if t.start_tokens > 0:
            for i in range(len(SPECIAL_OPTIONS)):
                yield self.special0 + i, OPEN

    #: The kinds `taken_by` names items for.
    action_kinds = frozenset({"train", "special"})

    def taken_by(self, action: Action) -> tuple[int, ...]:
        kind = action.kind
        if kind == "train":
            index = self.wheel_index.get(action.args[0])
            return () if index is None else (index,)
        if kind == "special":
            return (self.special0 + SPECIAL_OPTIONS.index(action.args[0]),)
        return ()

    def lints(self) -> Iterator[tuple[int, str]]:
        """Tiles that no team can complete at the ranks players can reach: the whole bag as
        the team, the highest rank of every skill a wheel tile trains and 0 for the others
        (proved with the solver; an exhibition that needs an untrained skill without it).
        The rule set's own check (E0260) proves every tile completable when every skill
        reaches its highest rank, so only skills no tile trains can make one dead; that a
        skill is never trained is the rule set's warning W0265, shown beside these."""
        t = self.t
        untrainable = {s for s in t.skills if s not in t.wheel_tiles}
        if not untrainable:
            return
        for tile, reason in uncompletable_tiles(t, untrainable):
            yield self.tile0 + tile, reason


def regions_with_items(t: Tables, g: dict, player: int) -> set[int]:
    """The regions where the player holds items, as C-10.3 counts them (`region_items`)."""
    items = t.region_items
    regions: set[int] = set()
    if "size_tokens" in items:
        regions.update(region for _n, region in g["size_tokens"][player])
    if "collected_tokens" in items:
        regions.update(r for r, c in enumerate(g["collected"][player]) if c)
    if "performances" in items:
        regions.update(region for _t, region in g["performed"][player])
    return regions


def uncompletable_tiles(t: Tables, untrainable: set[str]) -> Iterator[tuple[int, str]]:
    """Tiles that no team can complete when the `untrainable` skills stay at rank 0."""
    from . import solver
    from .checks import PROOF_BUDGET, _proof_cost, _tile_ranks

    trules = t.tower_rules
    bag = t.rules.one("bag")
    team_counts = {n: count for n, count in bag.items() if count > 0}
    team_size = sum(team_counts.values())
    ranks = {
        name: 0 if name in untrainable else rank
        for name, rank in zip(t.skills, t.max_rank, strict=True)
    }
    for index, tile in enumerate(t.tiles):
        needs = set(tile.exhibition or ()) & untrainable
        if needs:
            yield index, f"its exhibition needs {', '.join(sorted(needs))}, which no tile trains"
            continue
        cap = sum(tile.shape) if tile.shape is not None else team_size
        counts = [min(team_counts.get(n, 0), cap) for n in trules.sizes]
        tile_ranks = _tile_ranks(trules, ranks, tile, team_size)
        if _proof_cost(counts, trules.sizes, trules.mix_spread, tile_ranks) > PROOF_BUDGET:
            continue  # too large to prove here: no lint rather than a guess
        team = [n for n, count in zip(trules.sizes, counts, strict=True) for _ in range(count)]
        if tile.shape is not None:
            found = solver.complete_shape(team, tile_ranks, trules, tile.shape)
        else:
            found = solver.complete_exhibition(
                team, tile_ranks, trules, tile.exhibition, tile.points
            )
        if found is None:
            skills = ", ".join(sorted(untrainable))
            verb = "stays" if len(untrainable) == 1 else "stay"
            yield index, f"no team can complete it while {skills} {verb} at rank 0 (solver)"
