"""A front-end's worker process: `python -m castell_dsl.cli.worker MODULE:FUNCTION PARENT_PID`.

A front-end that thinks or analyses outside its own process (the web server's bots and the
studio's analyses) starts a fresh interpreter with the command line
`FrontendServices.worker_command(entry)` gives it. This module is that process's start: it
makes the worker exit as soon as its parent is gone and leave Ctrl-C to the parent
(`runtime.workers.worker_initializer`), then calls the front-end's entry function with the
host's services, the same the parent holds, so the worker too reaches the runtime only
through the contract. The entry comes from the parent's code (a constant of the front-end
that starts the worker), never from a network; it must be `package.module:function`.
"""

from __future__ import annotations

import importlib
import sys

from .services import ENTRY, host_services


def main(argv: list[str]) -> int:
    from ..runtime.workers import worker_initializer

    if len(argv) != 2 or not ENTRY.fullmatch(argv[0]) or not argv[1].isdigit():
        print("usage: python -m castell_dsl.cli.worker MODULE:FUNCTION PARENT_PID", file=sys.stderr)
        return 2
    worker_initializer(int(argv[1]))
    module, _, function = argv[0].partition(":")
    entry = getattr(importlib.import_module(module), function)
    entry(host_services())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
