"""Matches being played on the server: seats and their tokens, connections, bots, the log.

A `Match` wraps a `PlaySession` (seats, undo; the services' `new_session`) and adds what a shared
table needs:
which connection sits in which seat, one lock so that actions apply one at a time, bots thinking
in the server's bot pool (`bots.py`) so the event loop never waits for them, and every change
written to the store before anyone is told about it (so a restart loses nothing anyone has seen).
Its `Seating` holds the players' names, the per-turn clock and the seats left to the stand-in
bot; `_player_of_turn` is the one place that decides who plays a turn (docs/web.md, "Seats").

The lock is held while a change is applied and published, never while a bot thinks: a bot's
turn is asked for the position of one version of the table and played only if the table is
still at that version (an undo meanwhile makes the bot think again). Every message is encoded
once, whatever the number of connections it goes to, and the watchers' comings and goings are
announced at most every `PRESENCE_INTERVAL`, so N watchers joining cost O(N), not O(N²).

The play commands are the contract's (`castell_dsl.contract.COMMANDS`, the one dispatcher of
every front-end): a `{"command": NAME, ARGUMENT: TEXT}` message runs the same handler as
`NAME ARGUMENT` in the terminal, on the match's `TableSession`, whose saving is the server's
(a download once the match is over; no path from the network is ever opened). `hint` runs the
same advice (`commands.hint_lines`) in the bot pool. Two table commands are the server's own,
since they are about the people at a shared table: `name` and `seat` (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from castell_dsl.contract import (
    COMMANDS,
    ActionError,
    CommandError,
    ExpressionError,
    PlaySession,
    SaveOutcome,
    SessionWrapper,
    bot_seed,
    decision_rng,
)
from castell_dsl.contract import protocol as m

from .bots import BotFailed, BotPool, BotTimeout, Work
from .refusals import Refused
from .seating import Seating, SeatingError, clean_name
from .store import MatchStore, StoredMatch

log = logging.getLogger("castell_web")

#: Messages a connection may send: a burst of `RATE_BURST`, then `RATE_PER_SECOND`.
RATE_BURST, RATE_PER_SECOND = 40.0, 20.0
#: Messages queued for a slow connection before it is dropped (it reconnects and resyncs).
OUTBOX_LIMIT = 256
#: Seconds between two announcements of watchers coming and going (players: at once).
PRESENCE_INTERVAL = 0.5


def token_hash(token: str) -> str:
    return "sha256:" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


#: The server's own commands, about the people at the table (not the game): a seat's name,
#: and handing a seat to the stand-in bot or taking it back.
TABLE_COMMANDS = ("name", "seat")
#: Arguments of play commands the server does not take: a path from the network is never
#: opened (`save` and `quit` save on the server).
NOT_FROM_THE_NETWORK = frozenset({"path"})
#: The play commands' arguments a client message may hold (`action` is also an action's).
ARGUMENT_FIELDS = frozenset({a.name for c in COMMANDS for a in c.arguments} - NOT_FROM_THE_NETWORK)
#: What a client message may hold, and what it may ask.
FIELDS = frozenset({"action", "command", "version", "name", "away"} | ARGUMENT_FIELDS)
#: Longest action text (a save refuses longer ones: `saves.MAX_TEXT`).
MAX_ACTION = 1000
#: Longest argument of a command other than an action (a help topic).
MAX_ARGUMENT = 200
USAGE = f'send {{"action": TEXT}} or {{"command": {"|".join(COMMANDS.names())}|name|seat}}'


#: The table commands as the `hello` lists them, beside the play commands.
TABLE_JSON = [
    {
        "name": "name",
        "help": "name yourself at this table",
        "arguments": [
            {
                "name": "name",
                "metavar": "NAME",
                "help": "at most 24 printable characters",
                "required": True,
            }
        ],
        "usage": "name NAME",
    },
    {
        "name": "seat",
        "help": "let the stand-in bot play your seat, or take it back",
        "arguments": [
            {"name": "away", "metavar": "true|false", "help": "away or back", "required": True}
        ],
        "usage": "seat true|false",
    },
]


def offered() -> list[str]:
    """Every command a connection may send: the play commands, then the table's own."""
    return [*COMMANDS.names(), *TABLE_COMMANDS]


def read_message(message: dict[str, Any]) -> tuple[str | None, str | None, int | None]:
    """(command, action, version) of a client message, every field's type checked strictly
    (`"version": true` is not a version); a ProtocolError `bad-message` otherwise."""
    unknown = sorted(str(key)[:40] for key in message if key not in FIELDS)
    if unknown:
        raise m.ProtocolError("bad-message", f"unknown field '{unknown[0]}': {USAGE}")
    command, action, version = (message.get(k) for k in ("command", "action", "version"))
    if command is not None and (not isinstance(command, str) or command not in offered()):
        raise m.ProtocolError("bad-message", USAGE)
    for key in ARGUMENT_FIELDS - {"action"}:
        value = message.get(key)
        if value is not None and (not isinstance(value, str) or len(value) > MAX_ARGUMENT):
            raise m.ProtocolError("bad-message", f"'{key}' is a text of at most {MAX_ARGUMENT}")
    if isinstance(command, str) and command in COMMANDS:  # only the command's own arguments
        given = {k: v for k, v in message.items() if k in ARGUMENT_FIELDS}
        try:
            COMMANDS.check_arguments(command, given)
        except CommandError as exc:
            raise m.ProtocolError(exc.code, exc.message) from None
    elif command is not None:
        stray = sorted(k for k in message if k in ARGUMENT_FIELDS - {"action"})
        if stray:
            raise m.ProtocolError("bad-message", f"'{command}' takes no '{stray[0]}'")
    if action is not None and not isinstance(action, str):
        raise m.ProtocolError("bad-message", "'action' is the text of an action")
    if action is not None and len(action) > MAX_ACTION:
        raise m.ProtocolError("too-large", f"an action is at most {MAX_ACTION} characters")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise m.ProtocolError("bad-message", "'version' is the number of a state")
    if action is None and command in (None, "check"):
        raise m.ProtocolError("bad-message", USAGE)
    if command == "seat" and not isinstance(message.get("away"), bool):
        raise m.ProtocolError("bad-message", '\'away\' is true or false: {"command": "seat"}')
    if command == "name" and not isinstance(message.get("name"), str):
        raise m.ProtocolError("bad-name", "'name' is the text of a name")
    return command, action, version


@dataclass(eq=False)  # compared and hashed by identity: one socket is one connection
class Connection:
    """One WebSocket at the table: its seat (None for a spectator), its outbox, its budget."""

    send: Callable[[str], Awaitable[None]]
    seat: int | None
    #: (burst, per second) of the token bucket that limits what this connection may send.
    rate: tuple[float, float] = (RATE_BURST, RATE_PER_SECOND)
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX_LIMIT))
    allowance: float = RATE_BURST
    checked_at: float = field(default_factory=time.monotonic)
    closed: bool = False

    def allow(self) -> bool:
        """Token bucket: False when the client sends faster than the limit."""
        now = time.monotonic()
        burst, per_second = self.rate
        self.allowance = min(burst, self.allowance + (now - self.checked_at) * per_second)
        self.checked_at = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    def put(self, message: dict[str, Any]) -> None:
        self.put_text(m.encode(message))

    def put_text(self, text: str) -> None:
        """Queue an encoded message (a broadcast encodes once for every connection)."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)

    async def pump(self) -> None:
        """Send the outbox in order until closed; one slow client never holds up others."""
        while (text := await self.outbox.get()) is not None:
            await self.send(text)


class TableSession(SessionWrapper):
    """The match's `PlaySession` for the play commands: the host's session, with the
    server's saving. A save holds the seed, which tells every future draw, so it is offered
    as a download once the match is over (`save-unavailable` before); `quit` leaves the
    table, whose match the server keeps (its address is the answer)."""

    def __init__(self, session: PlaySession, match_id: str) -> None:
        super().__init__(session)
        self.match_id = match_id

    def save(self, path: str | None = None) -> str:
        if not self.game.is_over():
            raise CommandError(
                "save-unavailable",
                "a save holds the seed, which tells future draws: it can be downloaded "
                "when the match is over",
            )
        return f"/api/matches/{self.match_id}/save"

    def save_somewhere(self, path: str | None = None) -> SaveOutcome:
        return SaveOutcome(f"/api/matches/{self.match_id}")


class Match:
    """One game on the server."""

    def __init__(
        self,
        stored: MatchStore | None,
        record: StoredMatch,
        session: PlaySession,
        mechanics: str,
        bots: BotPool,
    ):
        self.store = stored
        self.record = record
        self.session = session
        #: The session the play commands run on: the server's saving.
        self.table = TableSession(session, record.id)
        self.mechanics = mechanics
        #: Where bots and hints think: the server's pool, shared by every match.
        self.bots = bots
        self.lock = asyncio.Lock()
        #: Open connections, in joining order (a dict: joining and leaving are O(1)).
        self.connections: dict[Connection, None] = {}
        self._seated: dict[int, int] = {}  # seat -> open connections for it
        self._watchers = 0
        self._presence: asyncio.TimerHandle | None = None
        self._hinting = False
        self._hint_task: asyncio.Task[None] | None = None
        self._events: list[dict[str, Any]] = []
        self._driver: asyncio.Task[None] | None = None
        session.observers.append(lambda _game, event: self._events.append(event))
        self._clock: asyncio.Task[None] | None = None
        #: The turn (`turn_marker`) whose clock ran out: the stand-in plays it.
        self._timed_out: list[int] | None = None
        self.seating = Seating.from_json(record.seating, len(session.seats))
        self._update_clock()
        record.seating = self.seating.to_json()

    # ---- identity ---------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.record.id

    @property
    def game(self) -> Any:
        return self.session.game

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token acts for; raises `Refused` for a token that is no seat's."""
        if token is None:
            return None
        digest = token_hash(token)
        for seat, known in enumerate(self.record.token_hashes):
            if known is not None and hmac.compare_digest(known, digest):
                return seat
        raise Refused("this link's token is not a seat of this match")

    def summary(self) -> dict[str, Any]:
        """What anyone may know of the match: no tokens."""
        game = self.game
        online = self.online()
        out: dict[str, Any] = {
            "id": self.id,
            "rules": self.record.rules["name"],
            "game": game.rules.game.title,
            "mechanics": self.mechanics,
            "variants": list(self.record.rules.get("variants") or []),
            "seats": [
                {
                    "seat": i,
                    "kind": spec,
                    "name": self.seating.label(i, spec),
                    "away": self.seating.away[i],
                    "online": i in online,
                }
                for i, spec in enumerate(self.session.seats)
            ],
            "clock": self.seating.clock,
            "watchers": self._watchers,
            "turn": game.current_player,
            "round": game.round,
            "rounds": game.rounds,
            "actions": len(game.log),
            "version": self.record.version,
            "over": game.is_over(),
            "created": self.record.created,
        }
        if game.is_over():
            out["result"] = game.result()
        return out

    def online(self) -> list[int]:
        return sorted(self._seated)

    def label(self, seat: int) -> str:
        return self.seating.label(seat, self.session.seats[seat])

    def turn_marker(self) -> list[int]:
        """Which turn is being played: [turns begun so far, the seat to play]."""
        return [len(self.session.turn_starts), self.game.current_player]

    # ---- messages ---------------------------------------------------------------------------
    def hello(self, conn: Connection, renderer: str | None) -> dict[str, Any]:
        hello = m.hello(
            self.game,
            self.session.seats,
            match=self.id,
            seat=conn.seat,
            version=self.record.version,
            rules=self.record.rules["name"],
            variants=list(self.record.rules.get("variants") or []),
            mechanics=self.mechanics,
            renderer=renderer,
            names=[self.label(i) for i in range(len(self.session.seats))],
            clock=self.seating.clock,
            stand_in=self.seating.stand_in,
            legend=self.game.logic.legend(),
            examples=self.game.logic.notation(),
            commands=[*COMMANDS.to_json(), *TABLE_JSON],
        )
        if not self.game.is_over():  # the seed tells future draws: secret until the end
            hello["seed"] = None
        return hello

    def _states(self) -> Callable[[Connection], str]:
        """Per-connection `state` messages, encoded: computed and encoded once per seat (all
        watchers share one text), whatever the number of connections."""
        game = self.game
        player = game.current_player
        standing_in = self._player_of_turn(player)[1] if player is not None else False
        human = self.session.is_human(player) and not game.is_over()
        deciding = player if human and not standing_in else None
        base = m.state(game, player, legal=False, version=self.record.version)
        base["log"] = list(game.log)
        base["log_seats"] = list(self.session.log_seats)
        base["stood_in"] = list(self.seating.stood_in)
        base["scores"] = [game.score_of(p) for p in range(game.players)]
        base["score_table"] = [
            {"seat": s["seat"], "total": s["total"], "categories": s["categories"]}
            for s in game.scores()
        ]
        base["names"] = [self.label(i) for i in range(game.players)]
        base["away"] = list(self.seating.away)
        base["standing_in"] = player if standing_in else None
        base["clock_left"] = self._clock_left()
        base["over"] = game.is_over()
        legal = [a.text for a in game.legal_actions()] if deciding is not None else []
        texts: dict[int | None, str] = {}

        def for_connection(conn: Connection) -> str:
            text = texts.get(conn.seat)
            if text is None:
                mine = conn.seat is not None and conn.seat == deciding
                message = {**base, "seat": conn.seat, "legal_actions": legal if mine else []}
                text = texts[conn.seat] = m.encode(message)
            return text

        return for_connection

    def _result(self) -> dict[str, Any]:
        """The `result` message, with what decided in a sentence and the game's verdict."""
        from castell_dsl.contract.standings import decided_by, describe

        game = self.game
        message = m.result(game, version=self.record.version)
        result = message["result"]
        decided = decided_by(game)
        top = max(p["total"] for p in result["players"])
        message["decided_by"] = decided
        message["decided"] = describe(decided, top, self.label)
        message["outcome"] = game.logic.outcome(result.get("report") or {})
        return message

    def send_state(self, conn: Connection) -> None:
        conn.put_text(self._states()(conn))
        if self.game.is_over():
            conn.put(self._result())

    def broadcast(self, message: dict[str, Any]) -> None:
        text = m.encode(message)
        for conn in self.connections:
            conn.put_text(text)

    def _publish(self, before: Sequence[dict[str, Any]] = ()) -> None:
        """Tell everyone what changed: the given answers, the events, then each one's state."""
        events, self._events = self._events, []
        for message in before:
            self.broadcast(message)
        for event in events:
            self.broadcast(m.event(event, version=self.record.version))
        state_for = self._states()
        result = m.encode(self._result()) if self.game.is_over() else None
        for conn in self.connections:
            conn.put_text(state_for(conn))
            if result is not None:
                conn.put_text(result)

    def _persist(self) -> None:
        """Store the log and the seating (the clock set for the turn now begun) in one write."""
        self.record.version += 1
        self.record.actions = list(self.game.log)
        self.record.over = self.game.is_over()
        self.seating.trim(len(self.record.actions))
        self._update_clock()
        self.record.seating = self.seating.to_json()
        if self.store is not None:
            self.store.set_log(
                self.id,
                self.record.actions,
                self.record.version,
                self.record.over,
                self.record.seating,
            )

    # ---- the clock and the stand-in ---------------------------------------------------------
    def _player_of_turn(self, player: int) -> tuple[str | None, bool]:
        """Who plays `player`'s turn now: (its bot spec, False) for a bot's seat; (the
        stand-in's spec, True) for a person's seat left to it or whose clock ran out this turn;
        (None, False) when the person decides."""
        if not self.session.is_human(player):
            return self.session.seats[player], False
        if self.seating.away[player] or self._timed_out == self.turn_marker():
            return self.seating.stand_in, True
        return None, False

    def _update_clock(self, restart: bool = False) -> None:
        """Give a person's turn now begun its deadline (kept while the same turn goes on, even
        across a restart; `restart` gives it a fresh one); no deadline on other turns."""
        game, seating = self.game, self.seating
        player = game.current_player
        if (
            seating.clock is None
            or game.is_over()
            or player is None
            or self._player_of_turn(player)[0] is not None
        ):
            seating.deadline = seating.deadline_turn = None
            return
        marker = self.turn_marker()
        if restart or seating.deadline_turn != marker or seating.deadline is None:
            seating.deadline = time.time() + seating.clock
            seating.deadline_turn = marker

    def _clock_left(self) -> float | None:
        if self.seating.deadline is None:
            return None
        return round(max(0.0, self.seating.deadline - time.time()), 1)

    def _schedule_clock(self) -> None:
        """Wake up when the current deadline passes (a no-op if already waiting for it)."""
        deadline, turn = self.seating.deadline, self.seating.deadline_turn
        waiting = getattr(self._clock, "castell_deadline", None)
        if self._clock is not None and not self._clock.done() and waiting == (deadline, turn):
            return
        if self._clock is not None and self._clock is not asyncio.current_task():
            self._clock.cancel()
        self._clock = None
        if deadline is None or turn is None:
            return
        self._clock = asyncio.get_running_loop().create_task(self._run_out(deadline, turn))
        self._clock.castell_deadline = (deadline, turn)  # type: ignore[attr-defined]

    async def _run_out(self, deadline: float, turn: list[int]) -> None:
        """At the deadline, if that turn is still on, the stand-in plays it."""
        await asyncio.sleep(max(0.0, deadline - time.time()))
        async with self.lock:
            if self.seating.deadline_turn != turn or self.game.is_over():
                return
            self._timed_out = turn
            self.seating.deadline = self.seating.deadline_turn = None
            self.broadcast(
                {
                    "type": "notice",
                    "message": f"{self.label(turn[1])}'s clock ran out: the stand-in "
                    f"({self.seating.stand_in}) plays this turn.",
                }
            )
        self.kick()

    # ---- connections ------------------------------------------------------------------------
    def join(self, conn: Connection, renderer: str | None) -> None:
        self.connections[conn] = None
        if conn.seat is None:
            self._watchers += 1
        else:
            self._seated[conn.seat] = self._seated.get(conn.seat, 0) + 1
        conn.put(self.hello(conn, renderer))
        self.send_state(conn)
        self._announce("joined", conn.seat)

    def leave(self, conn: Connection) -> None:
        if conn in self.connections:
            del self.connections[conn]
            if conn.seat is None:
                self._watchers -= 1
            else:
                self._seated[conn.seat] -= 1
                if not self._seated[conn.seat]:
                    del self._seated[conn.seat]
            conn.close()
            self._announce("left", conn.seat)

    def _announce(self, kind: str, seat: int | None) -> None:
        """Tell everyone who is here: at once for a player, and for watchers at most once per
        `PRESENCE_INTERVAL` (the counts are current when it is sent)."""
        if seat is not None:
            self.broadcast(m.presence(kind, seat, self.online(), self._watchers))
            return
        if self._presence is not None:
            return

        def announce() -> None:
            self._presence = None
            self.broadcast(m.presence(kind, None, self.online(), self._watchers))

        self._presence = asyncio.get_running_loop().call_later(PRESENCE_INTERVAL, announce)

    # ---- playing ----------------------------------------------------------------------------
    async def receive(self, conn: Connection, text: str) -> None:
        """One message from a connection: answer it, and on a change tell everyone."""
        if not conn.allow():
            conn.put(m.error("rate-limited", "too many messages: slow down"))
            return
        try:
            message = m.read_client(text)
            await self._dispatch(conn, message)
        except m.ProtocolError as exc:
            conn.put(exc.to_message())
        except ExpressionError as exc:  # the installed rules fail: said, logged, nothing changed
            log.error("match %s: %s", self.id, exc)
            self._events.clear()
            conn.put(m.error("rule-error", f"the rules failed: {exc.reason}"))

    def _require_turn(self, conn: Connection) -> int:
        if conn.seat is None:
            raise m.ProtocolError("spectator", "spectators watch: open a seat's link to play")
        game = self.game
        if game.is_over():
            raise m.ProtocolError("game-over", "the game is over")
        if game.current_player != conn.seat:
            whose = game.current_player
            raise m.ProtocolError(
                "not-your-turn",
                f"it is {self.label(whose)}'s turn"
                if whose is not None
                else "no seat is to act now",
            )
        if self._player_of_turn(conn.seat)[1]:
            raise m.ProtocolError(
                "stand-in",
                f"the stand-in ({self.seating.stand_in}) is playing this turn: take your seat "
                "back to play",
            )
        return conn.seat

    async def _dispatch(self, conn: Connection, message: dict[str, Any]) -> None:
        command, action, expected = read_message(message)
        work: Work | None = None
        async with self.lock:
            if command is None and action is not None:
                self._require_turn(conn)
                if expected is not None and expected != self.record.version:
                    raise m.ProtocolError(
                        "stale", "the table changed since you chose: look again and retry"
                    )
                try:
                    self.session.apply(action)
                except ActionError as exc:
                    self._events.clear()
                    conn.put(m.rejection(exc.rejection, action=action))
                    return
                self._persist()
                self._publish()
            elif command == "hint":  # advice is worked out in the bot pool, off the loop
                if conn.seat is None:
                    raise m.ProtocolError("spectator", "hints are for players")
                if self.game.is_over():
                    raise m.ProtocolError("game-over", "the game is over")
                if self._hinting:
                    raise m.ProtocolError("busy", "a hint is being worked out: wait for it")
                self._hinting = True
                work = self._work("hints", conn.seat)
            elif command is not None and command in COMMANDS:
                if not self._play_command(conn, command, message):
                    return
            elif command == "name":
                seat = self._claim(conn)
                try:
                    self.seating.names[seat] = clean_name(message.get("name"))
                except SeatingError as exc:
                    raise m.ProtocolError("bad-name", str(exc)) from None
                self._persist()
                self._publish()
            elif command == "seat":
                seat = self._claim(conn)
                away = bool(message["away"])
                self.seating.away[seat] = away
                if not away and self._timed_out == [self.turn_marker()[0], seat]:
                    self._timed_out = None
                self._events.clear()
                self._persist()
                if not away:
                    self._update_clock(restart=True)
                self._publish()
            else:
                raise m.ProtocolError("bad-message", USAGE)
        if work is not None:  # worked out in the background: the connection reads on
            self._hint_task = asyncio.get_running_loop().create_task(self._hint(conn, work))
            return
        self.kick()

    def _play_command(self, conn: Connection, name: str, message: dict[str, Any]) -> bool:
        """Run a play command of the registry for this connection's seat (under the lock):
        the one handler, on the match's `TableSession`. A command that changed the game
        (`undo`) is stored and told to everyone, with the seat that asked; any other answer
        goes to this connection. Returns whether the game changed."""
        command = COMMANDS.get(name)
        assert command is not None
        if command.turn:
            self._require_turn(conn)
        if command.seated:
            self._claim(conn)
        arguments = {a.name: message[a.name] for a in command.arguments if a.name in message}
        answer = self.table.command(name, arguments, conn.seat)
        if answer.failed or not answer.changed:
            self._events.clear()
            conn.put(answer.message)
            return False
        self._events.clear()  # an undo replays the game: nothing new happened
        self._persist()
        self._publish([{**answer.message, "seat": conn.seat, "version": self.record.version}])
        return True

    def _claim(self, conn: Connection) -> int:
        """The connection's seat, for commands about one's own seat (not for spectators)."""
        if conn.seat is None:
            raise m.ProtocolError("spectator", "spectators watch: open a seat's link to play")
        return conn.seat

    def _work(self, kind: str, seat: int, spec: str = "") -> Work:
        """What a worker needs to think about this table for `seat` (under the lock)."""
        return Work(
            kind=kind,
            match=self.id,
            rules=self.record.rules,
            players=self.record.players,
            seed=self.record.seed,
            log=tuple(self.game.log),
            seat=seat,
            spec=spec,
        )

    async def _hint(self, conn: Connection, work: Work) -> None:
        """Hints are worked out in the bot pool (first in its queue), outside the lock."""
        try:
            lines = await self._think(work)
            conn.put(m.hint(lines))
        except (BotTimeout, BotFailed) as exc:
            log.warning("match %s: hints for seat %s failed: %s", self.id, work.seat, exc)
            conn.put(m.error("hint-failed", "no hint could be worked out in time"))
        finally:
            self._hinting = False

    async def _think(self, work: Work) -> Any:
        return await self.bots.run(work)

    def kick(self) -> None:
        """Start the bots if one is to move (in the background; a no-op if they already are),
        and wait for the clock of a person's turn."""
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive_bots())
        self._schedule_clock()

    async def _drive_bots(self) -> None:
        """Bots move one action at a time while a bot is to move: a bot's seat, or a person's
        seat whose turn the stand-in plays (`_player_of_turn`)."""
        try:
            while True:
                player = self.game.current_player
                if self.game.is_over() or player is None:
                    return
                spec, standing_in = self._player_of_turn(player)
                if spec is None:
                    return
                version = self.record.version
                played = await self.bot_turn(player, spec if standing_in else None, standing_in)
                if not played and self.record.version == version:
                    return  # nothing could be played (the rules failed): a move kicks again
        finally:
            self._schedule_clock()

    async def bot_turn(self, seat: int, spec: str | None = None, standing_in: bool = False) -> bool:
        """Let a bot play one action for `seat`, if it is that seat's turn: the seat's own bot,
        or the bot `spec` (for a seat that has none). The bot thinks in the bot pool, outside
        the lock; its action is played if the table has not changed meanwhile. A bot that
        fails or overruns its time is replaced, for this action, by a uniformly random legal
        action (seeded like a bot's). `standing_in`: the stand-in plays a person's seat (its
        actions are marked as such). Returns whether an action was played."""
        async with self.lock:
            game = self.game
            if game.is_over() or game.current_player != seat:
                return False
            if spec is None and self.session.is_human(seat):
                return False
            chosen = spec or self.session.seats[seat]
            work = self._work("choose", seat, chosen)
            version = self.record.version
        try:
            text: str | None = await self._think(work)
        except (BotTimeout, BotFailed) as exc:
            log.warning("match %s: the bot in seat %s failed (%s)", self.id, seat, exc)
            text = None
        async with self.lock:
            if self.record.version != version or self.game.current_player != seat:
                return False  # the table changed while the bot thought
            if text is not None:
                try:
                    self.session.apply(text)
                except (ActionError, ExpressionError) as exc:
                    log.warning("match %s: seat %s's bot chose %r: %s", self.id, seat, text, exc)
                    text = None
            try:
                if text is None:
                    self._events.clear()
                    self.broadcast(
                        m.error(
                            "bot-failed", f"the bot of {self.label(seat)} failed: a random action"
                        )
                    )
                    rng = decision_rng(bot_seed(self.record.seed, seat), self.game)
                    self.session.apply(self.game.sample_legal(rng))
            except ExpressionError as exc:  # the installed rules fail: the bots stop here
                log.error("match %s: %s", self.id, exc)
                self._events.clear()
                self.broadcast(m.error("rule-error", f"the rules failed: {exc.reason}"))
                return False
            if standing_in:
                self.seating.stood_in.append(len(self.game.log) - 1)
            self._persist()
            self._publish()
        return True

    async def stop(self) -> None:
        if self._driver is not None:
            self._driver.cancel()
        if self._clock is not None:
            self._clock.cancel()
        if self._presence is not None:
            self._presence.cancel()
        for conn in list(self.connections):
            conn.close()
