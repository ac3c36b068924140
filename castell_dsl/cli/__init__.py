"""The `castell` command line.

Subcommands live in their own modules and are imported only when run (`LazyGroup`), and plugin
commands are added through the `register_commands` hook, so `castell --help` stays fast. Every
error a user can cause ends as a one-line message and a non-zero exit code; a Python traceback
is shown only with `CASTELL_DEBUG=1`.
"""

from __future__ import annotations

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
}

#: Exit codes: 0 success, 1 the input has errors (rule files, saves), 2 usage errors.
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module only when that command runs."""

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str]] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})
        self._plugins_added = False

    def _add_plugin_commands(self) -> None:
        if self._plugins_added:
            return
        self._plugins_added = True
        from ..runtime.plugins import PluginError, get_plugins

        try:
            get_plugins().call("register_commands", cli=self)
        except PluginError as exc:
            click.echo(f"castell: warning: {exc}", err=True)

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
        command = super().get_command(ctx, name)
        if command is None:
            self._add_plugin_commands()
            command = super().get_command(ctx, name)
        return command


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
        from ..runtime.plugins import PluginError

        if isinstance(exc, PluginError):
            click.echo(f"castell: error: {exc}", err=True)
            click.echo("  (disable it with CASTELL_DISABLE_PLUGINS or --no-plugins)", err=True)
            return EXIT_FAILED
        click.echo(f"castell: internal error: {type(exc).__name__}: {exc}", err=True)
        click.echo("  (run with CASTELL_DEBUG=1 for the traceback, and please report it)", err=True)
        return 70
    return result if isinstance(result, int) else EXIT_OK


def run() -> None:
    sys.exit(main())
