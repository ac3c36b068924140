"""`castell analyze`: a design report for a rule set or variant (docs/analysis.md)."""

from __future__ import annotations

import json
import sys

import click

from . import EXIT_FAILED, EXIT_OK
from .paired import paired_options


@click.command()
@click.argument("rules")
@click.option("--variant", "variants", multiple=True, help="A variant by name or path (repeat).")
@click.option("--against", "base", default=None, help="A base rule set to compare with.")
@paired_options(games=200)
@click.option("--skill/--no-skill", default=True, show_default=True, help="The skill ladder.")
@click.option(
    "--budget", type=click.FloatRange(min=0), default=300.0, show_default=True,
    help="CPU seconds the skill ladder may spend (summed over processes).",
)  # fmt: skip
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--html", "html_path", default=None, help="Also write the report as one HTML page.")
@click.option("--no-progress", is_flag=True, help="No progress bar on standard error.")
@click.pass_context
def analyze(
    ctx: click.Context,
    rules: str,
    variants: tuple[str, ...],
    base: str | None,
    games: int,
    players: int,
    bots: str,
    seed: int,
    agent_timeout: float | None,
    on_agent_error: str | None,
    jobs: int,
    scheduler: str | None,
    skill: bool,
    budget: float,
    fmt: str,
    html_path: str | None,
    no_progress: bool,
) -> None:
    """A design report for RULES: balance, decisiveness, drama, length and branching, score
    structure, skill depth and rule coverage, with 95% intervals and verdicts.

    RULES and --against take the forms of `castell compare` (a name, a path, a variant file,
    castell+short-season). The same options give the same report for any --jobs or on Dask.
    """
    from ..runtime.analysis.report import analyze as run
    from ..runtime.paired import bots_for, parse_contender, with_variants
    from .paired import check_paired_run

    subject = with_variants(parse_contender(rules), variants)
    contenders = [subject] + ([parse_contender(base)] if base else [])
    from .options import agent_seats

    seats = agent_seats(bots_for(bots, players), agent_timeout, on_agent_error)
    check_paired_run(ctx, "analyze", contenders, players, seats, seed, scheduler)
    progress = None
    if fmt == "text" and not no_progress and sys.stderr.isatty():
        from .simulate import progress_bar

        ladder = min(games, 40) * 3 * len(contenders) if skill else 0
        progress = progress_bar(games + ladder, "analysing")
        progress.start()
    try:
        data = run(
            subject, contenders[1] if base else None, players, seats, seed, games, jobs,
            scheduler, skill, budget,
            on_game=(lambda: progress.advance(progress.task_ids[0])) if progress else None,
        )  # fmt: skip
    finally:
        if progress is not None:
            progress.stop()
    if fmt == "json":
        click.echo(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        from .analyze_text import print_report

        print_report(data)
    if html_path is not None:
        from ..runtime.analysis.html import render_html

        try:
            with open(html_path, "w", encoding="utf-8") as out:
                out.write(render_html(data))
        except OSError as exc:
            click.echo(f"castell analyze: error: --html {html_path}: {exc.strerror}", err=True)
            ctx.exit(EXIT_FAILED)
        if fmt == "text":
            click.echo(f"HTML report written to {html_path}")
    ctx.exit(EXIT_OK)
