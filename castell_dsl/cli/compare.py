"""`castell compare`: play the same games under several rule sets and compare them."""

from __future__ import annotations

import json

import click

from . import EXIT_OK
from .paired import paired_options


def _error(ctx: click.Context, message: str) -> None:
    from .paired import usage_error

    usage_error(ctx, "compare", message)


@click.command()
@click.argument("base")
@click.argument("variants", nargs=-1, required=True)
@paired_options(games=100)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--plot", "plot_path", default=None, help="Write score distributions (.png, .svg).")
@click.pass_context
def compare(
    ctx: click.Context,
    base: str,
    variants: tuple[str, ...],
    games: int,
    players: int,
    bots: str,
    seed: int,
    agent_timeout: float | None,
    on_agent_error: str | None,
    jobs: int,
    scheduler: str | None,
    fmt: str,
    plot_path: str | None,
) -> None:
    """Compare BASE with each VARIANT on the same games (same seeds, same bots).

    Each is a rule set's name or path, a variant file's path (a file that extends), or
    RULES+VARIANT[+VARIANT…] (castell+short-season). Reports means with 95% intervals and
    the paired difference from BASE (paired t), wins by seat and turn position (Wilson), game
    length, and how often each item of the players' list facts is held at the end.
    """
    from ..runtime.compare import (
        PLOT_SUFFIXES,
        PlotError,
        parse_contender,
        plot,
        render_text,
        report,
        run_compare,
    )
    from ..runtime.paired import bots_for
    from .paired import check_paired_run

    if plot_path is not None:
        if not plot_path.lower().endswith(PLOT_SUFFIXES):
            _error(ctx, f"--plot {plot_path}: the file must end in .png or .svg")
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:
            _error(ctx, 'matplotlib is not installed: pip install "castell-dsl[plot]"')
    contenders = [parse_contender(text) for text in (base, *variants)]
    from .options import agent_seats

    seats = agent_seats(bots_for(bots, players), agent_timeout, on_agent_error)
    check_paired_run(ctx, "compare", contenders, players, seats, seed, scheduler)
    collected = run_compare(contenders, players, seats, seed, games, jobs, scheduler)
    data = report(collected, players, seats, seed)
    if fmt == "json":
        click.echo(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        click.echo(render_text(data), nl=False)
    if plot_path is not None:
        try:
            plot(collected, plot_path)
        except PlotError as exc:
            _error(ctx, str(exc))
        if fmt == "text":
            click.echo(f"plot written to {plot_path}")
    ctx.exit(EXIT_OK)
