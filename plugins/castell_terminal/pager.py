"""Long output (`board`, `help TOPIC`) through the user's pager, never with raw escape codes.

rich's own pager hands styled text to `pydoc.pager`, which runs `$PAGER` (or `less`) as it is:
`less` without `-R` (the Debian default: `LESS` and `PAGER` unset) then shows every colour as
`ESC[1m…`. Whether a pager draws colours depends on the program, so this module decides it:

- `less` gets `-R` on its command line (it overrides `$LESS` and keeps the user's other options),
  and `most` draws colours by itself: they get the styled text;
- any other program (`more`, `pg`, a script) gets plain text: no escape code at all;
- an empty `$PAGER`, or a pager that cannot be started, prints in place.

`$MANPAGER` is not read: it is for manual pages. `pick_pager` is pure, so tests check every
case without a terminal; `page` runs the pager.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Pagers that draw ANSI colours, and the option that makes them do so ("" for none needed).
COLOUR_PAGERS = {"less": "-R", "most": ""}


@dataclass(frozen=True)
class Pager:
    """How to page: the command (empty: print in place) and whether it may see styles."""

    argv: tuple[str, ...]
    styles: bool


def pick_pager(environ: Mapping[str, str]) -> Pager:
    """The pager `$PAGER` names (default `less`), with what it needs to show styles or, for
    one that cannot, the decision to send it plain text."""
    command = environ.get("PAGER")
    if command is None:
        command = "less"
    try:
        argv = shlex.split(command)
    except ValueError:  # an unbalanced quote: not a command we can run
        return Pager((), styles=True)
    if not argv:
        return Pager((), styles=True)
    program = os.path.basename(argv[0])
    if program in COLOUR_PAGERS:
        option = COLOUR_PAGERS[program]
        if option and option not in argv[1:]:
            argv.insert(1, option)
        return Pager(tuple(argv), styles=True)
    return Pager(tuple(argv), styles=False)


def page(console: Any, renderables: list[Any], environ: Mapping[str, str] | None = None) -> None:
    """Show `renderables` through the pager: rendered by `console` (its width and colours),
    styled only for a pager that draws styles."""
    pager = pick_pager(os.environ if environ is None else environ)
    if not pager.argv:
        for renderable in renderables:
            console.print(renderable)
        return
    with console.capture() as captured:
        for renderable in renderables:
            console.print(renderable)
    text = captured.get()
    if not pager.styles:
        from rich.text import Text

        text = Text.from_ansi(text).plain
    try:
        subprocess.run(list(pager.argv), input=text, text=True, check=False)
    except OSError:  # no such pager here: the text goes to the console instead
        console.file.write(text)
        console.file.flush()
