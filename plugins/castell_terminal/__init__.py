"""The terminal front-end: `castell play` at a keyboard, or with moves piped in."""

from __future__ import annotations

from typing import Any

from castell_dsl import hookimpl


def run(session: Any) -> int:
    from .app import run as run_app  # rich and the app load only when a game is played

    return run_app(session)


@hookimpl
def register_frontends() -> list[Any]:
    from castell_dsl.contract import Frontend

    return [Frontend("terminal", "play in a terminal (rich); reads moves from stdin", run)]
