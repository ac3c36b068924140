"""The language server against a hostile or broken client (issue 27, point 9).

Framing: a huge, missing or malformed Content-Length, over-long header lines, bodies that are
not JSON: each is answered with a JSON-RPC parse error and the server reads on (it used to
run out of memory, or wait forever in silence). Documents: over the rule-file cap they get
E0107 as `castell validate` gives it, never a long analysis; analyses run in the background,
a newer change cancels an older one, and requests about unopened files read them within the
cap (a FIFO or /dev/zero never hangs the server).
"""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castell_dsl.tools.framing import MAX_HEADERS, MAX_MESSAGE, FrameReader, FramingError


def frame(body: bytes | dict[str, Any]) -> bytes:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


# ---- the frame reader, as a unit: a fuzzer over byte streams ---------------------------------

GOOD = frame({"jsonrpc": "2.0", "method": "x"})
PIECES = st.sampled_from(
    [
        GOOD,
        b"Content-Length: 99999999999999\r\n\r\n{}",
        b"Content-Length: abc\r\n\r\n",
        b"Content-Length: -5\r\n\r\n",
        b"Content-Type: x\r\n\r\n{}",
        b"\r\n",
        b"X" * 5000 + b"\r\n\r\n",
        b"Content-Length: 3\r\nContent-Length: 4\r\n\r\n{}}}",
        b"Content-Length: 10\r\n\r\n{",
        b"no colon\r\n\r\n",
        b"H: v\r\n" * (MAX_HEADERS + 5) + b"\r\n",
    ]
) | st.binary(max_size=200)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=8))
def test_fuzz_the_frame_reader(pieces: list[bytes]) -> None:
    """Any byte stream: every frame is a body or a FramingError, the stream is consumed to
    its end in finitely many frames, and memory stays bounded (never the claimed length)."""
    stream = FrameReader(io.BufferedReader(io.BytesIO(b"".join(pieces))))  # type: ignore[arg-type]
    tracemalloc.start()
    try:
        for _ in range(10_000):
            try:
                body = stream.read()
            except FramingError:
                continue
            if body is None:
                break
            assert len(body) <= MAX_MESSAGE
        else:
            raise AssertionError("the reader did not reach the end of the stream")
        assert tracemalloc.get_traced_memory()[1] < 8 * 1024 * 1024
    finally:
        tracemalloc.stop()


def test_good_frames_are_read_between_bad_ones() -> None:
    def reader(data: bytes) -> FrameReader:
        return FrameReader(io.BufferedReader(io.BytesIO(data)))  # type: ignore[arg-type]

    body = GOOD.split(b"\r\n\r\n", 1)[1]
    stream = reader(b"Content-Length: 99999999999\r\n\r\n" + b"x" * 100 + GOOD)
    with pytest.raises(FramingError, match="larger than"):
        stream.read()
    stream = reader(b"Foo: 1\r\n\r\n" + GOOD)
    with pytest.raises(FramingError, match="without a Content-Length"):
        stream.read()
    assert stream.read() == body
    stream = reader(b"Foo: 1\r\n\r\n{unframed}" + GOOD)  # a body glued to the next header
    for _ in range(2):
        with pytest.raises(FramingError):
            stream.read()
    assert stream.read() == body


# ---- the real server over pipes ------------------------------------------------------------


class Server:
    """`castell lsp` in a child process, spoken to byte by byte."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "castell_dsl", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
        )
        self.pending = b""
        self.ids = 0

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def request(self, method: str, params: Any) -> int:
        self.ids += 1
        self.send(frame({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params}))
        return self.ids

    def notify(self, method: str, params: Any) -> None:
        self.send(frame({"jsonrpc": "2.0", "method": method, "params": params}))

    def receive(self, wait: float = 60) -> dict[str, Any]:
        assert self.process.stdout is not None
        out = self.process.stdout.fileno()
        deadline = time.monotonic() + wait
        while True:
            head, sep, rest = self.pending.partition(b"\r\n\r\n")
            if sep:
                headers = dict(line.split(b":", 1) for line in head.split(b"\r\n"))
                length = int(headers[b"Content-Length"])
                if len(rest) >= length:
                    self.pending = rest[length:]
                    return json.loads(rest[:length])
            remaining = deadline - time.monotonic()
            assert remaining > 0, "no answer from the server"
            if select.select([out], [], [], remaining)[0]:
                chunk = os.read(out, 1 << 16)
                assert chunk, "the server ended: " + self.stderr()
                self.pending += chunk

    def until(self, test: Any, wait: float = 60) -> dict[str, Any]:
        while True:
            message = self.receive(wait)
            if test(message):
                return message

    def stderr(self) -> str:
        self.process.kill()
        assert self.process.stderr is not None
        return self.process.stderr.read().decode(errors="replace")

    def initialize(self, root: Path) -> None:
        number = self.request(
            "initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
        )
        self.until(lambda m: m.get("id") == number)
        self.notify("initialized", {})

    def open(self, path: Path, text: str, version: int = 1) -> str:
        uri = path.as_uri()
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": "castell",
                    "version": version,
                    "text": text,
                }
            },
        )
        return uri

    def diagnostics(self, uri: str, wait: float = 60) -> list[dict[str, Any]]:
        message = self.until(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            ),
            wait,
        )
        return message["params"]["diagnostics"]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


@pytest.fixture
def server(tmp_path: Path):
    running = Server(tmp_path)
    running.initialize(tmp_path)
    yield running
    running.close()


#: Frames that cannot be read, sent one after the other to one server.
JUNK = [
    b"Content-Type: application/json\r\n\r\n" + b'{"jsonrpc": "2.0"}',
    b"Content-Length: twelve\r\n\r\n",
    b"Y" * 10_000 + b"\r\n\r\n",
    frame(b"{not json"),
    frame(b"[" * 100_000 + b"]" * 100_000),
    frame(b"\xff\xfe\xfd"),
    frame(b'{"jsonrpc": "2.0", "id": 1, "method": "x", "params": ' + b"9" * 5000 + b"}"),
    b"Content-Length: 99999999999\r\n\r\n" + b"x" * 10,  # last: its body never ends
]


def test_broken_frames_are_answered_and_the_server_reads_on(server: Server, tmp_path) -> None:
    for number, junk in enumerate(JUNK[:-1]):
        server.send(junk)
        answer = server.until(lambda m: "error" in m and m.get("id") is None)
        assert answer["error"]["code"] == -32700 and answer["error"]["message"], junk[:40]
        uri = server.open(tmp_path / f"v{number}.castell", 'extends "castell"\n')
        assert server.diagnostics(uri) == [], junk[:40]  # and the next message is read as ever
    server.send(JUNK[-1])  # claims 99,999,999,999 bytes, and the stream ends there
    assert server.process.stdin is not None
    server.process.stdin.close()
    assert server.receive()["error"]["code"] == -32700
    assert server.process.wait(timeout=60) is not None
    stderr = server.stderr()
    assert "MemoryError" not in stderr and "Traceback" not in stderr


def test_a_document_over_the_cap_gets_the_validate_diagnostic(server: Server, tmp_path) -> None:
    """A 300 KB expression used to re-validate for 45 s on every change."""
    terms = " + ".join(["count(size_tokens)"] * 15_000)
    text = f'extends "castell"\noverride scoring {{\n  category size_tokens = {terms}\n}}\n'
    assert len(text) > 200_000
    uri = server.open(tmp_path / "big.castell", text)
    (diagnostic,) = server.diagnostics(uri, wait=30)
    assert diagnostic["code"] == "E0107" and "64 KB" in diagnostic["message"]
    nul = server.open(tmp_path / "nul.castell", 'extends "castell"\n\x00\n')
    assert [d["code"] for d in server.diagnostics(nul)] == ["E0108"]


def _heavy(n: int) -> str:
    """A variant just under the cap whose analysis takes a while (a long list to check)."""
    return (
        'extends "castell"\noverride region Girona { adjacent ['
        + ", ".join(["Barcelona"] * n)
        + "] }\n"
    )


def test_changes_cancel_older_analyses(server: Server, tmp_path) -> None:
    """Five quick changes of a heavy document cost about one analysis, not five; the server
    answers another document's request meanwhile; only the last text's diagnostics come."""
    small = server.open(tmp_path / "small.castell", 'extends "castell"\n')
    server.diagnostics(small)
    heavy_text = _heavy(5_600)
    start = time.monotonic()
    uri = server.open(tmp_path / "heavy.castell", heavy_text)
    once = server.diagnostics(uri, wait=120)
    single = time.monotonic() - start
    assert once and all(d["code"] for d in once)
    start = time.monotonic()
    for version in range(2, 7):
        text = _heavy(5_600 - version)
        server.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
        )
    number = server.request("textDocument/documentSymbol", {"textDocument": {"uri": small}})
    symbols = server.until(lambda m: m.get("id") == number)
    answered = time.monotonic() - start
    final = server.diagnostics(uri, wait=120)
    total = time.monotonic() - start
    assert len(final) == 5_600 - 6 - 1  # the last text's duplicates, not an older one's
    assert symbols["result"] is not None
    assert answered < single  # not behind five analyses
    assert total < 3.5 * single, (single, total)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_requests_about_unopened_files_read_them_within_the_cap(server: Server, tmp_path):
    fifo = tmp_path / "pipe.castell"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.castell"
    huge.write_bytes(b"# filler\n" * 1_000_000)
    for path in (fifo, huge, Path("/dev/zero"), tmp_path / "missing.castell"):
        number = server.request(
            "textDocument/hover",
            {"textDocument": {"uri": path.as_uri()}, "position": {"line": 0, "character": 1}},
        )
        answer = server.until(lambda m, n=number: m.get("id") == n, wait=30)
        assert "result" in answer, answer
