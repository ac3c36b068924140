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


def check_paired_run(
    ctx: click.Context,
    command: str,
    contenders: Sequence[Any],
    players: int,
    seats: list[str],
    seed: int,
    scheduler: str | None,
) -> None:
    """Refuse, before any game is played, what the run could not use."""
    from ..runtime.bots import BotSpecError, make_bot
    from ..runtime.games import GameSetupError, check_players, start_game
    from ..runtime.loading import load_report
    from ..runtime.simulation import SchedulerError, connect_scheduler
    from .rules import print_diagnostics

    if len(seats) != players:
        usage_error(ctx, command, f"--bots names {len(seats)} bots for {players} players")
    for contender in contenders:
        loaded = load_report(contender.rules, contender.variants)
        if not loaded.ok:
            print_diagnostics(loaded)
            ctx.exit(EXIT_FAILED)
        rules = loaded.rules
        assert rules is not None
        try:
            check_players(rules, players)
            for seat, spec in enumerate(seats):
                make_bot(spec, rules, seat, 0)
            start_game(rules, players, seed, record_events=False)
        except (BotSpecError, GameSetupError) as exc:
            usage_error(ctx, command, f"{contender.label}: {exc}")
    if scheduler:
        try:
            connect_scheduler(scheduler).close()
        except SchedulerError as exc:
            usage_error(ctx, command, str(exc))
