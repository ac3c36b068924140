"""The greedy and MCTS bots' evaluation of a Castell position: points now plus a few
positional terms. The weights are the bots' taste, not rules; they were tuned against the
random bot.
"""

from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, TypeVar

from . import towers
from .tables import Tables
from .views import facts_parts

if TYPE_CHECKING:
    from castell_dsl.contract import GameContext

#: Evaluations kept per rule set's tables before the memo starts afresh (memory stays flat).
MEMO_SIZE = 50_000
#: The `marshal` format of memo keys: version 2, without back-references, which plain data
#: does not need and which cost a fifth of the time.
KEY_FORMAT = 2

T = TypeVar("T")


def evaluate(t: Tables, game: GameContext, player: int) -> float:
    """`position_value`, memoised on everything it reads.

    A search evaluates every player in every position it reaches, and within a turn only the
    mover's part of the position changes, so nearly every evaluation was asked before (the
    other players' every time). The key is what `position_value` and the scoring facts
    (`views.facts`) read of the state, copied into bytes by `marshal` in C: cheaper than
    building the facts and running the scoring expressions.
    """
    state = game.state
    g = state["g"]
    key = marshal.dumps(
        (
            game.players,
            player,
            state["phase"],
            state["round"],
            near_calendar(g["calendar"], state["round"]),
            g["pawns"][player],
            g["towers"][player],
            g["teams"][player],
            g["ranks"][player],
            g["tokens"][player],
            g["best"][player],
            g["size_tokens"][player],
            g["collected"][player],
            g["performed"][player],
            g["prizes"][player],
        ),
        KEY_FORMAT,
    )
    value = t.evaluations.get(key)
    if value is None:
        value = _keep(t.evaluations, key, position_value(t, game, player))
    return value


def evaluate_all(t: Tables, game: GameContext) -> list[float]:
    """`evaluate` for every player, in seat order, with the same values.

    Two memos: the whole position (everything any player's value reads, serialised in one
    call: a search meets most positions more than once) and, when that misses, each player's
    part, where what all players' keys share (the round, the calendar) is serialised once.
    """
    state = game.state
    g = state["g"]
    players = game.players
    phase, rnd = state["phase"], state["round"]
    calendar = near_calendar(g["calendar"], rnd)
    parts = (
        g["pawns"],
        g["towers"],
        g["teams"],
        g["ranks"],
        g["tokens"],
        g["best"],
        g["size_tokens"],
        g["collected"],
        g["performed"],
        g["prizes"],
    )
    dumps = marshal.dumps
    whole = t.position_evaluations
    position = dumps((players, phase, rnd, calendar, parts), KEY_FORMAT)
    known = whole.get(position)
    if known is not None:
        return list(known)
    common = dumps((players, phase, rnd, calendar), KEY_FORMAT)
    memo = t.shared_evaluations
    out = []
    for player in range(players):
        key = (common, dumps([part[player] for part in parts], KEY_FORMAT), player)
        value = memo.get(key)
        if value is None:
            value = _keep(memo, key, position_value(t, game, player))
        out.append(value)
    _keep(whole, position, tuple(out))
    return out


def _score(t: Tables, game: GameContext, player: int) -> float:
    """`game.score_of(player)`, memoised on what the facts it scores read (`facts_parts`): a
    search's positions differ mostly in what scores nothing yet (the pawn, the tower)."""
    key = marshal.dumps(facts_parts(game.state["g"], player), KEY_FORMAT)
    score = t.scores.get(key)
    if score is None:
        score = _keep(t.scores, key, float(game.score_of(player)))
    return score


def _keep(memo: dict, key: object, value: T) -> T:
    """Store `value` in a memo, which starts afresh when full (memory stays flat)."""
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    memo[key] = value
    return value


#: The last `near_calendar` answer: (calendar, round, spaces). The calendar never changes
#: once dealt (`CastellLogic.shared_state`), and a search's copies share it, so most calls
#: ask about the very same list; the cache holds the list itself, so no other can take its id.
_near: tuple[list, int, list] | None = None


def near_calendar(calendar: list, rnd: int) -> list:
    """The calendar spaces `position_value` reads, this round's and the next: a smaller memo
    key than the whole calendar, for the same values. (The list returned may be shared:
    read it, do not change it.)"""
    global _near
    cached = _near
    if cached is not None and cached[0] is calendar and cached[1] == rnd:
        return cached[2]
    spaces = [space for space in calendar if rnd <= space[0] <= rnd + 1]
    _near = (calendar, rnd, spaces)
    return spaces


def position_value(t: Tables, game: GameContext, player: int) -> float:
    """How good the position is for `player`:

    - the score if the game ended now (the rule file's scoring);
    - at a festival at the end of this round in the pawn's region, with a qualifying
      tower: the gain in best tower score, a share of the first prize's points, and half
      a point per casteller matching its sizes (size-token majorities);
    - in the region of next round's festival: one point;
    - castellers of the numbers this and next round's festivals need: 0.3 each (up to 4);
    - skill ranks: 0.8 each; team size: 0.15 each; special tokens in hand: 0.4 each.
    """
    score = _score(t, game, player)
    if game.is_over():
        return score
    g = game.state["g"]
    rnd = game.state["round"]
    pawn = g["pawns"][player]
    tower = g["towers"][player]
    team = g["teams"][player]
    value = score
    chart = t.prize_chart[game.players]
    first_prize = t.prize_points[chart[0]] if chart else 0
    wanted: set[int] = set()
    for space_round, festival, numbers in g["calendar"]:
        if space_round not in (rnd, rnd + 1):
            continue
        wanted.update(numbers)
        here = pawn == t.festival_region[festival]
        if space_round == rnd and here and tower is not None:
            if towers.meets_festival(tower, numbers, t.min_levels):
                points = towers.tower_score(tower, numbers, t.tower_rules)
                value += max(0, points - g["best"][player]) + 0.6 * first_prize
                value += 0.5 * sum(1 for level in tower for x in level if x in numbers)
        elif space_round == rnd + 1 and here:
            value += 1.0
    value += 0.3 * min(4, sum(team[n - t.low] for n in wanted if 0 <= n - t.low < len(team)))
    value += 0.8 * sum(g["ranks"][player])
    value += 0.15 * sum(team)
    value += 0.4 * g["tokens"][player]
    return value
