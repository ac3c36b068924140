"""`castell serve`: play in the browser (the lobby at http://127.0.0.1:8000/).

The command is made for the services the host hands `register_commands` (`serve_command`):
the server asks them, never the runtime, for what it needs (docs/architecture.md).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import click

from castell_dsl.contract.services import BotSpecError, FrontendServices

#: Hosts that are only reachable from this machine; any other prints a warning.
LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def serve_command(services: FrontendServices) -> click.Command:
    """`castell serve`, running on `services`."""

    def run(**options: Any) -> None:
        serve(services, **options)

    run.__doc__ = serve.__doc__
    for option in reversed(OPTIONS):
        run = option(run)
    return click.command("serve")(run)


OPTIONS = [
    click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on."),
    click.option(
        "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port."
    ),
    click.option(
        "--db",
        "db_path",
        type=click.Path(dir_okay=False),
        default=None,
        help="SQLite file for matches [$XDG_DATA_HOME/castell/server.db].",
    ),
    click.option(
        "--allowed-host",
        "allowed_hosts",
        multiple=True,
        metavar="NAME",
        help="A host name browsers may use for this server (repeatable); on loopback only "
        "loopback names are answered unless given, elsewhere any name unless given.",
    ),
    click.option(
        "--allowed-origin",
        "allowed_origins",
        multiple=True,
        metavar="URL",
        help="Another origin whose pages may create matches and connect (repeatable), e.g. "
        "https://castell.example.org when a proxy changes the Host header.",
    ),
    click.option(
        "--max-connections",
        type=click.IntRange(1, 100_000),
        default=None,
        help="Open connections at once [1000, below the open-file limit].",
    ),
    click.option(
        "--connections-per-client",
        type=click.IntRange(0, 100_000),
        default=None,
        help="Open connections from one client address; 0 for none (behind a proxy that does "
        "not forward client addresses) [64].",
    ),
    click.option(
        "--bot-workers",
        type=click.IntRange(1, 256),
        default=None,
        help="Processes in which bots think, server-wide [cores - 1].",
    ),
    click.option(
        "--request-timeout",
        type=click.FloatRange(0.1, 3600),
        default=None,
        help="Seconds a client has to send a whole request [10].",
    ),
    click.option(
        "--allow-agent",
        "agent_commands",
        multiple=True,
        metavar="COMMAND",
        help="A program the lobby may seat as cmd:COMMAND (repeatable; docs/agents.md). Only "
        "these exact commands: a visitor never names a program to start.",
    ),
]


def serve(
    services: FrontendServices,
    host: str,
    port: int,
    db_path: str | None,
    allowed_hosts: tuple[str, ...],
    allowed_origins: tuple[str, ...],
    max_connections: int | None,
    connections_per_client: int | None,
    bot_workers: int | None,
    request_timeout: float | None,
    agent_commands: tuple[str, ...],
) -> None:
    """Serve the lobby and matches to browsers: play against bots or friends over the network.

    Matches are kept in an SQLite file and continue after a restart. By default only this
    machine can connect; see docs/web.md before listening on another address, and
    docs/security.md for every limit.
    """
    import uvicorn

    from .app import create_app
    from .connections import guarded_protocol
    from .guard import Policy
    from .limits import Limits
    from .store import SqliteStore, StoreError, default_db_path

    if host not in LOOPBACK:
        click.echo(
            f"castell serve: warning: listening on {host}: anyone who can reach this address "
            "can create and watch matches (seats need their link). See docs/web.md.",
            err=True,
        )
    limits = Limits()
    if max_connections is not None:
        limits = replace(limits, connections=max_connections)
    if connections_per_client is not None:
        limits = replace(limits, connections_per_client=connections_per_client)
    if bot_workers is not None:
        limits = replace(limits, bot_workers=bot_workers)
    if request_timeout is not None:
        limits = replace(limits, request_seconds=request_timeout)
    if agent_commands:
        for command in agent_commands:
            try:
                services.check_bot_spec(f"cmd:{command}")
            except BotSpecError as exc:
                click.echo(f"castell serve: error: --allow-agent {command}: {exc}", err=True)
                click.get_current_context().exit(2)
        limits = replace(limits, agent_commands=tuple(c.strip() for c in agent_commands))
    limits = limits.capped_to_open_files()
    path = db_path or default_db_path()
    try:
        store = SqliteStore(path)
    except StoreError as exc:
        click.echo(f"castell serve: error: {exc}", err=True)
        click.get_current_context().exit(1)
        return
    policy = Policy.for_address(host, allowed_hosts, allowed_origins)
    click.echo(f"castell serve: http://{host}:{port}/  (matches in {path})", err=True)
    try:
        uvicorn.run(
            create_app(store, services=services, limits=limits, policy=policy),
            host=host,
            port=port,
            http=guarded_protocol(limits),
            ws_max_size=limits.ws_message_bytes,
            ws_max_queue=16,
            ws_ping_interval=limits.ws_ping_seconds,
            ws_ping_timeout=limits.ws_ping_seconds,
            limit_concurrency=limits.connections,
            timeout_keep_alive=limits.keep_alive_seconds,
            h11_max_incomplete_event_size=limits.header_bytes,
            timeout_graceful_shutdown=5,
            log_level="warning",
            access_log=False,
            server_header=False,
        )
    finally:
        store.close()
