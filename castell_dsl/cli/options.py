"""Options shared by commands, and YAML configuration files for `play` and `simulate`.

A game or a tournament can be described in a YAML file (loaded with `yaml.safe_load`: a YAML
file is data, it cannot construct Python objects). Every key is checked, and a mistake is
reported with the file, the line and the key. Options given on the command line override the
file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from . import EXIT_USAGE


def rules_options(func: Callable) -> Callable:
    func = click.option(
        "--variant", "variants", multiple=True, help="Apply a variant (repeatable)."
    )(func)
    func = click.option("--rules", "rules", default=None, help="Rule set name or path [castell].")(
        func
    )
    return func


class ConfigError(Exception):
    pass


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
    },
    "play": {
        "rules": (lambda v: isinstance(v, str), "a rule set name or path"),
        "variants": (_names, "a list of variant names"),
        "players": (_bots_value, "a list of players: you, or bot names"),
        "seed": (_whole, "a whole number"),
        "frontend": (lambda v: isinstance(v, str), "a front-end name"),
        "save_to": (lambda v: isinstance(v, str), "a file to save the game in"),
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
    return name + ":" + ",".join(f"{k}={v}" for k, v in settings.items())


def read_config(path: str, command: str) -> dict[str, Any]:
    """Load and check a configuration file; ConfigError says `file:line: what is wrong`."""
    import yaml

    from ..language.diagnostics import did_you_mean

    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else path
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigError(f"{where}: not valid YAML: {problem}") from None
    if data is None:
        return {}
    if not isinstance(data, dict) or node is None:
        raise ConfigError(f"{path}:1: a configuration file is a mapping of keys to values")
    lines = {
        key_node.value: key_node.start_mark.line + 1
        for key_node, _value in getattr(node, "value", [])
        if hasattr(key_node, "value")
    }
    schema = SCHEMAS[command]
    out: dict[str, Any] = {}
    for key, value in data.items():
        line = lines.get(key, 1)
        if key not in schema:
            hint = did_you_mean(str(key), schema)
            raise ConfigError(
                f"{path}:{line}: unknown key '{key}'"
                + (f"; {hint}" if hint else f" (keys: {', '.join(schema)})")
            )
        check, what = schema[key]
        if not check(value):
            raise ConfigError(f"{path}:{line}: '{key}' must be {what}, got {value!r}")
        if key in ("bots", "players") and isinstance(value, list):
            try:
                value = ",".join(bot_spec(v) for v in value)
            except ConfigError as exc:
                raise ConfigError(f"{path}:{line}: {exc}") from None
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
