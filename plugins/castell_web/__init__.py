"""Play in the browser: `castell serve`, a lobby, match pages and the protocol over WebSocket.

A front-end plugin that names no game: each game draws itself with the renderer it registers
through `register_web_assets`, and a game without one is played through a generic page. The
server is a Starlette app on uvicorn (`app.py`), matches and their seats are in `matches.py`,
their storage behind the `MatchStore` interface in `store.py`, and the protocol's messages are
built by `castell_dsl.contract.protocol`, the same module `castell play --frontend jsonl` uses.

It imports only the contract (and the rules language): what it needs of the host (the
installed games, saves, sessions, bots, worker processes, the studio's rule text) it asks of
the `FrontendServices` the `castell` command hands `register_commands`, and passes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from castell_dsl import hookimpl

if TYPE_CHECKING:
    from castell_dsl.contract.services import FrontendServices


@hookimpl
def register_commands(cli: Any, services: FrontendServices) -> None:
    from .cli import serve_command

    cli.add_command(serve_command(services))
