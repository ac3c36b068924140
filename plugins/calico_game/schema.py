"""The kinds of definition a Calico rule file uses, and the type of every field.

This is structure, not content: which blocks exist and what their fields must be. Every number
and name of the game (colours, patterns, boards, goals, cats, buttons, setup numbers, scenario
objectives) is in `rules/calico.castell` and its variant files.
"""

from __future__ import annotations

from castell_dsl.language.schema import (
    Boolean,
    ByPlayers,
    Field,
    Integer,
    IntRange,
    Kind,
    ListOf,
    MapOf,
    OneOf,
    Ref,
    Struct,
    Symbol,
    Text,
)

#: How a shape cat's group is matched (K-5.3): exactly the shape, or holding it.
SHAPE_MATCHES = ("exact", "contains")
#: How the six neighbours must fall into a design goal's groups (K-4.2): `goals.py`.
GOAL_MATCHES = ("exact", "merged")
#: How design goals reach the goal spaces (K-2.1, K-2.2, K-8.4).
GOAL_PLACEMENTS = ("choose", "in_order")
#: How boards are handed to the seats.
BOARD_ASSIGNMENTS = ("random", "in_order")
#: Which end of the market a discard after a take comes from (K-8.3).
DISCARD_ENDS = ("farthest", "nearest")
#: Scenario objectives (K-8.4). Those in `COUNTED_OBJECTIVES` need `at_least`.
OBJECTIVES = (
    "score",
    "rainbow",
    "each_cat",
    "cat_tokens",
    "tokens_of_one_cat",
    "buttons_of_one_colour",
    "goals",
    "goals_both_ways",
)
#: Objectives another one's count may be added to (`objective goals { … plus goals_both_ways }`).
PLUS_OBJECTIVES = ("goals_both_ways",)
COUNTED_OBJECTIVES = (
    "score",
    "cat_tokens",
    "tokens_of_one_cat",
    "buttons_of_one_colour",
    "goals",
    "goals_both_ways",
)


def _cell() -> ListOf:
    """A hex as `[col, row]` (quilt coordinates, odd rows shifted half a hex right)."""
    return ListOf(Integer(0, 99), min_len=2, max_len=2)


KINDS: dict[str, Kind] = {
    "colour": Kind(
        "colour",
        Struct(
            "colour",
            {
                "title": Field(Text(), example='"Dark blue"'),
                "letter": Field(Text(), example='"b"', doc="one letter for plain-text views"),
                "style": Field(Text(), example='"white on blue"', doc="terminal colours (rich)"),
            },
        ),
        "colours",
        named=True,
        doc="a patch colour (K-1.1)",
    ),
    "pattern": Kind(
        "pattern",
        Struct(
            "pattern",
            {
                "title": Field(Text(), example='"Dots"'),
                "letter": Field(Text(), example='"D"', doc="the letter drawn in each cell"),
            },
        ),
        "patterns",
        named=True,
        doc="a patch pattern (K-1.1)",
    ),
    "bag": Kind(
        "bag",
        Struct(
            "bag",
            {
                "copies": Field(
                    Integer(min=1), example="3", doc="patches of every colour-pattern pair"
                ),
                "remove_sets": Field(
                    MapOf(Integer(1, 99), Integer(min=0)),
                    example="{ 1..4: 0 }",
                    doc="full sets (one of each pair) left in the box at setup, by player "
                    "count; every count the bag is for needs an entry (K-8.2)",
                ),
                "players": Field(
                    IntRange(1, 99),
                    required=False,
                    example="1..2",
                    doc="the player counts this bag is made up for, when fewer than the "
                    "game's (K-8.2: low-luck); a game with another count is refused",
                ),
            },
        ),
        "bag",
        required=True,
        doc="the patch tiles (K-1.1, K-2.4, K-8.2)",
    ),
    "quilt": Kind(
        "quilt",
        Struct(
            "quilt",
            {
                "columns": Field(Integer(3, 99), example="7"),
                "rows": Field(Integer(3, 99), example="7"),
                "goal_spaces": Field(
                    ListOf(_cell(), min_len=1, unique=True), example="[[3, 2], [4, 3], [2, 4]]"
                ),
            },
        ),
        "quilt",
        required=True,
        doc="the quilt board's grid: its size and design goal spaces (K-1.2)",
    ),
    "board": Kind(
        "board",
        Struct(
            "board",
            {
                "title": Field(Text(), example='"Blue"'),
                "edge": Field(
                    Struct(
                        "edge",
                        {
                            "at": Field(_cell(), example="[0, 0]"),
                            "colour": Field(Ref("colour"), example="pink"),
                            "pattern": Field(Ref("pattern"), example="vines"),
                        },
                    ),
                    repeated=True,
                    doc="a pre-printed patch on the outer ring",
                ),
            },
        ),
        "boards",
        named=True,
        doc="a quilt board and its pre-printed edge patches (K-1.2)",
    ),
    "goal": Kind(
        "goal",
        Struct(
            "goal",
            {
                "title": Field(Text(), example='"AA-BB-CC"'),
                "counts": Field(ListOf(Integer(min=1), min_len=1), example="[2, 2, 2]"),
                "one_way": Field(Integer(min=0), example="7"),
                "both_ways": Field(Integer(min=0), example="11"),
            },
        ),
        "goals",
        named=True,
        doc="a design goal: counts of the six neighbours' colours or patterns (K-4)",
    ),
    "cat": Kind(
        "cat",
        Struct(
            "cat",
            {
                "points": Field(Integer(min=0), example="3"),
                "dots": Field(Integer(1, 9), example="1"),
                "group": Field(Integer(min=1), required=False, doc="a group of at least N"),
                "shape": Field(
                    ListOf(_cell(), min_len=1, unique=True),
                    required=False,
                    doc="a group of exactly this shape, in quilt coordinates",
                ),
            },
            one_of=(
                OneOf(
                    ("group", "shape"),
                    "a cat wants a group of at least N patches, or a group of one shape (K-5.2)",
                ),
            ),
        ),
        "cats",
        named=True,
        doc="a cat: its points, its condition (a group size or a shape) and its dots (K-5.2)",
    ),
    "cat_rules": Kind(
        "cat_rules",
        Struct(
            "cat_rules",
            {
                "patterns_per_cat": Field(Integer(min=1), example="2"),
                "shape_match": Field(Symbol(SHAPE_MATCHES), example="exact"),
                "patterns_may_touch": Field(
                    Boolean(), example="true", doc="K-5.4 errata; false is the literal reading"
                ),
            },
        ),
        "cat_rules",
        required=True,
        doc="how cats are attracted (K-2.3, K-5.3, K-5.4)",
    ),
    "goal_rules": Kind(
        "goal_rules",
        Struct(
            "goal_rules",
            {
                "match": Field(
                    Symbol(GOAL_MATCHES),
                    example="exact",
                    doc="exact: each group of a goal is another colour (pattern); merged: groups "
                    "may share one (K-4.2)",
                ),
            },
        ),
        "goal_rules",
        required=True,
        doc="when a design goal is met (K-4.2)",
    ),
    "button": Kind(
        "button",
        Struct(
            "button",
            {
                "points": Field(Integer(min=0), example="3"),
                "group": Field(
                    Integer(min=1), required=False, doc="a group of at least N of this colour"
                ),
                "each_colour": Field(
                    Integer(min=1),
                    required=False,
                    doc="at least N buttons of every colour (the rainbow button)",
                ),
                "limit": Field(Integer(min=1), required=False, doc="most per player"),
            },
            one_of=(
                OneOf(
                    ("group", "each_colour"),
                    "a colour's button needs a group of N (K-6.1); the rainbow button needs N "
                    "buttons of every colour (K-6.2)",
                ),
            ),
        ),
        "buttons",
        named=True,
        doc="a button: one per colour (named after it) and the rainbow button (K-6)",
    ),
    "setup": Kind(
        "setup",
        Struct(
            "setup",
            {
                "boards": Field(Symbol(BOARD_ASSIGNMENTS), example="random"),
                "hand": Field(ByPlayers(Integer(min=1)), example="{ 1..4: 2 }"),
                "cat_dots": Field(
                    ListOf(Integer(1, 9), min_len=1),
                    example="[1, 2, 3]",
                    doc="one cat is drawn from the cats with each of these dots (K-2.2)",
                ),
                "cats": Field(
                    ListOf(Ref("cat"), min_len=1, unique=True),
                    required=False,
                    doc="the cats in play, instead of drawing them (K-2.1)",
                ),
                "goals": Field(
                    ListOf(Ref("goal"), min_len=1, unique=True),
                    required=False,
                    doc="every player's design goals, instead of revealing some (K-2.1)",
                ),
                "reveal": Field(
                    Integer(min=1), example="4", doc="design goals each player reveals (K-2.2)"
                ),
                "goal_placement": Field(Symbol(GOAL_PLACEMENTS), example="choose"),
                "goals_face_down": Field(Boolean(), example="false", doc="K-8.1"),
            },
        ),
        "setup",
        required=True,
        doc="K-2",
    ),
    "market": Kind(
        "market",
        Struct(
            "market",
            {
                "size": Field(ByPlayers(Integer(min=1)), example="{ 1..4: 3 }"),
                "discard_after_take": Field(
                    Integer(min=0),
                    example="0",
                    doc="market patches removed from the game after each take (K-8.3)",
                ),
                "discard_from": Field(
                    Symbol(DISCARD_ENDS),
                    required=False,
                    example="farthest",
                    doc="the end of the market (seen from the bag) a discard comes from; "
                    "needed when discard_after_take is more than 0 (K-8.3)",
                ),
            },
        ),
        "market",
        required=True,
        doc="the market of face-up patches (K-2.4, K-3.3, K-8.3)",
    ),
    "scenario": Kind(
        "scenario",
        Struct(
            "scenario",
            {
                "number": Field(Integer(1, 99), example="1"),
                "title": Field(Text(), example='"Scenario 1"'),
                "objective": Field(
                    Struct(
                        "objective",
                        {
                            "at_least": Field(Integer(min=1), required=False, example="58"),
                            "plus": Field(
                                Symbol(PLUS_OBJECTIVES),
                                required=False,
                                example="goals_both_ways",
                                doc="`goals` only: the goals needed are at_least plus that "
                                'objective\'s ("2 goals + 1 both ways" is three goals)',
                            ),
                        },
                    ),
                    labelled=True,
                    required=True,
                    doc="objective NAME { at_least N }; names: " + ", ".join(OBJECTIVES),
                ),
            },
        ),
        "scenario",
        doc="a scenario's objectives (K-8.4); its goals and cats are set in `setup`",
    ),
}

#: Facts a Calico scoring expression may read, per player (K-7).
FACTS = {
    "goals_one_way": "list:goal",
    "goals_both_ways": "list:goal",
    "cat_tokens": "list:cat",
    "buttons": "list:button",
}

#: Automatic steps a Calico rule file may schedule.
STEPS = ("deal",)

#: Actions and their parameters.
ACTIONS = {
    "goals": {},
    "place": {},
    "take": {
        "take_when_full": Field(
            Boolean(),
            example="false",
            doc="whether a player whose quilt is full still takes a patch (K-3.4)",
        )
    },
}
