"""Advice for a human Calico player (`hint` in `castell play`): the best few moves, in words.

Every suggestion starts from the engine's own legal actions and is tried on a clone of the game
through `Game.apply`, so it is never illegal; what it is worth is read from the rule file's
scoring (`score_of`) and the facts behind it (cat tokens, buttons, design goals met), plus the
bot heuristic's progress towards buttons and group cats and an outlook for design goals that
are still possible. A placement is paired with the market patch that would do most for the
next turn: the taken patch's best placement is tried on the quilt left by the first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from castell_dsl.contract import Action, GameContext, PlayableGame

from . import goals
from .tables import EMPTY

if TYPE_CHECKING:
    from .tables import CalicoTables

#: How many suggestions `hint` shows.
SHOWN = 3
#: Weight of a still-possible design goal's points, scaled by how much of it is filled: like
#: the heuristic's half-credit for buttons and cats, so a goal half filled counts a quarter.
GOAL_OUTLOOK = 0.5


@dataclass(frozen=True)
class Suggestion:
    """A move for the player to move: a placement and the take after it, or one of them
    (`take` is None on the turn that fills the quilt, K-3.4), or a goal arrangement."""

    actions: tuple[Action, ...]
    value: float
    reasons: tuple[str, ...]

    def text(self) -> str:
        moves = ", then ".join(a.text for a in self.actions)
        return f"{moves} — {'; '.join(self.reasons)}" if self.reasons else moves


def suggestions(
    logic: CalicoTables, game: PlayableGame, player: int, count: int = SHOWN
) -> list[Suggestion]:
    """The best `count` moves for `player` now, best first (empty when it is not their turn)."""
    if game.is_over() or game.current_player != player:
        return []
    legal = game.legal_actions()
    kinds = {a.kind for a in legal}
    if "goals" in kinds:
        return _goal_suggestions(logic, game, player, legal)[:count]
    if "place" in kinds:
        places = [_placement(logic, game, player, a) for a in legal if a.kind == "place"]
        places.sort(key=lambda s: (-s[0].value, s[0].actions[0].text))
        out = []
        for first, placed in places[:count]:
            take = _best_take(logic, placed, player)
            if take is None:
                out.append(first)
            else:
                out.append(
                    Suggestion(
                        first.actions + take.actions, first.value, first.reasons + take.reasons
                    )
                )
        return out
    takes = [_take(logic, game, player, a) for a in legal if a.kind == "take"]
    takes.sort(key=lambda s: (-s.value, s.actions[0].text))
    return takes[:count]


def hint_lines(logic: CalicoTables, game: PlayableGame, player: int) -> list[str]:
    """`suggestions` as numbered lines, or a sentence saying why there are none now."""
    if game.is_over():
        return ["The game is over."]
    if game.current_player != player:
        return ["It is not your turn: hints are for the move you are about to make."]
    return [f"{i}. {s.text()}" for i, s in enumerate(suggestions(logic, game, player), 1)]


# ---- evaluation ---------------------------------------------------------------------------------


def _outlook(logic: CalicoTables, g: dict, player: int) -> float:
    """Design goals not yet surrounded that can still be met: GOAL_OUTLOOK of the points of
    the best way still open, in proportion to how many of the six neighbours are filled."""
    if logic.goals_face_down:
        return 0.0  # K-8.1: face-down goals score nothing
    total = 0.0
    for cell, goal, ways in _goal_ways(logic, g, player):
        around = logic.neighbours[cell]
        filled = sum(1 for nb in around if g["quilts"][player][nb] >= 0)
        if filled < len(around):
            total += GOAL_OUTLOOK * _goal_points(logic, goal, len(ways)) * filled / len(around)
    return total


def _value(logic: CalicoTables, game: GameContext, player: int) -> float:
    """What a position is worth to the player: score, heuristic progress, goal outlook."""
    return logic.heuristic(game, player) + _outlook(logic, game.state["g"], player)


def _goal_points(logic: CalicoTables, goal: int, ways: int) -> int:
    record = logic.rules.named("goal")[logic.goal_names[goal]]
    return (0, record.one_way, record.both_ways)[ways]


def _goal_ways(logic: CalicoTables, g: dict, player: int) -> list[tuple[int, int, tuple[str, ...]]]:
    """Per placed design goal: its space, the goal, and the ways ("colour", "pattern") it can
    still be met given the neighbours placed so far (K-4.1, K-4.2)."""
    quilt = g["quilts"][player]
    out = []
    for cell, goal in zip(logic.goal_cells, g["goals"][player], strict=False):
        values = [quilt[nb] for nb in logic.neighbours[cell] if quilt[nb] >= 0]
        want = logic.goal_counts[goal]
        ways = tuple(
            way
            for way, kind_of in (("colour", logic.colour_of), ("pattern", logic.pattern_of))
            if goals.still_possible(_counts(kind_of[v] for v in values), want, logic.goal_match)
        )
        out.append((cell, goal, ways))
    return out


def _counts(kinds: Iterable[int]) -> tuple[int, ...]:
    """How many of each kind, largest first."""
    return tuple(sorted(Counter(kinds).values(), reverse=True))


def _gains(logic: CalicoTables, before: GameContext, after: GameContext, player: int) -> list[str]:
    """What the move earned, from the facts the scoring reads: cats, buttons, goals."""
    reasons = []
    was, now = logic.facts(before, player), logic.facts(after, player)
    for cat in (Counter(now["cat_tokens"]) - Counter(was["cat_tokens"])).elements():
        reasons.append(f"attracts {cat} (+{logic.cat_points[logic.cat_index[cat]]})")
    points = dict(zip(logic.button_names, logic.button_points, strict=True))
    for button in (Counter(now["buttons"]) - Counter(was["buttons"])).elements():
        reasons.append(f"earns the {button.replace('_', ' ')} button (+{points[button]})")
    goals = logic.rules.named("goal")
    for key, how, field in (("goals_one_way", "one way", "one_way"),
                            ("goals_both_ways", "both ways", "both_ways")):  # fmt: skip
        for name in set(now[key]) - set(was[key]):
            reasons.append(f"completes {goals[name].title} {how} (+{getattr(goals[name], field)})")
    return reasons


def _goal_notes(
    logic: CalicoTables, before: GameContext, after: GameContext, player: int, cell: int
) -> list[str]:
    """For design goals around the hex just filled and not yet surrounded: which ways remain."""
    if logic.goals_face_down:
        return []
    notes = []
    old = {c: ways for c, _goal, ways in _goal_ways(logic, before.state["g"], player)}
    quilt = after.state["g"]["quilts"][player]
    for space, goal, ways in _goal_ways(logic, after.state["g"], player):
        around = logic.neighbours[space]
        if cell not in around or all(quilt[nb] >= 0 for nb in around):
            continue
        title = logic.rules.named("goal")[logic.goal_names[goal]].title
        where = logic.cell_text[space]
        lost = [w for w in old[space] if w not in ways]
        if lost:
            notes.append(f"gives up {title} at {where} by {' and '.join(lost)}")
        elif ways:
            shown = "both ways" if len(ways) == 2 else f"by {ways[0]}"
            notes.append(f"keeps {title} at {where} possible {shown}")
    return notes


def _placement(
    logic: CalicoTables, game: PlayableGame, player: int, action: Action
) -> tuple[Suggestion, PlayableGame]:
    """A legal placement tried through the engine; the suggestion and the game after it."""
    placed = game.clone(keep_log=False)
    placed.apply(action)
    gained = placed.score_of(player) - game.score_of(player)
    _patch, col, row = action.args
    cell = row * logic.columns + col
    reasons = _gains(logic, game, placed, player)
    head = f"+{gained} now: {', '.join(reasons)}" if reasons else f"+{gained} now"
    notes = _goal_notes(logic, game, placed, player, cell)
    value = _value(logic, placed, player)
    return Suggestion((action,), value, (head, *notes)), placed


def _best_take(logic: CalicoTables, placed: PlayableGame, player: int) -> Suggestion | None:
    """After a placement, the market patch whose best placement next turn is worth most."""
    if placed.is_over() or placed.current_player != player:
        return None  # the placement filled the quilt: no market step (K-3.4)
    takes = [a for a in placed.legal_actions() if a.kind == "take"]
    if not takes:
        return None
    found = [_take(logic, placed, player, a) for a in takes]
    found.sort(key=lambda s: (-s.value, s.actions[0].text))
    return found[0]


def _take(logic: CalicoTables, game: PlayableGame, player: int, action: Action) -> Suggestion:
    """A legal take, valued by the best hex for the taken patch on the quilt as it stands."""
    taken = game.clone(keep_log=False)
    taken.apply(action)
    patch = action.args[0]
    g = taken.state["g"]
    best: tuple[float, int, list[str]] | None = None
    for cell, value in enumerate(g["quilts"][player]):
        if value != EMPTY:
            continue
        trial = taken.clone(keep_log=False)
        logic.placing.place(
            trial, trial.state["g"], player, patch, cell
        )  # a look ahead, not a move
        score = _value(logic, trial, player)
        if best is None or score > best[0]:
            best = (score, cell, _gains(logic, taken, trial, player))
    name = logic.patch_names[patch]
    if best is None:
        return Suggestion((action,), _value(logic, taken, player), ())
    score, cell, gains = best
    if gains:
        reason = f"next turn {name} on {logic.cell_text[cell]} " + ", ".join(gains)
    else:
        reason = f"next turn {name} fits best on {logic.cell_text[cell]}"
    return Suggestion((action,), score, (reason,))


def _goal_suggestions(
    logic: CalicoTables, game: PlayableGame, player: int, legal: list[Action]
) -> list[Suggestion]:
    """Goal arrangements (K-2.2) valued by the goal outlook of the patches already around the
    goal spaces; when none are, every arrangement is as good and one line says so."""
    tried = []
    for action in legal:
        if action.kind != "goals":
            continue
        placed = game.clone(keep_log=False)
        placed.apply(action)
        tried.append((_outlook(logic, placed.state["g"], player), action))
    if not tried:
        return []
    tried.sort(key=lambda t: (-t[0], t[1].text))
    if tried[0][0] == tried[-1][0]:
        return [
            Suggestion(
                (tried[0][1],),
                tried[0][0],
                ("no patch lies around the goal spaces yet, so every arrangement is as good",),
            )
        ]
    return [
        Suggestion((action,), value, (f"the patches around the goal spaces promise {value:.1f}",))
        for value, action in tried
    ]
