"""`castell serve`: play in the browser (the lobby at http://127.0.0.1:8000/)."""

from __future__ import annotations

import click

#: Hosts that are only reachable from this machine; any other prints a warning.
LOOPBACK = {"127.0.0.1", "::1", "localhost"}


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="SQLite file for matches [$XDG_DATA_HOME/castell/server.db].",
)
def serve(host: str, port: int, db_path: str | None) -> None:
    """Serve the lobby and matches to browsers: play against bots or friends over the network.

    Matches are kept in an SQLite file and continue after a restart. By default only this
    machine can connect; see docs/web.md before listening on another address.
    """
    import uvicorn

    from .app import create_app
    from .store import SqliteStore, default_db_path

    if host not in LOOPBACK:
        click.echo(
            f"castell serve: warning: listening on {host}: anyone who can reach this address "
            "can create and watch matches (seats need their link). See docs/web.md.",
            err=True,
        )
    path = db_path or default_db_path()
    store = SqliteStore(path)
    click.echo(f"castell serve: http://{host}:{port}/  (matches in {path})", err=True)
    try:
        uvicorn.run(
            create_app(store),
            host=host,
            port=port,
            ws_max_size=128 * 1024,
            log_level="warning",
            access_log=False,
        )
    finally:
        store.close()
