"""Castell, as a plugin: its rule files, the mechanics (towers, regions, festivals), the
`castell tower` command and the tower API (`castell_game.api`).

Registered through the `castell_dsl` entry-point group like any third-party plugin. Imports of
the heavy modules happen inside the hooks, so loading the plugin is cheap.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from castell_dsl import hookimpl
from castell_dsl.contract import Mechanics, WebAssets, shipped_dir

if TYPE_CHECKING:
    import click

#: The rule set this game's plugin offers as the product's default (`castell play`).
NAME = "castell"


@hookimpl
def register_rule_paths() -> list[Path]:
    return [shipped_dir(__file__, "rules", "../rules/castell")]


@hookimpl
def default_rules() -> str:
    return NAME


@hookimpl
def register_mechanics() -> list[Mechanics]:
    from .mechanics import CastellMechanics

    return [CastellMechanics()]


@hookimpl
def register_commands(cli: click.Group) -> None:
    from .cli import tower

    cli.add_command(tower)


@hookimpl
def register_web_assets() -> list[WebAssets]:
    """Regions, wheel, calendar and the tower builder in SVG for `castell serve`."""
    return [WebAssets(NAME, Path(__file__).parent / "web")]
