"""`castell compare`: play the same games under several rule sets and compare them."""

from __future__ import annotations

import json

import click

from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE


def _error(ctx: click.Context, message: str) -> None:
    from ..language.text import visible

    click.echo(visible(f"castell compare: error: {message}"), err=True)
    ctx.exit(EXIT_USAGE)


@click.command()
@click.argument("base")
@click.argument("variants", nargs=-1, required=True)
@click.option("--games", "-n", type=click.IntRange(min=2), default=100, show_default=True)
@click.option("--players", "-p", type=click.IntRange(min=1), default=4, show_default=True)
@click.option("--bots", default="random", show_default=True, help="Bots by seat, or one for all.")
@click.option("--seed", type=int, default=0, show_default=True, help="Game i uses seed+i.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, help="Local processes [1].")
@click.option("--scheduler", default=None, help="A Dask scheduler address (tcp://HOST:PORT).")
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
    from ..runtime.bots import BotSpecError, make_bot
    from ..runtime.compare import (
        PLOT_SUFFIXES,
        PlotError,
        parse_contender,
        plot,
        render_text,
        report,
        run_compare,
    )
    from ..runtime.games import GameSetupError, start_game
    from ..runtime.loading import load_report
    from ..runtime.simulation import SchedulerError, connect_scheduler
    from .rules import print_diagnostics

    if plot_path is not None:
        if not plot_path.lower().endswith(PLOT_SUFFIXES):
            _error(ctx, f"--plot {plot_path}: the file must end in .png or .svg")
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:
            _error(ctx, 'matplotlib is not installed: pip install "castell-dsl[plot]"')
    contenders = [parse_contender(text) for text in (base, *variants)]
    seats = [b.strip() for b in bots.split(",") if b.strip()]
    if len(seats) == 1:
        seats = seats * players
    if len(seats) != players:
        _error(ctx, f"--bots names {len(seats)} bots for {players} players")
    for contender in contenders:
        loaded = load_report(contender.rules, contender.variants)
        if not loaded.ok:
            print_diagnostics(loaded)
            ctx.exit(EXIT_FAILED)
        rules = loaded.rules
        assert rules is not None
        low, high = rules.game.players
        if not low <= players <= high:
            _error(ctx, f"{contender.label}: {rules.game.title} is for {low} to {high} players")
        try:
            for seat, spec in enumerate(seats):
                make_bot(spec, rules, seat, 0)
            start_game(rules, players, seed, record_events=False)
        except (BotSpecError, GameSetupError) as exc:
            _error(ctx, f"{contender.label}: {exc}")
    if scheduler:
        try:
            connect_scheduler(scheduler).close()
        except SchedulerError as exc:
            _error(ctx, str(exc))
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
