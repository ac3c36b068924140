"""Every limit of the server in one place: what a client may send, hold and ask for.

The server is reachable by strangers (docs/security.md, "The web server"), so every input has a
size, every connection a deadline, every match a number of watchers and every bot a budget.
`Limits()` holds the defaults (the table in docs/security.md); tests and `castell serve`
options change them with `dataclasses.replace`.
"""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass, field


def _default_bot_workers() -> int:
    """Bots think on all cores but one (at least one worker): the event loop keeps a core."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(frozen=True)
class Limits:
    # ---- request bodies and messages ----------------------------------------------------------
    #: Largest JSON body of a request (a creation request, an uploaded save).
    body_bytes: int = 1024 * 1024
    #: Deepest nesting of a JSON body (a save is 4 levels deep).
    body_depth: int = 16
    #: Largest WebSocket message (the protocol's own cap is smaller: `protocol.MAX_MESSAGE`).
    ws_message_bytes: int = 128 * 1024
    #: Actions of an uploaded save replayed for the replay page.
    replay_actions: int = 5000

    # ---- connections --------------------------------------------------------------------------
    #: Seconds a client has to send a request's headers and body once it has started it.
    request_seconds: float = 10.0
    #: Seconds an idle keep-alive HTTP connection is kept.
    keep_alive_seconds: int = 5
    #: Largest request head (request line and headers), in bytes.
    header_bytes: int = 16 * 1024
    #: Open HTTP and WebSocket connections at once, server-wide (kept below the open-file limit).
    connections: int = 1000
    #: Open connections from one client address (0: no per-address limit, e.g. behind a proxy
    #: that does not forward client addresses).
    connections_per_client: int = 64
    #: WebSocket connections to one match (players and watchers together).
    sockets_per_match: int = 100
    #: Seconds between WebSocket pings; a client that does not answer within as long is dropped.
    ws_ping_seconds: float = 20.0
    #: Messages queued for a slow connection before it is dropped (it reconnects and resyncs).
    outbox_messages: int = 256

    # ---- matches and bots ---------------------------------------------------------------------
    #: Matches kept on the server (finished ones included); creating more is refused.
    matches: int = 10_000
    #: Worker processes in which bots think, server-wide (other matches' bots wait their turn).
    bot_workers: int = field(default_factory=_default_bot_workers)
    #: Seconds one bot turn may take before its worker is stopped and a random legal action is
    #: played instead (bots from the network are capped well below this by their settings).
    bot_turn_seconds: float = 30.0
    #: Seconds a hint may take (hints run in the server, one at a time per match).
    hint_seconds: float = 10.0
    #: Programs the administrator allows as seats (`castell serve --allow-agent COMMAND`),
    #: offered in the lobby as `cmd:COMMAND`; no other program is ever started for the network.
    agent_commands: tuple[str, ...] = ()

    # ---- the studio (docs/studio.md) ---------------------------------------------------------
    #: Variants the studio keeps on the server; saving a new one is refused beyond this.
    studio_variants: int = 10_000
    #: Versions kept per variant (the oldest beyond this are dropped as new ones are saved).
    studio_versions: int = 200
    #: Checks of a text (diagnostics, diff, hover, completion) running at once, server-wide;
    #: each page also waits for its check's answer before it sends the next.
    studio_checks: int = 2
    #: Most games one analysis may play (per rule set: the variant and its base).
    analysis_games: int = 100
    #: Seconds of wall time one analysis may take before its process is stopped.
    analysis_seconds: float = 180.0
    #: Analyses waiting to run, server-wide (more are refused: "try again later").
    analysis_queue: int = 16
    #: Analyses running at once, server-wide, each in its own process.
    analysis_workers: int = 1
    #: Finished analysis reports kept for reuse (by rules, base and settings).
    analyses_kept: int = 500

    def capped_to_open_files(self) -> Limits:
        """These limits with `connections` below the process's open-file limit (each connection
        is a file descriptor; the database, workers and pipes need some too)."""
        from dataclasses import replace

        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return self
        return replace(self, connections=max(16, min(self.connections, soft - 64)))
