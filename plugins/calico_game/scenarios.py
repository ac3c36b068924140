"""Scenario objectives (K-8.4): which of a scenario's objectives each player met.

Objectives are data (`objective NAME { at_least N }` in a scenario variant file); this module
says what each name measures:

- `score`: the final score; `rainbow`: rainbow buttons; `each_cat`: how many of the cats in play
  the player has a token of (met when all of them);
- `cat_tokens`, `tokens_of_one_cat`, `buttons_of_one_colour`: counts of tokens and buttons;
- `goals_both_ways`: design goals met both ways; `goals`: design goals met either way.

How "2 goals + 1 both ways" reads is the scenario file's: `objective goals { at_least 2  plus
goals_both_ways }` needs two goals beyond the one `goals_both_ways` asks for (three goals, one
of them both ways); without `plus` the two counts overlap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from castell_dsl.contract import GameContext, Record

if TYPE_CHECKING:
    from .tables import CalicoTables


def measures(logic: CalicoTables, game: GameContext, player: int) -> dict[str, int]:
    """What every objective name measures for one player now."""
    g = game.state["g"]
    facts = logic.facts(game, player)
    tokens = [c for c in g["tokens"][player] if c >= 0]
    by_cat = {cat: tokens.count(cat) for cat in g["cats"]}
    by_colour = [0] * logic.ncolours
    for colour in g["buttons"][player]:
        if colour >= 0:
            by_colour[colour] += 1
    return {
        "score": game.score_of(player),
        "rainbow": len(g["rainbows"][player]),
        "each_cat": sum(1 for n in by_cat.values() if n),
        "cat_tokens": len(tokens),
        "tokens_of_one_cat": max(by_cat.values(), default=0),
        "buttons_of_one_colour": max(by_colour, default=0),
        "goals": len(facts["goals_one_way"]) + len(facts["goals_both_ways"]),
        "goals_both_ways": len(facts["goals_both_ways"]),
    }


def needed(scenario: Record, name: str, cats_in_play: int) -> int:
    """The value an objective needs: its `at_least`, plus the `at_least` of the objective its
    `plus` names (the checks make sure that one is there)."""
    objective = scenario.objective[name]
    if name == "each_cat":
        return cats_in_play
    if name == "rainbow":
        return 1
    if objective.plus is not None:
        return objective.at_least + scenario.objective[objective.plus].at_least
    return objective.at_least


def scenario_report(logic: CalicoTables, game: GameContext, scenario: Record) -> dict[str, Any]:
    """Per player, each objective with what it needs, what was reached, and whether it was
    met; a player passes the scenario by meeting all of them (K-8.4)."""
    players = []
    cats_in_play = len(game.state["g"]["cats"])
    for player in range(game.players):
        values = measures(logic, game, player)
        objectives = []
        for name in scenario.objective:
            need = needed(scenario, name, cats_in_play)
            objectives.append(
                {
                    "objective": name,
                    "at_least": scenario.objective[name].at_least,
                    "plus": scenario.objective[name].plus,
                    "needed": need,
                    "value": values[name],
                    "met": values[name] >= need,
                }
            )
        players.append(
            {
                "seat": player,
                "passed": all(o["met"] for o in objectives),
                "objectives": objectives,
            }
        )
    return {"number": scenario.number, "title": scenario.title, "players": players}


def outcome_lines(report: dict[str, Any], words: dict[str, str]) -> list[str]:
    """A finished scenario in words, per player: passed, or not passed with the objectives
    missed (K-8.4): `Scenario 1 not passed: rainbow button 0 of 1 (missed), score 45 of 58
    (missed).` `words` names the objectives (the views' `OBJECTIVE_WORDS`)."""
    scenario = report.get("scenario")
    if not isinstance(scenario, dict):
        return []
    title = str(scenario.get("title") or f"Scenario {scenario.get('number')}")
    players = scenario.get("players") or []
    lines = []
    for player in players:
        parts = []
        for objective in player["objectives"]:
            name = words.get(objective["objective"], objective["objective"])
            state = "met" if objective["met"] else "missed"
            parts.append(f"{name} {objective['value']} of {objective['needed']} ({state})")
        who = f"Seat {player['seat']}: " if len(players) > 1 else ""
        verdict = "passed" if player["passed"] else "not passed"
        lines.append(f"{who}{title} {verdict}: {', '.join(parts)}.")
    return lines
