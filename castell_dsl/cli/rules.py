"""`castell rules`: see compiled rule sets, list what is installed."""

from __future__ import annotations

import json
from typing import Any

import click

from . import EXIT_FAILED, EXIT_OK


def print_diagnostics(report: Any) -> None:
    from ..language.diagnostics import render_text

    for diag in report.diagnostics:
        click.echo(render_text(diag, report.source_lines(diag.span.path)), err=True)


def load_or_exit(ctx: click.Context, name: str, variants: tuple[str, ...]) -> Any:
    """Load a rule set, or print its diagnostics and exit 1."""
    from ..runtime.loading import load_report

    report = load_report(name, variants)
    if not report.ok:
        print_diagnostics(report)
        ctx.exit(EXIT_FAILED)
    return report.rules


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
                lines.append(f"{pad}{key}: {_flat(item)}")
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and "name" in item:
                rest = {k: v for k, v in item.items() if k != "name"}
                if all(_is_flat(v) for v in rest.values()):
                    fields = "  ".join(f"{k} {_flat(v)}" for k, v in rest.items() if v is not None)
                    lines.append(f"{pad}- {item['name']}  {fields}".rstrip())
                    continue
                lines.append(f"{pad}- {item['name']}:")
                lines.extend(render_value(rest, indent + 1))
            elif _is_flat(item):
                lines.append(f"{pad}- {_flat(item)}")
            else:
                lines.append(f"{pad}-")
                lines.extend(render_value(item, indent + 1))
    else:
        lines.append(f"{pad}{_flat(value)}")
    return lines


def _is_flat(value: Any) -> bool:
    if isinstance(value, dict):
        return len(value) <= 12 and all(not isinstance(v, (dict, list)) for v in value.values())
    if isinstance(value, list):
        return len(value) <= 40 and all(not isinstance(v, (dict, list)) for v in value)
    return True


def _flat(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flat(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flat(v) for v in value) + "]"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def diff(base: Any, changed: Any, path: str = "") -> list[str]:
    """What `changed` changes relative to `base`, one line per changed leaf."""
    out: list[str] = []
    if isinstance(base, dict) and isinstance(changed, dict):
        for key in list(base) + [k for k in changed if k not in base]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in changed:
                out.append(f"- {sub}: {_flat(base[key])}")
            elif key not in base:
                out.append(f"+ {sub}: {_flat(changed[key])}")
            else:
                out.extend(diff(base[key], changed[key], sub))
        return out
    if (
        isinstance(base, list)
        and isinstance(changed, list)
        and all(isinstance(i, dict) and "name" in i for i in base + changed)
    ):
        return diff({i["name"]: i for i in base}, {i["name"]: i for i in changed}, path)
    if base != changed:
        out.append(f"~ {path}: {_flat(base)} -> {_flat(changed)}")
    return out


@click.group()
def rules() -> None:
    """Show compiled rule sets and list the installed ones."""


@rules.command("show")
@click.argument("name_or_path", required=False)
@click.option("--variant", "variants", multiple=True, help="Apply a variant (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--diff", "show_diff", is_flag=True, help="Show only what the variants change.")
@click.pass_context
def show(
    ctx: click.Context, name_or_path: str | None, variants: tuple[str, ...], fmt: str, show_diff
) -> None:
    """Print the compiled rule set NAME_OR_PATH (default: the default game's), variants applied.

    This is what the engine runs: an author can see what a variant file really changes.
    """
    from ..runtime.loading import default_rules

    name_or_path = name_or_path or default_rules()
    compiled = load_or_exit(ctx, name_or_path, variants)
    data = compiled.to_json()
    if show_diff:
        base_rules = load_or_exit(ctx, name_or_path, ())
        lines = diff(base_rules.to_json(), data)
        if fmt == "json":
            click.echo(json.dumps({"changes": lines}, indent=2))
        else:
            click.echo("\n".join(lines) if lines else "no changes")
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
    """List the rule sets and variants found on the rule path and registered by plugins."""
    from ..runtime.loading import rule_path
    from ..runtime.plugins import registries

    path = rule_path()
    code_variants = registries().variants
    data = {
        "rule_sets": path.rule_names(),
        "variant_files": path.variant_names(),
        "plugin_variants": {
            name: {
                "applies_to": list(v.applies_to),
                "description": v.description,
                "rule_ids": list(v.rule_ids),
            }
            for name, v in sorted(code_variants.items())
        },
        "search_path": [str(d) for d in path.directories],
    }
    if fmt == "json":
        click.echo(json.dumps(data, indent=2))
        return
    click.echo("\n".join(render_value(data)))
