"""The terminal front-end: `castell play` at a keyboard, or with moves piped in."""

from __future__ import annotations

from typing import Any

from castell_dsl import hookimpl


@hookimpl
def register_frontends() -> list[Any]:
    from castell_dsl.frontends import Frontend

    from .app import run

    return [Frontend("terminal", "play in a terminal (rich); reads moves from stdin", run)]
