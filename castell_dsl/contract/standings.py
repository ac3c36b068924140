"""Who won and why: the final standings with the rule that decided them, for front-ends.

`Game.result()` names the winners; a result panel also says what decided: the totals alone,
one of the rule set's tie-breaks (its `scoring { tiebreak = … }` lines, in order), or nothing
(a shared win). `decided_by` works that out from `Game.scores()` the way the engine ranks
(highest total, then each tie-break in order), and `describe` says it in a sentence with the
seat labels a front-end uses (a player's name, "seat 1 (greedy)").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def tiebreak_names(rules: Any) -> list[str]:
    """The rule set's tie-breaks as written (`best_tower_score`, `count(cat_tokens)`)."""
    scoring = rules.one("scoring")
    return [slot.source for slot in scoring.tiebreak]


def decided_by(game: Any) -> dict[str, Any]:
    """What decided the ranking of a game scored now.

    Returns `{"by": …, "tied": [seats], "tiebreak": name or None, "values": {seat: value}}`
    where `by` is `"alone"` (one player), `"total"` (the highest total alone), `"tiebreak"`
    (the seats in `tied` had the same total; the tie-break `tiebreak` separated them, with
    these `values`) or `"shared"` (still level after every tie-break: a shared win).
    """
    scores = game.scores()
    if len(scores) == 1:
        return {"by": "alone", "tied": [], "tiebreak": None, "values": {}}
    top = max(s["total"] for s in scores)
    tied = [s for s in scores if s["total"] == top]
    if len(tied) == 1:
        return {"by": "total", "tied": [], "tiebreak": None, "values": {}}
    names = tiebreak_names(game.rules)
    level = tied
    for index, name in enumerate(names):
        best = max(s["tiebreaks"][index] for s in level)
        values = {s["seat"]: s["tiebreaks"][index] for s in level}
        ahead = [s for s in level if s["tiebreaks"][index] == best]
        if len(ahead) < len(level):
            return {
                "by": "tiebreak",
                "tied": [s["seat"] for s in tied],
                "tiebreak": name,
                "values": values,
            }
        level = ahead
    return {"by": "shared", "tied": [s["seat"] for s in tied], "tiebreak": None, "values": {}}


def _readable(expression: str) -> str:
    return expression.replace("_", " ")


def describe(decided: dict[str, Any], total: int, label: Callable[[int], str]) -> str:
    """`decided_by`'s answer in a sentence ("" when the totals alone decided or one played);
    `total` is the winning total, `label` names a seat."""
    tied = decided["tied"]
    names = " and ".join(label(s) for s in tied)
    if decided["by"] == "tiebreak":
        values = ", ".join(f"{label(s)} {v}" for s, v in decided["values"].items())
        return (
            f"{names} tied on {total} points; the tie-break "
            f"'{_readable(decided['tiebreak'])}' decided ({values})."
        )
    if decided["by"] == "shared":
        return f"{names} tied on {total} points and on every tie-break: they share the win."
    return ""
