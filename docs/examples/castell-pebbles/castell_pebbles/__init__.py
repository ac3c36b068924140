"""Pebbles, a Castell DSL game plugin: its rule files and the mechanics they name.

Two hooks make the game: `register_rule_paths` serves the rule files shipped inside this
package (so `--rules pebbles` and `--variant big-heaps` find them), and `register_mechanics`
gives the compiler and the engine what `game { mechanics pebbles }` means. Imports stay inside
the hooks: every `castell` command loads the plugins, and `castell --help` should stay fast.
"""

from __future__ import annotations

from pathlib import Path

from castell_dsl import hookimpl
from castell_dsl.contract import Mechanics, shipped_dir


@hookimpl
def register_rule_paths() -> list[Path]:
    return [shipped_dir(__file__, "rules", "rules")]


@hookimpl
def register_mechanics() -> list[Mechanics]:
    from .mechanics import PebblesMechanics

    return [PebblesMechanics()]
