"""`castell analyze`'s report: the games played, folded, judged, as JSON (`castell-analysis/1`).

`analyze` plays `games` paired games of every rule set (the subject first, then `--against`'s
base) through the paired-seed machinery, folds each game's records into running aggregates as
they arrive (in game order, so the result is the same for any `--jobs` or on Dask), runs the
skill ladder, and assembles the JSON report: settings, per rule set its verdicts and
sections, and with a base the paired differences. Its schema is `schema.json` beside this
file, documented in docs/analysis.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from ..games import logic_for
from ..loading import load_report, load_rules
from ..paired import Contender, PairedSpec, run_paired
from . import verdicts
from .aggregate import PairedAggregate, RuleSetAggregate
from .ladder import DEFAULT_RUNGS, MAX_LADDER_GAMES, run_ladder
from .measure import SAMPLE_EVERY, measure_game

SCHEMA = "castell-analysis/1"


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the report (`schema.json`)."""
    return json.loads(resources.files(__package__).joinpath("schema.json").read_text())


def rule_warnings(contender: Contender) -> list[dict[str, Any]]:
    """The rule set's own warnings (`castell validate`'s designer lints: what compiles but can
    never come into play), where they are: the coverage shows them beside what play found."""
    report = load_report(contender.rules, contender.variants)
    return [
        {
            "code": d.code,
            "message": d.message,
            "where": f"{Path(d.span.path).name}:{d.span.line}",
        }
        for d in report.diagnostics
        if not d.is_error
    ]


def analyze(
    subject: Contender,
    base: Contender | None,
    players: int,
    bots: Sequence[str],
    seed: int = 0,
    games: int = 200,
    jobs: int = 1,
    scheduler: Any = None,
    skill: bool = True,
    budget: float = 300.0,
    rungs: Sequence[str] = DEFAULT_RUNGS,
    on_game: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """The analysis report of `subject` (and its paired differences from `base`)."""
    contenders = (subject,) if base is None else (subject, base)
    spec = PairedSpec(contenders, players, tuple(bots), seed, games)
    loaded = [load_rules(c.rules, c.variants) for c in contenders]
    logics = [logic_for(r) for r in loaded]
    aggregates = [
        RuleSetAggregate(players, r.game.rounds, logic.items())
        for r, logic in zip(loaded, logics, strict=True)
    ]
    paired = PairedAggregate(players) if base is not None else None
    measure = partial(measure_game, every=SAMPLE_EVERY)
    for records in run_paired(spec, measure, jobs, scheduler):
        for aggregate, record in zip(aggregates, records, strict=True):
            aggregate.add(record)
        if paired is not None:
            paired.add(records[1], records[0])
        if on_game is not None:
            on_game()
    ladders: list[dict[str, Any] | None] = [None] * len(contenders)
    if skill:
        ladders = list(
            run_ladder(
                [(c.rules, c.variants) for c in contenders], players, seed, games, budget,
                rungs, jobs, scheduler, on_game,
            )
        )  # fmt: skip
    rule_sets = []
    for contender, rules, logic, aggregate, ladder in zip(
        contenders, loaded, logics, aggregates, ladders, strict=True
    ):
        sections = aggregate.sections(list(logic.item_lints()), SAMPLE_EVERY)
        sections["coverage"]["warnings"] = rule_warnings(contender)
        for row in sections["coverage"]["items"]:
            row["flags"] = verdicts.item_flags(row, games)
        judged = [
            *verdicts.balance(sections, players),
            *verdicts.decisiveness(sections, players),
            *verdicts.drama(sections, players, rules.game.rounds),
            *verdicts.length(sections),
            *verdicts.scores(sections),
            *(verdicts.skill(ladder) if ladder is not None else []),
            *verdicts.coverage(sections, games),
        ]
        rule_sets.append(
            {
                "label": contender.label,
                "rules": contender.rules,
                "variants": list(contender.variants),
                "title": str(rules.game.title),
                "hash": rules.hash,
                "rounds": rules.game.rounds,
                "verdicts": judged,
                "sections": sections,
                "skill": ladder,
            }
        )
    against = None
    if base is not None and paired is not None:
        differences = paired.summary()
        against = {
            "label": subject.label,
            "versus": base.label,
            "method": "paired t interval, 95%, over games with the same seeds and bots",
            "differences": differences,
            "verdicts": verdicts.against(differences, subject.label, base.label),
        }
    return {
        "schema": SCHEMA,
        "settings": {
            "games": games,
            "players": players,
            "bots": list(bots),
            "seed": seed,
            "skill": skill,
            "budget_seconds": budget,
            "ladder_rungs": list(rungs),
            "ladder_games": min(games, MAX_LADDER_GAMES),
            "branching_sample_every": SAMPLE_EVERY,
        },
        "rule_sets": rule_sets,
        "against": against,
    }
