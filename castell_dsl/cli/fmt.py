"""`castell fmt`: rewrite rule files in the canonical layout (see `castell_dsl/tools/formatter.py`).

Exit codes: 0 done (or, with `--check`, nothing to change), 1 `--check` found files that would
change, 2 a usage error or a file that cannot be formatted (a syntax error: reported like
`castell validate` reports it, and the file is left as it is).
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import click

from . import EXIT_FAILED, EXIT_OK, EXIT_USAGE


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--check", is_flag=True, help="Change nothing; exit 1 listing files that would change."
)
@click.option("--diff", "show_diff", is_flag=True, help="Change nothing; print what would change.")
@click.pass_context
def fmt(ctx: click.Context, paths: tuple[str, ...], check: bool, show_diff: bool) -> None:
    """Format rule files: one layout for indentation, tables, comments and blank lines.

    PATHS are files or directories (searched recursively for *.castell); the default is
    ./rules. `-` formats standard input to standard output (for editors).
    """
    from ..language.diagnostics import Diagnostics, render_text
    from ..language.source import read_source, split_lines
    from ..tools.formatter import Formatted, format_text
    from .validate import collect_files

    if paths == ("-",):
        text = sys.stdin.read()
        result = format_text(text, "<stdin>")
        if result.text is None:
            for diag in result.diagnostics:
                click.echo(render_text(diag, split_lines(text)), err=True)
            ctx.exit(EXIT_USAGE)
        click.echo(result.text, nl=False)
        ctx.exit(EXIT_OK)
    if not paths:
        if not Path("rules").is_dir():
            click.echo(
                "castell fmt: error: no ./rules directory; name the files to format", err=True
            )
            ctx.exit(EXIT_USAGE)
        paths = ("rules",)
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        click.echo(f"castell fmt: error: no such file or directory: {missing[0]}", err=True)
        ctx.exit(EXIT_USAGE)
    files = collect_files(paths)
    if not files:
        click.echo(f"castell fmt: error: no *.castell files in {', '.join(paths)}", err=True)
        ctx.exit(EXIT_USAGE)

    changed: list[Path] = []
    broken = 0
    for file in files:
        diags = Diagnostics()
        source = read_source(file, str(file), diags)
        outcome: Formatted | None = (
            format_text(source.text, str(file)) if source is not None else None
        )
        if source is None or outcome is None or outcome.text is None:
            broken += 1
            for diag in outcome.diagnostics if outcome is not None else diags.sorted():
                lines = source.lines if source is not None else None
                click.echo(render_text(diag, lines, color=sys.stderr.isatty()), err=True)
            continue
        if outcome.text == source.text:
            continue
        changed.append(file)
        if show_diff:
            click.echo(
                "".join(
                    difflib.unified_diff(
                        source.text.splitlines(keepends=True),
                        outcome.text.splitlines(keepends=True),
                        f"{file} (original)",
                        f"{file} (formatted)",
                    )
                ),
                nl=False,
            )
        elif check:
            click.echo(f"would reformat {file}")
        else:
            file.write_text(outcome.text, encoding="utf-8")
            click.echo(f"reformatted {file}")
    verb = "would be reformatted" if check or show_diff else "reformatted"
    summary = f"{len(changed)} file{'s' if len(changed) != 1 else ''} {verb}, "
    summary += f"{len(files) - len(changed) - broken} unchanged"
    if broken:
        summary += f", {broken} with syntax errors left unchanged"
    click.echo(summary, err=True)
    if broken:
        ctx.exit(EXIT_USAGE)
    ctx.exit(EXIT_FAILED if check and changed else EXIT_OK)
