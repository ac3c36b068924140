"""`castell plugins`: which plugins are loaded, where they come from, what they implement."""

from __future__ import annotations

import inspect
import json
from typing import Any

import click

from . import EXIT_OK


def hook_reference() -> str:
    """The hook specifications as Markdown (the reference section of docs/plugins.md)."""
    from .. import hookspecs

    parts = []
    specs = [
        (name, func)
        for name, func in inspect.getmembers(hookspecs, inspect.isfunction)
        if hasattr(func, "castell_dsl_spec")
    ]
    for name, func in sorted(specs, key=lambda item: item[1].__code__.co_firstlineno):
        signature = str(inspect.signature(func)).replace("'", "")
        doc = inspect.cleandoc(func.__doc__ or "")
        parts.append(f"### `{name}{signature}`\n\n{doc}\n")
    return "\n".join(parts)


def plugin_table() -> list[dict[str, Any]]:
    """One row per plugin: where it comes from, its hooks, what it provides, and every way it
    failed (at import, in a hook, a wrong type, a name another plugin already has)."""
    from ..runtime.plugins import get_plugins, registries

    plugins = get_plugins()
    found = registries()
    found.load_all()  # the register_* hooks run now, recording plugins that fail
    provided: dict[str, dict[str, list[str]]] = {}
    for label, owners in (
        ("mechanics", found.owners.get("mechanics", {})),
        ("variants", found.owners.get("variant", {})),
        ("bots", found.owners.get("bot", {})),
        ("frontends", found.owners.get("frontend", {})),
    ):
        for name, plugin in owners.items():
            provided.setdefault(plugin, {}).setdefault(label, []).append(name)
    failures: dict[str, list[str]] = {}
    for failure in plugins.failures:
        failures.setdefault(failure.plugin, []).append(str(failure))
    rows = []
    for name, info in sorted(plugins.infos.items()):
        row: dict[str, Any] = {
            "name": name,
            "source": info.source,
            "hooks": plugins.hooks_of(name),
        }
        if info.version is not None and not info.builtin:
            row["version"] = info.version
        if provided.get(name):
            row["provides"] = provided[name]
        problems = ([f"failed to load: {info.error}"] if info.error else []) + failures.get(
            name, []
        )
        if problems:
            row["error"] = problems[0]
            row["failures"] = problems
        rows.append(row)
    return rows


@click.command("plugins")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--reference", is_flag=True, help="Print the hook reference (Markdown).")
@click.pass_context
def plugins_command(ctx: click.Context, fmt: str, reference: bool) -> None:
    """List the loaded plugins: name, where each came from, and the hooks it implements."""
    if reference:
        click.echo(hook_reference())
        ctx.exit(EXIT_OK)
    rows = plugin_table()
    if fmt == "json":
        click.echo(json.dumps({"plugins": rows}, indent=1))
        ctx.exit(EXIT_OK)
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="castell plugins")
    table.add_column("plugin")
    table.add_column("source")
    table.add_column("hooks")
    table.add_column("provides")
    for row in rows:
        provides = "; ".join(f"{k}: {', '.join(v)}" for k, v in row.get("provides", {}).items())
        if "failures" in row:
            shown = "\n".join(escape(f) for f in row["failures"])
            provides = (provides + "\n" if provides else "") + f"[red]{shown}[/red]"
        table.add_row(row["name"], row["source"], ", ".join(row["hooks"]), provides)
    Console().print(table)
    ctx.exit(EXIT_OK)
