"""Play in the browser: `castell serve`, a lobby, match pages and the protocol over WebSocket.

A front-end plugin that names no game: each game draws itself with the renderer it registers
through `register_web_assets`, and a game without one is played through a generic page. The
server is a Starlette app on uvicorn (`app.py`), matches and their seats are in `matches.py`,
their storage behind the `MatchStore` interface in `store.py`, and the protocol's messages are
built by `castell_dsl.runtime.protocol`, the same module `castell play --frontend jsonl` uses.
"""

from __future__ import annotations

from typing import Any

from castell_dsl import hookimpl


@hookimpl
def register_commands(cli: Any) -> None:
    from .cli import serve

    cli.add_command(serve)
