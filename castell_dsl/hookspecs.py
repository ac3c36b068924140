"""Hook specifications: everything a plugin can add to Castell DSL.

Plugins are modules (or objects) with functions marked `@castell_dsl.hookimpl` and named after
the hooks below, listed under the `castell_dsl` entry-point group of their distribution::

    [project.entry-points.castell_dsl]
    quick = "castell_quick"

The built-in games, variants, bots and front-ends are plugins registered exactly like that, in
this project's own `pyproject.toml`. A hook is called with keyword arguments; an implementation
may accept any subset of them. Unless a hook says "first result", every implementation is
called and the results are collected in a list. `docs/plugins.md` renders this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from pathlib import Path

    import click

    from .bots import BotFactory
    from .engine.game import Game
    from .frontends import Frontend
    from .mechanics import Mechanics
    from .variants import RulesEditor, Variant

hookspec = pluggy.HookspecMarker("castell_dsl")


@hookspec
def register_rule_paths() -> list[Path]:
    """Directories to search for rule sets and variant files by name.

    Called once, when the first rule set is loaded. Each directory may hold `NAME.castell`
    rule sets (found by `--rules NAME` and `extends "NAME"`) and a `variants/` folder of
    variant files (found by `--variant NAME`). Return a list of paths. The bundled `rules/`
    directory is always searched first.
    """


@hookspec
def register_mechanics() -> list[Mechanics]:
    """Game mechanics that rule files can name in `game { mechanics NAME }`.

    Return a list of `castell_dsl.mechanics.Mechanics` objects. A mechanics supplies the kinds
    of definition its rule files use (the schema), the facts scoring expressions may read,
    its automatic steps and actions, extra rule checks, and `build(rules)`, which precompiles a
    rule set into the logic the engine runs. Called once per process.
    """


@hookspec
def register_variants() -> list[Variant]:
    """Variants implemented in code, selectable with `--variant NAME`.

    Return a list of `castell_dsl.variants.Variant`: a name, the rule set(s) it applies to, a
    description, and what it changes (it is applied through `adjust_rules` or by its own
    `adjust` function). Variant *files* in a rule path need no hook. Called once per process.
    """


@hookspec
def adjust_rules(editor: RulesEditor, variants: tuple[str, ...], options: dict[str, Any]) -> None:
    """Adjust a compiled rule set for the chosen variants and options, before a game starts.

    `editor` wraps the immutable rule set: call `editor.replace(kind, value, name=None)` to
    change a definition; every change records which plugin made it, and two variants changing
    the same definition are reported as a conflict naming both. `variants` are the names the
    user chose; act only on your own. Returns nothing. Called once per rule set load.
    """


@hookspec
def register_bots() -> list[BotFactory]:
    """Computer players, selectable by name (`--players you,greedy,mcts`).

    Return a list of `castell_dsl.bots.BotFactory`: a name, a description, and
    `create(game_rules, seat, seed, **settings)` returning an object with
    `choose(game) -> Action`. Called once per process.
    """


@hookspec
def register_frontends() -> list[Frontend]:
    """Front-ends for `castell play --frontend NAME` (terminal, JSON lines, …).

    Return a list of `castell_dsl.frontends.Frontend`: a name, a description, and
    `run(session) -> int` which plays a game session and returns the exit code.
    """


@hookspec
def register_commands(cli: click.Group) -> None:
    """Add subcommands to the `castell` command line: `cli.add_command(...)` or `@cli.command()`.

    Called once when the command line starts, so keep imports inside the command functions:
    `castell --help` should stay fast.
    """


@hookspec
def game_event(game: Game, event: dict[str, Any]) -> None:
    """Observe what happens in a game: draws, actions, festival results, prizes, the end.

    `event` is a JSON-ready dict with a `type` key. The engine emits `start`, `round`, `turn`,
    `action` and `end` (with the result); mechanics add their own (Castell: `deal`, `refill`,
    `wheel`, `festival`, `performance`). Called for every event of every game while some
    plugin implements it; do not change the game here. Unused, it costs nothing.
    """
