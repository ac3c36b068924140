"""The terminal shows text from rule files as text: escape sequences in a region's name or a
game's title are made visible, not sent to the player's terminal (docs/security.md)."""

from __future__ import annotations

import io

from castell_terminal.visible import ShowTextOnly, safe_console
from rich.console import Console
from rich.table import Table

OSC52 = "\x1b]52;c;SGVsbG8=\x07"
CLEAR = "\x1b[2J"


def _printed(console: Console, *renderables: object) -> str:
    for renderable in renderables:
        console.print(renderable)
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def test_escapes_in_text_tables_and_markup_are_shown_not_obeyed():
    console = safe_console(file=io.StringIO(), force_terminal=True, width=80)
    table = Table(title=f"Festival in Vila{CLEAR}franca")
    table.add_column(f"seat{OSC52}")
    table.add_row(f"x{CLEAR}")
    out = _printed(console, f"region Gir{OSC52}ona", table)
    assert "\x1b]" not in out and "\x1b[2J" not in out
    assert "\\x1b" in out


def test_the_apps_own_colours_still_reach_the_terminal():
    console = safe_console(file=io.StringIO(), force_terminal=True, width=80)
    out = _printed(console, "[bold]Round 1[/bold]")
    assert "\x1b[1m" in out  # rich's own style codes are not text and pass unchanged


def test_the_terminal_app_installs_the_hook(monkeypatch):
    from castell_terminal.app import TerminalApp

    from castell_dsl import load_rules
    from castell_dsl.runtime.session import Session

    console = Console(file=io.StringIO(), force_terminal=True, width=80)
    session = Session(load_rules("castell"), 2, 1, ["you", "random"])
    TerminalApp(session, stdin=io.StringIO(""), console=console)
    assert any(isinstance(h, ShowTextOnly) for h in console._render_hooks)
