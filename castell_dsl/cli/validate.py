"""`castell validate`: check rule files, for people and for CI.

Exit codes: 0 no errors (warnings allowed unless `--strict`), 1 some file has an error,
2 a usage error (for example a path that does not exist).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE


def collect_files(paths: tuple[str, ...]) -> list[Path]:
    """The rule files named by `paths` (directories searched recursively for *.castell)."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.castell") if p.is_file()))
        else:
            files.append(path)
    from ..language.source import resolve_path

    seen: set[Path] = set()
    unique = []
    for f in files:
        key = resolve_path(f)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="text for people, json for tools, github for workflow annotations.",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option(
    "--variant",
    "variants",
    multiple=True,
    help="Apply a variant (a name, or a .castell file's path) to each file (repeatable).",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only problems (text format).")
@click.pass_context
def validate(
    ctx: click.Context,
    paths: tuple[str, ...],
    fmt: str,
    strict: bool,
    quiet: bool,
    variants: tuple[str, ...] = (),
):
    """Check rule files and report every problem with its position and a hint.

    PATHS are files or directories (searched recursively for *.castell); the default is
    ./rules, or every installed game's rules when there is no ./rules directory (with
    --variant: the default rule set). A problem that a variant or a file that `extends`
    causes in the rules it inherits is reported in that file, with the inherited place as
    a note.
    """
    from ..language.diagnostics import Diagnostic, render_github, render_text, to_json_report
    from ..language.loader import is_path_like
    from ..language.text import visible
    from ..runtime.loading import default_rules, load_report, rule_path

    # A rule set may be named (`castell`) rather than given by path: an argument that does not
    # look like a path (no separator, no .castell) and names an installed rule set means it,
    # whatever the working directory holds (loading.resolve_rules_path); else it is a path.
    search = rule_path()
    named = bool(paths) and all(
        not is_path_like(p) and search.find_rules(p) is not None for p in paths
    )
    if not paths and variants:
        paths, named = (default_rules(),), True
    if not paths:
        installed = tuple(str(d) for d in rule_path().directories)
        paths = ("rules",) if Path("rules").is_dir() else installed
    missing = [] if named else [p for p in paths if not Path(p).exists()]
    if missing:
        click.echo(f"castell validate: error: no such file or directory: {missing[0]}", err=True)
        ctx.exit(EXIT_USAGE)
    files = [Path(p) for p in paths] if named else collect_files(paths)
    if not files:
        click.echo(f"castell validate: error: no *.castell files in {', '.join(paths)}", err=True)
        ctx.exit(EXIT_USAGE)

    # Each file's verdict and diagnostics are its own: loaded alone, whatever else is
    # validated with it (a problem of a shared base file is listed with every file it breaks).
    results: list[tuple[str, list[Diagnostic]]] = []
    sources: dict[str, list[str]] = {}
    for file in files:
        report = load_report(str(file) if named else file, variants)
        for diag in report.diagnostics:
            lines = report.source_lines(diag.span.path)
            if lines is not None:
                sources[diag.span.path] = lines
        results.append((report.path, list(report.diagnostics)))

    errors = sum(1 for _, ds in results for d in ds if d.is_error)
    warnings = sum(1 for _, ds in results for d in ds if not d.is_error)
    failed = errors > 0 or (strict and warnings > 0)

    if fmt == "json":
        click.echo(to_json_report(results, strict))
    elif fmt == "github":
        for path, diags in results:
            for diag in diags:  # a problem in an installed file is attached to this one
                click.echo(render_github(diag, fallback=path))
    else:
        color = sys.stdout.isatty()
        for path, diags in results:
            for diag in diags:
                click.echo(render_text(diag, sources.get(diag.span.path), color=color))
                click.echo()
            if not diags and not quiet:
                mark = click.style("ok", fg="green") if color else "ok"
                click.echo(f"{mark}  {visible(path)}")
        if not quiet or failed:
            parts = [f"{len(files)} file{'s' if len(files) != 1 else ''} checked"]
            parts.append(f"{errors} error{'s' if errors != 1 else ''}")
            parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
            click.echo(", ".join(parts))
    ctx.exit(EXIT_FAILED if failed else EXIT_OK)
