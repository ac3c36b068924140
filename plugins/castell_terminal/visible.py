"""Every string the terminal prints is shown, never obeyed: one boundary for the whole app.

Rule files (region names, titles, comments quoted in hints) and saves reach the table through
the games' renderers as ordinary text, and rich passes an ESC inside such text to the terminal
unchanged (an OSC 52 clipboard write, a screen clear). Rather than trusting every renderer to
escape, the console gets a render hook that wraps each renderable: its segments' text goes
through `visible` while rich's own control segments and styles (which are not text) pass
untouched, so colours and layout still work.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType, RenderHook, RenderResult
from rich.segment import Segment

from castell_dsl.language.text import visible


class Shown:
    """A renderable whose text segments have their control characters made visible."""

    def __init__(self, inner: RenderableType):
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.inner, options):
            if segment.control or segment.text.isprintable():
                yield segment
            else:
                yield Segment(visible(segment.text, keep_newlines=True), segment.style)


class ShowTextOnly(RenderHook):
    """The console's render hook: wraps what is printed in `Shown`."""

    def process_renderables(self, renderables: list[Any]) -> list[Any]:
        return [Shown(r) if not isinstance(r, Shown) else r for r in renderables]


def safe_console(**options: Any) -> Console:
    """A rich console that prints text from files and the network as text."""
    console = Console(**options)
    console.push_render_hook(ShowTextOnly())
    return console
