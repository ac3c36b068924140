"""`castell lsp`: the language server for editors, over stdio (see docs/editors.md).

It needs the `lsp` extra (`pip install "castell-dsl[lsp]"`: pygls and lsprotocol); without it
the command says so instead of failing with an import error.
"""

from __future__ import annotations

import click

from . import EXIT_USAGE


@click.command()
@click.option(
    "--stdio", is_flag=True, help="Talk over stdin and stdout (the default, and the only way)."
)
@click.pass_context
def lsp(ctx: click.Context, stdio: bool) -> None:
    """Run the Castell language server: diagnostics, hover, go to definition, completion,
    document symbols and formatting for *.castell files."""
    try:
        from ..tools.server import main
    except ImportError as exc:
        click.echo(
            f"castell lsp: error: {exc.name or 'pygls'} is not installed; "
            'install the extra: pip install "castell-dsl[lsp]"',
            err=True,
        )
        ctx.exit(EXIT_USAGE)
    main()
