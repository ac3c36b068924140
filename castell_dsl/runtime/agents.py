"""Any program as a seat: the `cmd:COMMAND` bot, a subprocess that speaks the JSON-lines protocol.

A researcher's agent may be written in any language and live in its own process. The spec
`cmd:python my_bot.py` seats it like any bot (`--bots`, `--players`, YAML configs): the command
is started (without a shell) when its seat first decides, and is sent the JSON-lines
protocol's own messages (`runtime/protocol.py`, docs/agents.md): a `hello` naming its seat, a
`state` with the legal actions for each decision, and the `result` at the end. It answers each
`state` with one line, `{"action": TEXT}` or the bare text, as a `you` seat of
`castell play --frontend jsonl` does.

The program is outside input, so everything about it is bounded:

- each decision has a deadline (`timeout`, seconds); a line is at most `protocol.MAX_MESSAGE`
  bytes; standard error is drained by a thread that keeps only its last `STDERR_TAIL` bytes
  (quoted, sanitised, in the error);
- a crash, a timeout, a line that is not a message, or an action the rules refuse is an
  `AgentFailure`; what follows is the seat's `on_error` policy: `stop` (the default: the
  command ends with one line naming the seat and the command, `AgentError`), `forfeit` (the
  seat passes for the rest of the game, see `passing_action`) or `fallback:BOT` (a bot plays the
  seat's remaining decisions);
- the program never outlives its parent: it runs in its own process group, which is killed
  when the game ends, when it fails, and at interpreter exit; on Linux the kernel also kills it
  when the process that started it dies (`PR_SET_PDEATHSIG`), even by SIGKILL.

A program that is deterministic given its `hello` (the seed and its seat's `bot_seed`) keeps a
simulation deterministic, whatever `--jobs` is: each game starts its agents afresh.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import os
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from typing import Any

from ..contract import Action, Bot, PlayableGame
from ..language.text import visible
from . import protocol

#: The bot kind's name: `cmd:COMMAND`.
AGENT_BOT = "cmd"
#: Seconds an agent may take for one decision unless told otherwise (`--agent-timeout`).
DEFAULT_TIMEOUT = 10.0
#: The longest deadline a spec may ask for (a decision that never ends is refused).
MAX_TIMEOUT = 3_600.0
#: Seconds a program may take to start and answer its first decision, on top of `timeout`
#: (an interpreter's start-up is not the agent's thinking time).
STARTUP_GRACE = 10.0
#: The longest line read from an agent (bytes), as for any client of the protocol.
MAX_LINE = protocol.MAX_MESSAGE
#: How much of an agent's standard error is kept (its last bytes), to quote in an error.
STDERR_TAIL = 4_096
#: Seconds a program is given to exit by itself once its input is closed.
EXIT_GRACE = 0.5
#: What may follow a failure.
POLICIES = ("stop", "forfeit")
FALLBACK = "fallback:"


class AgentError(Exception):
    """An agent failed and its seat's policy is `stop`: one line, naming the seat and command."""

    def __reduce__(self) -> tuple[Any, ...]:  # crosses process boundaries (--jobs) intact
        return (AgentError, (str(self),))


class AgentFailure(Exception):
    """What went wrong with one decision of an agent (the reason, in words)."""


def fallback_spec(on_error: str) -> str | None:
    """The fallback bot's spec of an `on_error` policy (None for `stop`/`forfeit`); `;` stands
    for `,` inside it (`fallback:mcts:iterations=50;c=1`), since the agent's own settings are
    separated by commas. `runtime/bots.py` checks it and builds the bot (`make_fallback`)."""
    if not on_error.startswith(FALLBACK):
        return None
    return on_error[len(FALLBACK) :].replace(";", ",")


def check_policy(on_error: str) -> None:
    """Refuse (ValueError) an `on_error` that is not `stop`, `forfeit` or `fallback:BOT` (a
    fallback's own spec is checked by `runtime/bots.py`, like any spec)."""
    fallback = fallback_spec(on_error)
    if on_error in POLICIES:
        return
    if fallback is None or not fallback.strip():
        raise ValueError(f"on_error must be stop, forfeit or fallback:BOT, not {on_error!r}")
    if fallback.partition(":")[0].strip() == AGENT_BOT:
        raise ValueError("the fallback of a program must be a built-in or plugin bot")


def check_settings(settings: Mapping[str, Any]) -> None:
    """The `cmd` factory's check of its complete settings (ValueError says what is wrong)."""
    command = settings.get("command", "")
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"cannot read the command {command!r}: {exc}") from None
    if not argv:
        raise ValueError("cmd needs a command, e.g. cmd:python my_bot.py")
    check_policy(str(settings.get("on_error", "stop")))


def canonical_spec(settings: Mapping[str, Any]) -> str:
    """`cmd:KEY=VALUE,…,command=COMMAND` (the command last: it takes the rest of the spec)."""
    parts = [f"{k}={v}" for k, v in settings.items() if k != "command"]
    parts.append(f"command={settings.get('command', '')}")
    return f"{AGENT_BOT}:" + ",".join(parts)


def split_agent_spec(rest: str) -> tuple[str, str]:
    """(settings, command) of `cmd:REST`: the command alone (`cmd:python bot.py`: no
    settings), or settings ending with `command=` (`cmd:timeout=5,command=python bot.py`),
    whose command is the rest of the spec, commas and all."""
    head, found, command = rest.partition("command=")
    if found and (not head or head.endswith(",")):
        return head, command.strip()
    return "", rest.strip()


# ---- the processes ------------------------------------------------------------------------------

_LIVE: weakref.WeakSet[CommandAgent] = weakref.WeakSet()


@atexit.register
def _kill_all() -> None:
    """At interpreter exit, no agent is left running."""
    for agent in list(_LIVE):
        agent.close()


def _die_with_parent() -> Any:
    """A `preexec_fn` asking Linux to SIGKILL the child when its parent dies (None elsewhere).
    The C function is looked up here, before the fork: the child only calls it."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    PR_SET_PDEATHSIG = 1

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)

    return preexec


class _Process:
    """One agent's process and bounded, deadline-driven reads and writes of its lines."""

    def __init__(self, argv: list[str]) -> None:
        self.popen = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: killed whole
            preexec_fn=_die_with_parent(),
            close_fds=True,
        )
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        self.stdin = self.popen.stdin.fileno()
        self.stdout = self.popen.stdout.fileno()
        os.set_blocking(self.stdin, False)
        self.buffer = b""
        self.stderr: collections.deque[bytes] = collections.deque()
        self.stderr_size = 0
        threading.Thread(
            target=self._drain, args=(self.popen.stderr,), name="castell-agent-stderr", daemon=True
        ).start()

    def _drain(self, stream: Any) -> None:
        """Read standard error to its end, keeping its last STDERR_TAIL bytes."""
        with contextlib.suppress(OSError, ValueError):
            while chunk := stream.read1(4096):
                self.stderr.append(chunk)
                self.stderr_size += len(chunk)
                while self.stderr_size - len(self.stderr[0]) >= STDERR_TAIL:
                    self.stderr_size -= len(self.stderr.popleft())

    def stderr_tail(self) -> str:
        """The last line the program wrote on standard error, sanitised ('' if none)."""
        text = b"".join(self.stderr)[-STDERR_TAIL:].decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return visible(lines[-1][:200]) if lines else ""

    def send(self, message: dict[str, Any], deadline: float) -> None:
        data = (protocol.encode(message) + "\n").encode("utf-8")
        while data:
            if not select.select([], [self.stdin], [], max(0.0, deadline - time.monotonic()))[1]:
                raise AgentFailure("did not read its input in time")
            try:
                written = os.write(self.stdin, data)
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise AgentFailure(self._ended()) from None
            data = data[written:]

    def read_line(self, deadline: float, timeout: float) -> str:
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_LINE:
                raise AgentFailure(f"wrote a line longer than {MAX_LINE:,} bytes")
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.stdout], [], [], left)[0]:
                raise AgentFailure(f"did not answer within {timeout:g} s")
            chunk = os.read(self.stdout, 65_536)
            if not chunk:
                raise AgentFailure(self._ended())
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        if len(line) > MAX_LINE:
            raise AgentFailure(f"wrote a line longer than {MAX_LINE:,} bytes")
        try:
            return line.decode("utf-8")
        except UnicodeDecodeError:
            raise AgentFailure("wrote a line that is not UTF-8") from None

    def _ended(self) -> str:
        """Why the program stopped talking: its exit code and last words."""
        try:
            code = self.popen.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            return "closed its output"
        why = f"killed by signal {-code}" if code < 0 else f"exited with code {code}"
        time.sleep(0.01)  # let the drain thread read what the program wrote last
        last = self.stderr_tail()
        return why + (f" ({last})" if last else "")

    def close(self) -> None:
        """Close its input, give it EXIT_GRACE seconds to exit, then kill its process group."""
        with contextlib.suppress(OSError):
            self.popen.stdin.close()  # type: ignore[union-attr]
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=EXIT_GRACE)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)  # and anything it started
        self.popen.wait()
        for stream in (self.popen.stdout, self.popen.stderr):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]


def passing_action(game: PlayableGame) -> Action:
    """What a forfeited seat plays: an action that ends its turn if one is legal, else the
    first legal action in the engine's order (it does as little as the rules allow)."""
    legal = game.legal_actions()
    for action in legal:
        if game.ends_turn(action):
            return action
    return legal[0]


class CommandAgent:
    """A seat played by a program (`cmd:COMMAND`); see the module's docstring."""

    name = AGENT_BOT

    def __init__(
        self,
        rules: Any,
        seat: int,
        seed: int,
        command: str,
        timeout: float = DEFAULT_TIMEOUT,
        on_error: str = "stop",
    ) -> None:
        self.rules = rules
        self.seat = seat
        self.seed = seed
        self.command = command
        self.argv = shlex.split(command)
        self.timeout = timeout
        self.on_error = on_error
        self.process: _Process | None = None
        #: The failure that ended the program's play (its one-line message), or None.
        self.failure: str | None = None
        self.fallback: Bot | None = None
        #: Builds the `fallback:BOT` bot (set by `runtime/bots.make_bot`, which knows bots).
        self.make_fallback: Callable[[], Bot] | None = None

    def label(self) -> str:
        return f"seat {self.seat} (cmd:{visible(self.command[:120])})"

    def choose(self, game: PlayableGame) -> Action:
        if self.failure is None:
            try:
                return self._ask(game)
            except AgentFailure as exc:
                self._fail(str(exc))
        if self.fallback is not None:
            return self.fallback.choose(game)
        return passing_action(game)

    def _ask(self, game: PlayableGame) -> Action:
        deadline = time.monotonic() + self.timeout
        if self.process is None:
            deadline += STARTUP_GRACE
            try:
                self.process = _Process(self.argv)
            except OSError as exc:
                raise AgentFailure(f"cannot start: {exc.strerror or exc}") from None
            _LIVE.add(self)
            seats = ["you" if s == self.seat else "other" for s in range(game.players)]
            self.process.send(
                protocol.hello(game, seats, seat=self.seat, bot_seed=self.seed), deadline
            )
        self.process.send(protocol.state(game, self.seat), deadline)
        line = self.process.read_line(deadline, self.timeout)
        try:
            message = protocol.read_client(line)
        except protocol.ProtocolError as exc:
            raise AgentFailure(f"wrote {short(line)}: {exc.message}") from None
        text = message.get("action")
        if set(message) != {"action"} or not isinstance(text, str):
            raise AgentFailure(f'wrote {short(line)}, not {{"action": TEXT}}')
        rejection = game.explain(text)
        if rejection is not None:
            raise AgentFailure(f"played {short(text)}, refused: {rejection.message}")
        return game.parse(text)

    def _fail(self, reason: str) -> None:
        self.close()
        message = f"agent in {self.label()} {reason}"
        if self.on_error == "stop":
            raise AgentError(message)
        if self.make_fallback is not None:
            self.fallback = self.make_fallback()
            then = f"{self.fallback.name} plays the seat's remaining decisions"
        else:
            then = "the seat forfeits: it passes for the rest of the game"
        self.failure = message
        print(visible(f"castell: {message}; {then}"), file=sys.stderr, flush=True)

    def finish(self, game: PlayableGame) -> None:
        """The game is over (or abandoned): send the result if it is over, then stop."""
        process = self.process
        if process is not None and self.failure is None and game.is_over():
            with contextlib.suppress(AgentFailure):
                process.send(protocol.result(game), time.monotonic() + EXIT_GRACE)
        self.close()

    def close(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            process.close()
        _LIVE.discard(self)

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()


def short(text: str) -> str:
    """A quoted, sanitised excerpt of what an agent wrote, for a one-line error."""
    return repr(visible(text[:60]) + ("…" if len(text) > 60 else ""))


def create(rules: Any, seat: int, seed: int, **settings: Any) -> CommandAgent:
    """The `cmd` factory's maker (`BotFactory.create`)."""
    return CommandAgent(rules, seat, seed, **settings)


def factory() -> Any:
    """The `cmd` bot kind, registered beside the plugins' bots (`Registries.bots`)."""
    from ..contract import BotFactory

    return BotFactory(
        AGENT_BOT,
        "a program of your own, speaking the JSON-lines protocol (docs/agents.md)",
        create,
        {"timeout": DEFAULT_TIMEOUT, "on_error": "stop", "command": ""},
        {"timeout": (0.001, MAX_TIMEOUT)},
        served={},
    )
