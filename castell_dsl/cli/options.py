"""Options shared by commands, and YAML configuration files for `play` and `simulate`.

A game or a tournament can be described in a YAML file. Every key is checked, and a mistake is
reported with the file, the line and the key. Options given on the command line override the
file.

A configuration file may come from a stranger, so it is read as bounded data: with PyYAML's
safe constructors only (no Python objects), from a regular file of at most MAX_CONFIG_BYTES,
with at most MAX_CONFIG_NODES nodes nested at most MAX_CONFIG_NESTING deep, and with no
anchors or aliases: a 376-byte file of nested aliases ("billion laughs") expands to more values
than fit in memory, and a configuration never needs them. Values are quoted in messages through
`short_repr`, bounded whatever they hold.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..language.source import NotRegularFile, read_capped
from ..language.text import short_repr, visible
from . import EXIT_USAGE

#: Largest configuration file read; real ones are a few hundred bytes.
MAX_CONFIG_BYTES = 256_000
#: Most YAML nodes (scalars, lists, mappings) in a configuration file.
MAX_CONFIG_NODES = 10_000
#: Deepest nesting of lists and mappings in a configuration file.
MAX_CONFIG_NESTING = 16


def rules_options(func: Callable) -> Callable:
    func = click.option(
        "--variant", "variants", multiple=True, help="Apply a variant (repeatable)."
    )(func)
    func = click.option("--rules", "rules", default=None, help="Rule set name or path [castell].")(
        func
    )
    return func


def agent_options(func: Callable) -> Callable:
    """`--agent-timeout` and `--on-agent-error`: how programs seated as `cmd:COMMAND` are held
    (runtime/agents.py, docs/agents.md)."""
    func = click.option(
        "--on-agent-error", "on_agent_error", default=None, metavar="stop|forfeit|fallback:BOT",
        help="When a program seat crashes, times out or plays an illegal action: stop the "
        "command, forfeit (the seat passes for the rest of the game) or let BOT play on [stop].",
    )(func)  # fmt: skip
    func = click.option(
        "--agent-timeout", "agent_timeout", type=click.FloatRange(min=0.001, max=3600.0),
        default=None, help="Seconds a program seat may take per decision [10].",
    )(func)  # fmt: skip
    return func


def agent_seats(seats: list[str], timeout: float | None, on_error: str | None) -> list[str]:
    """Seats with the agent options written into each program's spec (BotSpecError for an
    `--on-agent-error` that is not stop, forfeit or fallback:BOT)."""
    from ..runtime.bots import BotSpecError, check_agent_settings, with_agent_options

    if on_error is not None:
        try:
            check_agent_settings({"command": "program", "on_error": on_error})
        except ValueError as exc:
            raise BotSpecError(f"--on-agent-error: {exc}") from None
    return [with_agent_options(spec, timeout, on_error) for spec in seats]


class ConfigError(Exception):
    """A configuration file that cannot be used; the message says `file:line: what is wrong`."""


def _config_loader():
    """A PyYAML SafeLoader subclass that refuses anchors and aliases and counts nodes.

    Built on first use so that importing the CLI does not import PyYAML.
    """
    import yaml

    class ConfigLoader(yaml.SafeLoader):
        """Composes at most MAX_CONFIG_NODES nodes, MAX_CONFIG_NESTING deep, no aliases."""

        def __init__(self, stream: str) -> None:
            super().__init__(stream)
            self.node_count = 0
            self.depth = 0

        def compose_node(self, parent, index):  # PyYAML calls it with its own node types
            event = self.peek_event()
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise yaml.composer.ComposerError(
                    None,
                    None,
                    "anchors and aliases (&name, *name) are not allowed in a configuration file",
                    event.start_mark,
                )
            self.node_count += 1
            if self.node_count > MAX_CONFIG_NODES:
                raise yaml.composer.ComposerError(
                    None, None, f"more than {MAX_CONFIG_NODES} values", event.start_mark
                )
            self.depth += 1
            try:
                if self.depth > MAX_CONFIG_NESTING:
                    raise yaml.composer.ComposerError(
                        None,
                        None,
                        f"nested deeper than {MAX_CONFIG_NESTING} levels",
                        event.start_mark,
                    )
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    return ConfigLoader


def parse_config_text(text: str, path: str) -> tuple[Any, Any]:
    """(root node, data) of a configuration file's text; ConfigError for anything invalid."""
    import yaml

    shown = visible(path)
    try:
        loader = _config_loader()(text)  # the reader checks characters here already
    except yaml.YAMLError as exc:
        reason = getattr(exc, "reason", None) or type(exc).__name__
        raise ConfigError(f"{shown}: not valid YAML: {visible(str(reason))}") from None
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{shown}:{mark.line + 1}" if mark is not None else shown
        problem = getattr(exc, "problem", None) or type(exc).__name__
        raise ConfigError(f"{where}: not valid YAML: {visible(str(problem))}") from None
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        # e.g. an integer beyond Python's int-string limit, or an unhashable mapping key
        raise ConfigError(f"{shown}: not a usable value: {type(exc).__name__}") from None
    finally:
        loader.dispose()
    return node, data


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seconds(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= 3600


def _names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def _bots_value(value: Any) -> bool:
    if isinstance(value, str):
        return True
    return isinstance(value, list) and all(isinstance(v, (str, dict)) for v in value)


#: Keys each command accepts in its configuration file: (check, what it must be).
SCHEMAS: dict[str, dict[str, tuple[Callable[[Any], bool], str]]] = {
    "simulate": {
        "rules": (lambda v: isinstance(v, str), "a rule set name or path"),
        "variants": (_names, "a list of variant names"),
        "players": (lambda v: _whole(v) and v > 0, "a whole number of players"),
        "bots": (
            _bots_value,
            "a list of bots, e.g. [greedy, random] or [{name: mcts, iterations: 200}]",
        ),
        "games": (lambda v: _whole(v) and v > 0, "a positive whole number"),
        "seed": (_whole, "a whole number"),
        "jobs": (lambda v: _whole(v) and v > 0, "a positive whole number"),
        "format": (lambda v: v in ("text", "json", "jsonl"), "text, json or jsonl"),
        "scheduler": (lambda v: isinstance(v, str), "a Dask scheduler address"),
        "agent_timeout": (_seconds, "a number of seconds"),
        "on_agent_error": (lambda v: isinstance(v, str), "stop, forfeit or fallback:BOT"),
    },
    "play": {
        "rules": (lambda v: isinstance(v, str), "a rule set name or path"),
        "variants": (_names, "a list of variant names"),
        "players": (_bots_value, "a list of players: you, or bot names"),
        "seed": (_whole, "a whole number"),
        "frontend": (lambda v: isinstance(v, str), "a front-end name"),
        "save_to": (lambda v: isinstance(v, str), "a file to save the game in"),
        "agent_timeout": (_seconds, "a number of seconds"),
        "on_agent_error": (lambda v: isinstance(v, str), "stop, forfeit or fallback:BOT"),
    },
}


def bot_spec(value: Any) -> str:
    """A bot from YAML (`mcts` or `{name: mcts, iterations: 200}`) as a spec string."""
    if isinstance(value, str):
        return value
    settings = dict(value)
    name = settings.pop("name", None)
    if not isinstance(name, str):
        raise ConfigError("a bot given as a mapping needs a 'name'")
    if not settings:
        return name
    for key, setting in settings.items():
        if not isinstance(key, str) or not isinstance(setting, (str, int, float, bool)):
            raise ConfigError(
                f"bot setting {short_repr(key)} must be a name with a plain value, "
                f"got {short_repr(setting)}"
            )
    if "command" in settings:  # a program's command takes the rest of the spec: it goes last
        settings["command"] = settings.pop("command")
    return name + ":" + ",".join(f"{k}={v}" for k, v in settings.items())


def read_config(path: str, command: str) -> dict[str, Any]:
    """Load and check a configuration file; ConfigError says `file:line: what is wrong`."""
    from ..language.diagnostics import did_you_mean

    shown = visible(path)
    try:
        raw = read_capped(Path(path), MAX_CONFIG_BYTES)
    except NotRegularFile:
        raise ConfigError(f"{shown}: not a regular file") from None
    except OSError as exc:
        raise ConfigError(f"{shown}: cannot read: {exc.strerror or type(exc).__name__}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{shown}: larger than {MAX_CONFIG_BYTES // 1000} KB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{shown}: not UTF-8 text") from None
    node, data = parse_config_text(text, path)
    if data is None:
        return {}
    if not isinstance(data, dict) or node is None:
        raise ConfigError(f"{shown}:1: a configuration file is a mapping of keys to values")
    lines = {
        key_node.value: key_node.start_mark.line + 1
        for key_node, _value in getattr(node, "value", [])
        if isinstance(getattr(key_node, "value", None), str)
    }
    schema = SCHEMAS[command]
    out: dict[str, Any] = {}
    for key, value in data.items():
        line = lines.get(key, 1) if isinstance(key, str) else 1
        if key not in schema:
            hint = did_you_mean(str(key)[:100], schema) if isinstance(key, str) else None
            raise ConfigError(
                f"{shown}:{line}: unknown key {short_repr(key)}"
                + (f"; {hint}" if hint else f" (keys: {', '.join(schema)})")
            )
        check, what = schema[key]
        if not check(value):
            raise ConfigError(f"{shown}:{line}: '{key}' must be {what}, got {short_repr(value)}")
        if key in ("bots", "players") and isinstance(value, list):
            try:
                value = ",".join(bot_spec(v) for v in value)
            except ConfigError as exc:
                raise ConfigError(f"{shown}:{line}: {exc}") from None
        out[key] = value
    return out


def load_config_or_exit(
    ctx: click.Context, path: str | None, command: str, options: dict[str, Any]
) -> dict[str, Any]:
    """The configuration file's settings, overridden by options given on the command line."""
    settings: dict[str, Any] = {}
    if path is not None:
        try:
            settings = read_config(path, command)
        except ConfigError as exc:
            click.echo(f"castell {command}: error: {exc}", err=True)
            ctx.exit(EXIT_USAGE)
    for key, value in options.items():
        if value is None or value == ():
            continue
        settings[key] = value
    if "variants" in settings:
        settings["variants"] = tuple(settings["variants"])
    return settings
