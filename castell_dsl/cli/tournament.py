"""`castell tournament`: a round robin between bots (and programs), rated by Bradley-Terry."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from . import EXIT_FAILED, EXIT_OK
from .options import agent_options, rules_options


@click.command()
@click.option("--bots", required=True, help="The bots to rate, comma-separated (at least two).")
@click.option(
    "--games", "-n", type=click.IntRange(min=1), default=60, show_default=True,
    help="Games in all, rounded up to whole rounds (a round plays every seat order once).",
)  # fmt: skip
@click.option("--players", "-p", type=click.IntRange(min=2), default=None, help="Players [2].")
@click.option("--seed", type=int, default=0, show_default=True, help="Round r uses seed+r.")
@rules_options
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, help="Local processes [1].")
@click.option("--scheduler", default=None, help="A Dask scheduler address (tcp://HOST:PORT).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--html", "html_path", default=None, help="Also write the ratings as one HTML page.")
@click.option("--no-progress", is_flag=True, help="No progress bar on standard error.")
@agent_options
@click.pass_context
def tournament(ctx: click.Context, **options: Any) -> None:
    """Rate bots in a round robin: every seat order of the bots plays the same seeds.

    Reports Bradley-Terry ratings on the Elo scale with bootstrap 95% intervals, and the
    pairwise win rates. The same options give the same report for any --jobs or on Dask.
    """
    from ..runtime.paired import bots_for
    from ..runtime.tournament import TournamentError, TournamentSpec, rounds_for, run_tournament
    from .options import agent_seats
    from .paired import check_paired_run, usage_error
    from .tournament_report import render_html, render_text

    labels = bots_for(options["bots"], 1)
    if len(set(labels)) != len(labels):
        usage_error(ctx, "tournament", "--bots names a bot twice: each bot is rated once")
    players = options["players"] or 2
    from ..runtime.paired import Contender

    rules = options["rules"]
    if rules is None:
        from ..runtime.loading import default_rules

        rules = default_rules()
    variants = tuple(options["variants"])
    specs = agent_seats(labels, options["agent_timeout"], options["on_agent_error"])
    try:
        rounds = rounds_for(options["games"], len(specs), players)
    except TournamentError as exc:
        usage_error(ctx, "tournament", str(exc))
    # The same refusals as compare and analyze: rules with errors, a player count, a bot.
    for bot in specs:
        check_paired_run(
            ctx, "tournament", [Contender(rules, rules, variants)], players,
            [bot] * players, options["seed"], None,
        )  # fmt: skip
    if options["scheduler"]:
        from ..runtime.simulation import SchedulerError, connect_scheduler

        try:
            connect_scheduler(options["scheduler"]).close()
        except SchedulerError as exc:
            usage_error(ctx, "tournament", str(exc))
    spec = TournamentSpec(
        rules, variants, players, tuple(labels), tuple(specs), options["seed"], rounds
    )
    progress = None
    if options["fmt"] == "text" and not options["no_progress"] and sys.stderr.isatty():
        from .simulate import progress_bar

        progress = progress_bar(rounds, "rounds")
        progress.start()
    try:
        standings = run_tournament(
            spec, options["jobs"], options["scheduler"],
            on_round=lambda _records: progress and progress.advance(progress.task_ids[0]),
        )  # fmt: skip
    finally:
        if progress is not None:
            progress.stop()
    data = {
        "rules": rules,
        "variants": list(variants),
        "lineups": len(spec.lineups),
        **standings.to_json(options["seed"]),
    }
    if options["fmt"] == "json":
        click.echo(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        click.echo(render_text(data), nl=False)
    if options["html_path"]:
        try:
            with open(options["html_path"], "w", encoding="utf-8") as out:
                out.write(render_html(data))
        except OSError as exc:
            click.echo(f"castell tournament: error: --html: {exc.strerror or exc}", err=True)
            ctx.exit(EXIT_FAILED)
        if options["fmt"] == "text":
            click.echo(f"report written to {options['html_path']}")
    ctx.exit(EXIT_OK)
