"""One game, measured: the compact per-game record every section of the analysis folds.

`measure_game` plays exactly the game `castell simulate` plays for the same rules, players,
seed and bots (the same bots, seeded the same way, the same actions), and keeps only what the
aggregates need. What it adds costs little: the scores once per round, the mechanics' item
marks once per turn, and the legal actions of one decision in `every` (counted on a clone, so
listing them changes nothing in the game).
"""

from __future__ import annotations

import marshal
from typing import Any

from ...contract import OPEN, TAKEN
from ...engine.game import Game
from ...engine.plan import Plan
from ...language.ruleset import RuleSet
from ..bots import finish_bots, make_bot
from ..games import start_game

#: Legal actions are counted at one decision in this many (the offset varies with the seed):
#: one or two decisions of a 170-action Castell game, 1,300 in 1,000 games; the branching
#: section says how many were counted.
SAMPLE_EVERY = 128


#: Totals kept per scoring plan before its memo starts afresh (memory stays flat).
TOTALS_MEMO_SIZE = 50_000
#: The scoring plans' memos of totals (`_totals_memo`), by the plan's id; each entry holds its
#: plan, so no other plan can take that id while the entry lives.
_TOTALS: dict[int, tuple[Plan, dict[bytes, int]]] = {}


def _totals_memo(plan: Plan) -> dict[bytes, int]:
    """The memo of `plan`'s totals by a player's facts (`_leaders`)."""
    entry = _TOTALS.get(id(plan))
    if entry is None or entry[0] is not plan:
        if len(_TOTALS) >= 64:
            _TOTALS.clear()
        entry = _TOTALS[id(plan)] = (plan, {})
    memo = entry[1]
    if len(memo) >= TOTALS_MEMO_SIZE:
        memo.clear()
    return memo


def _leaders(game: Game) -> list[int]:
    """Who would win were the game scored now: the highest total, then the tie-breaks (`Game.
    result`'s order), each player's facts read once; tie-breaks only among tied totals.

    A total is memoised on the facts it is computed from, serialised by `marshal` (equal
    bytes, equal values of equal types): the scoring categories are expressions of the facts
    alone, and a player's facts seldom change from one round to the next, or differ from
    another game's at the same point (about six times in seven, in random 4-player Castell),
    so most rounds read the facts and skip evaluating the categories. Facts marshal cannot
    serialise are scored every time."""
    plan = game.plan
    read = game.logic.facts
    categories = [fn for _name, fn in plan.categories]
    memo = _totals_memo(plan)
    dumps = marshal.dumps
    facts = []
    totals = []
    for player in range(game.players):
        f = read(game, player)
        facts.append(f)
        try:
            key: bytes | None = dumps(f, 2)
        except ValueError:
            key = None
        total = memo.get(key) if key is not None else None
        if total is None:
            total = sum([fn(f) for fn in categories])
            if key is not None:
                memo[key] = total
        totals.append(total)
    top = max(totals)
    if totals.count(top) == 1:
        return [totals.index(top)]
    ahead = [p for p, total in enumerate(totals) if total == top]
    if not plan.tiebreaks:
        return ahead
    keys = {p: [fn(facts[p]) for fn in plan.tiebreaks] for p in ahead}
    best = max(keys.values())
    return [p for p in ahead if keys[p] == best]


def measure_game(
    rules: RuleSet,
    players: int,
    seed: int,
    bots: tuple[str, ...],
    index: int,
    every: int = SAMPLE_EVERY,
) -> dict[str, Any]:
    """Play one game between `bots` and return its record (see the module's docstring)."""
    game = start_game(rules, players, seed, record_events=False)
    seats = [make_bot(spec, rules, seat, seed) for seat, spec in enumerate(bots)]
    logic = game.logic
    track = bool(logic.items())
    # Asked only about the action kinds that can take items (None: every kind).
    taking = logic.item_action_kinds() if track else frozenset()
    action_items, item_marks = logic.action_items, logic.item_marks
    #: Every mark seen, per player: a byte per item (OPEN | TAKEN | COMPLETED bits).
    marks = [bytearray(len(logic.items())) for _ in range(players)]
    leaders: list[list[int]] = []
    branching: list[list[Any]] = []
    state = game.state
    turns = 0
    # The turn in progress: the engine's turn record (a new one for each `turns` step, kept
    # alive here, so identity is safe) and the position in its order.
    this_turn: Any = state["turn"]
    position = this_turn["pos"] if this_turn is not None else -1
    turns = 1 if this_turn is not None else 0
    completed_round = 0
    # Legal actions are counted when this reaches 0: at decisions offset, offset + every, …
    countdown = seed % every
    while this_turn is not None:
        player = this_turn["order"][position]
        if not countdown:
            kinds: dict[str, int] = {}
            for action in game.clone(keep_log=False).legal_actions():
                kinds[action.kind] = kinds.get(action.kind, 0) + 1
            branching.append([state["round"], kinds])
            countdown = every
        countdown -= 1
        action = seats[player].choose(game)
        if track and (taking is None or action.kind in taking):
            mine = marks[player]
            for item in action_items(game, player, action):
                mine[item] |= OPEN | TAKEN
        game.apply(action)
        turn = state["turn"]
        if turn is this_turn and turn["pos"] == position:
            continue  # the same turn goes on
        if track:
            mine = marks[player]
            for item, bits in item_marks(game, player):
                mine[item] |= bits
        if turn is None:
            break  # the game is over: the last round's leaders and marks are read below
        turns += 1
        this_turn, position = turn, turn["pos"]
        # A round is over when the next one has begun (its first steps have run).
        finished = state["round"] - 1
        if finished > completed_round:
            now = _leaders(game)
            leaders.extend(now for _ in range(finished - completed_round))
            completed_round = finished
    finish_bots(seats, game)
    result = game.result()
    # After the last round the leaders are the winners (the same order: total, tie-breaks).
    leaders.extend(result["winners"] for _ in range(game.rounds - completed_round))
    items: list[bytes] | None = None
    if track:
        shared = bytearray(len(marks[0]))
        for item, bits in logic.shared_item_marks(game):
            shared[item] |= bits
        common = int.from_bytes(shared, "big")
        items = []
        for player in range(players):
            mine = marks[player]
            for item, bits in logic.item_marks(game, player):
                mine[item] |= bits
            # OR of the bytes in one step: no bit carries into a neighbouring byte.
            items.append((int.from_bytes(mine, "big") | common).to_bytes(len(mine), "big"))
    scores = result["players"]
    totals = [s["total"] for s in scores]
    top = max(totals)
    record: dict[str, Any] = {
        "first": state.get("first_player", 0),
        "winners": result["winners"],
        "totals": totals,
        "categories": {
            name: [s["categories"][name] for s in scores] for name in scores[0]["categories"]
        },
        "tied_top": totals.count(top) > 1,
        "rounds": result["rounds"],
        "turns": turns,
        "actions": len(game.log),
        "leaders": leaders,
        "branching": branching,
        "items": items,
    }
    outcomes = player_outcomes(result.get("report") or {}, players)
    if outcomes:
        record["outcomes"] = outcomes
    return record


def player_outcomes(report: dict[str, Any], players: int) -> dict[str, list[bool]]:
    """Yes/no outcomes per player from a mechanics' `report` (Calico's scenarios: passed or
    not), by a generic convention: a section holding `players`, a list of entries with a
    `seat`, whose true/false fields are outcomes (`scenario.passed`)."""
    out: dict[str, list[bool]] = {}
    for section, value in report.items():
        entries = value.get("players") if isinstance(value, dict) else None
        if not isinstance(entries, list):
            continue
        for entry in entries:
            seat = entry.get("seat") if isinstance(entry, dict) else None
            if not isinstance(seat, int) or not 0 <= seat < players:
                continue
            for name, flag in entry.items():
                if isinstance(flag, bool):
                    out.setdefault(f"{section}.{name}", [False] * players)[seat] = flag
    return out
