"""`castell play`: a game against friends (hot-seat) and bots, through a front-end plugin."""

from __future__ import annotations

import secrets
from typing import Any

import click

from . import EXIT_FAILED, EXIT_USAGE
from .options import agent_options, agent_seats, load_config_or_exit, rules_options


def _error(ctx: click.Context, message: str, code: int = EXIT_USAGE) -> None:
    from ..language.text import visible

    click.echo(visible(f"castell play: error: {message}"), err=True)
    ctx.exit(code)


@click.command()
@click.option(
    "--players", default=None, help="Seats, comma-separated: you, or a bot [you,greedy,mcts]."
)
@click.option("--seed", type=int, default=None, help="The game's seed [random, printed].")
@rules_options
@click.option("--load", "load_path", type=click.Path(dir_okay=False), help="Continue a save.")
@click.option("--config", type=click.Path(dir_okay=False), help="A game YAML file.")
@click.option("--frontend", default=None, help="terminal (default) or jsonl, or a plugin's.")
@click.option("--save-to", type=click.Path(dir_okay=False), help="Where quit saves the game.")
@agent_options
@click.pass_context
def play(ctx: click.Context, **options: Any) -> None:
    """Play a game: you against bots, or with friends at one keyboard.

    At the prompt type a listed action's number, an action (move Girona, tower 6,6,6/5,5/4/3…),
    or help, hint, undo, save, quit. Moves may be piped in: castell play < moves.txt.
    """
    from pathlib import Path

    from ..runtime.bots import BotSpecError
    from ..runtime.games import GameSetupError, check_players
    from ..runtime.loading import default_rules, load_report
    from ..runtime.plugins import registries
    from ..runtime.saves import SaveError
    from ..runtime.session import Session, check_save_path, parse_seats, save_problem

    settings = load_config_or_exit(ctx, options.pop("config"), "play", options)
    frontends = registries().frontends
    name = settings.get("frontend", "terminal")
    frontend = frontends.get(name)
    if frontend is None:
        _error(ctx, f"unknown front-end '{name}' (front-ends: {', '.join(sorted(frontends))})")
    assert frontend is not None
    save_to = None
    if settings.get("save_to"):
        try:
            save_to = check_save_path(settings["save_to"])
        except SaveError as exc:
            _error(ctx, f"--save-to: {exc}")
        problem = save_problem(Path(save_to)) if save_to is not None else None
        if problem:  # warn now; quit and the end of input will save elsewhere and say where
            click.echo(f"castell play: warning: --save-to {save_to}: {problem}", err=True)
    seats_text = settings.get("players")
    timeout, on_error = settings.get("agent_timeout"), settings.get("on_agent_error")
    try:
        if settings.get("load_path"):
            seats = agent_seats(parse_seats(seats_text), timeout, on_error) if seats_text else None
            session = Session.load(settings["load_path"], seats)
            if save_to is not None:
                session.save_path = save_to
        else:
            rules_name = settings.get("rules") or default_rules()
            report = load_report(rules_name, settings.get("variants", ()))
            if not report.ok or report.rules is None:
                from .rules import print_diagnostics

                print_diagnostics(report)
                ctx.exit(EXIT_FAILED)
            rules = report.rules
            assert rules is not None
            seats = agent_seats(parse_seats(seats_text or "you,greedy,mcts"), timeout, on_error)
            try:
                check_players(rules, len(seats))
            except GameSetupError as exc:
                _error(ctx, str(exc))
            seed = settings.get("seed")
            if seed is None:
                seed = secrets.randbelow(1_000_000)
            session = Session(rules, len(seats), seed, seats, save_path=save_to)
    except (BotSpecError, GameSetupError) as exc:
        _error(ctx, str(exc))
    except SaveError as exc:
        _error(ctx, str(exc), EXIT_FAILED)
    except ValueError as exc:  # seats that do not fit the game ("3 seats for 2 players")
        _error(ctx, str(exc))
    ctx.exit(frontend.run(session))
