"""Castell, as a plugin: the mechanics (towers, regions, festivals) and the `castell tower` command.

Registered through the `castell_dsl` entry-point group like any third-party plugin. Imports of
the heavy modules happen inside the hooks, so loading the plugin is cheap.
"""

from __future__ import annotations

from typing import Any

from castell_dsl import hookimpl


@hookimpl
def register_mechanics() -> list[Any]:
    from .mechanics import CastellMechanics

    return [CastellMechanics()]


@hookimpl
def register_commands(cli: Any) -> None:
    from .cli import tower

    cli.add_command(tower)
