"""Hook specifications: everything a plugin can add to Castell DSL.

Plugins are modules (or objects) with functions marked `@castell_dsl.hookimpl` and named after
the hooks below, listed under the `castell_dsl` entry-point group of their distribution::

    [project.entry-points.castell_dsl]
    quick = "castell_quick"

The built-in games, variants, bots and front-ends are plugins registered exactly like that, in
this project's own `pyproject.toml`. A hook is called with keyword arguments; an implementation
may accept any subset of them. Unless a hook says "first result", every implementation is
called and the results are collected in a list. `docs/plugins.md` renders this module.

Every type a hook returns or receives is in `castell_dsl.contract`, and this module imports
nothing else: a plugin is written against the contract, never the engine's internals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from pathlib import Path

    import click

    from .contract import (
        BotFactory,
        Frontend,
        Mechanics,
        PlayableGame,
        Variant,
        WebAssets,
    )
    from .contract.services import FrontendServices

hookspec = pluggy.HookspecMarker("castell_dsl")


@hookspec
def register_rule_paths() -> list[Path]:
    """Directories to search for rule sets and variant files by name.

    A game plugin returns the folder of its rule files (`castell_dsl.contract.shipped_dir`
    finds it installed or in a checkout). Each directory may hold `NAME.castell` rule sets
    (found by `--rules NAME` and `extends "NAME"`) and a `variants/` folder of variant files
    for them (found by `--variant NAME` with those rules: variant names are per game). Return a
    list of paths. Called whenever rules are looked up by name; keep it cheap.
    """


@hookspec(firstresult=True)
def default_rules() -> str | None:
    """The name of the rule set commands use when none is given (first result).

    The core names no game: a product's flagship game answers here. Without an answer, the
    only installed rule set is the default, and with several, commands ask for `--rules`.
    """


@hookspec
def register_mechanics() -> list[Mechanics]:
    """Game mechanics that rule files can name in `game { mechanics NAME }`.

    Return a list of `castell_dsl.contract.Mechanics` objects. A mechanics supplies the kinds
    of definition its rule files use (the schema), the facts scoring expressions may read,
    its automatic steps and actions, extra rule checks, and `build(rules)`, which precompiles a
    rule set into the logic the engine runs. Called once per process.
    """


@hookspec
def register_variants() -> list[Variant]:
    """Variants implemented in code, selectable with `--variant NAME`.

    Return a list of `castell_dsl.contract.Variant`: a name, the rule set(s) it applies to, a
    description, and what it changes: its `adjust(editor, options)` function, which changes
    the compiled rule set through `editor.replace(kind, value, name=None)` (every change is
    recorded as the variant's; two variants changing the same definition are reported as a
    conflict naming both). Variant *files* in a rule path need no hook. Called once per
    process.
    """


@hookspec
def register_bots() -> list[BotFactory]:
    """Computer players, selectable by name (`--players you,greedy,mcts`).

    Return a list of `castell_dsl.contract.BotFactory`: a name, a description, and
    `create(game_rules, seat, seed, **settings)` returning an object with
    `choose(game) -> Action`. Called once per process.
    """


@hookspec
def register_frontends() -> list[Frontend]:
    """Front-ends for `castell play --frontend NAME` (terminal, JSON lines, …).

    Return a list of `castell_dsl.contract.Frontend`: a name, a description, and
    `run(session) -> int` which plays a game session and returns the exit code.
    The session is a `castell_dsl.contract.PlaySession`: the front-end lets its bots move,
    applies the actions people give and runs the play commands through
    `session.command(name, arguments, seat)` (`castell_dsl.contract.COMMANDS`), drawing each
    answer its own way, so it offers the same commands as every other (docs/protocol.md).
    """


@hookspec
def register_help_pages() -> list[tuple[str, Path]]:
    """Players' pages, for `help` and `help TOPIC` while playing: (name, Markdown file) pairs.

    `name` is a rule set's name or a mechanics' name; a front-end looks a game's page up by its
    rule set's name first, then by its mechanics' name (so a rule set that extends a game
    finds the game's page). Each `##` section of the page is a help topic, named by its
    GitHub anchor (`## Local performances` is `help local-performances`); the `## Rules`
    section is the rules summary `help rules` prints. A game ships its page as package data
    beside its code (`Path(__file__).parent / "pages" / "castell.md"`). Called when a
    front-end first needs a page; keep it cheap.
    """


@hookspec
def register_web_assets() -> list[WebAssets]:
    """How games draw themselves in a browser (`castell serve`).

    Return a list of `castell_dsl.contract.WebAssets`: a mechanics name, the folder of its
    static files and the ES module exporting `render(view, svg, context)`. The web front-end
    names no game, so this is how a game's board reaches it; a game without assets is played
    through a generic page. Called once per server start.
    """


@hookspec
def register_commands(cli: click.Group, services: FrontendServices) -> None:
    """Add subcommands to the `castell` command line: `cli.add_command(...)` or `@cli.command()`.

    `services` is what a front-end's command may ask of the host
    (`castell_dsl.contract.services.FrontendServices`): the installed games, saves, games
    and sessions, bots, worker processes, plugin registrations, and rule text for an editor.
    A front-end such as `castell serve` runs on it and imports only the contract; take it
    only if you need it (an implementation may accept `cli` alone). Called once when the
    command line starts, so keep imports inside the command functions: `castell --help`
    should stay fast; the services cost nothing until a method is called.
    """


@hookspec
def game_event(game: PlayableGame, event: dict[str, Any]) -> None:
    """Observe what happens in a game: draws, actions, a game's own results, the end.

    `event` is a JSON-ready dict with a `type` key. The engine emits `start`, `round`, `turn`,
    `action` and `end` (with the result); mechanics add their own (each game's reference page
    lists them; `GameLogic.narrate` says how they read). Called for every event of every game
    while some plugin implements it; do not change the game here. Unused, it costs nothing.
    """
