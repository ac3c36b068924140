"""The `castell` command line.

Subcommands live in their own modules and are imported only when run (`LazyGroup`), and plugin
commands are added through the `register_commands` hook, so `castell --help` stays fast. Every
error a user can cause ends as a one-line message and a non-zero exit code; a Python traceback
is shown only with `CASTELL_DEBUG=1`.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from typing import Any

import click

from .. import __version__

#: Built-in subcommands: name -> ("module:attribute", one-line help). Modules load on use;
#: the help line is here so that `castell --help` imports none of them.
COMMANDS = {
    "validate": ("castell_dsl.cli.validate:validate", "Check rule files; for people and for CI."),
    "rules": ("castell_dsl.cli.rules:rules", "Show compiled rule sets; list installed ones."),
    "simulate": ("castell_dsl.cli.simulate:simulate", "Play many games between bots; statistics."),
    "replay": ("castell_dsl.cli.replay:replay", "Replay a saved game and verify it."),
    "plugins": ("castell_dsl.cli.plugins:plugins_command", "List plugins and their hooks."),
    "play": ("castell_dsl.cli.play:play", "Play a game against bots or friends."),
    "fmt": ("castell_dsl.cli.fmt:fmt", "Format rule files in the one canonical layout."),
    "lsp": ("castell_dsl.cli.lsp:lsp", "Run the language server for editors (stdio)."),
    "compare": ("castell_dsl.cli.compare:compare", "Compare rule sets on the same games."),
    "analyze": (
        "castell_dsl.cli.analyze:analyze",
        "A design report: balance, drama, skill, coverage.",
    ),
    "tournament": (
        "castell_dsl.cli.tournament:tournament",
        "Rate bots and programs: a round robin, Bradley-Terry ratings.",
    ),
}

#: Exit codes: 0 success, 1 the input has errors (rule files, saves), 2 usage errors; 70 is
#: reserved for bugs ("internal error").
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module only when that command runs."""

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str]] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})
        self._plugins_added: object = None  # the Plugins whose commands were added

    def _add_plugin_commands(self) -> None:
        """Let each plugin add its commands, one plugin at a time: a plugin that fails is
        named and skipped, and a command name already taken (built-in or another plugin's)
        keeps its first owner, the clash reported naming both."""
        from ..runtime.plugins import NameClash, PluginError, get_plugins

        plugins = get_plugins()
        if self._plugins_added is plugins:
            return
        # Plugins were (re)loaded (`--no-plugins`, tests): forget the old plugins' commands.
        for name in self.__dict__.get("_owners", {}):
            self.commands.pop(name, None)
        self.__dict__["_owners"] = {}
        self._plugins_added = plugins
        guard = _CommandGuard(self)
        from .services import host_services

        plugins.call("register_commands", tolerant=True, cli=guard, services=host_services())
        # Claims are settled in registration order (built-ins first): the first claim wins.
        for plugin, name, command in sorted(
            guard.requests, key=lambda r: plugins.registration_index(r[0])
        ):
            owner = self._claim(plugin, name, command)
            if owner is not None:
                clash = NameClash("command", name, owner, plugin)
                plugins.fail(PluginError(plugin, "register_commands", clash))

    def _claim(self, plugin: str, name: str, command: click.Command) -> str | None:
        """Add a plugin's command unless the name is taken; return the owner if it is."""
        owners = self.__dict__.setdefault("_owners", {})
        if name in self.lazy:
            return "castell (built-in)"
        if name in self.commands:
            return owners.get(name, "another plugin")
        owners[name] = plugin
        self.add_command(command, name)
        return None

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._add_plugin_commands()
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Like click's, but lazy commands' help comes from `COMMANDS` (no import)."""
        self._add_plugin_commands()
        rows = []
        for name in self.list_commands(ctx):
            if name in self.lazy:
                rows.append((name, self.lazy[name][1]))
                continue
            command = super().get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=70)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy:
            module_name, attr = self.lazy[name][0].split(":")
            return getattr(importlib.import_module(module_name), attr)
        self._add_plugin_commands()
        return super().get_command(ctx, name)


class _CommandGuard:
    """What plugins' `register_commands` see as `cli`: the group, except that commands are
    requested in the name of the plugin adding them (`current_plugin`) and added afterwards,
    in registration order, a taken name refused and recorded instead of replaced."""

    def __init__(self, group: LazyGroup):
        self._group = group
        self.requests: list[tuple[str, str, click.Command]] = []

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        from ..runtime.plugins import current_plugin

        self.requests.append((current_plugin() or "unknown", name or cmd.name or "", cmd))

    def command(self, *args: Any, **kwargs: Any) -> Any:
        def decorator(func: Any) -> click.Command:
            cmd = click.command(*args, **kwargs)(func)
            self.add_command(cmd)
            return cmd

        return decorator

    def group(self, *args: Any, **kwargs: Any) -> Any:
        def decorator(func: Any) -> click.Group:
            cmd = click.group(*args, **kwargs)(func)
            self.add_command(cmd)
            return cmd

        return decorator

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._group, attr)


@click.group(
    cls=LazyGroup,
    lazy=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="castell")
@click.option(
    "--no-plugins",
    is_flag=True,
    help="Load only the built-in plugins (for debugging a third-party plugin).",
)
def cli(no_plugins: bool) -> None:
    """Castell DSL: board games written in a declarative rules language.

    \b
    Play:      castell play --players you,greedy,mcts
    Validate:  castell validate rules/
    Simulate:  castell simulate --games 200 --players 4
    """
    if no_plugins:
        from ..runtime.plugins import configure

        configure(builtins_only=True)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `castell` script: run the CLI and turn failures into messages."""
    args = list(argv if argv is not None else sys.argv[1:])
    if "--no-plugins" in args:  # before plugin commands are looked up
        from ..runtime.plugins import configure

        configure(builtins_only=True)
    try:
        result = cli.main(args=args, prog_name="castell", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("castell: aborted", err=True)
        return EXIT_FAILED
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except KeyboardInterrupt:
        click.echo("castell: interrupted", err=True)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:
        if os.environ.get("CASTELL_DEBUG"):
            raise
        code = expected_failure(exc)
        if code is not None:
            return code
        from ..language.text import visible

        click.echo(f"castell: internal error: {type(exc).__name__}: {visible(str(exc))}", err=True)
        click.echo("  (run with CASTELL_DEBUG=1 for the traceback, and please report it)", err=True)
        return EXIT_INTERNAL
    return result if isinstance(result, int) else EXIT_OK


def expected_failure(exc: BaseException) -> int | None:
    """The one error boundary: an expected failure that a command did not handle itself is
    printed as a located message and given its exit code (1: the input has errors, 2: a
    usage error); None for anything else, which is a bug and reported as an internal error.
    """
    from ..language.diagnostics import RuleError
    from ..language.text import visible
    from ..runtime.bots import BotSpecError
    from ..runtime.games import GameSetupError, MechanicsNotFound
    from ..runtime.plugins import PluginError
    from ..runtime.saves import SaveError
    from ..runtime.simulation import SchedulerError

    def say(message: object) -> None:
        click.echo(visible(f"castell: error: {message}", keep_newlines=True), err=True)

    from ..language.expressions import ExpressionError

    if isinstance(exc, ExpressionError):  # the rule file's expression failed during a game
        from pathlib import Path

        from ..language.diagnostics import Diagnostics, render_text
        from ..language.source import read_source

        source = read_source(Path(exc.span.path), exc.span.path, Diagnostics())
        click.echo(render_text(exc.diagnostic(), source.lines if source else None), err=True)
        return EXIT_FAILED
    if isinstance(exc, PluginError):
        say(exc)
        click.echo("  (disable it with CASTELL_DISABLE_PLUGINS or --no-plugins)", err=True)
        return EXIT_FAILED
    if isinstance(exc, RuleError):
        from ..language.diagnostics import render_text

        for diag in exc.diagnostics:
            click.echo(render_text(diag, None), err=True)
        return EXIT_FAILED
    from ..runtime.agents import AgentError

    if isinstance(exc, (SaveError, MechanicsNotFound, AgentError)):
        say(exc)
        return EXIT_FAILED
    if isinstance(exc, (BotSpecError, GameSetupError, SchedulerError)):
        say(exc)
        return EXIT_USAGE
    if isinstance(exc, OSError):  # a file a command was given cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        say(f"{where}{exc.strerror or exc}")
        return EXIT_FAILED
    return None


def run() -> None:
    """The `castell` script (and `python -m castell_dsl`): run the command, then exit.

    On the way out Python runs full garbage collections over every object still alive: the
    modules, and whatever the command kept (for `validate`, every rule set it compiled), about
    15 ms for `castell validate rules/`. The process ends right after, so everything alive is
    moved out of the collector's view first (`gc.freeze`). Atexit handlers and the flushing of
    output are unchanged, and objects outside reference cycles are freed as before; what is
    skipped is collecting cyclic garbage, whose finalisers Python never promises to run at
    exit. `main()`, which tests and in-process callers use, is unaffected.
    """
    code = main()
    gc.freeze()
    sys.exit(code)
