"""Which game draws itself how: the `register_web_assets` hook, asked once per server.

What a plugin registers is served to every browser, so it is checked like every other
registration (through the host's `PluginRegistry` service): a plugin whose hook raises or
returns something other than `WebAssets` is named and skipped; so is an entry whose mechanics
name cannot be a URL segment, whose entry module is not a relative `.js` path, or whose
directory is not a directory inside the plugin's own package (never `/`, `..` or a symlink out
of it). Built-in plugins claim first, and a second plugin's assets for a mechanics already
claimed are reported as a clash and skipped: a plugin cannot silently replace a built-in
game's renderer.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from castell_dsl.contract import WebAssets
from castell_dsl.contract.services import NameClash, PluginError, PluginRegistry, WrongType

#: The web front-end's own pages, scripts and styles.
STATIC = Path(__file__).parent / "static"
#: A mechanics name, as it appears in `/games/{mechanics}/`.
MECHANICS_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
HOOK = "register_web_assets"


def _problem(plugins: PluginRegistry, plugin: str, assets: WebAssets) -> str | None:
    """Why these assets cannot be served (None: they can)."""
    if not isinstance(assets.mechanics, str) or not MECHANICS_NAME.match(assets.mechanics):
        return f"mechanics {str(assets.mechanics)[:40]!r} is not a name (letters, digits, _ and -)"
    entry = assets.entry
    if not isinstance(entry, str) or not entry.endswith(".js"):
        return f"entry {str(entry)[:60]!r} is not a .js module"
    parts = PurePosixPath(entry).parts
    if entry.startswith("/") or "\\" in entry or ".." in parts or not parts:
        return f"entry {entry[:60]!r} is not a path inside its directory"
    if not isinstance(assets.directory, (str, Path)):
        return f"directory is a {type(assets.directory).__name__}, not a path"
    try:
        directory = Path(assets.directory).resolve(strict=True)
    except (OSError, RuntimeError, ValueError):
        return f"directory {str(assets.directory)[:80]} does not exist"
    if not directory.is_dir():
        return f"directory {directory} is not a directory"
    package = plugins.package_dir(plugin)
    if package is None or package not in directory.parents:
        where = package or "its package"
        return f"directory {directory} is not inside the plugin's package ({where})"
    if not (directory / entry).is_file():
        return f"entry {entry} is not a file in {directory}"
    return None


def game_assets(plugins: PluginRegistry) -> dict[str, WebAssets]:
    """Mechanics name -> `WebAssets`, for every game that ships a renderer (see above)."""
    found: dict[str, WebAssets] = {}
    owners: dict[str, str] = {}
    collected = plugins.collect(
        HOOK, accept=lambda item: isinstance(item, WebAssets), expected="a list of WebAssets"
    )
    for plugin, assets in collected:
        problem = _problem(plugins, plugin, assets)
        if problem is not None:
            plugins.report_failure(PluginError(plugin, HOOK, WrongType(problem)))
            continue
        if assets.mechanics in found:
            clash = NameClash("web assets", assets.mechanics, owners[assets.mechanics], plugin)
            plugins.report_failure(PluginError(plugin, HOOK, clash))
            continue
        found[assets.mechanics] = assets
        owners[assets.mechanics] = plugin
    return found


def renderer_url(assets: dict[str, WebAssets], mechanics: str) -> str | None:
    """Where the browser imports a mechanics' renderer from (None: the generic page)."""
    found = assets.get(mechanics)
    return f"/games/{mechanics}/{found.entry}" if found else None
