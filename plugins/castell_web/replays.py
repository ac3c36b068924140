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


def steps_of(record: Any) -> dict[str, Any]:
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
    return {
        "game": game.rules.game.title,
        "rules": game.rules.name,
        "mechanics": game.rules.game.mechanics,
        "seats": record.get("seats"),
        "steps": steps,
        "result": game.result() if game.is_over() else None,
    }
