"""Which game draws itself how: the `register_web_assets` hook, asked once per server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from castell_dsl.runtime.plugins import get_plugins

#: The web front-end's own pages, scripts and styles.
STATIC = Path(__file__).parent / "static"


def game_assets() -> dict[str, Any]:
    """Mechanics name -> `WebAssets`, for every game that ships a renderer (first one wins)."""
    found: dict[str, Any] = {}
    for assets in get_plugins().collect("register_web_assets"):
        if Path(assets.directory).is_dir():
            found.setdefault(assets.mechanics, assets)
    return found


def renderer_url(assets: dict[str, Any], mechanics: str) -> str | None:
    """Where the browser imports a mechanics' renderer from (None: the generic page)."""
    found = assets.get(mechanics)
    return f"/games/{mechanics}/{found.entry}" if found else None
