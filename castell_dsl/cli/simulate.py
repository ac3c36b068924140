"""`castell simulate`: play many games between bots and report the statistics."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from .options import agent_options, agent_seats, load_config_or_exit, rules_options


def _error(ctx: click.Context, message: str) -> None:
    from ..language.text import visible

    click.echo(visible(f"castell simulate: error: {message}"), err=True)
    ctx.exit(EXIT_USAGE)


@click.command()
@click.option(
    "--games", "-n", type=click.IntRange(min=1), default=None, help="Games to play [100]."
)
@click.option("--players", "-p", type=click.IntRange(min=1), default=None, help="Players [4].")
@click.option("--bots", default=None, help="Bots by seat, comma-separated (one name: all seats).")
@click.option("--seed", type=int, default=None, help="Seed of game 0; game i uses seed+i [0].")
@rules_options
@click.option(
    "--format", "format", type=click.Choice(["text", "json", "jsonl"]), default=None,
    help="text (a table), json (everything at the end), jsonl (a line per game) [text].",
)  # fmt: skip
@click.option("--save", "save_dir", type=click.Path(file_okay=False), help="Write save files here.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Local processes [1].")
@click.option("--scheduler", default=None, help="A Dask scheduler address (tcp://HOST:PORT).")
@click.option("--config", type=click.Path(dir_okay=False), help="A tournament YAML file.")
@click.option("--no-progress", is_flag=True, help="No progress bar on standard error.")
@agent_options
@click.pass_context
def simulate(ctx: click.Context, **options: Any) -> None:
    """Play games between bots and report win rates and score statistics.

    The same options give the same results, byte for byte, whatever --jobs is.
    """
    from ..runtime.bots import BotSpecError, make_bot
    from ..runtime.games import GameSetupError, check_players, start_game
    from ..runtime.loading import default_rules, load_report
    from ..runtime.simulation import SchedulerError, SimulationSpec, connect_scheduler
    from ..runtime.simulation import simulate as run

    settings = load_config_or_exit(ctx, options.pop("config"), "simulate", options)
    games = settings.get("games", 100)
    players = settings.get("players", 4)
    rules_name = settings.get("rules") or default_rules()
    variants = tuple(settings.get("variants", ()))
    fmt = settings.get("format", "text")
    jobs = settings.get("jobs", 1)
    report = load_report(rules_name, variants)
    if not report.ok:
        from .rules import print_diagnostics

        print_diagnostics(report)
        ctx.exit(EXIT_FAILED)
    rules = report.rules
    assert rules is not None
    try:
        check_players(rules, players)
    except GameSetupError as exc:
        _error(ctx, str(exc))
    bots = [b.strip() for b in str(settings.get("bots", "random")).split(",") if b.strip()]
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        _error(ctx, f"--bots names {len(bots)} bots for {players} players")
    try:
        bots = agent_seats(bots, settings.get("agent_timeout"), settings.get("on_agent_error"))
        for seat, bot_spec in enumerate(bots):
            make_bot(bot_spec, rules, seat, 0)
    except BotSpecError as exc:
        _error(ctx, str(exc))
    seed = settings.get("seed", 0)
    try:  # the mechanics may refuse these options (Calico's low-luck with 3-4 players)
        start_game(rules, players, seed, record_events=False)
    except GameSetupError as exc:
        _error(ctx, str(exc))
    save_dir = options.get("save_dir")
    if save_dir is not None:
        problem = _save_dir_problem(save_dir)
        if problem:
            click.echo(f"castell simulate: error: --save {save_dir}: {problem}", err=True)
            ctx.exit(EXIT_FAILED)
    spec = SimulationSpec(
        rules_name, variants, players, tuple(bots), seed, games, save_dir,
    )  # fmt: skip
    scheduler = settings.get("scheduler")
    client = None
    if scheduler:
        try:
            client = connect_scheduler(scheduler)
        except SchedulerError as exc:
            _error(ctx, str(exc))

    where = _where(jobs, client)  # asked before the run: the run closes the client
    if fmt == "text":
        _print_seats(bots, settings.get("bots") is None)
    lines: list[dict] = []
    show_progress = fmt == "text" and not options.get("no_progress") and sys.stderr.isatty()
    progress = progress_bar(games, "simulating") if show_progress else None

    def on_line(line: dict) -> None:
        if fmt == "jsonl":
            click.echo(json.dumps(line))
        elif fmt == "json":
            lines.append(line)
        if progress is not None:
            progress.advance(progress.task_ids[0])

    if progress is not None:
        progress.start()
    try:
        summary = run(spec, jobs=jobs, scheduler=client, on_line=on_line)
    finally:
        if progress is not None:
            progress.stop()
    if fmt == "json":
        click.echo(json.dumps({"games": lines, "summary": summary.to_json()}, indent=1))
    elif fmt == "text":
        _print_summary(summary.to_json(), rules, spec, where)
    ctx.exit(EXIT_OK)


def _print_seats(bots: list[str], default: bool) -> None:
    """Which bot sits in which seat, and, for the default random seats, what they are worth."""
    click.echo("Seats: " + ", ".join(f"{seat} {bot}" for seat, bot in enumerate(bots)))
    if default:
        click.echo(
            "These are the default random seats: random players make win rates and scores that\n"
            "say little about the rules. For a designer's numbers seat real players, e.g.\n"
            "--bots greedy (about 6 games/s for 4 players on one core) or --bots greedy,mcts."
        )


def _where(jobs: int, client: Any) -> str:
    """Where the games ran, for the summary: the Dask cluster's workers and threads, or the
    local processes."""
    if client is None:
        return f"{jobs} local process{'es' if jobs != 1 else ''}"
    try:
        workers = client.scheduler_info().get("workers", {})
    except Exception:  # the summary still prints if the cluster went away meanwhile
        return "a Dask cluster"
    threads = sum(int(w.get("nthreads", 0)) for w in workers.values())
    return (
        f"a Dask cluster of {len(workers)} worker{'s' if len(workers) != 1 else ''}, "
        f"{threads} thread{'s' if threads != 1 else ''}"
    )


def _save_dir_problem(path: str) -> str | None:
    """Why save files cannot be written in `path` (created if missing), or None."""
    import os
    from pathlib import Path

    directory = Path(path)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as exc:
        return f"cannot create the directory ({getattr(exc, 'strerror', None) or exc})"
    if not directory.is_dir():
        return "is not a directory"
    if not os.access(directory, os.W_OK | os.X_OK):
        return "the directory is not writable"
    return None


def progress_bar(total: int, description: str) -> Any:
    """A rich progress bar on standard error (`simulate`, `analyze`), cleared at the end."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    progress.add_task(description, total=total)
    return progress


def _print_summary(data: dict, rules: Any, spec: Any, where: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    title = (
        f"{data['games']} games of {rules.game.title}"
        + (f" ({', '.join(spec.variants)})" if spec.variants else "")
        + f", {spec.players} players, seed {spec.seed}"
    )
    seats = Table(title=title, title_justify="left")
    for column in ("seat", "bot", "win rate", "95% interval", "total (mean ± sd)"):
        seats.add_column(column, justify="left" if column in ("seat", "bot") else "right")
    for seat in data["seats"]:
        low, high = seat["win_rate_95"]
        seats.add_row(
            str(seat["seat"]),
            seat["bot"],
            f"{seat['win_rate']:.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{seat['total']['mean']:.1f} ± {seat['total']['sd']:.1f}",
        )
    console.print(seats)
    categories = Table(title="Scoring categories (mean ± sd)", title_justify="left")
    categories.add_column("category")
    for seat in data["seats"]:
        categories.add_column(f"seat {seat['seat']}", justify="right")
    names = list(data["seats"][0]["categories"]) if data["seats"] else []
    for name in names:
        categories.add_row(
            name.replace("_", " "),
            *[
                f"{s['categories'][name]['mean']:.1f} ± {s['categories'][name]['sd']:.1f}"
                for s in data["seats"]
            ],
        )
    console.print(categories)
    console.print(
        f"game length: {data['rounds']['mean']:.1f} rounds, "
        f"{data['actions_per_game']['mean']:.0f} actions; "
        f"{data['games_per_second'] or 0:.1f} games/s, "
        f"{data['actions_per_second'] or 0:,} actions/s"
    )
    console.print(f"ran on {where}", soft_wrap=True)
