"""A finished (or saved) game as steps for the replay page: the view after every action.

An uploaded save comes from a stranger, so it is read by names only: its rule set and variants
must be installed ones, chosen by name (the host's `Catalogue`); the paths and file
hashes a save also records are never opened, looked at or quoted, so an upload can neither
make the server read a file nor learn whether one exists. The record, reduced to those names,
is then replayed and verified like `castell replay` does (an altered save is refused with the
reason), and replayed again step by step to collect the views.
"""

from __future__ import annotations

from typing import Any

from castell_dsl.contract import RuleSet
from castell_dsl.contract.services import FrontendServices, SaveError
from castell_dsl.contract.standings import decided_by, describe

from .lobby import load_named_rules
from .matches import Refused

#: Longer logs than this are refused (a hand-made save must not make the server work for long).
MAX_ACTIONS = 5000


def by_names(services: FrontendServices, record: Any) -> tuple[dict[str, Any], str, list[str]]:
    """The save with its rules identity reduced to names (rule set, variants) and hash: what
    the server may use of it; with that rule set's and those variants' names. Refused when it
    is not a save or names its rules by files rather than installed names."""
    try:
        record = services.check_record(record, "the save")
    except SaveError as exc:
        raise Refused(str(exc)) from None
    if len(record["actions"]) > MAX_ACTIONS:
        raise Refused(f"'actions' must be a list of at most {MAX_ACTIONS} action texts")
    info = record["rules"]
    refused = Refused(
        "this save was played with rule files, not installed rule sets: replay it with "
        "`castell replay` where those files are"
    )
    current = services.save_format
    if record["format"] == current:
        given = info["given"]
        if "name" not in given or any("name" not in v for v in info.get("variants") or []):
            raise refused
        name, variants = given["name"], [v["name"] for v in info.get("variants") or []]
        clean = {
            "name": info["name"],
            "content_hash": info["content_hash"],
            "given": {"name": name},
            "variants": [{"name": v} for v in variants],
            "files": [],
        }
    else:
        file = info.get("file") if record["format"] != "castell-save/1" else None
        name = (file or {}).get("bundled") or info["name"]
        variants = [v if isinstance(v, str) else v["name"] for v in info.get("variants") or []]
        clean = {
            "name": name,
            "hash": info["hash"],
            "file": None,
            "variants": [{"name": v} for v in variants],
            "files": [],
        }
    fmt = record["format"] if record["format"] == current else "castell-save/2"
    return {**record, "format": fmt, "rules": clean}, name, variants


def steps_of(
    services: FrontendServices,
    record: Any,
    names: list[str] | None = None,
    rules: RuleSet | None = None,
) -> dict[str, Any]:
    """The steps of a save record; `names` labels its seats (a match's players' names; by
    default `seat N (kind)`). `rules`: the rules of a match of this server that has no
    installed name (a studio variant's), given by the server, never by the record."""
    if rules is None:
        clean, name, variants = by_names(services, record)
        # installed names only: refused before anything is read
        load_named_rules(services, name, variants)
        try:
            game = services.replay(clean, verify=True, installed_only=True)
        except SaveError as exc:
            raise Refused(str(exc)) from None
    else:
        name = str(record["rules"]["name"])
        options = record["options"]
        game = services.start_game(rules, options["players"], options["seed"], record_events=False)
        for text in record["actions"]:
            game.apply(text)
    fresh = services.start_game(game.rules, game.players, game.seed, record_events=False)
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
        "rules": name,
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
