"""A finished (or saved) game as steps for the replay page: the view after every action.

The record is first replayed and verified like `castell replay` does, so an altered save is
refused with the reason, then replayed again step by step to collect the views.
"""

from __future__ import annotations

from typing import Any

from castell_dsl.runtime.games import start_game
from castell_dsl.runtime.saves import REQUIRED, SaveError, replay

from .matches import Refused

#: Longer logs than this are refused (a hand-made save must not make the server work for long).
MAX_ACTIONS = 5000


def steps_of(record: Any, names: list[str] | None = None) -> dict[str, Any]:
    """The steps of a save record; `names` labels its seats (a match's players' names; by
    default `seat N (kind)`)."""
    from castell_dsl.runtime.standings import decided_by, describe

    if not isinstance(record, dict) or any(key not in record for key in REQUIRED):
        raise Refused("not a Castell DSL save file (it needs " + ", ".join(REQUIRED) + ")")
    if not isinstance(record.get("actions"), list) or len(record["actions"]) > MAX_ACTIONS:
        raise Refused(f"'actions' must be a list of at most {MAX_ACTIONS} action texts")
    try:
        game = replay(record, verify=True)
    except SaveError as exc:
        raise Refused(str(exc)) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise Refused(f"the save file is malformed ({exc})") from None
    fresh = start_game(game.rules, game.players, game.seed, record_events=False)
    steps: list[dict[str, Any]] = [
        {"action": None, "player": None, "round": fresh.round, "view": fresh.view()}
    ]
    for text in game.log:
        player = fresh.current_player
        fresh.apply(text)
        steps.append({"action": text, "player": player, "round": fresh.round, "view": fresh.view()})
    seats = record.get("seats")
    if names is None:
        kinds = seats if isinstance(seats, list) and len(seats) == game.players else None
        names = [
            f"seat {i}" + (f" ({kinds[i]})" if kinds and kinds[i] != "you" else "")
            for i in range(game.players)
        ]
    out: dict[str, Any] = {
        "game": game.rules.game.title,
        "rules": game.rules.name,
        "mechanics": game.rules.game.mechanics,
        "seats": seats,
        "names": names,
        "legend": game.logic.legend(),
        "steps": steps,
        "result": None,
    }
    if game.is_over():
        result = game.result()
        top = max(p["total"] for p in result["players"])
        out["result"] = result
        out["decided"] = describe(decided_by(game), top, names.__getitem__)
        out["outcome"] = game.logic.outcome(result.get("report") or {})
    return out
