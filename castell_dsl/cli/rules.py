"""`castell rules`: see compiled rule sets, list what is installed."""

from __future__ import annotations

import json
from typing import Any

import click

from ..language.diff import flat_text
from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE


def print_diagnostics(report: Any) -> None:
    from ..language.diagnostics import render_text

    for diag in report.diagnostics:
        click.echo(render_text(diag, report.source_lines(diag.span.path)), err=True)


def load_or_exit(ctx: click.Context, name: str, variants: tuple[str, ...]) -> Any:
    """Load a rule set, or print its diagnostics and exit 1."""
    return report_or_exit(ctx, name, variants).rules


def report_or_exit(ctx: click.Context, name: str, variants: tuple[str, ...]) -> Any:
    """Load a rule set's report (rules and definitions), or print its diagnostics and exit 1."""
    from ..runtime.loading import load_report

    report = load_report(name, variants)
    if not report.ok:
        print_diagnostics(report)
        ctx.exit(EXIT_FAILED)
    return report


def render_value(value: Any, indent: int = 0) -> list[str]:
    """JSON data as indented text: short lists on one line, maps as `key: value` lines."""
    pad = "  " * indent
    lines: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item and not _is_flat(item):
                lines.append(f"{pad}{key}:")
                lines.extend(render_value(item, indent + 1))
            else:
                lines.append(f"{pad}{key}: {flat_text(item)}")
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and "name" in item:
                rest = {k: v for k, v in item.items() if k != "name"}
                if all(_is_flat(v) for v in rest.values()):
                    fields = "  ".join(
                        f"{k} {flat_text(v)}" for k, v in rest.items() if v is not None
                    )
                    lines.append(f"{pad}- {item['name']}  {fields}".rstrip())
                    continue
                lines.append(f"{pad}- {item['name']}:")
                lines.extend(render_value(rest, indent + 1))
            elif _is_flat(item):
                lines.append(f"{pad}- {flat_text(item)}")
            else:
                lines.append(f"{pad}-")
                lines.extend(render_value(item, indent + 1))
    else:
        lines.append(f"{pad}{flat_text(value)}")
    return lines


def _is_flat(value: Any) -> bool:
    if isinstance(value, dict):
        return len(value) <= 12 and all(not isinstance(v, (dict, list)) for v in value.values())
    if isinstance(value, list):
        return len(value) <= 40 and all(not isinstance(v, (dict, list)) for v in value)
    return True


def base_of(name_or_path: str, variants: tuple[str, ...], compiled: Any) -> str | None:
    """What `rules show --diff` compares with: the rules without the variants; for a file
    that `extends`, and no variants, the rule file it extends (None: a standalone file)."""
    if variants:
        return name_or_path
    files = list(compiled.sources)
    return files[-2] if len(files) >= 2 else None


@click.group()
def rules() -> None:
    """Show compiled rule sets and list the installed ones."""


@rules.command("show")
@click.argument("name_or_path", required=False)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    help="Apply a variant: a name, or a .castell file's path (repeatable).",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option(
    "--diff",
    "show_diff",
    is_flag=True,
    help="Show only what changes: the variants, or (without) what a file that extends changes.",
)
@click.pass_context
def show(
    ctx: click.Context, name_or_path: str | None, variants: tuple[str, ...], fmt: str, show_diff
) -> None:
    """Print the compiled rule set NAME_OR_PATH (default: the default game's), variants applied.

    This is what the engine runs: an author can see what a variant file really changes.
    """
    from ..runtime.loading import default_rules

    name_or_path = name_or_path or default_rules()
    report = report_or_exit(ctx, name_or_path, variants)
    compiled = report.rules
    data = compiled.to_json()
    if show_diff:
        base = base_of(name_or_path, variants, compiled)
        if base is None:
            click.echo(
                f"castell rules show: {name_or_path} extends no rule set and no --variant is "
                "given: nothing to compare with",
                err=True,
            )
            ctx.exit(EXIT_USAGE)
        from ..language.diff import diff_entries, locate, render_entry

        base_rules = load_or_exit(ctx, base, ())
        named = {kind.key: name for name, kind in compiled.kinds.items() if kind.named}
        entries = locate(
            diff_entries(base_rules.to_json(), data, named),
            compiled,
            report.definitions,
            base_rules.sources,
        )
        if fmt == "json":
            click.echo(
                json.dumps(
                    {"base": base, "variants": list(variants), "changes": entries},
                    indent=2,
                    ensure_ascii=False,
                )
            )
        else:
            click.echo("\n".join(map(render_entry, entries)) if entries else "no changes")
        ctx.exit(EXIT_OK)
    if fmt == "json":
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(f"# {compiled.name} ({compiled.hash})")
        click.echo("\n".join(render_value(data)))
    ctx.exit(EXIT_OK)


@rules.command("list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def list_rules(fmt: str) -> None:
    """List the installed games and each one's variants (files beside it and plugins' code
    variants), as the library's `list_games` and `list_variants` see them."""
    from ..api.catalogue import list_variants, scan
    from ..runtime.loading import rule_path

    catalogue = scan()
    games = [
        {**game.to_json(), "variants": [v.to_json() for v in list_variants(game.name)]}
        for game in catalogue.games
    ]
    data = {
        "games": games,
        "not_loading": dict(catalogue.problems),
        "search_path": [str(d) for d in rule_path().directories],
    }
    if fmt == "json":
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    click.echo("\n".join(catalogue_lines(data)))


def _players(players: list[int] | None) -> str:
    if players is None:
        return "only with other variants"
    low, high = players
    if low == high:
        return f"{low} player{'s' if low != 1 else ''}"
    return f"{low} to {high} players"


def _first_sentence(text: str, limit: int = 72) -> str:
    """A summary's first sentence, cut to `limit` characters (the JSON has it whole)."""
    end = text.find(". ")
    first = text if end < 0 else text[: end + 1]
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "…"


def catalogue_lines(data: dict[str, Any]) -> list[str]:
    """`rules list` as text: each game (its name is what --rules takes) with its variants."""
    from ..language.text import visible

    lines: list[str] = []
    for game in data["games"]:
        default = ", the default" if game["default"] else ""
        lines.append(f"{game['name']}: {game['title']}, {_players(game['players'])}{default}")
        width = max((len(v["name"]) for v in game["variants"]), default=0)
        for variant in game["variants"]:
            notes = [f"[{_players(variant['players'])}]"] * (
                variant["players"] != game["players"]
            ) + ["(plugin)"] * (variant["kind"] == "code")
            summary = " ".join([*notes, _first_sentence(variant["summary"])])
            lines.append(f"  --variant {variant['name']:<{width}}  {summary}".rstrip())
    for name, why in data["not_loading"].items():
        lines.append(f"{name}: does not load: {why} (castell validate {name})")
    lines.append("search path: " + (", ".join(data["search_path"]) or "none"))
    return [visible(line) for line in lines]
