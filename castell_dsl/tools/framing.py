"""The language server's framing: LSP messages read from a stream within bounds.

An LSP message is a few header lines (`Content-Length: N`), a blank line and N bytes of JSON.
pygls's reader trusts all of it: `Content-Length: 99999999999` allocates that much (a
MemoryError), and a message without a Content-Length makes it wait forever for one, silently.
The editor is a stranger's as much as a rule file is (docs/security.md), so this reader:

- reads at most `MAX_HEADER_LINE` bytes a header line and `MAX_HEADERS` header lines;
- requires a Content-Length of digits, at most `MAX_MESSAGE`; a longer body is skipped in
  chunks (never held in memory) and answered with an error;
- answers a header block without a Content-Length, a body that is not UTF-8 JSON, or one
  nested too deep, with a JSON-RPC parse error (`id: null`, code -32700), then reads on;
- parses bodies with the project's bounded JSON reader (`safejson.loads_bounded`).

A frame that cannot be read is a `FramingError`: the server tells the client and goes on with
the next frame. Documents themselves are capped as `castell validate` caps files (E0107,
E0108), by the server (`tools/server.py`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import threading
from typing import IO, Any, BinaryIO

from ..safejson import JsonLimitError, loads_bounded

log = logging.getLogger("castell_lsp")

#: Largest message body: a document at the rule-file cap (64 KB), JSON-escaped at worst six
#: bytes a character, with room to spare.
MAX_MESSAGE = 4 * 1024 * 1024
#: Longest header line, and most header lines of one message.
MAX_HEADER_LINE = 1024
MAX_HEADERS = 32
#: Deepest JSON nesting of a message (LSP messages are a few levels deep).
MAX_DEPTH = 64
#: Bytes skipped at a time when a message is too large to read.
CHUNK = 1 << 16
#: JSON-RPC's code for a message that cannot be parsed.
PARSE_ERROR = -32700


class FramingError(Exception):
    """A frame that cannot be read; the message says why. The stream is past it."""


class FrameReader:
    """Reads frames from a byte stream (see the module docstring). `read()` gives the next
    message body, None at the end of the stream, or raises FramingError with the stream past
    the frame that could not be read."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        #: The rest of a line that held junk before a header: read as the next line.
        self._back: bytes | None = None

    def _line(self) -> bytes:
        if self._back is not None:
            line, self._back = self._back, None
            return line
        return self.stream.readline(MAX_HEADER_LINE + 1)

    def _skip_line(self) -> None:
        """Read and drop the rest of an over-long header line."""
        while True:
            part = self.stream.readline(CHUNK)
            if not part or part.endswith(b"\n"):
                return

    def _skip_body(self, length: int) -> None:
        while length > 0:
            part = self.stream.read(min(CHUNK, length))
            if not part:
                return
            length -= len(part)

    def read(self) -> bytes | None:
        length: int | None = None
        problem: str | None = None
        for _ in range(MAX_HEADERS + 1):
            line = self._line()
            if not line:
                return None
            if len(line) > MAX_HEADER_LINE:
                self._skip_line()
                problem = problem or f"a header line is longer than {MAX_HEADER_LINE} bytes"
                continue
            if not line.strip():
                break
            found = line.lower().find(b"content-length:")
            if found > 0:  # junk (an unframed body) glued to the next message's header
                self._back = line[found:]
                raise FramingError("bytes that are not a message before a Content-Length header")
            name, sep, value = line.partition(b":")
            if not sep:
                problem = problem or "a header line without ':'"
                continue
            if name.strip().lower() == b"content-length":
                digits = value.strip()
                if not digits.isdigit() or len(digits) > 12:
                    problem = problem or f"Content-Length {digits[:20]!r} is not a number"
                else:
                    length = int(digits)
        else:
            raise FramingError(f"more than {MAX_HEADERS} header lines")
        if length is None:
            raise FramingError(problem or "a message without a Content-Length header")
        if length > MAX_MESSAGE:
            self._skip_body(length)
            raise FramingError(f"a message of {length:,} bytes is larger than {MAX_MESSAGE:,}")
        body = self.stream.read(length)
        if len(body) < length:
            return None  # the stream ended inside the body
        if problem is not None:
            raise FramingError(problem)
        return body


def parse_error(message: str) -> bytes:
    """A JSON-RPC error response to a message that could not be read, framed."""
    body = json.dumps(
        {"jsonrpc": "2.0", "id": None, "error": {"code": PARSE_ERROR, "message": message}}
    ).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read_all(stream: IO[bytes], put: Any) -> None:
    """The reader thread: every frame (or FramingError) in order, then None at the end."""
    reader = FrameReader(stream)
    while True:
        try:
            body = reader.read()
        except FramingError as exc:
            put(exc)
            continue
        except (OSError, ValueError):  # the stream was closed under us
            body = None
        put(body)
        if body is None:
            return


async def serve(server: Any, stdin: IO[bytes], stdout: BinaryIO) -> None:
    """Read frames from `stdin` and hand them to pygls's protocol until the client exits.
    Frames are read by a daemon thread (a read blocked on a silent client never keeps the
    process alive once the client said `exit`)."""
    from pygls.io_ import StdoutWriter

    protocol = server.protocol
    writer = StdoutWriter(stdout)
    protocol.set_writer(writer)
    loop = asyncio.get_running_loop()
    frames: asyncio.Queue[bytes | FramingError | None] = asyncio.Queue()
    threading.Thread(
        target=_read_all,
        args=(stdin, lambda item: loop.call_soon_threadsafe(frames.put_nowait, item)),
        name="castell-lsp-read",
        daemon=True,
    ).start()
    stop = server._stop_event
    while not stop.is_set():
        body = await frames.get()
        if isinstance(body, FramingError):
            log.warning("unreadable message: %s", body)
            writer.write(parse_error(str(body)))
            continue
        if body is None:
            break
        try:
            message = loads_bounded(
                body,
                max_chars=MAX_MESSAGE,
                max_depth=MAX_DEPTH,
                object_hook=protocol.structure_message,
            )
        except JsonLimitError as exc:
            writer.write(parse_error(f"the message is not usable JSON: {exc}"))
            continue
        except Exception as exc:  # pygls could not structure it: it says why
            server.report_server_error(exc, type(exc))
            writer.write(parse_error(f"the message cannot be read: {exc}"))
            continue
        try:
            protocol.handle_message(message)
        except Exception as exc:
            server.report_server_error(exc, type(exc))


def serve_stdio(server: Any) -> None:
    """`castell lsp`: serve over standard input and output (pygls's `start_io`, bounded)."""
    from threading import Event

    server._stop_event = Event()
    try:
        asyncio.run(serve(server, sys.stdin.buffer, sys.stdout.buffer))
    except BrokenPipeError:
        log.error("the client is gone")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
