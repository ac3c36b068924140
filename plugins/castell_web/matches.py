"""Matches being played on the server: seats and their tokens, connections, bots, the log.

A `Match` wraps a runtime `Session` (seats, bots, undo) and adds what a shared table needs:
which connection sits in which seat, one lock so that actions apply one at a time, bots thinking
in a worker thread so the event loop never waits for them, and every change written to the
store before anyone is told about it (so a restart loses nothing anyone has seen). Its
`Seating` holds the players' names, the per-turn clock and the seats left to the stand-in bot;
`_drive_bots` is the one place that decides who plays a turn (docs/web.md, "Seats").
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

from castell_dsl.contract import ActionError, Bot, UndoError
from castell_dsl.runtime import protocol as m
from castell_dsl.runtime.session import Session

from .seating import Seating, SeatingError, clean_name
from .store import MatchStore, StoredMatch

log = logging.getLogger("castell_web")

#: Messages a connection may send: a burst of `RATE_BURST`, then `RATE_PER_SECOND`.
RATE_BURST, RATE_PER_SECOND = 40.0, 20.0
#: Messages queued for a slow connection before it is dropped (it reconnects and resyncs).
OUTBOX_LIMIT = 256


def token_hash(token: str) -> str:
    return "sha256:" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Refused(Exception):
    """A request the server will not carry out; the message says why, for people."""


@dataclass
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
        if self.closed:
            return
        try:
            self.outbox.put_nowait(m.encode(message))
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


class Match:
    """One game on the server."""

    def __init__(
        self, stored: MatchStore | None, record: StoredMatch, session: Session, mechanics: str
    ):
        self.store = stored
        self.record = record
        self.session = session
        self.mechanics = mechanics
        self.lock = asyncio.Lock()
        self.connections: list[Connection] = []
        self._events: list[dict[str, Any]] = []
        self._driver: asyncio.Task[None] | None = None
        self._clock: asyncio.Task[None] | None = None
        #: The stand-in bot of each seat it played, made on first use.
        self._stand_ins: dict[int, Bot] = {}
        #: The turn (`turn_marker`) whose clock ran out: the stand-in plays it.
        self._timed_out: list[int] | None = None
        self.seating = Seating.from_json(record.seating, len(session.seats))
        self._update_clock()
        record.seating = self.seating.to_json()
        session.observers.append(lambda _game, event: self._events.append(event))

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
            "watchers": sum(1 for c in self.connections if c.seat is None),
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

    def label(self, seat: int) -> str:
        return self.seating.label(seat, self.session.seats[seat])

    def turn_marker(self) -> list[int]:
        """Which turn is being played: [turns begun so far, the seat to play]."""
        return [len(self.session.turn_starts), self.game.current_player]

    def online(self) -> list[int]:
        return sorted({c.seat for c in self.connections if c.seat is not None})

    # ---- messages ---------------------------------------------------------------------------
    def hello(self, conn: Connection, renderer: str | None) -> dict[str, Any]:
        return m.hello(
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
        )

    def _states(self) -> Callable[[Connection], dict[str, Any]]:
        """Per-connection `state` messages, the shared parts computed once."""
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

        def for_connection(conn: Connection) -> dict[str, Any]:
            mine = conn.seat is not None and conn.seat == deciding
            return {**base, "seat": conn.seat, "legal_actions": legal if mine else []}

        return for_connection

    def _result(self) -> dict[str, Any]:
        """The `result` message, with what decided in a sentence and the game's verdict."""
        from castell_dsl.runtime.standings import decided_by, describe

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
        conn.put(self._states()(conn))
        if self.game.is_over():
            conn.put(self._result())

    def broadcast(self, message: dict[str, Any]) -> None:
        for conn in self.connections:
            conn.put(message)

    def _publish(self, before: Sequence[dict[str, Any]] = ()) -> None:
        """Tell everyone what changed: the given answers, the events, then each one's state."""
        events, self._events = self._events, []
        for message in before:
            self.broadcast(message)
        for event in events:
            self.broadcast(m.event(event, version=self.record.version))
        state_for = self._states()
        result = self._result() if self.game.is_over() else None
        for conn in self.connections:
            conn.put(state_for(conn))
            if result is not None:
                conn.put(result)

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
    def _player_of_turn(self, player: int) -> tuple[Bot | None, bool]:
        """Who plays `player`'s turn now: (their bot, False) for a bot's seat; (the stand-in,
        True) for a person's seat left to it or whose clock ran out this turn; (None, False)
        when the person decides."""
        if not self.session.is_human(player):
            return self.session.bots[player], False
        if self.seating.away[player] or self._timed_out == self.turn_marker():
            if player not in self._stand_ins:
                from castell_dsl.runtime.bots import make_bot

                rules, seed = self.game.rules, self.game.seed
                self._stand_ins[player] = make_bot(self.seating.stand_in, rules, player, seed)
            return self._stand_ins[player], True
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
        self.connections.append(conn)
        conn.put(self.hello(conn, renderer))
        self.send_state(conn)
        self.broadcast(m.presence("joined", conn.seat, self.online(), self._watchers()))

    def leave(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.remove(conn)
            conn.close()
            self.broadcast(m.presence("left", conn.seat, self.online(), self._watchers()))

    def _watchers(self) -> int:
        return sum(1 for c in self.connections if c.seat is None)

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
        command = message.get("command")
        expected = message.get("version")
        if expected is not None and not isinstance(expected, int):
            raise m.ProtocolError("bad-message", "'version' is the number of a state")
        async with self.lock:
            if command is None and isinstance(message.get("action"), str):
                self._require_turn(conn)
                if expected is not None and expected != self.record.version:
                    raise m.ProtocolError(
                        "stale", "the table changed since you chose: look again and retry"
                    )
                try:
                    self.session.apply(message["action"])
                except ActionError as exc:
                    self._events.clear()
                    conn.put(m.rejection(exc.rejection, action=message["action"]))
                    return
                self._persist()
                self._publish()
            elif command == "undo":
                self._require_turn(conn)
                try:
                    count = self.session.undo()
                except UndoError as exc:
                    raise m.ProtocolError("nothing-to-undo", str(exc)) from None
                self._events.clear()
                self._persist()
                self._publish([m.undone(count, seat=conn.seat, version=self.record.version)])
            elif command == "hint":
                if conn.seat is None:
                    raise m.ProtocolError("spectator", "hints are for players")
                lines = await asyncio.to_thread(self.game.logic.hints, self.game, conn.seat)
                conn.put(m.hint(lines))
                return
            elif command == "check" and isinstance(message.get("action"), str):
                self._require_turn(conn)
                conn.put(m.checked(message["action"], self.game.explain(message["action"])))
                return
            elif command == "name":
                self._claim(conn)
                try:
                    name = clean_name(message.get("name"))
                except SeatingError as exc:
                    raise m.ProtocolError("bad-name", str(exc)) from None
                self.seating.names[conn.seat] = name  # type: ignore[index]
                self._persist()
                self._publish()
            elif command == "seat" and isinstance(message.get("away"), bool):
                seat = self._claim(conn)
                self.seating.away[seat] = message["away"]
                if not message["away"] and self._timed_out == [self.turn_marker()[0], seat]:
                    self._timed_out = None
                self._events.clear()
                self._persist()
                if not message["away"]:
                    self._update_clock(restart=True)
                self._publish()
            elif command == "save":
                conn.put(
                    {"type": "saved", "path": f"/api/matches/{self.id}/save", "reason": "save"}
                )
                return
            else:
                raise m.ProtocolError(
                    "bad-message",
                    'send {"action": TEXT} or {"command": hint|undo|save|check|name|seat}',
                )
        self.kick()

    def _claim(self, conn: Connection) -> int:
        """The connection's seat, for commands about one's own seat (not for spectators)."""
        if conn.seat is None:
            raise m.ProtocolError("spectator", "spectators watch: open a seat's link to play")
        return conn.seat

    def kick(self) -> None:
        """Start the bots if one is to move (in the background; a no-op if they already are),
        and wait for the clock of a person's turn."""
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive_bots())
        self._schedule_clock()

    async def _drive_bots(self) -> None:
        """Bots move one action at a time, each thought in a worker thread: a bot's seat, and
        a person's seat whose turn the stand-in plays (`_player_of_turn`)."""
        while True:
            async with self.lock:
                game = self.game
                player = game.current_player
                if game.is_over() or player is None:
                    return
                bot, standing_in = self._player_of_turn(player)
                if bot is None:
                    break
                try:
                    await asyncio.to_thread(self.session.bot_move, bot)
                except Exception:  # a bot that fails must not take the server down
                    log.exception("match %s: the bot in seat %s failed", self.id, player)
                    self._events.clear()
                    self.broadcast(m.error("bot-failed", f"the bot in seat {player} failed"))
                    return
                if standing_in:
                    self.seating.stood_in.append(len(self.game.log) - 1)
                self._persist()
                self._publish()
            await asyncio.sleep(0)  # let waiting connections in between bot moves
        self._schedule_clock()

    async def stop(self) -> None:
        if self._driver is not None:
            self._driver.cancel()
        if self._clock is not None:
            self._clock.cancel()
        for conn in list(self.connections):
            conn.close()
