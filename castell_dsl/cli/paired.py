"""What `castell compare` and `castell analyze` check before playing paired games: the same
refusals, codes and messages as `validate` and `simulate` (rules with errors print their
diagnostics and exit 1; a player count, bot or scheduler they cannot use exits 2)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import click

from . import EXIT_FAILED, EXIT_USAGE


def paired_options(games: int) -> Callable[[Callable], Callable]:
    """The options of a paired run: games (default `games`), players, bots, seed, jobs and a
    Dask scheduler."""
    options = [
        click.option("--games", "-n", type=click.IntRange(min=2), default=games,
                     show_default=True),
        click.option("--players", "-p", type=click.IntRange(min=1), default=4, show_default=True),
        click.option("--bots", default="random", show_default=True,
                     help="Bots by seat, or one for all."),
        click.option("--seed", type=int, default=0, show_default=True, help="Game i uses seed+i."),
        click.option("--jobs", "-j", type=click.IntRange(min=1), default=1,
                     help="Local processes [1]."),
        click.option("--scheduler", default=None,
                     help="A Dask scheduler address (tcp://HOST:PORT)."),
    ]  # fmt: skip

    def decorate(func: Callable) -> Callable:
        from .options import agent_options

        for option in reversed(options):
            func = option(func)
        return agent_options(func)

    return decorate


def usage_error(ctx: click.Context, command: str, message: str) -> NoReturn:
    from ..language.text import visible

    click.echo(visible(f"castell {command}: error: {message}"), err=True)
    ctx.exit(EXIT_USAGE)


def check_run(
    ctx: click.Context,
    command: str,
    contenders: Sequence[Any],
    players: int,
    bots: str | Sequence[str],
    seed: int,
    scheduler: str | None = None,
    *,
    adjust_seats: Callable[[list[str]], list[str]] | None = None,
) -> tuple[list[Any], list[str]]:
    """Load each contender's rules (with errors: print their diagnostics, exit 1) and refuse,
    before any game is played, what the run could not use (exit 2), and a Dask `scheduler`
    that does not answer: `simulate`, `compare` and `analyze` share this, and the library's
    `simulate` its `api.simulation.check_run`. Returns the contenders' rule sets and the bot
    spec of every seat (`bots`: the `--bots` text, comma-separated with one name for all, or
    one spec per seat; `adjust_seats`, e.g. the agent options, rewrites them before they are
    checked). A message names the contender when there are several."""
    from ..api.simulation import check_run as check_options
    from ..runtime.bots import BotSpecError
    from ..runtime.games import GameSetupError
    from ..runtime.loading import load_report
    from ..runtime.simulation import SchedulerError, connect_scheduler
    from .rules import print_diagnostics

    loaded = []
    for contender in contenders:
        report = load_report(contender.rules, contender.variants)
        if not report.ok or report.rules is None:
            print_diagnostics(report)
            ctx.exit(EXIT_FAILED)
        loaded.append(report.rules)
    seats: list[str] = []
    for contender, rules in zip(contenders, loaded, strict=True):
        try:
            seats = check_options(rules, players, bots, seed, adjust_seats=adjust_seats)
        except (BotSpecError, GameSetupError) as exc:
            named = f"{contender.label}: " if len(contenders) > 1 else ""
            usage_error(ctx, command, f"{named}{exc}")
    if scheduler:
        try:
            connect_scheduler(scheduler).close()
        except SchedulerError as exc:
            usage_error(ctx, command, str(exc))
    return loaded, seats
