"""The kinds of definition a Castell rule file uses, and the type of every field.

This is structure, not content: which blocks exist and what their fields must be. Every number
and name of the game (regions, castellers, tiles, tables) is in `rules/castell/castell.castell`.
"""

from __future__ import annotations

from castell_dsl.language.schema import (
    Boolean,
    ByPlayers,
    Field,
    Graph,
    Integer,
    IntRange,
    Kind,
    ListOf,
    MapOf,
    Multiset,
    OneOf,
    Ref,
    Struct,
    Symbol,
    Text,
)

from .towers import RELAXATIONS

#: Size-token tie rules (C-9.5) a rule file may choose; a tie that remains goes to nobody.
SIZE_TOKEN_TIES = ("higher_tower_score", "nobody")
#: Who contests a festival's size tokens (C-9.5): the players competing there, or every player
#: whose pawn is in the festival's region with a tower (competing or not).
SIZE_TOKEN_CONTENDERS = ("competitors", "in_region")
#: How tied festival scores share prizes (C-9.4): tied players take the same place's prize and
#: the next places are skipped (1, 1, 3), or they take it and the next place follows (1, 1, 2).
PRIZE_TIES = ("share_and_skip", "share_no_skip")
#: How many levels a skill exhibition's tower has, given its points (C-8.4).
EXHIBITION_LEVELS = ("exactly", "at_least")
#: The items that tie a player to a region for region variety (C-10.3).
REGION_ITEMS = ("size_tokens", "collected_tokens", "performances")
#: Where a pawn may go with a special move (C-4.7 b).
MOVE_TARGETS = ("any", "adjacent")

KINDS: dict[str, Kind] = {
    "region": Kind(
        "region",
        Struct("region", {"adjacent": Field(Graph("region"), example="[Girona, Terrassa]")}),
        "regions",
        named=True,
        doc="a region of the board and the regions it touches (C-4.3)",
    ),
    "bag": Kind(
        "bag",
        Multiset(Integer(min=0)),
        "bag",
        required=True,
        doc="castellers in the bag by number: `bag { 1..10: 15 }` (C-2, C-3.1)",
    ),
    "setup": Kind(
        "setup",
        Struct(
            "setup",
            {
                "castellers_per_region": Field(ByPlayers(Integer(min=0)), example="{ 2: 3, 3: 4 }"),
                "team": Field(Integer(min=0), example="7", doc="castellers each player draws"),
                "special_tokens": Field(Integer(min=0), example="7"),
                "performances_per_region": Field(Integer(min=0), example="2"),
                "refill_order": Field(ListOf(Ref("region"), unique=True, min_len=1)),
            },
        ),
        "setup",
        required=True,
        doc="C-3",
    ),
    "skill": Kind(
        "skill",
        Struct(
            "skill",
            {
                "title": Field(Text(), example='"Balance"'),
                "max_rank": Field(Integer(0, 99), example="3"),
                "relaxes": Field(Symbol(RELAXATIONS), example="equal_count"),
            },
        ),
        "skills",
        named=True,
        doc="a skill, its highest rank and the tower rule it relaxes (C-6)",
    ),
    "tower": Kind(
        "tower",
        Struct(
            "tower",
            {
                "sizes": Field(IntRange(0, 99), example="1..10"),
                "width_limit": Field(Integer(1, 99), example="3"),
                "mix_spread": Field(Integer(1, 99), example="1"),
                "width_step": Field(Integer(1, 99), example="1"),
            },
        ),
        "tower",
        required=True,
        doc="tower building rules (C-5)",
    ),
    "wheel": Kind(
        "wheel",
        Struct(
            "wheel",
            {
                "tiles": Field(ListOf(Symbol(), min_len=1)),
                "sectors": Field(ListOf(Symbol(), min_len=1, unique=True)),
                "shared_sectors": Field(ListOf(Symbol(), unique=True), required=False, default=()),
                "blank_sectors": Field(ListOf(Symbol(), unique=True), required=False, default=()),
                "placement": Field(Symbol(("random", "as_listed"))),
                "turn_step": Field(Integer(0, 99)),
                "start_position": Field(
                    Integer(0, 99), example="0", doc="turns of the wheel at setup (C-3.2)"
                ),
                "grants": Field(MapOf(Symbol(), Symbol()), required=False, default=None),
            },
        ),
        "wheel",
        required=True,
        doc="the skill wheel (C-3.2, C-4.5, C-6.4, C-6.5)",
    ),
    "performance": Kind(
        "performance",
        Struct(
            "performance",
            {
                "shape": Field(ListOf(Integer(min=1), min_len=1), required=False),
                "exhibition": Field(ListOf(Ref("skill"), min_len=1, unique=True), required=False),
                "points": Field(Integer(min=0), example="5"),
            },
            one_of=(
                OneOf(
                    ("shape", "exhibition"), "a tile is a tower shape or a skill exhibition (C-8.2)"
                ),
            ),
        ),
        "local_performances",
        named=True,
        doc="a local performance tile: a tower shape or a skill exhibition (C-8)",
    ),
    "performance_rules": Kind(
        "performance_rules",
        Struct(
            "performance_rules",
            {"exhibition_levels": Field(Symbol(EXHIBITION_LEVELS), example="exactly")},
        ),
        "performance_rules",
        required=True,
        doc="how a local performance is completed (C-8.4)",
    ),
    "festival": Kind(
        "festival",
        Struct(
            "festival",
            {
                "region": Field(Ref("region"), example="Barcelona"),
                "back": Field(Symbol(), example="I"),
            },
        ),
        "festivals",
        named=True,
        doc="a festival location tile (C-3.3)",
    ),
    "calendar": Kind(
        "calendar",
        Struct(
            "calendar",
            {
                "space": Field(
                    Struct(
                        "space",
                        {
                            "round": Field(Integer(min=1)),
                            "back": Field(Symbol()),
                            "size_tokens": Field(Integer(min=0)),
                        },
                    ),
                    repeated=True,
                    conditional=True,
                )
            },
        ),
        "calendar",
        required=True,
        doc="the festival calendar (C-3.3)",
    ),
    "size_tokens": Kind(
        "size_tokens",
        Multiset(Integer(min=0), json_list=True),
        "size_tokens",
        required=True,
        doc="the size tokens by number: `size_tokens { 1..10: 3 }`",
    ),
    "festival_rules": Kind(
        "festival_rules",
        Struct(
            "festival_rules",
            {
                "min_levels": Field(Integer(min=1), example="4"),
                "score_per_level": Field(Integer(min=0), example="1"),
                "score_per_match": Field(Integer(min=0), example="1"),
                "size_token_tie": Field(Symbol(SIZE_TOKEN_TIES)),
                "size_token_contenders": Field(Symbol(SIZE_TOKEN_CONTENDERS)),
                "prize_ties": Field(Symbol(PRIZE_TIES)),
            },
        ),
        "festival_rules",
        required=True,
        doc="C-9.2 … C-9.5",
    ),
    "prize": Kind(
        "prize",
        Struct("prize", {"points": Field(Integer(min=0), example="5")}),
        "prizes",
        named=True,
        doc="a prize token and its points (C-10.4)",
    ),
    "prize_chart": Kind(
        "prize_chart",
        ByPlayers(ListOf(Ref("prize"))),
        "prize_chart",
        required=True,
        doc="prizes by place, per player count (C-9.4)",
    ),
    "region_items": Kind(
        "region_items",
        Struct(
            "region_items",
            {"counted": Field(ListOf(Symbol(REGION_ITEMS), min_len=1, unique=True))},
        ),
        "region_items",
        required=True,
        doc="the items whose regions `regions_with_items` counts (C-10.3)",
    ),
}

#: Facts a Castell scoring expression may read, per player (C-10).
FACTS = {
    "best_tower_score": "int",
    "regions_with_items": "list:region",
    "prizes": "list:prize",
    "size_tokens": "list",
    "performances": "list:performance",
    "collected_tokens": "int",
    "special_tokens": "int",
    "team_size": "int",
}

#: Automatic steps a Castell rule file may schedule.
STEPS = ("deal", "refill", "turn_wheel", "festivals")

#: Actions and their parameters.
ACTIONS = {
    "move": {},
    "recruit": {"up_to": Field(Integer(min=1), example="2")},
    "train": {},
    "special": {
        "recruit_up_to": Field(Integer(min=1), example="1"),
        "move_to": Field(Symbol(MOVE_TARGETS), example="any"),
        "places_pawn": Field(
            Boolean(),
            example="true",
            doc="whether a special move may put a pawn that is not on the board yet on a "
            "region (C-4.3, C-4.7 b); false: place the pawn with the move action first",
        ),
    },
    "tower": {},
    "end": {},
}
