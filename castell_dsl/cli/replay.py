"""`castell replay SAVEFILE`: replay a saved game from its log and verify the state it reaches."""

from __future__ import annotations

import json
from pathlib import Path

import click

from . import EXIT_FAILED, EXIT_OK


@click.command()
@click.argument("savefile", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--events", is_flag=True, help="Also print every event (json) or log line (text).")
@click.option(
    "--rules", "rules_path", default=None,
    help="The rule file to use instead of the one the save names (moved, or an old save).",
)  # fmt: skip
@click.pass_context
def replay(
    ctx: click.Context, savefile: str, fmt: str, events: bool, rules_path: str | None
) -> None:
    """Replay SAVEFILE's actions, check the final state hash, and print the result.

    The result printed is the replay's, never the file's own `result` or `over`.
    """
    from ..runtime.saves import SaveError, read_save
    from ..runtime.saves import replay as run_replay

    try:
        record = read_save(savefile)
        game = run_replay(
            record, record_events=events, rules_path=rules_path, beside=Path(savefile).parent
        )
    except SaveError as exc:
        from ..language.text import visible

        click.echo(visible(f"castell replay: error: {exc}", keep_newlines=True), err=True)
        ctx.exit(EXIT_FAILED)
    result = game.result()
    seats = record.get("seats") or [None] * game.players
    players = [
        {"seat": p["seat"], "bot": seats[p["seat"]], "total": p["total"],
         "categories": p["categories"]}
        for p in result["players"]
    ]  # fmt: skip
    if fmt == "json":
        out = {
            "verified": True,
            "state_hash": game.state_hash(),
            "over": game.is_over(),
            "rounds": result["rounds"],
            "winners": result["winners"],
            "players": players,
        }
        if events:
            out["events"] = game.events
        click.echo(json.dumps(out, indent=1))
        ctx.exit(EXIT_OK)
    if events:
        for i, text in enumerate(game.log, 1):
            click.echo(f"{i:5d}  {text}")
    status = "finished" if game.is_over() else "in progress"
    click.echo(f"verified: {len(game.log)} actions reproduce the saved state ({status})")
    for p in players:
        who = f" ({p['bot']})" if p["bot"] else ""
        parts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in p["categories"].items())
        click.echo(f"seat {p['seat']}{who}: {p['total']}  [{parts}]")
    if game.is_over():
        click.echo("winner(s): " + ", ".join(f"seat {w}" for w in result["winners"]))
    ctx.exit(EXIT_OK)
