"""`castell rules`: see compiled rule sets, list what is installed."""

from __future__ import annotations

import json
from typing import Any

import click

from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE


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


#: Longest list of plain values (names, numbers) shown whole in a diff line, in characters;
#: a longer one (a calendar, a wheel) is compared item by item.
SHORT_LIST = 60


def diff_entries(base: Any, changed: Any, kinds: dict[str, str] | None = None) -> list[dict]:
    """What `changed` changes relative to `base` (rule sets' JSON), one entry per change.

    Each entry is `{"op": "add" | "remove" | "change", "path": "calendar.space[3].round",
    "keys": [...], "old": …, "new": …}` (no `old` for an addition, no `new` for a removal).
    Maps are compared key by key; lists of named items (tiles, steps) by name, a top-level
    one shown as `performance LP33` (`kinds` maps a rule set's JSON keys to kind names);
    other lists item by item (`calendar.space[3]`, aligned by content, so an inserted space
    is one addition), except short lists of plain values, shown whole.
    """
    out: list[dict] = []
    top = {k: v for k, v in (base or {}).items() if k != "variants"}
    new = {k: v for k, v in (changed or {}).items() if k != "variants"}
    _diff(top, new, [], "", out, kinds or {})
    return out


def _entry(op: str, keys: list, where: str, old: Any = None, new: Any = None) -> dict:
    entry: dict[str, Any] = {"op": op, "path": where, "keys": list(keys)}
    if op != "add":
        entry["old"] = old
    if op != "remove":
        entry["new"] = new
    return entry


def _named(items: list) -> bool:
    names = [i.get("name") for i in items if isinstance(i, dict)]
    return (
        len(names) == len(items)
        and all(isinstance(n, str) for n in names)
        and len(set(names)) == len(names)
    )


def _diff(a: Any, b: Any, keys: list, where: str, out: list[dict], kinds: dict[str, str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            sub = f"{where}.{key}" if where else str(key)
            if key not in b:
                out.append(_entry("remove", [*keys, key], sub, old=a[key]))
            elif key not in a:
                out.append(_entry("add", [*keys, key], sub, new=b[key]))
            else:
                _diff(a[key], b[key], [*keys, key], sub, out, kinds)
        return
    if isinstance(a, list) and isinstance(b, list):
        if a == b:
            return
        if (a or b) and _named(a) and _named(b):
            kind = kinds.get(str(keys[0])) if len(keys) == 1 else None
            olds = {i["name"]: i for i in a}
            news = {i["name"]: i for i in b}
            for name in list(olds) + [n for n in news if n not in olds]:
                sub = f"{kind} {name}" if kind else f"{where}.{name}"
                if name not in news:
                    out.append(_entry("remove", [*keys, name], sub, old=olds[name]))
                elif name not in olds:
                    out.append(_entry("add", [*keys, name], sub, new=news[name]))
                else:
                    _diff(olds[name], news[name], [*keys, name], sub, out, kinds)
            return
        plain = all(not isinstance(v, (dict, list)) for v in a + b)
        if plain and max(len(_flat(a)), len(_flat(b))) <= SHORT_LIST:
            out.append(_entry("change", keys, where, old=a, new=b))
            return
        import difflib

        canon_a = [json.dumps(v, sort_keys=True) for v in a]
        canon_b = [json.dumps(v, sort_keys=True) for v in b]
        matcher = difflib.SequenceMatcher(None, canon_a, canon_b, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                continue
            pairs = min(i2 - i1, j2 - j1) if op == "replace" else 0
            for k in range(pairs):
                i, j = i1 + k, j1 + k
                _diff(a[i], b[j], [*keys, i], f"{where}[{i}]", out, kinds)
            for i in range(i1 + pairs, i2):
                out.append(_entry("remove", [*keys, i], f"{where}[{i}]", old=a[i]))
            for j in range(j1 + pairs, j2):
                out.append(_entry("add", [*keys, j], f"{where}[{j}]", new=b[j]))
        return
    if a != b:
        out.append(_entry("change", keys, where, old=a, new=b))


def render_entry(entry: dict) -> str:
    """One change as a line: `~ game.rounds: 10 → 8`, `+ performance LP33 {…}`, `- …`."""
    if entry["op"] == "change":
        return f"~ {entry['path']}: {_flat(entry['old'])} → {_flat(entry['new'])}"
    if entry["op"] == "add":
        value = entry["new"]
        if isinstance(value, dict) and "name" in value:
            value = {k: v for k, v in value.items() if k != "name" and v is not None}
        return f"+ {entry['path']}: {_flat(value)}"
    old = entry["old"]
    named = isinstance(old, dict) and "name" in old and entry["path"].endswith(str(old["name"]))
    return f"- {entry['path']}" if named else f"- {entry['path']}: {_flat(old)}"


def diff(base: Any, changed: Any, kinds: dict[str, str] | None = None) -> list[str]:
    """`diff_entries` as text lines."""
    return [render_entry(e) for e in diff_entries(base, changed, kinds)]


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
    compiled = load_or_exit(ctx, name_or_path, variants)
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
        base_rules = load_or_exit(ctx, base, ())
        kinds = {kind.key: name for name, kind in compiled.kinds.items() if kind.named}
        entries = diff_entries(base_rules.to_json(), data, kinds)
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
