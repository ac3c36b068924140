"""Reading rule files safely, before any parser sees them.

A rule file may come from a stranger (a pull request, a downloaded variant). Everything here is
bounded: the file size is capped, the bytes must be UTF-8, and bracket nesting is measured with
a linear scan, so that no input can make the parser recurse deeply, run for minutes, or crash.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .diagnostics import Diagnostics, Span
from .text import visible

#: Largest rule file accepted. The whole of Castell is 12 KB and Calico 14 KB; this leaves room
#: for generated variants. Parsing is linear but costs 5 to 40 µs per byte (most for a long
#: list of expressions), so the cap keeps the worst file at the cap within about three
#: seconds. It was 1 MB, which let a 900 KB file take half a minute (issue 27).
MAX_FILE_BYTES = 64_000
#: Largest total of the files one load reads (the file, what it extends and includes, variants).
MAX_LOAD_BYTES = 128_000
#: Deepest nesting of braces, brackets and parentheses. Real rule files use 4 or 5.
MAX_NESTING = 64
#: Longest integer literal, in digits. Python refuses to convert very long ones anyway.
MAX_INT_DIGITS = 18


@dataclass(frozen=True)
class Source:
    """The text of one rule file and the name used for it in diagnostics."""

    path: str
    text: str

    @cached_property
    def lines(self) -> list[str]:
        """The lines, split once: a renderer asks for them once per diagnostic, and a large file
        with one diagnostic per list item made that quadratic (64,000 items took 43 s)."""
        return split_lines(self.text)


def split_lines(text: str) -> list[str]:
    """The lines of a rule file as the parser numbers them: split at "\n" only, without the
    "\r" of a "\r\n". `str.splitlines` also splits at a lone "\r", a form feed, U+0085 or
    U+2028, which a comment or a string may hold: its line numbers then disagree with every
    span, and a formatter indexing lines by span took text from the wrong line."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


class NotRegularFile(OSError):
    """Raised by `read_capped` for a FIFO, a device, a directory or a socket."""


def resolve_path(path: str | os.PathLike[str]) -> Path:
    """`Path.resolve()` that never raises: a loop of symbolic links (`a -> b -> a`, a link to
    itself) makes `resolve()` raise RuntimeError (OSError from Python 3.13); the path is then
    made absolute as it is, so the confinement check still sees where it is and reading it
    fails with a located "too many levels of symbolic links" instead of a crash."""
    try:
        return Path(path).resolve()
    except (RuntimeError, OSError):
        return Path(os.path.abspath(path))


def read_capped(path: Path, limit: int) -> bytes:
    """At most `limit + 1` bytes of a regular file (one more than allowed shows it is too big).

    The file is opened non-blocking and checked with `fstat` on the open descriptor, so a FIFO
    (which would block forever), a device such as /dev/zero (endless) or a directory is refused
    without reading from it, and a file swapped for one of those after a check is refused too.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(f"{path} is not a regular file")
        chunks = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_source(path: Path, display: str, diags: Diagnostics) -> Source | None:
    """Read and decode a rule file; report why not if it cannot be a rule file."""
    try:
        data = read_capped(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        diags.error("E0271", f"'{visible(display)}' does not exist", Span.point(display))
        return None
    except (NotRegularFile, IsADirectoryError):
        diags.error("E0271", f"'{visible(display)}' is not a regular file", Span.point(display))
        return None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        diags.error("E0271", f"cannot read '{visible(display)}': {reason}", Span.point(display))
        return None
    return decode_source(data, display, diags)


def decode_source(data: bytes, display: str, diags: Diagnostics) -> Source | None:
    if len(data) > MAX_FILE_BYTES:
        diags.error(
            "E0107",
            f"file is larger than {MAX_FILE_BYTES // 1000} KB",
            Span.point(display),
            "rule files are small text files; split a generated file with `include`",
        )
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        diags.error(
            "E0108",
            f"byte 0x{data[exc.start]:02x} at offset {exc.start} is not valid UTF-8",
            Span(display, line, column, line, column + 1),
            "rule files are UTF-8 text; is this a binary file?",
        )
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        offset = text.index("\x00")
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        diags.error(
            "E0108",
            "file contains a NUL byte",
            Span(display, line, column, line, column + 1),
            "rule files are UTF-8 text; is this a binary file?",
        )
        return None
    return Source(display, text)


def brackets(text: str) -> Iterator[tuple[str, int, int]]:
    """Every brace, bracket and parenthesis outside strings and comments: (char, line, column).

    A linear scan that the nesting check and the syntax-error messages share.
    """
    line, column = 1, 1
    in_string = in_comment = escaped = False
    for ch in text:
        if ch == "\n":
            line, column = line + 1, 1
            in_comment = in_string = False
            continue
        if in_comment:
            pass
        elif in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == "#":
            in_comment = True
        elif ch == '"':
            in_string = True
        elif ch in "{[()]}":
            yield ch, line, column
        column += 1


def open_brackets(text: str) -> list[tuple[str, int, int]]:
    """The brackets still open at the end of `text`, outermost first."""
    stack: list[tuple[str, int, int]] = []
    for ch, line, column in brackets(text):
        if ch in "{[(":
            stack.append((ch, line, column))
        elif stack:
            stack.pop()
    return stack


def check_nesting(source: Source, diags: Diagnostics) -> bool:
    """Measure bracket depth with a linear scan (skipping strings and comments).

    Returns False, with a diagnostic, when the nesting is deeper than MAX_NESTING, so that the
    parser and the tree transformer never see pathological depth.
    """
    depth = 0
    for ch, line, column in brackets(source.text):
        if ch in "{[(":
            depth += 1
            if depth > MAX_NESTING:
                diags.error(
                    "E0106",
                    f"nesting deeper than {MAX_NESTING} levels",
                    Span(source.path, line, column, line, column + 1),
                    "rule files need only a few levels of braces; is a closing brace missing?",
                )
                return False
        else:
            depth = max(0, depth - 1)
    return True
