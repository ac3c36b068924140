"""One studio analysis, in its own process: `main`, started by the host's `WorkerStartup`
service (`studio_jobs.WORKER_ENTRY`) and handed the services.

It reads one JSON line (`{"text", "games", "players", "bots", "seed"}`), compiles the text
with the studio's confined loader (`studio_text.compile_text`: installed `extends` only, no
`include`; a text that does not compile ends here), then runs `castell analyze`'s report of
the variant against the installed rule set it extends (`StudioAnalysis.analyze_variant`).
It writes `{"done": k, "total": n}` after each game and finally `{"report": …}` or
`{"error": …}`, one JSON line each. The server stops it at its deadline; it exits by itself
when the server is gone (the host starts it so).

The analysis machinery loads rule sets by name or path, so the checked text is written to a
file in a private temporary directory this process makes (mode 0700, named by the process,
removed when it ends); nothing the page sends names or chooses a path.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from castell_dsl.contract.services import FrontendServices

from .studio_text import SHOWN, compile_text


def run(
    services: FrontendServices, job: dict[str, Any], emit: Callable[[dict[str, Any]], None]
) -> dict[str, Any]:
    """The analysis report of the job's text against its base (see the module docstring)."""
    compiled = compile_text(services, str(job["text"]))
    if compiled.base is None:
        raise ValueError("the text extends no installed rule set: nothing to compare with")
    games, players = int(job["games"]), int(job["players"])
    bots = [str(job["bots"])] * players
    scratch = Path(tempfile.mkdtemp(prefix="castell-studio-"))
    try:
        file = scratch / SHOWN
        file.write_text(str(job["text"]), encoding="utf-8")
        done = [0]

        def on_game() -> None:
            done[0] += 1
            emit({"done": done[0], "total": games})

        report = services.analyze_variant(
            file, compiled.base, players, bots, int(job.get("seed", 0)), games, on_game=on_game
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for rule_set in report["rule_sets"]:  # the scratch file's path is nobody's business
        if rule_set["rules"] == str(file):
            rule_set["rules"] = SHOWN
    return report


def main(services: FrontendServices) -> None:
    """The worker's life: one job from standard input, its progress and report out."""
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def emit(message: dict[str, Any]) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    try:
        job = json.loads(sys.stdin.readline() or "{}")
        emit({"report": run(services, job, emit)})
    except Exception as exc:  # told to the page in one line; the process ends
        emit({"error": f"{exc}"[:500]})
