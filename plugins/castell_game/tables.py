"""Views of a Castell rule set that the mechanics reads often, computed once per rule set.

`Tables` turns the rule set's names into indices (regions, casteller sizes, skills, tiles,
festivals, prizes) so that the state can be flat lists of integers, cheap to copy for search;
its few methods read such a state back through the tables.
"""

from __future__ import annotations

from functools import lru_cache

from castell_dsl.language.ruleset import Record, RuleSet

from .towers import TowerRules


@lru_cache(maxsize=64)
def tower_rules(rules: RuleSet) -> TowerRules:
    """The tower parameters of a rule set, for the checker and the solver."""
    tower = rules.one("tower")
    skills = rules.named("skill")
    low, high = tower.sizes
    return TowerRules(
        sizes=tuple(range(low, high + 1)),
        width_limit=tower.width_limit,
        skills=tuple(skills),
        relaxations={skill.relaxes: name for name, skill in skills.items()},
        titles={name: skill.title for name, skill in skills.items()},
        mix_spread=tower.mix_spread,
        width_step=tower.width_step,
        score_per_level=rules.one("festival_rules").score_per_level,
        score_per_match=rules.one("festival_rules").score_per_match,
    )


def calendar_spaces(rules: RuleSet, players: int) -> list[Record]:
    """The calendar spaces in use with `players` players, in calendar order (C-3.3)."""
    game = rules.game
    env = {"players": players, "round": 0, "rounds": game.rounds}
    return [
        item.value for item in rules.one("calendar").space if item.when is None or item.when(env)
    ]


class Tables:
    """The rule set as index tables (regions, sizes and skills in rule-file order)."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        #: The bots' memo of position values (`heuristic.evaluate`).
        self.evaluations: dict[bytes, float] = {}
        #: The same values keyed as `heuristic.evaluate_all` asks for them.
        self.shared_evaluations: dict[tuple[bytes, bytes, int], float] = {}
        #: Every player's values of a whole position (`heuristic.evaluate_all`).
        self.position_evaluations: dict[bytes, tuple[float, ...]] = {}
        #: Scores by what their facts read (`heuristic._score`).
        self.scores: dict[bytes, float] = {}
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
        self.start_position = wheel.start_position % len(self.wheel_tiles)
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
        self.token_contenders = rules_block.size_token_contenders
        self.prize_ties = rules_block.prize_ties
        self.exhibition_levels = rules.one("performance_rules").exhibition_levels
        self.region_items = frozenset(rules.one("region_items").counted)
        self.prize_names: list[str] = list(rules.named("prize"))
        self.prize_points = [p.points for p in rules.named("prize").values()]
        prize_index = {name: i for i, name in enumerate(self.prize_names)}
        self.prize_chart = {
            players: [prize_index[p] for p in row]
            for players, row in rules.one("prize_chart").items()
        }

    # ---- reading a state through the tables ---------------------------------------------------
    def _ranks(self, g: dict, player: int) -> dict[str, int]:
        """The player's ranks by skill name (the checker's and the solver's form)."""
        return dict(zip(self.skills, g["ranks"][player], strict=True))

    def _team_list(self, g: dict, player: int) -> list[int]:
        """The player's team as casteller numbers, ascending (the solver's form)."""
        team = g["teams"][player]
        return [self.low + i for i, c in enumerate(team) for _ in range(c)]

    def casteller_names(self, counts: list[int]) -> str:
        """Castellers by size counts as text: "3, 3, 7" (or "none")."""
        present = [str(self.low + i) for i, c in enumerate(counts) for _ in range(c)]
        return ", ".join(present) if present else "none"

    def tile_at(self, g: dict, sector: int) -> str:
        """The board skill tile facing `sector` (C-6.5: sector i faces tile (i + r) mod n)."""
        slots = g["wheel"]
        return self.wheel_tiles[slots[(sector + g["wheel_turns"]) % len(slots)]]

    def wheel_view(self, g: dict) -> dict[str, str]:
        """The tile facing each sector, by sector name."""
        return {self.sectors[i]: self.tile_at(g, i) for i in range(len(self.sectors))}
