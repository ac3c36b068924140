"""Diagnostics: what is wrong with a rule file, where, and how to fix it.

A diagnostic is plain data (code, severity, message, position, hint). Every check in the
language layer reports through one `Diagnostics` collector so that a run can report *every*
semantic error at once, and every renderer (text, JSON, GitHub annotations) reads the same data.

Codes are stable: tools and CI configurations match on them. New codes are added at the end of
their group; a code is never reused for a different problem. `docs/language.md` lists them.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .text import short_repr, visible

__all__ = ["short_repr", "visible"]  # re-exported: messages quote values through short_repr


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


#: Every diagnostic code with a one-line description (shown by `castell validate --explain`).
CODES: dict[str, str] = {
    # Reading and syntax.
    "E0100": "syntax error: the parser found a token it did not expect",
    "E0101": "unexpected character",
    "E0102": "unterminated string",
    "E0103": "unexpected end of file (a brace or bracket is not closed)",
    "E0104": "missing comma between items",
    "E0105": "missing value after a key",
    "E0106": "nesting too deep",
    "E0107": "file too large",
    "E0108": "file is not UTF-8 text",
    "E0109": "number too large",
    "E0110": "empty rule file",
    "E0111": "unclosed brace or bracket",
    "E0112": "closing brace or bracket without an opening one",
    "E0113": "misspelt or misplaced keyword",
    # Structure of definitions.
    "E0201": "unknown kind of definition",
    "E0202": "unknown field",
    "E0203": "missing required field",
    "E0204": "duplicate definition",
    "E0205": "duplicate field",
    "E0206": "definition needs a name",
    "E0207": "definition takes no name",
    "E0208": "condition not allowed here",
    "E0209": "no game block",
    # Values.
    "E0210": "type error",
    "E0211": "value out of range",
    "E0212": "duplicate key in a map",
    "E0213": "empty range",
    # References.
    "E0220": "unknown reference",
    "E0221": "unknown mechanics",
    # Game-wide consistency.
    "E0230": "asymmetric graph (an edge written on one side only)",
    "E0231": "unreachable node in a graph",
    "E0240": "table with gaps",
    "E0241": "player count without an entry",
    "E0250": "component count disagrees with the declared total",
    # Files, extends and variants.
    "E0270": "cyclic extends or include",
    "E0271": "file or rule set not found",
    "E0272": "override or remove of something not defined",
    "E0273": "conflicting variants",
    "E0274": "unknown variant",
    "E0275": "misplaced extends or include",
    "E0280": "a plugin failed",
    # Expressions.
    "E0290": "unknown function",
    "E0291": "wrong number of arguments",
    "E0292": "expression type error",
    "E0293": "an expression fails (division by zero, a missing key)",
    # Warnings.
    "W0301": "table is never used",
    "W0303": "definition can never apply",
    "W0304": "scoring category that is the same for every player",
    "W0305": "action that can never be taken",
    "W0306": "round in which no player takes a turn",
}


def register_codes(codes: Mapping[str, str], owner: str) -> None:
    """Add a game's own diagnostic codes (its mechanics' `codes`) to the known ones.

    The core table above holds only the language's codes; each game brings its own, so a
    third-party game's checks report in the same vocabulary. A code already known with another
    title is a clash between two plugins, refused with both named.
    """
    for code, title in codes.items():
        known = CODES.get(code)
        if known is not None and known != title:
            raise ValueError(f"{owner}: diagnostic code {code} is already '{known}', not '{title}'")
        CODES[code] = title


@dataclass(frozen=True, slots=True)
class Span:
    """A region of one source file; lines and columns are 1-based, end exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    @classmethod
    def point(cls, path: str, line: int = 1, column: int = 1) -> Span:
        return cls(path, line, column, line, column + 1)


#: What a check says a diagnostic depends on: (kind, name, field) of a definition, where a
#: None name is any definition of the kind and a None field any field. Used to put the
#: diagnostic in the file that changed one of them (see `loader.blame`).
Concern = tuple[str, str | None, str | None]


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem. `notes` are related places ((span, what is there), rendered as `note:`
    lines, `related` in JSON); `concerns` the definitions the check compared, and
    `patch_hint` the fix written as a patch (`override KIND { … }`): both are for putting a
    diagnostic about inherited rules into the variant that broke them."""

    code: str
    severity: Severity
    message: str
    span: Span
    hint: str | None = None
    notes: tuple[tuple[Span, str], ...] = ()
    concerns: tuple[Concern, ...] = ()
    patch_hint: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_json(self) -> dict:
        """The JSON form; text is made `visible`, since reports are printed to terminals too."""
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": visible(self.message, keep_newlines=True),
            "path": visible(self.span.path),
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "hint": visible(self.hint, keep_newlines=True) if self.hint else self.hint,
            "related": [
                {
                    "path": visible(span.path),
                    "line": span.line,
                    "column": span.column,
                    "end_line": span.end_line,
                    "end_column": span.end_column,
                    "message": visible(note, keep_newlines=True),
                }
                for span, note in self.notes
            ],
        }


@dataclass
class Diagnostics:
    """Collects diagnostics; checks append and carry on, so one run reports everything."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(
        self,
        code: str,
        message: str,
        span: Span,
        hint: str | None = None,
        *,
        concerns: Iterable[Concern] = (),
        patch_hint: str | None = None,
    ) -> None:
        assert code in CODES, code
        self.items.append(
            Diagnostic(code, Severity.ERROR, message, span, hint, (), tuple(concerns), patch_hint)
        )

    def warning(
        self,
        code: str,
        message: str,
        span: Span,
        hint: str | None = None,
        *,
        concerns: Iterable[Concern] = (),
        patch_hint: str | None = None,
    ) -> None:
        assert code in CODES, code
        self.items.append(
            Diagnostic(code, Severity.WARNING, message, span, hint, (), tuple(concerns), patch_hint)
        )

    def extend(self, other: Iterable[Diagnostic]) -> None:
        self.items.extend(other)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.items)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def sorted(self) -> list[Diagnostic]:
        """In file order, errors before warnings at the same place; duplicates removed."""
        seen: set[tuple] = set()
        out = []
        for d in sorted(
            self.items,
            key=lambda d: (d.span.path, d.span.line, d.span.column, not d.is_error, d.code),
        ):
            key = (d.code, d.span, d.message)
            if key not in seen:
                seen.add(key)
                out.append(d)
        return out


class RuleError(Exception):
    """Raised when a rule file cannot be turned into a rule set; carries the diagnostics."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics = list(diagnostics)
        first = next((d for d in self.diagnostics if d.is_error), None)
        summary = f"{len(self.diagnostics)} problem(s)"
        if first is not None:
            s = first.span
            summary = f"{s.path}:{s.line}:{s.column}: error[{first.code}]: {first.message}"
        super().__init__(summary)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A 'did you mean' hint naming the closest candidate, if one is close enough."""
    pool = sorted(set(candidates))
    matches = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not matches:
        lowered = {c.lower(): c for c in pool}
        if word.lower() in lowered:
            matches = [lowered[word.lower()]]
    return f"did you mean '{matches[0]}'?" if matches else None


def known_names_hint(what: str, names: Iterable[str], limit: int = 8) -> str:
    names = sorted(set(names))
    if not names:
        return f"no {what} is defined"
    shown = ", ".join(names[:limit]) + (", …" if len(names) > limit else "")
    return f"known {what}: {shown}"


# ---- rendering --------------------------------------------------------------------------------


#: Longest message or hint printed: a message quoting a rule file's text (a 100 KB include path)
#: must not flood a CI log. Real messages are under 200 characters.
MAX_MESSAGE_CHARS = 1000


def _bounded(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render_text(diag: Diagnostic, source_lines: Sequence[str] | None, color: bool = False) -> str:
    """Render like a modern compiler: location, message, the source line, a caret, a help line.

    Everything taken from a rule file (its path, the message, the hint, the source line) is
    passed through `visible`: the text goes to terminals and public CI logs, where an escape
    sequence in a comment would otherwise clear the screen or write the reader's clipboard.
    """
    s = diag.span
    sev = diag.severity.value
    path = visible(s.path)
    message = _bounded(visible(diag.message))
    hint = _bounded(visible(diag.hint)) if diag.hint else None
    if color:
        sev_col = "\x1b[1;31m" if diag.is_error else "\x1b[1;33m"
        head = f"\x1b[1m{path}:{s.line}:{s.column}:\x1b[0m {sev_col}{sev}[{diag.code}]\x1b[0m"
        head += f"\x1b[1m: {message}\x1b[0m"
    else:
        head = f"{path}:{s.line}:{s.column}: {sev}[{diag.code}]: {message}"
    lines = [head]
    if source_lines is not None and 1 <= s.line <= len(source_lines):
        raw = source_lines[s.line - 1]
        if len(raw) > 200:  # keep giant lines readable: show a window around the column
            # Slice before any other work: a per-diagnostic pass over a whole 900 KB line made
            # rendering one diagnostic per list item quadratic.
            start = max(0, s.column - 80)
            raw = raw[start : start + 160]
            col = s.column - start
        else:
            col = s.column
        raw = raw.rstrip("\n").replace("\t", " ")  # as expandtabs(1): a tab is one column
        width = len(str(s.line))
        if s.end_line == s.line and s.end_column > s.column:
            length = s.end_column - s.column
        else:
            length = max(1, len(raw) - col + 1)
        length = max(1, min(length, max(1, len(raw) - col + 1)))
        # Columns count characters of the file; escaping widens some, so measure the shown text.
        text = visible(raw)
        shown_col = len(visible(raw[: col - 1])) + 1
        shown_length = max(1, len(visible(raw[col - 1 : col - 1 + length])))
        gutter = " " * width
        lines.append(f" {gutter} |")
        lines.append(f" {s.line} | {text}")
        lines.append(f" {gutter} | {' ' * (shown_col - 1)}{'^' * shown_length}")
        if hint:
            lines.append(f" {gutter} = help: {hint}")
    else:
        gutter = ""
        if hint:
            lines.append(f"  = help: {hint}")
    for span, note in diag.notes:
        where = f"{visible(span.path)}:{span.line}:{span.column}"
        lines.append(f" {gutter} = note: {where}: {_bounded(visible(note))}")
    return "\n".join(lines)


def outside_workdir(path: str) -> bool:
    """Is this diagnostic path outside the working directory (absolute, or `../`)?
    Display paths are relative to the working directory when inside it."""
    return os.path.isabs(path) or path == ".." or path.startswith(("../", "..\\"))


def render_github(diag: Diagnostic, fallback: str | None = None) -> str:
    """A GitHub Actions workflow command that annotates the file in a pull request.

    Paths are relative to the working directory (the checkout). A diagnostic in a file
    outside it (the installed base rules) would never show on the pull request's diff, so it
    is attached to `fallback` (the file being validated) at line 1, naming where it is.
    """
    s = diag.span
    level = "error" if diag.is_error else "warning"
    where = ""
    if outside_workdir(s.path) and fallback is not None and not outside_workdir(fallback):
        where = f" (at {s.path}:{s.line}:{s.column})"
        s = Span.point(fallback)

    def esc(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    def esc_prop(text: str) -> str:
        return esc(text).replace(":", "%3A").replace(",", "%2C")

    message = f"[{diag.code}] {diag.message}{where}"
    if diag.hint:
        message += f" (help: {diag.hint})"
    for span, note in diag.notes:
        message += f"\nnote: {span.path}:{span.line}: {note}"
    message = _bounded(visible(message, keep_newlines=True))  # newlines become %0A below
    return (
        f"::{level} file={esc_prop(visible(s.path))},line={s.line},col={s.column},"
        f"endLine={s.end_line},endColumn={s.end_column},"
        f"title={esc_prop(diag.code)}::{esc(message)}"
    )


def to_json_report(results: Sequence[tuple[str, Sequence[Diagnostic]]], strict: bool) -> str:
    """The stable JSON contract of `castell validate --format json`."""
    files = []
    all_ok = True
    for path, diags in results:
        ok = not any(d.is_error or (strict and not d.is_error) for d in diags)
        all_ok = all_ok and ok
        files.append({"path": visible(path), "ok": ok, "diagnostics": [d.to_json() for d in diags]})
    return json.dumps({"ok": all_ok, "files": files}, indent=2, ensure_ascii=False)
