"""Castell's game logic: what its steps and actions mean (C-3 … C-10).

The engine runs the flow (rounds, steps, turns, limits, the free special action gained from
training); this module says what `deal`, `refill`, `turn_wheel` and `festivals` do, which
moves, recruits, trainings, special actions and towers are possible, why an action is refused,
and what each does. Every number comes from the rule set, precompiled here into index tables
once per rule set; the state (`state["g"]`) is a few flat lists of integers so that copying it
for search is cheap.

State layout (indices: regions, casteller sizes and skills in rule-file order):
    bag[size]                     castellers in the bag
    regions[region][size]         castellers on the board
    teams[player][size]           each player's team
    pawns[player]                 region index, or -1 before the first move
    ranks[player][skill]          skill ranks
    tokens[player]                special action tokens in hand
    lp_tokens[region]             special tokens lying on the local performance area
    collected[player][region]     tokens collected by performing there
    wheel[slot]                   board skill tile (index into the wheel's tiles) in each slot
    wheel_turns                   how far the wheel has turned
    lp[region]                    local performance tiles (indices) still in that row
    performed[player]             [tile, region] pairs taken
    calendar                      [round, festival, [size numbers]] per space in use
    towers[player]                current tower (levels bottom first) or None
    best[player]                  best tower score
    prizes[player]                prize indices won
    size_tokens[player]           [number, region] pairs won
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from castell_dsl.contract import Action, ActionSyntaxError, GameLogic, Rejection
from castell_dsl.language.ruleset import Record, RuleSet

from . import solver, towers
from .notation import NotationError, format_levels, parse_levels, parse_numbers
from .tables import calendar_spaces, tower_rules

#: Entries kept in each of the logic's memos before it starts afresh: enough for the positions
#: of many games, small enough that a long simulation's memory stays flat.
MEMO_SIZE = 8_000


class CastellLogic(GameLogic):
    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.tower_rules = tower_rules(rules)
        # Regions and the board.
        self.regions: list[str] = list(rules.named("region"))
        self.region_index = {name: i for i, name in enumerate(self.regions)}
        self.region_lower = {name.lower(): i for i, name in enumerate(self.regions)}
        self.adjacent: list[tuple[int, ...]] = [
            tuple(self.region_index[n] for n in r.adjacent) for r in rules.named("region").values()
        ]
        # Castellers.
        low, high = rules.one("tower").sizes
        self.low = low
        self.sizes = list(range(low, high + 1))
        bag = rules.one("bag")
        self.bag = [bag.get(n, 0) for n in self.sizes]
        setup = rules.one("setup")
        self.per_region = dict(setup.castellers_per_region)
        self.team_draw = setup.team
        self.start_tokens = setup.special_tokens
        self.lp_per_region = setup.performances_per_region
        self.refill_order = [self.region_index[n] for n in setup.refill_order]
        # Skills and the wheel.
        self.skills: list[str] = list(rules.named("skill"))
        self.skill_index = {name: i for i, name in enumerate(self.skills)}
        self.max_rank = [s.max_rank for s in rules.named("skill").values()]
        self.titles = {name: s.title for name, s in rules.named("skill").items()}
        wheel = rules.one("wheel")
        self.wheel_tiles: list[str] = list(wheel.tiles)
        self.sectors: list[str] = list(wheel.sectors)
        self.sector_of_region = {self.region_index[s]: i for i, s in enumerate(wheel.sectors)
                                 if s in self.region_index}  # fmt: skip
        self.shared_sectors = [i for i, s in enumerate(wheel.sectors) if s in wheel.shared_sectors]
        self.grants = dict(wheel.grants or {})
        self.random_wheel = wheel.placement == "random"
        self.turn_step = wheel.turn_step
        # Tiles, festivals, tokens, prizes.
        self.tiles: list[Record] = list(rules.named("performance").values())
        self.tile_names = [t.name for t in self.tiles]
        self.tile_index = {t.name.lower(): i for i, t in enumerate(self.tiles)}
        self.festivals: list[Record] = list(rules.named("festival").values())
        self.festival_region = [self.region_index[f.region] for f in self.festivals]
        self.size_token_pool = [n for n, count in rules.one("size_tokens").items()
                                for _ in range(count)]  # fmt: skip
        rules_block = rules.one("festival_rules")
        self.min_levels = rules_block.min_levels
        self.token_tie = rules_block.size_token_tie
        self.prize_names: list[str] = list(rules.named("prize"))
        self.prize_points = [p.points for p in rules.named("prize").values()]
        prize_index = {name: i for i, name in enumerate(self.prize_names)}
        self.prize_chart = {
            players: [prize_index[p] for p in row]
            for players, row in rules.one("prize_chart").items()
        }
        self._memo: dict[tuple, tuple | None] = {}
        # Actions that depend only on the rules are made once (the random bot lists them often).
        self._moves = [Action("move", (r,), f"move {name}") for r, name in enumerate(self.regions)]
        self._special_moves = [
            Action("special", ("move", r), f"special move {name}")
            for r, name in enumerate(self.regions)
        ]
        self._trains = {
            tile: Action("train", (tile,), f"train {tile}") for tile in {*self.skills, *self.grants}
        }
        self._recruit_cache: dict[tuple, list[Action]] = {}
        relaxes = {s.relaxes: i for i, s in enumerate(rules.named("skill").values())}
        self._rank_of = {rel: relaxes.get(rel) for rel in towers.RELAXATIONS}
        self.steps: dict[str, Callable[[Any], None]] = {
            "deal": self.deal,
            "refill": self.refill,
            "turn_wheel": self.turn_wheel,
            "festivals": self.festivals_step,
        }

    # ---- helpers ------------------------------------------------------------------------------
    def _ranks(self, g: dict, player: int) -> dict[str, int]:
        return dict(zip(self.skills, g["ranks"][player], strict=True))

    def _team_list(self, g: dict, player: int) -> list[int]:
        team = g["teams"][player]
        return [self.low + i for i, c in enumerate(team) for _ in range(c)]

    def _draw(self, game: Any) -> int | None:
        """Draw one casteller from the bag (its size index), or None if the bag is empty."""
        return game.rng.draw(game.state["g"]["bag"])

    def _names(self, counts: list[int]) -> str:
        present = [str(self.low + i) for i, c in enumerate(counts) for _ in range(c)]
        return ", ".join(present) if present else "none"

    # ---- setup and round steps ----------------------------------------------------------------
    def initial_state(self, game: Any) -> dict[str, Any]:
        n = game.players
        nsizes, nregions = len(self.sizes), len(self.regions)
        return {
            "bag": list(self.bag),
            "regions": [[0] * nsizes for _ in range(nregions)],
            "teams": [[0] * nsizes for _ in range(n)],
            "pawns": [-1] * n,
            "ranks": [[0] * len(self.skills) for _ in range(n)],
            "tokens": [self.start_tokens] * n,
            "lp_tokens": [0] * nregions,
            "collected": [[0] * nregions for _ in range(n)],
            "wheel": list(range(len(self.wheel_tiles))),
            "wheel_turns": 0,
            "lp": [[] for _ in range(nregions)],
            "performed": [[] for _ in range(n)],
            "calendar": [],
            "towers": [None] * n,
            "best": [0] * n,
            "prizes": [[] for _ in range(n)],
            "size_tokens": [[] for _ in range(n)],
        }

    def deal(self, game: Any) -> None:
        """C-3: fill the regions, place the wheel tiles, deal the calendar, the local
        performances and each player's castellers."""
        g = game.state["g"]
        rng = game.rng
        per_region = self.per_region[game.players]
        for region in range(len(self.regions)):
            for _ in range(per_region):
                i = self._draw(game)
                if i is not None:
                    g["regions"][region][i] += 1
        if self.random_wheel:
            rng.shuffle(g["wheel"])
        # Calendar: tiles sorted by back, each group shuffled, dealt in calendar order (C-3.3).
        spaces = calendar_spaces(self.rules, game.players)
        by_back: dict[str, list[int]] = {}
        for i, festival in enumerate(self.festivals):
            by_back.setdefault(festival.back, []).append(i)
        for group in by_back.values():
            rng.shuffle(group)
        tokens = list(self.size_token_pool)
        rng.shuffle(tokens)
        calendar = []
        for space in spaces:
            festival = by_back[space.back].pop()
            numbers = [tokens.pop() for _ in range(space.size_tokens)]
            calendar.append([space.round, festival, numbers])
        g["calendar"] = calendar
        # Local performances: shuffle, two per region row, the rest back in the box (C-3.4).
        tiles = list(range(len(self.tiles)))
        rng.shuffle(tiles)
        for region in range(len(self.regions)):
            g["lp"][region] = [tiles.pop() for _ in range(self.lp_per_region)]
        # Each player's team (C-3.5).
        for player in range(game.players):
            for _ in range(self.team_draw):
                i = self._draw(game)
                if i is not None:
                    g["teams"][player][i] += 1
        if game.observed:
            game.emit({"type": "deal", "view": self.view(game)})

    def refill(self, game: Any) -> None:
        """C-7.1: top each region up to its setup count, in the fixed order, while the bag
        lasts."""
        g = game.state["g"]
        target = self.per_region[game.players]
        drawn = []
        for region in self.refill_order:
            counts = g["regions"][region]
            while sum(counts) < target:
                i = self._draw(game)
                if i is None:
                    break
                counts[i] += 1
                drawn.append([self.regions[region], self.low + i])
        if game.observed:
            game.emit({"type": "refill", "drawn": drawn, "bag": sum(g["bag"])})

    def turn_wheel(self, game: Any) -> None:
        """C-6.5: the wheel turns one slot."""
        g = game.state["g"]
        g["wheel_turns"] = (g["wheel_turns"] + self.turn_step) % len(self.wheel_tiles)
        if game.observed:
            game.emit({"type": "wheel", "slots": self.wheel_view(g)})

    def tile_at(self, g: dict, sector: int) -> str:
        """The board skill tile facing `sector` (C-6.5: sector i faces tile (i + r) mod n)."""
        slots = g["wheel"]
        return self.wheel_tiles[slots[(sector + g["wheel_turns"]) % len(slots)]]

    def wheel_view(self, g: dict) -> dict[str, str]:
        return {self.sectors[i]: self.tile_at(g, i) for i in range(len(self.sectors))}

    def festivals_step(self, game: Any) -> None:
        """C-9: every festival of this round: competitors, tower scores, best tower scores,
        prizes by the chart (ties share a place; the next place is skipped) and size tokens."""
        g = game.state["g"]
        for space_index, (rnd, festival, numbers) in enumerate(g["calendar"]):
            if rnd == game.state["round"]:
                self.run_festival(game, space_index, festival, numbers)

    def run_festival(self, game: Any, space: int, festival: int, numbers: list[int]) -> None:
        g = game.state["g"]
        region = self.festival_region[festival]
        scores: dict[int, int] = {}
        for player in range(game.players):
            tower = g["towers"][player]
            if g["pawns"][player] != region or tower is None:
                continue
            if not towers.meets_festival(tower, numbers, self.min_levels):
                continue
            scores[player] = towers.tower_score(tower, numbers, self.tower_rules)
        improved = []
        for player, score in scores.items():
            if score > g["best"][player]:
                g["best"][player] = score
                improved.append(player)
        # Prizes (C-9.4): a place is 1 + the number of strictly better scores.
        row = self.prize_chart[game.players]
        prizes = {}
        for player, score in scores.items():
            place = 1 + sum(1 for s in scores.values() if s > score)
            if place <= len(row):
                g["prizes"][player].append(row[place - 1])
                prizes[player] = self.prize_names[row[place - 1]]
        # Size tokens (C-9.5).
        claimed = {}
        for number in numbers:
            counts = {
                p: sum(1 for level in g["towers"][p] for x in level if x == number) for p in scores
            }
            winner = self.token_winner(counts, scores)
            if winner is not None:
                g["size_tokens"][winner].append([number, region])
                claimed[str(number)] = winner
        if game.observed:
            game.emit(
                {
                    "type": "festival",
                    "round": game.state["round"],
                    "festival": self.festivals[festival].name,
                    "region": self.regions[region],
                    "sizes": list(numbers),
                    "scores": {str(p): s for p, s in scores.items()},
                    "prizes": {str(p): name for p, name in prizes.items()},
                    "size_tokens": claimed,
                    "best_improved": improved,
                }
            )

    def token_winner(self, counts: dict[int, int], scores: dict[int, int]) -> int | None:
        """The player who claims a size token: most matching castellers; on a tie the higher
        tower score at this festival; still tied, nobody (C-9.5, `size_token_tie`)."""
        if not counts:
            return None
        most = max(counts.values())
        if most == 0:
            return None
        tied = [p for p, c in counts.items() if c == most]
        if len(tied) == 1:
            return tied[0]
        if self.token_tie != "higher_tower_score":
            return None
        top = max(scores[p] for p in tied)
        leaders = [p for p in tied if scores[p] == top]
        return leaders[0] if len(leaders) == 1 else None

    # ---- actions: parsing ---------------------------------------------------------------------
    def parse(self, kind: str, text: str) -> Action:
        text = text.strip()
        try:
            if kind == "move":
                return self._move_action(self._region(text))
            if kind == "recruit":
                return self._recruit_action(parse_numbers(text))
            if kind == "train":
                return self._train_action(self._tile_name(text))
            if kind == "tower":
                return self._tower_action(parse_levels(text))
            if kind == "special":
                return self._parse_special(text)
        except NotationError as exc:
            raise ActionSyntaxError(f"{kind}: {exc}") from None
        raise ActionSyntaxError(f"unknown action '{kind}'")

    def _parse_special(self, text: str) -> Action:
        words = text.split(None, 1)
        option = words[0].lower() if words else ""
        rest = words[1] if len(words) > 1 else ""
        if option == "recruit":
            return self._special_recruit(parse_numbers(rest))
        if option == "move":
            return self._special_move(self._region(rest))
        if option == "perform":
            parts = rest.split(None, 2)
            if len(parts) != 3 or parts[1].lower() != "tower":
                raise ActionSyntaxError(
                    "write `special perform TILE tower LEVELS`, e.g. "
                    "`special perform LP07 tower 5,5,5/4,4/3/2`"
                )
            tile = self.tile_index.get(parts[0].lower())
            if tile is None:
                raise ActionSyntaxError(f"there is no local performance tile '{parts[0]}'")
            return self._perform_action(tile, parse_levels(parts[2]))
        raise ActionSyntaxError(
            "special takes one of: `special recruit N`, `special move REGION`, "
            "`special perform TILE tower LEVELS`"
        )

    def _region(self, text: str) -> int:
        region = self.region_lower.get(text.strip().lower())
        if region is None:
            from castell_dsl.language.diagnostics import did_you_mean

            hint = did_you_mean(text.strip(), self.regions)
            raise ActionSyntaxError(
                f"'{text.strip()}' is not a region"
                + (f"; {hint}" if hint else f" (regions: {', '.join(self.regions)})")
            )
        return region

    def _tile_name(self, text: str) -> str:
        name = text.strip().lower()
        names = set(self.skills) | set(self.grants)
        if name not in names:
            raise ActionSyntaxError(
                f"'{text.strip()}' is not a skill; train one of: {', '.join(sorted(names))}"
            )
        return name

    # ---- actions: construction (canonical text) -----------------------------------------------
    def _move_action(self, region: int) -> Action:
        return self._moves[region]

    def _recruit_action(self, numbers: tuple[int, ...]) -> Action:
        numbers = tuple(sorted(numbers))
        return Action("recruit", numbers, "recruit " + " ".join(map(str, numbers)))

    def _train_action(self, tile: str) -> Action:
        return self._trains[tile]

    def _tower_action(self, levels: tuple) -> Action:
        return Action("tower", (levels,), f"tower {format_levels(levels)}")

    def _special_recruit(self, numbers: tuple[int, ...]) -> Action:
        numbers = tuple(sorted(numbers))
        return Action(
            "special", ("recruit", numbers), "special recruit " + " ".join(map(str, numbers))
        )

    def _special_move(self, region: int) -> Action:
        return self._special_moves[region]

    def _perform_action(self, tile: int, levels: tuple) -> Action:
        return Action(
            "special",
            ("perform", tile, levels),
            f"special perform {self.tile_names[tile]} tower {format_levels(levels)}",
        )

    # ---- actions: options ---------------------------------------------------------------------
    def options(self, game: Any, player: int, kind: str, spec: Record) -> list[Action]:
        g = game.state["g"]
        if kind == "move":
            pawn = g["pawns"][player]
            targets = range(len(self.regions)) if pawn < 0 else self.adjacent[pawn]
            return [self._move_action(r) for r in targets]
        if kind == "recruit":
            pawn = g["pawns"][player]
            if pawn < 0:
                return []
            return self._recruit_options(g["regions"][pawn], spec.up_to, special=False)
        if kind == "train":
            return [self._train_action(t) for t in self.trainable(game, player)]
        if kind == "special":
            return self._special_options(game, player, spec)
        if kind == "tower":
            return self._tower_options(game, player)
        return []

    def _recruit_options(self, counts: list[int], up_to: int, special: bool) -> list[Action]:
        """Recruit actions for a region's castellers, made once per (contents, limit)."""
        key = (tuple(counts), up_to, special)
        found = self._recruit_cache.get(key)
        if found is None:
            make = self._special_recruit if special else self._recruit_action
            found = [make(c) for c in self._combos(counts, up_to)]
            if len(self._recruit_cache) > MEMO_SIZE:
                self._recruit_cache.clear()
            self._recruit_cache[key] = found
        return list(found)

    def _combos(self, counts: list[int], up_to: int) -> list[tuple[int, ...]]:
        """Every multiset of 1..up_to castellers that `counts` can supply (sizes ascending)."""
        out: list[tuple[int, ...]] = []

        def extend(start: int, chosen: list[int], left: list[int]) -> None:
            if chosen:
                out.append(tuple(chosen))
            if len(chosen) == up_to:
                return
            for i in range(start, len(left)):
                if left[i]:
                    left[i] -= 1
                    chosen.append(self.low + i)
                    extend(i, chosen, left)
                    chosen.pop()
                    left[i] += 1

        extend(0, [], list(counts))
        return out

    def trainable(self, game: Any, player: int) -> list[str]:
        """The tiles the player may train now (C-4.5): their pawn's region's slot and the
        shared (All Regions) slots, as narrowed by plugins; skills at their highest rank and
        duplicates left out."""
        g = game.state["g"]
        pawn = g["pawns"][player]
        if pawn < 0:
            return []
        sectors = [self.sector_of_region[pawn], *self.shared_sectors]
        names = [self.sectors[s] for s in sectors]
        game.adjust_choices(player, "train", names)
        out = []
        for name in names:
            tile = self.tile_at(g, self.sectors.index(name))
            if tile in out:
                continue
            if tile in self.grants:
                out.append(tile)
                continue
            skill = self.skill_index[tile]
            if g["ranks"][player][skill] < self.max_rank[skill]:
                out.append(tile)
        return out

    def _special_options(self, game: Any, player: int, spec: Record) -> list[Action]:
        g = game.state["g"]
        if not game.granted and g["tokens"][player] <= 0:
            return []
        pawn = g["pawns"][player]
        out: list[Action] = []
        if pawn >= 0:
            out.extend(self._recruit_options(g["regions"][pawn], spec.recruit_up_to, special=True))
        if spec.move_to == "any" or pawn < 0:
            targets = [r for r in range(len(self.regions)) if r != pawn]
        else:
            targets = list(self.adjacent[pawn])
        out.extend(self._special_move(r) for r in targets)
        if pawn >= 0:
            for tile in g["lp"][pawn]:
                levels = self.completing_tower(g, player, tile)
                if levels is not None:
                    out.append(self._perform_action(tile, levels))
        return out

    def _solve(self, g: dict, player: int, query: tuple) -> tuple | None:
        """Ask the solver, memoised on (team counts, ranks, query): bots ask the same
        question many times while a player's team and ranks stay the same."""
        key = (tuple(g["teams"][player]), tuple(g["ranks"][player]), query)
        memo = self._memo
        if key in memo:
            return memo[key]
        team = self._team_list(g, player)
        ranks = self._ranks(g, player)
        kind = query[0]
        if kind == "festival":
            sol = solver.best_festival_tower(team, ranks, self.tower_rules, query[1], query[2])
        elif kind == "shape":
            sol = solver.complete_shape(team, ranks, self.tower_rules, query[1])
        else:
            sol = solver.complete_exhibition(team, ranks, self.tower_rules, query[1], query[2])
        levels = None if sol is None else sol.levels
        if len(memo) > MEMO_SIZE:
            memo.clear()
        memo[key] = levels
        return levels

    def completing_tower(self, g: dict, player: int, tile: int) -> tuple | None:
        """A tower completing local performance `tile` for the player (C-8.3, C-8.4)."""
        record = self.tiles[tile]
        if record.shape is not None:
            if sum(record.shape) > sum(g["teams"][player]) or not self._shape_possible(
                g, player, record.shape
            ):
                return None
            return self._solve(g, player, ("shape", tuple(record.shape)))
        ranks = g["ranks"][player]
        if any(ranks[self.skill_index[s]] == 0 for s in record.exhibition):
            return None  # an exhibition uses every listed skill (C-8.4): rank 0 cannot
        if record.points > self._max_levels(g, player):
            return None
        return self._solve(g, player, ("exhibition", tuple(record.exhibition), record.points))

    def best_tower_for(self, g: dict, player: int, numbers: tuple[int, ...]) -> tuple | None:
        """The solver's best tower for a festival with these size numbers (C-9.2, C-9.3)."""
        team = g["teams"][player]
        if self.min_levels > self._max_levels(g, player) or any(
            not 0 <= n - self.low < len(team) or not team[n - self.low] for n in numbers
        ):
            return None  # fewer levels than the festival needs, or a size missing (C-9.2)
        return self._solve(g, player, ("festival", tuple(numbers), self.min_levels))

    # Necessary conditions, checked before asking the solver: most positions of a game fail
    # them (ranks start at 0), and they cost a few operations instead of a search.
    def _rank(self, g: dict, player: int, relaxation: str) -> int:
        index = self._rank_of[relaxation]
        return 0 if index is None else g["ranks"][player][index]

    def _width(self, g: dict, player: int) -> int:
        rules = self.tower_rules
        return rules.width_limit + self._rank(g, player, "wider") * rules.width_step

    def _max_levels(self, g: dict, player: int) -> int:
        """An upper bound on a tower's levels: fewer castellers each level up except with
        Balance; distinct smallest numbers except with Strength."""
        team = g["teams"][player]
        by_width = (
            self._width(g, player)
            + self._rank(g, player, "equal_count")
            + (1 if self._rank(g, player, "wide_bottom") else 0)
        )
        by_size = sum(1 for c in team if c) + self._rank(g, player, "equal_size")
        return min(by_width, by_size, sum(team))

    def _shape_possible(self, g: dict, player: int, shape: tuple) -> bool:
        width = self._width(g, player)
        if max(shape[1:], default=0) > width:
            return False
        if shape[0] > width and not self._rank(g, player, "wide_bottom"):
            return False
        equal = sum(1 for a, b in itertools.pairwise(shape) if a == b)
        if equal > self._rank(g, player, "equal_count"):
            return False
        return len(shape) <= self._max_levels(g, player)

    def _tower_options(self, game: Any, player: int) -> list[Action]:
        """The solver's best tower for each festival at the end of this round in the region
        where the player's pawn stands (C-9.2, C-9.3): the towers that can score now. Any
        other legal tower can still be built by writing it (`tower 6,6,6/5,5/4/3`)."""
        g = game.state["g"]
        pawn = g["pawns"][player]
        if pawn < 0:
            return []
        current = g["towers"][player]
        current = None if current is None else tuple(tuple(level) for level in current)
        out = []
        for rnd, festival, numbers in g["calendar"]:
            if rnd != game.state["round"] or self.festival_region[festival] != pawn:
                continue
            levels = self.best_tower_for(g, player, tuple(numbers))
            if levels is not None and levels != current:
                out.append(self._tower_action(levels))
        return out

    # ---- actions: checking --------------------------------------------------------------------
    def check(self, game: Any, player: int, action: Action, spec: Record) -> Rejection | None:
        g = game.state["g"]
        kind = action.kind
        if kind == "move":
            return self._check_move(g, player, action.args[0], adjacent_only=True)
        if kind == "recruit":
            return self._check_recruit(g, player, action.args, spec.up_to)
        if kind == "train":
            tile = action.args[0]
            options = self.trainable(game, player)
            if tile in options:
                return None
            if g["pawns"][player] < 0:
                return Rejection(
                    "no-pawn", "place your pawn first: your first move puts it anywhere"
                )
            if tile in self.skill_index and (
                g["ranks"][player][self.skill_index[tile]] >= self.max_rank[self.skill_index[tile]]
            ):
                return Rejection(
                    "max-rank", f"your {self.titles[tile]} rank is already the highest"
                )
            where = self.regions[g["pawns"][player]]
            shown = ", ".join(options) if options else "nothing"
            return Rejection(
                "not-on-wheel",
                f"{tile} is not on the wheel where you can train it ({where}'s slot"
                f"{' or a shared slot' if self.shared_sectors else ''}); you can train: {shown}",
            )
        if kind == "tower":
            return self._check_tower(g, player, action.args[0])
        if kind == "special":
            return self._check_special(game, g, player, action, spec)
        return Rejection("unknown-action", f"'{kind}' is not a Castell action")

    def _check_move(self, g: dict, player: int, region: int, adjacent_only: bool):
        pawn = g["pawns"][player]
        if pawn == region:
            return Rejection("already-there", f"your pawn is already in {self.regions[region]}")
        if adjacent_only and pawn >= 0 and region not in self.adjacent[pawn]:
            near = ", ".join(self.regions[r] for r in self.adjacent[pawn])
            return Rejection(
                "not-adjacent",
                f"{self.regions[region]} is not adjacent to {self.regions[pawn]} "
                f"(adjacent: {near})",
            )
        return None

    def _check_recruit(self, g: dict, player: int, numbers: tuple, up_to: int):
        pawn = g["pawns"][player]
        if pawn < 0:
            return Rejection("no-pawn", "place your pawn first: your first move puts it anywhere")
        if not numbers:
            return Rejection("bad-syntax", "recruit at least one casteller")
        if len(numbers) > up_to:
            return Rejection("too-many", f"you may recruit up to {up_to} casteller(s)")
        counts = list(g["regions"][pawn])
        for n in numbers:
            i = n - self.low
            if not 0 <= i < len(counts) or counts[i] == 0:
                return Rejection(
                    "not-available",
                    f"{self.regions[pawn]} has no casteller {n} to recruit "
                    f"(it has: {self._names(g['regions'][pawn])})",
                )
            counts[i] -= 1
        return None

    def _check_tower(self, g: dict, player: int, levels: tuple) -> Rejection | None:
        need = [0] * len(self.sizes)
        for level in levels:
            for n in level:
                i = n - self.low
                if 0 <= i < len(need):
                    need[i] += 1
        team = g["teams"][player]
        for i, count in enumerate(need):
            if count > team[i]:
                return Rejection(
                    "not-in-team",
                    f"the tower needs {count} casteller(s) {self.low + i} and your team has "
                    f"{team[i]}",
                )
        result = towers.check(levels, self._ranks(g, player), self.tower_rules)
        if not result.legal:
            return Rejection("illegal-tower", result.reason or "the tower is not legal")
        return None

    def _check_special(self, game: Any, g: dict, player: int, action: Action, spec: Record):
        if not game.granted and g["tokens"][player] <= 0:
            return Rejection("no-token", "you have no special action token left")
        option = action.args[0]
        if option == "recruit":
            return self._check_recruit(g, player, action.args[1], spec.recruit_up_to)
        if option == "move":
            return self._check_move(g, player, action.args[1], spec.move_to == "adjacent")
        tile, levels = action.args[1], action.args[2]
        pawn = g["pawns"][player]
        if pawn < 0:
            return Rejection("no-pawn", "place your pawn first: your first move puts it anywhere")
        if tile not in g["lp"][pawn]:
            here = ", ".join(self.tile_names[t] for t in g["lp"][pawn]) or "none left"
            return Rejection(
                "tile-not-here",
                f"{self.tile_names[tile]} is not in {self.regions[pawn]}'s row (there: {here})",
            )
        rejection = self._check_tower(g, player, levels)
        if rejection is not None:
            return rejection
        record = self.tiles[tile]
        if record.shape is not None:
            if not towers.meets_shape(levels, record.shape):
                shape = "-".join(map(str, record.shape))
                return Rejection(
                    "does-not-complete",
                    f"{record.name} needs the shape {shape} (castellers per level, bottom first)",
                )
        else:
            result = towers.check(levels, self._ranks(g, player), self.tower_rules)
            if not towers.meets_exhibition(result, record.exhibition, record.points):
                skills = " and ".join(self.titles[s] for s in record.exhibition)
                return Rejection(
                    "does-not-complete",
                    f"{record.name} needs a tower of exactly {record.points} levels that uses "
                    f"{skills}",
                )
        return None

    # ---- actions: applying --------------------------------------------------------------------
    def apply(self, game: Any, player: int, action: Action, spec: Record) -> str | None:
        g = game.state["g"]
        kind = action.kind
        if kind == "move":
            g["pawns"][player] = action.args[0]
        elif kind == "recruit":
            self._recruit(g, player, action.args)
        elif kind == "train":
            tile = action.args[0]
            if tile in self.grants:
                return self.grants[tile]
            g["ranks"][player][self.skill_index[tile]] += 1
        elif kind == "tower":
            g["towers"][player] = [list(level) for level in action.args[0]]
        elif kind == "special":
            self._special(game, g, player, action)
        return None

    def _recruit(self, g: dict, player: int, numbers: tuple) -> None:
        region = g["regions"][g["pawns"][player]]
        team = g["teams"][player]
        for n in numbers:
            region[n - self.low] -= 1
            team[n - self.low] += 1

    def _special(self, game: Any, g: dict, player: int, action: Action) -> None:
        """C-4.7, C-4.8: spend a token (unless granted), act, then place the token."""
        granted = game.granted
        if not granted:
            g["tokens"][player] -= 1
        option = action.args[0]
        if option == "recruit":
            self._recruit(g, player, action.args[1])
        elif option == "move":
            g["pawns"][player] = action.args[1]
        else:
            tile, levels = action.args[1], action.args[2]
            region = g["pawns"][player]
            g["lp"][region].remove(tile)
            g["performed"][player].append([tile, region])
            taken = g["lp_tokens"][region]
            g["collected"][player][region] += taken
            g["lp_tokens"][region] = 0
            if game.observed:
                game.emit(
                    {
                        "type": "performance",
                        "player": player,
                        "tile": self.tile_names[tile],
                        "region": self.regions[region],
                        "tower": format_levels(levels),
                        "points": self.tiles[tile].points,
                        "tokens_collected": taken,
                    }
                )
        if not granted:
            g["lp_tokens"][g["pawns"][player]] += 1

    # ---- tower questions (the library API and `castell tower`) -------------------------------
    def check_tower_dict(self, levels, ranks, needs=None, shape=None) -> dict[str, Any]:
        return towers.check_tower_dict(levels, ranks, self.tower_rules, needs, shape)

    def best_tower_dict(self, team, ranks, sizes=(), min_levels=1, shape=None, needs=None):
        return solver.best_tower_dict(
            team, ranks, self.tower_rules, tuple(sizes), min_levels, shape, needs
        )

    # ---- bots and front-ends ------------------------------------------------------------------
    def heuristic(self, game: Any, player: int) -> float:
        """Points now plus simple positional terms (the greedy and MCTS bots' evaluation).

        - the score if the game ended now (the rule file's scoring);
        - at a festival at the end of this round in the pawn's region, with a qualifying
          tower: the gain in best tower score, a share of the first prize's points, and half
          a point per casteller matching its sizes (size-token majorities);
        - in the region of next round's festival: one point;
        - castellers of the numbers this and next round's festivals need: 0.3 each (up to 4);
        - skill ranks: 0.8 each; team size: 0.15 each; special tokens in hand: 0.4 each.
        The weights are the bots' taste, not rules; they were tuned against the random bot.
        """
        score = float(game.score_of(player))
        if game.is_over():
            return score
        g = game.state["g"]
        rnd = game.state["round"]
        pawn = g["pawns"][player]
        tower = g["towers"][player]
        team = g["teams"][player]
        value = score
        first_prize = (
            self.prize_points[self.prize_chart[game.players][0]]
            if (self.prize_chart[game.players])
            else 0
        )
        wanted: set[int] = set()
        for space_round, festival, numbers in g["calendar"]:
            if space_round not in (rnd, rnd + 1):
                continue
            wanted.update(numbers)
            here = pawn == self.festival_region[festival]
            if space_round == rnd and here and tower is not None:
                if towers.meets_festival(tower, numbers, self.min_levels):
                    points = towers.tower_score(tower, numbers, self.tower_rules)
                    value += max(0, points - g["best"][player]) + 0.6 * first_prize
                    value += 0.5 * sum(1 for level in tower for x in level if x in numbers)
            elif space_round == rnd + 1 and here:
                value += 1.0
        value += 0.3 * min(
            4, sum(team[n - self.low] for n in wanted if 0 <= n - self.low < len(team))
        )
        value += 0.8 * sum(g["ranks"][player])
        value += 0.15 * sum(team)
        value += 0.4 * g["tokens"][player]
        return value

    def notation(self) -> list[str]:
        return [
            "move Girona            recruit 3 7            train balance",
            "special recruit 4      special move Lleida    tower 6,6,6/5,5/4/3",
            "special perform LP07 tower 5,5,5/4,4/3/2      end",
        ]

    def hints(self, game: Any, player: int) -> list[str]:
        from .render import hints

        return hints(self, game, player)

    def narrate(self, game: Any, event: dict[str, Any]) -> list[Any]:
        from .render import narrate

        return narrate(event)

    def render(self, game: Any, viewer: int | None) -> list[Any]:
        from .render import render

        return render(self, game, viewer)

    # ---- scoring and views --------------------------------------------------------------------
    def facts(self, game: Any, player: int) -> dict[str, Any]:
        g = game.state["g"]
        regions = set()
        regions.update(region for _n, region in g["size_tokens"][player])
        regions.update(r for r, c in enumerate(g["collected"][player]) if c)
        regions.update(region for _t, region in g["performed"][player])
        return {
            "best_tower_score": g["best"][player],
            "regions_with_items": [self.regions[r] for r in sorted(regions)],
            "prizes": [self.prize_names[p] for p in g["prizes"][player]],
            "size_tokens": [n for n, _r in g["size_tokens"][player]],
            "performances": [self.tile_names[t] for t, _r in g["performed"][player]],
            "collected_tokens": sum(g["collected"][player]),
            "special_tokens": g["tokens"][player],
            "team_size": sum(g["teams"][player]),
        }

    def view(self, game: Any) -> dict[str, Any]:
        g = game.state["g"]

        def counts(row: list[int]) -> dict[str, int]:
            return {str(self.low + i): c for i, c in enumerate(row) if c}

        return {
            "regions": [
                {
                    "name": name,
                    "adjacent": [self.regions[a] for a in self.adjacent[r]],
                    "castellers": counts(g["regions"][r]),
                    "pawns": [p for p, at in enumerate(g["pawns"]) if at == r],
                    "local_performances": [self.tile_names[t] for t in g["lp"][r]],
                    "special_tokens": g["lp_tokens"][r],
                }
                for r, name in enumerate(self.regions)
            ],
            "wheel": self.wheel_view(g),
            "shared_sectors": [self.sectors[s] for s in self.shared_sectors],
            "calendar": [
                {
                    "round": rnd,
                    "festival": self.festivals[f].name,
                    "region": self.regions[self.festival_region[f]],
                    "back": self.festivals[f].back,
                    "size_tokens": list(numbers),
                }
                for rnd, f, numbers in g["calendar"]
            ],
            "bag": sum(g["bag"]),
            "teams": [
                {
                    "seat": p,
                    "pawn": self.regions[g["pawns"][p]] if g["pawns"][p] >= 0 else None,
                    "team": counts(g["teams"][p]),
                    "ranks": self._ranks(g, p),
                    "special_tokens": g["tokens"][p],
                    "tower": g["towers"][p],
                    "best_tower_score": g["best"][p],
                    "prizes": [self.prize_names[i] for i in g["prizes"][p]],
                    "size_tokens": [[n, self.regions[r]] for n, r in g["size_tokens"][p]],
                    "performances": [
                        [self.tile_names[t], self.regions[r]] for t, r in g["performed"][p]
                    ],
                    "collected": {self.regions[r]: c for r, c in enumerate(g["collected"][p]) if c},
                }
                for p in range(game.players)
            ],
        }
